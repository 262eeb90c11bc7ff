// The "Account" panel of one's own profile page: a guest keeps the account by
// choosing a password; a registered person changes name or password; anyone deletes the account
// (confirmed in a dialog, and with the password when there is one). REST: docs/api.md, "Account".

import { api } from "./api.js";
import { confirmDialog, h, replaceChildren, showMessage, whileBusy } from "./dom.js";
import { t } from "./i18n.js";
import { languageChooser } from "./language-chooser.js";
import { passwordLengthFits } from "./password.js";

function field(id, label, input, hint) {
  input.id = id;
  return h("label", { class: "field", for: id }, h("span", {}, label), input, hint ? h("small", { class: "hint" }, hint) : null);
}

// No maxlength on a password: the field would cut a longer pasted or generated one without a
// word, and the password kept would not be the one the person (or their password manager) holds.
// The server refuses one over 128 characters with a message instead.
function passwordInput(name, autocomplete) {
  return h("input", { type: "password", name, required: true, autocomplete });
}

function nameInput(value) {
  const input = h("input", { type: "text", name: "username", maxlength: 32, required: true, autocomplete: "username" });
  input.value = value;
  return input;
}

/** A small form: `fields`, one submit button, a message line; `send()` runs on submit. */
function form(id, title, fields, submitLabel, busyLabel, send) {
  const submit = h("button", { type: "submit", class: "primary" }, submitLabel);
  const message = h("p", { class: "message", hidden: true, role: "alert" });
  const element = h("form", { class: "account-form", id, novalidate: true }, h("h3", {}, title), fields,
    h("div", { class: "form-actions" }, submit), message);
  element.addEventListener("submit", async (event) => {
    event.preventDefault();
    showMessage(message, "");
    try {
      const done = await whileBusy(submit, () => send(), busyLabel);
      if (done) showMessage(message, done, "ok");
    } catch (error) {
      showMessage(message, error.message);
    }
  });
  return element;
}

function checkPassword(password) {
  if (!passwordLengthFits(password)) throw new Error(t("A password has 8 to 128 characters."));
}

function keepForm(account) {
  const name = nameInput(account.name);
  const password = passwordInput("new-password", "new-password");
  return form("account-keep", t("Keep this account"),
    [h("p", { class: "hint" }, t("Choose a password: your games and seats stay yours, on every device, even after logging out.")),
      field("account-keep-name", t("Name"), name), field("account-keep-password", t("Password"), password, t("8 to 128 characters."))],
    t("Keep account"), t("Saving…"), async () => {
      checkPassword(password.value);
      await api("POST", "/api/account/register", { name: name.value.trim(), password: password.value });
      window.location.reload();
    });
}

function renameForm(account) {
  const name = nameInput(account.name);
  return form("account-rename", t("Name"), [field("account-name", t("Name"), name,
    t("Names are unique, ignoring case and look-alike letters."))], t("Change name"), t("Saving…"), async () => {
    if (!name.value.trim()) throw new Error(t("Please type a name."));
    await api("POST", "/api/account/name", { name: name.value.trim() });
    window.location.reload();
  });
}

function passwordForm() {
  const current = passwordInput("current-password", "current-password");
  const next = passwordInput("new-password", "new-password");
  return form("account-password", t("Password"),
    [field("account-current-password", t("Current password"), current),
      field("account-new-password", t("New password"), next, t("8 to 128 characters. Your other devices are logged out."))],
    t("Change password"), t("Saving…"), async () => {
      if (!current.value) throw new Error(t("Please type your current password."));
      checkPassword(next.value);
      await api("POST", "/api/account/password", { current_password: current.value, new_password: next.value });
      current.value = next.value = "";
      return t("Password changed. Your other devices were logged out.");
    });
}

function deleteForm(account) {
  const password = account.guest ? null : passwordInput("current-password", "current-password");
  const submit = h("button", { type: "submit", class: "danger-outline", id: "account-delete-button" }, t("Delete account"));
  const message = h("p", { class: "message", hidden: true, role: "alert" });
  const element = h("form", { class: "account-form", id: "account-delete", novalidate: true },
    h("h3", {}, t("Delete account")),
    h("p", { class: "hint" }, t("Your finished and running games stay, shown under \"deleted player\"; a bot plays your running games to the end. This cannot be undone.")),
    password ? field("account-delete-password", t("Password"), password) : null,
    h("div", { class: "form-actions" }, submit), message);
  element.addEventListener("submit", async (event) => {
    event.preventDefault();
    showMessage(message, "");
    if (password && !password.value) {
      showMessage(message, t("Type your password to confirm."));
      password.focus();
      return;
    }
    const sure = await confirmDialog({
      title: t("Delete your account?"),
      text: t("You are logged out everywhere and cannot sign in to this account again."),
      confirmLabel: t("Delete my account"),
      cancelLabel: t("Keep it"),
      danger: true,
    });
    if (!sure) return;
    try {
      await whileBusy(submit, () => api("POST", "/api/account/delete", password ? { password: password.value } : {}), t("Deleting…"));
      window.location.assign("/");
    } catch (error) {
      showMessage(message, error.message);
    }
  });
  return element;
}

/**
 * The account's language, chosen here too: on a phone the header has no room for its chooser, and
 * this is the setting the person's other browsers, e-mails and notices follow. A choice saves
 * and loads the page again in it (language-chooser.js).
 */
function languageSection() {
  const select = languageChooser("account-language");
  select.removeAttribute("aria-label"); // named by its visible label here (its title stays in both languages)
  return h("div", { class: "account-form", id: "account-language-form" }, h("h3", {}, t("Language")),
    field("account-language", t("Language of the site"), select,
      t("Also the language of your e-mails and notices. Auto follows your browser.")));
}

/** Draw the account panel for the signed-in `account` into `container`. */
export function mountAccount(container, account) {
  replaceChildren(container, account.guest ? keepForm(account) : [renameForm(account), passwordForm()], languageSection(),
    deleteForm(account));
}

// The "who am I" corner shared by both pages: play as a guest (a name is enough), log in or
// create an account (name + password), or, once signed in, the name and a logout button.

import { api, currentAccount } from "./api.js";
import { confirmDialog, h, replaceChildren, showMessage, whileBusy } from "./dom.js";
import { playerPath } from "./links.js";
import { mountInvitations } from "./invitations.js";
import { forgetThisBrowser } from "./notifications.js";
import { passwordLengthFits } from "./password.js";
import { t } from "./i18n.js";

/**
 * Draw the session corner into `container` and keep it current.
 * `onChange(account or null)` runs after every sign-in and sign-out (and once at start).
 * Resolves to the account (or null) found at start.
 */
export async function mountSession(container, onChange) {
  let account = null;
  let failed = false;
  const header = container.closest("header");
  const invitations = header ? mountInvitations(header) : null;
  const changed = (next) => {
    if (invitations) invitations.setAccount(next);
    onChange(next);
  };
  try {
    account = await currentAccount();
  } catch (error) {
    failed = true;
    replaceChildren(container, h("span", { class: "message message-error" }, t("Cannot check who you are: {reason}", { reason: error.message })));
  }
  if (!failed) draw();
  changed(account);
  return account;

  function signedIn(next) {
    account = next;
    draw();
    changed(account);
  }

  function draw() {
    if (account) drawSignedIn();
    else drawSignedOut();
  }

  function drawSignedIn() {
    const logout = h("button", { type: "button", class: "link-button", id: "logout" }, t("Log out"));
    if (!account.guest) logout.title = t("Logs this account out on every device");
    const message = h("span", { class: "message", hidden: true, role: "alert" });
    logout.addEventListener("click", async () => {
      if (account.guest) {
        const sure = await confirmDialog({
          title: t("Log out of a guest account?"),
          text: t("As a guest you will lose access to your seats and games. Log out anyway? A guest account cannot be signed into again; create an account with a password next time to keep your games."),
          confirmLabel: t("Log out anyway"),
          cancelLabel: t("Stay signed in"),
          danger: true,
        });
        if (!sure) return;
      }
      try {
        // This browser stops telling the account's turns: the next person here is not told them.
        await whileBusy(logout, async () => {
          await forgetThisBrowser();
          await api("POST", "/api/auth/logout");
        }, t("Logging out…"));
        signedIn(null);
      } catch (error) {
        showMessage(message, error.message);
      }
    });
    replaceChildren(
      container,
      h(
        "span",
        { class: "who", id: "who", "data-guest": String(Boolean(account.guest)) },
        h("span", { class: "who-label" }, `${t("Signed in as")} `),
        h("strong", { id: "who-name" }, account.name),
        account.guest ? h("span", { class: "muted who-guest" }, ` ${t("(guest)")}`) : null,
      ),
      h("a", { class: "link-button", id: "my-games", href: playerPath(account.id) }, t("My profile")),
      logout,
      message,
    );
  }

  function drawSignedOut() {
    const guest = guestForm();
    const auth = authToggle();
    // One form's error at a time: an older error of the other form read as if about this try.
    const clear = (/** @type {Element} */ root) => root.querySelectorAll(".message").forEach((element) => showMessage(/** @type {HTMLElement} */ (element), ""));
    guest.addEventListener("submit", () => clear(auth), true);
    auth.addEventListener("submit", () => clear(guest), true);
    replaceChildren(container, guest, auth);
  }

  function guestForm() {
    const input = h("input", {
      type: "text",
      name: "name",
      id: "guest-name",
      placeholder: t("Your name"),
      maxlength: 32,
      required: true,
      autocomplete: "nickname",
      "aria-label": t("Your name"),
    });
    const submit = h("button", { type: "submit", class: "primary", id: "guest-login" }, t("Play as guest"));
    const message = h("span", { class: "message", hidden: true, role: "alert" });
    const form = h("form", { class: "guest-form", id: "guest-form" }, input, submit, message);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) {
        showMessage(message, t("Please type a name."));
        input.focus();
        return;
      }
      showMessage(message, "");
      try {
        signedIn(await whileBusy(submit, () => api("POST", "/api/auth/guest", { name }), t("Signing in…")));
      } catch (error) {
        showMessage(message, error.message);
      }
    });
    return form;
  }

  // "Log in / Register": a small panel under the corner with one form and two modes.
  function authToggle() {
    const open = h("button", { type: "button", class: "link-button", id: "auth-open", "aria-expanded": "false", "aria-controls": "auth-panel" }, t("Log in / Register"));
    let mode = "login";
    const loginTab = h("button", { type: "button", role: "tab", id: "auth-mode-login", class: "auth-tab" }, t("Log in"));
    const registerTab = h("button", { type: "button", role: "tab", id: "auth-mode-register", class: "auth-tab" }, t("Create account"));
    const name = h("input", { type: "text", id: "auth-name", name: "username", maxlength: 32, required: true, autocomplete: "username" });
    const password = h("input", { type: "password", id: "auth-password", name: "password", required: true });
    const hint = h("small", { class: "hint", id: "auth-password-hint" }, t("8 to 128 characters."));
    const submit = h("button", { type: "submit", class: "primary", id: "auth-submit" }, t("Log in"));
    const message = h("p", { class: "message", id: "auth-message", hidden: true, role: "alert" });
    const form = h(
      "form",
      { class: "auth-form", id: "auth-form", novalidate: true }, // checked here, with a message in words
      h("label", { class: "field", for: "auth-name" }, h("span", {}, t("Name")), name),
      h("label", { class: "field", for: "auth-password" }, h("span", {}, t("Password")), password, hint),
      h("div", { class: "form-actions" }, submit),
      message,
    );
    const panel = h(
      "div",
      { class: "auth-panel", id: "auth-panel", hidden: true },
      h("div", { class: "auth-tabs", role: "tablist", "aria-label": t("Log in or create an account") }, loginTab, registerTab),
      form,
      h("p", { class: "hint auth-note" }, t("An account keeps your tables and games on every device. A guest only needs a name, but loses everything on logging out.")),
    );

    function setMode(next) {
      mode = next;
      loginTab.setAttribute("aria-selected", String(mode === "login"));
      registerTab.setAttribute("aria-selected", String(mode === "register"));
      submit.textContent = mode === "login" ? t("Log in") : t("Create account");
      password.autocomplete = mode === "login" ? "current-password" : "new-password";
      hint.hidden = mode === "login";
      panel.dataset.mode = mode;
      showMessage(message, "");
    }
    function toggle(show) {
      panel.hidden = !show;
      open.setAttribute("aria-expanded", String(show));
      if (show) name.focus();
    }
    setMode("login");
    loginTab.addEventListener("click", () => setMode("login"));
    registerTab.addEventListener("click", () => setMode("register"));
    open.addEventListener("click", () => toggle(panel.hidden));
    panel.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        toggle(false);
        open.focus();
      }
    });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const body = { name: name.value.trim(), password: password.value };
      if (!body.name) {
        showMessage(message, t("Please type your name."));
        name.focus();
        return;
      }
      if (!body.password) {
        showMessage(message, t("Please type your password."));
        password.focus();
        return;
      }
      if (mode === "register" && !passwordLengthFits(body.password)) {
        showMessage(message, t("A password has 8 to 128 characters."));
        password.focus();
        return;
      }
      showMessage(message, "");
      const path = mode === "login" ? "/api/auth/login" : "/api/auth/register";
      try {
        signedIn(await whileBusy(submit, () => api("POST", path, body), mode === "login" ? t("Logging in…") : t("Creating…")));
      } catch (error) {
        showMessage(message, error.code === "conflict" ? t("{reason}. Log in instead, or choose another name.", { reason: error.message }) : error.message);
      }
    });
    const wrap = h("span", { class: "auth-wrap" }, h("span", { class: "muted auth-or" }, t("or")), open, panel);
    const outside = (event) => {
      if (!wrap.isConnected) document.removeEventListener("pointerdown", outside);
      else if (!panel.hidden && !wrap.contains(event.target)) toggle(false);
    };
    document.addEventListener("pointerdown", outside);
    return wrap;
  }
}

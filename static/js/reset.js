// The page of a one-time password-reset link (/reset-password#token=...; docs/api.md): the token
// stays in the fragment, which no server or proxy log sees; it is sent once, with the new password.

import { api } from "./api.js";
import { showMessage, whileBusy } from "./dom.js";
import { playerPath } from "./links.js";
import { passwordLengthFits } from "./password.js";
import { t } from "./i18n.js";
import { translatePage } from "./words.js";

translatePage();

const token = new URLSearchParams(window.location.hash.slice(1)).get("token") || "";
const form = document.getElementById("reset-form");
const password = /** @type {HTMLInputElement} */ (document.getElementById("reset-password"));
const submit = /** @type {HTMLButtonElement} */ (document.getElementById("reset-submit"));
const message = document.getElementById("reset-message");

if (!token) {
  showMessage(message, t("This link is incomplete: ask the host for a new one."));
  submit.disabled = true;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!passwordLengthFits(password.value)) {
    showMessage(message, t("A password has 8 to 128 characters."));
    password.focus();
    return;
  }
  try {
    const account = await whileBusy(submit, () => api("POST", "/api/auth/reset-password", { token, password: password.value }), t("Saving…"));
    history.replaceState(null, "", window.location.pathname); // the spent token leaves the address bar
    showMessage(message, t("Your password is set. You are signed in as {name}.", { name: account.name }), "ok");
    submit.disabled = true;
    setTimeout(() => window.location.assign(playerPath(account.id)), 1500);
  } catch (error) {
    showMessage(message, error.message);
  }
});

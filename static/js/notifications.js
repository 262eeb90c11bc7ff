// The "Notifications" panel of one's own profile page: browser notifications
// through Web Push (the service worker /sw.js shows them while no tab is open) and e-mail, each
// opt-in and each with a way to turn it off. REST shapes: docs/api.md, "Notifications".

import { api, ApiError } from "./api.js";
import { confirmDialog, h, replaceChildren, showMessage, whileBusy } from "./dom.js";
import { t, tn } from "./i18n.js";

const SERVICE_WORKER = "/sw.js";
const SUBSCRIBE_SECONDS = 30; // a browser whose push service cannot be reached may otherwise wait for minutes

function withinTime(promise, seconds) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(t("the browser's push service did not answer within {n} seconds", { n: seconds }))), seconds * 1000);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Why this browser cannot take push notices, in words; null when it can. */
export function pushUnavailableReason() {
  if (!window.isSecureContext) {
    return t("Browser notifications need the site on https (or on this computer, localhost). Ask the host, or use e-mail.");
  }
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    return t("This browser cannot show notifications while the site is closed. Use e-mail, or another browser.");
  }
  return null;
}

function keyBytes(base64url) {
  const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
}

function sameKey(subscription, publicKey) {
  const held = subscription.options && subscription.options.applicationServerKey;
  if (!held) return true; // the browser does not say: keep it
  const wanted = keyBytes(publicKey);
  const bytes = new Uint8Array(held);
  return bytes.length === wanted.length && bytes.every((byte, index) => byte === wanted[index]);
}

async function browserSubscription() {
  if (pushUnavailableReason()) return null;
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

/** Turn this browser's push notices off for the signed-in account (on logout); never throws. */
export async function forgetThisBrowser() {
  try {
    const subscription = await browserSubscription();
    if (!subscription) return;
    const choices = await api("GET", "/api/notifications");
    const mine = choices.push.subscriptions.find((entry) => entry.endpoint === subscription.endpoint);
    if (mine) await api("DELETE", `/api/notifications/push/${mine.id}`);
    await subscription.unsubscribe();
  } catch {
    // logging out goes on; the server drops the subscription when its push service says it is gone
  }
}

async function askPermission() {
  if (Notification.permission === "granted") return "granted";
  if (Notification.permission === "denied") return "denied";
  try {
    return await Notification.requestPermission();
  } catch {
    return "denied";
  }
}

/** Subscribe this browser and tell the server; resolves to the subscription. */
async function subscribeBrowser(publicKey) {
  await navigator.serviceWorker.register(SERVICE_WORKER, { scope: "/" });
  const registration = await navigator.serviceWorker.ready;
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription, publicKey)) {
    await subscription.unsubscribe(); // made for another server key: useless now
    subscription = null;
  }
  const fresh = () => withinTime(
    registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }),
    SUBSCRIBE_SECONDS,
  );
  if (!subscription) subscription = await fresh();
  try {
    await api("POST", "/api/notifications/push", subscription.toJSON());
  } catch (error) {
    if (error.code !== "conflict") throw error;
    // This browser told another account's turns (someone logged out without turning them off):
    // a new subscription gives it a new address, and the old one goes dead.
    await subscription.unsubscribe();
    subscription = await fresh();
    await api("POST", "/api/notifications/push", subscription.toJSON());
  }
  return subscription;
}

/** Draw the panel into `container` for the signed-in `account`. */
export function mountNotifications(container, account) {
  const pushStatus = h("p", { id: "notify-push-status" });
  const pushActions = h("div", { class: "actions" });
  const pushMessage = h("p", { class: "message", id: "notify-push-message", role: "alert", hidden: true });
  const mailStatus = h("p", { id: "notify-email-status" });
  const mailBody = h("div", { id: "notify-email-body" });
  const mailMessage = h("p", { class: "message", id: "notify-email-message", role: "alert", hidden: true });
  replaceChildren(
    container,
    h("p", { class: "muted" }, t("Be told when it is your turn while you are away from the table. Nothing is sent unless you turn it on here.")),
    h("h3", {}, t("In this browser")),
    pushStatus,
    pushActions,
    pushMessage,
    h("h3", {}, t("By e-mail")),
    mailStatus,
    mailBody,
    mailMessage,
  );
  let choices = null;

  async function refresh() {
    try {
      choices = await api("GET", "/api/notifications");
    } catch (error) {
      showMessage(pushMessage, t("Could not load your notification settings: {reason}", { reason: error.message }));
      return;
    }
    await drawPush();
    drawMail();
  }

  async function drawPush() {
    const reason = pushUnavailableReason();
    const others = choices.push.subscriptions.length;
    if (reason) {
      pushStatus.textContent = reason;
      pushStatus.dataset.state = "unsupported";
      replaceChildren(pushActions, others ? offEverywhereButton(others) : null);
      return;
    }
    let subscription = null;
    try {
      subscription = await browserSubscription();
    } catch {
      subscription = null;
    }
    const mine = subscription && choices.push.subscriptions.find((entry) => entry.endpoint === subscription.endpoint);
    const elsewhere = others - (mine ? 1 : 0);
    const where = elsewhere ? ` ${tn("Also on for {n} other browser.", "Also on for {n} other browsers.", elsewhere)}` : "";
    if (mine) {
      pushStatus.textContent = `${t("On: this browser shows a notification when it is your turn.")}${where}`;
      pushStatus.dataset.state = "on";
      const off = h("button", { type: "button", id: "notify-push-off" }, t("Turn off for this browser"));
      off.addEventListener("click", () => run(off, pushMessage, t("Turning off…"), async () => {
        await api("DELETE", `/api/notifications/push/${mine.id}`);
        await subscription.unsubscribe().catch(() => {});
      }));
      replaceChildren(pushActions, off, elsewhere ? offEverywhereButton(others) : null);
    } else {
      const blocked = Notification.permission === "denied";
      pushStatus.textContent = `${t("Off for this browser.")}${where}`;
      pushStatus.dataset.state = "off";
      const on = h("button", { type: "button", class: "primary", id: "notify-push-on" }, t("Turn on for this browser"));
      on.addEventListener("click", () => turnOnPush(on));
      replaceChildren(pushActions, on, others ? offEverywhereButton(others) : null);
      if (blocked) showMessage(pushMessage, blockedText(), "info");
    }
  }

  function blockedText() {
    return t("Notifications are blocked for this site. Allow them in your browser's site settings (the icon left of the address), then press the button again.");
  }

  async function turnOnPush(button) {
    showMessage(pushMessage, "");
    const permission = await askPermission();
    if (permission !== "granted") {
      showMessage(pushMessage, permission === "denied" ? blockedText() : t("You did not allow notifications. Press the button again to be asked once more."));
      return;
    }
    await run(button, pushMessage, t("Turning on…"), async () => {
      try {
        await subscribeBrowser(choices.push.public_key);
      } catch (error) {
        if (error instanceof ApiError) throw error; // the server's own words
        throw new Error(t("The browser could not subscribe ({reason}). Try again later, or use e-mail.", { reason: error.message || error.name }));
      }
    }, t("On: you will be told here when it is your turn."));
  }

  function offEverywhereButton(count) {
    const button = h("button", { type: "button", class: "danger-outline", id: "notify-push-off-all" }, t("Turn off everywhere"));
    button.addEventListener("click", async () => {
      const sure = await confirmDialog({
        title: t("Turn off browser notifications everywhere?"),
        text: t("No browser ({n} now) will tell you of your turns until you turn them on again there.", { n: count }),
        confirmLabel: t("Turn off everywhere"),
        danger: true,
      });
      if (!sure) return;
      await run(button, pushMessage, t("Turning off…"), async () => {
        await api("DELETE", "/api/notifications/push");
        const subscription = await browserSubscription().catch(() => null);
        if (subscription) await subscription.unsubscribe().catch(() => {});
      });
    });
    return button;
  }

  function drawMail() {
    const mail = choices.email;
    mailBody.replaceChildren();
    if (!mail.available) {
      mailStatus.textContent = t("This server sends no e-mail (its host has not set it up).");
      mailStatus.dataset.state = "unavailable";
      return;
    }
    if (!mail.allowed) {
      mailStatus.textContent = t("Guests cannot get e-mail: create an account (Log in / Register) to add an address.");
      mailStatus.dataset.state = "guest";
      return;
    }
    if (!mail.address) {
      mailStatus.textContent = t("No address yet.");
      mailStatus.dataset.state = "none";
    } else if (!mail.confirmed) {
      mailStatus.textContent = t("Waiting for you to confirm {address}: follow the link we mailed there.", { address: mail.address });
      mailStatus.dataset.state = "unconfirmed";
    } else {
      mailStatus.textContent = mail.enabled
        ? t("On: we mail {address} when it is your turn.", { address: mail.address })
        : t("Off: nothing is mailed to {address}.", { address: mail.address });
      mailStatus.dataset.state = mail.enabled ? "on" : "off";
    }
    const input = h("input", { type: "email", id: "notify-email", name: "email", maxlength: 254, autocomplete: "email", required: true, "aria-label": t("E-mail address") });
    input.value = mail.address || "";
    const save = h("button", { type: "submit", class: mail.address ? "" : "primary", id: "notify-email-save" }, mail.address && !mail.confirmed ? t("Send the link again") : t("Save address"));
    const form = h("form", { class: "chat-form", id: "notify-email-form", novalidate: true }, input, save);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const address = input.value.trim();
      if (!address) {
        showMessage(mailMessage, t("Please type an e-mail address."));
        input.focus();
        return;
      }
      await run(save, mailMessage, t("Sending…"), () => api("PUT", "/api/notifications/email", { address }),
        t("We sent a link to {address}. Follow it to get turn e-mails there.", { address }));
    });
    mailBody.append(form);
    if (!mail.address) return;
    const remove = h("button", { type: "button", class: "link-button", id: "notify-email-remove" }, t("Remove address"));
    remove.addEventListener("click", async () => {
      const sure = await confirmDialog({
        title: t("Remove your e-mail address?"),
        text: t("Nothing will be mailed to {address} any more.", { address: mail.address }),
        confirmLabel: t("Remove"),
        danger: true,
      });
      if (sure) await run(remove, mailMessage, t("Removing…"), () => api("DELETE", "/api/notifications/email"));
    });
    if (!mail.confirmed) {
      mailBody.append(h("div", { class: "actions" }, remove));
      return;
    }
    const toggle = h("input", { type: "checkbox", id: "notify-email-enabled" });
    toggle.checked = mail.enabled;
    toggle.addEventListener("change", () => run(toggle, mailMessage, null, () => api("PATCH", "/api/notifications/email", { enabled: toggle.checked })));
    mailBody.append(
      h("label", { class: "field-check", for: "notify-email-enabled" }, toggle, h("span", {}, t("E-mail me when it is my turn or a friend invites me"))),
      h("div", { class: "actions" }, remove),
    );
  }

  async function run(control, message, busyLabel, action, done) {
    showMessage(message, "");
    try {
      await whileBusy(control, action, busyLabel);
      await refresh();
      if (done) showMessage(message, done, "ok");
    } catch (error) {
      // A refused request changed nothing: the panel stays as it is (with what was typed), and says why.
      showMessage(message, error.message);
    }
  }

  refresh();
  return { refresh, account };
}

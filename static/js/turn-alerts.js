// Turn cues beyond the tab title: a favicon with a red mark while it is your turn, an optional
// short chime (WebAudio; off by default), and a browser notification when the tab is in the
// background. Both choices are remembered in localStorage; permission is asked from the click
// that turns notifications on.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const SOUND_KEY = "caravanserai.turnSound";
const NOTIFY_KEY = "caravanserai.turnNotify";
export const ICON = "/static/favicon.svg";
export const TURN_ICON = "/static/favicon-turn.svg";

function stored(key) {
  try {
    return window.localStorage.getItem(key) === "on";
  } catch {
    return false; // storage blocked (private mode, settings)
  }
}

function store(key, on) {
  try {
    window.localStorage.setItem(key, on ? "on" : "off");
  } catch {
    // not remembered; it still works for this page
  }
}

const notificationsSupported = () => "Notification" in window && window.isSecureContext;

let audio = null;

function audioContext() {
  // Safari before 14.1 has only the prefixed constructor.
  const Context = window.AudioContext || /** @type {Window & { webkitAudioContext?: typeof AudioContext }} */ (window).webkitAudioContext;
  if (!Context) return null;
  if (!audio) audio = new Context();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** A short two-note chime, about a third of a second. */
export function chime() {
  const context = audioContext();
  if (!context) return;
  const start = context.currentTime + 0.01;
  [
    [660, 0],
    [990, 0.13],
  ].forEach(([frequency, offset]) => {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = "sine";
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + offset);
    gain.gain.exponentialRampToValueAtTime(0.2, start + offset + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.24);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(start + offset);
    oscillator.stop(start + offset + 0.26);
  });
}

export function setFavicon(href) {
  let links = [...document.querySelectorAll('link[rel~="icon"]')];
  if (!links.length) {
    const link = h("link", { rel: "icon", type: "image/svg+xml" });
    document.head.append(link);
    links = [link];
  }
  for (const link of links) if (link.getAttribute("href") !== href) link.setAttribute("href", href);
}

/**
 * The turn cues of one game page. `update(myTurn, what)` after every drawn state; `element` is
 * the pair of switches for the side panel.
 */
export function turnAlerts() {
  let sound = stored(SOUND_KEY);
  let notify = stored(NOTIFY_KEY) && notificationsSupported() && Notification.permission === "granted";
  let wasMyTurn = null; // null until the first state: opening a page on your turn is no news
  let notification = null;

  // A remembered "sound on" needs one user gesture on this page before audio may start.
  const unlock = () => {
    if (sound) audioContext();
    window.removeEventListener("pointerdown", unlock);
    window.removeEventListener("keydown", unlock);
  };
  window.addEventListener("pointerdown", unlock);
  window.addEventListener("keydown", unlock);

  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && notification) {
      notification.close();
      notification = null;
    }
  });

  const soundBox = h("input", { type: "checkbox", id: "alert-sound" });
  soundBox.checked = sound;
  const notifyBox = h("input", { type: "checkbox", id: "alert-notify" });
  notifyBox.checked = notify;
  const note = h("small", { class: "hint", id: "alert-note", hidden: true });
  if (!notificationsSupported()) {
    notifyBox.disabled = true;
    note.textContent = t("Notifications need the server on https.");
    note.hidden = false;
  }

  soundBox.addEventListener("change", () => {
    sound = soundBox.checked;
    store(SOUND_KEY, sound);
    if (sound) chime(); // a sample, and the click unlocks audio
  });
  notifyBox.addEventListener("change", async () => {
    if (!notifyBox.checked) {
      notify = false;
      store(NOTIFY_KEY, false);
      return;
    }
    let permission = Notification.permission;
    if (permission === "default") {
      try {
        permission = await Notification.requestPermission();
      } catch {
        permission = "denied";
      }
    }
    notify = permission === "granted";
    notifyBox.checked = notify;
    store(NOTIFY_KEY, notify);
    note.hidden = notify;
    note.textContent = notify ? "" : t("Notifications are blocked for this site in your browser's settings.");
  });

  const element = h(
    "div",
    { class: "turn-alerts", role: "group", "aria-label": t("Turn alerts") },
    h("label", { class: "field-check", for: "alert-sound" }, soundBox, h("span", {}, t("Sound when it is my turn"))),
    h("label", { class: "field-check", for: "alert-notify" }, notifyBox, h("span", {}, t("Notify me when this tab is in the background"))),
    note,
  );

  function update(myTurn, what) {
    setFavicon(myTurn ? TURN_ICON : ICON);
    document.body.dataset.favicon = myTurn ? "turn" : "normal";
    const news = myTurn && wasMyTurn === false;
    wasMyTurn = myTurn;
    if (!news) {
      if (!myTurn && notification) {
        notification.close();
        notification = null;
      }
      return;
    }
    if (sound) chime();
    if (notify && document.hidden && notificationsSupported() && Notification.permission === "granted") {
      try {
        notification = new Notification(t("Your turn"), { body: what, tag: "caravanserai-turn", icon: TURN_ICON });
        notification.onclick = () => {
          window.focus();
          notification.close();
        };
      } catch {
        notification = null; // some mobile browsers only notify from a service worker
      }
    }
  }

  return { element, update };
}

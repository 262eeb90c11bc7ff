// The table's chat: the latest lines over REST, new ones live as "chat" frames, a one-line input.
// Who may read and write is the server's answer (GET .../chat: can_post and reason); this module
// only shows it. Every message is drawn as text (h() makes text nodes), never as markup.

import { api, withInvite } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { currentLanguage, t } from "./i18n.js";
import { capitalised } from "./words.js";

const MAX_CHARACTERS = 300; // the server's limit, counted after trimming
const POLL_MS = 3000; // without a live socket (the waiting room, a reconnect) the list is polled
const KEEP = 200; // lines kept on the page

/**
 * Mount the chat panel (#chat-card of table.html) for one table.
 *
 * Returns `{ receive(frame), connection(status), refresh() }`: give it every socket frame (it
 * uses "chat" frames), the socket's status ("live" stops the polling), and call refresh() when
 * the signed-in account changes. The panel sits under the waiting room before the game starts
 * and beside the board once it runs.
 */
export function mountChat({ tableId, inviteCode, mayRead = () => null }) {
  const card = document.getElementById("chat-card");
  const list = document.getElementById("chat-messages");
  const form = document.getElementById("chat-form");
  const input = /** @type {HTMLInputElement} */ (document.getElementById("chat-input"));
  const send = /** @type {HTMLButtonElement} */ (document.getElementById("chat-send"));
  const note = document.getElementById("chat-note");
  const path = `/api/tables/${encodeURIComponent(tableId)}/chat`;
  const messages = new Map(); // id -> message
  let live = false;
  let canPost = false;
  let sending = false;
  let polling = false;

  input.maxLength = MAX_CHARACTERS;

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || !canPost || sending) return;
    sending = true;
    send.disabled = true;
    try {
      merge([await api("POST", path, inviteCode ? { text, invite_code: inviteCode } : { text })]);
      input.value = "";
      showNote(null);
    } catch (error) {
      showNote(error.code === "rate_limited" ? t("You are writing very fast; wait a moment.") : error.message, "error");
      if (error.status === 401 || error.status === 403) refresh();
    } finally {
      sending = false;
      send.disabled = !canPost;
      input.focus();
    }
  });

  async function refresh() {
    place();
    if (mayRead() === false) {
      // A spectator where the chat is for the players: say so, and ask the server nothing it would refuse.
      messages.clear();
      replaceChildren(list);
      card.dataset.readable = "false";
      allowPosting(false, t("the chat of this table is for its players only"));
      return;
    }
    let answer;
    try {
      answer = await api("GET", withInvite(path, inviteCode));
    } catch (error) {
      place();
      if (error.status === 403 || error.status === 401 || error.status === 404) {
        // Not for this viewer: show why, and not a single line.
        messages.clear();
        replaceChildren(list);
        card.dataset.readable = "false";
        allowPosting(false, error.message);
      }
      return;
    }
    place();
    card.dataset.readable = "true";
    merge(answer.messages || []);
    allowPosting(Boolean(answer.can_post), answer.reason);
  }

  function allowPosting(allowed, reason) {
    canPost = allowed;
    input.disabled = !allowed;
    send.disabled = !allowed || sending;
    card.dataset.canPost = String(allowed);
    input.placeholder = allowed ? t("Say something…") : "";
    showNote(allowed ? null : sentence(reason || t("You cannot write in this chat.")), "info");
  }

  function showNote(text, kind = "info") {
    note.hidden = !text;
    note.textContent = text ? capitalised(text) : ""; // a server's refusal is written to follow "...: "
    note.dataset.kind = kind;
  }

  function merge(incoming) {
    const newest = messages.size ? Math.max(...messages.keys()) : 0;
    let inOrder = true;
    const added = [];
    for (const message of incoming) {
      if (!message || messages.has(message.id)) continue;
      messages.set(message.id, message);
      added.push(message);
      if (message.id < newest) inOrder = false;
    }
    if (!added.length) return;
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    const ids = [...messages.keys()].sort((a, b) => a - b);
    for (const id of ids.slice(0, Math.max(0, ids.length - KEEP))) messages.delete(id);
    if (inOrder && list.children.length + added.length <= KEEP) {
      for (const message of added.sort((a, b) => a.id - b.id)) list.append(line(message));
    } else {
      replaceChildren(list, ids.slice(-KEEP).map((id) => line(messages.get(id))));
    }
    if (atBottom || added.length > 1) list.scrollTop = list.scrollHeight;
  }

  function line(message) {
    const at = new Date(message.at);
    return h(
      "li",
      {
        class: `chat-message${message.seat === null ? " chat-spectator" : ""}`,
        "data-message-id": String(message.id),
        "data-seat": message.seat === null ? "" : String(message.seat),
        title: Number.isNaN(at.getTime()) ? null : at.toLocaleString(currentLanguage()),
      },
      Number.isNaN(at.getTime()) ? null : h("time", { class: "chat-time", datetime: message.at }, clock(at)),
      h("span", { class: "chat-name" }, message.name, message.seat === null ? ` ${t("(watching)")}` : ""),
      " ",
      h("span", { class: "chat-text" }, message.text),
    );
  }

  /** Under the waiting room before the start, beside the board once the game is shown. */
  function place() {
    const game = document.getElementById("game");
    const waiting = document.getElementById("waiting-room");
    const side = game && game.querySelector(".game-side");
    if (game && !game.hidden && side) {
      if (card.parentElement !== side) side.insertBefore(card, side.querySelector(".log-section"));
      card.hidden = false;
    } else if (waiting && !waiting.hidden) {
      if (card.previousElementSibling !== waiting) waiting.after(card);
      card.hidden = false;
    } else {
      card.hidden = true;
    }
  }

  async function keepPolling() {
    if (polling) return;
    polling = true;
    while (!live) {
      if (!document.hidden) await refresh();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    polling = false;
  }

  function connection(status) {
    const wasLive = live;
    live = status === "live";
    place();
    if (live && !wasLive) refresh(); // catch up on whatever was said while the socket was away
    if (!live) keepPolling();
  }

  function receive(frame) {
    if (frame && frame.type === "chat" && frame.message) merge([frame.message]);
    if (frame && frame.type === "chat_removed") {
      // An admin deleted a line: draw the chat again from what the server still holds.
      messages.clear();
      replaceChildren(list);
      refresh();
    }
  }

  keepPolling();
  return { receive, connection, refresh };
}

/** "14:05" for today, "3 Dec 14:05" for an older line (the browser's own time zone). */
function clock(at) {
  const time = at.toLocaleTimeString(currentLanguage(), { hour: "2-digit", minute: "2-digit" });
  return at.toDateString() === new Date().toDateString() ? time : `${at.toLocaleDateString(currentLanguage(), { day: "numeric", month: "short" })} ${time}`;
}

function sentence(text) {
  const trimmed = String(text).trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

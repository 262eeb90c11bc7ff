// The move bar above the board. "Confirm my moves", a setting of the account (so
// every device of the player uses it; on by default on touch screens), holds a chosen move until
// Confirm or Cancel; "Undo" takes back the player's last move while the server says it may (the
// state frame's `undo`). A move held for Confirm is named in one sentence, in the words of the
// game's log, and drawn on the board by the renderer's `preview` hook (move-preview.js). A renderer
// that shows a move before sending it and asks itself (it exports `confirmsMoves`, like Nimalia's)
// is not asked twice. When the player's own move took Undo away, the bar says so where the button
// was, in one short line that never moves the board. It decides no rule: the server judges every move and every undo.

import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";

const SETTING_KEY = "caravanserai.confirmMoves"; // this browser's own choice: "on" or "off"
const UNSAVED_KEY = "caravanserai.confirmMovesUnsaved"; // the account id whose choice did not reach the server

function stored(key) {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage refused (private mode): nothing kept
  }
}

function store(key, value) {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // not kept: the choice lasts for this page only
  }
}

/** Whether this browser's last choice for `account` never reached the server (it is sent again). */
function unsavedFor(account) {
  return Boolean(account) && stored(UNSAVED_KEY) === String(account.id);
}

/**
 * Whether to ask before sending a move: the account's setting (`account.confirm_moves`, true or
 * false); else (no account, its setting null, or a choice made here that did not reach it) this
 * browser's own choice; else on for touch screens.
 */
export function confirmMoves(account = null) {
  if (account && typeof account.confirm_moves === "boolean" && !unsavedFor(account)) return account.confirm_moves;
  const local = stored(SETTING_KEY);
  if (local === "on" || local === "off") return local === "on";
  return window.matchMedia("(pointer: coarse)").matches;
}

/** Where the setting is kept, for the setting's tooltip (`where`: account, saving, unsaved, browser, device). */
function keptWhere(where) {
  return {
    account: t("Kept with your account: every device you sign in on uses it"),
    saving: t("Saving to your account…"),
    unsaved: t("Kept in this browser only: your account could not be reached (tried again next time)"),
    browser: t("Kept in this browser"),
    device: t("Not chosen yet: on for touch screens"),
  }[where];
}

/**
 * Mount the bar before `board` (the live board's element). `send(move)` sends a move, `undo()`
 * asks to take back the last one, `redraw()` draws the page again, `describe(move)` names a move
 * in one imperative sentence (the preview's text, move-preview.js); `ownConfirm`: the renderer confirms moves itself; `account`: the signed-in account
 * (the `me` answer) whose setting it shows and saves. Returns `{choose, proposal, clear, render,
 * useAccount}`; `useAccount(account)` after a sign-in or sign-out on the page.
 */
export function mountMoveBar({ board, send, undo, redraw, describe, ownConfirm = false, account = null }) {
  const bar = h("div", { id: "move-bar", class: "move-bar", role: "group", "aria-label": t("Your move") });
  bar.hidden = true;
  board.before(bar);
  let confirming = false;
  let proposal = null;
  let saving = Promise.resolve(); // the account's saves, one after the other, so the last choice wins
  let saves = 0;

  const toggle = h("input", { type: "checkbox", id: "confirm-moves", "data-setting": "confirm-moves" });
  const setting = h("label", { class: "move-bar-setting" }, toggle, ` ${t("Confirm my moves")}`);
  toggle.addEventListener("change", () => {
    confirming = toggle.checked;
    save(confirming);
    if (!confirming && proposal) clear();
  });
  useAccount(account);
  const question = h("span", { class: "move-bar-question", id: "move-bar-question", "aria-live": "polite" }, "");
  const confirm = h("button", { type: "button", class: "primary", id: "confirm-move", "data-action": "confirm-move" }, t("Confirm"));
  const cancel = h("button", { type: "button", id: "cancel-move", "data-action": "cancel-move" }, t("Cancel"));
  const takeBack = h("button", { type: "button", id: "undo-move", "data-action": "undo", title: t("Take back your last move") }, `↶ ${t("Undo my move")}`);
  const undoGone = h("span", { class: "move-bar-undo-gone muted", id: "undo-gone", role: "status" }, "");
  confirm.addEventListener("click", () => {
    const move = proposal;
    proposal = null;
    if (move) send(move);
    redraw();
  });
  cancel.addEventListener("click", clear);
  takeBack.addEventListener("click", () => undo());
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && proposal) clear();
  });

  /** Show `next`'s setting (see `confirmMoves`); a choice made here that it never got is sent again. */
  function useAccount(next) {
    account = next;
    confirming = confirmMoves(account);
    toggle.checked = confirming;
    if (!confirming && proposal) clear();
    const chosen = account && typeof account.confirm_moves === "boolean";
    if (unsavedFor(account)) save(confirming);
    else kept(chosen ? "account" : stored(SETTING_KEY) ? "browser" : "device");
  }

  /** Keep the choice in this browser, and with the account when one is signed in. */
  async function save(on) {
    store(SETTING_KEY, on ? "on" : "off");
    if (!account) {
      kept("browser");
      return;
    }
    const accountId = String(account.id);
    store(UNSAVED_KEY, accountId);
    const mine = ++saves;
    kept("saving");
    const request = saving.then(() => api("POST", "/api/account/settings", { confirm_moves: on }));
    saving = request.catch(() => null);
    try {
      await request;
      if (mine !== saves) return; // a later choice is on its way
      if (stored(UNSAVED_KEY) === accountId) store(UNSAVED_KEY, null);
      kept("account");
    } catch {
      if (mine === saves) kept("unsaved");
    }
  }

  function kept(where) {
    toggle.dataset.saved = where;
    setting.title = keptWhere(where);
  }

  function clear() {
    if (!proposal) return;
    proposal = null;
    redraw();
  }

  /** A move chosen on the board: sent at once, or held for Confirm. */
  function choose(move) {
    if (!confirming || ownConfirm) {
      send(move);
      return;
    }
    proposal = move;
    redraw();
    confirm.focus({ preventScroll: true });
  }

  /**
   * Draw the bar: `seated` (a person at a running game), `canUndo` (the server allows it now),
   * `undoGone`: a short note, in Undo's place, that the move just played cannot be taken back, or null.
   */
  function render({ seated, canUndo, undoGone: why = null }) {
    bar.hidden = !seated;
    if (!seated) {
      proposal = null;
      return;
    }
    // The board stays where the finger tapped it while a move waits for Confirm: where the bar's
    // question takes less room than what it replaces, the bar keeps that room (and gives it back
    // once the move is confirmed or cancelled).
    const boardTop = proposal && bar.dataset.state !== "confirming" ? board.getBoundingClientRect().top : null;
    bar.dataset.state = proposal ? "confirming" : canUndo ? "undo" : why ? "undo-gone" : "idle";
    if (!proposal) bar.style.minHeight = "";
    if (proposal) {
      const words = describe(proposal);
      question.textContent = words ? `${words.replace(/[.?!]$/, "")}.` : t("Play this move?");
      replaceChildren(bar, question, confirm, cancel);
      const rise = boardTop === null ? 0 : boardTop - board.getBoundingClientRect().top;
      if (rise > 0) bar.style.minHeight = `${bar.getBoundingClientRect().height + rise}px`;
    } else {
      undoGone.textContent = why || "";
      replaceChildren(bar, setting, canUndo ? takeBack : why ? undoGone : null);
    }
  }

  return { choose, render, useAccount, clear: () => { proposal = null; }, get proposal() { return proposal; } };
}

// The move bar above the board (issue 20, item 2). "Confirm my moves", a setting kept in this
// browser (on by default on touch screens), holds a chosen move until Confirm or Cancel; "Undo"
// takes back the player's last move while the server says it may (the state frame's `undo`).
// A renderer that shows a move before sending it and asks itself (it exports `confirmsMoves`, like
// Nimalia's) is not asked twice. It decides no rule: the server judges every move and every undo.

import { h, replaceChildren } from "./dom.js";

const SETTING_KEY = "caravanserai.confirmMoves";

/** Whether this browser asks before sending a move: the stored choice, else on for touch screens. */
export function confirmMoves() {
  let stored = null;
  try {
    stored = window.localStorage.getItem(SETTING_KEY);
  } catch (error) {
    stored = null; // storage refused (private mode): the default
  }
  if (stored === "on" || stored === "off") return stored === "on";
  return window.matchMedia("(pointer: coarse)").matches;
}

function rememberConfirmMoves(on) {
  try {
    window.localStorage.setItem(SETTING_KEY, on ? "on" : "off");
  } catch (error) {
    // not kept: the choice lasts for this page only
  }
}

/**
 * Mount the bar before `board` (the live board's element). `send(move)` sends a move, `undo()`
 * asks to take back the last one, `redraw()` draws the page again, `describe(move)` words a move
 * (or null); `ownConfirm`: the renderer confirms moves itself. Returns `{choose, proposal, clear, render}`.
 */
export function mountMoveBar({ board, send, undo, redraw, describe, ownConfirm = false }) {
  const bar = h("div", { id: "move-bar", class: "move-bar", role: "group", "aria-label": "Your move" });
  bar.hidden = true;
  board.before(bar);
  let confirming = confirmMoves();
  let proposal = null;

  const toggle = h("input", { type: "checkbox", id: "confirm-moves", "data-setting": "confirm-moves" });
  toggle.checked = confirming;
  toggle.addEventListener("change", () => {
    confirming = toggle.checked;
    rememberConfirmMoves(confirming);
    if (!confirming && proposal) clear();
  });
  const setting = h("label", { class: "move-bar-setting" }, toggle, " Confirm my moves");
  const question = h("span", { class: "move-bar-question", id: "move-bar-question", "aria-live": "polite" }, "");
  const confirm = h("button", { type: "button", class: "primary", id: "confirm-move", "data-action": "confirm-move" }, "Confirm");
  const cancel = h("button", { type: "button", id: "cancel-move", "data-action": "cancel-move" }, "Cancel");
  const takeBack = h("button", { type: "button", id: "undo-move", "data-action": "undo", title: "Take back your last move" }, "↶ Undo my move");
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

  /** Draw the bar: `seated` (a person at a running game), `canUndo` (the server allows it now). */
  function render({ seated, canUndo }) {
    bar.hidden = !seated;
    if (!seated) {
      proposal = null;
      return;
    }
    bar.dataset.state = proposal ? "confirming" : canUndo ? "undo" : "idle";
    if (proposal) {
      const words = describe(proposal);
      question.textContent = words ? `Play ${words}?` : "Play this move?";
      replaceChildren(bar, question, confirm, cancel);
    } else {
      replaceChildren(bar, setting, canUndo ? takeBack : null);
    }
  }

  return { choose, render, clear: () => { proposal = null; }, get proposal() { return proposal; } };
}

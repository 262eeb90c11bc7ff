// The fallback renderer for a ruleset without its own module: the view as text and every legal
// move as a button. Enough to play any game, if not pleasantly. It knows no move shapes, so it
// highlights no last move (the log still marks the newest entry).

import { linkStylesheet } from "../board-kit.js";
import { h, replaceChildren } from "../dom.js";
import { genericWords, ghostMark } from "../move-preview.js";
import { t } from "../i18n.js";

await linkStylesheet(new URL("./generic.css", import.meta.url)); // its look: generic.css

function describe(move) {
  return Object.entries(move)
    .map(([key, value]) => `${key}: ${typeof value === "object" ? JSON.stringify(value) : value}`)
    .join(", ");
}

/**
 * The renderer hook of "Confirm my moves" (move-preview.js): the move in words, and its button
 * marked as the ghost (the generic board has no places to draw on).
 */
export function preview(frame, move) {
  const wanted = JSON.stringify(move);
  return {
    text: genericWords(move),
    draw(root) {
      const button = [...root.querySelectorAll(".generic-moves [data-move]")].find((candidate) => candidate.dataset.move === wanted);
      if (button) ghostMark(button, move);
    },
  };
}

/**
 * The renderer contract: README.md in this folder. Spectators (frame.seat null) get no buttons.
 * @type {import("./contract.js").Render}
 */
export function render(container, frame, { sendMove, disabled = false, readOnly = false }) {
  const seated = !readOnly && frame.seat !== null && frame.seat !== undefined;
  const moves = seated ? frame.legal || [] : [];
  replaceChildren(
    container,
    h(
      "div",
      { class: "generic-renderer" },
      moves.length
        ? h(
            "div",
            { class: "move-controls generic-moves", role: "group", "aria-label": t("Your legal moves") },
            moves.map((move) => {
              const button = h("button", { type: "button", "data-move": JSON.stringify(move) }, describe(move));
              button.disabled = disabled;
              button.addEventListener("click", () => sendMove(move));
              return button;
            }),
          )
        : null,
      h("pre", { class: "generic-view" }, JSON.stringify(frame.view, null, 2)),
    ),
  );
}

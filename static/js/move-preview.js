// The preview of a move held for "Confirm my moves" (move-bar.js): before Confirm, the move is
// drawn where it will land and named in one sentence. Every renderer implements one hook,
//
//     export function preview(frame, move) -> { text, draw(root) } | null
//
// `text` is one imperative sentence in the words of the game's log ("Place the pink leader on
// H12" where the log says "Alice placed the pink leader on H12"); `draw(root)` adds the ghost to
// the board the renderer has just drawn into `root` (a ghost piece, the stone's path, the card
// or die chosen). Every element it adds carries the class `move-ghost` and `data-preview` (the
// move's type), and takes no clicks. A renderer without the hook, or a hook that answers null,
// gets the generic preview below: the move in words, and a note on top of the board.
// Nothing here decides a rule: the server judges the move when it is confirmed.

import { h, s } from "./dom.js";
import { t } from "./i18n.js";

/** A move in words without knowing its game: "place_card: cell B3" style, but readable. */
export function genericWords(move) {
  const type = String(move.type || "move").replace(/_/g, " ");
  const rest = Object.entries(move)
    .filter(([name]) => name !== "type")
    .map(([name, value]) => `${name.replace(/_/g, " ")} ${typeof value === "object" ? JSON.stringify(value) : value}`);
  const sentence = rest.length ? `${type}: ${rest.join(", ")}` : type;
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** A note on top of `root` naming the move: the ghost of a move that has no place on the board. */
export function ghostNote(root, move, text) {
  const note = h("p", { class: "move-ghost move-ghost-note", "data-preview": move.type || "move", role: "status" }, t("Preview: {move}", { move: text }));
  root.prepend(note);
  return note;
}

/** Mark an element already drawn (a button, a slot, a die) as the ghost of `move`. */
export function ghostMark(element, move) {
  if (!element) return null;
  element.classList.add("move-ghost", "move-ghost-mark");
  element.dataset.preview = move.type || "move";
  return element;
}

/** An SVG group for ghosts of `move`, appended last to `svg` so it sits on top. */
export function ghostLayer(svg, move) {
  const layer = s("g", { class: "move-ghost move-ghosts", "data-preview": move.type || "move", "aria-hidden": "true" });
  svg.append(layer);
  return layer;
}

/**
 * The preview of `move` in `frame` by `renderer` (its `preview` hook), else the generic one.
 * Returns `{text, draw(root)}`; `draw` always leaves at least one `.move-ghost` in `root`.
 */
export function previewOf(renderer, frame, move) {
  let made = null;
  try {
    made = renderer && typeof renderer.preview === "function" ? renderer.preview(frame, move) : null;
  } catch (error) {
    console.warn("The renderer could not preview this move; showing it in words.", error);
    made = null;
  }
  const text = (made && made.text) || genericWords(move);
  return {
    text,
    draw(root) {
      try {
        if (made && typeof made.draw === "function") made.draw(root);
      } catch (error) {
        console.warn("The renderer could not draw the preview.", error);
      }
      if (!root.querySelector(".move-ghost")) ghostNote(root, move, text);
    },
  };
}

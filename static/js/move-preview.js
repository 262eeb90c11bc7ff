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

const STYLE = `
.move-ghost { pointer-events: none; }
svg .move-ghost { opacity: 0.78; }
svg .move-ghost .ghost-shape, svg .move-ghost.ghost-shape { stroke: #111; stroke-width: 0.9; stroke-dasharray: 1.6 0.9; }
svg .move-ghost .ghost-ring, svg .move-ghost.ghost-ring { fill: none; stroke: #111; stroke-width: 1; stroke-dasharray: 1.6 0.9; }
svg .move-ghost .ghost-path { fill: none; stroke: #111; stroke-width: 1; stroke-dasharray: 2 1; }
svg .move-ghost .ghost-text { font-size: 4px; font-weight: 800; text-anchor: middle; dominant-baseline: central; fill: #111; }
.move-ghost-mark { outline: 3px dashed #111 !important; outline-offset: 2px; }
.move-ghost-note { margin: 0 0 0.4em; padding: 0.35em 0.6em; border: 2px dashed #111; border-radius: 8px; background: var(--accent-soft, #f6e7d3); color: #1d1d1d; font-weight: 600; }
.move-ghost-die { display: inline-grid; place-items: center; width: 40px; height: 40px; border-radius: 8px; border: 2px dashed #3b2f22; background: #fffdf7; color: #2b2620; font-size: 1.25rem; font-weight: 800; }
`;

function ensureStyle() {
  if (document.getElementById("move-preview-style")) return;
  document.head.append(h("style", { id: "move-preview-style" }, STYLE));
}

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
  const note = h("p", { class: "move-ghost move-ghost-note", "data-preview": move.type || "move", role: "status" }, `Preview: ${text}`);
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
      ensureStyle();
      try {
        if (made && typeof made.draw === "function") made.draw(root);
      } catch (error) {
        console.warn("The renderer could not draw the preview.", error);
      }
      if (!root.querySelector(".move-ghost")) ghostNote(root, move, text);
    },
  };
}

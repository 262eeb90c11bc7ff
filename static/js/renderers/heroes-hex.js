// What fits in one region of the Heroes map (a helper of heroes.js, not a renderer): the room a
// hexagon leaves at a height, an army's figures and counts laid out in that room, and the labels
// fitted to it. A region's hexagon is 16.4 map units across its flats (62 px on a 1280 x 800
// window's map), so its name, an army of 19 px figures with 12 px counts and its owner's mark do
// not all fit side by side: the layout works out what does from the hexagon itself.

import { s } from "../dom.js";
import { unitFigure } from "../pieces.js";

export const UNIT_SIZE = 5.2; // a unit figure's height in map units when there is room: 19 px on a 1280 x 800 window's map
const FIGURE_WIDTH = 0.9; // a figure's width for its height (the crown, the widest)
const MARK_RADIUS = 1.8; // the owner's mark beside an army, at full size
const COUNT_DIGIT = 2.0; // one digit of .hx-unit-count.big (heroes.css: 3.3 map units, 12 px, bold, narrow: 1.5 wide) in a wide face
const COUNT_GAP = 0.1; // from a figure to its count
const KIND_GAP = 0.6; // from a count to the next figure
const MARK_GAP = 0.3; // from the mark to the first figure
const ROW_GAP = 0.5; // between two rows of figures
const BORDER_ROOM = 1.0; // what a figure or a count keeps clear of the hexagon's edge (a capital's edge is 1.1 thick: 0.45 clear of it)
const SMALLEST = 0.6; // figures never shrink below this share of UNIT_SIZE (about 12 px)
const MARK_BESIDE = 0.85; // the mark stands beside the figures while they keep this share of UNIT_SIZE

/**
 * The corners of a region's hexagon: circumradius `radius` round (cx, cy), one edge facing the
 * direction `theta` (radians).
 * @param {number} cx @param {number} cy @param {number} radius @param {number} theta
 * @returns {[number, number][]}
 */
export function hexCorners(cx, cy, radius, theta) {
  /** @type {[number, number][]} */
  const corners = [];
  for (let k = 0; k < 6; k += 1) {
    const angle = theta + Math.PI / 6 + (k * Math.PI) / 3;
    corners.push([cx + radius * Math.cos(angle), cy + radius * Math.sin(angle)]);
  }
  return corners;
}

/**
 * Where the convex polygon `corners` is crossed at height `y`: [left, right], or null outside it.
 * @param {[number, number][]} corners @param {number} y
 * @returns {[number, number] | null}
 */
function spanAt(corners, y) {
  let left = Infinity;
  let right = -Infinity;
  corners.forEach(([x1, y1], index) => {
    const [x2, y2] = corners[(index + 1) % corners.length];
    if (y1 === y2 || (y1 - y) * (y2 - y) > 0) return; // a flat edge's ends are its neighbours' ends
    const x = x1 + ((x2 - x1) * (y - y1)) / (y2 - y1);
    left = Math.min(left, x);
    right = Math.max(right, x);
  });
  return left <= right ? [left, right] : null;
}

/**
 * The corners of the hexagon `margin` inside `corners` (a regular polygon), each edge moved that
 * far towards the centre: what stays `margin` clear of a slanted edge, not only of a side.
 * @param {[number, number][]} corners @param {number} margin
 * @returns {[number, number][]}
 */
function inset(corners, margin) {
  const [cx, cy] = [0, 1].map((axis) => corners.reduce((sum, corner) => sum + corner[axis], 0) / corners.length);
  const [[x1, y1], [x2, y2]] = corners;
  const inradius = Math.abs((x2 - x1) * (cy - y1) - (y2 - y1) * (cx - x1)) / Math.hypot(x2 - x1, y2 - y1);
  const factor = (inradius - margin) / inradius;
  return corners.map(([x, y]) => [cx + (x - cx) * factor, cy + (y - cy) * factor]);
}

/**
 * The room inside `corners` for something from height `top` to `bottom`, `margin` clear of every
 * edge: the narrowest [left, right] over those heights (a convex polygon is narrowest at one of
 * them); null when it does not fit at all.
 * @param {[number, number][]} corners @param {number} top @param {number} bottom @param {number} margin
 * @returns {[number, number] | null}
 */
export function roomBetween(corners, top, bottom, margin) {
  const inner = inset(corners, margin);
  const spans = [spanAt(inner, top), spanAt(inner, bottom)];
  if (!spans[0] || !spans[1]) return null;
  const left = Math.max(spans[0][0], spans[1][0]);
  const right = Math.min(spans[0][1], spans[1][1]);
  return left < right ? [left, right] : null;
}

/**
 * A label centred at (x, y) that may be at most `width` wide: `data-fit` carries the width, and
 * fitLabels() narrows the text to it once it is on the page, if it is wider there.
 * @param {number} x @param {number} y @param {string} text @param {string} className @param {number} width
 */
export function fittedLabel(x, y, text, className, width) {
  return s("text", { x, y, class: className, "data-fit": width.toFixed(2) }, text);
}

/**
 * Narrow each label of `root` wider than its `data-fit` (a long name in a font wider than the map
 * was drawn for) to that width, its letters squeezed: after the board is on the page, where the
 * text's width can be read.
 * @param {ParentNode} root
 */
export function fitLabels(root) {
  for (const label of root.querySelectorAll("text[data-fit]")) {
    const text = /** @type {SVGTextElement} */ (label);
    const room = Number(text.dataset.fit);
    if (room > 0 && text.getComputedTextLength() > room) {
      text.setAttribute("textLength", String(room));
      text.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }
}

/**
 * One army in the room a region leaves it: a row of figures (two rows for three kinds or more),
 * each with its count beside it, and the owner's mark. The figures are as large as the hexagon
 * lets every part stay `BORDER_ROOM` inside its edge and inside `band` (UNIT_SIZE when there is
 * room, down to SMALLEST); the counts keep their size. The mark goes before the first row, or,
 * when that would shrink the figures below MARK_BESIDE and `markBelow` allows, under the rows;
 * the whole is centred on the hexagon.
 *
 * @param {{corners: [number, number][], cx: number, y: number, band: [number, number], kinds: string[],
 *   counts: Record<string, number>, mark: ((x: number, y: number, r: number) => SVGElement) | null,
 *   markBelow?: boolean}} army
 *   `y`: the height one row is centred on (two rows: the middle of `band`, the heights the figures
 *   must stay between); `mark(x, y, r)` draws the owner's mark (null: none, a ghost); `markBelow`:
 *   the room under the rows is free (no Tower or Nomad there)
 * @returns {SVGElement[]} the mark, then each figure and its count
 */
export function armyFigures({ corners, cx, y, band, kinds, counts, mark, markBelow = false }) {
  const rows = kinds.length > 2 ? [kinds.slice(0, 2), kinds.slice(2)] : [kinds];
  const countWidth = (kind) => String(counts[kind] || 0).length * COUNT_DIGIT;
  const middle = rows.length > 1 ? (band[0] + band[1]) / 2 : y;
  /** @param {number} share @param {"beside" | "below" | null} markAt */
  const layout = (share, markAt) => {
    const size = UNIT_SIZE * share;
    const radius = MARK_RADIUS * share;
    const top = middle - ((rows.length - 1) * (size + ROW_GAP)) / 2;
    const placed = rows.map((row, index) => {
      const rowY = top + index * (size + ROW_GAP);
      const withMark = index === 0 && markAt === "beside";
      const width = row.reduce((sum, kind) => sum + size * FIGURE_WIDTH + COUNT_GAP + countWidth(kind), 0)
        + (row.length - 1) * KIND_GAP + (withMark ? 2 * radius + MARK_GAP : 0);
      return { row, rowY, withMark, width, room: roomBetween(corners, rowY - size / 2, rowY + size / 2, BORDER_ROOM) };
    });
    const bottom = top + (rows.length - 1) * (size + ROW_GAP) + size / 2;
    const markY = bottom + ROW_GAP + MARK_RADIUS;
    const lowest = markAt === "below" ? markY + MARK_RADIUS : bottom;
    const fits = top - size / 2 >= band[0] && lowest <= band[1]
      && placed.every(({ width, room }) => room && room[1] - room[0] >= width)
      && (markAt !== "below" || roomBetween(corners, markY - MARK_RADIUS, markY + MARK_RADIUS, BORDER_ROOM) !== null);
    return { size, radius, placed, markY, markAt, fits };
  };
  const shares = (from, to) => {
    const list = [];
    for (let share = from; share >= to - 1e-9; share -= 0.05) list.push(share);
    return list;
  };
  const candidates = mark === null ? shares(1, SMALLEST).map((share) => layout(share, null))
    : [...shares(1, MARK_BESIDE).map((share) => layout(share, "beside")),
      ...(markBelow ? shares(1, SMALLEST).map((share) => layout(share, "below")) : []),
      ...shares(MARK_BESIDE - 0.05, SMALLEST).map((share) => layout(share, "beside"))];
  const chosen = candidates.find((candidate) => candidate.fits) || candidates[candidates.length - 1];
  const { size, radius, placed, markY, markAt } = chosen;
  const parts = markAt === "below" && mark ? [mark(cx, markY, MARK_RADIUS)] : [];
  for (const { row, rowY, withMark, width, room } of placed) {
    // centred on the hexagon, moved in where its edge is nearer on one side
    let x = cx - width / 2;
    if (room) x = Math.min(Math.max(x, room[0]), room[1] - width);
    if (withMark && mark) {
      parts.push(mark(x + radius, rowY, radius));
      x += 2 * radius + MARK_GAP;
    }
    for (const kind of row) {
      const fx = x + (size * FIGURE_WIDTH) / 2;
      parts.push(
        unitFigure(kind, fx, rowY, size, { "data-count": String(counts[kind]) }),
        s("text", { x: fx + (size * FIGURE_WIDTH) / 2 + COUNT_GAP, y: rowY + size * 0.12, class: "hx-unit-count big" }, String(counts[kind])),
      );
      x += size * FIGURE_WIDTH + COUNT_GAP + countWidth(kind) + KIND_GAP;
    }
  }
  return parts;
}

// Our own drawn pieces, shared by the renderers: Nimalia's animals, camels, Nomadi's stones
// (a nomad's tent on top), card backs and Heroes' unit figures. Every piece is an SVG group or
// element built from simple paths (no image files, nothing copied from a publisher), drawn in a
// box of the given size around (x, y). Each kind has its own silhouette, so pieces differ by
// shape and not only by colour (colour-blind safe); the callers keep their text labels for
// screen readers. Nothing here knows a rule.

import { s } from "./dom.js";

const INK = "#1f1a14";

/** The nine Nimalia animals as 24 x 24 icons: a silhouette per species, in its own colours. */
const ANIMAL_PARTS = {
  flamingo: [
    ["path", { d: "M9 21 L9 15 M11 21 L11 15", stroke: INK, "stroke-width": 1.2, fill: "none" }],
    ["ellipse", { cx: 10.5, cy: 12.5, rx: 5.5, ry: 3.4, fill: "#f06fa6", stroke: INK, "stroke-width": 0.9 }],
    ["path", { d: "M15 11 C17 8 14 6 15 3.5", stroke: "#f06fa6", "stroke-width": 2.2, fill: "none", "stroke-linecap": "round" }],
    ["path", { d: "M15 3.5 L19 4.6 L17.2 6", fill: INK }],
  ],
  crocodile: [
    ["path", { d: "M2 14 L14 11 L22 12.5 L22 15 L14 16.5 L4 17 Z", fill: "#4f9a3c", stroke: INK, "stroke-width": 0.9 }],
    ["path", { d: "M14 13.6 L15 12.6 L16 13.6 L17 12.6 L18 13.6 L19 12.6 L20 13.6", stroke: "#fff", "stroke-width": 0.8, fill: "none" }],
    ["circle", { cx: 12.5, cy: 12, r: 1.1, fill: "#fff", stroke: INK, "stroke-width": 0.6 }],
    ["path", { d: "M6 17 L6 19 M10 16.8 L10 19", stroke: INK, "stroke-width": 1.4 }],
  ],
  lion: [
    ["path", { d: "M12 2 L14 5 L18 4 L18 8 L22 10 L19 13 L21 17 L17 17.5 L16 21 L12 19 L8 21 L7 17.5 L3 17 L5 13 L2 10 L6 8 L6 4 L10 5 Z", fill: "#c9781f", stroke: INK, "stroke-width": 0.8 }],
    ["circle", { cx: 12, cy: 12, r: 5.2, fill: "#f2c14e", stroke: INK, "stroke-width": 0.8 }],
    ["circle", { cx: 10, cy: 11, r: 0.9, fill: INK }], ["circle", { cx: 14, cy: 11, r: 0.9, fill: INK }],
    ["path", { d: "M11 14 L13 14 L12 15.2 Z", fill: INK }],
  ],
  giraffe: [
    ["path", { d: "M8 22 L8 15 L11 15 L11 6 L9 4.5 L10.5 2.5 L15 3.5 L16 5 L13.5 6 L13.5 15 L16 15 L16 22", fill: "#f0c450", stroke: INK, "stroke-width": 0.9, "stroke-linejoin": "round" }],
    ["circle", { cx: 12.2, cy: 9, r: 0.9, fill: "#9a5a1c" }], ["circle", { cx: 12.4, cy: 12.5, r: 1, fill: "#9a5a1c" }],
    ["circle", { cx: 10, cy: 17.5, r: 1, fill: "#9a5a1c" }], ["circle", { cx: 14, cy: 18.5, r: 1, fill: "#9a5a1c" }],
  ],
  panda: [
    ["circle", { cx: 6.5, cy: 6.5, r: 3, fill: INK }], ["circle", { cx: 17.5, cy: 6.5, r: 3, fill: INK }],
    ["circle", { cx: 12, cy: 13, r: 8, fill: "#fff", stroke: INK, "stroke-width": 0.9 }],
    ["ellipse", { cx: 9, cy: 12, rx: 2, ry: 2.6, fill: INK, transform: "rotate(25 9 12)" }],
    ["ellipse", { cx: 15, cy: 12, rx: 2, ry: 2.6, fill: INK, transform: "rotate(-25 15 12)" }],
    ["ellipse", { cx: 12, cy: 16.5, rx: 1.6, ry: 1, fill: INK }],
  ],
  gorilla: [
    ["circle", { cx: 12, cy: 12, r: 9, fill: "#3a3530", stroke: INK, "stroke-width": 0.8 }],
    ["path", { d: "M6 14 C6 8 18 8 18 14 C18 19 6 19 6 14 Z", fill: "#8d7b6a" }],
    ["path", { d: "M6.5 9.5 L17.5 9.5", stroke: INK, "stroke-width": 2.2, "stroke-linecap": "round" }],
    ["circle", { cx: 9.5, cy: 12, r: 0.9, fill: "#fff" }], ["circle", { cx: 14.5, cy: 12, r: 0.9, fill: "#fff" }],
    ["path", { d: "M10.5 15.5 L13.5 15.5", stroke: INK, "stroke-width": 1.2 }],
  ],
  "polar bear": [
    ["circle", { cx: 6, cy: 6.5, r: 2.6, fill: "#f4f8fb", stroke: INK, "stroke-width": 0.8 }],
    ["circle", { cx: 18, cy: 6.5, r: 2.6, fill: "#f4f8fb", stroke: INK, "stroke-width": 0.8 }],
    ["circle", { cx: 12, cy: 13, r: 8, fill: "#f4f8fb", stroke: INK, "stroke-width": 0.9 }],
    ["circle", { cx: 9, cy: 11.5, r: 0.9, fill: INK }], ["circle", { cx: 15, cy: 11.5, r: 0.9, fill: INK }],
    ["ellipse", { cx: 12, cy: 15.5, rx: 2.2, ry: 1.5, fill: INK }],
  ],
  penguin: [
    ["ellipse", { cx: 12, cy: 13, rx: 7, ry: 9, fill: "#23262b" }],
    ["ellipse", { cx: 12, cy: 15, rx: 4.4, ry: 6.5, fill: "#fff" }],
    ["circle", { cx: 10, cy: 8, r: 0.9, fill: "#fff" }], ["circle", { cx: 14, cy: 8, r: 0.9, fill: "#fff" }],
    ["path", { d: "M10.5 10 L13.5 10 L12 12 Z", fill: "#f29d1a" }],
    ["path", { d: "M8.5 22 L11 21 M15.5 22 L13 21", stroke: "#f29d1a", "stroke-width": 1.6, "stroke-linecap": "round" }],
  ],
  otter: [
    ["path", { d: "M3 19 C5 12 9 8 13 8 C18 8 21 11 21 15 C21 19 17 20 13 19 C9 18 7 20 3 19 Z", fill: "#8a5a32", stroke: INK, "stroke-width": 0.8 }],
    ["ellipse", { cx: 16, cy: 14.5, rx: 3.2, ry: 2.6, fill: "#d9b48a" }],
    ["circle", { cx: 15, cy: 11, r: 0.9, fill: INK }], ["circle", { cx: 18.2, cy: 11.4, r: 0.9, fill: INK }],
    ["path", { d: "M17 14 L21.5 13 M17 15 L21.5 15.5 M15 14 L11 13 M15 15 L11 15.5", stroke: INK, "stroke-width": 0.5 }],
  ],
};

/** An animal as an inline SVG icon (`size` px square), or null for a name we do not draw. */
export function animalIcon(animal, size = 24) {
  const parts = ANIMAL_PARTS[animal];
  if (!parts) return null;
  return s(
    "svg",
    { class: "animal-icon", viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true", focusable: "false", "data-icon": animal },
    ...parts.map(([tag, attributes]) => s(tag, attributes)),
  );
}

/** A camel seen from the side, facing right, filling a box of `size` around (x, y). */
export function camelPath(x, y, size) {
  const u = size / 24;
  const p = (px, py) => `${(x + (px - 12) * u).toFixed(2)},${(y + (py - 12) * u).toFixed(2)}`;
  // tail, back and hump, neck and head, chest, front legs, belly, hind legs
  return `M${p(2.5, 11)} Q${p(4, 7.5)} ${p(7, 8)} Q${p(10, 3)} ${p(13, 8)} Q${p(15, 9.5)} ${p(16.5, 8)} `
    + `L${p(18.5, 3.5)} L${p(21.5, 3.5)} L${p(22.5, 5.5)} L${p(20, 6)} L${p(18.8, 12)} L${p(18, 14)} `
    + `L${p(18, 21)} L${p(16.4, 21)} L${p(16, 15)} L${p(9, 15)} L${p(8.6, 21)} L${p(7, 21)} L${p(6.6, 14)} `
    + `Q${p(4, 13)} ${p(3.6, 11.5)} L${p(2.8, 15)} L${p(2, 14.8)} Z`;
}

/** A nomad's tent (a triangle with its door), `size` wide, standing on y + size / 2. */
export function tentPath(x, y, size) {
  const h = size / 2;
  return `M${x - h},${y + h * 0.8} L${x},${y - h} L${x + h},${y + h * 0.8} Z M${x - h * 0.3},${y + h * 0.8} L${x},${y + h * 0.05} L${x + h * 0.3},${y + h * 0.8} Z`;
}

/**
 * A face-down card back: a rounded card with a diamond lattice and a small compass star, so a
 * hidden card reads as a card and not as a "?" (x, y is its top-left corner).
 */
export function cardBack(x, y, width, height, extra = {}) {
  const cx = x + width / 2;
  const cy = y + height / 2;
  const r = Math.min(width, height) * 0.28;
  return s(
    "g",
    { class: "card-back", ...extra },
    s("rect", { x, y, width, height, rx: Math.min(width, height) * 0.12, class: "card-back-face" }),
    s("rect", { x: x + width * 0.12, y: y + height * 0.1, width: width * 0.76, height: height * 0.8, rx: Math.min(width, height) * 0.06, class: "card-back-inner" }),
    s("path", { d: `M${cx},${cy - r} L${cx + r * 0.35},${cy - r * 0.35} L${cx + r},${cy} L${cx + r * 0.35},${cy + r * 0.35} L${cx},${cy + r} L${cx - r * 0.35},${cy + r * 0.35} L${cx - r},${cy} L${cx - r * 0.35},${cy - r * 0.35} Z`, class: "card-back-star" }),
  );
}

/** Heroes' unit figures, `size` high around (x, y): each kind its own silhouette. */
export function unitFigure(kind, x, y, size, extra = {}) {
  const u = size / 10;
  const P = (px, py) => `${(x + px * u).toFixed(2)},${(y + py * u).toFixed(2)}`;
  const attributes = { class: `unit-figure unit-${kind}`, "data-figure": kind, ...extra };
  if (kind === "serf") {
    // a pawn: a round head on a bell-shaped body
    return s("g", attributes,
      s("path", { d: `M${P(-3.5, 5)} L${P(-1.6, -0.5)} L${P(1.6, -0.5)} L${P(3.5, 5)} Z`, class: "figure-body" }),
      s("circle", { cx: x, cy: y - 2.4 * u, r: 2.2 * u, class: "figure-body" }));
  }
  if (kind === "warrior") {
    // a shield
    return s("g", attributes,
      s("path", { d: `M${P(-4, -4.5)} L${P(4, -4.5)} L${P(4, 0)} C${P(4, 3)} ${P(1.5, 4.5)} ${P(0, 5)} C${P(-1.5, 4.5)} ${P(-4, 3)} ${P(-4, 0)} Z`, class: "figure-body" }),
      s("path", { d: `M${P(0, -3.5)} L${P(0, 3.5)} M${P(-3, -1)} L${P(3, -1)}`, class: "figure-mark" }));
  }
  if (kind === "hero") {
    // a crown
    return s("g", attributes,
      s("path", { d: `M${P(-4.5, 4)} L${P(-4.5, -3)} L${P(-2, 0)} L${P(0, -4.5)} L${P(2, 0)} L${P(4.5, -3)} L${P(4.5, 4)} Z`, class: "figure-body" }));
  }
  // the Nomad Mercenary: a spear over a tent
  return s("g", attributes,
    s("path", { d: tentPath(x, y + 0.6 * u, 8.5 * u), class: "figure-body" }),
    s("path", { d: `M${P(-4, -5)} L${P(4, 3)}`, class: "figure-mark figure-spear" }));
}

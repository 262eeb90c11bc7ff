// The lobby's picture of each game, drawn by us from the same pieces as the boards
// (static/js/pieces.js): a camel caravan on sand, a Nimalia card of four animals, Nomadi's
// stones by a face-down card, Heroes' figures on an isle. A game without its own picture gets a
// plain hexagon. 96 x 64 units, scaled by CSS.

import { s } from "./dom.js";
import { animalIcon, camelPath, cardBack, unitFigure } from "./pieces.js";

function hex(cx, cy, r, attributes) {
  const points = Array.from({ length: 6 }, (_, i) => {
    const angle = (Math.PI / 3) * i + Math.PI / 6;
    return `${(cx + r * Math.cos(angle)).toFixed(1)},${(cy + r * Math.sin(angle)).toFixed(1)}`;
  }).join(" ");
  return s("polygon", { points, ...attributes });
}

function nested(icon, x, y, size) {
  icon.setAttribute("x", String(x));
  icon.setAttribute("y", String(y));
  icon.setAttribute("width", String(size));
  icon.setAttribute("height", String(size));
  return icon;
}

const PICTURES = {
  "through-the-desert": () => [
    s("rect", { width: 96, height: 64, fill: "#f1dfb6" }),
    hex(22, 40, 13, { fill: "#d5e9b0", stroke: "#c6a86a", "stroke-width": 1 }),
    s("circle", { cx: 22, cy: 40, r: 5, fill: "#4aa3df" }),
    ...[[44, 30, "#f4a3c8"], [62, 36, "#86cf74"], [80, 26, "#b08de3"]].flatMap(([x, y, colour]) => [
      s("circle", { cx: x, cy: y, r: 9, fill: colour, stroke: "#5b4a36", "stroke-width": 1 }),
      s("path", { d: camelPath(x, y, 13), fill: "#2b2620" }),
    ]),
  ],
  nimalia: () => [
    s("rect", { width: 96, height: 64, fill: "#e8f1e0" }),
    s("rect", { x: 26, y: 4, width: 44, height: 56, rx: 4, fill: "#fff", stroke: "#4a3b2a", "stroke-width": 1.5 }),
    s("rect", { x: 29, y: 7, width: 19, height: 25, fill: "#79c27d" }), s("rect", { x: 48, y: 7, width: 19, height: 25, fill: "#f1d27b" }),
    s("rect", { x: 29, y: 32, width: 19, height: 25, fill: "#8fcdf0" }), s("rect", { x: 48, y: 32, width: 19, height: 25, fill: "#eef4fb" }),
    nested(animalIcon("panda"), 30, 10, 17), nested(animalIcon("lion"), 49, 10, 17),
    nested(animalIcon("crocodile"), 30, 35, 17), nested(animalIcon("penguin"), 49, 35, 17),
  ],
  nomadi: () => [
    s("rect", { width: 96, height: 64, fill: "#f1dfb6" }),
    s("path", { d: "M0 34 L96 34", stroke: "#7a4b1e", "stroke-width": 2, "stroke-dasharray": "4 2" }),
    cardBack(8, 10, 18, 24, { class: "picture-card" }),
    s("circle", { cx: 44, cy: 20, r: 7, fill: "#3d6fd6", stroke: "#1d3f8a", "stroke-width": 1.2 }),
    s("rect", { x: 55, y: 38, width: 13, height: 13, rx: 2, fill: "#f2c53d", stroke: "#8a6d04", "stroke-width": 1.2 }),
    s("polygon", { points: "80,40 88,48 80,56 72,48", fill: "#d8433f", stroke: "#7d1b18", "stroke-width": 1.2 }),
    s("path", { d: "M50 24 L60 36", stroke: "#5b4a36", "stroke-width": 1.2, "marker-end": "" }),
  ],
  heroes: () => [
    s("rect", { width: 96, height: 64, fill: "#bcdcef" }),
    hex(30, 32, 17, { fill: "#f3e2a0", stroke: "#7d6a3c", "stroke-width": 1.2 }),
    hex(62, 32, 17, { fill: "#b9d7a4", stroke: "#7d6a3c", "stroke-width": 1.2 }),
    unitFigure("hero", 30, 30, 14, { fill: "#f5c542", stroke: "#1d1d1d", "stroke-width": 1 }),
    unitFigure("warrior", 56, 30, 13, { fill: "#fffaf0", stroke: "#1d1d1d", "stroke-width": 1 }),
    unitFigure("serf", 70, 31, 12, { fill: "#fffaf0", stroke: "#1d1d1d", "stroke-width": 1 }),
  ],
};

/** The picture of game `name` as an SVG element (decorative: the card's words say it all). */
export function gamePicture(name) {
  const parts = PICTURES[name] ? PICTURES[name]() : [s("rect", { width: 96, height: 64, fill: "#efe6d6" }), hex(48, 32, 20, { fill: "#e9c46a", stroke: "#b5651d", "stroke-width": 2 })];
  return s("svg", { class: "game-picture", viewBox: "0 0 96 64", preserveAspectRatio: "xMidYMid slice", "aria-hidden": "true", focusable: "false" }, ...parts);
}

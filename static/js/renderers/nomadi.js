// Nomadi: draws frame.view as a square SVG board (start, goal, chasm, water sources, face-down
// cards, the shared caravan) with the six dice, the card-offer dialogs and a side panel, and
// offers frame.legal as clicks: click a stone, then one of its highlighted destinations (each
// labelled with the die value that reaches it). Every rule stays on the server; this module
// only shows what the view says and sends back moves taken from `legal` as they are.
// By keyboard: Tab to a stone (or a die, or a button), Enter or Space chooses, Tab on to a
// highlighted destination, Enter again moves. What the last move touched carries `last-move`.
//
// Cells are [row, col], row 0 at the top (rules spec §2). The renderer brings its own styles.

import { activate, cellLabel as where, edgeLabels, keepFocus, linkStylesheet, markLastMove, zoomableFrame } from "../board-kit.js";
import { h, replaceChildren, s } from "../dom.js";
import { ghostLayer, ghostMark } from "../move-preview.js";
import { cardBack } from "../pieces.js";
import { playerLabel, t, tn } from "../i18n.js";

await linkStylesheet(new URL("./nomadi.css", import.meta.url)); // the board's look: nomadi.css

const CELL = 10;
const TARGET = CELL - 1.2; // a highlighted cell, a little inside the cell
const FILL = { blue: "#3d6fd6", yellow: "#f2c53d", red: "#d8433f", green: "#3b9e4a", black: "#2f2f2f" };
const EDGE = { blue: "#1d3f8a", yellow: "#8a6d04", red: "#7d1b18", green: "#1f5f28", black: "#000000" };
const INK = { blue: "#ffffff", yellow: "#1c1611", red: "#ffffff", green: "#ffffff", black: "#ffffff" };
// CELL_WORDS and PHASE hold msgids, said in the page's language where they are drawn (t())
const CELL_WORDS = { sand: "Sand", start: "Start area", water: "Water source", goal: "Goal", blocked: "Dune (blocked)" };
const PHASE = {
  cards: "Laying the desert cards",
  placement: "Placing stones in the start area",
  roll: "Rolling the dice",
  move: "Moving the caravan",
  claim: "Offering a desert card",
  answer: "Waiting for an answer to an offer",
  over: "Game over",
};
const CLAIMS = [null, -2, -1, 1, 2, 3];

/** Per-board UI state that must survive a redraw: selected stone and die, offer and gift choices. */
const uiState = new WeakMap();

const key = (cell) => `${cell[0]},${cell[1]}`;
const signed = (value) => (value > 0 ? `+${value}` : String(value));
const phaseWords = (phase) => (PHASE[phase] ? t(PHASE[phase]) : "");
const claimKey = (claim) => (claim === null || claim === undefined ? "none" : signed(claim));

function playerName(frame, seat) {
  const player = (frame.players || []).find((candidate) => candidate.seat === seat);
  return player ? playerLabel(frame, player) : t("Seat {number}", { number: seat + 1 });
}

function colourOf(view, seat) {
  return (view.colours || [])[seat] || "black";
}

/** A seat's colour as a stone, with the seat number on it: the colour is never the only cue. */
function swatch(colour, seat, size = 18) {
  const half = size / 2;
  return s(
    "svg",
    { class: "swatch", width: size, height: size, viewBox: `0 0 ${size} ${size}`, "aria-hidden": "true", focusable: "false" },
    s("circle", { cx: half, cy: half, r: half * 0.9, fill: FILL[colour] || "#ccc", stroke: EDGE[colour] || "#555", "stroke-width": 1.2 }),
    s("text", { x: half, y: half + 0.5, class: "swatch-seat", fill: INK[colour] || "#000" }, String(seat + 1)),
  );
}

// -- the board --------------------------------------------------------------------------------

let drawnCells = { rows: null, group: null }; // the cells never change in a game: built once, cloned per frame

function drawCells(board) {
  const rows = board.rows.join("/");
  if (drawnCells.rows !== rows) drawnCells = { rows, group: buildCells(board) };
  return drawnCells.group.cloneNode(true);
}

function buildCells(board) {
  const cells = s("g", { class: "cells" });
  board.rows.forEach((row, r) => {
    [...row].forEach((letter, c) => {
      const x = c * CELL;
      const y = r * CELL;
      const kind = { ".": "sand", S: "start", W: "water", G: "goal", "#": "blocked" }[letter] || "sand";
      const tile = s("g", { class: `cell cell-${kind}`, "data-cell": `${r},${c}`, "data-kind": kind, role: "img", "aria-label": t("{kind} {cell}", { kind: t(CELL_WORDS[kind]), cell: where([r, c]) }) });
      tile.append(s("rect", { x, y, width: CELL, height: CELL }));
      if (kind === "start") {
        tile.append(s("rect", { x, y, width: CELL, height: CELL, class: "start-hatch" }));
      } else if (kind === "water") {
        tile.append(s("path", { class: "water-drop", d: `M${x + 5},${y + 1.6} C${x + 7.8},${y + 5} ${x + 7.6},${y + 8.2} ${x + 5},${y + 8.4} C${x + 2.4},${y + 8.2} ${x + 2.2},${y + 5} ${x + 5},${y + 1.6} Z` }));
      } else if (kind === "blocked") {
        tile.append(s("path", { class: "dune", d: `M${x + 1},${y + 7} Q${x + 5},${y + 2.5} ${x + 9},${y + 7}` }));
      }
      cells.append(tile);
    });
  });
  return cells;
}

function drawChasm(board) {
  // rule 2: cells with row <= chasm[col] lie beyond; the line runs along cell edges
  const parts = [];
  const v = board.chasm || [];
  for (let c = 0; c < v.length; c += 1) {
    if (v[c] < 0 || v[c] >= board.height - 1) continue;
    const y = (v[c] + 1) * CELL;
    parts.push(`M${c * CELL},${y} H${(c + 1) * CELL}`);
    if (c + 1 < v.length && v[c + 1] !== v[c] && v[c + 1] >= 0) parts.push(`M${(c + 1) * CELL},${y} V${(v[c + 1] + 1) * CELL}`);
  }
  if (!parts.length) return null;
  return s(
    "g",
    { class: "chasm", "data-chasm": v.join(",") },
    s("title", {}, t("The chasm: stones that cross it never come back")),
    s("path", { class: "chasm-shadow", d: parts.join(" ") }),
    s("path", { class: "chasm-line", d: parts.join(" ") }),
  );
}

function drawAreaLabels(board, view) {
  const labels = s("g", { class: "area-labels", "aria-hidden": "true" });
  const label = (cells, text) => {
    if (!cells.length) return;
    const rows = cells.map((cell) => cell[0]);
    const cols = cells.map((cell) => cell[1]);
    const x = ((Math.min(...cols) + Math.max(...cols) + 1) / 2) * CELL;
    const y = ((Math.min(...rows) + Math.max(...rows) + 1) / 2) * CELL;
    labels.append(s("text", { x, y, class: "area-label" }, text));
  };
  label(view.board.goal || [], view.board.oasis ? t("OASIS") : t("GOAL"));
  const start = [];
  board.rows.forEach((row, r) => [...row].forEach((letter, c) => letter === "S" && start.push([r, c])));
  label(start, t("START"));
  return labels;
}

// Each colour of stone has its own shape too, so no one needs to tell the colours apart.
const SHAPE = { blue: "circle", yellow: "square", red: "diamond", green: "triangle", black: "hexagon" };

function stoneShape(colour, cx, cy, r, attributes) {
  const shape = SHAPE[colour] || "circle";
  if (shape === "square") return s("rect", { x: cx - r * 0.86, y: cy - r * 0.86, width: r * 1.72, height: r * 1.72, rx: r * 0.2, ...attributes });
  const corners = { diamond: [4, 0], triangle: [3, 0], hexagon: [6, 30] }[shape];
  if (!corners) return s("circle", { cx, cy, r, ...attributes });
  const [sides, rotation] = corners;
  const radius = shape === "triangle" ? r * 1.25 : r * 1.08;
  const points = Array.from({ length: sides }, (_, index) => {
    const angle = ((rotation + (360 / sides) * index - 90) * Math.PI) / 180;
    return `${(cx + radius * Math.cos(angle)).toFixed(2)},${(cy + (shape === "triangle" ? r * 0.2 : 0) + radius * Math.sin(angle)).toFixed(2)}`;
  });
  return s("polygon", { points: points.join(" "), ...attributes });
}

function drawCards(view) {
  const group = s("g", { class: "cards" });
  for (const card of view.cards || []) {
    const [r, c] = card.cell;
    group.append(
      s(
        "g",
        {
          class: card.water ? "card on-water" : "card",
          "data-card": key(card.cell),
          "data-card-id": card.id,
          role: "img",
          "aria-label": card.water ? t("Face-down desert card on {cell}, a water source", { cell: where(card.cell) }) : t("Face-down desert card on {cell}", { cell: where(card.cell) }),
        },
        s("title", {}, card.water ? t("Face-down desert card on {cell}, a water source (2 coins)", { cell: where(card.cell) }) : t("Face-down desert card on {cell} (1 coin)", { cell: where(card.cell) })),
        cardBack(c * CELL + 1.6, r * CELL + 1.2, CELL - 3.2, CELL - 2.4),
      ),
    );
  }
  return group;
}

function drawMoved(view) {
  const group = s("g", { class: "moved", "aria-hidden": "true" });
  for (const step of view.moved || []) {
    const [r1, c1] = step.from;
    const [r2, c2] = step.to;
    group.append(
      s("line", { x1: (c1 + 0.5) * CELL, y1: (r1 + 0.5) * CELL, x2: (c2 + 0.5) * CELL, y2: (r2 + 0.5) * CELL, class: "moved-line", "marker-end": "url(#nomadi-arrow)" }),
      s("circle", { cx: (c1 + 0.5) * CELL, cy: (r1 + 0.5) * CELL, r: 1.2, class: "moved-from", "data-moved-from": key(step.from) }),
    );
  }
  return group;
}

function drawStones(frame, view, ui, movable, choose) {
  const group = s("g", { class: "stones" });
  for (const stone of view.stones || []) {
    const [r, c] = stone.cell;
    const colour = colourOf(view, stone.owner);
    const cellKey = key(stone.cell);
    const canMove = movable.has(cellKey);
    const classes = ["stone"];
    if (stone.locked) classes.push("locked");
    if (canMove) classes.push("movable");
    if (ui.stone === cellKey) classes.push("selected");
    const owner = playerName(frame, stone.owner);
    const status = stone.locked ? t("in the goal") : stone.departed ? t("on the way") : t("still in the start");
    const words = { colour: t(colour), owner, seat: stone.owner + 1, cell: where(stone.cell), status };
    const described = t("{colour} stone of {owner} (seat {seat}) on {cell}, {status}", words);
    const piece = s("g", {
      class: classes.join(" "),
      "data-stone": cellKey,
      "data-owner": String(stone.owner),
      "data-colour": colour,
      "data-locked": String(stone.locked),
      "data-departed": String(stone.departed),
      role: canMove ? "button" : "img",
      tabindex: canMove ? "0" : undefined,
      "data-focus-key": canMove ? `stone:${cellKey}` : undefined,
      "aria-pressed": canMove ? String(ui.stone === cellKey) : undefined,
      "aria-label": canMove ? t("{stone}: choose it to see where it can go", { stone: described }) : described,
    });
    piece.append(s("title", {}, described));
    const cx = (c + 0.5) * CELL;
    const cy = (r + 0.5) * CELL;
    piece.append(s("circle", { cx, cy, r: 4.75, class: "halo" }));
    if (stone.locked) piece.append(s("circle", { cx, cy, r: 4.6, class: "lock-ring" }));
    piece.append(stoneShape(colour, cx, cy, 3.7, { fill: FILL[colour] || "#ccc", stroke: EDGE[colour] || "#555", class: "piece" }));
    piece.append(s("text", { x: cx, y: cy + 0.2, class: "stone-seat", fill: INK[colour] || "#000" }, String(stone.owner + 1)));
    if (canMove) activate(piece, () => choose(cellKey));
    group.append(piece);
  }
  return group;
}

function drawTargets(targets, onPick) {
  // targets: [{cell, label, moves, dice}] — highlighted destinations or placement cells
  const group = s("g", { class: "targets" });
  for (const target of targets) {
    const [r, c] = target.cell;
    const marker = s("g", {
      class: "legal",
      "data-target": key(target.cell),
      "data-die": target.dice ? target.dice.join(" ") : undefined,
      "data-focus-key": `target:${key(target.cell)}`,
      role: "button",
      tabindex: "0",
      "aria-label": target.description,
    });
    marker.append(s("title", {}, target.description));
    marker.append(s("rect", { x: c * CELL + (CELL - TARGET) / 2, y: r * CELL + (CELL - TARGET) / 2, width: TARGET, height: TARGET, rx: 1.6, class: "legal-fill" }));
    if (target.label) marker.append(s("text", { x: (c + 0.5) * CELL, y: (r + 0.5) * CELL + 0.2, class: "legal-label" }, target.label));
    activate(marker, () => onPick(target));
    group.append(marker);
  }
  return group;
}

const LABEL_MARGIN = 7;

/** Column letters above the board and row numbers on its left: the names the log uses (cellLabel). */
function cellEdgeLabels(board) {
  const labels = [];
  for (let c = 0; c < board.width; c += 1) labels.push([where([0, c]).replace(/\d+$/, ""), c * CELL + CELL / 2, -LABEL_MARGIN / 2]);
  for (let r = 0; r < board.height; r += 1) labels.push([String(r + 1), -LABEL_MARGIN / 2, r * CELL + CELL / 2]);
  return edgeLabels(labels);
}

function drawBoard(frame, view, ui, movable, targets, choose, pick) {
  const board = view.board;
  const width = board.width * CELL;
  const height = board.height * CELL;
  const svg = s("svg", {
    class: "nomadi-board game-board",
    viewBox: `-${LABEL_MARGIN} -${LABEL_MARGIN} ${width + LABEL_MARGIN + 1} ${height + LABEL_MARGIN + 1}`, // room for the edge labels
    role: "group",
    "aria-label": t("Nomadi board, {width} by {height} cells: {stones} stones, {cards} face-down cards", { width: board.width, height: board.height, stones: (view.stones || []).length, cards: (view.cards || []).length }),
    "data-phase": view.phase || "",
    "data-stone-count": String((view.stones || []).length),
  });
  svg.append(
    s(
      "defs",
      {},
      s(
        "marker",
        { id: "nomadi-arrow", viewBox: "0 0 6 6", refX: 5, refY: 3, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" },
        s("path", { d: "M0,0 L6,3 L0,6 Z", class: "moved-arrow" }),
      ),
      s(
        "pattern",
        { id: "nomadi-start", width: 2.5, height: 2.5, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        s("line", { x1: 0, y1: 0, x2: 0, y2: 2.5, stroke: "#a3733c", "stroke-width": 0.5, "stroke-opacity": 0.45 }),
      ),
    ),
  );
  svg.append(drawCells(board), cellEdgeLabels(board), drawAreaLabels(board, view), drawChasm(board), drawCards(view), drawMoved(view));
  if (view.offer) {
    const [r, c] = view.offer.cell;
    svg.append(s("rect", { x: c * CELL - 0.4, y: r * CELL - 0.4, width: CELL + 0.8, height: CELL + 0.8, class: "offer-ring", "data-offer-cell": key(view.offer.cell) }));
  }
  svg.append(drawStones(frame, view, ui, movable, choose), drawTargets(targets, pick));
  return svg;
}

// -- dice -------------------------------------------------------------------------------------

function drawDice(view, ui, usableValues, interactive, chooseDie) {
  // usableValues is null unless the viewer is the mover choosing dice: only then is a die marked
  // "no move" (nobody else is told which values can still move something)
  const dice = view.dice || [];
  const list = h("ol", { class: "nomadi-dice", "aria-label": dice.length ? t("This turn's dice") : t("No dice rolled yet") });
  if (!dice.length) {
    list.append(h("li", { class: "muted no-dice" }, view.phase === "roll" ? t("Dice not rolled yet.") : ""));
    return list;
  }
  dice.forEach((die, index) => {
    const usable = Boolean(usableValues) && !die.used && usableValues.has(die.value);
    const stuck = Boolean(usableValues) && !die.used && !usable;
    const clickable = interactive && usable;
    const selected = usable && ui.die === die.value;
    const value = { value: die.value };
    const label = die.used ? t("{value} (used)", value) : stuck ? t("{value} (no move)", value) : String(die.value);
    let title = clickable ? t("A {value}: click to show only its moves", value) : t("A {value}", value);
    if (die.used) title = t("A {value}, used", value);
    else if (stuck) title = t("A {value}: no stone can use it now", value);
    const face = h(
      clickable ? "button" : "span",
      {
        class: `die${die.used ? " used" : ""}${selected ? " selected" : ""}${usable ? " usable" : ""}${stuck ? " stuck" : ""}`,
        type: clickable ? "button" : undefined,
        "data-die-index": String(index),
        "data-die-value": String(die.value),
        "data-used": String(die.used),
        "data-focus-key": clickable ? `die:${index}` : undefined,
        "aria-pressed": clickable ? String(selected) : undefined,
        title,
        "aria-label": t("Die {label}", { label }),
      },
      String(die.value),
    );
    if (clickable) face.addEventListener("click", () => chooseDie(die.value));
    list.append(h("li", {}, face));
  });
  return list;
}

// -- controls ---------------------------------------------------------------------------------

function offerText(frame, view, viewerIsOwner) {
  const offer = view.offer;
  const words = { mover: playerName(frame, offer.mover), owner: playerName(frame, offer.owner), cell: where(offer.cell), claim: offer.claim === null || offer.claim === undefined ? null : signed(offer.claim), price: coinWords(offer.price || 0) };
  if (viewerIsOwner) {
    if (words.claim === null) return offer.price ? t("{mover} offers you the card from {cell} without a claim, asking {price}.", words) : t("{mover} offers you the card from {cell} without a claim.", words);
    return offer.price ? t("{mover} offers you the card from {cell} claiming it is worth {claim}, asking {price}.", words) : t("{mover} offers you the card from {cell} claiming it is worth {claim}.", words);
  }
  if (words.claim === null) return offer.price ? t("{mover} offers {owner} the card from {cell} without a claim, asking {price}.", words) : t("{mover} offers {owner} the card from {cell} without a claim.", words);
  return offer.price ? t("{mover} offers {owner} the card from {cell} claiming it is worth {claim}, asking {price}.", words) : t("{mover} offers {owner} the card from {cell} claiming it is worth {claim}.", words);
}

function drawClaimDialog(frame, view, ui, legal, disabled, redraw, sendMove) {
  const offer = view.offer;
  const offers = legal.filter((move) => move.type === "offer");
  const prices = [...new Set(offers.map((move) => move.price || 0))].sort((a, b) => a - b);
  if (!prices.includes(ui.price)) ui.price = 0;
  const claimButtons = CLAIMS.map((claim) => {
    const pressed = claimKey(ui.claim) === claimKey(claim);
    const button = h(
      "button",
      { type: "button", class: `claim${pressed ? " selected" : ""}`, "data-claim": claimKey(claim), "data-focus-key": `claim:${claimKey(claim)}`, "aria-pressed": String(pressed) },
      claim === null ? t("No claim") : signed(claim),
    );
    button.disabled = disabled;
    button.addEventListener("click", () => {
      ui.claim = claim;
      redraw();
    });
    return button;
  });
  let priceField = null;
  if (prices.length > 1) {
    const select = h("select", { id: "nomadi-price", "data-price": "", "data-focus-key": "price" }, prices.map((price) => h("option", { value: String(price) }, String(price))));
    select.value = String(ui.price);
    select.disabled = disabled;
    select.addEventListener("change", () => {
      ui.price = Number(select.value);
    });
    priceField = h("label", { class: "inline-field", for: "nomadi-price" }, `${t("Asking price (coins):")} `, select);
  }
  const send = h("button", { type: "button", class: "primary", "data-action": "offer", "data-focus-key": "offer" }, t("Offer the card"));
  send.disabled = disabled;
  send.addEventListener("click", () => {
    const move = offers.find((candidate) => claimKey(candidate.claim) === claimKey(ui.claim) && (candidate.price || 0) === ui.price);
    if (move) sendMove(move);
  });
  return h(
    "section",
    { class: "offer-dialog", role: "dialog", "aria-labelledby": "nomadi-offer-title", "data-offer-stage": "claim" },
    h("h3", { id: "nomadi-offer-title" }, t("Offer a desert card")),
    h(
      "p",
      {},
      // the value sits in its own element, so the sentence is said in two parts around it
      `${t("The stone of {owner} landed on the card at {cell}. Only you have seen it: it is worth", { owner: playerName(frame, offer.owner), cell: where(offer.cell) })} `,
      h("strong", { class: "inspected-value", "data-inspected": offer.inspected || "" }, signed(offer.value)),
      t(". Offer it with a claim — true or not:"),
    ),
    h("div", { class: "claim-buttons", role: "group", "aria-label": t("Your claim") }, claimButtons),
    priceField,
    h("div", { class: "dialog-actions" }, send),
  );
}

function drawAnswerDialog(frame, view, legal, disabled, sendMove) {
  const buttons = ["accept", "decline"].map((type) => {
    const move = legal.find((candidate) => candidate.type === type);
    const button = h(
      "button",
      { type: "button", class: type === "accept" ? "primary" : "", "data-action": type, "data-focus-key": type },
      type === "accept" ? t("Accept the card") : t("Decline"),
    );
    button.disabled = disabled || !move;
    if (move) button.addEventListener("click", () => sendMove(move));
    return button;
  });
  const price = view.offer.price;
  return h(
    "section",
    { class: "offer-dialog", role: "dialog", "aria-labelledby": "nomadi-answer-title", "data-offer-stage": "answer" },
    h("h3", { id: "nomadi-answer-title" }, t("A card is offered to you")),
    h("p", { class: "offer-text" }, offerText(frame, view, true)),
    h(
      "p",
      { class: "muted" },
      t("Accept and the card is yours (you will see its value); decline and the mover keeps it."),
      price && !legal.some((move) => move.type === "accept") ? ` ${t("You cannot pay the asking price without going into debt.")}` : "",
    ),
    h("div", { class: "dialog-actions" }, buttons),
  );
}

function drawGiftForm(frame, view, ui, gifts, disabled, sendMove) {
  const seats = [...new Set(gifts.map((move) => move.to))];
  if (!seats.includes(ui.giftTo)) ui.giftTo = seats[0];
  const amounts = gifts.filter((move) => move.to === ui.giftTo).map((move) => move.coins);
  if (!amounts.includes(ui.giftCoins)) ui.giftCoins = amounts[0];
  const to = h("select", { "data-gift-to": "", "data-focus-key": "gift-to", "aria-label": t("Give to") }, seats.map((seat) => h("option", { value: String(seat) }, playerName(frame, seat))));
  to.value = String(ui.giftTo);
  const coins = h("select", { "data-gift-coins": "", "data-focus-key": "gift-coins", "aria-label": t("Coins to give") }, amounts.map((amount) => h("option", { value: String(amount) }, String(amount))));
  coins.value = String(ui.giftCoins);
  to.addEventListener("change", () => {
    ui.giftTo = Number(to.value);
  });
  coins.addEventListener("change", () => {
    ui.giftCoins = Number(coins.value);
  });
  const give = h("button", { type: "button", "data-action": "gift", "data-focus-key": "gift" }, t("Give"));
  for (const element of [to, coins, give]) element.disabled = disabled;
  give.addEventListener("click", () => {
    const move = gifts.find((candidate) => candidate.to === Number(to.value) && candidate.coins === Number(coins.value));
    if (move) sendMove(move);
  });
  // the two fields stand inside the sentence: its words come in three parts around them
  return h("div", { class: "gift-form", role: "group", "aria-label": t("Give coins") }, `${t("Trading: give")} `, coins, ` ${t("coins to")} `, to, " ", give);
}

function prompt(frame, view, legal, ui) {
  const phase = view.phase;
  const types = new Set(legal.map((move) => move.type));
  if (types.has("place_card")) return t("Lay a face-down desert card ({count} left): click a highlighted sand cell.", { count: view.cards_to_lay });
  if (types.has("place")) return t("Place one of your stones: click a highlighted start cell.");
  if (types.has("roll")) return t("Your turn: roll the six dice.");
  if (types.has("move")) {
    const left = (view.dice || []).filter((die) => !die.used).length;
    if (ui.stone) return t("Click a highlighted cell to move the stone on {cell} — the number is the die it uses — or pick another stone.", { cell: where(ui.stone.split(",").map(Number)) });
    return ui.die
      ? t("Use your dice one at a time ({left} left): click a stone with a dashed ring that can use the {die}.", { left, die: ui.die })
      : t("Use your dice one at a time ({left} left): click a stone with a dashed ring.", { left });
  }
  if (types.has("offer")) return t("Offer the card to the stone's owner.");
  if (types.has("accept") || types.has("decline")) return t("Accept or decline the offered card.");
  if (phase === "over") return t("The game is over.");
  return phaseWords(phase);
}

// -- the side panel ---------------------------------------------------------------------------

function drawPanel(frame, view) {
  const players = (view.players || []).map((player) => {
    const colour = colourOf(view, player.seat);
    const coins = player.coins === null || player.coins === undefined ? "hidden" : String(player.coins); // "hidden" is a data value too
    const toAct = (frame.to_act || []).includes(player.seat) && view.phase !== "over";
    return h(
      "li",
      { class: `nomadi-player${view.current === player.seat ? " current" : ""}`, "data-player-seat": String(player.seat) },
      h(
        "div",
        { class: "nomadi-player-head" },
        swatch(colour, player.seat),
        h("strong", {}, playerName(frame, player.seat)),
        player.seat === frame.seat ? h("span", { class: "muted" }, ` ${t("(you)")}`) : null,
        toAct ? h("span", { class: "badge badge-turn" }, asked(frame, player.seat)?.badge || t("to play")) : null,
      ),
      h(
        "dl",
        { class: "nomadi-stats" },
        h("dt", {}, t("Coins")),
        h("dd", { "data-coins": coins, class: coins.startsWith("-") ? "debt" : "" }, coins === "hidden" ? t("hidden") : coins),
        h("dt", {}, t("Cards")),
        h("dd", { "data-cards": String(player.cards) }, String(player.cards), Array.isArray(player.card_values) && player.card_values.length ? ` ${t("(worth {values})", { values: player.card_values.map(signed).join(", ") })}` : ""),
        h("dt", {}, t("In the goal")),
        h("dd", { "data-in-goal": String(player.stones_in_goal) }, t("{count} of {stones}", { count: player.stones_in_goal, stones: player.stones })),
        player.stones_to_place ? [h("dt", {}, t("To place")), h("dd", { "data-to-place": String(player.stones_to_place) }, String(player.stones_to_place))] : null,
      ),
    );
  });

  const mine = Array.isArray(view.my_cards) ? view.my_cards : null;
  const myCards = mine
    ? h(
        "section",
        { class: "nomadi-my-cards", "aria-labelledby": "nomadi-my-cards-title" },
        h("h3", { id: "nomadi-my-cards-title" }, t("Your cards")),
        mine.length
          ? h(
              "ul",
              { class: "card-list" },
              mine.map((token) => {
                const [id, value] = token.split(":");
                return h("li", { class: "held-card", "data-held-card": id, title: t("A desert card worth {value}", { value }) }, value);
              }),
            )
          : h("p", { class: "muted" }, t("None yet.")),
        typeof view.purse === "string" ? h("p", { class: "muted", "data-purse": "" }, t("Coins are hidden from the other players.")) : null,
      )
    : null;

  const rewards = view.goal_rewards || [8, 6, 4];
  const arrivals = view.arrivals || 0;
  const milestones = h(
    "ul",
    { class: "milestones" },
    h("li", { "data-milestone": "start", class: view.start_emptied ? "done" : "" }, view.start_emptied ? t("The start area is empty (5 coins paid).") : t("Last stone out of the start: 5 coins to its owner.")),
    h("li", { "data-milestone": "first-crossing", class: view.chasm && view.chasm.crossed ? "done" : "" }, view.chasm && view.chasm.crossed ? t("The chasm has been crossed.") : t("First stone over the chasm: 5 coins to the mover.")),
    h("li", { "data-milestone": "last-crossing", class: view.chasm && view.chasm.all_crossed ? "done" : "" }, view.chasm && view.chasm.all_crossed ? t("Every stone is over the chasm.") : t("Last stone over the chasm: the mover pays 5.")),
    h("li", { "data-milestone": "goal", "data-arrivals": String(arrivals) }, arrivals < 3 ? t("Goal: {arrivals} of 3 stones in; the next earns {coins} coins.", { arrivals, coins: rewards[arrivals] }) : t("Three stones reached the goal.")),
  );

  const turn = view.turn ? t("Turn {turn} (the game ends after turn {limit} at the latest)", { turn: view.turn, limit: view.turn_limit }) : t("Setting up");
  return h(
    "div",
    { class: "nomadi-panel" },
    h("p", { class: "nomadi-phase", "data-phase": view.phase || "" }, phaseWords(view.phase)),
    h("p", { class: "muted nomadi-turn", "data-turn": String(view.turn || 0) }, turn),
    h("section", { "aria-label": t("Players") }, h("ul", { class: "nomadi-player-list" }, players)),
    myCards,
    h("section", { "aria-labelledby": "nomadi-milestones-title" }, h("h3", { id: "nomadi-milestones-title" }, t("Bonuses")), milestones),
  );
}

function drawLegend() {
  return h(
    "p",
    { class: "nomadi-legend muted" },
    `${t("Number on a stone = its owner's seat; each colour has its own shape")} · `,
    h("span", { class: "legend-swatch legend-start" }),
    ` ${t("start")} · `,
    h("span", { class: "legend-swatch legend-goal" }),
    ` ${t("goal")} · `,
    h("span", { class: "legend-swatch legend-water" }),
    ` ${t("water source · starred card = a face-down card · brown line = chasm · arrows = this turn's moves · purple = the last move")} · `,
    h("span", { class: "legend-swatch legend-stuck-die" }),
    ` ${t("red die = no stone can use it now")}`,
  );
}

// -- the last move ----------------------------------------------------------------------------

/**
 * What the last move touched, from the view before it and the view after it: a stone placed or
 * moved (or locked in the goal), a card laid, the dice rolled or the die used, an offer made or
 * answered, and the players whose coins, cards or stones in the goal changed.
 */
function lastMoveSelectors(previous, view) {
  if (!previous) return [];
  const selectors = [];
  const stonesBefore = new Map((previous.stones || []).map((stone) => [stone.id, stone]));
  for (const stone of view.stones || []) {
    const before = stonesBefore.get(stone.id);
    if (!stone.cell) continue;
    if (!before || !before.cell || key(before.cell) !== key(stone.cell) || before.locked !== stone.locked) {
      selectors.push(`.stones [data-stone="${key(stone.cell)}"]`);
    }
  }
  const cardsBefore = new Set((previous.cards || []).map((card) => card.id));
  for (const card of view.cards || []) if (!cardsBefore.has(card.id)) selectors.push(`.cards [data-card="${key(card.cell)}"]`);
  const dice = view.dice || [];
  const diceBefore = previous.dice || [];
  dice.forEach((die, index) => {
    const before = diceBefore[index];
    if (!diceBefore.length || !before || before.value !== die.value || (die.used && !before.used)) {
      selectors.push(`.nomadi-dice [data-die-index="${index}"]`);
    }
  });
  const offer = view.offer;
  const offerBefore = previous.offer;
  if (offer && (!offerBefore || offerBefore.stage !== offer.stage || offerBefore.claim !== offer.claim || key(offerBefore.cell) !== key(offer.cell))) {
    selectors.push(".offer-ring", ".offer-dialog", ".offer-note");
  }
  for (const player of view.players || []) {
    const before = (previous.players || []).find((candidate) => candidate.seat === player.seat);
    if (before && (before.coins !== player.coins || before.cards !== player.cards || before.stones_in_goal !== player.stones_in_goal)) {
      selectors.push(`.nomadi-player[data-player-seat="${player.seat}"]`);
    }
  }
  return selectors;
}

// -- the contract -----------------------------------------------------------------------------

/**
 * The renderer contract: README.md in this folder. Spectators (frame.seat null) get no controls.
 * @type {import("./contract.js").Render}
 */
export function render(container, frame, { sendMove, disabled = false, readOnly = false, previous = null }) {
  const view = frame.view || {};
  if (!view.board) {
    replaceChildren(container, h("p", { class: "muted" }, t("Waiting for the game…")));
    return;
  }
  const seated = !readOnly && frame.seat !== null && frame.seat !== undefined;
  const legal = seated && frame.status !== "finished" ? frame.legal || [] : [];
  const dieMoves = legal.filter((move) => move.type === "move");
  const ui = uiState.get(container) || { stone: null, die: null, claim: null, price: 0, giftTo: null, giftCoins: null, follow: null, version: null };
  uiState.set(container, ui);
  const focusNext = [];

  if (ui.version !== frame.version) {
    // a new position: keep the selection only where it still makes sense
    const origins = new Set(dieMoves.map((move) => key(move.stone)));
    if (ui.follow && origins.has(ui.follow)) ui.stone = ui.follow;
    else if (!origins.has(ui.stone)) ui.stone = null;
    if (ui.follow) focusNext.push(`stone:${ui.follow}`); // the keyboard follows the stone it moved
    ui.follow = null;
    if (!dieMoves.some((move) => move.die === ui.die)) ui.die = null;
    if (view.phase !== "claim") ui.claim = null;
    ui.version = frame.version;
  }

  const send = (move) => {
    if (disabled) return;
    if (move.type === "move") ui.follow = key(move.to);
    sendMove(move);
  };
  const redraw = () => render(container, frame, { sendMove, disabled, readOnly, previous });
  const chooseStone = (cellKey) => {
    ui.stone = ui.stone === cellKey ? null : cellKey;
    redraw();
    /** @type {SVGElement | null} */ (container.querySelector(`[data-stone="${cellKey}"]`))?.focus();
  };
  const chooseDie = (value) => {
    ui.die = ui.die === value ? null : value;
    redraw();
  };

  const filtered = disabled ? [] : dieMoves.filter((move) => ui.die === null || move.die === ui.die);
  const movable = new Set(filtered.map((move) => key(move.stone)));
  let targets = [];
  if (ui.stone && !disabled) {
    const byTarget = new Map();
    for (const move of filtered.filter((candidate) => key(candidate.stone) === ui.stone)) {
      const entry = byTarget.get(key(move.to)) || { cell: move.to, moves: [], dice: [] };
      entry.moves.push(move);
      entry.dice.push(move.die);
      byTarget.set(key(move.to), entry);
    }
    targets = [...byTarget.values()].map((entry) => ({
      ...entry,
      label: entry.dice.join("/"),
      description: t("Move the stone on {from} to {to} with a {dice}", { from: where(ui.stone.split(",").map(Number)), to: where(entry.cell), dice: entry.dice.join(` ${t("or a")} `) }),
    }));
  } else if (!disabled) {
    targets = legal
      .filter((move) => move.type === "place" || move.type === "place_card")
      .map((move) => ({
        cell: move.cell,
        moves: [move],
        label: "",
        description: move.type === "place" ? t("Place a stone on {cell}", { cell: where(move.cell) }) : t("Lay a card on {cell}", { cell: where(move.cell) }),
      }));
  }
  const pick = (target) => {
    if (target.moves.length === 1) send(target.moves[0]);
    else {
      ui.choice = target;
      redraw();
    }
  };

  const interactive = seated && frame.status !== "finished";
  const controls = interactive && legal.length ? drawControls(frame, view, legal, ui, disabled, redraw, send) : null;
  const waiting = !controls && view.offer && frame.status !== "finished"
    ? h("p", { class: "offer-note", "data-offer-stage": `${view.offer.stage}-watch` }, view.offer.stage === "answer" ? offerText(frame, view, false) : t("{mover} is looking at a desert card for {owner}.", { mover: playerName(frame, view.offer.mover), owner: playerName(frame, view.offer.owner) }))
    : null;
  const usableValues = dieMoves.length ? new Set(dieMoves.map((move) => move.die)) : null;
  const layout = h(
    "div",
    { class: "nomadi", "data-phase": view.phase || "" },
    h(
      "div",
      { class: "nomadi-board-column" },
      controls,
      waiting,
      drawDice(view, ui, usableValues, interactive && !disabled, chooseDie),
      zoomableFrame("nomadi", "nomadi-board-frame", drawBoard(frame, view, ui, movable, targets, chooseStone, pick), readOnly, TARGET),
      drawLegend(),
    ),
    drawPanel(frame, view),
  );
  markLastMove(container, layout, frame.version, lastMoveSelectors(previous, view));
  keepFocus(container, () => replaceChildren(container, layout), focusNext);
}

// -- the preview of a move held for Confirm ---------------------------------------------------

function coinWords(amount) {
  return tn("{n} coin", "{n} coins", amount);
}

/**
 * The renderer hook of the turn banner and the players' panel: a seat answering a card offer is
 * asked "to answer", as the game's panel says, not "to play".
 * @type {NonNullable<import("./contract.js").Renderer["asked"]>}
 */
export function asked(frame) {
  const view = frame.view || {};
  return view.phase === "answer" ? { banner: t("Your turn to answer"), badge: t("to answer") } : null;
}

/**
 * The renderer hook of "Confirm my moves" (move-preview.js): `move` (one of `frame.legal`) in one
 * sentence in the log's words ("Move your stone from Q17 to Q14 with a 3"; the log says "Ana moves
 * a stone from Q17 to Q14 with a 3") and `draw(root)`, which draws it on the board in
 * `root`: a ghost stone or card on its cell, the stone's path with the die on it, six dashed dice
 * for a roll, the unused dice paid for at the end of a turn, the offered card, the coins given.
 */
export function preview(frame, move) {
  const view = frame.view || {};
  const seat = frame.seat;
  const colour = colourOf(view, seat);
  const boardSvg = (root) => root.querySelector("svg.nomadi-board");
  const centreOf = ([r, c]) => [(c + 0.5) * CELL, (r + 0.5) * CELL];
  const onBoard = (cell, build) => (root) => {
    const svg = boardSvg(root);
    if (!svg) return;
    const layer = ghostLayer(svg, move);
    layer.dataset.cell = key(cell);
    build(layer);
  };
  const offerCell = view.offer ? view.offer.cell : null;
  const ringOffer = (layer) => {
    const [r, c] = offerCell;
    layer.append(s("rect", { x: c * CELL - 0.6, y: r * CELL - 0.6, width: CELL + 1.2, height: CELL + 1.2, class: "ghost-ring" }));
  };
  switch (move.type) {
    case "place":
      return {
        text: t("Place a stone on {cell}", { cell: where(move.cell) }),
        draw: onBoard(move.cell, (layer) => {
          const [cx, cy] = centreOf(move.cell);
          layer.append(stoneShape(colour, cx, cy, 3.7, { fill: FILL[colour] || "#ccc", class: "ghost-shape" }), s("text", { x: cx, y: cy + 0.2, class: "stone-seat", fill: INK[colour] || "#000" }, String(seat + 1)));
        }),
      };
    case "place_card":
      return {
        text: t("Lay a face-down card on {cell}", { cell: where(move.cell) }),
        draw: onBoard(move.cell, (layer) => {
          const [r, c] = move.cell;
          layer.append(cardBack(c * CELL + 1.6, r * CELL + 1.2, CELL - 3.2, CELL - 2.4), s("rect", { x: c * CELL + 1, y: r * CELL + 0.6, width: CELL - 2, height: CELL - 1.2, class: "ghost-ring" }));
        }),
      };
    case "move": {
      const stone = (view.stones || []).find((candidate) => key(candidate.cell) === key(move.stone));
      const owner = stone ? stone.owner : seat;
      const words = { owner: playerName(frame, owner), from: where(move.stone), to: where(move.to), die: move.die };
      return {
        text: owner === seat ? t("Move your stone from {from} to {to} with a {die}", words) : t("Move {owner}'s stone from {from} to {to} with a {die}", words),
        draw: (root) => {
          onBoard(move.to, (layer) => {
            const [x1, y1] = centreOf(move.stone);
            const [x2, y2] = centreOf(move.to);
            const stoneColour = colourOf(view, owner);
            layer.append(
              s("line", { x1, y1, x2, y2, class: "ghost-path", "marker-end": "url(#nomadi-arrow)" }),
              stoneShape(stoneColour, x2, y2, 3.7, { fill: FILL[stoneColour] || "#ccc", class: "ghost-shape" }),
              s("text", { x: x2, y: y2 + 0.2, class: "stone-seat", fill: INK[stoneColour] || "#000" }, String(owner + 1)),
            );
          })(root);
          const die = [...root.querySelectorAll(".nomadi-dice .die")].find((face) => face.dataset.used === "false" && Number(face.dataset.dieValue) === move.die);
          ghostMark(die, move);
        },
      };
    }
    case "roll":
      return {
        text: t("Roll the dice"),
        draw: (root) => {
          const dice = root.querySelector(".nomadi-dice");
          if (!dice) return;
          dice.replaceChildren(...Array.from({ length: 6 }, () => h("li", {}, h("span", { class: "move-ghost move-ghost-die", "data-preview": "roll", "aria-hidden": "true" }, "?"))));
          dice.setAttribute("aria-label", t("Six dice about to be rolled"));
        },
      };
    case "end_turn": {
      const unused = (view.dice || []).filter((die) => !die.used).length;
      return {
        text: tn("End the turn, paying {coins} for the unused die", "End the turn, paying {coins} for the unused dice", unused, { coins: coinWords(unused) }),
        draw: (root) => {
          for (const face of root.querySelectorAll('.nomadi-dice .die[data-used="false"]')) ghostMark(face, move);
        },
      };
    }
    case "offer": {
      const words = {
        owner: view.offer ? playerName(frame, view.offer.owner) : t("the stone's owner"),
        cell: offerCell ? where(offerCell) : "",
        claim: move.claim === null || move.claim === undefined ? null : signed(move.claim),
        price: coinWords(move.price || 0),
      };
      const claim = words.claim === null ? t("without a claim") : t("claiming it is worth {claim}", words);
      const offered = offerCell ? t("Offer the card from {cell} to {owner} {claim}", { ...words, claim }) : t("Offer the card to {owner} {claim}", { ...words, claim });
      return {
        text: move.price ? t("{offer}, asking {price}", { offer: offered, price: words.price }) : offered,
        draw: offerCell ? onBoard(offerCell, ringOffer) : null,
      };
    }
    case "accept":
    case "decline":
      return {
        text: answerText(frame, view, move.type, offerCell),
        draw: offerCell ? onBoard(offerCell, ringOffer) : null,
      };
    case "gift":
      return {
        text: t("Give {coins} to {name}", { coins: coinWords(move.coins), name: playerName(frame, move.to) }),
        draw: (root) => ghostMark(root.querySelector(`.nomadi-player[data-player-seat="${move.to}"]`) || root.querySelector(".gift-form"), move),
      };
    default:
      return null;
  }
}

/** Accepting or declining the offered card, in words. */
function answerText(frame, view, type, offerCell) {
  if (type === "accept") {
    const accepted = offerCell ? t("Accept the card from {cell}", { cell: where(offerCell) }) : t("Accept the card");
    return view.offer && view.offer.price ? t("{accept}, paying {price}", { accept: accepted, price: coinWords(view.offer.price) }) : accepted;
  }
  const mover = view.offer ? playerName(frame, view.offer.mover) : t("the mover");
  return offerCell ? t("Decline the card from {cell}; {mover} keeps it", { cell: where(offerCell), mover }) : t("Decline the card; {mover} keeps it", { mover });
}

function drawControls(frame, view, legal, ui, disabled, redraw, send) {
  const controls = h("div", { class: "move-controls nomadi-controls", role: "group", "aria-label": t("Your move") }, h("p", { class: legal.some((move) => move.type === "move") ? "prompt prompt-dice" : "prompt", id: "nomadi-prompt" }, prompt(frame, view, legal, ui)));
  const types = new Set(legal.map((move) => move.type));
  const buttons = [];
  if (types.has("roll")) {
    const roll = h("button", { type: "button", class: "primary", "data-action": "roll", "data-focus-key": "roll" }, t("Roll the dice"));
    roll.disabled = disabled;
    roll.addEventListener("click", () => send(legal.find((move) => move.type === "roll")));
    buttons.push(roll);
  }
  if (types.has("end_turn")) {
    const unused = (view.dice || []).filter((die) => !die.used).length;
    const pass = h("button", { type: "button", "data-action": "end_turn", "data-focus-key": "end_turn" }, t("End the turn (pay {coins})", { coins: unused }));
    pass.disabled = disabled;
    pass.addEventListener("click", () => send(legal.find((move) => move.type === "end_turn")));
    buttons.push(pass);
  }
  if (ui.choice && types.has("move")) {
    for (const move of ui.choice.moves) {
      const button = h("button", { type: "button", "data-choose-die": String(move.die), "data-focus-key": `use-die:${move.die}` }, t("Use the {die}", { die: move.die }));
      button.disabled = disabled;
      button.addEventListener("click", () => {
        ui.choice = null;
        send(move);
      });
      buttons.push(button);
    }
  }
  if (buttons.length) controls.append(h("div", { class: "dialog-actions" }, buttons));
  if (types.has("offer")) controls.append(drawClaimDialog(frame, view, ui, legal, disabled, redraw, send));
  if (types.has("accept") || types.has("decline")) controls.append(drawAnswerDialog(frame, view, legal, disabled, send));
  const gifts = legal.filter((move) => move.type === "gift");
  if (gifts.length) controls.append(drawGiftForm(frame, view, ui, gifts, disabled, send));
  return controls;
}

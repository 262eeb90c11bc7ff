// Heroes of Land, Air & Sea (full or core edition + Wandering or Mercenary Nomads; the full
// edition's parts: heroes-full.js): draws frame.view as a
// map of hex regions (four continents round a central sea, ferries as dashed lines), the units of
// each player per region (Nomad Mercenary figures as "M"), Nomads and towers; beside it every
// player's Capital City board (resources, Courtyard, captured Nomads or the Nomad Mercenary, the
// nine Action Bar slots, level, hall, tokens, score), the Nomad Mercenary card and the tax track. It offers frame.legal as clicks and never decides a rule: every button and every
// highlighted region stands for moves taken from `legal` as they are (docs/heroes.md).
//
// March: choose the March slot, click a highlighted origin region, choose one of the armies the
// legal moves offer from there, click a highlighted destination. Follow and Muster: the choices
// of `legal` plus Skip. The holder of the Nomad Mercenary gets a "Fire" button (with a confirmation
// step, as it cannot be undone) whenever `legal` offers fire_mercenary. Battles: a tactic card, then one of its payments; casualties, then where
// the survivors retreat; conscripts. By keyboard every choice is a button or a focusable region:
// Tab to it, Enter or Space. What the last move touched (view.last) carries `last-move`.

import { activate, keepFocus, linkStylesheet, markLastMove } from "../board-kit.js";
import { h, replaceChildren, s } from "../dom.js";
import { ghostLayer, ghostMark } from "../move-preview.js";
import { unitFigure } from "../pieces.js";
import { playerLabel, t } from "../i18n.js";
import { FULL_PHASES, FULL_SLOTS, fullActionControls, fullBoard, fullControls, fullDescribe, fullMapLayer, isFull, slotOfMove } from "./heroes-full.js";
import { armyFigures, fitLabels, fittedLabel, hexCorners, roomBetween } from "./heroes-hex.js";

await linkStylesheet(new URL("./heroes.css", import.meta.url)); // the board's look: heroes.css

// -- static data ------------------------------------------------------------------------------

// Where the five seas of four-isles-v1 are labelled (display only: the view's map has land regions
// and ferries; the water between the isles is just a background with names).
const SEA_LABELS = [
  ["sea_NE", 4.0, 4.0], ["sea_SE", 4.0, -4.0], ["sea_SW", -4.0, -4.0], ["sea_NW", -4.0, 4.0], ["sea_C", 0.0, 0.0],
].map(([id, x, y]) => ({ id, x, y, kind: "sea", terrain: "sea", continent: null }));

const SLOTS = ["recruit", "build", "research", "tax", "march_1", "march_2", "sail", "fly", "cast"];
// the English words of these tables are msgids: slotName(), resourceName(), t(...) say them
const SLOT_NAMES = {
  recruit: "Recruit", build: "Build", research: "Research", tax: "Tax", march_1: "March 1", march_2: "March 2",
  sail: "Sail", fly: "Fly", cast: "Cast",
};
const ACTION_SLOTS = ["recruit", "build", "tax", "march_1", "march_2"];
const RESOURCES = ["ore", "mana", "food"];
const RESOURCE_NAMES = { ore: "Ore", mana: "Mana", food: "Food" };
// "mercenary": the figures of the Nomad Mercenary (variant "mercenary"); a seat's counts carry the
// key only while it has figures there, so every reader says `counts.mercenary || 0`.
const UNIT_KINDS = ["serf", "warrior", "hero", "mercenary"];
const UNIT_NAMES = {
  serf: ["Serf", "Serfs"], warrior: ["Warrior", "Warriors"], hero: ["Hero", "Heroes"], nomad: ["Nomad", "Nomads"],
  mercenary: ["Nomad Mercenary", "Nomad Mercenaries"],
};
const MERCENARY_FIGURES = 3; // the Nomad Mercenary's figures (house value; display only)
const CONTINENTS = { N: "North", E: "East", S: "South", W: "West" };
const TERRAIN_NAMES = { capital: "Capital", plains: "Plains", forest: "Forest", mountain: "Mountain", swamp: "Swamp", desert: "Desert", sea: "Sea" };
const PHASES = {
  nomad: "Placing a Nomad",
  nomad_move: "Moving a Nomad (the Enemy's first card)",
  action: "Action selection",
  follow: "Following a Capital Action",
  muster: "Mustering a second March",
  tactics: "Battle: choosing tactic cards",
  conscripts: "Battle: bringing in conscripts",
  casualties: "Battle: the loser takes casualties",
  over: "Game over",
  ...FULL_PHASES,
};
// Okabe-Ito colours (told apart with every common colour blindness), a shape and a letter per seat.
const SEAT_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7"];
const SEAT_COLOUR_NAMES = ["blue", "orange", "green", "pink"];
const SEAT_SHAPES = ["circle", "square", "diamond", "triangle"];

const SCALE = 10;
const HEX = 9.45; // circumradius of a region's hexagon (neighbours are 17 apart)

/** Per-board UI state that survives a redraw: the chosen action, origin, army, card, losses. */
const uiState = new WeakMap();
let zoomed = false; // the larger map (scrolls inside its frame): for phones; kept across redraws and boards

// -- words ------------------------------------------------------------------------------------

const ENEMY = 1; // solo: the Enemy's index in view.players (no seat of the table; the server plays it)
const ARROW_DEGREES = { N: 0, NE: 45, E: 90, SE: 135, S: 180, SW: 225, W: 270, NW: 315 };
const TRACK_STEPS = 6; // the Enemy's C.C. track (house value; display only)

/** Whether `seat` is the solo Enemy of this view. */
function isEnemy(view, seat) {
  return Boolean(view.solo) && seat === ENEMY;
}

function playerName(frame, seat) {
  if (isEnemy(frame.view || {}, seat)) return t("The Enemy");
  const player = (frame.players || []).find((candidate) => candidate.seat === seat);
  return player ? playerLabel(frame, player) : t("Seat {number}", { number: seat + 1 });
}

/** A player mid-sentence: their name, or "the Enemy". */
function playerInSentence(frame, view, seat) {
  return isEnemy(view, seat) ? t("the Enemy") : playerName(frame, seat);
}

function regionName(id) {
  if (!id) return t("nowhere");
  const [head, ...rest] = String(id).split("_");
  // The English name, as the log says it ("North Plains", "North-East sea"), is the catalog's key:
  // the game's catalog lists every region's name (the names come from the map, not from this code)
  const tail = rest.join(" ");
  const english = head === "sea"
    ? `${rest.join("").split("").map((letter) => CONTINENTS[letter] || "Central").join("-")} sea`
    : `${CONTINENTS[head] || head} ${tail.charAt(0).toUpperCase()}${tail.slice(1)}`;
  return t(english);
}

const slotName = (slot) => t(SLOT_NAMES[slot] || slot);
const resourceName = (resource) => (RESOURCE_NAMES[resource] ? t(RESOURCE_NAMES[resource]) : resource);

function plural(count, kind) {
  const [one, many] = UNIT_NAMES[kind] || [kind, `${kind}s`];
  return t("{count} {unit}", { count, unit: t(count === 1 ? one : many) });
}

function unitWords(counts, kinds = [...UNIT_KINDS, "nomad"]) {
  const parts = kinds.filter((kind) => (counts[kind] || 0) > 0).map((kind) => plural(counts[kind], kind));
  return parts.length ? parts.join(", ") : t("no units");
}

function amountWords(count, resource) {
  return t("{count} {unit}", { count, unit: resourceName(resource) });
}

function costWords(cost) {
  const parts = RESOURCES.filter((resource) => (cost || {})[resource]).map((resource) => amountWords(cost[resource], resource));
  return parts.length ? parts.join(" + ") : t("no cost");
}

function workerWords(worker) {
  return worker === "nomad" ? t("with a captured Nomad") : worker === "serf" ? t("with a Serf") : "";
}

function tacticInfo(view, card) {
  const catalogue = view.tactic_cards || {};
  const info = catalogue[card] || {};
  return { name: info.name ? t(info.name) : humanise(card), cost: info.cost || {}, strength: info.strength ?? 0, vp: info.vp ?? 0, text: info.text ? t(info.text) : "", only: info.only || null };
}

function humanise(text) {
  const words = String(text || "").replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function costOf(view, what, seat) {
  const costs = view.costs || {};
  if (what === "capital") {
    const level = ((view.players || [])[seat] || {}).cc_level || 1;
    const cost = costs.capital || {};
    return cost[String(level + 1)] || cost[level + 1] || (cost.ore !== undefined ? cost : null);
  }
  return costs[what] || null;
}

/** One move in words, for a button and its label. */
function describe(view, move, seat) {
  const full = isFull(view) ? fullDescribe(view, move) : null;
  if (full) return full;
  const text = coreAction(view, move, seat);
  const worker = workerWords(move.worker);
  return worker && text ? t("{action} {worker}", { action: text, worker }) : text;
}

/** A core-edition move in words, without the worker who follows it. */
function coreAction(view, move, seat) {
  switch (move.type) {
    case "place_nomad":
      return t("Place a Nomad on {region}", { region: regionName(move.region) });
    case "move_nomad":
      return t("Move the Nomad on {origin} to {destination}", { origin: regionName(move.origin), destination: regionName(move.destination) });
    case "recruit": {
      const names = { serf: "a Serf", serf_pair: "2 Serfs", warrior: "a Warrior", hero: "a Hero" };
      const what = move.unit === "mercenary" ? t("the Nomad Mercenary, {count} figures", { count: MERCENARY_FIGURES }) : names[move.unit] ? t(names[move.unit]) : move.unit;
      const cost = costOf(view, move.unit, seat);
      return cost ? t("Recruit {what} ({cost})", { what, cost: costWords(cost) }) : t("Recruit {what}", { what });
    }
    case "build": {
      if (move.what === "tower") return t("Build a Tower on {region}", { region: regionName(move.region) });
      if (move.what === "hall") return t("Build the Hall ({cost}, locks a Serf)", { cost: costWords(costOf(view, "hall", seat)) });
      const cost = costOf(view, "capital", seat);
      return cost ? t("Upgrade the Capital City ({cost})", { cost: costWords(cost) }) : t("Upgrade the Capital City");
    }
    case "tax": {
      const slot = Object.keys(view.tax_track || {}).find((value) => view.tax_track[value] === move.resource);
      const resource = resourceName(move.resource);
      return slot ? t("Tax {resource} (+{amount})", { resource, amount: slot }) : t("Tax {resource}", { resource });
    }
    case "march":
      return t("March {units} from {origin} to {destination}", { units: unitWords(move, UNIT_KINDS), origin: regionName(move.origin), destination: regionName(move.destination) });
    case "pass":
      return t("Pass: you cannot act"); // the log: "Ana cannot act and passes"
    case "fire_mercenary":
      return t("Fire the Nomad Mercenary");
    case "skip": { // in the log's words for the step it skips
      const words = { follow: "Do not follow", muster: "Do not muster", interrupt: "Let the spell be", combat_spell: "Cast no Combat spell" }[view.phase];
      return t(words || "Skip");
    }
    case "tactic":
      return t("{tactic}: {payment}", { tactic: tacticInfo(view, move.card).name, payment: payWords(move) });
    case "conscript":
      return totalUnits(move) ? t("Conscript {units} from {origin} into the battle", { units: unitWords(move, UNIT_KINDS), origin: regionName(move.origin) }) : t("Conscript nobody");
    case "casualties":
      return move.retreat ? t("Lose {units}, retreat to {region}", { units: unitWords(move), region: regionName(move.retreat) }) : t("Lose {units}", { units: unitWords(move) });
    default:
      return Object.entries(move).map(([name, value]) => `${name}: ${value}`).join(", ");
  }
}

function payWords(move) {
  const paid = RESOURCES.filter((resource) => move[resource]).map((resource) => amountWords(move[resource], resource));
  const sacrificed = UNIT_KINDS.filter((kind) => move[kind]).map((kind) => plural(move[kind], kind));
  if (!paid.length && !sacrificed.length) return t("no cost");
  const pay = { cost: paid.join(" + "), units: sacrificed.join(", ") };
  if (paid.length && sacrificed.length) return t("pay {cost} and sacrifice {units}", pay);
  return paid.length ? t("pay {cost}", pay) : t("sacrifice {units}", pay);
}

function totalUnits(counts) {
  return UNIT_KINDS.reduce((sum, kind) => sum + (counts[kind] || 0), 0);
}

const armyKey = (move) => UNIT_KINDS.map((kind) => move[kind] || 0).join(",");
const lossKey = (move) => [...UNIT_KINDS, "nomad"].map((kind) => move[kind] || 0).join(",");

// -- seat marks -------------------------------------------------------------------------------

function seatLetter(view, seat) {
  const player = (view.players || [])[seat];
  return (player && player.continent) || String(seat + 1);
}

/** A seat's mark: its colour, its own shape and its letter, so colour is never the only cue. */
function markShape(seat, cx, cy, r, extra = {}) {
  const colour = SEAT_COLOURS[seat % 4];
  const attributes = { fill: colour, stroke: "#1d1d1d", "stroke-width": r * 0.14, class: "hx-mark-shape", ...extra };
  const shape = SEAT_SHAPES[seat % 4];
  if (shape === "square") return s("rect", { x: cx - r * 0.88, y: cy - r * 0.88, width: r * 1.76, height: r * 1.76, rx: r * 0.2, ...attributes });
  if (shape === "diamond") return s("path", { d: `M${cx},${cy - r * 1.15} L${cx + r * 1.15},${cy} L${cx},${cy + r * 1.15} L${cx - r * 1.15},${cy} Z`, ...attributes });
  if (shape === "triangle") return s("path", { d: `M${cx},${cy - r * 1.2} L${cx + r * 1.15},${cy + r * 0.85} L${cx - r * 1.15},${cy + r * 0.85} Z`, ...attributes });
  return s("circle", { cx, cy, r, ...attributes });
}

function mark(view, seat, cx, cy, r) {
  return s(
    "g",
    { class: "hx-mark", "data-mark-seat": String(seat) },
    markShape(seat, cx, cy, r),
    s("text", { x: cx, y: cy + r * 0.08, class: "hx-mark-letter", "font-size": r * 1.25 }, seatLetter(view, seat)),
  );
}

function swatch(view, seat, size = 20) {
  const half = size / 2;
  return s(
    "svg",
    { class: "hx-swatch", width: size, height: size, viewBox: `0 0 ${size} ${size}`, "aria-hidden": "true", focusable: "false" },
    markShape(seat, half, half, half * 0.72),
    s("text", { x: half, y: half + 0.5, class: "hx-mark-letter", "font-size": size * 0.5 }, seatLetter(view, seat)),
  );
}

/** A seat's mark in words: "blue circle N" (colour and shape are msgids). */
function markWords(view, seat) {
  return t("{colour} {shape} {letter}", { colour: t(SEAT_COLOUR_NAMES[seat % 4]), shape: t(SEAT_SHAPES[seat % 4]), letter: seatLetter(view, seat) });
}

function seatWords(frame, view, seat) {
  return t("{name} ({mark})", { name: playerName(frame, seat), mark: markWords(view, seat) });
}

// -- the map ----------------------------------------------------------------------------------

function mapOf(view) {
  const map = view.map || { regions: [], ferry_routes: [] };
  const byId = new Map(map.regions.map((region) => [region.id, { ...region, kind: region.kind || "land" }]));
  if (map.id === "four-isles-v1") for (const region of SEA_LABELS) if (!byId.has(region.id)) byId.set(region.id, region);
  return { byId, ferries: (map.ferry_routes || []).map((route) => [route.a, route.b]) };
}

const centre = (region) => [region.x * SCALE, -region.y * SCALE];

/** The corners of a region's hexagon: the hexes of a continent face its capital (one edge points
 * from the desert to the capital). */
function regionCorners(map, region) {
  const [cx, cy] = centre(region);
  const desert = map.byId.get(`${region.continent}_desert`);
  const capital = map.byId.get(`${region.continent}_capital`);
  let theta = 0;
  if (desert && capital) {
    const [dx, dy] = centre(desert);
    const [kx, ky] = centre(capital);
    theta = Math.atan2(ky - dy, kx - dx);
  }
  return hexCorners(cx, cy, HEX, theta);
}

function hexPoints(map, region) {
  return regionCorners(map, region).map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(" ");
}

function tentPath(cx, cy, size) {
  return `M${cx - size},${cy + size * 0.75} L${cx},${cy - size} L${cx + size},${cy + size * 0.75} Z M${cx - size * 0.28},${cy + size * 0.75} L${cx},${cy + size * 0.05} L${cx + size * 0.28},${cy + size * 0.75}`;
}

function towerPath(cx, cy, size) {
  const w = size * 0.7;
  return `M${cx - w},${cy + size} V${cy - size * 0.5} h${w * 0.5} v${-size * 0.45} h${w * 0.5} v${size * 0.45} h${w * 0.5} v${-size * 0.45} h${w * 0.5} v${size * 0.45} V${cy + size} Z`;
}

function regionWords(frame, view, region, state) {
  const parts = [regionName(region.id)];
  if (region.kind === "capital") {
    const owner = ownerOfCapital(view, region.id);
    if (owner !== null) parts.push(t("capital of {name}, level {level}", { name: playerName(frame, owner), level: (view.players[owner] || {}).cc_level || 1 }));
    else parts.push(t("an empty capital region"));
  } else {
    parts.push(TERRAIN_NAMES[region.terrain] ? t(TERRAIN_NAMES[region.terrain]) : region.terrain);
  }
  for (const [seat, counts] of Object.entries(state.units || {})) {
    if (totalUnits(counts)) parts.push(`${playerName(frame, Number(seat))}: ${unitWords(counts, UNIT_KINDS)}`);
  }
  if (state.tower !== null && state.tower !== undefined) parts.push(t("Tower of {name}", { name: playerName(frame, state.tower) }));
  if (state.nomad) parts.push(t("a Nomad"));
  return parts.join("; ");
}

function ownerOfCapital(view, regionId) {
  const index = (view.players || []).findIndex((player) => player.capital === regionId && !player.eliminated);
  return index >= 0 ? index : null;
}

const ZOOMED_PX_PER_UNIT = 4; // the larger map: 14 px names and 75 px hexes

// A region's texts, in map units (heroes.css gives each its size: 12 px on the map of a 1280 x 800
// window, 3.76 px a unit): the name across the top, a capital's level across the bottom, the
// owner's army between them (heroes-hex.js lays it out in the room the hexagon leaves).
const LABEL_Y = -4.5; // the name's middle, from the region's centre (a full edition's token is above it)
const LABEL_FONT = 3.3; // .hx-region-label and .hx-capital-level
const LEVEL_Y = 5.3; // a capital's level
const ARMY_Y = 1.1; // the middle of one army's row
const ARMY_BAND = [LABEL_Y + LABEL_FONT * 0.5, 7.6]; // the heights an army's figures stay between (a capital's: above its level)
const LABEL_ROOM = 1.0; // what a label keeps clear of the hexagon's edge (a capital's edge is 1.1 thick: 0.45 clear of it)

/** The name or level of a region, centred at (x, y), narrowed on the page to the room its hexagon leaves. */
function regionLabel(corners, x, y, text, className) {
  const room = roomBetween(corners, y - LABEL_FONT * 0.35, y + LABEL_FONT * 0.35, LABEL_ROOM); // the glyphs' height
  return fittedLabel(x, y, text, className, room ? room[1] - room[0] : 2 * HEX);
}

function drawMap(frame, view, map, targets, onTarget, zoom) {
  const regionsInPlay = Object.keys(view.regions || {}).filter((id) => map.byId.has(id));
  const land = regionsInPlay.map((id) => map.byId.get(id)).filter((region) => region.kind !== "sea");
  const xs = land.flatMap((region) => [centre(region)[0] - HEX, centre(region)[0] + HEX]);
  const ys = land.flatMap((region) => [centre(region)[1] - HEX, centre(region)[1] + HEX]);
  const pad = 5;
  const minX = Math.min(...xs) - pad;
  const minY = Math.min(...ys) - pad;
  const width = Math.max(...xs) + pad - minX;
  const height = Math.max(...ys) + pad - minY;
  const svg = s("svg", {
    class: "hx-map game-board",
    viewBox: `${minX.toFixed(1)} ${minY.toFixed(1)} ${width.toFixed(1)} ${height.toFixed(1)}`,
    role: "group",
    "aria-label": t("The map: {regions} land regions, {nomads} Nomads on the board", { regions: land.length, nomads: regionsInPlay.filter((id) => view.regions[id].nomad).length }),
    "data-region-count": String(land.length),
    style: zoom ? `width: ${Math.round(width * ZOOMED_PX_PER_UNIT)}px; max-width: none; max-height: none` : undefined,
  });
  svg.append(s("rect", { x: minX, y: minY, width, height, class: "hx-sea-bg" }));
  const seas = s("g", { class: "hx-seas", "aria-hidden": "true" });
  for (const region of map.byId.values()) {
    if (region.kind !== "sea") continue;
    const [cx, cy] = centre(region);
    if (cx < minX || cx > minX + width || cy < minY || cy > minY + height) continue;
    // the sea's name on two lines: "North-East" over "sea" (the first line is the name without its last word)
    const [head, ...rest] = String(region.id).split("_");
    const compass = head === "sea" ? rest.join("").split("").map((letter) => CONTINENTS[letter] || "Central").join("-") : region.id;
    seas.append(s("text", { x: cx, y: cy, class: "hx-sea-label" }, t(compass)), s("text", { x: cx, y: cy + 3.2, class: "hx-sea-label" }, t("sea")));
  }
  svg.append(seas);
  const ferries = s("g", { class: "hx-ferries" });
  for (const [a, b] of map.ferries) {
    if (!view.regions[a] || !view.regions[b]) continue;
    const [x1, y1] = centre(map.byId.get(a));
    const [x2, y2] = centre(map.byId.get(b));
    ferries.append(s("line", { x1, y1, x2, y2, class: "hx-ferry", "data-ferry": `${a}|${b}` }, s("title", {}, t("Ferry route: {a} – {b}", { a: regionName(a), b: regionName(b) }))));
  }
  svg.append(ferries);

  const regionsGroup = s("g", { class: "hx-regions" });
  for (const region of land) {
    const state = view.regions[region.id] || {};
    const target = targets.get(region.id);
    const [cx, cy] = centre(region);
    const owner = region.kind === "capital" ? ownerOfCapital(view, region.id) : null;
    const words = regionWords(frame, view, region, state);
    const group = s("g", {
      class: `hx-region terrain-${region.terrain}${target ? " legal" : ""}`,
      "data-region": region.id,
      "data-terrain": region.terrain,
      "data-nomad": String(Boolean(state.nomad)),
      "data-tower": state.tower === null || state.tower === undefined ? "" : String(state.tower),
      "data-target-kind": target ? target.kind : undefined,
      role: target ? "button" : "img",
      tabindex: target ? "0" : undefined,
      "data-focus-key": target ? `region:${region.id}` : undefined,
      "aria-label": target ? `${target.label}. ${words}` : words,
    });
    group.append(s("title", {}, target ? `${target.label}. ${words}` : words));
    const corners = regionCorners(map, region);
    group.append(s("polygon", { points: hexPoints(map, region), class: "hx-hex", style: owner !== null ? `--owner: ${SEAT_COLOURS[owner % 4]}` : undefined }));
    let label = t(humanise(region.id.split("_").slice(1).join(" "))); // "Plains", "Forest", ...
    if (region.kind === "capital") label = owner !== null ? t("Capital {letter}", { letter: seatLetter(view, owner) }) : t("Capital");
    group.append(regionLabel(corners, cx, cy + LABEL_Y, label, "hx-region-label"));
    if (owner !== null) group.append(regionLabel(corners, cx, cy + LEVEL_Y, t("level {level}", { level: (view.players[owner] || {}).cc_level || 1 }), "hx-capital-level"));
    // the units: one line per player, their mark and counts ("2S 1W")
    const lines = Object.entries(state.units || {}).filter(([, counts]) => totalUnits(counts) > 0);
    lines.forEach(([seat, counts], index) => {
      // one figure per kind (pawn, shield, crown, the Mercenary's tent) and its count; a region
      // with one army (nearly always) draws them as large as its hexagon has room for (16 px high
      // on a desktop map for one kind), two to a row
      const kinds = UNIT_KINDS.filter((kind) => counts[kind]);
      let figures;
      if (lines.length === 1) {
        /** @type {[number, number]} */
        const band = [cy + ARMY_BAND[0], cy + (owner !== null ? LEVEL_Y - LABEL_FONT * 0.5 : ARMY_BAND[1])];
        // in its owner's capital an army goes without the mark: the name ("Capital N") and the
        // coloured edge say whose it is, and the Courtyard's two kinds get the room
        const own = owner !== null && Number(seat) === owner;
        const markBelow = owner === null && (state.tower === null || state.tower === undefined) && !state.nomad;
        const rowY = owner !== null ? (band[0] + band[1]) / 2 : cy + ARMY_Y; // a capital's: between its name and level
        figures = armyFigures({ corners, cx, y: rowY, band, kinds, counts, markBelow, mark: own ? null : (x, y, r) => mark(view, Number(seat), x, y, r) });
      } else {
        const y = cy - 1.4 + index * 3.9 + (owner !== null ? 0.4 : 0);
        const step = kinds.length > 3 ? 3.05 : 3.5;
        figures = [mark(view, Number(seat), cx - 5.2, y, 1.75), ...kinds.flatMap((kind, at) => {
          const fx = cx - 2.6 + at * step;
          return [
            unitFigure(kind, fx, y, 2.9, { "data-count": String(counts[kind]) }),
            s("text", { x: fx + 1.45, y: y + 0.35, class: "hx-unit-count" }, String(counts[kind])),
          ];
        })];
      }
      group.append(
        s(
          "g",
          { class: "hx-units", "data-units-seat": seat, "data-units": armyKey(counts), "data-mercenary": counts.mercenary ? String(counts.mercenary) : undefined },
          ...figures,
        ),
      );
    });
    if (state.tower !== null && state.tower !== undefined) {
      const tx = cx - 3.2;
      const ty = cy + 6.1;
      group.append(
        s(
          "g",
          { class: "hx-tower", "data-tower-seat": String(state.tower) },
          s("path", { d: towerPath(tx, ty, 1.6), fill: SEAT_COLOURS[state.tower % 4], class: "hx-tower-shape" }),
          s("text", { x: tx + 2.6, y: ty + 0.2, class: "hx-small-letter" }, seatLetter(view, state.tower)),
        ),
      );
    }
    if (state.nomad) {
      const nx = lines.length ? cx + 3.6 : cx;
      const ny = lines.length ? cy + 6 : cy + 1.5;
      group.append(s("path", { d: tentPath(nx, ny, lines.length ? 1.8 : 2.6), class: "hx-nomad", "data-nomad-marker": "" }));
    }
    if (target) {
      group.append(s("polygon", { points: hexPoints(map, region), class: "hx-target" }));
      activate(group, () => onTarget(target));
    }
    regionsGroup.append(group);
  }
  svg.append(regionsGroup);
  if (isFull(view)) svg.append(fullMapLayer(view, map, centre, SEAT_COLOURS, (seat) => seatLetter(view, seat), targets, onTarget));
  return svg;
}

// -- the panel --------------------------------------------------------------------------------

function courtyardOf(view, seat) {
  const player = (view.players || [])[seat] || {};
  const units = ((view.regions || {})[player.capital] || {}).units || {};
  return units[String(seat)] || { serf: 0, warrior: 0, hero: 0, mercenary: 0 };
}

function drawPlayerBoard(frame, view, seat) {
  const player = view.players[seat];
  const turn = view.turn || {};
  const toAct = (frame.to_act || []).includes(seat) && view.phase !== "over";
  const courtyard = courtyardOf(view, seat);
  const bar = player.bar || {};
  const resources = player.resources || {};
  const slots = SLOTS.map((slot) => {
    const fill = bar[slot];
    const state = fill === "disabled" ? "disabled" : fill ? fill : "open";
    // a greyed slot says why: the core edition (the reduced game of five actions) has no such action
    const unavailable = isFull(view)
      ? "not available at this table"
      : "not in the core edition, the reduced game this table plays (the full edition has it)";
    const fillMsgid = { disabled: unavailable, open: "open", token: "Action Token", serf: "Serf", nomad: "Nomad" }[state];
    const shortMsgid = { disabled: isFull(view) ? "unavailable" : "not in core", open: "open", token: "Token", serf: "Serf", nomad: "Nomad" }[state];
    const fillWords = fillMsgid ? t(fillMsgid) : state;
    const shortWords = shortMsgid ? t(shortMsgid) : state;
    const slotWords = t("{slot}: {fill}", { slot: slotName(slot), fill: fillWords });
    return h(
      "li",
      { class: `hx-slot slot-${state}`, "data-slot": slot, "data-fill": state, title: slotWords, "aria-label": slotWords },
      h("span", { class: "hx-slot-name" }, slotName(slot)),
      h("span", { class: "hx-slot-fill" }, shortWords),
    );
  });
  return h(
    "section",
    {
      class: `hx-player${turn.seat === seat && ["action", "follow", "muster"].includes(view.phase) ? " current" : ""}${player.eliminated ? " eliminated" : ""}`,
      "data-player-seat": String(seat),
      "aria-label": t("Capital City board of {player}", { player: seatWords(frame, view, seat) }),
    },
    h(
      "div",
      { class: "hx-player-head" },
      swatch(view, seat),
      h("strong", {}, playerName(frame, seat)),
      seat === frame.seat ? h("span", { class: "muted" }, t("(you)")) : null,
      view.first_player === seat && !view.solo ? h("span", { class: "badge hx-first", title: t("First player this round") }, t("first")) : null,
      toAct ? h("span", { class: "badge badge-turn" }, t("to play")) : null,
      player.eliminated ? h("span", { class: "badge" }, t("eliminated")) : null,
      h("span", { class: "hx-score", "data-score": String(player.score ?? 0) }, t("{points} VP", { points: player.score ?? 0 })),
    ),
    h(
      "ul",
      { class: "hx-resources", "aria-label": t("Resources") },
      RESOURCES.map((resource) => h("li", { "data-resource": resource, class: `res-${resource}` }, `${resourceName(resource)} `, h("strong", {}, String(resources[resource] ?? 0)))),
    ),
    h(
      "dl",
      { class: "hx-stats" },
      h("dt", {}, t("Capital")),
      h("dd", { "data-cc-level": String(player.cc_level || 1) }, player.hall ? t("level {level} · Hall", { level: player.cc_level || 1 }) : t("level {level}", { level: player.cc_level || 1 })),
      h("dt", {}, t("Tokens")),
      h("dd", { "data-tokens": String(player.tokens ?? 0) }, t("{count} left", { count: player.tokens ?? 0 })),
      h("dt", {}, t("Courtyard")),
      h("dd", { "data-courtyard": armyKey(courtyard) }, unitWords(courtyard, UNIT_KINDS)),
      view.mercenary ? null : h("dt", {}, t("Nomads")),
      view.mercenary ? null : h("dd", { "data-captured": String(player.nomads || 0) }, t("{count} captured", { count: player.nomads || 0 })),
    ),
    mercenaryOf(view) === seat ? drawMercenaryCard(frame, view, "hx-merc-held") : null,
    h("ol", { class: "hx-bar", "aria-label": t("Action Bar") }, slots),
    isFull(view) ? fullBoard(frame, view, seat) : null,
  );
}

// -- the solo Enemy (spec 1.12) ----------------------------------------------------------------------

function enemyCard(view, id) {
  return ((view.enemy_cards || {})[String(id)]) || null;
}

/** A compass rose with the arrow of `card` (the Enemy's current card). */
function drawCompass(card) {
  const arrow = card ? card.arrow : null;
  const rose = s(
    "svg",
    { class: "hx-compass", viewBox: "-12 -12 24 24", width: 56, height: 56, role: "img", "aria-label": arrow ? t("Compass arrow: {arrow}", { arrow }) : t("No card drawn yet"), "data-arrow": arrow || "" },
    s("circle", { cx: 0, cy: 0, r: 10.5, class: "hx-compass-ring" }),
    ...["N", "E", "S", "W"].map((point) => {
      const angle = (ARROW_DEGREES[point] * Math.PI) / 180;
      return s("text", { x: 8 * Math.sin(angle), y: -8 * Math.cos(angle) + 1.2, class: "hx-compass-point" }, point);
    }),
  );
  if (arrow) {
    rose.append(s("path", { d: "M0,-6.5 L2.4,1.5 L0,0 L-2.4,1.5 Z", class: "hx-compass-arrow", transform: `rotate(${ARROW_DEGREES[arrow] || 0})` }));
  }
  return rose;
}

function cardWords(card) {
  const words = { id: card.id, action: t(card.action_name), arrow: card.arrow, strength: card.strength, attack: tacticInfo({}, card.attack_tactic).name, defence: tacticInfo({}, card.defence_tactic).name };
  return card.followable
    ? t("card {id}: {action} (you may follow it) · arrow {arrow}. When drawn for a battle: +{strength}, {attack} attacking, {defence} defending.", words)
    : t("card {id}: {action} (no follow) · arrow {arrow}. When drawn for a battle: +{strength}, {attack} attacking, {defence} defending.", words);
}

/** The Enemy's board: resources, VP, C.C. track, Hero slots with their cards, the deck and the current card's compass arrow. */
function drawEnemyBoard(frame, view) {
  const player = view.players[ENEMY] || {};
  const solo = view.solo || {};
  const slots = solo.slots || [];
  const heroes = solo.heroes || [];
  const filled = slots.map((id, index) => [id, index]).filter(([id]) => id !== null && id !== undefined);
  const current = filled.length ? enemyCard(view, filled[filled.length - 1][0]) : null;
  const courtyard = courtyardOf(view, ENEMY);
  const rows = [0, 1, 2, 3].filter((index) => index < 3 || slots[3] !== null && slots[3] !== undefined).map((index) => {
    const card = enemyCard(view, slots[index]);
    const hero = Math.min(index, 2);
    const label = index === 3 ? t("4th card (Hero 3)") : t("Hero {number}", { number: index + 1 });
    return h(
      "li",
      { class: `hx-enemy-slot${card && current && card.id === current.id ? " current" : ""}`, "data-enemy-slot": String(index + 1), "data-enemy-card": card ? String(card.id) : "" },
      h("strong", {}, `${label}`),
      ` ${t("on {region}:", { region: regionName(heroes[hero]) })} `,
      card ? t("card {id}, {action}, arrow {arrow}", { id: card.id, action: t(card.action_name), arrow: card.arrow }) : h("span", { class: "muted" }, t("no card yet")),
    );
  });
  return h(
    "section",
    { class: "hx-player hx-enemy", "data-player-seat": String(ENEMY), "aria-label": t("The Enemy's board ({mark})", { mark: markWords(view, ENEMY) }) },
    h(
      "div",
      { class: "hx-player-head" },
      swatch(view, ENEMY),
      h("strong", {}, t("The Enemy")),
      h("span", { class: "muted" }, t("(played by the server)")),
      player.eliminated ? h("span", { class: "badge" }, t("capital destroyed")) : null,
      h("span", { class: "hx-score", "data-score": String(player.score ?? 0) }, t("{points} VP", { points: player.score ?? 0 })),
    ),
    h(
      "div",
      { class: "hx-enemy-top" },
      drawCompass(current),
      h(
        "div",
        {},
        h("p", { class: "hx-enemy-current", "data-current-card": current ? String(current.id) : "" }, current ? t("Current card — {card}", { card: cardWords(current) }) : t("No card drawn yet this round.")),
        h(
          "ul",
          { class: "hx-resources", "aria-label": t("The Enemy's resources") },
          RESOURCES.map((resource) => h("li", { "data-resource": resource, class: `res-${resource}` }, `${resourceName(resource)} `, h("strong", {}, String((player.resources || {})[resource] ?? 0)))),
        ),
      ),
    ),
    h(
      "dl",
      { class: "hx-stats" },
      h("dt", {}, t("C.C. track")),
      h("dd", { "data-enemy-track": String(solo.track ?? 0) }, t("step {step} of {steps} (capital level {level}; step {steps} ends the game)", { step: solo.track ?? 0, steps: TRACK_STEPS, level: player.cc_level || 1 })),
      h("dt", {}, t("Courtyard")),
      h("dd", { "data-courtyard": armyKey(courtyard) }, unitWords(courtyard, UNIT_KINDS)),
      h("dt", {}, t("Nomads")),
      h("dd", { "data-captured": String(player.nomads || 0) }, player.nomads ? t("{count} captured (a 4th card this round)", { count: player.nomads }) : t("{count} captured", { count: 0 })),
      h("dt", {}, t("Deck")),
      h("dd", { "data-deck-size": String(solo.deck_size ?? 0) }, t("{count} cards face down, {discarded} discarded", { count: solo.deck_size ?? 0, discarded: (solo.discard || []).length })),
    ),
    h("ol", { class: "hx-enemy-slots", "aria-label": t("The Enemy's Hero slots") }, rows),
  );
}

// -- the Nomad Mercenary (variant "mercenary") ---------------------------------------------------

/** The holder of the Nomad Mercenary card, or null (in the supply, or not this variant). */
function mercenaryOf(view) {
  const card = view.mercenary;
  return card && card.owner !== null && card.owner !== undefined ? card.owner : null;
}

/** Where the holder's figures stand: [[region id, count], ...]. */
function mercenaryFigures(view, seat) {
  return Object.entries(view.regions || {})
    .map(([id, entry]) => [id, ((entry.units || {})[String(seat)] || {}).mercenary || 0])
    .filter(([, count]) => count > 0);
}

/** The card: in the supply (with its cost), or held by a seat with its living figures. */
function drawMercenaryCard(frame, view, extraClass = "") {
  const card = view.mercenary || {};
  const owner = mercenaryOf(view);
  const alive = card.alive || 0;
  const cost = costWords(costOf(view, "mercenary", owner ?? 0) || {});
  const figure = h(
    "span",
    { class: "hx-merc-figures", "aria-hidden": "true" },
    Array.from({ length: MERCENARY_FIGURES }, (_, index) => h("span", { class: `hx-merc-figure${index < alive ? " alive" : ""}`, style: owner !== null ? `--owner: ${SEAT_COLOURS[owner % 4]}` : undefined })),
  );
  if (owner === null) {
    return h(
      "div",
      { class: `hx-merc-card in-supply ${extraClass}`, "data-mercenary-owner": "", "data-mercenary-alive": "0" },
      h("strong", {}, t("Nomad Mercenary")),
      h("span", {}, ` — ${t("in the general supply ({count} figures, {cost}). Hire it with a Recruit, taken or followed.", { count: MERCENARY_FIGURES, cost })}`),
    );
  }
  const places = mercenaryFigures(view, owner).map(([id, count]) => `${regionName(id)} ${count}`);
  const alivePart = t("{alive} of {count} figures alive", { alive, count: MERCENARY_FIGURES });
  return h(
    "div",
    { class: `hx-merc-card held ${extraClass}`, "data-mercenary-owner": String(owner), "data-mercenary-alive": String(alive), style: `--owner: ${SEAT_COLOURS[owner % 4]}` },
    figure,
    h("strong", {}, t("Nomad Mercenary")),
    h("span", {}, ` — ${alivePart}${places.length ? ` (${places.join(", ")})` : ""}`),
  );
}

function drawMercenarySection(frame, view) {
  if (!view.mercenary) return null;
  const owner = mercenaryOf(view);
  return h(
    "section",
    { class: "hx-mercenary", "aria-labelledby": "hx-mercenary-title", "data-mercenary-owner": owner === null ? "" : String(owner) },
    h("h3", { id: "hx-mercenary-title" }, t("Mercenary card")),
    owner === null
      ? drawMercenaryCard(frame, view)
      : h("p", { class: "hx-merc-holder" }, swatch(view, owner, 16), ` ${heldWords(frame, view, owner)}`),
  );
}

/** Who holds the Nomad Mercenary and how many of its figures live. */
function heldWords(frame, view, owner) {
  const words = { name: playerName(frame, owner), alive: (view.mercenary || {}).alive || 0, count: MERCENARY_FIGURES };
  return owner === frame.seat ? t("Held by {name} (you): {alive} of {count} figures alive.", words) : t("Held by {name}: {alive} of {count} figures alive.", words);
}

function drawTaxTrack(view) {
  const track = view.tax_track || {};
  const values = Object.keys(track).sort((a, b) => Number(b) - Number(a));
  return h(
    "section",
    { class: "hx-tax", "aria-labelledby": "hx-tax-title" },
    h("h3", { id: "hx-tax-title" }, t("Tax track")),
    h("ol", { class: "hx-tax-track" }, values.map((value) => h("li", { "data-tax-slot": value, "data-tax-resource": track[value] }, h("strong", {}, `+${value}`), " ", resourceName(track[value])))),
  );
}

function statusWords(frame, view) {
  const turn = view.turn || {};
  const phase = view.phase;
  const pending = view.pending || {};
  if (phase === "over") return t("The game is over.");
  if (phase === "nomad") return t("{name} places this round's Nomad.", { name: playerName(frame, view.first_player ?? turn.seat) });
  if (phase === "nomad_move") {
    const name = playerName(frame, pending.seat ?? 0);
    return pending.arrow ? t("{name} moves a Nomad one region towards {arrow}.", { name, arrow: pending.arrow }) : t("{name} moves a Nomad one region towards the arrow.", { name });
  }
  if (phase === "action") return t("{name} takes an action (lap {lap} of 2).", { name: playerName(frame, turn.seat), lap: turn.lap || 1 });
  if (phase === "follow") {
    const action = t(humanise(((pending.action || {}).type) || "action"));
    const next = (pending.queue || [])[0];
    const name = playerName(frame, pending.leader);
    return next !== undefined ? t("{name} chose {action}; {next} may follow.", { name, action, next: playerName(frame, next) }) : t("{name} chose {action}; others may follow.", { name, action });
  }
  if (phase === "muster") return t("{name} may muster a second March.", { name: playerName(frame, pending.seat ?? turn.seat) });
  if (phase === "tactics" || phase === "conscripts" || phase === "casualties") return pending.battle ? t("A battle at {region}.", { region: regionName(pending.battle.region) }) : "";
  return "";
}

function battleWords(frame, view, battle) {
  if (!battle) return "";
  if (battle.nomad) return t("The Nomad moved onto {region} beat the army of {name} there.", { region: regionName(battle.region), name: playerName(frame, battle.attacker) });
  const strength = battle.strength || {};
  const defenderName = playerInSentence(frame, view, battle.defender); // mid-sentence
  const defender = battle.capital ? t("the capital of {name}", { name: defenderName }) : defenderName;
  return t("{attacker} attacks {defender} at {region} (strength {attack} against {defence}).", { attacker: playerName(frame, battle.attacker), defender, region: regionName(battle.region), attack: strength.attacker ?? "?", defence: strength.defender ?? "?" });
}

/** The revealed tactic cards of a battle, "Ana: Charge", from `cards` keyed by seat or by side. */
function revealedCards(frame, view, battle) {
  const cards = battle.cards || {};
  const effective = battle.effective || {};
  return [["attacker", battle.attacker], ["defender", battle.defender]]
    .map(([side, seat]) => {
      const entry = cards[String(seat)] ?? cards[side];
      const card = entry && typeof entry === "object" ? entry.card : entry;
      if (!card) return null;
      const noEffect = effective[String(seat)] === false || (entry && typeof entry === "object" && (entry.void || entry.cancelled));
      const words = { name: playerName(frame, seat), card: tacticInfo(view, card).name };
      return noEffect ? t("{name}: {card} (no effect)", words) : t("{name}: {card}", words);
    })
    .filter(Boolean);
}

function endWords(frame, view, end) {
  const over = view.phase === "over";
  const words = { round: end.round, last: end.last_round };
  if (end.objective === "track") {
    return over
      ? t("The Enemy reached the end of its C.C. track in round {round}: the game ended after round {last}.", words)
      : t("The Enemy reached the end of its C.C. track in round {round}: the game ends after round {last}.", words);
  }
  if (end.objective === "last_standing") return t("A capital was destroyed: the game ended at once.");
  if (end.objective === "round_limit" || end.by === null || end.by === undefined) {
    return over ? t("The game ended after round {round} (the table's round limit).", words) : t("The round limit ends the game after round {last}.", words);
  }
  const reached = { ...words, objective: t(end.objective), name: playerName(frame, end.by) };
  return over
    ? t("{objective} reached by {name} in round {round}: the game ended after round {last}.", reached)
    : t("{objective} reached by {name} in round {round}: the game ends after round {last}.", reached);
}

function drawBattle(frame, view) {
  const pending = view.pending || {};
  const battle = pending.battle;
  const last = (view.last || {}).battle;
  if (battle) {
    const chosen = pending.chosen || {};
    const sides = [["attacker", battle.attacker], ["defender", battle.defender]];
    return h(
      "section",
      { class: "hx-battle", "data-battle-region": battle.region, "aria-labelledby": "hx-battle-title" },
      h("h3", { id: "hx-battle-title" }, t("Battle")),
      h("p", {}, battleWords(frame, view, battle)),
      view.phase === "tactics"
        ? h("ul", { class: "hx-chosen" }, sides.map(([side, seat]) => h("li", { "data-chosen-seat": String(seat), "data-chosen": String(Boolean(chosen[String(seat)])) }, chosen[String(seat)] ? t("{name} ({side}): has chosen a card", { name: playerName(frame, seat), side: t(side) }) : t("{name} ({side}): is choosing a card", { name: playerName(frame, seat), side: t(side) }))))
        : null,
      pending.mine && pending.mine.card ? h("p", { class: "hx-mine", "data-mine": pending.mine.card }, t("Your card (secret until both have chosen): {card}, {payment}.", { card: tacticInfo(view, pending.mine.card).name, payment: payWords(pending.mine) })) : null,
      battle.cards && revealedCards(frame, view, battle).length
        ? h("p", { class: "hx-revealed" }, battle.totals
          ? t("Revealed: {cards}; {attack} against {defence} with the cards.", { cards: revealedCards(frame, view, battle).join(", "), attack: battle.totals.attacker, defence: battle.totals.defender })
          : t("Revealed: {cards}.", { cards: revealedCards(frame, view, battle).join(", ") }))
        : null,
      view.phase === "casualties" && pending.damage ? h("p", {}, t("{name} lost and must take {damage} damage.", { name: playerName(frame, pending.seat), damage: pending.damage })) : null,
    );
  }
  if (last) {
    const strength = last.totals || last.strength || {};
    const cardWords = revealedCards(frame, view, last);
    return h(
      "section",
      { class: "hx-battle hx-last-battle", "data-battle-region": last.region || "", "aria-labelledby": "hx-battle-title" },
      h("h3", { id: "hx-battle-title" }, t("Last battle")),
      h("p", {}, lastBattleWords(frame, last, cardWords, strength)),
    );
  }
  return null;
}

/** The last battle in one sentence: where, the cards, who won and by how much. */
function lastBattleWords(frame, last, cardWords, strength) {
  const where = t("At {region}:", { region: regionName(last.region) });
  const cards = cardWords.length ? ` ${cardWords.join(", ")}.` : "";
  if (last.winner === undefined || last.winner === null) return `${where}${cards}`;
  const words = { name: playerName(frame, last.winner), high: Math.max(strength.attacker, strength.defender), low: Math.min(strength.attacker, strength.defender) };
  return `${where}${cards} ${strength.attacker !== undefined ? t("{name} won ({high} to {low}).", words) : t("{name} won.", words)}`;
}

/** The round line of the panel: "Round 3 of at most 12 · Nomads in supply: 4". */
function roundWords(view, round, options) {
  const parts = [options.round_limit ? t("Round {round} of at most {limit}", { round, limit: options.round_limit }) : t("Round {round}", { round })];
  if (view.solo) parts.push(t("Solo against the Enemy"));
  parts.push(view.mercenary ? t("Mercenary Nomads") : t("Nomads in supply: {count}", { count: view.nomad_supply ?? "–" }));
  return parts.join(" · ");
}

function drawPanel(frame, view) {
  const options = view.options || {};
  const round = view.round || 1;
  const end = view.end;
  return h(
    "div",
    { class: "hx-panel" },
    h(
      "section",
      { class: "hx-status", "data-phase": view.phase || "", "data-round": String(round) },
      h("p", { class: "hx-phase" }, PHASES[view.phase] ? t(PHASES[view.phase]) : humanise(view.phase)),
      h("p", { class: "hx-round muted" }, roundWords(view, round, options)),
      h("p", { class: "hx-turn", "data-turn-seat": String((view.turn || {}).seat ?? "") }, statusWords(frame, view)),
      end
        ? h("p", { class: "hx-end", "data-end": end.objective || "" }, endWords(frame, view, end))
        : null,
    ),
    drawBattle(frame, view),
    drawMercenarySection(frame, view),
    drawTaxTrack(view),
    h("div", { class: "hx-players" }, (view.players || []).map((_, seat) => (isEnemy(view, seat) ? drawEnemyBoard(frame, view) : drawPlayerBoard(frame, view, seat)))),
  );
}

function drawLegend(view) {
  return h(
    "p",
    { class: "hx-legend muted" },
    [
      view.solo ? t("Solo: South is out of play · E marks the Enemy") : null,
      isFull(view) ? t("boat = Sea Vessel · wing = Air Vessel · ? = face-down exploration token") : null,
      t("pawn = Serf · shield = Warrior · crown = Hero"),
      view.mercenary ? t("spear and tent = a figure of the Nomad Mercenary") : null,
      t("the letter and shape mark the player (their continent) · tent = Nomad · tower = Tower · dashed line = ferry · purple edge = the last move"),
    ].filter(Boolean).join(" · "),
  );
}

// -- controls ---------------------------------------------------------------------------------

function button(label, attributes, onClick, disabled) {
  const element = h("button", { type: "button", ...attributes }, label);
  element.disabled = disabled;
  element.addEventListener("click", onClick);
  return element;
}

/**
 * One button per move. `attributes(move)` gives each button's extra attributes; `label(move)`
 * its words (default: the move described).
 * @param {(move: any) => object} [attributes]
 * @param {((move: any) => string) | null} [label]
 */
function choiceList(moves, view, seat, disabled, send, attributes = () => ({}), label = null) {
  return h(
    "div",
    { class: "hx-choices" },
    moves.map((move) => button(label ? label(move) : describe(view, move, seat), { "data-move": JSON.stringify(move), "data-focus-key": `choice:${JSON.stringify(move)}`, ...attributes(move) }, () => send(move), disabled)),
  );
}

/** The march picker: origin (on the map), then an army, then a destination (on the map). */
function marchPicker(view, seat, moves, ui, disabled, redraw, send, targets) {
  const parts = [];
  const origins = [...new Set(moves.map((move) => move.origin))];
  if (!origins.includes(ui.origin)) ui.origin = origins.length === 1 ? origins[0] : null;
  if (!ui.origin) {
    for (const origin of origins) {
      const first = moves.filter((move) => move.origin === origin).map(armyKey).sort((a, b) => totalOf(b) - totalOf(a) || (a < b ? 1 : -1))[0];
      targets.set(origin, { kind: "origin", label: t("March from {region}", { region: regionName(origin) }), pick: () => { ui.origin = origin; ui.army = null; redraw(`army:${first}`); } });
    }
    parts.push(h("p", { class: "hx-step" }, t("Click a highlighted region to march from.")));
    return parts;
  }
  const fromOrigin = moves.filter((move) => move.origin === ui.origin);
  const armies = [...new Set(fromOrigin.map(armyKey))].sort((a, b) => totalOf(b) - totalOf(a) || (a < b ? 1 : -1));
  if (!armies.includes(ui.army)) ui.army = armies.length === 1 ? armies[0] : null;
  parts.push(
    h(
      "p",
      { class: "hx-step" },
      `${t("From {region}.", { region: regionName(ui.origin) })} `,
      origins.length > 1 ? button(t("Another origin"), { class: "link-button", "data-action": "change-origin", "data-focus-key": "change-origin" }, () => { ui.origin = null; ui.army = null; redraw("change-origin"); }, disabled) : null,
    ),
  );
  parts.push(
    h(
      "div",
      { class: "hx-choices hx-armies", role: "group", "aria-label": t("Which units march") },
      armies.map((army) => {
        const counts = Object.fromEntries(UNIT_KINDS.map((kind, index) => [kind, Number(army.split(",")[index])]));
        return button(unitWords(counts, UNIT_KINDS), { "data-army": army, "data-focus-key": `army:${army}`, "aria-pressed": String(ui.army === army), class: ui.army === army ? "selected" : "" }, () => { ui.army = army; redraw(`army:${army}`); }, disabled);
      }),
    ),
  );
  if (ui.army) {
    const chosen = fromOrigin.filter((move) => armyKey(move) === ui.army);
    for (const move of chosen) {
      if (!targets.has(move.destination)) targets.set(move.destination, { kind: "destination", label: describe(view, move, seat), pick: () => send(move) });
    }
    parts.push(h("p", { class: "hx-step" }, t("Now click a highlighted destination.")));
  }
  return parts;
}

/** "Fire the Nomad Mercenary": a button, then a confirmation (the figures and the card are lost). */
function fireControls(view, seat, move, ui, disabled, redraw, send) {
  if (!ui.confirmFire) {
    return h(
      "div",
      { class: "hx-choices hx-fire" },
      button(t("Fire the Nomad Mercenary…"), { class: "danger-outline", "data-action": "fire-mercenary", "data-focus-key": "fire" }, () => { ui.confirmFire = true; redraw("fire-cancel"); }, disabled),
    );
  }
  const alive = (view.mercenary || {}).alive || 0;
  const places = mercenaryFigures(view, seat).map(([id]) => regionName(id));
  return h(
    "div",
    { class: "hx-confirm", role: "group", "aria-labelledby": "hx-fire-question" },
    h(
      "p",
      { id: "hx-fire-question" },
      h("strong", {}, `${t("Fire the Nomad Mercenary?")} `),
      fireWords(view, alive, places),
    ),
    h(
      "div",
      { class: "hx-choices" },
      button(t("Yes, fire it"), { class: "danger", "data-action": "fire-mercenary-confirm", "data-move": JSON.stringify(move), "data-focus-key": "fire-confirm" }, () => { ui.confirmFire = false; send(move); }, disabled),
      button(t("Keep it"), { "data-action": "fire-mercenary-cancel", "data-focus-key": "fire-cancel" }, () => { ui.confirmFire = false; redraw("fire"); }, disabled),
    ),
  );
}

/** What firing the Nomad Mercenary does, in words. */
function fireWords(view, alive, places) {
  const words = { figures: plural(alive, "mercenary"), places: places.join(", ") };
  if (view.phase === "follow") {
    return places.length
      ? t("Its {figures} ({places}) leave the board and the card goes back to the supply, where anyone may hire it. This cannot be undone; your Follow decision goes on.", words)
      : t("Its {figures} leave the board and the card goes back to the supply, where anyone may hire it. This cannot be undone; your Follow decision goes on.", words);
  }
  return places.length
    ? t("Its {figures} ({places}) leave the board and the card goes back to the supply, where anyone may hire it. This cannot be undone; your turn goes on.", words)
    : t("Its {figures} leave the board and the card goes back to the supply, where anyone may hire it. This cannot be undone; your turn goes on.", words);
}

const totalOf = (key) => key.split(",").reduce((sum, part) => sum + Number(part), 0);

function drawControls(frame, view, legal, ui, disabled, redraw, send, targets) {
  const seat = frame.seat;
  const types = new Set(legal.map((move) => move.type));
  const pending = view.pending || {};
  const body = [];
  let prompt = "";
  const tools = { button, choiceList, describe };
  const full = isFull(view) ? fullControls(frame, view, legal, ui, disabled, redraw, send, targets, tools) : null;

  if (full) {
    prompt = full.prompt;
    body.push(...full.body);
  } else if (types.has("place_nomad")) {
    prompt = t("Place this round's Nomad: click a highlighted region.");
    for (const move of legal.filter((candidate) => candidate.type === "place_nomad")) {
      targets.set(move.region, { kind: "nomad", label: describe(view, move, seat), pick: () => send(move) });
    }
  } else if (types.has("move_nomad")) {
    const moves = legal.filter((candidate) => candidate.type === "move_nomad");
    const arrow = { arrow: pending.arrow || t("somewhere") };
    prompt = pending.clockwise
      ? t("The Enemy's first card points {arrow}, but no Nomad can move that way: move one to its first free region clockwise from the arrow. Click a highlighted region or choose below.", arrow)
      : t("The Enemy's first card points {arrow}: move one Nomad one region that way. Click a highlighted region or choose below.", arrow);
    const destinations = moves.map((move) => move.destination);
    for (const move of moves) {
      if (destinations.filter((id) => id === move.destination).length === 1) targets.set(move.destination, { kind: "nomad", label: describe(view, move, seat), pick: () => send(move) });
    }
    body.push(choiceList(moves, view, seat, disabled, send, (move) => ({ "data-nomad-move": `${move.origin}:${move.destination}` })));
  } else if (types.has("tactic")) {
    prompt = t("Choose your tactic card in secret, then how to pay for it.");
    const tactics = legal.filter((move) => move.type === "tactic");
    const cards = [...new Set(tactics.map((move) => move.card))];
    if (!cards.includes(ui.card)) ui.card = null;
    body.push(
      h(
        "div",
        { class: "hx-cards", role: "group", "aria-label": t("Your tactic cards") },
        cards.map((card) => {
          const info = tacticInfo(view, card);
          const pressed = ui.card === card;
          const element = h(
            "button",
            { type: "button", class: `hx-card${pressed ? " selected" : ""}`, "data-card": card, "data-focus-key": `card:${card}`, "aria-pressed": String(pressed), "aria-label": `${t("{name}: cost {cost}, strength +{strength}, {vp} VP", { ...info, cost: costWords(info.cost) })}${info.text ? `. ${info.text}` : ""}` },
            h("strong", { class: "hx-card-name" }, info.name),
            h("span", { class: "hx-card-line" }, t("Cost {cost}", { cost: costWords(info.cost) })),
            h("span", { class: "hx-card-line" }, t("+{strength} strength · {vp} VP", info)),
            info.text ? h("span", { class: "hx-card-text" }, info.text) : null,
          );
          element.disabled = disabled;
          element.addEventListener("click", () => { ui.card = card; redraw(`card:${card}`); });
          return element;
        }),
      ),
    );
    if (ui.card) {
      const payments = tactics.filter((move) => move.card === ui.card);
      body.push(h("p", { class: "hx-step" }, t("Play {card}:", { card: tacticInfo(view, ui.card).name })));
      body.push(choiceList(payments, view, seat, disabled, send, (move) => ({ "data-payment": lossKey(move) + ":" + RESOURCES.map((r) => move[r] || 0).join(",") }), (move) => humanise(payWords(move))));
    }
  } else if (types.has("conscript")) {
    prompt = t("Conscripts: bring up to 2 of your units into the battle.");
    body.push(choiceList(legal.filter((move) => move.type === "conscript"), view, seat, disabled, send, (move) => ({ "data-conscript": `${move.origin}:${armyKey(move)}` })));
    if (types.has("skip")) body.push(h("div", { class: "hx-choices" }, button(t("Bring nobody in"), { "data-action": "skip", "data-focus-key": "skip" }, () => send(legal.find((move) => move.type === "skip")), disabled)));
  } else if (types.has("casualties")) {
    prompt = pending.damage
      ? t("You lost the battle: choose {damage} damage, then where the survivors go.", { damage: pending.damage })
      : t("You lost the battle: choose your losses, then where the survivors go.");
    const options = legal.filter((move) => move.type === "casualties");
    const losses = [...new Set(options.map(lossKey))];
    if (!losses.includes(ui.losses)) ui.losses = losses.length === 1 ? losses[0] : null;
    body.push(
      h(
        "div",
        { class: "hx-choices", role: "group", "aria-label": t("Your losses") },
        losses.map((loss) => {
          const counts = Object.fromEntries([...UNIT_KINDS, "nomad"].map((kind, index) => [kind, Number(loss.split(",")[index])]));
          return button(t("Lose {units}", { units: unitWords(counts) }), { "data-losses": loss, "data-focus-key": `losses:${loss}`, "aria-pressed": String(ui.losses === loss), class: ui.losses === loss ? "selected" : "" }, () => { ui.losses = loss; redraw(`losses:${loss}`); }, disabled);
        }),
      ),
    );
    if (ui.losses) {
      const retreats = options.filter((move) => lossKey(move) === ui.losses);
      for (const move of retreats) if (move.retreat) targets.set(move.retreat, { kind: "retreat", label: t("Retreat to {region}", { region: regionName(move.retreat) }), pick: () => send(move) });
      body.push(choiceList(retreats, view, seat, disabled, send, (move) => ({ "data-retreat": move.retreat || "" }), (move) => (move.retreat ? t("Retreat to {region}", { region: regionName(move.retreat) }) : t("Confirm (nothing survives)"))));
    }
  } else if (view.phase === "follow" && types.has("skip")) {
    const leaderMove = pending.action || {};
    const action = t(humanise(leaderMove.type || "action"));
    const workers = [...new Set(legal.filter((move) => move.worker).map((move) => move.worker))];
    const follow = { action, name: playerInSentence(frame, view, pending.leader) };
    if (workers.length > 1) prompt = t("Follow the {action} of {name} with a Serf or a Nomad?", follow);
    else prompt = workers.includes("serf") ? t("Follow the {action} of {name} with a Serf?", follow) : t("Follow the {action} of {name} with a Nomad?", follow);
    body.push(choiceList(legal.filter((move) => move.type !== "skip" && move.type !== "fire_mercenary"), view, seat, disabled, send, (move) => ({ "data-follow": move.type, "data-worker": move.worker || "" })));
    body.push(h("div", { class: "hx-choices" }, button(t("Skip"), { "data-action": "skip", "data-focus-key": "skip" }, () => send(legal.find((move) => move.type === "skip")), disabled)));
  } else if (view.phase === "muster" && types.has("skip")) {
    const marches = legal.filter((move) => move.type === "march");
    const workers = [...new Set(marches.map((move) => move.worker))];
    if (!workers.includes(ui.worker)) ui.worker = workers.includes("serf") ? "serf" : workers[0] || null;
    if (workers.length > 1) prompt = t("Muster: march again with a Serf or a Nomad from your Courtyard? Or Skip.");
    else prompt = workers.includes("serf") ? t("Muster: march again with a Serf from your Courtyard? Or Skip.") : t("Muster: march again with a Nomad from your Courtyard? Or Skip.");
    if (workers.length > 1) {
      body.push(h("div", { class: "hx-choices", role: "group", "aria-label": t("Who musters") }, workers.map((worker) => button(worker === "serf" ? t("Use a Serf") : t("Use a Nomad"), { "data-worker": worker, "data-focus-key": `worker:${worker}`, "aria-pressed": String(ui.worker === worker), class: ui.worker === worker ? "selected" : "" }, () => { ui.worker = worker; redraw(`worker:${worker}`); }, disabled))));
    }
    body.push(...marchPicker(view, seat, marches.filter((move) => move.worker === ui.worker), ui, disabled, redraw, send, targets));
    const others = legal.filter((move) => ["sail", "fly", "cast"].includes(move.type) && (!ui.worker || move.worker === ui.worker));
    if (others.length) {  // the full edition: Muster into Sail, Fly or Cast too
      const kinds = [...new Set(others.map((move) => move.type))];
      body.push(h("div", { class: "hx-choices", role: "group", "aria-label": t("Or muster") }, kinds.map((kind) => button(slotName(kind), { "data-muster-slot": kind, "data-focus-key": `muster:${kind}`, "aria-pressed": String(ui.action === kind), class: ui.action === kind ? "selected" : "" }, () => { ui.action = ui.action === kind ? null : kind; redraw(`muster:${kind}`); }, disabled))));
      if (kinds.includes(ui.action)) body.push(...fullActionControls(view, seat, others.filter((move) => move.type === ui.action), ui.action, ui, disabled, redraw, send, targets, tools));
    }
    body.push(h("div", { class: "hx-choices" }, button(t("Skip"), { "data-action": "skip", "data-focus-key": "skip" }, () => send(legal.find((move) => move.type === "skip")), disabled)));
  } else {
    // the active player's own turn: choose a slot of the Action Bar, then its options
    const slotOf = slotOfMove;
    const slots = (isFull(view) ? FULL_SLOTS : ACTION_SLOTS).filter((slot) => legal.some((move) => move.type !== "pass" && slotOf(move) === slot));
    if (!slots.includes(ui.action)) ui.action = null;
    prompt = ui.action ? `${slotName(ui.action)}:` : t("Your turn: choose an action for your Action Token.");
    body.push(
      h(
        "div",
        { class: "hx-choices hx-actions", role: "group", "aria-label": t("Actions") },
        slots.map((slot) => button(slotName(slot), { "data-action-slot": slot, "data-focus-key": `action:${slot}`, "aria-pressed": String(ui.action === slot), class: ui.action === slot ? "selected" : "" }, () => { ui.action = ui.action === slot ? null : slot; ui.origin = null; ui.army = null; redraw(`action:${slot}`); }, disabled)),
        types.has("pass") ? button(t("Pass"), { "data-action": "pass", "data-focus-key": "pass" }, () => send(legal.find((move) => move.type === "pass")), disabled) : null,
      ),
    );
    if (ui.action && ui.action.startsWith("march")) {
      body.push(...marchPicker(view, seat, legal.filter((move) => move.type === "march" && move.slot === ui.action), ui, disabled, redraw, send, targets));
    } else if (["research", "cast", "sail", "fly"].includes(ui.action)) {
      body.push(...fullActionControls(view, seat, legal.filter((move) => slotOf(move) === ui.action), ui.action, ui, disabled, redraw, send, targets, tools));
    } else if (ui.action) {
      const moves = legal.filter((move) => move.type === ui.action);
      for (const move of moves) if (move.type === "build" && move.what === "tower") targets.set(move.region, { kind: "tower", label: describe(view, move, seat), pick: () => send(move) });
      body.push(choiceList(moves, view, seat, disabled, send, (move) => ({ "data-choice": move.unit || move.what || move.resource || "", "data-region": move.region || undefined })));
    }
  }
  if (types.has("fire_mercenary")) body.push(fireControls(view, seat, legal.find((move) => move.type === "fire_mercenary"), ui, disabled, redraw, send));
  return h(
    "div",
    { class: "move-controls hx-controls", role: "group", "aria-label": t("Your move"), "data-mode": [...types].join(" ") },
    h("p", { class: "prompt", id: "hx-prompt" }, prompt),
    body,
  );
}

// -- the last move ----------------------------------------------------------------------------

function lastMoveSelectors(view, previous) {
  const last = view.last;
  if (!last) return [];
  const move = last.move || {};
  const regions = new Set([...(last.regions || []), move.origin, move.destination, move.region, move.retreat, move.target].filter(Boolean));
  if (last.battle && last.battle.region) regions.add(last.battle.region);
  const selectors = [...regions].map((id) => `.hx-map [data-region="${id}"]`);
  const slots = last.slots && last.slots.length ? last.slots
    : last.seat !== null && last.seat !== undefined && ["recruit", "build", "tax", "march"].includes(move.type)
      ? [[last.seat, move.type === "march" ? move.slot : move.type]]
      : [];
  for (const [seat, slot] of slots) selectors.push(`.hx-player[data-player-seat="${seat}"] [data-slot="${slot}"]`);
  if (previous && Array.isArray(previous.players)) {
    (view.players || []).forEach((player, seat) => {
      const before = previous.players[seat] || {};
      for (const resource of RESOURCES) {
        if ((before.resources || {})[resource] !== (player.resources || {})[resource]) selectors.push(`.hx-player[data-player-seat="${seat}"] [data-resource="${resource}"]`);
      }
      if (before.score !== player.score) selectors.push(`.hx-player[data-player-seat="${seat}"] [data-score]`);
    });
  }
  if (last.battle) selectors.push(".hx-last-battle");
  return selectors;
}

// -- the contract -----------------------------------------------------------------------------

/**
 * The renderer contract: README.md in this folder. Spectators (frame.seat null) get no controls.
 * @type {import("./contract.js").Render}
 */
export function render(container, frame, { sendMove, disabled = false, readOnly = false, previous = null }) {
  const view = frame.view || {};
  if (!view.regions || !view.players) {
    replaceChildren(container, h("p", { class: "muted" }, t("Waiting for the game…")));
    return;
  }
  const seated = !readOnly && frame.seat !== null && frame.seat !== undefined;
  const legal = seated && frame.status !== "finished" ? frame.legal || [] : [];
  const ui = uiState.get(container) || { version: null };
  uiState.set(container, ui);
  if (ui.version !== frame.version) {
    Object.assign(ui, { version: frame.version, action: null, origin: null, army: null, card: null, losses: null, worker: null, confirmFire: false, spell: null, cargo: null });
  }
  const redraw = (focusKey) => draw(focusKey);
  const send = (move) => {
    if (disabled || readOnly) return;
    sendMove(move);
  };
  const map = mapOf(view);

  function draw(focusKey) {
    const targets = new Map();
    const controls = legal.length ? drawControls(frame, view, legal, ui, disabled, redraw, send, targets) : null;
    if (disabled) targets.clear();
    const waiting = !controls && frame.status !== "finished" && seated ? h("p", { class: "hx-waiting muted" }, statusWords(frame, view)) : null;
    const layout = h(
      "div",
      { class: "hx", "data-phase": view.phase || "", "data-round": String(view.round || 1) },
      h(
        "div",
        { class: "hx-board-column" },
        controls,
        waiting,
        h("div", { class: `hx-map-frame${zoomed ? " zoomed" : ""}` }, drawMap(frame, view, map, targets, (target) => target.pick(), zoomed)),
        h(
          "div",
          { class: "hx-under-map" },
          readOnly ? null : button(zoomed ? t("Smaller map") : t("Larger map"), { class: "small hx-zoom", "data-action": "zoom", "data-focus-key": "zoom", "aria-pressed": String(zoomed) }, () => { zoomed = !zoomed; draw("zoom"); }, false),
          drawLegend(view),
        ),
      ),
      drawPanel(frame, view),
    );
    markLastMove(container, layout, frame.version, lastMoveSelectors(view, previous));
    keepFocus(container, () => replaceChildren(container, layout), focusKey ? [focusKey] : []);
    fitLabels(container);
  }
  draw(null);
}

// -- the preview of a move held for Confirm ---------------------------------------------------

/**
 * The renderer hook of "Confirm my moves" (move-preview.js): `move` (one of `frame.legal`) in one
 * sentence ("March 2 Warriors from North Plains to East Forest"; the log names the same action,
 * regions and units) and `draw(root)`, which marks it on the board drawn in `root`: a dashed ring
 * on each region it touches, the path of a march, nomad move or vessel, and the action slot it
 * fills on the player's Action Bar (a battle's choice marks the battle panel).
 */
export function preview(frame, move) {
  const view = frame.view || {};
  const text = describe(view, move, frame.seat);
  return {
    text,
    draw(root) {
      const svg = root.querySelector("svg.hx-map");
      const map = mapOf(view);
      const regions = [move.region, move.origin, move.destination, move.target, move.retreat]
        .filter((id) => typeof id === "string" && map.byId.has(id));
      if (svg && regions.length) {
        const layer = ghostLayer(svg, move);
        layer.dataset.regions = regions.join(" ");
        for (const id of new Set(regions)) layer.append(s("polygon", { points: hexPoints(map, map.byId.get(id)), class: "ghost-ring" }));
        if (move.origin && move.destination && map.byId.has(move.origin) && map.byId.has(move.destination)) {
          const [x1, y1] = centre(map.byId.get(move.origin));
          const [x2, y2] = centre(map.byId.get(move.destination));
          layer.append(s("line", { x1, y1, x2, y2, class: "ghost-path" }));
          // the marching units, drawn where they will stand
          const kinds = UNIT_KINDS.filter((kind) => Number(move[kind]) > 0);
          const corners = regionCorners(map, map.byId.get(move.destination));
          /** @type {[number, number]} */
          const band = [y2 + ARMY_BAND[0], y2 + ARMY_BAND[1]];
          for (const part of armyFigures({ corners, cx: x2, y: y2 + ARMY_Y, band, kinds, counts: move, mark: null })) {
            if (part.classList.contains("unit-figure")) part.classList.add("ghost-shape");
            layer.append(part);
          }
          if (!kinds.length) layer.append(s("circle", { cx: x2, cy: y2, r: 1.6, class: "ghost-shape", fill: "#fffaf0" }));
        }
      }
      const seat = frame.seat;
      const slot = ["battle", "tactic", "conscript", "casualties", "combat_spell", "interrupt"].includes(move.type) ? null : slotOfMove(move);
      if (slot && seat !== null && seat !== undefined) ghostMark(root.querySelector(`.hx-player[data-player-seat="${seat}"] [data-slot="${slot}"]`), move);
      if (!root.querySelector(".move-ghost")) ghostMark(root.querySelector(".hx-battle"), move);
    },
  };
}

/** One move in words (the preview's sentence; kept for callers of the older name). */
export { describe as describeMove };

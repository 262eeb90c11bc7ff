// Heroes of Land, Air & Sea, the full edition's parts of the renderer (heroes.js draws the rest and
// calls these): spell cards in hand and scribed, Buildings, Heroes and vessels on each Capital City
// board; vessels and exploration tokens on the map, the seas as targets of a Sail; the controls of
// Research/Scribe, Cast (a card, then its target on the board), Sail and Fly (what the vessel
// carries, then where it goes on the board), the discard down to the hand limit, Interrupt and
// Combat spells. Like heroes.js it never decides a rule: every button and highlighted place stands
// for moves taken from `legal` as they are (docs/heroes.md, "Full edition").

import { activate } from "../board-kit.js";
import { h, s } from "../dom.js";

export const FULL_SLOTS = ["recruit", "build", "research", "tax", "march_1", "march_2", "sail", "fly", "cast"];
export const FULL_PHASES = {
  discard: "Discarding down to the spell hand limit",
  interrupt: "A spell is being cast: interrupt it?",
  combat_spell: "Battle: Combat spells (defender first)",
};
const KINDS = ["serf", "warrior", "hero", "mercenary"];
const KIND_NAMES = { serf: ["Serf", "Serfs"], warrior: ["Warrior", "Warriors"], hero: ["Hero", "Heroes"], mercenary: ["Nomad Mercenary", "Nomad Mercenaries"] };
const SEA_NAMES = { sea_NE: "North-East Sea", sea_SE: "South-East Sea", sea_SW: "South-West Sea", sea_NW: "North-West Sea", sea_C: "Central Sea" };
const STATUS_WORDS = { ready: "ready", exhausted: "exhausted", preparing: "preparing" };

/** Whether the view is of a full-edition game. */
export function isFull(view) {
  return Boolean(view && view.spell_cards);
}

/** The slot a move of the own-turn list fills (Research and Scribe share one). */
export function slotOfMove(move) {
  if (move.type === "march") return move.slot;
  if (move.type === "scribe") return "research";
  return move.type;
}

export function spellName(view, card) {
  const kind = String(card || "").replace(/-\d+$/, "");
  return ((view.spell_cards || {})[kind] || {}).name || kind;
}

function spellInfo(view, card) {
  const kind = String(card || "").replace(/-\d+$/, "");
  return (view.spell_cards || {})[kind] || { name: kind, kind: "", mana: 0, vp: 0, text: "" };
}

function placeName(id) {
  if (SEA_NAMES[id]) return `the ${SEA_NAMES[id]}`;
  const [continent, ...rest] = String(id || "").split("_");
  const names = { N: "North", E: "East", S: "South", W: "West" };
  return `${names[continent] || continent} ${rest.join(" ").replace(/\b\w/g, (c) => c.toUpperCase())}`;
}

function cargoWords(move) {
  const parts = KINDS.filter((kind) => move[kind]).map((kind) => `${move[kind]} ${KIND_NAMES[kind][move[kind] === 1 ? 0 : 1]}`);
  return parts.length ? parts.join(" and ") : "nothing aboard";
}

function heroName(view, id) {
  for (const faction of Object.values(view.factions || {})) if ((faction.heroes || {})[id]) return faction.heroes[id].name;
  return id;
}

function buildingName(view, id) {
  for (const faction of Object.values(view.factions || {})) if ((faction.buildings || {})[id]) return faction.buildings[id];
  return id;
}

/** A full-edition move in words (null: not one of them; heroes.js describes the rest). */
export function fullDescribe(view, move) {
  const worker = move.worker === "serf" ? " with a Serf" : move.worker === "nomad" ? " with a captured Nomad" : "";
  switch (move.type) {
    case "research":
      return `Research: draw 3 spells${worker}`;
    case "scribe":
      return `Scribe ${spellName(view, move.card)}${worker}`;
    case "discard_spell":
      return `Discard ${spellName(view, move.card)}`;
    case "cast":
      return `Cast ${spellName(view, move.card)}${move.target ? ` on ${placeName(move.target)}` : ""}${worker}`;
    case "interrupt":
      return `Interrupt with ${spellName(view, move.card)}`;
    case "combat_spell":
      return `Cast ${spellName(view, move.card)} in this battle`;
    case "sail":
      return `Sail to ${placeName(move.destination)} with ${cargoWords(move)}${worker}`;
    case "fly":
      return `Fly to ${placeName(move.destination)} with ${cargoWords(move)}${worker}`;
    case "recruit":
      if (move.unit === "sea_vessel" || move.unit === "air_vessel") return `Recruit the ${move.unit === "sea_vessel" ? "Sea" : "Air"} Vessel${worker}`;
      return (view.factions && heroName(view, move.unit) !== move.unit) ? `Recruit the ${heroName(view, move.unit)}${worker}` : null;
    case "build":
      if (move.what === "sea_vessel" || move.what === "air_vessel") return `Build the ${move.what === "sea_vessel" ? "Sea" : "Air"} Vessel${worker}`;
      return buildingName(view, move.what) !== move.what ? `Build the ${buildingName(view, move.what)} (locks a Serf)${worker}` : null;
    default:
      return null;
  }
}

// -- the map ----------------------------------------------------------------------------------

function boatPath(x, y, size) {
  return `M ${x - size} ${y} L ${x + size} ${y} L ${x + size * 0.6} ${y + size * 0.6} L ${x - size * 0.6} ${y + size * 0.6} Z M ${x} ${y} L ${x} ${y - size * 1.2} L ${x + size * 0.8} ${y - size * 0.2} Z`;
}

function wingPath(x, y, size) {
  return `M ${x - size} ${y} Q ${x - size * 0.4} ${y - size} ${x} ${y - size * 0.2} Q ${x + size * 0.4} ${y - size} ${x + size} ${y} Q ${x} ${y - size * 0.3} ${x - size} ${y} Z`;
}

/** Vessels, face-down and revealed tokens, and the seas as targets: a layer over the map. */
export function fullMapLayer(view, map, centre, colours, letter, targets, onTarget) {
  const layer = s("g", { class: "hx-full-layer" });
  const seas = new Map((view.seas || []).map((sea) => [sea.id, sea]));
  const place = (id) => {
    const region = map.byId.get(id) || seas.get(id);
    return region ? centre(region) : null;
  };
  for (const id of view.tokens || []) {
    const at = place(id);
    if (!at) continue;
    const [x, y] = seas.has(id) ? [at[0] + 6, at[1] - 5] : [at[0] + 5.4, at[1] - 5.4];
    layer.append(s("g", { class: "hx-token", "data-token": id }, s("title", {}, `A face-down exploration token on ${placeName(id)}`),
      s("circle", { cx: x, cy: y, r: 1.5, class: "hx-token-disc" }), s("text", { x, y: y + 0.1, class: "hx-token-mark" }, "?")));
  }
  for (const [id, token] of Object.entries(view.revealed || {})) {
    const at = place(id);
    if (!at) continue;
    const name = ((view.token_kinds || {})[String(token).replace(/-\d+$/, "")] || {}).name || token;
    layer.append(s("g", { class: "hx-token revealed", "data-revealed": id }, s("title", {}, `${name} (revealed) on ${placeName(id)}`),
      s("circle", { cx: at[0] + (seas.has(id) ? 6 : 5.4), cy: at[1] - (seas.has(id) ? 5 : 5.4), r: 1.1, class: "hx-token-disc revealed" })));
  }
  (view.players || []).forEach((player, seat) => {
    for (const [kind, vessel] of Object.entries(player.vessels || {})) {
      if (!vessel) continue;
      const at = place(vessel.at);
      if (!at) continue;
      const x = at[0] + (kind === "sea" ? -5.8 : 5.8);
      const y = at[1] + (seas.has(vessel.at) ? 4 : 3.4);
      const aboard = Object.values(vessel.cargo || {}).reduce((sum, n) => sum + n, 0);
      const name = (((view.factions || {})[player.faction] || {}).vessels || {})[kind];
      layer.append(s("g", { class: `hx-vessel vessel-${kind}`, "data-vessel": `${seat}:${kind}`, "data-vessel-at": vessel.at },
        s("title", {}, `${name ? name.name : kind} (${kind === "sea" ? "Sea" : "Air"} Vessel of ${letter(seat)}) on ${placeName(vessel.at)}${aboard ? `, ${cargoWords(vessel.cargo)} aboard` : ""}`),
        s("path", { d: kind === "sea" ? boatPath(x, y, 1.8) : wingPath(x, y, 2.2), fill: colours[seat % 4], class: "hx-vessel-shape" }),
        s("text", { x: x + 2.4, y: y + 0.3, class: "hx-small-letter" }, letter(seat) + (aboard ? `+${aboard}` : ""))));
    }
  });
  for (const sea of seas.values()) {
    const target = targets.get(sea.id);
    if (!target) continue;
    const [x, y] = centre(sea);
    const spot = s("g", { class: "hx-sea-target legal", "data-region": sea.id, role: "button", tabindex: "0", "data-focus-key": `region:${sea.id}`, "aria-label": target.label },
      s("title", {}, target.label), s("circle", { cx: x, cy: y + 6, r: 3.2, class: "hx-target" }));
    activate(spot, () => onTarget(target));
    layer.append(spot);
  }
  return layer;
}

// -- the Capital City board ---------------------------------------------------------------------

/** Faction, Buildings, Heroes, vessels, the spell hand (cards for its owner, a count for others)
 * and the scribed spells of one player. */
export function fullBoard(frame, view, seat) {
  const player = (view.players || [])[seat] || {};
  if (!player.faction) return null;
  const faction = (view.factions || {})[player.faction] || {};
  const own = seat === frame.seat && Array.isArray(player.spells);
  const hand = own
    ? h("ul", { class: "hx-hand", "aria-label": "Your spell hand" }, player.spells.map((card) => {
      const info = spellInfo(view, card);
      return h("li", { class: `hx-spell spell-${info.kind}`, "data-spell": card, title: info.text }, h("strong", {}, info.name), ` ${info.kind}, ${info.mana} Mana, ${info.vp} VP`);
    }))
    : h("span", { "data-hand-size": String(player.hand_size ?? 0) }, `${player.hand_size ?? 0} in hand`);
  const vessels = Object.entries(player.vessels || {}).filter(([, vessel]) => vessel).map(([kind, vessel]) => `${(faction.vessels || {})[kind] ? faction.vessels[kind].name : kind} on ${placeName(vessel.at)}`);
  return h(
    "div",
    { class: "hx-full-board", "data-faction": player.faction },
    h("p", { class: "hx-faction" }, h("strong", {}, faction.name || player.faction), faction.ability ? ` · ${faction.ability.name}: ${faction.ability.text}` : ""),
    h("dl", { class: "hx-stats" },
      h("dt", {}, "Buildings"), h("dd", { "data-buildings": (player.buildings || []).join(",") }, (player.buildings || []).map((id) => buildingName(view, id)).join(", ") || "none"),
      h("dt", {}, "Heroes"), h("dd", { "data-heroes": (player.heroes || []).join(",") }, (player.heroes || []).map((id) => heroName(view, id)).join(", ") || "none"),
      h("dt", {}, "Vessels"), h("dd", { "data-vessels": vessels.length }, vessels.join(", ") || "none"),
      h("dt", {}, "Spells"), h("dd", {}, hand),
      h("dt", {}, "Scribed"), h("dd", { "data-scribed": (player.scribed || []).length }, (player.scribed || []).map((entry) => `${spellName(view, entry.card)} (${STATUS_WORDS[entry.status] || entry.status})`).join(", ") || "none"),
    ),
  );
}

// -- controls ---------------------------------------------------------------------------------

/**
 * The controls of a full-edition decision, or null when heroes.js draws it. `tools` gives
 * heroes.js's `button`, `choiceList`, `describe`. Returns {prompt, body}.
 */
export function fullControls(frame, view, legal, ui, disabled, redraw, send, targets, tools) {
  const seat = frame.seat;
  const types = new Set(legal.map((move) => move.type));
  const { button, choiceList } = tools;
  const skip = legal.find((move) => move.type === "skip");
  const skipButton = (label) => h("div", { class: "hx-choices" }, button(label, { "data-action": "skip", "data-focus-key": "skip" }, () => send(skip), disabled));
  if (types.has("discard_spell")) {
    const limit = ((view.players || [])[seat] || {}).cc_level || 1;
    return { prompt: `Your hand holds more than ${limit} spell${limit === 1 ? "" : "s"} (your Capital City level): discard one.`, body: [choiceList(legal, view, seat, disabled, send, (move) => ({ "data-discard": move.card }))] };
  }
  if (view.phase === "interrupt") {
    const spell = (view.pending || {}).spell || {};
    return { prompt: `${spell.name || "A spell"} is being cast${spell.target ? ` on ${placeName(spell.target)}` : ""}. Interrupt it?`, body: [choiceList(legal.filter((move) => move.type === "interrupt"), view, seat, disabled, send, (move) => ({ "data-interrupt": move.card })), skipButton("Let it be")] };
  }
  if (view.phase === "combat_spell") {
    return { prompt: "Cast a Combat spell in this battle (before the tactic cards)?", body: [choiceList(legal.filter((move) => move.type === "combat_spell"), view, seat, disabled, send, (move) => ({ "data-combat-spell": move.card })), skipButton("No spell")] };
  }
  return null;
}

/** The own-turn (or Muster) controls of the full edition's slots research, cast, sail, fly. */
export function fullActionControls(view, seat, moves, action, ui, disabled, redraw, send, targets, tools) {
  const { button, choiceList, describe } = tools;
  const body = [];
  if (action === "research") {
    body.push(choiceList(moves, view, seat, disabled, send, (move) => ({ "data-choice": move.type, "data-card": move.card || undefined })));
    return body;
  }
  if (action === "cast") {
    const cards = [...new Set(moves.map((move) => move.card))];
    if (!cards.includes(ui.spell)) ui.spell = cards.length === 1 ? cards[0] : null;
    body.push(h("div", { class: "hx-choices", role: "group", "aria-label": "Which spell" }, cards.map((card) => {
      const info = spellInfo(view, card);
      return button(`${info.name} (${info.mana} Mana, ${info.vp} VP)`, { "data-spell-card": card, "data-focus-key": `spell:${card}`, title: info.text, "aria-pressed": String(ui.spell === card), class: ui.spell === card ? "selected" : "" }, () => { ui.spell = card; redraw(`spell:${card}`); }, disabled);
    })));
    if (ui.spell) {
      const chosen = moves.filter((move) => move.card === ui.spell);
      const aimed = chosen.filter((move) => move.target);
      for (const move of aimed) targets.set(move.target, { kind: "spell", label: describe(view, move, seat), pick: () => send(move) });
      body.push(h("p", { class: "hx-step" }, spellInfo(view, ui.spell).text || ""));
      if (aimed.length) body.push(h("p", { class: "hx-step" }, "Click a highlighted region to aim it, or choose below."));
      body.push(choiceList(chosen, view, seat, disabled, send, (move) => ({ "data-target": move.target || "" })));
    }
    return body;
  }
  // sail or fly: what the vessel carries, then where it goes (on the board, or a button)
  const key = (move) => KINDS.map((kind) => move[kind] || 0).join(",");
  const cargos = [...new Set(moves.map(key))];
  if (!cargos.includes(ui.cargo)) ui.cargo = cargos.length === 1 ? cargos[0] : null;
  body.push(h("div", { class: "hx-choices", role: "group", "aria-label": "What the vessel carries" }, cargos.map((cargo) => {
    const counts = Object.fromEntries(KINDS.map((kind, index) => [kind, Number(cargo.split(",")[index])]));
    return button(`Carry ${cargoWords(counts)}`, { "data-cargo": cargo, "data-focus-key": `cargo:${cargo}`, "aria-pressed": String(ui.cargo === cargo), class: ui.cargo === cargo ? "selected" : "" }, () => { ui.cargo = cargo; redraw(`cargo:${cargo}`); }, disabled);
  })));
  if (ui.cargo) {
    const chosen = moves.filter((move) => key(move) === ui.cargo);
    for (const move of chosen) targets.set(move.destination, { kind: "vessel", label: describe(view, move, seat), pick: () => send(move) });
    body.push(h("p", { class: "hx-step" }, "Click a highlighted region or sea, or choose below."));
    body.push(choiceList(chosen, view, seat, disabled, send, (move) => ({ "data-destination": move.destination })));
  }
  return body;
}

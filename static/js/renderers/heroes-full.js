// Heroes of Land, Air & Sea, the full edition's parts of the renderer (heroes.js draws the rest and
// calls these): spell cards in hand and scribed, Buildings, Heroes and vessels on each Capital City
// board; vessels and exploration tokens on the map, the seas as targets of a Sail; the controls of
// Research/Scribe, Cast (a card, then its target on the board), Sail and Fly (what the vessel
// carries, then where it goes on the board), the discard down to the hand limit, Interrupt and
// Combat spells. Like heroes.js it never decides a rule: every button and highlighted place stands
// for moves taken from `legal` as they are (docs/heroes.md, "Full edition").

import { activate } from "../board-kit.js";
import { h, s } from "../dom.js";
import { t } from "../i18n.js";

export const FULL_SLOTS = ["recruit", "build", "research", "tax", "march_1", "march_2", "sail", "fly", "cast"];
// msgids: heroes.js says them with t() where it draws a phase
export const FULL_PHASES = {
  discard: "Discarding down to the spell hand limit",
  interrupt: "A spell is being cast: interrupt it?",
  combat_spell: "Battle: Combat spells (defender first)",
};
const KINDS = ["serf", "warrior", "hero", "mercenary"];
const KIND_NAMES = { serf: ["Serf", "Serfs"], warrior: ["Warrior", "Warriors"], hero: ["Hero", "Heroes"], mercenary: ["Nomad Mercenary", "Nomad Mercenaries"] };
const SEA_NAMES = { sea_NE: "North-East Sea", sea_SE: "South-East Sea", sea_SW: "South-West Sea", sea_NW: "North-West Sea", sea_C: "Central Sea" };
const STATUS_WORDS = { ready: "ready", exhausted: "exhausted", preparing: "preparing" }; // msgids, said with t()

/** `count` units of `kind` in words: "2 Warriors". */
function unitWords(kind, count) {
  return t("{count} {unit}", { count, unit: t(KIND_NAMES[kind][count === 1 ? 0 : 1]) });
}

/** A list in words: "a, b and c". */
function listWords(parts) {
  if (parts.length < 2) return parts.join("");
  return t("{list} and {last}", { list: parts.slice(0, -1).join(", "), last: parts[parts.length - 1] });
}

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
  const name = ((view.spell_cards || {})[kind] || {}).name;
  return name ? t(name) : kind;
}

function spellInfo(view, card) {
  const kind = String(card || "").replace(/-\d+$/, "");
  const info = (view.spell_cards || {})[kind];
  if (!info) return { name: kind, kind: "", mana: 0, vp: 0, text: "" };
  return { ...info, name: t(info.name), text: info.text ? t(info.text) : "", kind: info.kind ? t(info.kind) : "" };
}

function placeName(id) {
  const sea = SEA_NAMES[id] ? `the ${SEA_NAMES[id]}` : null; // a catalog key: the game's catalog lists each sea
  if (sea) return t(sea);
  const [continent, ...rest] = String(id || "").split("_");
  const names = { N: "North", E: "East", S: "South", W: "West" };
  const english = `${names[continent] || continent} ${rest.join(" ").replace(/\b\w/g, (c) => c.toUpperCase())}`;
  return t(english); // a region's name as the log says it ("North Plains"), a msgid of the game's catalog
}

function cargoWords(move) {
  const parts = KINDS.filter((kind) => move[kind]).map((kind) => unitWords(kind, move[kind]));
  return parts.length ? listWords(parts) : t("nothing aboard");
}

function heroName(view, id) {
  for (const faction of Object.values(view.factions || {})) if ((faction.heroes || {})[id]) return t(faction.heroes[id].name);
  return id;
}

function buildingName(view, id) {
  for (const faction of Object.values(view.factions || {})) if ((faction.buildings || {})[id]) return t(faction.buildings[id]);
  return id;
}

/** A full-edition move in words (null: not one of them; heroes.js describes the rest). */
export function fullDescribe(view, move) {
  const text = fullAction(view, move);
  if (text === null) return null;
  if (move.worker === "serf") return t("{action} with a Serf", { action: text });
  if (move.worker === "nomad") return t("{action} with a captured Nomad", { action: text });
  return text;
}

/** A full-edition move's action in words, without the worker who follows it. */
function fullAction(view, move) {
  const spell = spellName(view, move.card);
  switch (move.type) {
    case "research":
      return t("Research: draw 3 spells");
    case "scribe":
      return t("Scribe {spell}", { spell });
    case "discard_spell":
      return t("Discard {spell}", { spell });
    case "cast":
      return move.target ? t("Cast {spell} on {place}", { spell, place: placeName(move.target) }) : t("Cast {spell}", { spell });
    case "interrupt":
      return t("Interrupt with {spell}", { spell });
    case "combat_spell":
      return t("Cast {spell} in this battle", { spell });
    case "sail":
      return t("Sail to {place} with {cargo}", { place: placeName(move.destination), cargo: cargoWords(move) });
    case "fly":
      return t("Fly to {place} with {cargo}", { place: placeName(move.destination), cargo: cargoWords(move) });
    case "recruit":
      if (move.unit === "sea_vessel") return t("Recruit the Sea Vessel");
      if (move.unit === "air_vessel") return t("Recruit the Air Vessel");
      return (view.factions && heroName(view, move.unit) !== move.unit) ? t("Recruit the {hero}", { hero: heroName(view, move.unit) }) : null;
    case "build":
      if (move.what === "sea_vessel") return t("Build the Sea Vessel");
      if (move.what === "air_vessel") return t("Build the Air Vessel");
      return buildingName(view, move.what) !== move.what ? t("Build the {building} (locks a Serf)", { building: buildingName(view, move.what) }) : null;
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
  // A token sits in its region's top corner, above the name (beside it, a long name ran under
  // the disc), and beside a sea's name.
  const tokenAt = (id, at) => (seas.has(id) ? [at[0] + 6, at[1] - 5] : [at[0], at[1] - 7.8]);
  for (const id of view.tokens || []) {
    const at = place(id);
    if (!at) continue;
    const [x, y] = tokenAt(id, at);
    layer.append(s("g", { class: "hx-token", "data-token": id }, s("title", {}, t("A face-down exploration token on {place}", { place: placeName(id) })),
      s("circle", { cx: x, cy: y, r: 1.2, class: "hx-token-disc" }), s("text", { x, y: y + 0.1, class: "hx-token-mark" }, "?")));
  }
  for (const [id, token] of Object.entries(view.revealed || {})) {
    const at = place(id);
    if (!at) continue;
    const kind = ((view.token_kinds || {})[String(token).replace(/-\d+$/, "")] || {}).name;
    const name = kind ? t(kind) : token;
    const [x, y] = tokenAt(id, at);
    layer.append(s("g", { class: "hx-token revealed", "data-revealed": id }, s("title", {}, t("{token} (revealed) on {place}", { token: name, place: placeName(id) })),
      s("circle", { cx: x, cy: y, r: 1.1, class: "hx-token-disc revealed" })));
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
        s("title", {}, vesselTitle(name ? t(name.name) : kind, kind, letter(seat), placeName(vessel.at), aboard ? cargoWords(vessel.cargo) : null)),
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

/** A vessel on the map in words: "Skyship (Air Vessel of B) on North Plains, 2 Warriors aboard". */
function vesselTitle(name, kind, owner, place, cargo) {
  const words = { name, owner, place, cargo };
  if (kind === "sea") return cargo ? t("{name} (Sea Vessel of {owner}) on {place}, {cargo} aboard", words) : t("{name} (Sea Vessel of {owner}) on {place}", words);
  return cargo ? t("{name} (Air Vessel of {owner}) on {place}, {cargo} aboard", words) : t("{name} (Air Vessel of {owner}) on {place}", words);
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
    ? h("ul", { class: "hx-hand", "aria-label": t("Your spell hand") }, player.spells.map((card) => {
      const info = spellInfo(view, card);
      const kind = String(card || "").replace(/-\d+$/, "");
      return h("li", { class: `hx-spell spell-${((view.spell_cards || {})[kind] || {}).kind || ""}`, "data-spell": card, title: info.text }, h("strong", {}, info.name), " ", t("{kind}, {mana} Mana, {vp} VP", info));
    }))
    : h("span", { "data-hand-size": String(player.hand_size ?? 0) }, t("{count} in hand", { count: player.hand_size ?? 0 }));
  const vessels = Object.entries(player.vessels || {}).filter(([, vessel]) => vessel).map(([kind, vessel]) => t("{vessel} on {place}", { vessel: (faction.vessels || {})[kind] ? t(faction.vessels[kind].name) : kind, place: placeName(vessel.at) }));
  const none = t("none");
  const ability = faction.ability ? t("{ability}: {text}", { ability: t(faction.ability.name), text: t(faction.ability.text) }) : "";
  return h(
    "div",
    { class: "hx-full-board", "data-faction": player.faction },
    h("p", { class: "hx-faction" }, h("strong", {}, faction.name ? t(faction.name) : player.faction), ability ? ` · ${ability}` : ""),
    h("dl", { class: "hx-stats" },
      h("dt", {}, t("Buildings")), h("dd", { "data-buildings": (player.buildings || []).join(",") }, (player.buildings || []).map((id) => buildingName(view, id)).join(", ") || none),
      h("dt", {}, t("Heroes")), h("dd", { "data-heroes": (player.heroes || []).join(",") }, (player.heroes || []).map((id) => heroName(view, id)).join(", ") || none),
      h("dt", {}, t("Vessels")), h("dd", { "data-vessels": vessels.length }, vessels.join(", ") || none),
      h("dt", {}, t("Spells")), h("dd", {}, hand),
      h("dt", {}, t("Scribed")), h("dd", { "data-scribed": (player.scribed || []).length }, (player.scribed || []).map((entry) => `${spellName(view, entry.card)} (${STATUS_WORDS[entry.status] ? t(STATUS_WORDS[entry.status]) : entry.status})`).join(", ") || none),
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
    return { prompt: limit === 1 ? t("Your hand holds more than 1 spell (your Capital City level): discard one.") : t("Your hand holds more than {limit} spells (your Capital City level): discard one.", { limit }), body: [choiceList(legal, view, seat, disabled, send, (move) => ({ "data-discard": move.card }))] };
  }
  if (view.phase === "interrupt") {
    const spell = (view.pending || {}).spell || {};
    const name = spell.name ? t(spell.name) : t("A spell");
    return { prompt: spell.target ? t("{spell} is being cast on {place}. Interrupt it?", { spell: name, place: placeName(spell.target) }) : t("{spell} is being cast. Interrupt it?", { spell: name }), body: [choiceList(legal.filter((move) => move.type === "interrupt"), view, seat, disabled, send, (move) => ({ "data-interrupt": move.card })), skipButton(t("Let it be"))] };
  }
  if (view.phase === "combat_spell") {
    return { prompt: t("Cast a Combat spell in this battle (before the tactic cards)?"), body: [choiceList(legal.filter((move) => move.type === "combat_spell"), view, seat, disabled, send, (move) => ({ "data-combat-spell": move.card })), skipButton(t("No spell"))] };
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
    body.push(h("div", { class: "hx-choices", role: "group", "aria-label": t("Which spell") }, cards.map((card) => {
      const info = spellInfo(view, card);
      return button(t("{name} ({mana} Mana, {vp} VP)", info), { "data-spell-card": card, "data-focus-key": `spell:${card}`, title: info.text, "aria-pressed": String(ui.spell === card), class: ui.spell === card ? "selected" : "" }, () => { ui.spell = card; redraw(`spell:${card}`); }, disabled);
    })));
    if (ui.spell) {
      const chosen = moves.filter((move) => move.card === ui.spell);
      const aimed = chosen.filter((move) => move.target);
      for (const move of aimed) targets.set(move.target, { kind: "spell", label: describe(view, move, seat), pick: () => send(move) });
      body.push(h("p", { class: "hx-step" }, spellInfo(view, ui.spell).text || ""));
      if (aimed.length) body.push(h("p", { class: "hx-step" }, t("Click a highlighted region to aim it, or choose below.")));
      body.push(choiceList(chosen, view, seat, disabled, send, (move) => ({ "data-target": move.target || "" })));
    }
    return body;
  }
  // sail or fly: what the vessel carries, then where it goes (on the board, or a button)
  const key = (move) => KINDS.map((kind) => move[kind] || 0).join(",");
  const cargos = [...new Set(moves.map(key))];
  if (!cargos.includes(ui.cargo)) ui.cargo = cargos.length === 1 ? cargos[0] : null;
  body.push(h("div", { class: "hx-choices", role: "group", "aria-label": t("What the vessel carries") }, cargos.map((cargo) => {
    const counts = Object.fromEntries(KINDS.map((kind, index) => [kind, Number(cargo.split(",")[index])]));
    return button(t("Carry {cargo}", { cargo: cargoWords(counts) }), { "data-cargo": cargo, "data-focus-key": `cargo:${cargo}`, "aria-pressed": String(ui.cargo === cargo), class: ui.cargo === cargo ? "selected" : "" }, () => { ui.cargo = cargo; redraw(`cargo:${cargo}`); }, disabled);
  })));
  if (ui.cargo) {
    const chosen = moves.filter((move) => key(move) === ui.cargo);
    for (const move of chosen) targets.set(move.destination, { kind: "vessel", label: describe(view, move, seat), pick: () => send(move) });
    body.push(h("p", { class: "hx-step" }, t("Click a highlighted region or sea, or choose below.")));
    body.push(choiceList(chosen, view, seat, disabled, send, (move) => ({ "data-destination": move.destination })));
  }
  return body;
}

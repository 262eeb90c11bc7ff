"""What one seat (or a spectator) sees of a Heroes game (docs/heroes.md, "State").

The view is an allow-list: it names every field of the state it shows (the ``*_FIELDS`` tuples
below, record by record), so a field added to the state is private until it is named here.
Left out: the ``rng``, during the secret tactic choice ``pending.choices`` (only the
``chosen`` flags are shown), and in solo the order of the Enemy's deck (``solo.deck_size``
instead of ``solo.deck``).  A seated viewer who has chosen also finds its own card and payment
under ``pending.mine`` (a ``tactic`` move in its wire form).  Three static
keys serve the renderer (``static/js/renderers/heroes.js``): ``map`` (the land regions
with terrain, coordinates, adjacency and yield, and the ferry routes), ``tactic_cards`` (the
house tactic set by id) and ``costs`` (Recruit and Build costs from the house data).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from app.rulesets.base import Seat, copy_state
from app.rulesets.heroes import deck
from app.rulesets.heroes.board import Board
from app.rulesets.heroes.houses import HOUSE, RESOURCES
from app.rulesets.heroes.catalogue import REVISIONS, of
from app.rulesets.heroes.state import Battle, HeroesState, Pending, Player, Solo

TEXTS = {
    "hold": "No cost, no bonus.",
    "stand_firm": "Defender only.",
    "first_strike": "",
    "charge": "+3 more if the enemy plays First Strike. Not for an army of Serfs alone without a Structure.",
    "ambush": "Attacker only.",
    "shield_wall": "Cancels the enemy's Charge (it costs nothing, gives no VP and no strength).",
    "conscripts": "Bring up to 2 of your units from one adjacent region into the battle (defender first).",
}
ONLY = {"attacker_only": "attacker", "defender_only": "defender"}


@functools.cache
def static_parts(board: Board, solo: bool) -> dict[str, Any]:
    """``map`` (from the game's ``board``: in solo without South, A-S1), ``tactic_cards`` and
    ``costs``, the same in every view of that map (built once); in solo also the Enemy's cards
    (``enemy_cards``, spec 2.6)."""
    raw = board.data
    land = [{key: entry[key] for key in ("id", "kind", "terrain", "continent", "x", "y", "adjacent", "yield")}
            for entry in raw["regions"] if entry["kind"] != "sea"]
    cards = {
        card.id: {"name": card.name, "cost": {r: card.cost.get(r, 0) for r in RESOURCES}, "strength": card.strength,
                  "vp": card.vp, "only": ONLY.get(card.restriction or ""), "text": TEXTS.get(card.id, "")}
        for card in HOUSE.tactics.values()
    }
    costs: dict[str, Any] = {unit: HOUSE.recruit_cost(unit) for unit in ("serf", "serf_pair", "warrior", "hero", "mercenary")}
    costs["hall"] = HOUSE.hall_cost
    costs["capital"] = {str(level): HOUSE.upgrade_cost(level) for level in range(2, HOUSE.max_capital_level + 1)}
    costs["tower_ore_per_distance"] = HOUSE.tower["cost_ore_per_land_distance"]
    parts: dict[str, Any] = {
        "map": {"id": raw["id"], "regions": land,
                "ferry_routes": [{"a": route["a"], "b": route["b"]} for route in raw["ferry_routes"]]},
        "tactic_cards": cards,
        "costs": costs,
    }
    if solo:
        parts["enemy_cards"] = {str(card.id): {**{k: v for k, v in card.__dict__.items() if k != "full_action"},
                                               "action_name": deck.ACTION_NAMES[card.action]}
                                for card in deck.cards().values()}
    return parts


TOP_FIELDS = ("n_players", "options", "round", "phase", "first_player", "tax_track", "nomad_supply")
"""The top-level fields shown as they are; the records (``turn``, ``end``, ``regions``, ``players``,
``mercenary``, ``pending``, ``last``, ``solo``) are shown field by field."""
TURN_FIELDS = ("seat", "lap", "order")
END_FIELDS = ("objective", "by", "round", "last_round", "finished")
MERCENARY_FIELDS = ("owner", "alive")
REGION_FIELDS = ("units", "tower", "nomad")
PLAYER_FIELDS = ("continent", "capital", "eliminated", "resources", "score", "cc_level", "hall", "nomads", "bar",
                 "tokens", "supply", "tactics", "enemy", "faction", "buildings", "heroes", "scribed", "vessels")
"""Every field of a player but the full edition's secret spell hand (``spells``: its owner sees it,
every viewer its size as ``hand_size``)."""
SPELL_FIELDS = ("caster", "card", "target", "name", "vp", "effect", "then", "enemy_hero", "reach", "hero_region")
"""The spell being cast (phase ``interrupt``): all public, it is revealed as it is cast."""
PENDING_FIELDS = ("leader", "action", "queue", "tax_slot", "seat", "arrow", "clockwise", "chosen", "damage", "resume",
                  "retreat")
"""Every field of an open decision but ``battle`` (its own record) and the secret ``choices``."""
BATTLE_FIELDS = ("attacker", "defender", "region", "capital", "then", "strength", "totals", "winner", "damage",
                 "enemy_card", "nomad", "spells", "spell_bonus")
CARD_FIELDS = ("card", "void", "cancelled", "bonus", "vp", "paid", "sacrifice", "drawn_strength")
LAST_FIELDS = ("seat", "type", "regions", "slots", "battle", "move")
SUMMARY_FIELDS = ("region", "attacker", "defender", "capital", "cards", "effective", "natural", "strength", "winner",
                  "damage")
"""The public outcome of the battle the last move resolved (``last.battle``)."""
SOLO_FIELDS = ("discard", "slots", "heroes", "track", "slot", "arrow", "next", "free", "gain", "opening")
"""Every field of the solo record but the secret order of the Enemy's ``deck``."""


def pick(record: Mapping[str, object], names: tuple[str, ...]) -> dict[str, Any]:
    """The fields ``names`` of ``record`` that it has, in that order."""
    return {name: record[name] for name in names if name in record}


def optional(record: Mapping[str, object] | None, names: tuple[str, ...]) -> dict[str, Any] | None:
    """:func:`pick` of a record that may be ``None``."""
    return None if record is None else pick(record, names)


def battle_view(battle: Battle) -> dict[str, Any]:
    """A battle in progress: its public fields and its revealed cards."""
    shown = pick(battle, BATTLE_FIELDS)
    cards = battle["cards"]
    shown["cards"] = None if cards is None else {side: pick(record, CARD_FIELDS) for side, record in cards.items()}
    return shown


def pending_view(pending: Pending, seat: Seat | None) -> dict[str, Any]:
    """The open decision; a seat that has chosen its tactic card sees it under ``mine``."""
    shown = pick(pending, PENDING_FIELDS)
    if "battle" in pending:
        shown["battle"] = battle_view(pending["battle"])
    own = pending.get("choices", {}).get(str(seat)) if seat is not None else None
    if own is not None:
        shown["mine"] = own
    if "spell" in pending:
        shown["spell"] = pick(pending["spell"], SPELL_FIELDS)
    return shown


def player_view(player: Player, index: int, seat: Seat | None) -> dict[str, Any]:
    """One player's board; its spell hand only to its own seat (full edition)."""
    shown = pick(player, PLAYER_FIELDS)
    if "spells" in player:
        shown["hand_size"] = len(player["spells"])
        if index == seat:
            shown["spells"] = list(player["spells"])
    return shown


def solo_view(solo: Solo) -> dict[str, Any]:
    """The solo record with the size of the Enemy's deck instead of its order."""
    return {**pick(solo, SOLO_FIELDS), "deck_size": len(solo["deck"])}


def build_view(state: HeroesState, board: Board, seat: Seat | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator) of a game on ``board`` (module docstring);
    a copy: changing it changes nothing in the state."""
    view = pick(state, TOP_FIELDS)
    view["turn"] = pick(state["turn"], TURN_FIELDS)
    view["end"] = optional(state["end"], END_FIELDS)
    view["mercenary"] = optional(state["mercenary"], MERCENARY_FIELDS)
    view["regions"] = {region: pick(entry, REGION_FIELDS) for region, entry in state["regions"].items()}
    view["players"] = [player_view(player, index, seat) for index, player in enumerate(state["players"])]
    pending, last = state["pending"], state["last"]
    view["pending"] = None if pending is None else pending_view(pending, seat)
    if last is None:
        view["last"] = None
    else:
        view["last"] = pick(last, LAST_FIELDS)
        view["last"]["battle"] = optional(last["battle"], SUMMARY_FIELDS)
    solo = state.get("solo")
    if solo is not None:
        view["solo"] = solo_view(solo)
    full = "spell_deck" in state
    if full:  # the full edition: the deck's size (its order is secret), where face-down tokens lie
        view["spell_deck_size"] = len(state["spell_deck"])
        view["spell_discard"] = list(state["spell_discard"])
        view["tokens"] = sorted(state.get("tokens", {}))
        view["revealed"] = dict(state.get("revealed", {}))
    view = copy_state(view)
    view.update(copy_state(static_parts(board, solo is not None)))
    if full:
        view.update(copy_state(full_parts(board, of(state).revision)))
        if solo is not None:  # the full edition's card actions (card 4: Research)
            for card in view["enemy_cards"].values():
                action = deck.action_of(deck.cards()[card["id"]], True)
                card["action"], card["action_name"] = action, deck.ACTION_NAMES[action]
    return view


@functools.cache
def full_parts(board: Board, revision: int) -> dict[str, Any]:
    """The full edition's static keys for the renderer, from the game's ``revision`` of the house
    data: ``seas`` (the sea regions with their shores, neighbours and coordinates), ``spell_cards``
    (the deck's kinds), ``factions`` (names, abilities, Buildings, vessels, Heroes),
    ``vessel_kinds`` (numbers), ``building_cost`` and the exploration ``token_kinds``."""
    catalogue = REVISIONS[revision]
    seas = [{"id": entry["id"], "x": entry["x"], "y": entry["y"], "shores": sorted(board.shores[entry["id"]]),
             "adjacent": sorted(board.sea_adjacent[entry["id"]])}
            for entry in board.data["regions"] if entry["kind"] == "sea"]
    spells = {spell.id: {"name": spell.name, "kind": spell.kind, "mana": spell.mana, "vp": spell.vp,
                         "text": spell.text, "nomad": spell.nomad} for spell in catalogue.spells.values()}
    factions = {}
    for faction, entry in catalogue.factions_raw["factions"].items():
        factions[faction] = {
            "name": entry["name"], "ability": entry["ability"], "buildings": entry["buildings"],
            "vessels": entry["vessels"],
            "heroes": {hero.id: {"name": hero.name, "building": hero.building, "cost": hero.cost, "text": hero.text}
                       for hero in catalogue.faction_heroes(faction)},
        }
    tokens = {entry["id"]: {"name": entry["name"], "effect": entry["effect"]}
              for group in ("land", "sea") for entry in catalogue.exploration_raw[group]}
    return {"seas": seas, "spell_cards": spells, "factions": factions,
            "vessel_kinds": {kind: catalogue.vessel(kind) for kind in ("sea", "air")},
            "building_cost": catalogue.building["cost"], "token_kinds": tokens}

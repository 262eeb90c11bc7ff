"""What one seat (or a spectator) sees of a Heroes game (docs/heroes.md, "State").

The view is the state without its secrets: no ``rng``, during the secret tactic choice no
``pending.choices`` (only the ``chosen`` flags), and in solo no order of the Enemy's deck
(``solo.deck_size`` instead of ``solo.deck``).  A seated viewer who has chosen also finds its
own card and payment under ``pending.mine`` (a ``tactic`` move in its wire form).  Three static
keys serve the renderer: ``map`` (the land regions with terrain, coordinates, adjacency and
yield, and the ferry routes), ``tactic_cards`` (the house tactic set by id) and ``costs``
(Recruit and Build costs from the house data).
"""

from __future__ import annotations

import functools
from typing import Any

import orjson

from app.rulesets.base import Seat, State
from app.rulesets.heroes import deck
from app.rulesets.heroes.battles import parse_choice
from app.rulesets.heroes.board import Board
from app.rulesets.heroes.houses import HOUSE, RESOURCES

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


def copy_state(state: State) -> State:
    """A deep copy of a JSON-compatible state (orjson round trip: faster than ``copy.deepcopy``)."""
    return orjson.loads(orjson.dumps(state))


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
    costs = {unit: HOUSE.recruit_cost(unit) for unit in ("serf", "serf_pair", "warrior", "hero", "mercenary")}
    costs["hall"] = HOUSE.hall_cost
    costs["capital"] = {str(level): HOUSE.upgrade_cost(level) for level in range(2, HOUSE.max_capital_level + 1)}
    costs["tower_ore_per_distance"] = HOUSE.tower["cost_ore_per_land_distance"]
    parts = {
        "map": {"id": raw["id"], "regions": land,
                "ferry_routes": [{"a": route["a"], "b": route["b"]} for route in raw["ferry_routes"]]},
        "tactic_cards": cards,
        "costs": costs,
    }
    if solo:
        parts["enemy_cards"] = {str(card.id): {**card.__dict__, "action_name": deck.ACTION_NAMES[card.action]}
                                for card in deck.cards().values()}
    return parts


def build_view(state: State, board: Board, seat: Seat | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator) of a game on ``board``."""
    view = dict(state)
    view.pop("rng", None)
    pending = state["pending"]
    if pending is not None and "choices" in pending:
        visible = {key: value for key, value in pending.items() if key != "choices"}
        token = pending["choices"].get(str(seat)) if seat is not None else None
        if token is not None:
            visible["mine"] = dict(parse_choice(token).__dict__)
        view["pending"] = visible
    solo = state.get("solo")
    if solo is not None:  # the Enemy's deck order is secret: only its size is shown
        view["solo"] = {key: value for key, value in solo.items() if key != "deck"}
        view["solo"]["deck_size"] = len(solo["deck"])
    view = copy_state(view)
    view.update(copy_state(static_parts(board, solo is not None)))
    return view

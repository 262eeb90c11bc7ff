"""How good a Heroes position is for a seat, for searching bots (``Ruleset.evaluate``).

A seat's projected final score (running score and every end-game category), plus material (0.5
per point of natural strength in play), 0.1 per resource and 0.5 per captured Nomad, minus the
best opponent's (in solo: the Enemy's); an eliminated seat is worth -100.  Full edition: what its
spells, Buildings and vessels promise (:func:`full_edition_worth`).
"""

from __future__ import annotations

from app.rulesets.base import Seat
from app.rulesets.heroes.catalogue import CATALOGUE
from app.rulesets.heroes.pieces import natural_strength
from app.rulesets.heroes.scoring import breakdown
from app.rulesets.heroes.state import HeroesState, Player


def worth(state: HeroesState, seat: Seat) -> float:
    """One seat's heuristic value (see the module docstring)."""
    player = state["players"][seat]
    if player["eliminated"]:
        return -100.0
    value = float(sum(breakdown(state, seat).values()))
    material = sum(natural_strength(entry["units"].get(str(seat), {})) for entry in state["regions"].values())
    value += 0.5 * material + 0.1 * sum(player["resources"].values()) + 0.5 * player["nomads"]
    if "spells" in player:
        value += full_edition_worth(player)
    return value


def full_edition_worth(player: Player) -> float:
    """What the full edition's assets promise beyond their end VP (in the breakdown already): each
    spell kept (up to the hand limit) 0.2 + 0.3 of its VP (what casting it may score), each ready
    scribed spell 0.5, each Building 1 (the Hero or vessel it unlocks), each vessel 1.5 (a Sail or
    Fly every round) and its strength as material."""
    kept = sorted((CATALOGUE.spell(card).vp for card in player["spells"]), reverse=True)[:player["cc_level"]]
    vessels = [kind for kind, vessel in player["vessels"].items() if vessel]
    ready = sum(1 for entry in player["scribed"] if entry["status"] == "ready")
    return (sum(0.2 + 0.3 * vp for vp in kept) + 0.5 * ready + 1.0 * len(player["buildings"])
            + sum(1.5 + 0.5 * CATALOGUE.vessel(kind)["strength"] for kind in vessels))


def evaluate(state: HeroesState, seat: Seat) -> float:
    """The seat's worth minus the best opponent's."""
    others = [worth(state, other) for other in range(len(state["players"])) if other != seat]  # solo: the Enemy
    return worth(state, seat) - (max(others) if others else 0.0)

"""How good a Heroes position is for a seat, for searching bots (``Ruleset.evaluate``).

A seat's projected final score (running score and every end-game category), plus material (0.5
per point of natural strength in play), 0.1 per resource and 0.5 per captured Nomad, minus the
best opponent's (in solo: the Enemy's); an eliminated seat is worth -100.  Full edition: each spell
in hand 0.6 and each vessel in play 0.8 more (their end VP is in the breakdown already).
"""

from __future__ import annotations

from app.rulesets.base import Seat
from app.rulesets.heroes.pieces import natural_strength
from app.rulesets.heroes.scoring import breakdown
from app.rulesets.heroes.state import HeroesState


def worth(state: HeroesState, seat: Seat) -> float:
    """One seat's heuristic value (see the module docstring)."""
    player = state["players"][seat]
    if player["eliminated"]:
        return -100.0
    value = float(sum(breakdown(state, seat).values()))
    material = sum(natural_strength(entry["units"].get(str(seat), {})) for entry in state["regions"].values())
    value += 0.5 * material + 0.1 * sum(player["resources"].values()) + 0.5 * player["nomads"]
    if "spells" in player:  # full edition: a spell in hand is worth about its VP and effect; a vessel is reach
        value += 0.6 * len(player["spells"]) + 0.8 * sum(1 for vessel in player["vessels"].values() if vessel)
    return value


def evaluate(state: HeroesState, seat: Seat) -> float:
    """The seat's worth minus the best opponent's."""
    others = [worth(state, other) for other in range(len(state["players"])) if other != seat]  # solo: the Enemy
    return worth(state, seat) - (max(others) if others else 0.0)

"""How good a Heroes position is for a seat, for searching bots (``Ruleset.evaluate``).

A seat's projected final score (running score and every end-game category), plus material (0.5
per point of natural strength in play), 0.1 per resource and 0.5 per captured Nomad, minus the
best opponent's (in solo: the Enemy's); an eliminated seat is worth -100.  Full edition: what its
spells, Buildings and vessels promise (:func:`full_edition_worth`).
"""

from __future__ import annotations

from app.rulesets.base import Seat
from app.rulesets.heroes.catalogue import CATALOGUE
from app.rulesets.heroes.pieces import natural_strength, units_at
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
    if "spells" in player:
        value += full_edition_worth(state, seat)
    return value


def full_edition_worth(state: HeroesState, seat: Seat) -> float:
    """What the full edition's assets promise beyond their end VP (in the breakdown already): each
    spell kept (up to the hand limit) 0.2 + 0.5 of its VP when its Mana is there to cast it, else
    0.1 + 0.2 of it; each ready scribed spell 0.5; each Building 1 (the Hero or vessel it unlocks);
    each vessel 1.5 (a Sail or Fly every round) and its strength as material; up to 2 Serfs in the
    Courtyard 0.4 each (a Building, a Follow or a Muster needs one there)."""
    player = state["players"][seat]
    mana = player["resources"]["mana"]
    kept = sorted((CATALOGUE.spell(card) for card in player["spells"]), key=lambda spell: -spell.vp)[:player["cc_level"]]
    vessels = [kind for kind, vessel in player["vessels"].items() if vessel]
    ready = sum(1 for entry in player["scribed"] if entry["status"] == "ready")
    serfs = min(2, units_at(state, player["capital"], seat)["serf"])
    return (sum(0.2 + 0.5 * spell.vp if spell.mana <= mana else 0.1 + 0.2 * spell.vp for spell in kept)
            + 0.5 * ready + 1.0 * len(player["buildings"]) + 0.4 * serfs
            + sum(1.5 + 0.5 * CATALOGUE.vessel(kind)["strength"] for kind in vessels))


def evaluate(state: HeroesState, seat: Seat) -> float:
    """The seat's worth minus the best opponent's."""
    others = [worth(state, other) for other in range(len(state["players"])) if other != seat]  # solo: the Enemy
    return worth(state, seat) - (max(others) if others else 0.0)

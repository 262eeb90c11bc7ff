"""Hooks for the generic bots (app/bots): determinizing a view and evaluating a state.

``determinize``: the view holds everything but the PRNG, the other side's unrevealed tactic
choice and, in solo, the order of the Enemy's deck; those are drawn from the bot's ``rng`` (the
choice uniformly among that seat's legal tactic moves, the deck as the unseen cards shuffled).

``evaluate``: a seat's projected final score (running score and every end-game category), plus
material (0.5 per point of natural strength in play), 0.1 per resource and 0.5 per captured
Nomad, minus the best opponent's; an eliminated seat is worth -100.
"""

from __future__ import annotations

from typing import Any

from app.rulesets.base import Rng, Seat, State
from app.rulesets.heroes import deck
from app.rulesets.heroes.battles import choice_token, tactic_options
from app.rulesets.heroes.moves import Tactic
from app.rulesets.heroes.pieces import ENEMY, is_enemy, is_solo, natural_strength
from app.rulesets.heroes.scoring import breakdown
from app.rulesets.heroes.view import copy_state


def determinize(view: dict[str, Any], seat: Seat, rng: Rng) -> State:
    """A full state behind ``seat``'s view (see the module docstring)."""
    state = copy_state(view)
    for static in ("map", "tactic_cards", "costs", "enemy_cards"):
        state.pop(static, None)
    state["rng"] = rng.next64()
    solo = state.get("solo")
    if solo is not None:  # the Enemy's deck: every card not in a Hero slot or the discard, shuffled
        solo.pop("deck_size", None)
        seen = set(solo["discard"]) | {card for card in solo["slots"] if card is not None}
        solo["deck"] = [card for card in sorted(deck.cards()) if card not in seen]
        rng.shuffle(solo["deck"])
    pending = state["pending"]
    if pending is not None and "chosen" in pending:
        mine = pending.pop("mine", None)
        choices = {}
        for other, chosen in pending["chosen"].items():
            if not chosen or is_enemy(state, int(other)):
                continue
            if int(other) == seat and mine is not None:
                choices[other] = choice_token(seat, Tactic.model_validate(mine))
            else:
                options = tactic_options(state, pending["battle"], int(other))
                choices[other] = choice_token(int(other), rng.choice(options))
        pending["choices"] = choices
    return state


def worth(state: State, seat: Seat) -> float:
    """One seat's heuristic value (see the module docstring)."""
    player = state["players"][seat]
    if player["eliminated"]:
        return -100.0
    value = float(sum(breakdown(state, seat).values()))
    material = sum(natural_strength(entry["units"].get(str(seat), {})) for entry in state["regions"].values())
    value += 0.5 * material + 0.1 * sum(player["resources"].values()) + 0.5 * player["nomads"]
    return value


def evaluate(state: State, seat: Seat) -> float:
    """The seat's worth minus the best opponent's."""
    rivals = [ENEMY] if is_solo(state) else range(state["n_players"])
    others = [worth(state, other) for other in rivals if other != seat]
    return worth(state, seat) - (max(others) if others else 0.0)

"""What one seat knows of a Nimalia game: a full state behind its view (the ``determinize`` hook).

``determinize`` rebuilds a :class:`~.state.NimaliaState` from what the seat sees.  Everything a
view shows is copied (objectives, round and step, every revealed placement, scores, the round
records, the seat's own hand and its own waiting choice); the rest is drawn from ``rng``:

* a seat holding a hand the viewer passed on this round (the view's ``passed_on``) holds exactly
  those cards: its waiting choice, if it has chosen, is a uniform one of them, the rest its hand;
* the *unseen* cards are the 60 of the deck (Spec §1.5) minus every revealed placement (covered
  ones too: the view lists every card placed), the seat's hand and its own choice, and the
  ``passed_on`` cards.  The other seats' hands (``hand_size`` cards each), the cards they have
  chosen but not yet revealed, and the undealt deck (``deck_size`` cards, in order) are a uniform
  draw without replacement from them: the distribution the S1 shuffle leaves once the seat's own
  knowledge is taken out;
* another seat's waiting choice also needs a rotation and a position: a uniform legal one on
  that seat's reserve (P1 - P4);
* the PRNG state, and the table options, which no view shows and which only ``setup`` reads
  (``first_game`` is set when the objectives are the first-game set).
"""

from __future__ import annotations

from typing import Any

from app.rulesets.base import Rng, Seat
from app.rulesets.nimalia.cards import ROTATIONS, card_number, deck
from app.rulesets.nimalia.options import FIRST_GAME_SET
from app.rulesets.nimalia.placement import legal_anchors
from app.rulesets.nimalia.reserve import build_grid
from app.rulesets.nimalia.state import NimaliaState, Placement, RoundRecord


def determinize(view: dict[str, Any], seat: Seat, rng: Rng) -> NimaliaState:
    """A state whose ``view(state, seat)`` equals ``view`` (a view of ``view.py``); the parts the
    seat cannot see come from ``rng`` (see the module docstring).

    ``view`` is JSON from the platform, so its values are read as the view's layout says.
    """
    players = view["players"]
    placements: list[list[Placement]] = [
        [{"card": card["number"], "rotation": card["rotation"], "at": list(card["at"])} for card in player["cards"]]
        for player in players
    ]
    own_hand = [card["number"] for card in view.get("hand", [])]
    choice = view.get("my_choice")
    own_pick: Placement | None = None
    if choice is not None:
        own_pick = {"card": choice["number"], "rotation": choice["rotation"], "at": list(choice["at"])}

    known = {entry["seat"]: [_number(token) for token in entry["cards"]] for entry in view.get("passed_on", [])}
    seen = {p["card"] for reserve in placements for p in reserve} | set(own_hand)
    seen.update(number for cards in known.values() for number in cards)
    if own_pick is not None:
        seen.add(own_pick["card"])
    unseen = [number for number in sorted(deck()) if number not in seen]
    rng.shuffle(unseen)

    hands: list[list[int]] = []
    picks: list[Placement | None] = []
    for other, player in enumerate(players):
        if other == seat:
            hands.append(own_hand)
            picks.append(own_pick)
            continue
        held = known.get(other)
        if held is not None:
            rng.shuffle(held)  # which of them a seat that has chosen chose: any
        source = held if held is not None else unseen
        hands.append(sorted(source.pop() for _ in range(player["hand_size"])))
        if player["chosen"]:
            spots = legal_anchors(build_grid(placements[other]))
            picks.append({"card": source.pop(), "rotation": rng.choice(list(ROTATIONS)), "at": list(rng.choice(spots))})
        else:
            picks.append(None)
    deck_order = [unseen.pop() for _ in range(view["deck_size"])]

    objectives = {objective["colour"]: objective["id"] for objective in view["objectives"]}
    history: list[RoundRecord] = [
        {
            "round": record["round"],
            "steps": [
                {"colour": step["colour"], "objective": step["objective"], "points": list(step["points"])}
                for step in record["steps"]
            ],
            "before": list(record["before"]),
            "after": list(record["after"]),
        }
        for record in view["history"]
    ]
    return {
        "players": len(players),
        "options": {"goal_level": "all", "first_game": objectives == FIRST_GAME_SET},
        "objectives": objectives,
        "round": view["round"],
        "step": view["step"],
        "deck": deck_order,
        "hands": hands,
        "picks": picks,
        "placements": placements,
        "scores": [player["score"] for player in players],
        "history": history,
        "over": view["over"],
        "rng": rng.next64(),
    }


def _number(token: str) -> int:
    """The number of a card token of the view (``card_number``); a token naming no card is a view
    this module was not written for."""
    number = card_number(token)
    if number is None:
        raise ValueError(f"not a Nimalia card: {token!r}")
    return number

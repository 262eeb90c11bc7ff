"""The bot hooks of Nimalia (app/bots): a full state from one seat's view, and a value of a position.

``determinize`` rebuilds the state layout of ``rules.py`` from what the seat sees.  Everything a
view shows is copied (objectives, round and step, every revealed placement, scores, the round
records, the seat's own hand and its own waiting choice); the rest is drawn from ``rng``:

* the *unseen* cards are the 60 of the deck (Spec §1.5) minus every revealed placement (covered
  ones too: the view lists every card placed), the seat's hand and its own choice.  The other
  seats' hands (``hand_size`` cards each), the cards they have chosen but not yet revealed, and
  the undealt deck (``deck_size`` cards, in order) are a uniform draw without replacement from
  them.  That is the distribution the S1 shuffle leaves once the seat's own cards are known; the
  cards that passed through the seat's hand earlier in the round are not in the view (a bot
  keeps no memory), so they are sampled like the rest;
* another seat's waiting choice also needs a rotation and a position: a uniform legal one on
  that seat's reserve (P1 - P4);
* the PRNG state, and the table options, which no view shows and which only ``setup`` reads
  (``first_game`` is set when the objectives are the first-game set).

``evaluate`` scores a position for one seat, in points::

    value(s)  = the scores after applying, round by round with the zero floor (D-1, E2), the
                raw points each objective still to be scored this game would give to the
                reserves as they stand now, waiting choices included
    evaluate  = value(seat) - max(value(other))     once over: the final margin +/- WIN_BONUS

So an objective that scores three more times counts three times, one that scores once more
counts once, and one that has scored for the last time no longer counts.  Comparative faces
(O16, O18, O20, O21) are scored against the other reserves as they stand.  A small
``TIE_BREAK`` share of the largest single-species population (E4) settles equal projections.
The reserves are built once per call from the placements; every face is scored once per call
for all seats (a few hundred microseconds with two players).
"""

from __future__ import annotations

from typing import Any

from app.rulesets.base import Rng, Seat, State
from app.rulesets.nimalia.cards import ROTATIONS, deck
from app.rulesets.nimalia.objectives import COLOURS, OBJECTIVES, largest_population
from app.rulesets.nimalia.options import FIRST_GAME_SET
from app.rulesets.nimalia.reserve import Grid, lay_card
from app.rulesets.nimalia.scoring import ROUNDS, add_with_floor, colours_scored

WIN_BONUS = 10.0
"""Added to (subtracted from) the final margin of a finished game won (lost)."""
TIE_BREAK = 0.01
"""Points per animal of the largest single-species population (E4 breaks ties on it)."""


# -- determinize ------------------------------------------------------------------------------


def determinize(view: dict[str, Any], seat: Seat, rng: Rng, anchors) -> State:
    """A state of the layout in ``rules.py`` whose ``view(state, seat)`` equals ``view``; the parts
    the seat cannot see come from ``rng`` (see the module docstring).  ``anchors(placements)``
    lists the legal positions of a next card on a reserve of those placements."""
    players = view["players"]
    n_players = len(players)
    placements = [
        [{"card": card["number"], "rotation": card["rotation"], "at": list(card["at"])} for card in player["cards"]]
        for player in players
    ]
    own_hand = [card["number"] for card in view.get("hand", [])]
    choice = view.get("my_choice")
    own_pick = None
    if choice is not None:
        own_pick = {"card": choice["number"], "rotation": choice["rotation"], "at": list(choice["at"])}

    seen = {p["card"] for reserve in placements for p in reserve} | set(own_hand)
    if own_pick is not None:
        seen.add(own_pick["card"])
    unseen = [number for number in sorted(deck()) if number not in seen]
    rng.shuffle(unseen)

    hands: list[list[int]] = []
    picks: list[dict[str, Any] | None] = []
    for other, player in enumerate(players):
        if other == seat:
            hands.append(own_hand)
            picks.append(own_pick)
            continue
        hands.append(sorted(unseen.pop() for _ in range(player["hand_size"])))
        if player["chosen"]:
            spots = anchors(placements[other])
            picks.append({"card": unseen.pop(), "rotation": rng.choice(list(ROTATIONS)), "at": list(rng.choice(spots))})
        else:
            picks.append(None)
    deck_order = [unseen.pop() for _ in range(view["deck_size"])]

    objectives = {objective["colour"]: objective["id"] for objective in view["objectives"]}
    history = [
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
        "players": n_players,
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


# -- evaluate ---------------------------------------------------------------------------------


_GRIDS: dict[tuple, Grid] = {}
"""Revealed reserves by their placements: a search evaluates hundreds of states that share them."""
_GRIDS_KEPT = 512


def _reserve(placements: list[dict[str, Any]]) -> Grid:
    """The visible grid of ``placements`` (shared: do not change it)."""
    key = tuple((p["card"], p["rotation"], p["at"][0], p["at"][1]) for p in placements)
    grid = _GRIDS.get(key)
    if grid is None:
        if len(_GRIDS) >= _GRIDS_KEPT:
            _GRIDS.clear()
        grid = _GRIDS[key] = {}
        for card, rotation, row, col in key:
            lay_card(grid, card, rotation, (row, col))
    return grid


def grids_with_choices(state: State) -> list[Grid]:
    """Every seat's reserve with its waiting choice laid on top (it is placed for sure)."""
    grids = []
    for reserve, pick in zip(state["placements"], state["picks"]):
        grid = _reserve(reserve)
        if pick is not None:
            grid = dict(grid)
            lay_card(grid, pick["card"], pick["rotation"], tuple(pick["at"]))
        grids.append(grid)
    return grids


def projected_scores(state: State, grids: list[Grid]) -> list[int]:
    """Per seat: the running total after every round still to be scored, each scoring the
    reserves ``grids`` as they stand (D-1 order, zero floor after each face)."""
    n_players = state["players"]
    remaining = range(len(state["history"]) + 1, ROUNDS + 1)
    rounds = [colours_scored(number) for number in remaining]
    needed = {colour for colours in rounds for colour in colours}
    points = {colour: OBJECTIVES[state["objectives"][colour]].score(grids) for colour in COLOURS if colour in needed}
    return [
        _after_rounds(state["scores"][other], [[points[colour][other] for colour in colours] for colours in rounds])
        for other in range(n_players)
    ]


def _after_rounds(total: int, rounds: list[list[int]]) -> int:
    for results in rounds:
        total = add_with_floor(total, results)
    return total


def evaluate(state: State, seat: Seat, final_scores=None) -> float:
    """The seat's projected value minus the best other seat's (module docstring)."""
    if state["over"]:
        result = final_scores(state)
        best_other = max(score for other, score in enumerate(result.scores) if other != seat)
        margin = result.scores[seat] - best_other
        won = result.ranks[seat] == 1 and all(rank > 1 for other, rank in enumerate(result.ranks) if other != seat)
        lost = result.ranks[seat] > min(result.ranks)
        return margin + (WIN_BONUS if won else -WIN_BONUS if lost else 0.0)
    grids = grids_with_choices(state)
    projected = projected_scores(state, grids)
    values = [score + TIE_BREAK * largest_population(grid) for score, grid in zip(projected, grids)]
    return values[seat] - max(value for other, value in enumerate(values) if other != seat)

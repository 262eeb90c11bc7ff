"""What one seat (or a spectator) sees of a Nimalia game.

Hidden information (Spec D1, D2): a seat's hand and its chosen, not yet revealed card appear only
in that seat's own view; the deck's order appears in no view.  The view is an allow-list: its
layout is the ``TypedDict``s below, every key is named where it is built from the typed state
(``state.py``), and mypy refuses a key the layout does not declare; a field added to the state
stays private until a view names it.  The view is a JSON dict; the browser renderer
(``static/js/renderers/nimalia.js``) and ``information.py`` are written against these keys.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from app.rulesets.base import Seat
from app.rulesets.nimalia.cards import ROTATIONS, Rotation, Space, card_token, deck
from app.rulesets.nimalia.objectives import COLOURS, OBJECTIVES, largest_population
from app.rulesets.nimalia.reserve import Grid, Position, as_position, bounding_box, footprint
from app.rulesets.nimalia.scoring import (
    PASSING,
    SCHEDULE,
    Direction,
    colours_scored,
    rounds_scoring,
)
from app.rulesets.nimalia.state import NimaliaState, Placement, RoundRecord


class SpaceView(TypedDict):
    """One visible space of a reserve at ``at`` (``[row, col]``): its spec code (``"Oj/"``), animal,
    terrain, river diagonal (``"/"``, ``"\\"`` or None) and the number of the card it is on."""

    at: list[int]
    code: str
    animal: str
    terrain: str
    river: str | None
    card: int


class PlacedCardView(TypedDict):
    """A revealed placement: the card's token and number, its rotation and its ``[row, col]``."""

    card: str
    number: int
    rotation: Rotation
    at: list[int]


class ChoiceView(PlacedCardView):
    """The viewer's own chosen card waiting for the reveal, with the spaces it will show."""

    spaces: list[SpaceView]


class HandCardView(TypedDict):
    """A card of the viewer's hand; ``spaces`` maps each rotation (``"0"``, ``"90"``, ...) to the
    spec codes ``[TL, TR, BL, BR]`` after that rotation."""

    card: str
    number: int
    spaces: dict[str, list[str]]


class PlayerView(TypedDict):
    """What everyone sees of one seat: its score, how many cards it holds, whether it has chosen
    this step, its revealed reserve (``box`` ``[top, left, bottom, right]`` or None, the visible
    ``spaces``, every placed ``cards`` oldest first) and its largest single-species population
    (the E4 tie-break)."""

    seat: int
    score: int
    hand_size: int
    chosen: bool
    cards_placed: int
    largest_population: int
    box: list[int] | None
    spaces: list[SpaceView]
    cards: list[PlacedCardView]


class ObjectiveView(TypedDict):
    """One objective in play: id, ``label`` (``"O9"``), colour, level, title, scoring text and the
    rounds it scores in."""

    id: int
    label: str
    colour: str
    level: str
    title: str
    text: str
    rounds: list[int]


class ScheduleView(TypedDict):
    """One round of the round card: the colours it scores, in application order (D-1)."""

    round: int
    colours: list[str]


class PassedOnView(TypedDict):
    """Cards the viewer passed on this round (D3, D4) that are still in one hand, as tokens
    (``"nimalia-card-17"``): ``seat`` holds them now, in its hand or as its face-down choice
    (which of them it chose, if it has, is not said)."""

    seat: int
    cards: list[str]


class ScoringStepView(TypedDict):
    """One objective scored in a round (a :class:`~.state.ScoringStep` with its label)."""

    colour: str
    objective: int
    points: list[int]
    label: str


class RoundRecordView(TypedDict):
    """A scored round (a :class:`~.state.RoundRecord`)."""

    round: int
    steps: list[ScoringStepView]
    before: list[int]
    after: list[int]


class NimaliaView(TypedDict):
    """The whole view.

    ``round`` 1..5 and ``step`` 1..3 (3 after the last round is scored); ``passing`` where cards go
    this round (D3); ``receives_from`` per seat the seat whose hand it receives this round;
    ``over``; ``deck_size`` the cards not yet dealt; ``objectives`` in colour order blue, green,
    yellow, red (also the order they apply, D-1); ``schedule``; ``players`` one per seat;
    ``history`` one record per scored round.  A seated viewer also gets ``hand``, ``my_choice``
    (None until it has chosen this step) and ``passed_on``; a spectator gets none of them.

    ``passed_on`` (one entry per hand the viewer passed on this round, the latest first): a player
    at the table has seen the cards of every hand it passed, so it knows the cards still in them
    and who holds them now (the cards chosen from them since were revealed).  In a 2-player game
    that is the whole of the other hand from the round's second step on.
    """

    round: int
    step: int
    passing: Direction
    receives_from: list[int]
    over: bool
    deck_size: int
    objectives: list[ObjectiveView]
    schedule: list[ScheduleView]
    players: list[PlayerView]
    history: list[RoundRecordView]
    hand: NotRequired[list[HandCardView]]
    my_choice: NotRequired[ChoiceView | None]
    passed_on: NotRequired[list[PassedOnView]]


def build_view(state: NimaliaState, seat: Seat | None, grids: list[Grid]) -> dict[str, Any]:
    """The view of ``seat`` (``None``: spectator), a :class:`NimaliaView`; ``grids`` are the
    seats' revealed reserves.  Returned as the plain JSON dict the ruleset contract names."""
    n_players = state["players"]
    direction = PASSING[state["round"]]
    shift = 1 if direction == "left" else -1
    view: NimaliaView = {
        "round": state["round"],
        "step": state["step"],
        "passing": direction,
        "receives_from": [(other - shift) % n_players for other in range(n_players)],
        "over": state["over"],
        "deck_size": len(state["deck"]),
        "objectives": [objective_view(state["objectives"][colour]) for colour in COLOURS],
        "schedule": [{"round": number, "colours": colours_scored(number)} for number in SCHEDULE],
        "players": [player_view(state, other, grids[other]) for other in range(n_players)],
        "history": [history_view(record) for record in state["history"]],
    }
    if seat is not None:
        view["hand"] = [hand_card(number) for number in sorted(state["hands"][seat])]
        view["my_choice"] = choice_view(state["picks"][seat])
        view["passed_on"] = passed_on(state, seat, shift)
    return dict(view)


def passed_on(state: NimaliaState, seat: Seat, shift: int) -> list[PassedOnView]:
    """The hands ``seat`` passed on this round and where they are now (``NimaliaView.passed_on``).

    At step ``k`` the hands have been passed ``k - 1`` times (D3, D4); the hand ``seat`` passed ``i``
    steps ago is held by the seat ``i`` places along the passing direction (``shift``: +1 left,
    -1 right), unless that is ``seat`` itself (a 2-player round's third step: D5, left and right
    are both the opponent, so the first hand came back).  What it holds
    is exactly what is left of that hand: its hand and its face-down choice."""
    if state["over"]:
        return []
    n_players = state["players"]
    known: list[PassedOnView] = []
    for steps_ago in range(1, state["step"]):
        holder = (seat + steps_ago * shift) % n_players
        if holder == seat:
            continue
        pick = state["picks"][holder]
        cards = list(state["hands"][holder]) + ([pick["card"]] if pick is not None else [])
        known.append({"seat": holder, "cards": [card_token(number) for number in sorted(cards)]})
    return known


def player_view(state: NimaliaState, seat: Seat, grid: Grid) -> PlayerView:
    box = bounding_box(grid)
    return {
        "seat": seat,
        "score": state["scores"][seat],
        "hand_size": len(state["hands"][seat]),
        "chosen": state["picks"][seat] is not None,
        "cards_placed": len(state["placements"][seat]),
        "largest_population": largest_population(grid),
        "box": list(box) if box else None,
        "spaces": [space_view(position, grid[position]) for position in sorted(grid)],
        "cards": [placed_card(placement) for placement in state["placements"][seat]],
    }


def placed_card(placement: Placement) -> PlacedCardView:
    return {
        "card": card_token(placement["card"]),
        "number": placement["card"],
        "rotation": placement["rotation"],
        "at": list(placement["at"]),
    }


def space_view(position: Position, space: Space) -> SpaceView:
    return {
        "at": list(position),
        "code": space.code,
        "animal": space.animal,
        "terrain": space.terrain,
        "river": space.river,
        "card": space.card,
    }


def objective_view(objective_id: int) -> ObjectiveView:
    objective = OBJECTIVES[objective_id]
    return {
        "id": objective.id,
        "label": objective.label,
        "colour": objective.colour,
        "level": objective.level,
        "title": objective.title,
        "text": objective.text,
        "rounds": rounds_scoring(objective.colour),
    }


def history_view(record: RoundRecord) -> RoundRecordView:
    return {
        "round": record["round"],
        "steps": [
            {
                "colour": step["colour"],
                "objective": step["objective"],
                "points": list(step["points"]),
                "label": OBJECTIVES[step["objective"]].label,
            }
            for step in record["steps"]
        ],
        "before": list(record["before"]),
        "after": list(record["after"]),
    }


def hand_card(number: int) -> HandCardView:
    card = deck()[number]
    return {
        "card": card.token,
        "number": number,
        "spaces": {str(rotation): card.codes(rotation) for rotation in ROTATIONS},
    }


def choice_view(pick: Placement | None) -> ChoiceView | None:
    if pick is None:
        return None
    spaces = deck()[pick["card"]].turned(pick["rotation"])
    return {
        **placed_card(pick),
        "spaces": [space_view(p, space) for p, space in zip(footprint(as_position(pick["at"])), spaces)],
    }

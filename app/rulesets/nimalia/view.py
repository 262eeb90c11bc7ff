"""What one seat (or a spectator) sees of a Nimalia game.

Hidden information (Spec D1, D2): a seat's hand and its chosen, not yet revealed card appear only
in that seat's own view; the deck's order appears in no view.  The view is a JSON dict; the
browser renderer is written against these keys::

    round, step        1..5 and 1..3; step is 3 after the last round is scored
    passing            "left" | "right": where cards go this round (Spec D3)
    receives_from      per seat: the seat whose hand it receives this round
    over               True once round 5 is scored
    deck_size          cards not yet dealt
    objectives         [{"id", "label" ("O9"), "colour", "level", "title", "text", "rounds": [1, 3, 5]}]
                       in colour order blue, green, yellow, red (also the order they apply, D-1)
    schedule           [{"round", "colours": [...] in application order}]
    players            [{"seat", "score", "hand_size", "chosen": bool, "cards_placed",
                         "largest_population", "box": [top, left, bottom, right] or None,
                         "spaces": [{"at": [row, col], "code", "animal", "terrain", "river", "card"}],
                         "cards": [{"card": token, "number", "rotation", "at"}]}]   revealed only
    history            [{"round", "steps": [{"colour", "objective", "label", "points": [...]}],
                         "before": [...], "after": [...]}]   one per scored round
    hand               (a seated viewer) [{"card": token, "number", "spaces": {"0": codes, "90": ..}}]
                       codes are [TL, TR, BL, BR] after that rotation
    my_choice          (a seated viewer) the chosen card waiting for the reveal, or None:
                       {"card", "number", "rotation", "at", "spaces": [{"at", "code", ...}]}
"""

from __future__ import annotations

from typing import Any

from app.rulesets.base import Seat, State
from app.rulesets.nimalia.cards import ROTATIONS, Space, card_token, deck
from app.rulesets.nimalia.objectives import COLOURS, OBJECTIVES, largest_population
from app.rulesets.nimalia.reserve import Grid, bounding_box, footprint
from app.rulesets.nimalia.scoring import (
    PASSING,
    SCHEDULE,
    colours_scored,
    rounds_scoring,
)


def build_view(state: State, seat: Seat | None, grids: list[Grid]) -> dict[str, Any]:
    """The view of ``seat`` (``None``: spectator); ``grids`` are the seats' revealed reserves."""
    n_players = state["players"]
    direction = PASSING[state["round"]]
    shift = 1 if direction == "left" else -1
    players = []
    for other in range(n_players):
        grid = grids[other]
        box = bounding_box(grid)
        players.append(
            {
                "seat": other,
                "score": state["scores"][other],
                "hand_size": len(state["hands"][other]),
                "chosen": state["picks"][other] is not None,
                "cards_placed": len(state["placements"][other]),
                "largest_population": largest_population(grid),
                "box": list(box) if box else None,
                "spaces": [space_view(position, grid[position]) for position in sorted(grid)],
                "cards": [
                    {"card": card_token(p["card"]), "number": p["card"], "rotation": p["rotation"], "at": list(p["at"])}
                    for p in state["placements"][other]
                ],
            }
        )
    view: dict[str, Any] = {
        "round": state["round"],
        "step": state["step"],
        "passing": direction,
        "receives_from": [(other - shift) % n_players for other in range(n_players)],
        "over": state["over"],
        "deck_size": len(state["deck"]),
        "objectives": [objective_view(state["objectives"][colour]) for colour in COLOURS],
        "schedule": [{"round": number, "colours": colours_scored(number)} for number in SCHEDULE],
        "players": players,
        "history": [history_view(record) for record in state["history"]],
    }
    if seat is not None:
        view["hand"] = [hand_card(number) for number in sorted(state["hands"][seat])]
        view["my_choice"] = choice_view(state["picks"][seat])
    return view


def space_view(position: tuple[int, int], space: Space) -> dict[str, Any]:
    return {
        "at": list(position),
        "code": space.code,
        "animal": space.animal,
        "terrain": space.terrain,
        "river": space.river,
        "card": space.card,
    }


def objective_view(objective_id: int) -> dict[str, Any]:
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


def history_view(record: dict[str, Any]) -> dict[str, Any]:
    steps = [{**step, "label": OBJECTIVES[step["objective"]].label} for step in record["steps"]]
    return {**record, "steps": steps}


def hand_card(number: int) -> dict[str, Any]:
    card = deck()[number]
    return {
        "card": card.token,
        "number": number,
        "spaces": {str(rotation): card.codes(rotation) for rotation in ROTATIONS},
    }


def choice_view(pick: dict[str, Any] | None) -> dict[str, Any] | None:
    if pick is None:
        return None
    spaces = deck()[pick["card"]].turned(pick["rotation"])
    return {
        "card": card_token(pick["card"]),
        "number": pick["card"],
        "rotation": pick["rotation"],
        "at": list(pick["at"]),
        "spaces": [space_view(p, space) for p, space in zip(footprint(tuple(pick["at"])), spaces)],
    }

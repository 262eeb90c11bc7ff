"""Three in a row: two players take turns marking an empty cell of a 3x3 grid; the first to hold
three cells in a line (row, column or diagonal) wins; a full grid with no line is a draw.

Cells are numbered 0-8 row by row (cell 4 is the centre).  Seat 0 marks first.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from pydantic import Field

from app.rulesets.base import Event, IllegalMove, MoveModel, Result, Ruleset, Seat, copy_state, place, player

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
CELL_NAMES = ("top left", "top", "top right", "left", "centre", "right", "bottom left", "bottom", "bottom right")


class GridState(TypedDict):
    cells: list[int | None]  # the seat that marked each cell, or None
    turn: int
    winner: int | None


class Mark(MoveModel):
    """Mark one empty cell (0-8)."""

    type: Literal["mark"]
    cell: int = Field(ge=0, le=8)

    def __str__(self) -> str:
        return f"mark the {CELL_NAMES[self.cell]} cell"


class ThreeInARow(Ruleset[GridState]):
    name = "toy-three-in-a-row"
    title = "Three in a row"
    min_players = 2
    max_players = 2
    summary = "Noughts and crosses: three marks in a line win."
    Move = Annotated[Mark, Field(discriminator="type")]

    def setup(self, n_players: int, options, seed: int) -> GridState:
        return {"cells": [None] * 9, "turn": 0, "winner": None}

    def to_act(self, state: GridState) -> set[Seat]:
        return set() if _over(state) else {state["turn"]}

    def legal_moves(self, state: GridState, seat: Seat) -> list[MoveModel]:
        if seat not in self.to_act(state):
            return []
        return [Mark(type="mark", cell=cell) for cell, mark in enumerate(state["cells"]) if mark is None]

    def apply(self, state: GridState, seat: Seat, move: MoveModel) -> tuple[GridState, list[Event]]:
        assert isinstance(move, Mark)
        if seat not in self.to_act(state):
            raise IllegalMove("it is not your turn", code="not_your_turn")
        if state["cells"][move.cell] is not None:
            raise IllegalMove(f"the {CELL_NAMES[move.cell]} cell is marked already")
        new = copy_state(state)
        new["cells"][move.cell] = seat
        if any(all(new["cells"][cell] == seat for cell in line) for line in LINES):
            new["winner"] = seat
        new["turn"] = 1 - seat
        events = [Event(text="{who} marked {cell}", args={"who": player(seat), "cell": place(CELL_NAMES[move.cell], move.cell)})]
        return new, events

    def view(self, state: GridState, seat: Seat | None) -> dict:
        return {"cells": list(state["cells"]), "turn": state["turn"]}

    def result(self, state: GridState) -> Result | None:
        if not _over(state):
            return None
        if state["winner"] is None:
            return Result(scores=[0, 0], ranks=[1, 1], reason="the grid is full with no line")
        scores = [1 if seat == state["winner"] else 0 for seat in range(2)]
        return Result(scores=scores, ranks=[1 if score else 2 for score in scores],
                      reason=f"{{seat{state['winner']}}} has three in a row")


def _over(state: GridState) -> bool:
    return state["winner"] is not None or all(mark is not None for mark in state["cells"])

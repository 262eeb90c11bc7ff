"""``bench-board``: the ruleset of the move-pipeline benchmark (its load shape: ``bench/README.md``).

Two seats, a board of 1000 cells (each empty or the seat that last placed there) and a move
counter.  One move, ``{"type": "place", "cell": k}``; every cell is always legal (overwriting
allowed); the turn passes after every move; the game never ends.

It is a third-party plugin as far as the server is concerned: it imports nothing from the
platform but ``app.rulesets.base`` and is loaded through the setting
``CARAVANSERAI_EXTRA_RULESETS='["bench_board:BenchBoard"]'`` with this directory on
``PYTHONPATH``.  ``listed = False`` keeps it out of the lobby (``GET /api/rulesets``).

Cost notes (the point is to measure the server, not this module):

* ``legal_moves`` returns the 1000 prebuilt, frozen move objects (a list copy, ~5 us); the
  server then turns them into wire form for the ``legal`` field of the frame of the seat to
  act, which is part of the measured load.
* ``apply`` copies the cell list (1000 pointers), never the whole state with ``deepcopy``.
* The view is the whole board: ``{"cells": [null, 0, 1, ...], "moves": n}``, about 5 KB of
  JSON; the frame of the seat to act adds ``legal`` (1000 moves, about 27 KB).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from app.rulesets.base import IllegalMove, MoveModel, NoOptions, Result, Ruleset

CELLS = 1000


class Place(MoveModel):
    """Put the mover's mark on ``cell`` (whatever was there before)."""

    type: Literal["place"]
    cell: int = Field(ge=0, lt=CELLS)

    def __str__(self) -> str:
        return f"place on cell {self.cell}"


_ALL_MOVES: tuple[Place, ...] = tuple(Place(type="place", cell=cell) for cell in range(CELLS))


class BenchBoard(Ruleset):
    """The benchmark board: 2 seats take turns placing on any of 1000 cells, forever."""

    name = "bench-board"
    title = "Benchmark board"
    min_players = 2
    max_players = 2
    listed = False
    Options = NoOptions
    Move = Place

    def setup(self, n_players: int, options: Any, seed: int) -> dict[str, Any]:
        if n_players != 2:
            raise ValueError("bench-board has exactly 2 seats")
        return {"cells": [None] * CELLS, "moves": 0}

    def to_act(self, state: dict[str, Any]) -> set[int]:
        return {state["moves"] % 2}

    def legal_moves(self, state: dict[str, Any], seat: int) -> list[Place]:
        if seat != state["moves"] % 2:
            return []
        return list(_ALL_MOVES)

    def apply(self, state: dict[str, Any], seat: int, move: Place) -> tuple[dict[str, Any], list]:
        if seat != state["moves"] % 2:
            raise IllegalMove("it is not your turn", code="not_your_turn")
        if not 0 <= move.cell < CELLS:
            raise IllegalMove(f"there is no cell {move.cell}")
        cells = list(state["cells"])
        cells[move.cell] = seat
        return {"cells": cells, "moves": state["moves"] + 1}, []

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return {"cells": state["cells"], "moves": state["moves"]}

    def result(self, state: dict[str, Any]) -> Result | None:
        return None

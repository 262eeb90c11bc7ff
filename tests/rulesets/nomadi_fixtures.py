"""Positions for the Nomadi tests, drawn as the spec's §6 sketches and built directly as states.

Sketch legend (Spec §6): ``.`` sand, ``#`` blocked, ``s`` empty start cell, ``g`` empty goal cell,
``W`` an empty water source (our addition), upper-case letters stones on sand (departed), digits
stones on start cells that never left, ``a``-``f`` stones locked on goal cells.  Cells outside the
grid are off the board.  ``chasm`` is the spec's ``chasm_between_rows``: rows ``<= chasm`` are the
far side.

Seats: ``A = 0``, ``B = 1``, ``C = 2``.  Unless ``owners`` says otherwise every stone belongs to
seat 0, the mover.
"""

from __future__ import annotations

import re

import json
from importlib import resources
from typing import Any

from app.rulesets.base import Event
from app.rulesets.nomadi.board import Board, Cell, cell_key
from app.rulesets.nomadi.options import Options
from app.rulesets.nomadi.rules import Nomadi

A, B, C = 0, 1, 2
STANDARD = Nomadi()
SKETCH_LETTERS = {".": ".", "#": "#", "s": "S", "g": "G", "W": "W"}


def spec_positions() -> list[dict[str, Any]]:
    """The spec's §6 move-generator positions (``data/test_positions.json``)."""
    text = resources.files("app.rulesets.nomadi").joinpath("data", "test_positions.json").read_text(encoding="utf-8")
    return json.loads(text)["positions"]


def sketch_letter(symbol: str) -> str:
    if symbol in SKETCH_LETTERS:
        return SKETCH_LETTERS[symbol]
    if symbol.isdigit():
        return "S"
    if symbol in "abcdef":
        return "G"
    if symbol.isupper():
        return "."
    raise ValueError(f"unknown sketch symbol {symbol!r}")


def sketch_board(grid: list[str], chasm: int | None = None, name: str | None = None) -> Board:
    """The board of a sketch: stones are taken off, leaving the cell types underneath."""
    rows = ["".join(sketch_letter(symbol) for symbol in row) for row in grid]
    width = len(rows[0])
    label = name or "sketch:" + "/".join(grid) + (f"|{chasm}" if chasm is not None else "")
    return Board(label, rows, chasm=[chasm] * width if chasm is not None else None)


def sketch_stones(grid: list[str]) -> dict[str, Cell]:
    """Stone label -> cell, for every stone symbol of a sketch."""
    return {
        symbol: (r, c)
        for r, row in enumerate(grid)
        for c, symbol in enumerate(row)
        if symbol.isdigit() or symbol in "abcdef" or (symbol.isupper() and symbol != "W")
    }


def position(
    grid: list[str],
    dice: tuple[int, ...] = (1,),
    chasm: int | None = None,
    owners: dict[str, int] | None = None,
    cards: dict[Cell, int] | None = None,
    coins: list[int] | None = None,
    n_players: int = 2,
    current: int = A,
    history: list[list[Any]] | None = None,
    options: dict | None = None,
    **flags: Any,
) -> tuple[Nomadi, dict, dict[str, int]]:
    """A ruleset for the sketch's board, a state in the middle of ``current``'s turn with ``dice``
    rolled (none used), and stone label -> stone id.

    ``cards`` maps a cell to a face-down card's value (ids ``card-01``.. in reading order);
    ``flags`` override state keys such as ``crossed`` or ``arrivals``.  By default the flags
    agree with the drawing: ``crossed`` if a stone stands beyond the chasm, ``all_crossed`` if all
    do, ``start_emptied`` if no stone stands on a start cell.
    """
    board = sketch_board(grid, chasm)
    ruleset = Nomadi(board)
    state = STANDARD.setup(n_players, Options(**(options or {})), seed=11)
    labels = sketch_stones(grid)
    owners = owners or {}
    stones, ids = [], {}
    for label, cell in sorted(labels.items(), key=lambda item: item[1]):
        ids[label] = len(stones)
        stones.append({
            "owner": owners.get(label, A),
            "cell": list(cell),
            "departed": label.isupper(),
            "locked": label in "abcdef",
        })
    far = [board.far_side(tuple(stone["cell"])) for stone in stones]
    state.update({
        # flags that agree with the drawing: a stone beyond the chasm has crossed it, an empty
        # start has been left (override them through ``flags``)
        "crossed": any(far),
        "all_crossed": all(far),
        "start_emptied": not any(tuple(stone["cell"]) in board.start_set for stone in stones),
        "board": board.name,
        "phase": "move",
        "current": current,
        "turn": 1,
        "oasis": None,
        "stones": stones,
        "cards": {
            cell_key(cell): {"id": f"card-{number:02d}", "value": value}
            for number, (cell, value) in enumerate(sorted((cards or {}).items()), 1)
        },
        "card_pool": [],
        "coins": list(coins) if coins is not None else [5] * n_players,
        "dice": list(dice),
        "used": [False] * len(dice),
        "history": history or [],
        **flags,
    })
    return ruleset, state, ids


def worded(event: Event) -> str:
    """An event's template with its amounts and words filled in, players and cells left as
    placeholders (``"{seat0} moves a stone from {origin} to {landing} with a 2"``): the
    numbers a test states, in a line whose players and places it names by placeholder."""
    def fill(match: re.Match) -> str:
        arg = event.args.get(match.group(1))
        return str(arg["text"]) if arg is not None and arg.get("kind") not in ("player", "place") else match.group(0)

    return PLACEHOLDER.sub(fill, event.text)


PLACEHOLDER = re.compile(r"\{(\w+)\}")


def texts(events: list[Event], seat: int | None = None) -> list[str]:
    """The texts of the events a viewer at ``seat`` (``None``: everyone) may read (:func:`worded`)."""
    return [worded(event) for event in events if seat is None or event.visible_to(seat)]


def public(events: list[Event]) -> list[str]:
    """The texts of the public events (:func:`worded`)."""
    return [worded(event) for event in events if event.seats is None]

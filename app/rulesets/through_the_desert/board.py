"""Hex geometry and the Through the Desert board: where spaces are, nothing about the rules.

Coordinates are axial ``(q, r)`` on pointy-top hexes (Spec §2.2).  Inside game states a hex is
written as the string key ``"q,r"`` (JSON objects need string keys), so this module also owns
the conversion between the two forms.

* :class:`Board` is a physical board: its playable spaces, mountains, palm and well spaces and,
  optionally, the smaller 2-3-player area behind the thick line (Spec §2.3, S-1).
* :class:`PlayArea` is the part of a board in use for one game, with neighbour lists that
  already leave out every wall (mountains, off-board hexes, the strip beyond the thick line;
  Spec E-9), ready for the rules to walk.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from importlib import resources
from typing import Any

Hex = tuple[int, int]

NEIGHBOUR_OFFSETS: tuple[Hex, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
"""Spec §2.2: the six axial neighbour offsets."""


def hex_key(hex_: Iterable[int]) -> str:
    """The state key of a hex: ``(3, -1) -> "3,-1"``."""
    q, r = hex_
    return f"{q},{r}"


def parse_key(key: str) -> Hex:
    """The hex of a state key: ``"3,-1" -> (3, -1)``; raises ``ValueError`` for a malformed key."""
    q, r = key.split(",")
    return int(q), int(r)


ROW_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
"""Row names, without I and O (read as 1 and 0), as on a Go board."""


def show(key: str) -> str:
    """A hex as players name it, by the labels the board shows along its edges: the row's letter
    (row ``r = 0`` is A) and the hex's number within the offset column grid (``q + r // 2 + 1``,
    the numbers along the top edge): ``"3,0" -> "A4"``, ``"-2,11" -> "M4"``.  A hex outside the rows or left of column 1 (test boards only) reads
    ``"row -2, hex 0"``.  The client draws the same labels (``renderers/through-the-desert.js``)."""
    q, r = parse_key(key)
    column = q + r // 2 + 1
    if 0 <= r < len(ROW_LETTERS) and column >= 1:
        return f"{ROW_LETTERS[r]}{column}"
    return f"row {r}, hex {column}"


def _pairs(hexes: Iterable[Sequence[int]]) -> list[Hex]:
    """Hexes given as ``(q, r)`` tuples or as ``[q, r]`` lists (from JSON), as tuples."""
    return [(q, r) for q, r in hexes]


def neighbours(hex_: Hex) -> list[Hex]:
    """The six hexes around ``hex_`` (walls included; a :class:`PlayArea` filters them)."""
    q, r = hex_
    return [(q + dq, r + dr) for dq, dr in NEIGHBOUR_OFFSETS]


class PlayArea:
    """The spaces of a board in use for one game, with their neighbours (walls left out).

    Attributes (keys are ``"q,r"`` strings, sequences are in reading order: by row, then q):

    * ``spaces``: tuple of every space in use; ``space_set`` the same as a frozenset;
    * ``index``: key -> position in ``spaces`` (use it to sort keys deterministically);
    * ``neighbours``: key -> tuple of the neighbouring *spaces* (Spec E-1: walls connect nothing);
    * ``palm_spaces``, ``well_spaces``: printed palm and well spaces in use;
    * ``mountains``: the board's mountain hexes (walls, drawn by the client);
    * ``small_area``: whether this is the 2-3-player area (Spec S-1);
    * ``coords``: key -> ``(q, r)``.
    """

    def __init__(
        self,
        spaces: Iterable[Hex],
        mountains: Iterable[Hex],
        palm_spaces: Iterable[Hex],
        well_spaces: Iterable[Hex],
        small_area: bool,
    ) -> None:
        ordered = sorted(set(spaces), key=lambda h: (h[1], h[0]))
        self.spaces: tuple[str, ...] = tuple(hex_key(h) for h in ordered)
        self.space_set: frozenset[str] = frozenset(self.spaces)
        self.index: dict[str, int] = {key: i for i, key in enumerate(self.spaces)}
        self.coords: dict[str, Hex] = {hex_key(h): h for h in ordered}
        self.neighbours: dict[str, tuple[str, ...]] = {
            hex_key(h): tuple(k for k in map(hex_key, neighbours(h)) if k in self.space_set) for h in ordered
        }
        self.palm_spaces: tuple[str, ...] = self.sort(k for k in map(hex_key, palm_spaces) if k in self.space_set)
        self.well_spaces: tuple[str, ...] = self.sort(k for k in map(hex_key, well_spaces) if k in self.space_set)
        self.mountains: tuple[Hex, ...] = tuple(sorted(set(mountains), key=lambda h: (h[1], h[0])))
        self.small_area = small_area

    def sort(self, keys: Iterable[str]) -> tuple[str, ...]:
        """``keys`` (spaces in use) in reading order."""
        return tuple(sorted(keys, key=self.index.__getitem__))


class Board:
    """A physical board: playable spaces, mountains, palm spaces, well spaces, 2-3-player area.

    ``spaces`` are every playable hex of the full board (palm and well spaces included, mountains
    excluded).  ``small_area`` is the subset used with 2-3 players, or ``None`` when the board has
    no thick line (then every player count uses all of it).  Raises ``ValueError`` when a palm,
    well or small-area hex is not a space, or a mountain is.
    """

    def __init__(
        self,
        name: str,
        spaces: Iterable[Hex],
        mountains: Iterable[Hex] = (),
        palm_spaces: Iterable[Hex] = (),
        well_spaces: Iterable[Hex] = (),
        small_area: Iterable[Hex] | None = None,
    ) -> None:
        self.name = name
        self.spaces = frozenset(_pairs(spaces))
        self.mountains = frozenset(_pairs(mountains))
        self.palm_spaces = tuple(_pairs(palm_spaces))
        self.well_spaces = tuple(_pairs(well_spaces))
        self.small_area = None if small_area is None else frozenset(_pairs(small_area))
        if self.mountains & self.spaces:
            raise ValueError("a mountain cannot be a space")
        for label, hexes in (("palm", self.palm_spaces), ("well", self.well_spaces), ("small-area", self.small_area or ())):
            stray = [h for h in hexes if h not in self.spaces]
            if stray:
                raise ValueError(f"{label} hexes {stray} are not spaces of the board")
        self._areas: dict[bool, PlayArea] = {}

    def in_use(self, n_players: int) -> PlayArea:
        """Spec S-1: the area in use for ``n_players`` (the small area with 2-3 players, if any)."""
        small_area = self.small_area if n_players <= 3 else None
        small = small_area is not None
        if small not in self._areas:
            spaces = small_area if small_area is not None else self.spaces
            self._areas[small] = PlayArea(spaces, self.mountains, self.palm_spaces, self.well_spaces, small)
        return self._areas[small]

    # -- constructors --------------------------------------------------------------------------

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> "Board":
        """A board from the JSON shape of ``data/board.json`` (Spec §2.3: rows with
        ``q_min``/``q_max``/``small_q_max``, ``mountains``, ``palm_spaces``, ``well_spaces``)."""
        mountains = {tuple(h) for h in data["mountains"]}
        spaces, small = [], []
        for row in data["rows"]:
            r = row["r"]
            for q in range(row["q_min"], row["q_max"] + 1):
                if (q, r) in mountains:
                    continue
                spaces.append((q, r))
                if "small_q_max" in row and q <= row["small_q_max"]:
                    small.append((q, r))
        has_small_area = any("small_q_max" in row for row in data["rows"])
        return cls(
            name=data["name"],
            spaces=spaces,
            mountains=mountains,
            palm_spaces=[(p["q"], p["r"]) for p in data.get("palm_spaces", [])],
            well_spaces=[(w["q"], w["r"]) for w in data.get("well_spaces", [])],
            small_area=small if has_small_area else None,
        )

    @classmethod
    def standard(cls) -> "Board":
        """Spec §2.3: our own board "ttd-own-board-v1", loaded from the package data."""
        text = resources.files(__package__).joinpath("data", "board.json").read_text(encoding="utf-8")
        return cls.from_data(json.loads(text))

    @classmethod
    def hexagon(
        cls,
        radius: int,
        mountains: Iterable[Hex] = (),
        palm_spaces: Iterable[Hex] = (),
        well_spaces: Iterable[Hex] = (),
        name: str | None = None,
    ) -> "Board":
        """A hexagon of every ``(q, r)`` with ``max(|q|, |r|, |q + r|) <= radius``, minus ``mountains``
        (Spec §5's radius-3 test board has 37 spaces).  No small area."""
        mountains = set(_pairs(mountains))
        spaces = [
            (q, r)
            for q in range(-radius, radius + 1)
            for r in range(-radius, radius + 1)
            if max(abs(q), abs(r), abs(q + r)) <= radius and (q, r) not in mountains
        ]
        return cls(name or f"hexagon-{radius}", spaces, mountains, palm_spaces, well_spaces)

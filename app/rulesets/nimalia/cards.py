"""The 60 animal cards of Nimalia and how a card turns (Spec §1.2 - §1.5); no rules here.

A card is a 2x2 square of *spaces*, listed top-left, top-right, bottom-left, bottom-right
(``TL, TR, BL, BR``).  Every space holds one animal on one terrain; an otter space also carries a
river along one diagonal.  A space is written as in the spec's card table: ``Fl`` flamingo,
``Cr`` crocodile, ``Li`` lion, ``Gi`` giraffe, ``Pa`` panda, ``Go`` gorilla, ``Be`` polar bear,
``Pe`` penguin, and ``O`` + terrain letter (``j`` jungle, ``s`` savannah, ``n`` snow) + river
diagonal (``/`` bottom-left to top-right, ``\\`` top-left to bottom-right) for an otter.

On the wire and in views a card is named by its token ``"nimalia-card-07"``: zero-padded, so no
card's token is part of another's (``nimalia-card-1`` would be inside ``nimalia-card-17``).
"""

from __future__ import annotations

import csv
import functools
import io
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Literal

WATER, SAVANNAH, JUNGLE, SNOW = "water", "savannah", "jungle", "snow"
TERRAINS: tuple[str, ...] = (WATER, SAVANNAH, JUNGLE, SNOW)
"""Spec §1.2: the four terrains."""

OTTER = "otter"
ANIMAL_TERRAIN: dict[str, str] = {
    "flamingo": WATER, "crocodile": WATER,
    "lion": SAVANNAH, "giraffe": SAVANNAH,
    "panda": JUNGLE, "gorilla": JUNGLE,
    "polar bear": SNOW, "penguin": SNOW,
}
"""Spec §1.2: the eight animals tied to a terrain (the otter's terrain is printed on its space)."""

ANIMAL_CODES: dict[str, str] = {
    "Fl": "flamingo", "Cr": "crocodile", "Li": "lion", "Gi": "giraffe",
    "Pa": "panda", "Go": "gorilla", "Be": "polar bear", "Pe": "penguin",
}
OTTER_TERRAIN_CODES: dict[str, str] = {"j": JUNGLE, "s": SAVANNAH, "n": SNOW}
_CODE_OF_ANIMAL = {animal: code for code, animal in ANIMAL_CODES.items()}
_LETTER_OF_TERRAIN = {terrain: letter for letter, terrain in OTTER_TERRAIN_CODES.items()}

QUADRANTS: tuple[str, ...] = ("TL", "TR", "BL", "BR")
Rotation = Literal[0, 90, 180, 270]
ROTATIONS: tuple[Rotation, ...] = (0, 90, 180, 270)
"""Spec §1.4: the four orientations, clockwise; cards are never flipped."""

TOKEN_PREFIX = "nimalia-card-"
_TOKEN = re.compile(r"^nimalia-card-(\d\d)$")


@dataclass(frozen=True)
class Space:
    """One visible space: its animal, its terrain and, on an otter, its river diagonal (``/`` or
    ``\\`` in board orientation; ``None`` elsewhere).  ``card`` is the number of its card."""

    animal: str
    terrain: str
    river: str | None = None
    card: int = 0

    @property
    def code(self) -> str:
        """The space written as in the spec (``"Fl"``, ``"Oj/"``)."""
        if self.animal == OTTER:
            return f"O{_LETTER_OF_TERRAIN[self.terrain]}{self.river}"
        return _CODE_OF_ANIMAL[self.animal]  # every view names every space by it: a lookup, not a search


def parse_space(code: str, card: int = 0) -> Space:
    """``"Fl"`` or ``"Oj\\"`` -> :class:`Space`; raises ``ValueError`` for anything else."""
    if code in ANIMAL_CODES:
        animal = ANIMAL_CODES[code]
        return Space(animal, ANIMAL_TERRAIN[animal], None, card)
    if len(code) == 3 and code[0] == "O" and code[1] in OTTER_TERRAIN_CODES and code[2] in "/\\":
        return Space(OTTER, OTTER_TERRAIN_CODES[code[1]], code[2], card)
    raise ValueError(f"not a Nimalia space: {code!r}")


@dataclass(frozen=True)
class Card:
    """One animal card: its number (1-60, the spec's id) and its spaces at rotation 0."""

    number: int
    spaces: tuple[Space, Space, Space, Space]
    _turned: dict[int, tuple[Space, Space, Space, Space]] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    """The turned spaces by rotation, filled on first use (bots lay cards very often)."""

    @property
    def token(self) -> str:
        return card_token(self.number)

    def turned(self, rotation: int) -> tuple[Space, Space, Space, Space]:
        """Spec §1.4: the spaces ``[TL, TR, BL, BR]`` after turning the card ``rotation`` degrees clockwise.

        Each quarter turn moves the spaces round and swaps every river diagonal (``/`` <-> ``\\``).
        """
        spaces = self._turned.get(rotation)
        if spaces is None:
            spaces = self._turned[rotation] = _turn(self.spaces, rotation)
        return spaces

    def codes(self, rotation: int = 0) -> list[str]:
        """The four spaces as spec codes after ``rotation``, e.g. ``["Cr", "Li", "Pa", "Oj\\\\"]``."""
        return [space.code for space in self.turned(rotation)]


def _turn(spaces: tuple[Space, Space, Space, Space], rotation: int) -> tuple[Space, Space, Space, Space]:
    if rotation not in ROTATIONS:
        raise ValueError(f"rotation must be one of {ROTATIONS}, not {rotation}")
    for _ in range(rotation // 90):
        top_left, top_right, bottom_left, bottom_right = spaces
        # Spec §1.4: a quarter turn clockwise puts the old [BL, TL, BR, TR] at [TL, TR, BL, BR]
        spaces = (_swap_river(bottom_left), _swap_river(top_left), _swap_river(bottom_right), _swap_river(top_right))
    return spaces


def _swap_river(space: Space) -> Space:
    if space.river is None:
        return space
    return Space(space.animal, space.terrain, "\\" if space.river == "/" else "/", space.card)


def card_token(number: int) -> str:
    """The wire name of card ``number``: ``7 -> "nimalia-card-07"``."""
    return f"{TOKEN_PREFIX}{number:02d}"


def card_number(token: str) -> int | None:
    """``"nimalia-card-07" -> 7``; ``None`` when ``token`` names no card of the deck."""
    match = _TOKEN.match(token)
    if not match or not 1 <= int(match.group(1)) <= len(deck()):
        return None
    return int(match.group(1))


@functools.cache
def deck() -> dict[int, Card]:
    """Spec §1.5: the 60 cards by number, read from the package data ``data/cards.csv``."""
    text = resources.files(__package__).joinpath("data", "cards.csv").read_text(encoding="utf-8")
    cards = {}
    for row in csv.DictReader(io.StringIO(text)):
        number = int(row["id"])
        top_left, top_right, bottom_left, bottom_right = (parse_space(row[quadrant], number) for quadrant in QUADRANTS)
        cards[number] = Card(number, (top_left, top_right, bottom_left, bottom_right))
    return cards

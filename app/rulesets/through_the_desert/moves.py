"""The moves of Through the Desert: small frozen values with a readable text form.

Wire shapes (the browser client sends them as they are)::

    {"type": "palm", "hex": [q, r]}                       # S-5, only with palm_placement="choose"
    {"type": "return_leader", "colour": "pink"}           # S-3, 5 players, leader_return="choose"
    {"type": "leader", "colour": "pink", "hex": [q, r]}   # L-1 .. L-5
    {"type": "camel", "colour": "pink", "hex": [q, r]}    # T-2, P-1 .. P-7, one camel per move
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.rulesets.base import MoveModel
from app.rulesets.through_the_desert.board import hex_key, show

Colour = Literal["pink", "green", "yellow", "purple", "turquoise"]
COLOURS: tuple[Colour, ...] = ("pink", "green", "yellow", "purple", "turquoise")
"""The five pastel camel colours (Spec S-2), in the order views and scores list them."""


def _at(hex_: tuple[int, int]) -> str:
    """A hex as the board labels it (``board.show``): ``(2, 2) -> "C4"``."""
    return show(hex_key(hex_))


class Palm(MoveModel):
    """Spec S-5 (option ``palm_placement="choose"``): put a palm tree on a free palm space."""

    type: Literal["palm"] = "palm"
    hex: tuple[int, int]

    def __str__(self) -> str:
        return f"palm tree on {_at(self.hex)}"


class ReturnLeader(MoveModel):
    """Spec S-3 (5 players, option ``leader_return="choose"``): give back one leader of a colour
    nobody has returned yet."""

    type: Literal["return_leader"] = "return_leader"
    colour: Colour

    def __str__(self) -> str:
        return f"return the {self.colour} leader"


class Leader(MoveModel):
    """Spec L-1: place one caravan leader of ``colour`` on ``hex``."""

    type: Literal["leader"] = "leader"
    colour: Colour
    hex: tuple[int, int]

    def __str__(self) -> str:
        return f"{self.colour} leader on {_at(self.hex)}"


class Camel(MoveModel):
    """Spec T-2: take one camel of ``colour`` from its pile and place it on ``hex``."""

    type: Literal["camel"] = "camel"
    colour: Colour
    hex: tuple[int, int]

    def __str__(self) -> str:
        return f"{self.colour} camel on {_at(self.hex)}"


AnyMove = Palm | ReturnLeader | Leader | Camel
"""The union of the game's move models (``Move`` is it with pydantic's discriminator): the
ruleset's move type parameter (``Ruleset[State, Options, AnyMove]``)."""
Move = Annotated[AnyMove, Field(discriminator="type")]

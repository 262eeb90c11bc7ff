"""The moves of Nomadi: small frozen values with a readable text form.

Wire shapes (the browser client sends them as they are; cells are ``[row, col]``)::

    {"type": "place_card", "cell": [r, c]}          # house rule: a player lays a random card (R-42)
    {"type": "place", "cell": [r, c]}               # placement phase: one own stone (R-10)
    {"type": "roll"}                                # roll the six dice (R-13, R-14)
    {"type": "move", "die": 3, "stone": [r, c], "to": [r, c]}   # use one die on one stone (R-15)
    {"type": "end_turn"}                            # house rule: voluntary pass (R-42)
    {"type": "offer", "claim": 2, "price": 0}       # the mover offers an inspected card (R-30b, R-41b)
    {"type": "accept"} / {"type": "decline"}        # the stone's owner answers (R-30b)
    {"type": "gift", "to": 1, "coins": 3}           # trading variant: a coin gift (R-41a)

A die is named by its value: dice showing the same number are interchangeable.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.rulesets.base import MoveModel
from app.rulesets.nomadi.board import show

CardValue = Literal[-2, -1, 1, 2, 3]
CLAIMS: tuple[int | None, ...] = (None, -2, -1, 1, 2, 3)
"""R-30b: a claim is "no claim" or one of the values a desert card can have (true or not)."""


def signed(value: int) -> str:
    """A card value as printed on the card: ``+3``, ``-2``."""
    return f"{value:+d}"


class PlaceCard(MoveModel):
    """Spec R-42 (house rule ``card_placement="players"``): lay the next face-down card on sand."""

    type: Literal["place_card"] = "place_card"
    cell: tuple[int, int]

    def __str__(self) -> str:
        return f"card on {show(self.cell)}"


class PlaceStone(MoveModel):
    """Spec R-10: put one of your own stones on an empty start cell."""

    type: Literal["place"] = "place"
    cell: tuple[int, int]

    def __str__(self) -> str:
        return f"stone on {show(self.cell)}"


class Roll(MoveModel):
    """Spec R-13: roll the six dice (R-14: rerolled for free while none of them can be used)."""

    type: Literal["roll"] = "roll"

    def __str__(self) -> str:
        return "roll the dice"


class UseDie(MoveModel):
    """Spec R-15: use one unused die of value ``die`` to move the stone on ``stone`` to ``to``."""

    type: Literal["move"] = "move"
    die: int = Field(ge=1, le=6)
    stone: tuple[int, int]
    to: tuple[int, int]

    def __str__(self) -> str:
        return f"{self.die}: {show(self.stone)} -> {show(self.to)}"


class EndTurn(MoveModel):
    """Spec R-42 (house rule ``voluntary_pass``): end the turn early, paying 1 per unused die."""

    type: Literal["end_turn"] = "end_turn"

    def __str__(self) -> str:
        return "end the turn"


class Offer(MoveModel):
    """Spec R-30b: offer the inspected card with an optional claim (true or not) and, in the
    trading variant, an asking price (R-41b)."""

    type: Literal["offer"] = "offer"
    claim: CardValue | None = None
    price: int = Field(0, ge=0)

    def __str__(self) -> str:
        claim = "no claim" if self.claim is None else f"claim {signed(self.claim)}"
        return f"offer the card ({claim}{f', asking {self.price}' if self.price else ''})"


class Accept(MoveModel):
    """Spec R-30b: the stone's owner takes the offered card (and pays any asking price, R-41b)."""

    type: Literal["accept"] = "accept"

    def __str__(self) -> str:
        return "accept the card"


class Decline(MoveModel):
    """Spec R-30b: the stone's owner refuses; the mover keeps the card."""

    type: Literal["decline"] = "decline"

    def __str__(self) -> str:
        return "decline the card"


class Gift(MoveModel):
    """Spec R-41a (trading variant): give ``coins`` to seat ``to`` from a balance that stays >= 0."""

    type: Literal["gift"] = "gift"
    to: int = Field(ge=0, le=4)
    coins: int = Field(ge=1)

    def __str__(self) -> str:
        return f"give {self.coins} coin{'s' if self.coins != 1 else ''} to seat {self.to + 1}"


AnyMove = (
    PlaceCard | PlaceStone | Roll | UseDie | EndTurn | Offer | Accept | Decline | Gift
)
"""The union of the game's move models (``Move`` is it with pydantic's discriminator): the
ruleset's move type parameter (``Ruleset[State, Options, AnyMove]``)."""
Move = Annotated[AnyMove, Field(discriminator="type")]

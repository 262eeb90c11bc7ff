"""The one move of Nimalia: choose a card of your hand and place it (Spec D2 - D4, P1 - P6).

Wire shape (the browser client sends it as it is)::

    {"type": "place", "card": "nimalia-card-17", "rotation": 90, "at": [row, col]}

``rotation`` turns the card clockwise before it is laid; ``at`` is the reserve position of the
card's top-left space after turning (positions are counted from the player's first card, which
always lies at ``[0, 0]``).  Choosing and placing are one act: the spec has each player choose a
card and place it, and all placements of a step are revealed together.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from app.rulesets.base import MoveModel
from app.rulesets.nimalia.cards import card_number

CardToken = Annotated[str, StringConstraints(pattern=r"^nimalia-card-\d\d$")]


class Place(MoveModel):
    """Spec D2: put ``card`` from your hand on your reserve, turned ``rotation`` degrees, at ``at``."""

    type: Literal["place"] = "place"
    card: CardToken
    rotation: Literal[0, 90, 180, 270]
    at: tuple[int, int]

    @property
    def number(self) -> int | None:
        return card_number(self.card)

    def __str__(self) -> str:
        return f"card {self.number} turned {self.rotation}° at {list(self.at)}"


AnyMove = Place
"""The union of the game's move models (``Move`` is it with pydantic's discriminator): the
ruleset's move type parameter (``Ruleset[State, Options, AnyMove]``)."""
Move = Annotated[AnyMove, Field(discriminator="type")]

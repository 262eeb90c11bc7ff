"""The table options of Nomadi (every one has a default: the base game)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_ASKING_PRICE = 9
"""R-41b [D]: an asking price is 0 to 9 coins (legal moves must be a finite list)."""


class Options(BaseModel):
    """Host choices for one table; unknown keys are rejected."""

    model_config = ConfigDict(extra="forbid")

    # Spec R-40
    short_game: bool = Field(
        False,
        description="The movable oasis. One 3x3 spot beyond the chasm, drawn at random, is the goal.",
    )
    # Spec R-41
    trading: bool = Field(
        False,
        description="Coin gifts between players and an asking price on offered cards; no debt from either.",
    )
    # Spec R-39
    hidden_coins: bool = Field(
        False,
        description="Each player sees only their own coin balance until the game ends.",
    )
    # Spec R-9
    first_player: Literal["random", "host"] = Field(
        "random",
        description="The starting player is drawn at random, or the host (seat 1) begins.",
    )
    # Spec R-42 house rule
    voluntary_pass: bool = Field(
        False,
        description="A player may end the turn early, paying 1 coin per unused die.",
    )
    # Spec
    card_placement: Literal["random", "players"] = Field(
        "random",
        description="The cards not on water sources go on random sand, or players lay them face down in turn.",
    )
    # Spec A-30 [D]
    turn_limit: int = Field(
        150,
        ge=10,
        le=1000,
        description="After this many dice turns the game ends and is scored (a safeguard against stalling).",
    )

"""The table options of Nomadi (every one has a default: the base game)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_ASKING_PRICE = 9
"""R-41b [D]: an asking price is 0 to 9 coins (legal moves must be a finite list)."""


class Options(BaseModel):
    """Host choices for one table; unknown keys are rejected."""

    model_config = ConfigDict(extra="forbid")

    short_game: bool = Field(
        False,
        description="Spec R-40: the movable oasis. One 3x3 spot beyond the chasm, drawn at random, is the goal.",
    )
    trading: bool = Field(
        False,
        description="Spec R-41: coin gifts between players and an asking price on offered cards; no debt from either.",
    )
    hidden_coins: bool = Field(
        False,
        description="Spec R-39: each player sees only their own coin balance until the game ends.",
    )
    first_player: Literal["random", "host"] = Field(
        "random",
        description="Spec R-9: the starting player is drawn at random, or the host (seat 1) begins.",
    )
    voluntary_pass: bool = Field(
        False,
        description="Spec R-42 house rule: a player may end the turn early, paying 1 coin per unused die.",
    )
    card_placement: Literal["random", "players"] = Field(
        "random",
        description="Spec R-8/R-42: the cards not on water sources go on random sand, or players lay them face down in turn.",
    )
    turn_limit: int = Field(
        150,
        ge=10,
        le=1000,
        description="Spec §5 #30 [D]: after this many dice turns the game ends and is scored (a safeguard against stalling).",
    )

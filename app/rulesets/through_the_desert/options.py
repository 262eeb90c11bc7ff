"""The table options of Through the Desert (every one has a default)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Options(BaseModel):
    """Host choices for one table; unknown keys are rejected."""

    model_config = ConfigDict(extra="forbid")

    end_trigger: Literal["end_of_turn", "immediate"] = Field(
        "end_of_turn",
        description="Spec G-2/G-3: when a pile runs out, finish the turn (seed rulebook) or end at once (Z-Man).",
    )
    piles: Literal["classic", "zman"] = Field(
        "classic",
        description="Spec §1.2: camels per pile, classic 22/26/30/29 or Z-Man 20/25/30/30 for 2/3/4/5 players.",
    )
    hide_well_values: bool = Field(
        True,
        description="Spec W-2: taken wells are face down; others see how many, not their values, until the end.",
    )
    palm_placement: Literal["random", "choose"] = Field(
        "random",
        description="Spec S-5: the server places the 5 palm trees at random, or the players take turns choosing.",
    )
    first_player: Literal["random", "host"] = Field(
        "random",
        description="Spec S-7 [D]: the start player is drawn at random, or the host (seat 1) begins.",
    )
    leader_return: Literal["choose", "random"] = Field(
        "choose",
        description="Spec S-3 (5 players): each player chooses the leader colour to return, or it is dealt at random.",
    )


PILE_SIZES: dict[str, dict[int, int]] = {
    "classic": {2: 22, 3: 26, 4: 30, 5: 29},
    "zman": {2: 20, 3: 25, 4: 30, 5: 30},
}
"""Spec §1.2: camels in each colour's pile by preset and player count."""

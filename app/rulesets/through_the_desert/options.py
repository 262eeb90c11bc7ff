"""The table options of Through the Desert (every one has a default)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Options(BaseModel):
    """Host choices for one table; unknown keys are rejected."""

    model_config = ConfigDict(extra="forbid")

    # Spec G-2/G-3
    end_trigger: Literal["end_of_turn", "immediate"] = Field(
        "end_of_turn",
        description="When a pile runs out, finish the turn (as in the original rulebook) or end at once (as in the Z-Man edition).",
    )
    # Spec §1.2
    piles: Literal["classic", "zman"] = Field(
        "classic",
        description="Camels per pile, classic 22/26/30/29 or Z-Man 20/25/30/30 for 2/3/4/5 players.",
    )
    # Spec W-2
    hide_well_values: bool = Field(
        True,
        description="Taken wells are face down; others see how many, not their values, until the end.",
    )
    # Spec S-5
    palm_placement: Literal["random", "choose"] = Field(
        "random",
        description="The server places the 5 palm trees at random, or the players take turns choosing.",
    )
    # Spec S-7 [D]
    first_player: Literal["random", "host"] = Field(
        "random",
        description="The start player is drawn at random, or the host (seat 1) begins.",
    )
    # Spec S-3 (5 players)
    leader_return: Literal["choose", "random"] = Field(
        "choose",
        description="With 5 players: each player chooses the leader colour to return, or it is dealt at random.",
    )


PILE_SIZES: dict[str, dict[int, int]] = {
    "classic": {2: 22, 3: 26, 4: 30, 5: 29},
    "zman": {2: 20, 3: 25, 4: 30, 5: 30},
}
"""Spec §1.2: camels in each colour's pile by preset and player count."""

"""The table options of Nimalia (Spec §2.4, ruling D-5); every one has a default."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

GoalLevel = Literal["all", "easy", "difficult"]
"""Spec §2.4, D-5: which objective faces a table draws from."""

LEVELS: dict[GoalLevel, frozenset[str]] = {
    "all": frozenset({"E", "M", "D"}),
    "easy": frozenset({"E", "M"}),
    "difficult": frozenset({"M", "D"}),
}
"""Spec §2.4: the objective levels each goal level draws from (BGA's "Goals level")."""

FIRST_GAME_SET: dict[str, int] = {"blue": 5, "green": 19, "yellow": 4, "red": 16}
"""Spec D-5: the fixed first-game set, the faces with the small "1" badge."""


class Options(BaseModel):
    """Host choices for one table; unknown keys are rejected."""

    model_config = ConfigDict(extra="forbid")

    # Spec D-5
    goal_level: GoalLevel = Field(
        "all",
        description="Draw the 4 objectives from all faces, easy ones only (easy and medium) "
        "or difficult ones only (medium and difficult).",
    )
    # Spec D-5
    first_game: bool = Field(
        False,
        description="Play the four objectives the rulebook suggests for a first game (the goal level is then not used).",
    )

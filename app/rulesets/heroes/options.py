"""The table options of Heroes (docs/heroes.md, "Options"); every one has a default."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Options(BaseModel):
    """Host choices for one table; unknown keys are rejected."""

    model_config = ConfigDict(extra="forbid")

    # Spec 3, NS0-1 (one variant, not both)
    nomads: Literal["wandering", "mercenary", "none"] = Field(
        "wandering",
        description=(
            "\"wandering\": a Nomad placed each round, captured "
            "Nomads as workers; \"mercenary\": the Nomad Mercenary card (3 Nomad figures, 3 Ore + 3 Mana + "
            "3 Food) can be recruited, no Nomad on the board; the generic mercenary cards of the "
            "Mercenaries expansion are not public, so the supply holds only the Nomad Mercenary."
        ),
    )
    round_limit: int = Field(
        12,
        ge=4,
        le=30,
        description="Our safeguard: the game also ends after this round, without the finish-the-round rule.",
    )
    # Spec 1.5
    first_player: Literal["random", "host"] = Field(
        "random",
        description="Who holds the first-player token in round 1 (drawn at random, or the host).",
    )

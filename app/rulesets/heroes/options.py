"""The table options of Heroes (docs/heroes.md, "Options"); every one has a default.

``edition`` is ``"full"`` for a new table: all nine Action Bar slots, spells, vessels, three
Heroes per faction, faction abilities and exploration tokens, with house values where the
printed ones are not public.  ``"core"`` is the reduced game played before the full edition
existed (five slots, one generic Hero, no spells, vessels or tokens).  A table stored before the
option existed has the three other options and no ``edition``: it is a core game
(:data:`LEGACY_KEYS`, ``Heroes.parse_options``), so its moves replay exactly as they were played.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


LEGACY_KEYS = frozenset({"nomads", "round_limit", "first_player"})
"""The keys of every Heroes table stored before ``edition`` existed (the platform stores the
options' full dump): such options without ``edition`` are a core game."""


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
    edition: Literal["full", "core"] = Field(
        "full",
        description=(
            "\"full\": every Action Bar slot (Research/Scribe, Cast, Sail and Fly too), spells, vessels, "
            "three Heroes per faction with abilities, faction abilities and exploration tokens; house "
            "edition: the printed cards' values are not public, ours are balanced by bots. \"core\": the "
            "reduced game of five slots and one generic Hero (games stored before the full edition are core)."
        ),
    )

"""The table options of Heroes (docs/heroes.md, "Options"); every one has a default.

``edition`` is ``"full"`` for a new table: all nine Action Bar slots, spells, vessels, three
Heroes per faction, faction abilities and exploration tokens, with house values where the
printed ones are not public.  ``"core"`` is the reduced game played before the full edition
existed (five slots, one generic Hero, no spells, vessels or tokens).  A table stored before the
option existed has the three other options and no ``edition``: it is a core game
(:data:`LEGACY_KEYS`, ``Heroes.parse_options``), so its moves replay exactly as they were played.

``house_revision`` fixes which revision of the full edition's house data a game plays
(``catalogue.py``): a new table gets the newest (:func:`parse` with ``new_table``); a full-edition table
stored before the option existed has the four other options and no ``house_revision``: it plays
revision 1 (:data:`FULL_KEYS`).  Hosts do not choose it: it is left out of the options' JSON
schema, so the lobby's form does not show it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.json_schema import SkipJsonSchema

from app.rulesets.heroes.catalogue import NEWEST, REVISIONS


LEGACY_KEYS = frozenset({"nomads", "round_limit", "first_player"})
"""The keys of every Heroes table stored before ``edition`` existed (the platform stores the
options' full dump): such options without ``edition`` are a core game."""
FULL_KEYS = LEGACY_KEYS | {"edition"}
"""The keys of every Heroes table stored before ``house_revision`` existed: such options without
``house_revision`` play revision 1 of the house data (only the full edition reads it)."""


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
    # Not the host's choice (left out of the JSON schema, so out of the lobby's form): the newest for
    # a new table (parse with new_table), 1 for a table stored before the option (parse).
    house_revision: SkipJsonSchema[int] = Field(
        NEWEST,
        description="Which revision of the full edition's house data the game plays (data/revisions.json).",
    )

    @field_validator("house_revision")
    @classmethod
    def _known_revision(cls, revision: int) -> int:
        if revision not in REVISIONS:
            known = ", ".join(map(str, sorted(REVISIONS)))
            raise ValueError(f"there is no house data revision {revision} (revisions: {known})")
        return revision


def parse(raw: dict[str, Any] | None, *, new_table: bool = False) -> Options:
    """Stored or given table options, validated: exactly the three keys of a table stored before
    ``edition`` are a core game, exactly the four of one stored before ``house_revision`` play
    revision 1 (the module docstring); otherwise a missing option takes its default.  With
    ``new_table`` (a host's choices, which never hold ``house_revision``) a missing revision is
    the newest whatever the keys, and each option must be its JSON type, nothing converted
    (``Ruleset.new_table_options``).  Raises ``pydantic.ValidationError`` (an unknown revision among
    others)."""
    raw = dict(raw or {})
    if "edition" not in raw and set(raw) == LEGACY_KEYS:
        raw["edition"] = "core"
    if not new_table and "house_revision" not in raw and set(raw) == FULL_KEYS:
        raw["house_revision"] = 1
    return Options.model_validate(raw, strict=new_table)

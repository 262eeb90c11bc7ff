"""The table options of Through the Desert (every one has a default)."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from pydantic import BaseModel, ConfigDict, Field

EndTrigger = Literal["end_of_turn", "immediate"]
PilePreset = Literal["classic", "zman"]
PalmPlacement = Literal["random", "choose"]
FirstPlayer = Literal["random", "host"]
LeaderReturn = Literal["choose", "random"]


class Options(BaseModel):
    """Host choices for one table; unknown keys are rejected."""

    model_config = ConfigDict(extra="forbid")

    # Spec G-2/G-3
    end_trigger: EndTrigger = Field(
        "end_of_turn",
        description="When a pile runs out, finish the turn (as in the original rulebook) or end at once (as in the Z-Man edition).",
    )
    # Spec §1.2
    piles: PilePreset = Field(
        "classic",
        title="Camels per pile",
        json_schema_extra={"choice_labels": {"classic": "Classic", "zman": "Z-Man edition"}},
        description="Camels per pile, classic 22/26/30/29 or Z-Man 20/25/30/30 for 2/3/4/5 players.",
    )
    # Spec W-2
    hide_well_values: bool = Field(
        True,
        title="Keep taken wells secret",
        description="Taken wells are face down; others see how many, not their values, until the end.",
    )
    # Spec S-5
    palm_placement: PalmPlacement = Field(
        "random",
        description="The server places the 5 palm trees at random, or the players take turns choosing.",
    )
    # Spec S-7 [D]
    first_player: FirstPlayer = Field(
        "random",
        description="The start player is drawn at random, or the host (seat 1) begins.",
    )
    # Spec S-3 (5 players)
    leader_return: LeaderReturn = Field(
        "choose",
        description="With 5 players: each player chooses the leader colour to return, or it is dealt at random.",
    )


class TableOptions(TypedDict):
    """The options as a game state keeps them (``state.py``): the fields of :class:`Options`."""

    end_trigger: EndTrigger
    piles: PilePreset
    hide_well_values: bool
    palm_placement: PalmPlacement
    # Games stored before this option existed have none: their start player was drawn ("random").
    first_player: NotRequired[FirstPlayer]
    leader_return: LeaderReturn


def table_options(options: Options) -> TableOptions:
    """``options`` as the state keeps them, each one named (the state is typed)."""
    return {
        "end_trigger": options.end_trigger,
        "piles": options.piles,
        "hide_well_values": options.hide_well_values,
        "palm_placement": options.palm_placement,
        "first_player": options.first_player,
        "leader_return": options.leader_return,
    }


PILE_SIZES: dict[PilePreset, dict[int, int]] = {
    "classic": {2: 22, 3: 26, 4: 30, 5: 29},
    "zman": {2: 20, 3: 25, 4: 30, 5: 30},
}
"""Spec §1.2: camels in each colour's pile by preset and player count."""

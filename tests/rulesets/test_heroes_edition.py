"""The table option ``edition``: ``"full"`` for a new table, ``"core"`` for the reduced game, and
every table stored before the option existed (its options are the three older keys, as the platform
stored them) is a core game whose moves replay exactly as they were played."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from app.rulesets.heroes import Heroes
from app.rulesets.heroes.options import Options
from tests.rulesets.heroes_golden import GOLDEN_FILE, ply_hashes

RULES = Heroes()
GOLDEN = json.loads(GOLDEN_FILE.read_text())["games"]


def test_a_new_table_plays_the_full_edition():
    assert RULES.parse_options({}).edition == "full"
    assert RULES.parse_options({"nomads": "none"}).edition == "full"
    assert Options.model_json_schema()["properties"]["edition"]["default"] == "full"


def test_options_stored_before_the_edition_existed_are_core():
    stored = {"nomads": "wandering", "round_limit": 12, "first_player": "random"}  # a stored table's dump
    assert RULES.parse_options(stored).edition == "core"
    assert RULES.parse_options({**stored, "edition": "full"}).edition == "full"
    with pytest.raises(ValidationError):
        RULES.parse_options({"edition": "deluxe"})


def test_a_core_state_keeps_the_layout_of_before_and_a_full_state_says_full():
    core = RULES.setup(2, RULES.parse_options({"edition": "core", "first_player": "host"}), 3)
    full = RULES.setup(2, RULES.parse_options({"first_player": "host"}), 3)
    assert core["options"] == {"nomads": "wandering", "round_limit": 12, "first_player": "host"}
    assert full["options"]["edition"] == "full"


@pytest.mark.parametrize("game", [game for game in GOLDEN if game["n_players"] in (1, 3)][:4],
                         ids=lambda game: f"{game['n_players']}p-{game['seed']}")
def test_a_golden_game_stored_with_the_older_options_dump_replays(game):
    """The options as the platform stored them then (every older key, no ``edition``)."""
    stored = Options(**game["options"]).model_dump(exclude={"edition", "house_revision"})
    state = RULES.setup(game["n_players"], RULES.parse_options(stored), game["seed"])
    for ply, (seat, wire) in enumerate(game["moves"], start=1):
        state, events = RULES.check_and_apply(state, seat, RULES.parse_move(wire))
        assert ply_hashes(RULES, state, events) == game["plies"][ply], f"ply {ply}"

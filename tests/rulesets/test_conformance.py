"""The conformance kit (``app/rulesets/testing.py``) over every discovered ruleset, every player
count and every variant the ruleset declares: the one place that proves a game behaves.
A new game installed under the ``caravanserai.rulesets`` entry points is checked here
without opting in; its own test files hold only what is particular to it.

Each case plays two seeded random games with the kit's checks; a game longer than ``PLY_CAP``
plies is checked up to the cap (Nomadi's default games, which random play takes to the 150-turn
limit: its declared variants, with a short turn limit, are the ones that end).
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.rulesets.base import Ruleset
from app.rulesets.wire import plain_moves
from app.rulesets.registry import Registry
from app.rulesets.testing import Case, cases, check_case, observed_facts

PLY_CAP = 200
SEEDS = (1, 2)
RULESETS = Registry.discover().all()
CASES = [pytest.param(ruleset, case, id=f"{ruleset.name}-{case.id}") for ruleset in RULESETS for case in cases(ruleset)]


def test_every_installed_ruleset_is_checked():
    assert {ruleset.name for ruleset in RULESETS} >= {"heroes", "nimalia", "nomadi", "through-the-desert"}


@pytest.mark.parametrize(("ruleset", "case"), CASES)
def test_random_games_keep_the_contract(ruleset: Ruleset, case: Case):
    games = check_case(ruleset, case, seeds=SEEDS, cap=PLY_CAP)
    assert len(games) == len(SEEDS) and all(game.moves for game in games)


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda ruleset: ruleset.name)
def test_cases_cover_every_player_count_with_valid_options(ruleset: Ruleset):
    counts = {case.n_players for case in cases(ruleset)}
    assert counts == set(range(ruleset.min_players, ruleset.max_players + 1))
    for variant in ruleset.variants:
        ruleset.parse_options(variant.options)  # a declared variant is valid table options


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda ruleset: ruleset.name)
def test_a_hosts_options_are_their_json_types_and_nothing_is_converted(ruleset: Ruleset):
    """docs/api.md, "Errors": a new table's options are read strictly, while every legal value
    (the defaults, each declared variant, a stored table's options) still passes."""
    for raw in [{}, *(variant.options for variant in ruleset.variants)]:
        stored = ruleset.parse_options(ruleset.new_table_options(raw).model_dump(mode="json")).model_dump(mode="json")
        assert ruleset.new_table_options(stored).model_dump(mode="json") == stored
    wrong = {"boolean": ["yes", 1, 0, None], "integer": [2.0, "5", True, None], "string": [1, True, None]}
    for name, field in ruleset.Options.model_json_schema()["properties"].items():
        for value in wrong[field["type"]]:
            with pytest.raises(ValidationError):
                ruleset.new_table_options({name: value})


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda ruleset: ruleset.name)
def test_declared_facts_show_in_play(ruleset: Ruleset):
    """``simultaneous`` and ``hidden_information`` declared ``True`` show in random play (the kit
    checks at every position that what shows is declared)."""
    facts = observed_facts(ruleset, cases(ruleset), seeds=SEEDS, cap=PLY_CAP)
    assert facts.simultaneous == ruleset.simultaneous
    assert facts.hidden_information == ruleset.hidden_information


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda ruleset: ruleset.name)
def test_moves_are_written_field_by_field(ruleset: Ruleset):
    """Not a rule of the contract (nested move fields are allowed) but of speed: every ruleset shipped
    here keeps its move fields plain, so frames write its ``legal`` lists on ``app/rulesets/wire.py``'s
    fast path (no pydantic per move); the kit checks that path's output is pydantic's JSON form."""
    assert plain_moves(ruleset)

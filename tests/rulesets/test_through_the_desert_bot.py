"""Through the Desert's bot hooks: ``determinize`` (a state behind one seat's view) and ``evaluate``.
What every ruleset's ``determinize`` must do (the seat's view kept, legal moves accepted, one world
per ``rng`` seed) is checked by ``tests/rulesets/test_conformance.py``; here, what is this game's."""

from __future__ import annotations

import ast
import random
import statistics
from collections import Counter
from pathlib import Path

import pytest

import app.rulesets.through_the_desert as package
from app.bots.players import RandomBot, SearchBot
from app.rulesets.base import Rng
from app.rulesets.through_the_desert.evaluation import OASIS_REACH, WELL_REACH
from app.rulesets.through_the_desert.moves import Camel
from app.rulesets.through_the_desert.options import Options
from app.rulesets.through_the_desert.rules import ThroughTheDesert
from tests.rulesets.through_the_desert_fixtures import RULES, A, B, position

STANDARD = ThroughTheDesert()

GAMES = [  # (players, options, seed): between them every phase and option that changes the state
    (2, {}, 11),
    (3, {"palm_placement": "choose"}, 12),
    (5, {"leader_return": "choose", "hide_well_values": False}, 13),
    (4, {"end_trigger": "immediate", "piles": "zman"}, 14),
]


def random_game(n_players: int, options: dict, seed: int) -> list[dict]:
    """Every state of one game of uniformly random moves, the final one included."""
    chooser = random.Random(seed)
    state = STANDARD.setup(n_players, Options(**options), seed)
    states = [state]
    while STANDARD.to_act(state):
        seat = state["current"]
        state, _ = STANDARD.apply(state, seat, chooser.choice(STANDARD.legal_moves(state, seat)))
        states.append(state)
    return states


@pytest.fixture(scope="module")
def games() -> list[list[dict]]:
    return [random_game(*game) for game in GAMES]


def sample_points(states: list[dict]) -> list[dict]:
    """Every 9th position, the first one of each phase and the last five (final turn, game over)."""
    picked = {i for i in range(0, len(states), 9)} | set(range(max(len(states) - 5, 0), len(states)))
    picked |= {i for i in range(1, len(states)) if states[i]["phase"] != states[i - 1]["phase"]}
    return [states[i] for i in sorted(picked)]


def hidden_values(state: dict, seat: int) -> list[tuple[int, ...]]:
    return [tuple(w["value"] for w in wells) for other, wells in enumerate(state["taken_wells"]) if other != seat]


def imported_modules(path) -> set[str]:
    """Every module a source file imports, written out (``from a.b import c`` gives ``a.b`` and ``a.b.c``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_the_rules_side_imports_no_bot_code():
    """Bots import rules, never the reverse; the hooks live in rules-side modules."""
    for path in Path(package.__file__).parent.glob("*.py"):
        bot_code = {name for name in imported_modules(path) if name.startswith("app.bots") or name.endswith(".bots")}
        assert bot_code == set(), f"{path.name} imports {bot_code}"


# -- determinize ------------------------------------------------------------------------------


def test_determinize_keeps_the_seats_own_wells_and_the_phase_counters(games):
    for states in games:
        for state in sample_points(states):
            for seat in range(state["players"]):
                world = STANDARD.determinize(STANDARD.view(state, seat), seat, Rng(seat))
                assert world["taken_wells"][seat] == state["taken_wells"][seat]
                assert (world["allowance"], world["placed"]) == (state["allowance"], state["placed"])
                assert world["end_reason"] == state["end_reason"]
                assert ("well_pool" in world) == ("well_pool" in state)
                if "well_pool" in state:
                    assert len(world["well_pool"]) == len(state["well_pool"])


def test_determinize_token_counts_add_up_to_fifteen_of_each_value(games):
    for states in games:
        for state in sample_points(states):
            for seat in range(state["players"]):
                world = STANDARD.determinize(STANDARD.view(state, seat), seat, Rng(7 * seat + 1))
                tokens = [*world["wells"].values(), *world.get("well_pool", []), *(w for ws in world["taken_wells"] for w in ws)]
                assert all(count <= 15 for count in Counter(t["value"] for t in tokens).values())
                ids = [t["id"] for t in tokens]
                assert len(ids) == len(set(ids)) and all(i.startswith("well-") for i in ids)
                if "well_pool" in world:  # nothing taken yet: board and pool are all 45 tokens
                    assert Counter(t["value"] for t in tokens) == {1: 15, 2: 15, 3: 15}


def hidden_wells_position() -> dict:
    """A 2-player game of random moves, far enough that seat 1 holds several hidden wells."""
    chooser = random.Random(5)
    state = STANDARD.setup(2, Options(), 5)
    while len(state["taken_wells"][1]) < 4 or len(state["taken_wells"][0]) < 1:
        seat = state["current"]
        state, _ = STANDARD.apply(state, seat, chooser.choice(STANDARD.legal_moves(state, seat)))
    return state


def test_w2_determinize_samples_hidden_wells_instead_of_copying_them():
    state = hidden_wells_position()
    view = STANDARD.view(state, 0)
    assert view["players"][1]["well_values"] is None
    samples = [STANDARD.determinize(view, 0, Rng(seed)) for seed in range(60)]
    drawn = {hidden_values(world, 0)[0] for world in samples}
    assert len(drawn) > 1, "two rng seeds give different hidden values"
    assert {world["rng"] for world in samples} != {state["rng"]}
    assert all(len(world["taken_wells"][1]) == len(state["taken_wells"][1]) for world in samples)
    assert all(world["taken_wells"][0] == state["taken_wells"][0] for world in samples)
    # the draws follow the unseen tokens: 15 of each value minus what seat 0 can see
    unseen = Counter({1: 15, 2: 15, 3: 15})
    unseen.subtract(w["value"] for w in state["wells"].values())
    unseen.subtract(w["value"] for w in state["taken_wells"][0])
    expected = sum(v * n for v, n in unseen.items()) / sum(unseen.values())
    values = [v for world in samples for v in hidden_values(world, 0)[0]]
    assert statistics.mean(values) == pytest.approx(expected, abs=0.25)


def test_w2_determinize_copies_visible_well_values_when_not_hidden():
    state = position(leaders={(2, -2): (A, "pink"), (-2, 2): (B, "pink")}, wells={(1, -1): 3, (-1, 1): 1},
                     options={"hide_well_values": False})
    state, _ = RULES.apply(dict(state, current=B), B, Camel(colour="pink", hex=(-1, 1)))
    world = RULES.determinize(RULES.view(state, A), A, Rng(3))
    assert [w["value"] for w in world["taken_wells"][B]] == [1]


# -- evaluate ---------------------------------------------------------------------------------


def evaluation_position() -> dict:
    """Spec §5's radius-3 board, 2 players, main phase.

    A pink: leader (3,-3), camel (2,-3); B pink: leader (-3,3).  Oasis (0,0); wells 3 at
    (2,-2) and 2 at (0,-2).  A holds a taken well worth 2, B one worth 1.
    """
    state = position(
        leaders={(3, -3): (A, "pink"), (-3, 3): (B, "pink")},
        camels={(2, -3): (A, "pink")},
        oases=((0, 0),),
        wells={(2, -2): 3, (0, -2): 2},
    )
    state["taken_wells"] = [[{"id": "well-10", "value": 2}], [{"id": "well-11", "value": 1}]]
    return state


def test_evaluate_hand_worked_position():
    state = evaluation_position()
    # A: secured 2 (well); caravans 10 (pink 2 > 1) as they stand; reach: 4 free spaces next to the
    # caravan (1,-3) (2,-2) (1,-2) (3,-2) -> 4 * 0.25 = 1.0; well 3 at (2,-2) one camel away;
    # well 2 at (0,-2) two away; the oasis two away ((1,-1) and (0,-1) are in the second ring).
    a_value = 2 + 10 + 1.0 + 3 * WELL_REACH[1] + 2 * WELL_REACH[2] + 5 * OASIS_REACH[2]
    # B: secured 1; no caravan points; 3 free spaces (0.75); the oasis two away via (-1,1); no
    # well within three camels.
    b_value = 1 + 0.75 + 5 * OASIS_REACH[2]
    assert a_value == pytest.approx(16.25) and b_value == pytest.approx(3.25)
    assert RULES.evaluate(state, A) == pytest.approx(a_value - b_value)
    assert RULES.evaluate(state, B) == pytest.approx(b_value - a_value)


def test_evaluate_finished_game_is_the_final_margin_plus_a_win_bonus():
    state = dict(evaluation_position(), phase="over", current=None, end_reason="test")
    # final: A 10 (largest pink) + 2 = 12, B 1
    assert RULES.result(state).scores == [12, 1]
    assert RULES.evaluate(state, A) == 11 + 10
    assert RULES.evaluate(state, B) == -11 - 10


def test_evaluate_counts_secured_points_once_they_are_won():
    state = evaluation_position()
    taken, _ = RULES.apply(state, A, Camel(colour="pink", hex=(2, -2)))
    assert taken["taken_wells"][A][-1]["value"] == 3
    assert RULES.evaluate(taken, A) > RULES.evaluate(state, A)


# -- the default bot --------------------------------------------------------------------------


def choose(state: dict, seat: int, seed: int = 0):
    view = RULES.view(state, seat)
    return SearchBot().choose(RULES, view, RULES.legal_moves(state, seat), seat, Rng(seed))


def test_default_bot_takes_a_three_point_well_next_to_its_caravan():
    state = position(
        leaders={(0, 0): (A, "green"), (-3, 3): (B, "green")},
        wells={(1, 0): 3},
    )
    for seed in range(3):
        assert choose(state, A, seed) == Camel(colour="green", hex=(1, 0))


def test_default_bot_reaches_an_oasis_over_a_neutral_move():
    state = position(
        leaders={(0, -2): (A, "yellow"), (0, 3): (B, "yellow")},
        oases=((0, 0),),
    )
    for seed in range(3):
        move = choose(state, A, seed)
        assert move == Camel(colour="yellow", hex=(0, -1))  # the one space next to both


def test_default_bot_beats_random_in_a_short_match():
    """Two games on the standard board, one from each seat (the full match is bench/bot_strength.py)."""
    for game in range(2):
        state = STANDARD.setup(2, Options(), 100 + game)
        bots = [SearchBot(), RandomBot()] if game == 0 else [RandomBot(), SearchBot()]
        ply = 0
        while STANDARD.to_act(state):
            seat = state["current"]
            view, legal = STANDARD.view(state, seat), STANDARD.legal_moves(state, seat)
            state, _ = STANDARD.apply(state, seat, bots[seat].choose(STANDARD, view, legal, seat, Rng(ply)))
            ply += 1
        scores = STANDARD.result(state).scores
        assert scores[game] > scores[1 - game]

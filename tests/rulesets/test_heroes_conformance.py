"""Heroes over random games (2, 3 and 4 players, the variant options): the moves they reach and
the pieces they conserve; the secrecy of the tactic choice (spec 1.8.3: chosen in secret,
revealed together), and the bots' hooks.  The contract itself is checked for every ruleset by
``tests/rulesets/test_conformance.py``."""

from __future__ import annotations

import random

import pytest

from app.bots import make_bot
from app.rulesets.base import Rng
from app.rulesets.heroes.battles import choice_secret, tactic_choice, tactic_options
from app.rulesets.heroes.moves import March, Tactic
from app.rulesets.testing import canonical, check_legal_moves_complete, random_games
from tests.rulesets.heroes_fixtures import A, B, RULES, play, position, put, resources


@pytest.fixture(scope="module")
def default_games():
    return random_games(RULES, n_players=[2, 3, 4], games=2)


def test_random_games_reach_every_kind_of_move(default_games):
    assert sorted(game.n_players for game in default_games) == [2, 2, 3, 3, 4, 4]
    assert all(RULES.result(game.final) is not None for game in default_games)
    played = {move.type for game in default_games for _, move in game.moves}
    assert {"place_nomad", "march", "tax", "recruit", "tactic", "skip"} <= played


def test_no_nomads_and_a_round_limit():
    games = random_games(RULES, n_players=[2, 4], games=1, seed=5,
                         options=[{"nomads": "none", "first_player": "host", "round_limit": 5}])
    assert all(game.final["phase"] == "over" and game.final["round"] <= 5 for game in games)
    assert all(game.final["nomad_supply"] == 0 for game in games)


def test_pieces_are_conserved_in_random_games(default_games):
    """Every Serf, Warrior, Hero and Tower is in supply, on the board, on the bar or the Hall;
    10 Nomads are on the board, in the supply, in Courtyards or on bars (eliminated seats aside)."""
    for game in default_games:
        state = game.final
        nomads = state["nomad_supply"] + sum(entry["nomad"] for entry in state["regions"].values())
        for seat, player in enumerate(state["players"]):
            bar = list(player["bar"].values())
            nomads += player["nomads"] + bar.count("nomad")
            if player["eliminated"]:
                continue
            on_board = {kind: sum(entry["units"].get(str(seat), {}).get(kind, 0) for entry in state["regions"].values())
                        for kind in ("serf", "warrior", "hero")}
            assert on_board["serf"] + bar.count("serf") + player["hall"] + player["supply"]["serf"] == 12
            assert on_board["warrior"] + player["supply"]["warrior"] == 5
            assert on_board["hero"] + player["supply"]["hero"] == 1
            towers = sum(entry["tower"] == seat for entry in state["regions"].values())
            assert towers + player["supply"]["tower"] == 3
            for region, entry in state["regions"].items():
                units = entry["units"].get(str(seat))
                if units and region not in RULES.board.capital_regions:
                    assert sum(units.values()) <= 5
        eliminated = [p for p in state["players"] if p["eliminated"]]
        assert nomads == 10 or eliminated


def battle_position():
    state = position()
    resources(state, A, ore=3, mana=6, food=3)
    resources(state, B, ore=3, mana=6, food=3)
    put(state, "N_capital", A, warrior=3)
    put(state, "N_plains", B, serf=1, warrior=1)
    state, _ = play(state, (A, March(slot="march_1", origin="N_capital", destination="N_plains", warrior=3)))
    return state


def test_an_unrevealed_choice_changes_no_other_view_and_no_shared_log_entry():
    """The other seat and spectators see the same view whatever card (and payment) was chosen."""
    state = battle_position()
    views, logs = set(), set()
    for option in tactic_options(state, state["pending"]["battle"], A):
        after, events = RULES.apply(state, A, option)
        views.add((canonical(RULES.view(after, B)), canonical(RULES.view(after, None))))
        logs.add(tuple(event.text for event in events if event.visible_to(B)))
        assert choice_secret(A, tactic_choice(option)) in RULES.secrets(after, A)
        assert RULES.view(after, A)["pending"]["mine"] == dict(option.__dict__)
        assert "move" not in RULES.view(after, B)["last"]
    assert len(views) == 1 and logs == {("{seat0} has chosen a tactic card",)}


def test_no_unrevealed_choice_leaks_in_random_games():
    """Every tactic-phase position of random games: no view but the chooser's holds its token,
    and the other seat's view is the same as with any other choice."""
    checked = 0
    for seed in range(12):
        chooser = random.Random(seed)
        state = RULES.setup(2 + seed % 3, RULES.parse_options({}), seed)
        while RULES.to_act(state):
            seat = chooser.choice(sorted(RULES.to_act(state)))
            move = chooser.choice(RULES.legal_moves(state, seat))
            state, _ = RULES.apply(state, seat, move)
            if state["phase"] == "tactics" and state["pending"]["choices"]:
                (owner, choice), = state["pending"]["choices"].items()
                token = choice_secret(int(owner), choice)
                others = [None, *(s for s in range(state["n_players"]) if s != int(owner))]
                for viewer in others:
                    assert token not in canonical(RULES.view(state, viewer))
                    assert '"choices"' not in canonical(RULES.view(state, viewer))
                checked += 1
    assert checked > 0


def test_determinize_keeps_the_view_and_samples_the_hidden_choice():
    state = battle_position()
    state, _ = play(state, (A, Tactic(card="ambush", ore=3)))
    view = RULES.view(state, B)
    rng = Rng(3)
    samples = [RULES.determinize(view, B, rng) for _ in range(20)]
    for world in samples:
        assert canonical(RULES.view(world, B)) == canonical(view)
    cards = {world["pending"]["choices"]["0"]["card"] for world in samples}
    assert len(cards) > 1  # sampled, not read from the real state
    own = RULES.determinize(RULES.view(state, A), A, rng)
    assert own["pending"]["choices"] == state["pending"]["choices"]


def test_evaluate_prefers_more_material_and_score():
    state = position()
    base = RULES.evaluate(state, A)
    put(state, "N_plains", A, warrior=2)
    assert RULES.evaluate(state, A) > base
    state["players"][B]["score"] += 10
    assert RULES.evaluate(state, A) < base


@pytest.mark.parametrize("players", [2, 3])
def test_the_default_bot_plays_a_whole_game(players):
    bots = [make_bot("default") for _ in range(players)]
    for bot in bots:
        bot.budget_seconds = 0.02
    state = RULES.setup(players, RULES.parse_options({"round_limit": 5}), 11)
    rng = Rng(1)
    for _ in range(2000):
        acting = sorted(RULES.to_act(state))
        if not acting:
            break
        seat = acting[0]
        move = bots[seat].choose(RULES, RULES.view(state, seat), RULES.legal_moves(state, seat), seat, rng)
        state, _ = RULES.apply(state, seat, move)
    assert state["phase"] == "over" and RULES.result(state) is not None


def every_action(state, seat):
    """A superset of the legal moves of every phase but ``tactics`` (whose payments and sacrifices
    multiply out too far; there the listed moves stand in, and the battle tests check the card
    rules): every action with every worker, every march of up to 6 units to every land region
    (in the action phase with the token),
    every conscription and every split of losses with every retreat."""
    import itertools

    from app.rulesets.heroes.moves import Build, Casualties, Conscript, FireMercenary, Pass, PlaceNomad, Recruit, Skip, Tax
    from app.rulesets.heroes.pieces import units_at

    land = sorted(state["regions"])  # the regions in play (solo has no South)
    kinds = ("serf", "warrior", "hero", "mercenary")
    phase = state["phase"]
    moves = [Pass(), Skip(), FireMercenary()]
    if phase == "tactics":
        return moves + RULES.legal_moves(state, seat)
    if phase == "nomad":
        moves += [PlaceNomad(region=region) for region in land]
    for worker in ("token", "serf", "nomad"):
        if phase in ("action", "follow"):
            moves += [Recruit(unit=unit, worker=worker) for unit in ("serf", "serf_pair", "warrior", "hero", "mercenary")]
            moves += [Build(what="hall", worker=worker), Build(what="capital", worker=worker)]
            moves += [Build(what="tower", region=region, worker=worker) for region in land]
            moves += [Tax(resource=resource, worker=worker) for resource in ("ore", "mana", "food")]
        if phase == "muster" or (phase == "action" and worker == "token"):  # a token marches in the action phase
            for origin in land:
                here = units_at(state, origin, seat)
                for counts in itertools.product(*(range(min(here.get(kind, 0), 5) + 2) for kind in kinds)):
                    if 1 <= sum(counts) <= 6:
                        moves += [March(slot=slot, origin=origin, destination=destination, worker=worker,
                                        **dict(zip(kinds, counts)))
                                  for destination in land for slot in ("march_1", "march_2")]
    if phase == "conscripts":
        for origin in land:
            here = units_at(state, origin, seat)
            moves += [Conscript(origin=origin, **dict(zip(kinds, counts)))
                      for counts in itertools.product(*(range(min(here.get(kind, 0), 3) + 1) for kind in kinds))]
    if phase == "casualties":
        here = units_at(state, state["pending"]["battle"]["region"], seat)
        for counts in itertools.product(*(range(here.get(kind, 0) + 2) for kind in kinds), range(3)):
            moves += [Casualties(**dict(zip((*kinds, "nomad"), counts)), retreat=retreat) for retreat in (None, *land)]
    return moves


@pytest.mark.parametrize(("n_players", "nomads"), [(2, "wandering"), (3, "mercenary")])
def test_legal_moves_are_exactly_the_accepted_moves(n_players, nomads):
    options = RULES.parse_options({"nomads": nomads, "round_limit": 4})
    assert check_legal_moves_complete(RULES, n_players, 11, every_action, options, every=4) >= 6

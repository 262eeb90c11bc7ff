"""Full-edition games played to the end with the conformance kit's checks at every position
(views, secrets, log entries, reversibility, determinize), choosing each move by first drawing a
kind of move: uniform random play would almost never Research, Sail or Cast among the many
marches.  Together they play every new kind of move."""

from __future__ import annotations

import random

import orjson
import pytest

from app.rulesets import testing as kit
from app.rulesets.base import IllegalMove
from tests.rulesets.heroes_fixtures import FULL

NEW_MOVES = {"research", "scribe", "discard_spell", "cast", "interrupt", "combat_spell", "sail", "fly"}


def play_by_kind(n_players: int, seed: int, options: dict) -> kit.PlayedGame:
    """One checked game (``app.rulesets.testing.play_random_game`` with a kind-first choice)."""
    parsed = FULL.parse_options(options)
    chooser = random.Random(seed)
    state = FULL.setup(n_players, parsed, seed)
    game = kit.PlayedGame(seed=seed, n_players=n_players, options=parsed)
    for ply in range(3000):
        where = f"seed={seed} players={n_players} ply={ply}"
        acting = FULL.to_act(state)
        position = kit.Position(ply, state, frozenset(acting))
        kit._check_position(FULL, position, n_players, where)
        game.positions.append(position)
        if not acting:
            game.ended = True
            break
        seat = chooser.choice(sorted(acting))
        legal = FULL.legal_moves(state, seat)
        position.seat, position.legal = seat, legal
        kind = chooser.choice(sorted({move.type for move in legal}))
        move = chooser.choice([move for move in legal if move.type == kind])
        try:
            new, events = FULL.apply(state, seat, move)
        except IllegalMove as exc:
            raise AssertionError(f"{where}: listed legal move {move} refused: {exc.message}") from None
        kit._check_events(FULL, new, n_players, events, where)
        kit._check_reversible(FULL, state, seat, move, new, events, f"{where} move={move!r}")
        assert orjson.loads(orjson.dumps(new)) == new
        state = new
        game.moves.append((seat, move))
    game.final = state
    kit._deep_checks(FULL, game, random.Random(seed))
    return game


@pytest.fixture(scope="module")
def games():
    return [play_by_kind(n, seed, options) for n, seed, options in
            ((2, 0, {}), (3, 1, {}), (4, 0, {}), (4, 1, {"nomads": "mercenary"}), (1, 1, {}), (1, 2, {"nomads": "none"}))]


def test_full_games_end_with_a_result(games):
    assert all(game.ended and FULL.result(game.final) is not None for game in games)


def test_full_games_play_every_new_kind_of_move(games):
    played = {move.type for game in games for _, move in game.moves}
    assert NEW_MOVES <= played, NEW_MOVES - played


def test_pieces_and_spell_cards_are_conserved(games):
    """Every spell card is in the deck, the discard, one hand or one scribed row, once; every Hero
    figure of a seat is in play or in its supply (3 per faction)."""
    for game in games:
        state = game.final
        cards = list(state["spell_deck"]) + list(state["spell_discard"])
        for player in state["players"]:
            cards += player["spells"] + [entry["card"] for entry in player["scribed"]]
        assert len(cards) == len(set(cards))
        for seat, player in enumerate(state["players"][:game.n_players]):
            if player["eliminated"]:
                continue
            on_board = sum(entry["units"].get(str(seat), {}).get("hero", 0) for entry in state["regions"].values())
            aboard = sum(vessel["cargo"].get("hero", 0) for vessel in player["vessels"].values() if vessel)
            assert on_board + aboard + player["supply"]["hero"] == 3
            assert len(player["heroes"]) == on_board + aboard

"""The ruleset conformance kit: the one place that proves a game behaves (STYLE.md, OpenSpiel).

A ruleset's tests call :func:`check_ruleset`; it plays random games and asserts the contract
(ARCHITECTURE.md, "The ruleset contract"; issue 2, "conformance kit"):

* every game terminates within ``max_moves`` and then has a ``result`` and nobody to act;
* every seat in ``to_act`` has a legal move, and a seat not in ``to_act`` has none;
* ``apply`` never mutates its input;
* state and moves round-trip through JSON exactly;
* every listed legal move is accepted by ``apply`` (all of them at the first positions, a sample later);
  and, with :func:`check_legal_moves_complete` and a superset of candidate moves the game's test
  names, no other move is;
* folding the moves over ``setup`` rebuilds the final state bit for bit (replay);
* no view of another seat or of a spectator, and no log event visible to them, contains a
  token that ``secrets`` declares private to a seat; the ``rng`` value never shows in a view;
* a move that ``is_reversible`` declares reversible drew nothing (the ``rng`` is unchanged),
  told no other seat anything privately, and did not end the game (issue 20: taking it back unlearns nothing).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel

from app.rulesets.base import Event, IllegalMove, MoveModel, Ruleset, Seat, State


@dataclass
class PlayedGame:
    """One random game: its seed, the ``(seat, move)`` sequence, the final state, every event."""

    seed: int
    n_players: int
    options: BaseModel
    moves: list[tuple[Seat, MoveModel]] = field(default_factory=list)
    final: State | None = None
    events: list[Event] = field(default_factory=list)


def canonical(value: Any) -> str:
    """JSON text with sorted keys, for exact comparisons of states and views."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def play_random_game(
    ruleset: Ruleset,
    n_players: int,
    seed: int,
    options: BaseModel | None = None,
    max_moves: int = 5000,
    check: bool = True,
    full_legal_check_plies: int = 3,
    sampled_legal_checks: int = 2,
) -> PlayedGame:
    """Play one game with uniformly random legal moves; with ``check``, assert the contract at every step.

    Raises ``AssertionError`` naming the seed and ply of the first violation.
    """
    options = options if options is not None else ruleset.parse_options({})
    chooser = random.Random(seed)
    state = ruleset.setup(n_players, options, seed)
    game = PlayedGame(seed=seed, n_players=n_players, options=options)
    for ply in range(max_moves):
        where = f"{ruleset.name} seed={seed} players={n_players} ply={ply}"
        acting = ruleset.to_act(state)
        if check:
            _check_position(ruleset, state, n_players, acting, where)
        if not acting:
            break
        seat = chooser.choice(sorted(acting))
        legal = ruleset.legal_moves(state, seat)
        assert legal, f"{where}: seat {seat} is to act but has no legal move"
        if check:
            sample = legal if ply < full_legal_check_plies else chooser.sample(legal, min(sampled_legal_checks, len(legal)))
            for candidate in sample:
                _check_move_accepted(ruleset, state, seat, candidate, where)
        move = chooser.choice(legal)
        before = canonical(state)
        previous = state
        state, events = ruleset.apply(state, seat, move)
        if check:
            assert canonical_after_roundtrip(state) == canonical(state), f"{where}: state does not round-trip JSON"
            _check_reversible(ruleset, previous, seat, move, state, events, f"{where} move={move!r}")
        assert before != canonical(state) or events, f"{where}: move {move} changed nothing"
        game.moves.append((seat, move))
        game.events.extend(events)
        if check:
            _check_events(ruleset, state, n_players, events, where)
    else:
        raise AssertionError(f"{ruleset.name} seed={seed}: no end after {max_moves} moves")
    assert ruleset.result(state) is not None, f"{ruleset.name} seed={seed}: nobody to act but no result"
    game.final = state
    return game


def _check_reversible(ruleset: Ruleset, before: State, seat: Seat, move: MoveModel, after: State,
                      events: list[Event], where: str) -> None:
    """Issue 20: a move declared reversible revealed nothing; ``is_reversible`` changes neither state."""
    texts = canonical(before), canonical(after)
    reversible = ruleset.is_reversible(before, seat, move, after)
    assert (canonical(before), canonical(after)) == texts, f"{where}: is_reversible changed a state"
    if not reversible:
        return
    assert before.get("rng") == after.get("rng"), f"{where}: a reversible move drew from the PRNG"
    assert all(event.seats is None or set(event.seats) <= {seat} for event in events), (
        f"{where}: a reversible move told another seat something privately")
    assert ruleset.result(after) is None, f"{where}: a reversible move ended the game"


def canonical_after_roundtrip(state: State) -> str:
    """The canonical text of ``state`` after a trip through JSON text."""
    return canonical(json.loads(json.dumps(state)))


def replay(ruleset: Ruleset, game: PlayedGame) -> State:
    """Fold the game's moves, parsed back from their JSON form, over ``setup``."""
    state = ruleset.setup(game.n_players, game.options, game.seed)
    for seat, move in game.moves:
        wire = json.loads(json.dumps(ruleset.dump_move(move)))
        state, _ = ruleset.check_and_apply(state, seat, ruleset.parse_move(wire))
    return state


def check_ruleset(
    ruleset: Ruleset,
    n_players: list[int] | None = None,
    games: int = 5,
    seed: int = 1,
    options: list[dict[str, Any]] | None = None,
    max_moves: int = 5000,
) -> list[PlayedGame]:
    """Run the whole conformance kit; returns the played games for further checks by the caller."""
    counts = n_players or list(range(ruleset.min_players, ruleset.max_players + 1))
    option_sets = options or [{}]
    played = []
    for raw_options in option_sets:
        parsed = ruleset.parse_options(raw_options)
        for count in counts:
            for index in range(games):
                game_seed = seed * 1_000_003 + count * 1000 + index
                game = play_random_game(ruleset, count, game_seed, parsed, max_moves=max_moves)
                assert canonical(replay(ruleset, game)) == canonical(game.final), (
                    f"{ruleset.name} seed={game_seed}: replay fold differs from the final state"
                )
                played.append(game)
    return played


def check_legal_moves_complete(
    ruleset: Ruleset,
    n_players: int,
    seed: int,
    candidates: Callable[[State, Seat], Iterable[MoveModel]],
    options: BaseModel | None = None,
    every: int = 5,
    max_moves: int = 5000,
) -> int:
    """``legal_moves`` lists exactly the moves ``apply`` accepts: along one random game, at every
    ``every``-th position, each move of ``candidates(state, seat)`` (a superset the test names,
    such as every colour on every space) is tried, and the accepted ones must be the listed ones.

    Returns how many positions were compared; raises ``AssertionError`` naming the first
    position where a move is accepted but not listed, or listed but refused.
    """
    options = options if options is not None else ruleset.parse_options({})
    chooser = random.Random(seed)
    state = ruleset.setup(n_players, options, seed)
    compared = 0
    for ply in range(max_moves):
        acting = sorted(ruleset.to_act(state))
        if not acting:
            return compared
        seat = chooser.choice(acting)
        legal = ruleset.legal_moves(state, seat)
        if ply % every == 0:
            accepted = set()
            for move in candidates(state, seat):
                try:
                    ruleset.check_and_apply(state, seat, move)
                except IllegalMove:
                    continue
                accepted.add(move)
            listed = set(legal)
            where = f"{ruleset.name} seed={seed} players={n_players} ply={ply}"
            assert not accepted - listed, f"{where}: accepted but not listed: {sorted(map(str, accepted - listed))[:5]}"
            assert not listed - accepted, f"{where}: listed but not among the candidates or refused: " \
                                          f"{sorted(map(str, listed - accepted))[:5]}"
            compared += 1
        state, _ = ruleset.apply(state, seat, chooser.choice(legal))
    raise AssertionError(f"{ruleset.name} seed={seed}: no end after {max_moves} moves")


def _check_position(ruleset: Ruleset, state: State, n_players: int, acting: set[Seat], where: str) -> None:
    assert acting <= set(range(n_players)), f"{where}: to_act {acting} holds unknown seats"
    if not acting:
        assert ruleset.result(state) is not None, f"{where}: nobody to act but no result"
    for seat in range(n_players):
        if seat not in acting:
            assert ruleset.legal_moves(state, seat) == [], f"{where}: seat {seat} is not to act but has legal moves"
    viewers: list[Seat | None] = [None, *range(n_players)]
    views = {viewer: canonical(ruleset.view(state, viewer)) for viewer in viewers}
    rng_value = state.get("rng") if isinstance(state, dict) else None
    for owner in range(n_players):
        for token in ruleset.secrets(state, owner):
            for viewer in viewers:
                if viewer != owner:
                    assert token not in views[viewer], f"{where}: secret {token!r} of seat {owner} in the view of {viewer}"
    if isinstance(rng_value, int) and rng_value > 10**6:
        for viewer, text in views.items():
            assert str(rng_value) not in text, f"{where}: PRNG state in the view of {viewer}"


def _check_move_accepted(ruleset: Ruleset, state: State, seat: Seat, move: MoveModel, where: str) -> None:
    before = canonical(state)
    wire = json.loads(json.dumps(ruleset.dump_move(move)))
    assert ruleset.parse_move(wire) == move, f"{where}: move {move} does not round-trip JSON"
    try:
        ruleset.check_and_apply(state, seat, move)
    except IllegalMove as exc:
        raise AssertionError(f"{where}: listed legal move {move} refused: {exc.message}") from None
    assert canonical(state) == before, f"{where}: apply({move}) mutated its input"


def _check_events(ruleset: Ruleset, state: State, n_players: int, events: list[Event], where: str) -> None:
    for owner in range(n_players):
        secrets = ruleset.secrets(state, owner)
        if not secrets:
            continue
        for event in events:
            readers = [None, *range(n_players)]
            if any(event.visible_to(reader) and reader != owner for reader in readers):
                for token in secrets:
                    assert token not in event.text, f"{where}: secret {token!r} of seat {owner} in a shared log entry"

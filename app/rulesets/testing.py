"""The ruleset conformance kit: the one place that proves a game behaves (docs/style.md, OpenSpiel).

``tests/rulesets/test_conformance.py`` runs it over every discovered ruleset, every player count
and every declared variant (:func:`cases`); a new game gets these checks for free.  A case plays a
few random games (:func:`check_case`) and asserts the contract (docs/architecture.md, "The ruleset
contract"):

At every position of every game:

* ``to_act`` holds only seats; every seat in it has a legal move, a seat not in it has none;
  nobody to act means a ``result``, and a ``result`` means nobody to act;
* ``timeout_move`` is a legal move of the seat, or ``None`` (always ``None`` for a seat not to act);
* the declared facts hold: several seats to act only if ``simultaneous``, a non-empty ``secrets``
  only if ``hidden_information``;
* no view of another seat or of a spectator contains a token that ``secrets`` declares private to
  a seat, and no view shows the ``rng`` value; views are JSON;
* ``apply`` never mutates its input, changes something, and its state round-trips through JSON
  exactly; no log event readable by another seat or a spectator holds a secret;
* a move that ``is_reversible`` declares reversible drew nothing (the ``rng`` is unchanged),
  told no other seat anything privately, and did not end the game (taking it back
  unlearns nothing).

At a bounded sample of positions (the first that lists each kind of move, the first simultaneous
step, a few evenly spread, and the last), the deep checks:

* the ``legal`` list's wire form is pydantic's JSON form (``dump_moves``, the frames' orjson
  writer), every listed move parses back to itself and reads as words (``str``);
* every listed move (a sample of a long list) is accepted and leaves the state as it was;
* moves that were legal elsewhere in the game but are not listed now, and every move of a seat
  not to act, raise :class:`IllegalMove` (``not_your_turn`` for a seat not to act; a message that
  names no other seat's secret) and change nothing; malformed moves raise :class:`MalformedMove`;
* ``determinize`` (where the ruleset offers it) keeps the seat's view and the spectator's view
  equal, the fields, the seats to act and the seat's legal moves; one ``rng`` seed gives one world;
* in a simultaneous step, one seat's move leaves every other seat to act with its moves legal.

At the end of each game: ``result`` ranks follow scores (ties share a place, a tie-break may
separate equal scores, breakdowns add up to the scores), every move is refused, and folding the
moves from their JSON form over ``setup`` with the same seed rebuilds the final state bit for bit
(random games are deterministic under a seed).  :func:`observed_facts` checks the other direction
of the declared facts: a fact declared ``True`` shows in some case's play.

Languages (docs/i18n.md): :func:`check_catalogs` plays random games at every player count and
variant and checks that each language the ruleset declares in ``languages`` (English aside) has a
catalog ``locales/<lang>.po`` with an entry for every text the game shows in words: each emitted
event template, each translatable argument text (card, piece and words texts, amount units), the
result's reason and its rivals' names, the summary, and the option labels, descriptions and
choices of its options form (:func:`shown_texts`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson
from pydantic import BaseModel

from app.i18n import Messages, parse_po
from app.rulesets.base import Event, IllegalMove, MalformedMove, MoveModel, Result, Rng, Ruleset, Seat, State
from app.rulesets.wire import dump_moves, move_json_default

SPREAD_POSITIONS = 4
"""Positions per game that get the deep checks besides the first that lists each kind of move."""
SAMPLED_MOVES = 4
"""Listed moves tried per seat at a deep position (all of them when there are fewer)."""
REFUSED_MOVES = 3
"""Moves not listed for a seat, tried per seat at a deep position."""
MALFORMED: list[Any] = [None, "move", 7, [], {}, {"type": "no-such-move"}]
"""Wire values that are no move of any ruleset."""


@dataclass(frozen=True)
class Case:
    """One setting the kit plays: a player count and raw table options (``{}``: the defaults)."""

    n_players: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        """A test id such as ``3p`` or ``2p-trading=True+turn_limit=40``."""
        words = "+".join(f"{key}={value}" for key, value in sorted(self.options.items()))
        return f"{self.n_players}p" + (f"-{words}" if words else "")


def cases(ruleset: Ruleset) -> list[Case]:
    """Every player count with the default options, then every declared variant at its player
    counts (the smallest and the largest when it names none)."""
    found = [Case(count) for count in range(ruleset.min_players, ruleset.max_players + 1)]
    for variant in ruleset.variants:
        counts = variant.players or tuple(sorted({ruleset.min_players, ruleset.max_players}))
        found += [Case(count, dict(variant.options)) for count in counts]
    return found


@dataclass
class Position:
    """One position of a checked game: the state, who was to act, who moved and their legal moves."""

    ply: int
    state: State
    acting: frozenset[Seat]
    seat: Seat | None = None
    legal: list[MoveModel] = field(default_factory=list)


@dataclass
class PlayedGame:
    """One random game: its seed, the ``(seat, move)`` sequence, the final state, every event.

    ``ended`` is ``False`` for a game cut at its ply cap; ``positions`` are kept by checked games.
    """

    seed: int
    n_players: int
    options: BaseModel
    moves: list[tuple[Seat, MoveModel]] = field(default_factory=list)
    final: State | None = None
    events: list[Event] = field(default_factory=list)
    ended: bool = False
    positions: list[Position] = field(default_factory=list)


def canonical(value: Any) -> str:
    """JSON text with sorted keys, for exact comparisons of states and views."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _text(value: Any) -> str:
    """The kit's own canonical JSON (orjson, keys sorted: ten times faster than :func:`canonical`);
    raises ``TypeError`` for a value that is no JSON (a key that is no string, a set)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


def play_random_game(
    ruleset: Ruleset,
    n_players: int,
    seed: int,
    options: BaseModel | None = None,
    max_moves: int = 5000,
    check: bool = True,
    cap: int | None = None,
) -> PlayedGame:
    """Play one game with uniformly random legal moves (one seat of a simultaneous step at a
    time, drawn at random); with ``check``, assert the contract at every position and then the
    deep checks at a sample of them (module docstring).

    ``cap`` stops the game after that many plies (``ended`` stays ``False``); without it a game
    that has not ended after ``max_moves`` plies is a failure.  Raises ``AssertionError`` naming
    the seed and ply of the first violation.
    """
    options = options if options is not None else ruleset.parse_options({})
    chooser = random.Random(seed)
    state = ruleset.setup(n_players, options, seed)
    game = PlayedGame(seed=seed, n_players=n_players, options=options)
    text = _text(state)
    for ply in range(cap if cap is not None else max_moves):
        where = f"{ruleset.name} seed={seed} players={n_players} ply={ply}"
        acting = ruleset.to_act(state)
        position = Position(ply, state, frozenset(acting))
        if check:
            _check_position(ruleset, position, n_players, where)
            game.positions.append(position)
        if not acting:
            game.ended = True
            break
        seat = chooser.choice(sorted(acting))
        legal = ruleset.legal_moves(state, seat)
        assert legal, f"{where}: seat {seat} is to act but has no legal move"
        position.seat, position.legal = seat, legal
        move = chooser.choice(legal)
        try:
            new, events = ruleset.apply(state, seat, move)
        except IllegalMove as exc:
            raise AssertionError(f"{where}: listed legal move {move} of seat {seat} refused: {exc.message}") from None
        new_text = _text(new)
        if check:
            assert _text(state) == text, f"{where}: apply({move}) mutated its input"
            assert orjson.loads(new_text) == new, f"{where}: the state after {move} does not round-trip JSON"
            _check_events(ruleset, new, n_players, events, where)
            _check_reversible(ruleset, state, seat, move, new, events, f"{where} move={move!r}")
        assert new_text != text or events, f"{where}: move {move} changed nothing"
        state, text = new, new_text
        game.moves.append((seat, move))
        game.events.extend(events)
    else:
        if cap is None:
            raise AssertionError(f"{ruleset.name} seed={seed}: no end after {max_moves} moves")
        game.ended = not ruleset.to_act(state)
    if game.ended:
        assert ruleset.result(state) is not None, f"{ruleset.name} seed={seed}: nobody to act but no result"
    game.final = state
    if check:
        _deep_checks(ruleset, game, random.Random(seed))
    return game


def _check_reversible(ruleset: Ruleset, before: State, seat: Seat, move: MoveModel, after: State,
                      events: list[Event], where: str) -> None:
    """A move declared reversible revealed nothing; ``is_reversible`` changes neither state."""
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


def check_game(ruleset: Ruleset, n_players: int, seed: int, options: BaseModel, cap: int | None = None,
               max_moves: int = 5000) -> PlayedGame:
    """One checked random game, its result's ranks and its replay (module docstring)."""
    game = play_random_game(ruleset, n_players, seed, options, max_moves=max_moves, cap=cap)
    if game.ended:
        check_result(ruleset.result(game.final), n_players, f"{ruleset.name} seed={seed} players={n_players}")
    assert _text(replay(ruleset, game)) == _text(game.final), (
        f"{ruleset.name} seed={seed}: replay fold differs from the final state"
    )
    return game


def check_case(ruleset: Ruleset, case: Case, seeds: Iterable[int] = (1, 2), cap: int | None = None) -> list[PlayedGame]:
    """The whole kit on one case: a checked game per seed, cut after ``cap`` plies if given."""
    options = ruleset.parse_options(case.options)
    return [check_game(ruleset, case.n_players, seed, options, cap=cap) for seed in seeds]


def random_games(
    ruleset: Ruleset,
    n_players: list[int] | None = None,
    games: int = 5,
    seed: int = 1,
    options: list[dict[str, Any]] | None = None,
    max_moves: int = 5000,
    check: bool = False,
) -> list[PlayedGame]:
    """``games`` whole random games per player count (default: every count) and option set, with
    seeds ``seed * 1_000_003 + count * 1000 + index``; with ``check``, each one checked by the kit
    (:func:`check_game`).  Without, they are for a game's own tests of its invariants."""
    counts = n_players or list(range(ruleset.min_players, ruleset.max_players + 1))
    played = []
    for raw_options in options or [{}]:
        parsed = ruleset.parse_options(raw_options)
        for count in counts:
            for index in range(games):
                game_seed = seed * 1_000_003 + count * 1000 + index
                if check:
                    played.append(check_game(ruleset, count, game_seed, parsed, max_moves=max_moves))
                else:
                    played.append(play_random_game(ruleset, count, game_seed, parsed, max_moves, check=False))
    return played


def check_result(result: Result | None, n_players: int, where: str) -> None:
    """Ranks follow scores (``Result``): one score, place and breakdown per seat; a higher score
    is never placed behind a lower one; seats sharing a place share the score; with several seats
    a place is 1 + the number of seats placed ahead (competition ranking, a tie-break may separate
    equal scores); a solo seat's place is 1 or 2 (behind a rival that is no seat); breakdowns add up,
    a rival's (``Result.rivals``) to its score too."""
    assert result is not None, f"{where}: the game is over but has no result"
    scores, ranks = result.scores, result.ranks
    assert len(scores) == len(ranks) == n_players, f"{where}: {scores} / {ranks} for {n_players} seats"
    for seat, rank in enumerate(ranks):
        ahead = sum(other < rank for other in ranks)
        if n_players > 1:
            assert rank == 1 + ahead, f"{where}: ranks {ranks} are no competition ranking"
        else:
            assert rank in (1, 2), f"{where}: a solo seat placed {rank}"
        for other, other_rank in enumerate(ranks):
            if other_rank < rank:
                assert scores[other] >= scores[seat], f"{where}: ranks {ranks} do not follow scores {scores}"
            if other_rank == rank:
                assert scores[other] == scores[seat], f"{where}: seats with scores {scores} share places {ranks}"
    if result.breakdown:
        assert [sum(parts.values()) for parts in result.breakdown] == scores, (
            f"{where}: breakdowns {result.breakdown} do not add up to {scores}")
    for rival in result.rivals:
        assert not rival.breakdown or sum(rival.breakdown.values()) == rival.score, (
            f"{where}: {rival.name}'s breakdown {rival.breakdown} does not add up to {rival.score}")


@dataclass
class Facts:
    """What random play showed: several seats to act at once, a non-empty ``secrets``."""

    simultaneous: bool = False
    hidden_information: bool = False


def observed_facts(ruleset: Ruleset, played: Iterable[Case], seeds: Iterable[int] = (1, 2),
                   cap: int = 400) -> Facts:
    """Play unchecked random games over ``played`` (up to ``cap`` plies each) until every fact the
    ruleset declares ``True`` has shown, and return what showed: a declared fact that never shows
    is a claim the kit cannot check (the per-position checks cover the other direction)."""
    facts = Facts()
    wanted = Facts(ruleset.simultaneous, ruleset.hidden_information)
    for case in played:
        options = ruleset.parse_options(case.options)
        for seed in seeds:
            chooser = random.Random(seed)
            state = ruleset.setup(case.n_players, options, seed)
            for _ in range(cap):
                if facts == wanted:
                    return facts
                acting = sorted(ruleset.to_act(state))
                facts.simultaneous |= len(acting) > 1
                facts.hidden_information |= any(ruleset.secrets(state, seat) for seat in range(case.n_players))
                if not acting:
                    break
                seat = chooser.choice(acting)
                state, _ = ruleset.apply(state, seat, chooser.choice(ruleset.legal_moves(state, seat)))
    return facts


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


# -- the checks at every position -------------------------------------------------------------------


def _check_position(ruleset: Ruleset, position: Position, n_players: int, where: str) -> None:
    state, acting = position.state, position.acting
    seats = range(n_players)
    assert acting <= set(seats), f"{where}: to_act {set(acting)} holds unknown seats"
    assert len(acting) <= 1 or ruleset.simultaneous, f"{where}: seats {set(acting)} act at once, but " \
                                                     f"{ruleset.name} does not declare itself simultaneous"
    if not acting:
        assert ruleset.result(state) is not None, f"{where}: nobody to act but no result"
    for seat in seats:
        timeout = ruleset.timeout_move(state, seat)
        if seat not in acting:
            assert ruleset.legal_moves(state, seat) == [], f"{where}: seat {seat} is not to act but has legal moves"
            assert timeout is None, f"{where}: seat {seat} is not to act but has a time-out move {timeout}"
        elif timeout is not None:
            assert timeout in ruleset.legal_moves(state, seat), f"{where}: time-out move {timeout} of seat {seat} is illegal"
    secrets = {owner: ruleset.secrets(state, owner) for owner in seats}
    assert ruleset.hidden_information or not any(secrets.values()), (
        f"{where}: secrets {secrets} but {ruleset.name} does not declare hidden information")
    _check_views(ruleset, state, n_players, secrets, where)


def _check_views(ruleset: Ruleset, state: State, n_players: int, secrets: dict[Seat, set[str]], where: str) -> None:
    viewers: list[Seat | None] = [None, *range(n_players)]
    views = {viewer: _text(ruleset.view(state, viewer)) for viewer in viewers}
    for owner, tokens in secrets.items():
        for token in tokens:
            for viewer in viewers:
                if viewer != owner:
                    assert token not in views[viewer], f"{where}: secret {token!r} of seat {owner} in the view of {viewer}"
    rng_value = state.get("rng") if isinstance(state, dict) else None
    if isinstance(rng_value, int) and rng_value > 10**6:
        for viewer, text in views.items():
            assert str(rng_value) not in text, f"{where}: PRNG state in the view of {viewer}"


def _check_events(ruleset: Ruleset, state: State, n_players: int, events: list[Event], where: str) -> None:
    readers: list[Seat | None] = [None, *range(n_players)]
    for event in events:
        assert isinstance(event, Event) and event.text, f"{where}: {event!r} is no log event in words"
    for owner in range(n_players):
        secrets = ruleset.secrets(state, owner)
        if not secrets:
            continue
        for event in events:
            if any(event.visible_to(reader) and reader != owner for reader in readers):
                shared = event.model_dump_json()  # the template, every argument and the rule
                for token in secrets:
                    assert token not in shared, f"{where}: secret {token!r} of seat {owner} in a shared log entry"


# -- the deep checks at a sample of positions -------------------------------------------------------


def _kind(move: MoveModel) -> str:
    return str(getattr(move, "type", type(move).__name__))


def _deep_positions(positions: list[Position], spread: int = SPREAD_POSITIONS) -> list[Position]:
    """The first position that lists each kind of move, the first simultaneous step, ``spread``
    more evenly spread, and the last."""
    picked: dict[int, Position] = {}
    kinds: set[str] = set()
    simultaneous = False
    for position in positions:
        new = {_kind(move) for move in position.legal} - kinds
        if new or (len(position.acting) > 1 and not simultaneous):
            kinds |= new
            simultaneous |= len(position.acting) > 1
            picked[position.ply] = position
    for position in positions[:: max(1, len(positions) // spread)]:
        picked.setdefault(position.ply, position)
    picked[positions[-1].ply] = positions[-1]
    return [picked[ply] for ply in sorted(picked)]


def _deep_checks(ruleset: Ruleset, game: PlayedGame, chooser: random.Random) -> None:
    pool: dict[str, MoveModel] = {}
    for position in game.positions:
        for move in position.legal[:3] + position.legal[-2:]:
            pool.setdefault(_text(ruleset.dump_move(move)), move)
    others = list(pool.values())
    for text in MALFORMED:
        _assert_malformed(ruleset, text, f"{ruleset.name}: wire {text!r}")
    for index, position in enumerate(_deep_positions(game.positions)):
        where = f"{ruleset.name} seed={game.seed} players={game.n_players} ply={position.ply} (deep)"
        state, before = position.state, _text(position.state)
        assert (ruleset.result(state) is None) == bool(position.acting), f"{where}: a result while seats are to act"
        legal = {seat: ruleset.legal_moves(state, seat) for seat in range(game.n_players)}
        secrets = {seat: ruleset.secrets(state, seat) for seat in range(game.n_players)}
        for seat in range(game.n_players):
            _check_wire(ruleset, legal[seat], where)
            for move in _sample(chooser, legal[seat], SAMPLED_MOVES):
                _check_accepted(ruleset, state, seat, move, game.n_players, before, where)
            listed = set(legal[seat])
            unlisted = [move for move in others if move not in listed]
            hidden = set().union(*(tokens for owner, tokens in secrets.items() if owner != seat))
            for move in _sample(chooser, unlisted, REFUSED_MOVES):
                named = {token for token in hidden if token in _text(ruleset.dump_move(move))}
                _check_refused(ruleset, state, seat, move, seat in position.acting, hidden - named, before, where)
            _check_determinize(ruleset, state, seat, legal[seat], Rng(game.seed * 1000 + index), where)
        if len(position.acting) > 1:
            _check_simultaneous(ruleset, state, position.acting, legal, chooser, where)
        assert _text(state) == before, f"{where}: the deep checks changed the state"


def _sample(chooser: random.Random, moves: list[MoveModel], count: int) -> list[MoveModel]:
    return list(moves) if len(moves) <= count else chooser.sample(moves, count)


def _check_wire(ruleset: Ruleset, legal: list[MoveModel], where: str) -> None:
    """The ``legal`` list as frames write it is pydantic's JSON form; each move parses back."""
    wire = json.loads(json.dumps(dump_moves(ruleset, legal)))
    assert wire == [move.model_dump(mode="json") for move in legal], f"{where}: dump_moves differs from pydantic"
    assert orjson.loads(orjson.dumps(legal, default=move_json_default)) == wire, f"{where}: frame writer differs"
    kinds_done: set[str] = set()
    for move, raw in zip(legal, wire):
        assert ruleset.parse_move(raw) == move, f"{where}: move {move} does not round-trip JSON"
        assert isinstance(str(move), str) and str(move), f"{where}: move {move!r} does not read as words"
        if _kind(move) not in kinds_done:  # malformed forms of each kind of move
            kinds_done.add(_kind(move))
            _assert_malformed(ruleset, {**raw, "no_such_field": 1}, f"{where}: {move} with an unknown field")


def _assert_malformed(ruleset: Ruleset, raw: Any, where: str) -> None:
    try:
        ruleset.parse_move(raw)
    except MalformedMove as exc:
        assert exc.code == "bad_request" and exc.message, f"{where}: {exc.code} {exc.message!r}"
    else:
        raise AssertionError(f"{where}: parsed as a move")


def _check_accepted(ruleset: Ruleset, state: State, seat: Seat, move: MoveModel, n_players: int, before: str,
                    where: str) -> None:
    try:
        after, events = ruleset.check_and_apply(state, seat, move)
    except IllegalMove as exc:
        raise AssertionError(f"{where}: listed legal move {move} of seat {seat} refused: {exc.message}") from None
    assert _text(state) == before, f"{where}: apply({move}) mutated its input"
    _check_events(ruleset, after, n_players, events, where)


def _check_refused(ruleset: Ruleset, state: State, seat: Seat, move: MoveModel, to_act: bool, hidden: set[str],
                   before: str, where: str) -> None:
    """A move not listed for ``seat`` is refused, with the documented error, and changes nothing."""
    for call in (ruleset.check_and_apply, ruleset.apply):
        try:
            call(state, seat, move)
        except IllegalMove as exc:
            assert exc.code in ("illegal_move", "not_your_turn") and exc.message, f"{where}: error {exc.code!r}"
            if not to_act and call is ruleset.check_and_apply:
                assert exc.code == "not_your_turn", f"{where}: seat {seat} not to act got {exc.code!r}"
            leaked = [token for token in hidden if token in exc.message]
            assert not leaked, f"{where}: refusing {move} names another seat's secret {leaked}"
        else:
            raise AssertionError(f"{where}: {move} is not listed for seat {seat} but {call.__name__} accepts it")
        assert _text(state) == before, f"{where}: refusing {move} changed the state"


def _check_determinize(ruleset: Ruleset, state: State, seat: Seat, legal: list[MoveModel], rng: Rng,
                       where: str) -> None:
    view = ruleset.view(state, seat)
    view_text = _text(view)
    seed = rng.state
    world = ruleset.determinize(view, seat, rng)
    if world is None:  # the ruleset offers no search
        return
    where = f"{where}: determinize for seat {seat}"
    assert _text(view) == view_text, f"{where} changed the view it was given"
    assert orjson.loads(_text(world)) == world, f"{where}: the world is no JSON value"
    assert set(world) == set(state), f"{where}: fields {sorted(set(world) ^ set(state))} differ"
    assert _text(ruleset.view(world, seat)) == view_text, f"{where}: the seat's view of the world differs"
    assert _text(ruleset.view(world, None)) == _text(ruleset.view(state, None)), (
        f"{where}: the spectator's view differs (a public fact changed, or the spectator sees a hidden one)")
    assert ruleset.to_act(world) == ruleset.to_act(state), f"{where}: other seats to act"
    assert ruleset.legal_moves(world, seat) == legal, f"{where}: other legal moves"
    for move in legal[:2]:  # the kit tried a sample of them in the real state
        try:
            ruleset.apply(world, seat, move)
        except IllegalMove as exc:
            raise AssertionError(f"{where}: {move} refused in the world: {exc.message}") from None
    again = ruleset.determinize(ruleset.view(state, seat), seat, Rng(seed))
    assert _text(again) == _text(world), f"{where}: one rng seed gave two worlds"


def _check_simultaneous(ruleset: Ruleset, state: State, acting: frozenset[Seat], legal: dict[Seat, list[MoveModel]],
                        chooser: random.Random, where: str) -> None:
    """docs/architecture.md: in a simultaneous step another seat's move is no reason to reject yours."""
    for seat in sorted(acting):
        after, _ = ruleset.apply(state, seat, chooser.choice(legal[seat]))
        for other in sorted(acting - {seat}):
            assert other in ruleset.to_act(after), f"{where}: seat {seat}'s move took seat {other}'s turn"
            for move in _sample(chooser, legal[other], 2):
                try:
                    ruleset.check_and_apply(after, other, move)
                except IllegalMove as exc:
                    raise AssertionError(f"{where}: seat {seat}'s move made {move} of seat {other} illegal: "
                                         f"{exc.message}") from None


# -- languages: every text the game shows has an entry in each declared language -------------------

TRANSLATED_ARGS = ("card", "piece", "words")
"""Kinds of event argument whose ``text`` is words to translate (a place's label is the board's
coordinate or name as printed, a player's is their name; an amount's ``unit`` is translated)."""


def humanise(name: str) -> str:
    """An option value or field name as the options form shows it when the schema gives no words
    (``static/js/options-form.js``): ``"end_of_turn" -> "End of turn"``."""
    text = name.replace("_", " ")
    return text[:1].upper() + text[1:]


def option_texts(ruleset: Ruleset) -> set[str]:
    """The words of the ruleset's options form as the lobby shows them: each field's title (pydantic
    writes one for every field) and description, and each choice's label (``choice_labels`` in the
    schema, else the value humanised); plus the one-line ``summary``."""
    schema = ruleset.Options.model_json_schema()
    definitions = schema.get("$defs", {})
    found = {ruleset.summary} if ruleset.summary else set()
    for raw in schema.get("properties", {}).values():
        prop = raw
        if "$ref" in prop:  # an enum declared as its own class
            prop = {**definitions.get(prop["$ref"].rsplit("/", 1)[-1], {}), **{k: v for k, v in prop.items() if k != "$ref"}}
        for key in ("title", "description"):
            if isinstance(prop.get(key), str) and prop[key]:
                found.add(prop[key])
        labels = prop.get("choice_labels") or {}
        for value in prop.get("enum") or ():
            label = labels.get(value) if isinstance(value, str) else None
            if label is None and isinstance(value, str):
                label = humanise(value)
            if label:
                found.add(label)
    return found


def event_texts(events: Iterable[Event]) -> set[str]:
    """The msgids of ``events``: each template and each translatable argument's text or unit."""
    found: set[str] = set()
    for event in events:
        found.add(event.text)
        found |= argument_texts(event.args)
    return found


def argument_texts(args: dict[str, dict[str, Any]]) -> set[str]:
    """The msgids of typed arguments (an event's, a result's reason's): each translatable text and
    each amount's unit."""
    found: set[str] = set()
    for arg in args.values():
        kind = arg.get("kind")
        text = arg.get("text")
        if kind in TRANSLATED_ARGS and isinstance(text, str) and any(char.isalpha() for char in text):
            found.add(text)  # a text of digits and signs ("1, 3") is the same in every language
        elif kind == "amount" and isinstance(arg.get("unit"), str) and arg["unit"]:
            found.add(arg["unit"])
    return found


def shown_texts(ruleset: Ruleset, games: Iterable[PlayedGame]) -> set[str]:
    """Every msgid that ``games`` showed (:func:`event_texts`, the results' reasons and their
    arguments' texts, their rivals' names) and the
    options form's words (:func:`option_texts`)."""
    found = option_texts(ruleset)
    for game in games:
        found |= event_texts(game.events)
        if game.ended and game.final is not None:
            result = ruleset.result(game.final)
            if result is not None and result.reason:
                found.add(result.reason)
                found |= argument_texts(result.reason_args)
            found.update(rival.name for rival in (result.rivals if result is not None else []))
    return found


def declared_catalogs(ruleset: Ruleset) -> dict[str, Messages]:
    """Each declared language but English and its catalog, parsed; raises ``AssertionError`` for a
    declared language that ships no ``locales/<lang>.po`` or an English not declared first."""
    languages = type(ruleset).languages
    assert languages and languages[0] == "en", f"{ruleset.name}: languages {languages} must start with 'en'"
    catalogs = {}
    for language in languages[1:]:
        text = type(ruleset).locale_file(language)
        assert text is not None, f"{ruleset.name} declares {language!r} but ships no locales/{language}.po"
        catalogs[language] = parse_po(text, language)
    return catalogs


def check_catalogs(ruleset: Ruleset, seeds: Iterable[int] = (1,), cap: int | None = 400) -> set[str]:
    """Play unchecked random games (one per seed, up to ``cap`` plies) at every case
    (:func:`cases`) and assert every text they show has an entry in each declared language's
    catalog; returns the texts seen.  Raises ``AssertionError`` listing the missing msgids."""
    catalogs = declared_catalogs(ruleset)
    games = []
    for case in cases(ruleset):
        options = ruleset.parse_options(case.options)
        for seed in seeds:
            games.append(play_random_game(ruleset, case.n_players, seed, options, check=False, cap=cap))
    texts = shown_texts(ruleset, games)
    for language, catalog in catalogs.items():
        missing = sorted(text for text in texts if text not in catalog)
        assert not missing, f"{ruleset.name}: {len(missing)} texts without a {language!r} entry: {missing[:20]}"
    return texts

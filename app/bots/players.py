"""The bot levels: ``easy``, ``medium`` and ``strong`` for people, ``random`` for tests.

Every searching level starts from what its seat sees: the ruleset's optional ``determinize``
hook (app/rulesets/base.py) builds full states consistent with the seat's view, hidden parts
sampled, and the bot plays its candidate moves on those, never on the real state (which it is
never given).  A ruleset without the hook gets the random policy at every level.

* ``easy`` (:class:`SearchBot` with one sampled world, at most 8 candidate moves looked at,
  and one move in four uniformly random): fast and forgiving, it misses good moves and makes
  plain mistakes a beginner can punish.
* ``medium`` (:class:`SearchBot` as the server's only searching bot used to be): every
  candidate move (at most 200) applied on three sampled worlds and scored with the ruleset's
  ``evaluate``; the best average wins.  It is also the bot that takes a seat over from an
  absent person.  Tables stored with the old level name ``default`` play this level
  (:data:`LEVEL_ALIASES`), move for move as before.
* ``strong`` (:class:`IsmctsBot`): information-set Monte Carlo tree search (Cowling, Powley
  and Whitehouse 2012, "single observer" form) over a fresh sampled world per simulation,
  with ``evaluate`` at the leaves instead of random play-outs (after a few greedy moves where
  the ruleset asks for them: ``bot_playout_plies``, Nimalia and Through the Desert), within a
  time budget (the host setting ``bot_move_seconds``) or a fixed number of simulations
  (benchmarks, tests).  Where the ruleset asks for it (``bot_turn_width``: Nomadi, whose turn is
  six dice), a move that leaves the seat to move again is chosen by planning the rest of the turn
  instead (:func:`plan_turn`); the turn's last move is searched as above.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.rulesets.base import IllegalMove, MoveModel, Rng, Ruleset, Seat

LEVELS: tuple[str, ...] = ("easy", "medium", "strong")
"""The levels people choose from, weakest first."""
LEVEL_ALIASES: dict[str, str] = {"default": "medium"}
"""Old level names still found in stored seats: ``default`` was the one searching bot, now ``medium``."""
DEFAULT_LEVEL = "medium"
"""The level of a bot that takes a seat over from its person, and of a bot seated without a level."""
DEFAULT_MOVE_SECONDS = 1.0
"""The strong bot's time a move when the host sets nothing (``Settings.bot_move_seconds``)."""


HEADROOM = 0.85
"""Share of the strong bot's time budget after which it starts no further simulation."""


class BotPlayer(Protocol):
    """Chooses one of ``legal`` for ``seat`` from ``view``; ``rng`` is the bot's own randomness."""

    level: str

    def choose(self, ruleset: Ruleset, view: dict[str, Any], legal: list[MoveModel], seat: Seat,
               rng: Rng) -> MoveModel: ...


class RandomBot:
    """A uniformly random legal move (for tests and as the floor of the benchmarks)."""

    level = "random"

    def choose(self, ruleset, view, legal, seat, rng):
        return rng.choice(legal)


def _worlds(ruleset: Ruleset, view: dict[str, Any], seat: Seat, rng: Rng, count: int) -> list[Any]:
    """``count`` states behind ``view`` (fewer if the ruleset cannot build some; none without the hook)."""
    return [world for world in (ruleset.determinize(view, seat, rng) for _ in range(count)) if world]


def one_ply(ruleset: Ruleset, worlds: list[Any], seat: Seat, candidates: list[MoveModel],
            deadline: float | None = None) -> list[tuple[float, int]]:
    """``(mean evaluate after the move over worlds, index into candidates)`` per candidate looked at.

    A move ``apply`` refuses in a sampled world counts 0 there (``determinize`` promises that
    none is refused; the level played as ``default`` always counted so, and still does).  Stops
    after the candidate during which the monotonic clock passes ``deadline``."""
    scored = []
    for index, move in enumerate(candidates):
        total = 0.0
        for world in worlds:
            try:
                after, _ = ruleset.apply(world, seat, move)
            except IllegalMove:  # a sampled world where this move is not possible
                continue
            total += ruleset.evaluate(after, seat)
        scored.append((total / len(worlds), index))
        if deadline is not None and time.monotonic() > deadline:
            break
    return scored


class SearchBot:
    """One-ply search over determinized views: the ``easy`` and ``medium`` levels.

    ``samples`` states are drawn with ``ruleset.determinize``; each candidate move (at most
    ``max_candidates``, sampled uniformly when there are more) is applied on every sample and
    scored with ``ruleset.evaluate``; the best average wins, ties broken at random.  With
    probability ``blunder`` the bot plays a uniformly random legal move instead (a forgiving
    level).  Stops looking at further candidates once ``budget_seconds`` have passed (``None``:
    looks at them all, as benchmarks do so that a loaded machine does not weaken the bot).
    """

    def __init__(self, level: str = "medium", samples: int = 3, max_candidates: int = 200,
                 budget_seconds: float | None = 1.0, blunder: float = 0.0) -> None:
        self.level = level
        self.samples = samples
        self.max_candidates = max_candidates
        self.budget_seconds = budget_seconds
        self.blunder = blunder

    def choose(self, ruleset, view, legal, seat, rng):
        if len(legal) == 1:
            return legal[0]
        if self.blunder and rng.randrange(1_000_000) < self.blunder * 1_000_000:
            return rng.choice(legal)
        worlds = _worlds(ruleset, view, seat, rng, self.samples)
        if not worlds:
            return rng.choice(legal)
        candidates = list(legal)
        if len(candidates) > self.max_candidates:
            rng.shuffle(candidates)
            candidates = candidates[: self.max_candidates]
        deadline = None if self.budget_seconds is None else time.monotonic() + self.budget_seconds
        scored = one_ply(ruleset, worlds, seat, candidates, deadline)
        best_value = max(value for value, _ in scored)
        return rng.choice([candidates[index] for value, index in scored if value == best_value])


@dataclass(eq=False)
class _Node:
    """One move in the tree: who made it (``actor``), its one-ply score for that seat (``prior``:
    the order its siblings are first tried in, never averaged with searched values), how often a
    simulation went through it (``visits``), the sum of the values it brought back for its actor
    (``total``), and how often it was legal when its parent chose (``available``: ISMCTS's count
    for the exploration term)."""

    actor: Seat
    prior: float = 0.0
    visits: float = 0.0
    total: float = 0.0
    available: float = 0.0
    children: dict[str, _Node] = field(default_factory=dict)


@dataclass
class SearchStats:
    """What the last :meth:`IsmctsBot.choose` did, for benchmarks and profiles."""

    simulations: int = 0
    candidates: int = 0
    max_depth: int = 0
    seconds: float = 0.0


VALUE_MODES: tuple[str, ...] = ("maxn", "paranoid")
"""How the strong bot values a position for a seat other than its own (:class:`IsmctsBot`, 4)."""


class IsmctsBot:
    """The ``strong`` level: information-set Monte Carlo tree search with ``evaluate`` at the leaves.

    One decision:

    0. *Turn plan.*  With a turn width (``turn_width``; ``None``: the ruleset's ``bot_turn_width``,
       0 unless it names one) and a move that leaves the seat alone to act again, the decision is
       :func:`plan_turn`'s on the first of the ``prior_worlds`` states: the first move of the best
       rest of the turn by a beam search over the seat's own moves.  The steps below then decide
       only the turn's last move (and any other decision).
    1. *Root candidates.*  ``prior_worlds`` states are drawn with ``determinize`` and every legal
       move is scored one ply deep on them (as ``medium`` does); the ``root_width`` best stay
       candidates, that score their prior.  Wide games (a hundred placements) would otherwise
       spread the simulations too thin to tell the good moves apart.
    2. *Simulations.*  Each takes a root candidate and a world sampled from the view (hidden
       cards, deck order and the PRNG, so dice and draws differ between worlds): with
       ``common_worlds`` a candidate's k-th simulation plays in the k-th of a list of worlds the
       candidates share (common random numbers: candidates are compared on the same hidden cards
       and dice, so the luck of a world does not decide between them), else in a fresh one.  It
       then walks the tree: at a node, the seat to act (the lowest one, as the server's driver
       moves simultaneous seats) chooses among its children that are legal *in this world*:
       first a child no simulation went through yet, the one of highest prior; once all have
       been, by UCB1 on their values (ISMCTS's subset-armed bandit: a child's exploration term
       counts only the simulations in which it was available).  A child's value is the mean of
       the values searched below it, never averaged with its one-ply prior as such (one-ply
       scores flatter the mover: the reply is not seen, so a well-searched move would look worse
       than one scored one ply deep only); with ``prior_weight`` (default: worth 3 simulations;
       0: not at all) the mean is shrunk towards the
       prior *moved by the average change searching made to its siblings' values*, which keeps
       siblings compared at one depth and lets the prior, scored on ``prior_worlds`` worlds at
       the root, steady a mean of a few simulations.
    3. *Expansion.*  The first simulation to reach a node (with a game not over, fewer than
       ``max_depth`` moves below the root) scores the moves of the seat to act there one ply deep
       in its world (at most ``expand_limit`` of them, a random subset of more) and keeps the
       ``inner_width`` best for that seat as children, their scores as priors.  So an opponent's
       node starts from its best replies, not from replies drawn at random.  The simulation backs
       up the values after the best kept move or, with ``playout`` plies (``None``: the ruleset's
       ``bot_playout_plies``, 0 unless it names more), after that many greedy moves more from it,
       every seat playing its best move by its own ``evaluate`` among at most ``playout_width``
       (``None``: the ruleset's ``bot_playout_width``).  Where a move's worth shows only a few
       moves later (in Nimalia, the cards a seat passes are what its neighbour picks from next),
       the leaf is scored after that, not before.
    4. *Values.*  A node stores the value for the seat whose move it is.  ``values="maxn"``
       (max^n, Luckhardt and Irani 1986): each seat's own ``evaluate``, so every seat plays for
       itself; an expansion scores the actor's moves with the actor's ``evaluate`` and then
       evaluates the best one's state once for every other seat on the path.  ``"paranoid"``:
       another seat's move counts the searching seat's ``evaluate`` negated (every other seat
       plays against it; with more than two players known to play too defensively).  With two
       players and a zero-sum ``evaluate`` both are the same search.  Values are divided by the
       spread of the leaf values seen so far, so one ``exploration`` constant serves coins,
       points and victory points alike.
    5. *Choice.*  The root candidate of the highest value as in 2 (ties: the most visited, then
       the higher prior); with ``prior_weight`` 0, the one most visited (ties: the higher mean,
       then the higher prior).

    Budget: at most ``simulations`` simulations (``None``: no count limit) and at most
    ``seconds`` of wall-clock time for the whole decision, prior pass included: no simulation
    starts after :data:`HEADROOM` of it, which leaves the last one (and the trip to and from a
    worker process) time to end within ``seconds``.  A simulation costs about
    ``expand_limit`` applies and evaluations, plus ``playout_width`` for each play-out move.  Limitations, by design of single-observer ISMCTS:
    an opponent's node is searched as if the opponent saw the sampled world (it does not model
    what they do not know), and a simultaneous step is searched as if the lower seat's choice
    were seen by the higher one.  Raises ``ValueError`` without any budget or for an unknown
    ``values`` mode.
    """

    level = "strong"

    def __init__(self, seconds: float | None = DEFAULT_MOVE_SECONDS, simulations: int | None = None,
                 prior_worlds: int = 3, root_width: int = 8, inner_width: int = 5, expand_limit: int = 40,
                 exploration: float = 0.5, max_depth: int = 12, values: str = "maxn",
                 common_worlds: bool = True, prior_weight: float = 3.0, playout: int | None = None,
                 playout_width: int | None = None, turn_width: int | None = None) -> None:
        if seconds is None and simulations is None:
            raise ValueError("a strong bot needs a time or a simulation budget")
        if values not in VALUE_MODES:
            raise ValueError(f"values is one of {VALUE_MODES}, not {values!r}")
        self.seconds = seconds
        self.simulations = simulations
        self.prior_worlds = prior_worlds
        self.root_width = root_width
        self.inner_width = inner_width
        self.expand_limit = expand_limit
        self.exploration = exploration
        self.max_depth = max_depth
        self.values = values
        self.common_worlds = common_worlds
        self.prior_weight = prior_weight
        self.playout = playout
        self.playout_width = playout_width
        self.turn_width = turn_width
        self._cutoff: float | None = None  # the end of the decision's budget: a play-out stops there
        self.stats = SearchStats()

    def choose(self, ruleset, view, legal, seat, rng):
        started = time.monotonic()
        deadline = started + HEADROOM * self.seconds if self.seconds is not None else None
        self._cutoff = started + self.seconds if self.seconds is not None else None
        self.stats = SearchStats()
        if len(legal) == 1:
            return legal[0]
        worlds = _worlds(ruleset, view, seat, rng, self.prior_worlds)
        if not worlds:
            return rng.choice(legal)
        order = list(range(len(legal)))
        rng.shuffle(order)  # ties, and a prior pass cut short, favour no move by its place in the list
        shuffled = [legal[index] for index in order]
        width = ruleset.bot_turn_width if self.turn_width is None else self.turn_width
        if width:
            planned = plan_turn(ruleset, worlds[0], seat, shuffled, width, self.max_depth, deadline)
            if planned is not None:
                self.stats.seconds = time.monotonic() - started
                return shuffled[planned]
        scored = one_ply(ruleset, worlds, seat, shuffled, deadline)
        scored.sort(key=lambda pair: -pair[0])  # stable: equal scores keep the shuffled order
        kept = [(value, shuffled[index]) for value, index in scored[: self.root_width]]
        if not kept:
            return rng.choice(legal)
        if len(kept) == 1:
            return kept[0][1]
        root = _Node(actor=-1)
        candidates: list[tuple[str, MoveModel]] = []
        spread = _Spread()
        for value, move in kept:
            key = move.model_dump_json()
            root.children[key] = _Node(actor=seat, prior=value)
            candidates.append((key, move))
            spread.add(value)
        self.stats.candidates = len(candidates)
        shared = _SharedWorlds(ruleset, view, seat, rng) if self.common_worlds else None
        while self.simulations is None or self.stats.simulations < self.simulations:
            if deadline is not None and time.monotonic() > deadline:
                break
            self._simulate(ruleset, view, seat, rng, root, candidates, spread, shared)
            self.stats.simulations += 1
        self.stats.seconds = time.monotonic() - started

        shift = _depth_shift(root)

        def rank(pair: tuple[str, MoveModel]) -> tuple[float, float, float]:
            node = root.children[pair[0]]
            if self.prior_weight:
                return self._estimate(node, shift), node.visits, node.prior
            return node.visits, node.total / node.visits if node.visits else float("-inf"), node.prior

        return max(candidates, key=rank)[1]

    def _value(self, ruleset: Ruleset, state: Any, seat: Seat, of: Seat, spread: _Spread) -> float:
        """The value of ``state`` for seat ``of`` in this search's ``values`` mode (``seat`` searches)."""
        if self.values == "maxn" or of == seat:
            value = ruleset.evaluate(state, of)
            spread.add(value)
            return value
        return -ruleset.evaluate(state, seat)

    def _estimate(self, child: _Node, shift: float) -> float:
        """``child``'s value for its actor: the mean of its searched values, shrunk towards its prior
        moved by ``shift`` (what searching changed its siblings' values by on average, so both are
        at one depth) with the weight of ``prior_weight`` visits."""
        weight = self.prior_weight
        return (weight * (child.prior + shift) + child.total) / (weight + child.visits)

    def _select(self, node: _Node, options: list[tuple[str, MoveModel]],
                scale: float) -> tuple[_Node, MoveModel] | None:
        """The child of ``node`` a simulation goes through among ``options`` (the moves legal in its
        world): an untried one, highest prior first, else by UCB1; ``None`` if no child is legal."""
        best, best_score, best_move = None, float("-inf"), None
        untried, untried_prior, untried_move = None, float("-inf"), None
        shift = _depth_shift(node) if self.prior_weight else 0.0
        for key, move in options:
            child = node.children.get(key)
            if child is None:
                continue
            child.available += 1.0
            if child.visits == 0:
                if child.prior > untried_prior:
                    untried, untried_prior, untried_move = child, child.prior, move
                continue
            score = self._estimate(child, shift) / scale + self.exploration * math.sqrt(
                math.log(child.available) / child.visits)
            if score > best_score:
                best, best_score, best_move = child, score, move
        if untried is not None and untried_move is not None:
            return untried, untried_move
        if best is None or best_move is None:
            return None
        return best, best_move

    def _simulate(self, ruleset: Ruleset, view: dict[str, Any], seat: Seat, rng: Rng, root: _Node,
                  candidates: list[tuple[str, MoveModel]], spread: _Spread, shared: _SharedWorlds | None) -> None:
        """One simulation: a root candidate and a world (the candidate's next shared world, or a
        fresh one), down the tree (untried children first, by prior; then UCB1) among the children
        legal in it, one node expanded (its moves scored one ply deep), the values after the best of
        them backed up the path, each node's for its actor."""
        scale = spread.scale()
        plies = self._playout_plies(ruleset)
        if shared is not None:  # the root's moves are the seat's legal moves, the same in every world
            chosen = self._select(root, candidates, scale)
            if chosen is None:
                return
            world, rng = shared.next_for(chosen[0])
        else:
            chosen = None
            world = ruleset.determinize(view, seat, rng)
        if world is None:
            return
        path: list[_Node] = []
        node, state, depth = root, world, 0
        actor = seat
        values: dict[Seat, float] | None = None
        while True:
            if node is root:
                step = chosen if chosen is not None else self._select(root, candidates, scale)
            else:
                acting = ruleset.to_act(state)
                if not acting or depth >= self.max_depth:
                    break
                actor = min(acting)
                legal = ruleset.legal_moves(state, actor)
                if not legal:
                    break
                if not node.children:  # first visit: score this node's moves, keep the best few, stop
                    needed = {visited.actor for visited in path} | {seat}
                    values, best = self._expand(ruleset, node, state, actor, legal, seat, needed, rng, spread)
                    if plies and best is not None:
                        state, values = self._playout(ruleset, best, plies, rng), None
                    break
                step = self._select(node, [(move.model_dump_json(), move) for move in legal], scale)
            if step is None:  # none of the kept moves is legal in this world
                break
            try:
                state, _ = ruleset.apply(state, actor, step[1])
            except IllegalMove:  # a sampled world where the move is not possible
                return
            node = step[0]
            path.append(node)
            depth += 1
        if values is None:
            values = {of: self._value(ruleset, state, seat, of, spread)
                      for of in {visited.actor for visited in path} | {seat}}
        for visited in path:
            visited.visits += 1.0
            visited.total += values[visited.actor]
        self.stats.max_depth = max(self.stats.max_depth, depth)

    def _expand(self, ruleset: Ruleset, node: _Node, state: Any, actor: Seat, legal: list[MoveModel], seat: Seat,
                needed: set[Seat], rng: Rng, spread: _Spread) -> tuple[dict[Seat, float], Any]:
        """Give ``node`` (``actor`` to move in ``state``) its children: at most ``expand_limit`` of
        ``legal`` (a random subset of more), each applied and scored once for ``actor``, the
        ``inner_width`` best kept with that score as their prior.  Returns the values for the
        seats ``needed`` after ``actor``'s best move: what this simulation backs up."""
        moves = list(legal)
        if len(moves) > self.expand_limit:
            rng.shuffle(moves)
            moves = moves[: self.expand_limit]
        scored: list[tuple[float, int, Any, MoveModel]] = []
        for index, move in enumerate(moves):
            try:
                after, _ = ruleset.apply(state, actor, move)
            except IllegalMove:
                continue
            scored.append((self._value(ruleset, after, seat, actor, spread), index, after, move))
        if not scored:
            return {of: self._value(ruleset, state, seat, of, spread) for of in needed}, None
        scored.sort(key=lambda item: (-item[0], item[1]))
        for mine, _, _, move in scored[: self.inner_width]:
            node.children.setdefault(move.model_dump_json(), _Node(actor=actor, prior=mine))
        best_value, _, best_state, _ = scored[0]
        values = {of: best_value if of == actor else self._value(ruleset, best_state, seat, of, spread) for of in needed}
        return values, best_state

    def _playout_plies(self, ruleset: Ruleset) -> int:
        """How many moves a leaf is played on: ``playout``, else the ruleset's ``bot_playout_plies``
        (0 by default: the leaf is scored as it stands)."""
        return ruleset.bot_playout_plies if self.playout is None else self.playout

    def _playout(self, ruleset: Ruleset, state: Any, plies: int, rng: Rng) -> Any:
        """``state`` after at most ``plies`` greedy moves (fewer if the game ends): the lowest seat
        to act plays the move of its highest ``evaluate`` one ply deep among at most ``playout_width``
        (else the ruleset's ``bot_playout_width``) of its legal moves (a random subset of more; ties:
        the first listed).  Each seat plays for itself, as medium would, in the sampled world.  Stops
        early once the decision's whole time budget is spent (looked at every 16 moves tried), so a
        loaded machine overruns it by little; the leaf is then scored where the play-out got."""
        width = ruleset.bot_playout_width if self.playout_width is None else self.playout_width
        for _ in range(plies):
            if self._cutoff is not None and time.monotonic() > self._cutoff:
                break  # the budget is spent (a loaded machine): the leaf is scored where the play-out got
            acting = ruleset.to_act(state)
            if not acting:
                break
            actor = min(acting)
            moves = ruleset.legal_moves(state, actor)
            if not moves:
                break
            if len(moves) > width:
                moves = list(moves)
                rng.shuffle(moves)
                moves = moves[:width]
            best_value, best_state = float("-inf"), None
            for tried, move in enumerate(moves):
                if tried % 16 == 15 and self._cutoff is not None and time.monotonic() > self._cutoff:
                    return state
                try:
                    after, _ = ruleset.apply(state, actor, move)
                except IllegalMove:
                    continue
                value = ruleset.evaluate(after, actor)
                if value > best_value:
                    best_value, best_state = value, after
            if best_state is None:
                break
            state = best_state
        return state


def plan_turn(ruleset: Ruleset, world: Any, seat: Seat, legal: list[MoveModel], width: int,
              max_depth: int = 12, deadline: float | None = None) -> int | None:
    """The index into ``legal`` of the move that begins the best rest of ``seat``'s turn in
    ``world``, or ``None`` when no move of ``legal`` leaves ``seat`` alone to act again (no turn
    of several moves to plan: the tree search decides).

    Beam search over the seat's own consecutive moves: from the states after each of ``legal``,
    while ``seat`` is the only seat to act, every legal move of the ``width`` best states of
    distinct values (by ``evaluate`` for ``seat``; equal values are taken for one position reached
    in two orders, :func:`_distinct`) is applied; a state where the turn has passed (another seat acts, or
    the game is over), or where ``seat`` has no legal move, is a finished plan scored by
    ``evaluate``.  The first move of the best finished plan wins; ties go to the one first in
    ``legal`` (which the caller shuffles).  ``max_depth`` moves at most (a turn that could go on,
    such as one of coin gifts, ends there; the states then are scored as plans), and no further
    depth after the monotonic clock passes ``deadline``.  In ``world``, one state drawn from the
    seat's view: a turn's own moves see nothing the seat does not (its dice are rolled; a card
    it reaches is a leaf of the ruleset's own, such as Nomadi's offer to another seat).
    """
    frontier: list[tuple[int, Any]] = []
    for index, move in enumerate(legal):
        try:
            after, _ = ruleset.apply(world, seat, move)
        except IllegalMove:  # a sampled world where this move is not possible
            continue
        frontier.append((index, after))
    if not any(ruleset.to_act(after) == {seat} for _, after in frontier):
        return None
    best_value, best_index = float("-inf"), None
    for depth in range(1, max_depth + 1):
        going: list[tuple[float, int, Any]] = []
        for index, state in frontier:
            value = ruleset.evaluate(state, seat)
            if ruleset.to_act(state) == {seat} and depth < max_depth:
                going.append((value, index, state))
            elif value > best_value:
                best_value, best_index = value, index
        if not going:
            break
        going.sort(key=lambda item: -item[0])  # stable: equal values keep the order of legal
        if deadline is not None and time.monotonic() > deadline:  # the budget is spent: the best so far
            if best_index is None or going[0][0] > best_value:
                best_index = going[0][1]
            break
        frontier = []
        for value, index, state in _distinct(going, width):
            moves = ruleset.legal_moves(state, seat)
            if not moves and value > best_value:  # the seat is stuck: the plan ends here
                best_value, best_index = value, index
            for move in moves:
                try:
                    after, _ = ruleset.apply(state, seat, move)
                except IllegalMove:
                    continue
                frontier.append((index, after))
    return best_index


def _distinct(ranked: list[tuple[float, int, Any]], width: int) -> list[tuple[float, int, Any]]:
    """The first ``width`` entries of ``ranked`` of distinct values (the first of equal ones kept).

    A turn's moves reach one position in several orders (Nomadi: the same dice on the same stones);
    such transpositions score alike, so states of equal value are taken for one, and the beam keeps
    ``width`` different positions rather than one position in several orders.  (Two positions that
    differ and score exactly alike are rare; the beam then keeps one of them.)"""
    kept: list[tuple[float, int, Any]] = []
    seen: set[float] = set()
    for entry in ranked:
        if entry[0] not in seen:
            seen.add(entry[0])
            kept.append(entry)
            if len(kept) == width:
                break
    return kept


def _depth_shift(node: _Node) -> float:
    """The mean of searched value minus prior over ``node``'s searched children (0 if none is)."""
    shifts = [child.total / child.visits - child.prior for child in node.children.values() if child.visits]
    return sum(shifts) / len(shifts) if shifts else 0.0


class _SharedWorlds:
    """The worlds the root candidates share: a candidate's k-th simulation plays in the k-th world
    (drawn with ``determinize`` from the view when first needed), its expansions with that world's
    own randomness.  So candidates are compared on the same hidden cards, dice and sampled replies
    (common random numbers), and a difference between their values is the moves', not the luck of
    their worlds."""

    def __init__(self, ruleset: Ruleset, view: dict[str, Any], seat: Seat, rng: Rng) -> None:
        self.ruleset, self.view, self.seat, self.rng = ruleset, view, seat, rng
        self.seeds: list[int] = []
        self.worlds: list[Any] = []
        self.uses: dict[int, int] = {}

    def next_for(self, candidate: _Node) -> tuple[Any, Rng]:
        """``candidate``'s next world (``None`` if the ruleset builds none) and its randomness."""
        index = self.uses.get(id(candidate), 0)
        self.uses[id(candidate)] = index + 1
        while len(self.seeds) <= index:
            self.seeds.append(self.rng.next64())
            self.worlds.append(self.ruleset.determinize(self.view, self.seat, Rng(self.seeds[-1])))
        return self.worlds[index], Rng(self.seeds[index] ^ 0x5DEECE66D)


class _Spread:
    """Running standard deviation of leaf values (Welford), the search's unit of value."""

    def __init__(self) -> None:
        self.count, self.mean, self.m2 = 0, 0.0, 0.0

    def add(self, value: float) -> None:
        self.count += 1
        delta = value - self.mean
        self.mean += delta / self.count
        self.m2 += delta * (value - self.mean)

    def scale(self) -> float:
        """The spread so far (1.0 before two values differ)."""
        if self.count < 2 or self.m2 <= 0:
            return 1.0
        return math.sqrt(self.m2 / (self.count - 1))


def canonical_level(level: str) -> str:
    """``level`` with an old name (:data:`LEVEL_ALIASES`) replaced by the level it plays now."""
    return LEVEL_ALIASES.get(level, level)


def known_level(level: str) -> bool:
    """Whether :func:`make_bot` accepts ``level`` (the levels, ``random``, and the old names)."""
    return canonical_level(level) in LEVELS or level == "random"


def make_bot(level: str, seconds: float | None = DEFAULT_MOVE_SECONDS, simulations: int | None = None) -> BotPlayer:
    """The bot of ``level`` (an old name plays as its :data:`LEVEL_ALIASES` level).

    ``seconds``: the time budget a move (the host setting): the strong bot searches that long, the
    others stop looking at more moves after it (``None``: no time limit, for load-independent
    benchmarks and reproducible tests); ``simulations``: the strong bot's fixed simulation count
    (with both, the first reached ends its search).  Raises ``KeyError`` for an unknown level."""
    level = canonical_level(level)
    if level == "random":
        return RandomBot()
    if level == "easy":
        return SearchBot("easy", samples=1, max_candidates=8, budget_seconds=seconds, blunder=0.25)
    if level == "medium":
        return SearchBot("medium", samples=3, max_candidates=200, budget_seconds=seconds)
    if level == "strong":
        return IsmctsBot(seconds=seconds, simulations=simulations)
    raise KeyError(level)


BOT_LEVELS: tuple[str, ...] = ("random", *LEVELS)
"""Every level a seat may be given through the API (old names are accepted too: :func:`known_level`)."""

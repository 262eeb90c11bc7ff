"""How good a Nomadi position is for one seat: ``Nomadi.evaluate``, for the default bot's search.

The value is in coins (the unit of the final score, R-36)::

    value(s) = coins + cards held                        a drawn card at the mean of the drawn ones
             + share of a pending offer                  the owner takes it with ``offer_accept / (1 + price)``
             + start_last                                if s owns the one stone left on the start (R-28)
             + goal potential                            the rewards still open (R-31), by distance
             + own_progress * steps s's stones came      toward the goal (a stone in the goal: all the way)
             - risk * dice the mover cannot use now      only for the seat to move or to roll (R-17)
    position_value = value(seat) + caravan_progress * steps all stones came - max(value(other))
    evaluate = position_value, for the mover in the middle of its own turn the best position_value
               after one more of its dice (``follow_ups``); once over: the margin +/- win_bonus

The goal potential sorts the stones not yet in the goal by their distance to it (N4 steps over
playable cells, ``Board.goal_distances``); the k-th nearest stone stands to earn the k-th reward
still open (8, 6, 4), discounted by ``goal_decay`` per step and credited to its owner.  The seat
to act owns the tempo: its stones count ``tempo`` steps nearer, and a stone of its own that one of
its dice in hand (or, about to roll, any die value) can put into the goal right now counts as
almost there (``entry``, ``roll_entry``); likewise every die in hand that no stone can use is a
coin it will probably pay (:class:`Jumps` answers both from rows of stones counted once).  The
caravan term is the evaluating seat's only (not zero-sum): the caravan must move for anyone to
score and a rear stone of another seat holds everyone back, so the bot moves those too.  Near the
turn limit (A-30) the positional terms fade out over ``horizon`` turns.

Dice are used one at a time, so the bot's one-ply search sees one die ahead; the look at the next
die (the ``follow_ups`` most promising next moves by steps gained, fewer in crowded positions) lets
it set up a jump or an entry and order its dice so fewer go unused.  A move that leaves the
position as it was but for coins (a coin gift of the trading variant, R-41a) is marked down by
``NULL_MOVE``: the bot makes no deals.

One bot decision is one :class:`Search`.  Its sampled states (``information.py``) differ only in
hidden values, which this evaluation does not read (drawn cards count at their mean), so the
search works out the positional part and the look at the next die once per position signature,
for all its samples.  It also knows the positions it decides from, which only a null move leads
back to.  Nothing is shared between searches: two games whose bots think at the same time in two
threads (the server's worker threads) cannot see each other's positions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Protocol

from app.rulesets.base import Event, Seat
from app.rulesets.nomadi.board import ALL_AROUND, ORTHOGONAL, Board, Cell, as_cell, cell_key
from app.rulesets.nomadi.effects import GOAL_REWARDS
from app.rulesets.nomadi.movement import Caravan, caravan
from app.rulesets.nomadi.moves import AnyMove, Gift, UseDie
from app.rulesets.nomadi.scoring import final_result
from app.rulesets.nomadi.state import Card, NomadiState, mover


@dataclass(frozen=True)
class Weights:
    """The constants of the evaluation (module docstring)."""

    goal_decay: float = 0.85
    """Share of an open goal reward kept per step between a stone and the goal."""
    tempo: float = 2.0
    """Steps by which the stones of the seat to move (or to roll next) count nearer the goal."""
    entry: float = 0.5
    """Effective distance of a stone the mover can put into the goal with an unused die now."""
    own_progress: float = 0.15
    """Coins per step one of the seat's own stones has come toward the goal."""
    caravan_progress: float = 0.1
    """Coins per step any stone has come toward the goal, for the evaluating seat only: the
    caravan has to move for anyone to score, and a rear stone of another seat holds it back."""
    die_at_risk: float = 0.6
    """Coins charged to the mover per unused die that no stone can use in the position (R-17)."""
    next_turn_risk: float = 0.7
    """Coins charged to the seat about to roll per die value (1-6) no stone can use: each value
    shows on one of its six dice on average, and a die that cannot be used costs a coin (R-17)."""
    roll_entry: float = 1.0
    """Effective distance of a stone the seat about to roll could put into the goal with some die
    value (about two chances in three that one of its six dice shows it)."""
    start_last: float = 4.0
    """Coins to the owner of the one stone left on the start while the R-28 bonus (5) is open."""
    offer_accept: float = 0.5
    """Assumed chance that the owner accepts an offered card at no price (R-30b)."""
    horizon: float = 8.0
    """Turns before the turn limit (A-30) from which on the positional terms fade out linearly."""
    follow_ups: int = 4
    """Next die uses tried for the mover in the middle of its own turn (0: none) ..."""
    follow_up_budget: int = 100
    """... but no more than this many divided by the number of next moves (at least 2)."""
    win_bonus: float = 10.0
    """Added to (subtracted from) the final margin of a finished game won (lost)."""


WEIGHTS = Weights()
NULL_MOVE = 1000.0
"""Taken off a position the seat's move left as it was but for coins: a coin gift (R-41a), the one
such move.  The bot makes no deals, so it never gives coins away; and without this a gift would
look like a way to put off the end of the turn that the look at the next die sees coming."""
CHEAP_TALK = 1e-6
"""R-30b: a claim binds nobody, and the bot's answers ignore claims; so the bot makes none (this
tips the otherwise equal offers)."""
ALL_VALUES = Counter(range(1, 7))
"""One die of each value: what a seat about to roll may get."""

Signature = tuple[Hashable, ...]
"""What the evaluation reads of a state but the coins and the drawn values (:func:`signature`)."""
Parts = tuple[tuple[float, ...], float]
"""Every seat's value but its coins, and the evaluating seat's caravan term (:func:`_parts`)."""


class Rules(Protocol):
    """What the evaluation needs of the ruleset: its board, and its moves for the look at the
    next die (``rules.Nomadi``)."""

    board: Board

    def legal_moves(self, state: NomadiState, seat: Seat) -> list[AnyMove]: ...

    def apply(self, state: NomadiState, seat: Seat, move: AnyMove) -> tuple[NomadiState, list[Event]]: ...


class Search:
    """One bot decision: the positions it decides from and what its sampled states share.

    ``Nomadi.determinize`` opens a search for a view (:func:`search_from`) and adds each sampled
    state as a root; ``Nomadi.evaluate`` scores the states after the candidate moves within it
    (:func:`current_search`).  The caches live as long as the search: a signature maps to the
    same value in every search, but a search sees only what it worked out itself.
    """

    def __init__(self, rules: Rules, view: object = None, weights: Weights = WEIGHTS) -> None:
        self.rules = rules
        self.view = view
        """The view the search decides from (compared by identity: one decision, one view object)."""
        self.weights = weights
        self._roots: set[tuple[Seat, Signature]] = set()
        self._parts: dict[Signature, Parts] = {}
        self._gains: dict[Signature, float] = {}

    def add_root(self, state: NomadiState, seat: Seat) -> None:
        """``state`` is one the search decides from for ``seat``: only a null move leads back to it."""
        self._roots.add((seat, signature(state)))

    def evaluate(self, state: NomadiState, seat: Seat) -> float:
        """The seat's value minus the best other seat's (module docstring); higher is better."""
        if state["phase"] == "over":
            return final_margin(state, seat, self.weights)
        key = signature(state)
        value = self.position_value(state, seat, key)
        if (seat, key) in self._roots:  # a move that changed nothing but coins: a gift (R-41a)
            return value - NULL_MOVE
        if self.weights.follow_ups and state["phase"] == "move" and state["current"] == seat:
            value += self._follow_up_gain(state, seat, value, key)
        return value

    def position_value(self, state: NomadiState, seat: Seat, key: Signature) -> float:
        """:func:`position_value`, the parts worked out once per signature ``key``."""
        parts = self._parts.get(key)
        if parts is None:
            parts = self._parts[key] = _parts(self.rules.board, state, self.weights)
        return _value(parts, state, seat)

    def _follow_up_gain(self, state: NomadiState, seat: Seat, value: float, key: Signature) -> float:
        """How much better the seat's position gets with its best next die use: the best
        ``position_value`` after one more move, among the ``follow_ups`` most promising ones
        (ordered by steps gained), minus ``value``."""
        gain = self._gains.get(key)
        if gain is not None:
            return gain
        weights, board = self.weights, self.rules.board
        distance = board.goal_distances(state["oasis"])
        goal = board.goal_cells(state["oasis"])
        far = board.width + board.height
        owners = {as_cell(stone["cell"]): stone["owner"] for stone in state["stones"] if stone["cell"]}

        def promise(move: AnyMove) -> float:
            if not isinstance(move, UseDie):
                return -far
            gained = distance.get(move.stone, far) - distance.get(move.to, far)
            if move.to in goal:
                gained += far
            if cell_key(move.to) in state["cards"]:
                gained += 2
            return gained if owners[move.stone] == seat else gained / 2

        moves = [move for move in self.rules.legal_moves(state, seat) if not isinstance(move, Gift)]
        moves.sort(key=promise, reverse=True)
        # the bot tries about as many moves now as there are next ones: keep the product near
        # ``follow_up_budget`` so that a crowded position stays within the time for a move
        tried = min(weights.follow_ups, max(2, weights.follow_up_budget // max(len(moves), 1)))
        best = max(
            (position_value(board, self.rules.apply(state, seat, move)[0], seat, weights) for move in moves[:tried]),
            default=value,
        )
        gain = self._gains[key] = best - value
        return gain


_CURRENT: ContextVar[Search | None] = ContextVar("nomadi_search", default=None)
"""The search under way in this context.  ``asyncio.to_thread`` runs each bot move in a copy of
the caller's context and every thread has its own, so a search is never current anywhere else."""


def search_from(rules: Rules, view: object) -> Search:
    """The search deciding from ``view`` with ``rules``: the current one if it was opened for that
    very view object, else a new one, which becomes current in this context."""
    search = _CURRENT.get()
    if search is None or search.view is not view or search.rules is not rules:
        search = Search(rules, view)
        _CURRENT.set(search)
    return search


def current_search(rules: Rules) -> Search:
    """The search the last ``determinize`` with ``rules`` opened in this context, or, outside any,
    a new search of its own (no roots, nothing cached yet)."""
    search = _CURRENT.get()
    if search is None or search.rules is not rules:
        return Search(rules)
    return search


def position_value(board: Board, state: NomadiState, seat: Seat, weights: Weights = WEIGHTS) -> float:
    """The evaluation without the look at the next die and without a search's caches."""
    if state["phase"] == "over":
        return final_margin(state, seat, weights)
    return _value(_parts(board, state, weights), state, seat)


def final_margin(state: NomadiState, seat: Seat, weights: Weights = WEIGHTS) -> float:
    """A finished game: the seat's final score minus the best other, +/- ``win_bonus`` (R-36)."""
    scores = final_result(state, state["end_reason"] or "").scores
    margin = scores[seat] - max(score for other, score in enumerate(scores) if other != seat)
    return margin + (weights.win_bonus if margin > 0 else -weights.win_bonus if margin < 0 else 0.0)


def _value(parts: Parts, state: NomadiState, seat: Seat) -> float:
    shares, caravan_term = parts
    values = [balance + share for balance, share in zip(state["coins"], shares)]
    values[seat] += caravan_term
    return values[seat] - max(value for other, value in enumerate(values) if other != seat)


def card_worth(state: NomadiState) -> float:
    """What an unseen card is worth to the seat whose view ``state`` was built from: the mean of
    the drawn (``"sampled"``) values, which are exactly the cards that seat has not seen."""
    total = count = 0
    for card in _all_cards(state):
        if card.get("sampled"):
            total += card["value"]
            count += 1
    return total / count if count else 0.0


def _all_cards(state: NomadiState) -> Iterator[Card]:
    yield from state["cards"].values()
    yield from state["card_pool"]
    for hand in state["hands"]:
        yield from hand
    if state["offer"] is not None:
        yield state["offer"]["card"]


def signature(state: NomadiState) -> Signature:
    """Everything of a state that ``_parts`` and the look at the next die read but the coins:
    drawn cards only as drawn, and the mean at which they count (:func:`card_worth`; in a game
    all 18 cards are somewhere, so the cards the seat knows fix it and it is the same for every
    sample of a search)."""
    offer = state["offer"]
    return (
        card_worth(state),
        state["board"], state["phase"], state["current"], state["turn"], state["options"]["turn_limit"], state["oasis"],
        state["arrivals"], state["crossed"], state["all_crossed"], state["start_emptied"],
        tuple((as_cell(s["cell"]) if s["cell"] else None, s["departed"], s["locked"]) for s in state["stones"]),
        tuple(state["dice"]), tuple(state["used"]),
        tuple((m[0], m[1], as_cell(m[2]), as_cell(m[3])) for m in state["history"]),
        tuple(state["cards"]), len(state["card_pool"]),
        tuple(tuple(_known(card) for card in hand) for hand in state["hands"]),
        offer and (offer["owner"], offer["claim"], offer["price"], _known(offer["card"])),
    )


def _known(card: Card) -> int | None:
    """A card's value, or ``None`` for a drawn one."""
    return None if card.get("sampled") else card["value"]


def _parts(board: Board, state: NomadiState, weights: Weights) -> Parts:
    """Every seat's value but its coins, and the evaluating seat's caravan term (module docstring)."""
    n_players = state["players"]
    phase = state["phase"]
    unseen = card_worth(state)

    def worth(card: Card) -> float:
        return unseen if card.get("sampled") else card["value"]

    values = [sum(worth(card) for card in state["hands"][other]) for other in range(n_players)]

    offer = state["offer"]
    if offer is not None:  # R-30b: the card goes to the owner, or stays with the mover
        card, price = worth(offer["card"]), offer["price"]
        accept = weights.offer_accept / (1 + price)
        values[offer["owner"]] += accept * (card - price)
        values[mover(state)] += (1 - accept) * card + accept * price
        if offer["claim"] is None:
            values[mover(state)] += CHEAP_TALK

    if not state["start_emptied"]:  # the owner of the last stone to leave gets 5
        starters = [s["owner"] for s in state["stones"] if s["cell"] and as_cell(s["cell"]) in board.start_set]
        if len(starters) == 1:
            values[starters[0]] += weights.start_last

    # the seat to act with dice in hand (or about to roll them) and what those dice can do now
    acting = state["current"] if phase in ("roll", "move", "claim", "answer") else None
    if phase == "move":
        entries, unusable = _dice_now(board, state, _unused(state))
        entry, risk = weights.entry, weights.die_at_risk
    elif phase == "roll":
        entries, unusable = _dice_now(board, state, ALL_VALUES)
        entry, risk = weights.roll_entry, weights.next_turn_risk
    else:
        entries, unusable, entry, risk = set(), 0, 0.0, 0.0
    if unusable and acting is not None:
        values[acting] -= risk * unusable

    # what the caravan may still earn fades out as the turn limit comes near
    horizon = min(1.0, max(state["options"]["turn_limit"] - state["turn"] + 1, 0) / weights.horizon)
    distance = board.goal_distances(state["oasis"])
    origin = _start_distance(board, distance)
    far = board.width + board.height  # a cell cut off from the goal (not on a real board)
    caravan_steps = 0.0
    ranked: list[tuple[float, Seat, bool]] = []  # (effective distance, owner, whether the mover can put the stone in with a die in hand)
    for number, stone in enumerate(state["stones"]):
        if stone["cell"] is None:
            continue
        owner, d = stone["owner"], distance.get(as_cell(stone["cell"]), far)  # a stone in the goal: 0
        caravan_steps += origin - d
        values[owner] += weights.own_progress * (origin - d) * horizon
        if stone["locked"]:
            continue
        if number in entries:
            ranked.append((entry, owner, phase == "move"))
        elif owner == acting:
            ranked.append((max(d - weights.tempo, 1.0), owner, False))
        else:
            ranked.append((d, owner, False))
    ranked.sort()
    for reward, (steps, owner, in_hand) in zip(GOAL_REWARDS[state["arrivals"]:], ranked):
        values[owner] += reward * weights.goal_decay ** steps * (1.0 if in_hand else horizon)
    return tuple(values), weights.caravan_progress * caravan_steps * horizon


def _start_distance(board: Board, distance: dict[Cell, int]) -> float:
    """The mean distance of the start cells to the goal: where every stone's progress counts from
    (0 on a board without start cells, such as the tests' sketches)."""
    starts = [distance[cell] for cell in board.start_cells if cell in distance]
    return sum(starts) / len(starts) if starts else 0.0


def _unused(state: NomadiState) -> Counter[int]:
    """The values of the mover's unused dice, with their counts."""
    return Counter(value for value, used in zip(state["dice"], state["used"]) if not used)


def _dice_now(board: Board, state: NomadiState, dice: Counter[int]) -> tuple[set[int], int]:
    """What ``dice`` can do for the mover in this position: the mover's own stones one of them puts
    into the goal (stone ids), and how many of them no stone can use at all (R-17 charges such a
    die unless a later move opens a way; R-18 is left out)."""
    if not dice:
        return set(), 0
    goal = board.goal_cells(state["oasis"])
    distance = board.goal_distances(state["oasis"])
    jumps = Jumps(caravan(state, board))
    seat, reach = mover(state), max(dice) + 1  # a die takes a stone at most its value in steps (a 1: 2)
    entries = set()
    for number, stone in enumerate(state["stones"]):
        if stone["owner"] != seat or stone["cell"] is None or stone["locked"]:
            continue
        cell = as_cell(stone["cell"])
        steps = distance.get(cell, reach + 1)
        if steps <= reach and any(steps <= value + 1 and jumps.enters(cell, value, goal) for value in dice):
            entries.add(number)
    return entries, sum(count for value, count in dice.items() if not jumps.can_use(value))


class Jumps:
    """The move generator's questions about one position (``movement.Caravan``), answered faster
    for an evaluation that asks many of them: the rows of stones next to each stone are counted
    once and shared by every die value."""

    def __init__(self, position: Caravan) -> None:
        self.position = position
        self.stones = position.stones
        self.playable = position.board.playable_cells
        self._runs: dict[tuple[Cell, Cell], int] = {}
        cuts = position._cut_stones() or set()  # stones whose leaving splits the caravan: tried last
        movable = [cell for cell in self.stones if position.movable(cell)]
        self._movable = [cell for cell in movable if cell not in cuts] + [cell for cell in movable if cell in cuts]

    def run(self, cell: Cell, direction: Cell) -> int:
        """How many stones stand in a row from ``cell + direction`` on."""
        key = (cell, direction)
        found = self._runs.get(key)
        if found is None:
            after = (cell[0] + direction[0], cell[1] + direction[1])
            found = self._runs[key] = self.run(after, direction) + 1 if after in self.stones else 0
        return found

    def reachable(self, origin: Cell, value: int) -> set[Cell]:
        """``Caravan.reachable``: landings over exactly ``value - 1`` stones onto an empty playable cell."""
        stones, playable = self.stones, self.playable
        if value == 1:
            around = ((origin[0] + dr, origin[1] + dc) for dr, dc in ALL_AROUND)
            return {cell for cell in around if cell in playable and cell not in stones}
        found = set()
        jumped = value - 1
        for first in ORTHOGONAL:
            run = self.run(origin, first)
            if run == 0:
                continue
            if run == jumped:  # straight: the cell after the row is free
                landing = (origin[0] + value * first[0], origin[1] + value * first[1])
                if landing in playable:
                    found.add(landing)
            if value < 5:
                continue
            for t in range(1, min(run, jumped) + 1):  # 5, 6: turn on the t-th stone of the row
                corner = (origin[0] + t * first[0], origin[1] + t * first[1])
                rest = jumped - t
                for second in ((first[1], first[0]), (-first[1], -first[0])):
                    if self.run(corner, second) == rest:
                        landing = (corner[0] + (rest + 1) * second[0], corner[1] + (rest + 1) * second[1])
                        if landing in playable:
                            found.add(landing)
        return found

    def _legal(self, origin: Cell, landing: Cell) -> bool:
        return self.position.allowed_end(origin, landing) and self.position.stays_connected(origin, landing)

    def can_use(self, value: int) -> bool:
        """``Caravan.can_use`` without R-18: some stone has a legal move with ``value``."""
        return any(
            self._legal(origin, landing) for origin in self._movable for landing in self.reachable(origin, value)
        )

    def enters(self, origin: Cell, value: int, goal: frozenset[Cell]) -> bool:
        """Whether ``value`` can take the stone on ``origin`` into the goal."""
        if origin not in self._movable:
            return False
        return any(landing in goal and self._legal(origin, landing) for landing in self.reachable(origin, value))

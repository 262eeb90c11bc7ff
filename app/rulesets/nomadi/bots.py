"""The bot hooks of Nomadi (app/bots): a full state from one seat's view, and a heuristic value of
a position.

``determinize`` rebuilds the state layout of ``rules.py`` from what the seat sees.  Everything a
view shows is copied (stones, flags, dice, this turn's moves, card positions and ids, the seat's
own cards, the public claim and price of an offer); the rest is drawn from ``rng``:

* the values of the cards the seat has not seen: the 18-card multiset (R-8: four each of +1, +2,
  +3, three each of -1, -2) minus the seat's own cards and, for the mover, the card it inspected,
  dealt at random onto the face-down cards on the board, the other seats' hands, the offered card
  (for everyone but the mover) and the cards still to be laid (house rule R-42) -- exactly the
  distribution a shuffle leaves them;
* ids of cards nobody shows (other hands, the pool): the ids not seen anywhere;
* other seats' balances in the hidden-coins variant (R-39): the seat's own balance give or take
  ``HIDDEN_COIN_SPREAD``;
* the PRNG state.

Every drawn card carries ``"sampled": True`` (a key the rules and the view never read) so that
``evaluate`` can count it at the mean of the drawn values -- the seat's expectation of an unseen
card -- instead of at a value the seat does not know.  Without the mark a one-ply search would
accept or refuse an offered card on the luck of three draws.

``evaluate`` scores a position for one seat, in coins (the unit of the final score, R-36)::

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
playable cells, computed once per board); the k-th nearest stone stands to earn the k-th reward
still open (8, 6, 4), discounted by ``goal_decay`` per step and credited to its owner.  The seat
to act owns the tempo: its stones count ``tempo`` steps nearer, and a stone of its own that one of
its dice in hand (or, about to roll, any die value) can put into the goal right now counts as
almost there (``entry``, ``roll_entry``); likewise every die in hand that no stone can use is a
coin it will probably pay (``Jumps`` answers both from rows of stones counted once).  The caravan
term is the evaluating seat's only (not zero-sum): the caravan must move for anyone to score and a
rear stone of another seat holds everyone back, so the bot moves those too.  Near the turn limit
(A-30) the positional terms fade out over ``horizon`` turns.

Dice are used one at a time, so the bot's one-ply search sees one die ahead; the look at the next
die (the ``follow_ups`` most promising next moves by steps gained, fewer in crowded positions) lets
it set up a jump or an entry and order its dice so fewer go unused.  In self-play over 30 games
it beat the same evaluation without the look 23 times (1 draw, margin +14 coins a game).  The
sampled states of one decision differ only in hidden values, which this evaluation does not read
(drawn cards count at their mean), so both the positional part and the look are cached by a
signature of what it does read.  A move that leaves the position as it was but for coins (a coin
gift of the trading variant, R-41a) is marked down by ``NULL_MOVE``: the bot makes no deals.  A
bot move takes about 20 ms of CPU on average, 0.07 s at the 95th percentile, under 0.2 s in the
most crowded positions (bench/bot_strength.py).
"""

from __future__ import annotations

import functools
from collections import Counter, deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.rulesets.base import Rng, Seat, State
from app.rulesets.nomadi.board import ALL_AROUND, ORTHOGONAL, Board, Cell, cell_key
from app.rulesets.nomadi.effects import GOAL_REWARDS
from app.rulesets.nomadi.movement import Caravan, StoneAt
from app.rulesets.nomadi.scoring import final_result

if TYPE_CHECKING:
    from app.rulesets.nomadi.rules import Nomadi

CARD_VALUES = (1,) * 4 + (2,) * 4 + (3,) * 4 + (-1,) * 3 + (-2,) * 3
"""R-8: the 18 desert cards (as in ``rules.py``, which imports this module)."""
CARD_IDS = tuple(f"card-{number:02d}" for number in range(1, len(CARD_VALUES) + 1))
STONES_EACH = {2: 8, 3: 5, 4: 4, 5: 3}
"""R-6 (as in ``rules.py``)."""
HIDDEN_COIN_SPREAD = 4
"""Hidden coins (R-39): another seat's balance is drawn from the seat's own +/- this many."""

# -- determinize ------------------------------------------------------------------------------


def determinize(board: Board, view: dict[str, Any], seat: Seat, rng: Rng) -> State:
    """A state of the layout in ``rules.py`` whose ``view(state, seat)`` equals ``view``; the parts
    the seat cannot see come from ``rng`` (module docstring)."""
    if view["board"]["name"] != board.name:
        raise ValueError(f"view is of board {view['board']['name']!r}, not {board.name!r}")
    players = view["players"]
    n_players = len(players)
    phase = view["phase"]
    over = phase == "over"
    shown_offer = view["offer"]
    mover_sees = shown_offer is not None and "value" in shown_offer

    own = [_parse_card(token) for token in view.get("my_cards", [])]
    unseen = Counter(CARD_VALUES)
    unseen.subtract(card["value"] for card in own)
    if mover_sees:
        unseen[shown_offer["value"]] -= 1
    if over:  # every hand shows its values at the end
        for other, player in enumerate(players):
            if other != seat:
                unseen.subtract(player["card_values"])
    hidden = [value for value, count in sorted(unseen.items()) for _ in range(max(count, 0))]
    rng.shuffle(hidden)

    def drawn(card_id: str) -> dict[str, Any]:
        return {"id": card_id, "value": hidden.pop() if hidden else 1, "sampled": True}

    known_ids = {card["id"] for card in own} | {card["id"] for card in view["cards"]}
    if shown_offer is not None:
        known_ids.add(shown_offer["card"])
    free_ids = [card_id for card_id in CARD_IDS if card_id not in known_ids]
    rng.shuffle(free_ids)

    cards = {cell_key(card["cell"]): drawn(card["id"]) for card in view["cards"]}
    hands: list[list[dict[str, Any]]] = []
    for other, player in enumerate(players):
        if other == seat:
            hands.append(own)
        elif over:
            values = list(player["card_values"])
            rng.shuffle(values)
            hands.append([{"id": free_ids.pop(), "value": value} for value in values])
        else:
            hands.append([drawn(free_ids.pop()) for _ in range(player["cards"])])

    offer = None
    if shown_offer is not None:
        if mover_sees:
            card = {"id": shown_offer["card"], "value": shown_offer["value"]}
        else:
            card = drawn(shown_offer["card"])
        landing = list(shown_offer["cell"])
        stone = next(s["id"] for s in view["stones"] if s["cell"] == landing)
        offer = {
            "stone": stone, "cell": landing, "card": card, "owner": shown_offer["owner"],
            "claim": shown_offer["claim"], "price": shown_offer["price"],
        }
    card_pool = [drawn(free_ids.pop()) for _ in range(view["cards_to_lay"])]

    own_coins = players[seat]["coins"]
    balances = [
        player["coins"] if player["coins"] is not None
        else own_coins + rng.randrange(2 * HIDDEN_COIN_SPREAD + 1) - HIDDEN_COIN_SPREAD
        for player in players
    ]

    each = STONES_EACH[n_players]
    stones = [
        {"owner": number // each, "cell": None, "departed": False, "locked": False} for number in range(n_players * each)
    ]
    for shown in view["stones"]:
        stones[shown["id"]] = {
            "owner": shown["owner"], "cell": list(shown["cell"]),
            "departed": shown["departed"], "locked": shown["locked"],
        }

    shown_options = view["options"]
    state: State = {
        "board": board.name,
        "players": n_players,
        "options": {
            "short_game": shown_options["short_game"],
            "trading": shown_options["trading"],
            "hidden_coins": shown_options["hidden_coins"],
            "first_player": "random",  # only setup reads it
            "voluntary_pass": shown_options["voluntary_pass"],
            "card_placement": "players" if view["cards_to_lay"] else "random",  # only setup reads it
            "turn_limit": view["turn_limit"],
        },
        "colours": list(view["colours"]),
        "start_player": view["start_player"],
        "phase": phase,
        "current": view["current"],
        "turn": view["turn"],
        "oasis": view["board"]["oasis"],
        "stones": stones,
        "cards": cards,
        "card_pool": card_pool,
        "hands": hands,
        "coins": balances,
        "dice": [die["value"] for die in view["dice"]],
        "used": [die["used"] for die in view["dice"]],
        "history": [[m["stone"], m["die"], list(m["from"]), list(m["to"])] for m in view["moved"]],
        "crossed": view["chasm"]["crossed"],
        "all_crossed": view["chasm"]["all_crossed"],
        "start_emptied": view["start_emptied"],
        "arrivals": view["arrivals"],
        "offer": offer,
        "end_reason": view.get("end_reason"),
        "rng": rng.next64(),
    }
    _remember(_ROOTS, (seat, _signature(state)), True)
    return state


def _parse_card(token: str) -> dict[str, Any]:
    """``"card-07:+3" -> {"id": "card-07", "value": 3}`` (view.card_token, backwards)."""
    card_id, _, value = token.partition(":")
    return {"id": card_id, "value": int(value)}


# -- evaluate ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Weights:
    """The constants of :func:`evaluate` (module docstring)."""

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


@functools.cache
def _distances(board: Board, oasis: str | None) -> dict[Cell, int]:
    """Steps (N4, over playable cells) from every playable cell to the nearest goal cell in play."""
    goal = board.goal_cells(oasis)
    distance = {cell: 0 for cell in goal}
    todo = deque(goal)
    while todo:
        cell = todo.popleft()
        for there in board.neighbours[cell]:
            if there not in distance:
                distance[there] = distance[cell] + 1
                todo.append(there)
    return distance


@functools.cache
def _start_distance(board: Board, oasis: str | None) -> float:
    """The mean distance of the start cells to the goal: where every stone's progress counts from
    (0 on a board without start cells, such as the tests' sketches)."""
    distance = _distances(board, oasis)
    starts = [distance[cell] for cell in board.start_cells if cell in distance]
    return sum(starts) / len(starts) if starts else 0.0


def card_worth(state: State) -> float:
    """What an unseen card is worth to the seat whose view ``state`` was built from: the mean of
    the drawn (``"sampled"``) values, which are exactly the cards that seat has not seen."""
    total = count = 0
    for card in _all_cards(state):
        if card.get("sampled"):
            total += card["value"]
            count += 1
    return total / count if count else 0.0


def _all_cards(state: State):
    yield from state["cards"].values()
    yield from state["card_pool"]
    for hand in state["hands"]:
        yield from hand
    if state["offer"] is not None:
        yield state["offer"]["card"]


def evaluate(ruleset: Nomadi, state: State, seat: Seat, weights: Weights = WEIGHTS) -> float:
    """The seat's value minus the best other seat's (module docstring); higher is better.

    ``ruleset`` is the :class:`~app.rulesets.nomadi.rules.Nomadi` playing: its board, and its
    ``legal_moves`` and ``apply`` for the look at the mover's next die.
    """
    if state["phase"] == "over":
        return position_value(ruleset.board, state, seat, weights)
    signature = _signature(state)
    value = position_value(ruleset.board, state, seat, weights, signature)
    if (seat, signature) in _ROOTS:  # a move that changed nothing but coins: a gift (R-41a)
        return value - NULL_MOVE
    if weights.follow_ups and state["phase"] == "move" and state["current"] == seat:
        value += _follow_up_gain(ruleset, state, seat, value, weights, signature)
    return value


NULL_MOVE = 1000.0
"""Taken off a position the seat's move left as it was but for coins: a coin gift (R-41a), the one
such move.  The bot makes no deals, so it never gives coins away; and without this a gift would
look like a way to put off the end of the turn that the look at the next die sees coming."""


def position_value(
    board: Board, state: State, seat: Seat, weights: Weights = WEIGHTS, signature: tuple | None = None
) -> float:
    """:func:`evaluate` without the look at the next die."""
    if state["phase"] == "over":
        scores = final_result(state, state["end_reason"] or "").scores
        margin = scores[seat] - max(score for other, score in enumerate(scores) if other != seat)
        return margin + (weights.win_bonus if margin > 0 else -weights.win_bonus if margin < 0 else 0.0)
    key = (weights, signature or _signature(state))
    parts = _PARTS.get(key)
    if parts is None:
        parts = _remember(_PARTS, key, _parts(board, state, weights))
    shares, caravan = parts
    values = [balance + share for balance, share in zip(state["coins"], shares)]
    values[seat] += caravan
    return values[seat] - max(value for other, value in enumerate(values) if other != seat)


_PARTS: dict[tuple, tuple[tuple[float, ...], float]] = {}
"""Position signature -> ``_parts``.  The searching bot scores every move on several sampled
states; after a die move they differ only in what the signature leaves out (the values of drawn
cards, which count at their mean anyway, and hidden balances), so the work is done once."""
_GAINS: dict[tuple, float] = {}
"""Position signature -> ``_follow_up_gain``, shared by the sampled states in the same way."""
_ROOTS: dict[tuple, bool] = {}
"""(seat, signature) of the states ``determinize`` built lately: the positions the bot is deciding
from, which only a null move (``NULL_MOVE``) leads back to."""
KEPT = 4096
"""Entries each of these caches keeps before it starts afresh."""


def _remember(cache: dict, key: tuple, value: Any) -> Any:
    if len(cache) >= KEPT:
        cache.clear()
    cache[key] = value
    return value


def _signature(state: State) -> tuple:
    """Everything of a state that ``_parts`` and ``_follow_up_gain`` read but the coins: drawn
    cards only as drawn (they count at the mean of all drawn cards, which the others fix)."""
    offer = state["offer"]
    return (
        state["board"], state["phase"], state["current"], state["turn"], state["options"]["turn_limit"], state["oasis"],
        state["arrivals"], state["crossed"], state["all_crossed"], state["start_emptied"],
        tuple((tuple(s["cell"]) if s["cell"] else None, s["departed"], s["locked"]) for s in state["stones"]),
        tuple(state["dice"]), tuple(state["used"]),
        tuple((m[0], m[1], tuple(m[2]), tuple(m[3])) for m in state["history"]),
        tuple(state["cards"]), len(state["card_pool"]),
        tuple(tuple(_known(card) for card in hand) for hand in state["hands"]),
        offer and (offer["owner"], offer["claim"], offer["price"], _known(offer["card"])),
    )


def _known(card: dict[str, Any]) -> int | None:
    """A card's value, or ``None`` for a drawn one."""
    return None if card.get("sampled") else card["value"]


def _parts(board: Board, state: State, weights: Weights) -> tuple[tuple[float, ...], float]:
    """Every seat's value but its coins, and the evaluating seat's caravan term (module docstring)."""
    n_players = state["players"]
    phase = state["phase"]
    unseen = card_worth(state)

    def worth(card: dict[str, Any]) -> float:
        return unseen if card.get("sampled") else card["value"]

    values = [sum(worth(card) for card in state["hands"][other]) for other in range(n_players)]

    offer = state["offer"]
    if offer is not None:  # R-30b: the card goes to the owner, or stays with the mover
        card, price = worth(offer["card"]), offer["price"]
        accept = weights.offer_accept / (1 + price)
        values[offer["owner"]] += accept * (card - price)
        values[state["current"]] += (1 - accept) * card + accept * price
        if offer["claim"] is None:
            values[state["current"]] += CHEAP_TALK

    if not state["start_emptied"]:  # the owner of the last stone to leave gets 5
        starters = [s["owner"] for s in state["stones"] if s["cell"] and tuple(s["cell"]) in board.start_set]
        if len(starters) == 1:
            values[starters[0]] += weights.start_last

    # the seat to act with dice in hand (or about to roll them) and what those dice can do now
    mover = state["current"] if phase in ("roll", "move", "claim", "answer") else None
    if phase == "move":
        entries, unusable = _dice_now(board, state, _unused(state))
        entry, risk = weights.entry, weights.die_at_risk
    elif phase == "roll":
        entries, unusable = _dice_now(board, state, ALL_VALUES)
        entry, risk = weights.roll_entry, weights.next_turn_risk
    else:
        entries, unusable, entry, risk = set(), 0, 0.0, 0.0
    if unusable:
        values[mover] -= risk * unusable

    # what the caravan may still earn fades out as the turn limit comes near
    horizon = min(1.0, max(state["options"]["turn_limit"] - state["turn"] + 1, 0) / weights.horizon)
    distance = _distances(board, state["oasis"])
    origin = _start_distance(board, state["oasis"])
    far = board.width + board.height  # a cell cut off from the goal (not on a real board)
    caravan = 0.0
    ranked = []  # (effective distance, owner, whether the mover can put the stone in with a die in hand)
    for number, stone in enumerate(state["stones"]):
        if stone["cell"] is None:
            continue
        owner, d = stone["owner"], distance.get(tuple(stone["cell"]), far)  # a stone in the goal: 0
        caravan += origin - d
        values[owner] += weights.own_progress * (origin - d) * horizon
        if stone["locked"]:
            continue
        if number in entries:
            ranked.append((entry, owner, phase == "move"))
        elif owner == mover:
            ranked.append((max(d - weights.tempo, 1.0), owner, False))
        else:
            ranked.append((d, owner, False))
    ranked.sort()
    for reward, (d, owner, in_hand) in zip(GOAL_REWARDS[state["arrivals"]:], ranked):
        values[owner] += reward * weights.goal_decay ** d * (1.0 if in_hand else horizon)
    return tuple(values), weights.caravan_progress * caravan * horizon


def _follow_up_gain(
    ruleset: Nomadi, state: State, seat: Seat, value: float, weights: Weights, signature: tuple
) -> float:
    """How much better the seat's position gets with its best next die use: the best
    ``position_value`` after one more move, among the ``follow_ups`` most promising ones (ordered
    by steps gained), minus ``value``."""
    key = (weights, signature)
    gain = _GAINS.get(key)
    if gain is not None:
        return gain
    board = ruleset.board
    distance = _distances(board, state["oasis"])
    goal = board.goal_cells(state["oasis"])
    far = board.width + board.height
    owners = {tuple(stone["cell"]): stone["owner"] for stone in state["stones"] if stone["cell"]}

    def promise(move) -> float:
        if move.type != "move":
            return -far
        gained = distance.get(tuple(move.stone), far) - distance.get(tuple(move.to), far)
        if tuple(move.to) in goal:
            gained += far
        if cell_key(move.to) in state["cards"]:
            gained += 2
        return gained if owners[tuple(move.stone)] == seat else gained / 2

    moves = [move for move in ruleset.legal_moves(state, seat) if move.type != "gift"]
    moves.sort(key=promise, reverse=True)
    # the bot tries about as many moves now as there are next ones: keep the product near
    # ``follow_up_budget`` so that a crowded position stays within the time for a move
    tried = min(weights.follow_ups, max(2, weights.follow_up_budget // max(len(moves), 1)))
    best = max(
        (position_value(board, ruleset.apply(state, seat, move)[0], seat, weights) for move in moves[:tried]),
        default=value,
    )
    return _remember(_GAINS, key, best - value)


CHEAP_TALK = 1e-6
"""R-30b: a claim binds nobody, and the bot's answers ignore claims; so the bot makes none (this
tips the otherwise equal offers)."""
ALL_VALUES = Counter(range(1, 7))
"""One die of each value: what a seat about to roll may get."""


def _unused(state: State) -> Counter:
    """The values of the mover's unused dice, with their counts."""
    return Counter(value for value, used in zip(state["dice"], state["used"]) if not used)


def _dice_now(board: Board, state: State, dice: Counter) -> tuple[set[int], int]:
    """What ``dice`` can do for the mover in this position: the mover's own stones one of them puts
    into the goal (stone ids), and how many of them no stone can use at all (R-17 charges such a
    die unless a later move opens a way; R-18 is left out)."""
    if not dice:
        return set(), 0
    goal = board.goal_cells(state["oasis"])
    distance = _distances(board, state["oasis"])
    jumps = Jumps(_caravan(board, state))
    mover, reach = state["current"], max(dice) + 1  # a die takes a stone at most its value in steps (a 1: 2)
    entries = set()
    for number, stone in enumerate(state["stones"]):
        if stone["owner"] != mover or stone["cell"] is None or stone["locked"]:
            continue
        cell = tuple(stone["cell"])
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


def _caravan(board: Board, state: State) -> Caravan:
    """The stones on the board as the move generator sees them (``rules.caravan``)."""
    return Caravan(
        board,
        {tuple(s["cell"]): StoneAt(departed=s["departed"], locked=s["locked"]) for s in state["stones"] if s["cell"]},
    )

"""The rules of Nomadi (Reinhold Wittig, Blatz 1995), after the rules reference ``reference.md``.

``R-n`` is numbered rule n of the reference's section 2, ``A-n`` its ruling n (section 5); ``[D]``
marks the team's decisions and ours.  The ruleset class comes first; its methods are the contract and
call the helpers below, grouped by phase: setup, laying cards, placing stones, rolling, using
dice, the card offer, coin gifts, the end of a turn and of the game.

The state layout is in ``state.py``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import orjson

from app.rulesets.base import Event, IllegalMove, MoveModel, Result, Rng, Ruleset, Seat, Variant, amount
from app.rulesets.nomadi import evaluation, information
from app.rulesets.nomadi.bank import coins_arg, pay_in, transfer
from app.rulesets.nomadi.board import ORTHOGONAL, Board, Cell, as_cell, cell_key, place_arg, show, step
from app.rulesets.nomadi.components import CARD_IDS, CARD_VALUES, COLOURS, DICE, STARTING_COINS, STONES_EACH
from app.rulesets.nomadi.effects import ENDING_ARRIVAL, resolve, signed_arg
from app.rulesets.nomadi.bitboard import Position
from app.rulesets.nomadi.bitboard import moved
from app.rulesets.nomadi.bitboard import position as caravan
from app.rulesets.nomadi.moves import (
    AnyMove,
    CLAIMS, Accept, Decline, EndTurn, Gift, Move, Offer, PlaceCard, PlaceStone, Roll, UseDie,
)
from app.rulesets.nomadi.options import MAX_ASKING_PRICE, Options as NomadiOptions
from app.rulesets.nomadi.scoring import final_result
from app.rulesets.nomadi.state import Card, NomadiState, PendingOffer, Phase, Stone, TableOptions, move_record, mover
from app.rulesets.nomadi.view import build_view, card_token, inspection_token, purse_token


class Nomadi(Ruleset[NomadiState, NomadiOptions, AnyMove]):
    """Nomadi for 2-5 players on our own board "nomadi-red-erg-16x20" (Spec §4).

    ``Nomadi(board)`` plays on another :class:`Board` (the tests use the small sketched boards of
    the move-generator positions, docs/rules/nomadi-for-developers.md); the default is the standard
    board from the package data.

    Decisions where the spec is silent or leaves room (the spec's own [D] items are followed as
    written; these are ours):

    * R-13: the dice are rolled by an explicit ``roll`` move that opens each turn; R-14's free
      rerolls happen inside it.  If no die value 1-6 has a legal move at all, that roll ends the
      game (R-14's stalemate).
    * R-15: a die is named by its value; dice showing the same number are interchangeable.
    * R-16/R-17: the turn ends by itself inside ``apply`` as soon as no unused die has a legal
      move (after a die move, or after the answer to an offer); there is no end-turn move unless
      the ``voluntary_pass`` house rule (R-42) is on.
    * R-6: colours go in seat order from the player count's set (seat 1 blue, seat 2 yellow, then
      red, green, black).  They are cosmetic, so there is no choosing step.
    * R-9: ``first_player="host"`` lets seat 1 (the table's creator) begin; otherwise random.
    * R-10: placement goes round from the starting player; with more start cells than stones (3 or
      5 players on our board) every stone after the first must touch a placed one orthogonally.
    * R-30b: a claim is "no claim" or one of the card values -2, -1, +1, +2, +3, and it is public,
      as if said aloud at the table.  The mover's view shows the inspected card as
      ``"card-07 (+3)"``, a token apart from the holder's ``"card-07:+3"``: the peek and the holding
      are different secrets.  The spec's "a timeout means decline" is :meth:`Nomadi.timeout_move`
      (under a table's time control).
    * R-41b: the asking price is 0 to 9 coins and public; the owner may accept only when paying it
      leaves them without debt.
    * R-41a: "at any time" becomes "whenever you are to act in the dice phase" (your own turn, or
      while answering an offer), since only a seat to act may send a move; any amount from 1 to
      your balance, to any other player.
    * R-39: with hidden coins, views show a player only their own balance, and coin amounts in the
      log go to the seats concerned (``bank.py``); everything is revealed when the game ends.
    * R-40: in the short game the printed goal cells play as sand but get no random card; random
      cards go on the printed sand cells outside the spot in play (``data/board.json``).  A water
      source inside the goal in play would get no card (none is, on our board).
    * R-42 "players lay the cards": before placement, from the starting player in seat order, each
      lays the next card of the shuffled rest face down, without seeing it, on an empty sand cell
      outside the goal.
    * A-30: after ``turn_limit`` dice turns (default 150, table option 10-1000; the spec's bot
      needs about 35) the game ends and is scored like any other end.  Random legal play rarely
      reaches the goal sooner, so this is also what ends the conformance kit's games.
    * R-38: the values of cards still on the board never show, not even at the end.
    * R-29: a single move can be the first and the last crossing at once (+5, then -5).
    * Taking a move back (``is_reversible``): laying a card unseen (R-42), placing a
      stone (R-10), a die move (R-15) and a gift (R-41a) may be taken back while no other seat has
      acted since, unless they showed anyone anything: no dice rolled (the PRNG moved), no card
      taken, inspected or offered, no hidden balance changed (R-39).  A roll, an offer and its
      answer never can.
    """

    name = "nomadi"
    title = "Nomadi"
    min_players = 2
    max_players = 5
    summary = "Roll six dice and jump one shared caravan of stones across the desert to the goal."
    minutes = (30, 60)
    live_move_seconds = 120  # each die of a roll is a move of its own, and offers need thought
    languages = ("en", "fr")  # locales/fr.po
    hidden_information = True
    # A turn is six dice used one at a time: the strong bot plans the rest of its turn (which stone
    # each die moves, in which order) before it moves, where one ply sees a single die ahead
    # (bench/results/2026-12-05-vm-bot-levels-8.md)
    bot_turn_width = 4
    Options = NomadiOptions
    Move = Move
    variants = (  # a short turn limit so that the games end
        Variant(options={"trading": True, "hidden_coins": True, "turn_limit": 20}, players=(2, 4)),
        Variant(options={"short_game": True, "voluntary_pass": True, "turn_limit": 20}, players=(3, 5)),
        Variant(options={"card_placement": "players", "first_player": "host", "turn_limit": 20}, players=(2, 5)),
    )

    def __init__(self, board: Board | None = None) -> None:
        self.board = board if board is not None else _standard_board()

    def setup(self, n_players: int, options: NomadiOptions, seed: int) -> NomadiState:
        """Spec R-6 .. R-12: colours, coins, cards, oasis, starting player; then placement."""
        return new_game(self.board, n_players, NomadiOptions.model_validate(options.model_dump()), seed)

    def to_act(self, state: NomadiState) -> set[Seat]:
        """The mover, or the stone's owner while an offer waits for an answer (R-30b)."""
        if state["phase"] == "over":
            return set()
        if state["phase"] == "answer":
            return {pending_offer(state)["owner"]}
        return {mover(state)}

    def legal_moves(self, state: NomadiState, seat: Seat) -> list[AnyMove]:
        """Every legal move of ``seat`` now (empty when it is not to act)."""
        if seat not in self.to_act(state):
            return []
        board = self._board(state)
        return LEGAL_MOVES[state["phase"]](state, board, seat) + _legal_gifts(state, seat)

    def apply(self, state: NomadiState, seat: Seat, move: AnyMove) -> tuple[NomadiState, list[Event]]:
        """Play ``move`` for ``seat``; raises :class:`IllegalMove` naming the broken rule."""
        board = self._board(state)
        if state["phase"] == "over":
            raise IllegalMove("R-32: the game is over")
        if seat not in self.to_act(state):
            raise IllegalMove("it is not your turn", code="not_your_turn")
        if isinstance(move, UseDie):  # most moves of a game (:func:`_play_die`)
            return _play_die(state, board, seat, move)
        steps = STEPS.get(type(move)) or next((steps for cls, steps in STEPS.items() if isinstance(move, cls)), None)
        if steps is None:
            raise IllegalMove("{move} is not a Nomadi move", move=repr(move))
        return _play(state, board, seat, move, *steps)

    def view(self, state: NomadiState, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` (``None``: spectator) sees; the shape is documented in ``view.py``."""
        return build_view(state, self._board(state), seat)

    def result(self, state: NomadiState) -> Result | None:
        """Spec R-36 once the game is over, else ``None``."""
        if state["phase"] != "over":
            return None
        return final_result(state, state["end_reason"] or "")

    def timeout_move(self, state: NomadiState, seat: Seat) -> AnyMove | None:
        """Spec A-16 and A-30 [D]: an offer whose owner's time runs out is declined (the
        owner keeps the seat); any other time-out goes to the default bot (``None``)."""
        if state["phase"] == "answer" and pending_offer(state)["owner"] == seat:
            return Decline()
        return None

    def is_reversible(self, before: NomadiState, seat: Seat, move: AnyMove, after: NomadiState) -> bool:
        """A card laid unseen, a stone placed, a die used or a gift made that rolled nothing and
        showed no card or hidden balance to anyone (the class docstring); never a roll or an offer."""
        return (isinstance(move, (PlaceCard, PlaceStone, UseDie, Gift)) and after["offer"] is None
                and after["phase"] != "over" and self.reveals_nothing(before, after, after["players"]))

    def secrets(self, state: NomadiState, seat: Seat) -> set[str]:
        """Spec R-38/R-39: the seat's held cards as ``"card-07:+3"``, the card it inspected and is
        offering as ``"card-07 (+3)"``, and with hidden coins its purse ``"purse-2:7"``; nothing
        once the game is over."""
        if state["phase"] == "over":
            return set()
        tokens = {card_token(card) for card in state["hands"][seat]}
        offer = state["offer"]
        if offer is not None and seat == state["current"]:
            tokens.add(inspection_token(offer["card"]))
        if state["options"]["hidden_coins"]:
            tokens.add(purse_token(seat, state["coins"][seat]))
        return tokens

    def determinize(self, view: dict[str, Any], seat: Seat, rng: Rng) -> NomadiState:
        """A state behind ``seat``'s view: unseen card values dealt from the cards the seat has not
        seen, hidden balances and the PRNG drawn from ``rng`` (``information.py``).

        It also opens the search that decides from ``view`` (``evaluation.Search``), or joins it
        for the next sample of the same view."""
        world = information.determinize(self.board, view, seat, rng)
        evaluation.search_from(self, view).add_root(world, seat)
        return world

    def evaluate(self, state: NomadiState, seat: Seat) -> float:
        """Coins, cards and the open goal rewards by distance, minus the best opponent's
        (``evaluation.py``), within the search the last :meth:`determinize` opened in this thread
        or task (``evaluation.current_search``)."""
        self._board(state)  # the state is of this ruleset's board
        return evaluation.current_search(self).evaluate(state, seat)

    def _board(self, state: NomadiState) -> Board:
        if state["board"] != self.board.name:
            raise ValueError(f"state is for board {state['board']!r}, this ruleset plays {self.board.name!r}")
        return self.board


@functools.cache
def _standard_board() -> Board:
    return Board.standard()


OneMove = TypeVar("OneMove", bound=MoveModel)  # one move class, its checker and its performer


def _play(
    state: NomadiState,
    board: Board,
    seat: Seat,
    move: OneMove,
    check: Callable[[NomadiState, Board, Seat, OneMove], None],
    perform: Callable[[NomadiState, Board, Seat, OneMove, list[Event]], None],
) -> tuple[NomadiState, list[Event]]:
    """``check`` the move against the rules (it raises :class:`IllegalMove`), then ``perform`` it
    on a copy of the state (:func:`copy_game`)."""
    check(state, board, seat, move)
    state = copy_game(state)
    events: list[Event] = []
    perform(state, board, seat, move, events)
    return state, events


def copy_game(state: NomadiState) -> NomadiState:
    """A copy of ``state`` for a move to change, in about a tenth of the time of ``copy_state``:
    new containers for everything the moves change in place (the state, each stone, the cards
    on the board and to lay, the hands, the coins, the dice, the turn's history, the offer), the
    rest shared with ``state``: the options, the colours, each card, the ``[row, col]`` of each
    stone, each history record.  Nothing changes those in place (a moved stone gets a new cell
    list); ``apply`` never changing its input is checked by the conformance kit on every move."""
    copied = state.copy()
    copied["stones"] = [stone.copy() for stone in state["stones"]]
    copied["cards"] = state["cards"].copy()
    copied["card_pool"] = state["card_pool"].copy()
    copied["hands"] = [hand.copy() for hand in state["hands"]]
    copied["coins"] = state["coins"].copy()
    copied["dice"] = state["dice"].copy()
    copied["used"] = state["used"].copy()
    copied["history"] = state["history"].copy()
    offer = state["offer"]
    copied["offer"] = offer.copy() if offer is not None else None
    return copied


def pending_offer(state: NomadiState) -> PendingOffer:
    """The offer waiting in the claim or answer phase (R-30b); raises ``ValueError`` if none is."""
    offer = state["offer"]
    if offer is None:
        raise ValueError(f"no card is offered in the {_phase_name(state)}")
    return offer


# -- setup (R-6 .. R-12) ----------------------------------------------------------------------


def new_game(board: Board, n_players: int, options: NomadiOptions, seed: int) -> NomadiState:
    """Spec R-6 .. R-12: the state before the first placement (or the first laid card)."""
    if not Nomadi.min_players <= n_players <= Nomadi.max_players:
        raise ValueError(f"Nomadi takes 2 to 5 players, not {n_players}")
    rng = Rng(seed)
    start_player = 0 if options.first_player == "host" else rng.randrange(n_players)
    oasis: str | None = None
    if options.short_game:
        if not board.oasis_spots:
            raise ValueError(f"board {board.name} has no movable-oasis spots")
        oasis = rng.choice(sorted(board.oasis_spots))
    goal = board.goal_cells(oasis)

    if not 1 <= len(board.water_sources) <= len(CARD_VALUES) - 1:  # Spec R-8: one card on each, the rest on sand
        raise ValueError(f"board {board.name} needs 1 to {len(CARD_VALUES) - 1} water sources, "
                         f"not {len(board.water_sources)}")
    values = list(CARD_VALUES)
    rng.shuffle(values)
    deck = [Card(id=card_id, value=value) for card_id, value in zip(CARD_IDS, values, strict=True)]
    cards = {cell_key(cell): deck.pop(0) for cell in board.water_sources if cell not in goal and deck}
    if options.card_placement == "random":
        sand = [cell for cell in board.sand_cells if cell not in goal]
        if len(sand) < len(deck):
            raise ValueError(f"board {board.name} has too little sand for {len(deck)} cards")
        rng.shuffle(sand)
        cards.update((cell_key(cell), deck.pop(0)) for cell in sorted(sand[: len(deck)]))

    stones = [
        Stone(owner=seat, cell=None, departed=False, locked=False)
        for seat in range(n_players)
        for _ in range(STONES_EACH[n_players])
    ]
    if len(stones) > len(board.start_cells):
        raise ValueError(f"board {board.name} has {len(board.start_cells)} start cells for {len(stones)} stones")
    return {
        "board": board.name,
        "players": n_players,
        "options": table_options(options),
        "colours": list(COLOURS[:n_players]),
        "start_player": start_player,
        "phase": "cards" if deck else "placement",
        "current": start_player,
        "turn": 0,
        "oasis": oasis,
        "stones": stones,
        "cards": cards,
        "card_pool": deck,
        "hands": [[] for _ in range(n_players)],
        "coins": [STARTING_COINS] * n_players,
        "dice": [],
        "used": [],
        "history": [],
        "crossed": False,
        "all_crossed": False,
        "start_emptied": False,
        "arrivals": 0,
        "offer": None,
        "end_reason": None,
        "rng": rng.state,
    }


def table_options(options: NomadiOptions) -> TableOptions:
    """The options as the state keeps them (``Options.model_dump()``, field by field)."""
    return TableOptions(
        short_game=options.short_game,
        trading=options.trading,
        hidden_coins=options.hidden_coins,
        first_player=options.first_player,
        voluntary_pass=options.voluntary_pass,
        card_placement=options.card_placement,
        turn_limit=options.turn_limit,
    )


def stone_at(state: NomadiState, cell: Cell) -> int | None:
    """The id of the stone on ``cell``, if any."""
    row, col = cell[0], cell[1]
    for number, stone in enumerate(state["stones"]):
        at = stone["cell"]
        if at and at[0] == row and at[1] == col:
            return number
    return None


def _next_seat(state: NomadiState, seat: Seat) -> Seat:
    return (seat + 1) % state["players"]


# -- laying cards (house rule R-42) -----------------------------------------------------------


def _card_cells(state: NomadiState, board: Board) -> list[Cell]:
    goal = board.goal_cells(state["oasis"])
    return [cell for cell in board.sand_cells if cell not in goal and cell_key(cell) not in state["cards"]]


def _legal_card_cells(state: NomadiState, board: Board, seat: Seat) -> list[AnyMove]:
    return [PlaceCard(cell=cell) for cell in _card_cells(state, board)]


def _check_card(state: NomadiState, board: Board, seat: Seat, move: PlaceCard) -> None:
    """Spec R-42 (house rule) with R-8: a card goes face down on empty sand outside the goal."""
    if state["phase"] != "cards":
        raise IllegalMove("R-42: cards are laid before the stones are placed, not in the {phase}", phase=_phase_name(state))
    if move.cell not in _card_cells(state, board):
        raise IllegalMove("R-8: {cell} is not an empty sand cell outside the goal", cell=show(move.cell))


def _lay_card(state: NomadiState, board: Board, seat: Seat, move: PlaceCard, events: list[Event]) -> None:
    card = state["card_pool"].pop(0)
    state["cards"][cell_key(move.cell)] = card
    events.append(Event.trusted(f"{{seat{seat}}} lays a face-down card on {{cell}}", args={"cell": place_arg(move.cell)}))
    state["current"] = _next_seat(state, seat)
    if not state["card_pool"]:
        state["phase"] = "placement"
        state["current"] = state["start_player"]


# -- placing stones (R-10, R-11) --------------------------------------------------------------


def _placement_cells(state: NomadiState, board: Board) -> list[Cell]:
    """Spec R-10: empty start cells; with more start cells than stones, touching a placed stone."""
    placed = {as_cell(s["cell"]) for s in state["stones"] if s["cell"]}
    cells = [cell for cell in board.start_cells if cell not in placed]
    if placed and len(board.start_cells) > len(state["stones"]):
        cells = [cell for cell in cells if any(step(cell, offset) in placed for offset in ORTHOGONAL)]
    return cells


def _legal_placements(state: NomadiState, board: Board, seat: Seat) -> list[AnyMove]:
    return [PlaceStone(cell=cell) for cell in _placement_cells(state, board)]


def _check_placement(state: NomadiState, board: Board, seat: Seat, move: PlaceStone) -> None:
    """Spec R-10: an own stone on an empty start cell (adjacent to a placed one if R-10 binds)."""
    if state["phase"] != "placement":
        raise IllegalMove("R-10: stones are placed before the first roll, not in the {phase}", phase=_phase_name(state))
    cell = move.cell
    if cell not in board.start_cells:
        raise IllegalMove("R-10: {cell} is not a start cell", cell=show(cell))
    if cell not in _placement_cells(state, board):
        if stone_at(state, cell) is not None:
            raise IllegalMove("R-10: a stone already stands on {cell}", cell=show(cell))
        raise IllegalMove("R-10: {cell} does not touch a stone already placed", cell=show(cell))


def _place_stone(state: NomadiState, board: Board, seat: Seat, move: PlaceStone, events: list[Event]) -> None:
    stone = next(s for s in state["stones"] if s["owner"] == seat and s["cell"] is None)
    stone["cell"] = list(move.cell)
    events.append(Event.trusted(f"{{seat{seat}}} places a stone on {{cell}}", args={"cell": place_arg(move.cell)}))
    if any(s["cell"] is None for s in state["stones"]):
        state["current"] = _next_seat(state, seat)
    else:
        _begin_turn(state, state["start_player"], events)


# -- rolling (R-13, R-14) ---------------------------------------------------------------------


ROLL = Roll()


def _legal_roll(state: NomadiState, board: Board, seat: Seat) -> list[AnyMove]:
    return [ROLL]


def _check_roll(state: NomadiState, board: Board, seat: Seat, move: Roll) -> None:
    """Spec R-13: the dice are rolled once, at the start of the turn."""
    if state["phase"] != "roll":
        raise IllegalMove("R-13: the dice are rolled at the start of a turn, not in the {phase}", phase=_phase_name(state))


def _roll(state: NomadiState, board: Board, seat: Seat, move: Roll, events: list[Event]) -> None:
    """Spec R-13/R-14: six dice, rolled again for free until at least one can be used.

    Whether any value 1-6 can move a stone at all (R-14's stalemate, which ends the game before
    any roll) is asked only when the first roll has no usable die: the values rolled are asked
    first, each costing a walk of every stone, and those are the ones the turn needs anyway."""
    position = caravan(state, board)
    rng = Rng(state["rng"])
    first = True
    while True:
        dice = sorted(rng.randrange(6) + 1 for _ in range(DICE))
        if any(position.can_use(value) for value in set(dice)):
            break
        if first and not any(position.can_use(value) for value in range(1, 7)):
            # nothing is rolled: the PRNG stays as it was
            _end_game(state, "no die value could move any stone (R-14)", events)
            return
        first = False
        events.append(Event.trusted(f"{{seat{seat}}} rolls {DICE_TEXT}: no die can be used, so they roll again (R-14)",
                                    _dice_args(dice)))
    state["rng"] = rng.state
    state["dice"], state["used"], state["history"], state["phase"] = dice, [False] * DICE, [], "move"
    events.append(Event.trusted(f"{{seat{seat}}} rolls {DICE_TEXT}", _dice_args(dice)))


DICE_TEXT = ", ".join(f"{{die{index}}}" for index in range(DICE))
"""The six dice of a roll in a log template: ``"{die0}, {die1}, ..."``, one argument each."""


def _dice_args(dice: list[int]) -> dict[str, dict[str, Any]]:
    return {f"die{index}": amount(value) for index, value in enumerate(dice)}


# -- using dice (R-15 .. R-26) ----------------------------------------------------------------


def unused_values(state: NomadiState) -> list[int]:
    """The values of the dice not used yet this turn, one entry per die."""
    return [value for value, used in zip(state["dice"], state["used"]) if not used]


def forbidden_returns(state: NomadiState, value: int) -> dict[Cell, set[Cell]]:
    """Spec R-18: for a die of ``value``, stone cell -> cells it may not go back to this turn.

    A stone moved X -> Y with a ``value`` may not then go Y -> X with another ``value``.
    """
    forbidden: dict[Cell, set[Cell]] = {}
    for stone, moved_value, origin, landing in state["history"]:
        here = state["stones"][stone]["cell"]
        if moved_value == value and here and as_cell(here) == as_cell(landing):
            forbidden.setdefault(as_cell(landing), set()).add(as_cell(origin))
    return forbidden


DIE_MOVES_KEPT = 8192
"""How many ``UseDie`` moves :func:`_dice_moves` keeps for reuse per board (a few MB)."""
_DIE_MOVES: dict[Board, dict[int, UseDie]] = {}


def _dice_moves(state: NomadiState, position: Position) -> list[AnyMove]:
    """Spec R-15 .. R-24: every (die value, stone, landing) of the unused dice, values ascending,
    stones and landings in reading order (the position's bits ascending); R-18 takes out the
    returns it forbids.  Shared: not to be changed.

    The list is kept by the position (``Position.dice_moves``) under the JSON text of the dice,
    which of them are used and the turn's moves (the unused values and the returns R-18 forbids
    follow from them and the stones), so the rules ask once per state: after a die move (is a
    die still usable?) and for the legal moves of the same state.  Each ``UseDie`` is made once
    and reused (moves are frozen), found by the int ``(value * size + origin) * size + landing``
    of the bits; the store is emptied when it holds more than :data:`DIE_MOVES_KEPT`."""
    key = orjson.dumps((state["dice"], state["used"], state["history"]))
    moves = position.dice_moves.get(key)
    if moves is not None:
        return moves
    g = position.grid
    bit = g.bit
    stones = state["stones"]
    returns = []  # (value, origin, landing) of a stone that may not go back, as bits
    for stone, moved_value, came_from, went_to in state["history"]:
        here = stones[stone]["cell"]
        if here and here[0] == went_to[0] and here[1] == went_to[1]:
            returns.append((moved_value, bit[(went_to[0], went_to[1])], bit[(came_from[0], came_from[1])]))
    values = sorted({value for value, used in zip(state["dice"], state["used"]) if not used})
    made = _DIE_MOVES.get(position.board)
    if made is None or len(made) > DIE_MOVES_KEPT:
        made = _DIE_MOVES[position.board] = {}
    moves = position.die_moves(values, returns, made, _die_move)
    position.dice_moves[key] = moves
    return moves


def _die_move(value: int, origin: Cell, landing: Cell) -> UseDie:
    """The move of the stone on ``origin`` to ``landing`` with a die of ``value`` (listed legal)."""
    return UseDie.trusted(type="move", die=value, stone=origin, to=landing)


def _legal_dice(state: NomadiState, board: Board, seat: Seat) -> list[AnyMove]:
    """Spec R-15 .. R-24 (:func:`_dice_moves`), and the voluntary pass (R-42 house rule)."""
    moves = list(_dice_moves(state, caravan(state, board)))
    if state["options"]["voluntary_pass"]:
        moves.append(EndTurn())
    return moves


def _play_die(state: NomadiState, board: Board, seat: Seat, move: UseDie) -> tuple[NomadiState, list[Event]]:
    """:func:`_play` for a die move: checked (:func:`_check_die`), then done on a copy
    (:func:`_copy_for_die`), and the position of the stones after it made from the position
    the check looked at (``bitboard.moved``)."""
    position = _check_die(state, board, seat, move)
    stone_id = stone_at(state, move.stone)
    if stone_id is None:  # _check_die let the move through: a stone stands there
        raise ValueError(f"no stone on {show(move.stone)}")
    state = _copy_for_die(state, stone_id)
    events: list[Event] = []
    _use_die(state, board, seat, move, events, stone_id, position)
    return state, events


def _copy_for_die(state: NomadiState, stone_id: int) -> NomadiState:
    """:func:`copy_game` for a die move, which changes one stone only (its cell, and
    ``departed`` and ``locked`` in ``effects.resolve``): the other stones are shared with
    ``state``, and so are the dice, the cards still to lay and the offer (there is none in
    the dice phase; the end of the turn puts new dice lists in)."""
    copied = state.copy()
    stones = copied["stones"] = state["stones"].copy()
    stones[stone_id] = stones[stone_id].copy()
    copied["cards"] = state["cards"].copy()
    copied["hands"] = [hand.copy() for hand in state["hands"]]
    copied["coins"] = state["coins"].copy()
    copied["used"] = state["used"].copy()
    copied["history"] = state["history"].copy()
    return copied


def _check_die(state: NomadiState, board: Board, seat: Seat, move: UseDie) -> Position:
    """Spec R-15, R-18 .. R-24: an unused die, a movable stone, a legal landing.  Returns the
    position of the stones (:func:`caravan`)."""
    if state["phase"] != "move":
        raise IllegalMove("R-15: dice are used after the roll, not in the {phase}", phase=_phase_name(state))
    die = move.die
    if not any(value == die and not used for value, used in zip(state["dice"], state["used"])):
        raise IllegalMove("R-15: no unused die shows a {die}", die=die)
    origin, landing = move.stone, move.to
    position = caravan(state, board)
    if not position.allows(origin, die, landing):
        refusal = position.refusal_template(origin, die, landing)
        if refusal:
            template, params = refusal
            raise IllegalMove(template, "illegal_move", **params)
    for _, moved_value, came_from, went_to in state["history"]:  # R-18, as :func:`forbidden_returns` says it
        if (moved_value == die and went_to[0] == origin[0] and went_to[1] == origin[1]
                and came_from[0] == landing[0] and came_from[1] == landing[1]):
            forbidden = forbidden_returns(state, die)
            if origin in forbidden and landing in forbidden[origin]:
                raise IllegalMove("R-18: this stone came from {landing} with a {die} this turn and may not go back "
                                  "with another {die}", landing=show(landing), die=die)
    return position


def _use_die(state: NomadiState, board: Board, seat: Seat, move: UseDie, events: list[Event], stone_id: int,
             position: Position) -> None:
    """The die move of :func:`_play_die` on the copy ``state``: ``stone_id`` stands on
    ``move.stone``, and ``position`` is the stones' before the move."""
    origin, landing = move.stone, move.to
    used = state["used"]
    used[next(i for i, (v, done) in enumerate(zip(state["dice"], used)) if v == move.die and not done)] = True
    stone = state["stones"][stone_id]
    stone["cell"] = list(landing)
    state["history"].append(move_record(stone_id, move.die, list(origin), list(landing)))
    # A name is never followed by "'s": a bot's is "Ada (bot)" (app/rulesets/base.py, arg_text).
    whose = "" if stone["owner"] == seat else f" owned by {{seat{stone['owner']}}}"
    events.append(Event.trusted(f"{{seat{seat}}} moves a stone{whose} from {{origin}} to {{landing}} with a {{die}}",
                        args={"origin": place_arg(origin), "landing": place_arg(landing), "die": amount(move.die)}))
    resolve(state, board, seat, stone_id, origin, landing, events)
    if state["arrivals"] >= ENDING_ARRIVAL:
        _end_game(state, "the third stone reached the goal (R-32)", events)  # remaining dice are not charged
    elif state["offer"] is not None:
        state["phase"] = "claim"
    else:
        _continue_turn(state, board, seat, events, moved(position, state["stones"], origin, landing, stone))


def _continue_turn(state: NomadiState, board: Board, seat: Seat, events: list[Event],
                   position: Position | None = None) -> None:
    """Spec R-16/R-17: the mover goes on while an unused die can be used; otherwise the turn ends.

    It lists every die move (:func:`_dice_moves`) rather than stopping at the first: the list is
    kept, and the legal moves of the new state are that list.  ``position``: the stones' position,
    if the caller has it (else :func:`caravan`)."""
    if _dice_moves(state, position if position is not None else caravan(state, board)):
        state["phase"] = "move"
    else:
        unused = state["used"].count(False)
        _end_turn(state, board, seat, unused, "no unused die can be used" if unused else "all dice used", events)


# -- the card offer (R-30b, R-41b) ------------------------------------------------------------


def _legal_offers(state: NomadiState, board: Board, seat: Seat) -> list[AnyMove]:
    prices = range(MAX_ASKING_PRICE + 1) if state["options"]["trading"] else (0,)
    return [Offer(claim=claim, price=price) for claim in CLAIMS for price in prices]


def _check_offer(state: NomadiState, board: Board, seat: Seat, move: Offer) -> None:
    """Spec R-30b: the mover offers the card they inspected; R-41b: a price only when trading."""
    if state["phase"] != "claim":
        raise IllegalMove("R-30b: a card is offered right after a stone lands on it, not in the {phase}", phase=_phase_name(state))
    if move.price and not state["options"]["trading"]:
        raise IllegalMove("R-41b: an asking price needs the trading variant")
    if move.price > MAX_ASKING_PRICE:
        raise IllegalMove("R-41b: an asking price is at most {price} coins [D]", price=MAX_ASKING_PRICE)


def _offer(state: NomadiState, board: Board, seat: Seat, move: Offer, events: list[Event]) -> None:
    offer = pending_offer(state)
    offer["claim"], offer["price"] = move.claim, move.price
    args = {"cell": place_arg(offer["cell"])}
    claim = "without a claim"
    if move.claim is not None:
        claim, args["claim"] = "claiming it is worth {claim}", signed_arg(move.claim)
    price = ""
    if move.price:
        price, args["price"] = ", asking {price}", coins_arg(move.price)
    events.append(Event.trusted(f"{{seat{seat}}} offers the card from {{cell}} to {{seat{offer['owner']}}} {claim}{price}",
                        args=args))
    state["phase"] = "answer"


def _legal_answers(state: NomadiState, board: Board, seat: Seat) -> list[AnyMove]:
    offer = pending_offer(state)
    affordable = offer["price"] == 0 or state["coins"][seat] >= offer["price"]
    answers: list[AnyMove] = [Accept()] if affordable else []
    return answers + [Decline()]


def _check_answer(state: NomadiState, board: Board, seat: Seat, move: Accept | Decline) -> None:
    """Spec R-30b: the stone's owner answers the offer; R-41b: an asking price may not make debt."""
    if state["phase"] != "answer":
        raise IllegalMove("R-30b: there is no offer to answer in the {phase}", phase=_phase_name(state))
    price = pending_offer(state)["price"]
    if isinstance(move, Accept) and price and state["coins"][seat] < price:
        raise IllegalMove("R-41b: paying the asking price of 1 coin would put you in debt" if price == 1
                          else "R-41b: paying the asking price of {count} coins would put you in debt", count=price)


def _accept(state: NomadiState, board: Board, seat: Seat, move: Accept, events: list[Event]) -> None:
    offer, offered_by = pending_offer(state), mover(state)
    card = offer["card"]
    state["hands"][seat].append(card)
    cell = {"cell": place_arg(offer["cell"])}
    events.append(Event.trusted(f"{{seat{seat}}} accepts the card from {{cell}}", args=cell, rule="R-30b"))
    worth = f"{{seat{seat}}}: the card you accepted from {{cell}} is worth {{value}}"
    events.append(Event.trusted(worth, args={**cell, "value": signed_arg(card["value"])}, seats=(seat,)))
    if offer["price"]:
        transfer(state, seat, offered_by, offer["price"], "the asking price for the card from {cell} (R-41b)", events, cell)
    state["offer"] = None
    _continue_turn(state, board, offered_by, events)


def _decline(state: NomadiState, board: Board, seat: Seat, move: Decline, events: list[Event]) -> None:
    offer, offered_by = pending_offer(state), mover(state)
    state["hands"][offered_by].append(offer["card"])
    events.append(Event.trusted(f"{{seat{seat}}} declines the card from {{cell}}; {{seat{offered_by}}} keeps it",
                        args={"cell": place_arg(offer["cell"])}, rule="R-30b"))
    state["offer"] = None
    _continue_turn(state, board, offered_by, events)


# -- coin gifts (trading variant, R-41a) ------------------------------------------------------

GIFT_PHASES = ("roll", "move", "claim", "answer")


def _legal_gifts(state: NomadiState, seat: Seat) -> list[AnyMove]:
    if not state["options"]["trading"] or state["phase"] not in GIFT_PHASES:
        return []
    return [
        Gift(to=other, coins=amount)
        for other in range(state["players"])
        if other != seat
        for amount in range(1, state["coins"][seat] + 1)
    ]


def _check_gift(state: NomadiState, board: Board, seat: Seat, move: Gift) -> None:
    """Spec R-41a: trading variant only; to another player; never into debt."""
    if not state["options"]["trading"]:
        raise IllegalMove("R-41a: coin gifts need the trading variant")
    if state["phase"] not in GIFT_PHASES:
        raise IllegalMove("R-41a [D]: gifts are made during the dice turns, not in the {phase}", phase=_phase_name(state))
    if move.to == seat or move.to >= state["players"]:
        raise IllegalMove("R-41a: seat {seat} is not another player at this table", seat=move.to + 1)
    if move.coins > state["coins"][seat]:
        raise IllegalMove("R-41a: a gift of 1 coin would put you in debt" if move.coins == 1
                          else "R-41a: a gift of {count} coins would put you in debt", count=move.coins)


def _gift(state: NomadiState, board: Board, seat: Seat, move: Gift, events: list[Event]) -> None:
    transfer(state, seat, move.to, move.coins, "a gift (R-41a)", events)


# -- the end of a turn and of the game (R-17, R-32, A-30) ------------------------------------


def _check_end_turn(state: NomadiState, board: Board, seat: Seat, move: EndTurn) -> None:
    """Spec R-42 house rule: a voluntary pass, only when the table allows it (R-16 otherwise)."""
    if not state["options"]["voluntary_pass"]:
        raise IllegalMove("R-16: you must go on moving while an unused die can be used")
    if state["phase"] != "move":
        raise IllegalMove("R-42: you may pass only while using dice, not in the {phase}", phase=_phase_name(state))


def _pass(state: NomadiState, board: Board, seat: Seat, move: EndTurn, events: list[Event]) -> None:
    _end_turn(state, board, seat, len(unused_values(state)), "they pass", events)


def _end_turn(state: NomadiState, board: Board, seat: Seat, unused: int, why: str, events: list[Event]) -> None:
    """Spec R-17: 1 coin per unused die to the bank; then the next seat, or the turn limit."""
    if unused:
        pay_in(state, seat, unused, "{dice} (R-17)", events, {"dice": amount(unused, "unused die" if unused == 1 else "unused dice")})
    events.append(Event.trusted(f"Turn over for {{seat{seat}}}: {why}"))
    if state["turn"] >= state["options"]["turn_limit"]:
        _end_game(state, TURN_LIMIT_REACHED, events, {"turns": amount(state["options"]["turn_limit"], "turns")})
    else:
        _begin_turn(state, _next_seat(state, seat), events)


def _begin_turn(state: NomadiState, seat: Seat, events: list[Event]) -> None:
    state["phase"], state["current"], state["turn"] = "roll", seat, state["turn"] + 1
    state["dice"], state["used"], state["history"] = [], [], []


TURN_LIMIT_REACHED = "the turn limit of {turns} was reached"
"""Spec A-30: the log's words for the end at the turn limit, its count an argument; the result's
reason (one msgid of the catalogs, docs/i18n.md) says it without the count, which the table's
options show."""


def _end_game(state: NomadiState, reason: str, events: list[Event], args: dict[str, dict[str, Any]] | None = None) -> None:
    """Spec R-32/R-36: nobody acts any more; the final score is ``result``.  ``reason`` may hold
    placeholders filled from ``args`` in the log line; the result's reason has none."""
    end_reason = "the turn limit was reached (A-30)" if reason == TURN_LIMIT_REACHED else reason
    state["phase"], state["current"], state["end_reason"] = "over", None, end_reason
    result = final_result(state, end_reason)
    scores = ", ".join(f"{{seat{seat}}} {{score{seat}}}" for seat in range(len(result.scores)))
    score_args = {f"score{seat}": amount(score) for seat, score in enumerate(result.scores)}
    events.append(Event.trusted(f"Game over: {reason}. Final scores: {scores}", {**(args or {}), **score_args}))


def _phase_name(state: NomadiState) -> str:
    return PHASE_NAMES[state["phase"]]


PHASE_NAMES: dict[Phase, str] = {
    "cards": "card laying",
    "placement": "placement phase",
    "roll": "roll",
    "move": "dice moves",
    "claim": "card offer",
    "answer": "answer to an offer",
    "over": "finished game",
}

LEGAL_MOVES: dict[Phase, Callable[[NomadiState, Board, Seat], list[AnyMove]]] = {
    "cards": _legal_card_cells,
    "placement": _legal_placements,
    "roll": _legal_roll,
    "move": _legal_dice,
    "claim": _legal_offers,
    "answer": _legal_answers,
    "over": lambda state, board, seat: [],
}


STEPS: dict[type[MoveModel], tuple[Callable[..., None], Callable[..., None]]] = {
    PlaceCard: (_check_card, _lay_card),
    PlaceStone: (_check_placement, _place_stone),
    Roll: (_check_roll, _roll),
    EndTurn: (_check_end_turn, _pass),
    Offer: (_check_offer, _offer),
    Accept: (_check_answer, _accept),
    Decline: (_check_answer, _decline),
    Gift: (_check_gift, _gift),
}
"""Each move but a die move (:func:`_play_die`): its check and what it does (:func:`_play`)."""

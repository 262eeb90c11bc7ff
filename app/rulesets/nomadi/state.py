"""The layout of a Nomadi game state: the JSON document the rules read and write.

A state is stored as the game's snapshot and sent through JSON exactly (``app/rulesets/base.py``);
these ``TypedDict``s give its layout to mypy at no cost on the move pipeline.  Inside a state a
cell is a two-element list ``[row, col]`` (JSON has no tuples; ``board.Cell`` is the tuple form the
geometry works with) and a card position is a ``"row,col"`` key (``board.cell_key``).  The static
board is not in the state: it is the ruleset's, named by ``board``.

Nothing here is shown as it is: ``view.py`` names every field a view shows, so a new field of the
state is private until a view names it.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict, cast

from app.rulesets.base import Seat

Phase = Literal["cards", "placement", "roll", "move", "claim", "answer", "over"]
"""What the game waits for: a laid card (house rule R-42), a placed stone (R-10), the roll (R-13),
a die move (R-15), the mover's offer of an inspected card or the owner's answer (R-30b); ``over``
once the game has ended (R-32, A-30)."""

StoredCell = list[int]
"""A cell inside the state: ``[row, col]``."""

MoveRecord = tuple[int, int, StoredCell, StoredCell]
"""One die move of this turn (R-18): ``[stone id, die value, from, to]``, a JSON array.  Typed as
a tuple for its four positions (mypy has no fixed-length list); it is a list at run time
(:func:`move_record`), as after any trip through JSON, and the rules only unpack it."""


class Card(TypedDict):
    """A desert card (R-8): ``{"id": "card-07", "value": 3}``; the value is secret (R-38)."""

    id: str
    value: int
    sampled: NotRequired[bool]
    """Only in a state built by ``determinize`` (``information.py``): the value was drawn, not
    seen.  The rules and the view never read it; ``evaluation.py`` counts such a card at the mean
    of the drawn values."""


class Stone(TypedDict):
    """One stone; its index in ``stones`` is its id."""

    owner: Seat
    cell: StoredCell | None
    """Where it stands; ``None`` before the placement (R-10)."""
    departed: bool
    """It has ended a move off the start (R-27): it may not end one on the start again (R-22)."""
    locked: bool
    """It is in the goal (R-31) and never moves again (R-19a)."""


class PendingOffer(TypedDict):
    """A card the mover's stone landed on under another player's stone (R-30b), until answered."""

    stone: int
    cell: StoredCell
    card: Card
    owner: Seat
    """The owner of the stone: the seat that answers."""
    claim: int | None
    """What the mover says the card is worth (public, binds nobody); ``None``: no claim."""
    price: int
    """The asking price in coins (trading variant, R-41b); 0 without one."""


class TableOptions(TypedDict):
    """The table options (``options.Options``) as set at the start."""

    short_game: bool
    trading: bool
    hidden_coins: bool
    first_player: Literal["random", "host"]
    voluntary_pass: bool
    card_placement: Literal["random", "players"]
    turn_limit: int


class NomadiState(TypedDict):
    """A whole Nomadi game."""

    board: str
    players: int
    options: TableOptions
    colours: list[str]
    start_player: Seat
    rng: int
    """The game: the board's name, the number of seats, the options, the colour of each seat
    (R-6), the seat that began (R-9), and the state of the PRNG (secret, never in a view)."""

    phase: Phase
    current: Seat | None
    turn: int
    """Whose turn it is: the mover (``None`` once over; the owner answers an offer in the mover's
    turn), and the number of the dice turn under way (0 during the setup)."""

    oasis: str | None
    stones: list[Stone]
    cards: dict[str, Card]
    card_pool: list[Card]
    """The board: the movable-oasis spot in play (``"A"``..``"C"``) or ``None`` (R-40); every
    stone; the face-down cards on the board by ``"row,col"`` (R-8); the cards the players still
    lay, in order (house rule R-42), else ``[]``."""

    hands: list[list[Card]]
    coins: list[int]
    """Per seat: the cards held, and the balance, which may be negative (R-35)."""

    dice: list[int]
    used: list[bool]
    history: list[MoveRecord]
    """This turn: the six values rolled (``[]`` before the roll), which of them are used, and the
    moves made so far (R-18)."""

    crossed: bool
    all_crossed: bool
    start_emptied: bool
    arrivals: int
    """Once-per-game events: a stone has crossed the chasm (R-29a), the last one has (R-29b), the
    start bonus has been paid (R-28); the number of stones in the goal (R-31)."""

    offer: PendingOffer | None
    end_reason: str | None
    """The card being offered (R-30b), else ``None``; why the game ended, once over."""


def mover(state: NomadiState) -> Seat:
    """The seat whose turn it is; raises ``ValueError`` once the game is over (R-32)."""
    seat = state["current"]
    if seat is None:
        raise ValueError("the game is over: nobody is to move")
    return seat


def move_record(stone: int, die: int, origin: StoredCell, landing: StoredCell) -> MoveRecord:
    """A :data:`MoveRecord`, built as the list it is in a stored state (so that a state equals
    itself after a trip through JSON)."""
    return cast(MoveRecord, [stone, die, origin, landing])

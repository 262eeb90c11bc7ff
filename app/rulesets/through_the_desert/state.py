"""The layout of a Through the Desert game state (a JSON document, typed for mypy).

The state is what the platform stores as the game's snapshot and folds moves over, so these
types describe the stored document itself: every key and what it holds.  Static board data
(spaces, neighbours, palm and well spaces) is not in the state but derived from the ruleset's
board and the player count (``board.py``, Spec S-1).

A hex inside a state is a :data:`HexKey`, the string ``"q,r"`` of its axial coordinates (JSON
objects need string keys; ``board.hex_key`` and ``board.parse_key`` convert).  Lists of hexes
are in the reading order of ``PlayArea.sort`` unless a field says otherwise.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from app.rulesets.base import Seat
from app.rulesets.through_the_desert.moves import Colour
from app.rulesets.through_the_desert.options import TableOptions

HexKey = str
"""A hex as a state key: ``"3,-1"`` for ``(3, -1)``."""

Phase = Literal["palms", "return_leaders", "leaders", "camels", "over"]
"""The phases in the order they come: palm trees (only with ``palm_placement="choose"``; S-5),
returned leaders (only with 5 players and ``leader_return="choose"``; S-3), leaders (L-1 .. L-6),
camels (the main phase, T-1 .. T-7), and the finished game (G-1 .. G-4)."""

OasisCredit = list[str]
"""Spec O-1 .. O-6: ``[colour, oasis key]``, one caravan's scored oasis (a JSON pair)."""


class WellToken(TypedDict):
    """One of the 45 well tokens (Spec S-6): ``{"id": "well-07", "value": 3}``.

    ``id`` runs ``well-01`` .. ``well-45`` in the order of the setup shuffle; ``value`` is 1, 2 or 3.
    While W-2 hides them, a taken token shows only in its owner's view, as ``"well-07:3"``.
    """

    id: str
    value: int


WELL_VALUES = (1, 2, 3)
WELLS_PER_VALUE = 15
WELL_TOKENS = tuple(value for value in WELL_VALUES for _ in range(WELLS_PER_VALUE))
"""Spec S-6: the values of the 45 well tokens, 15 each of 1, 2 and 3, before the shuffle."""
WELL_IDS = tuple(f"well-{number:02d}" for number in range(1, len(WELL_TOKENS) + 1))
"""The token ids, ``well-01`` .. ``well-45``."""


class PlacedCamel(TypedDict):
    """A camel or caravan leader on the board; ``(seat, colour)`` names its caravan."""

    seat: Seat
    colour: Colour
    leader: bool


class EnclosedArea(TypedDict):
    """Spec E-5 .. E-8: an area ``seat`` enclosed with the caravan of ``colour``; it never changes (E-7).

    ``hexes`` are its spaces in reading order; ``points`` its value at enclosure (F-2: one per
    space, oases excluded).
    """

    seat: Seat
    colour: Colour
    hexes: list[HexKey]
    points: int


class ThroughTheDesertState(TypedDict):
    """A whole game, field group by field group: identity, turn order, the current turn, the board,
    the players (each list marked ``[seat]`` has one entry per seat), the end."""

    board: str
    """The board's name; the ruleset refuses a state of another board."""
    players: int
    """The number of seats (2 to 5)."""
    options: TableOptions
    """The table options as chosen at setup; public."""
    rng: int
    """The :class:`~app.rulesets.base.Rng` state: secret, never in a view."""

    phase: Phase
    start_player: Seat
    """Spec S-7: the seat that starts every phase."""
    current: Seat | None
    """The seat to act, or ``None`` once the game is over."""

    turn: int
    """Main-phase turns begun so far, passed turns included (T-3 counts the first ones)."""
    allowance: int
    """Camels the current turn may place (T-3: 1 or 2); 0 outside the main phase."""
    placed: int
    """Camels placed so far in the current turn."""
    last_placed: list[HexKey]
    """The spaces filled by the most recent turn, in the order they were filled."""

    piles: dict[Colour, int]
    """Spec S-4: colour -> camels left in its pile."""
    oases: list[HexKey]
    """Spec S-5: the palm spaces holding a palm tree."""
    wells: dict[HexKey, WellToken]
    """Spec S-6: the untaken well tokens, face up on their spaces."""
    well_pool: NotRequired[list[WellToken]]
    """Spec S-6, only while palm trees are being chosen: the unseen tokens left after the well
    spaces; the palm spaces left without a tree take theirs from its front."""
    camels: dict[HexKey, PlacedCamel]
    """Every camel and leader on the board."""

    leaders_in_hand: list[list[Colour]]
    """``[seat]``: the colours of the leaders not yet placed (L-1)."""
    returned: list[Colour | None]
    """``[seat]``: the colour of the leader returned to the box (S-3, 5 players), else ``None``."""
    taken_wells: list[list[WellToken]]
    """``[seat]``: the well tokens taken (W-1, W-4), in the order taken."""
    oasis_credits: list[list[OasisCredit]]
    """``[seat]``: the oases scored, once per caravan (O-1 .. O-6)."""
    areas: list[EnclosedArea]
    """Every enclosed area, in the order enclosed (E-5 .. E-8)."""

    final_turn: bool
    """A pile ran out: the game ends with this turn (G-1, G-2)."""
    end_reason: str | None
    """Why the game ends, once a pile ran out or the game is over (log text); else ``None``."""

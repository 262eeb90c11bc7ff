"""The layout of a Nimalia game state: a JSON document, typed for mypy.

The state is stored as the game's snapshot and sent through ``apply`` on every move, so it stays
a plain JSON dict (``app/rulesets/base.py`` says why ``TypedDict``).  Cards are numbers 1-60
here and tokens ``"nimalia-card-07"`` in views and moves (``cards.py``).  Nimalia has no phase
field: where the game stands is ``round``, ``step`` and ``over``, and who must act is read off
``picks`` (Spec D2).

Which parts are secret (Spec D1, D2; ``view.py`` shows only what it names):

* ``deck`` and ``rng``: from everyone;
* ``hands[seat]`` and ``picks[seat]``: from everyone but ``seat`` (a pick only until the step's
  reveal, when it moves to ``placements``);
* ``options``: not secret, but no view shows them (only ``setup`` reads them).
"""

from __future__ import annotations

from typing import TypedDict

from app.rulesets.nimalia.cards import Rotation
from app.rulesets.nimalia.options import GoalLevel


class TableOptions(TypedDict):
    """The table options as chosen at setup (``options.Options``); kept for the record."""

    goal_level: GoalLevel
    first_game: bool


class Placement(TypedDict):
    """One card laid on a reserve (Spec D2, P1 - P6), or chosen and waiting to be laid.

    ``card`` is its number; ``rotation`` turns it clockwise before it is laid; ``at`` is the
    ``[row, col]`` of its top-left space after turning, counted from the seat's first card,
    which lies at ``[0, 0]``.  A placement is never changed once written.
    """

    card: int
    rotation: Rotation
    at: list[int]


class ScoringStep(TypedDict):
    """One objective scored in a round (Spec §2.4): its colour, its id (``9`` for O9) and the
    raw points it gave each seat, before the zero floor."""

    colour: str
    objective: int
    points: list[int]


class RoundRecord(TypedDict):
    """A scored round (Spec D6, D-1), public and shown in every view, e.g.::

        {"round": 3,
         "steps": [{"colour": "blue", "objective": 9, "points": [14, 0]}, ...],   # in D-1 order
         "before": [9, 16], "after": [23, 16]}

    ``after`` applies the steps' points one colour at a time with the zero floor (E2).
    """

    round: int
    steps: list[ScoringStep]
    before: list[int]
    after: list[int]


class NimaliaState(TypedDict):
    """A whole game.  Per-seat lists are indexed by seat.

    The table: ``players`` (number of seats), ``options``, ``objectives`` (colour -> objective
    id, one face per colour, Spec S2) and ``rng`` (the :class:`~app.rulesets.base.Rng` state).

    Where the game stands: ``round`` 1..5, ``step`` 1..3 within the round (D2 - D4; it stays 3
    once round 5 is scored) and ``over``, True once round 5 is scored (D6).

    The cards: ``deck`` the undealt card numbers in dealing order; ``hands`` the card numbers
    each seat holds now; ``picks`` per seat ``None`` or the placement it has chosen this step,
    waiting to be revealed; ``placements`` per seat the revealed placements, oldest first.

    The score: ``scores`` the running totals; ``history`` one record per scored round.
    """

    players: int
    options: TableOptions
    objectives: dict[str, int]
    rng: int
    round: int
    step: int
    over: bool
    deck: list[int]
    hands: list[list[int]]
    picks: list[Placement | None]
    placements: list[list[Placement]]
    scores: list[int]
    history: list[RoundRecord]

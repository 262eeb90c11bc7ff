"""Who answers the player: the seam between the shared rules and the solo game.

The flow (``flow.py``) and the battles (``battles.py``) are the same at a table of 2-4 and in
solo; where the two differ they call a :class:`Rivals` policy instead of asking which game this is:

* ``rounds.OtherSeats``: the other seats of the table, each deciding for itself;
* ``solo.Enemy``: the Enemy of spec 1.12, played by the rules inside ``apply`` (its cards,
  its drawn battle card, its losses without a choice).

``Heroes.setting`` picks one for a state, together with the map in play (:class:`Setting`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from app.rulesets.base import Event, Result, Seat
from app.rulesets.heroes.board import Board
from app.rulesets.heroes.state import Battle, CardRecord, HeroesState, Side


class Rivals(Protocol):
    """The decisions and rules that belong to the player's rivals."""

    def opening(self, state: HeroesState, events: list[Event]) -> None:
        """Before the first move is played: log what happened at setup, if anything."""

    def nomad_placed(self, state: HeroesState, board: Board, events: list[Event]) -> None:
        """The Nomad placement (NW-1, NS-2) is done; the round goes on."""

    def decision_over(self, state: HeroesState, board: Board, events: list[Event]) -> None:
        """The player's turn or decision (Follow, Muster, battle) is over: whoever is next acts."""

    def drawn_card(self, state: HeroesState, battle: Battle, side: Side, events: list[Event]) -> CardRecord:
        """At the reveal, the card of a ``side`` that chose none (it has no tactic hand)."""

    def takes_losses(self, state: HeroesState, battle: Battle, seat: Seat, damage: int, events: list[Event]) -> bool:
        """Whether the losing ``seat`` has taken its ``damage`` already, by rule; ``False``: it chooses
        its casualties (spec 1.8.5)."""

    def collection_over(self, state: HeroesState, board: Board, events: list[Event]) -> None:
        """Full edition: the discards after Collection's spell draw are done; the round ends."""

    def capital_destroyed(self, state: HeroesState, attacker: Seat, events: list[Event]) -> None:
        """A capital fell to ``attacker`` (spec 1.8.8), after its owner was eliminated."""

    def result(self, state: HeroesState) -> Result:
        """The result of a game that is over."""


@dataclass(frozen=True)
class Setting:
    """What a move is played in: the ``board`` in play (solo: without South, A-S1) and the
    ``rivals`` who answer the player."""

    board: Board
    rivals: Rivals

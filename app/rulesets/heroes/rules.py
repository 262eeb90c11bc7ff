"""The rules of Heroes of Land, Air & Sea, Tier 1 core + Wandering Nomads or Mercenary Nomads
(rules reference: ``reference.md``).

The ruleset class comes first; its methods are the contract and call the modules of this package:
``rounds`` (setup, rounds, turns), ``flow`` (who acts, legal moves, Follow, Muster, the dispatcher), ``actions`` (Recruit, Build,
Tax), ``march``, ``battles``, ``nomads``, ``mercenaries``, ``collection``, ``scoring``, ``view``, ``bots``,
and for a 1-seat table ``solo`` (with ``enemy``, ``deck``, ``compass``).
The state's shape is documented in ``docs/heroes.md``.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from app.rulesets.base import Event, MoveModel, Result, Rng, Ruleset, Seat, State
from app.rulesets.heroes import bots, flow, rounds, solo
from app.rulesets.heroes.board import Board
from app.rulesets.heroes.moves import Move
from app.rulesets.heroes.options import Options
from app.rulesets.heroes.pieces import is_solo
from app.rulesets.heroes.scoring import final_result
from app.rulesets.heroes.view import build_view, copy_state


class Heroes(Ruleset):
    """Heroes of Land, Air & Sea (Tier 1 core + Wandering or Mercenary Nomads) for 2-4 players on
    "four-isles-v1", or solo: 1 player against the Enemy on three of its continents (spec 1.12,
    2.6, NS-1..NS-18; ``solo.py``).

    Simultaneous: both sides of a battle choose their tactic card at the same time, in secret
    (hidden information until the reveal).  Out of Tier 1: vessels, spells, hero and faction
    abilities, exploration tokens (so no eXplore), and the generic mercenary cards (not public:
    the Nomad Mercenary is the only mercenary, option ``nomads: "mercenary"``).  In solo the
    Enemy's deck order is hidden as well.
    """

    name = "heroes"
    title = "Heroes of Land, Air & Sea"
    min_players = 1
    max_players = 4
    simultaneous = True
    hidden_information = True
    Options = Options
    Move = Move

    def __init__(self, board: Board | None = None) -> None:
        self.board = board if board is not None else Board.four_isles()
        self.solo_board = self.board.without_continents(tuple(solo.continents()["out_of_play"]))

    def board_of(self, state: State) -> Board:
        """The map of this game: the whole board, or in solo the board without South (A-S1)."""
        return self.solo_board if is_solo(state) else self.board

    def setup(self, n_players: int, options: BaseModel, seed: int) -> State:
        """Spec 1.5 and 2.4; round 1 starts with the Nomad placement (NW-1) when Nomads wander.
        One player: the solo game against the Enemy (spec 1.12, ``solo.new_game``)."""
        options = Options.model_validate(options.model_dump())
        if n_players == 1:
            return solo.new_game(self.solo_board, options, seed)
        return rounds.new_game(self.board, n_players, options, seed)

    def to_act(self, state: State) -> set[Seat]:
        """The seat whose turn or decision it is; both battle sides during the tactic choice
        (never the solo Enemy: the server plays it inside ``apply``)."""
        return flow.to_act(state)

    def legal_moves(self, state: State, seat: Seat) -> list[MoveModel]:
        """Every legal move of ``seat`` (empty when it is not to act)."""
        return flow.legal_moves(state, self.board_of(state), seat)

    def apply(self, state: State, seat: Seat, move: MoveModel) -> tuple[State, list[Event]]:
        """Play ``move``; raises :class:`IllegalMove` naming the broken rule. Never mutates ``state``."""
        state = copy_state(state)
        events = flow.apply(state, self.board_of(state), seat, move)
        if is_solo(state):
            events = [Event(text=solo.enemy_words(event.text), seats=event.seats) for event in events]
        return state, events

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        """The state minus ``rng``, unrevealed tactic choices and the Enemy's deck order (``view.py``)."""
        return build_view(state, self.board_of(state), seat)

    def result(self, state: State) -> Result | None:
        """Spec 1.11 final scoring once the game is over (solo: against the Enemy), else ``None``."""
        if state["phase"] != "over":
            return None
        return solo.result(state) if is_solo(state) else final_result(state)

    def secrets(self, state: State, seat: Seat) -> set[str]:
        """The seat's chosen but unrevealed tactic card, as its state token
        (``"hidden-tactic/1/charge/0/6/0/0/0/0/0"``)."""
        pending = state["pending"]
        if pending is None or "choices" not in pending:
            return set()
        token = pending["choices"].get(str(seat))
        return {token} if token else set()

    def determinize(self, view: dict[str, Any], seat: Seat, rng: Rng) -> State:
        """The view with a fresh PRNG and the other side's hidden tactic choice sampled (``bots.py``)."""
        return bots.determinize(view, seat, rng)

    def evaluate(self, state: State, seat: Seat) -> float:
        """Projected score + material + resources, minus the best opponent's (``bots.py``)."""
        if state["phase"] == "over":
            return super().evaluate(state, seat) * 10.0
        return bots.evaluate(state, seat)

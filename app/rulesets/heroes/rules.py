"""The rules of Heroes of Land, Air & Sea, full edition (spells, vessels, Heroes, factions,
exploration tokens; house data) or the core edition, + Wandering Nomads or Mercenary Nomads
(rules reference: ``reference.md``).

The ruleset class comes first; its methods are the contract and call the modules of this package:
``rounds`` (setup, rounds, turns), ``flow`` (who acts, legal moves, Follow, Muster, the dispatcher),
``actions`` (Recruit, Build, Tax), ``march``, ``battles``, ``nomads``, ``mercenaries``, ``collection``,
``scoring``, ``view``, ``information`` and ``evaluation`` (the bots' hooks), and for a 1-seat table
``solo`` (with ``enemy``, ``deck``, ``compass``); ``rivals`` is the seam between the two.  The
state's layout is typed in ``state.py``; the wire contract is ``docs/heroes.md``.
"""

from __future__ import annotations

import json
from typing import Any

from app.rulesets.base import Event, Result, Rng, Ruleset, Seat, Variant, copy_state
from app.rulesets.heroes import evaluation, flow, information, rounds, solo
from app.rulesets.heroes import options as table_options
from app.rulesets.heroes.battles import choice_secret
from app.rulesets.heroes.board import Board
from app.rulesets.heroes.moves import AnyMove, Move
from app.rulesets.heroes.options import Options as HeroesOptions
from app.rulesets.heroes.pieces import is_solo
from app.rulesets.heroes.rivals import Setting
from app.rulesets.heroes.state import HeroesState
from app.rulesets.heroes.view import build_view

REVERSIBLE_MOVES = frozenset({"recruit", "build", "tax", "place_nomad", "move_nomad", "march", "fire_mercenary",
                              "sail", "fly"})
"""The move types ``Heroes.is_reversible`` may allow (when they drew and revealed nothing)."""


class Heroes(Ruleset[HeroesState, HeroesOptions, AnyMove]):
    """Heroes of Land, Air & Sea (Tier 1 core + Wandering or Mercenary Nomads) for 2-4 players on
    "four-isles-v1", or solo: 1 player against the Enemy on three of its continents (spec 1.12,
    2.6, NS-1..NS-18; ``solo.py``).

    Simultaneous: both sides of a battle choose their tactic card at the same time, in secret
    (hidden information until the reveal).  Option ``edition``: ``"full"`` (new tables) adds
    Research/Scribe, Cast, Sail and Fly, spells (a secret hand; ``spells.py``), vessels
    (``vessels.py``), three Heroes per faction and faction abilities (``abilities.py``),
    exploration tokens and eXplore (``exploration.py``), with the house data of
    ``data/spells.json``, ``factions.json`` and ``exploration.json`` (``catalogue.py``) in the
    revision of option ``house_revision`` (``data/revisions.json``: the newest for a new table,
    1 for a table stored before the option, so stored games replay as played); ``"core"``
    is the reduced game without them (every table stored before the option).  The generic
    mercenary cards are not public: the Nomad Mercenary is the only mercenary.  In solo the
    Enemy's deck order is hidden as well; in the full edition the spell deck's order and the
    face-down tokens are hidden from everyone.

    Taking a move back (``is_reversible``): a Recruit, Build, Tax, Nomad placement or move, March,
    Sail, Fly or firing of the Mercenary may be taken back while no other seat has acted
    since, if it drew nothing (the PRNG, the solo Enemy's deck and the spell deck are as they
    were), revealed no exploration token, changed no secret (a spell hand) and opened no battle (a
    battle's tactic choice is secret, and its outcome is not to be tried out).  Passing, Research,
    Scribe (it changes the secret hand), Cast, discards, Interrupts, Combat spells, the tactic
    cards, Conscripts and casualties never can.

    Languages: English and French (``locales/fr.po``: every log template, argument text, reason,
    refusal, the options form and the renderer's words; docs/i18n.md).  The result's reason is a
    template whose numbers are typed arguments (``Result.reason_args``: the solo scores, the round
    limit).  Decision: the solo opening lines stay stored in the setup state with their values
    written in (``phrases.flattened``), so stored states and the golden setup hashes stay the same;
    the first move logs them as templates with typed arguments again (``solo.opening_line``,
    ``phrases.unflattened``), the English words unchanged.
    """

    name = "heroes"
    title = "Heroes of Land, Air & Sea"
    min_players = 1
    max_players = 4
    summary = ("Raise armies, cast spells, sail and fly, build your capital and win battles on four isles, with friends "
               "or solo against the Enemy. House edition: the printed cards' values are not public; ours are balanced "
               "by bots.")
    minutes = (60, 120)
    languages = ("en", "fr")  # locales/fr.po (docs/i18n.md)
    live_move_seconds = 300  # many phases: an action, its followers, battles in secret
    simultaneous = True
    hidden_information = True
    Options = HeroesOptions
    Move = Move
    variants = (
        Variant(options={"edition": "core"}, players=(1, 2, 3, 4)),  # the reduced game of stored tables
        Variant(options={"edition": "core", "nomads": "mercenary"}, players=(1, 2, 4)),
        Variant(options={"nomads": "mercenary"}, players=(1, 2, 4)),  # the Nomad Mercenary card, no Nomad on the board
        Variant(options={"nomads": "none"}, players=(1,)),
        Variant(options={"nomads": "none", "first_player": "host", "round_limit": 5}, players=(2, 4)),
        Variant(options={"house_revision": 1}, players=(2, 4)),  # the house data of stored full-edition tables
    )

    def __init__(self, board: Board | None = None) -> None:
        self.board = board if board is not None else Board.four_isles()
        self.solo_board = self.board.without_continents(tuple(solo.continents()["out_of_play"]))
        self.table_setting = Setting(self.board, rounds.OtherSeats())
        self.solo_setting = Setting(self.solo_board, solo.Enemy())

    def setting(self, state: HeroesState) -> Setting:
        """The map in play and the player's rivals (``rivals.py``): the whole board and the other
        seats, or in solo the board without South (A-S1) and the Enemy (spec 1.12).  The one place
        that tells a solo game from a table's."""
        return self.solo_setting if is_solo(state) else self.table_setting

    def parse_options(self, raw: dict[str, Any] | None) -> HeroesOptions:
        """Validate stored or given table options; options stored before ``edition`` existed (exactly
        the three older keys, as the platform stores a table's options) are a core game, those stored
        before ``house_revision`` (exactly the four other keys) play revision 1 of the house data, so
        stored games replay as they were played (``options.parse``).  Raises ``pydantic.ValidationError``
        (an unknown house data revision among others)."""
        return table_options.parse(raw)

    def new_table_options(self, raw: dict[str, Any] | None) -> HeroesOptions:
        """A new table's options: the host's, each its JSON type (nothing converted), with the newest
        revision of the house data (``options.parse`` with ``new_table``).  Raises
        ``pydantic.ValidationError``."""
        return table_options.parse(raw, new_table=True)

    def setup(self, n_players: int, options: HeroesOptions, seed: int) -> HeroesState:
        """Spec 1.5 and 2.4; round 1 starts with the Nomad placement (NW-1) when Nomads wander.
        One player: the solo game against the Enemy (spec 1.12, ``solo.new_game``)."""
        options = HeroesOptions.model_validate(options.model_dump())
        if n_players == 1:
            return solo.new_game(self.solo_board, options, seed)
        return rounds.new_game(self.board, n_players, options, seed)

    def to_act(self, state: HeroesState) -> set[Seat]:
        """The seat whose turn or decision it is; both battle sides during the tactic choice
        (never the solo Enemy: the server plays it inside ``apply``)."""
        return flow.to_act(state)

    def legal_moves(self, state: HeroesState, seat: Seat) -> list[AnyMove]:
        """Every legal move of ``seat`` (empty when it is not to act)."""
        return flow.legal_moves(state, self.setting(state).board, seat)

    def apply(self, state: HeroesState, seat: Seat, move: AnyMove) -> tuple[HeroesState, list[Event]]:
        """Play ``move``; raises :class:`IllegalMove` naming the broken rule. Never mutates ``state``."""
        state = copy_state(state)
        return state, flow.apply(state, self.setting(state), seat, move)

    def view(self, state: HeroesState, seat: Seat | None) -> dict[str, Any]:
        """The state minus ``rng``, unrevealed tactic choices and the Enemy's deck order (``view.py``)."""
        return build_view(state, self.setting(state).board, seat)

    def result(self, state: HeroesState) -> Result | None:
        """Spec 1.11 final scoring once the game is over (solo: against the Enemy), else ``None``."""
        if state["phase"] != "over":
            return None
        return self.setting(state).rivals.result(state)

    def is_reversible(self, before: HeroesState, seat: Seat, move: AnyMove, after: HeroesState) -> bool:
        """An action that drew nothing, changed no secret and opened no battle (the class docstring)."""
        pending = after["pending"]
        return (getattr(move, "type", None) in REVERSIBLE_MOVES and after["phase"] != "over"
                and (pending is None or "battle" not in pending) and before.get("solo") == after.get("solo")
                and self.reveals_nothing(before, after, len(after["players"]))
                and before.get("spell_deck") == after.get("spell_deck") and before.get("tokens") == after.get("tokens"))

    def secrets(self, state: HeroesState, seat: Seat) -> set[str]:
        """The seat's chosen but unrevealed tactic card, as it reads in the state's JSON
        (``battles.choice_secret``), and in the full edition each spell card of its hand as a
        JSON string (``'"fireball-2"'``: card ids are unique, one per copy)."""
        pending = state["pending"]
        choice = pending.get("choices", {}).get(str(seat)) if pending is not None else None
        found = {choice_secret(seat, choice)} if choice is not None else set()
        found.update(json.dumps(card) for card in state["players"][seat].get("spells", []))
        return found

    def determinize(self, view: dict[str, Any], seat: Seat, rng: Rng) -> HeroesState:
        """The view with a fresh PRNG and the other side's hidden tactic choice sampled (``information.py``)."""
        return information.determinize(view, seat, rng)

    def evaluate(self, state: HeroesState, seat: Seat) -> float:
        """Projected score + material + resources, minus the best opponent's (``evaluation.py``)."""
        if state["phase"] == "over":
            return super().evaluate(state, seat) * 10.0
        return evaluation.evaluate(state, seat)

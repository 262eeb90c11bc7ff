"""Setup, rounds and turns of Heroes (spec 1.5, 1.6, 1.9-1.11, NW-1).

A round: the Nomad placement (phase ``nomad``, NW-1), then Action Selection in two laps from the
first player clockwise (phase ``action``), each turn one Action Token; after the second lap
Collection, Round End, the end-of-game check and the next round.  Eliminated seats are skipped;
[D] the game ends at once when one seat is left.
"""

from __future__ import annotations

from typing import Any

from app.rulesets.base import Event, Result, Rng, Seat
from app.rulesets.heroes import edition, mercenaries, nomads, spells
from app.rulesets.heroes.board import Board
from app.rulesets.heroes.collection import collect, round_end
from app.rulesets.heroes.houses import HOUSE, RESOURCES
from app.rulesets.heroes.options import Options
from app.rulesets.heroes.phrases import number, said
from app.rulesets.heroes.pieces import clockwise_from, is_full, turn_seat
from app.rulesets.heroes.scoring import check_objectives, exterminate, final_result, game_over_after_round
from app.rulesets.heroes.state import Battle, CardRecord, HeroesState, Player, Region, Side, TableOptions

BAR_SLOTS = ("recruit", "build", "tax", "march_1", "march_2", "research", "sail", "fly", "cast")
DISABLED_SLOTS = ("research", "sail", "fly", "cast")
"""Spec 2.2: the 9 slots as data; Tier 1 enables Recruit, Build, Tax and March x2."""


# -- setup -----------------------------------------------------------------------------------

def new_game(board: Board, n_players: int, options: Options, seed: int) -> HeroesState:
    """Spec 1.5 / 2.4: continents by player count, Courtyards of 2 Serfs + 1 Warrior, resources
    2/2/2, the tax track shuffled, the first player (random or the host), then round 1 begins;
    NS0-2/NS0-3: 10 Nomads in the supply (wandering) or the Nomad Mercenary card (mercenary)."""
    rng = Rng(seed)
    first = 0 if options.first_player == "host" else rng.randrange(n_players)
    state = new_state(board, board.continents_for(n_players), options, rng, first)
    if options.edition == "full":
        edition.set_up(state, board, rng, solo=False)
        state["rng"] = rng.state
    start_round(state, board, [])
    return state


def new_state(board: Board, continents: tuple[str, ...], options: Options, rng: Rng, first: int) -> HeroesState:
    """The table before round 1: one player per continent of ``continents`` (in seat order), the
    tax track shuffled with ``rng``, the Nomad supply or the Nomad Mercenary card."""
    markers = list(RESOURCES)
    rng.shuffle(markers)
    regions: dict[str, Region] = {region: {"units": {}, "tower": None, "nomad": False} for region in board.land}
    players = [new_player(board, regions, seat, continent) for seat, continent in enumerate(continents)]
    return {
        "n_players": len(continents), "options": stored_options(options), "rng": rng.state,
        "round": 1, "phase": "action", "first_player": first,
        "turn": {"seat": first, "lap": 1, "order": []},
        "tax_track": dict(zip(map(str, HOUSE.tax_values), markers)),
        "end": None, "regions": regions, "players": players,
        "nomad_supply": HOUSE.nomads["supply"] if options.nomads == "wandering" else 0,
        "mercenary": mercenaries.new_card() if options.nomads == "mercenary" else None,
        "pending": None, "last": None,
    }


def stored_options(options: Options) -> TableOptions:
    """The options as the state keeps them (``edition`` only when full, ``house_revision`` only
    when full and above 1: ``state.TableOptions``)."""
    stored: TableOptions = {"nomads": options.nomads, "round_limit": options.round_limit,
                            "first_player": options.first_player}
    if options.edition == "full":
        stored["edition"] = "full"
        if options.house_revision > 1:
            stored["house_revision"] = options.house_revision
    return stored


def new_player(board: Board, regions: dict[str, Region], seat: int, continent: str,
               start: dict[str, Any] | None = None) -> Player:
    """Spec 1.5: a player's board, its Courtyard put into ``regions`` (``start``: the house
    start values, by default ``HOUSE.start``)."""
    start = start or HOUSE.start
    capital = board.capitals[continent]
    regions[capital]["units"][str(seat)] = {"serf": 0, "warrior": 0, "hero": 0, **start["courtyard"]}
    supply = {kind: start["supply"][kind] - start["courtyard"].get(kind, 0) for kind in ("serf", "warrior", "hero")}
    supply["tower"] = HOUSE.tower["count"]
    return {
        "continent": continent, "capital": capital, "eliminated": False,
        "resources": dict(start["resources"]), "score": HOUSE.start["score"],
        "cc_level": HOUSE.start["cc_level"], "hall": False, "nomads": 0,
        "bar": {slot: ("disabled" if slot in DISABLED_SLOTS else None) for slot in BAR_SLOTS},
        "tokens": HOUSE.start["action_tokens"], "supply": supply, "tactics": list(HOUSE.tactics),
    }


# -- rounds and turns ------------------------------------------------------------------------

def start_round(state: HeroesState, board: Board, events: list[Event]) -> None:
    """NW-1: the Nomad placement first (if any), then Action Selection."""
    order = clockwise_from(state, state["first_player"])
    state["turn"] = {"seat": order[0], "lap": 1, "order": order}
    state["pending"] = None
    if nomads.must_place(state, board):
        state["phase"] = "nomad"
        return
    if state["options"]["nomads"] == "wandering":
        why = "NW-1, A-W6: the Nomad supply is empty" if state["nomad_supply"] <= 0 else "NW-9: no region is legal"
        events.append(Event(text=f"No Nomad can be placed this round ({why})"))
    state["phase"] = "action"


def end_turn(state: HeroesState, board: Board, events: list[Event]) -> None:
    """The next seat of this lap, or the second lap, or Collection and Round End."""
    turn = state["turn"]
    state["pending"] = None
    state["phase"] = "action"
    order = turn["order"]
    later = [seat for seat in order[order.index(turn_seat(state)) + 1:] if not state["players"][seat]["eliminated"]]
    if later:
        turn["seat"] = later[0]
        return
    if turn["lap"] == 1:
        remaining = [seat for seat in order if not state["players"][seat]["eliminated"]]
        turn["seat"], turn["lap"] = remaining[0], 2
        return
    finish_round(state, board, events)


def finish_round(state: HeroesState, board: Board, events: list[Event]) -> None:
    """Spec 1.9, 1.10, 1.11: Collection, Round End, then the game ends or the next round starts
    (an objective met by the round's last action is noted first, in this round)."""
    check_objectives(state, events)
    collect(state, board, events)
    if is_full(state):
        spells.collection_draw(state, events)
        if spells.open_discard(state, clockwise_from(state, state["first_player"]), {"kind": "collection"}):
            return  # the seats over their hand limit discard first (``flow.discard_spell``)
    after_collection(state, board, events)


def after_collection(state: HeroesState, board: Board, events: list[Event]) -> None:
    """Round End, then the game ends or the next round starts."""
    round_end(state, events)
    why = game_over_after_round(state)
    if why:
        finish(state, why, events)
        return
    state["round"] += 1
    events.append(said("Round {round} begins", round=number(state["round"])).event())
    start_round(state, board, events)


def finish(state: HeroesState, why: str, events: list[Event]) -> None:
    """The game is over: ``end.finished`` says why (an objective, ``round_limit``, ``last_standing``)."""
    end = state["end"]
    if end is None:
        end = state["end"] = {"objective": why, "by": None, "round": state["round"], "last_round": state["round"]}
    end["finished"] = why
    state["phase"] = "over"
    state["pending"] = None
    state["turn"]["seat"] = None
    events.append(Event(text="The game is over"))


# -- the rivals at a table ---------------------------------------------------------------------

class OtherSeats:
    """The rivals of a table of 2-4 (``rivals.Rivals``): every seat decides for itself, in turn."""

    def opening(self, state: HeroesState, events: list[Event]) -> None:
        """Setup logs nothing."""

    def nomad_placed(self, state: HeroesState, board: Board, events: list[Event]) -> None:
        """The first player's token turn follows the placement (phase ``action``, set by the flow)."""

    def decision_over(self, state: HeroesState, board: Board, events: list[Event]) -> None:
        """The next seat's turn (:func:`end_turn`)."""
        end_turn(state, board, events)

    def drawn_card(self, state: HeroesState, battle: Battle, side: Side, events: list[Event]) -> CardRecord:
        """Never asked: every seat holds the tactic cards and chooses one (spec 1.8.3)."""
        raise ValueError(f"the {side} of a table battle chooses its own card")

    def takes_losses(self, state: HeroesState, battle: Battle, seat: Seat, damage: int, events: list[Event]) -> bool:
        """A losing seat chooses its casualties (spec 1.8.5)."""
        return False

    def collection_over(self, state: HeroesState, board: Board, events: list[Event]) -> None:
        """Every seat is within its spell hand limit after Collection: Round End (:func:`after_collection`)."""
        after_collection(state, board, events)

    def capital_destroyed(self, state: HeroesState, attacker: Seat, events: list[Event]) -> None:
        """Spec 1.11 eXterminate: the attacker meets the objective (``scoring.exterminate``)."""
        exterminate(state, attacker, events)

    def result(self, state: HeroesState) -> Result:
        """Spec 1.11: every seat's final score and place (``scoring.final_result``)."""
        return final_result(state)

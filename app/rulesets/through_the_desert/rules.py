"""The rules of Through the Desert (Reiner Knizia), after the rules reference ``reference.md``.

The ruleset class comes first; its methods are the contract and call the helpers below, grouped
by phase: setup, palm trees, returned leaders, leaders, camels, then the end of the game.

The state layout is ``state.py``; the view ``view.py``; the bots' hooks ``information.py``
(determinize) and ``evaluation.py`` (evaluate).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from app.rulesets.base import (Event, IllegalMove, Result, Rng, Ruleset, Seat, Variant, amount, copy_state,
                               piece, place, split_rule, words)
from app.rulesets.through_the_desert.board import Board, PlayArea, hex_key, parse_key, show
from app.rulesets.through_the_desert import evaluation, information
from app.rulesets.through_the_desert.enclosure import new_enclosures
from app.rulesets.through_the_desert.moves import AnyMove, COLOURS, Camel, Colour, Leader, Move, Palm, ReturnLeader
from app.rulesets.through_the_desert.options import PILE_SIZES, table_options, Options as DesertOptions
from app.rulesets.through_the_desert.scoring import OASIS_POINTS, area_value, final_result
from app.rulesets.through_the_desert.state import (
    WELL_IDS,
    WELL_TOKENS,
    EnclosedArea,
    HexKey,
    Phase,
    PlacedCamel,
    ThroughTheDesertState,
    WellToken,
)
from app.rulesets.through_the_desert.view import build_view, well_token


class ThroughTheDesert(Ruleset[ThroughTheDesertState, DesertOptions, AnyMove]):
    """Through the Desert for 2-5 players on our own board "ttd-own-board-v1" (Spec §2.3).

    ``ThroughTheDesert(board)`` plays on another :class:`Board` (tests use Spec §5's radius-3
    hexagon); the default is the standard board from the package data.

    Decisions where the spec leaves room (Spec [D] items and our own):

    * S-7: the start player is drawn at random from the seed, or is the host (seat 0) with the
      option ``first_player="host"``; play runs in seat order.
    * S-5 ``palm_placement="choose"``: before anything else, players take turns from the start
      player in seat order, one palm tree per turn, until all 5 stand; the palm spaces left over
      then get well tokens (S-6).  On a board with fewer than 5 palm spaces every one gets a tree.
    * S-3 ``leader_return="choose"``: after the palm trees, each player returns one leader in turn
      order from the start player; the "last player" of L-4 is the one seated before the start
      player.  ``"random"`` deals the 5 colours out at setup.
    * L-5: if even without L-2(e) no space is left (impossible on our board), the leaders still
      in hand go back to the box.
    * T-5: a player who can place nothing is skipped inside ``apply`` with a log line; such a
      skipped turn still uses up one of T-3's single-camel turns.  T-6 ends the game when nobody
      can place.
    * G-2 (``end_trigger="end_of_turn"``): after emptying a pile the player still places the rest
      of the allowance from other piles when legal (T-5), then the game ends.  G-3
      (``"immediate"``) ends it right after the camel that emptied the pile.
    * W-2 (``hide_well_values``): the values of taken wells, and therefore running totals, show
      only in the owner's view and private log lines until the game is over.  The face-up wells
      still on the board are public.
    * T-3's "first two players" (one with 2 players) is fixed, not an option.
    * F-5: no tie-breaker; tied players share the place.
    * Taking a move back (the printed rules say nothing of it): every move may be taken
      back (``is_reversible``) as long as no other seat has acted since (the platform's condition),
      so a player may take back the second camel of a turn, then the first, until the next player
      places.  Nothing in this game is left to chance after setup, and the wells on the board lie
      face up, so no move shows anyone anything new.
    """

    name = "through-the-desert"
    title = "Through the Desert"
    min_players = 2
    max_players = 5
    summary = "Grow caravans of camels to reach oases and wells and to fence off the desert."
    languages = ("en", "fr")  # locales/fr.po: the log, the options form, the renderer (docs/i18n.md)
    minutes = (45, 60)
    live_move_seconds = 120  # two camels a turn, with caravans to plan
    hidden_information = True
    # The strong bot scores a leaf of its search after two greedy camels more (the rest of the
    # turn, or the next player's first camel), so a caravan left open to a cut is seen answered
    # (bench/results/2026-12-05-vm-bot-levels-5.md)
    bot_playout_plies = 2
    Options = DesertOptions
    Move = Move
    variants = (
        Variant(options={"end_trigger": "immediate", "piles": "zman", "hide_well_values": False,
                         "palm_placement": "choose", "leader_return": "random"}, players=(3, 5)),
        Variant(options={"palm_placement": "choose"}, players=(2, 4)),
    )

    def __init__(self, board: Board | None = None) -> None:
        self.board = board if board is not None else _standard_board()

    def setup(self, n_players: int, options: DesertOptions, seed: int) -> ThroughTheDesertState:
        """Spec S-1 .. S-7: the starting position; raises ``ValueError`` for 1 or 6+ players."""
        return new_game(self.board, n_players, DesertOptions.model_validate(options.model_dump()), seed)

    def to_act(self, state: ThroughTheDesertState) -> set[Seat]:
        """The seat whose turn it is; nobody once the game is over."""
        return set() if state["current"] is None else {state["current"]}

    def legal_moves(self, state: ThroughTheDesertState, seat: Seat) -> list[AnyMove]:
        """Every legal move of ``seat`` in the current phase (empty when it is not their turn)."""
        if seat != state["current"]:
            return []
        return LEGAL_MOVES[state["phase"]](state, self.area(state), seat)

    def apply(
        self, state: ThroughTheDesertState, seat: Seat, move: AnyMove
    ) -> tuple[ThroughTheDesertState, list[Event]]:
        """Play ``move`` for ``seat``; raises :class:`IllegalMove` naming the broken rule."""
        area = self.area(state)
        if state["phase"] == "over":
            raise IllegalMove("G-1: the game is over")
        if seat != state["current"]:
            raise IllegalMove("it is not your turn", code="not_your_turn")
        _check_move(state, area, seat, move)
        state = copy_state(state)
        events: list[Event] = []
        _perform_move(state, area, seat, move, events)
        return state, events

    def view(self, state: ThroughTheDesertState, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` (``None``: spectator) sees; the shape is documented in ``view.py``."""
        return build_view(state, self.area(state), seat)

    def result(self, state: ThroughTheDesertState) -> Result | None:
        """Spec F-1 .. F-5 once the game is over, else ``None``."""
        if state["phase"] != "over":
            return None
        return final_result(state, state["end_reason"] or "")

    def is_reversible(self, before: ThroughTheDesertState, seat: Seat, move: AnyMove,
                      after: ThroughTheDesertState) -> bool:
        """Every move but the one that ends the game (its result is final): no chance after setup,
        and a taken well's value was face up on the board (W-2 hides it from the others only
        afterwards), so taking a move back unlearns nothing."""
        return after["phase"] != "over"

    def secrets(self, state: ThroughTheDesertState, seat: Seat) -> set[str]:
        """Spec W-2: the seat's taken well tokens as ``"well-07:3"`` while values are hidden."""
        if not state["options"]["hide_well_values"] or state["phase"] == "over":
            return set()
        return {well_token(well) for well in state["taken_wells"][seat]}

    def determinize(self, view: dict[str, Any], seat: Seat, rng: Rng) -> ThroughTheDesertState:
        """A full state behind ``seat``'s view: other seats' hidden well values (W-2) and the PRNG
        drawn from ``rng``, consistent with the tokens the seat can see (``information.py``)."""
        if view["board"]["name"] != self.board.name:
            raise ValueError(f"view is of board {view['board']['name']!r}, this ruleset plays {self.board.name!r}")
        return information.determinize(self.board.in_use(len(view["players"])), view, seat, rng)

    def evaluate(self, state: ThroughTheDesertState, seat: Seat) -> float:
        """Points secured plus provisional caravan points and reach, minus the best opponent's (``evaluation.py``)."""
        return evaluation.evaluate(self.area(state), state, seat)

    def area(self, state: ThroughTheDesertState) -> PlayArea:
        """The part of the board in use for this game (Spec S-1)."""
        if state["board"] != self.board.name:
            raise ValueError(f"state is for board {state['board']!r}, this ruleset plays {self.board.name!r}")
        return self.board.in_use(state["players"])


@functools.cache
def _standard_board() -> Board:
    return Board.standard()


# -- setup ------------------------------------------------------------------------------------


PALM_TREES = 5
"""Spec §1.1: palm trees in the box."""


def new_game(board: Board, n_players: int, options: DesertOptions, seed: int) -> ThroughTheDesertState:
    """Spec S-1 .. S-7: deal the wells, plant the palm trees, return leaders, pick the start player."""
    if not ThroughTheDesert.min_players <= n_players <= ThroughTheDesert.max_players:
        raise ValueError(f"Through the Desert takes 2 to 5 players, not {n_players}")
    area = board.in_use(n_players)
    rng = Rng(seed)
    start = rng.randrange(n_players)  # drawn even for the host, so the rest of the deal is the same
    if options.first_player == "host":
        start = 0
    values = list(WELL_TOKENS)
    rng.shuffle(values)
    pool: list[WellToken] = [{"id": token_id, "value": value} for token_id, value in zip(WELL_IDS, values, strict=True)]
    wells = {key: pool.pop(0) for key in area.well_spaces if pool}
    returned: list[Colour | None] = [None] * n_players
    if n_players == 5 and options.leader_return == "random":
        dealt: list[Colour | None] = list(COLOURS)
        rng.shuffle(dealt)
        returned = dealt
    oases: list[HexKey] = []
    if options.palm_placement == "random":
        palm_spaces = list(area.palm_spaces)
        rng.shuffle(palm_spaces)
        oases = list(area.sort(palm_spaces[:PALM_TREES]))
    state: ThroughTheDesertState = {
        "board": board.name,
        "players": n_players,
        "options": table_options(options),
        "phase": "palms",
        "start_player": start,
        "current": start,
        "turn": 0,
        "allowance": 0,
        "placed": 0,
        "last_placed": [],
        "piles": {colour: PILE_SIZES[options.piles][n_players] for colour in COLOURS},
        "oases": oases,
        "wells": wells,
        "well_pool": pool,
        "camels": {},
        "leaders_in_hand": [[c for c in COLOURS if c != returned[seat]] for seat in range(n_players)],
        "returned": returned,
        "taken_wells": [[] for _ in range(n_players)],
        "oasis_credits": [[] for _ in range(n_players)],
        "areas": [],
        "final_turn": False,
        "end_reason": None,
        "rng": rng.state,
    }
    _after_palm(state, area, [])
    return state


def _palm_trees_wanted(area: PlayArea) -> int:
    return min(PALM_TREES, len(area.palm_spaces))


# -- palm trees (S-5, option "choose") --------------------------------------------------------


def _legal_palms(state: ThroughTheDesertState, area: PlayArea, seat: Seat) -> list[AnyMove]:
    return [Palm(hex=area.coords[key]) for key in area.palm_spaces if key not in state["oases"]]


def _check_palm(state: ThroughTheDesertState, area: PlayArea, seat: Seat, move: Palm) -> None:
    """Spec S-5: a palm tree goes on a palm space in use that has none yet."""
    if state["phase"] != "palms":
        raise IllegalMove("S-5: palm trees are placed before the game, not in the {phase}", phase=_phase_name(state))
    key = hex_key(move.hex)
    if key not in area.palm_spaces:
        raise IllegalMove("S-5: {hex} is not a palm space of the board in use", hex=show(key))
    if key in state["oases"]:
        raise IllegalMove("S-5: {hex} already has a palm tree", hex=show(key))


def _place_palm(state: ThroughTheDesertState, area: PlayArea, seat: Seat, move: Palm, events: list[Event]) -> None:
    key = hex_key(move.hex)
    state["oases"] = list(area.sort([*state["oases"], key]))
    state["last_placed"] = [key]
    events.append(Event(text=f"{{seat{seat}}} planted a palm tree on {{hex}}", args={"hex": _place(key)}))
    state["current"] = (seat + 1) % state["players"]
    _after_palm(state, area, events)


def _after_palm(state: ThroughTheDesertState, area: PlayArea, events: list[Event]) -> None:
    """Once every palm tree stands: S-6 wells on the palm spaces left empty, then S-3 or L-1."""
    if len(state["oases"]) < _palm_trees_wanted(area):
        return
    pool = state.pop("well_pool")
    for key in area.palm_spaces:
        if key not in state["oases"] and pool:
            state["wells"][key] = pool.pop(0)
    if None in state["returned"] and state["players"] == 5:
        state["phase"] = "return_leaders"
        state["current"] = state["start_player"]
    else:
        _start_leader_phase(state, area, events)


# -- returned leaders (S-3, 5 players, option "choose") ---------------------------------------


def _legal_returns(state: ThroughTheDesertState, area: PlayArea, seat: Seat) -> list[AnyMove]:
    return [ReturnLeader(colour=colour) for colour in COLOURS if colour not in state["returned"]]


def _check_return(state: ThroughTheDesertState, area: PlayArea, seat: Seat, move: ReturnLeader) -> None:
    """Spec S-3: with 5 players each returns one leader, every colour returned once."""
    if state["phase"] != "return_leaders":
        raise IllegalMove("S-3: leaders are returned before the leader phase, not in the {phase}", phase=_phase_name(state))
    if move.colour in state["returned"]:
        raise IllegalMove("S-3: another player already returned the {colour} leader", colour=move.colour)


def _return_leader(state: ThroughTheDesertState, area: PlayArea, seat: Seat, move: ReturnLeader, events: list[Event]) -> None:
    state["returned"][seat] = move.colour
    state["leaders_in_hand"][seat] = [c for c in state["leaders_in_hand"][seat] if c != move.colour]
    events.append(Event(text=f"{{seat{seat}}} returned {{leader}}", args={"leader": piece(f"the {move.colour} leader")}))
    if None in state["returned"]:
        state["current"] = (seat + 1) % state["players"]
    else:
        _start_leader_phase(state, area, events)


# -- leaders (L-1 .. L-6) ---------------------------------------------------------------------


def _start_leader_phase(state: ThroughTheDesertState, area: PlayArea, events: list[Event]) -> None:
    state["phase"] = "leaders"
    _next_leader_turn(state, area, state["start_player"] - 1, events)


def _leader_spaces(state: ThroughTheDesertState, area: PlayArea) -> list[HexKey]:
    """Spec L-2 (a)-(e), with L-5's fallback: the spaces a leader may go on now, any seat."""
    camels, wells, oases = state["camels"], state["wells"], state["oases"]
    near_oasis = {n for oasis in oases for n in area.neighbours[oasis]}
    near_leader = {n for key, camel in camels.items() if camel["leader"] for n in area.neighbours[key]}
    allowed = [
        key
        for key in area.spaces
        if key not in camels and key not in wells and key not in oases and key not in near_oasis
    ]
    apart = [key for key in allowed if key not in near_leader]
    return apart or allowed


def _leader_colours(state: ThroughTheDesertState, seat: Seat) -> list[Colour]:
    """Spec L-3/L-4: the colours ``seat`` may place now, with L-4's fallback."""
    hand = state["leaders_in_hand"][seat]
    camels = state["camels"].values()
    if any(camel["seat"] == seat for camel in camels):
        return list(hand)
    n_players, start = state["players"], state["start_player"]
    if n_players == 5 and seat == start:
        required = state["returned"][(start - 1) % n_players]
        if required is not None and required in hand:
            return [required]
    on_board = {camel["colour"] for camel in camels}
    fresh = [colour for colour in hand if colour not in on_board]
    return fresh or list(hand)


def _legal_leaders(state: ThroughTheDesertState, area: PlayArea, seat: Seat) -> list[AnyMove]:
    spaces = _leader_spaces(state, area)
    return [_leader_move(colour, area.coords[key]) for colour in _leader_colours(state, seat) for key in spaces]


@functools.lru_cache(maxsize=4096)
def _leader_move(colour: Colour, at: tuple[int, int]) -> Leader:
    """A (shared, immutable) Leader move; cached because legal lists repeat the same moves (making
    them anew was much of a random game: ``bench/results/2026-12-04-vm-rules-engines.md``)."""
    return Leader(colour=colour, hex=at)


@functools.lru_cache(maxsize=4096)
def _camel_move(colour: Colour, at: tuple[int, int]) -> Camel:
    """A (shared, immutable) Camel move, cached like :func:`_leader_move`."""
    return Camel(colour=colour, hex=at)


def _check_leader(state: ThroughTheDesertState, area: PlayArea, seat: Seat, move: Leader) -> None:
    """Spec L-1 .. L-5: a leader from the hand, an allowed colour, on an allowed space."""
    if state["phase"] != "leaders":
        raise IllegalMove("L-1: leaders are placed in the leader phase, not in the {phase}", phase=_phase_name(state))
    colour, key = move.colour, hex_key(move.hex)
    if colour not in state["leaders_in_hand"][seat]:
        raise IllegalMove("L-1: you have no {colour} leader in hand", colour=colour)
    if colour not in _leader_colours(state, seat):
        if state["players"] == 5 and seat == state["start_player"]:
            required = _leader_colours(state, seat)[0]
            raise IllegalMove("L-4: your first leader must be {required}, the colour the last player returned", required=required)
        raise IllegalMove("L-3: your first leader must have a colour not yet on the board; {colour} is there", colour=colour)
    camels = state["camels"]
    if key not in area.space_set:
        raise IllegalMove("L-2: {hex} is not a space of the board in use", hex=show(key))
    if key in state["wells"]:
        raise IllegalMove("L-2a: {hex} holds a well", hex=show(key))
    if key in state["oases"]:
        raise IllegalMove("L-2b: {hex} is an oasis", hex=show(key))
    if key in camels:
        raise IllegalMove("L-2c: {hex} already holds a camel", hex=show(key))
    if any(n in state["oases"] for n in area.neighbours[key]):
        raise IllegalMove("L-2d: {hex} is next to an oasis", hex=show(key))
    if key not in _leader_spaces(state, area):
        raise IllegalMove("L-2e: {hex} is next to a leader", hex=show(key))


def _place_leader(state: ThroughTheDesertState, area: PlayArea, seat: Seat, move: Leader, events: list[Event]) -> None:
    key = hex_key(move.hex)
    state["camels"][key] = {"seat": seat, "colour": move.colour, "leader": True}
    state["leaders_in_hand"][seat].remove(move.colour)
    state["last_placed"] = [key]
    events.append(Event(text=f"{{seat{seat}}} placed {{leader}} on {{hex}}",
                        args={"leader": piece(f"the {move.colour} leader"), "hex": _place(key)}))
    _next_leader_turn(state, area, seat, events)


def _next_leader_turn(state: ThroughTheDesertState, area: PlayArea, after: Seat, events: list[Event]) -> None:
    """Spec L-1: the next seat after ``after`` with leaders in hand; the main phase when none."""
    n_players = state["players"]
    for step in range(1, n_players + 1):
        seat = (after + step) % n_players
        if not state["leaders_in_hand"][seat]:
            continue
        if _leader_spaces(state, area):
            state["current"] = seat
            return
        events.append(Event(text=f"{{seat{seat}}} has no space left for a leader; those leaders leave the game (L-5)"))
        state["leaders_in_hand"][seat] = []
    state["phase"] = "camels"
    _begin_main_turn(state, area, state["start_player"], events)


# -- camels (T-1 .. T-7, P-1 .. P-8, W, O and E rules) ----------------------------------------


def camel_targets(state: ThroughTheDesertState, area: PlayArea, seat: Seat) -> dict[Colour, list[HexKey]]:
    """Spec P-1 .. P-7, T-7: colour -> the keys where ``seat`` may place a camel of it now.

    Colours without a legal space (empty pile, no leader, caravan boxed in) are left out.
    """
    camels, piles = state["camels"], state["piles"]
    blocked = set(state["oases"]).union(*(area_["hexes"] for area_ in state["areas"]))
    caravans: dict[Colour, list[HexKey]] = {colour: [] for colour in COLOURS if piles[colour] > 0}
    for key, camel in camels.items():
        if camel["seat"] == seat and camel["colour"] in caravans:
            caravans[camel["colour"]].append(key)
    targets: dict[Colour, list[HexKey]] = {}
    for colour, cells in caravans.items():
        seen: set[HexKey] = set()
        found = []
        for cell in cells:
            for key in area.neighbours[cell]:
                if key in seen:
                    continue
                seen.add(key)
                if key in camels or key in blocked or _rival_adjacent(camels, area, key, seat, colour):
                    continue
                found.append(key)
        if found:
            targets[colour] = list(area.sort(found))
    return targets


def can_place(state: ThroughTheDesertState, area: PlayArea, seat: Seat) -> bool:
    """Whether :func:`camel_targets` is non-empty, stopping at the first legal space."""
    camels, piles = state["camels"], state["piles"]
    areas = state["areas"]
    oases = state["oases"]
    neighbours = area.neighbours
    for key, camel in camels.items():
        colour = camel["colour"]
        if camel["seat"] != seat or piles[colour] == 0:
            continue
        for target in neighbours[key]:
            if target in camels or target in oases or any(target in a["hexes"] for a in areas):
                continue
            if not _rival_adjacent(camels, area, target, seat, colour):
                return True
    return False


def _rival_adjacent(camels: Mapping[HexKey, PlacedCamel], area: PlayArea, key: HexKey, seat: Seat, colour: Colour) -> bool:
    """Spec P-5: a camel of ``colour`` owned by another player is next to ``key``."""
    for n in area.neighbours[key]:
        camel = camels.get(n)
        if camel is not None and camel["colour"] == colour and camel["seat"] != seat:
            return True
    return False


def _legal_camels(state: ThroughTheDesertState, area: PlayArea, seat: Seat) -> list[AnyMove]:
    return [
        _camel_move(colour, area.coords[key])
        for colour, keys in camel_targets(state, area, seat).items()
        for key in keys
    ]


def _check_camel(state: ThroughTheDesertState, area: PlayArea, seat: Seat, move: Camel) -> None:
    """Spec T-7 and P-1 .. P-7, in that order; the message names the first rule broken."""
    if state["phase"] != "camels":
        raise IllegalMove("T-2: camels are placed in the main phase, not in the {phase}", phase=_phase_name(state))
    colour, key = move.colour, hex_key(move.hex)
    camels = state["camels"]
    if not any(c["leader"] and c["seat"] == seat and c["colour"] == colour for c in camels.values()):
        raise IllegalMove("P-7: you have no {colour} leader on the board", colour=colour)
    if state["piles"][colour] == 0:
        raise IllegalMove("T-7: the {colour} pile is empty", colour=colour)
    if key not in area.space_set:
        raise IllegalMove("P-1: {hex} is not a space of the board in use", hex=show(key))
    if key in camels:
        raise IllegalMove("P-2: {hex} already holds a camel", hex=show(key))
    if key in state["oases"]:
        raise IllegalMove("P-2: {hex} is an oasis", hex=show(key))
    if any(key in area_["hexes"] for area_ in state["areas"]):
        raise IllegalMove("P-3: {hex} lies inside an enclosed area", hex=show(key))
    own = [camels.get(n) for n in area.neighbours[key]]
    if not any(c is not None and c["seat"] == seat and c["colour"] == colour for c in own):
        raise IllegalMove("P-4: no camel of your {colour} caravan is adjacent to {hex}", colour=colour, hex=show(key))
    if _rival_adjacent(camels, area, key, seat, colour):
        raise IllegalMove("P-5: another player's {colour} caravan is adjacent to {hex}", colour=colour, hex=show(key))


def _place_camel(state: ThroughTheDesertState, area: PlayArea, seat: Seat, move: Camel, events: list[Event]) -> None:
    """Spec T-2: place one camel and resolve its effects (W-1, O-1, E-5, G-1) before the next."""
    colour, key = move.colour, hex_key(move.hex)
    if state["placed"] == 0:
        state["last_placed"] = []
    state["camels"][key] = {"seat": seat, "colour": colour, "leader": False}
    state["piles"][colour] -= 1
    state["placed"] += 1
    state["last_placed"].append(key)

    text, args = f"{{seat{seat}}} placed {{camel}} on {{hex}}", {"camel": piece(f"a {colour} camel"), "hex": _place(key)}
    well = state["wells"].pop(key, None)
    if well is None:
        events.append(Event(text=text, args=args))
    else:
        _take_wells(state, seat, [well], text + " and took a well", events, args)
    for oasis in area.neighbours[key]:
        if oasis in state["oases"]:
            _credit_oasis(state, seat, colour, oasis, "reached", events)
    for region in new_enclosures(area, state["camels"], key):
        _register_area(state, seat, colour, region, events)

    if state["piles"][colour] == 0 and not state["final_turn"]:
        state["final_turn"] = True
        immediate = state["options"]["end_trigger"] == "immediate"
        when = "at once (G-3)" if immediate else "after this turn (G-2)"
        events.append(Event(text=f"The {colour} pile is empty: the game ends {when}"))
        state["end_reason"] = reason = f"the last {colour} camel was taken (G-1)"
        if immediate:
            _end_game(state, reason, events)
            return
    if state["placed"] < state["allowance"] and can_place(state, area, seat):
        return
    if state["final_turn"]:
        _end_game(state, state["end_reason"] or "", events)
    else:
        _begin_main_turn(state, area, (seat + 1) % state["players"], events)


def _take_wells(state: ThroughTheDesertState, seat: Seat, wells: list[WellToken], text: str, events: list[Event],
                args: dict[str, dict[str, Any]] | None = None) -> None:
    """Spec W-1/W-2/W-4: ``seat`` takes ``wells``; values go to a private log line while hidden.
    ``text`` and ``args`` are the public sentence's template and arguments."""
    args = args or {}
    state["taken_wells"][seat].extend(wells)
    values = words(", ".join(str(well["value"]) for well in wells))  # digits: the same in every language
    if state["options"]["hide_well_values"]:
        events.append(Event(text=text, args=args))
        events.append(Event(text=f"{{seat{seat}}} took {{wells}} worth {{values}}", seats=(seat,),
                            args={"wells": _wells(len(wells)), "values": values}))
    else:
        events.append(Event(text=f"{text} worth {{values}}", args={**args, "values": values}))


def _credit_oasis(
    state: ThroughTheDesertState, seat: Seat, colour: Colour, oasis: HexKey, how: str, events: list[Event]
) -> None:
    """Spec O-1 .. O-5, E-6: 5 points the first time caravan (seat, colour) reaches or encloses ``oasis``."""
    credit = [colour, oasis]
    if credit in state["oasis_credits"][seat]:
        return
    state["oasis_credits"][seat].append(credit)
    events.append(Event(text=f"{{seat{seat}}}'s {{caravan}} {how} the oasis at {{hex}}: {{points}}",
                        args={"caravan": piece(f"{colour} caravan"), "hex": _place(oasis),
                              "points": amount(OASIS_POINTS, "points")}))


def _register_area(
    state: ThroughTheDesertState, seat: Seat, colour: Colour, region: list[HexKey], events: list[Event]
) -> None:
    """Spec E-5 .. E-8: ``region`` becomes an area of ``seat``; its wells and oases pay at once."""
    points = area_value(region, state["oases"])
    enclosed: EnclosedArea = {"seat": seat, "colour": colour, "hexes": region, "points": points}
    state["areas"].append(enclosed)
    text = f"{{seat{seat}}} enclosed an area of {{size}} with {{caravan}} ({{points}})"
    args = {"size": amount(len(region), "space" if len(region) == 1 else "spaces"),
            "caravan": piece(f"the {colour} caravan"), "points": amount(points, "point" if points == 1 else "points")}
    wells = [state["wells"].pop(key) for key in region if key in state["wells"]]
    if wells:
        _take_wells(state, seat, wells, f"{text} and took {{wells}} inside", events, {**args, "wells": _wells(len(wells))})
    else:
        events.append(Event(text=text, args=args))
    for key in region:
        if key in state["oases"]:
            _credit_oasis(state, seat, colour, key, "enclosed", events)


def _wells(count: int) -> dict[str, Any]:
    """``"a well"`` or ``"3 wells"`` as an event argument."""
    return piece("a well") if count == 1 else amount(count, "wells")


def _begin_main_turn(state: ThroughTheDesertState, area: PlayArea, first: Seat, events: list[Event]) -> None:
    """Spec T-1, T-3, T-5, T-6: the next seat from ``first`` that can place gets the turn.

    Seats that can place nothing pass; each pass uses up a turn.  When nobody can place, the
    game ends (T-6).
    """
    n_players = state["players"]
    single_camel_turns = 1 if n_players == 2 else 2
    for step in range(n_players):
        seat = (first + step) % n_players
        allowance = 1 if state["turn"] < single_camel_turns else 2
        state["turn"] += 1
        if can_place(state, area, seat):
            state["current"], state["allowance"], state["placed"] = seat, allowance, 0
            return
        events.append(Event(text=f"{{seat{seat}}} cannot place a camel and passes (T-5)"))
    _end_game(state, "no player can place a camel (T-6)", events)


# -- end of the game --------------------------------------------------------------------------


def _end_game(state: ThroughTheDesertState, reason: str, events: list[Event]) -> None:
    """Spec G-1 .. G-4: nobody acts any more; final scoring is ``result``."""
    state["phase"] = "over"
    state["current"] = None
    state["allowance"] = state["placed"] = 0
    state["end_reason"] = reason
    result = final_result(state, reason)
    scores = ", ".join(f"{{seat{seat}}} {{score{seat}}}" for seat in range(len(result.scores)))
    words_of_reason, rule = split_rule(reason)
    args = {f"score{seat}": amount(score) for seat, score in enumerate(result.scores)}
    events.append(Event(text=f"Game over: {{reason}}. Final scores: {scores}", args={"reason": words(words_of_reason), **args},
                        rule=rule))


def _place(key: HexKey) -> dict[str, Any]:
    """A hex as an event argument: its label on the board (``"F7"``) and its ``[q, r]``."""
    return place(show(key), list(parse_key(key)))


def _phase_name(state: ThroughTheDesertState) -> str:
    return PHASE_NAMES[state["phase"]]


PHASE_NAMES: dict[Phase, str] = {
    "palms": "palm tree placement",
    "return_leaders": "leader return",
    "leaders": "leader phase",
    "camels": "main phase",
    "over": "finished game",
}

LEGAL_MOVES: dict[Phase, Callable[[ThroughTheDesertState, PlayArea, Seat], list[AnyMove]]] = {
    "palms": _legal_palms,
    "return_leaders": _legal_returns,
    "leaders": _legal_leaders,
    "camels": _legal_camels,
    "over": lambda state, area, seat: [],
}



def _check_move(state: ThroughTheDesertState, area: PlayArea, seat: Seat, move: AnyMove) -> None:
    """The rule check of ``move``'s kind; raises :class:`IllegalMove` (also for a foreign move)."""
    if isinstance(move, Palm):
        _check_palm(state, area, seat, move)
    elif isinstance(move, ReturnLeader):
        _check_return(state, area, seat, move)
    elif isinstance(move, Leader):
        _check_leader(state, area, seat, move)
    elif isinstance(move, Camel):
        _check_camel(state, area, seat, move)
    else:
        raise IllegalMove("{move} is not a Through the Desert move", move=repr(move))


def _perform_move(state: ThroughTheDesertState, area: PlayArea, seat: Seat, move: AnyMove, events: list[Event]) -> None:
    """Play ``move``, checked by :func:`_check_move`, on ``state`` (a copy ``apply`` made)."""
    if isinstance(move, Palm):
        _place_palm(state, area, seat, move, events)
    elif isinstance(move, ReturnLeader):
        _return_leader(state, area, seat, move, events)
    elif isinstance(move, Leader):
        _place_leader(state, area, seat, move, events)
    elif isinstance(move, Camel):
        _place_camel(state, area, seat, move, events)

"""The bot hooks of Through the Desert (app/bots): a full state from one seat's view, and a
heuristic value of a position.

``determinize`` rebuilds the state (``state.py``) from what the seat sees (the view
carries the table options, which are public).  Everything a view shows is copied; the rest is
filled in:

* the values of other seats' taken wells while W-2 hides them: drawn without replacement from
  the tokens the seat cannot see anywhere (45 = 15 of each value, minus the wells face up on the
  board, minus the seat's own and every visible taken token), which is exactly the distribution
  the S-6 shuffle leaves them;
* the palm phase's ``well_pool`` (option ``palm_placement="choose"``) from the same unseen tokens;
* token ids (only a seat's own ids ever show), the PRNG state, and the turn counter of T-3,
  which is inferred from the camels placed (only whether it is below 1 or 2 matters).

``evaluate`` scores a position for one seat, in points::

    value(s) = wells + oasis credits + areas             secured, exact
             + largest-caravan points now               F-1 as if the game ended now
             + potential(s)
    evaluate = value(seat) - max(value(other))          once over: the final margin +/- WIN_BONUS

``potential`` looks up to three camels ahead of each of the seat's caravans, over the spaces that
caravan may grow into (P-2 .. P-5: free, outside areas, not beside another seat's caravan of its
colour): an untaken well counts ``value * WELL_REACH[d]`` for its nearest distance ``d`` from any
of the seat's caravans, an oasis a caravan has not scored counts ``5 * OASIS_REACH[d]`` for that
caravan, and each caravan adds ``MOBILITY`` per free space next to it (up to ``MOBILITY_CAP``),
so a caravan about to be boxed in is worth less.  The same terms for the opponents make blocking
them and racing them to a well worth something.  Taking a well or an oasis always beats standing
next to it (the shares are below 1).  All of it is set arithmetic on precomputed neighbour sets:
about 0.15 ms per call with 2 players on the standard board.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from typing import Any

from app.rulesets.base import Rng, Seat
from app.rulesets.through_the_desert.board import PlayArea, hex_key
from app.rulesets.through_the_desert.moves import COLOURS, Colour
from app.rulesets.through_the_desert.options import Options, table_options
from app.rulesets.through_the_desert.scoring import OASIS_POINTS, final_result, largest_caravan_points
from app.rulesets.through_the_desert.state import HexKey, OasisCredit, PlacedCamel, ThroughTheDesertState, WellToken

TOKEN_VALUES = (1, 2, 3)
TOKENS_PER_VALUE = 15
"""Spec S-6: 45 well tokens, 15 each of value 1, 2 and 3 (ids ``well-01`` .. ``well-45``)."""
TOKEN_IDS = tuple(f"well-{number:02d}" for number in range(1, len(TOKEN_VALUES) * TOKENS_PER_VALUE + 1))

WELL_REACH = (0.0, 0.45, 0.2, 0.08)
"""Share of a well's value counted when the nearest caravan is 1, 2 or 3 camels away."""
OASIS_REACH = (0.0, 0.6, 0.3, 0.12)
"""Share of an oasis's 5 points counted when the caravan is 1, 2 or 3 camels from scoring it."""
MOBILITY = 0.25
"""Points per free target space of a caravan, up to ``MOBILITY_CAP`` spaces."""
MOBILITY_CAP = 6
WIN_BONUS = 10.0
"""Added to (subtracted from) the final margin of a finished game won (lost)."""


# -- determinize ------------------------------------------------------------------------------


def determinize(area: PlayArea, view: dict[str, Any], seat: Seat, rng: Rng) -> ThroughTheDesertState:
    """A state whose ``view(state, seat)`` equals ``view``; the parts
    the seat cannot see come from ``rng`` (see the module docstring)."""
    players = view["players"]
    n_players = len(players)
    phase = view["phase"]
    keys = _keys_of(area)

    own = [_parse_token(token) for token in view.get("my_wells", [])]
    unseen = Counter({value: TOKENS_PER_VALUE for value in TOKEN_VALUES})
    unseen.subtract(well["value"] for well in view["wells"])
    unseen.subtract(well["value"] for well in own)
    for other, player in enumerate(players):
        if other != seat and player["well_values"] is not None:
            unseen.subtract(player["well_values"])
    hidden = [value for value in TOKEN_VALUES for _ in range(max(unseen[value], 0))]
    rng.shuffle(hidden)
    own_ids = {well["id"] for well in own}
    free_ids = [token_id for token_id in TOKEN_IDS if token_id not in own_ids]
    rng.shuffle(free_ids)

    def token(value: int) -> WellToken:
        return {"id": free_ids.pop(), "value": value}

    wells = {keys(well["hex"]): token(well["value"]) for well in view["wells"]}
    taken_wells: list[list[WellToken]] = []
    for other, player in enumerate(players):
        if other == seat:
            taken_wells.append(own)
        elif player["well_values"] is not None:
            taken_wells.append([token(value) for value in player["well_values"]])
        else:
            taken_wells.append([token(hidden.pop()) for _ in range(player["wells_taken"])])

    oasis_credits: list[list[OasisCredit]] = [[] for _ in range(n_players)]
    for credit in view["oasis_credits"]:
        oasis_credits[credit["seat"]].append([credit["colour"], keys(credit["hex"])])
    camels: dict[HexKey, PlacedCamel] = {
        keys(camel["hex"]): {"seat": camel["seat"], "colour": camel["colour"], "leader": camel["leader"]}
        for camel in view["camels"]
    }
    turn, allowance, placed = _turn_counters(view, camels, n_players)
    piles = dict(view["piles"])
    if phase == "over":
        end_reason = view["end_reason"]
    elif view["final_turn"]:
        empty = next(colour for colour in COLOURS if piles[colour] == 0)
        end_reason = f"the last {empty} camel was taken (G-1)"
    else:
        end_reason = None

    state: ThroughTheDesertState = {
        "board": view["board"]["name"],
        "players": n_players,
        "options": table_options(Options.model_validate(view["options"])),
        "phase": phase,
        "start_player": view["start_player"],
        "current": view["current"],
        "turn": turn,
        "allowance": allowance,
        "placed": placed,
        "last_placed": [keys(h) for h in view["last_placed"]],
        "piles": piles,
        "oases": [keys(h) for h in view["oases"]],
        "wells": wells,
        "camels": camels,
        "leaders_in_hand": [list(player["leaders_in_hand"]) for player in players],
        "returned": [player["returned_leader"] for player in players],
        "taken_wells": taken_wells,
        "oasis_credits": oasis_credits,
        "areas": [
            {"seat": a["seat"], "colour": a["colour"], "hexes": [keys(h) for h in a["hexes"]], "points": a["points"]}
            for a in view["areas"]
        ],
        "final_turn": view["final_turn"],
        "end_reason": end_reason,
        "rng": rng.next64(),
    }
    if phase == "palms":  # S-6: the tokens for the palm spaces left over, still face down
        state["well_pool"] = [token(value) for value in hidden]
    return state


def _keys_of(area: PlayArea) -> Callable[[list[int]], HexKey]:
    """The state key of a view's hex, checked to be a space of ``area`` (``ValueError`` otherwise)."""

    def key(hex_: list[int]) -> HexKey:
        k = hex_key(hex_)
        if k not in area.space_set:
            raise ValueError(f"{k} is not a space of the board in use")
        return k

    return key


def _parse_token(token: str) -> WellToken:
    """``"well-07:3" -> {"id": "well-07", "value": 3}`` (view.well_token, backwards)."""
    token_id, _, value = token.partition(":")
    return {"id": token_id, "value": int(value)}


def _turn_counters(view: dict[str, Any], camels: dict[HexKey, PlacedCamel], n_players: int) -> tuple[int, int, int]:
    """``(turn, allowance, placed)`` consistent with the view's ``camels_left`` and T-3.

    ``turn`` counts main-phase turns begun; only whether it is below T-3's number of
    single-camel turns matters, and with every turn placing at least one camel that follows from
    the camels on the board (a T-5 pass in the very first round is the one case it can miss).
    """
    if view["phase"] != "camels":
        return (0, 0, 0) if view["phase"] in ("palms", "return_leaders", "leaders") else (2, 0, 0)
    single_camel_turns = 1 if n_players == 2 else 2
    placed_so_far = sum(not camel["leader"] for camel in camels.values())
    turn = min(placed_so_far, 2) + 1
    allowance = 1 if turn - 1 < single_camel_turns else 2
    left = view["camels_left"]
    allowance = max(allowance, left)
    return turn, allowance, allowance - left


# -- evaluate ---------------------------------------------------------------------------------


class _Geometry:
    """Neighbour sets of a play area, built once per area for the evaluation's set arithmetic."""

    def __init__(self, area: PlayArea) -> None:
        self.neighbours: dict[str, frozenset[str]] = {key: frozenset(ns) for key, ns in area.neighbours.items()}
        self._beside: dict[tuple[str, ...], dict[str, tuple[str, ...]]] = {}

    def beside_oases(self, oases: list[str]) -> dict[str, tuple[str, ...]]:
        """Space -> the oases next to it, for the spaces next to any of ``oases`` (cached: the
        palm trees stand still after setup)."""
        key = tuple(oases)
        found = self._beside.get(key)
        if found is None:
            found = {}
            for oasis in oases:
                for space in self.neighbours[oasis]:
                    found[space] = (*found.get(space, ()), oasis)
            self._beside[key] = found
        return found


@functools.cache
def _geometry(area: PlayArea) -> _Geometry:
    return _Geometry(area)


def evaluate(area: PlayArea, state: ThroughTheDesertState, seat: Seat) -> float:
    """The seat's value minus the best other seat's (module docstring); higher is better."""
    n_players = state["players"]
    if state["phase"] == "over":
        scores = final_result(state, state["end_reason"] or "").scores
        best_other = max(score for other, score in enumerate(scores) if other != seat)
        margin = scores[seat] - best_other
        return margin + (WIN_BONUS if margin > 0 else -WIN_BONUS if margin < 0 else 0.0)

    values: list[float] = [
        sum(well["value"] for well in state["taken_wells"][other]) + OASIS_POINTS * len(state["oasis_credits"][other])
        for other in range(n_players)
    ]
    for enclosed in state["areas"]:
        values[enclosed["seat"]] += enclosed["points"]

    caravans: list[dict[Colour, list[HexKey]]] = [{} for _ in range(n_players)]
    for key, camel in state["camels"].items():
        caravans[camel["seat"]].setdefault(camel["colour"], []).append(key)
    if state["phase"] == "camels":
        bonus = largest_caravan_points([{c: len(cells) for c, cells in row.items()} for row in caravans])
        for other in range(n_players):
            values[other] += bonus[other]
    if state["phase"] in ("leaders", "camels"):
        potentials = _potentials(_geometry(area), state, caravans)
        for other in range(n_players):
            values[other] += potentials[other]
    return values[seat] - max(value for other, value in enumerate(values) if other != seat)


def _potentials(
    geometry: _Geometry, state: ThroughTheDesertState, caravans: list[dict[Colour, list[HexKey]]]
) -> list[float]:
    """Per seat: wells and unscored oases within three camels of a caravan, plus mobility."""
    neighbours = geometry.neighbours
    camels, wells, piles = state["camels"], state["wells"], state["piles"]
    blocked = set(camels)
    blocked.update(state["oases"])
    for enclosed in state["areas"]:
        blocked.update(enclosed["hexes"])
    well_keys = set(wells)
    oases = state["oases"]
    beside_oasis = geometry.beside_oases(oases)
    n_players = len(caravans)

    around: dict[tuple[int, str], set[str]] = {}
    for other, row in enumerate(caravans):
        for colour, cells in row.items():
            around[other, colour] = set().union(*[neighbours[key] for key in cells])

    potentials = []
    for other, row in enumerate(caravans):
        total = 0.0
        well_reach: dict[str, float] = {}
        scored = {(colour, oasis) for colour, oasis in state["oasis_credits"][other]}
        for colour in row:
            if piles[colour] == 0:
                continue
            rivals = [around[rival, colour] for rival in range(n_players) if rival != other and (rival, colour) in around]
            closed = blocked.union(*rivals) if rivals else blocked  # P-5 for the rivals' spaces
            ring = around[other, colour] - closed
            if not ring:
                continue
            total += MOBILITY * min(len(ring), MOBILITY_CAP)
            reached = closed | ring
            oases_left = {oasis for oasis in oases if (colour, oasis) not in scored}
            for distance in range(1, len(WELL_REACH)):
                if distance > 1:
                    ring = set().union(*[neighbours[key] for key in ring]) - reached
                    if not ring:
                        break
                    reached |= ring
                share = WELL_REACH[distance]
                for key in ring & well_keys:
                    if well_reach.get(key, 0.0) < share:
                        well_reach[key] = share
                if oases_left:
                    for key in ring & beside_oasis.keys():
                        for oasis in beside_oasis[key]:
                            if oasis in oases_left:
                                oases_left.discard(oasis)
                                total += OASIS_POINTS * OASIS_REACH[distance]
        total += sum(wells[key]["value"] * share for key, share in well_reach.items())
        potentials.append(total)
    return potentials

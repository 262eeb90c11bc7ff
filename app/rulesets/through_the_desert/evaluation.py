"""How good a Through the Desert position is for one seat: the ``evaluate`` hook of bots' searches.

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
next to it (the shares are below 1).  All of it is set arithmetic on precomputed neighbour sets.
"""

from __future__ import annotations

import functools

from app.rulesets.base import Seat
from app.rulesets.through_the_desert.board import PlayArea
from app.rulesets.through_the_desert.moves import Colour
from app.rulesets.through_the_desert.scoring import OASIS_POINTS, final_result, largest_caravan_points
from app.rulesets.through_the_desert.state import HexKey, ThroughTheDesertState

WELL_REACH = (0.0, 0.45, 0.2, 0.08)
"""Share of a well's value counted when the nearest caravan is 1, 2 or 3 camels away."""
OASIS_REACH = (0.0, 0.6, 0.3, 0.12)
"""Share of an oasis's 5 points counted when the caravan is 1, 2 or 3 camels from scoring it."""
MOBILITY = 0.25
"""Points per free target space of a caravan, up to ``MOBILITY_CAP`` spaces."""
MOBILITY_CAP = 6
WIN_BONUS = 10.0
"""Added to (subtracted from) the final margin of a finished game won (lost)."""


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

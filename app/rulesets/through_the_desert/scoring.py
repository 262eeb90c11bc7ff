"""Scoring of Through the Desert: points won during play and the final count (Spec F-1 .. F-5).

Every function works on plain values or on a game state (``state.py``), so the scoring of a
position can be checked without playing up to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from app.rulesets.base import Result, rank_by_score
from app.rulesets.through_the_desert.moves import COLOURS, Colour
from app.rulesets.through_the_desert.state import HexKey, PlacedCamel, ThroughTheDesertState

OASIS_POINTS = 5
"""Spec O-1: one oasis marker per (caravan, oasis) connection."""
LARGEST_CARAVAN_POINTS = 10
"""Spec F-1: the single largest caravan of a colour."""
SHARED_CARAVAN_POINTS = 5
"""Spec F-1: each of several caravans tied for the largest."""

CATEGORIES = ("caravans", "wells", "oases", "areas")
"""The keys of one seat's score breakdown (Spec §1.1: one category per ledger entry)."""


def caravan_sizes(camels: Mapping[HexKey, PlacedCamel], n_players: int) -> list[dict[Colour, int]]:
    """Spec A-19: ``sizes[seat][colour]`` = camels of that caravan, leader included.

    A colour appears only for seats with a camel (at least the leader) of it on the board.
    """
    sizes: list[dict[Colour, int]] = [{} for _ in range(n_players)]
    for camel in camels.values():
        row = sizes[camel["seat"]]
        row[camel["colour"]] = row.get(camel["colour"], 0) + 1
    return sizes


def largest_caravan_points(sizes: Sequence[Mapping[Colour, int]]) -> list[int]:
    """Spec F-1: 10 to the strictly largest caravan of each colour, 5 to each of tied largest.

    ``sizes[seat]`` maps colour -> caravan size; a seat without that colour's leader (missing
    key or 0) takes no part.  Returns the caravan points per seat.
    """
    points = [0] * len(sizes)
    for colour in COLOURS:
        entries = [(seat, row.get(colour, 0)) for seat, row in enumerate(sizes) if row.get(colour, 0) > 0]
        if not entries:
            continue
        best = max(size for _, size in entries)
        winners = [seat for seat, size in entries if size == best]
        award = LARGEST_CARAVAN_POINTS if len(winners) == 1 else SHARED_CARAVAN_POINTS
        for seat in winners:
            points[seat] += award
    return points


def area_value(hexes: Iterable[HexKey], oases: Iterable[HexKey]) -> int:
    """Spec F-2/A-17: 1 point per space of an area, oasis spaces excluded (well spaces count)."""
    oasis_set = set(oases)
    return sum(1 for key in hexes if key not in oasis_set)


def seat_breakdown(caravans: int, well_values: Iterable[int], oasis_credits: int, area_points: int) -> dict[str, int]:
    """Spec F-1 .. F-3 for one seat: ``{"caravans", "wells", "oases", "areas"}`` in points."""
    return {
        "caravans": caravans,
        "wells": sum(well_values),
        "oases": OASIS_POINTS * oasis_credits,
        "areas": area_points,
    }


def breakdown(state: ThroughTheDesertState) -> list[dict[str, int]]:
    """The final score of every seat by category (Spec F-1 .. F-3), from a game state."""
    n_players = state["players"]
    caravan_points = largest_caravan_points(caravan_sizes(state["camels"], n_players))
    area_points = [0] * n_players
    for area in state["areas"]:
        area_points[area["seat"]] += area["points"]
    return [
        seat_breakdown(
            caravan_points[seat],
            (well["value"] for well in state["taken_wells"][seat]),
            len(state["oasis_credits"][seat]),
            area_points[seat],
        )
        for seat in range(n_players)
    ]


def totals(rows: Sequence[Mapping[str, int]]) -> list[int]:
    """Spec F-4: each seat's total over the categories."""
    return [sum(row[category] for category in CATEGORIES) for row in rows]


def final_result(state: ThroughTheDesertState, reason: str) -> Result:
    """Spec F-4/F-5: scores, shared ranks (no tie-breaker: tied seats share the place) and the
    breakdown per seat."""
    rows = breakdown(state)
    scores = totals(rows)
    return Result(scores=scores, ranks=rank_by_score(scores), breakdown=rows, reason=reason)

"""The enclosed-area detector (Spec E-1 .. E-10), on plain positions.

A *position* here is a :class:`~.board.PlayArea` plus ``camels``, the state's mapping
``"q,r" -> {"seat": s, "colour": c, "leader": bool}`` (``state.PlacedCamel``).  Free spaces are the spaces in use that hold
no camel; oasis and untaken well spaces are free (E-1, A-5), walls are simply absent from the
neighbour lists.
"""

from __future__ import annotations

from collections.abc import Mapping

from app.rulesets.base import Seat
from app.rulesets.through_the_desert.board import PlayArea
from app.rulesets.through_the_desert.moves import Colour
from app.rulesets.through_the_desert.state import HexKey, PlacedCamel

Camels = Mapping[HexKey, PlacedCamel]
Caravan = tuple[Seat, Colour]
"""A caravan named by its owner and colour."""


def region_of(area: PlayArea, camels: Camels, start: HexKey) -> tuple[list[HexKey], set[Caravan]]:
    """Spec E-1/E-2: the region of free spaces holding ``start`` and its border's caravans.

    Returns ``(region, border)``: the region's keys in discovery order, and the set of
    ``(seat, colour)`` caravans of the camels adjacent to it.  ``start`` must be a free space
    (``ValueError`` otherwise).
    """
    if start in camels or start not in area.space_set:
        raise ValueError(f"{start} is not a free space")
    region, border, seen = [start], set(), {start}
    neighbours = area.neighbours
    for here in region:  # the list grows while we walk it: a breadth-first search
        for there in neighbours[here]:
            camel = camels.get(there)
            if camel is not None:
                border.add((camel["seat"], camel["colour"]))
            elif there not in seen:
                seen.add(there)
                region.append(there)
    return region, border


def new_enclosures(area: PlayArea, camels: Camels, placed: HexKey) -> list[list[HexKey]]:
    """Spec E-5/E-10: the regions that the camel just placed on ``placed`` encloses.

    Only the placed camel's caravan (p, c) can enclose (any new or changed region has it on its
    border).  A region counts when every camel on its border belongs to (p, c) (E-3): a camel of
    any other caravan touching it, inside it or on its rim, spoils it (E-4a/b).  Returns each
    enclosed region as a list of keys in reading order; several regions can close at once (E-4e).
    A region that was already an area is never adjacent to a newly filled space (E-7), so every
    region returned is new.

    The walk of a region stops at the first border camel of another caravan: that region is
    spoilt whatever else it holds, and its part already walked is enough to skip the other
    neighbours of ``placed`` that lie in it (this keeps ``apply`` cheap for bots' searches).
    """
    seat, colour = camels[placed]["seat"], camels[placed]["colour"]
    neighbours = area.neighbours
    visited: set[HexKey] = set()
    found: list[list[HexKey]] = []
    for start in neighbours[placed]:
        if start in camels or start in visited:
            continue
        region, seen, enclosed = [start], {start}, True
        for here in region:  # breadth-first, the list grows while we walk it
            for there in neighbours[here]:
                camel = camels.get(there)
                if camel is None:
                    if there not in seen:
                        seen.add(there)
                        region.append(there)
                elif camel["seat"] != seat or camel["colour"] != colour:
                    enclosed = False
                    break
            if not enclosed:
                break
        visited |= seen
        if enclosed:
            found.append(list(area.sort(region)))
    return found


def regions(area: PlayArea, camels: Camels) -> list[tuple[list[HexKey], set[Caravan]]]:
    """Spec E-1: every region of free spaces with its border caravans (for tests and tools)."""
    visited: set[HexKey] = set()
    out: list[tuple[list[HexKey], set[Caravan]]] = []
    for start in area.spaces:
        if start in camels or start in visited:
            continue
        region, border = region_of(area, camels, start)
        visited.update(region)
        out.append((list(area.sort(region)), border))
    return out

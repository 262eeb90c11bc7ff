"""Vessels of the full edition: Sail and Fly (spec 1.7 [K]; numbers ``data/factions.json``).

Known rules [K]: each faction has one Sea Vessel and one Air Vessel, each recruited or built once
its Building stands; a new Sea Vessel docks at its capital's shore, a new Air Vessel stands in
the capital region; a vessel carries 2 Units; units move freely between a vessel and the land
region it is in or docked at, but not during a move; vessels never march and cannot be
sacrificed.

* Sail: through shores and sea regions up to the vessel's speed: undocking from a shore into a
  touching sea costs 1, sea to sea across a ferry line 1, docking on a shore 1; never shore to
  shore without a sea between.
* Fly: through land regions as a march does (the Tower<->Capital link included) and over sea
  regions, never by a ferry, never ending at sea; deserts do not stop it; it stops at enemy
  units or structures and fights.

Decisions where the sources are silent (also in ``reference.md``, "Full edition"):

* The cargo is loaded from the vessel's land region when the move starts (up to the capacity,
  any units the mover chooses) and unloaded where the vessel docks or lands; a Sea Vessel that
  ends at sea keeps its cargo aboard (``vessels[kind].cargo``) until it docks.
* Docking ends a sail (a docked vessel is in the land region); no sea battles: a sea region
  holding an enemy Sea Vessel cannot be entered.  An Air Vessel flies over seas but does not
  fight there.
* A vessel in a land region counts for its owner's control of it and fights with its strength
  (and its unloaded cargo) when that region is attacked, or as part of the army when it docks or
  lands where enemies stand (a battle, the mover attacking) or on a Nomad (the NB-1 test with its
  strength).  It does not count toward the 5-unit limit (it is no marching unit).
* A vessel takes damage only after all units of its side there (each piece fully, as spec 1.8.5
  says), and retreats with the survivors to its owner's capital (a Sea Vessel docks there).
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable

from app.rulesets.base import Seat
from app.rulesets.heroes.board import Board
from app.rulesets.heroes.catalogue import of
from app.rulesets.heroes.houses import UNIT_KINDS
from app.rulesets.heroes.march import ARMY_LIMIT, Terrain
from app.rulesets.heroes.moves import Fly, Sail
from app.rulesets.heroes.pieces import natural_strength, size, units_at
from app.rulesets.heroes.state import Counts, HeroesState, Vessel

KINDS = ("sea", "air")


def vessels_of(state: HeroesState, seat: Seat) -> dict[str, Vessel | None]:
    """The seat's vessels by kind (``{}`` outside the full edition)."""
    return state["players"][seat].get("vessels", {})


def vessel_regions(state: HeroesState, seat: Seat) -> set[str]:
    """The land regions where one of the seat's vessels is."""
    return {vessel["at"] for vessel in vessels_of(state, seat).values()
            if vessel is not None and vessel["at"] in state["regions"]}


def vessels_at(state: HeroesState, region: str) -> dict[Seat, list[str]]:
    """Every seat's vessel kinds in ``region`` (a land or sea region)."""
    found: dict[Seat, list[str]] = {}
    for seat, player in enumerate(state["players"]):
        for kind, vessel in player.get("vessels", {}).items():
            if vessel is not None and vessel["at"] == region:
                found.setdefault(seat, []).append(kind)
    return found


def strength_at(state: HeroesState, region: str, seat: Seat) -> int:
    """The strength of the seat's vessels in ``region``."""
    return sum(of(state).vessel(kind)["strength"] for kind in vessels_at(state, region).get(seat, []))


def cargo_at_sea(state: HeroesState, seat: Seat) -> Counts:
    """The seat's units aboard a vessel at sea (they are in no land region)."""
    total = {kind: 0 for kind in UNIT_KINDS}
    for vessel in vessels_of(state, seat).values():
        if vessel is not None:
            for kind, count in vessel["cargo"].items():
                total[kind] += count
    return total


def hostile_seas(state: HeroesState, seat: Seat) -> set[str]:
    """Sea regions holding another seat's Sea Vessel (not to be entered: no sea battles)."""
    return {vessel["at"] for other, player in enumerate(state["players"]) if other != seat
            for vessel in player.get("vessels", {}).values() if vessel is not None and vessel["at"].startswith("sea_")}


# -- movement -----------------------------------------------------------------------------------

def sail_reach(state: HeroesState, board: Board, seat: Seat, start: str, speed: int) -> dict[str, str]:
    """Where the Sea Vessel at ``start`` can end within ``speed``: sea regions (``"move"``) and
    shores it docks at (``"move"``, ``"battle"`` or ``"nomad"``, as ``march.reachable`` says for
    land); docking ends the sail, enemy Sea Vessels block a sea."""
    terrain = Terrain(state, board, seat)
    blocked = hostile_seas(state, seat)

    def steps(here: str) -> frozenset[str]:
        found = board.sea_adjacent[here] | board.shores[here] if here in board.sea_adjacent else board.shores[here]
        return found - blocked

    def visit(there: str) -> tuple[str | None, bool]:
        return ("move", True) if there in board.sea_adjacent else (land_end(terrain, there), False)

    return search(start, speed, steps, visit)


def fly_reach(state: HeroesState, board: Board, seat: Seat, start: str, speed: int) -> dict[str, str]:
    """Where the Air Vessel at ``start`` can land within ``speed``: land regions by land (no
    ferries; the Tower<->Capital link for the owner) or over seas; deserts do not stop it; enemy
    pieces and Nomads stop it (``"battle"``, ``"nomad"``)."""
    terrain = Terrain(state, board, seat)

    def steps(here: str) -> frozenset[str]:
        if here in board.sea_adjacent:
            return board.sea_adjacent[here] | board.shores[here]
        return board.overland[here] | board.shores[here] | frozenset(terrain.links.get(here, ()))

    def visit(there: str) -> tuple[str | None, bool]:
        if there in board.sea_adjacent:
            return None, True  # over the sea, never ending there
        end = land_end(terrain, there)
        return end, end == "move"

    return search(start, speed, steps, visit)


def search(start: str, speed: int, steps: Callable[[str], frozenset[str]],
           visit: Callable[[str], tuple[str | None, bool]]) -> dict[str, str]:
    """Breadth-first from ``start`` up to ``speed`` steps: ``steps(here)`` are the places one step
    on, ``visit(there)`` says how a move may end there (``None``: it may not) and whether it may go
    on; returns every end but ``start``."""
    ends: dict[str, str] = {}
    distance = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if distance[here] == speed:
            continue
        for there in steps(here):
            if there in distance:
                continue
            distance[there] = distance[here] + 1
            end, onward = visit(there)
            if end is not None:
                ends[there] = end
            if onward:
                queue.append(there)
    ends.pop(start, None)
    return ends


def land_end(terrain: Terrain, region: str) -> str:
    """How a vessel's move ends in the land ``region``."""
    if region in terrain.nomads:
        return "nomad"
    if region in terrain.hostile:
        return "battle"
    return "move"


def cargoes(state: HeroesState, seat: Seat, vessel: Vessel, kind: str) -> list[Counts]:
    """The cargoes the vessel may carry on its move: what is aboard at sea, else every choice of
    up to ``capacity`` units of its land region (none included)."""
    if vessel["at"] not in state["regions"]:
        return [{**{kind: 0 for kind in UNIT_KINDS}, **vessel["cargo"]}]
    present = units_at(state, vessel["at"], seat)
    capacity = of(state).vessel(kind)["capacity"]
    result = []
    for counts in itertools.product(*(range(min(present[kind], capacity) + 1) for kind in UNIT_KINDS)):
        if sum(counts) <= capacity:
            result.append(dict(zip(UNIT_KINDS, counts)))
    return result


def moves(state: HeroesState, board: Board, seat: Seat, kind: str, worker: str) -> list[Sail | Fly]:
    """Every legal Sail (``kind`` ``"sea"``) or Fly (``"air"``) of the seat paid by ``worker``.

    A mustering Serf leaves the Courtyard first, so it cannot also board there."""
    vessel = vessels_of(state, seat).get(kind)
    if vessel is None:
        return []
    speed = of(state).vessel(kind)["speed"]
    reach = (sail_reach if kind == "sea" else fly_reach)(state, board, seat, vessel["at"], speed)
    capital = state["players"][seat]["capital"]
    from app.rulesets.heroes.abilities import enters_nomad
    model = Sail if kind == "sea" else Fly
    result: list[Sail | Fly] = []
    for cargo in cargoes(state, seat, vessel, kind):
        if worker == "serf" and vessel["at"] == capital and cargo["serf"] >= units_at(state, capital, seat)["serf"] > 0:
            continue
        strength = natural_strength(cargo) + of(state).vessel(kind)["strength"]
        for destination, end in sorted(reach.items()):
            if destination in state["regions"]:
                there = 0 if board.is_capital_region(destination) else size(units_at(state, destination, seat))
                if there + size(cargo) > ARMY_LIMIT and not board.is_capital_region(destination):
                    continue
                if end == "nomad" and not enters_nomad(state, seat, destination, strength, cargo["hero"] > 0):
                    continue
            result.append(model(destination=destination, worker=worker, **cargo))
    return result


def move_end(state: HeroesState, board: Board, seat: Seat, move: Sail | Fly) -> str:
    """How a legal vessel move ends: ``"move"`` (at sea too), ``"battle"`` or ``"nomad"``."""
    kind = "sea" if isinstance(move, Sail) else "air"
    vessel = vessels_of(state, seat)[kind]
    assert vessel is not None
    speed = of(state).vessel(kind)["speed"]
    reach = (sail_reach if kind == "sea" else fly_reach)(state, board, seat, vessel["at"], speed)
    return reach[move.destination]


def carry(state: HeroesState, seat: Seat, move: Sail | Fly) -> str:
    """Move the vessel and its cargo (the move is legal); returns where it came from."""
    from app.rulesets.heroes.pieces import add_units, take_units
    kind = "sea" if isinstance(move, Sail) else "air"
    vessel = vessels_of(state, seat)[kind]
    assert vessel is not None
    origin = vessel["at"]
    cargo = {k: v for k, v in move.units.items() if v}
    if origin in state["regions"]:
        take_units(state, origin, seat, cargo)
    vessel["at"] = move.destination
    if move.destination in state["regions"]:
        add_units(state, move.destination, seat, cargo)
        vessel["cargo"] = {}
    else:
        vessel["cargo"] = cargo
    return origin


def place_new(state: HeroesState, seat: Seat, kind: str) -> None:
    """A new vessel: docked at (or standing in) its owner's capital region."""
    state["players"][seat]["vessels"][kind] = {"at": state["players"][seat]["capital"], "cargo": {}}


def destroy(state: HeroesState, seat: Seat, region: str) -> list[str]:
    """The seat's vessels in ``region`` are destroyed (back to supply: they may be recruited
    again); returns their kinds."""
    lost = vessels_at(state, region).get(seat, [])
    for kind in lost:
        state["players"][seat]["vessels"][kind] = None
    return lost


def retreat(state: HeroesState, seat: Seat, region: str) -> list[str]:
    """The seat's vessels in ``region`` go back to its capital with the survivors."""
    moved = vessels_at(state, region).get(seat, [])
    for kind in moved:
        vessel = state["players"][seat]["vessels"][kind]
        assert vessel is not None
        vessel["at"] = state["players"][seat]["capital"]
    return moved


def remove_all(state: HeroesState, seat: Seat) -> None:
    """An eliminated player's vessels leave the board (spec 1.8.8)."""
    for kind in vessels_of(state, seat):
        state["players"][seat]["vessels"][kind] = None

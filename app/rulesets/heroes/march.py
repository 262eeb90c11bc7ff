"""The March (spec 1.7 "Command Action: March", 1.2, NB-1/NB-2): where an army may go.

* An army is 1-5 units from one region (Nomad Mercenary figures included, NM-5); it moves up to
  the speed of its slowest unit, through adjacent land regions (ferries count).
* The owner's Capital counts as adjacent to every region holding one of its Towers (spec 1.2),
  for its own marches only (A-W3: not for Nomads).
* Entering a Desert stops the march; it may leave a Desert with a later move.
* Entering a region with an opponent's units, Tower or standing Capital stops the march, and a
  battle follows.
* A board Nomad's region may be entered only with strength greater than ``N`` (NB-1), and the
  army cannot pass through it (NB-2, A-B5).
* After the move, at most 5 units of one player in a region outside capital regions (the
  Courtyard has no limit); passing through is not limited.
* [D] The army must end somewhere other than its origin.
"""

from __future__ import annotations

import functools
import itertools
from collections import deque
from collections.abc import Iterator

from app.rulesets.base import Seat
from app.rulesets.heroes.board import Board
from app.rulesets.heroes.houses import HOUSE, UNIT_KINDS
from app.rulesets.heroes.moves import March
from app.rulesets.heroes.nomads import may_enter
from app.rulesets.heroes.abilities import enters_nomad, speed_bonus
from app.rulesets.heroes.pieces import is_full, natural_strength, size, towers_of, units_at
from app.rulesets.heroes.state import HeroesState

ARMY_LIMIT = HOUSE.army_limit
"""Spec 1.7: 1-5 units march together; 1.2: at most 5 of one player in a region outside capitals."""


def neighbours(state: HeroesState, board: Board, seat: Seat, region: str) -> set[str]:
    """Land neighbours of ``region`` for ``seat``'s marches: the map's adjacency plus the
    Tower<->Capital link of the seat's own Towers (spec 1.2)."""
    result = set(board.adjacent[region])
    capital = state["players"][seat]["capital"]
    towers = towers_of(state, seat)
    if region == capital:
        result.update(towers)
    elif region in towers:
        result.add(capital)
    return result


def speed(counts: dict[str, int]) -> int:
    """Spec 1.7: an army moves as far as its slowest unit."""
    return min(HOUSE.speed(kind) for kind in UNIT_KINDS if counts.get(kind, 0))


class Terrain:
    """What a march of ``seat`` meets, read once from the state: the seat's graph (with its
    Tower<->Capital link), the hostile regions and the Nomad regions."""

    def __init__(self, state: HeroesState, board: Board, seat: Seat) -> None:
        self.board = board
        capital = state["players"][seat]["capital"]
        towers = towers_of(state, seat)
        self.links = {capital: set(towers), **{tower: {capital} for tower in towers}}
        self.nomads = set()
        # spec 1.7 March / 1.8.1: an opponent's units, Tower or standing Capital stops a march
        self.hostile = {player["capital"] for other, player in enumerate(state["players"])
                        if other != seat and not player["eliminated"]}
        mine = str(seat)
        for region, entry in state["regions"].items():
            if entry["nomad"]:
                self.nomads.add(region)
            units = entry["units"]  # another seat's units there: a key but ``mine`` (without a generator per region)
            if (entry["tower"] is not None and entry["tower"] != seat) or len(units) > 1 or (units and mine not in units):
                self.hostile.add(region)
        for other, player in enumerate(state["players"]):  # full edition: another seat's vessel on land
            if other != seat:
                self.hostile.update(vessel["at"] for vessel in player.get("vessels", {}).values()
                                    if vessel is not None and vessel["at"] in state["regions"])

    def neighbours(self, region: str) -> frozenset[str] | set[str]:
        """The seat's neighbours of ``region`` (map adjacency plus its Tower<->Capital link)."""
        links = self.links.get(region)
        return self.board.adjacent[region] | links if links else self.board.adjacent[region]

    def reachable(self, origin: str, reach: int) -> dict[str, str]:
        """See :func:`reachable`."""
        ends: dict[str, str] = {}
        distance = {origin: 0}
        queue = deque([origin])
        while queue:
            here = queue.popleft()
            if distance[here] == reach:
                continue
            for there in self.neighbours(here):
                if there in distance:
                    continue
                distance[there] = distance[here] + 1
                if there in self.nomads:
                    ends[there] = "nomad"
                elif there in self.hostile:
                    ends[there] = "battle"
                else:
                    ends[there] = "move"
                    if not self.board.is_desert(there):
                        queue.append(there)
        return ends


def reachable(state: HeroesState, board: Board, seat: Seat, origin: str, reach: int) -> dict[str, str]:
    """Every region the seat's army can end in within ``reach`` steps, mapped to how the march
    ends there: ``"move"``, ``"battle"`` (hostile, stops) or ``"nomad"`` (a board Nomad, stops;
    the strength test is the caller's).  Deserts stop the march but are ``"move"``."""
    return Terrain(state, board, seat).reachable(origin, reach)


@functools.lru_cache(maxsize=1 << 16)
def march_move(slot: str, origin: str, destination: str, serf: int, warrior: int, hero: int, mercenary: int,
               worker: str) -> March:
    """A (shared, immutable) March value; cached because legal lists repeat the same marches."""
    return March(slot=slot, origin=origin, destination=destination, serf=serf, warrior=warrior, hero=hero,
                 mercenary=mercenary, worker=worker)


def armies(counts: dict[str, int]) -> list[dict[str, int]]:
    """Every army of 1-5 units that can be formed from ``counts`` (every kind of ``UNIT_KINDS``)."""
    return [dict(army) for army, _, _, _ in _armies(tuple(min(counts[kind], ARMY_LIMIT) for kind in UNIT_KINDS))]


@functools.lru_cache(maxsize=1024)
def _armies(limits: tuple[int, ...]) -> tuple[tuple[dict[str, int], int, int, int], ...]:
    """:func:`armies` of at most ``limits`` units of each kind, each with its speed, natural
    strength and size; made once per ``limits`` and shared (not to be changed)."""
    result = []
    for combination in itertools.product(*(range(limit + 1) for limit in limits)):
        if 1 <= sum(combination) <= ARMY_LIMIT:
            army = dict(zip(UNIT_KINDS, combination))
            result.append((army, speed(army), natural_strength(army), size(army)))
    return tuple(result)


def fits(state: HeroesState, board: Board, seat: Seat, destination: str, army: dict[str, int]) -> bool:
    """Spec 1.2: after the move at most 5 of the seat's units in ``destination`` unless it is a
    capital region."""
    if board.is_capital_region(destination):
        return True
    return size(units_at(state, destination, seat)) + size(army) <= ARMY_LIMIT


def iter_marches(state: HeroesState, board: Board, seat: Seat, slot: str, worker: str) -> Iterator[March]:
    """Every legal March of ``seat`` into ``slot`` paid by ``worker``, one by one.

    With ``worker="serf"`` (a Muster) the Serf leaves the Courtyard first, so it cannot also march.
    """
    capital = state["players"][seat]["capital"]
    terrain = Terrain(state, board, seat)
    n_nomads = len(terrain.nomads)
    mine = str(seat)
    for origin in sorted(state["regions"]):
        if mine not in state["regions"][origin]["units"]:
            continue  # no unit of the seat here: the stored shape has no entry then (``pieces.tidy``)
        present = units_at(state, origin, seat)
        if origin == capital and worker == "serf":
            present["serf"] -= 1
        if size(present) == 0:
            continue
        by_reach: dict[int, list[tuple[str, str, int]]] = {}
        full = is_full(state)
        for army, army_speed, strength, count in _armies(tuple(min(present[kind], ARMY_LIMIT) for kind in UNIT_KINDS)):
            reach = army_speed + (speed_bonus(state, seat, army) if full else 0)
            if reach not in by_reach:
                by_reach[reach] = [
                    (destination, end, 0 if board.is_capital_region(destination) else size(units_at(state, destination, seat)))
                    for destination, end in sorted(terrain.reachable(origin, reach).items())
                ]
            for destination, end, there in by_reach[reach]:
                if end == "nomad" and not (enters_nomad(state, seat, destination, strength, army["hero"] > 0) if full
                                           else strength > n_nomads):
                    continue  # NB-1, as ``may_enter`` (N read once here; full edition: with the bonuses)
                if there + count > ARMY_LIMIT and not board.is_capital_region(destination):
                    continue
                yield march_move(slot, origin, destination, army["serf"], army["warrior"], army["hero"],
                                 army["mercenary"], worker)


def marches(state: HeroesState, board: Board, seat: Seat, slot: str, worker: str) -> list[March]:
    """Every legal March of ``seat`` into ``slot`` paid by ``worker`` (see :func:`iter_marches`)."""
    return list(iter_marches(state, board, seat, slot, worker))


def can_march(state: HeroesState, board: Board, seat: Seat, slot: str, worker: str) -> bool:
    """Whether at least one March is legal (without listing them all)."""
    return next(iter_marches(state, board, seat, slot, worker), None) is not None


def march_end(state: HeroesState, board: Board, seat: Seat, move: March) -> str | None:
    """How ``move`` ends (``"move"``, ``"battle"``, ``"nomad"``), or ``None`` if it is not a legal
    march for the pieces on the board (the caller has taken any mustering Serf already)."""
    army = move.units
    present = units_at(state, move.origin, seat)
    if not 1 <= size(army) <= ARMY_LIMIT or any(army[kind] > present[kind] for kind in UNIT_KINDS):
        return None
    full = is_full(state)
    reach = speed(army) + (speed_bonus(state, seat, army) if full else 0)
    end = reachable(state, board, seat, move.origin, reach).get(move.destination)
    if end is None or not fits(state, board, seat, move.destination, army):
        return None
    if end == "nomad":
        strength = natural_strength(army)
        if not (enters_nomad(state, seat, move.destination, strength, army["hero"] > 0) if full
                else may_enter(strength, state)):
            return None
    return end

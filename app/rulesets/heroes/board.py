"""The map "four-isles-v1" (spec 2.4) as a graph of land regions; geometry only, no rules.

Land adjacency includes the ferry routes (spec 1.2: ferry-linked regions are adjacent for land
units).  Sea regions stay in the data for a later tier and are not part of the graph.  The
owner's Tower<->Capital link depends on the position, so it lives in ``march.py``.
"""

from __future__ import annotations

import functools
import json
from collections import deque
from dataclasses import dataclass
from importlib import resources
from typing import Any

from app.rulesets.base import place

CONTINENTS_BY_PLAYERS = {2: ("N", "S"), 3: ("N", "E", "W"), 4: ("N", "E", "S", "W")}
"""Spec 2.4 (docs/heroes.md): the continent of each seat, in seat order, by player count."""


CONTINENT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


def region_arg(region: str) -> dict[str, Any]:
    """A region as an event argument: its name as the map shows it and its id (``base.place``)."""
    return place(region_name(region), region)


def region_name(region: str | None) -> str:
    """The words for a region id in log lines: ``"N_plains" -> "North Plains"``,
    ``"E_capital" -> "East Capital"`` (for the renderer; the id stays the wire form)."""
    if not region:
        return "nowhere"
    continent, _, rest = region.partition("_")
    if continent not in CONTINENT_NAMES or not rest:
        return region
    return f"{CONTINENT_NAMES[continent]} {rest.replace('_', ' ').title()}"


@dataclass(frozen=True)
class Region:
    """One land region: ``terrain`` is plains/forest/mountain/swamp/desert/capital;
    ``resource`` is what it yields (``None`` for swamp, desert, capital) and ``amount`` the base 1."""

    id: str
    terrain: str
    continent: str
    resource: str | None
    amount: int
    x: float
    y: float


class Board:
    """The land graph: ``regions`` by id, ``adjacent[id]`` (ferries included), ``deserts``,
    ``capitals`` (continent -> capital region id)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.name: str = data["id"]
        self.regions: dict[str, Region] = {}
        adjacency: dict[str, set[str]] = {}
        for entry in data["regions"]:
            if entry["kind"] == "sea":
                continue
            produce = entry["yield"] or {}
            self.regions[entry["id"]] = Region(
                id=entry["id"], terrain=entry["terrain"], continent=entry["continent"],
                resource=produce.get("resource"), amount=produce.get("amount", 0), x=entry["x"], y=entry["y"],
            )
            adjacency[entry["id"]] = set(entry["adjacent"])
        for route in data["ferry_routes"]:
            adjacency[route["a"]].add(route["b"])
            adjacency[route["b"]].add(route["a"])
        for region, neighbours in adjacency.items():
            for other in neighbours:
                if region not in adjacency.get(other, ()):
                    raise ValueError(f"map {self.name}: {region} -> {other} is not symmetric")
        self.adjacent: dict[str, frozenset[str]] = {r: frozenset(n) for r, n in adjacency.items()}
        self.land: tuple[str, ...] = tuple(self.regions)
        self.deserts: tuple[str, ...] = tuple(data["desert_regions"])
        self.capitals: dict[str, str] = {self.regions[r].continent: r for r in data["capital_regions"]}
        self.capital_regions: frozenset[str] = frozenset(data["capital_regions"])
        # Sail and Fly (full edition): the sea regions, the shores pairing land and sea, the seas
        # across a ferry line, and the land adjacency without ferries (air vessels never use them)
        self.seas: tuple[str, ...] = tuple(entry["id"] for entry in data["regions"] if entry["kind"] == "sea")
        self.shores: dict[str, frozenset[str]] = {
            entry["id"]: frozenset(r for r in entry["shores"] if r in self.regions or r in self.seas)
            for entry in data["regions"]}
        self.sea_adjacent: dict[str, frozenset[str]] = {
            entry["id"]: frozenset(entry["adjacent"]) for entry in data["regions"] if entry["kind"] == "sea"}
        ferries = {frozenset((route["a"], route["b"])) for route in data["ferry_routes"]}
        self.overland: dict[str, frozenset[str]] = {
            region: frozenset(n for n in neighbours if frozenset((region, n)) not in ferries)
            for region, neighbours in self.adjacent.items()}

    @classmethod
    @functools.cache
    def four_isles(cls) -> "Board":
        """The package's ``data/four_isles.json``."""
        text = resources.files("app.rulesets.heroes").joinpath("data/four_isles.json").read_text()
        return cls(json.loads(text))

    @functools.cache
    def without_continents(self, dropped: tuple[str, ...]) -> "Board":
        """The same map with the continents ``dropped`` out of play (A-S1: solo leaves one
        continent out): their regions, the adjacencies and ferry routes into them are gone."""
        gone = {entry["id"] for entry in self.data["regions"] if entry.get("continent") in dropped}
        data = dict(self.data)
        data["continents"] = [c for c in self.data["continents"] if c not in dropped]
        data["regions"] = [{**entry, "adjacent": [r for r in entry["adjacent"] if r not in gone]}
                           for entry in self.data["regions"] if entry["id"] not in gone]
        data["ferry_routes"] = [route for route in self.data["ferry_routes"]
                                if route["a"] not in gone and route["b"] not in gone]
        data["desert_regions"] = [r for r in self.data["desert_regions"] if r not in gone]
        data["capital_regions"] = [r for r in self.data["capital_regions"] if r not in gone]
        return Board(data)

    def is_desert(self, region: str) -> bool:
        """Spec 1.2: a march stops on entering a Desert."""
        return self.regions[region].terrain == "desert"

    def is_capital_region(self, region: str) -> bool:
        """A capital-terrain region (owned or not); no unit limit there (spec 1.2)."""
        return region in self.capital_regions

    @functools.cache
    def land_distances(self, origin: str) -> dict[str, int]:
        """Breadth-first march distance from ``origin`` to every land region (ferries count;
        spec 1.7 Build a Tower: "shortest march distance from your capital")."""
        distance = {origin: 0}
        queue = deque([origin])
        while queue:
            here = queue.popleft()
            for there in self.adjacent[here]:
                if there not in distance:
                    distance[there] = distance[here] + 1
                    queue.append(there)
        return distance

    @staticmethod
    def continents_for(n_players: int) -> tuple[str, ...]:
        """Spec 2.4: N,S / N,E,W / N,E,S,W; raises ``ValueError`` for other counts."""
        if n_players not in CONTINENTS_BY_PLAYERS:
            raise ValueError(f"Heroes takes 2 to 4 players, not {n_players}")
        return CONTINENTS_BY_PLAYERS[n_players]

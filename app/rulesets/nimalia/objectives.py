"""The 22 objective faces O1 - O22 (Spec §2.2, §2.3, rulings D-2 .. D-4, D-7).

Every face scores all players at once: ``OBJECTIVES[id].score(grids)`` takes one visible grid per
seat and returns one number per seat.  Most faces score each reserve on its own; the red faces
O16, O18, O20 and O21 compare the players (O13, although red, does not: Spec A11).

The card data (colour, level, the scoring text shown to players) is package data,
``data/objectives.json``; the scoring functions below are registered against those ids.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources

from app.rulesets.nimalia.cards import JUNGLE, OTTER, SAVANNAH, SNOW, TERRAINS, WATER
from app.rulesets.nimalia.reserve import (
    Grid,
    bounding_box,
    components,
    footprint,
    occupied_neighbours,
    river_ends,
    rivers,
    spaces_at_corner,
    touches_edge,
)

COLOURS: tuple[str, ...] = ("blue", "green", "yellow", "red")
"""Spec §2.2: the four objective colours, in the order D-1 applies them."""

Scorer = Callable[[list[Grid]], list[int]]


@dataclass(frozen=True)
class Objective:
    """One objective face: its id (``1`` for O1), physical card, colour, level (E/M/D), whether it
    belongs to the first-game set, a short title and the scoring text players read."""

    id: int
    card: int
    colour: str
    level: str
    first_game: bool
    title: str
    text: str
    score: Scorer

    @property
    def label(self) -> str:
        return f"O{self.id}"


_SCORERS: dict[int, Scorer] = {}


def individual(objective_id: int):
    """Register a per-reserve rule ``grid -> points`` as the scorer of ``objective_id``."""

    def register(rule: Callable[[Grid], int]) -> Callable[[Grid], int]:
        _SCORERS[objective_id] = lambda grids: [rule(grid) for grid in grids]
        return rule

    return register


def comparative(objective_id: int):
    """Register a rule ``grids -> points per seat`` as the scorer of ``objective_id``."""

    def register(rule: Scorer) -> Scorer:
        _SCORERS[objective_id] = rule
        return rule

    return register


# -- counting helpers ---------------------------------------------------------------------------


def count_animal(grid: Grid, animal: str) -> int:
    return sum(space.animal == animal for space in grid.values())


def count_terrain(grid: Grid, terrain: str) -> int:
    """Spec A3: an otter space counts as its printed terrain."""
    return sum(space.terrain == terrain for space in grid.values())


def next_to(grid: Grid, position, keep) -> bool:
    """Whether some orthogonal neighbour of ``position`` passes ``keep``."""
    return any(keep(grid[n]) for n in occupied_neighbours(grid, position))


def longest_river(grid: Grid) -> int:
    """Spec D-2: the size in otters of the largest river system; 0 without otters."""
    return max((len(system) for system in rivers(grid)), default=0)


def largest_population(grid: Grid) -> int:
    """Spec E4: the size of the largest single-species population (otters count)."""
    return max(Counter(space.animal for space in grid.values()).values(), default=0)


def ranking(values: list[int], first: int, second: int, fewest: bool = False) -> list[int]:
    """Spec §2.3: award ``first`` to every player sharing the best value and, when exactly one
    player is best and 3 or 4 play, ``second`` to every player sharing the next-best value.

    ``fewest``: lower is better and 0 is the best value.  Otherwise higher is better and a player
    with 0 is not ranked at all (Spec §2.3 rule 5, D-3, D-4).
    """
    ranked = [value for value in values if fewest or value > 0]
    points = [0] * len(values)
    if not ranked:
        return points
    pick = min if fewest else max
    best = pick(ranked)
    leaders = [seat for seat, value in enumerate(values) if value == best and (fewest or value > 0)]
    for seat in leaders:
        points[seat] = first
    rest = [value for value in ranked if value != best]
    if len(leaders) == 1 and len(values) >= 3 and rest:
        runner_up = pick(rest)
        for seat, value in enumerate(values):
            if value == runner_up:
                points[seat] = second
    return points


# -- the faces ------------------------------------------------------------------------------------


@individual(1)
def otter_company(grid: Grid) -> int:
    """Spec O1, A9: per otter, every species seen at least twice among its orthogonal neighbours
    scores one point per such neighbour (otters are a species; a neighbour may count for two otters)."""
    total = 0
    for position, space in grid.items():
        if space.animal == OTTER:
            species = Counter(grid[n].animal for n in occupied_neighbours(grid, position))
            total += sum(count for count in species.values() if count >= 2)
    return total


@individual(2)
def otters_by_the_lake(grid: Grid) -> int:
    """Spec O2, A8: 2 per otter with a water space among the three other spaces meeting at
    either end point of its river (an otter itself is never water, A3)."""
    total = 0
    for position, space in grid.items():
        if space.animal != OTTER or not space.river:
            continue
        corners = river_ends(position, space.river)
        others = {p for corner in corners for p in spaces_at_corner(corner)} - {position}
        if any(p in grid and grid[p].terrain == WATER for p in others):
            total += 2
    return total


@individual(3)
def jungle_areas(grid: Grid) -> int:
    """Spec O3: 2 per jungle area of any size."""
    return 2 * len(components(grid, lambda space: space.terrain == JUNGLE))


@individual(4)
def gorillas_at_the_water(grid: Grid) -> int:
    """Spec O4: 2 per gorilla orthogonally next to water; each gorilla at most once."""
    return 2 * sum(
        space.animal == "gorilla" and next_to(grid, position, lambda other: other.terrain == WATER)
        for position, space in grid.items()
    )


@individual(5)
def great_savannah(grid: Grid) -> int:
    """Spec O5, A4: 2 per space of the single largest savannah area."""
    return 2 * max((len(area) for area in components(grid, lambda space: space.terrain == SAVANNAH)), default=0)


@individual(6)
def savannahs_of_four(grid: Grid) -> int:
    """Spec O6: 6 per savannah area of exactly 4 spaces."""
    return 6 * sum(len(area) == 4 for area in components(grid, lambda space: space.terrain == SAVANNAH))


@individual(7)
def snow_squares(grid: Grid) -> int:
    """Spec O7: 4 per 2x2 block of snow spaces, overlapping blocks each counted."""
    return 4 * sum(
        all(p in grid and grid[p].terrain == SNOW for p in footprint(position)) for position in grid
    )


@individual(8)
def polar_bear_families(grid: Grid) -> int:
    """Spec O8: +2 per bear in a group of 2 or more bears, -1 per bear alone; may be negative."""
    groups = components(grid, lambda space: space.animal == "polar bear")
    return sum(2 * len(group) if len(group) >= 2 else -1 for group in groups)


@individual(9)
def balanced_terrains(grid: Grid) -> int:
    """Spec O9: 2 x the count of the terrain you have least of (0 if one is missing)."""
    return 2 * min(count_terrain(grid, terrain) for terrain in TERRAINS)


FILLED_SQUARE_POINTS = {2: 3, 3: 5, 4: 8, 5: 13, 6: 21}
"""Spec O10: points by the side of the largest filled square."""


@individual(10)
def filled_square(grid: Grid) -> int:
    """Spec O10, A5: the largest k x k square of occupied spaces, anywhere; only it scores."""
    box = bounding_box(grid)
    if box is None:
        return 0
    top, left, bottom, right = box
    for side in sorted(FILLED_SQUARE_POINTS, reverse=True):
        for row in range(top, bottom - side + 2):
            for col in range(left, right - side + 2):
                if all((row + dr, col + dc) in grid for dr in range(side) for dc in range(side)):
                    return FILLED_SQUARE_POINTS[side]
    return 0


@individual(11)
def four_terrain_rows(grid: Grid) -> int:
    """Spec O11: 3 per row holding all 4 terrains."""
    rows: dict[int, set[str]] = {}
    for (row, _), space in grid.items():
        rows.setdefault(row, set()).add(space.terrain)
    return 3 * sum(len(terrains) == len(TERRAINS) for terrains in rows.values())


@individual(12)
def horizontal_couples(grid: Grid) -> int:
    """Spec O12, A1, D-7: 3 per maximal horizontal run of exactly 2 identical animals (a run of
    3 or more scores nothing; empty spaces break runs; vertical neighbours do not matter)."""
    couples = 0
    for (row, col), space in grid.items():
        starts = grid.get((row, col - 1)) is None or grid[(row, col - 1)].animal != space.animal
        if not starts:
            continue
        length = 1
        while (row, col + length) in grid and grid[(row, col + length)].animal == space.animal:
            length += 1
        couples += length == 2
    return 3 * couples


GIRAFFE_POINTS = (8, 5, 3)
"""Spec O13: points for 0, 1 and 2 giraffes; 3 or more score 0."""


@individual(13)
def few_giraffes(grid: Grid) -> int:
    """Spec O13, A11: an individual table, no comparison between players."""
    giraffes = count_animal(grid, "giraffe")
    return GIRAFFE_POINTS[giraffes] if giraffes < len(GIRAFFE_POINTS) else 0


@individual(14)
def sheltered_flamingos(grid: Grid) -> int:
    """Spec O14, A6: 3 per flamingo whose 4 orthogonal neighbours are all occupied."""
    return 3 * sum(space.animal == "flamingo" and not touches_edge(grid, p) for p, space in grid.items())


@individual(15)
def long_river(grid: Grid) -> int:
    """Spec O15, D-2: a longest river of n otters scores n(n-1)/2, at most 15."""
    length = longest_river(grid)
    return min(15, length * (length - 1) // 2)


@comparative(16)
def longest_river_race(grids: list[Grid]) -> list[int]:
    """Spec O16, D-3: longest river 1st +5, 2nd +2; length 0 is not ranked."""
    return ranking([longest_river(grid) for grid in grids], 5, 2)


@individual(17)
def pandas_at_the_edge(grid: Grid) -> int:
    """Spec O17, A6: 3 per panda with an empty orthogonal neighbour (outside or a hole)."""
    return 3 * sum(space.animal == "panda" and touches_edge(grid, p) for p, space in grid.items())


@comparative(18)
def gorillas_yes_pandas_no(grids: list[Grid]) -> list[int]:
    """Spec O18, D-1, D-4: most gorillas +5/+2 plus most pandas -5/-2, as one net value."""
    gorillas = ranking([count_animal(grid, "gorilla") for grid in grids], 5, 2)
    pandas = ranking([count_animal(grid, "panda") for grid in grids], -5, -2)
    return [a + b for a, b in zip(gorillas, pandas)]


@individual(19)
def lone_penguins(grid: Grid) -> int:
    """Spec O19: 3 per column holding exactly one penguin."""
    columns = Counter(col for (_, col), space in grid.items() if space.animal == "penguin")
    return 3 * sum(count == 1 for count in columns.values())


@comparative(20)
def fewest_lions(grids: list[Grid]) -> list[int]:
    """Spec O20, N1, N3: everyone tied for the fewest lions +3, everyone else -2."""
    lions = [count_animal(grid, "lion") for grid in grids]
    return [3 if count == min(lions) else -2 for count in lions]


@comparative(21)
def crocodiles_yes_flamingos_no(grids: list[Grid]) -> list[int]:
    """Spec O21, D-1, D-4: most crocodiles +5/+2 (0 not ranked) plus fewest flamingos +5/+2
    (0 is best), as one net value."""
    crocodiles = ranking([count_animal(grid, "crocodile") for grid in grids], 5, 2)
    flamingos = ranking([count_animal(grid, "flamingo") for grid in grids], 5, 2, fewest=True)
    return [a + b for a, b in zip(crocodiles, flamingos)]


@individual(22)
def crocodiles_and_giraffes(grid: Grid) -> int:
    """Spec O22: 2 per crocodile orthogonally next to a giraffe; each at most once."""
    return 2 * sum(
        space.animal == "crocodile" and next_to(grid, position, lambda other: other.animal == "giraffe")
        for position, space in grid.items()
    )


def _load() -> dict[int, Objective]:
    text = resources.files(__package__).joinpath("data", "objectives.json").read_text(encoding="utf-8")
    faces = {}
    for entry in json.loads(text)["objectives"]:
        faces[entry["id"]] = Objective(
            id=entry["id"],
            card=entry["card"],
            colour=entry["colour"],
            level=entry["level"],
            first_game=entry.get("first_game", False),
            title=entry["title"],
            text=entry["text"],
            score=_SCORERS[entry["id"]],
        )
    missing = set(_SCORERS) ^ set(faces)
    if missing:
        raise RuntimeError(f"objective data and scorers disagree on {sorted(missing)}")
    return faces


OBJECTIVES: dict[int, Objective] = _load()
"""Spec §2.2: the 22 faces by id."""

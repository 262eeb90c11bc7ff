"""Reading and changing the pieces of a Heroes state: units in regions, Courtyards, supplies.

A state's ``regions[id]["units"]`` maps a seat (as a string) to its unit counts there; a seat
without units in a region has no key.  A seat's Courtyard is its capital region (spec 1.2), so
its Courtyard units are ``regions[capital]["units"][seat]``.  The counts always hold ``serf``,
``warrior`` and ``hero``; ``mercenary`` (Nomad Mercenary figures, NM-5) is there only while it is
not 0, so games without the Mercenary Nomads variant keep the three-key shape.
"""

from __future__ import annotations

from app.rulesets.base import Seat
from app.rulesets.heroes.houses import HOUSE, UNIT_KINDS
from app.rulesets.heroes.state import HeroesState, Pending

NO_UNITS = {"serf": 0, "warrior": 0, "hero": 0}
"""The stored shape of a seat's counts in a region (``mercenary`` is added only when not 0)."""
ZERO = {kind: 0 for kind in UNIT_KINDS}
NO_COUNTS = (0,) * len(UNIT_KINDS)
"""A count of 0 for each kind of :data:`UNIT_KINDS`, in order (the default of a missing kind)."""
STRENGTH = {kind: HOUSE.strength(kind) for kind in UNIT_KINDS}
ENEMY = 1
"""Solo (spec 1.12): the Enemy's index in ``state["players"]``.  It is no seat of the table
(``n_players`` is 1, so turn order never reaches it); its units, Towers and capital are stored
like a player's under this index, and the server plays it inside ``apply`` (``solo.py``)."""
PLAYER_KINDS = ("serf", "warrior", "hero")
"""The unit kinds that come from and go back to their player's own supply (a Nomad Mercenary
figure belongs to the general supply: ``mercenaries.py``)."""


def log_name(state: HeroesState, seat: Seat | None, start: bool = False) -> str:
    """How a log entry names ``seat``: ``"{seat2}"`` (the platform writes the player's name in),
    or for the solo Enemy, no seat of the table, words: ``"the Enemy"`` (``start``: ``"The Enemy"``,
    at the start of a sentence)."""
    if seat is not None and state["players"][seat].get("enemy"):
        return "The Enemy" if start else "the Enemy"
    return f"{{seat{seat}}}"


def is_full(state: HeroesState) -> bool:
    """Whether the game plays the full edition (spells, vessels, three Heroes per faction,
    exploration tokens); ``False`` for the core edition and every game stored before it."""
    return state["options"].get("edition") == "full"


def is_solo(state: HeroesState) -> bool:
    """Whether this is a solo game against the Enemy (spec 1.12): one seat, ``state["solo"]`` set.
    Asked in one place, ``Heroes.setting``; the rules differ through ``rivals.Rivals``."""
    return state.get("solo") is not None


def turn_seat(state: HeroesState) -> Seat:
    """The seat whose token turn it is; raises ``ValueError`` once the game is over (no turn)."""
    seat = state["turn"]["seat"]
    if seat is None:
        raise ValueError("the game is over: it is nobody's turn")
    return seat


def pending_step(state: HeroesState) -> Pending:
    """The open decision (``state.Pending``); raises ``ValueError`` when none is open."""
    pending = state["pending"]
    if pending is None:
        raise ValueError(f"no decision is open in the {state['phase']} phase")
    return pending


def units_at(state: HeroesState, region: str, seat: Seat) -> dict[str, int]:
    """The counts of ``seat``'s units in ``region``, every kind of :data:`UNIT_KINDS` (a fresh
    dict; zeros when none)."""
    return {**ZERO, **state["regions"][region]["units"].get(str(seat), NO_UNITS)}


def size(counts: dict[str, int]) -> int:
    """How many units ``counts`` holds."""
    return sum(map(counts.get, UNIT_KINDS, NO_COUNTS))


def natural_strength(counts: dict[str, int]) -> int:
    """Spec 1.3: Serf 1, Warrior 2, Hero 4, Nomad Mercenary 1 each (house data)."""
    return sum(counts.get(kind, 0) * STRENGTH[kind] for kind in UNIT_KINDS)


def add_units(state: HeroesState, region: str, seat: Seat, counts: dict[str, int]) -> None:
    """Put ``counts`` of ``seat``'s units into ``region`` (they come from elsewhere)."""
    here = state["regions"][region]["units"].setdefault(str(seat), dict(NO_UNITS))
    for kind in UNIT_KINDS:
        if counts.get(kind, 0):
            here[kind] = here.get(kind, 0) + counts[kind]
    tidy(state, region, seat)


def take_units(state: HeroesState, region: str, seat: Seat, counts: dict[str, int]) -> None:
    """Lift ``counts`` of ``seat``'s units out of ``region``; raises ``ValueError`` if they are not there."""
    here = state["regions"][region]["units"].get(str(seat))
    for kind in UNIT_KINDS:
        if counts.get(kind, 0) > (here or NO_UNITS).get(kind, 0):
            raise ValueError(f"seat {seat} has not {counts} in {region}")
    if here is None:
        return
    for kind in UNIT_KINDS:
        if counts.get(kind, 0):
            here[kind] -= counts[kind]
    tidy(state, region, seat)


def tidy(state: HeroesState, region: str, seat: Seat) -> None:
    """Keep the stored shape: no ``mercenary`` key at 0, no entry for a seat without units."""
    units = state["regions"][region]["units"]
    here = units[str(seat)]
    if here.get("mercenary", None) == 0:
        del here["mercenary"]
    if size(here) == 0:
        del units[str(seat)]


def destroy_units(state: HeroesState, region: str, seat: Seat, counts: dict[str, int]) -> None:
    """Remove units from the map back to their owner's supply (spec 1.8.5: "goes back to supply");
    Nomad Mercenary figures are only taken off here (``mercenaries.lose`` does the rest)."""
    take_units(state, region, seat, counts)
    supply = state["players"][seat]["supply"]
    for kind in PLAYER_KINDS:
        supply[kind] += counts.get(kind, 0)


def occupants(state: HeroesState, region: str) -> list[Seat]:
    """The seats with units in ``region``."""
    return sorted(int(seat) for seat in state["regions"][region]["units"])


def capital_owner(state: HeroesState, region: str) -> Seat | None:
    """The seat whose standing Capital City is in ``region`` (``None`` if none, or eliminated)."""
    for seat, player in enumerate(state["players"]):
        if player["capital"] == region and not player["eliminated"]:
            return seat
    return None


def controller(state: HeroesState, region: str) -> Seat | None:
    """Spec 1.9: the seat with at least 1 Unit or Structure in ``region``; [D] a standing capital
    is a Structure, so the capital region is controlled by its owner."""
    holders = occupants(state, region)
    if holders:
        return holders[0]
    entry = state["regions"][region]
    if entry["tower"] is not None:
        return entry["tower"]
    owner = capital_owner(state, region)
    if owner is not None:
        return owner
    for seat, player in enumerate(state["players"]):  # full edition: a vessel is a unit there
        if any(vessel is not None and vessel["at"] == region for vessel in player.get("vessels", {}).values()):
            return seat
    return None


def courtyard(state: HeroesState, seat: Seat) -> dict[str, int]:
    """The seat's Courtyard units (= its units in its capital region, spec 1.2)."""
    return units_at(state, state["players"][seat]["capital"], seat)


def board_nomads(state: HeroesState) -> int:
    """``N`` of spec 3: the number of Nomads standing in regions of the board."""
    return sum(1 for entry in state["regions"].values() if entry["nomad"])


def towers_of(state: HeroesState, seat: Seat) -> list[str]:
    """The regions holding one of ``seat``'s Towers."""
    return [region for region, entry in state["regions"].items() if entry["tower"] == seat]


def active_seats(state: HeroesState) -> list[Seat]:
    """Seats not eliminated, in seat order."""
    return [seat for seat, player in enumerate(state["players"]) if not player["eliminated"]]


def clockwise_from(state: HeroesState, start: Seat, include_start: bool = True) -> list[Seat]:
    """Seats not eliminated in clockwise (seat) order beginning at ``start`` (or after it)."""
    n = state["n_players"]
    order = [(start + step) % n for step in range(n)]
    if not include_start:
        order = order[1:]
    return [seat for seat in order if not state["players"][seat]["eliminated"]]


def pay(state: HeroesState, seat: Seat, cost: dict[str, int]) -> None:
    """Take ``cost`` from the seat's resources (callers check affordability first)."""
    resources = state["players"][seat]["resources"]
    for resource, amount in cost.items():
        resources[resource] -= amount


def can_pay(state: HeroesState, seat: Seat, cost: dict[str, int]) -> bool:
    """Whether the seat holds at least ``cost``."""
    resources = state["players"][seat]["resources"]
    return all(resources[resource] >= amount for resource, amount in cost.items())


def gain(state: HeroesState, seat: Seat, resource: str, amount: int) -> int:
    """Add ``amount`` of ``resource`` up to the cap of 10 (spec 1.4); returns what was gained."""
    resources = state["players"][seat]["resources"]
    before = resources[resource]
    resources[resource] = min(HOUSE.resource_cap, before + amount)
    return resources[resource] - before

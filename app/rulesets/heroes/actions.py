"""The Capital Actions of Tier 1 (spec 1.7, 2.2): Recruit, Build and Tax, and the tax track.

Each function takes the acting seat (the leader with its token, or a follower with its Serf or
captured Nomad already on the slot).  Decisions where the spec is open:

* A single Serf costs 2 Food (house value); 2 Serfs cost 3 Food [K].
* Mercenary Nomads: Recruit also offers the Nomad Mercenary (``mercenaries.py``, NM-1..NM-4).
* The Hall is the one generic Building (spec 2.2): 3 Ore and a Serf from the Courtyard locked
  on it for the rest of the game; a Hero (one per faction in Tier 1) needs it.
* The C.C. goes up one level per Build (L2 4/4/4 [K], L3 6/6/6 [H]).
* A Tower needs one of the seat's Serfs in the region, never in a capital region, no Tower
  there yet; it costs 1 Ore per region of land distance from the seat's capital (ferries count,
  the Tower<->Capital link does not: the link is for marches); at most C.C. level Towers in play
  and 1 per continent (2 in a 2-player game).
* A follower chooses freely within the followed action (any unit, any building, any resource);
  Following means taking the same Capital Action, not copying the leader's choice.
* Tax: every follower uses the track position the leader used; the track rotates once, after
  the last follower (spec 1.7 Tax FAQ [K~]).
"""

from __future__ import annotations

from app.rulesets.base import Seat, card
from app.rulesets.heroes import mercenaries
from app.rulesets.heroes.board import Board, region_arg
from app.rulesets.heroes.houses import HOUSE, RESOURCES
from app.rulesets.heroes.phrases import Phrase, number, resources, said
from app.rulesets.heroes.catalogue import of
from app.rulesets.heroes.moves import AnyMove, VESSELS, Build, CapitalAction, Recruit, Research, Scribe, Tax, Worker
from app.rulesets.heroes.pieces import (
    add_units, can_pay, courtyard, gain, is_full, pay, take_units, towers_of, units_at,
)
from app.rulesets.heroes.state import HeroesState

CAPITAL_SLOTS = ("recruit", "build", "tax")
"""Spec 2.2: the followable Capital Action slots of the core edition."""
FULL_CAPITAL_SLOTS = ("recruit", "build", "research", "tax")
"""Spec 1.7: the followable Capital Action slots of the full edition (Research/Scribe too)."""
SLOT_OF = {"recruit": "recruit", "build": "build", "tax": "tax", "research": "research", "scribe": "research"}
"""The Action Bar slot a Capital Action move fills (Research and Scribe share one)."""


def capital_slots(state: HeroesState) -> tuple[str, ...]:
    """The followable Capital Action slots of this game's edition."""
    return FULL_CAPITAL_SLOTS if is_full(state) else CAPITAL_SLOTS
MARCH_SLOTS = ("march_1", "march_2")
"""Spec 1.7: the two March slots (Command Actions; Muster moves March -> March)."""
RECRUITS = {"serf": {"serf": 1}, "serf_pair": {"serf": 2}, "warrior": {"warrior": 1}, "hero": {"hero": 1}}
"""The units a Recruit takes from the seat's own supply (the Nomad Mercenary: ``mercenaries.py``)."""


# -- Recruit ---------------------------------------------------------------------------------

def can_recruit(state: HeroesState, seat: Seat, unit: str) -> bool:
    """Spec 1.7 Recruit: affordable, the pieces are in supply, and a Hero needs the Hall
    (the Nomad Mercenary: NM-1..NM-4)."""
    if unit == "mercenary":
        return mercenaries.can_recruit(state, seat)
    player = state["players"][seat]
    if unit in VESSELS or unit in of(state).heroes:
        return can_recruit_full(state, seat, unit)
    if unit == "hero" and not player["hall"]:
        return False
    pieces = RECRUITS[unit]
    if any(player["supply"][kind] < count for kind, count in pieces.items()):
        return False
    return can_pay(state, seat, HOUSE.recruit_cost(unit))


def recruit(state: HeroesState, seat: Seat, move: Recruit) -> Phrase:
    """Pay and put the new unit(s) in the Courtyard; returns the log text."""
    if move.unit == "mercenary":
        return mercenaries.recruit(state, seat)
    if move.unit in VESSELS or move.unit in of(state).heroes:
        return recruit_full(state, seat, move.unit)
    cost = HOUSE.recruit_cost(move.unit)
    pay(state, seat, cost)
    pieces = RECRUITS[move.unit]
    for kind, count in pieces.items():
        state["players"][seat]["supply"][kind] -= count
    add_units(state, state["players"][seat]["capital"], seat, pieces)
    what = {"serf": "a Serf", "serf_pair": "2 Serfs", "warrior": "a Warrior", "hero": "a Hero"}[move.unit]
    return said(f"recruits {what} for {{cost}}", cost=resources(cost))


def full_cost(state: HeroesState, unit: str) -> dict[str, int]:
    """What a vessel (``sea_vessel``, ``air_vessel``) or a Hero of the full edition costs in the
    game's revision of the house data."""
    if unit in VESSELS:
        return dict(of(state).vessel(unit.split("_")[0])["cost"])
    return dict(of(state).heroes[unit].cost)


def can_recruit_full(state: HeroesState, seat: Seat, unit: str) -> bool:
    """Spec 1.7 Recruit [K]: a Hero or vessel only once its Building is built; a Hero of the
    seat's own faction not in play; a vessel not in play; paid."""
    player = state["players"][seat]
    if not is_full(state) or player.get("enemy"):
        return False
    if unit in VESSELS:
        kind = unit.split("_")[0]
        if player["vessels"][kind] is not None:
            return False
        building = of(state).vessel_building(player["faction"], kind)
    else:
        hero = of(state).heroes[unit]
        if hero.faction != player["faction"] or unit in player["heroes"] or player["supply"]["hero"] < 1:
            return False
        building = hero.building
    return building in player["buildings"] and can_pay(state, seat, full_cost(state, unit))


def recruit_full(state: HeroesState, seat: Seat, unit: str) -> Phrase:
    """Pay; a Hero goes to the Courtyard (its card in play), a vessel to its capital."""
    from app.rulesets.heroes.vessels import place_new
    cost = full_cost(state, unit)
    pay(state, seat, cost)
    player = state["players"][seat]
    if unit in VESSELS:
        kind = unit.split("_")[0]
        place_new(state, seat, kind)
        name = of(state).faction(player["faction"])["vessels"][kind]["name"]
        return said(f"launches the {{vessel}} ({kind} vessel) at {{region}} for {{cost}}", vessel=card(name), region=region_arg(player["capital"]),
                    cost=resources(cost))
    player["supply"]["hero"] -= 1
    player["heroes"].append(unit)
    add_units(state, player["capital"], seat, {"hero": 1})
    return said("recruits the {hero} for {cost}", hero=card(of(state).heroes[unit].name), cost=resources(cost))


def recruit_units(state: HeroesState) -> tuple[str, ...]:
    """What a Recruit may offer in this game's edition (full: no generic Hero; the seat's
    faction Heroes and its vessels instead)."""
    if is_full(state):
        return ("serf", "serf_pair", "warrior", "mercenary", "sea_vessel", "air_vessel", *of(state).heroes)
    return (*RECRUITS, "mercenary")


# -- Build ---------------------------------------------------------------------------------

def tower_cost(board: Board, state: HeroesState, seat: Seat, region: str) -> dict[str, int]:
    """Spec 1.7 Build a Tower: 1 Ore per land region of distance from the seat's capital."""
    distance = board.land_distances(state["players"][seat]["capital"])[region]
    return {"ore": distance * HOUSE.tower["cost_ore_per_land_distance"]}


def tower_sites(board: Board, state: HeroesState, seat: Seat) -> list[str]:
    """Regions where ``seat`` may build a Tower now (limits of spec 1.3 included)."""
    player = state["players"][seat]
    mine = towers_of(state, seat)
    if player["supply"]["tower"] <= 0 or len(mine) >= HOUSE.tower_limit(player["cc_level"]):
        return []
    per_continent = HOUSE.tower["max_per_continent_2p" if state["n_players"] == 2 else "max_per_continent"]
    sites = []
    for region, entry in sorted(state["regions"].items()):
        if board.is_capital_region(region) or entry["tower"] is not None:
            continue
        if units_at(state, region, seat)["serf"] < 1:
            continue
        continent = board.regions[region].continent
        if sum(1 for other in mine if board.regions[other].continent == continent) >= per_continent:
            continue
        if can_pay(state, seat, tower_cost(board, state, seat, region)):
            sites.append(region)
    return sites


def can_build_hall(state: HeroesState, seat: Seat) -> bool:
    """Spec 1.7 Build a Building: not built yet, 3 Ore, a Serf in the Courtyard to lock on it."""
    player = state["players"][seat]
    return not player["hall"] and courtyard(state, seat)["serf"] >= 1 and can_pay(state, seat, HOUSE.hall_cost)


def can_upgrade(state: HeroesState, seat: Seat) -> bool:
    """Spec 1.7 Upgrade the C.C.: a next level exists and its cost can be paid."""
    cost = HOUSE.upgrade_cost(state["players"][seat]["cc_level"] + 1)
    return cost is not None and can_pay(state, seat, cost)


def can_build_building(state: HeroesState, seat: Seat, building: str) -> bool:
    """Spec 1.7 Build a Building [K] (full edition): one of the seat's faction, not built yet,
    3 Ore and a Courtyard Serf to lock on it."""
    player = state["players"][seat]
    return (of(state).buildings[building][0] == player["faction"] and building not in player["buildings"]
            and courtyard(state, seat)["serf"] >= 1 and can_pay(state, seat, of(state).building["cost"]))


def builds(board: Board, state: HeroesState, seat: Seat, worker: str) -> list[Build]:
    """Every legal Build for ``seat`` (the worker already off the Courtyard)."""
    result: list[Build] = []
    if is_full(state):
        result.extend(Build.shared(what=building, worker=worker) for building in of(state).buildings
                      if can_build_building(state, seat, building))
        result.extend(Build.shared(what=vessel, worker=worker) for vessel in VESSELS if can_recruit_full(state, seat, vessel))
    elif can_build_hall(state, seat):
        result.append(Build.shared(what="hall", worker=worker))
    if can_upgrade(state, seat):
        result.append(Build.shared(what="capital", worker=worker))
    result.extend(Build.shared(what="tower", region=region, worker=worker) for region in tower_sites(board, state, seat))
    return result


def build(board: Board, state: HeroesState, seat: Seat, move: Build) -> Phrase:
    """Perform a legal Build; returns the log text."""
    player = state["players"][seat]
    if move.what in VESSELS:
        return recruit_full(state, seat, move.what)  # spec 1.7 Build a Vessel: as recruiting it
    if move.what in of(state).buildings:
        cost = of(state).building["cost"]
        pay(state, seat, cost)
        take_units(state, player["capital"], seat, {"serf": 1})
        player["buildings"].append(move.what)
        return said("builds the {building} for {cost}, locking a Serf on it", building=card(of(state).buildings[move.what][1]),
                    cost=resources(cost))
    if move.what == "hall":
        pay(state, seat, HOUSE.hall_cost)
        take_units(state, player["capital"], seat, {"serf": 1})
        player["hall"] = True
        return said("builds the Hall for {cost}, locking a Serf on it", cost=resources(HOUSE.hall_cost))
    if move.what == "capital":
        upgrade = HOUSE.upgrade_cost(player["cc_level"] + 1)
        if upgrade is None:
            raise ValueError("the Capital City is at its top level (can_upgrade says so)")
        pay(state, seat, upgrade)
        player["cc_level"] += 1
        return said("raises the Capital City to level {level} for {cost}", level=number(player["cc_level"]), cost=resources(upgrade))
    if move.region is None:
        raise ValueError("a Tower is built in a region (tower_sites names them)")
    cost = tower_cost(board, state, seat, move.region)
    pay(state, seat, cost)
    player["supply"]["tower"] -= 1
    state["regions"][move.region]["tower"] = seat
    return said("builds a Tower on {region} for {cost}", region=region_arg(move.region), cost=resources(cost))


# -- Tax ------------------------------------------------------------------------------------

def tax_slot(state: HeroesState, resource: str) -> str:
    """The tax-track slot (``"4"``, ``"3"``, ``"2"``) holding ``resource``."""
    return next(slot for slot, held in state["tax_track"].items() if held == resource)


def tax(state: HeroesState, seat: Seat, move: Tax) -> Phrase:
    """Gain the amount of the resource's slot (cap 10); the track does not rotate here."""
    slot = tax_slot(state, move.resource)
    gained = gain(state, seat, move.resource, int(slot))
    text = said(f"taxes {move.resource.capitalize()}: +{{gained}}", gained=number(gained))
    return text if gained == int(slot) else text + said(" (capped at {cap})", cap=number(HOUSE.resource_cap))


def rotate_tax_track(state: HeroesState) -> None:
    """Spec 1.7 Tax: each marker moves up one slot (2 to 3, 3 to 4) and the one on the top slot
    drops to the bottom (4 to 2)."""
    slots = [str(value) for value in HOUSE.tax_values]  # highest first
    track = state["tax_track"]
    state["tax_track"] = {slot: track[slots[(index + 1) % len(slots)]] for index, slot in enumerate(slots)}


# -- all Capital Actions ---------------------------------------------------------------------

def capital_actions(board: Board, state: HeroesState, seat: Seat, slot: str, worker: Worker) -> list[CapitalAction]:
    """Every legal action of ``slot`` for ``seat`` paid by ``worker`` (the worker has already
    left the Courtyard when it is a Serf)."""
    if slot == "recruit":
        return [Recruit.shared(unit=unit, worker=worker) for unit in recruit_units(state) if can_recruit(state, seat, unit)]
    if slot == "build":
        return [*builds(board, state, seat, worker)]
    if slot == "research":
        from app.rulesets.heroes import spells
        found: list[CapitalAction] = [Research(worker=worker)] if spells.can_research(state) else []
        return [*found, *spells.scribe_moves(state, seat, worker)]
    return [Tax.shared(resource=resource, worker=worker) for resource in RESOURCES]


def workers(state: HeroesState, seat: Seat) -> list[Worker]:
    """NC-1/NC-7: what can pay a Follow or Muster: a Courtyard Serf and/or a captured Nomad."""
    result: list[Worker] = []
    if courtyard(state, seat)["serf"] > 0:
        result.append("serf")
    if state["players"][seat]["nomads"] > 0:
        result.append("nomad")
    return result


def follow_moves(state: HeroesState, board: Board, seat: Seat, slot: str) -> list[AnyMove]:
    """The seat's legal Follows of ``slot`` (the worker leaves the Courtyard first, so the Hall
    then needs a second Courtyard Serf)."""
    if state["players"][seat]["bar"][slot] is not None:
        return []
    result: list[AnyMove] = []
    for worker in workers(state, seat):
        for move in capital_actions(board, state, seat, slot, worker):
            if (worker == "serf" and isinstance(move, Build) and (move.what == "hall" or move.what in of(state).buildings)
                    and courtyard(state, seat)["serf"] < 2):
                continue
            result.append(move)
    return result


def perform(board: Board, state: HeroesState, seat: Seat, move: CapitalAction, events: list | None = None) -> Phrase:
    """Do a Capital Action move; returns the log text (without the seat name); a Research's
    private lines (the cards drawn) go to ``events``."""
    from app.rulesets.heroes import spells
    if isinstance(move, Research):
        return spells.research(state, seat, events if events is not None else [])
    if isinstance(move, Scribe):
        return spells.scribe(state, seat, move)
    if isinstance(move, Recruit):
        return recruit(state, seat, move)
    if isinstance(move, Build):
        return build(board, state, seat, move)
    return tax(state, seat, move)


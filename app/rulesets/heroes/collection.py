"""Collection and Round End (spec 1.9, 1.10, NW-10..NW-13, NC-3).

* A seat controls a region while it has a Unit or Structure there (spec 1.9).  A resource region
  (Mountain, Forest, Plains) yields its base 1, +1 if one of the seat's Serfs is in it (spec 1.9
  [H]: the worker space counts as taken by any own Serf there), +2 with the seat's Tower; then
  -1 if next to a board Nomad (1 in total, floor 0: A-W4, A-W5).  Each resource caps at 10.
* Round End: Serfs on the Action Bar go back to the Courtyard, Nomads on it to the Nomad supply
  (NC-3), both Action Tokens come back, and the first-player token passes clockwise (to the
  next seat not eliminated).
"""

from __future__ import annotations

from collections import defaultdict

from app.rulesets.base import Event, Seat
from app.rulesets.heroes.abilities import collect_bonus
from app.rulesets.heroes.board import Board
from app.rulesets.heroes.houses import HOUSE, RESOURCES
from app.rulesets.heroes.phrases import number, resources, said
from app.rulesets.heroes.nomads import return_from_bar, yield_penalty
from app.rulesets.heroes.spells import round_end as rotate_scribed
from app.rulesets.heroes.pieces import add_units, clockwise_from, controller, log_name, units_at
from app.rulesets.heroes.state import HeroesState


def region_yield(state: HeroesState, board: Board, seat: Seat, region: str) -> int:
    """What ``region`` gives ``seat`` at Collection (0 if it is not a resource region it controls)."""
    info = board.regions[region]
    if info.resource is None or controller(state, region) != seat:
        return 0
    amount = info.amount
    if units_at(state, region, seat)["serf"] > 0:
        amount += HOUSE.worker_yield_bonus
    if state["regions"][region]["tower"] == seat:
        amount += HOUSE.tower["yield_bonus"]
    if state["options"]["nomads"] == "wandering":
        amount -= yield_penalty(state, board, region)
    return max(0, amount)


def income(state: HeroesState, board: Board, seat: Seat) -> dict[str, int]:
    """The seat's Collection before the cap, by resource."""
    total: dict[str, int] = defaultdict(int)
    for region in board.land:
        amount = region_yield(state, board, seat, region)
        resource = board.regions[region].resource
        if amount and resource is not None:  # only resource regions yield (``region_yield``)
            total[resource] += amount
    for resource, amount in collect_bonus(state, seat).items():  # full edition: Hero abilities
        total[resource] += amount
    return {resource: total[resource] for resource in RESOURCES}


def collect(state: HeroesState, board: Board, events: list[Event]) -> None:
    """Spec 1.9: everyone at once gains their income, capped at 10."""
    for seat, player in enumerate(state["players"]):
        if player["eliminated"]:
            continue
        gained = {}
        for resource, amount in income(state, board, seat).items():
            before = player["resources"][resource]
            player["resources"][resource] = min(HOUSE.resource_cap, before + amount)
            gained[resource] = player["resources"][resource] - before
        events.append(said(f"{log_name(state, seat, start=True)} collects {{gained}}", gained=resources(gained, "gained")).event())


def round_end(state: HeroesState, events: list[Event]) -> None:
    """Spec 1.10/NC-3: clear the Action Bars, return tokens, pass the first-player token."""
    for seat, player in enumerate(state["players"]):
        if player["eliminated"]:
            continue
        serfs = sum(1 for held in player["bar"].values() if held == "serf")
        nomads = return_from_bar(state, seat)
        if serfs:
            add_units(state, player["capital"], seat, {"serf": serfs})
        if nomads:
            events.append(said(f"{{count}} Nomad{'s' if nomads != 1 else ''} of {log_name(state, seat)} "
                               "go back to the Nomad supply (NC-3)", count=number(nomads)).event())
        player["bar"] = {slot: ("disabled" if held == "disabled" else None) for slot, held in player["bar"].items()}
        player["tokens"] = HOUSE.start["action_tokens"]
    rotate_scribed(state)
    following = clockwise_from(state, state["first_player"], include_start=False)
    if following:
        state["first_player"] = following[0]

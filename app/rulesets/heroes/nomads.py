"""Wandering Nomads (spec 3.2-3.5 with the defaults of table 3.8).

* Placement NW-1..NW-9: at the start of every Action Selection phase the first player puts one
  Nomad from the supply on an *empty* region (NW-5: no units, no Tower, no standing Capital, no
  Nomad; A-W8 a Tower alone blocks).  With no board Nomad: an empty Desert (NW-2); else an empty
  land region adjacent (ferries included, A-W1/NW-4; the Tower<->Capital link does not count,
  A-W3) to a board Nomad (NW-3); fallback an empty Desert, then any empty land region, unoccupied
  capital regions included (NW-8, A-W2, A-W7; also with no board Nomad, see ``placements``); no
  legal region or an empty supply: skipped
  (NW-9, A-W6).
* Yield penalty NW-10..NW-13: 1 in total however many Nomads are adjacent (A-W4), off the
  region's whole yield, floor 0 (A-W5).
* Capture NB-1..NB-7 (``march.py`` tests the entry): +1 VP, the Nomad goes to the Courtyard.
* Captured Nomads pay one Follow or Muster (NC-1, NC-7) and go to the Nomad supply from the
  Action Bar at Round End (NC-3); they add 1 to their capital's strength (NC-5, A-C1).
* A-C2 in our engine: a lost capital battle destroys the capital (spec 1.8.8), so the Nomads of
  that Courtyard and Action Bar go back to the Nomad supply with the rest of the player's pieces.
"""

from __future__ import annotations

from app.rulesets.base import Event, Seat
from app.rulesets.heroes.board import Board, region_arg
from app.rulesets.heroes.houses import HOUSE
from app.rulesets.heroes.phrases import number, said
from app.rulesets.heroes.pieces import board_nomads, capital_owner
from app.rulesets.heroes.state import HeroesState


def is_empty(state: HeroesState, region: str) -> bool:
    """NW-5 / A-W8: no units of any player, no Tower, no standing Capital, no Nomad."""
    entry = state["regions"][region]
    return not entry["units"] and entry["tower"] is None and not entry["nomad"] and capital_owner(state, region) is None


def placements(state: HeroesState, board: Board) -> list[str]:
    """The regions where the next Nomad may go (NW-2, NW-3, NW-8), sorted; empty when none.

    Our reading of NW-8's second sentence: "no empty Desert, then any empty land region" holds
    wherever a Desert is asked for, so also in a round with no board Nomad (NW-2) whose Deserts
    are all occupied; the spec names no other fallback there, and skipping would stop the Nomads
    from ever entering a board whose Deserts are held.
    """
    nomad_regions = [region for region, entry in state["regions"].items() if entry["nomad"]]
    beside = sorted({
        neighbour
        for region in nomad_regions
        for neighbour in board.adjacent[region]
        if is_empty(state, neighbour)
    })
    if beside:
        return beside
    empty_deserts = sorted(region for region in board.deserts if is_empty(state, region))
    if empty_deserts:
        return empty_deserts
    return sorted(region for region in board.land if is_empty(state, region))


def must_place(state: HeroesState, board: Board) -> bool:
    """NW-1/A-W6: the variant is on, the supply is not empty and some region is legal."""
    return state["options"]["nomads"] == "wandering" and state["nomad_supply"] > 0 and bool(placements(state, board))


def place(state: HeroesState, region: str, events: list[Event]) -> None:
    """Put a Nomad from the supply on ``region`` (legality checked by the caller)."""
    state["regions"][region]["nomad"] = True
    state["nomad_supply"] -= 1
    events.append(said(f"{{seat{state['first_player']}}} places a Nomad on {{region}} (NW-1)", region=region_arg(region)).event())


def penalised(state: HeroesState, board: Board, region: str) -> bool:
    """NW-10/NW-12: ``region`` is adjacent (ferries included) to at least one board Nomad."""
    return any(state["regions"][neighbour]["nomad"] for neighbour in board.adjacent[region])


def yield_penalty(state: HeroesState, board: Board, region: str) -> int:
    """NW-10/A-W4: 1 in total if any board Nomad is adjacent (``penalty_stacks`` false), else 0;
    with stacking on, 1 per adjacent Nomad."""
    if HOUSE.nomads["penalty_stacks"]:
        return HOUSE.nomads["yield_penalty"] * sum(state["regions"][n]["nomad"] for n in board.adjacent[region])
    return HOUSE.nomads["yield_penalty"] if penalised(state, board, region) else 0


def may_enter(army_strength: int, state: HeroesState) -> bool:
    """NB-1/A-B1: an army may enter a Nomad region only with strength strictly greater than ``N``
    (A-B4: ``N`` counts the attacked Nomad itself)."""
    return army_strength > board_nomads(state)


def capture(state: HeroesState, seat: Seat, region: str, events: list[Event]) -> None:
    """NB-3..NB-5: the entering player gains 1 VP; the Nomad goes to its Courtyard; no tactics,
    no losses."""
    state["regions"][region]["nomad"] = False
    player = state["players"][seat]
    player["nomads"] += 1
    player["score"] += HOUSE.vp("start_battle")
    events.append(said(f"{{seat{seat}}} battles the Nomad on {{region}} (+{{vp}} VP) and captures it (NB-3, NB-5)",
                       region=region_arg(region), vp=number(HOUSE.vp("start_battle"))).event())


def return_from_bar(state: HeroesState, seat: Seat) -> int:
    """NC-3: Nomads on the seat's Action Bar go to the Nomad supply; returns how many."""
    bar = state["players"][seat]["bar"]
    returned = 0
    for slot, occupant in bar.items():
        if occupant == "nomad":
            returned += 1
    state["nomad_supply"] += returned
    return returned


def release_all(state: HeroesState, seat: Seat) -> int:
    """A-C2 / spec 1.8.8: an eliminated player's captured Nomads (Courtyard and Action Bar) go back
    to the Nomad supply; returns how many."""
    player = state["players"][seat]
    count = player["nomads"] + sum(1 for occupant in player["bar"].values() if occupant == "nomad")
    player["nomads"] = 0
    state["nomad_supply"] += count
    return count

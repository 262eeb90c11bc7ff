"""Mercenary Nomads (spec 1.13 Mercenaries, 2.7, NS0-1..NS0-3, NM-1..NM-9, A-M1..A-M4, N-A13).

The variant is the option ``nomads: "mercenary"``: no Nomad is placed on the board, no yield is
lost, and the general supply holds the Nomad Mercenary card with its 3 Nomad figures.  The state
keeps ``mercenary: {"owner": seat | None, "alive": 0..3}``; the figures stand in regions as units
of the kind ``"mercenary"`` (NM-5).

* Recruit (NM-1..NM-4): a Recruit action, taken or followed, while the card is in the supply and
  the seat holds no mercenary; it costs 3 Ore + 3 Mana + 3 Food (the generic mercenary cost,
  A-M1) and needs no Building.  All 3 figures go to the recruiter's Courtyard (NM-2; no unit
  limit there, A-M3).
* The figures march (speed 2, the slowest unit sets the army's speed), count for the 5-unit
  limit, fight with strength 1 each, can pay tactic costs by sacrifice and be chosen as
  casualties; they score nothing (2.7 [H]) and are not Serfs: no Follow or Muster payment, no
  Tower site, no worker bonus at Collection, no eXpand (they are not the player's own pieces).
  A figure is a unit, so it controls its region like any unit (spec 1.9).
* NM-6/NM-7, A-M2: a killed or sacrificed figure is gone; the card goes back to the supply only
  with the last one, and then comes back with all 3 figures.
* NM-8 Fire: returns the card and every living figure at once.  [D] "At any time" is taken as:
  whenever the holder is to act in the action phase (its own turn, before or instead of placing
  its token) or in a Follow decision; firing does not end the turn or the decision.  Not during
  a battle (tactics, conscripts, casualties) nor in the Muster window.
* A-M4: an eliminated holder's card and figures go back to the supply (``battles.destroy_capital``).
* [D] The generic mercenary cards of the Mercenaries expansion are not public (spec 1.13, 1.15),
  so the general supply holds only the Nomad Mercenary: with it held, nobody else can recruit a
  mercenary.  NM-9 abilities and vessel boarding are unknown (N-A13): none in Tier 1.
"""

from __future__ import annotations

from app.rulesets.base import Event, Seat
from app.rulesets.heroes.houses import HOUSE
from app.rulesets.heroes.phrases import Phrase, count_of, number, regions, resources, said
from app.rulesets.heroes.pieces import add_units, can_pay, pay, take_units
from app.rulesets.heroes.state import HeroesState, MercenaryCard


def enabled(state: HeroesState) -> bool:
    """NS0-1/NS0-3: the table plays the Mercenary Nomads variant."""
    return state["options"]["nomads"] == "mercenary"


def new_card() -> MercenaryCard:
    """NS0-3: the card in the general supply, no figure in play."""
    return {"owner": None, "alive": 0}


def card(state: HeroesState) -> MercenaryCard:
    """The Nomad Mercenary card of a game of the variant; raises ``ValueError`` in a game without it."""
    held = state["mercenary"]
    if held is None:
        raise ValueError("this game does not play the Mercenary Nomads variant")
    return held


def holder(state: HeroesState) -> Seat | None:
    """The seat holding the Nomad Mercenary card (``None``: it is in the supply, or the variant is off)."""
    held = state["mercenary"]
    return held["owner"] if held else None


def can_recruit(state: HeroesState, seat: Seat) -> bool:
    """NM-1..NM-4: the card is in the supply, the seat has no mercenary in play, and it can pay."""
    if not enabled(state) or holder(state) is not None:
        return False  # NM-3: held by someone (the supply holds no other mercenary)
    return can_pay(state, seat, HOUSE.recruit_cost("mercenary"))


def recruit(state: HeroesState, seat: Seat) -> Phrase:
    """NM-2: pay, take the card, and put all 3 figures in the Courtyard; returns the log text."""
    cost = HOUSE.recruit_cost("mercenary")
    pay(state, seat, cost)
    figures = HOUSE.mercenary_figures
    state["mercenary"] = {"owner": seat, "alive": figures}
    add_units(state, state["players"][seat]["capital"], seat, {"mercenary": figures})
    return said("recruits the Nomad Mercenary ({figures} Nomad figures in the Courtyard) for {cost}", figures=number(figures),
                cost=resources(cost))


def figures(state: HeroesState, seat: Seat) -> dict[str, int]:
    """Where the seat's living figures stand: region -> count."""
    mine = str(seat)
    return {region: entry["units"][mine]["mercenary"] for region, entry in sorted(state["regions"].items())
            if entry["units"].get(mine, {}).get("mercenary", 0)}


def can_fire(state: HeroesState, seat: Seat) -> bool:
    """NM-8: only the holder can fire its mercenary."""
    return holder(state) == seat


def fire(state: HeroesState, seat: Seat, events: list[Event]) -> list[str]:
    """NM-8: every living figure leaves the board and the card goes back to the supply, at once;
    returns the regions the figures left."""
    places = figures(state, seat)
    for region, count in places.items():
        take_units(state, region, seat, {"mercenary": count})
    alive = card(state)["alive"]
    state["mercenary"] = new_card()
    events.append(said(f"{{seat{seat}}} fires the Nomad Mercenary: {{figures}} (from {{where}}) and the card go back to the "
                       "supply (NM-8)", figures=count_of(alive, "mercenary"), where=regions(list(places))).event())
    return list(places)


def lose(state: HeroesState, count: int, events: list[Event]) -> None:
    """NM-6/NM-7/A-M2: ``count`` figures were killed or sacrificed (already off the board); the card
    goes back to the supply only with the last one."""
    if not count:
        return
    held = card(state)
    held["alive"] -= count
    seat = held["owner"]
    if held["alive"] > 0:
        events.append(said(f"{{seat{seat}}} keeps the Nomad Mercenary with {{figures}} left (NM-7)",
                           figures=count_of(held["alive"], "mercenary")).event())
        return
    state["mercenary"] = new_card()
    events.append(Event(text=f"The last Nomad Mercenary of {{seat{seat}}} is dead: the card goes back "
                             "to the supply (NM-6)"))


def release(state: HeroesState, seat: Seat, events: list[Event]) -> None:
    """A-M4: an eliminated seat's card (its figures were removed with its other pieces) goes back
    to the supply."""
    if holder(state) != seat:
        return
    state["mercenary"] = new_card()
    events.append(Event(text=f"The Nomad Mercenary of {{seat{seat}}} goes back to the supply (A-M4)"))

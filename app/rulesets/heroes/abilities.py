"""Faction and Hero abilities of the full edition (spec 1.1: "what differs between factions";
house texts and numbers, ``data/factions.json``).

Known [K]: each faction has its own abilities and 3 Heroes, each needing its own Building, with
abilities I/II/III unlocked by C.C. level 1/2/3; "all Faction and Hero bonuses" count in a Nomad
battle (NB-1).  The texts are not public, so ours are small and data-driven:

* a faction ability (Humans +1 defending, Orcs +1 attacking, Elves +1 in Forests and Plains,
  Dwarves +1 in Mountains and capital regions) counts in every battle of that faction, Nomad
  battles included (entering a Nomad region is attacking, a Nomad moved onto an army in solo is
  defending);
* a Hero's ability works while that Hero is in play; its amount is read at its owner's C.C. level.

Decisions where the sources are silent (also in ``reference.md``, "Full edition"):

* Every Hero figure is the same piece on the board (strength 4, speed 3); the Hero cards tell
  them apart.  A Hero's battle and speed abilities therefore work for any army of its owner that
  includes a Hero.  When a Hero dies, the one recruited last goes back to its card (it may be
  recruited again), so which abilities a player has is never in doubt.
* The solo Enemy has no faction or Hero abilities: its Heroes have their spells (``spells.py``).
* :func:`strength_bonuses` is 0 in the core edition, so its battles are what they were.
"""

from __future__ import annotations

from app.rulesets.base import Seat
from app.rulesets.heroes.catalogue import of
from app.rulesets.heroes.pieces import board_nomads, is_full, units_at
from app.rulesets.heroes.state import HeroesState


def active_heroes(state: HeroesState, seat: Seat) -> list[str]:
    """The seat's Heroes in play (recruit order)."""
    return state["players"][seat].get("heroes", [])


def hero_amount(state: HeroesState, seat: Seat, kind: str) -> int:
    """The sum of the seat's Hero abilities of ``kind`` at its C.C. level."""
    player = state["players"][seat]
    level = max(1, min(player["cc_level"], 3))
    total = 0
    for hero in active_heroes(state, seat):
        ability = of(state).heroes[hero].ability
        if ability["kind"] == kind:
            total += ability["amount"][level - 1]
    return total


def strength_bonuses(state: HeroesState, seat: Seat, region: str, side: str, with_hero: bool,
                     terrain: str) -> int:
    """The faction and Hero bonuses of ``seat`` fighting on ``side`` (``"attacker"`` or
    ``"defender"``) in ``region`` of ``terrain``; ``with_hero``: its side includes one of its Heroes.
    0 in the core edition and for the solo Enemy."""
    player = state["players"][seat]
    if not is_full(state) or player.get("enemy") or "faction" not in player:
        return 0
    ability = of(state).faction(player["faction"])["ability"]
    bonus = 0
    if ability["kind"] == "defending" and side == "defender":
        bonus += ability["strength"]
    elif ability["kind"] == "attacking" and side == "attacker":
        bonus += ability["strength"]
    elif ability["kind"] == "terrain" and terrain in ability["terrains"]:
        bonus += ability["strength"]
    if with_hero:
        bonus += hero_amount(state, seat, "battle")
    return bonus


def speed_bonus(state: HeroesState, seat: Seat, counts: dict[str, int]) -> int:
    """How much further an army with a Hero marches (Hero speed abilities)."""
    if not counts.get("hero", 0) or not is_full(state):
        return 0
    return hero_amount(state, seat, "speed")


def mana_discount(state: HeroesState, seat: Seat) -> int:
    """How much less Mana the seat's spells cost (Hero mana abilities)."""
    return hero_amount(state, seat, "mana") if is_full(state) else 0


def collect_bonus(state: HeroesState, seat: Seat) -> dict[str, int]:
    """What the seat's Hero collect abilities add at Collection, by resource."""
    gained: dict[str, int] = {}
    if not is_full(state):
        return gained
    player = state["players"][seat]
    level = max(1, min(player["cc_level"], 3))
    for hero in active_heroes(state, seat):
        ability = of(state).heroes[hero].ability
        if ability["kind"] == "collect":
            gained[ability["resource"]] = gained.get(ability["resource"], 0) + ability["amount"][level - 1]
    return gained


def enters_nomad(state: HeroesState, seat: Seat, region: str, strength: int, with_hero: bool) -> bool:
    """NB-1 with every bonus: an army (or vessel) of ``strength`` may enter the Nomad region only
    with strength plus its faction and Hero bonuses (attacking) strictly greater than ``N``."""
    from app.rulesets.heroes.board import Board
    terrain = Board.four_isles().regions[region].terrain
    return strength + strength_bonuses(state, seat, region, "attacker", with_hero, terrain) > board_nomads(state)


def heroes_in_play(state: HeroesState, seat: Seat) -> int:
    """How many Hero figures of the seat stand on the board or are aboard its vessels."""
    mine = str(seat)
    count = sum(entry["units"].get(mine, {}).get("hero", 0) for entry in state["regions"].values())
    for vessel in state["players"][seat].get("vessels", {}).values():
        if vessel is not None:
            count += vessel["cargo"].get("hero", 0)
    return count


def sync_heroes(state: HeroesState) -> None:
    """After a move: a seat with fewer Hero figures in play than Hero cards loses the cards
    recruited last (module docstring)."""
    for seat, player in enumerate(state["players"]):
        heroes = player.get("heroes")
        if heroes:
            alive = heroes_in_play(state, seat)
            if alive < len(heroes):
                del heroes[alive:]


def side_has_hero(state: HeroesState, seat: Seat, region: str) -> bool:
    """Whether the seat has a Hero in ``region``."""
    return units_at(state, region, seat)["hero"] > 0

"""Battles between players (spec 1.8, 2.3 house tactic set).

Order of a battle, as this module runs it:

1. ``start``: the attacker (the player whose march entered) gains 1 VP at once (1.8.1); both
   sides' natural strength is fixed (1.8.2).  A capital defends with its C.C. level strength +
   its Courtyard units + the Serfs and Nomads on its Action Bar + the Hall's locked Serf + its
   Courtyard Nomads, 1 each (1.8.7, NC-5).  A Tower adds 3 (1.8.6).
2. Phase ``tactics``: both sides choose one card in secret (``pending.choices`` holds the
   ``tactic`` move in its wire form, which never reaches another view); the reveal happens when
   both have chosen.
3. ``reveal``: a card whose restriction fails, or that its side cannot pay, is void (0 strength,
   no VP; spec 1.14).  Shield Wall cancels the enemy's Charge: a cancelled card costs nothing,
   gives no VP and no strength.  Every other card is paid (resources and the declared sacrifices)
   and scores its VP.  Charge gets +3 more when the enemy's First Strike is in play (not void).
4. Phase ``conscripts``: a side whose Conscripts is in play brings up to 2 of its units from one
   region adjacent for it (the Tower<->Capital link included, so a defender's Courtyard reaches
   its Tower regions), defender first.  [D] One origin per card; the side's count in the battle
   region stays within the 5-unit limit outside capitals.
5. ``resolve``: higher total wins, a tie goes to the defender (1.8.5).  Sacrificed units still
   counted; now they are removed (back to supply).  A capital that loses is destroyed: its owner
   is eliminated, every piece of it is removed, the attacker gains 5 VP (1.8.8).
6. Phase ``casualties``: otherwise the loser takes damage = ceil(natural strength after
   sacrifices / 2), picks the dying pieces (a Tower first; each piece takes damage fully before
   the next, any damage destroys it) and the survivors' retreat: own capital or a region with an
   own Tower (5-unit limit there).  When only one choice exists it is made at once.

Where the solo Enemy fights by other rules (spec 1.12: it chooses no card but draws one at the
reveal, and takes its losses weakest first with no choice), the battle asks its ``rivals``
(``rivals.py``; the Enemy's rules are in ``enemy.py``).

[D] The attacker's army stands in the battle region during the battle; the winner stays.
Nomad Mercenary figures fight like any unit (strength 1), may be sacrificed and chosen as
casualties; a dead one is gone for good (NM-6/NM-7, A-M2: ``mercenaries.lose``), and an eliminated
holder's card goes back to the supply (A-M4).  [D] A figure is not a Serf: an army with one may
play Charge.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from app.rulesets.base import Event, Seat
from app.rulesets.base import card as card_arg
from app.rulesets.heroes import mercenaries, spells, vessels
from app.rulesets.heroes.abilities import strength_bonuses
from app.rulesets.heroes.board import Board, region_arg
from app.rulesets.heroes.houses import HOUSE, RESOURCES, UNIT_KINDS, TacticCard
from app.rulesets.heroes.phrases import Phrase, chain, number, said, units
from app.rulesets.heroes.march import ARMY_LIMIT, neighbours
from app.rulesets.heroes.moves import Casualties, Conscript, Tactic
from app.rulesets.heroes.nomads import release_all
from app.rulesets.heroes.pieces import (
    add_units, destroy_units, is_full, log_name, natural_strength, pending_step, size, take_units, towers_of, units_at,
)
from app.rulesets.heroes.rivals import Rivals
from app.rulesets.heroes.state import (
    Battle, BattleSummary, CardRecord, Counts, HeroesState, Pending, Side, TacticChoice, Then,
)

SIDES: tuple[Side, Side] = ("attacker", "defender")
SIDE_PAIRS: tuple[tuple[Side, Side], ...] = (("attacker", "defender"), ("defender", "attacker"))
"""Each side with the side it fights."""
EMPTY_PAYMENT = {"ore": 0, "mana": 0, "food": 0, **{kind: 0 for kind in UNIT_KINDS}}


# -- strength --------------------------------------------------------------------------------

def capital_extras(state: HeroesState, seat: Seat) -> int:
    """Spec 1.8.7/NC-5: what a defending capital adds beyond its Courtyard units: the C.C. level's
    strength, Serfs and Nomads on the Action Bar and the Hall's Serf (1 each), Courtyard Nomads."""
    player = state["players"][seat]
    bar = sum(1 for occupant in player["bar"].values() if occupant in ("serf", "nomad"))
    hall = HOUSE.strength("serf") * (int(player["hall"]) + len(player.get("buildings", [])))
    nomads = player["nomads"] * HOUSE.nomads["strength_in_capital"]
    return HOUSE.capital_strength(player["cc_level"]) + bar * HOUSE.strength("serf") + hall + nomads


def natural(state: HeroesState, battle: Battle, side: Side) -> int:
    """Natural strength of one side now: its units in the region, plus for the defender its
    Tower (3) or its capital (``capital_extras``)."""
    seat = battle[side]
    if side == "defender":
        return defending_strength(state, seat, battle["region"], battle["capital"])
    return natural_strength(units_at(state, battle["region"], seat)) + vessels.strength_at(state, battle["region"], seat)


def bonuses(state: HeroesState, board_terrain: str, battle: Battle, side: Side) -> int:
    """Full edition: the side's faction and Hero bonuses (``abilities.strength_bonuses``) and its
    Combat spells (``spells.spell_bonus``); 0 in the core edition."""
    if not is_full(state):
        return 0
    seat = battle[side]
    region = battle["region"]
    with_hero = units_at(state, region, seat)["hero"] > 0
    return (strength_bonuses(state, seat, region, side, with_hero, board_terrain)
            + spells.spell_bonus(battle, side))


def other_seat(battle: Battle, seat: Seat) -> Seat:
    """The seat ``seat`` fights against in ``battle``."""
    return battle["defender"] if battle["attacker"] == seat else battle["attacker"]


def defending_strength(state: HeroesState, seat: Seat, region: str, capital: bool) -> int:
    """The natural strength of ``seat`` defending ``region``: its units, its Tower there (3), and
    with ``capital`` its capital (``capital_extras``)."""
    total = natural_strength(units_at(state, region, seat)) + vessels.strength_at(state, region, seat)
    if state["regions"][region]["tower"] == seat:
        total += HOUSE.tower["strength"]
    if capital:
        total += capital_extras(state, seat)
    return total


def start(state: HeroesState, attacker: Seat, defender: Seat, region: str, capital: bool, then: Then,
          events: list[Event]) -> None:
    """Spec 1.8.1: the battle begins (the army is already in ``region``); phase ``tactics``.  A side
    without a tactic hand (the solo Enemy, spec 1.12) chooses no card: it counts as having chosen,
    and draws its card at the reveal (``reveal``)."""
    state["players"][attacker]["score"] += HOUSE.vp("start_battle")
    battle: Battle = {"attacker": attacker, "defender": defender, "region": region, "capital": capital, "then": then,
                      "cards": None}
    battle["strength"] = {side: natural(state, battle, side) for side in SIDES}
    what = "the capital of " if capital else ""
    events.append(said(f"{log_name(state, attacker, start=True)} attacks {what}{log_name(state, defender)} at {{region}} (+{{vp}} VP)",
                       region=region_arg(region), vp=number(HOUSE.vp("start_battle"))).event())
    state["phase"] = "tactics"
    chosen = {str(seat): not state["players"][seat]["tactics"] for seat in (attacker, defender)}
    pending: Pending = {"battle": battle, "chosen": chosen, "choices": {}}
    state["pending"] = pending
    if is_full(state):
        queue = spells.combat_queue(state, battle)
        if queue:  # spec 1.8.2: Combat spells, defender first, before the tactic cards
            state["phase"] = "combat_spell"
            pending["queue"] = queue


def side_of(battle: Battle, seat: Seat) -> Side:
    """``"attacker"`` or ``"defender"``: the side ``seat`` fights on."""
    return "attacker" if battle["attacker"] == seat else "defender"


# -- tactic cards ----------------------------------------------------------------------------

def qualifies(state: HeroesState, battle: Battle, seat: Seat, card: TacticCard) -> bool:
    """Spec 1.8.3 restrictions: attacker-only, defender-only, not for a Serf-only army without a
    Structure (Tower or capital) on its side."""
    side = side_of(battle, seat)
    if card.restriction == "attacker_only":
        return side == "attacker"
    if card.restriction == "defender_only":
        return side == "defender"
    if card.restriction == "not_serf_only":
        if side == "defender" and (battle["capital"] or state["regions"][battle["region"]]["tower"] == seat):
            return True
        units = units_at(state, battle["region"], seat)
        return size(units) > units["serf"]
    return True


def payments(state: HeroesState, battle: Battle, seat: Seat, card: TacticCard) -> list[dict[str, int]]:
    """Every way to pay ``card`` exactly (spec 1.8.4): units of this battle (not Towers, not Serfs
    on the Action Bar or the Hall, not Nomads) pay their natural strength, resources the rest,
    each resource at most its share of the cost.  [D] No useless sacrifice: dropping any one
    sacrificed unit would leave the cost unpaid.  Cost 0: one empty payment."""
    total = card.total_cost
    if total == 0:
        return [dict(EMPTY_PAYMENT)]
    units = units_at(state, battle["region"], seat)
    have = state["players"][seat]["resources"]
    result = []
    ranges = [range(units[kind] + 1) for kind in UNIT_KINDS]
    for counts in itertools.product(*ranges):
        sacrifice = dict(zip(UNIT_KINDS, counts))
        paid_by_units = natural_strength(sacrifice)
        if paid_by_units:
            weakest = min(HOUSE.strength(kind) for kind in UNIT_KINDS if sacrifice[kind])
            if paid_by_units - weakest >= total:
                continue
        rest = max(0, total - paid_by_units)
        shares = [range(min(card.cost.get(r, 0), have[r]) + 1) for r in RESOURCES]
        for amounts in itertools.product(*shares):
            if sum(amounts) == rest:
                result.append({**dict(zip(RESOURCES, amounts)), **sacrifice})
    return result


def tactic_options(state: HeroesState, battle: Battle, seat: Seat) -> list[Tactic]:
    """The seat's legal tactic moves: every payment of every card it qualifies for and can pay.

    A card whose restriction fails for this side (Ambush for the defender, Stand Firm for the
    attacker, Charge for Serfs alone) or that the seat cannot pay is not offered: spec
    1.14 lets it be chosen but it counts as nothing, exactly like Hold, which is free, has no
    restriction and so is always offered.  ``choose_tactic`` still accepts such an unpaid void
    card (:func:`is_void_choice`) so games stored before this change replay."""
    result: list[Tactic] = []
    for card_id in state["players"][seat]["tactics"]:
        card = HOUSE.tactics[card_id]
        if qualifies(state, battle, seat, card):
            result.extend(tactic_move(card_id, tuple(way.items())) for way in payments(state, battle, seat, card))
    return result


@functools.lru_cache(maxsize=4096)
def tactic_move(card: str, way: tuple[tuple[str, int], ...]) -> Tactic:
    """A (shared, immutable) Tactic value: ``card`` paid as ``way`` (``(field, amount)`` pairs);
    cached because legal lists repeat the same payments, like :func:`march.march_move`."""
    return Tactic(card=card, **dict(way))


def is_void_choice(state: HeroesState, battle: Battle, seat: Seat, move: Tactic) -> bool:
    """Whether ``move`` names, unpaid, a card of the seat's hand that it cannot play here (its
    restriction fails or no payment exists): spec 1.14 allows that choice, which counts as 0; the
    client is never offered it (:func:`tactic_options`)."""
    if move.card not in state["players"][seat]["tactics"] or Tactic(card=move.card) != move:
        return False
    card = HOUSE.tactics[move.card]
    return not qualifies(state, battle, seat, card) or not payments(state, battle, seat, card)


def tactic_choice(move: Tactic) -> TacticChoice:
    """A chosen, unrevealed card as the state keeps it: the move's wire form."""
    return {"type": "tactic", "card": move.card, "ore": move.ore, "mana": move.mana, "food": move.food,
            "serf": move.serf, "warrior": move.warrior, "hero": move.hero, "mercenary": move.mercenary}


def choice_secret(seat: Seat, choice: TacticChoice) -> str:
    """The seat's unrevealed choice as it reads in any JSON text of the state
    (``'"1":{"card":"charge","food":0,...}'``): the token ``Heroes.secrets`` declares, found in a
    view or a log entry only if the choice leaked there."""
    return json.dumps({str(seat): choice}, sort_keys=True, separators=(",", ":"))[1:-1]


def choose(state: HeroesState, seat: Seat, move: Tactic, events: list[Event]) -> bool:
    """Record a secret choice; returns whether both sides have now chosen."""
    pending = pending_step(state)
    pending["choices"][str(seat)] = tactic_choice(move)
    pending["chosen"][str(seat)] = True
    events.append(Event(text=f"{{seat{seat}}} has chosen a tactic card"))
    return all(pending["chosen"].values())


def reveal(state: HeroesState, rivals: Rivals, events: list[Event]) -> None:
    """Step 3 of the module docstring: void, cancel, pay, score; the cards go public in
    ``pending.battle.cards`` and the choices leave the state.  A side that chose no card plays the
    one ``rivals.drawn_card`` gives (the solo Enemy's drawn card: its strength counts instead of
    the tactic's, spec 1.12)."""
    pending = pending_step(state)
    battle = pending["battle"]
    choices = pending.pop("choices")
    moves = {side: Tactic(**choices[str(battle[side])]) for side in SIDES if str(battle[side]) in choices}
    records: dict[str, CardRecord] = {}
    for side in SIDES:
        if side not in moves:
            records[side] = rivals.drawn_card(state, battle, side, events)
            continue
        move = moves[side]
        card = HOUSE.tactics[move.card]
        paid = natural_strength(move.sacrifice) + sum(move.resources.values())
        void = not qualifies(state, battle, battle[side], card) or paid < card.total_cost
        records[side] = {"card": move.card, "void": void, "cancelled": False, "bonus": 0, "vp": 0,
                         "paid": {r: 0 for r in RESOURCES}, "sacrifice": {k: 0 for k in UNIT_KINDS}}
    for side, other in SIDE_PAIRS:
        mine, theirs = records[side], records[other]
        if not mine["void"] and theirs["card"] in HOUSE.tactics[mine["card"]].cancels:
            theirs["cancelled"] = not theirs["void"]
    texts: list[Phrase] = []
    for side, other in SIDE_PAIRS:
        record, seat = records[side], battle[side]
        card = HOUSE.tactics[record["card"]]
        name = log_name(state, seat)
        key = f"{side}_card"  # one argument per side: both cards may have the same name
        if record["void"] or record["cancelled"]:
            texts.append(said(f"{name} {{{key}}} ({'cancelled' if record['cancelled'] else 'void'})", **{key: card_arg(card.name)}))
            continue
        other_card = records[other]["card"] if not records[other]["void"] else ""
        record["bonus"] = record.get("drawn_strength", card.strength) + card.bonus_against.get(other_card, 0)
        record["vp"] = card.vp
        state["players"][seat]["score"] += card.vp
        if side not in moves:
            texts.append(said(f"{name} {{{key}}} (+{{{side}_bonus}} from its drawn card)",
                              **{key: card_arg(card.name), f"{side}_bonus": number(record["bonus"])}))
            continue
        move = moves[side]
        record["paid"] = move.resources
        record["sacrifice"] = move.sacrifice
        for resource, amount in move.resources.items():
            state["players"][seat]["resources"][resource] -= amount
        texts.append(said(f"{name} {{{key}}} (+{{{side}_bonus}})", **{key: card_arg(card.name), f"{side}_bonus": number(record["bonus"])}))
    battle["cards"] = records
    chosen = tuple(battle[side] for side in SIDES if side in moves and isinstance(battle[side], int))
    events.append((Phrase("Both reveal: ") + texts[0] + ", " + texts[1]).event(reveals=chosen))


# -- conscripts ------------------------------------------------------------------------------

def conscript_queue(battle: Battle) -> list[Seat]:
    """The seats whose Conscripts is in play, defender first (house card, spec 1.8.3)."""
    queue = []
    cards = revealed(battle)
    for side in ("defender", "attacker"):
        record = cards[side]
        if HOUSE.tactics[record["card"]].conscripts and not record["void"] and not record["cancelled"]:
            queue.append(battle[side])
    return queue


def conscript_options(state: HeroesState, board: Board, battle: Battle, seat: Seat) -> list[Conscript]:
    """Up to ``conscripts`` (2) units from one region adjacent for ``seat`` to the battle region."""
    region = battle["region"]
    limit = HOUSE.tactics["conscripts"].conscripts
    room = limit if board.is_capital_region(region) else min(limit, ARMY_LIMIT - size(units_at(state, region, seat)))
    result = []
    for origin in sorted(neighbours(state, board, seat, region)):
        present = units_at(state, origin, seat)
        if size(present) == 0:
            continue
        for counts in itertools.product(*(range(min(present[k], room) + 1) for k in UNIT_KINDS)):
            if 1 <= sum(counts) <= room:
                result.append(Conscript(origin=origin, **dict(zip(UNIT_KINDS, counts))))
    return result


def conscript(state: HeroesState, battle: Battle, seat: Seat, move: Conscript, events: list[Event]) -> None:
    """Move the conscripted units into the battle region."""
    take_units(state, move.origin, seat, move.units)
    add_units(state, battle["region"], seat, move.units)
    events.append(said(f"{{seat{seat}}} conscripts {{units}} from {{region}} into the battle", units=units(move.units),
                       region=region_arg(move.origin)).event())


# -- result, damage, retreat -----------------------------------------------------------------

def resolve(state: HeroesState, rivals: Rivals, events: list[Event]) -> None:
    """Step 5: totals, winner, sacrifices removed; then elimination or the loser's casualties
    (phase ``casualties``, or applied at once when there is one choice, or by rule:
    ``rivals.takes_losses``); ``pending`` is ``None`` when the battle is over."""
    battle = pending_step(state)["battle"]
    cards = revealed(battle)
    terrain = Board.four_isles().regions[battle["region"]].terrain
    totals: Counts = {side: max(0, natural(state, battle, side) + cards[side]["bonus"] + bonuses(state, terrain, battle, side))
                      for side in SIDES}
    winner: Side = "attacker" if totals["attacker"] > totals["defender"] else "defender"
    loser: Side = "defender" if winner == "attacker" else "attacker"
    battle["totals"] = totals
    battle["winner"] = battle[winner]
    events.append((said(f"{log_name(state, battle[winner], start=True)} wins {{high}} to {{low}}", high=number(max(totals.values())),
                        low=number(min(totals.values())))
                   + (" (a tie goes to the defender)" if totals["attacker"] == totals["defender"] else "")).event())
    for side in SIDES:
        sacrifice = cards[side]["sacrifice"]
        if size(sacrifice):
            destroy_units(state, battle["region"], battle[side], sacrifice)
            events.append(said(f"{log_name(state, battle[side], start=True)} loses the sacrificed {{units}}", units=units(sacrifice)).event())
            mercenaries.lose(state, sacrifice.get("mercenary", 0), events)  # A-M2: sacrificed is killed
    damage = 0 if winner == "attacker" and battle["capital"] else math.ceil(natural(state, battle, loser) / 2)
    battle["damage"] = damage
    if state["last"] is not None:
        state["last"]["battle"] = summary(battle)
    note_region(state, battle["region"])
    if winner == "attacker" and battle["capital"]:
        destroy_capital(state, rivals, battle["attacker"], battle["defender"], events)
        state["pending"] = None
        return
    if rivals.takes_losses(state, battle, battle[loser], damage, events):
        state["pending"] = None
        return
    options = casualty_options(state, battle, battle[loser], damage)
    if not options:
        vessel_fate(state, battle[loser], battle["region"], damage, events)
        state["pending"] = None
        return
    state["phase"] = "casualties"
    state["pending"] = {"battle": battle, "seat": battle[loser], "damage": damage,
                        "retreat": sorted({option.retreat for option in options if option.retreat})}
    if len(options) == 1:
        take_casualties(state, options[0], events)


def note_region(state: HeroesState, region: str) -> None:
    """Add ``region`` to ``last.regions`` (the renderer's highlight), once."""
    last = state["last"]
    if last is not None and region not in last["regions"]:
        last["regions"].append(region)


def summary(battle: Battle) -> BattleSummary:
    """The public outcome of a resolved battle for ``last.battle`` (docs/heroes.md)."""
    cards = revealed(battle)
    return {
        "region": battle["region"], "attacker": battle["attacker"], "defender": battle["defender"],
        "capital": battle["capital"],
        "cards": {str(battle[side]): cards[side]["card"] for side in SIDES},
        "effective": {str(battle[side]): not (cards[side]["void"] or cards[side]["cancelled"]) for side in SIDES},
        "natural": dict(battle["strength"]), "strength": dict(battle["totals"]),
        "winner": battle["winner"], "damage": battle["damage"],
    }


def revealed(battle: Battle) -> dict[str, CardRecord]:
    """The cards of a battle after the reveal; raises ``ValueError`` before it."""
    cards = battle["cards"]
    if cards is None:
        raise ValueError("the cards of this battle are not revealed yet")
    return cards


def casualty_options(state: HeroesState, battle: Battle, seat: Seat, damage: int) -> list[Casualties]:
    """Every legal choice of the loser (spec 1.8.5): which units die and where survivors go.

    A Tower of the loser in the region takes damage first (3).  The rest of the damage goes on
    units, each fully before the next: a set of units is legal when its strength covers the
    rest and would not without its strongest unit; when all units together cannot cover it, all
    die.  Returns ``[]`` when the loser has no pieces in the region.
    """
    region = battle["region"]
    units = units_at(state, region, seat)
    has_tower = state["regions"][region]["tower"] == seat
    if size(units) == 0 and not has_tower:
        return []
    rest = damage - (HOUSE.tower["strength"] if has_tower else 0)
    if rest <= 0:
        sets = [{k: 0 for k in UNIT_KINDS}]
    elif natural_strength(units) <= rest:
        sets = [units]
    else:
        sets = []
        for counts in itertools.product(*(range(units[k] + 1) for k in UNIT_KINDS)):
            chosen = dict(zip(UNIT_KINDS, counts))
            strength = natural_strength(chosen)
            if strength < rest:
                continue
            strongest = max(HOUSE.strength(k) for k in UNIT_KINDS if chosen[k])
            if strength - strongest < rest:
                sets.append(chosen)
    result = []
    for chosen in sets:
        survivors = {k: units[k] - chosen[k] for k in UNIT_KINDS}
        if size(survivors) == 0:
            result.append(Casualties(**chosen, retreat=None))
            continue
        for place in retreats(state, seat, region, survivors):
            result.append(Casualties(**chosen, retreat=place))
    return result


def retreats(state: HeroesState, seat: Seat, region: str, survivors: dict[str, int]) -> list[str]:
    """Spec 1.8.5: the seat's own capital or a region with one of its Towers (not the battle
    region); [D] the 5-unit limit holds in a Tower region."""
    capital = state["players"][seat]["capital"]
    places = [capital]
    for tower in sorted(towers_of(state, seat)):
        if tower != region and size(units_at(state, tower, seat)) + size(survivors) <= ARMY_LIMIT:
            places.append(tower)
    return places


def take_casualties(state: HeroesState, move: Casualties, events: list[Event]) -> None:
    """Destroy the loser's Tower (if any) and the chosen units; the survivors retreat."""
    pending = pending_step(state)
    battle, seat = pending["battle"], pending["seat"]
    region = battle["region"]
    lost: list[Phrase] = []
    tower_lost = state["regions"][region]["tower"] == seat and pending["damage"] > 0
    if tower_lost:
        state["regions"][region]["tower"] = None
        state["players"][seat]["supply"]["tower"] += 1
        lost.append(Phrase("its Tower"))
    if size(move.units):
        destroy_units(state, region, seat, move.units)
        lost.append(units(move.units))
    survivors = units_at(state, region, seat)
    text = said(f"{log_name(state, seat, start=True)} takes {{damage}} damage: loses {{lost}}", damage=number(pending["damage"]),
                lost=chain(lost, " and ") if lost else Phrase("nothing"))
    if size(survivors):
        if move.retreat is None:
            raise ValueError("survivors need a place to retreat to (casualty_options names one)")
        take_units(state, region, seat, survivors)
        add_units(state, move.retreat, seat, survivors)
        verb = "retreats" if size(survivors) == 1 else "retreat"
        text += said(f"; {{survivors}} {verb} to {{retreat}}", survivors=units(survivors, "survivors"), retreat=region_arg(move.retreat))
        note_region(state, move.retreat)
    events.append(text.event())
    left = pending["damage"] - (HOUSE.tower["strength"] if tower_lost else 0) - natural_strength(move.units)
    vessel_fate(state, seat, region, left, events)
    mercenaries.lose(state, move.mercenary, events)
    state["pending"] = None


def vessel_fate(state: HeroesState, seat: Seat, region: str, damage_left: int, events: list[Event]) -> None:
    """Full edition (``vessels.py``): the loser's vessels in ``region`` take the damage its units
    did not (any damage destroys a vessel); the others retreat to its capital."""
    if not vessels.vessels_at(state, region).get(seat):
        return
    if damage_left > 0:
        lost = vessels.destroy(state, seat, region)
        events.append(Event(text=f"{log_name(state, seat, start=True)} loses its {' and '.join(lost)} vessel"))
    else:
        moved = vessels.retreat(state, seat, region)
        events.append(Event(text=f"The {' and '.join(moved)} vessel of {log_name(state, seat)} goes back to its capital"))
        note_region(state, state["players"][seat]["capital"])


def destroy_capital(state: HeroesState, rivals: Rivals, attacker: Seat, owner: Seat, events: list[Event]) -> None:
    """Spec 1.8.8: the owner is eliminated at once (scores 0), every piece of it leaves the board,
    its captured Nomads go to the Nomad supply (A-C2), the attacker gains 5 VP; then
    ``rivals.capital_destroyed`` (at a table: eXterminate, ``rounds.exterminate``)."""
    player = state["players"][owner]
    for entry in state["regions"].values():
        entry["units"].pop(str(owner), None)
        if entry["tower"] == owner:
            entry["tower"] = None
    release_all(state, owner)
    vessels.remove_all(state, owner)
    mercenaries.release(state, owner, events)
    player["bar"] = {slot: ("disabled" if held == "disabled" else None) for slot, held in player["bar"].items()}
    player["eliminated"] = True
    player["tokens"] = 0
    state["players"][attacker]["score"] += HOUSE.vp("destroy_capital")
    events.append(said(f"{log_name(state, attacker, start=True)} destroys the capital of {log_name(state, owner)} (+{{vp}} VP): "
                       f"{log_name(state, owner)} is eliminated", vp=number(HOUSE.vp("destroy_capital"))).event())
    rivals.capital_destroyed(state, attacker, events)

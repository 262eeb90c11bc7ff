"""Battles between players (spec 1.8, 2.3 house tactic set).

Order of a battle, as this module runs it:

1. ``start``: the attacker (the player whose march entered) gains 1 VP at once (1.8.1); both
   sides' natural strength is fixed (1.8.2).  A capital defends with its C.C. level strength +
   its Courtyard units + the Serfs and Nomads on its Action Bar + the Hall's locked Serf + its
   Courtyard Nomads, 1 each (1.8.7, NC-5).  A Tower adds 3 (1.8.6).
2. Phase ``tactics``: both sides choose one card in secret (``pending.choices`` holds the
   choice as a token string that never reaches a view); the reveal happens when both have chosen.
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

Solo (spec 1.12): the Enemy chooses no card; at the reveal it draws one from its deck
(``enemy_record``), and when it loses it takes its damage weakest first with no choice
(``take_enemy_losses``).

[D] The attacker's army stands in the battle region during the battle; the winner stays.
Nomad Mercenary figures fight like any unit (strength 1), may be sacrificed and chosen as
casualties; a dead one is gone for good (NM-6/NM-7, A-M2: ``mercenaries.lose``), and an eliminated
holder's card goes back to the supply (A-M4).  [D] A figure is not a Serf: an army with one may
play Charge.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from app.rulesets.base import Event, Seat, State
from app.rulesets.heroes import deck, mercenaries
from app.rulesets.heroes.board import Board, region_name
from app.rulesets.heroes.houses import HOUSE, RESOURCES, UNIT_KINDS, TacticCard, describe_units
from app.rulesets.heroes.march import ARMY_LIMIT, neighbours
from app.rulesets.heroes.moves import Casualties, Conscript, Tactic
from app.rulesets.heroes.nomads import release_all
from app.rulesets.heroes.pieces import (
    ENEMY, add_units, destroy_units, is_enemy, is_solo, natural_strength, size, take_units, towers_of, units_at,
)

SIDES = ("attacker", "defender")
EMPTY_PAYMENT = {"ore": 0, "mana": 0, "food": 0, **{kind: 0 for kind in UNIT_KINDS}}
CHOICE_FIELDS = ("ore", "mana", "food", *UNIT_KINDS)
"""The numbers of a tactic move in its secret token, in order."""


# -- strength --------------------------------------------------------------------------------

def capital_extras(state: State, seat: Seat) -> int:
    """Spec 1.8.7/NC-5: what a defending capital adds beyond its Courtyard units: the C.C. level's
    strength, Serfs and Nomads on the Action Bar and the Hall's Serf (1 each), Courtyard Nomads."""
    player = state["players"][seat]
    bar = sum(1 for occupant in player["bar"].values() if occupant in ("serf", "nomad"))
    hall = HOUSE.strength("serf") if player["hall"] else 0
    nomads = player["nomads"] * HOUSE.nomads["strength_in_capital"]
    return HOUSE.capital_strength(player["cc_level"]) + bar * HOUSE.strength("serf") + hall + nomads


def natural(state: State, battle: dict[str, Any], side: str) -> int:
    """Natural strength of one side now: its units in the region, plus for the defender its
    Tower (3) or its capital (``capital_extras``)."""
    seat = battle[side]
    total = natural_strength(units_at(state, battle["region"], seat))
    if side == "defender":
        if state["regions"][battle["region"]]["tower"] == seat:
            total += HOUSE.tower["strength"]
        if battle["capital"]:
            total += capital_extras(state, seat)
    return total


def start(state: State, attacker: Seat, defender: Seat, region: str, capital: bool, then: str,
          events: list[Event]) -> None:
    """Spec 1.8.1: the battle begins (the army is already in ``region``); phase ``tactics``."""
    state["players"][attacker]["score"] += HOUSE.vp("start_battle")
    battle = {"attacker": attacker, "defender": defender, "region": region, "capital": capital, "then": then,
              "cards": None}
    battle["strength"] = {side: natural(state, battle, side) for side in SIDES}
    what = "the capital of " if capital else ""
    events.append(Event(text=f"{{seat{attacker}}} attacks {what}{{seat{defender}}} at {region_name(region)} "
                             f"(+{HOUSE.vp('start_battle')} VP)"))
    state["phase"] = "tactics"
    # spec 1.12: the solo Enemy chooses no card; it draws one at the reveal
    chosen = {str(seat): is_enemy(state, seat) for seat in (attacker, defender)}
    state["pending"] = {"battle": battle, "chosen": chosen, "choices": {}}


def side_of(battle: dict[str, Any], seat: Seat) -> str:
    """``"attacker"`` or ``"defender"``: the side ``seat`` fights on."""
    return "attacker" if battle["attacker"] == seat else "defender"


# -- tactic cards ----------------------------------------------------------------------------

def qualifies(state: State, battle: dict[str, Any], seat: Seat, card: TacticCard) -> bool:
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


def payments(state: State, battle: dict[str, Any], seat: Seat, card: TacticCard) -> list[dict[str, int]]:
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


def tactic_options(state: State, battle: dict[str, Any], seat: Seat) -> list[Tactic]:
    """The seat's legal tactic moves: every payment of every card it qualifies for and can pay;
    a card it cannot play or pay may still be chosen, unpaid, and counts as 0 (spec 1.14)."""
    result = []
    for card_id in state["players"][seat]["tactics"]:
        card = HOUSE.tactics[card_id]
        ways = payments(state, battle, seat, card) if qualifies(state, battle, seat, card) else []
        if ways:
            result.extend(Tactic(card=card_id, **way) for way in ways)
        else:
            result.append(Tactic(card=card_id))
    return result


def choice_token(seat: Seat, move: Tactic) -> str:
    """A chosen, unrevealed card as stored in the state and declared secret:
    ``"hidden-tactic/1/charge/0/6/0/0/0/0/0"`` (seat, card, ore, mana, food, serf, warrior, hero,
    mercenary)."""
    values = [getattr(move, name) for name in CHOICE_FIELDS]
    return "/".join(["hidden-tactic", str(seat), move.card, *map(str, values)])


def parse_choice(token: str) -> Tactic:
    """The move a :func:`choice_token` stands for (a token written before the mercenary field
    existed has one number less; the missing one is 0)."""
    _, _, card, *values = token.split("/")
    return Tactic(card=card, **dict(zip(CHOICE_FIELDS, map(int, values))))


def choose(state: State, seat: Seat, move: Tactic, events: list[Event]) -> bool:
    """Record a secret choice; returns whether both sides have now chosen."""
    pending = state["pending"]
    pending["choices"][str(seat)] = choice_token(seat, move)
    pending["chosen"][str(seat)] = True
    events.append(Event(text=f"{{seat{seat}}} has chosen a tactic card"))
    return all(pending["chosen"].values())


def reveal(state: State, events: list[Event]) -> None:
    """Step 3 of the module docstring: void, cancel, pay, score; the cards go public in
    ``pending.battle.cards`` and the choices leave the state."""
    pending = state["pending"]
    battle = pending["battle"]
    moves = {side: parse_choice(pending["choices"][str(battle[side])]) for side in SIDES
             if not is_enemy(state, battle[side])}
    pending.pop("choices")
    records = {}
    for side in SIDES:
        if side not in moves:
            records[side] = enemy_record(state, battle, side, events)
            continue
        move = moves[side]
        card = HOUSE.tactics[move.card]
        paid = natural_strength(move.sacrifice) + sum(move.resources.values())
        void = not qualifies(state, battle, battle[side], card) or paid < card.total_cost
        records[side] = {"card": move.card, "void": void, "cancelled": False, "bonus": 0, "vp": 0,
                         "paid": {r: 0 for r in RESOURCES}, "sacrifice": {k: 0 for k in UNIT_KINDS}}
    for side, enemy in (("attacker", "defender"), ("defender", "attacker")):
        mine, theirs = records[side], records[enemy]
        if not mine["void"] and theirs["card"] in HOUSE.tactics[mine["card"]].cancels:
            theirs["cancelled"] = not theirs["void"]
    texts = []
    for side, enemy in (("attacker", "defender"), ("defender", "attacker")):
        record, move, seat = records[side], moves.get(side), battle[side]
        card = HOUSE.tactics[record["card"]]
        if record["void"] or record["cancelled"]:
            texts.append(f"{{seat{seat}}} {card.name} ({'cancelled' if record['cancelled'] else 'void'})")
            continue
        enemy_card = records[enemy]["card"] if not records[enemy]["void"] else None
        if move is None:  # the solo Enemy: the drawn card's strength, the tactic's interactions and VP
            record["bonus"] = record["drawn_strength"] + card.bonus_against.get(enemy_card, 0)
            record["vp"] = card.vp
            state["players"][seat]["score"] += card.vp
            texts.append(f"{{seat{seat}}} {card.name} (+{record['bonus']} from its drawn card)")
            continue
        record["bonus"] = card.strength + card.bonus_against.get(enemy_card, 0)
        record["vp"] = card.vp
        record["paid"] = move.resources
        record["sacrifice"] = move.sacrifice
        for resource, amount in move.resources.items():
            state["players"][seat]["resources"][resource] -= amount
        state["players"][seat]["score"] += card.vp
        texts.append(f"{{seat{seat}}} {card.name} (+{record['bonus']})")
    battle["cards"] = records
    events.append(Event(text="Both reveal: " + ", ".join(texts)))


def enemy_record(state: State, battle: dict[str, Any], side: str, events: list[Event]) -> dict[str, Any]:
    """Spec 1.12 "Battles with the Enemy", after the player has chosen: the Enemy draws 1 card; its
    strength value is added and the tactic it names for this side (attack or defence) adds no
    strength of its own but interacts with the player's card as the house set says (Shield Wall
    cancels a Charge, and then the added strength too; Charge +3 against First Strike); the Enemy
    scores the tactic's VP (FAQ) unless it is cancelled.  The card goes to the discard."""
    card_id = deck.draw(state)
    state["solo"]["discard"].append(card_id)
    card = deck.cards()[card_id]
    tactic = card.attack_tactic if side == "attacker" else card.defence_tactic
    battle["enemy_card"] = card_id
    events.append(Event(text=f"The Enemy draws {deck.describe(card_id)} for the battle: it adds {card.strength} "
                             f"strength and plays {HOUSE.tactics[tactic].name} for free (the tactic's own strength "
                             "does not count, its effects on your card and its VP do)"))
    return {"card": tactic, "void": False, "cancelled": False, "bonus": 0, "vp": 0, "drawn_strength": card.strength,
            "paid": {r: 0 for r in RESOURCES}, "sacrifice": {k: 0 for k in UNIT_KINDS}}


# -- conscripts ------------------------------------------------------------------------------

def conscript_queue(battle: dict[str, Any]) -> list[Seat]:
    """The seats whose Conscripts is in play, defender first (house card, spec 1.8.3)."""
    queue = []
    for side in ("defender", "attacker"):
        record = battle["cards"][side]
        if HOUSE.tactics[record["card"]].conscripts and not record["void"] and not record["cancelled"]:
            queue.append(battle[side])
    return queue


def conscript_options(state: State, board: Board, battle: dict[str, Any], seat: Seat) -> list[Conscript]:
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


def conscript(state: State, battle: dict[str, Any], seat: Seat, move: Conscript, events: list[Event]) -> None:
    """Move the conscripted units into the battle region."""
    take_units(state, move.origin, seat, move.units)
    add_units(state, battle["region"], seat, move.units)
    events.append(Event(text=f"{{seat{seat}}} conscripts {describe_units(move.units)} from {region_name(move.origin)} into the battle"))


# -- result, damage, retreat -----------------------------------------------------------------

def resolve(state: State, board: Board, events: list[Event]) -> None:
    """Step 5: totals, winner, sacrifices removed; then elimination or the loser's casualties
    (phase ``casualties``, or applied at once when there is one choice; ``pending`` is ``None``
    when the battle is over)."""
    battle = state["pending"]["battle"]
    totals = {side: natural(state, battle, side) + battle["cards"][side]["bonus"] for side in SIDES}
    winner = "attacker" if totals["attacker"] > totals["defender"] else "defender"
    loser = "defender" if winner == "attacker" else "attacker"
    battle["totals"] = totals
    battle["winner"] = battle[winner]
    events.append(Event(text=f"{{seat{battle[winner]}}} wins {max(totals.values())} to {min(totals.values())}"
                             + (" (a tie goes to the defender)" if totals["attacker"] == totals["defender"] else "")))
    for side in SIDES:
        sacrifice = battle["cards"][side]["sacrifice"]
        if size(sacrifice):
            destroy_units(state, battle["region"], battle[side], sacrifice)
            events.append(Event(text=f"{{seat{battle[side]}}} loses the sacrificed {describe_units(sacrifice)}"))
            mercenaries.lose(state, sacrifice.get("mercenary", 0), events)  # A-M2: sacrificed is killed
    damage = 0 if winner == "attacker" and battle["capital"] else math.ceil(natural(state, battle, loser) / 2)
    battle["damage"] = damage
    if state["last"] is not None:
        state["last"]["battle"] = summary(battle)
    note_region(state, battle["region"])
    if winner == "attacker" and battle["capital"]:
        destroy_capital(state, battle["attacker"], battle["defender"], events)
        state["pending"] = None
        return
    if is_enemy(state, battle[loser]):
        take_enemy_losses(state, battle["region"], damage, events)
        state["pending"] = None
        return
    options = casualty_options(state, battle, battle[loser], damage)
    if not options:
        state["pending"] = None
        return
    state["phase"] = "casualties"
    state["pending"] = {"battle": battle, "seat": battle[loser], "damage": damage,
                        "retreat": sorted({option.retreat for option in options if option.retreat})}
    if len(options) == 1:
        take_casualties(state, options[0], events)


def note_region(state: State, region: str) -> None:
    """Add ``region`` to ``last.regions`` (the renderer's highlight), once."""
    last = state["last"]
    if last is not None and region not in last["regions"]:
        last["regions"].append(region)


def summary(battle: dict[str, Any]) -> dict[str, Any]:
    """The public outcome of a resolved battle for ``last.battle`` (docs/heroes.md)."""
    return {
        "region": battle["region"], "attacker": battle["attacker"], "defender": battle["defender"],
        "capital": battle["capital"],
        "cards": {str(battle[side]): battle["cards"][side]["card"] for side in SIDES},
        "effective": {str(battle[side]): not (battle["cards"][side]["void"] or battle["cards"][side]["cancelled"])
                      for side in SIDES},
        "natural": dict(battle["strength"]), "strength": dict(battle["totals"]),
        "winner": battle["winner"], "damage": battle["damage"],
    }


def casualty_options(state: State, battle: dict[str, Any], seat: Seat, damage: int) -> list[Casualties]:
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


def retreats(state: State, seat: Seat, region: str, survivors: dict[str, int]) -> list[str]:
    """Spec 1.8.5: the seat's own capital or a region with one of its Towers (not the battle
    region); [D] the 5-unit limit holds in a Tower region."""
    capital = state["players"][seat]["capital"]
    places = [capital]
    for tower in sorted(towers_of(state, seat)):
        if tower != region and size(units_at(state, tower, seat)) + size(survivors) <= ARMY_LIMIT:
            places.append(tower)
    return places


def take_casualties(state: State, move: Casualties, events: list[Event]) -> None:
    """Destroy the loser's Tower (if any) and the chosen units; the survivors retreat."""
    pending = state["pending"]
    battle, seat = pending["battle"], pending["seat"]
    region = battle["region"]
    lost = []
    if state["regions"][region]["tower"] == seat and pending["damage"] > 0:
        state["regions"][region]["tower"] = None
        state["players"][seat]["supply"]["tower"] += 1
        lost.append("its Tower")
    if size(move.units):
        destroy_units(state, region, seat, move.units)
        lost.append(describe_units(move.units))
    survivors = units_at(state, region, seat)
    text = f"{{seat{seat}}} takes {pending['damage']} damage: loses {' and '.join(lost) or 'nothing'}"
    if size(survivors):
        take_units(state, region, seat, survivors)
        add_units(state, move.retreat, seat, survivors)
        verb = "retreats" if size(survivors) == 1 else "retreat"
        text += f"; {describe_units(survivors)} {verb} to {region_name(move.retreat)}"
        note_region(state, move.retreat)
    events.append(Event(text=text))
    mercenaries.lose(state, move.mercenary, events)
    state["pending"] = None


def enemy_losses(units: dict[str, int], damage: int) -> dict[str, int]:
    """Spec 1.12: the Enemy loses units weakest first (Serf, Warrior, Hero), each taking damage
    fully before the next, until ``damage`` is covered (all of them if it cannot be)."""
    lost = {kind: 0 for kind in UNIT_KINDS}
    left = damage
    for kind in sorted(UNIT_KINDS, key=HOUSE.strength):
        while left > 0 and lost[kind] < units.get(kind, 0):
            lost[kind] += 1
            left -= HOUSE.strength(kind)
    return lost


def take_enemy_losses(state: State, region: str, damage: int, events: list[Event]) -> None:
    """Spec 1.12 / NS-12: the Enemy's Tower in ``region`` takes damage first (3), then its units
    weakest first; the survivors go to its Courtyard, and a destroyed Hero reappears there at once."""
    seat = ENEMY
    capital = state["players"][seat]["capital"]
    rest = damage
    lost_words = []
    if state["regions"][region]["tower"] == seat and damage > 0:
        state["regions"][region]["tower"] = None
        state["players"][seat]["supply"]["tower"] += 1
        rest -= HOUSE.tower["strength"]
        lost_words.append("its Tower")
    units = units_at(state, region, seat)
    lost = enemy_losses(units, max(0, rest))
    heroes = lost["hero"]
    killed = {**lost, "hero": 0}
    if size(killed):
        destroy_units(state, region, seat, killed)
        lost_words.append(describe_units(killed))
    if heroes:
        lost_words.append(f"{describe_units({'hero': heroes})}, who reappears in its Courtyard at once")
    survivors = units_at(state, region, seat)
    text = f"The Enemy takes {damage} damage, weakest first: loses {' and '.join(lost_words) or 'nothing'}"
    if size(survivors) and region != capital:
        take_units(state, region, seat, survivors)
        add_units(state, capital, seat, survivors)
        verb = "goes" if size(survivors) == 1 else "go"
        text += f"; {describe_units(survivors)} {verb} back to its Courtyard"
        note_region(state, capital)
    state["solo"]["heroes"] = [capital if where == region else where for where in state["solo"]["heroes"]]
    events.append(Event(text=text))


def destroy_capital(state: State, attacker: Seat, owner: Seat, events: list[Event]) -> None:
    """Spec 1.8.8: the owner is eliminated at once (scores 0), every piece of it leaves the board,
    its captured Nomads go to the Nomad supply (A-C2), the attacker gains 5 VP; eXterminate."""
    player = state["players"][owner]
    for entry in state["regions"].values():
        entry["units"].pop(str(owner), None)
        if entry["tower"] == owner:
            entry["tower"] = None
    release_all(state, owner)
    mercenaries.release(state, owner, events)
    player["bar"] = {slot: ("disabled" if held == "disabled" else None) for slot, held in player["bar"].items()}
    player["eliminated"] = True
    player["tokens"] = 0
    state["players"][attacker]["score"] += HOUSE.vp("destroy_capital")
    events.append(Event(text=f"{{seat{attacker}}} destroys the capital of {{seat{owner}}} "
                             f"(+{HOUSE.vp('destroy_capital')} VP): "
                             f"{{seat{owner}}} is eliminated"))
    if state["end"] is None and not is_solo(state):  # solo: a destroyed capital ends the game at once
        state["end"] = {"objective": "eXterminate", "by": attacker, "round": state["round"],
                        "last_round": state["round"] + 1}
        events.append(Event(text=f"{{seat{attacker}}} meets eXterminate: this round and one more are played"))

"""What the solo Enemy does with one card (spec 1.12, 2.6 [H]); the round around it: ``solo.py``.

Every function here is a rule of the card text, run by the server inside ``apply``; each writes
one log line that names the card, the Hero slot and the rule.  Decisions where the spec is open
(all [D], also in ``docs/heroes.md``):

* The acting Hero's army: in a region, every Enemy unit there; in the Courtyard, the Hero and up
  to 4 Courtyard units (the 5-unit army): as many Warriors as possible, but at least 1 Serf when
  one is there, then Serfs.  The other Heroes stay.
* Recruit takes the first unit of the priority Warrior > Serf (Tier 1 has no vessels) that is in
  its supply and that it can pay at the player's price; it fails when neither is possible.
* Build (card 5) tries a Tower in the acting Hero's region (a Serf of the Enemy there, not a
  capital region, no Tower yet, within the Tower limit of its C.C. level and 1 per continent,
  Ore by distance from its capital); if that fails, a step of its C.C. track.
* C.C. track (spec 2.6): 6 steps, each pays 3 of its most plentiful resource (ties: Ore, Mana,
  Food) and scores 2 VP; it fails past step 6 or with less than 3.  The Enemy's C.C. level is
  1 + steps // 2 (at most 3): its capital's strength and Tower limit.  Step 6 sets the game end.
* Tax: +4 of the resource on the track's 4-slot; it fails when that would gain nothing (cap 10).
* Attack: targets are the regions within 2 marches (Deserts and enemy pieces stop a march, as
  for a player) that hold units of the player, or its capital; a target qualifies when its
  natural strength as defender (Tower or capital included) is at most the army's.  The weakest
  qualifying target is attacked; ties go to the one in the arrow's direction, then clockwise.
* A failed action moves the army 1 region: candidates are the land neighbours (ferries count)
  that are not its own capital, hold no other Enemy Hero, leave room for the army (5 units
  outside capitals) and, for a Nomad region, that the army may enter (strength > N, NS-17).
  No candidate: the Hero stays.
* After entering a resource region, and after winning the battle there if one was fought, the
  Enemy gains 1 of its resource (2 after an Attack), up to the cap of 10.
"""

from __future__ import annotations

from typing import Any

from app.rulesets.base import Event, words
from app.rulesets.base import card as card_arg
from app.rulesets.heroes import actions, battles, compass, deck, spells
from app.rulesets.heroes.board import Board, region_arg
from app.rulesets.heroes.deck import EnemyCard, solo_data
from app.rulesets.heroes.houses import HOUSE, RESOURCES, UNIT_KINDS
from app.rulesets.heroes.phrases import Phrase, chain, count_of, number, resources, said, units
from app.rulesets.heroes.march import ARMY_LIMIT, Terrain
from app.rulesets.heroes.pieces import (
    ENEMY, add_units, board_nomads, can_pay, capital_owner, destroy_units, gain, is_full, natural_strength, occupants, pay,
    size, take_units, units_at,
)
from app.rulesets.heroes.state import Battle, CardRecord, Counts, HeroesState, Side

PLAYER = 0
"""The one seat of a solo table."""


def say(events: list[Event], slot: int, card_id: int, text: Phrase) -> None:
    """A public log line of the Enemy: ``"Enemy, Hero 2, card 5 (Build ..., arrow NE): ..."``."""
    events.append((said("The Enemy (Hero {hero}, {card}) ", hero=number(hero_index(slot) + 1), card=deck.describe(card_id))
                   + text).event())


def capital(state: HeroesState) -> str:
    """The Enemy's capital region (its Courtyard)."""
    return state["players"][ENEMY]["capital"]


def hero_index(slot: int) -> int:
    """The index in ``solo.heroes`` of the Hero acting for slot ``slot`` (1-4; the 4th card is
    Hero 3's, NS-14)."""
    return min(slot, 3) - 1


def hero_region(state: HeroesState, slot: int) -> str:
    """Where the Hero acting for slot ``slot`` stands."""
    return state["solo"]["heroes"][hero_index(slot)]


def army_of(state: HeroesState, slot: int) -> dict[str, int]:
    """The acting Hero's army (module docstring): everything in its region, or from the Courtyard
    the Hero with up to 4 units, Warriors first but at least 1 Serf when there is one."""
    region = hero_region(state, slot)
    present = units_at(state, region, ENEMY)
    if region != capital(state):
        return present
    room = ARMY_LIMIT - 1
    serfs = min(present["serf"], 1)
    warriors = min(present["warrior"], room - serfs)
    serfs = min(present["serf"], room - warriors)
    return {"serf": serfs, "warrior": warriors, "hero": 1, "mercenary": 0}


# -- the actions --------------------------------------------------------------------------------

def recruit(state: HeroesState, slot: int, card_id: int, events: list[Event]) -> bool:
    """Spec 1.12 Recruit: Warrior before Serf, one unit, to the Hero's region, or to the capital
    when the Hero is in the Courtyard or its region holds 5 units."""
    enemy = state["players"][ENEMY]
    for unit in ("warrior", "serf"):
        cost = HOUSE.recruit_cost(unit)
        if enemy["supply"][unit] > 0 and can_pay(state, ENEMY, cost):
            pay(state, ENEMY, cost)
            enemy["supply"][unit] -= 1
            region = hero_region(state, slot)
            if region == capital(state) or size(units_at(state, region, ENEMY)) >= ARMY_LIMIT:
                region = capital(state)
            add_units(state, region, ENEMY, {unit: 1})
            say(events, slot, card_id, said(f"recruits a {unit.capitalize()} for {{cost}} into {{region}} (Recruit: Warrior before Serf)",
                                            cost=resources(cost), region=region_arg(region)))
            return True
    return False


def tax(state: HeroesState, slot: int, card_id: int, events: list[Event]) -> bool:
    """Spec 2.6 Enemy Tax: the resource on the 4-slot; the track rotates after any follower."""
    resource = state["tax_track"][str(HOUSE.tax_values[0])]
    gained = gain(state, ENEMY, resource, HOUSE.tax_values[0])
    if not gained:
        return False
    say(events, slot, card_id, said(f"taxes {resource.capitalize()} from the top slot: +{{gained}} (Enemy Tax)", gained=number(gained)))
    return True


def tower(state: HeroesState, board: Board, slot: int, card_id: int, events: list[Event]) -> bool:
    """Spec 1.12 Build Towers: a Tower in the Hero's region, if the rules allow one there."""
    region = hero_region(state, slot)
    if region not in actions.tower_sites(board, state, ENEMY):
        return False
    cost = actions.tower_cost(board, state, ENEMY, region)
    pay(state, ENEMY, cost)
    state["players"][ENEMY]["supply"]["tower"] -= 1
    state["regions"][region]["tower"] = ENEMY
    say(events, slot, card_id, said("builds a Tower on {region} for {cost} (Build: Tower first)", region=region_arg(region),
                                    cost=resources(cost)))
    return True


def level_of(steps: int) -> int:
    """The Enemy's C.C. level after ``steps`` of its track (module docstring)."""
    return min(HOUSE.max_capital_level, 1 + steps // 2)


def track(state: HeroesState, slot: int, card_id: int, events: list[Event]) -> bool:
    """Spec 2.6 C.C. track: pay 3 of the most plentiful resource, +2 VP, one step; step 6 sets
    the game end (this round and one more)."""
    rules = solo_data()["track"]
    solo, enemy = state["solo"], state["players"][ENEMY]
    resource = max(RESOURCES, key=lambda r: (enemy["resources"][r], -RESOURCES.index(r)))
    if solo["track"] >= rules["steps"] or enemy["resources"][resource] < rules["cost"]:
        return False
    pay(state, ENEMY, {resource: rules["cost"]})
    solo["track"] += 1
    enemy["score"] += rules["vp"]
    enemy["cc_level"] = level_of(solo["track"])
    say(events, slot, card_id, said("builds its C.C. track to step {step} of {steps} for {paid} (+{vp} VP)", step=number(solo["track"]),
                                    steps=number(rules["steps"]), paid=count_of(rules["cost"], resource), vp=number(rules["vp"])))
    if solo["track"] == rules["steps"] and state["end"] is None:
        state["end"] = {"objective": "track", "by": ENEMY, "round": state["round"], "last_round": state["round"] + 1}
        events.append(Event(text="The Enemy reaches the end of its C.C. track: this round and one more are played"))
    return True


# -- moving and attacking ------------------------------------------------------------------------

def defence(state: HeroesState, region: str) -> int:
    """The natural strength of the player's defence in ``region`` (units, Tower, capital)."""
    return battles.defending_strength(state, PLAYER, region, capital_owner(state, region) == PLAYER)


def attack_targets(state: HeroesState, board: Board, slot: int) -> tuple[list[str], int]:
    """Spec 1.12 Attack: the weakest qualifying targets, best first (the arrow's direction, then
    clockwise), and their strength; ``([], 0)`` when none qualifies."""
    origin = hero_region(state, slot)
    strength = natural_strength(army_of(state, slot))
    ends = Terrain(state, board, ENEMY).reachable(origin, solo_data()["attack_reach"])
    player_capital = state["players"][PLAYER]["capital"]
    defences = {region: defence(state, region) for region, end in ends.items() if end == "battle"
                and (PLAYER in occupants(state, region) or region == player_capital)}
    qualifying = {region: value for region, value in defences.items() if value <= strength}
    if not qualifying:
        return [], 0
    weakest = min(qualifying.values())
    tied = [region for region, value in qualifying.items() if value == weakest]
    arrow = deck.cards()[deck.in_slot(state, slot)].arrow
    return compass.rank(board, origin, tied, arrow), weakest


def attack(state: HeroesState, board: Board, slot: int, card_id: int, events: list[Event]) -> bool:
    """Spec 1.12 Attack: the army moves up to 2 regions to the chosen target and fights it."""
    targets, weakest = attack_targets(state, board, slot)
    if not targets:
        return False
    target = targets[0]
    tie = "; a tie, settled by the arrow, then clockwise" if len(targets) > 1 else ""
    say(events, slot, card_id, said(f"attacks your weakest army within {{reach}} regions, at {{region}} (strength {{strength}}{tie})",
                                    reach=number(solo_data()["attack_reach"]), region=region_arg(target), strength=number(weakest)))
    enter(state, board, slot, target, solo_data()["attack_gain"], events)
    return True


def step_candidates(state: HeroesState, board: Board, slot: int) -> list[str]:
    """The regions the failed action's move may enter (module docstring)."""
    origin = hero_region(state, slot)
    army = army_of(state, slot)
    others = {region for index, region in enumerate(state["solo"]["heroes"]) if index != hero_index(slot)}
    result = []
    for region in sorted(board.adjacent[origin]):
        if region == capital(state) or region in others:
            continue
        if state["regions"][region]["nomad"] and natural_strength(army) <= board_nomads(state):
            continue
        if not board.is_capital_region(region) and size(units_at(state, region, ENEMY)) + size(army) > ARMY_LIMIT:
            continue
        result.append(region)
    return result


def failed_move(state: HeroesState, board: Board, slot: int, card_id: int, why: str, events: list[Event]) -> None:
    """Spec 1.12 "Failed action -> move": 1 region in the arrow's direction, else clockwise."""
    card = deck.cards()[card_id]
    origin = hero_region(state, slot)
    candidates = step_candidates(state, board, slot)
    target = compass.step(board, origin, candidates, card.arrow)
    if target is None:
        say(events, slot, card_id, said(f"cannot {why}, and its Hero has nowhere to move: it stays on {{region}}", region=region_arg(origin)))
        return
    ahead = compass.in_direction(board, origin, candidates, card.arrow) == target
    how = "the arrow {arrow}" if ahead else "the first way clockwise from {arrow}"
    say(events, slot, card_id, said(f"cannot {why}, so its Hero's army moves from {{origin}} to {{destination}} ({how}; failed action)",
                                    origin=region_arg(origin), destination=region_arg(target), arrow=words(card.arrow)))
    enter(state, board, slot, target, solo_data()["move_gain"], events)


def enter(state: HeroesState, board: Board, slot: int, target: str, amount: int, events: list[Event]) -> None:
    """Move the acting Hero's army into ``target``: a battle against the player's pieces there,
    a Nomad battle (NS-17), or a plain move; the resource gain waits for the battle (``gain``)."""
    origin = hero_region(state, slot)
    army = army_of(state, slot)
    take_units(state, origin, ENEMY, army)
    add_units(state, target, ENEMY, army)
    state["solo"]["heroes"][hero_index(slot)] = target
    state["solo"]["gain"] = {"region": target, "amount": amount}
    battles.note_region(state, origin)
    battles.note_region(state, target)
    entry = state["regions"][target]
    player_capital = state["players"][PLAYER]["capital"] == target and capital_owner(state, target) == PLAYER
    if PLAYER in occupants(state, target) or entry["tower"] == PLAYER or player_capital:
        battles.start(state, ENEMY, PLAYER, target, player_capital, "solo", events)
    elif entry["nomad"]:
        entry["nomad"] = False
        state["players"][ENEMY]["nomads"] += 1
        state["players"][ENEMY]["score"] += HOUSE.vp("start_battle")
        events.append(said("The Enemy's army of {units} battles the Nomad on {region}, gains {vp} VP and captures it (NS-17)",
                           units=units(army), region=region_arg(target), vp=number(HOUSE.vp("start_battle"))).event())


def collect_gain(state: HeroesState, board: Board, events: list[Event]) -> None:
    """After a move or Attack (and its battle): 1 (Attack: 2) of the region's resource, if the
    Enemy still holds the region."""
    pending = state["solo"].pop("gain", None)
    if not pending:
        return
    region = pending["region"]
    resource = board.regions[region].resource
    if resource is None or ENEMY not in occupants(state, region):
        return
    gained = gain(state, ENEMY, resource, pending["amount"])
    if gained:
        events.append(said("The Enemy gains {gained} on entering {region}", gained=count_of(gained, resource),
                           region=region_arg(region)).event())


# -- Research: the acting Hero's spell (full edition) -----------------------------------------

def research(state: HeroesState, slot: int, card_id: int, events: list[Event]) -> bool:
    """Spec 1.12 Research [K]: the Enemy casts its acting Hero's spell and gains its VP; it fails
    only if it cannot pay (``data/spells.json`` ``enemy_spells``, [H]).  The player may interrupt
    (phase ``interrupt``, ``flow.answer_spell``); else it takes effect at once."""
    from app.rulesets.heroes.catalogue import of
    hero = hero_index(slot) + 1
    entry = of(state).enemy_spells[hero]
    rival = state["players"][ENEMY]
    if rival["resources"]["mana"] < entry["mana"]:
        return False
    rival["resources"]["mana"] -= entry["mana"]
    events.append(said("The Enemy (Hero {hero}, {card}) casts {spell} for {mana} (Research)", hero=number(hero),
                       card=deck.describe(card_id, True), spell=card_arg(entry["name"]), mana=count_of(entry["mana"], "mana")).event())
    record = {"caster": ENEMY, "card": None, "target": None, "name": entry["name"], "vp": entry["vp"],
              "effect": entry["effect"], "reach": entry["reach"], "hero_region": hero_region(state, slot),
              "enemy_hero": hero, "then": "solo"}
    queue = spells.interrupters(state, ENEMY)
    if queue:
        state["phase"] = "interrupt"
        state["pending"] = {"spell": record, "queue": queue}
        return True
    battles.note_region(state, record["hero_region"])
    for region in enemy_spell_effect(state, board_of(state), record, events):
        battles.note_region(state, region)
    return True


def board_of(state: HeroesState) -> Board:
    """The solo board (the whole map without South, A-S1)."""
    from app.rulesets.heroes.solo import continents
    return Board.four_isles().without_continents(tuple(continents()["out_of_play"]))



def enemy_spell_effect(state: HeroesState, board: Board, record: dict[str, Any], events: list[Event]) -> list[str]:
    """Spec 1.12 Research: the acting Hero's spell takes effect (``data/spells.json``
    ``enemy_spells``: the player's piece nearest the Hero within its reach, the weakest first, then
    by the compass from the round's arrow) and scores its VP, with effect or without."""
    rival = state["players"][ENEMY]
    rival["score"] += record["vp"]
    kind = record["effect"]["kind"]
    origin = record["hero_region"]
    distance = board.land_distances(origin)
    candidates = [region for region in state["regions"] if distance.get(region, 99) <= record["reach"]
                  and not board.is_capital_region(region)]
    text = said("The Enemy's {spell} scores {vp} VP", spell=card_arg(record["name"]), vp=number(record["vp"]))
    touched: list[str] = []
    if kind == "destroy_unit":
        targets = [r for r in candidates if spells.enemy_units_at(state, r, ENEMY) == PLAYER]
        target = pick_target(state, board, origin, targets)
        if target:
            text += Phrase("; ") + spells.kill_weakest(state, target, ENEMY)
            touched.append(target)
    elif kind == "destroy_tower":
        targets = [r for r in candidates if state["regions"][r]["tower"] == PLAYER]
        target = pick_target(state, board, origin, targets)
        if target:
            state["regions"][target]["tower"] = None
            state["players"][PLAYER]["supply"]["tower"] += 1
            text += said("; the Tower of {seat0} on {region} is destroyed", region=region_arg(target))
            touched.append(target)
    events.append(text.event())
    return touched


def pick_target(state: HeroesState, board: Board, origin: str, targets: list[str]) -> str | None:
    """The nearest target, then the weakest, then the first by the compass from the arrow."""
    if not targets:
        return None
    distance = board.land_distances(origin)
    nearest = min(distance[r] for r in targets)
    close = [r for r in targets if distance[r] == nearest]
    weakest = min(natural_strength(units_at(state, r, PLAYER)) for r in close)
    close = [r for r in close if natural_strength(units_at(state, r, PLAYER)) == weakest]
    if len(close) == 1 or origin not in board.regions:
        return sorted(close)[0]
    ranked = compass.rank(board, origin, close, state["solo"]["arrow"] or "N") if all(
        r in board.adjacent[origin] for r in close) else sorted(close)
    return ranked[0]


# -- one card --------------------------------------------------------------------------------------

FAILURES = {"research": "cast its Hero's spell (not enough Mana)", "recruit": "recruit (nothing it can pay in its supply)", "tax": "tax (the top resource is at the cap)",
            "build": "build a Tower here or a step of its C.C. track", "track": "build a step of its C.C. track",
            "attack": "attack (no army of yours within 2 regions is weak enough: its strength must be at most the "
                      "Enemy army's)"}


def perform(state: HeroesState, board: Board, slot: int, card: EnemyCard, events: list[Event]) -> bool:
    """Resolve ``card`` with the Hero of ``slot``; returns whether the action itself succeeded
    (a failed action has made its move instead, which may have started a battle)."""
    action = deck.action_of(card, is_full(state))
    if action == "research":
        done = research(state, slot, card.id, events)
    elif action == "recruit":
        done = recruit(state, slot, card.id, events)
    elif card.action == "tax":
        done = tax(state, slot, card.id, events)
    elif card.action == "build":
        done = tower(state, board, slot, card.id, events)
        if not done:
            events.append(said("The Enemy cannot build a Tower on {region} (it needs its own Serf there, outside a capital, within "
                               "its Tower limit, and the Ore)", region=region_arg(hero_region(state, slot))).event())
            done = track(state, slot, card.id, events)
    elif card.action == "track":
        done = track(state, slot, card.id, events)
    else:
        done = attack(state, board, slot, card.id, events)
    if not done:
        failed_move(state, board, slot, card.id, FAILURES[action], events)
    return done


# -- in battle (spec 1.12 "Battles with the Enemy") --------------------------------------------

def battle_card(state: HeroesState, battle: Battle, side: Side, events: list[Event]) -> CardRecord:
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
    events.append(said("The Enemy draws {card} for the battle: it adds {strength} strength and plays {tactic} for free (the "
                       "tactic's own strength does not count, its effects on your card and its VP do)", card=deck.describe(card_id),
                       strength=number(card.strength), tactic=card_arg(HOUSE.tactics[tactic].name)).event())
    return {"card": tactic, "void": False, "cancelled": False, "bonus": 0, "vp": 0, "drawn_strength": card.strength,
            "paid": {r: 0 for r in RESOURCES}, "sacrifice": {k: 0 for k in UNIT_KINDS}}


def enemy_losses(units: Counts, damage: int) -> Counts:
    """Spec 1.12: the Enemy loses units weakest first (Serf, Warrior, Hero), each taking damage
    fully before the next, until ``damage`` is covered (all of them if it cannot be)."""
    lost = {kind: 0 for kind in UNIT_KINDS}
    left = damage
    for kind in sorted(UNIT_KINDS, key=HOUSE.strength):
        while left > 0 and lost[kind] < units.get(kind, 0):
            lost[kind] += 1
            left -= HOUSE.strength(kind)
    return lost


def take_enemy_losses(state: HeroesState, region: str, damage: int, events: list[Event]) -> None:
    """Spec 1.12 / NS-12: the Enemy's Tower in ``region`` takes damage first (3), then its units
    weakest first; the survivors go to its Courtyard, and a destroyed Hero reappears there at once."""
    seat = ENEMY
    capital = state["players"][seat]["capital"]
    rest = damage
    lost_words: list[Phrase] = []
    if state["regions"][region]["tower"] == seat and damage > 0:
        state["regions"][region]["tower"] = None
        state["players"][seat]["supply"]["tower"] += 1
        rest -= HOUSE.tower["strength"]
        lost_words.append(Phrase("its Tower"))
    present = units_at(state, region, seat)
    lost = enemy_losses(present, max(0, rest))
    heroes = lost["hero"]
    killed = {**lost, "hero": 0}
    if size(killed):
        destroy_units(state, region, seat, killed)
        lost_words.append(units(killed))
    if heroes:
        lost_words.append(units({"hero": heroes}, "heroes") + ", who reappears in its Courtyard at once")
    survivors = units_at(state, region, seat)
    text = said("The Enemy takes {damage} damage, weakest first: loses {lost}", damage=number(damage),
                lost=chain(lost_words, " and ") if lost_words else Phrase("nothing"))
    if size(survivors) and region != capital:
        take_units(state, region, seat, survivors)
        add_units(state, capital, seat, survivors)
        verb = "goes" if size(survivors) == 1 else "go"
        text += said(f"; {{survivors}} {verb} back to its Courtyard", survivors=units(survivors, "survivors"))
        battles.note_region(state, capital)
    state["solo"]["heroes"] = [capital if where == region else where for where in state["solo"]["heroes"]]
    events.append(text.event())

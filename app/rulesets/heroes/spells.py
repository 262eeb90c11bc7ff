"""Spells of the full edition: Research/Scribe, Cast, Combat and Interrupt spells (spec 1.7,
1.8.2, 1.9, 1.10; house deck ``data/spells.json``).

Known rules [K]: every player starts with 1 spell; Research draws 3 spells, then the player
discards down to the hand limit (its C.C. level), choosing among the new cards and the hand;
Scribe puts 1 CAST spell from the hand face up in a scribed slot (at most C.C. level of them),
never discarded, worth VP at the end; Cast reveals a CAST spell from the hand (discarded after
use) or uses a Ready scribed spell, pays its Mana, applies its effect and scores its VP; a used
scribed spell is Exhausted, and each Round End turns it one step (Exhausted -> Preparing ->
Ready); Collection draws 1 spell each and the hand limit applies; an empty deck is the discards
shuffled.  COMBAT spells are played in a battle, one per side, defender first; INTERRUPT spells
answer an enemy's spell as it is cast; enemy spells cannot reach a Capital City region from
outside.  Nomad spells: the 6 of the Wandering variant are shuffled in at a table, never in solo
(NS0-2, NS-16).

Decisions where the sources are silent (also in ``reference.md``, "Full edition"):

* Discarding is one card per move (phase ``discard``), face up: the discard pile is public.
* The reach of a targeted CAST spell: a region holding, or next to a region holding, one of the
  caster's units, Towers or vessels; never a capital region (the FAQ's capital rule).
* "Destroy a unit" takes the weakest enemy Serf, else Warrior, in the region: never a Hero or a
  vessel, never a Serf on the Action Bar or a Building.  In a battle (Lightning) only when the
  enemy keeps another piece there, so no side is emptied before the tactic cards.
* Combat spells are decided in the open before the tactic cards, defender first, then the
  attacker (who has seen it): the rules' order (spells at 1.8.2, cards at 1.8.3), and "once the
  attacker has cast, the defender may not".  Nomad battles have no spells (A-B2).
* Interrupts answer spells cast with the Cast action or the solo Enemy's Research, in clockwise
  order from the caster; the first one cancels it.  A Combat spell is answered by the other
  side's own Combat spell, not interrupted.  A cancelled spell keeps its Mana paid and scores
  nothing; the Interrupt scores its own VP.
* A drawn card that finds the deck and the discard empty is not drawn.
"""

from __future__ import annotations

from typing import Any

from app.rulesets.base import Event, Rng, Seat, card
from app.rulesets.heroes.board import Board, region_arg
from app.rulesets.heroes.catalogue import FIRST, Spell, of
from app.rulesets.heroes.phrases import Phrase, count_of, number, resources, said
from app.rulesets.heroes.moves import Cast, CombatSpell, DiscardSpell, Interrupt, Scribe
from app.rulesets.heroes.pieces import (
    add_units, capital_owner, clockwise_from, destroy_units, gain, is_full, log_name, units_at,
)
from app.rulesets.heroes.state import Battle, HeroesState, Pending

KILLABLE = ("serf", "warrior")
"""What a "destroy a unit" spell may kill, weakest first (never a Hero or a vessel)."""


# -- the hand and the deck ------------------------------------------------------------------------

def hand(state: HeroesState, seat: Seat) -> list[str]:
    """The seat's spell hand (empty outside the full edition and for the solo Enemy)."""
    return state["players"][seat].get("spells", [])


def hand_limit(state: HeroesState, seat: Seat) -> int:
    """Spec 1.7 Research [K]: the hand limit is the C.C. level (scribed spells do not count)."""
    return state["players"][seat]["cc_level"]


def scribed_limit(state: HeroesState, seat: Seat) -> int:
    """Spec 1.7 Scribe [K]: at most C.C. level scribed spells."""
    return state["players"][seat]["cc_level"]


def draw(state: HeroesState, count: int) -> list[str]:
    """Take ``count`` cards from the deck; when it is empty the discards are shuffled into a new
    deck (spec 1.7 [K]); fewer when both are empty."""
    drawn: list[str] = []
    for _ in range(count):
        if not state["spell_deck"]:
            if not state["spell_discard"]:
                break
            rng = Rng(state["rng"])
            deck = list(state["spell_discard"])
            rng.shuffle(deck)
            state["rng"] = rng.state
            state["spell_deck"], state["spell_discard"] = deck, []
        drawn.append(state["spell_deck"].pop(0))
    return drawn


def names(cards: list[str]) -> Phrase:
    """``"Fireball and Counterspell"``: cards in a log line, as a phrase of one ``card`` argument
    per spell (``"{spell0} and {spell1}"``); ``"no spell"`` for none.  (Names are the same in every
    revision of the house data: ``catalogue.identity``.)"""
    if not cards:
        return Phrase("no spell")
    args = {f"spell{index}": card(FIRST.spell(c).name) for index, c in enumerate(cards)}
    keys = ["{" + key + "}" for key in args]
    return Phrase(keys[0] if len(keys) == 1 else ", ".join(keys[:-1]) + " and " + keys[-1], args)


def take_into_hand(state: HeroesState, seat: Seat, count: int, why: str, events: list[Event]) -> list[str]:
    """Draw ``count`` spells into the seat's hand: a public line with the number, a private one
    with the cards."""
    drawn = draw(state, count)
    state["players"][seat]["spells"].extend(drawn)
    who = log_name(state, seat, start=True)
    events.append(said(f"{who} {why}: draws {{count}} spell{'s' if len(drawn) != 1 else ''}", count=number(len(drawn))).event())
    if drawn:
        events.append(said("You draw {spells}", spells=names(drawn)).event(seats=(seat,)))
    return drawn


def over_limit(state: HeroesState, seat: Seat) -> int:
    """How many cards the seat must discard now."""
    return max(0, len(hand(state, seat)) - hand_limit(state, seat))


# -- Research and Scribe --------------------------------------------------------------------------

def research(state: HeroesState, seat: Seat, events: list[Event]) -> Phrase:
    """Spec 1.7 Research: draw 3 (the discard down to the limit is the caller's ``open_discard``)."""
    drawn = draw(state, of(state).spell_number("research_draw"))
    state["players"][seat]["spells"].extend(drawn)
    if drawn:
        events.append(said("You draw {spells}", spells=names(drawn)).event(seats=(seat,)))
    return said(f"researches: draws {{count}} spell{'s' if len(drawn) != 1 else ''}", count=number(len(drawn)))


def can_research(state: HeroesState) -> bool:
    """A card is left to draw (deck or discards)."""
    return bool(state["spell_deck"] or state["spell_discard"])


def scribe_moves(state: HeroesState, seat: Seat, worker: str) -> list[Scribe]:
    """Spec 1.7 Scribe: a CAST spell of the hand, while the scribed slots are not full."""
    player = state["players"][seat]
    if len(player["scribed"]) >= scribed_limit(state, seat):
        return []
    cards = sorted({c for c in hand(state, seat) if of(state).spell(c).kind == "cast"})
    return [Scribe.shared(card=c, worker=worker) for c in cards]


def scribe(state: HeroesState, seat: Seat, move: Scribe) -> Phrase:
    """Move the card face up into a scribed slot, Ready."""
    player = state["players"][seat]
    player["spells"].remove(move.card)
    player["scribed"].append({"card": move.card, "status": "ready"})
    return said("scribes {card}", card=card(of(state).spell(move.card).name))


def discard_moves(state: HeroesState, seat: Seat) -> list[DiscardSpell]:
    """Every card of the hand may be the one discarded."""
    return [DiscardSpell.shared(card=c) for c in sorted(set(hand(state, seat)))]


def discard(state: HeroesState, seat: Seat, move: DiscardSpell, events: list[Event]) -> None:
    """Discard one card face up."""
    state["players"][seat]["spells"].remove(move.card)
    state["spell_discard"].append(move.card)
    events.append(Event(text=f"{{seat{seat}}} discards {{card}}", args={"card": card(of(state).spell(move.card).name)}))


def open_discard(state: HeroesState, seats: list[Seat], resume: dict[str, Any]) -> bool:
    """Phase ``discard`` for the first of ``seats`` over its limit (the rest queue after it);
    ``resume`` says what follows (``flow.RESUMERS``).  Returns ``False`` when nobody must discard."""
    queue = [seat for seat in seats if over_limit(state, seat)]
    if not queue:
        return False
    state["phase"] = "discard"
    state["pending"] = {"seat": queue[0], "queue": queue[1:], "resume": resume}
    return True


def next_discard(state: HeroesState) -> bool:
    """After a discard: the same seat again, or the next over its limit; ``False`` when done."""
    pending = state["pending"]
    assert pending is not None
    if over_limit(state, pending["seat"]):
        return True
    queue = [seat for seat in pending["queue"] if over_limit(state, seat)]
    if queue:
        pending["seat"], pending["queue"] = queue[0], queue[1:]
        return True
    return False


def collection_draw(state: HeroesState, events: list[Event]) -> None:
    """Spec 1.9 [K]: every player draws 1 spell (the limit is applied by the caller)."""
    count = of(state).spell_number("collection_draw")
    for seat in clockwise_from(state, state["first_player"]):
        player = state["players"][seat]
        if not player["eliminated"] and not player.get("enemy"):
            take_into_hand(state, seat, count, "collects", events)


def round_end(state: HeroesState) -> None:
    """Spec 1.10 [K]: each scribed spell turns one step: Exhausted -> Preparing -> Ready."""
    for player in state["players"]:
        for entry in player.get("scribed", []):
            if entry["status"] == "exhausted":
                entry["status"] = "preparing"
            elif entry["status"] == "preparing":
                entry["status"] = "ready"


# -- Cast -------------------------------------------------------------------------------------------

def mana_cost(state: HeroesState, seat: Seat, spell: Spell) -> int:
    """The spell's Mana less the seat's Hero discount (``abilities.mana_discount``)."""
    from app.rulesets.heroes.abilities import mana_discount  # abilities reads spells' battle records
    return max(0, spell.mana - mana_discount(state, seat))


def affordable(state: HeroesState, seat: Seat, spell: Spell) -> bool:
    """The seat holds the Mana."""
    return state["players"][seat]["resources"]["mana"] >= mana_cost(state, seat, spell)


def in_reach(state: HeroesState, board: Board, seat: Seat) -> set[str]:
    """Regions a targeted CAST spell of ``seat`` reaches (module docstring): holding or next to a
    region with one of its units, Towers or vessels; no capital region."""
    from app.rulesets.heroes.vessels import vessel_regions
    mine = str(seat)
    held = {region for region, entry in state["regions"].items() if mine in entry["units"] or entry["tower"] == seat}
    held |= vessel_regions(state, seat)
    reach = set(held)
    for region in held:
        reach |= board.adjacent[region]
    return {region for region in reach if not board.is_capital_region(region)}


def enemy_units_at(state: HeroesState, region: str, seat: Seat) -> Seat | None:
    """The other seat with a Serf or Warrior in ``region`` (``None`` if none)."""
    for other, counts in state["regions"][region]["units"].items():
        if int(other) != seat and any(counts.get(kind, 0) for kind in KILLABLE):
            return int(other)
    return None


def targets(state: HeroesState, board: Board, seat: Seat, spell: Spell) -> list[str | None]:
    """Where ``spell`` may be cast (``[None]``: it takes no target; ``[]``: nowhere now)."""
    kind = spell.effect["kind"]
    found: list[str | None] = []
    if kind == "destroy_unit":
        found.extend(sorted(r for r in in_reach(state, board, seat) if enemy_units_at(state, r, seat) is not None))
        return found
    if kind == "destroy_tower":
        found.extend(sorted(r for r in in_reach(state, board, seat) if state["regions"][r]["tower"] not in (None, seat)))
        return found
    if kind == "remove_nomad":
        found.extend(sorted(r for r, entry in state["regions"].items() if entry["nomad"]))
        return found
    if kind == "capture_nomad":
        return [None] if state["nomad_supply"] > 0 else []
    if kind == "recruit":
        supply = state["players"][seat]["supply"]
        return [None] if all(supply[k] >= n for k, n in spell.effect["units"].items()) else []
    return [None]


def cast_moves(state: HeroesState, board: Board, seat: Seat, worker: str) -> list[Cast]:
    """Every legal Cast: a CAST spell of the hand or a Ready scribed one, paid, on each target."""
    player = state["players"][seat]
    catalogue = of(state)
    cards = {c for c in hand(state, seat) if catalogue.spell(c).kind == "cast"}
    cards |= {entry["card"] for entry in player["scribed"] if entry["status"] == "ready"}
    result: list[Cast] = []
    for c in sorted(cards):
        spell = catalogue.spell(c)
        if affordable(state, seat, spell):
            result.extend(Cast.shared(card=c, target=target, worker=worker) for target in targets(state, board, seat, spell))
    return result


def begin_cast(state: HeroesState, seat: Seat, move: Cast, events: list[Event]) -> dict[str, Any]:
    """Pay the Mana and reveal the card (from the hand to the discard, or a scribed spell turned
    Exhausted); returns the spell record the interrupt window and ``resolve_cast`` use."""
    spell = of(state).spell(move.card)
    player = state["players"][seat]
    cost = mana_cost(state, seat, spell)
    player["resources"]["mana"] -= cost
    scribed = next((entry for entry in player["scribed"] if entry["card"] == move.card), None)
    if scribed is not None:
        scribed["status"] = "exhausted"
        source = "scribed "
    else:
        player["spells"].remove(move.card)
        state["spell_discard"].append(move.card)
        source = ""
    where = " on {target}" if move.target else ""
    args = {"spell": card(spell.name)}
    if move.target:
        from app.rulesets.heroes.board import region_arg
        args["target"] = region_arg(move.target)
    events.append(Event(text=f"{log_name(state, seat, start=True)} casts the {source}{{spell}}{where} for {{mana}}",
                        args={**args, "mana": count_of(cost, "mana")}))
    return {"caster": seat, "card": move.card, "target": move.target, "name": spell.name, "vp": spell.vp,
            "effect": spell.effect}


def interrupters(state: HeroesState, caster: Seat) -> list[Seat]:
    """Seats that may answer a spell of ``caster``, clockwise after it (not the solo Enemy)."""
    seats = clockwise_from(state, caster, include_start=False) if caster < state["n_players"] else \
        clockwise_from(state, 0)
    return [seat for seat in seats if seat != caster and interrupt_moves(state, seat)]


def interrupt_moves(state: HeroesState, seat: Seat) -> list[Interrupt]:
    """The seat's Interrupt spells it can pay."""
    if not is_full(state) or state["players"][seat].get("enemy"):
        return []
    catalogue = of(state)
    return [Interrupt(card=c) for c in sorted(set(hand(state, seat)))
            if catalogue.spell(c).kind == "interrupt" and affordable(state, seat, catalogue.spell(c))]


def play_from_hand(state: HeroesState, seat: Seat, card_id: str) -> tuple[Spell, int]:
    """Pay a card of the hand, discard it face up and score its VP; returns the spell and the Mana
    paid (an Interrupt or a Combat spell: spec 1.7)."""
    spell = of(state).spell(card_id)
    player = state["players"][seat]
    cost = mana_cost(state, seat, spell)
    player["resources"]["mana"] -= cost
    player["spells"].remove(card_id)
    state["spell_discard"].append(card_id)
    player["score"] += spell.vp
    return spell, cost


def interrupt(state: HeroesState, seat: Seat, move: Interrupt, events: list[Event]) -> None:
    """Pay and discard the Interrupt, score its VP: the spell being cast is cancelled."""
    spell, cost = play_from_hand(state, seat, move.card)
    events.append(said(f"{{seat{seat}}} interrupts with {{spell}} for {{mana}} (+{{vp}} VP): the spell has no effect",
                       spell=card(spell.name), mana=count_of(cost, "mana"), vp=number(spell.vp)).event())


def resolve_cast(state: HeroesState, board: Board, record: dict[str, Any], events: list[Event]) -> list[str]:
    """Apply a CAST spell's effect and score its VP (a spell cast to no effect still scores);
    returns the regions it touched."""
    seat, target, effect = record["caster"], record["target"], record["effect"]
    player = state["players"][seat]
    player["score"] += record["vp"]
    who = log_name(state, seat, start=True)
    kind = effect["kind"]
    touched: list[str] = [target] if target else []
    text = said(f"{{spell}}: {who} scores {{vp}} VP", spell=card(record["name"]), vp=number(record["vp"]))
    if kind == "destroy_unit" and target:
        text += Phrase("; ") + kill_weakest(state, target, seat)
    elif kind == "destroy_tower" and target:
        owner = state["regions"][target]["tower"]
        if owner is not None and owner != seat and capital_owner(state, target) is None:
            state["regions"][target]["tower"] = None
            state["players"][owner]["supply"]["tower"] += 1
            text += said(f"; the Tower of {log_name(state, owner)} on {{region}} is destroyed", region=region_arg(target))
    elif kind == "gain":
        gained = {r: gain(state, seat, r, n) for r, n in effect["resources"].items()}
        text += said(" and gains {gained}", gained=resources(gained, "gained"))
    elif kind == "recruit":
        units = {k: min(n, player["supply"][k]) for k, n in effect["units"].items()}
        for k, n in units.items():
            player["supply"][k] -= n
        add_units(state, player["capital"], seat, units)
        touched.append(player["capital"])
        text += said("; {count} Serfs join the Courtyard", count=number(sum(units.values())))
    elif kind == "remove_nomad" and target and state["regions"][target]["nomad"]:
        state["regions"][target]["nomad"] = False
        state["nomad_supply"] += 1
        text += said("; the Nomad on {region} goes back to the supply", region=region_arg(target))
    elif kind == "capture_nomad" and state["nomad_supply"] > 0:
        state["nomad_supply"] -= 1
        player["nomads"] += 1
        text += "; a Nomad from the supply joins the Courtyard"
    events.append(text.event())
    return touched


def kill_weakest(state: HeroesState, region: str, caster: Seat) -> Phrase:
    """Destroy the weakest enemy Serf, else Warrior, in ``region``; returns the words."""
    victim = enemy_units_at(state, region, caster)
    if victim is None:
        return Phrase("nothing is there to destroy")
    counts = units_at(state, region, victim)
    kind = next(k for k in KILLABLE if counts[k])
    destroy_units(state, region, victim, {kind: 1})
    return said(f"a {kind.capitalize()} of {log_name(state, victim)} on {{victim_region}} is destroyed", victim_region=region_arg(region))


# -- Combat spells ---------------------------------------------------------------------------------

def combat_moves(state: HeroesState, battle: Battle, seat: Seat) -> list[CombatSpell]:
    """The seat's Combat spells it can pay (Lightning only when it has something to hit)."""
    if not is_full(state) or state["players"][seat].get("enemy"):
        return []
    result = []
    for c in sorted(set(hand(state, seat))):
        spell = of(state).spell(c)
        if spell.kind != "combat" or not affordable(state, seat, spell):
            continue
        if spell.effect["kind"] == "destroy_unit" and not can_strike(state, battle, seat):
            continue
        result.append(CombatSpell(card=c))
    return result


def can_strike(state: HeroesState, battle: Battle, seat: Seat) -> bool:
    """Lightning: the enemy side has a Serf or Warrior in the battle and keeps another piece."""
    from app.rulesets.heroes.battles import other_seat, side_of
    enemy = other_seat(battle, seat)
    counts = units_at(state, battle["region"], enemy)
    pieces = sum(counts.values()) + (state["regions"][battle["region"]]["tower"] == enemy)
    pieces += side_of(battle, enemy) == "defender" and battle["capital"]
    return any(counts[k] for k in KILLABLE) and pieces >= 2


def combat_queue(state: HeroesState, battle: Battle) -> list[Seat]:
    """The battle's seats that may cast a Combat spell, defender first (spec 1.8.2 [K])."""
    return [seat for seat in (battle["defender"], battle["attacker"]) if combat_moves(state, battle, seat)]


def cast_combat(state: HeroesState, battle: Battle, seat: Seat, move: CombatSpell, events: list[Event]) -> None:
    """Pay, discard, score, and apply the spell to the battle: its strength goes to
    ``battle.spell_bonus`` by side, a unit it destroys dies now."""
    from app.rulesets.heroes.battles import other_seat, side_of
    spell, cost = play_from_hand(state, seat, move.card)
    player = state["players"][seat]
    side = side_of(battle, seat)
    other = "defender" if side == "attacker" else "attacker"
    bonus = battle.setdefault("spell_bonus", {"attacker": 0, "defender": 0})
    battle.setdefault("spells", {})[side] = move.card
    effect = spell.effect
    text = said(f"{{seat{seat}}} casts {{spell}} for {{mana}}", spell=card(spell.name), mana=count_of(cost, "mana"))
    if effect["kind"] == "strength":
        bonus[side] += effect["amount"]
        text += said(": +{strength} strength", strength=number(effect["amount"]))
    elif effect["kind"] == "weaken":
        bonus[other] -= effect["amount"]
        text += said(f": -{{strength}} strength to {log_name(state, other_seat(battle, seat))}", strength=number(effect["amount"]))
    elif effect["kind"] == "strength_per_nomad":
        amount = max(effect["min"], effect["amount"] * player["nomads"])
        bonus[side] += amount
        text += said(": +{strength} strength", strength=number(amount))
    elif effect["kind"] == "destroy_unit":
        text += Phrase(": ") + kill_weakest(state, battle["region"], seat)
    if spell.vp:
        text += said(" (+{vp} VP)", vp=number(spell.vp))
    events.append(text.event())


def spell_bonus(battle: Battle, side: str) -> int:
    """The strength the battle's Combat spells add to (or take from) ``side``."""
    return battle.get("spell_bonus", {}).get(side, 0)


def deal(state: HeroesState, rng: Rng, nomads: bool) -> None:
    """Setup (spec 1.5 step 3 [K]): shuffle the deck (with the Nomad spells when ``nomads``) and
    deal each player its starting hand (not the solo Enemy)."""
    deck = of(state).deck(nomads)
    rng.shuffle(deck)
    state["spell_deck"], state["spell_discard"] = deck, []
    for player in state["players"]:
        player["spells"] = [] if player.get("enemy") else [deck.pop(0) for _ in range(of(state).spell_number("hand_start"))]


def spell_pending(state: HeroesState) -> Pending:
    """The open interrupt window (phase ``interrupt``)."""
    pending = state["pending"]
    assert pending is not None and "spell" in pending
    return pending


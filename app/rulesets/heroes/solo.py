"""Solo: one player against the Enemy (spec 1.12, 2.6 [H], NS-1..NS-18 with the defaults of 3.8).

A table of 1 seat plays solo on 3 continents (A-S1): the player's North, the Enemy's East and
the free West; South is out of play (``Board.without_continents``).  The Enemy is part of the
rules, not a bot: it is ``state["players"][ENEMY]`` (no seat of the table) and the server runs its
cards inside ``apply``, right after the player move that hands it the turn, so each Enemy step is
stored, replayed and broadcast with that move, one log line per step naming the card and rule.

``state["solo"]``: ``deck`` (secret order; a view shows ``deck_size``), ``discard``, ``slots``
(cards of Hero slots 1-3 and the 4th card), ``heroes`` (the region of Enemy Heroes 1-3),
``track`` (steps of its C.C. track), ``slot`` (the card being played, 1-4), ``arrow`` (the
compass arrow of this round's first card) and ``next`` (the step the round goes on with).

A round (spec 1.12 "Round flow", NS-2..NS-15):

1. Nomad placement: round 1 puts the first Nomad on the free continent's Capital City region
   by itself (NS-1, one possible place); later rounds the player places it (NS-2, NS-3, the
   multiplayer rules of ``nomads.placements``: A-S2 keeps one emptiness rule).
2. Enemy card 1 is drawn; the player moves one board Nomad along its arrow (NS-4..NS-6; phase
   ``nomad_move``); a Nomad moved into units fights them (NS-7..NS-12); then card 1 is resolved
   with Hero 1 (NS-13).
3. The player's action 1; Enemy card 2 (Hero 2); the player's action 2; Enemy card 3 (Hero 3);
   with a captured Nomad in its Courtyard, a 4th card for Hero 3, then 1 of its Nomads goes to
   the supply (NS-14, NS-15).
4. Collection (the Enemy collects like a player), the Enemy discards its cards, Round End.

After a followable Enemy action that was carried out, the player may follow it with a Serf or a
captured Nomad (phase ``follow``, A-C3); [D] a failed action (the Enemy moved instead) cannot be
followed.  A followed Tax rotates the track after the player.

Solo end: an X-objective of either side or step 6 of the Enemy's track sets the end (that round
and one more); a destroyed capital ends the game at once; the round limit stays our safeguard.
The player wins with more VP than the Enemy; [D] equal VP is no win (the rulebook's words: a win
is more VP than the Enemy), the player is placed behind it, and the reason says it was a tie.  The Enemy's VP: its
running score (battles, tactics, track steps, Nomads) plus the end categories without Heroes
(spec 1.12: Enemy Heroes score no VP) and [D] without C.C. level VP (its track steps scored).
NS-16: there are no Nomad spells (no spells in Tier 1 at all).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from app.rulesets.base import Event, IllegalMove, Result, Rival, Rng, Seat, words
from app.rulesets.heroes import actions, battles, compass, deck, edition, enemy, nomads, spells
from app.rulesets.heroes.abilities import strength_bonuses
from app.rulesets.heroes.board import Board, region_arg, region_name
from app.rulesets.heroes.collection import collect, round_end
from app.rulesets.heroes.deck import solo_data
from app.rulesets.heroes.houses import HOUSE
from app.rulesets.heroes.phrases import flattened, number, said, unflattened
from app.rulesets.heroes.moves import MoveNomad
from app.rulesets.heroes.options import Options
from app.rulesets.heroes.pieces import (
    ENEMY, board_nomads, capital_owner, is_full, log_name, natural_strength, occupants, units_at,
)
from app.rulesets.heroes.rounds import finish, new_player, new_state
from app.rulesets.heroes.scoring import (
    REASONS, ROUND_LIMIT, breakdown, check_objectives, finished_by, game_over_after_round, round_limit_args,
)
from app.rulesets.heroes.state import Battle, CardRecord, HeroesState, Side

PLAYER = 0
ENEMY_NAME = "The Enemy"
"""The Enemy as the result names it beside the player (a msgid of the game's catalog)."""
FOLLOW_SLOTS = {"recruit": "recruit", "tax": "tax", "build": "build", "research": "research"}
"""The player's Action Bar slot that follows an Enemy card's action."""


# -- setup -----------------------------------------------------------------------------------------

def continents() -> dict[str, Any]:
    """A-S1: ``{"player": "N", "enemy": "E", "free": "W", "out_of_play": ["S"]}``."""
    return solo_data()["continents"]


def new_game(board: Board, options: Options, seed: int) -> HeroesState:
    """Spec 1.12 setup: the player as in 1.5; the Enemy on the continent next to it with its 3
    Heroes in the Courtyard, no Serfs, no Warrior, 3/3/3, its track on Start, no spells, no
    tactic hand; the 8 cards shuffled.  Then round 1 runs up to the player's first decision."""
    places = continents()
    rng = Rng(seed)
    state = new_state(board, (places["player"], places["enemy"]), options, rng, first=PLAYER)
    regions = state["regions"]
    enemy_capital = board.capitals[places["enemy"]]
    regions[enemy_capital]["units"].pop(str(ENEMY))
    rival = new_player(board, regions, ENEMY, places["enemy"], start={**HOUSE.start, **solo_data()["start"]})
    rival["bar"] = {slot: "disabled" for slot in rival["bar"]}
    rival["tokens"], rival["tactics"], rival["enemy"] = 0, [], True
    state["players"][ENEMY] = rival
    state["n_players"] = 1
    state["solo"] = {
        "deck": deck.new_deck(rng), "discard": [], "slots": [None, None, None, None],
        "heroes": [enemy_capital] * 3, "track": 0, "slot": 1, "arrow": None, "next": "round",
        "free": board.capitals[places["free"]],
    }
    if options.edition == "full":
        edition.set_up(state, board, rng, solo=True)
    state["rng"] = rng.state
    opening: list[Event] = []
    run(state, board, opening)
    # logged with the first move (``flow.apply``); stored with its values written in, as every game
    # stored before the log lines had typed arguments holds them (the stored state stays the same);
    # the first move logs them as templates with typed arguments again (``opening_line``)
    state["solo"]["opening"] = [flattened(event).model_dump(mode="json") for event in opening]
    return state


OPENING_TEMPLATES = (
    "The first Nomad goes on {region}, the free continent's Capital City region",
    "The Enemy draws card {enemy_card} ({enemy_action}, arrow {enemy_arrow}) for Hero {hero}",
    "The Enemy (Hero {hero}, card {enemy_card} ({enemy_action}, arrow {enemy_arrow})) recruits a Warrior for {cost0} "
    "into {region} (Recruit: Warrior before Serf)",
    "The Enemy (Hero {hero}, card {enemy_card} ({enemy_action}, arrow {enemy_arrow})) taxes Ore from the top slot: "
    "+{gained} (Enemy Tax)",
    "The Enemy (Hero {hero}, card {enemy_card} ({enemy_action}, arrow {enemy_arrow})) taxes Mana from the top slot: "
    "+{gained} (Enemy Tax)",
    "The Enemy (Hero {hero}, card {enemy_card} ({enemy_action}, arrow {enemy_arrow})) taxes Food from the top slot: "
    "+{gained} (Enemy Tax)",
    "The Enemy (Hero {hero}, card {enemy_card} ({enemy_action}, arrow {enemy_arrow})) casts {spell} for {mana} (Research)",
    "The Enemy's {spell} scores {vp} VP",
    "The Enemy cannot build a Tower on {region} (it needs its own Serf there, outside a capital, within its Tower "
    "limit, and the Ore)",
    "The Enemy (Hero {hero}, card {enemy_card} ({enemy_action}, arrow {enemy_arrow})) builds its C.C. track to step "
    "{step} of {steps} for {paid} (+{vp} VP)",
    "The Enemy (Hero {hero}, card {enemy_card} ({enemy_action}, arrow {enemy_arrow})) cannot attack (no army of yours "
    "within 2 regions is weak enough: its strength must be at most the Enemy army's), so its Hero's army moves from "
    "{origin} to {destination} (the arrow {arrow}; failed action)",
    "The Enemy (Hero {hero}, card {enemy_card} ({enemy_action}, arrow {enemy_arrow})) cannot attack (no army of yours "
    "within 2 regions is weak enough: its strength must be at most the Enemy army's), so its Hero's army moves from "
    "{origin} to {destination} (the first way clockwise from {arrow}; failed action)",
    "The Enemy gains {gained} on entering {region}",
)
"""The templates of the lines round 1 can log before the player's first decision (the Enemy's
first card played from its capital), which ``new_game`` stores with their values written in."""


def opening_line(stored: str | dict[str, Any], regions: Iterable[str]) -> Event:
    """A stored opening line (``new_game``; a plain text in older states) as the log entry it
    stands for: one of :data:`OPENING_TEMPLATES` with its typed arguments (``phrases.unflattened``,
    ``regions`` the game's region ids), so it is said in the reader's language like any other
    line; a line of no known template as stored (English).

    Decision: the setup state keeps the filled lines (its stored form and the golden setup hashes
    stay the same, and games stored before read the same way); the templates and arguments are
    read back from them when the first move logs them, the English words unchanged."""
    event = Event(text=stored) if isinstance(stored, str) else Event.model_validate(stored)
    return unflattened(event, OPENING_TEMPLATES, {region_name(region): region for region in regions})


# -- the round ---------------------------------------------------------------------------------------

def run(state: HeroesState, board: Board, events: list[Event]) -> None:
    """Play the Enemy's steps of the round until the player must decide or the game is over."""
    solo = state["solo"]
    while state["phase"] != "over" and solo["next"] is not None:
        step = solo["next"]
        solo["next"] = None
        check_objectives(state, events)  # an objective counts in the round it is met (before Round End)
        if STEPS[step](state, board, events):
            return


def wandering(state: HeroesState) -> bool:
    """Whether the Wandering Nomads variant is on."""
    return state["options"]["nomads"] == "wandering"


def step_round(state: HeroesState, board: Board, events: list[Event]) -> bool:
    """Start of a round: the Nomad placement (NS-1 by itself, NS-2/NS-3 by the player)."""
    solo = state["solo"]
    solo["slots"], solo["slot"], solo["arrow"], solo["next"] = [None, None, None, None], 1, None, "card"
    state["turn"] = {"seat": PLAYER, "lap": 1, "order": [PLAYER]}
    state["pending"] = None
    if not wandering(state) or state["nomad_supply"] <= 0:
        return False
    if state["round"] == 1 and nomads.is_empty(state, solo["free"]):
        nomads.place(state, solo["free"], [])
        events.append(said("The first Nomad goes on {region}, the free continent's Capital City region (NS-1)",
                           region=region_arg(solo["free"])).event())
        return False
    if nomads.must_place(state, board):
        state["phase"] = "nomad"
        return True
    events.append(Event(text="No Nomad can be placed this round (NS-2, NS-3)"))
    return False


def step_card(state: HeroesState, board: Board, events: list[Event]) -> bool:
    """Draw the Enemy card of the current slot; the first card's arrow moves a Nomad (NS-4)."""
    solo = state["solo"]
    slot = solo["slot"]
    card_id = deck.draw(state)
    solo["slots"][slot - 1] = card_id
    solo["next"] = "resolve"
    whose = "a 4th card, for Hero 3 (NS-14: it holds a captured Nomad)" if slot == 4 else "for Hero {hero}"
    events.append(said(f"The Enemy draws {{card}} {whose}", card=deck.describe(card_id, is_full(state)), hero=number(slot)).event())
    if slot != 1 or not wandering(state):
        return False
    arrow = solo["arrow"] = deck.cards()[card_id].arrow
    moves = nomad_moves(state, board)
    if moves:
        state["phase"] = "nomad_move"
        clockwise = compass.in_direction(board, moves[0].origin, [moves[0].destination], arrow) is None
        state["pending"] = {"seat": PLAYER, "arrow": arrow, "clockwise": clockwise}
        return True
    if board_nomads(state):
        events.append(Event(text="No Nomad can move this round (NS-6)"))
    return False


def step_resolve(state: HeroesState, board: Board, events: list[Event]) -> bool:
    """The Enemy resolves its card (``enemy.perform``); a battle or a Follow window waits for the
    player."""
    solo = state["solo"]
    slot = solo["slot"]
    card = deck.cards()[deck.in_slot(state, slot)]
    state["phase"] = "enemy"
    state["pending"] = None
    done = enemy.perform(state, board, slot, card, events)
    solo["next"] = "gain"
    if state["phase"] != "enemy":  # a battle began
        return True
    action = deck.action_of(card, is_full(state))
    follow = FOLLOW_SLOTS.get(action) if done and card.followable else None
    if follow and actions.follow_moves(state, board, PLAYER, follow):
        state["phase"] = "follow"
        state["pending"] = {"leader": ENEMY, "action": {"type": follow}, "queue": [PLAYER],
                            "tax_slot": str(HOUSE.tax_values[0]) if follow == "tax" else None}
        return True
    if done and action == "tax":
        actions.rotate_tax_track(state)
    return False


def step_gain(state: HeroesState, board: Board, events: list[Event]) -> bool:
    """The Enemy's resource for the region its army entered (``enemy.collect_gain``)."""
    enemy.collect_gain(state, board, events)
    state["solo"]["next"] = "after"
    return False


def step_after(state: HeroesState, board: Board, events: list[Event]) -> bool:
    """After Enemy card 1 or 2 the player acts; after card 3 a 4th card (NS-14) or the round's end."""
    solo = state["solo"]
    slot = solo["slot"]
    rival = state["players"][ENEMY]
    if slot in (1, 2):
        solo["next"] = "player"
    elif slot == 3 and rival["nomads"] > 0:
        solo["slot"] = 4
        solo["next"] = "card"
    else:
        if slot == 4 and rival["nomads"] > 0:
            rival["nomads"] -= 1
            state["nomad_supply"] += 1
            events.append(Event(text="1 Nomad of the Enemy's Courtyard goes back to the supply (NS-14)"))
        solo["next"] = "end_round"
    return False


def step_player(state: HeroesState, board: Board, events: list[Event]) -> bool:
    """The player's action 1 or 2 (spec 1.12: Enemy card, your action, ...)."""
    solo = state["solo"]
    state["phase"] = "action"
    state["pending"] = None
    state["turn"] = {"seat": PLAYER, "lap": solo["slot"], "order": [PLAYER]}
    solo["slot"] += 1
    solo["next"] = "card"
    return True


def step_end_round(state: HeroesState, board: Board, events: list[Event]) -> bool:
    """Collection, the Enemy's discards, Round End, then the end or the next round."""
    solo = state["solo"]
    state["phase"] = "enemy"
    collect(state, board, events)
    if is_full(state):
        spells.collection_draw(state, events)
        if spells.open_discard(state, [PLAYER], {"kind": "collection"}):
            solo["next"] = "close_round"  # after the player's discard (``Enemy.collection_over``)
            return True
    return step_close_round(state, board, events)


def step_close_round(state: HeroesState, board: Board, events: list[Event]) -> bool:
    """The Enemy's discards, Round End, then the end or the next round."""
    solo = state["solo"]
    state["phase"] = "enemy"
    solo["discard"].extend(card for card in solo["slots"] if card is not None)
    solo["slots"] = [None, None, None, None]
    round_end(state, events)
    rival = state["players"][ENEMY]
    rival["bar"] = {slot: "disabled" for slot in rival["bar"]}
    rival["tokens"] = 0
    why = game_over_after_round(state)
    if why:
        finish(state, why, events)
        return True
    state["round"] += 1
    events.append(said("Round {round} begins", round=number(state["round"])).event())
    solo["next"] = "round"
    return False


STEPS = {"round": step_round, "card": step_card, "resolve": step_resolve, "gain": step_gain,
         "after": step_after, "player": step_player, "end_round": step_end_round, "close_round": step_close_round}


# -- the solo Nomads (NS-4..NS-12) -------------------------------------------------------------------

def round_arrow(state: HeroesState) -> str:
    """This round's arrow (the first Enemy card's); raises ``ValueError`` before that card is drawn."""
    arrow = state["solo"]["arrow"]
    if arrow is None:
        raise ValueError("no Enemy card has been drawn this round")
    return arrow


def nomad_targets(state: HeroesState, board: Board, origin: str) -> list[str]:
    """A-S4: where a board Nomad may be moved: a land neighbour (ferries count) with no Tower, no
    standing capital and no Nomad; units are allowed (NS-7)."""
    return sorted(region for region in board.adjacent[origin]
                  if state["regions"][region]["tower"] is None and capital_owner(state, region) is None
                  and not state["regions"][region]["nomad"])


def nomad_moves(state: HeroesState, board: Board) -> list[MoveNomad]:
    """NS-4/NS-5: each board Nomad's move along this round's arrow; if none has one, each Nomad's
    first legal region clockwise from the arrow; ``[]`` when no Nomad can move (NS-6)."""
    arrow = round_arrow(state)
    origins = sorted(region for region, entry in state["regions"].items() if entry["nomad"])
    ahead = []
    for origin in origins:
        target = compass.in_direction(board, origin, nomad_targets(state, board, origin), arrow)
        if target:
            ahead.append(MoveNomad(origin=origin, destination=target))
    if ahead:
        return ahead
    around = []
    for origin in origins:
        ordered = compass.clockwise_order(board, origin, nomad_targets(state, board, origin), arrow)
        if ordered:
            around.append(MoveNomad(origin=origin, destination=ordered[0]))
    return around


def move_nomad(state: HeroesState, board: Board, move: MoveNomad, events: list[Event]) -> None:
    """NS-4/NS-5: move the Nomad; into units it fights them (``nomad_battle``); then the Enemy
    resolves its first card (NS-13)."""
    legal = nomad_moves(state, board)
    if move not in legal:
        arrow = state["solo"]["arrow"]
        raise IllegalMove("NS-4/NS-5: the Nomad moves one region towards {arrow} (or the first legal way "
                          "clockwise when no Nomad can): {moves}", arrow=arrow, moves=", ".join(map(str, legal)))
    state["regions"][move.origin]["nomad"] = False
    state["regions"][move.destination]["nomad"] = True
    battles.note_region(state, move.origin)
    battles.note_region(state, move.destination)
    arrow = round_arrow(state)
    ahead = compass.in_direction(board, move.origin, nomad_targets(state, board, move.origin) + [move.destination],
                                 arrow) == move.destination
    rule = "NS-4: arrow {arrow}" if ahead else "NS-5: the first legal way clockwise"
    events.append(said(f"{{seat0}} moves the Nomad from {{origin}} to {{destination}} ({rule})", origin=region_arg(move.origin),
                       destination=region_arg(move.destination), **({"arrow": words(arrow)} if ahead else {})).event())
    holders = occupants(state, move.destination)
    if holders and nomad_battle(state, board, holders[0], move.destination, events):
        return
    run(state, board, events)


def nomad_battle(state: HeroesState, board: Board, seat: int, region: str, events: list[Event]) -> bool:
    """NS-7..NS-12: the army in ``region`` wins only with strength strictly greater than ``N``
    (A-S3: the Nomad wins ties); nobody gains VP for starting it.  Returns whether the player
    must now choose its casualties (phase ``casualties``)."""
    strength = natural = natural_strength(units_at(state, region, seat))
    if seat == PLAYER:  # NB-1 / NS-8: the player's faction and Hero bonuses count (full edition; the Nomad attacks it)
        strength += strength_bonuses(state, seat, region, "defender", units_at(state, region, seat)["hero"] > 0,
                                     board.regions[region].terrain)
    count = board_nomads(state)
    who = "{seat0}" if seat == PLAYER else "the Enemy"
    events.append(said(f"A Nomad battle on {{region}}: nobody gains VP for starting it (NS-7); {who} has strength {{strength}} "
                       "against N = {count} (NS-8)", region=region_arg(region), strength=number(strength), count=number(count)).event())
    if strength > count:
        state["regions"][region]["nomad"] = False
        state["players"][seat]["nomads"] += 1
        state["players"][seat]["score"] += HOUSE.vp("start_battle")
        rule = "NS-10" if seat == PLAYER else "NS-11"
        events.append(said(f"{who[0].upper()}{who[1:]} wins, gains {{vp}} VP and captures the Nomad ({rule})",
                           vp=number(HOUSE.vp("start_battle"))).event())
        return False
    damage = math.ceil(natural / 2)
    if seat == ENEMY:
        events.append(Event(text="The Nomad wins and stays (NS-12)"))
        enemy.take_enemy_losses(state, region, damage, events)
        return False
    events.append(said("The Nomad wins and stays; {seat0} takes {damage} damage and retreats (NS-9)", damage=number(damage)).event())
    fight: Battle = {"region": region, "attacker": PLAYER, "defender": PLAYER, "capital": False, "then": "solo",
                     "nomad": True, "cards": None}
    options = battles.casualty_options(state, fight, PLAYER, damage)
    state["phase"] = "casualties"
    state["pending"] = {"battle": fight, "seat": PLAYER, "damage": damage,
                        "retreat": sorted({option.retreat for option in options if option.retreat})}
    if len(options) == 1:
        battles.take_casualties(state, options[0], events)
        state["phase"] = "enemy"
        return False
    return True


# -- the end -----------------------------------------------------------------------------------------

def enemy_breakdown(state: HeroesState) -> dict[str, int]:
    """The Enemy's VP by category (module docstring: no Hero VP, no C.C. level VP)."""
    parts = breakdown(state, ENEMY)
    parts["hero"] = 0
    parts["capital"] = 0
    return parts


def result(state: HeroesState) -> Result:
    """The solo result: the player's score and breakdown (spec 1.11), its place against the
    Enemy (1: more VP than the Enemy, a win; 2: equal or fewer VP, no win), and the Enemy's score
    and breakdown as the result's rival (``"The Enemy"``), so the table shows it beside the
    player's.  The reason, which says both scores too, is a template whose numbers are its
    arguments (``{mine}``, ``{theirs}``, the round limit's ``{limit}``), so the catalog holds one
    entry per verdict and ending, whatever the scores."""
    parts, enemy_parts = breakdown(state, PLAYER), enemy_breakdown(state)
    mine, theirs = sum(parts.values()), sum(enemy_parts.values())
    place = 1 if mine > theirs else 2  # a tie is no win: placed behind the Enemy
    end, finished = state["end"], finished_by(state)
    args = {"mine": number(mine), "theirs": number(theirs)}
    if finished == "last_standing":
        why = ("the Enemy destroyed the capital of {seat0}" if state["players"][PLAYER]["eliminated"]
               else "{seat0} destroyed the Enemy's capital")
    elif finished == "track":
        why = "the Enemy reached the end of its C.C. track; the round and one more were played"
    elif end is not None and finished in REASONS:  # eXpand or eXploit (a destroyed capital ends the game at once)
        why = REASONS[finished].format(who=log_name(state, end["by"])) + "; the round and one more were played"
    else:
        why = ROUND_LIMIT
        args.update(round_limit_args(state))
    verdict = "beats" if mine > theirs else "ties with" if mine == theirs else "loses to"
    reason = f"{{seat0}} {verdict} the Enemy, {{mine}} VP to {{theirs}}: {why}"
    return Result(scores=[mine], ranks=[place], breakdown=[parts], reason=reason, reason_args=args,
                  rivals=[Rival(name=ENEMY_NAME, score=theirs, breakdown=enemy_parts)])


# -- the Enemy as the player's rival -----------------------------------------------------------------

class Enemy:
    """The rival of a solo game (``rivals.Rivals``): the Enemy of spec 1.12, played by the rules
    inside ``apply`` right after the player move that hands it the turn."""

    def opening(self, state: HeroesState, events: list[Event]) -> None:
        """Round 1's first Enemy steps ran at setup (``new_game``): they are logged with the first move."""
        if state["solo"].get("opening"):
            events.extend(opening_line(stored, state["regions"]) for stored in state["solo"].pop("opening"))

    def nomad_placed(self, state: HeroesState, board: Board, events: list[Event]) -> None:
        """NS-2/NS-3 done: the Enemy draws its first card of the round (:func:`run`)."""
        run(state, board, events)

    def decision_over(self, state: HeroesState, board: Board, events: list[Event]) -> None:
        """The Enemy's round goes on (:func:`run`)."""
        state["pending"] = None
        run(state, board, events)

    def drawn_card(self, state: HeroesState, battle: Battle, side: Side, events: list[Event]) -> CardRecord:
        """The Enemy draws its battle card (``enemy.battle_card``)."""
        return enemy.battle_card(state, battle, side, events)

    def takes_losses(self, state: HeroesState, battle: Battle, seat: Seat, damage: int, events: list[Event]) -> bool:
        """The Enemy loses weakest first, with no choice (``enemy.take_enemy_losses``); the player chooses."""
        if seat != ENEMY:
            return False
        enemy.take_enemy_losses(state, battle["region"], damage, events)
        return True

    def collection_over(self, state: HeroesState, board: Board, events: list[Event]) -> None:
        """The player discarded down to its hand limit: the round ends (:func:`run`)."""
        state["pending"] = None
        run(state, board, events)

    def capital_destroyed(self, state: HeroesState, attacker: Seat, events: list[Event]) -> None:
        """No eXterminate: a destroyed capital ends the solo game at once (module docstring)."""

    def result(self, state: HeroesState) -> Result:
        """The player's score against the Enemy's (:func:`result`)."""
        return result(state)

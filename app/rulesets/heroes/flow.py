"""Who acts, what is legal, and the move dispatcher of Heroes (rounds and turns: ``rounds.py``).

On its turn a seat puts an Action Token on an open slot (phase ``action``); a Capital Action opens
the Follow window (phase ``follow``), a March taken with a token the Muster window (phase
``muster``); battles run their own phases (``tactics``, ``conscripts``, ``casualties``,
``battles.py``).

Decisions where the spec is open:

* ``pass`` is legal only when the seat has no legal action; the token is then placed nowhere.
* Followers decide clockwise from the leader (spec 2.2 [H]); only seats with an open matching
  slot, a Serf or captured Nomad in the Courtyard and at least one legal action are asked.
* Muster: once per token March (spec 1.7 [H]), into the other March slot, paid by a Courtyard
  Serf or captured Nomad; it opens after the token March's battle (if any) is over.
* The two March slots are interchangeable: the legal list offers the first open one.
* Eliminated seats are skipped everywhere; the game ends at once when one seat is left.
* Mercenary Nomads, NM-8 "fire at any time": ``fire_mercenary`` is offered to the holder
  whenever it is to act in phase ``action`` or ``follow``; the seat then acts again (the turn or
  the Follow decision goes on).  Firing is not a way to pass: ``pass`` stays legal only when no
  action is possible.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from app.rulesets.base import Event, IllegalMove, Seat, card
from app.rulesets.heroes import abilities, actions, battles, enemy, exploration, mercenaries, nomads, solo, spells, vessels
from app.rulesets.heroes.actions import MARCH_SLOTS, SLOT_OF, capital_slots, follow_moves, workers
from app.rulesets.heroes.board import Board, region_arg, region_name
from app.rulesets.heroes.phrases import Phrase, said, units
from app.rulesets.heroes.march import can_march, march_end, marches
from app.rulesets.heroes.moves import (
    AnyMove,
    Build, CapitalAction, Cast, Casualties, CombatSpell, Conscript, DiscardSpell, FireMercenary, Fly, Interrupt, March,
    MoveNomad, Pass, PlaceNomad, Sail, Scribe, Skip, Tactic, Tax,
)
from app.rulesets.heroes.pieces import (
    active_seats, add_units, capital_owner, clockwise_from, is_full, occupants, pending_step, take_units, turn_seat,
)
from app.rulesets.heroes.rivals import Setting
from app.rulesets.heroes.rounds import finish
from app.rulesets.heroes.scoring import check_objectives
from app.rulesets.heroes.state import HeroesState, Last, Pending, Then

# -- who acts, what is legal -----------------------------------------------------------------

def to_act(state: HeroesState) -> set[Seat]:
    """The seats that must act now (two during the secret tactic choice)."""
    phase = state["phase"]
    if phase == "over":
        return set()
    if phase == "nomad":
        return {state["first_player"]}
    if phase == "action":
        return {turn_seat(state)}
    pending = pending_step(state)
    if phase == "follow":
        return {pending["queue"][0]}
    if phase == "tactics":
        return {int(seat) for seat, chosen in pending["chosen"].items() if not chosen}
    if phase in ("interrupt", "combat_spell"):
        return {pending["queue"][0]}
    return {pending["seat"]}


def open_march_slot(state: HeroesState, seat: Seat) -> str | None:
    """The first open March slot of the seat, or ``None``."""
    bar = state["players"][seat]["bar"]
    return next((slot for slot in MARCH_SLOTS if bar[slot] is None), None)


def action_moves(state: HeroesState, board: Board, seat: Seat) -> list[AnyMove]:
    """Spec 1.6: one Action Token on an open slot; ``pass`` only if nothing is legal."""
    bar = state["players"][seat]["bar"]
    result: list[AnyMove] = []
    for capital_slot in capital_slots(state):
        if bar[capital_slot] is None:
            result.extend(actions.capital_actions(board, state, seat, capital_slot, "token"))
    slot = open_march_slot(state, seat)
    if slot:
        result.extend(marches(state, board, seat, slot, "token"))
    if is_full(state):
        result.extend(command_moves(state, board, seat, "token"))
    return result or [Pass()]


COMMAND_SLOTS = {"sail": "sea", "fly": "air"}
"""The full edition's vessel Command slots and the vessel each moves (Cast is the third)."""


def command_moves(state: HeroesState, board: Board, seat: Seat, worker: str) -> list[AnyMove]:
    """The full edition's Sail, Fly and Cast moves of the seat's open slots, paid by ``worker``."""
    bar = state["players"][seat]["bar"]
    result: list[AnyMove] = []
    for slot, kind in COMMAND_SLOTS.items():
        if bar[slot] is None:
            result.extend(vessels.moves(state, board, seat, kind, worker))
    if bar["cast"] is None:
        result.extend(spells.cast_moves(state, board, seat, worker))
    return result


def muster_moves(state: HeroesState, board: Board, seat: Seat) -> list[AnyMove]:
    """Spec 1.7 Muster: a March into the other open March slot, paid by a Serf or Nomad."""
    slot = open_march_slot(state, seat)
    result: list[AnyMove] = []
    for worker in workers(state, seat):
        if slot is not None:
            result.extend(marches(state, board, seat, slot, worker))
        if is_full(state):
            result.extend(mustered_commands(state, board, seat, worker))
    return result


def mustered_commands(state: HeroesState, board: Board, seat: Seat, worker: str) -> list[AnyMove]:
    """Sail, Fly and Cast as a Muster: the Serf leaves the Courtyard first (a Cast it pays is
    the same as with a token)."""
    if worker != "serf":
        return command_moves(state, board, seat, worker)
    player = state["players"][seat]
    take_units(state, player["capital"], seat, {"serf": 1})
    try:
        return command_moves(state, board, seat, worker)
    finally:
        add_units(state, player["capital"], seat, {"serf": 1})


def can_muster(state: HeroesState, board: Board, seat: Seat) -> bool:
    """Whether a Muster is possible now (without listing every March)."""
    slot = open_march_slot(state, seat)
    if slot is not None and any(can_march(state, board, seat, slot, worker) for worker in workers(state, seat)):
        return True
    return is_full(state) and any(mustered_commands(state, board, seat, worker) for worker in workers(state, seat))


def legal_moves(state: HeroesState, board: Board, seat: Seat) -> list[AnyMove]:
    """Every legal move of ``seat`` now (empty when it is not to act)."""
    if seat not in to_act(state):
        return []
    phase = state["phase"]
    if phase == "nomad":
        return [PlaceNomad(region=region) for region in nomads.placements(state, board)]
    if phase == "nomad_move":
        return list(solo.nomad_moves(state, board))
    if phase == "action":
        return [*action_moves(state, board, seat), *fire_moves(state, seat)]
    pending = pending_step(state)
    if phase == "follow":
        return [*follow_moves(state, board, seat, followed_slot(state)), Skip(), *fire_moves(state, seat)]
    if phase == "muster":
        return [*muster_moves(state, board, seat), Skip()]
    if phase == "tactics":
        return [*battles.tactic_options(state, pending["battle"], seat)]
    if phase == "conscripts":
        return [*battles.conscript_options(state, board, pending["battle"], seat), Skip()]
    if phase == "casualties":
        return [*battles.casualty_options(state, pending["battle"], seat, pending["damage"])]
    if phase == "discard":
        return [*spells.discard_moves(state, seat)]
    if phase == "interrupt":
        return [*spells.interrupt_moves(state, seat), Skip()]
    if phase == "combat_spell":
        return [*spells.combat_moves(state, pending["battle"], seat), Skip()]
    return []


def fire_moves(state: HeroesState, seat: Seat) -> list[AnyMove]:
    """NM-8: the holder of the Nomad Mercenary may fire it (in the phases ``legal_moves`` asks)."""
    return [FireMercenary()] if mercenaries.can_fire(state, seat) else []


def followed_slot(state: HeroesState) -> str:
    """The Action Bar slot of the action the Follow window is open for (phase ``follow``)."""
    slot = pending_step(state)["action"]["type"]
    if not isinstance(slot, str):
        raise ValueError(f"the followed action has no type: {slot!r}")
    return SLOT_OF.get(slot, slot)


# -- applying moves --------------------------------------------------------------------------

REGION_FIELDS = ("region", "origin", "destination", "retreat", "target")
"""The move fields that name a region (checked against the regions in play: solo has no South)."""
SLOT_WORDS = {"recruit": "Recruit", "build": "Build", "research": "Research", "tax": "Tax", "march_1": "March 1",
              "march_2": "March 2", "sail": "Sail", "fly": "Fly", "cast": "Cast"}
"""The Action Bar's slots as the board names them: a refusal names a slot in these words, msgids of
the game's catalog, so a reader is told it in their language (``AppError.message_in``)."""
PHASE_WORDS = {"nomad": "Placing a Nomad", "nomad_move": "Moving a Nomad (the Enemy's first card)",
               "action": "Action selection", "follow": "Following a Capital Action", "muster": "Mustering a second March",
               "tactics": "Battle: choosing tactic cards", "conscripts": "Battle: bringing in conscripts",
               "casualties": "Battle: the loser takes casualties", "discard": "Discarding down to the spell hand limit",
               "interrupt": "A spell is being cast: interrupt it?", "combat_spell": "Battle: Combat spells (defender first)"}
"""The phases as the board names them (the renderer's words, msgids of the catalog), for refusals."""


def kind_words(kind: str) -> str:
    """A move's type as the board names it: ``"place_nomad" -> "Place nomad"`` (a msgid of the catalog)."""
    return kind.replace("_", " ").capitalize()


def apply(state: HeroesState, setting: Setting, seat: Seat, move: AnyMove) -> list[Event]:
    """Play ``move`` on ``state`` in place (the caller copies) in ``setting`` (the map in play and
    the player's rivals); raises :class:`IllegalMove`."""
    phase = state["phase"]
    if phase == "over":
        raise IllegalMove("the game is over")
    if seat not in to_act(state):
        raise IllegalMove("it is not your turn", code="not_your_turn")
    fields = move.__dict__  # a move's fields (a missing one through ``getattr`` costs pydantic's ``__getattr__``)
    for name in REGION_FIELDS:
        region = fields.get(name)
        if region is not None and region not in state["regions"] and not (isinstance(move, Sail) and region in setting.board.seas):
            raise IllegalMove("there is no region {region} in this game", region=repr(region))
    events: list[Event] = []
    setting.rivals.opening(state, events)
    kind = getattr(move, "type", None)
    handler = HANDLERS.get((phase, str(kind)))
    if handler is None:
        raise IllegalMove("a {kind} move is not possible in the {phase} phase", kind=kind_words(str(kind)),
                          phase=PHASE_WORDS.get(phase, phase))
    last: Last = {"seat": seat, "type": str(kind), "regions": [], "slots": [], "battle": None}
    if not isinstance(move, Tactic):  # a tactic card stays secret until the reveal
        last["move"] = dict(move.__dict__)
        if isinstance(move, SPELL_MOVES):  # the spell's kind, not its copy: a reshuffle may deal that copy to a hand
            last["move"]["card"] = move.card.rpartition("-")[0]
    state["last"] = last
    handler(state, setting, seat, move, events)
    if is_full(state):
        abilities.sync_heroes(state)
    check_objectives(state, events)
    return events


SPELL_MOVES = (Scribe, DiscardSpell, Cast, Interrupt, CombatSpell)
"""The moves that name a spell card (``last.move`` keeps only the card's kind)."""


def last_move(state: HeroesState) -> Last:
    """What the move being applied touched (``apply`` sets it first)."""
    last = state["last"]
    if last is None:
        raise ValueError("no move is being applied")
    return last


def touch(state: HeroesState, *regions: str | None) -> None:
    """Note regions the move touched in ``last.regions`` (for the renderer's highlight)."""
    touched = last_move(state)["regions"]
    for region in regions:
        if region and region not in touched:
            touched.append(region)


def require(condition: bool, message: str, **params: Any) -> None:
    """Raise :class:`IllegalMove` with ``message`` unless ``condition``: a template whose
    ``{name}`` placeholders ``params`` fill, one msgid of the game's catalog (docs/i18n.md)."""
    if not condition:
        raise IllegalMove(message, **params)


def place_nomad(state: HeroesState, setting: Setting, seat: Seat, move: PlaceNomad, events: list[Event]) -> None:
    """NW-1..NW-9 (solo: NS-2/NS-3); then the round goes on (``rivals.nomad_placed``)."""
    require(move.region in nomads.placements(state, setting.board),
            "NW-2/NW-3/NW-8: a Nomad may not go on {region}", region=region_name(move.region))
    nomads.place(state, move.region, events)
    touch(state, move.region)
    state["phase"] = "action"
    setting.rivals.nomad_placed(state, setting.board, events)


def move_nomad(state: HeroesState, setting: Setting, seat: Seat, move: MoveNomad, events: list[Event]) -> None:
    """NS-4/NS-5 (solo): the Nomad move before the Enemy's first card is resolved."""
    solo.move_nomad(state, setting.board, move, events)


def end_turn(state: HeroesState, setting: Setting, events: list[Event]) -> None:
    """The player's turn or decision is over: the rivals go on (the next seat's turn, or in solo
    the Enemy's round)."""
    setting.rivals.decision_over(state, setting.board, events)


def take_action(state: HeroesState, setting: Setting, seat: Seat, move: CapitalAction, events: list[Event]) -> None:
    """An Action Token on a Capital slot: do it, then the Follow window opens."""
    require(move.worker == "token", "on your own turn the action is taken with an Action Token")
    slot = SLOT_OF[move.type]
    board = setting.board
    player = state["players"][seat]
    require(player["bar"][slot] is not None or slot in capital_slots(state), "spec 2.2: the {slot} slot is closed", slot=SLOT_WORDS.get(slot, slot))
    require(player["bar"][slot] is None, "spec 1.6: your {slot} slot is already filled this round", slot=SLOT_WORDS.get(slot, slot))
    require(move in actions.capital_actions(board, state, seat, slot, "token"), "spec 1.7: {move} is not possible now", move=str(move))
    player["bar"][slot] = "token"
    player["tokens"] -= 1
    last_move(state)["slots"].append([seat, slot])
    touch(state, getattr(move, "region", None))
    private: list[Event] = []
    events.append((Phrase(f"{{seat{seat}}} ") + actions.perform(board, state, seat, move, private)).event())
    events.extend(private)
    after_capital_action(state, board, seat, move, events)
    track_slot = actions.tax_slot(state, move.resource) if isinstance(move, Tax) else None
    queue = [other for other in clockwise_from(state, seat, include_start=False)
             if follow_moves(state, board, other, slot)]
    follow_window = {"leader": seat, "action": dict(move.__dict__), "queue": queue, "tax_slot": track_slot}
    if spells.open_discard(state, [seat], {"kind": "follow_open", "slot": slot, "window": follow_window}):
        return
    open_follow(state, setting, slot, follow_window, events)


def open_follow(state: HeroesState, setting: Setting, slot: str, window: dict[str, Any], events: list[Event]) -> None:
    """The Follow window of a Capital Action (its queue re-checked: a discard may come first),
    or, with nobody to follow, its close."""
    window["queue"] = [other for other in window["queue"] if follow_moves(state, setting.board, other, slot)]
    if window["queue"]:
        state["phase"] = "follow"
        state["pending"] = cast(Pending, window)  # the follow window's keys (``state.Pending``)
        return
    state["pending"] = None
    close_follow(state, setting, slot, events)


def after_capital_action(state: HeroesState, board: Board, seat: Seat, move: CapitalAction, events: list[Event]) -> None:
    """Full edition: a Tower reveals the adjacent land tokens of its continent (spec 1.7)."""
    if isinstance(move, Build) and move.what == "tower" and move.region:
        exploration.tower_reveals(state, board, seat, move.region, events)


def close_follow(state: HeroesState, setting: Setting, slot: str, events: list[Event]) -> None:
    """After the last follower: a Tax rotates the track once (spec 1.7 Tax FAQ); the turn ends."""
    if slot == "tax":
        actions.rotate_tax_track(state)
    end_turn(state, setting, events)


def follow(state: HeroesState, setting: Setting, seat: Seat, move: CapitalAction, events: list[Event]) -> None:
    """Spec 1.7 Follow / NC-1: a Serf or captured Nomad on the matching slot, then the action."""
    slot = followed_slot(state)
    require(SLOT_OF[move.type] == slot, "spec 1.7: only the {slot} action can be followed now", slot=SLOT_WORDS.get(slot, slot))
    require(move in follow_moves(state, setting.board, seat, slot), "spec 1.7 Follow: {move} is not possible now", move=str(move))
    place_worker(state, seat, slot, move.worker)
    touch(state, getattr(move, "region", None))
    what = "a Serf" if move.worker == "serf" else "a captured Nomad"
    private: list[Event] = []
    events.append((Phrase(f"{{seat{seat}}} follows the {slot.capitalize()} with {what}: ")
                   + actions.perform(setting.board, state, seat, move, private)).event())
    events.extend(private)
    after_capital_action(state, setting.board, seat, move, events)
    window = pending_step(state)
    if spells.open_discard(state, [seat], {"kind": "next_follower", "window": dict(window)}):
        return
    next_follower(state, setting, events)


def place_worker(state: HeroesState, seat: Seat, slot: str, worker: str) -> None:
    """A Serf leaves the Courtyard, or a captured Nomad is used, to fill ``slot``."""
    player = state["players"][seat]
    if worker == "serf":
        take_units(state, player["capital"], seat, {"serf": 1})
    else:
        player["nomads"] -= 1
    player["bar"][slot] = worker
    last_move(state)["slots"].append([seat, slot])


def skip_follow(state: HeroesState, setting: Setting, seat: Seat, move: Skip, events: list[Event]) -> None:
    """A seat declines to follow; its slot stays open."""
    events.append(Event(text=f"{{seat{seat}}} does not follow"))
    next_follower(state, setting, events)


def next_follower(state: HeroesState, setting: Setting, events: list[Event]) -> None:
    """The next follower decides, or the Follow window closes."""
    queue = pending_step(state)["queue"]
    queue.pop(0)
    if not queue:
        close_follow(state, setting, followed_slot(state), events)


def take_march(state: HeroesState, setting: Setting, seat: Seat, move: March, events: list[Event]) -> None:
    """A March with an Action Token (then the Muster window)."""
    require(move.worker == "token", "on your own turn the March is taken with an Action Token")
    require(move.slot == open_march_slot(state, seat), "spec 1.7: march into your first open March slot")
    end = march_end(state, setting.board, seat, move)
    if end is None:
        raise IllegalMove("spec 1.7 March: {move} is not possible", move=str(move))
    player = state["players"][seat]
    player["bar"][move.slot] = "token"
    player["tokens"] -= 1
    last_move(state)["slots"].append([seat, move.slot])
    do_march(state, setting, seat, move, end, "muster", events)  # the bar and tokens do not change ``end``


def muster(state: HeroesState, setting: Setting, seat: Seat, move: March, events: list[Event]) -> None:
    """Spec 1.7 Muster: once, into the other March slot, with a Serf or captured Nomad."""
    require(move.worker in workers(state, seat), "spec 1.7 Muster: a Courtyard Serf or captured Nomad pays it")
    require(move.slot == open_march_slot(state, seat), "spec 1.7 Muster: the other March slot must be open")
    place_worker(state, seat, move.slot, move.worker)
    end = march_end(state, setting.board, seat, move)
    if end is None:
        raise IllegalMove("spec 1.7 March: {move} is not possible", move=str(move))
    do_march(state, setting, seat, move, end, "end_turn", events)


def do_march(state: HeroesState, setting: Setting, seat: Seat, move: March, end: str, then: Then,
             events: list[Event]) -> None:
    """Move the army; ``end`` is how the march ends (``march.march_end``, checked by the caller): a
    Nomad region means capture (NB-1..NB-6), a hostile one a battle."""
    take_units(state, move.origin, seat, move.units)
    add_units(state, move.destination, seat, move.units)
    touch(state, move.origin, move.destination)
    events.append((said(f"{{seat{seat}}} marches {{units}} from {{origin}} to {{destination}}", units=units(move.units),
                        origin=region_arg(move.origin), destination=region_arg(move.destination))
                   + ("" if move.worker == "token" else " (Muster)")).event())
    arrive(state, setting, seat, move.destination, end, then, events)


def arrive(state: HeroesState, setting: Setting, seat: Seat, region: str, end: str, then: Then,
           events: list[Event]) -> None:
    """An army or vessel ended its move in ``region``: a Nomad is captured (NB-1..NB-6), a hostile
    region fought for, else the move is over (then ``after_march``)."""
    if end == "nomad":
        nomads.capture(state, seat, region, events)
    elif end == "battle":
        owner = capital_owner(state, region)
        others = [other for other in occupants(state, region) if other != seat]
        others += [other for other in vessels.vessels_at(state, region) if other != seat]
        defender = others[0] if others else (owner if owner is not None else state["regions"][region]["tower"])
        if defender is None:
            raise ValueError(f"a move into {region} ends in a battle against nobody")
        battles.start(state, seat, defender, region, owner == defender, then, events)
        return
    after_march(state, setting, seat, then, events, region)


def after_march(state: HeroesState, setting: Setting, seat: Seat, then: Then, events: list[Event],
                region: str | None = None) -> None:
    """The move ended in ``region``: it is explored (full edition, if the seat stands there: a
    lost battle explores nothing); then the Muster window after a token Command Action (if a
    Muster is possible), else the end of the turn."""
    if region is not None and (seat in occupants(state, region) or seat in vessels.vessels_at(state, region)):
        exploration.explore(state, setting.board, seat, region, events)
    if len(active_seats(state)) < 2:
        finish(state, "last_standing", events)
        return
    if then == "muster" and can_muster(state, setting.board, seat):
        state["phase"] = "muster"
        state["pending"] = {"seat": seat}
        return
    end_turn(state, setting, events)


# -- the full edition's Command Actions: Sail, Fly, Cast ----------------------------------------

def take_command(state: HeroesState, setting: Setting, seat: Seat, move: Sail | Fly | Cast, events: list[Event]) -> None:
    """Sail, Fly or Cast with an Action Token (then the Muster window)."""
    require(move.worker == "token", "on your own turn the action is taken with an Action Token")
    require(move in command_moves(state, setting.board, seat, "token"), "spec 1.7: {move} is not possible now", move=str(move))
    player = state["players"][seat]
    player["bar"][move.type] = "token"
    player["tokens"] -= 1
    last_move(state)["slots"].append([seat, move.type])
    command(state, setting, seat, move, "muster", events)


def muster_command(state: HeroesState, setting: Setting, seat: Seat, move: Sail | Fly | Cast,
                   events: list[Event]) -> None:
    """Spec 1.7 Muster (full edition): Sail, Fly or Cast into its open slot, with a Serf or
    captured Nomad."""
    require(move.worker in workers(state, seat), "spec 1.7 Muster: a Courtyard Serf or captured Nomad pays it")
    require(move in mustered_commands(state, setting.board, seat, move.worker), "spec 1.7 Muster: {move} is not possible now", move=str(move))
    place_worker(state, seat, move.type, move.worker)
    command(state, setting, seat, move, "end_turn", events)


def command(state: HeroesState, setting: Setting, seat: Seat, move: Sail | Fly | Cast, then: Then,
            events: list[Event]) -> None:
    """Do a legal Sail, Fly or Cast (its slot is filled already)."""
    if isinstance(move, Cast):
        record = spells.begin_cast(state, seat, move, events)
        record["then"] = then
        touch(state, move.target)
        open_interrupts(state, setting, record, events)
        return
    end = vessels.move_end(state, setting.board, seat, move)
    origin = vessels.carry(state, seat, move)
    touch(state, origin if origin in state["regions"] else None, move.destination if move.destination in state["regions"] else None)
    verb = "sails" if isinstance(move, Sail) else "flies"
    cargo = said(" with {units}", units=units(move.units)) if any(move.units.values()) else Phrase("")
    events.append((said(f"{{seat{seat}}} {verb} from {{origin}} to {{destination}}", origin=region_arg(origin),
                        destination=region_arg(move.destination)) + cargo
                   + ("" if move.worker == "token" else " (Muster)")).event())
    if move.destination not in state["regions"]:  # at sea: a sea token, no battle
        exploration.explore(state, setting.board, seat, move.destination, events)
        after_march(state, setting, seat, then, events)
        return
    arrive(state, setting, seat, move.destination, end, then, events)


def open_interrupts(state: HeroesState, setting: Setting, record: dict[str, Any], events: list[Event]) -> None:
    """Spec 1.7 INTERRUPT: the seats that may answer the spell decide in turn; with none, it
    resolves at once."""
    queue = spells.interrupters(state, record["caster"])
    if queue:
        state["phase"] = "interrupt"
        state["pending"] = {"spell": record, "queue": queue}
        return
    finish_cast(state, setting, record, events)


def finish_cast(state: HeroesState, setting: Setting, record: dict[str, Any], events: list[Event],
                cancelled: bool = False) -> None:
    """The spell resolves (unless cancelled); then what follows the cast."""
    state["phase"] = "action"
    state["pending"] = None
    if cancelled:
        events.append(said("The {spell} is cancelled", spell=card(record["name"])).event())
    elif record.get("enemy_hero"):
        touch(state, *enemy.enemy_spell_effect(state, setting.board, record, events))
    else:
        touch(state, *spells.resolve_cast(state, setting.board, record, events))
    if record["then"] == "solo":
        setting.rivals.decision_over(state, setting.board, events)
        return
    after_march(state, setting, record["caster"], record["then"], events)


def answer_spell(state: HeroesState, setting: Setting, seat: Seat, move: Interrupt | Skip, events: list[Event]) -> None:
    """An Interrupt cancels the spell being cast; a ``skip`` passes the decision on."""
    pending = spells.spell_pending(state)
    record = pending["spell"]
    if isinstance(move, Interrupt):
        require(move in spells.interrupt_moves(state, seat), "spec 1.7: {move} is not possible now", move=str(move))
        spells.interrupt(state, seat, move, events)
        finish_cast(state, setting, record, events, cancelled=True)
        return
    events.append(Event(text=f"{{seat{seat}}} lets the spell be"))
    pending["queue"].pop(0)
    if not pending["queue"]:
        finish_cast(state, setting, record, events)


def discard_spell(state: HeroesState, setting: Setting, seat: Seat, move: DiscardSpell, events: list[Event]) -> None:
    """Over the hand limit: one card to the discard; when every seat is within its limit, the
    game goes on where it stopped (``resume``)."""
    require(move in spells.discard_moves(state, seat), "{move} is not a card of your hand", move=str(move))
    spells.discard(state, seat, move, events)
    if spells.next_discard(state):
        return
    resume = pending_step(state)["resume"]
    state["pending"] = None
    kind = resume["kind"]
    if kind == "follow_open":
        open_follow(state, setting, resume["slot"], resume["window"], events)
    elif kind == "next_follower":
        state["phase"] = "follow"
        state["pending"] = resume["window"]
        next_follower(state, setting, events)
    else:
        setting.rivals.collection_over(state, setting.board, events)


def combat_spell(state: HeroesState, setting: Setting, seat: Seat, move: CombatSpell | Skip, events: list[Event]) -> None:
    """Spec 1.8.2: a Combat spell of this side, or none; then the other side, then the tactic cards."""
    pending = pending_step(state)
    battle = pending["battle"]
    if isinstance(move, CombatSpell):
        require(move in spells.combat_moves(state, battle, seat), "spec 1.8.2: {move} is not possible now", move=str(move))
        spells.cast_combat(state, battle, seat, move, events)
    else:
        events.append(Event(text=f"{{seat{seat}}} casts no Combat spell"))
    pending["queue"].pop(0)
    pending["queue"] = [other for other in pending["queue"] if spells.combat_moves(state, battle, other)]
    if not pending["queue"]:
        del pending["queue"]
        state["phase"] = "tactics"


def skip_muster(state: HeroesState, setting: Setting, seat: Seat, move: Skip, events: list[Event]) -> None:
    """The active seat declines to muster; its turn ends."""
    events.append(Event(text=f"{{seat{seat}}} does not muster"))
    end_turn(state, setting, events)


def pass_turn(state: HeroesState, setting: Setting, seat: Seat, move: Pass, events: list[Event]) -> None:
    """[D] With no legal action the token is placed nowhere and the turn ends."""
    require(action_moves(state, setting.board, seat) == [Pass()], "pass only when no action is possible")
    state["players"][seat]["tokens"] -= 1
    events.append(Event(text=f"{{seat{seat}}} cannot act and passes"))
    end_turn(state, setting, events)


def fire_mercenary(state: HeroesState, setting: Setting, seat: Seat, move: FireMercenary, events: list[Event]) -> None:
    """NM-8: the card and every living figure go back to the supply; the seat acts again."""
    require(mercenaries.can_fire(state, seat), "NM-8: only the holder of the Nomad Mercenary can fire it")
    touch(state, *mercenaries.fire(state, seat, events))


def choose_tactic(state: HeroesState, setting: Setting, seat: Seat, move: Tactic, events: list[Event]) -> None:
    """Spec 1.8.3: the secret choice; the reveal follows when both sides have chosen."""
    battle = pending_step(state)["battle"]
    require(move in battles.tactic_options(state, battle, seat) or battles.is_void_choice(state, battle, seat, move),
            "spec 1.8.3-1.8.4: {move} is not a legal choice (pay exactly, if you can you must)", move=str(move))
    if battles.choose(state, seat, move, events):
        battles.reveal(state, setting.rivals, events)
        state["pending"] = {"battle": battle, "queue": battles.conscript_queue(battle)}
        advance_battle(state, setting, events)


def advance_battle(state: HeroesState, setting: Setting, events: list[Event]) -> None:
    """Conscripts in order (defender first), then the result."""
    pending = pending_step(state)
    battle = pending["battle"]
    while pending["queue"]:
        seat = pending["queue"][0]
        if battles.conscript_options(state, setting.board, battle, seat):
            state["phase"] = "conscripts"
            pending["seat"] = seat
            return
        pending["queue"].pop(0)
    battles.resolve(state, setting.rivals, events)
    if state["pending"] is None:
        after_march(state, setting, battle["attacker"], battle["then"], events, battle["region"])


def conscript(state: HeroesState, setting: Setting, seat: Seat, move: Conscript | Skip, events: list[Event]) -> None:
    """House Conscripts: bring units in, or ``skip``."""
    pending = pending_step(state)
    if isinstance(move, Conscript):
        require(move in battles.conscript_options(state, setting.board, pending["battle"], seat),
                "Conscripts: {move} is not possible", move=str(move))
        battles.conscript(state, pending["battle"], seat, move, events)
        touch(state, move.origin, pending["battle"]["region"])
    else:
        events.append(Event(text=f"{{seat{seat}}} conscripts nobody"))
    pending["queue"].pop(0)
    advance_battle(state, setting, events)


def casualties(state: HeroesState, setting: Setting, seat: Seat, move: Casualties, events: list[Event]) -> None:
    """Spec 1.8.5: the loser's losses and retreat; then the turn goes on."""
    pending = pending_step(state)
    battle = pending["battle"]
    require(move in battles.casualty_options(state, battle, seat, pending["damage"]),
            "spec 1.8.5: {move} does not take the damage of {damage} as the rules say", move=str(move), damage=pending["damage"])
    battles.take_casualties(state, move, events)
    after_march(state, setting, battle["attacker"], battle["then"], events, battle["region"])


Handler = Callable[[HeroesState, Setting, Seat, Any, list[Event]], None]
"""A move's handler.  Its move parameter is ``Any`` because the table below pairs each (phase,
``type``) with the handler of that one move class, which a dict's type cannot say; ``apply`` passes
the move whose ``type`` is the key's."""

HANDLERS: dict[tuple[str, str], Handler] = {
    ("nomad", "place_nomad"): place_nomad,
    ("nomad_move", "move_nomad"): move_nomad,
    ("action", "recruit"): take_action,
    ("action", "build"): take_action,
    ("action", "tax"): take_action,
    ("action", "march"): take_march,
    ("action", "pass"): pass_turn,
    ("action", "fire_mercenary"): fire_mercenary,
    ("follow", "recruit"): follow,
    ("follow", "build"): follow,
    ("follow", "tax"): follow,
    ("follow", "skip"): skip_follow,
    ("follow", "fire_mercenary"): fire_mercenary,
    ("muster", "march"): muster,
    ("muster", "skip"): skip_muster,
    ("tactics", "tactic"): choose_tactic,
    ("conscripts", "conscript"): conscript,
    ("conscripts", "skip"): conscript,
    ("casualties", "casualties"): casualties,
    ("action", "research"): take_action,
    ("action", "scribe"): take_action,
    ("follow", "research"): follow,
    ("follow", "scribe"): follow,
    ("action", "sail"): take_command,
    ("action", "fly"): take_command,
    ("action", "cast"): take_command,
    ("muster", "sail"): muster_command,
    ("muster", "fly"): muster_command,
    ("muster", "cast"): muster_command,
    ("discard", "discard_spell"): discard_spell,
    ("interrupt", "interrupt"): answer_spell,
    ("interrupt", "skip"): answer_spell,
    ("combat_spell", "combat_spell"): combat_spell,
    ("combat_spell", "skip"): combat_spell,
}

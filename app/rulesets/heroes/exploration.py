"""Exploration tokens and eXplore (full edition; spec 1.2, 1.11 [K]; house tokens
``data/exploration.json``).

Known [K]: face-down tokens lie on the land and sea regions (not capitals) from setup; a token is
revealed and resolved when a moving army or vessel ends its move in its region; building a Tower
reveals the land tokens of the adjacent land regions on the same continent; some effects cost a
Unit (an empty Air Vessel exploring such a token is itself lost); eXplore is met as soon as every
land token has been revealed.  A Nomad placement never reveals a token (NW-7), nor does any move
of a Nomad.

Decisions where the sources are silent (also in ``reference.md``, "Full edition"):

* Setup puts one token, drawn at random from the set of that kind, on every land region but the
  capitals and on every sea region of the map in play; tokens left over stay out of the game.
* A move that ends in a battle explores only if the mover wins and stands there afterwards; a
  Nomad capture explores (NB-6).
* The tokens a Tower reveals are resolved by the builder, with no army: a token that costs a Unit
  costs nothing then.
* A "spell" token draws one spell into the hand only while the hand has room; otherwise the card
  goes face up to the discard (no discard decision in the middle of a move).
* The solo Enemy never explores: its moves leave the tokens face down.
"""

from __future__ import annotations

from app.rulesets.base import Event, Rng, Seat, amount, card
from app.rulesets.heroes.board import Board, region_arg
from app.rulesets.heroes.catalogue import of

from app.rulesets.heroes.pieces import destroy_units, gain, is_full, log_name, units_at
from app.rulesets.heroes.state import HeroesState

LOSS_ORDER = ("serf", "warrior", "mercenary", "hero")
"""Who a token that costs a Unit takes from the exploring army: the weakest first."""


def lay_out(state: HeroesState, board: Board, rng: Rng) -> None:
    """Setup: a random token of the right kind face down on every non-capital land region and
    every sea region (module docstring)."""
    land = of(state).tokens("land")
    sea = of(state).tokens("sea")
    rng.shuffle(land)
    rng.shuffle(sea)
    places = [region for region in board.land if not board.is_capital_region(region)]
    tokens = dict(zip(places, land))
    tokens.update(zip(board.seas, sea))
    state["tokens"] = dict(sorted(tokens.items()))
    state["revealed"] = {}


def explore(state: HeroesState, board: Board, seat: Seat, region: str, events: list[Event],
            army: bool = True) -> None:
    """Reveal and resolve the face-down token of ``region`` for ``seat`` (nothing if none, in the
    core edition, or for the solo Enemy); ``army``: an army or vessel explores (a Unit-costing
    token hits it), else a Tower revealed it."""
    tokens = state.get("tokens")
    if not is_full(state) or not tokens or region not in tokens or state["players"][seat].get("enemy"):
        return
    token = tokens.pop(region)
    state["revealed"][region] = token
    entry = of(state).token(token)
    effect = entry["effect"]
    player = state["players"][seat]
    who = log_name(state, seat, start=True)
    text = f"{who} reveals {{token}} on {{where}}"
    args = {"token": card(entry["name"]), "where": region_arg(region)}
    kind = effect["kind"]
    if kind == "resource":
        resource = board.regions[region].resource if region in board.regions else None
        if resource:
            text += ": +{gained}"
            args["gained"] = amount(gain(state, seat, resource, effect["amount"]), resource.capitalize())
        else:
            text += ": nothing to gather here"
    elif kind == "any_resource":
        text += ": +{gained}"
        args["gained"] = amount(gain(state, seat, effect["resource"], effect["amount"]), effect["resource"].capitalize())
    elif kind == "vp":
        player["score"] += effect["amount"]
        text += ": +{vp} VP"
        args["vp"] = amount(effect["amount"])
    elif kind == "spell":
        from app.rulesets.heroes.spells import draw, hand_limit
        drawn = draw(state, 1)
        if drawn and len(player["spells"]) < hand_limit(state, seat):
            player["spells"].extend(drawn)
            text += ": a spell joins the hand"
            events.append(Event(text="You find {spell}", args={"spell": card(of(state).spell(drawn[0]).name)}, seats=(seat,)))
        elif drawn:
            state["spell_discard"].extend(drawn)
            text += ": the hand is full, {spell} is discarded"
            args["spell"] = card(of(state).spell(drawn[0]).name)
    elif kind == "lose_unit":
        text += ": " + lose_unit(state, seat, region) if army else ": no army is there to pay it"
    else:
        text += ": nothing"
    events.append(Event(text=text, args=args))


def lose_unit(state: HeroesState, seat: Seat, region: str) -> str:
    """The weakest unit of the seat's army in ``region`` is destroyed; with none, its vessel there
    (an empty vessel explored)."""
    counts = units_at(state, region, seat)
    for kind in LOSS_ORDER:
        if counts.get(kind, 0):
            destroy_units(state, region, seat, {kind: 1})
            if kind == "mercenary":
                from app.rulesets.heroes import mercenaries
                mercenaries.lose(state, 1, [])
            return f"a {HOUSE_NAMES[kind]} is lost"
    from app.rulesets.heroes.vessels import destroy
    lost = destroy(state, seat, region)
    return f"the {' and '.join(lost)} vessel is lost" if lost else "nothing is lost"


HOUSE_NAMES = {"serf": "Serf", "warrior": "Warrior", "hero": "Hero", "mercenary": "Nomad Mercenary"}


def tower_reveals(state: HeroesState, board: Board, seat: Seat, region: str, events: list[Event]) -> None:
    """Spec 1.7 Build a Tower [K]: the land tokens of the adjacent land regions on the same
    continent are revealed (resolved by the builder, no army)."""
    continent = board.regions[region].continent
    for neighbour in sorted(board.adjacent[region]):
        if board.regions[neighbour].continent == continent:
            explore(state, board, seat, neighbour, events, army=False)


def land_left(state: HeroesState) -> int:
    """Face-down land tokens still on the board (eXplore: none)."""
    return sum(1 for region in state.get("tokens", {}) if not region.startswith("sea_"))


def explore_met(state: HeroesState) -> bool:
    """Spec 1.11 eXplore [K]: every land token has been revealed."""
    return is_full(state) and "tokens" in state and land_left(state) == 0



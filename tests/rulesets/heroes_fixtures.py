"""Positions for the Heroes tests, built from a fresh setup and edited directly.

``position()`` gives a game at the start of round 1's Action Selection with seat 0 to act (the
host holds the first-player token), the Nomad placement skipped and, unless ``courtyards`` is
true, every Courtyard empty, so each test puts exactly the pieces it talks about.
Seats: with 2 players seat 0 is N and seat 1 is S; with 3 N, E, W; with 4 N, E, S, W.
"""

from __future__ import annotations

from typing import Any

from app.rulesets.base import Event
from app.rulesets.heroes.rules import Heroes

class CoreHeroes(Heroes):
    """The ruleset with ``edition: "core"`` as the default of its options: the rules tests written
    for the reduced game keep testing it (the full edition's tests name ``edition: "full"``)."""

    def parse_options(self, raw: dict[str, Any] | None) -> Any:
        return super().parse_options({"edition": "core", **(raw or {})})


RULES = CoreHeroes()
FULL = Heroes()
"""The ruleset as a new table gets it: the full edition by default."""
A, B, C, D = 0, 1, 2, 3


def position(n_players: int = 2, nomads: str = "wandering", courtyards: bool = False, seed: int = 1,
             tax_track: dict[str, str] | None = None, **options: Any) -> dict[str, Any]:
    """A state in phase ``action``, round 1, seat 0 to act, lap 1 (emptied Courtyards go back to
    supply: 12 Serfs, 5 Warriors, 1 Hero, 3 Towers each)."""
    state = RULES.setup(n_players, RULES.parse_options({"nomads": nomads, "first_player": "host", **options}), seed)
    state["phase"] = "action"
    state["pending"] = None
    if not courtyards:
        for entry in state["regions"].values():
            for seat, counts in entry["units"].items():
                for kind, count in counts.items():
                    state["players"][int(seat)]["supply"][kind] += count
            entry["units"] = {}
    state["tax_track"] = tax_track or {"4": "ore", "3": "mana", "2": "food"}
    return state


def put(state: dict[str, Any], region: str, seat: int, serf: int = 0, warrior: int = 0, hero: int = 0) -> None:
    """Set ``seat``'s units in ``region`` (replacing what was there); pieces come out of supply."""
    old = state["regions"][region]["units"].pop(str(seat), {"serf": 0, "warrior": 0, "hero": 0})
    supply = state["players"][seat]["supply"]
    for kind, count in (("serf", serf), ("warrior", warrior), ("hero", hero)):
        supply[kind] += old[kind] - count
    if serf or warrior or hero:
        state["regions"][region]["units"][str(seat)] = {"serf": serf, "warrior": warrior, "hero": hero}


def units(state: dict[str, Any], region: str, seat: int) -> dict[str, int]:
    return state["regions"][region]["units"].get(str(seat), {"serf": 0, "warrior": 0, "hero": 0})


def resources(state: dict[str, Any], seat: int, ore: int = 0, mana: int = 0, food: int = 0) -> None:
    state["players"][seat]["resources"] = {"ore": ore, "mana": mana, "food": food}


def play(state: dict[str, Any], *steps: tuple[int, Any]) -> tuple[dict[str, Any], list[Event]]:
    """Apply ``(seat, move)`` steps in order; returns the final state and all events."""
    events: list[Event] = []
    for seat, move in steps:
        state, new = RULES.apply(state, seat, move)
        events.extend(new)
    return state, events


PLAYERS_AS_PLACEHOLDERS = tuple(f"{{seat{seat}}}" for seat in range(5))


def texts(events: list[Event]) -> list[str]:
    """The events' sentences with their arguments in words, players left as ``{seatN}``."""
    return [event.render(PLAYERS_AS_PLACEHOLDERS) for event in events]


def legal_types(state: dict[str, Any], seat: int) -> set[str]:
    return {move.type for move in RULES.legal_moves(state, seat)}


# -- solo (spec 1.12) --------------------------------------------------------------------------

ENEMY = 1
"""The solo Enemy's index in ``state["players"]`` (no seat of the table)."""


def solo_position(nomads: str = "wandering", seed: int = 1, lap: int = 1, deck: list[int] | None = None,
                  tax_track: dict[str, str] | None = None, rules: Heroes | None = None) -> dict[str, Any]:
    """A solo game (N against the Enemy on E, W free) at the player's action ``lap`` of round 1:
    the player's Courtyard empty (pieces back in supply), the Enemy's 3 Heroes in its Courtyard
    and nothing else, no Nomad on the board (10 in supply), resources 0 for the player and 3/3/3
    for the Enemy, card 1 in Hero slot 1 (and card 2 in slot 2 at lap 2); after the player's move
    the Enemy draws the first card of ``deck`` (default 3, 4, 5, 6, 7, 8) for the next slot."""
    rules = rules or RULES
    state = rules.setup(1, rules.parse_options({"nomads": nomads}), seed)
    for entry in state["regions"].values():
        entry["nomad"] = False
        for seat, counts in list(entry["units"].items()):
            if int(seat) == ENEMY:
                continue
            for kind, count in counts.items():
                state["players"][int(seat)]["supply"][kind] += count
            del entry["units"][seat]
    state["nomad_supply"] = 10
    state["phase"] = "action"
    state["pending"] = None
    state["last"] = None
    state["turn"] = {"seat": A, "lap": lap, "order": [A]}
    state["tax_track"] = tax_track or {"4": "ore", "3": "mana", "2": "food"}
    resources(state, A)
    resources(state, ENEMY, 3, 3, 3)
    slots = [1, 2 if lap == 2 else None, None, None]
    default = [3, 4, 5, 6, 7, 8] + ([2] if lap == 1 else [])
    state["solo"].update(deck=list(deck or default), discard=[], slots=slots, slot=lap + 1,
                         next="card", arrow="N", heroes=["E_capital"] * 3)
    return state


def move_hero(state: dict[str, Any], hero: int, region: str) -> None:
    """Put Enemy Hero ``hero`` (1-3) on ``region`` (its unit moves with it)."""
    where = state["solo"]["heroes"][hero - 1]
    counts = state["regions"][where]["units"][str(ENEMY)]
    counts["hero"] -= 1
    if not any(counts.values()):
        del state["regions"][where]["units"][str(ENEMY)]
    state["regions"][region]["units"].setdefault(str(ENEMY), {"serf": 0, "warrior": 0, "hero": 0})["hero"] += 1
    state["solo"]["heroes"][hero - 1] = region


# -- the full edition ----------------------------------------------------------------------------

def full_position(n_players: int = 2, nomads: str = "none", seed: int = 1, hands: list[list[str]] | None = None,
                  tokens: dict[str, str] | None = None, house_revision: int | None = None) -> dict[str, Any]:
    """A full-edition game as :func:`position` leaves a core one (round 1, seat 0 to act, lap 1,
    every Courtyard empty), every hand as ``hands`` says (default: empty; the cards come out of
    the deck), no exploration token but ``tokens`` (region -> token id), an empty discard; its
    house data of ``house_revision`` (default: the newest, as a new table's)."""
    revision = {} if house_revision is None else {"house_revision": house_revision}
    state = FULL.setup(n_players, FULL.parse_options({"nomads": nomads, "first_player": "host", **revision}), seed)
    state["phase"] = "action"
    state["pending"] = None
    for entry in state["regions"].values():
        for seat, counts in entry["units"].items():
            for kind, count in counts.items():
                state["players"][int(seat)]["supply"][kind] += count
        entry["units"] = {}
    state["tax_track"] = {"4": "ore", "3": "mana", "2": "food"}
    deck = state["spell_deck"] + [card for player in state["players"] for card in player["spells"]]
    for index, player in enumerate(state["players"]):
        player["spells"] = list((hands or [])[index]) if hands and index < len(hands) else []
        for card in player["spells"]:
            deck.remove(card)
    state["spell_deck"] = sorted(deck)
    state["spell_discard"] = []
    state["tokens"] = dict(tokens or {})
    state["revealed"] = {}
    return state


def full_solo_position(**options: Any) -> dict[str, Any]:
    """A full-edition solo game set up like :func:`solo_position` (the player's hand empty)."""
    state = solo_position(**options, rules=FULL)
    state["players"][A]["spells"] = []
    state["tokens"] = {}
    return state

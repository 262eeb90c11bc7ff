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

RULES = Heroes()
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


def texts(events: list[Event]) -> list[str]:
    return [event.text for event in events]


def legal_types(state: dict[str, Any], seat: int) -> set[str]:
    return {move.type for move in RULES.legal_moves(state, seat)}

"""What a table's players agree to, in the lobby's own words: its options, pace, clock and rating,
for everyone who is asked to play or watches (the lobby, the waiting room, the game, invitations).

The lobby form (``static/js/options-form.js``) labels each option with its schema ``title`` (or
its name with spaces, capitalised) and each choice with the schema's ``choice_labels`` for it (or
its value the same way).  A table's options
are told in those words, listing only what differs from the game's defaults: ``["Trading",
"Hidden Coins", "Turn Limit: 100"]`` for a Nomadi table with Trading and Hidden Coins ticked and a
shorter game; a switch turned off that is on by default reads ``"Keep taken wells secret: off"``.  An empty
list means the game's standard options.
"""

from __future__ import annotations

import functools
from typing import Any

from pydantic import ValidationError

from app.rulesets.base import Ruleset


def humanise(name: str) -> str:
    """``"end_of_turn" -> "End of turn"``: the lobby form's words for a name or a choice."""
    text = name.replace("_", " ")
    return text[:1].upper() + text[1:]


def option_words(ruleset: Ruleset, options: dict[str, Any] | None) -> list[str]:
    """The options of a table of ``ruleset`` that differ from the defaults, in words (see above)."""
    options = options or {}
    words = []
    for name, label, default, choices in _fields(type(ruleset)):
        if name not in options or options[name] == default:
            continue
        value = options[name]
        if isinstance(value, bool):
            words.append(label if value else f"{label}: off")
        elif isinstance(value, str):
            words.append(f"{label}: {choices.get(value) or humanise(value)}")
        else:
            words.append(f"{label}: {value}")
    return words


def clock_words(move_seconds: int | None) -> str:
    """``"2 min per move"``, ``"3 days per move"``, ``"no time limit"`` (as the lobby says them,
    ``static/js/clock.js``)."""
    if not move_seconds:
        return "no time limit"
    for size, unit in ((86400, "day"), (3600, "h"), (60, "min")):
        if move_seconds >= size and move_seconds % size == 0:
            count = move_seconds // size
            return f"{count} {unit}{'s' if unit == 'day' and count != 1 else ''} per move"
    return f"{move_seconds} s per move"


def terms(ruleset: Ruleset | None, table: Any, names: list[str]) -> str:
    """One line of what was agreed at ``table`` (a ``Table`` row), e.g. ``"Ana, Bo and 1 free seat ·
    live · 2 min per move · rated · options: Trading, Hidden Coins"``; ``names``: the people and bots
    seated, and those asked to a seat kept for them ("Bo (asked)"); a free seat is one not in it."""
    free = table.seat_count - len(names)
    people = ", ".join(names) + (f"{' and ' if names else ''}{free} free seat{'s' if free != 1 else ''}" if free else "")
    words = option_words(ruleset, table.options) if ruleset is not None else []
    return " · ".join([people, "turn-based" if table.pace == "turn_based" else "live", clock_words(table.move_seconds),
                       "rated" if table.rated else "friendly",
                       f"options: {', '.join(words)}" if words else "standard options"])


@functools.cache
def _fields(ruleset_class: type[Ruleset]) -> tuple[tuple[str, str, Any, dict[str, str]], ...]:
    """``(name, label, default, choice labels)`` of each option, in the schema's order (once per game)."""
    model = ruleset_class.Options
    properties = model.model_json_schema().get("properties", {})
    try:
        defaults = model().model_dump(mode="json")
    except ValidationError:  # an option without a default: every value of it is told
        defaults = {}
    return tuple((name, schema.get("title") or humanise(name), defaults.get(name), schema.get("choice_labels") or {})
                 for name, schema in properties.items())

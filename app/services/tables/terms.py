"""What a table's players agree to, in the lobby's own words: its options, pace, clock and rating,
for everyone who is asked to play or watches (the lobby, the waiting room, the game, invitations).

The lobby form (``static/js/options-form.js``) labels each option with its schema ``title`` (or
its name with spaces, capitalised) and each choice with the schema's ``choice_labels`` for it (or
its value the same way).  A table's options
are told in those words, listing only what differs from the game's defaults: ``["Trading",
"Hidden Coins", "Turn Limit: 100"]`` for a Nomadi table with Trading and Hidden Coins ticked and a
shorter game; a switch turned off that is on by default reads ``"Keep taken wells secret: off"``.  An empty
list means the game's standard options.

Each function takes the reader's ``language`` (``None``: English): the labels and choices are said
with the game's catalog (``locales/<lang>.po``), the other words with ``server.po`` (docs/i18n.md).
"""

from __future__ import annotations

import functools
from typing import Any

from pydantic import ValidationError

from app.i18n import ntranslate, ruleset_catalog, translate
from app.rulesets.base import Ruleset


def humanise(name: str) -> str:
    """``"end_of_turn" -> "End of turn"``: the lobby form's words for a name or a choice."""
    text = name.replace("_", " ")
    return text[:1].upper() + text[1:]


def option_words(ruleset: Ruleset, options: dict[str, Any] | None, language: str | None = None) -> list[str]:
    """The options of a table of ``ruleset`` that differ from the defaults, in words (see above)."""
    options = options or {}
    catalog = ruleset_catalog(type(ruleset), language)
    words = []
    for name, label, default, choices in _fields(type(ruleset)):
        if name not in options or options[name] == default:
            continue
        value = options[name]
        label = translate(language, label, catalog)
        if isinstance(value, bool):
            words.append(label if value else translate(language, "{label}: off", label=label))
        elif isinstance(value, str):
            choice = translate(language, choices.get(value) or humanise(value), catalog)
            words.append(translate(language, "{label}: {value}", label=label, value=choice))
        else:
            words.append(translate(language, "{label}: {value}", label=label, value=value))
    return words


def clock_words(move_seconds: int | None, language: str | None = None) -> str:
    """``"2 min per move"``, ``"3 days per move"``, ``"no time limit"`` (as the lobby says them,
    ``static/js/clock.js``)."""
    if not move_seconds:
        return translate(language, "no time limit")
    if move_seconds % 86400 == 0:
        return ntranslate(language, "{n} day per move", "{n} days per move", move_seconds // 86400)
    if move_seconds % 3600 == 0:
        return translate(language, "{n} h per move", n=move_seconds // 3600)
    if move_seconds % 60 == 0:
        return translate(language, "{n} min per move", n=move_seconds // 60)
    return translate(language, "{n} s per move", n=move_seconds)


def terms(ruleset: Ruleset | None, table: Any, names: list[str], language: str | None = None) -> str:
    """One line of what was agreed at ``table`` (a ``Table`` row), e.g. ``"Ana, Bo and 1 free seat ·
    live · 2 min per move · rated · options: Trading, Hidden Coins"``; ``names``: the people and bots
    seated, and those asked to a seat kept for them ("Bo (asked)"); a free seat is one not in it."""
    free = table.seat_count - len(names)
    people = ", ".join(names)
    if free:
        seats = ntranslate(language, "{n} free seat", "{n} free seats", free)
        people = translate(language, "{names} and {seats}", names=people, seats=seats) if names else seats
    words = option_words(ruleset, table.options, language) if ruleset is not None else []
    return " · ".join([people, translate(language, "turn-based" if table.pace == "turn_based" else "live"),
                       clock_words(table.move_seconds, language), translate(language, "rated" if table.rated else "friendly"),
                       translate(language, "options: {words}", words=", ".join(words)) if words
                       else translate(language, "standard options")])


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

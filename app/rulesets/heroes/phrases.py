"""Log sentences as translatable templates with typed arguments (docs/i18n.md).

A log line of Heroes is often put together from parts (``"{seat0} follows the Tax with a Serf: "``
and the action's own words), and names counts, lists and regions.  A :class:`Phrase` keeps a part
as a template and its arguments, so the finished :class:`~app.rulesets.base.Event` text holds
placeholders (``{gained}``, ``{cost0}``, ``{region}``) where the values were written in before, and
a catalog holds one entry per sentence shape rather than one per count or region.  The English
render is the same word for word as the old f-strings'.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from app.rulesets.base import Event, Seat, amount, card, words

from app.rulesets.heroes.board import region_arg
from app.rulesets.heroes.houses import NAMES, resources_phrase, units_phrase

Args = dict[str, dict[str, Any]]


class Phrase(NamedTuple):
    """A template (``{name}`` placeholders, ``{seatN}`` for players) and its typed arguments."""

    text: str
    args: Args = {}

    def __add__(self, other: object) -> Phrase:
        """Two phrases (or a phrase and plain words) one after the other."""
        if isinstance(other, Phrase):
            return Phrase(self.text + other.text, {**self.args, **other.args})
        if isinstance(other, str):
            return Phrase(self.text + other, self.args)
        return NotImplemented

    def event(self, **fields: Any) -> Event:
        """The phrase as a log entry (``fields``: ``seats`` and the like)."""
        return Event(text=self.text, args=dict(self.args), **fields)


def said(template: str, **parts: Phrase | dict[str, Any] | str) -> Phrase:
    """``template`` with each ``{name}`` of ``parts``: a :class:`Phrase` or a plain ``str`` is
    written into the template (its placeholders and arguments kept), a typed argument
    (``amount(3)``, ``place(..)``) stays a placeholder with its argument."""
    args: Args = {}
    text = template
    for name, part in parts.items():
        if isinstance(part, Phrase):
            text = text.replace("{" + name + "}", part.text)
            args.update(part.args)
        elif isinstance(part, str):
            text = text.replace("{" + name + "}", part)
        else:
            args[name] = part
    return Phrase(text, args)


def number(value: int) -> dict[str, Any]:
    """A bare number as an argument (``amount`` without a unit): ``"9"``."""
    return amount(value)


def region(region_id: str) -> dict[str, Any]:
    """A region as an argument: its name as the board shows it, its id as the place."""
    return region_arg(region_id)


def units(counts: dict[str, int], name: str = "units") -> Phrase:
    """A list of units (``"1 Warrior and 2 Serfs"``) as a phrase: see ``houses.units_phrase``."""
    return Phrase(*units_phrase(counts, name))


def resources(amounts: dict[str, int], name: str = "cost") -> Phrase:
    """A list of resources (``"1 Ore + 2 Food"``) as a phrase: see ``houses.resources_phrase``."""
    return Phrase(*resources_phrase(amounts, name))


def seat_name(seat: Seat) -> str:
    """The placeholder of a seat's player: ``"{seat2}"``."""
    return f"{{seat{seat}}}"


def count_of(count: int, kind: str) -> dict[str, Any]:
    """``count_of(2, "serf")``: the argument ``"2 Serfs"`` (``houses.plural`` as an ``amount``)."""
    singular, many = NAMES[kind]
    return amount(count, singular if count == 1 else many)


def regions(region_ids: list[str], name: str = "region", empty: str = "nowhere") -> Phrase:
    """Regions listed with commas (``"{region0}, {region1}"``), ``empty`` for none."""
    if not region_ids:
        return Phrase(empty)
    args = {f"{name}{index}": region_arg(region_id) for index, region_id in enumerate(region_ids)}
    return Phrase(", ".join("{" + key + "}" for key in args), args)


def chain(parts: list[Phrase], between: str = " and ") -> Phrase:
    """Phrases one after the other with ``between`` each two (``"a and b and c"``)."""
    out = parts[0]
    for part in parts[1:]:
        out = out + between + part
    return out


def flattened(event: Event) -> Event:
    """``event`` with the words of its arguments written into its text (``{seatN}`` kept, no
    arguments left): the form a state stores an event in (``solo.new_game``'s opening lines), the
    same as before events had typed arguments, so a stored state does not change with them.
    :func:`unflattened` reads the template and arguments back for a known set of templates."""
    args = event.args

    def fill(match: re.Match) -> str:
        arg = args.get(match.group(1))
        return match.group(0) if arg is None or arg.get("kind") == "player" else str(arg.get("text", ""))

    return event.model_copy(update={"text": re.sub(r"\{(\w+)\}", fill, event.text), "args": {}})


PLACE_ARGS = frozenset({"region", "origin", "destination"})
"""The placeholders that :func:`unflattened` reads back as regions (``region_arg``)."""
CARD_ARGS = frozenset({"spell"})
"""The placeholders it reads back as cards."""
WORD_ARGS = frozenset({"enemy_action", "enemy_arrow", "arrow"})
"""The placeholders it reads back as words; any other is a number, with its unit if it has one
(``"2 Food"``: ``amount(2, "Food")``)."""


def unflattened(stored: Event, templates: Iterable[str], places: Mapping[str, str]) -> Event:
    """The typed event that :func:`flattened` made ``stored`` from, when ``stored`` is one of
    ``templates`` with its arguments written in; else ``stored`` as it is.

    The inverse for a known set of templates (``solo.OPENING_TEMPLATES``): each template is read as
    a pattern whose placeholders are the words of its arguments; the first template whose pattern
    matches the whole text, and whose every argument reads back (``places`` maps a region's name to
    its id; :data:`PLACE_ARGS`, :data:`CARD_ARGS`, :data:`WORD_ARGS`, else a number), gives the event,
    with the stored rule and readers.  Its English render is the stored text, word for word."""
    for template in templates:
        match = _pattern(template).fullmatch(stored.text)
        if match is None:
            continue
        args = {name: _argument_back(name, text, places) for name, text in match.groupdict().items()}
        if all(arg is not None for arg in args.values()):
            return Event(text=template, args=args, rule=stored.rule, seats=stored.seats)
    return stored


@functools.lru_cache(maxsize=64)
def _pattern(template: str) -> re.Pattern[str]:
    """``template`` as a pattern: its words as they are, ``{seatN}`` too, every other placeholder a
    named group of at least one character (the same name again must read the same)."""
    parts: list[str] = []
    named: set[str] = set()
    at = 0
    for match in re.finditer(r"\{(\w+)\}", template):
        parts.append(re.escape(template[at:match.start()]))
        name = match.group(1)
        if re.fullmatch(r"seat\d+", name):
            parts.append(re.escape(match.group(0)))
        elif name in named:
            parts.append(f"(?P={name})")
        else:
            parts.append(f"(?P<{name}>.+?)")
            named.add(name)
        at = match.end()
    parts.append(re.escape(template[at:]))
    return re.compile("".join(parts), re.S)


def _argument_back(name: str, text: str, places: Mapping[str, str]) -> dict[str, Any] | None:
    """The typed argument of placeholder ``name`` whose words are ``text`` (``None``: they cannot be)."""
    if name in PLACE_ARGS:
        return region_arg(places[text]) if text in places else None
    if name in CARD_ARGS:
        return card(text)
    if name in WORD_ARGS:
        return words(text)
    counted = re.fullmatch(r"(-?\d+)(?: (\D.*))?", text)
    return amount(int(counted.group(1)), counted.group(2) or "") if counted else None

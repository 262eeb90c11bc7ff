"""The house data of the full edition, read once from ``data/spells.json``, ``data/factions.json``
and ``data/exploration.json`` (one file per kind; a host who owns the game can replace any of them
with the printed values without touching code), in each of its revisions.

Every value is marked in its file (``_source``) as known [K] or house [H]; ``reference.md``
("House values of the full edition") lists them all.  Nothing here is a rule: the rules that read
these values are ``spells.py``, ``vessels.py``, ``abilities.py`` and ``exploration.py``.

Revisions: a stored game is replayed by folding its moves over the data it is played with, so a
value changed for new tables must not reach the games already played.  The three files are
revision 1 (the values of every full-edition game stored before revisions existed);
``data/revisions.json`` lists, for each later revision, only the values it changes from the one
before (a patch: objects merge key by key, a list of entries with an ``id`` is patched by an object
keyed by those ids).  A game plays the revision of its table option ``house_revision``
(``options.py``), read from its state by :func:`of`.  A revision changes numbers and texts, never
which cards, Heroes, Buildings or tokens there are nor their names (checked when loading), so move
names and log lines read the same in every revision.  ``house_values.json`` (``houses.py``: the
values the core edition shares) is not revised.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any


def read(name: str) -> dict[str, Any]:
    """The parsed ``data/<name>``."""
    return json.loads(resources.files("app.rulesets.heroes").joinpath(f"data/{name}").read_text())


@dataclass(frozen=True)
class Spell:
    """One kind of spell card: ``kind`` is ``cast``, ``combat`` or ``interrupt`` (spec 1.7 Cast);
    ``mana`` its cost, ``vp`` what casting it scores, ``copies`` in the deck, ``effect`` (a dict
    with ``kind`` and its numbers: ``data/spells.json`` ``_effects``), ``nomad`` for the 6 Nomad
    spells of the Wandering variant."""

    id: str
    name: str
    kind: str
    mana: int
    vp: int
    copies: int
    effect: dict[str, Any]
    text: str
    nomad: bool = False


@dataclass(frozen=True)
class HeroCard:
    """One of a faction's 3 Heroes: the ``building`` it needs, its recruit ``cost`` and its
    ``ability`` (``kind`` and ``amount`` by C.C. level 1-3)."""

    id: str
    name: str
    faction: str
    building: str
    cost: dict[str, int]
    ability: dict[str, Any]
    text: str


class Catalogue:
    """Typed access to the full edition's data of one revision (:data:`REVISIONS`; a game's: :func:`of`)."""

    def __init__(self, spells: dict[str, Any], factions: dict[str, Any], exploration: dict[str, Any],
                 revision: int = 1) -> None:
        self.revision = revision
        self.spells_raw, self.factions_raw, self.exploration_raw = spells, factions, exploration
        self.spells: dict[str, Spell] = {}
        for entry in spells["cards"]:
            self.spells[entry["id"]] = Spell(**{k: entry[k] for k in ("id", "name", "kind", "mana", "vp", "copies",
                                                                      "effect", "text")})
        for entry in spells["nomad_cards"]["cards"]:
            self.spells[entry["id"]] = Spell(**{k: entry[k] for k in ("id", "name", "kind", "mana", "vp", "copies",
                                                                      "effect", "text")}, nomad=True)
        self.heroes: dict[str, HeroCard] = {}
        self.buildings: dict[str, tuple[str, str]] = {}
        for faction, entry in factions["factions"].items():
            for building, name in entry["buildings"].items():
                self.buildings[building] = (faction, name)
            for hero in entry["heroes"]:
                self.heroes[hero["id"]] = HeroCard(id=hero["id"], name=hero["name"], faction=faction,
                                                   building=hero["building"], cost=dict(hero["cost"]),
                                                   ability=dict(hero["ability"]), text=hero["text"])

    # -- spells --------------------------------------------------------------------------------

    def spell(self, card: str) -> Spell:
        """The kind of a spell card id (``"fireball-2"`` is a Fireball); raises ``KeyError``."""
        return self.spells[card.rpartition("-")[0]]

    def deck(self, nomads: bool) -> list[str]:
        """Every card id of the spell deck, in data order (``<kind>-<n>``); with ``nomads`` the 6
        Nomad spells too (NS0-2)."""
        return [f"{spell.id}-{n}" for spell in self.spells.values() if nomads or not spell.nomad
                for n in range(1, spell.copies + 1)]

    def spell_number(self, name: str) -> int:
        """``hand_start`` (1), ``research_draw`` (3), ``collection_draw`` (1), ``scribed_end_vp``."""
        return self.spells_raw[name]

    @functools.cached_property
    def enemy_spells(self) -> dict[int, dict[str, Any]]:
        """Solo: the spell of each Enemy Hero (1-3) by Hero number."""
        return {entry["hero"]: entry for entry in self.spells_raw["enemy_spells"]["heroes"]}

    # -- factions ------------------------------------------------------------------------------

    def faction_of(self, continent: str) -> str:
        """The faction that plays from ``continent`` (N Humans, E Elves, S Orcs, W Dwarves)."""
        return self.factions_raw["continent_factions"][continent]

    def faction(self, faction: str) -> dict[str, Any]:
        """A faction's entry: name, ``ability``, ``buildings``, ``vessels``, ``heroes``."""
        return self.factions_raw["factions"][faction]

    def faction_heroes(self, faction: str) -> list[HeroCard]:
        """The faction's 3 Heroes in data order."""
        return [hero for hero in self.heroes.values() if hero.faction == faction]

    def vessel(self, kind: str) -> dict[str, Any]:
        """``"sea"`` or ``"air"``: strength, speed, capacity, cost, end VP."""
        return self.factions_raw["vessels"][kind]

    def vessel_building(self, faction: str, kind: str) -> str:
        """The Building a faction's vessel of ``kind`` needs."""
        return self.faction(faction)["vessels"][kind]["building"]

    @property
    def building(self) -> dict[str, Any]:
        """Every Building: ``cost`` (3 Ore [K]) and ``end_vp``."""
        return self.factions_raw["building"]

    @property
    def hero(self) -> dict[str, Any]:
        """Every Hero figure: strength, speed, end VP."""
        return self.factions_raw["hero"]

    # -- exploration ---------------------------------------------------------------------------

    def tokens(self, kind: str) -> list[str]:
        """Every ``"land"`` or ``"sea"`` token id, one per copy (``<kind>-<n>``)."""
        return [f"{entry['id']}-{n}" for entry in self.exploration_raw[kind] for n in range(1, entry["count"] + 1)]

    def token(self, token: str) -> dict[str, Any]:
        """A token id's entry (name and effect)."""
        kind = token.rpartition("-")[0]
        return next(entry for group in ("land", "sea") for entry in self.exploration_raw[group] if entry["id"] == kind)


FILES = ("spells.json", "factions.json", "exploration.json")
"""The data files a revision may change, in the order :class:`Catalogue` takes them."""


def patched(base: Any, changes: Any, where: str) -> Any:
    """``base`` with ``changes`` applied (a copy; the module docstring says how a patch reads).
    Raises ``ValueError`` naming ``where`` for a key or id that ``base`` lacks (a misspelt patch
    would otherwise change nothing) or a patch whose shape does not fit."""
    if isinstance(base, list) and isinstance(changes, Mapping):
        ids = [entry.get("id") if isinstance(entry, Mapping) else None for entry in base]
        unknown = sorted(set(changes) - set(ids) - {"_note"})
        if unknown:
            raise ValueError(f"{where}: no entry {', '.join(unknown)} to change")
        return [patched(entry, changes[entry["id"]], f"{where}.{entry['id']}") if entry_id in changes else copy.deepcopy(entry)
                for entry_id, entry in zip(ids, base)]
    if isinstance(base, Mapping) and isinstance(changes, Mapping):
        result = copy.deepcopy(dict(base))
        for key, value in changes.items():
            if key.startswith("_"):  # a patch's own notes (why a value changed)
                continue
            if key not in base:
                raise ValueError(f"{where}: no key {key!r} to change")
            result[key] = patched(base[key], value, f"{where}.{key}")
        return result
    if isinstance(changes, (Mapping, list)) or isinstance(base, (Mapping, list)):
        raise ValueError(f"{where}: a patch must replace a value by a value of the same kind")
    return changes


def identity(catalogue: Catalogue) -> tuple[Any, ...]:
    """What no revision may change: the ids and names of the spells, Heroes, Buildings and tokens."""
    return ([(spell.id, spell.name, spell.kind, spell.nomad) for spell in catalogue.spells.values()],
            [(hero.id, hero.name, hero.faction, hero.building) for hero in catalogue.heroes.values()],
            catalogue.buildings, catalogue.tokens("land"), catalogue.tokens("sea"))


def load_revisions(base: dict[str, dict[str, Any]], revisions: dict[str, Any]) -> dict[int, Catalogue]:
    """Every revision's catalogue by number: 1 from the ``base`` files (name -> parsed file), each
    later one the one before with its entry of ``revisions`` (``data/revisions.json``) applied.
    Raises ``ValueError`` for numbers that do not follow on from 1, a patch of another file, a
    patch that does not fit (:func:`patched`) or one that changes a card's identity."""
    files = dict(base)
    found = {1: Catalogue(files["spells.json"], files["factions.json"], files["exploration.json"], revision=1)}
    for entry in revisions["revisions"]:
        number = entry["revision"]
        if number != max(found) + 1:
            raise ValueError(f"data/revisions.json: revision {number} after {max(found)} (numbers follow on from 1)")
        for name, changes in entry["changes"].items():
            if name not in FILES:
                raise ValueError(f"data/revisions.json: revision {number} changes {name}; a revision may change "
                                 f"only {', '.join(FILES)}")
            files[name] = patched(files[name], changes, f"revision {number}: {name}")
        found[number] = Catalogue(files["spells.json"], files["factions.json"], files["exploration.json"], revision=number)
        if identity(found[number]) != identity(found[1]):
            raise ValueError(f"data/revisions.json: revision {number} changes which cards there are or their names")
    return found


REVISIONS = load_revisions({name: read(name) for name in FILES}, read("revisions.json"))
"""The full edition's data of every revision by number (immutable after loading)."""
NEWEST = max(REVISIONS)
"""The revision a new table plays (``options.Options.house_revision``)."""
FIRST = REVISIONS[1]
"""Revision 1: for what every revision shares (ids and names, :func:`identity`), where no game is at hand."""


def of(state: Mapping[str, Any]) -> Catalogue:
    """The catalogue of the revision a game plays: its options' ``house_revision``, or 1 for a state
    without it (every game stored before revisions existed, and a revision-1 game's state, which
    keeps that layout: ``rounds.stored_options``).  ``state`` may be a view (it shows the options)."""
    return REVISIONS[state["options"].get("house_revision", 1)]


HERO_IDS = tuple(FIRST.heroes)
BUILDING_IDS = tuple(FIRST.buildings)
SPELL_IDS = tuple(FIRST.spells)

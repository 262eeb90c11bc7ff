"""The house data of the full edition, read once from ``data/spells.json``, ``data/factions.json``
and ``data/exploration.json`` (one file per kind; a host who owns the game can replace any of them
with the printed values without touching code).

Every value is marked in its file (``_source``) as known [K] or house [H]; ``reference.md``
("House values of the full edition") lists them all.  Nothing here is a rule: the rules that read
these values are ``spells.py``, ``vessels.py``, ``abilities.py`` and ``exploration.py``.
"""

from __future__ import annotations

import functools
import json
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
    """Typed access to the full edition's data; one instance, :data:`CATALOGUE`."""

    def __init__(self, spells: dict[str, Any], factions: dict[str, Any], exploration: dict[str, Any]) -> None:
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


CATALOGUE = Catalogue(read("spells.json"), read("factions.json"), read("exploration.json"))
"""The full edition's data every module reads (immutable after loading)."""

HERO_IDS = tuple(CATALOGUE.heroes)
BUILDING_IDS = tuple(CATALOGUE.buildings)
SPELL_IDS = tuple(CATALOGUE.spells)

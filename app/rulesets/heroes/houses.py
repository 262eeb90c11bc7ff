"""The house values of Heroes-core (spec 2.3), read from ``data/house_values.json``.

Every number the rules use comes from here, so the real printed values can replace the house
ones without a code change.  Known values ([K] in the spec) and house values ([H]) sit side by
side in the file; the keys we added carry a ``_source`` or ``_note``.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from app.rulesets.base import amount

RESOURCES = ("ore", "mana", "food")
"""Spec 1.4: the three resources, in the order the log and the view list them."""
UNIT_KINDS = ("serf", "warrior", "hero", "mercenary")
"""Spec 1.3: the Tier 1 units (vessels are Tier 2), and the figures of the Nomad Mercenary
(NM-5: each figure is a unit of its own; only in the Mercenary Nomads variant)."""
NAMES = {"serf": ("Serf", "Serfs"), "warrior": ("Warrior", "Warriors"), "hero": ("Hero", "Heroes"),
         "mercenary": ("Nomad Mercenary", "Nomad Mercenaries"),
         "ore": ("Ore", "Ore"), "mana": ("Mana", "Mana"), "food": ("Food", "Food")}


@dataclass(frozen=True)
class TacticCard:
    """One house tactic card (spec 1.8.3, 2.3).

    ``cost`` maps resources to amounts (sacrificed units may pay any part of the total);
    ``restriction`` is ``None``, ``"attacker_only"``, ``"defender_only"`` or ``"not_serf_only"``
    (not for an army of Serfs alone without a Structure); ``bonus_against`` maps an enemy card id
    to extra strength (Charge +3 against First Strike); ``cancels`` the enemy cards it cancels
    (Shield Wall: Charge); ``conscripts`` how many units it brings in (0: none).
    """

    id: str
    name: str
    cost: dict[str, int]
    strength: int
    vp: int
    restriction: str | None = None
    bonus_against: dict[str, int] = field(default_factory=dict)
    cancels: tuple[str, ...] = ()
    conscripts: int = 0

    @property
    def total_cost(self) -> int:
        """The whole cost as one number, which sacrificed units pay by natural strength (1.8.4)."""
        return sum(self.cost.values())


@dataclass(frozen=True)
class HouseValues:
    """Typed access to ``house_values.json``; one instance, :data:`HOUSE`."""

    raw: dict[str, Any]

    def unit(self, kind: str) -> dict[str, Any]:
        """The data of a unit kind; a ``"mercenary"`` is one figure of the Nomad Mercenary."""
        if kind == "mercenary":
            return self.raw["mercenary_nomads"]["figure"]
        return self.raw["units"][kind]

    def strength(self, kind: str) -> int:
        """Natural strength of a unit kind (Serf 1, Warrior 2, Hero 4; spec 1.3; a Nomad
        Mercenary figure 1, spec 2.7 [H])."""
        return self.unit(kind)["strength"]

    def speed(self, kind: str) -> int:
        """March speed of a unit kind (house values: Serf 2, Warrior 2, Hero 3, Nomad Mercenary 2)."""
        return self.unit(kind)["speed"]

    def recruit_cost(self, unit: str) -> dict[str, int]:
        """What a Recruit of ``unit`` costs: ``"serf"``, ``"serf_pair"`` (2 Serfs, 3 Food [K]),
        ``"warrior"``, ``"hero"`` or ``"mercenary"`` (the Nomad Mercenary, 3 Ore + 3 Mana +
        3 Food: the generic mercenary cost, spec 1.13 [K], A-M1)."""
        if unit == "serf_pair":
            return dict(self.raw["units"]["serf"]["cost_pair"])
        if unit == "mercenary":
            return dict(self.raw["mercenary_nomads"]["cost"])
        return dict(self.raw["units"][unit]["cost"])

    @property
    def mercenary_figures(self) -> int:
        """NM-2: how many Nomad figures come with the Nomad Mercenary card (3)."""
        return self.raw["mercenary_nomads"]["figures"]

    def end_vp(self, kind: str) -> int:
        """End-game VP of one unit of ``kind`` in play (Warrior 1 [K], Hero 2 [H])."""
        return self.raw["units"][kind]["end_vp"]

    @property
    def hall_cost(self) -> dict[str, int]:
        """The Hall (the one generic Building): 3 Ore [K] plus a Serf locked on it."""
        return dict(self.raw["building_hall"]["cost"])

    @property
    def hall_vp(self) -> int:
        """End-game VP of the Hall (house value 2)."""
        return self.raw["building_hall"]["end_vp"]

    @property
    def tower(self) -> dict[str, Any]:
        """Tower numbers: strength 3 [K], 1 Ore per land region of distance [K], +2 yield [K],
        end VP, per-continent limits, ``count`` per faction (3 [K])."""
        return self.raw["tower"]

    def capital_strength(self, level: int) -> int:
        """Strength of a Capital City of ``level`` (house values 2/4/6)."""
        return self.raw["capital_levels"][str(level)]["strength"]

    def capital_vp(self, level: int) -> int:
        """End-game VP of a Capital City of ``level`` (house values 0/3/6)."""
        return self.raw["capital_levels"][str(level)]["end_vp"]

    def upgrade_cost(self, level: int) -> dict[str, int] | None:
        """The cost of raising the C.C. to ``level`` (2: 4/4/4 [K]; 3: 6/6/6 [H]); ``None`` past the top."""
        entry = self.raw["capital_levels"].get(str(level))
        return dict(entry["cost"]) if entry and "cost" in entry else None

    @property
    def max_capital_level(self) -> int:
        """The top C.C. level (3)."""
        return max(int(level) for level in self.raw["capital_levels"])

    @property
    def start(self) -> dict[str, Any]:
        """Spec 1.5: resources 2/2/2, Courtyard 2 Serfs + 1 Warrior, 2 Action Tokens, score 0,
        and the faction's totals of pieces (``supply``)."""
        return self.raw["start"]

    @property
    def resource_cap(self) -> int:
        """Spec 1.4: no resource goes above 10."""
        return self.raw["resource_cap"]

    @property
    def tax_values(self) -> list[int]:
        """Spec 1.4: the tax slots are worth 4, 3 and 2 (highest first)."""
        return sorted(self.raw["tax_track_values"], reverse=True)

    @property
    def worker_yield_bonus(self) -> int:
        """Spec 1.9: a region with one of its controller's Serfs in it yields 1 more."""
        return self.raw["worker_yield_bonus"]

    @property
    def army_limit(self) -> int:
        """Spec 1.7/1.2: 1-5 units march together; at most 5 of one player in a region outside capitals."""
        return self.raw["army_limit"]

    def tower_limit(self, cc_level: int) -> int:
        """How many Towers a player with a C.C. of ``cc_level`` may have in play (spec 1.3: the level [K~])."""
        limit = self.raw["tower"]["max_total"]
        return cc_level if limit == "cc_level" else int(limit)

    def vp(self, what: str) -> int:
        """``start_battle`` (1 [K]), ``destroy_capital`` (5 [K]), ``per_controlled_region`` (1 [K~])."""
        return self.raw["vp"][what]

    @property
    def nomads(self) -> dict[str, Any]:
        """Wandering Nomads numbers: supply 10, strength 1 in a capital, yield penalty 1, not stacking."""
        return self.raw["nomads"]

    @functools.cached_property
    def tactics(self) -> dict[str, TacticCard]:
        """The house tactic set, by card id, in the order of the data file."""
        cards = {}
        for entry in self.raw["tactics"]["cards"]:
            effects = entry.get("effects", [])
            cards[entry["id"]] = TacticCard(
                id=entry["id"],
                name=entry["name"],
                cost=dict(entry["cost"]),
                strength=entry["strength"],
                vp=entry["vp"],
                restriction=entry.get("restriction"),
                bonus_against={e["card"]: e["strength"] for e in effects if e["kind"] == "bonus_against"},
                cancels=tuple(e["card"] for e in effects if e["kind"] == "cancels"),
                conscripts=sum(e["units"] for e in effects if e["kind"] == "conscripts"),
            )
        return cards


def load_house_values() -> HouseValues:
    """Read the package's ``data/house_values.json``."""
    text = resources.files("app.rulesets.heroes").joinpath("data/house_values.json").read_text()
    return HouseValues(json.loads(text))


HOUSE = load_house_values()
"""The house values every module reads (immutable after loading)."""


def plural(count: int, kind: str) -> str:
    """``plural(2, "serf") -> "2 Serfs"``, ``plural(1, "ore") -> "1 Ore"``."""
    singular, many = NAMES[kind]
    return f"{count} {singular if count == 1 else many}"


DESCRIBE_ORDER = ("hero", "warrior", "mercenary", "serf")
"""The order unit kinds are named in log lines (strongest first)."""


def describe_units(counts: dict[str, int]) -> str:
    """``{"serf": 2, "warrior": 1} -> "1 Warrior and 2 Serfs"`` (strongest first); ``"nothing"`` if empty."""
    parts = [plural(counts.get(kind, 0), kind) for kind in DESCRIBE_ORDER if counts.get(kind, 0)]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def describe_resources(amounts: dict[str, int]) -> str:
    """``{"mana": 4} -> "4 Mana"``; ``"nothing"`` if all zero."""
    parts = [plural(amounts[r], r) for r in RESOURCES if amounts.get(r, 0)]
    return " + ".join(parts) if parts else "nothing"


def _listed(parts: list[tuple[int, str]], name: str, joiner: str) -> tuple[str, dict[str, dict[str, Any]]]:
    """A list as a template fragment and its typed arguments: one ``amount`` per item, named
    ``{name}0``, ``{name}1``.. (so a catalog holds one entry per list length, never one per count)."""
    if not parts:
        return "nothing", {}
    args = {f"{name}{index}": amount(count, NAMES[kind][0 if count == 1 else 1]) for index, (count, kind) in enumerate(parts)}
    keys = ["{" + key + "}" for key in args]
    if joiner == " + ":
        return " + ".join(keys), args
    return (keys[0] if len(keys) == 1 else ", ".join(keys[:-1]) + " and " + keys[-1]), args


def units_phrase(counts: dict[str, int], name: str = "units") -> tuple[str, dict[str, dict[str, Any]]]:
    """:func:`describe_units` as a translatable template fragment and its arguments:
    ``{"serf": 2, "warrior": 1} -> ("{units0} and {units1}", {"units0": amount(1, "Warrior"), ..})``;
    ``("nothing", {})`` if empty.  It renders to exactly the words of :func:`describe_units`."""
    return _listed([(counts.get(kind, 0), kind) for kind in DESCRIBE_ORDER if counts.get(kind, 0)], name, " and ")


def resources_phrase(amounts: dict[str, int], name: str = "cost") -> tuple[str, dict[str, dict[str, Any]]]:
    """:func:`describe_resources` as a translatable template fragment and its arguments:
    ``{"ore": 1, "food": 2} -> ("{cost0} + {cost1}", {"cost0": amount(1, "Ore"), ..})``;
    ``("nothing", {})`` if all zero."""
    return _listed([(amounts[r], r) for r in RESOURCES if amounts.get(r, 0)], name, " + ")

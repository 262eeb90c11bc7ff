"""The moves of Heroes: flat frozen values with a readable text form (docs/heroes.md, "Moves").

Wire shapes (``type`` is the discriminator; counts default to 0)::

    {"type": "place_nomad", "region": "E_desert"}                            NW-1..NW-9, NS-2/NS-3
    {"type": "move_nomad", "origin": "W_capital", "destination": "W_swamp"}   NS-4/NS-5 (solo)
    {"type": "recruit", "unit": "warrior", "worker": "token"}                 spec 1.7 Recruit
    {"type": "recruit", "unit": "mercenary", "worker": "serf"}                NM-1/NM-2 (variant "mercenary")
    {"type": "fire_mercenary"}                                                NM-8 (variant "mercenary")
    {"type": "build", "what": "tower", "region": "N_plains", "worker": "serf"} spec 1.7 Build
    {"type": "tax", "resource": "ore", "worker": "nomad"}                     spec 1.7 Tax
    {"type": "march", "slot": "march_1", "origin": "N_capital", "destination": "N_plains",
     "serf": 1, "warrior": 1, "hero": 0, "mercenary": 0, "worker": "token"}   spec 1.7 March / Muster
    {"type": "pass"}  {"type": "skip"}
    full edition:
    {"type": "recruit", "unit": "paladin"}  {"type": "build", "what": "cathedral"}   spec 1.7, factions.json
    {"type": "research", "worker": "token"}  {"type": "scribe", "card": "glory-1"}  spec 1.7 Research/Scribe
    {"type": "discard_spell", "card": "fireball-2"}                           hand limit
    {"type": "cast", "card": "fireball-1", "target": "S_plains", "worker": "token"}  spec 1.7 Cast
    {"type": "interrupt", "card": "counterspell-3"}  {"type": "combat_spell", "card": "battle_fury-1"}
    {"type": "sail", "destination": "sea_NE", "serf": 0, "warrior": 2, ...}  spec 1.7 Sail
    {"type": "fly", "destination": "N_desert", "hero": 1, ...}                spec 1.7 Fly
    {"type": "tactic", "card": "first_strike", "mana": 4, ...}                spec 1.8.3-1.8.4
    {"type": "conscript", "origin": "N_plains", "serf": 0, "warrior": 2, "hero": 0, "mercenary": 0}
    {"type": "casualties", "serf": 1, "warrior": 0, "hero": 0, "mercenary": 0, "nomad": 0, "retreat": "S_capital"}

``worker`` is ``"token"`` for the active player's own turn, ``"serf"`` or ``"nomad"`` when
following (spec 1.7 Follow, NC-1, NC-7) or mustering.  ``mercenary`` counts Nomad Mercenary
figures (NM-5); it is always 0 outside the Mercenary Nomads variant and may be left out.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from app.rulesets.base import MoveModel
from app.rulesets.heroes.board import region_name
from app.rulesets.heroes.catalogue import BUILDING_IDS, FIRST, HERO_IDS
from app.rulesets.heroes.houses import HOUSE, describe_resources, describe_units

Worker = Literal["token", "serf", "nomad"]
Count = Annotated[int, Field(ge=0, le=99)]

WORKER_TEXT = {"token": "", "serf": " with a Serf", "nomad": " with a captured Nomad"}
UNIT_TEXT = {"serf": "a Serf", "serf_pair": "2 Serfs", "warrior": "a Warrior", "hero": "a Hero",
             "mercenary": "the Nomad Mercenary", "sea_vessel": "the Sea Vessel", "air_vessel": "the Air Vessel",
             **{hero.id: f"the {hero.name}" for hero in FIRST.heroes.values()}}  # names: the same in every revision
VESSELS = ("sea_vessel", "air_vessel")
RecruitUnit = Literal["serf", "serf_pair", "warrior", "hero", "mercenary", "sea_vessel", "air_vessel", *HERO_IDS]  # type: ignore[valid-type]
"""What a Recruit may bring: the core units, the vessels and every faction's Heroes (full edition;
the Hero ids come from ``data/factions.json``)."""
BuildWhat = Literal["hall", "capital", "tower", "sea_vessel", "air_vessel", *BUILDING_IDS]  # type: ignore[valid-type]
"""What a Build may make: the core Hall, the next C.C. level, a Tower, a vessel, or a faction's
Building (full edition, ``data/factions.json``)."""
SpellCard = Annotated[str, Field(pattern=r"^[a-z_]+-[0-9]+$", max_length=40)]
"""A spell card id: its kind and copy number (``"fireball-2"``)."""


class PlaceNomad(MoveModel):
    """NW-1..NW-9: the first player puts a Nomad from the supply on a legal empty region."""

    type: Literal["place_nomad"] = "place_nomad"
    region: str

    def __str__(self) -> str:
        return f"place a Nomad on {region_name(self.region)}"


class MoveNomad(MoveModel):
    """NS-4/NS-5 (solo): the player moves one board Nomad one region, in the direction of the
    Enemy's first card of the round (or the first legal way clockwise from it)."""

    type: Literal["move_nomad"] = "move_nomad"
    origin: str
    destination: str

    def __str__(self) -> str:
        return f"move the Nomad on {region_name(self.origin)} to {region_name(self.destination)}"


class Recruit(MoveModel):
    """Spec 1.7 Recruit: pay and put a new unit in the Courtyard (2 Serfs for 3 Food [K];
    a Hero needs the Hall [H]; ``"mercenary"``: the Nomad Mercenary card and its 3 figures,
    NM-1/NM-2)."""

    type: Literal["recruit"] = "recruit"
    unit: RecruitUnit
    worker: Worker = "token"

    def __str__(self) -> str:
        return f"recruit {UNIT_TEXT[self.unit]}{WORKER_TEXT[self.worker]}"


class Build(MoveModel):
    """Spec 1.7 Build: the Hall (3 Ore and a locked Serf), the next C.C. level, or a Tower in a
    region (not a capital) where one of your Serfs stands (1 Ore per region of distance)."""

    type: Literal["build"] = "build"
    what: BuildWhat
    region: str | None = None
    worker: Worker = "token"

    def __str__(self) -> str:
        what = {"hall": "the Hall", "capital": "the next Capital City level", "tower": f"a Tower on {region_name(self.region)}",
                "sea_vessel": "the Sea Vessel", "air_vessel": "the Air Vessel"}
        named = what.get(self.what) or f"the {FIRST.buildings[self.what][1]}"  # the same in every revision
        return f"build {named}{WORKER_TEXT[self.worker]}"


class Tax(MoveModel):
    """Spec 1.7 Tax: gain the amount of the chosen resource's tax slot (4, 3 or 2)."""

    type: Literal["tax"] = "tax"
    resource: Literal["ore", "mana", "food"]
    worker: Worker = "token"

    def __str__(self) -> str:
        return f"tax {self.resource.capitalize()}{WORKER_TEXT[self.worker]}"


class March(MoveModel):
    """Spec 1.7 March: move 1-5 units together from ``origin`` to ``destination``."""

    type: Literal["march"] = "march"
    slot: Literal["march_1", "march_2"]
    origin: str
    destination: str
    serf: Count = 0
    warrior: Count = 0
    hero: Count = 0
    mercenary: Count = 0
    worker: Worker = "token"

    @property
    def units(self) -> dict[str, int]:
        """The unit counts as a dict."""
        return {"serf": self.serf, "warrior": self.warrior, "hero": self.hero, "mercenary": self.mercenary}

    def __str__(self) -> str:
        muster = "" if self.worker == "token" else f" (Muster{WORKER_TEXT[self.worker]})"
        return f"march {describe_units(self.units)} from {region_name(self.origin)} to {region_name(self.destination)}{muster}"


class Pass(MoveModel):
    """Spec 1.6 [D]: the seat has no legal action this turn; its Action Token is placed nowhere."""

    type: Literal["pass"] = "pass"

    def __str__(self) -> str:
        return "pass"


class FireMercenary(MoveModel):
    """NM-8 / spec 1.13 Fire: the holder sends the Nomad Mercenary card and all its living figures
    back to the general supply at once; it does not use up the turn or the decision."""

    type: Literal["fire_mercenary"] = "fire_mercenary"

    def __str__(self) -> str:
        return "fire the Nomad Mercenary"


class Skip(MoveModel):
    """Decline a Follow, a Muster, or (Conscripts) bring nobody in."""

    type: Literal["skip"] = "skip"

    def __str__(self) -> str:
        return "skip"


class Tactic(MoveModel):
    """Spec 1.8.3-1.8.4: the secret tactic card and how it is paid: resources and/or units of the
    battle sacrificed at their natural strength.  No payment on a card that cannot be paid or
    whose restriction fails: it then counts as 0 (spec 1.14); such a void card is accepted but
    never among the legal moves (Hold does the same)."""

    type: Literal["tactic"] = "tactic"
    card: Literal["hold", "stand_firm", "first_strike", "charge", "ambush", "shield_wall", "conscripts"]
    ore: Count = 0
    mana: Count = 0
    food: Count = 0
    serf: Count = 0
    warrior: Count = 0
    hero: Count = 0
    mercenary: Count = 0

    @property
    def resources(self) -> dict[str, int]:
        """The resources paid."""
        return {"ore": self.ore, "mana": self.mana, "food": self.food}

    @property
    def sacrifice(self) -> dict[str, int]:
        """The units sacrificed (they pay their natural strength; NM-6/A-M2: a sacrificed Nomad
        Mercenary figure counts as killed)."""
        return {"serf": self.serf, "warrior": self.warrior, "hero": self.hero, "mercenary": self.mercenary}

    def __str__(self) -> str:
        paid = [describe_resources(self.resources)] if any(self.resources.values()) else []
        if any(self.sacrifice.values()):
            paid.append(f"sacrificing {describe_units(self.sacrifice)}")
        return f"play {HOUSE.tactics[self.card].name}" + (f" paying {' and '.join(paid)}" if paid else "")


class Conscript(MoveModel):
    """House Conscripts card (spec 2.3): bring up to 2 own units from one adjacent region (for the
    defender also from its Courtyard to a Tower region) into the battle."""

    type: Literal["conscript"] = "conscript"
    origin: str
    serf: Count = 0
    warrior: Count = 0
    hero: Count = 0
    mercenary: Count = 0

    @property
    def units(self) -> dict[str, int]:
        """The unit counts as a dict."""
        return {"serf": self.serf, "warrior": self.warrior, "hero": self.hero, "mercenary": self.mercenary}

    def __str__(self) -> str:
        return f"conscript {describe_units(self.units)} from {region_name(self.origin)}"


class Casualties(MoveModel):
    """Spec 1.8.5: the loser's choice of the pieces that die (a Tower dies first by itself) and
    where the survivors retreat (own capital or own Tower region; ``None`` when none survive).

    ``nomad`` is kept for the wire contract and is always 0 here: a capital that loses is
    destroyed at once (spec 1.8.8), and its Nomads go to the supply with it (A-C2).
    """

    type: Literal["casualties"] = "casualties"
    serf: Count = 0
    warrior: Count = 0
    hero: Count = 0
    mercenary: Count = 0
    nomad: Count = 0
    retreat: str | None = None

    @property
    def units(self) -> dict[str, int]:
        """The unit counts as a dict."""
        return {"serf": self.serf, "warrior": self.warrior, "hero": self.hero, "mercenary": self.mercenary}

    def __str__(self) -> str:
        lost = describe_units(self.units)
        if self.nomad:
            lost += f" and {self.nomad} Nomad{'s' if self.nomad != 1 else ''}"
        where = f", retreat to {region_name(self.retreat)}" if self.retreat else ""
        return f"lose {lost}{where}"


class Research(MoveModel):
    """Spec 1.7 Research (full edition): draw 3 spells, then discard down to the hand limit."""

    type: Literal["research"] = "research"
    worker: Worker = "token"

    def __str__(self) -> str:
        return f"research{WORKER_TEXT[self.worker]}"


class Scribe(MoveModel):
    """Spec 1.7 Scribe (full edition; the Research slot): a CAST spell of the hand goes face up
    into a scribed slot."""

    type: Literal["scribe"] = "scribe"
    card: SpellCard
    worker: Worker = "token"

    def __str__(self) -> str:
        return f"scribe {spell_name(self.card)}{WORKER_TEXT[self.worker]}"


class CardMove(MoveModel):
    """A move that plays or drops one spell ``card`` of the hand (its text: ``words``; ``type``
    first, as every move writes it)."""

    type: str
    card: SpellCard
    words: ClassVar[str] = "{card}"

    def __str__(self) -> str:
        return self.words.format(card=spell_name(self.card))


class DiscardSpell(CardMove):
    """Discard one spell of the hand, face up, while over the hand limit (spec 1.7, 1.9)."""

    type: Literal["discard_spell"] = "discard_spell"
    words: ClassVar[str] = "discard {card}"


class Cast(MoveModel):
    """Spec 1.7 Cast (a Command Action, full edition): a CAST spell from the hand or a Ready
    scribed one, on ``target`` (a region, or ``None`` for a spell that takes none)."""

    type: Literal["cast"] = "cast"
    card: SpellCard
    target: str | None = None
    worker: Worker = "token"

    def __str__(self) -> str:
        where = f" on {region_name(self.target)}" if self.target else ""
        muster = "" if self.worker == "token" else f" (Muster{WORKER_TEXT[self.worker]})"
        return f"cast {spell_name(self.card)}{where}{muster}"


class Interrupt(CardMove):
    """Spec 1.7 INTERRUPT spells: answer an enemy's spell as it is cast, cancelling it."""

    type: Literal["interrupt"] = "interrupt"
    words: ClassVar[str] = "interrupt with {card}"


class CombatSpell(CardMove):
    """Spec 1.8.2 COMBAT spells: one per side in a battle, defender first."""

    type: Literal["combat_spell"] = "combat_spell"
    words: ClassVar[str] = "cast {card} in the battle"


class VesselMove(MoveModel):
    """A vessel's move (full edition): to ``destination`` carrying the units counted (loaded where
    it starts, at most 2); :class:`Sail` and :class:`Fly` say which vessel (``type`` first, as
    every move writes it)."""

    type: str
    destination: str
    serf: Count = 0
    warrior: Count = 0
    hero: Count = 0
    mercenary: Count = 0
    worker: Worker = "token"
    verb: ClassVar[str] = ""

    @property
    def units(self) -> dict[str, int]:
        """The cargo as a dict."""
        return {"serf": self.serf, "warrior": self.warrior, "hero": self.hero, "mercenary": self.mercenary}

    def __str__(self) -> str:
        cargo = f" with {describe_units(self.units)}" if any(self.units.values()) else ""
        muster = "" if self.worker == "token" else f" (Muster{WORKER_TEXT[self.worker]})"
        return f"{self.verb} to {sea_or_region(self.destination)}{cargo}{muster}"


class Sail(VesselMove):
    """Spec 1.7 Sail (full edition): the seat's Sea Vessel to a sea region, or a shore it docks at."""

    type: Literal["sail"] = "sail"
    verb: ClassVar[str] = "sail"


class Fly(VesselMove):
    """Spec 1.7 Fly (full edition): the seat's Air Vessel to a land region."""

    type: Literal["fly"] = "fly"
    verb: ClassVar[str] = "fly"


def spell_name(card_id: str) -> str:
    """A spell card's name (its id when it is no card of the deck; the same in every revision of
    the house data: ``catalogue.identity``)."""
    try:
        return FIRST.spell(card_id).name
    except KeyError:
        return card_id


def sea_or_region(where: str) -> str:
    """``"sea_NE"`` -> ``"the North-East Sea"``; a land region by its name."""
    if where.startswith("sea_"):
        compass = {"NE": "North-East", "SE": "South-East", "SW": "South-West", "NW": "North-West", "C": "Central"}
        return f"the {compass.get(where[4:], where[4:])} Sea"
    return region_name(where)


CapitalAction = Recruit | Build | Tax | Research | Scribe
"""The moves of the followable Capital Action slots (spec 1.7); ``type`` names the slot."""

AnyMove = (
    PlaceNomad | Recruit | Build | Tax | March | Pass | Skip | Tactic | Conscript | Casualties | FireMercenary | MoveNomad | Research | Scribe | DiscardSpell | Cast | Interrupt | CombatSpell | Sail | Fly
)
"""The union of the game's move models (``Move`` is it with pydantic's discriminator): the
ruleset's move type parameter (``Ruleset[State, Options, AnyMove]``)."""
Move = Annotated[AnyMove, Field(discriminator="type")]

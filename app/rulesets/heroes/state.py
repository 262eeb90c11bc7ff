"""The layout of a Heroes state: the JSON document every move reads and writes.

A state is stored, cached and replayed as it is, so its layout is typed here as ``TypedDict``s
(``app/rulesets/base.py`` says why) and mypy checks every lookup.  The view is built from it by
naming what each viewer may see (``view.py``); the wire contract is ``docs/heroes.md``, "State".

Counts are plain ``dict[str, int]`` (:data:`Counts`): units by kind (``serf``, ``warrior``,
``hero``, and ``mercenary`` only while it is not 0, ``pieces.py``), resources by name (``ore``,
``mana``, ``food``), a supply of pieces (``serf``, ``warrior``, ``hero``, ``tower``).  Seats are
ints; where JSON needs a string key (``regions[r]["units"]``, ``pending["chosen"]``), a seat is
written ``str(seat)``.  In solo the Enemy is ``players[1]``, no seat of the table (``pieces.ENEMY``).
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

Counts = dict[str, int]
"""Units by kind, resources by name, or pieces in a supply (module docstring)."""
MoveFields = dict[str, str | int | None]
"""A move in its wire form (``dict(move.__dict__)``: every field a str, int or ``None``)."""

Phase = Literal["nomad", "nomad_move", "action", "follow", "muster", "tactics", "conscripts", "casualties",
                "enemy", "over", "discard", "interrupt", "combat_spell"]
"""Whose decision the game waits for (``flow.py``): ``nomad`` the Nomad placement (NW-1; solo NS-2);
``nomad_move`` the solo Nomad move (NS-4); ``action`` a token turn; ``follow`` the Follow window;
``muster`` the Muster window; ``tactics``, ``conscripts``, ``casualties`` a battle (``battles.py``);
``enemy`` (solo, only while ``apply`` runs the Enemy's steps; never at rest); ``over``; full
edition: ``discard`` a seat over its spell hand limit discards, ``interrupt`` the seats that may
answer a spell being cast, ``combat_spell`` a battle's Combat spells, defender first
(``spells.py``)."""
Side = Literal["attacker", "defender"]
SoloStep = Literal["round", "card", "resolve", "gain", "after", "player", "end_round", "close_round"]
"""The step the solo round goes on with (``solo.STEPS``)."""
Then = Literal["muster", "end_turn", "solo"]
"""What follows a battle: the Muster window, the end of the turn, or (solo) the Enemy's round."""


class TableOptions(TypedDict):
    """The table options as stored (the fields of ``options.Options``); ``edition`` is there only
    in a full-edition game (a core game's state keeps the layout it had before the option), and
    ``house_revision`` only in a full-edition game of a later revision than 1 (a revision-1 game's
    state keeps the layout of before: ``catalogue.of`` reads 1 without it)."""

    nomads: Literal["wandering", "mercenary", "none"]
    round_limit: int
    first_player: Literal["random", "host"]
    edition: NotRequired[Literal["full"]]
    house_revision: NotRequired[int]


class Turn(TypedDict):
    """Whose token turn it is (spec 1.6): ``seat`` (``None`` once the game is over), ``lap`` 1 or 2
    (solo: the player's action 1 or 2), ``order`` the round's seats clockwise from the first player."""

    seat: int | None
    lap: int
    order: list[int]


class End(TypedDict):
    """The end of the game once set (spec 1.11): the ``objective`` met (``eXpand``, ``eXploit``,
    ``eXterminate``; solo ``track``), ``by`` whom (``None`` for ``round_limit``), in which ``round``,
    and the ``last_round`` played; once over, ``finished`` says why (the objective,
    ``round_limit`` or ``last_standing``)."""

    objective: str
    by: int | None
    round: int
    last_round: int
    finished: NotRequired[str]


class Region(TypedDict):
    """One land region: ``units`` by seat (``str(seat)``; a seat without units there has no key),
    the seat whose ``tower`` stands there, and whether a board ``nomad`` stands there."""

    units: dict[str, Counts]
    tower: int | None
    nomad: bool


class Player(TypedDict):
    """One player's board (spec 1.5): ``continent`` and ``capital`` region, ``eliminated``;
    ``resources``, running ``score`` (battles, tactics, capitals), ``cc_level``, ``hall`` (built,
    its Serf locked on it), captured ``nomads`` in the Courtyard; the Action ``bar`` by slot
    (``None`` open, ``"token"``, ``"serf"`` or ``"nomad"`` filling it this round, ``"disabled"``
    out of Tier 1), Action ``tokens`` not yet placed, the ``supply`` of pieces not in play, the
    ``tactics`` cards (the 7 house cards, all public).  Solo: the Enemy has ``enemy`` true, its bar
    all ``"disabled"``, no tokens and no tactic cards.  Full edition only: the ``faction``, its
    ``buildings`` built, its ``heroes`` in play (recruit order: the last recruited is the first
    lost), the spell hand ``spells`` (secret: another seat's view shows ``hand_size``), the
    ``scribed`` spells, the ``vessels`` (``"sea"``, ``"air"``: ``None`` while not in play)."""

    continent: str
    capital: str
    eliminated: bool
    resources: Counts
    score: int
    cc_level: int
    hall: bool
    nomads: int
    bar: dict[str, str | None]
    tokens: int
    supply: Counts
    tactics: list[str]
    enemy: NotRequired[bool]
    faction: NotRequired[str]
    buildings: NotRequired[list[str]]
    heroes: NotRequired[list[str]]
    spells: NotRequired[list[str]]
    scribed: NotRequired[list[Scribed]]
    vessels: NotRequired[dict[str, Vessel | None]]


class Vessel(TypedDict):
    """A vessel in play (full edition, ``vessels.py``): where it is (``at``: a land region it is
    docked at or stands in, or a sea region) and the units aboard (``cargo``, only while at sea)."""

    at: str
    cargo: Counts


class Scribed(TypedDict):
    """A scribed spell (spec 1.7 Scribe): the ``card`` and its ``status``: ``ready``, ``exhausted``
    (cast this round) or ``preparing`` (one Round End from ready)."""

    card: str
    status: Literal["ready", "exhausted", "preparing"]


class MercenaryCard(TypedDict):
    """The Nomad Mercenary card (variant ``mercenary``, ``mercenaries.py``): who holds it
    (``None``: the general supply) and how many of its figures live (``owner`` is ``None`` exactly
    when ``alive`` is 0)."""

    owner: int | None
    alive: int


class TacticChoice(TypedDict):
    """A chosen, unrevealed tactic card: the ``tactic`` move in its wire form (spec 1.8.3-1.8.4:
    the card, the resources paid and the units sacrificed).  Secret: never in a view but the
    chooser's own (as ``pending.mine``)."""

    type: Literal["tactic"]
    card: str
    ore: int
    mana: int
    food: int
    serf: int
    warrior: int
    hero: int
    mercenary: int


class CardRecord(TypedDict):
    """One side's revealed card (``battles.reveal``): the ``card``, whether it is ``void``
    (restriction failed or unpaid, spec 1.14) or ``cancelled`` (Shield Wall), the strength ``bonus``
    and ``vp`` it gives, what was ``paid`` and the ``sacrifice``.  Solo: the Enemy's record has
    ``drawn_strength``, the strength of the card it drew."""

    card: str
    void: bool
    cancelled: bool
    bonus: int
    vp: int
    paid: Counts
    sacrifice: Counts
    drawn_strength: NotRequired[int]


class Battle(TypedDict):
    """A battle in progress (spec 1.8, ``battles.py``): the ``attacker`` and ``defender`` seats, the
    ``region``, whether the defender's ``capital`` is attacked, what follows it (``then``), the
    natural ``strength`` by side fixed at its start; after the reveal the ``cards`` by side, after
    the result the ``totals``, the ``winner`` seat and the loser's ``damage``.  Solo: ``enemy_card``
    the card the Enemy drew for it; a Nomad battle the player lost (NS-9) has ``nomad`` true and
    no strength."""

    attacker: int
    defender: int
    region: str
    capital: bool
    then: Then
    cards: dict[str, CardRecord] | None
    strength: NotRequired[Counts]
    totals: NotRequired[Counts]
    winner: NotRequired[int]
    damage: NotRequired[int]
    enemy_card: NotRequired[int]
    nomad: NotRequired[bool]
    spells: NotRequired[dict[str, str]]
    spell_bonus: NotRequired[Counts]


class Pending(TypedDict, total=False):
    """The open decision; which keys it has depends on the phase:

    * ``follow``: the ``leader`` seat, its ``action`` (the move's wire form; solo: only its
      ``type``), the ``queue`` of seats still to decide (``queue[0]`` now), the ``tax_slot`` a
      followed Tax uses (``None`` for other actions);
    * ``muster``: the ``seat`` that may muster;
    * ``nomad_move`` (solo): the ``seat``, this round's ``arrow`` and whether the Nomads go
      ``clockwise`` from it (no Nomad can go in its direction, NS-5);
    * ``tactics``: the ``battle``, the ``chosen`` flags by seat (``str(seat)``) and the secret
      ``choices`` by seat (:class:`TacticChoice`);
    * ``conscripts``: the ``battle``, the ``queue`` of seats whose Conscripts is in play and the
      ``seat`` choosing now;
    * ``casualties``: the ``battle``, the loser's ``seat``, the ``damage`` it takes and the
      ``retreat`` regions its survivors may go to;
    * ``discard`` (full edition): the ``seat`` over its hand limit, the ``queue`` of seats still to
      discard after it, and what the game does next (``resume``, ``spells.resume``);
    * ``interrupt``: the ``spell`` being cast (caster, card, target, what follows), the ``queue``
      of seats that may still answer it;
    * ``combat_spell``: as ``tactics`` plus the ``queue`` of battle seats still to decide.
    """

    leader: int
    action: MoveFields
    queue: list[int]
    tax_slot: str | None
    seat: int
    arrow: str
    clockwise: bool
    battle: Battle
    chosen: dict[str, bool]
    choices: dict[str, TacticChoice]
    damage: int
    retreat: list[str]
    resume: dict[str, Any]
    spell: dict[str, Any]


class BattleSummary(TypedDict):
    """The public outcome of the battle a move resolved (``battles.summary``): the cards and whether
    each was ``effective`` by seat (``str(seat)``), the ``natural`` and total ``strength`` by side,
    the ``winner`` seat and the loser's ``damage``."""

    region: str
    attacker: int
    defender: int
    capital: bool
    cards: dict[str, str]
    effective: dict[str, bool]
    natural: Counts
    strength: Counts
    winner: int
    damage: int


class Last(TypedDict):
    """What the last move touched, for the renderer's highlight: the ``seat`` and ``type`` of the
    move, the ``move`` itself (absent for a ``tactic``: secret), every region it touched, every
    ``[seat, slot]`` of the Action Bar it filled, and the ``battle`` it resolved."""

    seat: int
    type: str
    regions: list[str]
    slots: list[list[int | str]]
    battle: BattleSummary | None
    move: NotRequired[MoveFields]


class Gain(TypedDict):
    """Solo: the resource the Enemy collects for the region its army entered, once the battle
    there (if any) is over (``enemy.collect_gain``)."""

    region: str
    amount: int


class Solo(TypedDict):
    """The solo game against the Enemy (spec 1.12, ``solo.py``): its ``deck`` (next card first,
    secret: a view shows ``deck_size``), ``discard``, the cards in Hero ``slots`` 1-3 and the 4th
    card (NS-14; ``None`` while empty), the regions of its ``heroes`` 1-3, the steps of its C.C.
    ``track``, the ``slot`` being played (1-4), this round's ``arrow``, the ``free`` continent's
    capital region, the ``next`` step of the round (``None`` while the player decides); ``gain``
    while an entered region's resource waits; ``opening``, the log events (``Event`` dumps;
    plain texts in games stored before events had a rule apart) of round 1's first Enemy steps run
    at setup, until the first move logs them."""

    deck: list[int]
    discard: list[int]
    slots: list[int | None]
    heroes: list[str]
    track: int
    slot: int
    arrow: str | None
    next: SoloStep | None
    free: str
    gain: NotRequired[Gain]
    opening: NotRequired[list[str | dict[str, Any]]]


class HeroesState(TypedDict):
    """A whole Heroes game: the table (``n_players``, ``options``, the secret ``rng``), the
    ``round`` and ``phase``, the ``first_player``, the ``turn``, the ``tax_track`` (slot ``"4"``,
    ``"3"``, ``"2"`` -> resource), the ``end`` once set, the land ``regions`` by id, the
    ``players`` in seat order (solo: the player and the Enemy), the Nomads' ``nomad_supply``, the
    Nomad ``mercenary`` card (variant ``mercenary``, else ``None``), the ``pending`` decision, the
    ``last`` move; solo also ``solo``.  Full edition only: the ``spell_deck`` (secret order: a view
    shows ``spell_deck_size``), the face-up ``spell_discard``, the face-down exploration ``tokens``
    by region (secret: a view shows only where they lie) and the ``revealed`` ones."""

    n_players: int
    options: TableOptions
    rng: int
    round: int
    phase: Phase
    first_player: int
    turn: Turn
    tax_track: dict[str, str]
    end: End | None
    regions: dict[str, Region]
    players: list[Player]
    nomad_supply: int
    mercenary: MercenaryCard | None
    pending: Pending | None
    last: Last | None
    solo: NotRequired[Solo]
    spell_deck: NotRequired[list[str]]
    spell_discard: NotRequired[list[str]]
    tokens: NotRequired[dict[str, str]]
    revealed: NotRequired[dict[str, str]]

"""The ruleset contract: what every game implements and the platform relies on.

A ruleset is a pure, deterministic state machine (docs/architecture.md, "The ruleset contract").
It imports nothing from the platform but this module, and the platform never imports a game
by name: games are found through the ``caravanserai.rulesets`` entry-point group.

Conventions shared by every ruleset:

* A *seat* is an ``int`` from ``0`` to ``n_players - 1``; seat order is turn order.
* A *state* is a JSON-compatible value (dicts with string keys, lists, ints, strs, bools,
  None).  It is stored as the game's snapshot and must round-trip through JSON exactly.
  All randomness lives in the state as the integer state of an :class:`Rng`.  Each game types
  its state's layout as ``TypedDict``s in its ``state.py`` and declares it as the class's first
  type parameter, its ``Options`` model and the union of its move models as the other two
  (``class Nimalia(Ruleset[NimaliaState, NimaliaOptions, AnyMove])``), so mypy checks that
  ``setup``, ``legal_moves``, ``apply`` and the hooks take and give the game's own types and a
  game need not re-check them; the platform sees ``Ruleset[Any]`` (any state, options and move).
  Why ``TypedDict`` rather than dataclasses or pydantic models: the state is a JSON document
  that is stored, cached, replayed and sent on every move, so a typed description of that very
  document gives mypy every key and type (``tests/test_typing.py``) at no cost on the
  move pipeline and with no migration of stored games, where objects would be converted to and
  from JSON on every move.
* States are copied one way, :func:`copy_state` (an orjson round trip).
* A *move* is a small frozen pydantic model with a ``type`` literal; each ruleset declares a
  discriminated union of its move models as ``Move``.  ``str(move)`` reads well in a log.  Its
  fields may be anything pydantic writes as JSON, nested models included; plain fields (str, int,
  bool, None, literals, tuples of them) are written into frames faster (``app/rulesets/wire.py``,
  which is the platform's, not part of this contract).
* ``apply`` never mutates its input; it returns a new state and the log events it caused, or
  raises :class:`IllegalMove`.
"""

from __future__ import annotations

import functools
import re
import importlib
import importlib.resources
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Generic, Self, cast

from typing_extensions import TypeVar

import orjson
from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, TypeAdapter, ValidationError, model_serializer, model_validator

Seat = int
State = dict[str, Any]
"""Any game's state as the platform sees it (a JSON object)."""
StateT = TypeVar("StateT", bound=Mapping[str, Any])
"""The type of one game's state: its ``TypedDict`` (``state.py``)."""
# The two below have defaults (PEP 696, from typing_extensions on Python 3.11): the platform's
# ``Ruleset[Any]`` still reads "any game".
OptionsT = TypeVar("OptionsT", bound="BaseModel", default="BaseModel")
"""The type of one game's table options: its ``Options`` model."""
MoveT = TypeVar("MoveT", bound="MoveModel", default="MoveModel")
"""The type of one game's moves: the union of its move models (its ``Move`` without the
discriminator's ``Annotated``)."""
REFERENCE_FILE = "reference.md"
LOCALES_DIR = "locales"
"""The folder beside a ruleset's module that holds its catalogs, ``locales/<lang>.po`` (docs/i18n.md)."""

__all__ = [
    "Event",
    "amount",
    "card",
    "piece",
    "place",
    "player",
    "split_rule",
    "words",
    "IllegalMove",
    "MalformedMove",
    "MoveModel",
    "NoOptions",
    "Result",
    "Rival",
    "Rng",
    "Ruleset",
    "Seat",
    "State",
    "Variant",
    "StateT",
    "copy_state",
    "rank_by_score",
]


class IllegalMove(Exception):
    """A well-formed move that the rules forbid in this position.

    ``code`` is a wire error code (``illegal_move`` or ``not_your_turn``); ``message`` says in
    words which rule the move breaks, e.g. ``"P-5: a pink camel of Seat 2 is adjacent"``.  It may
    be a template whose ``{name}`` placeholders ``params`` fill (``IllegalMove("{cell} is taken",
    cell="F7")``): the template is then a msgid of the game's catalog and players read the message
    in their language (docs/i18n.md); ``message`` is the English text.
    """

    def __init__(self, message: str, code: str = "illegal_move", **params: Any) -> None:
        self.template = message
        self.params = params
        self.message = _fill(message, params)
        super().__init__(self.message)
        self.code = code


class MalformedMove(Exception):
    """A move that does not parse as any of the ruleset's move models (wire code ``bad_request``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.code = "bad_request"
        self.message = message


_set_attribute = object.__setattr__
"""How ``BaseModel.model_construct`` sets a frozen model's attributes (:meth:`MoveModel.trusted`,
:meth:`Event.trusted`)."""


class MoveModel(BaseModel):
    """Base class of every move model: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    @classmethod
    def trusted(cls, **values: Any) -> Self:
        """``cls(**values)`` without pydantic's validation, for a ruleset listing its legal moves
        (hundreds per position in some games): the same move (equal, the same dump and text),
        faster than ``model_construct``, which loops over the fields in Python.

        ``values`` must give every field, in the order the model declares them, each already of
        its field's type (a ``Literal`` ``type`` included); nothing checks it.  Anything read from
        outside goes through ``model_validate``."""
        move = cls.__new__(cls)
        _set_attribute(move, "__dict__", values)
        _set_attribute(move, "__pydantic_fields_set__", set(values))
        _set_attribute(move, "__pydantic_extra__", None)
        _set_attribute(move, "__pydantic_private__", None)
        return move

    @classmethod
    def shared(cls, **values: Any) -> Self:
        """``cls(**values)``, validated the first time and then the same (frozen) value again: for
        a ruleset whose legal lists repeat the same moves (a Heroes Tax or Recruit at every turn).
        The values must be hashable (strings, numbers, ``None``); :data:`SHARED_MOVES` are kept,
        the least recently used dropped first.  Raises ``pydantic.ValidationError`` like
        ``cls(**values)``."""
        move: Self = _shared_move(cls, tuple(values.items()))  # type: ignore[assignment]  # made by cls itself
        return move


SHARED_MOVES = 4096
"""How many moves :meth:`MoveModel.shared` keeps (all rulesets together)."""


@functools.lru_cache(maxsize=SHARED_MOVES)
def _shared_move(cls: type[MoveModel], values: tuple[tuple[str, Any], ...]) -> MoveModel:
    return cls(**dict(values))


class NoOptions(BaseModel):
    """Options model for a ruleset that has no table options."""

    model_config = ConfigDict(extra="forbid")


RULE_CODE = r"[A-Z]{1,3}-[A-Z]?\d+[a-z]?"
"""A rule code of a rules reference (``R-30b``, ``NS-7``, ``A-M4``): an anchor of ``/rules/<game>``."""
_RULE_NOTE = re.compile(rf"\s*\((?:see )?({RULE_CODE})(?:\s*(?:,|/|;|and|\.\.)\s*{RULE_CODE})*(?::\s*([^()]*))?\)")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_SEAT_PLACEHOLDER = re.compile(r"seat(\d+)")
ARG_KINDS = ("player", "piece", "place", "card", "amount", "words")
"""The kinds of an event argument (see :class:`Event`)."""


def _fill(text: str, params: Mapping[str, Any]) -> str:
    """``text`` with each ``{name}`` of ``params`` filled in one pass; other braces stay."""
    if not params:
        return text
    return _PLACEHOLDER.sub(lambda match: str(params[match.group(1)]) if match.group(1) in params else match.group(0), text)


def split_rule(text: str) -> tuple[str, str | None]:
    """``"takes the card (R-30b)" -> ("takes the card", "R-30b")``: the words of a log text without
    its parenthesised rule codes, and the first code (``None`` if there is none).  A note's own
    words stay: ``"moves (NS-4: arrow SW)" -> ("moves (arrow SW)", "NS-4")``.

    Every event passes through it (:class:`Event`), so a code written into a sentence, or stored
    in an old game's log before events carried their rule apart, reaches players as a rule
    reference and never as words.
    """
    if "(" not in text:  # no note to look for: most texts, and much faster than the search
        return text, None
    match = _RULE_NOTE.search(text)
    if match is None:
        return text, None
    return _RULE_NOTE.sub(lambda note: f" ({note.group(2)})" if note.group(2) else "", text), match.group(1)


def player(seat: Seat) -> dict[str, Any]:
    """An event argument naming the player at ``seat``; the platform adds the name."""
    return {"kind": "player", "seat": seat}


def place(label: str, at: Any = None) -> dict[str, Any]:
    """An event argument naming a place as the board shows it (``"F7"``, ``"North Plains"``);
    ``at`` is its wire form (a cell, a hex, a region id) for a client that marks it."""
    return {"kind": "place", "text": label, "at": at}


def piece(name: str) -> dict[str, Any]:
    """An event argument naming pieces in words (``"the blue leader"``, ``"2 Soldiers"``)."""
    return {"kind": "piece", "text": name}


def card(name: str) -> dict[str, Any]:
    """An event argument naming a card as players call it (never an internal id, never a hidden
    value in an entry others read)."""
    return {"kind": "card", "text": name}


def amount(value: int, unit: str = "") -> dict[str, Any]:
    """An event argument for a number of things: ``amount(3, "coins") -> "3 coins"``."""
    return {"kind": "amount", "value": value, "unit": unit, "text": f"{value} {unit}".strip()}


def words(text: str) -> dict[str, Any]:
    """An event argument of plain words (a reason, a list already written out)."""
    return {"kind": "words", "text": text}


class Event(BaseModel):
    """One log entry caused by a move: a sentence template, its typed arguments, its rule.

    * ``text`` is the template, in words: ``{name}`` stands for ``args[name]``, and ``{seat0}``
      .. ``{seat4}`` for the players at those seats (filled in by the platform).  It carries no
      rule code: a parenthesised code in it (``"(R-30b)"``) is moved to ``rule`` on creation
      (:func:`split_rule`), which also reads the plain texts stored by older versions.
    * ``args`` maps a name to a typed argument: ``{"kind": "player", "seat": 2}``, ``{"kind":
      "place", "text": "F7", "at": ...}``, ``{"kind": "card" | "piece" | "words", "text": ...}``,
      ``{"kind": "amount", "value": 3, "unit": "coins", "text": "3 coins"}`` (build them with
      :func:`player`, :func:`place`, :func:`card`, :func:`piece`, :func:`amount`, :func:`words`).
      An argument is read by everyone who reads the entry: it never carries hidden information.
    * ``rule`` is the rule code the entry applies (an anchor of the game's rules page) or ``None``.
    * ``seats`` is ``None`` for a public entry, or the seats that alone may read it (private
      information such as a drawn card).
    * ``reveals`` are the seats whose earlier hidden choices the entry makes public (simultaneous
      picks shown once everyone has chosen: Nimalia's placements, Heroes' tactic cards): where a bot
      made that choice for the seat's person, the platform names the seat "(bot)" in the entry, as
      it does the mover of a bot's move (``app/services/games/bot_log.py``).  Not stored with the entry.
    """

    model_config = ConfigDict(frozen=True)

    text: str
    args: dict[str, dict[str, Any]] = {}
    rule: str | None = None
    seats: tuple[Seat, ...] | None = None
    reveals: tuple[Seat, ...] = Field(default=(), exclude=True)

    @model_validator(mode="before")
    @classmethod
    def _rule_apart(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("text"), str):
            text, rule = split_rule(data["text"])
            if rule is not None:
                data = {**data, "text": text, "rule": data.get("rule") or rule}
        return data

    @classmethod
    def trusted(cls, text: str, args: dict[str, dict[str, Any]] | None = None, rule: str | None = None,
                seats: tuple[Seat, ...] | None = None, reveals: tuple[Seat, ...] = ()) -> Event:
        """``Event(text=..., args=..., rule=..., seats=..., reveals=...)`` without pydantic's validation: the same
        event (equal, the same dump, the rule code moved out of ``text`` by :func:`split_rule`),
        faster, for the hot paths of the rules (an event or more per move).

        Only for values already of the field types: ``text`` a str, ``args`` a dict of dicts that
        nothing changes afterwards (it is kept, not copied), ``rule`` a str or ``None``, ``seats``
        a tuple of seats or ``None``; anything read from outside goes through ``Event(...)``."""
        words, found = split_rule(text)
        event = cls.__new__(cls)
        fields = {"text"}
        if args is None:
            args = {}
        else:
            fields.add("args")
        if seats is not None:
            fields.add("seats")
        if reveals:
            fields.add("reveals")
        if rule is not None:
            fields.add("rule")
        elif found is not None:
            rule = found
            fields.add("rule")
        _set_attribute(event, "__dict__", {"text": words, "args": args, "rule": rule, "seats": seats, "reveals": reveals})
        _set_attribute(event, "__pydantic_fields_set__", fields)
        _set_attribute(event, "__pydantic_extra__", None)
        _set_attribute(event, "__pydantic_private__", None)
        return event

    def visible_to(self, seat: Seat | None) -> bool:
        """Whether a viewer at ``seat`` (``None``: spectator) may read this entry."""
        return self.seats is None or (seat is not None and seat in self.seats)

    def typed_args(self) -> dict[str, dict[str, Any]]:
        """``args`` plus a ``player`` argument for every ``{seatN}`` of the template."""
        found = dict(self.args)
        for name in _PLACEHOLDER.findall(self.text):
            seat = _SEAT_PLACEHOLDER.fullmatch(name)
            if seat is not None and name not in found:
                found[name] = player(int(seat.group(1)))
        return found

    def render(self, names: tuple[str, ...]) -> str:
        """The sentence in words: every placeholder filled, players by ``names`` (one pass, so a
        name is never read as a placeholder); an unknown placeholder stays as written."""
        args = self.typed_args()

        def fill(match: re.Match) -> str:
            arg = args.get(match.group(1))
            if arg is None:
                return match.group(0)
            return arg_text(arg, names)

        return _PLACEHOLDER.sub(fill, self.text)


def arg_text(arg: dict[str, Any], names: tuple[str, ...]) -> str:
    """The words of one event argument; a player's are their name (``names[seat]``), followed by
    " (bot)" when a bot made the move for them (``"bot": true``, added by the platform): "Ben
    (bot)", or "Ben (seat 2, bot)" for a name the platform already told apart by its seat."""
    if arg.get("kind") == "player":
        seat = arg.get("seat")
        name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"Seat {seat}"
        if not arg.get("bot") or name.endswith("(bot)"):
            return name
        return f"{name[:-1]}, bot)" if _SEAT_LABEL.search(name) else f"{name} (bot)"
    return str(arg.get("text", ""))


_SEAT_LABEL = re.compile(r" \(seat \d+\)$")
"""The label the platform gives two people of one name at a table: "Carol (seat 3)"."""


class Rival(BaseModel):
    """A side that plays against the seats without being a seat of the table (Heroes' solo Enemy),
    scored beside them so a player sees what they were measured against.

    ``name`` is a msgid of the game's catalog (``"The Enemy"``), said in the reader's language;
    ``score`` its final score; ``breakdown`` its points in the seats' categories, adding up to
    ``score`` (``{}``: no breakdown).  A seat's place against it is in ``Result.ranks``.
    """

    model_config = ConfigDict(frozen=True)

    name: str
    score: int
    breakdown: dict[str, int] = {}


class Result(BaseModel):
    """The end of a game as a value.

    ``scores[seat]`` is the final score; ``ranks[seat]`` is the 1-based place, tied seats
    sharing a place (``[1, 1, 3]``), a higher score never placed behind a lower one (a game's
    tie-break may separate equal scores); a solo seat may be placed behind a rival that is no
    seat (Heroes' Enemy: ``[2]``); ``breakdown[seat]`` maps a scoring category to points that
    add up to the score;
    ``reason`` says in words why the game ended, a template like an event's text: ``{seat0}``..
    are filled in with the players' names, and any other ``{name}`` by ``reason_args[name]``, a
    typed argument as an event's (:func:`amount`, :func:`words`, ...), so the template is one
    msgid of the game's catalog whatever the values (``"the round limit ({limit}) was reached"``,
    ``{"limit": amount(12)}``) and a client says the values in its reader's language.

    ``rivals``: the sides scored against the seats that are no seat (:class:`Rival`; a solo
    game's opponent), shown beside the seats; ``ranks`` already place each seat against them.

    ``reason_args`` and ``rivals`` are left out of the dump when empty, so a result without them
    dumps (and goes on the wire) exactly as before the fields existed.
    """

    model_config = ConfigDict(frozen=True)

    scores: list[int]
    ranks: list[int]
    breakdown: list[dict[str, int]] = []
    reason: str = ""
    reason_args: dict[str, dict[str, Any]] = {}
    rivals: list[Rival] = []

    @model_serializer(mode="wrap")
    def _optional_fields_only_when_given(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        dumped = handler(self)
        if not self.reason_args:
            dumped.pop("reason_args", None)
        if not self.rivals:
            dumped.pop("rivals", None)
        return dumped

    def reason_words(self, names: tuple[str, ...]) -> str:
        """The reason in English words: its template filled with ``names`` and ``reason_args``
        (:meth:`Event.render`), without its rule code (:func:`split_rule`)."""
        return Event.trusted(self.reason, self.reason_args).render(names) if self.reason else ""


class Variant(BaseModel):
    """Table options that change the flow of play (a phase, a kind of move, how the game ends),
    and the player counts where they do (empty: the smallest and the largest count).

    A ruleset lists them in ``variants``; the conformance kit (``app/rulesets/testing.py``)
    plays each of them besides the default options at every player count.  ``options`` is the
    raw table options, as ``parse_options`` takes them.
    """

    model_config = ConfigDict(frozen=True)

    options: dict[str, Any]
    players: tuple[int, ...] = ()


def rank_by_score(scores: list[int]) -> list[int]:
    """Competition ranking, highest first: ``[45, 39, 45] -> [1, 3, 1]``."""
    return [1 + sum(other > score for other in scores) for score in scores]


class Rng:
    """A small deterministic PRNG (SplitMix64) whose whole state is one int kept in the game state.

    Usage inside ``apply``::

        rng = Rng(state["rng"]); roll = rng.randrange(6) + 1; state["rng"] = rng.state

    The seed and this state are secret: they never appear in a view.
    """

    _MASK = (1 << 64) - 1

    def __init__(self, state: int) -> None:
        self.state = state & self._MASK

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & self._MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self._MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self._MASK
        return z ^ (z >> 31)

    def randrange(self, n: int) -> int:
        """A uniform int in ``[0, n)``; ``n`` must be positive."""
        if n <= 0:
            raise ValueError("randrange needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def shuffle(self, items: list) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randrange(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list):
        """One element of a non-empty list."""
        return items[self.randrange(len(items))]


class Ruleset(ABC, Generic[StateT, OptionsT, MoveT]):
    """The contract every game implements (docs/architecture.md, "The ruleset contract").

    Class attributes state what the game is (like OpenSpiel's game facts):

    * ``name`` (url-safe id), ``title``, ``min_players``, ``max_players``;
    * ``simultaneous``: whether ``to_act`` may hold several seats at once;
    * ``hidden_information``: whether ``secrets`` can be non-empty;
    * ``listed``: whether the lobby offers it (benchmark rulesets set ``False``);
    * ``variants``: the table options that change the flow of play (:class:`Variant`), which
      the conformance kit plays besides the defaults;
    * ``summary`` (one line for the lobby's game card) and ``minutes`` (the typical length of a
      game online, ``(shortest, longest)`` in minutes; ``None``: not known);
    * ``live_move_seconds``: the time per move the lobby proposes for a live table of this game,
      long enough for a newcomer reading the moves (a game of many phases gets more);
    * ``languages``: the languages the game speaks, English first (``("en", "fr")``); each one
      but English ships a gettext catalog ``locales/<lang>.po`` beside the package (read by
      :meth:`locale_file`) with an entry for every template, argument text, option label, prompt
      and renderer string the game shows, which the conformance kit checks (docs/i18n.md);
    * ``bot_playout_plies`` and ``bot_playout_width``: how the ``strong`` bot scores a leaf of its
      search (app/bots/players.py, :class:`IsmctsBot`): after that many greedy moves, each the
      best by ``evaluate`` one ply deep among at most that many legal moves (0 plies: the leaf
      as it stands, the default);
    * ``bot_turn_width``: where a seat makes several moves in a row (a turn of dice), the
      ``strong`` bot plans the rest of its turn by a beam search of this width over its own moves
      and plays the first move of the best plan (0: no planning, the default; :func:`plan_turn`
      in app/bots/players.py);
    * ``Options``: pydantic model of the table options;
    * ``Move``: the discriminated union (``Annotated[A | B, Field(discriminator="type")]``)
      or a single ``MoveModel`` subclass.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    simultaneous: ClassVar[bool] = False
    hidden_information: ClassVar[bool] = False
    listed: ClassVar[bool] = True
    variants: ClassVar[tuple[Variant, ...]] = ()
    summary: ClassVar[str] = ""
    minutes: ClassVar[tuple[int, int] | None] = None
    live_move_seconds: ClassVar[int] = 60
    languages: ClassVar[tuple[str, ...]] = ("en",)
    bot_playout_plies: ClassVar[int] = 0
    bot_playout_width: ClassVar[int] = 200
    bot_turn_width: ClassVar[int] = 0
    Options: ClassVar[type[BaseModel]] = NoOptions
    Move: ClassVar[Any]

    # -- the contract -------------------------------------------------------------------------

    @abstractmethod
    def setup(self, n_players: int, options: OptionsT, seed: int) -> StateT:
        """The starting position; every random choice comes from ``seed``."""

    @abstractmethod
    def to_act(self, state: StateT) -> set[Seat]:
        """The seats that must act now; empty once the game is over."""

    @abstractmethod
    def legal_moves(self, state: StateT, seat: Seat) -> list[MoveT]:
        """Every legal move of ``seat`` now (empty if the seat is not to act)."""

    @abstractmethod
    def apply(self, state: StateT, seat: Seat, move: MoveT) -> tuple[StateT, list[Event]]:
        """The next state and its log events; raises :class:`IllegalMove`. Never mutates ``state``."""

    @abstractmethod
    def view(self, state: StateT, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see; JSON-compatible."""

    @abstractmethod
    def result(self, state: StateT) -> Result | None:
        """Final scores and ranking once the game is over, else ``None``."""

    def secrets(self, state: StateT, seat: Seat) -> set[str]:
        """Distinctive strings only ``seat`` may see now (card ids, hidden values as tokens).

        The conformance kit checks that no other seat's view, no spectator view and no log
        entry visible to others contains any of them.  Default: no hidden information.
        """
        return set()

    # -- taking a move back (app/services/games/undo.py) ---------------------------------------------

    def is_reversible(self, before: StateT, seat: Seat, move: MoveT, after: StateT) -> bool:
        """Whether ``seat`` may take ``move`` back, ``before`` -> ``after`` being what it did.

        A move may be taken back only if it revealed nothing: no die rolled, no card drawn or
        looked at, no hidden information learned by anyone (its owner included), since taking it
        back cannot make anyone forget.  The platform adds the other conditions: the move is the
        seat's own last one, no other seat has acted since, and the game is still running.
        Called once per move, right after ``apply``; it must be cheap and never mutate its inputs.
        Default ``False`` (safe): a ruleset lists its reversible moves in its docstring.
        """
        return False

    def reveals_nothing(self, before: StateT, after: StateT, seats: int) -> bool:
        """A building block for :meth:`is_reversible`: the PRNG (``state["rng"]``, where the state
        has one) did not move and no seat's :meth:`secrets` changed, so no chance was drawn and no
        hidden token appeared, moved or was revealed.  Necessary, not sufficient: a game that
        reveals a pre-shuffled card to everyone must check that itself."""
        if before.get("rng") != after.get("rng"):
            return False
        return all(self.secrets(before, seat) == self.secrets(after, seat) for seat in range(seats))

    # -- optional hooks for bots (app/bots) ----------------------------------------------------

    def determinize(self, view: dict[str, Any], seat: Seat, rng: Rng) -> StateT | None:
        """A full state consistent with everything ``seat`` sees in ``view``, hidden parts sampled.

        Bots never read the real state: a searching bot plays moves on states built here.  The
        sampled parts (other seats' hidden cards or values, deck order, the PRNG) come from
        ``rng``.  Default ``None``: the ruleset offers no search, bots fall back to a policy.

        The conformance kit holds it to: ``view(world, seat)`` equals ``view`` and a spectator's
        view of ``world`` equals one of the real state (nothing seen changes); the world has the
        state's fields, the same seats to act and the same legal moves for ``seat``, each of which
        ``apply`` accepts; one ``rng`` seed gives one world; ``view`` itself is left unchanged.
        """
        return None

    def evaluate(self, state: StateT, seat: Seat) -> float:
        """How good ``state`` is for ``seat`` (higher is better), for bots' searches.

        Default: once over, the seat's final score minus the best other score; before, 0.
        """
        result = self.result(state)
        if result is None:
            return 0.0
        others = [score for other, score in enumerate(result.scores) if other != seat]
        return float(result.scores[seat] - (max(others) if others else 0))

    # -- optional hook for time control (app/services/leader/clock.py) ------------------------------

    def timeout_move(self, state: StateT, seat: Seat) -> MoveT | None:
        """The move ``seat`` makes when its time runs out, where the game's rules fix one.

        Default ``None``: the default bot takes the seat over (Board Game Arena's zombie mode).
        A ruleset returns a move for a decision whose time-out the rules settle, such
        as Nomadi's unanswered offer, which is declined (spec section 5, #16 and #30); the seat
        stays its person's.  The move is always one of ``legal_moves(state, seat)``, so ``None``
        for a seat that is not to act (the conformance kit checks both at every position).
        """
        return None

    # -- the rules reference (app/rulesets/reference.py, docs/rules/README.md) ---------------

    @classmethod
    def reference(cls) -> str | None:
        """The game's rules reference: the Markdown file ``reference.md`` shipped as package data
        beside the module that defines the class (``app/rulesets/nimalia/reference.md``), or
        ``None`` when the package has none (the game then has no rules page).

        Read through ``importlib.resources``, so it works from an installed wheel or zip as well
        as from a checkout; a ruleset may override it to ship its rules another way.
        """
        spec = importlib.import_module(cls.__module__).__spec__
        package = spec.parent if spec is not None else ""
        if not package:  # a class of a top-level module or of __main__: no package to hold the file
            return None
        try:
            return importlib.resources.files(package).joinpath(REFERENCE_FILE).read_text(encoding="utf-8")
        except (FileNotFoundError, NotADirectoryError):
            return None

    @classmethod
    def players_rules(cls, language: str) -> str | None:
        """The players' part of the rules page in ``language``: ``rules.<language>.md`` beside the
        module (``app/rulesets/through_the_desert/rules.fr.md``), with the structure of the part of
        :meth:`reference` before "## About the numbered rules", or ``None`` (the page is then
        English).  The numbered reference is never translated: the code follows its English."""
        if not language.isalpha():
            return None
        return cls._package_text(f"rules.{language}.md")

    @classmethod
    def locale_file(cls, language: str) -> str | None:
        """The text of the game's gettext catalog for ``language``: ``locales/<language>.po``
        shipped as package data beside the module that defines the class
        (``app/rulesets/through_the_desert/locales/fr.po``), or ``None`` when there is none.

        The msgids are the English texts the game's code writes (log templates with their
        ``{placeholders}``, argument texts, option labels...); the platform reads the file with
        Babel (``app/i18n``).  Read through ``importlib.resources`` like :meth:`reference`.
        """
        if not language.isalpha():  # a language tag, never a path
            return None
        return cls._package_text(LOCALES_DIR, f"{language}.po")

    @classmethod
    def _package_text(cls, *parts: str) -> str | None:
        """The text of the file ``parts`` inside the package of the module that defines the class
        (package data, read through ``importlib.resources``), or ``None`` when there is none."""
        spec = importlib.import_module(cls.__module__).__spec__
        package = spec.parent if spec is not None else ""
        if not package:
            return None
        try:
            return importlib.resources.files(package).joinpath(*parts).read_text(encoding="utf-8")
        except (FileNotFoundError, NotADirectoryError):
            return None

    # -- helpers shared by all rulesets -------------------------------------------------------

    def parse_options(self, raw: dict[str, Any] | None) -> OptionsT:
        """Validate table options; raises ``pydantic.ValidationError``."""
        return cast(OptionsT, self.Options.model_validate(raw or {}))

    def new_table_options(self, raw: dict[str, Any] | None) -> OptionsT:
        """Validate the options of a table being created (a host's choices, as the client sent them);
        raises ``pydantic.ValidationError``.  Strict: each option must be its JSON type (a switch
        ``true`` or ``false``, a number an integer, a choice one of its strings), nothing converted
        (docs/api.md, "Errors": ``1``, ``"yes"``, ``2.0`` or ``"5"`` are refused).  Stored options
        (:meth:`parse_options`) are the JSON dump of options validated so, read as before.  A ruleset
        overrides this when it keeps in its options something the host does not choose and that a
        stored table's options lack (Heroes: the revision of its house data, the newest for a new
        table, the first for a stored one)."""
        return cast(OptionsT, self.Options.model_validate(raw or {}, strict=True))

    def parse_move(self, raw: Any) -> MoveT:
        """Parse a move from the wire; raises :class:`MalformedMove` with pydantic's reason."""
        try:
            move: MoveT = move_adapter(type(self)).validate_python(raw)
            return move
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first.get("loc", ())) or "move"
            raise MalformedMove(f"malformed move: {where}: {first.get('msg')}") from None

    def dump_move(self, move: MoveT) -> dict[str, Any]:
        """The JSON form of a move, as sent on the wire and stored in the move log."""
        return move.model_dump(mode="json")

    def check_and_apply(self, state: StateT, seat: Seat, move: MoveT) -> tuple[StateT, list[Event]]:
        """``apply`` behind the turn check: raises ``IllegalMove(code="not_your_turn")`` first."""
        if seat not in self.to_act(state):
            raise IllegalMove("it is not your turn", code="not_your_turn")
        return self.apply(state, seat, move)


def copy_state(state: StateT) -> StateT:
    """A deep copy of a JSON-compatible state (an orjson round trip: about 3x faster than
    ``copy.deepcopy`` on these documents), for ``apply`` to change.  The one copy every ruleset
    uses.  Tuples come back as lists, as they would from the database."""
    copied: StateT = orjson.loads(orjson.dumps(state))
    return copied


@functools.cache
def move_adapter(ruleset_class: type[Ruleset[Any]]) -> TypeAdapter:
    """The pydantic adapter of a ruleset's ``Move`` union, made once per class."""
    return TypeAdapter(ruleset_class.Move)

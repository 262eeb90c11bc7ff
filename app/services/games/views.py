"""Per-viewer payloads: the only road by which game state leaves the server.

Everything a person receives about a game (REST game state, WebSocket ``state`` frames, log,
replay) is built here from ``Ruleset.view`` and the log's per-seat redaction, so hidden
information and the seed stay inside.
"""

from __future__ import annotations

import functools
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.db.models import iso_utc
from app.rulesets.base import Event, Result, Ruleset, arg_text, split_rule
from app.services.games import abandonment
from app.services.games.cache import GameSnapshot
from app.services.tables.seating import SeatInfo
from app.services.games.legal_forms import LegalForm, legal_in_form


def fill_names(text: str, names: tuple[str, ...]) -> str:
    """Replace ``{seat0}``.. in a text by the players' names, in one pass (a name is never re-read)."""
    return Event(text=text).render(names)


def log_entry(version: int, event: Event, names: tuple[str, ...]) -> dict[str, Any]:
    """One log entry on the wire (docs/api.md, "Log entries"): ``{version, text, template, args,
    rule}``.

    ``text`` is the sentence in words (what ``GET /log`` readers and old clients show);
    ``template`` and ``args`` let a client write it itself (players' arguments carry their
    names as ``text``); ``rule`` is the rule code it applies, an anchor of ``/rules/<game>``, or
    None.
    """
    args = {name: {**arg, "text": arg_text(arg, names)} if arg.get("kind") == "player" else arg
            for name, arg in event.typed_args().items()}
    return {"version": version, "text": event.render(names), "template": event.text, "args": args,
            "rule": event.rule}


def log_entries(rows: list[tuple[int, list[dict[str, Any]]]], seat: int | None,
                names: tuple[str, ...]) -> list[dict[str, Any]]:
    """The entries of ``rows`` (``(version, events)`` pairs) that ``seat`` may read, as
    :func:`log_entry` writes them.

    ``seat`` None is a spectator, who reads public entries only.  Stored events of any age are
    read: plain texts from before events had arguments become entries without arguments, their
    rule codes moved to ``rule`` (``Event``).
    """
    entries = []
    for version, events in rows:
        for raw in events:
            event = Event.model_validate(raw)
            if event.visible_to(seat):
                entries.append(log_entry(version, event, names))
    return entries


class PlayerOut(BaseModel):
    """One seat of a game as every viewer sees it (docs/api.md, ``players``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seat: int
    name: str
    bot: bool = Field(description="a bot sits at this seat, or plays it for its person")
    takeover: str | None = Field(description='why a bot plays a person\'s seat: "timeout", "left", "away", '
                                             '"resigned"; null when the person plays it')
    deadline: str | None = Field(description="when the seat's move is due under the time control (ISO 8601 UTC)")
    away_since: str | None = Field(description="since when its person is away (ISO 8601 UTC)")
    away_deadline: str | None = Field(description="always null: no table hands an away person's seat to a bot by "
                                                  "itself (kept for older clients)")


class GameState(BaseModel):
    """A game as one viewer sees it: the body of ``GET /api/games/{id}`` and, with ``type`` and
    ``online``, of the WebSocket ``state`` frame (``app/realtime/frames.py``).

    ``view``, ``legal`` and ``result`` are the ruleset's own shapes; ``log`` entries stay loosely
    typed (each a JSON object) so their shape can grow without touching this model.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    version: int
    seat: int | None = Field(description="the viewer's seat; null for a spectator")
    status: str = Field(description='"running" or "finished"')
    view: dict[str, Any] = Field(description="what this viewer may see of the game (the ruleset's view)")
    legal: list[Any] = Field(description="the viewer's legal moves, each sendable back as it is (or, for a socket "
                                         "that asked for it, in the grouped form: app/services/games/legal_forms.py)")
    to_act: list[int] = Field(description="the seats to act now")
    undo: bool = Field(description="whether the viewer may take back their last move now")
    log: list[dict[str, Any]] = Field(description="the log entries this viewer may read")
    result: dict[str, Any] | None = Field(description="{scores, ranks, breakdown, reason, reason_template, reason_args, rule, abandoned} once the game is over, and "
                                                   "rivals ([{name, score, breakdown}]) when the game scores a side that is no seat")
    players: list[PlayerOut]


def players(snapshot: GameSnapshot) -> list[PlayerOut]:
    """The seats of ``snapshot`` for a state payload (:class:`PlayerOut`).

    ``bot`` says a bot sits there; ``takeover`` why a bot plays a person's seat (or None);
    ``deadline`` (ISO 8601, UTC) when the seat's move is due under the time control;
    ``away_since`` since when its person is away, else None; ``away_deadline`` is always
    None now (nothing hands an away person's seat to a bot by itself).
    """
    return list(_players_of(snapshot.seats))


@functools.lru_cache(maxsize=4096)
def _players_of(seats: tuple[SeatInfo, ...]) -> tuple[PlayerOut, ...]:
    """:func:`players` of the seats ``seats``: built once per distinct seating, not once per frame
    (the seats change far less often than the version; ``SeatInfo`` and ``PlayerOut`` are frozen)."""
    return tuple(PlayerOut(seat=info.seat, name=info.name or "", bot=info.bot_level is not None,
                           takeover=info.takeover, deadline=iso_utc(info.deadline),
                           away_since=iso_utc(info.away_since), away_deadline=iso_utc(info.away_deadline))
                 for info in seats)


def result_payload(result: Result | None, seats: tuple[SeatInfo, ...]) -> dict[str, Any] | None:
    """The wire form of a ``Result``, ``{seatN}`` placeholders in its reason filled in and its rule
    code moved from the words to ``rule`` (``"the last pink camel was taken"``, ``"G-1"``),
    ``reason_template``: the reason before the names fill it (``"After 5 rounds {seat1} has the most
    points."``, a msgid of the game's catalog, which a client translates and then fills),
    ``reason_args``: the typed arguments of its other placeholders (``Result.reason_args``, ``{}``
    for none; a client says them as it says a log entry's arguments), and
    ``abandoned``: ``[{seat, takeover, from_version, text}]`` for each person who abandoned the game
    (``services/games/abandonment.py``; ``text`` like ``"Ben: abandoned (left), a bot played from move 31"``)."""
    if result is None:
        return None
    names = tuple(seat.name or "" for seat in seats)
    payload = result.model_dump(mode="json")
    reason, payload["rule"] = split_rule(payload["reason"])
    payload["reason"] = Event(text=reason, args=result.reason_args).render(names) if result.reason_args else fill_names(reason, names)
    payload["reason_template"] = reason  # the game's msgid: a client says it in its reader's language
    payload["reason_args"] = result.reason_args  # its typed arguments, said in the reader's language too
    payload["abandoned"] = [{"seat": info.seat, "takeover": info.takeover, "from_version": info.abandoned_from,
                             "text": abandonment.described(info)}
                            for info in seats if info.abandoned_from is not None]
    return payload


def state_payload(ruleset: Ruleset, snapshot: GameSnapshot, seat: int | None,
                  log: list[dict[str, Any]], legal_form: LegalForm = "moves") -> GameState:
    """The game as ``seat`` (None: spectator) sees it, with ``log`` (docs/api.md).

    ``legal`` lists the seat's legal moves in wire form (``wire.dump_moves``: read-only
    dicts), or groups them when ``legal_form`` is ``"grouped"`` (``legal_forms.group_moves``);
    empty for spectators and finished games.  ``undo``: whether ``seat`` may take back its
    last move now (``app/services/games/undo.py``).
    """
    state = snapshot.state
    running = snapshot.status == "running"
    acting = sorted(ruleset.to_act(state)) if running else []
    played_by_person = seat is not None and snapshot.seats and snapshot.seats[seat].takeover is None
    legal = (legal_in_form(ruleset, ruleset.legal_moves(state, seat), legal_form)
             if running and played_by_person and seat in acting else [])
    result = ruleset.result(state)
    # Not validated again: every field is built right here (and this runs once per seat and version).
    return GameState.model_construct(
        version=snapshot.version, seat=seat, status=snapshot.status, view=ruleset.view(state, seat), legal=legal,
        to_act=acting, undo=bool(running and played_by_person and seat == snapshot.undo_seat), log=log,
        result=result_payload(result, snapshot.seats), players=players(snapshot))

"""``/api/tables``: the lobby (create, list, show, join, leave, start, rematch)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Response
from pydantic import BaseModel, ConfigDict, Field

from app.api.deps import CurrentAccount, Ctx, OptionalAccount, Session, TableId
from app.api.guards import TablesLimit
from app.api.notifications import Kit
from app.api.schemas import MyTableOut, TableCreated, TableOut, errors
from app.db.models import iso_utc
from app.services.tables import actions as lobby
from app.services.tables import my_games
from app.services.tables import changes as tables
from app.services.attendance import waiting

router = APIRouter(prefix="/api/tables", tags=["tables"])


class TableIn(BaseModel):
    model_config = ConfigDict(strict=True)  # "2", true or 2.0 for a number is a bad_request, not a quiet conversion
    ruleset: str = Field(min_length=1, max_length=64)
    seats: int = Field(ge=1, le=16)
    options: dict[str, Any] = {}
    private: bool = False
    move_seconds: int | None = Field(default=None, ge=5, le=14 * 86400,
                                     description="time control: seconds per move (86400 x days for turn-based), or none")
    pace: Literal["live", "turn_based"] | None = Field(
        default=None, description="live (at most an hour per move) or turn_based (at least an hour); "
                                  "by default it follows from move_seconds")
    chat_spectators: bool = Field(default=False, description="whether spectators may read and write the table's chat")
    rated: bool | None = Field(default=None, description="rated (its end changes the players' ratings) or friendly; "
                                                     "by default rated for two seats or more")


class BotIn(BaseModel):
    model_config = ConfigDict(strict=True)  # "2", true or 2.0 for a number is a bad_request, not a quiet conversion
    seat: int
    level: str = Field(default="medium", max_length=16, description="easy, medium or strong (random: any legal "
                       "move, for tests; default, an old name, is medium)")


class StartIn(BaseModel):
    model_config = ConfigDict(strict=True)
    empty_seats: Literal["bots", "fewer"] | None = Field(
        default=None, description="start although seats are empty (or still held for invited people who did not "
                                  "accept): a default bot in each (bots), or without them where the game allows "
                                  "that many players (fewer)")


class JoinIn(BaseModel):
    model_config = ConfigDict(strict=True)  # "2", true or 2.0 for a number is a bad_request, not a quiet conversion
    seat: int | None = None
    invite_code: str | None = Field(default=None, max_length=64)


@router.post("", status_code=201, response_model=TableCreated, responses=errors(400, 401, 403, 409, 429))
async def create(body: TableIn, account: CurrentAccount, ctx: Ctx, db: Session, _: TablesLimit) -> dict:
    """A new table with the creator at seat 0: ``{id, invite_code}``."""
    info = await tables.create_table(db, ctx.registry, account, body.ruleset, body.seats, body.options, body.private,
                                     body.move_seconds, ctx.settings.max_open_tables, body.chat_spectators, body.pace,
                                     body.rated)
    return {"id": info.table.id, "invite_code": info.table.invite_code}


@router.get("", response_model=list[TableOut])
async def list_tables(account: OptionalAccount, ctx: Ctx, db: Session) -> list[dict]:
    """Open and running public tables."""
    viewer = account.id if account else None
    return [info.to_dict(ctx.registry, viewer) for info in await tables.list_tables(db)]


@router.get("/mine", response_model=list[MyTableOut], responses=errors(401))
async def mine(account: CurrentAccount, ctx: Ctx, db: Session) -> list[dict]:
    """"My games": the caller's own tables (seated or created, private ones included, finished ones
    too), the ones where it is their move first (``app/services/tables/my_games.py``)."""
    return await my_games.my_games(db, ctx.registry, account.id)


@router.get("/{table_id}", response_model=TableOut, responses=errors(400, 404))
async def show(table_id: TableId, account: OptionalAccount, ctx: Ctx, db: Session, invite_code: str | None = None) -> dict:
    """One table with its seats (a private one needs membership or the invite code); a seated
    person asking for an open table is at its waiting room, and a seat of an open table whose
    person has not been there within the away time shows ``away_since`` (``attendance/waiting.py``)."""
    info = await tables.load_table(db, table_id)
    viewer = account.id if account else None
    tables.check_access(info, viewer, invite_code)
    if info.table.status != "open":
        return info.to_dict(ctx.registry, viewer)
    if viewer is not None and info.seat_of(viewer) is not None:
        await waiting.saw(ctx, db, table_id, viewer)
    shown = info.to_dict(ctx.registry, viewer)
    away = await waiting.away_seats(ctx, db, info.table)
    for entry in shown["seats"]:
        if entry["seat"] in away:  # the waiting room says who is not there
            entry["away_since"] = iso_utc(away[entry["seat"]].since)
    return shown


@router.post("/{table_id}/join", response_model=TableOut, responses=errors(400, 401, 403, 404, 409, 429))
async def join(table_id: TableId, account: CurrentAccount, ctx: Ctx, db: Session, _: TablesLimit,
               body: JoinIn | None = None) -> dict:
    """Take a seat (the given one or the first empty)."""
    body = body or JoinIn()
    info = await lobby.join(ctx, db, account, table_id, body.seat, body.invite_code)
    return info.to_dict(ctx.registry, account.id)


@router.post("/{table_id}/leave", response_model=TableOut, responses=errors(400, 401, 403, 404, 409))
async def leave(table_id: TableId, account: CurrentAccount, ctx: Ctx, db: Session) -> dict:
    """Give up one's seat at an open table; in a running game, let the default bot play it until one returns."""
    return (await lobby.leave(ctx, db, account, table_id)).to_dict(ctx.registry, account.id)


@router.post("/{table_id}/resign", response_model=TableOut, responses=errors(400, 401, 403, 404, 409))
async def resign(table_id: TableId, account: CurrentAccount, ctx: Ctx, db: Session) -> dict:
    """Resign a running game: the default bot plays the seat to the end, and it cannot be reclaimed."""
    return (await lobby.resign(ctx, db, account, table_id)).to_dict(ctx.registry, account.id)


@router.post("/{table_id}/start", response_model=TableOut, responses=errors(400, 401, 403, 404, 409))
async def start(table_id: TableId, account: CurrentAccount, ctx: Ctx, db: Session, body: StartIn | None = None) -> dict:
    """Start the game (creator only; every seat filled, or ``empty_seats`` says what becomes of the empty ones)."""
    body = body or StartIn()
    return (await lobby.start(ctx, db, account, table_id, body.empty_seats)).to_dict(ctx.registry, account.id)


@router.post("/{table_id}/rematch", response_model=TableCreated,
             responses={201: {"model": TableCreated, "description": "the rematch, created by this request"},
                        **errors(400, 401, 403, 404, 409, 429)})
async def rematch(table_id: TableId, account: CurrentAccount, ctx: Ctx, db: Session, response: Response,
                  notify: Kit, _: TablesLimit) -> dict:
    """Offer the rematch of a finished game: ``{id, invite_code}`` of the new open table, as ``POST
    /api/tables`` answers (201 when this request created it, 200 when it already existed; a player
    it was offered to accepts it by asking too, which takes their seat).

    Same ruleset, options, time control, privacy, chat rule, rated choice and seats; the proposer
    sits in their seat, the bots in theirs, and every other person is invited (their seat held for
    them, told as any invitation is); it starts once all of them accepted, or when the proposer
    starts it.  Only a player of the game may ask.  Errors: ``not_seated``, ``conflict`` (not
    finished), ``not_found``.
    """
    outcome = await lobby.rematch(ctx, db, account, table_id)
    if outcome.created:
        response.status_code = 201
    for invitation_id in outcome.invitations:
        notify.invitations.tell(invitation_id)
    return {"id": outcome.info.table.id, "invite_code": outcome.info.table.invite_code}


@router.post("/{table_id}/bots", response_model=TableOut, responses=errors(400, 401, 403, 404, 409))
async def add_bot(table_id: TableId, body: BotIn, account: CurrentAccount, ctx: Ctx, db: Session) -> dict:
    """Seat a bot (``level``: ``easy``, ``medium``, ``strong``, or ``random``) at an empty seat of an
    open table (creator only); in a running game, let the medium bot play the seat of a person who is away (the host,
    or another player when the host is away; ``app/services/attendance/takeover.py``)."""
    info = await lobby.seat_bot(ctx, db, account, table_id, body.seat, body.level)
    return info.to_dict(ctx.registry, account.id)


@router.delete("/{table_id}/bots/{seat}", response_model=TableOut, responses=errors(400, 401, 403, 404, 409))
async def remove_bot(table_id: TableId, seat: int, account: CurrentAccount, ctx: Ctx, db: Session) -> dict:
    """Take the bot off ``seat`` (creator only)."""
    return (await lobby.remove_bot(ctx, db, account, table_id, seat)).to_dict(ctx.registry, account.id)

"""``/api/games``: a game's state for the caller, moves over REST, the public log and replays."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from app.api.deps import MAX_ID, Ctx, MoveId, OptionalAccount, TableId
from app.api.guards import MovesLimit, ReplaysLimit
from app.api.schemas import MoveAccepted, ReplayOut, errors
from app.services.accounts import identity as accounts
from app.services.games import pipeline as games
from app.services.games import undo
from app.services.games.views import GameState, log_entries, result_payload, state_payload

router = APIRouter(prefix="/api/games", tags=["games"])


class MoveIn(BaseModel):
    model_config = ConfigDict(strict=True)  # "2", true or 2.0 for a number is a bad_request, not a quiet conversion
    id: MoveId
    version: int = Field(ge=0, le=MAX_ID)
    move: dict[str, Any]


@router.get("/{game_id}", response_model=GameState, responses=errors(400, 404))
async def show(game_id: TableId, account: OptionalAccount, ctx: Ctx, request: Request,
               invite_code: str | None = None) -> GameState:
    """``{version, status, seat, view, legal, to_act, undo, result, players, log}`` for the caller; a
    seated person's read brings an abandoned game back to life, as their ``hello`` would."""
    seat = await games.viewer_seat(ctx, game_id, account.id if account else None, invite_code)
    snapshot = await games.load_snapshot(ctx, game_id)
    if seat is not None and snapshot.status == "abandoned":
        await request.app.state.presence.arrived(game_id, seat, socket=False)
        snapshot = await games.load_snapshot(ctx, game_id)
    entries = await games.read_log(ctx, game_id, 0, seat, snapshot.names, until=snapshot.version)
    ruleset = ctx.registry.get(snapshot.ruleset)
    return state_payload(ruleset, snapshot, seat, entries)


@router.post("/{game_id}/moves", response_model=MoveAccepted, responses=errors(400, 401, 403, 404, 409, 429))
async def move(game_id: TableId, body: MoveIn, account: OptionalAccount, ctx: Ctx, _: MovesLimit,
               request: Request) -> dict:
    """The move pipeline over REST: ``{id, version}`` once committed (the mover counts as present)."""
    login = accounts.login_of(request.session) if account is not None else None
    version = await games.submit_move(ctx, login, game_id, body.id, body.version, body.move)
    assert account is not None  # refused above (unauthorized) without a login
    request.app.state.presence.saw(game_id, account.id)
    return {"id": body.id, "version": version}


class UndoIn(BaseModel):
    model_config = ConfigDict(strict=True)  # "2", true or 2.0 for a number is a bad_request, not a quiet conversion
    id: MoveId
    version: int = Field(ge=0, le=MAX_ID)


@router.post("/{game_id}/undo", response_model=MoveAccepted, responses=errors(400, 401, 403, 404, 409, 429))
async def take_back(game_id: TableId, body: UndoIn, account: OptionalAccount, ctx: Ctx, _: MovesLimit,
                    request: Request) -> MoveAccepted:
    """Take back the caller's last move: ``{id, version}`` once committed; 409
    ``not_reversible`` when it may not be taken back."""
    login = accounts.login_of(request.session) if account is not None else None
    version = await undo.take_back(ctx, login, game_id, body.id, body.version)
    assert account is not None  # refused above (unauthorized) without a login
    request.app.state.presence.saw(game_id, account.id)
    return MoveAccepted(id=body.id, version=version)


@router.get("/{game_id}/log", response_model=list[dict[str, Any]], responses=errors(400, 404))
async def public_log(game_id: TableId, account: OptionalAccount, ctx: Ctx, invite_code: str | None = None) -> list[dict]:
    """The public move log: ``[{version, text, template, args, rule}]`` (docs/api.md, "log entry"),
    oldest first; no private entries, whoever asks."""
    await games.viewer_seat(ctx, game_id, account.id if account else None, invite_code)
    snapshot = await games.load_snapshot(ctx, game_id)
    return log_entries(await games.read_log_rows(ctx, game_id, 0, snapshot.version), None, snapshot.names)


@router.get("/{game_id}/replay", response_model=ReplayOut, responses=errors(400, 404, 429))
async def replay(game_id: TableId, account: OptionalAccount, ctx: Ctx, _: ReplaysLimit,
                 version: int = Query(ge=0, le=MAX_ID), invite_code: str | None = None) -> dict:
    """The spectator view at ``version``, rebuilt by folding the stored moves over ``setup``."""
    await games.viewer_seat(ctx, game_id, account.id if account else None, invite_code)
    latest, state = await games.replay_state(ctx, game_id, version)
    ruleset = ctx.registry.get(latest.ruleset)
    entries = log_entries(await games.read_log_rows(ctx, game_id, 0, version), None, latest.names)
    result = ruleset.result(state)
    return {
        "version": version,
        "latest_version": latest.version,
        "view": ruleset.view(state, None),
        "log": entries,
        "result": result_payload(result, latest.seats),
    }

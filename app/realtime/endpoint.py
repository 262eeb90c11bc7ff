"""The WebSocket endpoint ``/ws/games/{id}`` (docs/architecture.md, "The public interface").

Authenticated by the session cookie (no cookie: spectator).  Every client frame is parsed once
into :mod:`app.realtime.frames`; moves go through the same pipeline as REST; ``ack``/``error``
go to the sender only, ``state`` frames to every subscriber after commit (the hub).
"""

from __future__ import annotations

import logging
import time

import anyio
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketDisconnected, WebSocketState
from pydantic import ValidationError

from app.api.deps import MAX_ID
from app.api.guards import same_site
from app.api.traffic_metrics import socket_accepted, socket_ended
from app.i18n import N_, translate
from app.realtime import frames
from app.realtime.hub import Subscriber
from app.services.accounts import identity as accounts
from app.services.games import pipeline as games
from app.services.attendance import takeover
from app.services.games import undo
from app.db.engine import database_busy
from app.services.errors import AppError

router = APIRouter()
log = logging.getLogger(__name__)


class FrameBudget:
    """A token bucket: ``rate`` frames per second on average, bursts up to ``burst``."""

    def __init__(self, rate: float = 200.0, burst: float = 400.0) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = burst, time.monotonic()

    def take(self) -> bool:
        """Spend one token; ``False`` when the sender is over its budget."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str, invite_code: str | None = None) -> None:
    """Serve one socket until it closes: ``hello`` -> ``state``; ``move``, ``undo`` -> ``ack``/``error``;
    ``ping`` -> ``pong``.

    The handshake itself reads nothing: after it, any id that names no table
    (``0``, ``-1``, ``abc``) gets ``not_found`` and 4404 like an unknown table (as docs/api.md says), and a
    database with no connection to spare ``unavailable`` and 1013 (try again later).
    """
    ctx = websocket.app.state.ctx
    hub = websocket.app.state.hub
    origin = websocket.headers.get("origin")
    if origin and not same_site(origin, websocket.headers.get("host", "")):
        await websocket.close(code=4403, reason="cross-site sockets are refused")  # socket hijacking by another site
        return
    table_id = _table_id(game_id)
    subscriber = Subscriber(websocket, table_id or 0, None, invite_code, login=accounts.login_of(websocket.session))
    socket_accepted(ctx.metrics)  # counted here, not by a middleware wrapping every frame's send
    try:
        await websocket.accept()
        hub.connected(subscriber)
        try:
            with anyio.CancelScope(shield=True):
                if table_id is None:
                    raise AppError("not_found", "no table {id}", id=repr(game_id[:40]))
                await _check_login(hub, subscriber)
                subscriber.seat = await _viewer_seat(ctx, hub, table_id, subscriber.account_id, invite_code)
        except AppError as exc:
            await subscriber.send(frames.error(exc.code, exc.message_in(subscriber.language)))
            await _refuse(subscriber, exc)
            return
        except Exception as exc:
            await _give_up(subscriber, exc)
            return
        await _serve(ctx, hub, subscriber, websocket)
    except (WebSocketDisconnect, WebSocketDisconnected):  # closed by the peer, or by the heartbeat mid-frame
        pass
    except RuntimeError:  # an answer sent after the hub closed the socket (a logout, a slow peer)
        if websocket.application_state != WebSocketState.DISCONNECTED:
            raise
    finally:
        socket_ended(ctx.metrics, subscriber.closed_by_server)
        with anyio.CancelScope(shield=True):
            await hub.disconnected(subscriber)


async def _serve(ctx, hub, subscriber: Subscriber, websocket: WebSocket) -> None:
    budget = FrameBudget()  # generous: scripts and benchmarks play closed loops; floods are cut
    limit = ctx.settings.max_payload_bytes
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:
            text = (message.get("bytes") or b"").decode("utf-8", "replace")
        if not budget.take():
            await subscriber.send(frames.error("rate_limited", translate(subscriber.language, "too many frames; slow down")))
            continue
        if len(text) > limit:
            await subscriber.send(frames.error("bad_request", translate(subscriber.language, "frame longer than {limit} bytes",
                                                                       limit=limit)))
            continue
        try:
            frame = frames.client_frame_adapter.validate_json(text)
        except ValidationError as exc:
            await subscriber.send(frames.error("bad_request", _describe(exc)))
            continue
        # A frame being handled is handled to the end, even if the socket is closed meanwhile
        # (its move commits and is acknowledged or not as a whole; see app/tasks.py for why no
        # database call is cut off half-way).
        with anyio.CancelScope(shield=True):
            if not await _handle(ctx, hub, subscriber, frame):
                return


async def _handle(ctx, hub, subscriber: Subscriber, frame) -> bool:
    """Answer one frame; False when the socket was closed because the server cannot serve it now."""
    if isinstance(frame, frames.Ping):
        await subscriber.send(frames.pong())
    elif isinstance(frame, frames.Hello):
        try:
            # Who the socket speaks for is read again at each hello: a session ended since then closes
            # the socket with 4401 (the logout also closes it, Hub.disconnect_account).
            await _check_login(hub, subscriber)
            # Seats change before a game starts: who this socket speaks for is decided at each hello.
            snapshot = await hub.snapshot(subscriber.game_id)
            subscriber.seat = games.seat_in_snapshot(snapshot, subscriber.account_id, subscriber.invite_code)
            subscriber.legal_form = frame.legal_form
            hub.add(subscriber)
            await subscriber.websocket.app.state.table_notices.greet(subscriber)  # chat and rematch frames
            if subscriber.seat is not None:
                await subscriber.websocket.app.state.presence.arrived(subscriber.game_id, subscriber.seat)
                await _reclaim_seat(ctx, subscriber, snapshot)
            await hub.send_state(subscriber, frame.since)
        except AppError as exc:
            await hub.remove(subscriber)
            await subscriber.send(frames.error(exc.code, exc.message_in(subscriber.language)))
            if exc.code == "unauthorized":  # the session ended: closed as a logout closes it
                await _refuse(subscriber, exc)
                return False
        except Exception as exc:
            await hub.remove(subscriber)
            await _give_up(subscriber, exc)
            return False
    elif isinstance(frame, (frames.MoveFrame, frames.UndoFrame)):
        login = subscriber.login if subscriber.account_id is not None else None
        try:
            if isinstance(frame, frames.UndoFrame):
                version = await undo.take_back(ctx, login, subscriber.game_id, frame.id, frame.version)
            else:
                version = await games.submit_move(ctx, login, subscriber.game_id, frame.id, frame.version, frame.move)
        except AppError as exc:
            await subscriber.send(frames.error(exc.code, exc.message_in(subscriber.language), frame.id))
        except Exception as exc:  # the move may or may not be committed: a retry with the same id settles it
            code, message = _failure(exc)
            again = translate(subscriber.language, "(send the move again with the same id)")
            await subscriber.send(frames.error(code, f"{translate(subscriber.language, message)} {again}", frame.id))
        else:
            subscriber.acked = max(subscriber.acked, version)
            await subscriber.send(frames.ack(frame.id, version))
    return True


async def _check_login(hub, subscriber: Subscriber) -> None:
    """Set ``subscriber.account_id`` from its cookie's login if that session still holds (one query
    for all sockets asking at once); a socket without a login cookie speaks for nobody (a spectator).

    Raises ``AppError(unauthorized)`` when the cookie names a session that has ended: the caller
    closes the socket with 4401, as a logout does.  The server cannot tell a session that ended
    before the socket opened from one that ended while this check waited for its read (a chaos run
    saw such sockets left open as spectators), and a stale cookie answers 401 on
    every REST call too, so both are told the same: log in again.
    """
    if subscriber.login is None:
        subscriber.account_id = None
        return
    if not await hub.login_is_current(subscriber.login):
        subscriber.account_id = None
        raise AppError("unauthorized", "your session has ended (logged out); log in again")
    subscriber.account_id = subscriber.login.account_id


async def _viewer_seat(ctx, hub, table_id: int, account_id: int | None, invite_code: str | None) -> int | None:
    """The socket's seat (None: spectator) after checking access; a running or finished game from the
    greeting snapshot, a table that is not playing from its row.  Raises ``AppError(not_found)``."""
    try:
        snapshot = await hub.snapshot(table_id)
    except AppError:  # no such table, or its game has not started: rare, no burst needs sharing it
        return await games.viewer_seat(ctx, table_id, account_id, invite_code)
    return games.seat_in_snapshot(snapshot, account_id, invite_code)


async def _refuse(subscriber: Subscriber, exc: AppError) -> None:
    """Close a socket refused with ``exc``: 4404 unknown table, 4401 ended session ("logged out"), else 4400."""
    code = {"not_found": 4404, "unauthorized": 4401}.get(exc.code, 4400)
    await subscriber.close(code, "logged out" if code == 4401 else None)


def _failure(exc: Exception) -> tuple[str, str]:
    """The wire code and message of an unexpected failure (logged here unless the database is busy)."""
    if database_busy(exc):
        log.warning("socket refused for now, the database is busy: %s", exc)
        return "unavailable", N_("the server is busy; try again in a moment")
    log.error("unexpected error on a game socket", exc_info=exc)
    return "internal_error", N_("something went wrong on the server")


async def _give_up(subscriber: Subscriber, exc: Exception) -> None:
    """Tell the client why, and close: 1013 (try again later) when the database is busy, else 1011."""
    code, message = _failure(exc)
    try:
        await subscriber.send(frames.error(code, translate(subscriber.language, message)))
        await subscriber.close(1013 if code == "unavailable" else 1011)
    except Exception:  # the peer went away meanwhile
        pass


def _table_id(text: str) -> int | None:
    """The table id written in a socket's path, or None when it cannot name a table."""
    if not text.isascii() or not text.isdigit():
        return None
    number = int(text)
    return number if 1 <= number <= MAX_ID else None


async def _reclaim_seat(ctx, subscriber: Subscriber, snapshot) -> None:
    """A player who comes back takes their seat back from the bot, unless they resigned."""
    if (snapshot.status == "running" and subscriber.account_id is not None
            and snapshot.seats[subscriber.seat].takeover in takeover.RECLAIMABLE):
        acting = subscriber.seat in ctx.registry.get(snapshot.ruleset).to_act(snapshot.state)
        await takeover.reclaim(ctx, subscriber.game_id, subscriber.account_id, snapshot.move_seconds, acting)


def _describe(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ())) or "frame"
    return f"malformed frame: {where}: {first.get('msg')}"

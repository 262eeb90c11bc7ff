"""The WebSocket endpoint ``/ws/games/{id}`` (ARCHITECTURE.md, "The public interface").

Authenticated by the session cookie (no cookie: spectator).  Every client frame is parsed once
into :mod:`app.realtime.frames`; moves go through the same pipeline as REST; ``ack``/``error``
go to the sender only, ``state`` frames to every subscriber after commit (the hub).
"""

from __future__ import annotations

import time

import anyio
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketDisconnected
from pydantic import ValidationError

from app.api.deps import TableId
from app.api.guards import same_site
from app.realtime import frames
from app.realtime.hub import Subscriber
from app.services import accounts, games, takeover
from app.services.errors import AppError

router = APIRouter()


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
async def game_socket(websocket: WebSocket, game_id: TableId, invite_code: str | None = None) -> None:
    """Serve one socket until it closes: ``hello`` -> ``state``; ``move`` -> ``ack``/``error``; ``ping`` -> ``pong``."""
    ctx = websocket.app.state.ctx
    hub = websocket.app.state.hub
    origin = websocket.headers.get("origin")
    if origin and not same_site(origin, websocket.headers.get("host", "")):
        await websocket.close(code=4403, reason="cross-site sockets are refused")  # socket hijacking by another site
        return
    account_id = await _session_account_id(ctx, websocket.session)
    await websocket.accept()
    try:
        with anyio.CancelScope(shield=True):
            seat = await games.viewer_seat(ctx, game_id, account_id, invite_code)
    except AppError as exc:
        await websocket.send_json(frames.error(exc.code, exc.message))
        await websocket.close(code=4404 if exc.code == "not_found" else 4400)
        return
    subscriber = Subscriber(websocket, game_id, seat, invite_code, account_id)
    budget = FrameBudget()  # generous: scripts and benchmarks play closed loops; floods are cut
    limit = ctx.settings.max_payload_bytes
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text") if message.get("text") is not None else (message.get("bytes") or b"").decode("utf-8", "replace")
            if not budget.take():
                await subscriber.send(frames.error("rate_limited", "too many frames; slow down"))
                continue
            if len(text) > limit:
                await subscriber.send(frames.error("bad_request", f"frame longer than {limit} bytes"))
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
                await _handle(ctx, hub, subscriber, websocket.session, frame)
    except (WebSocketDisconnect, WebSocketDisconnected):  # closed by the peer, or by the heartbeat mid-frame
        pass
    finally:
        with anyio.CancelScope(shield=True):
            await hub.remove(subscriber)


async def _handle(ctx, hub, subscriber: Subscriber, session: dict, frame) -> None:
    if isinstance(frame, frames.Ping):
        await subscriber.send(frames.pong())
    elif isinstance(frame, frames.Hello):
        # Who the socket speaks for is read again at each hello: a logout since then makes it a
        # spectator (the logout also closes the account's sockets, Hub.on_version).
        account_id = subscriber.account_id = await _session_account_id(ctx, session)
        try:
            # Seats change before a game starts: who this socket speaks for is decided at each hello.
            subscriber.seat = await games.viewer_seat(ctx, subscriber.game_id, account_id, subscriber.invite_code)
            hub.add(subscriber)
            await subscriber.websocket.app.state.table_notices.greet(subscriber)  # chat and rematch frames
            if subscriber.seat is not None:
                await subscriber.websocket.app.state.presence.arrived(subscriber.game_id, subscriber.seat)
                await _reclaim_seat(ctx, subscriber, account_id)
            await hub.send_state(subscriber, frame.since)
        except AppError as exc:
            await hub.remove(subscriber)
            await subscriber.send(frames.error(exc.code, exc.message))
    elif isinstance(frame, frames.MoveFrame):
        try:
            version = await games.submit_move(ctx, subscriber.account_id, subscriber.game_id, frame.id, frame.version,
                                              frame.move)
        except AppError as exc:
            await subscriber.send(frames.error(exc.code, exc.message, frame.id))
        else:
            await subscriber.send(frames.ack(frame.id, version))


async def _session_account_id(ctx, session: dict) -> int | None:
    """The account of a socket's session cookie, if that session is still valid (not logged out)."""
    if session.get("account_id") is None:
        return None
    async with ctx.sessions() as db:
        account = await accounts.get_account(db, session.get("account_id"), session.get("epoch"))
    return account.id if account else None


async def _reclaim_seat(ctx, subscriber: Subscriber, account_id: int) -> None:
    """A player who comes back takes their seat back from the bot (issue 6), unless they resigned."""
    snapshot = await games.load_snapshot(ctx, subscriber.game_id)
    if snapshot.status == "running" and snapshot.seats[subscriber.seat].takeover in takeover.RECLAIMABLE:
        acting = subscriber.seat in ctx.registry.get(snapshot.ruleset).to_act(snapshot.state)
        await takeover.reclaim(ctx, subscriber.game_id, account_id, snapshot.move_seconds, acting)


def _describe(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ())) or "frame"
    return f"malformed frame: {where}: {first.get('msg')}"

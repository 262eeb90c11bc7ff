"""``create_app()``: the FastAPI app, its lifespan (database, rulesets, fan-out, hub), routers and static files."""

from __future__ import annotations

import asyncio
import gc
import logging
import mimetypes
from collections.abc import Callable
from contextlib import asynccontextmanager
from datetime import timezone

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST
from fastapi.staticfiles import StaticFiles
from sqlalchemy import func, select
from starlette.exceptions import HTTPException as StarletteHTTPException

from app import __version__, i18n
from app.api import (account, admin, auth, chat, friends, games, languages, notifications, pages, players, ratings,
                     rules_pages, rulesets, tables)
from app.api.body_limit import BodyLimit
from app.api.cookie_sessions import CookieSessions
from app.api.guards import RateLimits, refuse_cross_site
from app.api.head_requests import HeadAsGet
from app.api.security_headers import SecurityHeaders
from app.api.schemas import without_validation_errors
from app.api.traffic_metrics import TrafficMetrics
from app.config import Settings
from app.db.engine import (DATABASE_ERRORS, database_busy as _database_busy, database_failure as _database_failure, make_engine,
                           make_session_factory)
from app.db.migrate import database_revision
from app.db.move_writer import PostgresMoveWriter
from app.db.rate_limits import DatabaseStorage, rate_limit_storage
from app.db.models import BackupRun, Table, utcnow
from app.fanout import make_fanout
from app.paths import STATIC_DIR
from app.realtime import endpoint
from app.realtime.hub import Hub
from app.realtime.notices import TableNotices
from app.rulesets.registry import Registry
from app.services.leader.bot_driver import BotDriver
from app.services.leader.clock import DeadlineWatcher
from app.services.games.cache import GameCache
from app.services.context import Context
from app.services.leader.leadership import Leadership
from app.services.attendance.presence import Presence
from app.services.errors import AppError
from app.services.notify import kit as notify_kit

log = logging.getLogger(__name__)
SESSION_COOKIE = "caravanserai_session"
HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "bad_request",
              409: "conflict", 413: "payload_too_large", 429: "rate_limited"}


def _tune_gc(young: int) -> Callable[[], None]:
    """Collect Python's youngest garbage generation every ``young`` allocations of containers (and
    the older two every 20 and 100 younger collections); returns what puts the thresholds back.
    ``0`` leaves Python's own (700, 10, 10).

    Nearly all of the server's garbage is freed by reference counting; the collector's passes
    mostly walk the long-lived snapshots, logs and sockets.  At 500 benchmark games Python's own
    thresholds spent about 10 s of 35 s of server CPU in the collector, with a 170 ms pause per
    full pass; with 50,000 about 1 s (docs/decisions.md, *Garbage-collector thresholds*).
    """
    before = gc.get_threshold()
    if young:
        gc.set_threshold(young, 20, 100)
    return lambda: gc.set_threshold(*before)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The whole application for ``settings`` (default: read from the environment)."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        engine = make_engine(settings.async_database_url, settings.db_pool_size, settings.db_max_overflow)
        fanout = make_fanout(engine, settings.is_sqlite)
        ctx = Context(settings=settings, engine=engine, sessions=make_session_factory(engine),
                      registry=Registry.discover(settings.extra_rulesets), fanout=fanout,
                      cache=GameCache(check_unchanged=settings.check_cached_states),
                      move_writer=None if settings.is_sqlite else PostgresMoveWriter(
                          settings.async_database_url, settings.db_move_writer_connections))
        app.state.ctx = ctx
        ctx.metrics.watch_pool(engine)
        if ctx.move_writer is not None:
            ctx.move_writer.on_batch = ctx.metrics.move_batch_size.observe
        app.state.rules_book = rules_pages.RulesBook(ctx.registry)
        storage = rate_limit_storage(settings.rate_limit_storage, engine)
        app.state.rate_limits = RateLimits(settings, storage)
        sweeper = storage if isinstance(storage, DatabaseStorage) else None  # deletes the expired counters
        if sweeper is not None:
            sweeper.start_sweeping()
        app.state.hub = Hub(ctx)
        app.state.table_notices = TableNotices(ctx, app.state.hub)
        # One process drives bots and clocks; a new leader first resumes every bot owed a move.
        leadership = app.state.leadership = Leadership(None if settings.is_sqlite else settings.async_database_url,
                                                       settings.leader_retry_seconds)
        bots = app.state.bots = BotDriver(ctx, settings.bot_delay_seconds, leadership, settings.bot_move_seconds,
                                             settings.bot_processes, settings.extra_rulesets)
        leadership.on_gain(bots.resume)
        leadership.on_loss(bots.release_workers)
        watcher = DeadlineWatcher(ctx, settings.clock_tick_seconds, leadership)
        presence = app.state.presence = Presence(ctx, app.state.hub.greeted_seats)
        # Turn notices: sent by the leader only, never to a seat open on any process.
        app.state.notify = notify_kit.build(ctx, is_present=notify_kit.presence_across_processes(ctx),
                                            is_leader=lambda: leadership.is_leader)
        leadership.on_gain(app.state.notify.notifier.nudge)
        leadership.on_gain(lambda: ctx.metrics.leader.set(1))
        leadership.on_loss(lambda: ctx.metrics.leader.set(0))
        await fanout.start()
        await leadership.start()
        await watcher.start()
        await presence.start()
        await app.state.notify.start()
        # Several processes on one database: a notice another process lost still reaches our sockets.
        resync = None if settings.is_sqlite else asyncio.create_task(app.state.hub.resync_forever(settings.resync_seconds))
        send_watch = asyncio.create_task(app.state.hub.watch_sends_forever())
        bot_sweep = asyncio.create_task(bots.sweep_forever(settings.bot_sweep_seconds))
        restore_gc = _tune_gc(settings.gc_young_threshold)
        log.info("caravanserai %s started, database at migration %s", __version__,
                 await database_revision(engine) or "none (never migrated)")
        try:
            yield
        finally:
            restore_gc()
            for task in (resync, send_watch, bot_sweep):
                if task is not None:
                    task.cancel()
                    await asyncio.gather(task, return_exceptions=True)
            await app.state.hub.stop()
            await app.state.notify.stop()
            await presence.stop()
            if sweeper is not None:
                await sweeper.stop_sweeping()
            await watcher.stop()
            await bots.stop()
            await leadership.stop()
            await fanout.stop()
            if ctx.move_writer is not None:
                await ctx.move_writer.close()
            await engine.dispose()
            ctx.metrics.process_exited()

    app = FastAPI(title="Caravanserai", lifespan=lifespan)
    app.add_middleware(CookieSessions, secret_key=settings.session_secret, session_cookie=SESSION_COOKIE,
                       same_site="lax", https_only=settings.cookie_secure, max_age=60 * 60 * 24 * 365)
    _add_error_handlers(app, settings)
    without_validation_errors(app)
    for router in (auth.router, rulesets.router, tables.router, chat.router, games.router, players.router,
                   notifications.router, ratings.router, friends.router, endpoint.router, rules_pages.router,
                   languages.router, account.router, admin.router):  # last: the API fuzzer signs in as the first account, an admin
        app.include_router(router)

    @app.get("/healthz", include_in_schema=False)
    async def healthz(request: Request) -> dict:
        # The release and the database's migration, read at each call (a restore may change it).
        revision = await database_revision(request.app.state.ctx.engine)
        return {"status": "ok", "version": __version__, "revision": revision}

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        ctx = request.app.state.ctx
        async with ctx.sessions() as session:
            running = await session.scalar(select(func.count()).select_from(Table).where(Table.status == "running"))
            last_backups = dict((await session.execute(
                select(BackupRun.kind, func.max(BackupRun.finished_at)).group_by(BackupRun.kind))).all())
        ctx.metrics.games_running.set(running)
        now = utcnow()
        for kind in ("backup", "check"):
            moment = last_backups.get(kind)
            if moment is not None and moment.tzinfo is None:
                moment = moment.replace(tzinfo=timezone.utc)  # SQLite keeps no time zone
            ctx.metrics.last_backup.labels(kind).set(0 if moment is None else moment.timestamp())
            if moment is not None:
                ctx.metrics.last_backup_age.labels(kind).set((now - moment).total_seconds())
        return Response(ctx.metrics.render(), media_type=CONTENT_TYPE_LATEST)

    if STATIC_DIR.is_dir():
        # the web app manifest's type (a system's mime.types may not know .webmanifest)
        mimetypes.add_type("application/manifest+json", ".webmanifest")
        app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    app.include_router(pages.router)  # after the static mount: "/" and the pages, in the reader's language

    app.add_middleware(TrafficMetrics, status_of_error=lambda exc: 503 if _database_busy(exc) else 500)
    app.add_middleware(SecurityHeaders, https=settings.cookie_secure)  # outside the routes: 404 pages get them too
    app.add_middleware(HeadAsGet)  # added last: outermost, so it covers every route and error page
    return app


def _is_page(request: Request) -> bool:
    """A browser asking for a page (not the API, not a static asset)."""
    path = request.url.path
    return not path.startswith(("/api/", "/static/", "/ws/")) and "text/html" in request.headers.get("accept", "")


def _error(code: str, message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _add_error_handlers(app: FastAPI, settings: Settings) -> None:
    @app.exception_handler(AppError)
    async def app_error(request: Request, exc: AppError) -> JSONResponse:
        return _error(exc.code, exc.message_in(i18n.connection_language(request)), exc.status)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # pydantic's own words after the field's name: they name the constraint, and stay English
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body") or "request"
        return _error("bad_request", f"{where}: {first.get('msg', 'invalid request')}", 400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        if exc.status_code == 404 and request.method == "GET" and _is_page(request):
            return pages.page_response(request, STATIC_DIR / "404.html", status=404)
        return _error(HTTP_CODES.get(exc.status_code, "bad_request"),
                      i18n.translate(i18n.connection_language(request), str(exc.detail)), exc.status_code)

    @app.exception_handler(Exception)
    async def unexpected_error(request: Request, exc: Exception) -> JSONResponse:
        failure = _database_failure(exc)
        if failure is not None:
            request.app.state.ctx.metrics.database_errors.labels(failure).inc()
        if failure == "busy":
            log.warning("database connections exhausted: %s", exc)
            return _error("unavailable", i18n.translate(
                i18n.connection_language(request), "the server is busy; try again in a moment (the request changed nothing)"), 503)
        log.exception("unexpected error", exc_info=exc)
        return _error("internal_error", i18n.translate(
            i18n.connection_language(request), "something went wrong on the server; the request changed nothing"), 500)

    # The database's own errors get handlers of their own classes: Starlette answers those in its
    # exception middleware and goes on, while a handler of ``Exception`` answers and then re-raises
    # (uvicorn then logs "Exception in ASGI application" for every 503 of a busy pool under load).
    # Anything else is a bug of ours: answered 500 and re-raised, so its traceback is logged.
    for database_error in DATABASE_ERRORS:
        app.add_exception_handler(database_error, unexpected_error)

    app.add_middleware(BodyLimit, max_bytes=settings.max_payload_bytes)

    @app.middleware("http")
    async def guard_and_cache(request: Request, call_next):
        refusal = refuse_cross_site(request.method, request.url.path, request.headers)
        if refusal is not None:
            return _error(refusal.code, refusal.message_in(i18n.connection_language(request)), refusal.status)
        response = await call_next(request)
        if request.url.path.startswith("/static/"):
            # Revalidate (cheap with ETags) so a browser never mixes modules of two releases.
            response.headers.setdefault("Cache-Control", "no-cache")
        return response

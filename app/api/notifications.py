"""``/api/notifications``: a person's "your turn" choices, and the pages the
e-mail links open (``/notifications/confirm``, ``/notifications/unsubscribe``) and the service
worker (``/sw.js``, served from the root so its scope is the whole site)."""

from __future__ import annotations

import asyncio
import html
import logging
from typing import Annotated

import aiosmtplib
from fastapi import APIRouter, Depends, Path as PathParam, Query, Request, Response
from fastapi.responses import FileResponse, HTMLResponse
from pydantic import BaseModel, Field, StrictBool
from sqlalchemy import select

from app.api.deps import MAX_ID, Ctx, CurrentAccount, Session
from app.api.schemas import EmailOut, EmptyOut, NotificationsOut, RemovedOut, SubscriptionCreated, errors
from app.db.models import Account
from app.i18n import N_, connection_language, translate
from app.services.errors import AppError
from app.services.notify import preferences
from app.paths import STATIC_DIR
from app.services.notify.kit import NotifyKit
from app.services.notify.mail import MAX_ADDRESS_LENGTH, check_address, confirm_mail
from app.services.notify.push import MAX_ENDPOINT_LENGTH, Subscription, check_subscription

router = APIRouter(tags=["notifications"])
log = logging.getLogger(__name__)
SERVICE_WORKER = STATIC_DIR / "sw.js"  # in the checkout or in the installed package (app/paths.py)
MAX_TOKEN_LENGTH = 500


def kit(request: Request) -> NotifyKit:
    """The process's notice machinery (built in the lifespan)."""
    return request.app.state.notify


Kit = Annotated[NotifyKit, Depends(kit)]


class PushKeysIn(BaseModel):
    p256dh: str = Field(min_length=1, max_length=100)
    auth: str = Field(min_length=1, max_length=50)


class PushSubscriptionIn(BaseModel):
    """``PushSubscription.toJSON()`` as the browser gives it."""

    endpoint: str = Field(min_length=1, max_length=MAX_ENDPOINT_LENGTH)
    keys: PushKeysIn
    expirationTime: float | None = None


class AddressIn(BaseModel):
    address: str = Field(min_length=1, max_length=MAX_ADDRESS_LENGTH)


class MailSwitchIn(BaseModel):
    enabled: StrictBool


async def _choices(db, account, notify: NotifyKit) -> dict:
    chosen = await preferences.choices(db, account)
    return {"push": {"public_key": notify.public_key, "subscriptions": chosen["push"]},
            "email": {**chosen["email"], "available": notify.mailer.configured, "allowed": not account.guest}}


@router.get("/api/notifications", response_model=NotificationsOut, responses=errors(401))
async def show(account: CurrentAccount, db: Session, notify: Kit) -> dict:
    """``{push: {public_key, subscriptions: [{id, endpoint, created_at}]}, email: {address, confirmed,
    enabled, available, allowed}}`` (docs/api.md)."""
    return await _choices(db, account, notify)


@router.post("/api/notifications/push", status_code=201, response_model=SubscriptionCreated,
             responses=errors(400, 401, 403, 409))
async def subscribe(body: PushSubscriptionIn, account: CurrentAccount, db: Session, ctx: Ctx,
                    response: Response) -> dict:
    """Keep this browser's push subscription: 201 ``{id}``, 200 when it was kept already.
    Errors: ``bad_request`` (malformed, too long, not https), ``conflict`` (another account's)."""
    subscription = check_subscription(Subscription(body.endpoint, body.keys.p256dh, body.keys.auth),
                                      ctx.settings.push_allow_private_endpoints)
    subscription_id, created = await preferences.add_subscription(db, account.id, subscription)
    if not created:
        response.status_code = 200
    return {"id": subscription_id}


@router.delete("/api/notifications/push/{subscription_id}", response_model=EmptyOut,
               responses=errors(400, 401, 403, 404))
async def unsubscribe_browser(subscription_id: Annotated[int, PathParam(ge=1, le=MAX_ID)], account: CurrentAccount,
                              db: Session) -> dict:
    """Forget one browser; ``not_found`` for another account's."""
    await preferences.remove_subscription(db, account.id, subscription_id)
    return {}


@router.delete("/api/notifications/push", response_model=RemovedOut, responses=errors(401, 403))
async def unsubscribe_all_browsers(account: CurrentAccount, db: Session) -> dict:
    """Forget every browser of the account: ``{removed: n}``."""
    return {"removed": await preferences.remove_all_subscriptions(db, account.id)}


@router.put("/api/notifications/email", response_model=EmailOut, responses=errors(400, 401, 403, 409, 429, 503))
async def set_address(body: AddressIn, account: CurrentAccount, db: Session, notify: Kit, ctx: Ctx) -> dict:
    """Add or change the account's address and mail it a confirmation link; turn mails go to it
    once confirmed.  Errors: ``forbidden`` (guests), ``bad_request``, ``conflict`` (this server sends
    no e-mail), ``rate_limited`` (a confirmation mail left a moment ago), ``unavailable`` (the mail
    server failed; nothing changed)."""
    preferences.check_may_mail(account)
    address = check_address(body.address)
    if not notify.mailer.configured:
        raise AppError("conflict", "this server sends no e-mail (its host has not set up SMTP)")
    now = notify.notifier.clock()
    await preferences.may_send_confirmation(db, account.id, now)
    settings = ctx.settings
    link = f"{settings.site_url}/notifications/confirm?token={notify.tokens.confirm(account.id, address)}"
    # Stored before the mail leaves: its link may be followed the moment it arrives.
    before = await preferences.set_address(db, account.id, address, now)
    try:
        async with asyncio.timeout(settings.notify_send_timeout_seconds):
            await notify.mailer.send(confirm_mail(notify.mailer, address, account.name, link, account.language))
    except (TimeoutError, aiosmtplib.SMTPException, OSError) as exc:
        log.warning("confirmation mail not sent: %s", exc)
        ctx.metrics.notifications_failed.labels("email", "unreachable").inc()
        await preferences.restore_address(db, account.id, before)
        raise AppError("unavailable", "the mail server did not take the confirmation mail; try again later "
                                      "(nothing was changed)") from None
    return (await _choices(db, account, notify))["email"]


@router.patch("/api/notifications/email", response_model=EmailOut, responses=errors(400, 401, 403))
async def switch_mail(body: MailSwitchIn, account: CurrentAccount, db: Session, notify: Kit) -> dict:
    """Turn the turn mails on or off (the address stays); ``conflict`` without an address."""
    if not await preferences.set_mail_enabled(db, account.id, body.enabled):
        raise AppError("conflict", "add an e-mail address first")
    return (await _choices(db, account, notify))["email"]


@router.delete("/api/notifications/email", response_model=EmailOut, responses=errors(401, 403))
async def remove_address(account: CurrentAccount, db: Session, notify: Kit) -> dict:
    """Forget the account's address."""
    await preferences.remove_address(db, account.id)
    return (await _choices(db, account, notify))["email"]


Token = Annotated[str, Query(min_length=1, max_length=MAX_TOKEN_LENGTH)]


@router.get("/notifications/confirm", include_in_schema=False)
async def confirm(token: Token, request: Request, db: Session, notify: Kit) -> HTMLResponse:
    """The link of the confirmation mail: the address gets turn mails from now on (the page in the
    language of the account the address belongs to, else of the browser)."""
    language = connection_language(request)
    try:
        account_id, address = notify.tokens.read_confirm(token)
    except AppError as exc:
        return _page(language, N_("Link not valid"), exc.message_in(language), status=400)
    language = await _account_language(db, account_id) or language
    if not await preferences.confirm_address(db, account_id, address):
        return _page(language, N_("Address changed"), translate(
            language, "{address} is no longer the address of this account; nothing was changed.", address=address),
            status=409)
    return _page(language, N_("Address confirmed"), translate(
        language, "You will get an e-mail at {address} when it is your turn and you are not at the table. Every mail "
                  "has a link to stop them.", address=address))


@router.api_route("/notifications/unsubscribe", methods=["GET", "POST"], include_in_schema=False)
async def unsubscribe_mail(token: Token, request: Request, db: Session, notify: Kit) -> HTMLResponse:
    """The unsubscribe link of every notice mail (GET from the mail, POST from a mail program's
    one-click button, RFC 8058): no more turn or invitation mails to that address, no login needed."""
    language = connection_language(request)
    try:
        account_id, address = notify.tokens.read_unsubscribe(token)
    except AppError as exc:
        return _page(language, N_("Link not valid"), exc.message_in(language), status=400)
    language = await _account_language(db, account_id) or language
    await preferences.set_mail_enabled(db, account_id, False, address)
    return _page(language, N_("No more e-mails"), translate(
        language, "You will get no more turn or invitation e-mails at {address}. To have them again, turn them on under "
                  "Notifications on your page (My games).", address=address))


async def _account_language(db, account_id: int) -> str | None:
    """The language setting of ``account_id`` (``None``: none, or no such account)."""
    return await db.scalar(select(Account.language).where(Account.id == account_id))


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> FileResponse:
    """The service worker that shows push notices (``static/sw.js``), scoped to the whole site."""
    return FileResponse(SERVICE_WORKER, media_type="text/javascript", headers={"Cache-Control": "no-cache"})


def _page(language: str, title: str, text: str, status: int = 200) -> HTMLResponse:
    """A small page in the site's style, for the links in e-mails: ``title`` (a msgid) and ``text``
    (said already) in ``language``."""
    title = translate(language, title)
    lobby = translate(language, "To the lobby")
    body = (f'<!doctype html><html lang="{language}" data-language="{language}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>Caravanserai — {html.escape(title)}</title><link rel="stylesheet" href="/static/app.css">'
            f'<link rel="icon" href="/static/favicon.svg" type="image/svg+xml"></head><body class="page-player">'
            f'<header class="topbar"><a class="brand" href="/">Caravanserai</a></header>'
            f'<main class="player-page"><section class="card"><h1 id="notice-title">{html.escape(title)}</h1>'
            f'<p id="notice-text">{html.escape(text)}</p><p><a href="/">{html.escape(lobby)}</a></p></section></main></body></html>')
    return HTMLResponse(body, status_code=status)

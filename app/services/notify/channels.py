"""The two ways a notice reaches a person: their browsers (Web Push) and their mailbox (SMTP).

Each channel delivers one notice to one account, counts the outcome (``Metrics.notifications_*``)
and never raises: a push service or mail server that fails, refuses or hangs (each request is
bounded by ``notify_send_timeout_seconds``) costs that notice only.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from typing import TYPE_CHECKING, Protocol

import aiosmtplib
from sqlalchemy import select

from app.db.models import Account, NotifyAccount, PushSubscription
from app.services.context import Context
from app.services.notify import preferences
from app.services.notify.mail import Mailer, notice_mail
from app.services.notify.messages import Notice
from app.services.notify.push import GONE, Subscription, payload
from app.services.notify.tokens import Tokens
from app.services.notify.vapid import VapidKey

if TYPE_CHECKING:  # imported on the first push only (it loads aiohttp): see PushChannel
    from app.services.notify.transport import PushSender

log = logging.getLogger(__name__)


class Channel(Protocol):
    """Delivers notices to accounts that chose this channel (and silently skips the others)."""

    name: str

    async def deliver(self, account_id: int, notice: Notice) -> None:
        """Send ``notice`` to every address of ``account_id`` on this channel; never raises."""


class PushChannel:
    """Web Push to every browser the account subscribed; a subscription its service calls gone is dropped.

    Its HTTP client (``transport.PushSender``) is loaded in a worker thread on the first notice for
    an account with a subscription: a server whose players never subscribed never imports aiohttp
    (about 6 MiB it would keep for good), and none waits for it to start.
    """

    name = "push"

    def __init__(self, ctx: Context, key: VapidKey, subject: str) -> None:
        self._ctx = ctx
        self._key = key
        self._subject = subject
        self._sender: PushSender | None = None
        self._opening: asyncio.Task[PushSender] | None = None

    async def start(self) -> None:
        """Nothing yet: the HTTP client opens on the first push (:meth:`deliver`)."""

    async def close(self) -> None:
        """Close the HTTP client (after it finished opening)."""
        if self._opening is not None:
            await asyncio.gather(self._opening, return_exceptions=True)
        if self._sender is not None:
            await self._sender.close()

    async def _open(self) -> PushSender:
        transport = await asyncio.to_thread(importlib.import_module, "app.services.notify.transport")
        vapid = await asyncio.to_thread(lambda: self._key.vapid)  # the cryptography library, read off the loop too
        settings = self._ctx.settings
        sender = transport.PushSender(vapid, self._subject, settings.notify_send_timeout_seconds,
                                      settings.push_allow_private_endpoints)
        await sender.start()
        self._sender = sender
        return sender

    async def deliver(self, account_id: int, notice: Notice) -> None:
        async with self._ctx.sessions() as session:
            rows = (await session.execute(select(PushSubscription.endpoint, PushSubscription.p256dh,
                                                 PushSubscription.auth)
                                          .where(PushSubscription.account_id == account_id))).all()
        if not rows:
            return
        if self._opening is None:  # the first push: load and open the client, once for every notice
            self._opening = asyncio.create_task(self._open())
        try:
            sender = await asyncio.shield(self._opening)  # one notice cancelled does not cancel it for the others
        except Exception:
            self._ctx.metrics.notifications_failed.labels(self.name, "unreachable").inc(len(rows))
            log.exception("the push client could not be opened")
            return
        data = payload(notice)
        await asyncio.gather(*(self._one(sender, Subscription(*row), data, notice.tag) for row in rows))

    async def _one(self, sender: PushSender, subscription: Subscription, data: bytes, topic: str) -> None:
        metrics = self._ctx.metrics
        try:
            async with asyncio.timeout(self._ctx.settings.notify_send_timeout_seconds):
                status = await sender.send(subscription, data, topic)
        except TimeoutError:
            metrics.notifications_failed.labels(self.name, "timeout").inc()
            log.warning("push service at %s did not answer in time", _host(subscription.endpoint))
            return
        except OSError as exc:  # (PushUnreachable too)
            metrics.notifications_failed.labels(self.name, "unreachable").inc()
            log.warning("push service at %s unreachable: %s", _host(subscription.endpoint), exc)
            return
        except Exception:
            metrics.notifications_failed.labels(self.name, "refused").inc()
            log.exception("push to %s failed", _host(subscription.endpoint))
            return
        if 200 <= status < 300:
            metrics.notifications_sent.labels(self.name).inc()
            return
        if status in GONE:
            metrics.notifications_failed.labels(self.name, "gone").inc()
            async with self._ctx.sessions() as session:
                await preferences.drop_endpoint(session, subscription.endpoint)
            log.info("push subscription at %s is gone (%s): dropped", _host(subscription.endpoint), status)
            return
        metrics.notifications_failed.labels(self.name, "refused").inc()
        log.warning("push service at %s answered %s", _host(subscription.endpoint), status)


class MailChannel:
    """E-mail to the account's confirmed address while its mails are on (and the host set up SMTP)."""

    name = "email"

    def __init__(self, ctx: Context, mailer: Mailer, tokens: Tokens) -> None:
        self._ctx = ctx
        self._mailer = mailer
        self._tokens = tokens

    async def deliver(self, account_id: int, notice: Notice) -> None:
        if not self._mailer.configured:
            return
        async with self._ctx.sessions() as session:
            row = await session.get(NotifyAccount, account_id)
            person = (await session.execute(select(Account.name, Account.language).where(Account.id == account_id))).first()
        name, language = (person.name, person.language) if person is not None else (None, None)
        if row is None or not (row.email and row.email_confirmed and row.email_enabled):
            return
        site = self._ctx.settings.site_url
        unsubscribe = f"{site}/notifications/unsubscribe?token={self._tokens.unsubscribe(account_id, row.email)}"
        message = notice_mail(self._mailer, row.email, name or "", notice, site, unsubscribe, language)
        metrics = self._ctx.metrics
        try:
            async with asyncio.timeout(self._ctx.settings.notify_send_timeout_seconds):
                await self._mailer.send(message)
        except (TimeoutError, aiosmtplib.SMTPTimeoutError):
            metrics.notifications_failed.labels(self.name, "timeout").inc()
            log.warning("the SMTP server did not answer in time")
        except (aiosmtplib.SMTPRecipientsRefused, aiosmtplib.SMTPResponseException) as exc:
            metrics.notifications_failed.labels(self.name, "refused").inc()
            log.warning("the SMTP server refused a notice mail: %s", exc)
        except (aiosmtplib.SMTPException, OSError) as exc:
            metrics.notifications_failed.labels(self.name, "unreachable").inc()
            log.warning("the SMTP server is unreachable: %s", exc)
        else:
            metrics.notifications_sent.labels(self.name).inc()


def _host(endpoint: str) -> str:
    """The push service's host, for logs (the rest of an endpoint is a secret capability)."""
    return endpoint.split("/")[2] if endpoint.count("/") >= 2 else "?"

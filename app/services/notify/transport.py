"""The HTTP side of Web Push: one aiohttp session that posts encrypted, VAPID-signed messages.

Imported in a worker thread on the first push (``channels.PushChannel.deliver``), not at import
time of the app: aiohttp is the slowest of our imports and holds about 6 MiB, which a server whose
players never subscribed does without.
"""

from __future__ import annotations

import socket
import time
from ipaddress import ip_address
from urllib.parse import urlsplit

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from py_vapid import Vapid

from app.services.notify.push import TTL_SECONDS, PushUnreachable, Subscription, encrypt, public_address, public_host


class PushSender:
    """Sends encrypted, VAPID-signed push messages over one aiohttp session (open it with :meth:`start`).

    ``timeout_seconds`` bounds each request as a whole (connect, send, answer).
    """

    def __init__(self, vapid: Vapid, subject: str, timeout_seconds: float, allow_private: bool) -> None:
        self._vapid = vapid
        self._subject = subject
        self._timeout = timeout_seconds
        self._allow_private = allow_private
        self._session: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        """Open the HTTP session (inside the running event loop)."""
        resolver = None if self._allow_private else PublicOnlyResolver()
        self._session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(resolver=resolver, limit=50),
                                              timeout=aiohttp.ClientTimeout(total=self._timeout))

    async def close(self) -> None:
        """Close the HTTP session."""
        if self._session is not None:
            await self._session.close()

    async def send(self, subscription: Subscription, data: bytes, topic: str) -> int:
        """POST ``data`` to the subscription's push service; returns the HTTP status it answered.

        Raises ``TimeoutError`` past the time limit and ``PushUnreachable`` (an ``OSError``) when the
        service cannot be reached, or its host is a local name or an address this server may not
        post to (checked again here: aiohttp asks no resolver for an address literal, and a
        subscription may have been kept before the check was tightened).  ``topic`` lets the
        service replace an older undelivered notice.
        """
        if self._session is None:
            raise RuntimeError("PushSender.start() was not called")
        parts = urlsplit(subscription.endpoint)
        if not self._allow_private and not public_host(parts.hostname or ""):
            raise PushUnreachable(f"push endpoint host {parts.hostname!r} is not a public address")
        body = encrypt(subscription, data)
        claims = {"sub": self._subject, "aud": f"{parts.scheme}://{parts.netloc}", "exp": int(time.time()) + 12 * 3600}
        headers = {**self._vapid.sign(claims), "Content-Encoding": "aes128gcm", "Content-Type": "application/octet-stream",
                   "TTL": str(TTL_SECONDS), "Urgency": "normal", "Topic": topic}
        try:
            async with self._session.post(subscription.endpoint, data=body, headers=headers,
                                          allow_redirects=False) as answer:
                await answer.read()
                return answer.status
        except aiohttp.ClientError as exc:
            raise PushUnreachable(str(exc) or exc.__class__.__name__) from exc


class PublicOnlyResolver(AbstractResolver):
    """aiohttp's resolver, keeping only public addresses: a push endpoint's host name that points
    at this machine or a private network is never connected to."""

    def __init__(self) -> None:
        self._inner = aiohttp.ThreadedResolver()

    async def resolve(self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET) -> list[ResolveResult]:
        found = [result for result in await self._inner.resolve(host, port, family)
                 if public_address(ip_address(result["host"]))]
        if not found:
            raise OSError(f"push endpoint host {host!r} has no public address")
        return found

    async def close(self) -> None:
        await self._inner.close()

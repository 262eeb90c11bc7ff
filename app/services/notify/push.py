"""Web Push (RFC 8030) of notices to browsers: checking a subscription, and sending to it.

The payload is encrypted for the subscription's keys (RFC 8291, ``aes128gcm``) by http_ece and
the request signed with the server's VAPID key (RFC 8292) by py-vapid, as pywebpush does it (whose
``requests`` client we do not need); the request itself is one aiohttp POST with a time limit and
without redirects (``transport.py``, imported on the first push: aiohttp takes a while to load).  The
cryptography library and http_ece are imported by the functions that use them (see ``vapid.py``).  A push endpoint is a URL a browser hands us, so the
server never posts to this machine or its private network (unless
``push_allow_private_endpoints``, for tests): such URLs are refused when subscribing and again
when sending (a subscription kept before a check was tightened), and host names are resolved to
public addresses only when sending.  The check is made on the address the host really names, the
way the C resolver reads it: every IPv4 spelling (``127.1``, ``0x7f.1``, ``0177.0.0.1``,
``2130706433``), trailing dots (``localhost.``), and the IPv4 address inside an IPv6 one (mapped
``::ffff:a.b.c.d``, compatible ``::a.b.c.d``, NAT64 ``64:ff9b::/96``, 6to4 ``2002::/16``, Teredo),
which Python's ``is_global`` counts as global.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import json
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from app.i18n import ntranslate
from app.services.errors import AppError
from app.services.notify.messages import Notice

MAX_ENDPOINT_LENGTH = 1000
MAX_PAYLOAD_BYTES = 3000
"""Push services take 4096 bytes of encrypted payload; the plaintext stays well below."""
TTL_SECONDS = 4 * 86400
"""How long a push service keeps a notice for a browser that is offline (a laptop closed over a weekend)."""
GONE = (404, 410)
"""Push service answers meaning the subscription is no more (RFC 8030 section 7.3): drop it."""


class PushUnreachable(OSError):
    """The push service could not be reached or broke off the exchange."""


@dataclass(frozen=True)
class Subscription:
    """What a browser's ``PushSubscription.toJSON()`` gives: the endpoint and its two keys (base64url)."""

    endpoint: str
    p256dh: str
    auth: str


def check_subscription(subscription: Subscription, allow_private: bool) -> Subscription:
    """The subscription if a browser could have made it; raises ``AppError(bad_request)`` otherwise.

    The endpoint is an absolute https URL (http too when ``allow_private``) of at most
    ``MAX_ENDPOINT_LENGTH`` characters, naming no user, and (unless ``allow_private``) no
    loopback, private or link-local host; ``p256dh`` is a point on P-256 (65 bytes, uncompressed)
    and ``auth`` 16 bytes (RFC 8291 section 3).
    """
    endpoint = subscription.endpoint
    if len(endpoint) > MAX_ENDPOINT_LENGTH or any(ord(char) <= 32 or ord(char) >= 127 for char in endpoint):
        raise AppError("bad_request", "a push endpoint is a URL of at most {MAX_ENDPOINT_LENGTH} printable characters", MAX_ENDPOINT_LENGTH=MAX_ENDPOINT_LENGTH)
    parts = urlsplit(endpoint)
    schemes = ("https", "http") if allow_private else ("https",)
    if parts.scheme not in schemes or not parts.hostname or parts.username or parts.password:
        raise AppError("bad_request", "a push endpoint is an https:// URL")
    if not allow_private and not public_host(parts.hostname):
        raise AppError("bad_request", "a push endpoint may not name this server or a private network")
    from cryptography.hazmat.primitives.asymmetric import ec

    try:
        point = _b64url(subscription.p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        if len(point) != 65:
            raise ValueError("not an uncompressed point")
    except ValueError:
        raise AppError("bad_request", "keys.p256dh is not a P-256 public key (65 bytes, base64url)") from None
    try:
        if len(_b64url(subscription.auth)) != 16:
            raise ValueError("not 16 bytes")
    except ValueError:
        raise AppError("bad_request", "keys.auth is not a 16-byte secret (base64url)") from None
    return subscription


def payload(notice: Notice) -> bytes:
    """The JSON the service worker shows (``static/sw.js``): ``{title, body, url, tag}``, within
    ``MAX_PAYLOAD_BYTES`` (a long digest names its first games and counts the rest)."""
    lines = list(notice.lines)
    while True:
        shown = lines if len(lines) == len(notice.lines) else [*lines, ntranslate(notice.language, "and {n} more", "and {n} more", len(notice.lines) - len(lines))]
        data = json.dumps({"title": notice.title, "body": "\n".join(shown), "url": notice.path, "tag": notice.tag},
                          ensure_ascii=False).encode()
        if len(data) <= MAX_PAYLOAD_BYTES or not lines:
            return data
        lines.pop()


def encrypt(subscription: Subscription, data: bytes) -> bytes:
    """``data`` encrypted for the subscription (RFC 8291): a new sender key pair per message, the
    record's salt random, ``aes128gcm`` (RFC 8188) with the sender's public key in its header."""
    import http_ece
    from cryptography.hazmat.primitives.asymmetric import ec

    return http_ece.encrypt(data, private_key=ec.generate_private_key(ec.SECP256R1()),
                            dh=_b64url(subscription.p256dh), auth_secret=_b64url(subscription.auth), version="aes128gcm")


def public_host(host: str) -> bool:
    """Whether a URL's host (``urlsplit(...).hostname``: lower case, no brackets) may be posted to.

    False for local names (``localhost`` and names under it, ``localhost.localdomain``, names
    under ``.localdomain``, ``.local``, ``.internal``, ``.home.arpa``, any name without a dot),
    each with or without trailing dots, and for addresses :func:`public_address` refuses.  True
    for any other name: its addresses are checked when it is resolved (``transport.PublicOnlyResolver``).
    """
    name = host.strip("[]").rstrip(".").lower()
    address = canonical_address(name)
    if address is not None:
        return public_address(address)
    if not name or "." not in name or name == "localhost.localdomain":
        return False
    return not name.endswith(_LOCAL_SUFFIXES)


def canonical_address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a host names when it is an address literal, in any spelling the C resolver
    takes (``inet_aton``: ``127.1``, ``0x7f.1``, ``0177.0.0.1``, ``2130706433``); None for a name."""
    text = host.strip("[]").rstrip(".")
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        pass
    if text and set(text.lower()) <= _INET_ATON_CHARACTERS:
        try:
            return ipaddress.IPv4Address(socket.inet_aton(text))
        except OSError:
            return None
    return None


def public_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether ``address`` and every IPv4 address embedded in it are global (not loopback,
    private, link-local, reserved, shared or unspecified)."""
    if address.version == 6 and address in _NAT64_LOCAL_USE:
        return False  # a network's own translator: where its IPv4 part sits depends on that network
    return all(each.is_global and not each.is_multicast for each in _with_embedded(address))


def _with_embedded(address):
    yield address
    if address.version != 6:
        return
    low32 = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.ipv4_mapped is not None:
        yield address.ipv4_mapped
    if address.sixtofour is not None:
        yield address.sixtofour
    if address.teredo is not None:
        yield from address.teredo
    if any(address in network for network in _EMBEDDING_LOW_32_BITS):
        yield low32


_EMBEDDING_LOW_32_BITS = (
    ipaddress.IPv6Network("::/96"),  # IPv4-compatible (RFC 4291 2.5.5.1), deprecated but still routed by some stacks
    ipaddress.IPv6Network("64:ff9b::/96"),  # NAT64 well-known prefix (RFC 6052)
)
_NAT64_LOCAL_USE = ipaddress.IPv6Network("64:ff9b:1::/48")  # RFC 8215
_INET_ATON_CHARACTERS = set("0123456789abcdefx.")
_LOCAL_SUFFIXES = (".localhost", ".localdomain", ".local", ".internal", ".home.arpa")


def _b64url(text: str) -> bytes:
    if not text or any(char not in _B64URL for char in text.rstrip("=")):
        raise ValueError("not base64url")
    try:
        return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except binascii.Error as exc:
        raise ValueError(str(exc)) from None


_B64URL = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

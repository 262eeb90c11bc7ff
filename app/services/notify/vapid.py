"""The server's Web Push identity (VAPID, RFC 8292): one P-256 key pair, kept like the session key.

The browser subscribes with the public key (``applicationServerKey``); every push request is
signed with the private key.  A new key would orphan every browser's subscription, so the key is
generated once (``Settings.vapid_key_path``, mode 0600) and read from there on, or given by the
host (``CARAVANSERAI_VAPID_PRIVATE_KEY``, PEM).

The cryptography library (and py-vapid) is imported by these functions, not by this module: a
server loads the key (:class:`VapidKey`) only when a browser asks for it or a push is sent, and
``serve`` checks it at start in a child process (``app/prepare.py``): about 6 MiB a process keeps
for good once imported (docs/decisions.md, *Imports on first use*).
"""

from __future__ import annotations

import base64
import os
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from app.config import Settings

if TYPE_CHECKING:
    from py_vapid import Vapid


class VapidKey:
    """The VAPID key of ``settings`` and its public half, loaded (or created) on first use, once,
    from any thread (:func:`load_or_create_key`, whose errors the first use raises)."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._lock = threading.Lock()
        self._loaded: tuple[Vapid, str] | None = None

    def _load(self) -> tuple[Vapid, str]:
        with self._lock:
            if self._loaded is None:
                key = load_or_create_key(self._settings)
                self._loaded = (key, public_key(key))
            return self._loaded

    @property
    def vapid(self) -> Vapid:
        """The key pair (py-vapid's ``Vapid``)."""
        return self._load()[0]

    @property
    def public_key(self) -> str:
        """:func:`public_key` of the key."""
        return self._load()[1]


def load_or_create_key(settings: Settings) -> Vapid:
    """The VAPID key: the setting, else the key file, else a new key written to the key file.

    Several worker processes may start at once: the file is created exclusively, and a process
    that finds it being written waits for it.  Raises ``ValueError`` for a key that is not a P-256 PEM.
    """
    given = settings.vapid_private_key.get_secret_value().strip()
    if given:
        return _from_pem(given.encode())
    path = settings.vapid_key_path
    pem = _read_or_create(path)
    return _from_pem(pem)


def public_key(vapid: Vapid) -> str:
    """The public key as browsers take it for ``applicationServerKey``: the uncompressed point, base64url."""
    from cryptography.hazmat.primitives import serialization

    raw = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def subject(settings: Settings) -> str:
    """The contact in the VAPID claims (``sub``): the setting, the site if it is https, else the sender's mailbox."""
    if settings.vapid_subject:
        return settings.vapid_subject
    if settings.site_url.startswith("https://"):
        return settings.site_url
    sender = settings.smtp_from.rsplit("<", 1)[-1].rstrip(">").strip()
    return f"mailto:{sender or 'caravanserai@localhost'}"


def _from_pem(pem: bytes) -> Vapid:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from py_vapid import Vapid

    key = serialization.load_pem_private_key(pem, password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
        raise ValueError("the VAPID key must be a P-256 (prime256v1) private key")
    return Vapid(private_key=key)


def _read_or_create(path: Path) -> bytes:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):  # another worker is writing it: a few milliseconds
            existing = path.read_bytes()
            if existing.rstrip().endswith(b"-----"):
                return existing
            time.sleep(0.1)
        return path.read_bytes()
    with os.fdopen(descriptor, "wb") as file:
        file.write(pem)
    return pem

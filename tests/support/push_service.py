"""A push service on loopback for the notice tests, and the keys a browser makes when it subscribes.

The service is plain HTTP on 127.0.0.1 (the server is told ``push_allow_private_endpoints``).  Each
endpoint ``/push/<name>`` answers as told: 201 (the default), another status (404, 410), or
``"hang"``: it holds the request until :meth:`PushService.release` (a push service that does not
answer).  Every request is kept, and :class:`BrowserKeys` decrypts its body (RFC 8291, http_ece)
as the browser would.
"""

from __future__ import annotations

import base64
import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid

from tests.support.polling import wait_for_count

TEST_VAPID_KEY = ec.generate_private_key(ec.SECP256R1()).private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
"""The server's VAPID key in tests (made once per test process), so no test writes a key file."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class BrowserKeys:
    """What ``pushManager.subscribe`` makes in a browser: a P-256 key pair and a 16-byte auth secret."""

    def __init__(self) -> None:
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    @property
    def p256dh(self) -> str:
        raw = self.private_key.public_key().public_bytes(serialization.Encoding.X962,
                                                         serialization.PublicFormat.UncompressedPoint)
        return b64url(raw)

    def subscription(self, endpoint: str) -> dict:
        """``PushSubscription.toJSON()`` for ``endpoint``."""
        return {"endpoint": endpoint, "expirationTime": None, "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)}}

    def decrypt(self, body: bytes) -> dict:
        """The JSON the server pushed, decrypted with this browser's keys (``aes128gcm``)."""
        return json.loads(http_ece.decrypt(body, private_key=self.private_key, auth_secret=self.auth,
                                           version="aes128gcm"))


@dataclass
class PushRequest:
    """One request the service received."""

    name: str
    headers: dict[str, str]
    body: bytes
    answered: threading.Event = field(default_factory=threading.Event)


class PushService:
    """The HTTP push service; use as a context manager."""

    def __init__(self) -> None:
        self.requests: list[PushRequest] = []
        self._answers: dict[str, int | str] = {}
        self._release = threading.Event()
        self._lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (the http.server name)
                name = self.path.rsplit("/", 1)[-1]
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                request = PushRequest(name, {key.lower(): value for key, value in self.headers.items()}, body)
                with service._lock:
                    service.requests.append(request)
                answer = service._answers.get(name, 201)
                if answer == "hang":
                    service._release.wait(60)
                    answer = 201
                self.send_response(int(answer))
                self.send_header("Content-Length", "0")
                self.end_headers()
                request.answered.set()

            def log_message(self, *args):
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> "PushService":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._release.set()
        self._server.shutdown()
        self._server.server_close()

    def endpoint(self, name: str, answer: int | str = 201) -> str:
        """The URL of endpoint ``name``, which answers ``answer`` (a status, or ``"hang"``)."""
        self._answers[name] = answer
        return f"http://127.0.0.1:{self._server.server_address[1]}/push/{name}"

    def release(self) -> None:
        """Let every hanging request answer."""
        self._release.set()

    def received(self, name: str) -> list[PushRequest]:
        with self._lock:
            return [request for request in self.requests if request.name == name]

    def wait_for(self, name: str, count: int = 1, seconds: float = 20.0) -> list[PushRequest]:
        """The requests to ``name`` once there are at least ``count`` (polls; fails after ``seconds``)."""
        return wait_for_count(lambda: self.received(name), count, f"push requests to {name!r}", seconds)


def check_vapid(request: PushRequest, public_key: str, audience: str) -> dict:
    """Check the request's VAPID signature (RFC 8292) against the server's ``public_key``; its claims."""
    scheme, _, params = request.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(part.split("=", 1) for part in params.split(","))
    assert parts["k"] == public_key
    assert Vapid.verify(request.headers["authorization"])
    claims = json.loads(base64.urlsafe_b64decode(parts["t"].split(".")[1] + "=="))
    assert claims["aud"] == audience
    return claims

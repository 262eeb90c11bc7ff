"""A real SMTP server on loopback (aiosmtpd) that keeps every mail it receives, for the notice tests."""

from __future__ import annotations

import email
import email.policy
import re
from email.message import EmailMessage

from aiosmtpd.controller import Controller

from tests.support.polling import wait_for_count
from tests.support.server import free_port


class _Keeper:
    def __init__(self, box: "Mailbox") -> None:
        self._box = box

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self._box.received.append((list(envelope.rcpt_tos), message))
        return "250 OK"


class Mailbox:
    """aiosmtpd on ``127.0.0.1:port``; ``received`` is ``[(recipients, message)]``.  A context manager."""

    def __init__(self) -> None:
        self.port = free_port()
        self.received: list[tuple[list[str], EmailMessage]] = []
        self._controller = Controller(_Keeper(self), hostname="127.0.0.1", port=self.port)

    def __enter__(self) -> "Mailbox":
        self._controller.start()
        return self

    def __exit__(self, *exc) -> None:
        self._controller.stop()

    def to(self, address: str) -> list[EmailMessage]:
        """The mails received for ``address``."""
        return [message for recipients, message in self.received if address in recipients]

    def wait_for(self, address: str, count: int = 1, seconds: float = 20.0) -> list[EmailMessage]:
        """The mails for ``address`` once there are at least ``count`` (polls; fails after ``seconds``)."""
        return wait_for_count(lambda: self.to(address), count, f"mails to {address}", seconds)


def text_of(message: EmailMessage) -> str:
    """The plain-text body."""
    return message.get_body(("plain",)).get_content()


def link(message: EmailMessage, path: str) -> str:
    """The first link in the mail's text whose path starts with ``path``."""
    found = re.search(r"https?://[^\s]+" + re.escape(path) + r"[^\s]*", text_of(message))
    assert found, f"no link to {path} in: {text_of(message)}"
    return found.group(0)

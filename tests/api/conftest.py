"""Fixtures of the notice tests: a local mail server and a local push service."""

from __future__ import annotations

import pytest

from tests.support.mailbox import Mailbox
from tests.support.push_service import PushService


@pytest.fixture
def mailbox():
    """An SMTP server on this machine that keeps every mail (aiosmtpd)."""
    with Mailbox() as box:
        yield box


@pytest.fixture
def push_service():
    """A Web Push service on this machine that keeps (or holds) every request."""
    with PushService() as service:
        yield service

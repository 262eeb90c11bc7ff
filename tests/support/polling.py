"""Waiting for something a server sends to a test's stand-in (mails, push requests): poll, never sleep a guess."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_for_count(found: Callable[[], list[T]], count: int, what: str, seconds: float = 20.0) -> list[T]:
    """``found()`` once it holds at least ``count`` items (polled every 20 ms); fails after ``seconds``
    naming ``what``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        items = found()
        if len(items) >= count:
            return items
        time.sleep(0.02)
    raise AssertionError(f"{what} got {len(found())}, expected {count}")

"""Waiting for the server (or a test's stand-in for a mail or push service) to do something: poll,
never sleep a guess, never depend on how fast it is."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def poll(read: Callable[[], T], predicate: Callable[[T], bool], seconds: float = 15.0, interval: float = 0.05) -> T:
    """Call ``read()`` until ``predicate`` holds for its value or ``seconds`` have passed; the last
    value read (the caller asserts on it, so a timeout fails with what was seen)."""
    deadline = time.monotonic() + seconds
    while True:
        value = read()
        if predicate(value) or time.monotonic() > deadline:
            return value
        time.sleep(interval)


def wait_for_count(found: Callable[[], list[T]], count: int, what: str, seconds: float = 20.0) -> list[T]:
    """``found()`` once it holds at least ``count`` items (polled every 20 ms); fails after ``seconds``
    naming ``what``."""
    items = poll(found, lambda items: len(items) >= count, seconds, interval=0.02)
    if len(items) < count:
        raise AssertionError(f"{what} got {len(items)}, expected {count}")
    return items

"""Waiting for the server to do something, without depending on how fast it is."""

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

"""Background tasks that end cleanly: let them finish, then cancel what is left.

Why not cancel at once: a task cancelled in the middle of a database call makes SQLAlchemy's
aiosqlite adapter close that connection in a task of its own, which (aiosqlite 0.22.1 with
SQLAlchemy 2.1.9) can wait forever for a worker thread that has already stopped, and the event
loop then never closes: a server that does not stop, a test that hangs.  Short background work
(a fan-out push, a bot move, a deadline check) is let finish instead.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable


async def wind_down(tasks: Iterable[asyncio.Task], grace_seconds: float = 5.0) -> None:
    """Wait up to ``grace_seconds`` for ``tasks`` to finish, then cancel the rest and wait for them.

    Exceptions of the tasks are swallowed (each task logs its own).  Callers tell their tasks
    to stop before calling this (a flag the task's loop checks), so most finish within the grace.
    """
    pending = [task for task in tasks if not task.done()]
    if not pending:
        return
    _, late = await asyncio.wait(pending, timeout=grace_seconds)
    for task in late:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)

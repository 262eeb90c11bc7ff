"""Bot moves computed in worker processes, so a search never holds the server's event loop.

A search is pure Python: in a thread of the server process it would hold the interpreter lock
for its whole budget (a second a move for the strong bot), and every socket of that process
would wait between its slices.  :class:`BotPool` runs each decision in a process of its own pool
instead (``ProcessPoolExecutor``, started with ``spawn``: no copy of the server's threads, sockets
or event loop).  Only the leader, which alone drives bots (``app/services/leader/bot_driver.py``),
ever starts one, on its first bot move.

What crosses to the worker is what a bot may see: the ruleset's name, the seat's view, its legal
moves (in their JSON form), the seat, the bot's random seed and its time budget; the worker sends
back the chosen move's JSON form.  The worker loads the same rulesets as the server (the entry
points and ``extra_rulesets``).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from app.bots.players import make_bot
from app.rulesets.base import Rng, Seat
from app.rulesets.registry import Registry

_registry: Registry | None = None


def _start_worker(extra_rulesets: list[str]) -> None:
    global _registry
    _registry = Registry.discover(extra_rulesets)
    threading.Thread(target=_exit_with_server, name="exit-with-server", daemon=True).start()


def _exit_with_server() -> None:
    """Wait until the server process that started this worker is gone, then end the worker.

    A server killed with SIGKILL cannot stop its pool, and the worker, waiting on the pool's queue
    (whose pipe it holds both ends of), would live on for good, one more after every such crash."""
    server = multiprocessing.parent_process()
    if server is not None:
        server.join()  # returns when the parent's sentinel closes: when it exits, however it exits
        os._exit(0)


def choose_in_worker(ruleset_name: str, level: str, view: dict[str, Any], legal: list[dict[str, Any]], seat: Seat,
                     seed: int, seconds: float) -> dict[str, Any]:
    """The bot of ``level``'s move for ``seat`` (JSON form), in a worker process.

    ``legal``: the seat's legal moves in JSON form; ``seed``: the bot's ``Rng`` state;
    ``seconds``: the strong bot's budget.  Raises ``KeyError`` for an unknown ruleset or level."""
    registry = _registry if _registry is not None else Registry.discover()
    ruleset = registry.get(ruleset_name)
    moves = [ruleset.parse_move(raw) for raw in legal]
    move = make_bot(level, seconds=seconds).choose(ruleset, view, moves, seat, Rng(seed))
    return ruleset.dump_move(move)


class BotPool:
    """A pool of ``processes`` worker processes for bot decisions, started on first use.

    ``extra_rulesets``: the ``module:Class`` paths the server loads besides the entry points, so
    the workers know the same games.  A pool whose worker died is replaced on the next move."""

    def __init__(self, processes: int, extra_rulesets: list[str] | None = None) -> None:
        if processes < 1:
            raise ValueError("a bot pool needs at least one process")
        self._processes = processes
        self._extra = list(extra_rulesets or [])
        self._executor: ProcessPoolExecutor | None = None

    async def choose(self, ruleset_name: str, level: str, view: dict[str, Any], legal: list[dict[str, Any]],
                     seat: Seat, seed: int, seconds: float) -> dict[str, Any]:
        """:func:`choose_in_worker` in a worker; raises what it raises, or ``BrokenProcessPool`` if the
        worker died (the pool is replaced for the next call)."""
        if self._executor is None:
            self._executor = ProcessPoolExecutor(self._processes, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_start_worker, initargs=(self._extra,))
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, choose_in_worker, ruleset_name, level, view, legal,
                                              seat, seed, seconds)
        except BrokenProcessPool:
            self.shutdown()
            raise

    @property
    def running(self) -> bool:
        """Whether worker processes are started (they are on the first move, until :meth:`shutdown`)."""
        return self._executor is not None

    def shutdown(self, wait: bool = False) -> None:
        """Stop the workers (a decision not begun is dropped); the next call starts new ones.

        ``wait=False`` returns at once and a decision under way is abandoned.  ``wait=True`` (the
        server's shutdown; it blocks, so call it from a thread) returns once the workers have
        exited and the pool's queues are closed, which frees their semaphores: the server process
        ends by its signal (uvicorn raises it again after the shutdown), so no exit handler runs
        after this, and a semaphore still held would be reported leaked by multiprocessing's
        resource tracker."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=wait, cancel_futures=True)

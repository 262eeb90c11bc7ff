"""Bot moves computed in a worker process (app/bots/workers.py): the move comes back in JSON
form, is one of the legal moves, and is the move the same bot makes in this process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from app.bots import make_bot
from app.bots.workers import BotPool
from app.rulesets.base import Rng
from app.rulesets.registry import Registry
from tests.conftest import run_coroutine

ROOT = Path(__file__).resolve().parents[2]


def test_a_worker_process_makes_the_move_the_bot_makes_here():
    ruleset = Registry.discover().get("through-the-desert")
    state = ruleset.setup(2, ruleset.parse_options({}), 7)
    seat = min(ruleset.to_act(state))
    view, legal = ruleset.view(state, seat), ruleset.legal_moves(state, seat)
    here = ruleset.dump_move(make_bot("medium").choose(ruleset, view, legal, seat, Rng(99)))
    pool = BotPool(1)

    async def ask() -> dict:
        return await pool.choose(ruleset.name, "medium", view, [ruleset.dump_move(m) for m in legal], seat, 99, 1.0)

    try:
        there = run_coroutine(ask)
    finally:
        pool.shutdown()
    assert there == here
    assert there in [ruleset.dump_move(m) for m in legal]


OWNER = """
import asyncio, sys
from app.bots.workers import BotPool
from app.rulesets.registry import Registry

async def main():
    ruleset = Registry.discover().get("through-the-desert")
    state = ruleset.setup(2, ruleset.parse_options({}), 7)
    seat = min(ruleset.to_act(state))
    legal = [ruleset.dump_move(m) for m in ruleset.legal_moves(state, seat)]
    pool = BotPool(1)
    await pool.choose(ruleset.name, "easy", ruleset.view(state, seat), legal, seat, 1, 1.0)
    print("ready", flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


def test_a_worker_ends_when_the_server_that_started_it_is_killed(tmp_path):
    """A server killed with SIGKILL (a crash, the OOM killer) leaves no bot worker behind."""
    owner = subprocess.Popen([sys.executable, "-c", OWNER], stdout=subprocess.PIPE, cwd=ROOT,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    workers: list[int] = []
    try:
        assert owner.stdout.readline().strip() == b"ready"  # its worker made a move
        workers = children_of(owner.pid)
        assert workers, "the pool's worker process is not running"
        owner.kill()
        owner.wait(10)
        deadline = time.monotonic() + 30
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [pid for pid in workers if alive(pid)] == []
    finally:
        owner.kill()
        for pid in workers or children_of(owner.pid):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def children_of(pid: int) -> list[int]:
    """The process ids whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie or a reaped one is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"

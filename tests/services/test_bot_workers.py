"""Bot moves computed in a worker process (app/bots/workers.py): the move comes back in JSON
form, is one of the legal moves, and is the move the same bot makes in this process."""

from __future__ import annotations


from app.bots import make_bot
from app.bots.workers import BotPool
from app.rulesets.base import Rng
from app.rulesets.registry import Registry
from tests.conftest import run_coroutine


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

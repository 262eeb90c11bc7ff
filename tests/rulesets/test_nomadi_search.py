"""One bot decision, one search: Nomadi's rules import no bot code, and two
searches under way at the same time in two threads (the server plays bot moves in worker threads)
see nothing of each other (``evaluation.Search``)."""

from __future__ import annotations

import ast
import graphlib
import math
import threading
from pathlib import Path
from typing import Any

from app.bots.players import SearchBot
from app.rulesets.base import Rng
from app.rulesets.nomadi import evaluation
from app.rulesets.nomadi.moves import UseDie
from app.rulesets.nomadi.options import Options
from tests.rulesets.nomadi_fixtures import STANDARD, A, B, position

PACKAGE = Path(evaluation.__file__).parent
WAIT_SECONDS = 120
"""How long a thread waits for the other before the test gives up (a guard against a hang only:
the threads wait for events, never for time)."""


def package_imports() -> dict[str, set[str]]:
    """Module of the Nomadi package -> the modules it imports (``app...`` names, type-only ones too)."""
    graph: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.glob("*.py")):
        imported = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
                imported.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
        graph[f"app.rulesets.nomadi.{path.stem}"] = {name for name in imported if name.startswith("app.")}
    return graph


def test_the_rules_import_no_bot_code_and_the_package_has_no_import_cycle():
    graph = package_imports()
    assert "app.rulesets.nomadi.rules" in graph
    for module, imported in graph.items():
        assert not [name for name in imported if name.startswith("app.bots") or name.endswith(".bots")], module
    inside = {module: {name for name in imported if name in graph} for module, imported in graph.items()}
    list(graphlib.TopologicalSorter(inside).static_order())  # raises graphlib.CycleError on a cycle


def test_determinize_opens_one_search_per_view_and_a_thread_has_its_own():
    state = STANDARD.setup(2, Options(), seed=3)
    view, other_view = STANDARD.view(state, A), STANDARD.view(state, B)
    STANDARD.determinize(view, A, Rng(1))
    search = evaluation.current_search(STANDARD)
    STANDARD.determinize(view, A, Rng(2))  # the next sample of the same decision
    assert evaluation.current_search(STANDARD) is search and search.view is view
    STANDARD.determinize(other_view, B, Rng(3))  # another decision
    assert evaluation.current_search(STANDARD) is not search
    seen_in_thread = []
    thread = threading.Thread(target=lambda: seen_in_thread.append(evaluation.current_search(STANDARD)))
    thread.start()
    thread.join(WAIT_SECONDS)
    assert seen_in_thread and seen_in_thread[0] is not evaluation.current_search(STANDARD)
    assert seen_in_thread[0].view is None  # a search of no view: nothing of this thread's


def bot() -> SearchBot:
    return SearchBot(budget_seconds=math.inf)  # no time budget: the machine's speed never decides


def choose(ruleset, state: dict, seat: int, seed: int = 0):
    return bot().choose(ruleset, ruleset.view(state, seat), ruleset.legal_moves(state, seat), seat, Rng(seed))


class Paced:
    """The shared ruleset as one bot sees it, with a hook before the search's first evaluation:
    two bots in two threads then interleave the same way on every run."""

    def __init__(self, ruleset, before_first_evaluation) -> None:
        self.ruleset = ruleset
        self.before_first_evaluation = before_first_evaluation
        self.evaluations = 0

    def determinize(self, view, seat, rng):
        return self.ruleset.determinize(view, seat, rng)

    def apply(self, state, seat, move):
        return self.ruleset.apply(state, seat, move)

    def evaluate(self, state, seat):
        if self.evaluations == 0:
            self.before_first_evaluation()
        self.evaluations += 1
        return self.ruleset.evaluate(state, seat)


def run_in_threads(*jobs) -> list[Any]:
    """Run each job in its own thread at once; their results in order (a job's error is raised)."""
    results: list[Any] = [None] * len(jobs)
    errors: list[BaseException] = []

    def run(index: int, job) -> None:
        try:
            results[index] = job()
        except BaseException as error:  # noqa: BLE001 - handed to the test's thread
            errors.append(error)

    threads = [threading.Thread(target=run, args=(index, job)) for index, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT_SECONDS)
    assert not any(thread.is_alive() for thread in threads), "a search did not finish"
    if errors:
        raise errors[0]
    return results


def test_a_search_does_not_see_the_positions_another_game_decides_from_at_the_same_time():
    """Game 1 is at a position where A's best die puts its stone into the goal; game 2 (another
    table, other coins) is at the position right after that move, A to use its next die.  A
    search for game 2 decides from game 1's best next position (but for coins), the shape of a
    coin gift (R-41a) to a search that sees it: a shared record of positions made game 1's bot
    drop its best move while game 2's bot was thinking."""
    ruleset, first, _ = position(["gg....", "ggAC..", "..DEF.", "......"], dice=(2, 1, 3),
                                 owners={"A": B, "D": B, "F": B})
    best = UseDie(die=2, stone=(1, 3), to=(1, 1))
    second, _ = ruleset.apply(first, A, best)
    assert second["phase"] == "move" and second["current"] == A
    second["coins"] = [2, 9]
    alone = [choose(ruleset, first, A), choose(ruleset, second, A)]
    assert alone[0] == best

    second_evaluating = threading.Event()

    def wait_for_second() -> None:  # game 1 evaluates only once game 2's search has its positions
        assert second_evaluating.wait(WAIT_SECONDS), "game 2's search never began to evaluate"

    game_1, game_2 = Paced(ruleset, wait_for_second), Paced(ruleset, second_evaluating.set)
    together = run_in_threads(
        lambda: bot().choose(game_1, ruleset.view(first, A), ruleset.legal_moves(first, A), A, Rng(0)),
        lambda: bot().choose(game_2, ruleset.view(second, A), ruleset.legal_moves(second, A), A, Rng(0)),
    )
    assert together == alone


def bot_game(seed: int, options: dict, plies: int, barrier: threading.Barrier | None = None) -> list[dict]:
    """The first ``plies`` moves of a game of default bots on the standard board (wire form)."""
    state = STANDARD.setup(2, Options(**options), seed)
    moves = []
    for ply in range(plies):  # fewer plies than the turn limit allows: both games last as long
        if barrier is not None:
            barrier.wait(WAIT_SECONDS)  # both games decide their moves side by side
        seat = min(STANDARD.to_act(state))
        move = choose(STANDARD, state, seat, seed=seed * 1000 + ply)
        moves.append(STANDARD.dump_move(move))
        state, _ = STANDARD.apply(state, seat, move)
    return moves


def test_two_bot_games_in_parallel_threads_play_the_moves_they_play_alone():
    games = [(41, {"turn_limit": 10, "trading": True}), (42, {"turn_limit": 10, "hidden_coins": True})]
    plies = 36
    alone = [bot_game(seed, options, plies) for seed, options in games]
    barrier = threading.Barrier(len(games))
    together = run_in_threads(*(lambda seed=seed, options=options: bot_game(seed, options, plies, barrier)
                                for seed, options in games))
    assert together == alone
    assert alone[0] != alone[1]

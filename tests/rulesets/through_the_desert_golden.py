"""Golden games of Through the Desert: proof that a refactoring keeps the behaviour.

A golden game is a seeded game of random legal moves, stored as its setup arguments, its wire
moves and, per ply, short hashes of the canonical JSON of everything the outside world sees:

* the state (it is stored as the game's snapshot, so its layout is part of the contract);
* the spectator view and every seat's view (the wire format the browser draws);
* the legal moves of the seat to act, in their wire form;
* the log events the move caused (texts and who may read them);
* the secrets of every seat (what the conformance kit guards);
* the bot hooks, for the seat to act (every seat once the game is over): ``determinize`` of
  its view with a fixed ``Rng``, and ``evaluate``.

Ply 0 is the position after ``setup`` (it has no events); ply ``k`` the position after the
``k``-th move.  The file was recorded with the code before the typed-state refactoring; the test
``test_through_the_desert_golden.py`` replays the stored moves and compares every hash.

Record again (only when a behaviour change is intended, and say so in the commit)::

    python -m tests.rulesets.through_the_desert_golden
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import orjson

from app.rulesets.base import Event, Rng
from app.rulesets.wire import dump_moves
from app.rulesets.through_the_desert.rules import ThroughTheDesert

GOLDEN_FILE = Path(__file__).parent / "data" / "through_the_desert_golden.json"
HASH_LENGTH = 16
"""Hex digits kept of each SHA-256 (64 bits: a chance collision is out of the question here)."""

OPTION_SETS: tuple[dict[str, Any], ...] = (
    {},
    {"end_trigger": "immediate", "piles": "zman", "hide_well_values": False, "palm_placement": "choose",
     "leader_return": "random"},
    {"palm_placement": "choose", "leader_return": "choose", "first_player": "host"},
)
"""Between them every option value that changes the state, the views or the log."""
PLAYER_COUNTS = (2, 3, 4, 5)
EVALUATE_DIGITS = 6
"""Decimal places of ``evaluate`` kept in its hash."""
CHANNELS = ("state", "views", "legal", "events", "secrets", "determinize", "evaluate")
"""What each ply records, in the order of its hashes."""


def digest(value: Any) -> str:
    """The short hash of ``value``'s canonical JSON (sorted keys, no spaces; orjson writes it
    several times faster than ``json``, which keeps the replay test short)."""
    return hashlib.sha256(orjson.dumps(value, option=orjson.OPT_SORT_KEYS)).hexdigest()[:HASH_LENGTH]


def ply_hashes(ruleset: ThroughTheDesert, state: Any, events: list[Event], ply: int) -> list[str]:
    """One hash per channel of :data:`CHANNELS` for the position ``state`` reached at ``ply``."""
    n_players = state["players"]
    seats = range(n_players)
    views = [ruleset.view(state, seat) for seat in [None, *seats]]
    acting = sorted(ruleset.to_act(state))
    legal = {seat: dump_moves(ruleset, ruleset.legal_moves(state, seat)) for seat in acting}
    searching = acting or list(seats)  # the seats whose bot would search now; all once it is over
    worlds = [ruleset.determinize(views[1 + seat], seat, Rng(1000 * ply + seat)) for seat in searching]
    return [
        digest(state),
        digest(views),
        digest({str(seat): moves for seat, moves in legal.items()}),
        digest([[event.text, event.seats] for event in events]),
        digest([sorted(ruleset.secrets(state, seat)) for seat in seats]),
        digest(worlds),
        # rounded: evaluate adds floats in the order of sets of strings, which changes with each
        # process's string hashing (PYTHONHASHSEED) in the last bits
        digest([round(ruleset.evaluate(state, seat), EVALUATE_DIGITS) for seat in searching]),
    ]


def record_game(ruleset: ThroughTheDesert, n_players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """Play one game of uniformly random legal moves (``random.Random(seed)`` chooses) and record it."""
    chooser = random.Random(seed)
    state = ruleset.setup(n_players, ruleset.parse_options(options), seed)
    moves: list[list[Any]] = []
    plies = [ply_hashes(ruleset, state, [], 0)]
    while acting := sorted(ruleset.to_act(state)):
        seat = chooser.choice(acting)
        move = chooser.choice(ruleset.legal_moves(state, seat))
        state, events = ruleset.apply(state, seat, move)
        moves.append([seat, ruleset.dump_move(move)])
        plies.append(ply_hashes(ruleset, state, events, len(moves)))
    result = ruleset.result(state)
    assert result is not None
    return {
        "players": n_players,
        "options": options,
        "seed": seed,
        "moves": moves,
        "plies": plies,
        "result": digest(result.model_dump(mode="json")),
    }


def record_all(ruleset: ThroughTheDesert) -> dict[str, Any]:
    """Every golden game: each option set with each player count, one seed apiece."""
    games = [
        record_game(ruleset, n_players, options, seed=1000 * index + n_players)
        for index, options in enumerate(OPTION_SETS)
        for n_players in PLAYER_COUNTS
    ]
    return {"channels": list(CHANNELS), "games": games}


def write(path: Path = GOLDEN_FILE) -> None:
    """Record the golden games with the code as it stands and write them to ``path``."""
    data = record_all(ThroughTheDesert())
    # one game per line: small, and a diff shows which game changed
    lines = ",\n".join(json.dumps(game, separators=(",", ":")) for game in data["games"])
    path.write_text(f'{{"channels":{json.dumps(data["channels"])},"games":[\n{lines}\n]}}\n', encoding="utf-8")


def load(path: Path = GOLDEN_FILE) -> dict[str, Any]:
    """The golden games as recorded."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


if __name__ == "__main__":
    write()

"""Golden games of Nimalia: the proof that a refactor keeps behaviour.

A golden game is a seeded random game recorded with the code of the day: its setup arguments, its
wire moves, and per position the hashes of everything the platform or a player can observe (the
state, every seat's view and the spectator's, every seat's legal moves and secrets, the state
``determinize`` builds behind each seat's view and ``evaluate``'s value of the position for each
seat), per move the hash of its log events, and the hash of the result.  Hashes are the first
12 hex digits of the SHA-256 of the canonical JSON (sorted keys), so the file stays small.

``tests/rulesets/test_nimalia_golden.py`` replays every game from its wire moves and compares
every hash.  Record again only when a change of behaviour is intended, and say so in the commit::

    python -m tests.rulesets.nimalia_golden
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from app.rulesets.base import Rng
from app.rulesets.wire import dump_moves
from app.rulesets.nimalia.rules import Nimalia
from app.rulesets.testing import canonical

GOLDEN_FILE = Path(__file__).parent / "data" / "nimalia_golden.json"
RULES = Nimalia()

GAMES: list[tuple[int, dict[str, Any], int]] = [  # (players, options, seed)
    (players, options, seed)
    for players in (2, 3, 4)
    for options, seeds in (({}, (1, 2)), ({"goal_level": "easy"}, (3,)), ({"goal_level": "difficult"}, (4,)),
                           ({"first_game": True}, (5,)))
    for seed in seeds
]
"""Every player count with every option set; two games with the default options."""


def digest(value: Any) -> str:
    """The first 12 hex digits of the SHA-256 of ``value``'s canonical JSON."""
    return hashlib.sha256(canonical(value).encode()).hexdigest()[:12]


def position_labels(n_players: int) -> list[str]:
    """What each hash of a position stands for, in the order :func:`position_hashes` writes them."""
    seats = range(n_players)
    return ["state", "view of the spectator", *(f"view of seat {seat}" for seat in seats),
            *(f"legal moves of seat {seat}" for seat in seats), *(f"secrets of seat {seat}" for seat in seats),
            *(f"determinized state of seat {seat}" for seat in seats),
            *(f"evaluation for seat {seat}" for seat in seats)]


def position_hashes(state: dict[str, Any], ply: int) -> list[str]:
    """Every observable of one position, hashed (labels: :func:`position_labels`)."""
    seats = range(state["players"])
    hashes = [digest(state), digest(RULES.view(state, None))]
    hashes += [digest(RULES.view(state, seat)) for seat in seats]
    hashes += [digest(dump_moves(RULES, RULES.legal_moves(state, seat))) for seat in seats]
    hashes += [digest(sorted(RULES.secrets(state, seat))) for seat in seats]
    hashes += [digest(RULES.determinize(RULES.view(state, seat), seat, Rng(ply * 8 + seat))) for seat in seats]
    hashes += [digest(RULES.evaluate(state, seat)) for seat in seats]
    return hashes


def play_game(n_players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """One game of uniformly random legal moves (seats of a step in random order): its setup
    arguments and its ``[seat, wire move]`` list."""
    chooser = random.Random(seed)
    state = RULES.setup(n_players, RULES.parse_options(options), seed)
    moves = []
    while acting := RULES.to_act(state):
        seat = chooser.choice(sorted(acting))
        move = chooser.choice(RULES.legal_moves(state, seat))
        state, _ = RULES.apply(state, seat, move)
        moves.append([seat, RULES.dump_move(move)])
    return {"players": n_players, "options": options, "seed": seed, "moves": moves}


def observe(game: dict[str, Any]) -> dict[str, Any]:
    """The game's record: its wire moves folded over its setup with today's code, every position,
    every move's log events and the result hashed."""
    state = RULES.setup(game["players"], RULES.parse_options(game["options"]), game["seed"])
    positions, events = [position_hashes(state, 0)], []
    for seat, wire in game["moves"]:
        state, caused = RULES.check_and_apply(state, seat, RULES.parse_move(wire))
        events.append(digest([event.model_dump(mode="json") for event in caused]))
        positions.append(position_hashes(state, len(positions)))
    result = RULES.result(state)
    return {"players": game["players"], "options": game["options"], "seed": game["seed"], "moves": game["moves"],
            "positions": positions, "events": events,
            "result": digest(result.model_dump(mode="json") if result else None)}


def load_golden() -> list[dict[str, Any]]:
    """The recorded games."""
    return json.loads(GOLDEN_FILE.read_text(encoding="utf-8"))["games"]


def main() -> None:
    """Record every game of :data:`GAMES` into :data:`GOLDEN_FILE`."""
    games = [observe(play_game(*game)) for game in GAMES]
    GOLDEN_FILE.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"games": games}, separators=(",", ":"))
    GOLDEN_FILE.write_text(text.replace('{"players"', '\n{"players"') + "\n", encoding="utf-8")
    print(f"{len(games)} games, {len(text) // 1024} KB -> {GOLDEN_FILE}")


if __name__ == "__main__":
    main()

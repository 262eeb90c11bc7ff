"""Golden games of Nomadi: proof that a refactoring keeps the behaviour.

Recorded once with the code as it was before the typed state (``python -m
tests.rulesets.nomadi_golden`` writes ``data/nomadi_golden.json``); ``test_nomadi_golden.py``
replays every game with today's code and compares.  Each game stores its setup arguments, the
wire moves, and per ply short hashes of the canonical JSON of

* the state,
* every seat's view and the spectator view,
* the legal moves of every seat to act (their wire form),
* the log events the move caused (text and readers),

and after the last move the hashes of the final state, views and result.  Hashes, not states, keep
the file small; a mismatch names the game, the ply and the part that changed.

Some games are played by uniformly random legal moves (every phase and option, gifts included);
the ``bot`` games by the default bot (``SearchBot`` without a time budget, so that the machine's
speed never changes a choice) with the bot's randomness seeded per ply.  Their moves are the bot's
choices, so ``test_nomadi_golden.py`` also asks the bot again on their positions: the bot's choices
(its playing strength) stay the same for the same seed.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from pathlib import Path
from typing import Any

from app.bots.players import SearchBot
from app.rulesets.base import Event, Rng
from app.rulesets.wire import dump_moves
from app.rulesets.nomadi.options import Options
from app.rulesets.nomadi.rules import Nomadi
from app.rulesets.testing import canonical

GOLDEN_FILE = Path(__file__).parent / "data" / "nomadi_golden.json"
HASH_LENGTH = 12
"""Hex digits kept of each SHA-256: 48 bits, plenty to tell a changed document from the same one."""

GAMES: list[dict[str, Any]] = [
    # every player count, every option; the default game runs into the 150-turn limit
    {"players": 2, "options": {}, "seed": 1, "player": "random"},
    {"players": 3, "options": {"turn_limit": 40, "trading": True, "hidden_coins": True, "card_placement": "players"},
     "seed": 2, "player": "random"},
    {"players": 4, "options": {"turn_limit": 40, "short_game": True, "voluntary_pass": True}, "seed": 3,
     "player": "random"},
    {"players": 5, "options": {"turn_limit": 30, "first_player": "host", "trading": True}, "seed": 4,
     "player": "random"},
    # the default bot: the third stone in the goal ends the game; trading with hidden coins
    # (the bot's refusal to give coins away, R-41a); the short game with players laying the cards
    {"players": 2, "options": {"first_player": "host"}, "seed": 5, "player": "bot"},
    {"players": 3, "options": {"turn_limit": 14, "trading": True, "hidden_coins": True}, "seed": 6, "player": "bot"},
    {"players": 2, "options": {"turn_limit": 12, "short_game": True, "card_placement": "players"}, "seed": 7,
     "player": "bot"},
]

RULESET = Nomadi()


def digest(value: Any) -> str:
    """A short hash of ``value``'s canonical JSON."""
    return hashlib.sha256(canonical(value).encode()).hexdigest()[:HASH_LENGTH]


def event_form(events: list[Event]) -> list[list[Any]]:
    """Events as JSON: ``[text, seats or None]``."""
    return [[event.text, list(event.seats) if event.seats is not None else None] for event in events]


def views(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every seat's view, then the spectator's."""
    return [RULESET.view(state, seat) for seat in range(state["players"])] + [RULESET.view(state, None)]


def legal_forms(state: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The wire form of the legal moves of every seat to act, by seat."""
    return {str(seat): dump_moves(RULESET, RULESET.legal_moves(state, seat)) for seat in sorted(RULESET.to_act(state))}


def bot() -> SearchBot:
    """The default bot as the server builds it, but without a time budget (speed never decides)."""
    return SearchBot(budget_seconds=math.inf)


def bot_rng(seed: int, ply: int) -> Rng:
    """The bot's randomness at ``ply`` of the game set up with ``seed``."""
    return Rng(seed * 1_000_003 + ply)


def record(game: dict[str, Any]) -> dict[str, Any]:
    """Play ``game`` (an entry of :data:`GAMES`) and return its golden record."""
    players, seed = game["players"], game["seed"]
    chooser = random.Random(seed)
    state = RULESET.setup(players, Options(**game["options"]), seed)
    moves, plies = [], []
    ply = 0
    while RULESET.to_act(state):
        seat = min(RULESET.to_act(state))
        legal = RULESET.legal_moves(state, seat)
        if game["player"] == "bot":
            move = bot().choose(RULESET, RULESET.view(state, seat), legal, seat, bot_rng(seed, ply))
        else:
            move = chooser.choice(legal)
        before = [digest(state), digest(views(state)), digest(legal_forms(state))]
        state, events = RULESET.apply(state, seat, move)
        plies.append(":".join([*before, digest(event_form(events))]))
        moves.append([seat, RULESET.dump_move(move)])
        ply += 1
    result = RULESET.result(state)
    assert result is not None
    final = ":".join([digest(state), digest(views(state)), digest(result.model_dump(mode="json"))])
    return {**game, "moves": moves, "plies": plies, "final": final}


def load() -> list[dict[str, Any]]:
    """The recorded golden games."""
    return json.loads(GOLDEN_FILE.read_text(encoding="utf-8"))["games"]


def main() -> None:
    """Record every game of :data:`GAMES` into :data:`GOLDEN_FILE` (run once, before a refactoring)."""
    games = [record(game) for game in GAMES]
    text = json.dumps({"games": games}, separators=(",", ":"))
    GOLDEN_FILE.write_text(text + "\n", encoding="utf-8")
    print(f"{GOLDEN_FILE}: {len(games)} games, {sum(len(g['plies']) for g in games)} plies, {len(text)} bytes")


if __name__ == "__main__":
    main()

"""Golden games of Heroes: the proof that a refactoring keeps the behaviour.

Recorded once with the code from before the typed state (``python -m tests.rulesets.heroes_golden``
writes ``tests/rulesets/data/heroes_golden.json``): seeded random games for every player count
(1 = solo against the Enemy, 2, 3, 4) and every Nomads variant, each move drawn by first drawing a
kind of move, then one of that kind (so Follows, Musters and firings are played, not mostly
marches), each game stored as its setup arguments,
its wire moves, and per ply short hashes of the canonical JSON of

* ``s``: the state,
* ``v``: the views of the spectator and of every seat (in that order),
* ``l``: the legal moves (wire form) of every acting seat, in seat order,
* ``e``: the events of the move that led here (text and readers),

and at the end the hash of the result.  ``test_heroes_golden.py`` replays every game from its wire
moves and compares every hash, so the stored state, the wire form of views and moves, and the log
texts stay exactly as they were.

The one intended change of the stored layout: an unrevealed tactic choice was a
slash-encoded string (``"hidden-tactic/0/charge/0/6/0/0/0/0/0"``) and is now the ``tactic`` move's
wire form.  :func:`comparable_state` writes an old token in the new form before hashing, so the
hashes recorded with the old code hold for both.

One thing changed on purpose: a tactic card that is void for its side is no longer among
the legal moves.  The ``l`` hashes of the 97 plies in the tactics phase where that mattered were
rewritten once, each only after checking that the recorded hash was that of the old list (the new
list plus the unpaid void cards); states, views, events and results are unchanged.

The ``e`` hashes were rewritten once more when the log lines became templates with typed arguments
(``phrases.py``: ``"{seat0} collects {gained0} + {gained1}"`` rather than the numbers written in),
only after checking that every ``s``, ``v`` and ``l`` hash and every result stayed the same and
that every rendered log line of every golden game was the same, word for word, as before.

A result's reason became a template with typed arguments too (``Result.reason_args``: the solo
scores ``{mine}`` and ``{theirs}``, the round limit's ``{limit}``).  The result hash is taken of
the reason with its arguments written back in (:func:`reason_as_recorded`), so the hashes recorded
before still hold: they prove the English reason is the same word for word.

The result's table then named its running-score category in the game's words (``"VP during
play"``, was ``"score"``) and a solo result gained the Enemy as a rival (``Result.rivals``): the
hash is taken of the result with the old name and without the rivals (:func:`shape_as_recorded`),
so the recorded hashes prove every score, place and breakdown the same.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path
from typing import Any

from app.rulesets.base import Event
from app.rulesets.wire import dump_moves
from app.rulesets.heroes import Heroes
from app.rulesets.heroes.scoring import DURING_PLAY

GOLDEN_FILE = Path(__file__).parent / "data" / "heroes_golden.json"
CHOICE_FIELDS = ("ore", "mana", "food", "serf", "warrior", "hero", "mercenary")
"""The numbers of an old slash-encoded tactic choice, in order (after ``hidden-tactic/<seat>/<card>``)."""
SHORT = {"round_limit": 5, "first_player": "host"}
GAMES = [
    {"n_players": n_players, "options": {"nomads": nomads, **(SHORT if index % 2 else {})},
     "seed": 100 * n_players + 10 * index + len(nomads)}
    for n_players in (1, 2, 3, 4)
    for nomads in ("wandering", "mercenary", "none")
    for index in range(6 if n_players == 1 else 2)
]
"""Setup arguments of the golden games: two per player count and Nomads variant (six in solo, whose
games are short), every other one with the shortest round limit and the host first."""


def digest(value: Any) -> str:
    """A short hash (12 hex digits) of the canonical JSON of ``value``."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def comparable_state(state: dict[str, Any]) -> dict[str, Any]:
    """``state`` with an unrevealed tactic choice in the ``tactic`` move's wire form (see the module
    docstring); every other key as it is."""
    pending = state.get("pending")
    if not isinstance(pending, dict) or not pending.get("choices"):
        return state
    choices = {}
    for seat, choice in pending["choices"].items():
        if isinstance(choice, str):
            _, _, card, *values = choice.split("/")
            choice = {"type": "tactic", "card": card, **dict(zip(CHOICE_FIELDS, map(int, values)))}
        choices[seat] = choice
    return {**state, "pending": {**pending, "choices": choices}}


def ply_hashes(rules: Heroes, state: dict[str, Any], events: list[Event]) -> dict[str, str]:
    """The hashes of one position (module docstring)."""
    seats = range(state["n_players"])
    acting = sorted(rules.to_act(state))
    return {
        "s": digest(comparable_state(state)),
        "v": digest([rules.view(state, viewer) for viewer in (None, *seats)]),
        "l": digest([dump_moves(rules, rules.legal_moves(state, seat)) for seat in acting]),
        "e": digest([[event.text, event.seats] for event in events]),
    }


def result_hash(rules: Heroes, state: dict[str, Any]) -> str:
    """The hash of the game's result (``None`` while it runs), its reason's arguments written into
    its words (:func:`reason_as_recorded`)."""
    result = rules.result(state)
    return digest(shape_as_recorded(reason_as_recorded(result.model_dump())) if result is not None else None)


def shape_as_recorded(dumped: dict[str, Any]) -> dict[str, Any]:
    """A result's dump as it was recorded before the running score was named ``"VP during play"``
    and the solo Enemy was a rival (the module docstring)."""
    recorded = {key: value for key, value in dumped.items() if key != "rivals"}
    recorded["breakdown"] = [{("score" if category == DURING_PLAY else category): points for category, points in parts.items()}
                             for parts in dumped["breakdown"]]
    return recorded


def reason_as_recorded(dumped: dict[str, Any]) -> dict[str, Any]:
    """A result's dump as it was recorded before a reason had arguments: each ``{name}`` of
    ``reason_args`` written into ``reason`` as its words (``{seatN}`` kept) and no ``reason_args``
    key (the module docstring)."""
    args = dumped.get("reason_args") or {}
    if not args:
        return dumped
    reason = re.sub(r"\{(\w+)\}", lambda match: str(args[match.group(1)]["text"]) if match.group(1) in args else match.group(0),
                    dumped["reason"])
    return {**{key: value for key, value in dumped.items() if key != "reason_args"}, "reason": reason}


def record(rules: Heroes, n_players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """Play one seeded random game and record it (module docstring)."""
    chooser = random.Random(seed)
    state = rules.setup(n_players, rules.parse_options({"edition": "core", **options}), seed)  # recorded as core
    game: dict[str, Any] = {"n_players": n_players, "options": options, "seed": seed, "moves": [],
                            "plies": [ply_hashes(rules, state, [])]}
    state = play_kind_first(rules, state, chooser, game)
    game["result"] = result_hash(rules, state)
    return game


def replay_checking_each_ply(rules: Heroes, state: dict[str, Any], game: dict[str, Any]) -> dict[str, Any]:
    """Replay ``game["moves"]`` from ``state`` through ``check_and_apply``, asserting after each ply
    that its state, views, legal moves and events hash as recorded in ``game["plies"]``; returns
    the final state."""
    for ply, (seat, wire) in enumerate(game["moves"], start=1):
        state, events = rules.check_and_apply(state, seat, rules.parse_move(wire))
        expected, found = game["plies"][ply], ply_hashes(rules, state, events)
        changed = [name for name in ("s", "v", "l", "e") if expected[name] != found[name]]
        assert not changed, f"ply {ply} ({wire['type']} by seat {seat}): {changed} differ"
    return state


def play_kind_first(rules: Heroes, state: dict[str, Any], chooser: random.Random, game: dict[str, Any]) -> dict[str, Any]:
    """Play ``state`` to its end, each move drawn by first drawing a kind of move, then one of that
    kind (every kind is played, not mostly marches), appending each wire move to ``game["moves"]``
    and its hashes to ``game["plies"]``; returns the final state."""
    while rules.to_act(state):
        seat = chooser.choice(sorted(rules.to_act(state)))
        legal = rules.legal_moves(state, seat)
        kind = chooser.choice(sorted({move.type for move in legal}))
        move = chooser.choice([move for move in legal if move.type == kind])
        state, events = rules.apply(state, seat, move)
        game["moves"].append([seat, rules.dump_move(move)])
        game["plies"].append(ply_hashes(rules, state, events))
    return state


def main() -> None:
    """Write the golden file (run only with the code whose behaviour is the reference)."""
    write_golden(GOLDEN_FILE, [record(Heroes(), **setup) for setup in GAMES])


def write_golden(path: Path, games: list[dict[str, Any]]) -> None:
    """Write ``games`` (as :func:`record` makes them) to the golden file ``path`` and say its size."""
    path.write_text(json.dumps({"games": games}, separators=(",", ":")) + "\n")
    plies = sum(len(game["moves"]) for game in games)
    print(f"{len(games)} games, {plies} moves, {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()

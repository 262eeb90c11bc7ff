"""The rules engine's own share of a load run's server CPU, measured in-process by replaying the run's games.

After a run of ``bench/load.py`` on Postgres, :func:`measure` reads every game the run played from
its database (``tables``: seat count, options, seed; ``moves``: the committed moves in order) and
replays them here with the same ruleset objects the server uses, timing (CPU, ``time.process_time_ns``)
the ruleset calls the server makes for one move and its frames:

* ``apply``: ``parse_move`` of the stored wire form, ``to_act`` (the mover is to act), ``apply``,
  ``result`` (does the move end the game) and ``is_reversible`` (may the mover take it back), as
  ``app/services/games/pipeline.py`` does on the one-statement path;
* ``legal_moves``: the moves of every seat to act after the move (the frame of a seat to act
  carries them; ``app/services/games/views.py: state_payload``);
* ``views``: per frame (each seat, and the spectators' ``view(state, None)`` when the game had
  spectators): ``to_act``, ``result`` and ``view``.  The server builds each seat's frame once per
  version and the spectators' frame once however many spectators watch (``app/realtime/hub.py:
  Hub._payload``), so that is what is replayed here.

What is left out on purpose: turning the legal moves into wire form and grouping them
(``legal_forms``), building and encoding frames, the database, the sockets: that is the
platform's work, the figure the load shape compares across games.  One piece of it is timed
apart, because it grows with the game's moves rather than with the platform: ``legal_wire_us``,
the grouped wire form of those legal moves (``legal_forms.legal_in_form(..., "grouped")``, as the
frames of the load's sockets carry them); it is *not* in ``total_us``.

Returns per-move microseconds of CPU: ``{"moves": n, "apply_us", "legal_us", "views_us",
"total_us"}`` (means over every replayed move).  Replay errors raise: a run whose stored moves do
not replay is a broken run, not a figure.
"""

from __future__ import annotations

import time
from typing import Any

MOVE_KIND = "move"  # app.db.models.MOVE_KIND: rows of other kinds (undo) are not moves to replay


async def load_games(database_url: str, ruleset: str) -> list[tuple[int, dict[str, Any], int, list[tuple[int, Any]]]]:
    """``[(seat_count, options, seed, [(seat, move), ...]), ...]`` of every started ``ruleset`` table."""
    import asyncpg
    import orjson

    connection = await asyncpg.connect(database_url)
    try:
        tables = await connection.fetch(
            "SELECT id, seat_count, options, seed FROM tables WHERE ruleset = $1 AND seed IS NOT NULL ORDER BY id",
            ruleset)
        rows = await connection.fetch(
            "SELECT m.table_id, m.seat, m.move, m.kind FROM moves m JOIN tables t ON t.id = m.table_id "
            "WHERE t.ruleset = $1 ORDER BY m.table_id, m.seq", ruleset)
    finally:
        await connection.close()
    moves: dict[int, list[tuple[int, Any]]] = {}
    for row in rows:
        if row["kind"] != MOVE_KIND:
            raise ValueError(f"table {row['table_id']} holds a {row['kind']!r} row: this replay knows only moves")
        moves.setdefault(row["table_id"], []).append((row["seat"], orjson.loads(row["move"])))

    def decoded(value: Any) -> dict[str, Any]:
        return orjson.loads(value) if isinstance(value, (str, bytes)) else (value or {})

    return [(table["seat_count"], decoded(table["options"]), table["seed"], moves.get(table["id"], []))
            for table in tables]


def replay(ruleset: Any, games: list[tuple[int, dict[str, Any], int, list[tuple[int, Any]]]],
           spectators: bool = True) -> dict[str, Any]:
    """Replay ``games`` with ``ruleset`` and time its calls per move (see the module docstring)."""
    from app.services.games.legal_forms import legal_in_form

    clock = time.process_time_ns
    apply_ns = legal_ns = views_ns = wire_ns = 0
    count = 0
    for seat_count, options, seed, moves in games:
        state = ruleset.setup(seat_count, ruleset.parse_options(options), seed)
        viewers: list[int | None] = list(range(seat_count)) + ([None] if spectators else [])
        for seat, raw in moves:
            began = clock()
            move = ruleset.parse_move(raw)
            if seat not in ruleset.to_act(state):
                raise ValueError(f"stored move of seat {seat} who is not to act")
            after, _events = ruleset.apply(state, seat, move)
            ended = ruleset.result(after) is not None
            if not ended:
                ruleset.is_reversible(state, seat, move, after)
            middle = clock()
            acting = ruleset.to_act(after) if not ended else set()
            listed_moves = [ruleset.legal_moves(after, actor) for actor in sorted(acting)]
            listed = clock()
            for moves_of_actor in listed_moves:
                legal_in_form(ruleset, moves_of_actor, "grouped")
            wired = clock()
            for viewer in viewers:
                ruleset.to_act(after)
                ruleset.result(after)
                ruleset.view(after, viewer)
            done = clock()
            apply_ns += middle - began
            legal_ns += listed - middle
            wire_ns += wired - listed
            views_ns += done - wired
            count += 1
            state = after
    if not count:
        return {"moves": 0}
    return {"moves": count, "apply_us": round(apply_ns / count / 1000, 1), "legal_us": round(legal_ns / count / 1000, 1),
            "views_us": round(views_ns / count / 1000, 1), "legal_wire_us": round(wire_ns / count / 1000, 1),
            "total_us": round((apply_ns + legal_ns + views_ns) / count / 1000, 1)}


async def measure(database_url: str, ruleset_name: str, extra_rulesets: list[str], spectators: bool) -> dict[str, Any]:
    """The rules engine's CPU per move in the games of ``ruleset_name`` stored at ``database_url``."""
    from app.rulesets.registry import Registry

    ruleset = Registry.discover(extra_rulesets).get(ruleset_name)
    games = await load_games(database_url, ruleset_name)
    return replay(ruleset, games, spectators)

"""Golden games of the full edition, recorded before the house data had revisions: the proof that
a full-edition table stored then (its options without ``house_revision``) replays exactly as it
was played, with revision 1 of the house data.

Recorded once with the code of ``main`` before revisions existed (``python -m
tests.rulesets.heroes_full_golden`` run from a checkout of that commit writes
``tests/rulesets/data/heroes_full_golden.json``): seeded random full-edition games for every player
count (1 = solo against the Enemy, 2, 3, 4), each move drawn by first drawing a kind of move, then
one of that kind (so Research, Scribe, Cast and Interrupts are played, not mostly marches), each
game stored with the table options as the platform stored them then (their full dump: four keys),
its wire moves, and per ply the hashes of ``heroes_golden.ply_hashes`` (state, views, legal moves,
events), and at the end the hash of the result.  ``test_heroes_revisions.py`` replays them.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from app.rulesets.heroes import Heroes
from tests.rulesets.heroes_golden import play_kind_first, ply_hashes, result_hash, write_golden

FULL_GOLDEN_FILE = Path(__file__).parent / "data" / "heroes_full_golden.json"
GAMES = [
    {"n_players": 1, "options": {"nomads": "wandering"}, "seed": 11},
    {"n_players": 2, "options": {"nomads": "wandering"}, "seed": 21},
    {"n_players": 2, "options": {"nomads": "mercenary", "round_limit": 6}, "seed": 22},
    {"n_players": 3, "options": {"nomads": "wandering", "round_limit": 6}, "seed": 31},
    {"n_players": 4, "options": {"nomads": "none", "round_limit": 5, "first_player": "host", "edition": "full"}, "seed": 41},
]
"""Setup arguments of the golden games (short round limits keep the file small)."""
CHANGED_IN_REVISION_2 = ("fireball", "summon_serfs", "harvest", "deep_mines")
"""The spells whose VP revision 2 changes: the golden games must cast some of them."""


def record(rules: Heroes, n_players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """Play one seeded kind-first random game of the full edition and record it (module docstring)."""
    chooser = random.Random(seed)
    parsed = rules.parse_options(options)
    state = rules.setup(n_players, parsed, seed)
    game: dict[str, Any] = {"n_players": n_players, "stored_options": parsed.model_dump(mode="json"), "seed": seed,
                            "moves": [], "plies": [ply_hashes(rules, state, [])]}
    state = play_kind_first(rules, state, chooser, game)
    game["result"] = result_hash(rules, state)
    game["final_scores"] = [player["score"] for player in state["players"]]
    return game


def main() -> None:
    """Write the golden file (run only with the code whose behaviour is the reference)."""
    write_golden(FULL_GOLDEN_FILE, [record(Heroes(), **setup) for setup in GAMES])


if __name__ == "__main__":
    main()

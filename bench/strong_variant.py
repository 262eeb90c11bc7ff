#!/usr/bin/env python
"""Bot strength with the strong bot's search settings changed: ``bench/bot_strength.py`` with
``--strong JSON`` (keyword arguments of :class:`app.bots.players.IsmctsBot`) taken off the command
line first, for measuring a setting before it becomes the level's default::

    python bench/strong_variant.py --strong '{"playout": 6}' --ruleset nimalia --level strong \\
        --opponent medium --games 100 --seed 0 --simulations 20 --json

Every other argument is ``bot_strength.py``'s; the other levels play as ``make_bot`` makes them.
Worker processes (``--jobs``) inherit the change (fork)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bot_strength  # noqa: E402
from app.bots.players import IsmctsBot, make_bot  # noqa: E402


def main(argv: list[str]) -> int:
    settings: dict = {}
    if "--strong" in argv:
        at = argv.index("--strong")
        settings = json.loads(argv[at + 1])
        argv = argv[:at] + argv[at + 2:]

    def patched(level, seconds=1.0, simulations=None):
        if level == "strong":
            return IsmctsBot(seconds=seconds, simulations=simulations, **settings)
        return make_bot(level, seconds=seconds, simulations=simulations)

    bot_strength.make_bot = patched
    return bot_strength.main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

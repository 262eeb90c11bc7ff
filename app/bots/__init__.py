"""Generic players that use only the ruleset contract (docs/architecture.md, ``bots/``).

A bot sees what its seat sees: ``view(state, seat)`` and its legal moves, never the state.
"""

from app.bots.players import (BOT_LEVELS, DEFAULT_LEVEL, DEFAULT_MOVE_SECONDS, LEVEL_ALIASES, LEVELS, BotPlayer,
                              canonical_level, known_level, make_bot)

__all__ = ["BOT_LEVELS", "DEFAULT_LEVEL", "DEFAULT_MOVE_SECONDS", "LEVEL_ALIASES", "LEVELS", "BotPlayer",
           "canonical_level", "known_level", "make_bot"]

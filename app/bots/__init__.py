"""Generic players that use only the ruleset contract (docs/architecture.md, ``bots/``).

A bot sees what its seat sees: ``view(state, seat)`` and its legal moves, never the state.
"""

from app.bots.players import BOT_LEVELS, DEFAULT_LEVEL, BotPlayer, make_bot

__all__ = ["BOT_LEVELS", "DEFAULT_LEVEL", "BotPlayer", "make_bot"]

"""Nomadi (Reinhold Wittig, Blatz 1995): the ruleset, its board and scoring.

Modules: ``state`` (the layout of a game state), ``components`` (what comes in the box),
``board`` (square-grid geometry and the board, no rules), ``movement`` (the move generator,
R-19 .. R-26), ``rules`` (the ruleset and its phases), ``effects`` (what a move sets off,
R-27 .. R-32), ``bank`` (coins and their log lines), ``moves``, ``options``, ``scoring``
(R-35/R-36), ``view``; for the bots' search (``app/bots``), ``information`` (a whole state behind
one seat's view) and ``evaluation`` (how good a position is).  Board data and the spec's test
positions are in ``data/``.  Rules reference: ``reference.md`` beside this file (served at
``/rules/nomadi``).
"""

from app.rulesets.nomadi.rules import Nomadi

__all__ = ["Nomadi"]

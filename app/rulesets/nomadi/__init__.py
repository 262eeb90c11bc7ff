"""Nomadi (Reinhold Wittig, Blatz 1995): the ruleset, its board and scoring.

Modules: ``board`` (square-grid geometry and the board, no rules), ``movement`` (the move
generator, R-19 .. R-26), ``rules`` (the ruleset and its phases), ``effects`` (what a move sets
off, R-27 .. R-32), ``bank`` (coins and their log lines), ``moves``, ``options``, ``scoring``
(R-35/R-36), ``view``; board data and the spec's test positions in ``data/``.
Rules reference: ``reference.md`` beside this file (served at ``/rules/nomadi``).
"""

from app.rulesets.nomadi.rules import Nomadi

__all__ = ["Nomadi"]

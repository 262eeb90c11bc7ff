"""Through the Desert (Reiner Knizia): the ruleset, its board and scoring.

Modules: ``board`` (hex geometry, no rules), ``rules`` (the ruleset), ``moves``, ``options``,
``enclosure`` (the E-rules detector), ``scoring`` (F-rules), ``view``; board data in ``data/``.
Rules reference: ``reference.md`` beside this file (served at ``/rules/through-the-desert``).
"""

from app.rulesets.through_the_desert.rules import ThroughTheDesert

__all__ = ["ThroughTheDesert"]

"""Through the Desert (Reiner Knizia): the ruleset, its board and scoring.

Modules: ``board`` (hex geometry, no rules), ``rules`` (the ruleset), ``moves``, ``options``,
``enclosure`` (the E-rules detector), ``scoring`` (F-rules), ``view``; board data in ``data/``.
Rules reference: ``shared/specs/through_the_desert.md``.
"""

from app.rulesets.through_the_desert.rules import ThroughTheDesert

__all__ = ["ThroughTheDesert"]

"""Through the Desert (Reiner Knizia): the ruleset, its board and scoring.

Modules: ``board`` (hex geometry, no rules), ``state`` (the state's layout), ``rules`` (the
ruleset), ``moves``, ``options``, ``enclosure`` (the E-rules detector), ``scoring`` (F-rules),
``view``, and the bots' hooks ``information`` (determinize) and ``evaluation``; board data in
``data/``.
Rules reference: ``reference.md`` beside this file (served at ``/rules/through-the-desert``).
"""

from app.rulesets.through_the_desert.rules import ThroughTheDesert

__all__ = ["ThroughTheDesert"]

"""Nimalia (William Liévin, La Boîte de Jeu 2023): the ruleset, its cards, reserves and objectives.

Modules: ``cards`` (the 60 cards and turning them, no rules), ``reserve`` (grid geometry: areas,
groups, rivers; no rules), ``state`` (the typed state layout), ``rules`` (the ruleset),
``placement`` (where a card may go, P1 - P4), ``moves``, ``options``, ``objectives`` (O1 - O22),
``scoring`` (rounds, zero floor, end), ``view`` (what each seat sees), and the bot hooks
``information`` (determinize) and ``evaluation`` (evaluate); card and objective data in ``data/``.
Rules reference: ``reference.md`` beside this file (served at ``/rules/nimalia``).
"""

from app.rulesets.nimalia.rules import Nimalia

__all__ = ["Nimalia"]

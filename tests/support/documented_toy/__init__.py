"""A third-party-style ruleset that ships its own rules reference (``reference.md`` beside this file)."""

from __future__ import annotations

from tests.support.toy_rulesets import ToyRace


class DocumentedToyRace(ToyRace):
    """``toy-race`` under another name, with a rules reference in its package."""

    name = "toy-documented"
    title = "Documented toy race"

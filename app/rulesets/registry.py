"""Ruleset discovery: the entry-point group ``caravanserai.rulesets`` plus extra import paths.

The platform never imports a game by name (docs/architecture.md); it asks this registry.
"""

from __future__ import annotations

import importlib
import logging
from importlib.metadata import entry_points

from app.rulesets.base import Ruleset

ENTRY_POINT_GROUP = "caravanserai.rulesets"
log = logging.getLogger(__name__)


class UnknownRuleset(KeyError):
    """No ruleset of that name is installed."""


class Registry:
    """Name -> ruleset instance, built once at start-up.

    ``extra`` holds ``"package.module:ClassName"`` paths (the ``CARAVANSERAI_EXTRA_RULESETS``
    setting) for benchmark and plugin rulesets that are not installed as entry points.
    """

    def __init__(self, rulesets: list[Ruleset]) -> None:
        self._by_name = {ruleset.name: ruleset for ruleset in rulesets}

    @classmethod
    def discover(cls, extra: list[str] | None = None) -> "Registry":
        """Load every entry point of the group, then every extra import path."""
        classes = []
        for point in entry_points(group=ENTRY_POINT_GROUP):
            try:
                classes.append(point.load())
            except Exception:  # one broken plugin must not take the server down
                log.exception("could not load ruleset entry point %s", point.value)
        classes += [load_class(path) for path in extra or []]
        return cls([ruleset_class() for ruleset_class in classes])

    def get(self, name: str) -> Ruleset:
        """The ruleset called ``name``; raises :class:`UnknownRuleset`."""
        try:
            return self._by_name[name]
        except KeyError:
            raise UnknownRuleset(name) from None

    def all(self) -> list[Ruleset]:
        """Every ruleset, sorted by name."""
        return [self._by_name[name] for name in sorted(self._by_name)]


def load_class(path: str) -> type[Ruleset]:
    """Import ``"module.path:ClassName"``; raises ``ValueError`` for a malformed path."""
    module_name, _, attribute = path.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"ruleset path must look like 'package.module:ClassName', got {path!r}")
    return getattr(importlib.import_module(module_name), attribute)

"""Caravanserai: board games with friends in the browser.

``__version__`` is the release: ``pyproject.toml`` reads it when the package is built, ``caravanserai
--version`` and ``GET /healthz`` show it, and it changes with every release together with a new
heading in ``CHANGELOG.md`` (tests/test_release.py keeps the two equal)."""

__version__ = "0.4.2"

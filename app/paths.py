"""Where the files the server reads beside its code live: the browser client (``static/``), the
Alembic migrations (``migrations/``) and ``alembic.ini``.

The repository keeps them at its top level; a built wheel carries copies inside the package, in
``app/_bundled/`` (``setup.py`` puts them there). This module is the one place that tells
the two apart, so the server runs the same from a checkout, an editable install or an installed
wheel, from any working directory. Files a ruleset ships (boards, cards, rules texts) are its own
package data and are read with ``importlib.resources`` instead.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
BUNDLED_DIR_NAME = "_bundled"


def data_root(package_dir: Path = PACKAGE_DIR) -> Path:
    """The folder holding ``static/``, ``migrations/`` and ``alembic.ini``: ``app/_bundled`` inside
    an installed wheel, else the checkout the ``app`` package sits in."""
    bundled = package_dir / BUNDLED_DIR_NAME
    return bundled if bundled.is_dir() else package_dir.parent


DATA_ROOT = data_root()
STATIC_DIR = DATA_ROOT / "static"
MIGRATIONS_DIR = DATA_ROOT / "migrations"
ALEMBIC_INI = DATA_ROOT / "alembic.ini"

"""Running the Alembic migrations from code (``caravanserai migrate``, ``serve``, tests).

Alembic (with Mako and Pygments) is imported by these functions, not by this module: the server
process never needs it (``serve`` migrates in a child process, ``app/prepare.py``), and importing
it costs about 11 MiB that a process keeps for good.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from app.paths import ALEMBIC_INI, MIGRATIONS_DIR

if TYPE_CHECKING:
    from alembic.config import Config


def alembic_config(database_url: str) -> Config:
    """An Alembic config for ``migrations/`` that targets ``database_url`` (an async URL)."""
    from alembic.config import Config

    config = Config(str(ALEMBIC_INI))
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["database_url"] = database_url
    return config


def upgrade_to_head(database_url: str) -> None:
    """Bring the schema of ``database_url`` to the newest revision (idempotent).

    Alembic's environment runs its own event loop, so when this thread already runs one the
    upgrade happens in a short-lived worker thread.
    """
    from alembic import command

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        command.upgrade(alembic_config(database_url), "head")
        return
    with ThreadPoolExecutor(1) as worker:
        worker.submit(command.upgrade, alembic_config(database_url), "head").result()


def known_revisions() -> list[str]:
    """Every migration of this release, oldest first (the last one is the head).

    Raises ``alembic.util.CommandError`` if the migrations have several heads (a bad merge)."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config(""))
    head = script.get_current_head()
    if head is None:  # no migration at all
        return []
    return [revision.revision for revision in script.walk_revisions("base", head)][::-1]


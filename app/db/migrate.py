"""Running the Alembic migrations from code (``caravanserai migrate``, ``serve``, tests)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory

from app.paths import ALEMBIC_INI, MIGRATIONS_DIR


def alembic_config(database_url: str) -> Config:
    """An Alembic config for ``migrations/`` that targets ``database_url`` (an async URL)."""
    config = Config(str(ALEMBIC_INI))
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["database_url"] = database_url
    return config


def upgrade_to_head(database_url: str) -> None:
    """Bring the schema of ``database_url`` to the newest revision (idempotent).

    Alembic's environment runs its own event loop, so when this thread already runs one the
    upgrade happens in a short-lived worker thread.
    """
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
    script = ScriptDirectory.from_config(alembic_config(""))
    head = script.get_current_head()
    return [revision.revision for revision in script.walk_revisions("base", head)][::-1]

"""Running the Alembic migrations from code (``caravanserai migrate``, ``serve``, tests).

Alembic (with Mako and Pygments) is imported by these functions, not by this module: the server
process never needs it (``serve`` migrates in a child process, ``app/prepare.py``), and importing
it costs about 11 MiB that a process keeps for good.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from sqlalchemy import text
from sqlalchemy.exc import OperationalError, ProgrammingError
from sqlalchemy.ext.asyncio import AsyncEngine

from app import __version__
from app.paths import ALEMBIC_INI, MIGRATIONS_DIR

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.runtime.migration import MigrationInfo
    from alembic.script import ScriptDirectory

# "app.db.migrate": under the ``app`` logger, so the lines reach the server's log (app.cli.log_config).
log = logging.getLogger(__name__)


class DatabaseNewerThanRelease(RuntimeError):
    """The database is at a migration this release does not have: a newer release wrote it."""


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



@contextmanager
def logged_upgrade(script: ScriptDirectory, current: str | None, target: str = "head") -> Iterator[None]:
    """Log the upgrade of a database at migration ``current`` (None: no migration yet) to ``target``
    (a revision of ``script``, or ``head``): one line before it and one after, or one saying nothing
    is to do.  Used by ``migrations/env.py`` around the migrations; :func:`log_migration_step` logs
    each one.

    Raises :class:`DatabaseNewerThanRelease`, before anything runs, when ``current`` is a migration
    ``script`` does not know."""
    head = script.get_current_head()
    if current is not None and current not in {revision.revision for revision in script.walk_revisions()}:
        raise DatabaseNewerThanRelease(
            f"the database is at migration {current}, which caravanserai {__version__} does not know (its newest "
            f"is {head}): a newer release has used this database. Run that release (or a newer one), or restore "
            "a backup taken by this release or an older one (docs/hosting.md, Backups)")
    goal = head if target in ("head", "heads") else target
    if current == goal:
        log.info("database at migration %s%s: no migration to run", current,
                 f", the newest of caravanserai {__version__}" if goal == head else "")
        yield
        return
    log.info("migrating the database from %s to %s (caravanserai %s)",
             current or "nothing (a new database)", goal, __version__)
    yield
    log.info("database migrated to %s", goal)


def log_migration_step(ctx: Any, step: MigrationInfo, heads: Any, run_args: Any) -> None:
    """Alembic's ``on_version_apply`` hook (``migrations/env.py``): one log line per migration run,
    with its revisions and the first line of its docstring."""
    from alembic.script import Script  # the Revision alembic hands over is the migration's Script

    revision = step.up_revision if step.is_upgrade else None
    about = " ".join((revision.doc or "").split()) if isinstance(revision, Script) else ""  # its first paragraph
    log.info("migration %s %s (from %s)%s", ", ".join(step.destination_revision_ids) or "base",
             "applied" if step.is_upgrade else "undone", ", ".join(step.source_revision_ids) or "nothing",
             f": {about}" if about else "")


async def database_revision(engine: AsyncEngine) -> str | None:
    """The migration the database of ``engine`` is at (its ``alembic_version``), or None when it
    has none yet (never migrated).  Raises SQLAlchemy's errors when the database does not answer."""
    async with engine.connect() as connection:
        try:
            return await connection.scalar(text("SELECT version_num FROM alembic_version"))
        except (OperationalError, ProgrammingError):  # no such table (SQLite / PostgreSQL): not migrated
            pass
    async with engine.connect() as connection:  # the database answers all the same, or this raises
        await connection.execute(text("SELECT 1"))
    return None

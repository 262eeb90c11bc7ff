"""Alembic environment: runs migrations on the async engine of the configured database."""

import asyncio

from alembic import context
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from app.config import Settings
from app.db.migrate import log_migration_step, logged_upgrade
from app.db.models import Base

target_metadata = Base.metadata


def database_url() -> str:
    """The URL given by the caller (``caravanserai migrate``, tests), else the settings."""
    return context.config.attributes.get("database_url") or Settings().async_database_url


def run_migrations_offline() -> None:
    context.configure(url=database_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def _run(connection) -> None:
    # Each migration run is logged, between a line saying from where to where and one at the end.
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True,
                      on_version_apply=log_migration_step)
    with logged_upgrade(context.script, context.get_context().get_current_revision(),
                        context.get_revision_argument() or "head"):
        with context.begin_transaction():
            context.run_migrations()


async def run_migrations_online() -> None:
    engine = create_async_engine(database_url(), poolclass=NullPool)
    async with engine.connect() as connection:
        await connection.run_sync(_run)
    await engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    asyncio.run(run_migrations_online())

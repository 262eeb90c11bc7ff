"""Housekeeping: open tables nobody started are closed after a while, so the lobby stays fresh."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import update

from app.db.models import Table, utcnow
from app.db.results import rowcount
from app.services.context import Context


async def expire_open_tables(ctx: Context, older_than: timedelta) -> int:
    """Close every open table created more than ``older_than`` ago; returns how many."""
    async with ctx.sessions() as session:
        result = await session.execute(
            update(Table).where(Table.status == "open", Table.created_at < utcnow() - older_than)
            .values(status="closed")
        )
        await session.commit()
    return rowcount(result)

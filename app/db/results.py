"""What a guarded write reports back: how many rows it matched."""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import CursorResult, Result


def rowcount(result: Result[Any]) -> int:
    """How many rows an UPDATE or DELETE without RETURNING matched (the driver's ``rowcount``).

    ``AsyncSession.execute`` is typed as returning a ``Result`` for every statement; for such a
    write SQLAlchemy hands back a ``CursorResult``, the one result class that carries ``rowcount``.
    Raises ``TypeError`` for any other result (a SELECT, or a write with RETURNING read as rows), so
    a guarded write that stopped being one fails loudly instead of counting wrong.
    """
    if not isinstance(result, CursorResult):
        raise TypeError(f"rowcount needs the result of an UPDATE or DELETE, not {type(result).__name__}")
    return result.rowcount

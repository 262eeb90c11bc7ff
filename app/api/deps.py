"""Dependencies of the REST handlers as ``Annotated`` aliases (docs/style.md, FastAPI template)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Path, Request
from pydantic import Field
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account
from app.services.accounts import identity as accounts
from app.services.context import Context
from app.services.errors import AppError


def context(request: Request) -> Context:
    """The app's shared context (built in the lifespan)."""
    return request.app.state.ctx


Ctx = Annotated[Context, Depends(context)]


async def session(ctx: Ctx) -> AsyncIterator[AsyncSession]:
    """A database session for one request."""
    async with ctx.sessions() as db_session:
        yield db_session


Session = Annotated[AsyncSession, Depends(session)]


async def optional_account(request: Request, ctx: Ctx) -> Account | None:
    """The logged-in account, or ``None`` (a spectator).

    A cookie whose login session has ended (a logout on another device, a password reset, a ban) is
    cleared in the answer, so the browser's next socket comes as a spectator instead of being closed
    with 4401 as an ended session (``app/realtime/endpoint.py``).  Looked up in a session of its own
    that is closed at once, so a request never holds one pooled connection here while the services
    take another.
    """
    login = accounts.login_of(request.session)
    if login is None:
        return None
    async with ctx.sessions() as db:
        account = await accounts.get_account(db, login)
    if account is None:
        request.session.clear()
    return account


OptionalAccount = Annotated[Account | None, Depends(optional_account)]


async def current_account(account: OptionalAccount) -> Account:
    """The logged-in account; raises ``AppError(unauthorized)``."""
    if account is None:
        raise AppError("unauthorized", "log in first (as a guest or with an account)")
    return account


CurrentAccount = Annotated[Account, Depends(current_account)]

MAX_ID = 2**31 - 1
TableId = Annotated[int, Path(ge=1, le=MAX_ID, description="a table's id (its game has the same id)")]
MoveId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[\x21-\x7e]+$",
                              description="the client's id of a move: printable ASCII, e.g. a UUID")]

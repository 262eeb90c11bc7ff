"""``/api/admin``: the admin's tools; 403 ``forbidden`` for everyone else.

Each action is recorded in the admin audit (``app/services/accounts/audit.py``: a row and a JSON log line,
with the client's address as its ``source``); ``GET /api/admin/audit`` lists them.  Reading is no
action: the accounts, any table's chat (``GET /api/admin/tables/{id}/chat``), the audit.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request

from app.api.deps import MAX_ID, Ctx, CurrentAccount, Session, TableId
from app.api.guards import client_address
from app.api.schemas import AdminChatLineOut, AuditOut, ClosedOut, EmptyOut, ResetLinkOut, UserOut, errors
from app.db.models import Account
from app.services.accounts import admin
from app.services.accounts import audit
from app.services.accounts.audit import Actor
from app.services.errors import AppError

router = APIRouter(prefix="/api/admin", tags=["admin"])


async def admin_account(account: CurrentAccount) -> Account:
    """The logged-in account if it is an admin; raises ``AppError``: ``unauthorized``, ``forbidden``."""
    if not account.admin:
        raise AppError("forbidden", "only an admin may do that")
    return account


AdminAccount = Annotated[Account, Depends(admin_account)]
AccountId = Annotated[int, Path(ge=1, le=MAX_ID, description="an account's id")]
MessageId = Annotated[int, Path(ge=1, le=MAX_ID, description="a chat message's id")]


def _actor(account: Account, request: Request) -> Actor:
    return Actor(via="api", name=account.name, account_id=account.id, source=client_address(request))


@router.get("/users", response_model=list[UserOut], responses=errors(400, 401, 403))
async def users(_admin: AdminAccount, db: Session, search: Annotated[str | None, Query(max_length=32)] = None,
                limit: Annotated[int, Query(ge=1, le=admin.USERS_PAGE)] = admin.USERS_PAGE,
                offset: Annotated[int, Query(ge=0, le=MAX_ID)] = 0) -> list[dict]:
    """``[{id, name, guest, admin, banned_at, deleted, created_at}]`` in the order they were made;
    ``search``: only names holding it (any case)."""
    return await admin.list_users(db, search, limit, offset)


@router.post("/users/{account_id}/ban", response_model=UserOut, responses=errors(400, 401, 403, 404, 409))
async def ban(account_id: AccountId, account: AdminAccount, request: Request, ctx: Ctx, db: Session) -> dict:
    """Ban the account: logged out everywhere, its sockets closed, its login refused.  Errors:
    ``not_found``, ``conflict`` (banned already, deleted, an admin)."""
    return await admin.ban(db, ctx.fanout, _actor(account, request), account_id)


@router.post("/users/{account_id}/unban", response_model=UserOut, responses=errors(400, 401, 403, 404, 409))
async def unban(account_id: AccountId, account: AdminAccount, request: Request, db: Session) -> dict:
    """Lift the ban.  Errors: ``not_found``, ``conflict`` (not banned)."""
    return await admin.unban(db, _actor(account, request), account_id)


@router.post("/users/{account_id}/password-reset", response_model=ResetLinkOut,
             responses=errors(400, 401, 403, 404, 409))
async def password_reset(account_id: AccountId, account: AdminAccount, request: Request,
                         ctx: Ctx, db: Session) -> dict:
    """``{link, expires_at}``: a one-time link to hand to the account's owner.  Errors:
    ``not_found``, ``conflict`` (a guest, a banned account)."""
    settings = ctx.settings
    return await admin.reset_password(db, _actor(account, request), account_id, settings.site_url,
                                      settings.password_reset_hours)


@router.delete("/chat/{message_id}", response_model=EmptyOut, responses=errors(400, 401, 403, 404))
async def delete_chat_message(message_id: MessageId, account: AdminAccount, request: Request,
                              ctx: Ctx, db: Session) -> dict:
    """Delete one chat message.  Errors: ``not_found``."""
    await admin.delete_chat_message(db, ctx.fanout, _actor(account, request), message_id)
    return {}


@router.post("/tables/{table_id}/close", response_model=ClosedOut, responses=errors(400, 401, 403, 404, 409))
async def close_table(table_id: TableId, account: AdminAccount, request: Request,
                      ctx: Ctx, db: Session) -> dict:
    """``{id, status: "closed"}``: the table leaves the lobby, its game stops.  Errors:
    ``not_found``, ``conflict`` (finished or closed)."""
    async with ctx.hold_table(table_id) as held:
        return await admin.close_table(db, ctx.fanout, _actor(account, request), held)


@router.delete("/tables/{table_id}", response_model=EmptyOut, responses=errors(400, 401, 403, 404))
async def delete_table(table_id: TableId, account: AdminAccount, request: Request,
                       ctx: Ctx, db: Session) -> dict:
    """Delete the table with its game, moves and chat.  Errors: ``not_found``."""
    async with ctx.hold_table(table_id) as held:
        await admin.delete_table(db, ctx.fanout, _actor(account, request), held)
    return {}


@router.get("/audit", response_model=list[AuditOut], responses=errors(400, 401, 403))
async def audit_log(_admin: AdminAccount, db: Session,
                    limit: Annotated[int, Query(ge=1, le=audit.AUDIT_PAGE)] = audit.AUDIT_PAGE,
                    before: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
                    action: Annotated[str | None, Query(max_length=32)] = None) -> list[dict]:
    """``[{event, id, at, by: {via, account_id, name}, action, target, source}]``: the admin actions
    of the API and the command line, newest first; ``before``: only ids below it (the next page);
    ``action``: only that action."""
    return await audit.list_audit(db, limit, before, action)


@router.get("/tables/{table_id}/chat", response_model=list[AdminChatLineOut], responses=errors(400, 401, 403, 404))
async def table_chat(table_id: TableId, _admin: AdminAccount, db: Session,
                     limit: Annotated[int, Query(ge=1, le=admin.CHAT_PAGE)] = admin.CHAT_PAGE,
                     before: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None) -> list[dict]:
    """``[{id, table_id, account_id, seat, name, text, at}]``: any table's chat, oldest first (the
    newest ``limit``, below the message id ``before`` when given), to find the line to delete.
    Errors: ``not_found``."""
    return await admin.table_chat(db, table_id, limit, before)

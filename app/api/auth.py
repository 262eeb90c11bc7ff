"""``/api/auth``: guest accounts, registration, login, logout, me."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from app.api.deps import Ctx, CurrentAccount, OptionalAccount, Session
from app.api.guards import AuthLimit
from app.api.schemas import AccountOut, EmptyOut, errors
from app.db.models import Account
from app.services import accounts

router = APIRouter(prefix="/api/auth", tags=["auth"])


class GuestIn(BaseModel):
    name: str = Field(min_length=1, max_length=32)


class CredentialsIn(BaseModel):
    name: str = Field(min_length=1, max_length=32)
    password: str = Field(min_length=1, max_length=128)


def account_out(account: Account) -> dict:
    """``{id, name, guest}``."""
    return {"id": account.id, "name": account.name, "guest": account.guest}


def _log_in(request: Request, account: Account) -> dict:
    request.session.clear()
    request.session["account_id"] = account.id
    request.session["epoch"] = account.session_epoch or 0
    return account_out(account)


@router.post("/guest", response_model=AccountOut, responses=errors(400, 403, 429))
async def guest(body: GuestIn, request: Request, db: Session, _: AuthLimit) -> dict:
    """Create a guest account and log it in."""
    return _log_in(request, await accounts.create_guest(db, body.name))


@router.post("/register", response_model=AccountOut, responses=errors(400, 403, 409, 429))
async def register(body: CredentialsIn, request: Request, db: Session, _: AuthLimit) -> dict:
    """Create a registered account (argon2 hash) and log it in."""
    return _log_in(request, await accounts.register(db, body.name, body.password))


@router.post("/login", response_model=AccountOut, responses=errors(400, 401, 403, 429))
async def login(body: CredentialsIn, request: Request, db: Session, _: AuthLimit) -> dict:
    """Log in a registered account."""
    return _log_in(request, await accounts.login(db, body.name, body.password))


@router.post("/logout", response_model=EmptyOut, responses=errors(400, 403))
async def logout(request: Request, account: OptionalAccount, db: Session, ctx: Ctx) -> dict:
    """End the session: this cookie and every other of the account stop working, and every process
    closes the account's open sockets (``accounts.log_out``)."""
    if account is not None:
        await accounts.log_out(ctx, db, account.id)
    request.session.clear()
    return {}


@router.get("/me", response_model=AccountOut, responses=errors(401))
async def me(account: CurrentAccount) -> dict:
    """The logged-in account, or 401 ``unauthorized``."""
    return account_out(account)

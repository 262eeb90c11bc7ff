"""``/api/auth``: guest accounts, registration, login, logout, me, session."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from app.api.deps import Ctx, CurrentAccount, OptionalAccount, Session
from app.api.guards import AuthLimit
from app.api.schemas import AccountOut, EmptyOut, SessionOut, errors
from app.db.models import Account
from app.services.accounts import settings as account_settings
from app.services.accounts import identity as accounts
from app.services.accounts import password_reset

router = APIRouter(prefix="/api/auth", tags=["auth"])


class GuestIn(BaseModel):
    name: str = Field(min_length=1, max_length=32)


class CredentialsIn(BaseModel):
    name: str = Field(min_length=1, max_length=32)
    password: str = Field(min_length=1, max_length=128)


class ResetIn(BaseModel):
    token: str = Field(min_length=1, max_length=128)
    password: str = Field(min_length=1, max_length=128)


def account_out(account: Account) -> dict:
    """``{id, name, guest, admin, confirm_moves, language}``."""
    return {"id": account.id, "name": account.name, "guest": account.guest, "admin": account.admin,
            "confirm_moves": account.confirm_moves, "language": account.language}


def _log_in(request: Request, account: Account) -> dict:
    request.session.clear()
    request.session.update(accounts.cookie_of(account))
    return account_out(account)


def log_in(request: Request, account: Account) -> dict:
    """Give this browser a session cookie of ``account`` (as it is now); answers its ``account_out``."""
    return _log_in(request, account)


@router.post("/guest", response_model=AccountOut, responses=errors(400, 403, 409, 429))
async def guest(body: GuestIn, request: Request, db: Session, _: AuthLimit) -> dict:
    """Create a guest account and log it in; ``conflict`` for a registered player's name or one that
    reads as it."""
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


@router.post("/reset-password", response_model=AccountOut, responses=errors(400, 404, 429))
async def reset_password(body: ResetIn, request: Request, db: Session, ctx: Ctx, _: AuthLimit) -> dict:
    """Set a new password with a one-time link's token (``/reset-password#token=...``); every other
    session of the account ends and this browser is logged in.  Errors: ``not_found`` (unknown,
    used or expired token), ``bad_request`` (a password not of 8 to 128 characters), ``rate_limited``."""
    account = await password_reset.use(db, body.token, body.password)
    await account_settings.end_everywhere(db, ctx.fanout, account.id)
    await db.refresh(account)
    return log_in(request, account)


@router.get("/me", response_model=AccountOut, responses=errors(401))
async def me(account: CurrentAccount) -> dict:
    """The logged-in account, or 401 ``unauthorized``."""
    return account_out(account)


@router.get("/session", response_model=SessionOut)
async def session(account: OptionalAccount) -> dict:
    """``{"account": account or null}``: who this browser is, answered 200 either way.

    The browser client asks this on every page: a signed-out visitor is no error, and a 401 from
    ``/me`` is written to the browser's console as a failed request.  ``/me`` keeps its 401 for
    scripts and clients that rely on it.  An ended login session's cookie is cleared, as for any
    request (``optional_account``)."""
    return {"account": None if account is None else account_out(account)}

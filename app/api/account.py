"""``/api/account``: the logged-in person's own account: keep a guest account,
change password or name, delete it; and its settings ("Confirm my moves", the language)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, model_validator

from app.api.auth import account_out, log_in
from app.api.deps import Ctx, CurrentAccount, Session
from app.api.guards import AuthLimit
from app.api.pages import set_language_cookie
from app.api.schemas import AccountOut, EmptyOut, errors
from app.services.accounts import settings as account_settings

router = APIRouter(prefix="/api/account", tags=["account"])


class KeepIn(BaseModel):
    name: str = Field(min_length=1, max_length=32)
    password: str = Field(min_length=1, max_length=128)


class PasswordIn(BaseModel):
    current_password: str = Field(max_length=128)
    new_password: str = Field(min_length=1, max_length=128)


class NameIn(BaseModel):
    name: str = Field(min_length=1, max_length=32)


class DeleteIn(BaseModel):
    password: str | None = Field(default=None, max_length=128)


class SettingsIn(BaseModel):
    """The settings to change, at least one; a setting not sent stays as it is."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"minProperties": 1})

    confirm_moves: StrictBool | None = Field(
        default=None,
        description='"Confirm my moves": true, false, or null (each device decides: on for touch screens)')
    language: Literal["en", "fr"] | None = Field(
        default=None,
        description="The language of the site, e-mails and notices (\"en\", \"fr\"), or null (each browser's own "
                    "choice; e-mails and notices in English)")

    @model_validator(mode="after")
    def _names_one(self) -> SettingsIn:
        if not self.model_fields_set:
            raise ValueError("name at least one setting to change")
        return self


@router.post("/register", response_model=AccountOut, responses=errors(400, 401, 403, 409, 429))
async def keep(body: KeepIn, account: CurrentAccount, db: Session, _: AuthLimit) -> dict:
    """Turn the caller's guest account into a registered one (same id: its games and seats stay).

    Errors: ``unauthorized``, ``conflict`` (already registered; the name or a look-alike is taken),
    ``bad_request``, ``rate_limited``.
    """
    return account_out(await account_settings.keep_guest(db, account, body.name, body.password))


@router.post("/password", response_model=AccountOut, responses=errors(400, 401, 403, 409, 429))
async def change_password(body: PasswordIn, request: Request, account: CurrentAccount, ctx: Ctx, db: Session,
                          _: AuthLimit) -> dict:
    """Change the password (the current one is required); every other session of the account ends,
    this browser stays logged in.  Errors: ``unauthorized``, ``forbidden`` (wrong current password),
    ``conflict`` (a guest), ``bad_request``, ``rate_limited``."""
    changed = await account_settings.change_password(db, ctx.fanout, account, body.current_password,
                                                     body.new_password)
    return log_in(request, changed)


@router.post("/name", response_model=AccountOut, responses=errors(400, 401, 403, 409, 429))
async def rename(body: NameIn, account: CurrentAccount, db: Session, _: AuthLimit) -> dict:
    """Change the account's name.  Errors: ``unauthorized``, ``conflict`` (registered by another
    account, ignoring case and look-alike forms), ``bad_request``, ``rate_limited``."""
    return account_out(await account_settings.rename(db, account, body.name))


@router.post("/settings", response_model=AccountOut, responses=errors(400, 401, 403, 409))
async def change_settings(body: SettingsIn, request: Request, response: Response, account: CurrentAccount,
                          db: Session) -> dict:
    """Change the account's settings (guests' too), so every device of the account uses them:
    ``{"confirm_moves": true | false | null, "language": "en" | "fr" | null}``.  Errors:
    ``unauthorized``, ``bad_request`` (no setting named, an unknown one, a value of the wrong kind; nothing changes),
    ``conflict`` (the account was deleted meanwhile)."""
    changes = body.model_dump(include=body.model_fields_set)
    changed = await account_settings.change_settings(db, account, changes)
    if "language" in changes:  # this browser follows at once (app/api/pages.py)
        set_language_cookie(response, changed.language, request.url.scheme == "https")
    return account_out(changed)


@router.post("/delete", response_model=EmptyOut, responses=errors(400, 401, 403, 429))
async def delete(body: DeleteIn, request: Request, account: CurrentAccount, ctx: Ctx, db: Session,
                 _: AuthLimit) -> dict:
    """Delete the caller's account, confirmed with its password (guests send none); its games stay
    under "deleted player" and every session ends.  Errors: ``unauthorized``, ``forbidden`` (wrong
    password), ``rate_limited``."""
    await account_settings.delete_account(db, ctx.fanout, account, body.password)
    request.session.clear()
    return {}

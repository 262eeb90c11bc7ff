"""The shapes of the REST answers (docs/api.md), as ``response_model``s, so ``/openapi.json`` and
``/docs`` show what the server really sends, and the error answers it really gives.

Handlers still return the services' dicts; FastAPI checks them against these models on the way
out.  Every model lets through fields it does not name (``extra="allow"``): a field added by the
service reaches the client at once, and the model should then name it too.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field

from app.services.tables.chat import ChatLine


class Answer(BaseModel):
    """The base of the answer models: unnamed fields pass through unchanged."""

    model_config = ConfigDict(extra="allow")


# -- errors -----------------------------------------------------------------------------------


class ErrorDetail(BaseModel):
    code: str = Field(description="a wire error code: bad_request, unauthorized, forbidden, not_seated, not_found, "
                                  "not_your_turn, illegal_move, stale_version, table_full, conflict, rate_limited, ...")
    message: str = Field(description="for people")


class ErrorOut(BaseModel):
    """Every refusal: ``{"error": {"code", "message"}}``."""

    error: ErrorDetail


_ERRORS = {
    400: "bad_request: a malformed request (wrong types, values out of range, not JSON)",
    401: "unauthorized: not logged in, or the session has ended",
    403: "forbidden (not allowed; a cross-site request) or not_seated (no seat at this table)",
    404: "not_found: no such table, game, player or subscription (also a private table without its invite code)",
    409: "conflict, or for moves: not_your_turn, illegal_move, stale_version; table_full when joining",
    429: "rate_limited: too many requests; wait a little",
    503: "unavailable: the server (or the mail server) is busy; try again, nothing was changed",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route that may answer these error ``statuses``, each with :class:`ErrorOut`."""
    return {status: {"model": ErrorOut, "description": _ERRORS[status]} for status in statuses}


# -- accounts ---------------------------------------------------------------------------------


class AccountOut(Answer):
    id: int
    name: str
    guest: bool
    admin: bool
    confirm_moves: bool | None = Field(description='"Confirm my moves": hold each move for Confirm (true) or send it '
                                                   "at once (false); null: each device decides (on for touch screens)")
    language: str | None = Field(None, description='The language of the site, e-mails and notices ("en", "fr"); '
                                                   "null: each browser's own choice")


class SessionOut(Answer):
    account: AccountOut | None = Field(description="the logged-in account, or null for a browser that is not logged in")


class EmptyOut(Answer):
    """``{}``."""


# -- rulesets and tables ----------------------------------------------------------------------


class RulesetOut(Answer):
    name: str
    title: str
    min_players: int
    max_players: int
    summary: str = Field(description="one line for the lobby's game card")
    minutes: list[int] | None = Field(description="a game's typical length online, [shortest, longest]")
    live_move_seconds: int = Field(description="the time per move the lobby proposes for a live table of this game")
    options_schema: dict[str, Any] = Field(description="JSON Schema of the table options")


class HeldForOut(Answer):
    account_id: int
    name: str
    invitation_id: int = Field(description="the invitation holding the seat (its invitee declines it with "
                                           "DELETE /api/invitations/{id})")


class SeatOut(Answer):
    seat: int
    account_id: int | None
    name: str | None
    bot: bool
    bot_level: str | None
    takeover: str | None = Field(description='null, "timeout", "left", "away" or "resigned"')
    deadline: str | None
    away_since: str | None
    away_deadline: str | None
    held_for: HeldForOut | None = Field(default=None, description="an open table's seat kept for an invited person "
                                                                  "(a rematch offer): only they may take it")


class TimeControlOut(Answer):
    move_seconds: int | None
    pace: str


class TableOut(Answer):
    id: int
    ruleset: str
    title: str
    min_players: int | None = Field(default=None, description="the fewest players the game takes (null: a game "
                                                                "no longer installed)")
    status: str = Field(description='"open", "running", "finished", "closed" or "abandoned"')
    private: bool
    creator_id: int | None
    options: dict[str, Any]
    options_words: list[str] = Field(default=[], description="the options that differ from the game's defaults, in "
                                                             "the lobby form's words (empty: standard options)")
    seats: list[SeatOut]
    pace: str = Field(description='"live" or "turn_based"')
    time_control: TimeControlOut
    chat_spectators: bool
    rated: bool = Field(description="the game's end changes ratings (false: a friendly game)")
    rematch_of: int | None
    rematch_id: int | None
    invite_code: str | None = Field(description="only for members of a private table")
    version: int
    created_at: str | None
    last_activity_at: str | None
    to_act: list[int]


class MyTableOut(TableOut):
    my_seat: int | None
    my_turn: bool
    my_deadline: str | None


class TableCreated(Answer):
    id: int
    invite_code: str | None


# -- chat -------------------------------------------------------------------------------------


class ChatOut(Answer):
    messages: list[ChatLine]
    can_post: bool
    reason: str | None


# -- games ------------------------------------------------------------------------------------


class MoveAccepted(Answer):
    id: str
    version: int = Field(description="the game's version after the move")


class ReplayOut(Answer):
    version: int
    latest_version: int
    view: dict[str, Any]
    log: list[dict[str, Any]]
    result: dict[str, Any] | None


# -- players ----------------------------------------------------------------------------------


class OutcomeOut(Answer):
    place: int
    score: int
    players: int
    shared: bool


class ProfileGameOut(TableOut):
    seat: int | None
    outcome: OutcomeOut | None


class RatingChangeOut(Answer):
    table_id: int | None = Field(description="null for a private game on another's profile")
    seat: int
    place: int
    before: int
    after: int
    delta: int
    at: str | None


class PlayerRatingOut(Answer):
    ruleset: str
    title: str
    rating: int
    games: int
    history: list[RatingChangeOut]


class ProfileOut(Answer):
    id: int
    name: str
    guest: bool
    deleted: bool
    games: list[ProfileGameOut]
    played: int
    won: int
    ratings: list[PlayerRatingOut]
    following: bool = Field(description="whether the caller follows this player")
    blocked: bool = Field(description="whether the caller blocked this player")


# -- friends and ratings ----------------------------------------------------------------------


class RelationOut(Answer):
    following: bool
    blocked: bool


class NameRef(Answer):
    id: int
    name: str


class FriendGameOut(Answer):
    id: int
    ruleset: str
    title: str
    private: bool


class FriendOut(Answer):
    id: int
    name: str
    online: bool
    games: list[FriendGameOut]


class InvitationOut(Answer):
    id: int
    table_id: int
    ruleset: str
    title: str
    private: bool
    invite_code: str | None
    from_: NameRef = Field(alias="from")
    free_seats: int
    at: str | None
    seat: int | None = Field(default=None, description="the seat the invitation holds for the invitee (a rematch "
                                                       "offer), or null: any free seat")
    rematch: bool = Field(default=False, description="the table is the rematch of a game the invitee played")
    terms: str = Field(default="", description="what its players agree to, in words: players, pace, clock, rated, "
                                               "options")
    table: dict[str, Any] | None = Field(default=None, description="the table, as GET /api/tables/{id} shows it")


class FriendsOut(Answer):
    friends: list[FriendOut]
    invitations: list[InvitationOut]
    blocked: list[NameRef]


class InvitationCreated(Answer):
    id: int
    table_id: int
    invitee: NameRef


class SeatRatingOut(Answer):
    seat: int
    account_id: int
    rating: int
    games: int
    change: RatingChangeOut | None


class TableRatingsOut(Answer):
    rated: bool
    seats: list[SeatRatingOut]


class LeaderOut(Answer):
    rank: int
    account_id: int
    name: str
    rating: int
    games: int


# -- admin ------------------------------------------------------------------------------------


class UserOut(Answer):
    id: int
    name: str
    guest: bool
    admin: bool
    banned_at: str | None
    deleted: bool
    created_at: str | None


class AuditActorOut(Answer):
    via: str = Field(description="api: an admin account; cli: the command line")
    account_id: int | None = Field(description="the admin's account (api); null at the command line")
    name: str = Field(description="the admin's name, or the system user at the command line")


class AuditOut(Answer):
    event: str = Field(description='always "admin_action"')
    id: int
    at: str | None
    by: AuditActorOut
    action: str = Field(description="grant_admin, revoke_admin, ban, unban, reset_password, delete_chat_message, "
                                    "close_table, delete_table")
    target: dict[str, Any] = Field(description="what the action was taken on (account_id and name, table_id...)")
    source: str = Field(description="the client's address (api), or cli:<system user>")


class AdminChatLineOut(Answer):
    id: int
    table_id: int
    account_id: int
    seat: int | None
    name: str
    text: str
    at: str | None


class ResetLinkOut(Answer):
    link: str = Field(description="https://site/reset-password#token=..., good once")
    expires_at: str | None


class ClosedOut(Answer):
    id: int
    status: str = Field(description='"closed"')


# -- notifications ----------------------------------------------------------------------------


class PushSubscriptionOut(Answer):
    id: int
    endpoint: str
    created_at: str | None


class PushOut(Answer):
    public_key: str
    subscriptions: list[PushSubscriptionOut]


class EmailOut(Answer):
    address: str | None
    confirmed: bool
    enabled: bool
    available: bool
    allowed: bool


class NotificationsOut(Answer):
    push: PushOut
    email: EmailOut


class SubscriptionCreated(Answer):
    id: int


class RemovedOut(Answer):
    removed: int


def without_validation_errors(app: FastAPI) -> None:
    """Make ``app.openapi()`` tell the truth about malformed requests: FastAPI documents a 422 with
    its own body for every route with parameters, but this app answers them 400 with
    :class:`ErrorOut` (``app.main``'s handler), which each route lists through :func:`errors`."""
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = FastAPI.openapi(app)  # kept by FastAPI as app.openapi_schema, changed in place below
        for operations in schema.get("paths", {}).values():
            for operation in operations.values():
                operation.get("responses", {}).pop("422", None)
        for name in ("HTTPValidationError", "ValidationError"):
            schema.get("components", {}).get("schemas", {}).pop(name, None)
        return schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to change the schema

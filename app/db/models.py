"""ORM models: accounts, tables (a table and its game share one row and one id), seats, moves, chat messages,
the "your turn" notices (e-mail choice, push subscriptions, turns told), rate-limit counters, and
ratings per game with every change a rated game made, follows, blocks and invitations.

The schema changes only through Alembic migrations (``migrations/``); this module mirrors it.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, ClassVar

from sqlalchemy import (JSON, BigInteger, Boolean, DateTime, Float, ForeignKey, Index, Integer, String, UniqueConstraint,
                        false, true)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

if TYPE_CHECKING:
    import sqlalchemy


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(timezone.utc)


def iso_utc(moment: datetime | None) -> str | None:
    """ISO 8601 with the UTC offset; SQLite hands back naive datetimes, which are UTC here."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.isoformat()


def new_session_key() -> str:
    """A random account key for session cookies: 22 URL-safe characters (128 bits)."""
    return secrets.token_urlsafe(16)


MOVE_KIND = "move"
UNDO_KIND = "undo"
"""``Move.kind``: a move of the rules, or a seat taking back its last move."""
LIVE, TURN_BASED = "live", "turn_based"
"""``Table.pace``: everyone plays at the table now, or each moves when they can."""


class Base(DeclarativeBase):
    """Declarative base of every model."""

    if TYPE_CHECKING:
        # Every model maps one declared table (none maps a join or a select), so its ``__table__``
        # is a Table, with ``update()`` and ``insert()``; SQLAlchemy can only promise a FromClause.
        __table__: ClassVar[sqlalchemy.Table]


class Account(Base):
    """A person: a guest (``login_name`` null) or registered (unique ``login_name``, argon2 hash).

    ``session_epoch`` is written into every session cookie; logging out raises it, which ends
    every session issued before (a signed cookie cannot be taken back otherwise).  ``session_key``,
    random and never changed, is written there too: ids come back after a restore, keys do not, so
    a cookie never logs in as another account that got its id (empty for accounts made before
    migration 0010, whose cookies carry none).
    ``admin``: may use ``/api/admin``; ``banned_at``: when an admin banned the
    account (null: not banned; a banned account cannot log in).  ``password_reset_hash``: the
    SHA-256 (hex) of the one pending password-reset token, valid until ``password_reset_expires_at``.
    ``deleted_at``: when its owner deleted the account (docs/decisions.md, *Deleted accounts*): the row stays, so their
    games keep their seats, named "deleted player", with no login name or password.
    ``confirm_moves``: the "Confirm my moves" setting: hold each move for Confirm
    (true) or send it at once (false) on every device; null lets each device decide (on for touch
    screens).  ``language``: the language the account reads the site, its e-mails and notices in
    (``"en"``, ``"fr"``: ``app.i18n.SUPPORTED``); null lets each browser follow its own choice, and
    e-mails and notices are then in English (docs/i18n.md).
    """

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    login_name: Mapped[str | None] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(255))
    session_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    session_key: Mapped[str] = mapped_column(String(32), default=new_session_key, server_default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    admin: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    banned_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    password_reset_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    password_reset_expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    confirm_moves: Mapped[bool | None] = mapped_column(Boolean)
    language: Mapped[str | None] = mapped_column(String(8))

    @property
    def guest(self) -> bool:
        """Whether this is a guest account (no password)."""
        return self.password_hash is None


class Table(Base):
    """A table in the lobby and, once started, its game.

    ``move_seconds``: the time control, seconds per move (60 for real-time, 86400 x days for
    turn-based play), or null for none.  ``pace``: ``live`` (the players are there now) or
    ``turn_based`` (a game over days); it decides when an absent person counts as away.
    ``chat_spectators``: whether people who watch may read and write the table's chat.
    ``rated``: whether the game's end changes its people's ratings (``app/services/accounts/ratings.py``); a
    friendly table's does not.
    ``rematch_of`` / ``rematch_id``: the finished game this one is the rematch of, and this game's
    own rematch (at most one each way).

    ``status``: ``open`` (seating) -> ``running`` -> ``finished``; an open table nobody starts
    becomes ``closed``, a running game whose every person stayed away becomes ``abandoned`` (and
    ``running`` again when one of them returns).  ``state`` is the game's snapshot at ``version``
    (0 right after start; each committed move adds 1), or, when ``state_version`` is set, at that
    older version: the usual move on PostgreSQL writes the state only every few moves
    (``app/services/games/state.py`` rebuilds the state at ``version``; every other writer writes
    the whole state and sets ``state_version`` null).  ``to_act``: while ``state_version`` is set,
    the seats to act at ``version`` (the lobby's answer without a fold); null otherwise.  ``seed``
    and the PRNG inside ``state`` never leave the server.
    """

    __tablename__ = "tables"
    __table_args__ = (UniqueConstraint("rematch_of", name="uq_tables_rematch_of"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seat_count: Mapped[int] = mapped_column(Integer)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    invite_code: Mapped[str | None] = mapped_column(String(32))
    creator_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    seed: Mapped[int | None] = mapped_column(BigInteger)
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    state_version: Mapped[int | None] = mapped_column(Integer)
    to_act: Mapped[list[int] | None] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0)
    move_seconds: Mapped[int | None] = mapped_column(Integer)
    pace: Mapped[str] = mapped_column(String(16), default=LIVE, server_default=LIVE)
    chat_spectators: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    rematch_of: Mapped[int | None] = mapped_column(ForeignKey("tables.id", name="fk_tables_rematch_of"))
    rematch_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id", name="fk_tables_rematch_id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)


class Seat(Base):
    """One seat of a table: a person (``account_id``), a bot (``bot_level``), or empty (both null).

    ``takeover`` (timeout/left/resigned/away): the default bot plays a person's seat.  ``deadline``:
    when the seat's current move is due (tables with a time control only).  ``seen_at``: when the
    seat's person was last seen (a socket of theirs open on any process, a REST move, the start);
    ``connected_at``: when a socket of theirs was last seen open (``app/services/attendance/presence.py``);
    ``away_since``: when the leader found the person away (null while they are around);
    ``away_deadline``: no longer set (migration 0016 cleared it): an untimed table never hands a seat
    to a bot by itself.
    ``abandoned_from``: written when the game ends, for a person whose seat a bot still played then
    (resigned, left, out of time, away): the version of the bot's first move of that last stretch
    (the final version when it made none); they are ranked last among the people (ratings).
    """

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "account_id", name="uq_seats_table_account"),)

    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"))
    bot_level: Mapped[str | None] = mapped_column(String(16))
    takeover: Mapped[str | None] = mapped_column(String(16))
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    connected_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    away_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    away_deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    abandoned_from: Mapped[int | None] = mapped_column(Integer)


class Move(Base):
    """The append-only move log: move ``seq`` turned the game from version ``seq - 1`` to ``seq``.

    ``events`` holds the log entries the move caused: ``[{"text", "seats"}]`` with ``seats``
    null for public entries.  ``client_move_id`` makes a retried move idempotent.
    ``kind``: ``move`` (a move of the rules, ``move`` its wire form) or ``undo`` (the seat took back
    its last move; ``move`` is ``{"type": "undo", "undoes": seq}``, see ``app/services/games/undo.py``).
    ``reversible``: whether the ruleset let the move be taken back (``Ruleset.is_reversible``).
    """

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("table_id", "client_move_id", name="uq_moves_table_client_move"),)

    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[dict[str, Any]] = mapped_column(JSON)
    events: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    client_move_id: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    kind: Mapped[str] = mapped_column(String(8), default=MOVE_KIND, server_default=MOVE_KIND)
    reversible: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ChatMessage(Base):
    """One line of a table's chat: who wrote it (``account_id``; ``seat`` null for a spectator),
    the name shown at the time (``name``), and the text, stored exactly as accepted."""

    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_table_id_id", "table_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    seat: Mapped[int | None] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class NotifyAccount(Base):
    """A person's "your turn" e-mail choice and digest pacing.

    ``email`` is the address the account's owner entered (registered accounts only); no turn mail
    goes to it before ``email_confirmed`` (the owner followed the link mailed to it) and while
    ``email_enabled`` is off (the panel's switch, or the unsubscribe link).  ``last_digest_at``: when
    the last digest left, so the next waits ``notify_digest_minutes``.
    """

    __tablename__ = "notify_accounts"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    email: Mapped[str | None] = mapped_column(String(254))
    email_confirmed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    email_enabled: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    email_confirm_sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_digest_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class PushSubscription(Base):
    """One browser's Web Push subscription (``PushSubscription.toJSON()``: endpoint and keys) of an account.

    ``endpoint`` is unique: one browser's subscription tells one account's turns.
    """

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1000), unique=True)
    p256dh: Mapped[str] = mapped_column(String(100))
    auth: Mapped[str] = mapped_column(String(50))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class NotifyTurn(Base):
    """A turn of a person who wants notices: ``account_id`` is to act at ``table_id`` since ``turn_version``.

    ``notified_at`` null: not yet told (held back while the person has the table open, or for the
    next digest); set: told (or seen moving in it), so never again for this turn (the row outlives
    a restart).  The row
    goes when the turn ends.
    """

    __tablename__ = "notify_turns"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True, index=True)
    seat: Mapped[int] = mapped_column(Integer)
    turn_version: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    notified_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class RateLimitCounter(Base):
    """Requests counted against one rate limit for one caller (``app/db/rate_limits.py``): ``hits``
    since the window began, until ``expires_at`` (seconds since the Unix epoch), when the next
    request starts a new window.  Expired rows are deleted by a sweep.  On PostgreSQL the table is
    ``UNLOGGED`` (its migration): no disk flush per count, emptied by a crash of the database server."""

    __tablename__ = "rate_limits"

    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    hits: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[float] = mapped_column(Float, index=True)


class LeaderHeartbeat(Base):
    """When the leader was last alive: one row, ``id`` 1, its ``at`` written every
    ``app/services/leader/downtime.HEARTBEAT_SECONDS`` and when the leader stops; a new leader
    reads it to stop the clocks for the time no server ran (``downtime.py``)."""

    __tablename__ = "leader_heartbeat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Rating(Base):
    """A person's current rating in one game (``ruleset``): openskill's Weng-Lin ``mu`` and ``sigma``
    after ``games`` rated games (``app/services/accounts/ratings.py``)."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatingChange(Base):
    """What one rated game (``table_id``) did to one person's rating: their seat and place, and
    ``mu``/``sigma`` before and after.  ``id`` grows in the order games were rated, which is the
    order a recomputation replays them in."""

    __tablename__ = "rating_changes"
    __table_args__ = (UniqueConstraint("table_id", "account_id", name="uq_rating_changes_table_account"),
                      Index("ix_rating_changes_account_ruleset", "account_id", "ruleset"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    ruleset: Mapped[str] = mapped_column(String(64))
    seat: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Follow(Base):
    """``follower_id`` follows ``followed_id``: the followed person is on the follower's Friends list."""

    __tablename__ = "follows"

    follower_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    followed_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True,
                                             index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Block(Base):
    """``blocker_id`` blocked ``blocked_id``: the blocker no longer sees their chat nor gets their invitations."""

    __tablename__ = "blocks"

    blocker_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True,
                                            index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Invitation(Base):
    """``inviter_id`` invited ``invitee_id`` to the open table ``table_id`` (one invitation per table and person).

    ``seat``: the seat held for the invitee (a rematch offer holds each player's own seat: nobody
    else may take it, and only the invitee's own *Join* seats them there); null: any free seat.
    """

    __tablename__ = "invitations"
    __table_args__ = (UniqueConstraint("table_id", "invitee_id", name="uq_invitations_table_invitee"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    inviter_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    invitee_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AdminAudit(Base):
    """One admin action, from the API or the command line (``app/services/accounts/audit.py``): who took it
    (``via`` ``api`` with the admin's ``account_id``, or ``cli`` with no account; ``name`` the
    account's name or the system user), ``action`` (``ban``, ``delete_table``...), ``target`` (what
    it was taken on, a JSON object), ``source`` (the client's address for the API, ``cli:<system
    user>`` at the command line), ``at``, and ``logged_at``.  No foreign key: the record outlives what it names."""

    __tablename__ = "admin_audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)
    via: Mapped[str] = mapped_column(String(8))
    account_id: Mapped[int | None] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(32))
    target: Mapped[dict[str, Any]] = mapped_column(JSON)
    source: Mapped[str] = mapped_column(String(160))
    # When a server process wrote its log line: at once for the API's, by the leader for the command line's.
    logged_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)


class BackupRun(Base):
    """A backup written, or checked, in full (``app/db/backup.py``): ``kind`` ``backup`` or
    ``check``, the ``file`` (as given), the migration it holds (``revision``), its ``rows`` (all
    tables together) and when it ended (``finished_at``).  Read by the "last good backup" metric."""

    __tablename__ = "backup_runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)
    kind: Mapped[str] = mapped_column(String(8))
    file: Mapped[str] = mapped_column(String(1024))
    revision: Mapped[str] = mapped_column(String(32))
    rows: Mapped[int] = mapped_column(BigInteger)

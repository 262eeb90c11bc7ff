"""Settings, read once from the environment (prefix ``CARAVANSERAI_``) and an optional ``.env`` file."""

from __future__ import annotations

import importlib.util
import re
import secrets
from functools import cached_property
from pathlib import Path

from typing import Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./caravanserai.db"
# Words of the examples a host copies (.env.example, docs/hosting.md), compared without case or punctuation.
PLACEHOLDER_WORDS = ("changeme", "replaceme", "placeholder", "yoursecret", "longrandomstring", "password")
MIN_SECRET_KEY_LENGTH = 32
REDIS_SCHEMES = ("redis://", "rediss://", "redis+unix://")
SECRET_HINT = 'make one with: python3 -c "import secrets; print(secrets.token_urlsafe(48))"'


def is_placeholder(secret: str) -> bool:
    """Whether ``secret`` is an example's stand-in (``change-me``, ``<long random string>``...)."""
    letters = re.sub(r"[^a-z0-9]", "", secret.lower())
    return any(word in letters for word in PLACEHOLDER_WORDS)


MIN_AWAY_REFRESHES = 4
"""An away time must be at least this many presence refreshes: a seat counts as present for
``presence.PRESENT_REFRESHES`` (3) refreshes after its socket was last written down, and one more
is the margin for a refresh that runs late."""


class Settings(BaseSettings):
    """Every setting of the server.

    * ``database_url``: SQLAlchemy async URL; default a SQLite file in the working directory.
      ``postgresql://`` URLs are accepted and mapped to the asyncpg driver.
    * ``secret_key``: signs session cookies; when empty, one is generated once and kept in
      ``secret_key_file`` so sessions survive restarts.
    * ``extra_rulesets``: ``"module:Class"`` paths of rulesets loaded besides the entry points.
    * ``cookie_secure`` marks production (HTTPS, as every hosting recipe runs it): there a secret key
      or database password copied from an example is refused at start, since with a
      known key anyone can sign a cookie for any account.
    * PostgreSQL connections: each process opens at most ``db_pool_size + db_max_overflow +
      db_move_writer_connections + 1`` (the leadership lock; the fan-out listener holds one of the
      pool's): 12 by default, so ``workers`` times that must stay below the server's
      ``max_connections`` (100 by default: 8 workers at most).
    * Absent players (docs/decisions.md, *A bot for an absent player*): ``absent_after_seconds`` (live tables) and
      ``turn_based_absent_after_hours`` say when a person without an open socket is away;
      ``abandon_after_days`` when a game whose every person is away is marked abandoned.
      The move writer commits the waiting moves of many games in one statement (group commit,
      app/db/move_writer.py) from one task, so it uses one connection at a time: a second one
      would sit idle.
    * Turn notices (docs/hosting.md): ``public_url`` for links in mails, the
      VAPID key (generated once into ``vapid_key_path`` like the session key), ``smtp_*`` (no
      e-mail without ``smtp_host`` and ``smtp_from``), and the pace ``notify_*``.
    * Administration: ``password_reset_hours``, how long a one-time reset link
      (on ``public_url``) stays good.
    """

    model_config = SettingsConfigDict(env_prefix="CARAVANSERAI_", env_file=".env", extra="ignore")

    database_url: str = DEFAULT_DATABASE_URL
    secret_key: str = ""
    secret_key_file: Path = Path(".caravanserai-secret")
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    workers: int = Field(default=1, ge=1)
    db_pool_size: int = Field(default=5, ge=1, description="PostgreSQL connections each process keeps open")
    db_max_overflow: int = Field(default=5, ge=0, description="extra PostgreSQL connections a process may open under load")
    db_move_writer_connections: int = Field(default=1, ge=1, description="PostgreSQL connections of each process's "
                                            "move writer (its one task commits one batch of moves at a time)")
    database_wait_seconds: float = Field(default=30, ge=0, description="serve: how long to keep trying a database "
                                         "that does not answer yet at start (started at the same time), every 2 s")
    cookie_secure: bool = False
    extra_rulesets: list[str] = []
    max_payload_bytes: int = 64 * 1024
    log_format: Literal["text", "json"] = Field(default="text", description="json: one JSON object per log line")
    rate_limit_auth: str = Field(default="30/minute", description="guest, register and login requests per address and account")
    rate_limit_tables: str = Field(default="60/hour", description="tables created and seat changes per address and account")
    rate_limit_moves: str = Field(default="30/second", description="REST moves per address and account")
    rate_limit_replays: str = Field(default="240/minute", description="replay positions asked for, per address and account")
    rate_limit_chat: str = Field(default="20/minute", description="chat messages per account")
    rate_limit_storage: str = Field(
        default="", description="where rate limits are counted: database (the default with PostgreSQL: shared by "
                                "every worker and instance), memory (the default with SQLite; each process its own), "
                                "or a redis://, rediss:// or redis+unix:// URL (needs the redis extra)")
    max_open_tables: int = Field(default=10, ge=1, description="open (not yet started) tables one account may have")
    open_table_hours: float = Field(default=24, gt=0, description="open tables nobody started close after this")
    clock_tick_seconds: float = Field(default=1.0, gt=0, description="how often overdue move deadlines are checked")
    ws_ping_interval_seconds: float = Field(default=20, gt=0, description="how often each WebSocket is pinged")
    ws_ping_timeout_seconds: float = Field(default=20, gt=0,
                                           description="a socket whose pong is this late is closed (half-open peers)")
    ws_send_timeout_seconds: float = Field(default=10, gt=0, description="a socket that takes no frame for this "
                                           "long (its peer stopped reading) is closed with 1013, so it holds up nobody")
    resync_seconds: float = Field(default=2.0, gt=0, description="PostgreSQL: how often each process compares the "
                                  "versions of the games its sockets watch with the database (a lost notice)")
    gc_young_threshold: int = Field(
        default=50_000, ge=0, description="allocations between two collections of Python's youngest garbage generation "
        "(and 20, 100 for the older two); 0 keeps Python's own 700, 10, 10, whose collections of the server's many "
        "long-lived objects cost a sixth of its CPU at 500 games and a 170 ms pause each full pass")
    keep_alive_seconds: int = Field(default=30, ge=1, description="how long an idle HTTP connection stays open")
    check_cached_states: bool = Field(
        default=False, description="check at every read that no code changed a cached game state in place (costs a "
        "serialization per read; the test suite turns it on)")
    ws_per_message_deflate: bool = Field(
        default=False, description="compress WebSocket frames (permessage-deflate) when the browser offers it: about "
                                   "5x less traffic for about a third more server CPU per move")
    bot_delay_seconds: float = Field(default=0.6, ge=0, description="pause before each bot move, so people can follow")
    bot_move_seconds: float = Field(default=1.0, gt=0, le=60, description="the strong bot's thinking time a move "
                                    "(wall clock; it searches until then, so a bigger value plays better and costs "
                                    "that much CPU a move)")
    bot_sweep_seconds: float = Field(default=30, gt=0, description="how often the leader looks for bot moves owed "
                                     "that no commit's notice set going (a safety net; each one found is logged)")
    bot_processes: int = Field(default=1, ge=0, le=64, description="worker processes, on the leader only, that compute "
                               "bot moves so a search never holds up the event loop; 0: a thread of the leader "
                               "process instead (it slows the leader's sockets while a bot thinks)")
    # "Your turn" notices (app/services/notify/notifier.py)
    public_url: str = Field(default="", description="the site's address as people reach it (https://games.example.org), "
                            "for the links in e-mails; default http://HOST:PORT")
    password_reset_hours: float = Field(default=24, gt=0, le=24 * 30, description="how long an admin's one-time "
                                        "password-reset link stays good")
    vapid_private_key: SecretStr = Field(default=SecretStr(""), description="Web Push (VAPID) private key, PEM; "
                                         "when empty, one is generated once and kept in vapid_private_key_file")
    vapid_private_key_file: Path | None = Field(default=None, description="where the generated VAPID key is kept; "
                                                "default .caravanserai-vapid.pem next to secret_key_file")
    vapid_subject: str = Field(default="", description="contact in the VAPID claims (mailto: or https:); default "
                               "public_url if it is https, else mailto:smtp_from")
    push_allow_private_endpoints: bool = Field(default=False, description="accept http:// push endpoints and ones on "
                                               "loopback or private addresses (tests and development only)")
    smtp_host: str = Field(default="", description="SMTP server for turn e-mails; empty: no e-mail")
    smtp_port: int = Field(default=587, ge=1, le=65535)
    smtp_username: str = ""
    smtp_password: SecretStr = SecretStr("")
    smtp_from: str = Field(default="", description="sender address of the e-mails, e.g. Caravanserai <games@example.org>")
    smtp_tls: Literal["starttls", "tls", "none"] = Field(default="starttls", description="starttls (port 587), tls "
                                                         "(implicit TLS, port 465) or none (a relay on localhost)")
    notify_digest_minutes: float = Field(default=60, gt=0, description="when several games wait for a person: at "
                                         "most one digest notice per this many minutes")
    notify_check_seconds: float = Field(default=30, gt=0, description="how often notices held back (digest, open "
                                        "tab) are looked at again")
    notify_send_timeout_seconds: float = Field(default=10, gt=0, description="a push service or SMTP server slower "
                                               "than this fails that one notice")

    absent_after_seconds: float = Field(
        default=120, gt=0, description="live tables: a person with no open socket for this long is away (the others "
                                       "may then hand their seat to a bot; nothing does so by itself)")
    turn_based_absent_after_hours: float = Field(
        default=24, gt=0, description="turn-based tables: a person who has not opened the game for this long is away")
    abandon_after_days: float = Field(
        default=30, gt=0, description="a running game whose every person has been away this long is marked abandoned")
    presence_refresh_seconds: float = Field(
        default=5, gt=0, description="how often each process writes down which seats have a socket open on it")
    leader_retry_seconds: float = Field(
        default=3, gt=0, description="PostgreSQL: how often a process that is not the leader (the one that drives "
                                     "bots and clocks) tries to become it")

    @field_validator("rate_limit_storage")
    @classmethod
    def _known_rate_limit_storage(cls, value: str) -> str:
        """Raises ``ValueError`` for a store that is none of those named in the description, and for a
        Redis URL without a Redis client installed."""
        value = value.strip()
        if value in ("", "memory", "database"):
            return value
        if not value.startswith(REDIS_SCHEMES):
            raise ValueError(f"{value!r} is none of: database, memory, a redis:// URL")
        if importlib.util.find_spec("redis") is None:
            raise ValueError("a Redis store needs the Redis client: pip install 'caravanserai[redis]'")
        return value

    @model_validator(mode="after")
    def _away_well_above_the_presence_refresh(self) -> "Settings":
        """Raises ``ValueError`` (one line) when an away time is shorter than ``MIN_AWAY_REFRESHES``
        presence refreshes: an open tab is written down only once a refresh, so a shorter away time
        would show a person who has the game open as away (and let the others hand their seat over)."""
        least = MIN_AWAY_REFRESHES * self.presence_refresh_seconds
        for name, seconds in (("ABSENT_AFTER_SECONDS", self.absent_after_seconds),
                              ("TURN_BASED_ABSENT_AFTER_HOURS", self.turn_based_absent_after_hours * 3600)):
            if seconds < least:
                raise ValueError(
                    f"CARAVANSERAI_{name} ({seconds:g} s) must be at least {MIN_AWAY_REFRESHES} x "
                    f"CARAVANSERAI_PRESENCE_REFRESH_SECONDS ({self.presence_refresh_seconds:g} s) = {least:g} s: an open "
                    "tab is written down only once a refresh, so a shorter away time would show players away at their game")
        return self

    @model_validator(mode="after")
    def _refuse_placeholder_secrets(self) -> "Settings":
        """In production (``cookie_secure``): raises ``ValueError`` for a placeholder or short
        ``secret_key`` and for a placeholder password in ``database_url``."""
        if not self.cookie_secure:
            return self
        if self.secret_key and is_placeholder(self.secret_key):
            raise ValueError(f"CARAVANSERAI_SECRET_KEY is still the example's placeholder; {SECRET_HINT}")
        if self.secret_key and len(self.secret_key) < MIN_SECRET_KEY_LENGTH:
            raise ValueError(f"CARAVANSERAI_SECRET_KEY has {len(self.secret_key)} characters, fewer than "
                             f"{MIN_SECRET_KEY_LENGTH}: cookies signed with it can be forged; {SECRET_HINT}")
        try:
            password = make_url(self.database_url).password
        except ArgumentError:
            return self  # not a URL: the engine says so, more clearly, when it starts
        if password and is_placeholder(str(password)):
            raise ValueError("the password in CARAVANSERAI_DATABASE_URL (POSTGRES_PASSWORD in .env) is still the "
                             f"example's placeholder; {SECRET_HINT}")
        return self

    @property
    def async_database_url(self) -> str:
        """The URL with an async driver (``postgresql+asyncpg``, ``sqlite+aiosqlite``)."""
        url = self.database_url
        for prefix in ("postgresql://", "postgres://", "postgresql+psycopg://", "postgresql+psycopg2://"):
            if url.startswith(prefix):
                return "postgresql+asyncpg://" + url[len(prefix):]
        if url.startswith("sqlite://"):
            return "sqlite+aiosqlite://" + url[len("sqlite://"):]
        return url

    @property
    def is_sqlite(self) -> bool:
        """Whether the store is SQLite (one process, in-process fan-out)."""
        return self.async_database_url.startswith("sqlite")

    @property
    def site_url(self) -> str:
        """The site's address for links sent outside the browser (e-mails), without a trailing slash."""
        return (self.public_url or f"http://{self.host}:{self.port}").rstrip("/")

    @property
    def smtp_configured(self) -> bool:
        """Whether the host set up e-mail (an SMTP server and a sender)."""
        return bool(self.smtp_host and self.smtp_from)

    @property
    def vapid_key_path(self) -> Path:
        """Where the generated VAPID key is kept: the setting, else next to the session key file."""
        return self.vapid_private_key_file or self.secret_key_file.with_name(".caravanserai-vapid.pem")

    @cached_property
    def session_secret(self) -> str:
        """The cookie-signing key: the setting, else the key file, else a new key written to it."""
        if self.secret_key:
            return self.secret_key
        if self.secret_key_file.exists():
            return self.secret_key_file.read_text().strip()
        key = secrets.token_urlsafe(48)
        self.secret_key_file.write_text(key + "\n")
        self.secret_key_file.chmod(0o600)
        return key

"""The admin audit: every admin action, whoever took it and however, is a row of ``admin_audit``
and one JSON line in the server's log.

The lines go to the logger ``caravanserai.admin``, which writes the bare JSON object to standard
error (so the line is JSON whatever ``log_format`` says; Docker's log driver and journald keep it):

    {"event": "admin_action", "id": 12, "at": "2026-12-02T11:00:00+00:00", "by": {"via": "api",
     "account_id": 1, "name": "Ada"}, "action": "ban", "target": {"account_id": 7, "name": "Troll"},
     "source": "203.0.113.9"}

An action through the API is written by the server process that answered it.  One at the command
line (``caravanserai admin``, a process of its own whose output goes to its own terminal) is
written there, and the server's leader process writes the same line to the server's log as soon
as it sees the row (:func:`relay_cli_actions`, within :data:`RELAY_SECONDS`), so that the server's log
holds every admin action.  ``source`` is the client's address for the API, ``cli:<system user>``
for the command line.

Nothing secret goes in: a password-reset line names the account, never the link.
"""

from __future__ import annotations

import json
import logging
import sys
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import AdminAudit, iso_utc, utcnow
from app.db.results import rowcount

log = logging.getLogger("caravanserai.admin")
AUDIT_PAGE = 100
RELAY_SECONDS = 5.0
"""How often the leader looks for command-line actions to write to the server's log (a database
read each time: rarer keeps a quiet server's database quiet)."""


class _StandardError(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is at the time (a test's capture, a redirected CLI)."""

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, _value) -> None:
        pass


if not log.handlers:
    _handler = _StandardError()
    _handler.setFormatter(logging.Formatter("%(message)s"))
    log.addHandler(_handler)
    log.setLevel(logging.INFO)
    log.propagate = False


@dataclass(frozen=True)
class Actor:
    """Who takes an admin action, and from where: an admin account through the API (``via="api"``,
    ``source`` the client's address), or the host at the command line (``via="cli"``, ``name`` the
    system user, no account, ``source`` ``cli:<system user>``)."""

    via: str
    name: str
    account_id: int | None = None
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        """``{via, account_id, name}``."""
        return {"via": self.via, "account_id": self.account_id, "name": self.name}


def audit_entry(row: AdminAudit) -> dict[str, Any]:
    """One audit row as the log line and the API show it: ``{event: "admin_action", id, at, by:
    {via, account_id, name}, action, target, source}`` (``at`` ISO 8601 UTC)."""
    return {"event": "admin_action", "id": row.id, "at": iso_utc(row.at),
            "by": {"via": row.via, "account_id": row.account_id, "name": row.name},
            "action": row.action, "target": row.target, "source": row.source}


def _write_line(entry: dict[str, Any]) -> None:
    log.info(json.dumps(entry, ensure_ascii=False, sort_keys=False))


async def admin_action(session: AsyncSession, actor: Actor, action: str, target: dict[str, Any]) -> dict[str, Any]:
    """Record one admin action: add its ``admin_audit`` row to ``session`` and commit (with
    whatever else the session holds: call it in place of the action's own commit, so the action
    and its record are one transaction), then write its log line.  Returns the entry
    (:func:`audit_entry`).  A command-line action's row is left for the server to log too."""
    row = AdminAudit(at=utcnow(), via=actor.via, account_id=actor.account_id, name=actor.name[:64],
                     action=action, target=target, source=(actor.source or actor.via)[:160],
                     logged_at=None if actor.via == "cli" else utcnow())
    session.add(row)
    await session.commit()
    entry = audit_entry(row)
    _write_line(entry)
    return entry


async def list_audit(session: AsyncSession, limit: int = AUDIT_PAGE, before: int | None = None,
                     action: str | None = None) -> list[dict[str, Any]]:
    """The newest admin actions first (:func:`audit_entry` each): at most ``limit``, only those
    with an id below ``before`` when given (the next page), only ``action`` ones when given."""
    query = select(AdminAudit).order_by(AdminAudit.id.desc()).limit(limit)
    if before is not None:
        query = query.where(AdminAudit.id < before)
    if action:
        query = query.where(AdminAudit.action == action)
    return [audit_entry(row) for row in await session.scalars(query)]


async def relay_cli_actions(session: AsyncSession) -> list[dict[str, Any]]:
    """Write to this (the server's) log the command-line actions no server has logged yet, oldest
    first, and mark them logged; returns their entries.  Called by the leader process only, so
    each is written once."""
    rows = list(await session.scalars(select(AdminAudit).where(AdminAudit.logged_at.is_(None))
                                      .order_by(AdminAudit.id).limit(AUDIT_PAGE)))
    if not rows:
        return []
    marked = await session.execute(update(AdminAudit).where(AdminAudit.id.in_([row.id for row in rows]),
                                                            AdminAudit.logged_at.is_(None))
                                   .values(logged_at=utcnow()))
    await session.commit()
    if rowcount(marked) != len(rows):
        return []  # another process took them meanwhile (two leaders for a moment): it writes them
    entries = [audit_entry(row) for row in rows]
    for entry in entries:
        _write_line(entry)
    return entries

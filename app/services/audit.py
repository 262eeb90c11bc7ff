"""The admin log: one JSON line per admin action, whoever took it and however.

Lines go to the logger ``caravanserai.admin``, which writes the bare JSON object to standard error
(so the line is JSON whatever ``log_format`` says; Docker's log driver and journald keep it):

    {"event": "admin_action", "at": "2026-12-02T11:00:00+00:00", "by": {"via": "api", "account_id": 1,
     "name": "Ada"}, "action": "ban", "target": {"account_id": 7, "name": "Troll"}}

Nothing secret goes in: a password-reset line names the account, never the link.
"""

from __future__ import annotations

import json
import logging
import sys
from dataclasses import dataclass
from typing import Any

from app.db.models import utcnow

log = logging.getLogger("caravanserai.admin")


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
    """Who takes an admin action: an admin account through the API (``via="api"``), or the host at
    the command line (``via="cli"``, ``name`` the system user, no account)."""

    via: str
    name: str
    account_id: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{via, account_id, name}``."""
        return {"via": self.via, "account_id": self.account_id, "name": self.name}


def admin_action(actor: Actor, action: str, target: dict[str, Any]) -> dict[str, Any]:
    """Write one admin log line (who, what, when, target) and return it as a dict."""
    record = {"event": "admin_action", "at": utcnow().isoformat(), "by": actor.to_dict(), "action": action,
              "target": target}
    log.info(json.dumps(record, ensure_ascii=False, sort_keys=False))
    return record

"""``caravanserai admin ...``: the admin's tools at the command line.

Run where the server's settings are (the same ``CARAVANSERAI_*`` environment or ``.env``): it works
on the database directly, so it needs no admin account.  Each action is recorded in the admin
audit like the API's (``app/services/accounts/audit.py``): a row, and the JSON line here and in the server's
log (``by.via`` is ``cli``, ``by.name`` the name given with ``--by`` or the system user, ``source``
``cli:<system user>``; ``SUDO_USER`` is that user under sudo).  On PostgreSQL it tells the running server
processes at once (a ban closes the account's sockets, a deleted table's sockets close); on SQLite
the server learns at its next database read (a banned account's requests and moves are refused,
but a page it has open keeps showing the game until reloaded).
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import os
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.engine import make_engine, make_session_factory
from app.fanout import LocalFanout, make_fanout
from app.services.accounts import admin
from app.services.accounts import audit
from app.services.accounts.audit import Actor
from app.services.errors import AppError
from app.services.table_locks import TableLocks

USER_HELP = "a registered name (any case), or #ID for any account (guests too)"


def add_parser(commands: argparse._SubParsersAction) -> None:
    """Add ``admin`` and its sub-commands to the ``caravanserai`` parser."""
    parser = commands.add_parser("admin", help="admin tools: roles, users, bans, password resets, chat, tables")
    actions = parser.add_subparsers(dest="action", required=True)
    for name, text in (("grant", "make an account an admin"), ("revoke", "take the admin role away"),
                       ("ban", "ban an account: logged out everywhere, login refused"), ("unban", "lift a ban"),
                       ("reset-password", "print a one-time link that lets the account's owner set a new password")):
        actions.add_parser(name, help=text).add_argument("user", help=USER_HELP)
    parser.add_argument("--by", metavar="NAME", help="who you are, for the admin audit (default: the system user)")
    audit_command = actions.add_parser("audit", help="list the admin actions of the API and the command line, "
                                                     "newest first (JSON lines)")
    audit_command.add_argument("--limit", type=_page(audit.AUDIT_PAGE), default=audit.AUDIT_PAGE)
    audit_command.add_argument("--before", type=_page(2**31 - 1), help="only actions with an id below this (the next page)")
    audit_command.add_argument("--action", dest="only_action", help="only this action (ban, delete_chat_message...)")
    chat_command = actions.add_parser("chat", help="list a table's chat with the message ids (JSON lines, oldest "
                                                   "first), to find the line for delete-chat")
    chat_command.add_argument("table_id", type=int)
    chat_command.add_argument("--limit", type=_page(admin.CHAT_PAGE), default=admin.CHAT_PAGE)
    chat_command.add_argument("--before", type=_page(2**31 - 1), help="only messages with an id below this")
    users = actions.add_parser("users", help="list accounts (JSON lines)")
    users.add_argument("--search", help="only names holding this (any case)")
    users.add_argument("--limit", type=int, default=admin.USERS_PAGE)
    users.add_argument("--offset", type=int, default=0)
    actions.add_parser("delete-chat", help="delete one chat message").add_argument("message_id", type=int)
    actions.add_parser("close-table", help="close a table (an open one leaves the lobby, a game stops)") \
        .add_argument("table_id", type=int)
    delete = actions.add_parser("delete-table", help="delete a table with its game, moves and chat")
    delete.add_argument("table_id", type=int)
    delete.add_argument("--yes", action="store_true", help="do not ask for confirmation")


def _page(largest: int) -> Callable[[str], int]:
    """An argparse type: a whole number from 1 to ``largest``."""
    def number(text: str) -> int:
        if not text.isdigit() or not 1 <= int(text) <= largest:
            raise argparse.ArgumentTypeError(f"a whole number from 1 to {largest}")
        return int(text)

    return number


def run(args: argparse.Namespace, settings: Settings) -> None:
    """Carry out ``args.action``; prints the outcome, or exits with the refusal's message (status 1)."""
    if args.action == "delete-table" and not args.yes and \
            input(f"Delete table {args.table_id} with its game, moves and chat for good? [y/N] ").strip().lower() != "y":
        raise SystemExit("nothing deleted")
    system_user = os.environ.get("SUDO_USER") or getpass.getuser()
    actor = Actor(via="cli", name=(args.by or system_user)[:64], source=f"cli:{system_user}")
    try:
        outcome = asyncio.run(_with_database(settings, lambda db, fanout: _act(args, settings, actor, db, fanout)))
    except AppError as refusal:
        raise SystemExit(f"caravanserai admin {args.action}: {refusal.message} ({refusal.code})") from None
    for line in outcome:
        print(line)


async def _with_database(settings: Settings, work: Callable[[AsyncSession, LocalFanout], Awaitable[list[str]]]):
    engine = make_engine(settings.async_database_url, pool_size=2, max_overflow=0)
    fanout = make_fanout(engine, settings.is_sqlite)
    await fanout.start()
    try:
        async with make_session_factory(engine)() as db:
            return await work(db, fanout)
    finally:
        await fanout.stop()  # sends what it was told to the server's processes first
        await engine.dispose()


async def _act(args: argparse.Namespace, settings: Settings, actor: Actor, db: AsyncSession,
               fanout: LocalFanout) -> list[str]:
    action = args.action
    if action == "audit":
        return [_json(entry) for entry in await audit.list_audit(db, args.limit, args.before, args.only_action)]
    if action == "chat":
        return [_json(line) for line in await admin.table_chat(db, args.table_id, args.limit, args.before)]
    if action == "users":
        return [_json(user) for user in await admin.list_users(db, args.search, args.limit, args.offset)]
    if action in ("grant", "revoke"):
        user = await admin.set_admin(db, actor, await admin.find_account(db, args.user), action == "grant")
        return [f"{user['name']} (#{user['id']}) is {'now' if user['admin'] else 'no longer'} an admin"]
    if action == "ban":
        user = await admin.ban(db, fanout, actor, args.user)
        return [f"{user['name']} (#{user['id']}) is banned and logged out everywhere"]
    if action == "unban":
        user = await admin.unban(db, actor, args.user)
        return [f"{user['name']} (#{user['id']}) may log in again"]
    if action == "reset-password":
        reset = await admin.reset_password(db, actor, args.user, settings.site_url, settings.password_reset_hours)
        return [reset["link"], f"(works once, until {reset['expires_at']}; hand it to the account's owner only)"]
    if action == "delete-chat":
        await admin.delete_chat_message(db, fanout, actor, args.message_id)
        return [f"chat message {args.message_id} deleted"]
    # This process has no game cache to keep in step; its lock only satisfies the writers' rule,
    # the server's own processes hear of the change through the fan-out.
    async with TableLocks().hold(args.table_id) as held:
        if action == "close-table":
            await admin.close_table(db, fanout, actor, held)
            return [f"table {args.table_id} closed"]
        await admin.delete_table(db, fanout, actor, held)
    return [f"table {args.table_id} deleted"]


def _json(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False)

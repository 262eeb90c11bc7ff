"""A table's chat: who may read and write it, posting a message, reading the latest ones.

The players seated at a table may always read and write its chat.  Spectators may only when
the table's creator allowed it (``tables.chat_spectators``): then anyone who may watch the
table reads along, and those who are logged in write too.  Private tables follow the same
invite rules as the rest of the API (``check_access``).  A message is stored as accepted
(trimmed, otherwise verbatim): drawing it as text, never as markup, is the client's job.  A person
never receives the lines of the players they blocked (``services/accounts/friends.py``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account, Block, ChatMessage, Table, iso_utc, utcnow
from app.fanout import Marker
from app.services.context import Context
from app.i18n import N_
from app.services.errors import AppError
from app.services.tables.changes import TableInfo, check_access, load_table

MAX_CHARACTERS = 300
"""The longest message, counted after trimming."""

HISTORY = 100
"""How many of the latest messages ``GET .../chat`` returns."""

# Bidirectional embeddings, overrides and isolates would let one message reorder the lines around it.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@dataclass(frozen=True)
class ChatAccess:
    """What one person may do with a table's chat: ``can_read``, ``can_post``, and if they may
    not post, ``reason`` (for people) and ``code`` (the wire error a post would get)."""

    seat: int | None
    can_read: bool
    can_post: bool
    reason: str | None = None
    code: str | None = None


def chat_access(info: TableInfo, account_id: int | None) -> ChatAccess:
    """The chat rights of ``account_id`` (None: not logged in) at a table they may see."""
    seat = info.seat_of(account_id)
    if seat is not None:
        return ChatAccess(seat, can_read=True, can_post=True)
    if not info.table.chat_spectators:
        return ChatAccess(None, can_read=False, can_post=False, code="not_seated",
                          reason=N_("the chat of this table is for its players only"))
    if account_id is None:
        return ChatAccess(None, can_read=True, can_post=False, code="unauthorized",
                          reason=N_("sign in to write in the chat"))
    return ChatAccess(None, can_read=True, can_post=True)


def clean_text(text: str) -> str:
    """The text trimmed; raises ``AppError(bad_request)`` when it is empty, longer than
    ``MAX_CHARACTERS``, or holds control characters (line breaks included) or bidirectional overrides."""
    text = text.strip()
    if len(text) > MAX_CHARACTERS:
        raise AppError("bad_request", "a chat message has at most {MAX_CHARACTERS} characters", MAX_CHARACTERS=MAX_CHARACTERS)
    # Cc: control characters; Zl/Zp: the line and paragraph separators; Cs: lone surrogates; Co/Cn:
    # private-use and unassigned code points (tag characters among them).
    if any(unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp") or char in _BIDI_CONTROLS
           or 0xE0000 <= ord(char) <= 0xE007F for char in text):
        raise AppError("bad_request", "a chat message may not contain control characters or line breaks")
    if not any(not char.isspace() and unicodedata.category(char) != "Cf" for char in text):
        raise AppError("bad_request", "a chat message cannot be empty")  # nothing visible: spaces, zero-width marks
    return text


class ChatLine(BaseModel):
    """One chat message on the wire (docs/api.md, ``chat message``): in ``GET``/``POST
    /api/tables/{id}/chat`` and in the WebSocket ``chat`` frame."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: int
    account_id: int = Field(description="the writer's account")
    seat: int | None = Field(description="the writer's seat; null for a spectator")
    name: str = Field(description="the writer's name as the table showed it then")
    text: str = Field(description="exactly as stored: draw it as text")
    at: str = Field(description="when it was written (ISO 8601 UTC)")


def message_payload(message: ChatMessage) -> dict[str, Any]:
    """The wire form of one message: ``{id, account_id, seat, name, text, at}`` (``account_id``: the
    writer's, ``seat`` null for a spectator, ``at`` ISO 8601 UTC)."""
    return {"id": message.id, "account_id": message.account_id, "seat": message.seat, "name": message.name,
            "text": message.text, "at": iso_utc(message.created_at)}


async def read_chat(session: AsyncSession, table_id: int, account_id: int | None,
                    invite_code: str | None, admin: bool = False) -> tuple[list[dict[str, Any]], ChatAccess]:
    """The latest ``HISTORY`` messages, oldest first, less those of players the caller blocked, and
    the caller's rights.  An ``admin`` reads any table's chat (a private one, one for its players),
    to find what to delete; writing in it needs a seat as for anyone.

    Raises ``AppError``: ``not_found`` (no such table, or a private one without membership or
    invite code), ``not_seated`` (a spectator at a table whose chat is for its players).
    """
    info = await load_table(session, table_id)
    if not admin:
        check_access(info, account_id, invite_code)
    access = chat_access(info, account_id)
    if not access.can_read and not admin:
        raise AppError("not_seated", access.reason or "you may not read this chat")
    query = select(ChatMessage).where(ChatMessage.table_id == table_id)
    if account_id is not None:
        query = query.where(ChatMessage.account_id.not_in(select(Block.blocked_id).where(Block.blocker_id == account_id)))
    latest = list(await session.scalars(query.order_by(ChatMessage.id.desc()).limit(HISTORY)))
    return [message_payload(message) for message in reversed(latest)], access


async def post_chat(session: AsyncSession, account: Account, table_id: int, text: str,
                    invite_code: str | None) -> dict[str, Any]:
    """Store one message of ``account`` and return its wire form (the caller publishes ``Marker.CHAT_POSTED``).

    Raises ``AppError``: ``not_found``, ``not_seated`` (a spectator where the chat is for the
    players), ``bad_request`` (empty, too long, control characters).
    """
    info = await load_table(session, table_id)
    check_access(info, account.id, invite_code)
    access = chat_access(info, account.id)
    if not access.can_post:
        raise AppError(access.code or "not_seated", access.reason or "you may not write in this chat")
    # The name as the table shows it now ("Carol (seat 2)" when two Carols sit there).
    name = info.seats[access.seat].name if access.seat is not None else account.name
    message = ChatMessage(table_id=table_id, account_id=account.id, seat=access.seat, name=name or account.name,
                          text=clean_text(text), created_at=utcnow())
    session.add(message)
    await session.commit()
    return message_payload(message)


async def post_message(ctx: Context, session: AsyncSession, account: Account, table_id: int, text: str,
                       invite_code: str | None) -> dict[str, Any]:
    """:func:`post_chat`, then tell every process (``Marker.CHAT_POSTED``) so the table's sockets get
    the line as a ``chat`` frame; its wire form.  Raises as :func:`post_chat`."""
    message = await post_chat(session, account, table_id, text, invite_code)
    await ctx.fanout.publish(table_id, Marker.CHAT_POSTED)
    return message


async def latest_message_id(session: AsyncSession, table_id: int) -> int:
    """The id of the table's newest message, 0 when there is none."""
    return await session.scalar(select(func.coalesce(func.max(ChatMessage.id), 0))
                                .where(ChatMessage.table_id == table_id)) or 0


async def messages_after(session: AsyncSession, table_id: int, after_id: int) -> tuple[bool, list[dict[str, Any]]]:
    """Whether spectators may read the table's chat, and its messages with an id above
    ``after_id`` (at most ``HISTORY``, oldest first)."""
    spectators = bool(await session.scalar(select(Table.chat_spectators).where(Table.id == table_id)))
    newer = await session.scalars(
        select(ChatMessage).where(ChatMessage.table_id == table_id, ChatMessage.id > after_id)
        .order_by(ChatMessage.id).limit(HISTORY))
    return spectators, [message_payload(message) for message in newer]

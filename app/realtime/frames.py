"""The WebSocket frames as a closed set of types (ARCHITECTURE.md, "The public interface").

Client frames are parsed once at the edge into these models; no handler touches a raw dict.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


MAX_VERSION = 2**31 - 1


class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(_Frame):
    """Subscribe: the server answers with ``state`` holding the log entries after ``since``."""

    type: Literal["hello"]
    since: int = Field(default=0, ge=0, le=MAX_VERSION)


class MoveFrame(_Frame):
    """A move at ``version``; ``id`` (the client move id) makes retries idempotent."""

    type: Literal["move"]
    id: str = Field(min_length=1, max_length=64, pattern=r"^[\x21-\x7e]+$")
    version: int = Field(ge=0, le=MAX_VERSION)
    move: dict[str, Any]


class UndoFrame(_Frame):
    """Take back one's last move, the game being at ``version`` (issue 20); ``id`` as for a move."""

    type: Literal["undo"]
    id: str = Field(min_length=1, max_length=64, pattern=r"^[\x21-\x7e]+$")
    version: int = Field(ge=0, le=MAX_VERSION)


class Ping(_Frame):
    """Keep-alive; answered by ``pong``."""

    type: Literal["ping"]


ClientFrame = Annotated[Hello | MoveFrame | UndoFrame | Ping, Field(discriminator="type")]
client_frame_adapter: TypeAdapter[Hello | MoveFrame | UndoFrame | Ping] = TypeAdapter(ClientFrame)


def ack(move_id: str, version: int) -> dict[str, Any]:
    """``{"type": "ack", "id", "version"}``: the sender's move is committed at ``version``."""
    return {"type": "ack", "id": move_id, "version": version}


def error(code: str, message: str, move_id: str | None = None) -> dict[str, Any]:
    """``{"type": "error", "id", "code", "message"}``: to the sender only."""
    return {"type": "error", "id": move_id, "code": code, "message": message}


def presence(online: list[int]) -> dict[str, Any]:
    """``{"type": "presence", "online": [seats]}``: which seats have the game open (sent on changes)."""
    return {"type": "presence", "online": online}


def chat(message: dict[str, Any]) -> dict[str, Any]:
    """``{"type": "chat", "message": {id, seat, name, text, at}}``: a new line of the table's chat."""
    return {"type": "chat", "message": message}


def chat_removed() -> dict[str, Any]:
    """``{"type": "chat_removed"}``: an admin deleted a message of this table's chat; read it again."""
    return {"type": "chat_removed"}


def rematch(table_id: int) -> dict[str, Any]:
    """``{"type": "rematch", "table_id"}``: this finished game's rematch has started at table ``table_id``."""
    return {"type": "rematch", "table_id": table_id}


def pong() -> dict[str, Any]:
    """The answer to ``ping``."""
    return {"type": "pong"}

"""The WebSocket frames as two closed sets of types (docs/architecture.md, "The public interface";
docs/api.md gives every shape).

Client frames are parsed once at the edge into :data:`ClientFrame`; no handler touches a raw dict.
Server frames are models of :data:`ServerFrame`, a union tagged by ``type``, built where the news
is and written once, at the edge, by :func:`encode` (orjson; the bytes are cached per viewer by
the hub).  Nothing else writes frames, so a frame the union does not name cannot go out.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from app.rulesets.wire import move_json_default
from app.services.tables.chat import ChatLine
from app.services.games.legal_forms import LegalForm
from app.services.games.views import GameState, PlayerOut


MAX_VERSION = 2**31 - 1


class _Frame(BaseModel):
    # strict: "5", true or 5.0 for a version is a bad_request, not a quiet conversion
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Hello(_Frame):
    """Subscribe: the server answers with ``state`` holding the log entries after ``since``.

    ``legal_form`` says how this socket's ``state`` frames write ``legal`` from now on (until the
    next ``hello``): ``"moves"``, the list of moves, or ``"grouped"`` (``app/services/games/legal_forms.py``).
    """

    type: Literal["hello"]
    since: int = Field(default=0, ge=0, le=MAX_VERSION)
    legal_form: LegalForm = "moves"


class MoveFrame(_Frame):
    """A move at ``version``; ``id`` (the client move id) makes retries idempotent."""

    type: Literal["move"]
    id: str = Field(min_length=1, max_length=64, pattern=r"^[\x21-\x7e]+$")
    version: int = Field(ge=0, le=MAX_VERSION)
    move: dict[str, Any]


class UndoFrame(_Frame):
    """Take back one's last move, the game being at ``version``; ``id`` as for a move."""

    type: Literal["undo"]
    id: str = Field(min_length=1, max_length=64, pattern=r"^[\x21-\x7e]+$")
    version: int = Field(ge=0, le=MAX_VERSION)


class Ping(_Frame):
    """Keep-alive; answered by ``pong``."""

    type: Literal["ping"]


ClientFrame = Annotated[Hello | MoveFrame | UndoFrame | Ping, Field(discriminator="type")]
client_frame_adapter: TypeAdapter[Hello | MoveFrame | UndoFrame | Ping] = TypeAdapter(ClientFrame)


class _ServerFrame(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class StateFrame(_ServerFrame):
    """The game for one viewer, with the log entries after the ``hello``'s ``since`` or after the last
    frame; after every committed change, and at the same version when the seats change."""

    type: Literal["state"] = "state"
    version: int
    seat: int | None
    status: str
    view: dict[str, Any]
    legal: list[Any]
    to_act: list[int]
    undo: bool
    log: list[dict[str, Any]]
    result: dict[str, Any] | None
    players: list[PlayerOut]
    online: list[int] = Field(description="the seats that have the game open on this server process")


class PresenceFrame(_ServerFrame):
    """Which seats have the game open and how many people watch it without a seat (on this server
    process), sent when either changes."""

    type: Literal["presence"] = "presence"
    online: list[int]
    spectators: int = 0


class ChatFrame(_ServerFrame):
    """A new line of the table's chat."""

    type: Literal["chat"] = "chat"
    message: ChatLine


class ChatRemovedFrame(_ServerFrame):
    """An admin deleted a message of this table's chat: read the chat again (``GET .../chat``)."""

    type: Literal["chat_removed"] = "chat_removed"


class RematchFrame(_ServerFrame):
    """This finished game's rematch has started at table ``table_id`` (once per socket)."""

    type: Literal["rematch"] = "rematch"
    table_id: int


class AckFrame(_ServerFrame):
    """The sender's move ``id`` is committed; the game is at ``version``."""

    type: Literal["ack"] = "ack"
    id: str
    version: int


class ErrorFrame(_ServerFrame):
    """A refusal, to the sender only: of the move ``id``, or (``id`` null) of the socket or a frame."""

    type: Literal["error"] = "error"
    id: str | None
    code: str
    message: str


class PongFrame(_ServerFrame):
    """The answer to ``ping``."""

    type: Literal["pong"] = "pong"


ServerFrameModel = (StateFrame | PresenceFrame | ChatFrame | ChatRemovedFrame | RematchFrame | AckFrame | ErrorFrame
                    | PongFrame)
ServerFrame = Annotated[ServerFrameModel, Field(discriminator="type")]
server_frame_adapter: TypeAdapter[ServerFrameModel] = TypeAdapter(ServerFrame)
"""Parses a server frame (tests, scripts): the union is closed, an unknown ``type`` is refused."""


def exact(data: bytes) -> bytes:
    """``data`` in a ``bytes`` object of its own length.

    ``orjson.dumps`` returns its growing buffer as the ``bytes`` object and does not shrink it: a
    7 KB ``state`` frame of the benchmark board held about 250 KiB of the heap (measured with
    tracemalloc on orjson 3.13; ``sys.getsizeof`` shows only the text).  The hub keeps encoded
    frames while sockets take them (one per seat and version, the greeting of each socket, the
    outbox), so with 1,000 open sockets that was about 250 MiB of heap, about 260 KiB per socket
    (``bench/socket_memory.py``); mostly never touched, but the freed holes fragment the heap and
    the RSS grew with them during play.  One copy of the text (about 1 us for 9 KB) frees the
    buffer at once.
    """
    return bytes(memoryview(data))


def encode(frame: ServerFrameModel) -> bytes:
    """The JSON text of ``frame``, as docs/api.md gives it: its fields in order, nested models (a
    player, a chat line, move models in ``legal``) in their wire form (its own size: :func:`exact`).

    Raises ``TypeError`` for anything not in :data:`ServerFrame`.
    """
    if not isinstance(frame, _ServerFrame):
        raise TypeError(f"{type(frame).__name__} is not a server frame")
    return exact(orjson.dumps(frame.__dict__, default=move_json_default))


def encode_state(game: GameState, online: list[int]) -> bytes:
    """``encode(state(game, online))``, the same bytes, without building the frame model in between
    (the hub writes one per seat and version, and keeps it while sockets take it: :func:`exact`)."""
    return exact(orjson.dumps({"type": "state", **game.__dict__, "online": online}, default=move_json_default))


def state(game: GameState, online: list[int]) -> StateFrame:
    """The ``state`` frame of ``game`` (already validated: its fields are taken as they are)."""
    return StateFrame.model_construct(**game.__dict__, online=online)


def ack(move_id: str, version: int) -> AckFrame:
    """``{"type": "ack", "id", "version"}``: the sender's move is committed at ``version``."""
    return AckFrame(id=move_id, version=version)


def error(code: str, message: str, move_id: str | None = None) -> ErrorFrame:
    """``{"type": "error", "id", "code", "message"}``: to the sender only."""
    return ErrorFrame(id=move_id, code=code, message=message)


def presence(online: list[int], spectators: int = 0) -> PresenceFrame:
    """``{"type": "presence", "online": [seats], "spectators": n}``: which seats have the game open,
    and how many people (signed-in accounts, or guests' sockets) watch it from no seat (sent on changes)."""
    return PresenceFrame(online=online, spectators=spectators)


def chat(message: dict[str, Any]) -> ChatFrame:
    """``{"type": "chat", "message": {id, account_id, seat, name, text, at}}``: a new line of the table's chat."""
    return ChatFrame(message=message)


def chat_removed() -> ChatRemovedFrame:
    """``{"type": "chat_removed"}``: an admin deleted a message of this table's chat; read it again."""
    return ChatRemovedFrame()


def rematch(table_id: int) -> RematchFrame:
    """``{"type": "rematch", "table_id"}``: this finished game's rematch has started at table ``table_id``."""
    return RematchFrame(table_id=table_id)


def pong() -> PongFrame:
    """The answer to ``ping``."""
    return PongFrame()

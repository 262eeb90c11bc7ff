"""The server's WebSocket frames are one closed union (``app/realtime/frames.py``) that covers every
frame docs/api.md lists, each written in the documented shape."""

import json
import re
import typing
from pathlib import Path

import orjson
import pytest
from pydantic import ValidationError

from app.realtime import frames
from app.services.games.views import GameState, PlayerOut

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def documented_server_frames() -> dict[str, list[str]]:
    """``{type: [top-level keys in order]}`` of the "Server frames:" list in docs/api.md."""
    text = API_DOC.read_text(encoding="utf-8")
    section = text[text.index("Server frames:"):]
    section = section[:section.index("\n\n")]
    found = {}
    for shape in re.findall(r"^- `(\{.*?\})`", section, flags=re.MULTILINE):
        keys = re.findall(r'"(\w+)":', shape)
        found[re.match(r'\{"type":"(\w+)"', shape).group(1)] = keys
    return found


def union_types() -> dict[str, type]:
    return {model.model_fields["type"].default: model for model in typing.get_args(frames.ServerFrameModel)}


def sample_frames() -> list:
    player = PlayerOut(seat=1, name="Bo", bot=True, takeover="away", deadline=None,
                       away_since="2026-12-01T10:00:00+00:00", away_deadline=None)
    game = GameState(version=4, seat=0, status="running", view={"board": [[1, 2]], "you": 0},
                     legal=[{"type": "add", "amount": 1}, {"type": "add", "amount": 2}], to_act=[0], undo=False,
                     log=[{"version": 4, "text": "Bo adds 2."}], result=None, players=[player])
    return [
        frames.state(game, [0]),
        frames.presence([0, 2], 3),
        frames.chat({"id": 7, "account_id": 3, "seat": None, "name": "Cy", "text": "<b>hi</b>", "at": "2026-12-01T10:00:00+00:00"}),
        frames.chat_removed(),
        frames.rematch(12),
        frames.ack("a1b2", 5),
        frames.error("stale_version", "the game moved on", "a1b2"),
        frames.pong(),
    ]


def test_the_union_is_exactly_the_documented_frames():
    documented = documented_server_frames()
    assert set(documented) == {"state", "presence", "chat", "chat_removed", "rematch", "ack", "error", "pong"}
    assert set(union_types()) == set(documented)
    assert {type(frame) for frame in sample_frames()} == set(union_types().values())


@pytest.mark.parametrize("frame", sample_frames(), ids=lambda frame: frame.type)
def test_each_frame_is_written_in_its_documented_shape(frame):
    written = frames.encode(frame)
    parsed = json.loads(written)
    assert list(parsed) == documented_server_frames()[frame.type]  # the keys, in the documented order
    assert frames.server_frame_adapter.validate_json(written) == frame  # and it reads back as the same frame


def test_frames_write_the_exact_json():
    state, presence, chat, chat_removed, rematch, ack, error, pong = (frames.encode(frame) for frame in sample_frames())
    assert state == (b'{"type":"state","version":4,"seat":0,"status":"running","view":{"board":[[1,2]],"you":0},'
                     b'"legal":[{"type":"add","amount":1},{"type":"add","amount":2}],"to_act":[0],"undo":false,'
                     b'"log":[{"version":4,"text":"Bo adds 2."}],"result":null,'
                     b'"players":[{"seat":1,"name":"Bo","bot":true,"takeover":"away","deadline":null,'
                     b'"away_since":"2026-12-01T10:00:00+00:00","away_deadline":null}],"online":[0]}')
    assert presence == b'{"type":"presence","online":[0,2],"spectators":3}'
    assert chat == (b'{"type":"chat","message":{"id":7,"account_id":3,"seat":null,"name":"Cy","text":"<b>hi</b>",'
                    b'"at":"2026-12-01T10:00:00+00:00"}}')
    assert chat_removed == b'{"type":"chat_removed"}'
    assert rematch == b'{"type":"rematch","table_id":12}'
    assert ack == b'{"type":"ack","id":"a1b2","version":5}'
    assert error == b'{"type":"error","id":"a1b2","code":"stale_version","message":"the game moved on"}'
    assert pong == b'{"type":"pong"}'
    assert frames.encode(frames.error("not_found", "no table 9")) == (
        b'{"type":"error","id":null,"code":"not_found","message":"no table 9"}')


def test_the_chat_frame_message_has_the_documented_fields():
    section = API_DOC.read_text(encoding="utf-8")
    nested = re.search(r'`\{"type":"chat","message":\{([^}]*)\}\}`', section).group(1)
    assert [name.strip() for name in nested.split(",")] == list(frames.ChatLine.model_fields)


def test_the_union_is_closed():
    with pytest.raises(ValidationError):
        frames.server_frame_adapter.validate_json(b'{"type":"news","text":"hi"}')
    with pytest.raises(ValidationError):
        frames.server_frame_adapter.validate_json(b'{"type":"ack","id":"x","version":1,"extra":true}')
    with pytest.raises(TypeError):
        frames.encode({"type": "pong"})


def test_move_models_in_legal_are_written_in_wire_form():
    from app.rulesets.base import MoveModel
    from typing import Literal

    class Add(MoveModel):
        type: Literal["add"] = "add"
        amount: int

    game = GameState(version=0, seat=0, status="running", view={}, legal=[Add(amount=3)], to_act=[0], undo=False, log=[],
                     result=None, players=[])
    assert orjson.loads(frames.encode(frames.state(game, [])))["legal"] == [{"type": "add", "amount": 3}]


def test_hello_takes_a_legal_form_and_refuses_an_unknown_one():
    assert frames.client_frame_adapter.validate_json(b'{"type":"hello"}').legal_form == "moves"
    assert frames.client_frame_adapter.validate_json(b'{"type":"hello","since":3,"legal_form":"grouped"}').legal_form == "grouped"
    for bad in (b'"bogus"', b'"Grouped"', b'null', b'1'):
        with pytest.raises(ValidationError):
            frames.client_frame_adapter.validate_json(b'{"type":"hello","legal_form":' + bad + b'}')


def test_the_hubs_state_bytes_are_the_state_frames_bytes():
    """``frames.encode_state`` (the hub's road, no frame model in between) writes what ``encode`` of
    the ``state`` frame writes, field for field and in the same order."""
    from app.rulesets.base import MoveModel
    from typing import Literal

    class Add(MoveModel):
        type: Literal["add"] = "add"
        amount: int

    player = PlayerOut(seat=1, name="Bo", bot=False, takeover=None, deadline="2026-12-01T10:00:00+00:00",
                       away_since=None, away_deadline=None)
    game = GameState(version=3, seat=1, status="running", view={"cells": [None, 0]}, legal=[Add(amount=2)],
                     to_act=[1], undo=True, log=[{"version": 3, "text": "Ana adds 1."}], result=None, players=[player])
    written = frames.encode_state(game, [0, 1])
    assert written == frames.encode(frames.state(game, [0, 1]))
    assert list(orjson.loads(written)) == list(frames.StateFrame.model_fields)


def test_encoded_frames_hold_no_more_memory_than_their_text():
    """A ``state`` frame the hub keeps (one per seat and version, while its sockets take it) holds
    about its own length of memory, not the serializer's grown buffer: ``orjson.dumps`` of this
    7 KB frame keeps about 250 KiB (orjson 3.13), which was about 250 KiB per open socket."""
    import tracemalloc

    game = GameState(version=7, seat=0, status="running", view={"cells": [None, 0, 1] * 333, "moves": 7},
                     legal=[{"type": "place", "count": 1000, "keys": ["cell"], "same": {},
                             "columns": {"cell": list(range(1000))}}],
                     to_act=[0], undo=False, log=[], result=None, players=[])
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = [frames.encode_state(game, [0, 1]) for _ in range(20)]
        held = (tracemalloc.get_traced_memory()[0] - before) / len(kept)
    finally:
        tracemalloc.stop()
    assert 6_000 < len(kept[0]) < 12_000
    assert held < 1.2 * len(kept[0]) + 1024, f"each frame holds {held:.0f} bytes for {len(kept[0])} bytes of text"
    assert kept[0] == orjson.dumps({"type": "state", **game.__dict__, "online": [0, 1]})

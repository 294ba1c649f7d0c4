"""The sans-I/O core of herna-tiles/1: framing, parsing, phases, limits, errors as values."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from herna.core.errors import ProtocolError
from herna.protocols import tiles as proto


def phase_of(conn: proto.ServerConnection) -> str:
    return conn.phase


def events(conn: proto.ServerConnection, data: bytes) -> list[object]:
    return list(conn.receive_data(data))


def test_messages_split_across_reads_and_joined_in_one() -> None:
    conn = proto.ServerConnection()
    assert events(conn, b'{"type": "pi') == []
    assert events(conn, b'ng", "id": 1}\n{"type": "list"}\r\n\n') == [
        proto.Ping(1),
        proto.ListTables(),
    ]


def test_join_variants() -> None:
    conn = proto.ServerConnection()
    rules = {"turn_structure": ["move"]}
    line = (
        json.dumps(
            {"type": "join", "name": "Zoë", "rules": rules, "kind": "bot", "id": "j1"}
        ).encode()
        + b"\n"
    )
    assert events(conn, line) == [proto.Join("Zoë", rules, None, "bot", "j1")]
    assert events(proto.ServerConnection(), b'{"type":"join","name":"a","table":"t3"}\n') == [
        proto.Join("a", None, "t3")
    ]
    czech = b'{"type":"join","name":"a","rules":"tsuro","lang":"cs"}\n'
    assert events(proto.ServerConnection(), czech) == [proto.Join("a", "tsuro", lang="cs")]


def error_of(line: bytes, conn: proto.ServerConnection | None = None) -> ProtocolError:
    (event,) = (conn or proto.ServerConnection()).receive_data(line + b"\n")
    assert isinstance(event, ProtocolError), event
    return event


def test_malformed_messages_are_errors_with_codes() -> None:
    cases = {
        b"hello": "BAD_JSON",
        b"[1, 2]": "BAD_MESSAGE",
        b'{"id": 1}': "BAD_MESSAGE",
        b'{"type": "dance"}': "UNKNOWN_TYPE",
        b'{"type": "join", "name": "no spaces please", "rules": "x"}': "BAD_NAME",
        b'{"type": "join", "name": "' + b"a" * 40 + b'", "rules": "x"}': "BAD_NAME",
        b'{"type": "join", "name": "ann"}': "BAD_MESSAGE",
        b'{"type": "join", "name": "ann", "rules": 5}': "BAD_MESSAGE",
        b'{"type": "join", "name": "ann", "rules": "x", "kind": "robot"}': "BAD_MESSAGE",
        b'{"type": "join", "name": "ann", "rules": "x", "lang": "xx"}': "BAD_MESSAGE",
        b'{"type": "act", "action": "push"}': "BAD_MESSAGE",
        b'{"type": "ping", "id": [1]}': "BAD_MESSAGE",
        b"\xff\xfe": "BAD_UTF8",
        b"[" * 100 + b"]" * 100: "BAD_MESSAGE",
    }
    for line, code in cases.items():
        assert error_of(line).code == code, line


def test_errors_echo_the_request_id() -> None:
    error = error_of(b'{"type": "act", "id": 9}')
    assert getattr(error, "request_id", None) == 9
    conn = proto.ServerConnection()
    reply = json.loads(conn.error(error.code, error.reason, 9))
    assert reply == {"type": "error", "code": "BAD_MESSAGE", "reason": error.reason, "id": 9}


def test_phases() -> None:
    conn = proto.ServerConnection()
    assert error_of(b'{"type": "act", "action": {}}', conn).code == "WRONG_PHASE"
    assert error_of(b'{"type": "start"}', conn).code == "WRONG_PHASE"
    assert error_of(b'{"type": "leave"}', conn).code == "WRONG_PHASE"
    conn.send({"type": "joined", "table": "t1"})
    assert phase_of(conn) == "seated"
    assert error_of(b'{"type": "join", "name": "a", "rules": "x"}', conn).code == "WRONG_PHASE"
    assert events(conn, b'{"type": "start"}\n') == [proto.Start()]
    conn.send({"type": "started"})
    assert phase_of(conn) == "playing"
    assert events(conn, b'{"type": "act", "action": {"type": "push"}}\n') == [
        proto.Act({"type": "push"})
    ]
    conn.send({"type": "game_over"})
    assert phase_of(conn) == "lobby"


def test_oversized_lines_are_fatal_and_the_buffer_stays_bounded() -> None:
    conn = proto.ServerConnection(limit=100)
    (event,) = conn.receive_data(b"x" * 150)
    assert isinstance(event, ProtocolError) and event.fatal and event.code == "TOO_LARGE"
    assert conn.framer.buffered == 0
    # The rest of that line is skipped; the next line is read normally.
    assert events(conn, b"yyy\n" + b'{"type": "ping"}\n') == [proto.Ping()]


def test_too_many_bad_messages_in_a_row_is_fatal() -> None:
    conn = proto.ServerConnection()
    results = conn.receive_data(b"nope\n" * proto.MAX_BAD_MESSAGES)
    assert all(isinstance(r, ProtocolError) for r in results)
    assert [r.fatal for r in results if isinstance(r, ProtocolError)][-1] is True
    assert not any(r.fatal for r in results[:-1] if isinstance(r, ProtocolError))


def test_websocket_frames_use_the_same_messages() -> None:
    conn = proto.ServerConnection()
    assert conn.receive_message('{"type": "ping", "id": "x"}') == proto.Ping("x")
    assert proto.encode_message({"type": "pong"}) == '{"type":"pong"}'


def test_client_side() -> None:
    client = proto.ClientConnection()
    assert json.loads(client.join("ann", "tsuro")) == {
        "type": "join",
        "name": "ann",
        "kind": "human",
        "rules": "tsuro",
    }
    assert json.loads(client.act({"type": "move"})) == {"type": "act", "action": {"type": "move"}}
    got = client.receive_data(b'{"type": "welcome"}\n{"type": "bogus"}\nnot json\n')
    assert got[0] == {"type": "welcome"}
    assert isinstance(got[1], ProtocolError) and got[1].code == "UNKNOWN_TYPE"
    assert isinstance(got[2], ProtocolError) and got[2].code == "BAD_JSON"


@settings(deadline=None, max_examples=200)
@given(st.lists(st.binary(max_size=80), max_size=8))
def test_any_bytes_give_messages_or_errors(chunks: list[bytes]) -> None:
    conn = proto.ServerConnection(limit=64)
    for chunk in chunks:
        for event in conn.receive_data(chunk):
            assert isinstance(
                event,
                ProtocolError
                | proto.Join
                | proto.Start
                | proto.Act
                | proto.GetState
                | proto.ListTables
                | proto.Leave
                | proto.Ping,
            )
        assert conn.framer.buffered <= 64 + 80

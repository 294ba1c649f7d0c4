from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herna.games.onitama.cards import BLACK, WHITE
from herna.games.onitama.state import Move, Pass, Stalemate
from herna.protocols import onitama as proto
from herna.protocols.onitama import (
    MAX_LINE,
    AfterGameRequest,
    ClaimWin,
    ClientGame,
    Close,
    GameRequest,
    Garbage,
    LineBuffer,
    Login,
    MakeMove,
    Phase,
    Reply,
    ServerConnection,
    StalemateRequest,
    fmt,
    parse_client,
    parse_server,
)
from tests.onitama.helpers import BLOCKED_BOARD


# -- framing ---------------------------------------------------------------------------------
def test_lines_split_across_chunks_and_crlf() -> None:
    buf = LineBuffer()
    assert buf.feed(b"LOG") == []
    assert buf.feed(b"IN|eva\r\nMAKE_MOVE|Ox") == [b"LOGIN|eva"]
    assert buf.feed(b"|c1|c2\n\n") == [b"MAKE_MOVE|Ox|c1|c2", b""]
    assert buf.pending == 0


def test_a_long_line_is_reported_once_and_skipped() -> None:
    buf = LineBuffer(max_line=16)
    out = buf.feed(b"x" * 10)
    assert out == []
    out = buf.feed(b"y" * 10)
    assert out == [Garbage(proto.LINE_TOO_LONG)]
    assert buf.pending == 0
    assert buf.feed(b"z" * 100) == []  # still the same line: skipped silently
    assert buf.feed(b"zz\nLOGIN|eva\n") == [b"LOGIN|eva"]
    # a too long line inside one chunk
    assert buf.feed(b"a" * 17 + b"\nok\n") == [Garbage(proto.LINE_TOO_LONG), b"ok"]


def test_a_client_that_never_sends_a_newline_is_bounded() -> None:
    buf = LineBuffer()
    reports = []
    for _ in range(2000):  # 2 MB without a newline
        reports += buf.feed(b"q" * 1000)
        assert buf.pending <= MAX_LINE
    assert reports == [Garbage(proto.LINE_TOO_LONG)]


# -- parsing client lines ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (b"LOGIN|eva", Login("eva")),
        (b"login | eva ", Login("eva")),
        (b"LOGIN|", Login("", proto.INVALID_NAME)),
        (b"LOGIN|a b", Login("a b", proto.INVALID_NAME)),
        (b"LOGIN|" + b"x" * 33, Login("x" * 33, proto.INVALID_NAME)),
        ("LOGIN|Žofie".encode(), Login("Žofie")),
        (b"MAKE_MOVE|Tiger|c1|c3", MakeMove("Tiger", "c1", "c3")),
        (b"MAKE_MOVE | tiger | C1 | c3", MakeMove("tiger", "C1", "c3")),
        (b"STALEMATE|Eel", StalemateRequest("Eel")),
        (b"MAKE_MOVE|Tiger|c1", Garbage(proto.WRONG_FIELD_COUNT, "MAKE_MOVE|Tiger|c1")),
        (b"MAKE_MOVE|Tiger|c1|c3|c5", Garbage(proto.WRONG_FIELD_COUNT, "MAKE_MOVE|Tiger|c1|c3|c5")),
        (b"LOGIN|a|b", Login("a", None, "b")),
        (b"LOGIN|a|", Login("a", None, "")),
        (b"LOGIN|a|b|c", Login("a", None, "b", "c")),
        (b"LOGIN|a|b|c|d", Garbage(proto.WRONG_FIELD_COUNT, "LOGIN|a|b|c|d")),
        (b"STALEMATE", Garbage(proto.WRONG_FIELD_COUNT, "STALEMATE")),
        (b"HELLO", Garbage(proto.UNKNOWN_COMMAND, "HELLO")),
        (b"\xff\xfe\x00junk", Garbage(proto.NOT_UTF8)),
        (b"\x00\x01\x02", Garbage(proto.UNKNOWN_COMMAND, "???")),
        (b"   ", None),
    ],
)
def test_parse_client(line: bytes, expected: object) -> None:
    assert parse_client(line) == expected


def test_name_rules() -> None:
    assert proto.name_problem("eva_2.k-9") is None
    for bad in ("", "a|b", "a,b", "tab\t", "x" * 33, "new\nline", "émoji🙂"):
        assert proto.name_problem(bad) == proto.INVALID_NAME
    assert proto.name_key("Eva") == proto.name_key("EVA")


# -- the connection state machine ----------------------------------------------------------------
def errors(outputs: list[proto.Output]) -> list[bytes]:
    return [o.data for o in outputs if isinstance(o, Reply)]


def test_phases() -> None:
    conn = ServerConnection()
    assert errors(conn.receive(b"MAKE_MOVE|Ox|c1|c2\n")) == [b"ERROR|NOT_LOGGED_IN\n"]
    assert errors(conn.receive(b"STALEMATE|Ox\n")) == [b"ERROR|NOT_LOGGED_IN\n"]
    assert conn.receive(b"LOGIN|eva\n") == [Login("eva")]
    conn.logged_in("eva")
    assert conn.phase is Phase.LOBBY
    assert errors(conn.receive(b"LOGIN|eva\n")) == [b"ERROR|ALREADY_LOGGED_IN\n"]
    assert errors(conn.receive(b"MAKE_MOVE|Ox|c1|c2\n")) == [b"ERROR|NOT_IN_GAME\n"]
    conn.game_started()
    assert conn.receive(b"MAKE_MOVE|Ox|c1|c2\nSTALEMATE|Ox\n") == [
        MakeMove("Ox", "c1", "c2"),
        StalemateRequest("Ox"),
    ]
    conn.game_ended()
    assert conn.phase is Phase.LOBBY
    assert conn.errors == 4 and conn.errors_in_a_row == 0


def test_error_budget_closes_the_connection() -> None:
    conn = ServerConnection(max_errors=3)
    out = conn.receive(b"a\nb\n")
    assert errors(out) == [b"ERROR|UNKNOWN_COMMAND\n"] * 2
    assert conn.receive(b"LOGIN|eva\n") == [Login("eva")]  # resets the count
    out = conn.receive(b"a\nb\nc\nd\n")
    assert errors(out) == [b"ERROR|UNKNOWN_COMMAND\n"] * 3 + [b"ERROR|TOO_MANY_ERRORS\n"]
    assert out[-1] == Close(proto.TOO_MANY_ERRORS)
    assert conn.phase is Phase.CLOSED
    assert conn.receive(b"LOGIN|eva\n") == []


@settings(deadline=None, max_examples=300)
@given(st.lists(st.binary(max_size=300), max_size=12), st.sampled_from(list(Phase)[:3]))
def test_fuzz_any_bytes_give_typed_outputs_and_never_raise(
    chunks: list[bytes], phase: Phase
) -> None:
    conn = ServerConnection(max_line=64)
    conn.phase = phase
    for chunk in chunks:
        for out in conn.receive(chunk):
            # The Herna extensions (resign, draw, rematch, claim) are typed outputs too.
            extensions = GameRequest | AfterGameRequest | ClaimWin
            assert isinstance(out, Login | MakeMove | StalemateRequest | Reply | Close | extensions)
            if isinstance(out, Reply) and conn.out is proto.SEED:
                assert out.data.startswith(b"ERROR|") and out.data.endswith(b"\n")
                assert out.data.count(b"\n") == 1
            elif isinstance(out, Reply):
                assert out.data.startswith((b"FAILED|", b"PING|PING\0"))
                assert out.data.endswith(b"\0") and out.data.count(b"\0") == 1
                assert len(out.data.split(b"|")) == 2
        assert conn.pending <= 64


lines = st.one_of(
    st.sampled_from(
        [
            b"LOGIN|eva",
            b"MAKE_MOVE|Ox|c1|c2",
            b"STALEMATE|Eel",
            b"junk",
            b"",
            b"MAKE_MOVE|x",
            b"\xff\xfe",
        ]
    ),
    st.binary(max_size=40).filter(lambda b: b"\n" not in b),
)


@settings(deadline=None, max_examples=200)
@given(st.lists(lines, max_size=10), st.lists(st.integers(1, 30), max_size=20))
def test_fuzz_chunking_does_not_change_the_result(msgs: list[bytes], cuts: list[int]) -> None:
    stream = b"".join(m + b"\n" for m in msgs)
    whole = ServerConnection(max_line=32)
    whole.game_started()
    expected = whole.receive(stream)
    pieces = ServerConnection(max_line=32)
    pieces.game_started()
    got: list[proto.Output] = []
    pos = 0
    for cut in cuts:
        got += pieces.receive(stream[pos : pos + cut])
        pos += cut
    got += pieces.receive(stream[pos:])
    assert got == expected


@settings(deadline=None, max_examples=200)
@given(st.text(max_size=200))
def test_fuzz_parse_server_never_raises(text: str) -> None:
    msg = parse_server(text)
    assert msg is not None


# -- server messages -----------------------------------------------------------------------------
def test_server_messages_round_trip() -> None:
    cards = ("Ox", "Boar", "Horse", "Elephant", "Crab")
    cases = [
        (fmt.login_ok("eva"), proto.LoginOk("eva")),
        (fmt.login_failed(proto.NAME_IN_USE), proto.LoginFailed("NAME_IN_USE")),
        (
            fmt.login_failed(proto.NAME_IN_USE, "'eva' | is in"),
            proto.LoginFailed("NAME_IN_USE", "'eva' / is in"),
        ),
        (fmt.start("eva", "ota", cards), proto.Start("eva", "ota", cards)),
        (fmt.start("eva", "ota", cards, "k3y"), proto.Start("eva", "ota", cards, "k3y")),
        (b"START|eva|ota\n", proto.Start("eva", "ota", None)),
        (fmt.move_was_made("Tiger", "c1", "c3"), proto.MoveWasMade("Tiger", "c1", "c3")),
        (fmt.invalid_move(), proto.InvalidMove()),
        (fmt.stalemate_card("Tiger", "Eel"), proto.StalemateCard("Tiger", "Eel")),
        (fmt.stalemate_card("Tiger", "Eel", "Ox"), proto.StalemateCard("Tiger", "Eel", "Ox")),
        (fmt.logout("ota"), proto.Logout("ota")),
        (
            fmt.reconnect("eva", "white", "bbBbb...............wwWww", cards, "black"),
            proto.Reconnect("eva", "white", "bbBbb...............wwWww", cards, "black"),
        ),
        (fmt.game_over("eva", proto.WAY_OF_THE_STONE), proto.GameOver("eva", "way_of_the_stone")),
        (b"GAME_OVER|eva\n", proto.GameOver("eva")),
        (fmt.error(proto.LINE_TOO_LONG), proto.Error("LINE_TOO_LONG")),
    ]
    for line, msg in cases:
        assert line.endswith(b"\n") and line.count(b"\n") == 1
        assert parse_server(line) == msg
    assert fmt.invalid_move() == b"INVALID_MOVE\n"
    assert fmt.reconnect("eva", "white", "b" * 25, cards, "white") == (
        b"RECONNECT|eva|white|bbbbbbbbbbbbbbbbbbbbbbbbb|Ox,Boar,Horse,Elephant,Crab|white\n"
    )
    assert isinstance(parse_server("MOVE_WAS_MADE|Tiger"), Garbage)
    assert isinstance(parse_server("WHAT"), Garbage)


def test_action_lines() -> None:
    assert proto.action_line(Move("Tiger", 2, 12)) == b"MAKE_MOVE|Tiger|c1|c3\n"
    assert proto.action_line(Stalemate("Eel")) == b"STALEMATE|Eel\n"
    assert proto.action_line(Pass("Eel")) == b"STALEMATE|Eel\n"
    assert proto.login_line("eva") == b"LOGIN|eva\n"
    assert proto.login_line("eva", "t0ken") == b"LOGIN|eva|t0ken\n"


# -- following a game ---------------------------------------------------------------------------
def test_client_game_follows_moves_stalemates_and_reconnects() -> None:
    game = ClientGame()
    game.feed(proto.LoginOk("ota"))
    game.feed(proto.Start("eva", "ota", ("ox", "Boar", "Horse", "Elephant", "Crab")))
    assert game.color == BLACK and game.in_game and not game.my_turn()
    assert game.opponent() == "eva"
    game.feed(proto.MoveWasMade("Ox", "c1", "c2"))
    assert game.my_turn()
    assert game.state is not None and game.state.spare == "Ox"
    with pytest.raises(ValueError):
        game.feed(proto.MoveWasMade("Ox", "c1", "c2"))  # not legal for Black
    game.feed(proto.Logout("eva"))
    assert game.opponent_away
    cards = ("Tiger", "Horse", "Ox", "Crab", "Eel")
    game.feed(proto.Reconnect("eva", "white", BLOCKED_BOARD, cards, "white"))
    assert not game.opponent_away and game.color == BLACK and not game.my_turn()
    game.feed(proto.StalemateCard("Tiger", "Dragon", "Eel"))
    assert game.state is not None and game.state.hand(WHITE) == ("Dragon", "Horse")
    assert game.state.spare == "Eel" and game.my_turn()
    game.feed(proto.GameOver("ota", "opponent_left"))
    assert not game.in_game and not game.my_turn() and game.over is not None


def test_client_game_follows_the_official_pass() -> None:
    """At a table with a NUL-dialect client the server plays the official pass; the line
    dialect's STALEMATE_CARD then names the old spare as the new card and the given-up card
    as the spare, and a line client must follow that."""
    game = ClientGame("ota")
    game.feed(proto.Start("eva", "ota", ("Tiger", "Horse", "Ox", "Crab", "Eel"), "k"))
    cards = ("Tiger", "Horse", "Ox", "Crab", "Eel")
    game.feed(proto.Reconnect("eva", "white", BLOCKED_BOARD, cards, "white"))
    game.feed(proto.StalemateCard("Tiger", "Eel", "Tiger"))
    assert game.state is not None and game.state.hand(WHITE) == ("Eel", "Horse")
    assert game.state.spare == "Tiger" and game.state.rule == "pass" and game.my_turn()
    with pytest.raises(ValueError):
        game.feed(proto.StalemateCard("Ox", "Tiger", "Crab"))  # not what a pass gives


move_payloads = st.one_of(
    st.sampled_from(
        [
            b"Ox|c1|c2",
            b" tiger | C1 |c3 \r",
            b"Ox|c1|c2|",
            b"Ox|c1",
            b"Ox|c1|c2\r\r",
            b"\xff|c1|c2",
            "Ó|č1|c2".encode(),
            b"Ox|c1|" + b"x" * 40,
        ]
    ),
    st.binary(max_size=50).filter(lambda b: b"\n" not in b),
    st.text(max_size=30).map(lambda t: t.replace("\n", "").encode()),
)


@settings(deadline=None, max_examples=300)
@given(move_payloads, st.booleans())
def test_one_move_per_read_is_read_as_the_general_way_reads_it(
    payload: bytes, skipping: bool
) -> None:
    """A read of exactly one ``MAKE_MOVE`` line in a game takes a shortcut; whatever the line
    holds, the answer is the one the general record-by-record way gives (also while the rest
    of a too-long line is being skipped)."""
    data = b"MAKE_MOVE|" + payload + b"\n"
    fast, general = ServerConnection(max_line=48), ServerConnection(max_line=48)
    for conn in (fast, general):
        assert conn.receive(b"LOGIN|eva\n") == [Login("eva")]
        conn.logged_in("eva")
        conn.game_started()
        conn.errors_in_a_row = 3
        if skipping:
            assert errors(conn.receive(b"x" * 60)) == [b"ERROR|LINE_TOO_LONG\n"]
    records = general._records
    assert records is not None
    assert fast.receive(data) == general._handle(records.feed(data))
    assert fast.errors_in_a_row == general.errors_in_a_row
    assert fast.pending == general.pending

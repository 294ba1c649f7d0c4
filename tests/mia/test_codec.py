from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from herna.protocols.mia import (
    MAX_DATAGRAM,
    Garbage,
    Register,
    Score,
    TokenCommand,
    UnknownServerMessage,
    Unregister,
    fmt,
    name_problem,
    parse_client,
    parse_server,
)


def test_name_rules() -> None:
    assert name_problem("alice") is None
    assert name_problem("x" * 20) is None
    assert name_problem("Žluťoučký_kůň") is None
    for bad in ["", "x" * 21, "a b", "a\tb", "a:b", "a;b", "a,b", "a\u00a0b", "a\x00b"]:
        assert name_problem(bad) == "INVALID_NAME", bad


def test_register_variants() -> None:
    assert parse_client(b"REGISTER;alice") == Register("alice", False)
    assert parse_client(b"REGISTER_SPECTATOR;bob\n") == Register("bob", True)
    assert parse_client(b"REGISTER").problem == "INVALID_NAME"  # type: ignore[union-attr]
    assert parse_client(b"REGISTER;").problem == "INVALID_NAME"  # type: ignore[union-attr]
    # Fields after the name are ignored as the reference servers ignore them; the first of
    # them carries a reserved name's token.
    assert parse_client(b"REGISTER;ab;cd") == Register("ab", False, token="cd")
    assert parse_client(b"REGISTER;ab;cd;ef") == Register("ab", False, token="cd")
    assert parse_client(b"REGISTER;ab;") == Register("ab", False)
    assert parse_client(b"REGISTER_SPECTATOR;ab;t") == Register("ab", True, token="t")
    assert parse_client(b"REGISTER;a b;t").problem == "INVALID_NAME"  # type: ignore[union-attr]
    assert parse_client(b"UNREGISTER") == Unregister()


def test_token_commands_and_garbage() -> None:
    assert parse_client(b"JOIN;t1") == TokenCommand("JOIN", (), "t1")
    assert parse_client(b"ANNOUNCE;7,1;t1") == TokenCommand("ANNOUNCE", ("7,1",), "t1")
    assert parse_client(b"DANCE;t1") == TokenCommand("DANCE", (), "t1")
    assert parse_client(b"ROLL") == Garbage("MISSING_TOKEN", "ROLL")
    assert parse_client(b"HELLO") == Garbage("UNKNOWN_COMMAND", "HELLO")
    assert parse_client(b"\xff\xfe") == Garbage("NOT_UTF8")
    assert parse_client(b"x" * (MAX_DATAGRAM + 1)) == Garbage("OVERSIZED")
    assert parse_client(b"  \n") == Garbage("EMPTY")


def test_server_messages_round_trip() -> None:
    samples = [
        fmt.registered(),
        fmt.rejected("INVALID_NAME"),
        fmt.unregistered(),
        fmt.heartbeat(),
        fmt.round_starting("t"),
        fmt.round_started(7, ["a", "b"]),
        fmt.round_canceled("NO_PLAYERS"),
        fmt.your_turn("t"),
        fmt.player_rolls("a"),
        fmt.rolled("3,1", "t"),
        fmt.announced("a", "6,6"),
        fmt.player_wants_to_see("b"),
        fmt.actual_dice("2,1"),
        fmt.player_lost(["a", "b"], "MIA"),
        fmt.score({"a": 3}),
    ]
    for data in samples:
        assert not isinstance(parse_server(data.decode()), UnknownServerMessage), data
    assert parse_server("SCORE;") == Score({})
    assert isinstance(parse_server("ROUND STARTED;x;a"), UnknownServerMessage)


@settings(max_examples=2000, deadline=None)
@given(st.binary(max_size=2 * MAX_DATAGRAM))
def test_fuzz_client_codec_never_raises(data: bytes) -> None:
    msg = parse_client(data)
    assert isinstance(msg, Register | Unregister | TokenCommand | Garbage)


@settings(max_examples=1000, deadline=None)
@given(st.text(max_size=300))
def test_fuzz_server_parser_never_raises(text: str) -> None:
    parse_server(text)


names = st.text(
    st.characters(blacklist_categories=("Zs", "Cc", "Cs", "Zl", "Zp"), blacklist_characters=";:,"),
    min_size=1,
    max_size=20,
)


@given(names, st.text(alphabet="0123456789abcdef", min_size=1, max_size=16))
def test_fuzz_round_trip_of_valid_messages(name: str, token: str) -> None:
    if name_problem(name) is None:
        assert parse_client(f"REGISTER;{name}".encode()) == Register(name, False)
    assert parse_client(f"ANNOUNCE;4,2;{token}".encode()) == TokenCommand(
        "ANNOUNCE", ("4,2",), token
    )
    assert parse_server(fmt.score({name: 3}).decode()) == Score({name: 3})

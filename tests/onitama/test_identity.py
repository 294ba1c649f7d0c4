"""Who may use a name and take a seat back on the Onitama server (line dialect, real sockets).

A dropped player's seat opens only for the seat secret from its START or the name's token;
reserved names need their token; house bots' names are reserved and the bots log in with
their tokens.
"""

from __future__ import annotations

from pathlib import Path

from herna.hall.identity import ReservedNames
from tests.onitama.wire import fixed_start, running


async def test_a_stranger_cannot_take_a_dropped_seat(tmp_path: Path) -> None:
    async with running(tmp_path, initial_state=fixed_start) as server:
        white, black, fields = await server.pair()
        black_name = fields[2]
        await black.close()
        assert await white.line() == f"LOGOUT|{black_name}"
        stranger = await server.wire()
        # the name alone: refused, in the protocol's own failure message
        answer = await stranger.login(black_name)
        assert answer.startswith("LOGIN_FAILED|NAME_IN_USE|")
        assert "seat secret" in answer
        assert (await stranger.login(black_name.upper())).startswith("LOGIN_FAILED|NAME_IN_USE|")
        # a wrong proof, and the opponent's own secret, do not open it either
        for proof in ("guess", white.secret):
            await stranger.send(f"LOGIN|{black_name}|{proof}")
            assert (await stranger.line()).startswith("LOGIN_FAILED|BAD_TOKEN|")
        assert await white.quiet()  # the game heard nothing of it
        assert server.service.hub.stats.reconnects == 0
        # the stranger can still log in under a name of their own
        assert await stranger.login("cleo") == "LOGIN_OK|cleo"
        # the seat's own secret takes it back
        back = await server.wire()
        await back.send(f"LOGIN|{black_name}|{black.secret}")
        assert await back.line() == f"LOGIN_OK|{black_name}"
        assert (await back.line()).startswith(f"RECONNECT|{black_name}|black|")
        assert (await white.line()).startswith(f"RECONNECT|{black_name}|black|")


async def test_the_seat_secret_takes_over_a_connection_that_is_still_open(
    tmp_path: Path,
) -> None:
    """A client whose old connection is half dead comes back before the server noticed."""
    async with running(tmp_path, initial_state=fixed_start) as server:
        white, black, fields = await server.pair()
        black_name = fields[2]
        again = await server.wire()
        assert (await again.login(black_name)).startswith("LOGIN_FAILED|NAME_IN_USE|")
        await again.send(f"LOGIN|{black_name}|{black.secret}")
        assert await again.line() == f"LOGIN_OK|{black_name}"
        assert (await again.line()).startswith(f"RECONNECT|{black_name}|black|")
        assert await black.line() == "ERROR|SEAT_TAKEN_OVER"
        assert await black.eof()
        assert (await white.line()).startswith(f"RECONNECT|{black_name}|")
        await white.send("MAKE_MOVE|Ox|c1|c2")
        assert await again.line() == "MOVE_WAS_MADE|Ox|c1|c2"


async def test_reserved_names_need_their_token(tmp_path: Path) -> None:
    async with running(tmp_path, initial_state=fixed_start) as server:
        token = ReservedNames(server.hall.records.engine).add("zora")
        wire = await server.wire()
        answer = await wire.login("zora")
        assert answer.startswith("LOGIN_FAILED|RESERVED_NAME|") and "token" in answer
        assert (await wire.login("ZORA")).startswith("LOGIN_FAILED|RESERVED_NAME|")
        await wire.send("LOGIN|zora|not-the-token")
        assert (await wire.line()).startswith("LOGIN_FAILED|BAD_TOKEN|")
        await wire.send(f"LOGIN|zora|{token}")
        assert await wire.line() == "LOGIN_OK|zora"
        # a name nobody reserved works as the seed describes, with or without a third field
        other = await server.wire()
        await other.send("LOGIN|eva|anything")
        assert await other.line() == "LOGIN_OK|eva"
        start = (await wire.line()).split("|")
        assert (await other.line()).split("|")[:4] == start[:4]
        # the token also takes zora's seat back, without the seat secret
        await wire.close()
        zora_is_white = start[1] == "zora"
        assert await other.line() == "LOGOUT|zora"
        back = await server.wire()
        await back.send(f"LOGIN|Zora|{token}")
        assert await back.line() == "LOGIN_OK|zora"
        color = "white" if zora_is_white else "black"
        assert (await back.line()).startswith(f"RECONNECT|zora|{color}|")


async def test_house_bot_names_are_reserved_and_the_bots_present_their_tokens(
    tmp_path: Path,
) -> None:
    async with running(tmp_path, house_bots=2, house_bot_delay=30.0) as server:
        hub = server.service.hub
        snap = server.service.snapshot()
        assert snap["house_bots"] == ["house-1", "house-2"]
        assert len(snap["games"]) == 1  # both logged in with their tokens and play
        assert hub.identity.is_house_bot("house-1") and hub.identity.is_house_bot("house-2")
        wire = await server.wire()
        for name in ("house-1", "HOUSE-2", "house-3"):
            answer = await wire.login(name)
            if name == "house-3":
                assert answer == "LOGIN_OK|house-3"  # not a house bot of this server
            else:
                assert answer.startswith("LOGIN_FAILED|HOUSE_BOT_NAME|"), answer
        assert hub.stats.refused_logins == 2


async def test_look_alike_names_are_the_names_they_look_like(tmp_path: Path) -> None:
    """``Ζora`` (Greek Ζ) is ``Zora``, ``hоuse-1`` (Cyrillic о) is ``house-1``, and ``Еva``
    (Cyrillic Е) is the ``eva`` who is logged in; names stay as their owners spelled them."""
    async with running(tmp_path, house_bots=2, house_bot_delay=30.0) as server:
        token = ReservedNames(server.hall.records.engine).add("Zora")
        server.hall.identity.reload()
        wire = await server.wire()
        for name in ("Ζora", "ZORA", "zora"):
            assert (await wire.login(name)).startswith("LOGIN_FAILED|RESERVED_NAME|"), name
        for name in ("hоuse-1", "HOUSE-2", "hоusе-2"):
            assert (await wire.login(name)).startswith("LOGIN_FAILED|HOUSE_BOT_NAME|"), name
        await wire.send(f"LOGIN|Zora|{token}")
        assert await wire.line() == "LOGIN_OK|Zora"
        eva = await server.wire()
        assert await eva.login("eva") == "LOGIN_OK|eva"
        other = await server.wire()
        for name in ("Еva", "EVA", "еvа"):
            assert (await other.login(name)).startswith("LOGIN_FAILED|NAME_IN_USE|"), name

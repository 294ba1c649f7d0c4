"""The Onitama server asks the hall's lobby who plays whom, over real TCP sockets: seeks,
people only, house bots of a level on demand, fill waits, challenges, accepting a seek, the
move clock with its grace period, and claiming the win from a late or absent person."""

from __future__ import annotations

import asyncio
from pathlib import Path

from herna.games.onitama.bots import make_strategy
from herna.games.onitama.cards import CARDS
from herna.hall.identity import ReservedNames
from herna.protocols.onitama import action_line
from tests.onitama.wire import Server, Wire, real_clock, running

NAMES = {c.name for c in CARDS}


async def person(server: Server, name: str, seek: str) -> tuple[Wire, str]:
    """A client that sends LOGIN's lobby field; its seek id."""
    wire = await server.wire()
    await wire.send(f"LOGIN|{name}|-|{seek}")
    assert await wire.line() == f"LOGIN_OK|{name}"
    line = await wire.line()
    assert line.startswith("SEEK|s"), line
    return wire, line.split("|")[1]


async def start(wire: Wire) -> list[str]:
    line = await wire.line()
    assert line.startswith("START|"), line
    fields = line.split("|")
    wire.secret = fields[4]
    return fields


def seek_ids(server: Server) -> list[str]:
    return [s["owner"] for s in server.hall.lobby.snapshot("onitama")]


async def test_people_only_waits_for_a_person_and_a_bot_is_not_paired(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        eva, _ = await person(server, "eva", "person,opponent=people")
        bot = await server.wire()
        assert await bot.login("tcpbot") == "LOGIN_OK|tcpbot"
        assert await eva.quiet() and await bot.quiet()
        assert seek_ids(server) == ["eva", "tcpbot"]
        ota, _ = await person(server, "ota", "person,fill=30")
        white = await start(eva)
        assert white[:4] == (await start(ota))[:4]
        assert {white[1], white[2]} == {"eva", "ota"}
        assert seek_ids(server) == ["tcpbot"]


async def test_a_persons_open_seek_is_accepted_by_a_tcp_bot_that_logs_in(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        eva, _ = await person(server, "eva", "person,opponent=anyone,fill=30")
        assert seek_ids(server) == ["eva"]
        bot = await server.wire()
        assert await bot.login("tcpbot") == "LOGIN_OK|tcpbot"
        fields = await start(eva)
        assert {fields[1], fields[2]} == {"eva", "tcpbot"}
        assert seek_ids(server) == []


async def test_a_person_accepts_a_waiting_bot_and_a_closed_seek_cannot_be_accepted(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as server:
        eva, eva_seek = await person(server, "eva", "person,opponent=people")
        bot = await server.wire()
        assert await bot.login("tcpbot") == "LOGIN_OK|tcpbot"
        [bot_seek] = [s["id"] for s in server.hall.lobby.snapshot() if s["owner"] == "tcpbot"]
        ota, _ = await person(server, "ota", f"person,accept={bot_seek}")
        fields = await start(ota)
        assert {fields[1], fields[2]} == {"ota", "tcpbot"}
        assert await eva.quiet()  # people only: never offered to the bot
        # accepting a seek that is not open (any more), or one for people as a bot: refused
        late = await server.wire()
        await late.send(f"LOGIN|zed|-|accept={bot_seek}")
        assert (await late.line()).startswith("LOGIN_FAILED|NO_SUCH_SEEK|")
        await late.send(f"LOGIN|zed|-|accept={eva_seek}")
        assert (await late.line()).startswith("LOGIN_FAILED|NOT_FOR_YOU|")
        await late.send("LOGIN|zed|-|opponent=martians")
        assert (await late.line()).startswith("LOGIN_FAILED|BAD_SEEK|")
        assert seek_ids(server) == ["eva"]


async def test_a_challenge_pairs_only_its_target(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        eva, seek = await person(server, "eva", "person,challenge=Bob")
        carl = await server.wire()
        assert await carl.login("carl") == "LOGIN_OK|carl"
        assert await eva.quiet() and await carl.quiet()
        forger = await server.wire()
        await forger.send(f"LOGIN|dave|-|accept={seek}")
        assert (await forger.line()).startswith("LOGIN_FAILED|NOT_FOR_YOU|")
        bob = await server.wire()
        assert await bob.login("bob") == "LOGIN_OK|bob"
        fields = await start(eva)
        assert {fields[1], fields[2]} == {"eva", "bob"}
        assert seek_ids(server) == ["carl"]


async def test_fill_wait_then_a_standing_house_bot_sits_down(tmp_path: Path) -> None:
    async with running(tmp_path, house_bots=1) as server:
        eva, _ = await person(server, "eva", "person,fill=5")
        server.clock.advance(4.9)
        assert await eva.quiet()
        server.clock.advance(0.2)
        fields = await start(eva)
        assert {fields[1], fields[2]} == {"eva", "house-1"}


async def test_a_house_bot_of_the_chosen_level_is_seated_on_demand(tmp_path: Path) -> None:
    async with running(
        tmp_path,
        clock=real_clock(),
        house_bots=1,
        house_bot_strategy="engine",
        house_bot_delay=0.01,
        reconnect_window=0.2,
    ) as server:
        eva, _ = await person(server, "eva", "person,opponent=bots,level=easy")
        fields = await start(eva)
        assert {fields[1], fields[2]} == {"eva", "house-easy-1"}
        [bot] = server.service.summoned
        assert bot.strategy.level == "easy"  # type: ignore[attr-defined]
        # the standing house bot still waits for others
        assert seek_ids(server) == ["house-1"]
        await eva.close()
        for _ in range(200):
            if bot.closed:
                break
            await asyncio.sleep(0.02)
        assert bot.closed  # it came for that one game


async def test_the_move_clock_grace_and_claiming_the_win(tmp_path: Path) -> None:
    async with running(tmp_path, move_clock=10, reconnect_window=20) as server:
        a, _ = await person(server, "ann", "person")
        b, _ = await person(server, "bob", "person")
        fields = await start(a)
        await start(b)
        white, black = (a, b) if fields[1] == "ann" else (b, a)
        white_name = fields[1]
        assert await white.line() == "CLOCK|white|10.0"
        assert await black.line() == "CLOCK|white|10.0"
        await black.send("CLAIM_WIN")
        assert await black.line() == "ERROR|NOTHING_TO_CLAIM"
        server.clock.advance(10)
        assert await white.line() == "OVERTIME|white|20.0"
        assert await black.line() == "OVERTIME|white|20.0"
        server.clock.advance(20)
        assert await black.line() == f"CLAIMABLE|{white_name}|out_of_time"
        assert await white.quiet()
        await black.send("CLAIM_WIN")
        assert await black.line() == f"GAME_OVER|{fields[2]}|out_of_time"
        assert await white.line() == f"GAME_OVER|{fields[2]}|out_of_time"
        store = server.hall.records
        store.flush()
        [match] = store.matches(game="onitama")
        assert match.result["ended"] == "out_of_time" and match.result["claimed"] is True
        assert [p.kind for p in match.players] == ["person", "person"]


async def test_a_person_who_left_can_come_back_until_the_win_is_claimed(tmp_path: Path) -> None:
    async with running(tmp_path, move_clock=0, reconnect_window=20) as server:
        a, _ = await person(server, "ann", "person")
        b, _ = await person(server, "bob", "person")
        fields = await start(a)
        await start(b)
        white, black = (a, b) if fields[1] == "ann" else (b, a)
        white_name, black_name = fields[1], fields[2]
        secret = black.secret
        await black.close()
        assert await white.line() == f"LOGOUT|{black_name}"
        server.clock.advance(20)
        assert await white.line() == f"CLAIMABLE|{black_name}|abandoned"
        # back after the grace but before the claim: the seat is still theirs
        back = await server.wire()
        await back.send(f"LOGIN|{black_name}|{secret}")
        assert await back.line() == f"LOGIN_OK|{black_name}"
        assert (await back.line()).startswith(f"RECONNECT|{black_name}|black|")
        assert (await white.line()).startswith(f"RECONNECT|{black_name}|black|")
        await white.send("CLAIM_WIN")
        assert await white.line() == "ERROR|NOTHING_TO_CLAIM"
        # gone again, and this time the win is claimed
        await back.close()
        assert await white.line() == f"LOGOUT|{black_name}"
        server.clock.advance(20)
        assert await white.line() == f"CLAIMABLE|{black_name}|abandoned"
        await white.send("CLAIM_WIN")
        assert await white.line() == f"GAME_OVER|{white_name}|opponent_left"
        store = server.hall.records
        store.flush()
        [match] = store.matches(game="onitama")
        assert match.result["ended"] == "abandoned" and match.result["claimed"] is True
        assert match.result["reason"] == "forfeit"


async def test_a_bot_opponent_wins_at_once_when_a_persons_grace_is_over(tmp_path: Path) -> None:
    async with running(tmp_path, move_clock=10, reconnect_window=5) as server:
        eva, _ = await person(server, "eva", "person")
        bot = await server.wire()
        assert await bot.login("tcpbot") == "LOGIN_OK|tcpbot"
        fields = await start(eva)
        await start(bot)
        color = "white"
        if fields[1] == "tcpbot":  # the bot moves first (no clock for bots)
            [table] = server.service.hub.tables.values()
            await bot.send(action_line(make_strategy("random").choose(table.state)))
            assert (await bot.line()).startswith("MOVE_WAS_MADE|")
            assert (await eva.line()).startswith("MOVE_WAS_MADE|")
            color = "black"
        assert await eva.line() == f"CLOCK|{color}|10.0"
        server.clock.advance(10)
        assert await eva.line() == f"OVERTIME|{color}|5.0"
        assert await bot.quiet()  # a seed client never sees the extension lines
        server.clock.advance(5)
        assert await eva.line() == "GAME_OVER|tcpbot|out_of_time"
        assert await bot.line() == "GAME_OVER|tcpbot|out_of_time"


async def test_cancelling_a_seek_in_the_lobby_ends_the_connection_that_waits(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as server:
        eva, seek = await person(server, "eva", "person,opponent=people")
        server.hall.lobby.cancel(seek, "EVA")
        assert await eva.line() == "ERROR|SEEK_CANCELLED"
        assert await eva.eof()
        assert seek_ids(server) == [] and server.service.hub.players == {}


async def test_a_token_holder_taking_over_a_waiting_player_keeps_waiting(tmp_path: Path) -> None:
    """The old connection's seek dies with it; the new connection waits with its own and is
    paired."""
    async with running(tmp_path) as server:
        token = ReservedNames(server.hall.records.engine).add("zora")
        old = await server.wire()
        await old.send(f"LOGIN|zora|{token}|opponent=people")
        assert await old.line() == "LOGIN_OK|zora"
        old_seek = (await old.line()).split("|")[1]
        new = await server.wire()
        await new.send(f"LOGIN|zora|{token}|person")
        assert await new.line() == "LOGIN_OK|zora"
        assert (await new.line()).startswith("SEEK|")
        assert await old.line() == "ERROR|SEAT_TAKEN_OVER"
        [seek] = server.hall.lobby.snapshot()
        assert seek["owner"] == "zora" and seek["id"] != old_seek and seek["kind"] == "person"
        other = await server.wire()
        assert await other.login("bob") == "LOGIN_OK|bob"
        fields = await start(new)
        assert {fields[1], fields[2]} == {"zora", "bob"}

"""The NUL dialect of seed 003's own project, as Herna speaks it (real sockets on 127.0.0.1).

Exact records on raw sockets first; then whole games played by :class:`FinalClient`, which
behaves as the published client does, against a house bot, against a line-dialect client at
the same table, through a pass, and across a reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path

import pytest

from herna.clients.onitama import run_bot
from herna.core.rng import SeedSource
from herna.games.onitama.bots import make_strategy
from herna.hall.identity import ReservedNames
from herna.hall.replays import replay_steps
from tests.onitama.final_client import FinalClient, Report
from tests.onitama.helpers import blocked_state
from tests.onitama.wire import TIMEOUT, Server, fixed_start, real_clock, running

PIECES = {"W": "wK", "w": "wP", "B": "bK", "b": "bP", ".": "--"}


class Nul:
    """One raw connection speaking NUL-terminated records."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int, ip: str = "127.0.0.1") -> Nul:
        return cls(*await asyncio.open_connection("127.0.0.1", port, local_addr=(ip, 0)))

    async def send(self, record: str) -> None:
        self.writer.write(record.encode() + b"\0")
        await self.writer.drain()

    async def record(self, timeout: float = TIMEOUT) -> str:
        raw = await asyncio.wait_for(self.reader.readuntil(b"\0"), timeout)
        return raw[:-1].decode()

    async def quiet(self, seconds: float = 0.15) -> bool:
        with contextlib.suppress(TimeoutError):
            raw = await asyncio.wait_for(self.reader.read(1), seconds)
            raise AssertionError(f"unexpected bytes {raw!r}")
        return True

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


def white_first(seed: int, skip: int = 0) -> bool:
    """Whether the first of two players paired on a server with ``--onitama-seed seed`` plays
    White in its first game (``skip``: seeds drawn before it, one per house bot)."""
    source = SeedSource(seed)
    for _ in range(skip):
        source.next_seed()
    return source.next_seed() & 1 == 0


def check_clean(report: Report) -> None:
    """Nothing the published client would count as an error, or lose track over."""
    assert report.wrong_data == []
    assert report.rejected == []
    assert report.illegal_from_server == []
    assert report.lost_after_start == []
    assert report.oversized_reads == 0
    assert not report.broken
    assert report.failed == []


# -- exact records ------------------------------------------------------------------------------
async def test_login_start_moves_and_errors_on_the_wire(tmp_path: Path) -> None:
    async with running(tmp_path, initial_state=fixed_start, start_pause=0.0) as server:
        first, second = await Nul.open(server.port), await Nul.open(server.port)
        await first.send("PING|PING")  # before logging in, as the client's keepalive may
        assert await first.record() == "PING|PING"
        await first.send("LOGIN|eva")
        assert await first.record() == "WAITING|eva"
        await second.send("LOGIN|ota")
        assert await second.record() == "WAITING|ota"
        white_name, black_name = ("eva", "ota") if white_first(1) else ("ota", "eva")
        start = f"START|{black_name}|{white_name}|horse|elephant|crab|ox|boar"
        assert await first.record() == start and await second.record() == start
        white, black = (first, second) if white_name == "eva" else (second, first)
        # Ox takes White's master forward: row 4 (rank 1) to row 3, column 2 (file c)
        await white.send("MAKE_MOVE|ox|4|2|3|2")
        assert await white.record() == "MOVE_WAS_MADE|ox|4|2|3|2"
        assert await black.record() == "MOVE_WAS_MADE|ox|4|2|3|2"
        for bad in ("MAKE_MOVE|ox|0|2|1|2", "MAKE_MOVE|horse|0|2|9|2", "MAKE_MOVE|horse|a|b|c|d"):
            await black.send(bad)
            answer = await black.record()
            assert answer.startswith("INVALID_MOVE|") and len(answer.split("|")) == 2, bad
        await white.send("MAKE_MOVE|horse|0|2|1|2")  # not White's turn
        assert (await white.record()).startswith("INVALID_MOVE|")
        for junk, code in [
            ("HELLO", "UNKNOWN_COMMAND"),
            ("MAKE_MOVE|ox|1", "WRONG_FIELD_COUNT"),
            ("LOGIN|eva", "ALREADY_LOGGED_IN"),
            ("MAKE_PASS|horse", None),  # moves exist: an invalid pass, not an error
        ]:
            await black.send(junk)
            answer = await black.record()
            if code is None:
                assert answer.startswith("INVALID_MOVE|")
            else:
                assert answer.startswith(f"FAILED|{code}: ") and len(answer.split("|")) == 2
        assert await white.quiet()  # the opponent heard none of it
        # Horse takes Black's master forward (towards row 4)
        await black.send("MAKE_MOVE|horse|0|2|1|2")
        assert await white.record() == "MOVE_WAS_MADE|horse|0|2|1|2"
        assert await black.record() == "MOVE_WAS_MADE|horse|0|2|1|2"
        snap = server.service.snapshot()
        assert snap["games"][0]["dialects"] == ["nul", "nul"]


async def test_game_over_then_a_rematch_by_logging_in_again(tmp_path: Path) -> None:
    async with running(tmp_path, initial_state=fixed_start, start_pause=0.0) as server:
        first, second = await Nul.open(server.port), await Nul.open(server.port)
        await first.send("LOGIN|eva")
        await second.send("LOGIN|ota")
        assert await first.record() == "WAITING|eva"
        assert await second.record() == "WAITING|ota"
        await first.record()
        await second.record()
        white, black = (first, second) if white_first(1) else (second, first)
        black_name = "ota" if white is first else "eva"
        white_name = "eva" if white is first else "ota"
        await white.close()  # White leaves; the window runs out
        assert await black.record() == f"DISCONNECT|{white_name}"
        server.clock.advance(61)
        assert await black.record() == f"GAME_OVER|{black_name}"
        assert await black.quiet()  # nothing until it logs in again
        await black.send("MAKE_MOVE|ox|4|2|3|2")
        assert (await black.record()).startswith("FAILED|NOT_IN_GAME: ")
        # the name is free: a new player may take it while this client looks at the board
        await black.send(f"LOGIN|{black_name}")
        assert await black.record() == f"WAITING|{black_name}"
        other = await Nul.open(server.port)
        await other.send("LOGIN|cleo")
        assert await other.record() == "WAITING|cleo"
        assert (await black.record()).startswith("START|")
        assert (await other.record()).startswith("START|")


async def test_after_start_the_published_client_gets_a_moment(tmp_path: Path) -> None:
    """The published client passes only START to the game and drops whatever else came in
    the same read, so nothing follows START within the start pause."""
    async with running(tmp_path, initial_state=fixed_start, start_pause=0.25) as server:
        line = await server.wire()
        nul = await Nul.open(server.port)
        names = ("ann", "nul") if white_first(1) else ("nul", "ann")
        for name in names:
            if name == "ann":
                assert await line.login("ann") == "LOGIN_OK|ann"
            else:
                await nul.send("LOGIN|nul")
                assert await nul.record() == "WAITING|nul"
        assert (await line.line()).startswith("START|ann|nul|")  # ann is White
        assert (await nul.record()) == "START|nul|ann|horse|elephant|crab|ox|boar"
        await line.send("MAKE_MOVE|Ox|c1|c2")
        assert await line.line() == "MOVE_WAS_MADE|Ox|c1|c2"
        assert await nul.quiet()
        server.clock.advance(0.25)
        assert await nul.record() == "MOVE_WAS_MADE|ox|4|2|3|2"


async def test_names_and_tokens_in_the_nul_dialect(tmp_path: Path) -> None:
    async with running(tmp_path, house_bots=1, house_bot_delay=30.0) as server:
        server.service.hub.identity.refresh_seconds = 0  # see the new reservation at once
        token = ReservedNames(server.hall.records.engine).add("zora")
        nul = await Nul.open(server.port)
        for login, code in [
            ("LOGIN|house-1", "HOUSE_BOT_NAME"),
            ("LOGIN|zora", "RESERVED_NAME"),
            ("LOGIN|zora|wrong", "BAD_TOKEN"),
            ("LOGIN|no spaces", "INVALID_NAME"),
        ]:
            await nul.send(login)
            answer = await nul.record()
            assert answer.startswith(f"FAILED|{code}: ") and len(answer.split("|")) == 2
        await nul.send(f"LOGIN|zora|{token}")
        assert await nul.record() == "WAITING|zora"
        assert (await nul.record()).startswith("SEAT_KEY|")
        assert (await nul.record()).startswith("START|")


# -- whole games ---------------------------------------------------------------------------------
async def play_final(server: Server, name: str, games: int, **options: object) -> Report:
    client = await FinalClient.open(server.port, name, **options)
    try:
        return await client.run(games)
    finally:
        await client.close()


def check_records(server: Server, name: str, report: Report) -> None:
    """Each finished game's record ends on the board this client's own model has."""
    store = server.hall.records
    store.flush()
    mine = [
        m
        for m in sorted(store.matches(game="onitama"), key=lambda m: int(m.table_id[1:]))
        if m.status == "finished" and name in {p.name for p in m.players}
    ]
    assert len(mine) >= report.games
    for match, board in zip(mine, report.boards, strict=False):
        full = store.get(match.id)
        assert full is not None
        final = replay_steps(full)[-1]["view"]["board"]
        assert [[PIECES[ch] for ch in final[r * 5 : r * 5 + 5]] for r in range(5)] == board


async def test_whole_games_against_a_house_bot(tmp_path: Path) -> None:
    async with running(
        tmp_path, clock=real_clock(), house_bots=1, house_bot_delay=0.0, house_bot_depth=1
    ) as server:
        report = await play_final(server, "fin", 3, seed=1, ping_time=0.1, max_timeout=2.0)
        check_clean(report)
        assert report.games == 3 and len(report.starts) == 3
        assert report.pings > 0 and report.pongs == report.pings
        check_records(server, "fin", report)


async def test_a_mixed_table_nul_and_line_clients(tmp_path: Path) -> None:
    async with running(tmp_path, clock=real_clock()) as server:
        final, line = await asyncio.gather(
            play_final(server, "fin", 3, seed=2),
            run_bot("127.0.0.1", server.port, "lin", make_strategy("greedy", seed=3), games=3),
        )
        check_clean(final)
        assert final.games == line.games == 3 and line.invalid == 0
        assert all({s[1], s[2]} == {"fin", "lin"} for s in final.starts)
        check_records(server, "fin", final)


async def test_a_blocked_player_passes(tmp_path: Path) -> None:
    """White has no move: the NUL client passes a card to the spare (the official rule, which
    its dialect can express); the line client at the table learns it from STALEMATE_CARD."""
    seed = next(s for s in range(1, 50) if not white_first(s))  # the second to log in is White
    async with running(tmp_path, initial_state=blocked_state, seed=seed, start_pause=0.0) as server:
        line = await server.wire()
        assert await line.login("ann") == "LOGIN_OK|ann"
        nul = await Nul.open(server.port)
        await nul.send("LOGIN|nul")
        assert await nul.record() == "WAITING|nul"
        assert (await line.line()).startswith("START|nul|ann|Tiger,Horse,Ox,Crab,Eel|")
        assert await nul.record() == "START|ann|nul|ox|crab|eel|tiger|horse"
        await nul.send("MAKE_PASS|ox")  # not White's card
        assert (await nul.record()).startswith("INVALID_MOVE|")
        await nul.send("MAKE_PASS|tiger")
        assert await nul.record() == "PASS_WAS_MADE|tiger"
        assert await line.line() == "STALEMATE_CARD|Tiger|Eel|Tiger"
        await line.send("MAKE_MOVE|Ox|e5|e4")  # Black moves next
        assert await nul.record() == "MOVE_WAS_MADE|ox|0|4|1|4"
        server.hall.records.flush()
        hub = server.service.hub
        [table] = hub.tables.values()
        assert table.state.rule == "pass" and table.state.hand(0) == ("Eel", "Horse")

    # The automatic client, with a game that starts blocked: START carries no board, so it
    # drops at once and comes back with its seat key; RECONNECT brings the board, the client
    # finds it has no move, passes, and plays the game to its end.
    seed = next(s for s in range(1, 50) if not white_first(s, skip=1))
    async with running(
        tmp_path / "auto",
        clock=real_clock(),
        initial_state=blocked_state,
        seed=seed,
        house_bots=1,
        house_bot_delay=0.0,
        house_bot_depth=1,
    ) as server:
        first = await FinalClient.open(server.port, "fin", proof="-")
        await first.until_start()
        assert first.report.seat_key is not None and first.me_white
        await first.close()
        report = await play_final(server, "fin", 1, seed=4, proof=first.report.seat_key)
        check_clean(report)
        assert report.games == 1 and report.passes == 1
        assert server.service.hub.stats.reconnects == 1


async def test_reconnect_with_the_seat_key(tmp_path: Path) -> None:
    async with running(tmp_path, initial_state=fixed_start, start_pause=0.0) as server:
        keyed, plain = await Nul.open(server.port), await Nul.open(server.port)
        await keyed.send("LOGIN|kay|-")  # a third field asks for Herna's extensions
        assert await keyed.record() == "WAITING|kay"
        await plain.send("LOGIN|pia")
        assert await plain.record() == "WAITING|pia"
        key_record = await keyed.record()
        assert key_record.startswith("SEAT_KEY|")
        secret = key_record.split("|")[1]
        kay_white = white_first(1)
        start = "START|pia|kay|" if kay_white else "START|kay|pia|"
        assert (await keyed.record()).startswith(start)
        assert (await plain.record()).startswith(start)  # and no SEAT_KEY for it
        white = keyed if kay_white else plain
        await white.send("MAKE_MOVE|ox|4|2|3|2")
        assert await keyed.record() == await plain.record() == "MOVE_WAS_MADE|ox|4|2|3|2"
        await keyed.close()
        assert await plain.record() == "DISCONNECT|kay"
        # the name alone from another host: refused
        stranger = await Nul.open(server.port, "127.0.0.2")
        await stranger.send("LOGIN|kay")
        answer = await stranger.record()
        assert answer.startswith("FAILED|NAME_IN_USE: ") and "seat secret" in answer
        back = await Nul.open(server.port)
        await back.send(f"LOGIN|kay|{secret}")
        fields = (await back.record()).split("|")
        assert fields[:8] == [
            "RECONNECT",
            *start.split("|")[1:3],
            "horse",
            "elephant",
            "ox",
            "crab",
            "boar",
        ]
        assert fields[8:10] == (["1", "0"] if kay_white else ["0", "0"])
        cells = fields[10:]
        assert len(fields) == 35 and cells[:5] == ["bP", "bP", "bK", "bP", "bP"]
        assert cells[17] == "wK" and cells[22] == "--"  # White's master on row 3, column 2
        assert await plain.record() == "RECONNECT|kay"
        black = plain if kay_white else back
        await black.send("MAKE_MOVE|horse|0|2|1|2")
        assert await back.record() == "MOVE_WAS_MADE|horse|0|2|1|2"
        assert server.service.hub.stats.reconnects == 1


async def test_keepalive_pings_are_answered_and_not_counted_as_errors(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The published client sends ``PING|PING`` every 10 s: an answer, not a refusal."""
    caplog.set_level(logging.INFO)
    async with running(tmp_path, initial_state=fixed_start) as server:
        client = await Nul.open(server.port)
        for _ in range(3):
            await client.send("PING|PING")
            assert await client.record() == "PING|PING"
        await client.send("LOGIN|eva")
        assert await client.record() == "WAITING|eva"
        await client.send("PING|PING")
        assert await client.record() == "PING|PING"
        assert server.service.hub.stats.errors == 0
        assert not [r for r in caplog.records if "PING" in r.getMessage()]
        await client.send("MAKE_MOVE|ox|9|9|9|9")  # a real error still counts
        assert (await client.record()).startswith("FAILED|")
        assert server.service.hub.stats.errors == 1
        await client.close()


async def test_the_published_client_returns_by_name_from_the_same_host(tmp_path: Path) -> None:
    """Seed 003's client reconnects with ``LOGIN|name`` alone: Herna gives the seat back when
    the login comes from the host of the dropped connection and the name is not reserved;
    never to another host, never for a reserved name (its token is the proof)."""
    async with running(tmp_path, initial_state=fixed_start, start_pause=0.0) as server:
        token = ReservedNames(server.hall.records.engine).add("rex")
        server.hall.identity.reload()
        for name, proof in (("kay", None), ("rex", token)):
            mine, other = await Nul.open(server.port), await Nul.open(server.port, "127.0.0.3")
            await mine.send(f"LOGIN|{name}" + (f"|{proof}" if proof else ""))
            assert await mine.record() == f"WAITING|{name}"
            await other.send(f"LOGIN|opp-{name}")
            assert await other.record() == f"WAITING|opp-{name}"
            first = await mine.record()
            if first.startswith("SEAT_KEY|"):  # asked for by the third field
                first = await mine.record()
            assert first.startswith("START|")
            assert (await other.record()).startswith("START|")
            await mine.close()
            assert await other.record() == f"DISCONNECT|{name}"
            for ip in ("127.0.0.2", "127.0.0.1"):
                again = await Nul.open(server.port, ip)
                await again.send(f"LOGIN|{name}")
                answer = await again.record()
                if name == "kay" and ip == "127.0.0.1":
                    assert answer.startswith("RECONNECT|"), answer
                    assert await other.record() == "RECONNECT|kay"
                else:
                    assert answer.startswith("FAILED|"), (name, ip, answer)
                await again.close()
        assert server.service.hub.stats.reconnects == 1

"""The Onitama server over real TCP sockets on 127.0.0.1 (ephemeral ports)."""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

from herna.clients.onitama import run_bot
from herna.games.onitama.bots import AlphaBetaBot, make_strategy
from herna.games.onitama.cards import CARD_NAMES
from herna.games.onitama.state import OnitamaState
from herna.hall.events import GameEvent
from herna.hall.replays import replay_steps
from herna.protocols.onitama import MAX_ERRORS, MAX_LINE
from herna.servers.onitama import DEFAULT_PORT, PLUGIN
from herna.servers.registry import load_plugins
from tests.onitama.helpers import blocked_state
from tests.onitama.wire import fixed_start, real_clock, running

CARDS = ("Ox", "Boar", "Horse", "Elephant", "Crab")


def board(**pieces: str) -> str:
    from herna.games.onitama.board import parse_square

    cells = ["."] * 25
    for name, symbol in pieces.items():
        s = parse_square(name)
        cells[(4 - s // 5) * 5 + s % 5] = symbol
    return "".join(cells)


def json_ready(events: list[GameEvent]) -> None:
    for event in events:
        assert json.loads(json.dumps(event.to_json())) == event.to_json()


# -- whole games ---------------------------------------------------------------------------------
async def test_whole_games_between_bots_are_recorded_and_replayable(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        sub = server.hall.bus.subscribe()
        ann, bob = await asyncio.gather(
            run_bot("127.0.0.1", server.port, "ann", make_strategy("random", seed=1), games=4),
            run_bot("127.0.0.1", server.port, "bob", AlphaBetaBot(depth=2), games=4),
        )
        assert ann.games == bob.games == 4
        assert ann.wins + bob.wins == 4 and ann.invalid == bob.invalid == 0
        assert bob.wins >= 3
        events = sub.drain()
        json_ready(events)
        kinds = [e.kind for e in events]
        assert kinds.count("game_started") >= 4 and kinds.count("game_over") >= 4
        for event in events:
            assert event.game == "onitama"
            view = event.data["view"]
            assert len(view["board"]) == 25 and view["players"]["white"] in ("ann", "bob")
        finished = [e for e in events if e.kind == "game_over"][:4]
        store = server.hall.records
        store.flush()
        matches = store.matches(game="onitama")
        assert len([m for m in matches if m.status == "finished"]) >= 4
        by_table = {m.table_id: m for m in matches}
        for over in finished:
            match = store.get(by_table[over.table].id)
            assert match is not None
            winner = [p.name for p in match.players if p.winner]
            assert winner == [over.data["winner"]]
            steps = replay_steps(match)
            assert steps[0]["label"].startswith("cards dealt")
            final = steps[-1]["view"]
            assert final["board"] == over.data["view"]["board"]
            assert final["cards"] == over.data["view"]["cards"]
            assert final["winner"] == over.data["view"]["winner"]
            assert len(steps) == over.data["moves"] + 1
        standings = {s.name: s for s in store.standings("onitama")}
        assert standings["ann"].games + standings["bob"].games >= 8


async def test_events_read_after_the_game_show_the_table_as_it_was_then(tmp_path: Path) -> None:
    # Read only after the game, every move's event shows the position right after that move,
    # the replay's (spectators and the replay agree on what was played).
    async with running(tmp_path) as server:
        sub = server.hall.bus.subscribe()
        await asyncio.gather(
            run_bot("127.0.0.1", server.port, "ann", make_strategy("random", seed=3), games=1),
            run_bot("127.0.0.1", server.port, "bob", make_strategy("random", seed=4), games=1),
        )
        events = sub.drain()
        over = next(e for e in events if e.kind == "game_over")
        mine = [e for e in events if e.table == over.table and e.kind in ("move", "game_over")]
        assert len(mine) > 2
        store = server.hall.records
        store.flush()
        (match,) = [m for m in store.matches(game="onitama") if m.table_id == over.table]
        stored = store.get(match.id)
        assert stored is not None
        steps = replay_steps(stored)
        assert len(steps) == over.data["moves"] + 1
        numbers = [e.data["moves"] for e in mine if e.kind == "move"]
        assert numbers == sorted(set(numbers)) and numbers[-1] == over.data["moves"]
        for event in mine:
            view, i = event.data["view"], event.data["moves"]
            assert view["board"] == steps[i]["view"]["board"]
            assert view["cards"] == steps[i]["view"]["cards"] and view["ply"] == i
        assert over.data["view"]["winner"] == steps[-1]["view"]["winner"]


async def test_start_move_and_cards(tmp_path: Path) -> None:
    async with running(tmp_path, initial_state=fixed_start) as server:
        white, black, fields = await server.pair()
        assert fields[3] == ",".join(CARDS)
        await white.send("MAKE_MOVE|ox|C1|c2")
        assert await white.line() == "MOVE_WAS_MADE|Ox|c1|c2"
        assert await black.line() == "MOVE_WAS_MADE|Ox|c1|c2"
        await black.send("MAKE_MOVE|Horse|c5|c4")
        assert await black.line() == "MOVE_WAS_MADE|Horse|c5|c4"
        assert await white.line() == "MOVE_WAS_MADE|Horse|c5|c4"
        snap = server.service.snapshot()
        assert snap["games"][0]["moves"] == 2 and snap["games"][0]["to_move"] == "white"
        assert snap["endpoints"] == [f"tcp://127.0.0.1:{server.port}"]


# -- bad input -----------------------------------------------------------------------------------
async def test_bad_input_is_answered_while_other_games_go_on(tmp_path: Path) -> None:
    async with running(tmp_path, initial_state=fixed_start) as server:
        white, black, _ = await server.pair()
        stats = server.service.hub.stats
        background = asyncio.gather(
            run_bot("127.0.0.1", server.port, "cy", make_strategy("random", seed=3), games=30),
            run_bot("127.0.0.1", server.port, "di", make_strategy("random", seed=4), games=30),
        )
        while stats.games_started < 2:
            await asyncio.sleep(0.01)
        finished_before = stats.games_finished
        invalid = [
            (black, "MAKE_MOVE|Horse|c5|c4"),  # on the opponent's turn
            (white, "MAKE_MOVE|Ox|c5|c4"),  # moving the opponent's master
            (white, "MAKE_MOVE|Ox|b5|b4"),  # moving an opponent's student
            (white, "MAKE_MOVE|Tiger|c1|c3"),  # a card not in play
            (white, "MAKE_MOVE|Horse|c1|c2"),  # the opponent's card
            (white, "MAKE_MOVE|Unicorn|c1|c2"),  # no such card
            (white, "MAKE_MOVE|Ox|c1|c6"),  # off the board
            (white, "MAKE_MOVE|Ox|z9|c2"),  # off the board
            (white, "MAKE_MOVE|Ox|b1|a1"),  # onto an own pawn (and not on the card)
            (white, "MAKE_MOVE|Ox|c1|c3"),  # not on the card
            (white, "STALEMATE|Ox"),  # moves exist
        ]
        for wire, line in invalid:
            await wire.send(line)
            assert await wire.line() == "INVALID_MOVE", line
        errors = [
            (b"hello there\n", "ERROR|UNKNOWN_COMMAND"),
            (b"\x00\xff\xfe\x80\x81junk\n", "ERROR|NOT_UTF8"),
            (bytes(range(1, 10)) + b"\n", "ERROR|UNKNOWN_COMMAND"),
            (b"MAKE_MOVE|Ox|c1\n", "ERROR|WRONG_FIELD_COUNT"),
            (b"MAKE_MOVE|Ox|c1|c2|c3\n", "ERROR|WRONG_FIELD_COUNT"),
            (b"STALEMATE\n", "ERROR|WRONG_FIELD_COUNT"),
            (b"LOGIN|ann\n", "ERROR|ALREADY_LOGGED_IN"),
            (b"x" * 1_000_000 + b"\n", "ERROR|LINE_TOO_LONG"),
        ]
        for data, answer in errors:
            await white.send(data)
            assert await white.line() == answer, data[:20]
        assert await black.quiet()  # the opponent heard none of it
        # the game is unchanged and goes on
        await white.send("MAKE_MOVE|Ox|c1|c2")
        assert await white.line() == "MOVE_WAS_MADE|Ox|c1|c2"
        assert await black.line() == "MOVE_WAS_MADE|Ox|c1|c2"
        assert stats.games_finished > finished_before  # other games finished meanwhile
        cy, di = await background
        assert cy.games == di.games == 30
        assert cy.invalid == di.invalid == 0


async def test_login_rules(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        ann = await server.wire()
        assert await ann.login("ann") == "LOGIN_OK|ann"
        other = await server.wire()
        in_use = "LOGIN_FAILED|NAME_IN_USE|'ann' is logged in already"
        assert await other.login("ann") == in_use
        assert await other.login("ANN") == in_use
        assert (await other.login("bad name")).startswith("LOGIN_FAILED|INVALID_NAME|")
        assert (await other.login("")).startswith("LOGIN_FAILED|INVALID_NAME|")
        await other.send("MAKE_MOVE|Ox|c1|c2")
        assert await other.line() == "ERROR|NOT_LOGGED_IN"
        await ann.send("MAKE_MOVE|Ox|c1|c2")
        assert await ann.line() == "ERROR|NOT_IN_GAME"  # still in the lobby
        await ann.send("")  # empty lines are ignored
        assert await ann.quiet()
        assert server.service.snapshot()["lobby"] == ["ann"]
        assert await other.login("Žofie") == "LOGIN_OK|Žofie"
        assert (await ann.line()).startswith("START|")


async def test_client_that_never_sends_a_newline(tmp_path: Path) -> None:
    async with running(tmp_path, initial_state=fixed_start) as server:
        hog = await server.wire()
        await hog.send(b"LOGIN|" + b"h" * 100_000)
        assert await hog.line() == "ERROR|LINE_TOO_LONG"
        for _ in range(20):
            await hog.send(b"z" * 50_000)  # 1 MB more, still no newline
        white, black, _ = await server.pair()
        await white.send("MAKE_MOVE|Ox|c1|c2")
        assert await black.line() == "MOVE_WAS_MADE|Ox|c1|c2"
        assert await hog.quiet()
        hub = server.service.hub
        assert all(c.conn.pending <= MAX_LINE for c in hub._clients)
        # once it ends the line it can log in
        await hog.send(b"\nLOGIN|hog\n")
        assert await hog.line() == "LOGIN_OK|hog"


async def test_too_many_errors_closes_the_connection(tmp_path: Path) -> None:
    async with running(tmp_path) as server:
        spammer = await server.wire()
        await spammer.send(b"junk\n" * (MAX_ERRORS + 5))
        lines = [await spammer.line() for _ in range(MAX_ERRORS + 1)]
        assert lines[:-1] == ["ERROR|UNKNOWN_COMMAND"] * MAX_ERRORS
        assert lines[-1] == "ERROR|TOO_MANY_ERRORS"
        assert await spammer.eof()


# -- reconnects ----------------------------------------------------------------------------------
async def test_reconnect_in_the_middle_of_a_game(tmp_path: Path) -> None:
    async with running(tmp_path, initial_state=fixed_start) as server:
        sub = server.hall.bus.subscribe()
        white, black, fields = await server.pair()
        black_name = fields[2]
        await white.send("MAKE_MOVE|Ox|c1|c2")
        await white.line()
        await black.line()
        await black.close()
        assert await white.line() == f"LOGOUT|{black_name}"
        # the seat waits meanwhile; a new connection with its secret is the player coming back
        server.clock.advance(30)
        assert black.secret is not None
        back = await server.take_black_seat_back(
            white, black_name, black.secret, login_as=black_name.upper()
        )
        server.clock.advance(120)  # the window timer was cancelled
        assert await white.quiet() and await back.quiet()
        kinds = [e.kind for e in sub.drain()]
        assert kinds == ["game_started", "move", "logout", "reconnect", "move"]
        assert server.service.hub.stats.reconnects == 1


async def test_reconnect_window_runs_out(tmp_path: Path) -> None:
    async with running(tmp_path, initial_state=fixed_start, reconnect_window=60.0) as server:
        white, black, fields = await server.pair()
        white_name, black_name = fields[1], fields[2]
        await black.close()
        assert await white.line() == f"LOGOUT|{black_name}"
        server.clock.advance(59.9)
        assert await white.quiet()
        # a move is still allowed while the opponent is away
        await white.send("MAKE_MOVE|Ox|c1|c2")
        assert await white.line() == "MOVE_WAS_MADE|Ox|c1|c2"
        server.clock.advance(0.2)
        assert await white.line() == f"GAME_OVER|{white_name}|opponent_left"
        # the name is free again, and the winner is back in the lobby
        again = await server.wire()
        assert await again.login(black_name) == f"LOGIN_OK|{black_name}"
        assert (await again.line()).startswith("START|")
        assert (await white.line()).startswith("START|")
        store = server.hall.records
        store.flush()
        [match] = [m for m in store.matches(game="onitama") if m.status == "finished"]
        full = store.get(match.id)
        assert full is not None
        assert [p.name for p in full.players if p.winner] == [white_name]
        assert full.result["reason"] == "forfeit"
        steps = replay_steps(full)
        assert steps[-1]["view"]["winner"] == "white"
        assert "did not come back" in steps[-1]["label"]


async def test_both_players_gone_aborts_the_game(tmp_path: Path) -> None:
    async with running(tmp_path, initial_state=fixed_start, reconnect_window=10.0) as server:
        white, black, _ = await server.pair()
        await white.close()
        await black.close()
        await server.settle()
        server.clock.advance(11)
        store = server.hall.records
        store.flush()
        [match] = store.matches(game="onitama")
        assert match.status == "aborted" and not any(p.winner for p in match.players)
        assert server.service.snapshot()["players"] == 0


# -- the rules over the wire ---------------------------------------------------------------------
async def test_way_of_the_stone_then_back_to_the_lobby(tmp_path: Path) -> None:
    def won_soon() -> OnitamaState:
        return OnitamaState.setup(
            ["Tiger", "Boar"], ["Horse", "Elephant"], "Crab", board=board(c3="W", c5="B", a1="w")
        )

    async with running(tmp_path, initial_state=won_soon) as server:
        white, black, fields = await server.pair()
        await white.send("MAKE_MOVE|Tiger|c3|c5")
        for wire in (white, black):
            assert await wire.line() == "MOVE_WAS_MADE|Tiger|c3|c5"
            assert await wire.line() == f"GAME_OVER|{fields[1]}|way_of_the_stone"
        # both go back to the lobby and are paired again
        assert (await white.line()).startswith("START|")
        assert (await black.line()).startswith("START|")
        server.hall.records.flush()
        match = server.hall.records.matches(game="onitama")[0]
        assert match.meta["start"].startswith(won_soon().board)
        assert [p.name for p in match.players if p.winner] == [fields[1]]


async def test_way_of_the_stream(tmp_path: Path) -> None:
    def stream() -> OnitamaState:
        return OnitamaState.setup(
            ["Elephant", "Boar"], ["Horse", "Rooster"], "Crab", board=board(d4="W", e5="B", a1="w")
        )

    async with running(tmp_path, initial_state=stream, requeue=False) as server:
        white, black, fields = await server.pair()
        await white.send("MAKE_MOVE|Elephant|d4|c5")
        for wire in (white, black):
            assert await wire.line() == "MOVE_WAS_MADE|Elephant|d4|c5"
            assert await wire.line() == f"GAME_OVER|{fields[1]}|way_of_the_stream"
            assert await wire.eof()  # one game per connection with requeue off


async def test_stalemate_swap(tmp_path: Path) -> None:
    async with running(tmp_path, initial_state=blocked_state) as server:
        sub = server.hall.bus.subscribe()
        white, black, fields = await server.pair()
        assert fields[3] == "Tiger,Horse,Ox,Crab,Eel"
        for wire, line in [
            (white, "MAKE_MOVE|Tiger|a1|a3"),  # own pawn there
            (white, "STALEMATE|Ox"),  # not White's card
            (black, "STALEMATE|Ox"),  # not Black's turn
            (white, "STALEMATE|Unicorn"),
        ]:
            await wire.send(line)
            assert await wire.line() == "INVALID_MOVE"
        await white.send("STALEMATE|tiger")
        line = await white.line()
        assert await black.line() == line
        cmd, old, new, spare = line.split("|")
        assert (cmd, old, spare) == ("STALEMATE_CARD", "Tiger", "Eel")
        assert new in CARD_NAMES and new not in ("Tiger", "Horse", "Ox", "Crab", "Eel")
        # the turn passed to Black
        await black.send("MAKE_MOVE|Ox|e5|e4")
        assert await black.line() == "MOVE_WAS_MADE|Ox|e5|e4"
        event = next(e for e in sub.drain() if e.kind == "stalemate_card")
        assert event.data["old"] == "Tiger" and event.data["new"] == new
        assert event.data["view"]["cards"]["white"] == [new, "Horse"]
        assert event.data["view"]["cards"]["spare"] == "Eel"


# -- house bots and the plugin -------------------------------------------------------------------
async def test_a_lone_person_plays_a_house_bot(tmp_path: Path) -> None:
    async with running(
        tmp_path, clock=real_clock(), house_bots=1, house_bot_delay=0.0, house_bot_depth=1
    ) as server:
        assert server.service.snapshot()["lobby"] == ["house-1"]
        result = await run_bot(
            "127.0.0.1", server.port, "carl", make_strategy("greedy", seed=5), games=2
        )
        assert result.games == 2 and result.invalid == 0
        store = server.hall.records
        store.flush()
        matches = store.matches(game="onitama")
        assert len([m for m in matches if m.status == "finished"]) == 2
        kinds = {p.name: p.kind for m in matches for p in m.players}
        assert kinds["house-1"] == "house-bot"


async def test_plugin_options_and_snapshot(tmp_path: Path) -> None:
    from herna.hall.hall import Hall
    from herna.hall.records import RecordStore

    assert any(p.name == "onitama" for p in load_plugins())
    parser = argparse.ArgumentParser()
    PLUGIN.add_arguments(parser.add_argument_group("onitama"))
    args = parser.parse_args(["--onitama-port", "0", "--onitama-reconnect-window", "5"])
    args.host = "127.0.0.1"
    args.no_house_bots = False
    store = RecordStore(f"sqlite:///{tmp_path / 'p.db'}")
    hall = Hall(records=store)
    config = {"house_bots": 2, "house_bot_delay": 30, "house_bot_depth": 2}
    service = await PLUGIN.start(hall, args, config)
    try:
        assert service.game == "onitama" and service.doc == "docs/protocols/onitama.md"
        assert service.endpoints()[0].startswith("tcp://127.0.0.1:")
        snap = service.snapshot()
        assert snap["house_bots"] == ["house-1", "house-2"]
        assert len(snap["games"]) == 1 and snap["lobby"] == []
        assert snap["games"][0]["kinds"] == ["house-bot", "house-bot"]
        assert json.loads(json.dumps(snap)) == snap
        hub = service.hub  # type: ignore[attr-defined]
        assert hub.settings.reconnect_window == 5.0
        assert hub.settings.house_bot_depth == 2 and hub.settings.house_bot_delay == 30
    finally:
        await service.stop()
    args.no_house_bots = True
    service = await PLUGIN.start(hall, args, {"house_bots": 2})
    try:
        assert service.snapshot()["house_bots"] == []
    finally:
        await service.stop()
        store.close()
    assert DEFAULT_PORT == 7100

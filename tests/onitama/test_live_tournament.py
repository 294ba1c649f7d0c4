"""Live tournaments on a running Onitama server: entrants come over TCP with the lobby's seek
``tournament=ID`` under their reserved names, the director books their games on the server
and scores them from its events (real sockets, a real SQLite file)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from herna.clients.onitama import PlayResult, run_bot
from herna.games.onitama.bots import make_strategy
from herna.hall.events import EventBus
from herna.hall.hall import Hall
from herna.hall.identity import ReservedNames
from herna.hall.lobby import Lobby
from herna.hall.records import RecordStore
from herna.hall.tournament_live import LiveOptions, LiveTournaments, TournamentError
from herna.hall.tournament_store import TournamentStore
from herna.servers.onitama import OnitamaService
from tests.live_tournaments import entered, finished, onitama_entrant
from tests.onitama.wire import Server, real_clock, running
from tests.serve import serving


def _director(server: Server) -> LiveTournaments:
    return server.hall.hold_tournaments()


def _reserve(server: Server, *names: str) -> dict[str, str]:
    book = ReservedNames(server.hall.records.engine)
    tokens = {name: book.add(name) for name in names}
    server.hall.identity.reload()
    return tokens


async def test_a_round_robin_of_bots_that_came_over_tcp_is_played_on_the_server(
    tmp_path: Path,
) -> None:
    async with running(tmp_path, clock=real_clock(), start_pause=0.0) as server:
        director = _director(server)
        names = ("ada", "ben", "cyd")
        tokens = _reserve(server, *names)
        tid, admin = director.create(LiveOptions("club night", "onitama", "round-robin"))
        assert director.authorised(tid, admin) and not director.authorised(tid, "guess")
        bots = [
            asyncio.create_task(
                run_bot(
                    "127.0.0.1",
                    server.port,
                    name,
                    make_strategy("greedy", seed=i),
                    token=tokens[name],
                    seek=f"tournament={tid}",
                    reconnect=False,
                )
            )
            for i, name in enumerate(names)
        ]
        # A casual player in the same lobby is never paired with a tournament entrant.
        eve = await server.wire()
        assert await eve.login("eve") == "LOGIN_OK|eve"
        await entered(director, tid, 3)
        store = TournamentStore(server.hall.records.engine)
        tour = store.get(tid)
        assert tour is not None and tour.status == "entry"
        assert [e.name for e in tour.entrants] == list(names)
        director.begin(tid)
        with pytest.raises(TournamentError):
            director.begin(tid)  # once
        await finished(store, tid)
        results: list[PlayResult] = await asyncio.wait_for(asyncio.gather(*bots), 10)
        assert await eve.quiet(0.3)
        server.hall.records.flush()
        tour = store.get(tid)
        assert tour is not None and tour.status == "finished"
        # Three entrants: three rounds with a bye each; every pair met once.
        games = [g for g in tour.games if not g.board.bye]
        assert len(games) == 3 and len([g for g in tour.games if g.board.bye]) == 3
        assert {frozenset(g.seats) for g in games} == {
            frozenset(p) for p in (("ada", "ben"), ("ada", "cyd"), ("ben", "cyd"))
        }
        rows = tour.standings()
        assert sum((r.points for r in rows), Fraction(0)) == 3  # one point a game
        assert sum(r.games for r in rows) == 6
        # Each game is the server's own record, tagged with its board, and replayable.
        for g in games:
            assert g.forfeit is None and g.match_id is not None
            match = server.hall.records.get(g.match_id)
            assert match is not None
            assert match.meta["tournament"].startswith(f"{tid}/")
            assert tuple(p.name for p in sorted(match.players, key=lambda p: p.seat)) == g.seats
        assert sum(r.games for r in results) == 6  # the bots saw every game, then left
        assert sum(r.wins for r in results) == 3


async def test_only_proven_names_enter_and_only_entrants_play(tmp_path: Path) -> None:
    async with running(tmp_path, clock=real_clock(), start_pause=0.0) as server:
        director = _director(server)
        tokens = _reserve(server, "ada", "ben", "late")
        tid, _ = director.create(LiveOptions("t", "onitama", "swiss", start_timeout=1.0))
        # An unreserved name proves nothing: it could be anybody's.
        stranger = await server.wire()
        await stranger.send(f"LOGIN|zed|-|tournament={tid}")
        assert (await stranger.line()).startswith("LOGIN_FAILED|NOT_VERIFIED|")
        # A reserved name without its token is refused as always.
        await stranger.send(f"LOGIN|ada|-|tournament={tid}")
        assert (await stranger.line()).startswith("LOGIN_FAILED|RESERVED_NAME|")
        await stranger.send("LOGIN|zed|-|tournament=999")
        assert (await stranger.line()).startswith("LOGIN_FAILED|NOT_VERIFIED|")
        wires = {}
        for name in ("ada", "ben"):
            wire = await server.wire()
            await wire.send(f"LOGIN|{name}|{tokens[name]}|tournament={tid}")
            assert await wire.line() == f"LOGIN_OK|{name}"
            assert (await wire.line()).startswith("SEEK|")
            wires[name] = wire
        nowhere = await server.wire()
        await nowhere.send(f"LOGIN|late|{tokens['late']}|tournament=999")
        assert (await nowhere.line()).startswith("LOGIN_FAILED|NO_SUCH_TOURNAMENT|")
        director.begin(tid)
        # Entry is closed once it runs: a newcomer is refused, even with its token.
        late = await server.wire()
        await late.send(f"LOGIN|late|{tokens['late']}|tournament={tid}")
        assert (await late.line()).startswith("LOGIN_FAILED|NOT_ENTERED|")
        # ada and ben are paired by the tournament: a START each.
        starts = [(await wires[n].line()).split("|") for n in ("ada", "ben")]
        assert starts[0][0] == starts[1][0] == "START" and starts[0][1:3] == starts[1][1:3]
        # Another tournament, aborted while it takes entrants: those waiting are told.
        other, _ = director.create(LiveOptions("u", "onitama", "arena"))
        await late.send(f"LOGIN|late|{tokens['late']}|tournament={other}")
        assert await late.line() == "LOGIN_OK|late"
        assert (await late.line()).startswith("SEEK|")
        director.abort(other)
        assert await late.line() == "ERROR|TOURNAMENT_OVER"
        assert await late.eof()


async def test_an_entrant_who_is_not_there_loses_by_no_show(tmp_path: Path) -> None:
    async with running(tmp_path, clock=real_clock(), start_pause=0.0) as server:
        director = _director(server)
        tokens = _reserve(server, "ada", "ben")
        tid, _ = director.create(LiveOptions("t", "onitama", "round-robin", start_timeout=1.0))
        wires = {}
        for name in ("ada", "ben"):
            wire = await server.wire()
            await wire.send(f"LOGIN|{name}|{tokens[name]}|tournament={tid}")
            assert await wire.line() == f"LOGIN_OK|{name}"
            wires[name] = wire
        await entered(director, tid, 2)
        await wires["ben"].close()  # entered, then went away
        for _ in range(100):
            if director.waiting(tid) == ["ada"]:
                break
            await asyncio.sleep(0.02)
        director.begin(tid)
        store = TournamentStore(server.hall.records.engine)
        await finished(store, tid, timeout=10)
        tour = store.get(tid)
        assert tour is not None
        (game,) = tour.games
        assert game.forfeit == "no-show"
        assert {r.name: r.points for r in tour.standings()} == {"ada": 1, "ben": 0}


async def test_a_tournament_for_people_turns_bots_away(tmp_path: Path) -> None:
    async with running(tmp_path, clock=real_clock()) as server:
        director = _director(server)
        tokens = _reserve(server, "ada")
        tid, _ = director.create(LiveOptions("t", "onitama", "arena", admits="people"))
        wire = await server.wire()
        await wire.send(f"LOGIN|ada|{tokens['ada']}|tournament={tid}")
        assert (await wire.line()).startswith("LOGIN_FAILED|NOT_FOR_YOU|")
        with pytest.raises(TournamentError):
            director.begin(tid)  # nobody entered
        with pytest.raises(TournamentError):
            director.create(LiveOptions("t", "chess", "swiss"))  # no such game here


async def test_house_bots_enter_as_the_admin_asked_and_play_a_bot_over_tcp(
    tmp_path: Path,
) -> None:
    """`herna serve` wires the Onitama server's house bots into the director."""
    async with serving(
        tmp_path, "onitama", onitama_house_bots=0, onitama_house_bot_delay=0.0
    ) as hall:
        director = hall.tournaments
        assert director is not None
        service = hall.service("onitama")
        assert isinstance(service, OnitamaService)
        token = ReservedNames(hall.records.engine).add("ada")
        hall.identity.reload()
        tid, _ = director.create(
            LiveOptions("house night", "onitama", "round-robin", house=("easy", "medium"))
        )
        bot = onitama_entrant(service.port, "ada", token, tid, 1)
        await entered(director, tid, 3)
        assert sorted(director.waiting(tid)) == [
            "ada",
            f"house-easy-t{tid}-1",
            f"house-medium-t{tid}-2",
        ]
        director.begin(tid)
        store = TournamentStore(hall.records.engine)
        await finished(store, tid)
        result = await asyncio.wait_for(bot, 10)
        tour = store.get(tid)
        assert tour is not None and tour.status == "finished"
        assert {e.kind for e in tour.entrants} == {"bot", "house-bot"}
        # The match records call each player what the tournament calls it (a bot over the
        # wire was "unknown" there).
        hall.records.flush()
        kinds = {p.name: p.kind for m in hall.records.matches(game="onitama") for p in m.players}
        assert kinds["ada"] == "bot"
        assert {kinds[n] for n in kinds if n.startswith("house-")} == {"house-bot"}
        assert len([g for g in tour.games if not g.board.bye]) == 3
        assert sum((r.points for r in tour.standings()), Fraction(0)) == 3
        assert result.games == 2
        # The tournament's house bots left with it; the hall's own house bots stay.
        assert all(b.closed for b in service.summoned)
        with pytest.raises(TournamentError):
            director.create(LiveOptions("t", "onitama", "arena", admits="people", house=("easy",)))


def test_a_live_tournament_of_a_killed_process_is_taken_up(tmp_path: Path) -> None:
    """After kill -9 its tournaments stay as they were; the next start on the host takes them
    up (one an earlier Herna wrote without its options is marked aborted)."""
    db = f"sqlite:///{tmp_path / 'hall.db'}"
    code = (
        "import sys; from herna.hall.hall import Hall; from herna.hall.records import "
        "RecordStore; from herna.hall.tournament_live import LiveOptions; "
        f"h = Hall(records=RecordStore({db!r})); "
        "print(h.hold_tournaments().create(LiveOptions('t', 'onitama', 'arena'))[0]); "
        "sys.stdout.flush(); import os; os._exit(0)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    tid = int(out.stdout.strip())
    records = RecordStore(db)
    try:
        store = TournamentStore(records.engine)
        before = store.get(tid)
        assert before is not None and before.status == "entry"
        assert "holder" not in json.dumps(before.summary_json())
        ours, _ = (
            Hall(records=records).hold_tournaments().create(LiveOptions("ours", "onitama", "arena"))
        )
        # As an earlier Herna wrote one: without its options.
        settings = {k: v for k, v in before.settings.items() if k != "options"}
        older = store.create("older", "onitama", "arena", [], settings, "entry")
        director = LiveTournaments(Lobby(), EventBus(), store)
        assert director.take_over_orphans() == ([tid], [older])
        after, mine, old = store.get(tid), store.get(ours), store.get(older)
        assert after is not None and after.status == "entry" and tid in director.held
        assert after.settings["holder"]["pid"] == os.getpid()
        assert old is not None and old.status == "aborted"
        assert mine is not None and mine.status == "entry"  # this process is alive
    finally:
        records.close()

"""The CGML system end to end over real sockets: login server, super game servers, bot
servers, bots; records and replays."""

from __future__ import annotations

import asyncio
from pathlib import Path

from herna.clients.cgml import BotDecider, CgmlClient, login, play_group
from herna.games.marias import GameLog, play_log
from herna.games.marias.replay import replay_steps
from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.protocols.cgml import messages as m
from herna.servers.cgml import PLUGIN
from herna.servers.cgml.seats import GroupSettings
from tests.serve import serve_args
from tests.servers.cgml.helpers import HOST, make_system


async def test_three_bots_play_100_games_and_the_records_replay(tmp_path: Path) -> None:
    system = await make_system(tmp_path, GroupSettings(max_games=100), bot_servers=0)
    try:
        players = [m.PlayerRef(f"bot{i}", f"Bot {i}", "bot") for i in range(3)]
        deciders = [BotDecider("rule", seed=i) for i in range(3)]

        async def one(i: int) -> tuple[str, int, int, list[m.Result]]:
            complete = await login(HOST, system.login_port, players[i])
            summary = await play_group(complete, players[i], deciders[i])
            return complete.group, summary.games, summary.money, summary.results

        outcomes = await asyncio.wait_for(asyncio.gather(*(one(i) for i in range(3))), 120)
    finally:
        await system.stop()
    # One group of the three, each member told its own ticket to it.
    assert len({m.public_group(group) for group, *_ in outcomes}) == 1
    assert len({group for group, *_ in outcomes}) == 3
    assert [games for _, games, _, _ in outcomes] == [100, 100, 100]
    assert sum(money for _, _, money, _ in outcomes) == 0
    for result in outcomes[0][3]:
        assert sum(result.money().values()) == 0
        assert len(result.rounds) in range(0, 11)
    system.records.flush()
    stored = system.records.matches(game="marias", limit=200)
    assert len(stored) == 100
    assert all(s.status == "finished" for s in stored)
    total = 0.0
    for short in stored:
        match = system.records.get(short.id)
        assert match is not None
        scores = [p.score for p in sorted(match.players, key=lambda p: p.seat)]
        assert sum(scores) == 0
        total += scores[0]
        # The engine replays the recorded log to the same money ...
        state = play_log(GameLog.from_json(match.result["log"]))
        assert [float(x) for x in state.settlement().money] == scores
        # ... and so does the web hall's replayer from the match's action events.
        steps = replay_steps(match)
        assert steps[-1]["view"]["money"] == scores
    system.records.close()


async def test_a_person_gets_two_bots_at_once_and_preferences_hold(tmp_path: Path) -> None:
    system = await make_system(tmp_path, GroupSettings(max_games=1), fill_wait=0.2)
    try:
        me = m.PlayerRef("alice", "Alice", "human")
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        complete = await asyncio.wait_for(login(HOST, system.login_port, me), 5)
        assert loop.time() - t0 < 2.0
        assert [p.race for p in complete.players] == ["bot", "bot"]
        assert all((p.id or "").startswith("bots.") for p in complete.players)
        assert complete.playerid == "alice"
        summary = await asyncio.wait_for(play_group(complete, me, BotDecider("rule")), 30)
        assert summary.games == 1

        # bob wants carol; carol arrives later; dave (no wishes) gets bots meanwhile.
        bob = asyncio.create_task(
            login(
                HOST,
                system.login_port,
                m.PlayerRef("bob", "Bob"),
                "active",
                (m.PlayerRef("carol"), m.PlayerRef(None, None, "bot")),
            )
        )
        dave = await asyncio.wait_for(login(HOST, system.login_port, m.PlayerRef("dave")), 5)
        assert {p.race for p in dave.players} == {"bot"}
        await asyncio.sleep(0.3)
        assert not bob.done()
        carol = await asyncio.wait_for(
            login(HOST, system.login_port, m.PlayerRef("carol", "Carol", "human"), "passive"), 5
        )
        bob_complete = await asyncio.wait_for(bob, 5)
        assert m.public_group(bob_complete.group) == m.public_group(carol.group)
        assert {p.id for p in bob_complete.players if p.race != "bot"} == {"carol"}
        assert any(p.race == "bot" for p in bob_complete.players)
    finally:
        await system.stop()
        system.records.close()


async def test_two_game_servers_share_the_groups(tmp_path: Path) -> None:
    system = await make_system(tmp_path, GroupSettings(max_games=1), bot_servers=0)
    try:
        await system.add_game_server(GroupSettings(max_games=1), name="sgs2")
        urls = {g.url for g in system.games}
        assert len(urls) == 2
        players = [m.PlayerRef(f"p{i}") for i in range(6)]
        completes = await asyncio.wait_for(
            asyncio.gather(*(login(HOST, system.login_port, p) for p in players)), 10
        )
        assert {c.url for c in completes} == urls
        summaries = await asyncio.wait_for(
            asyncio.gather(
                *(
                    play_group(c, p, BotDecider("random"))
                    for c, p in zip(completes, players, strict=True)
                )
            ),
            30,
        )
        assert all(s.games == 1 for s in summaries)
        assert sorted(g.games_finished for g in system.games) == [1, 1]
    finally:
        await system.stop()
        system.records.close()


async def test_bots_come_from_the_least_loaded_bot_server(tmp_path: Path) -> None:
    system = await make_system(tmp_path, GroupSettings(max_games=1), bot_servers=1)
    busy = await CgmlClient.connect(HOST, system.login_port)
    try:
        # A second bot server that reports a high load.
        await busy.send(
            m.ConnectPlayer("passive", m.PlayerRef("busy", "busy-bot", "bot"), m.GAME_MARIAS)
        )
        await busy.send(m.Load(90))
        await system.until(lambda: len(system.login_snapshot()["bot_servers"]) == 2)
        for i in range(3):
            complete = await asyncio.wait_for(
                login(HOST, system.login_port, m.PlayerRef(f"h{i}", race="human")), 10
            )
            ids = [p.id or "" for p in complete.players]
            assert len(ids) == 2 and all(i.startswith("bots.") for i in ids)
        # Now the real one reports full load; the busy one (90) gets the request.
        system.bots[0].capacity = 1
        system.bots[0]._report_load(force=True)
        await system.until(lambda: system.login_snapshot()["bot_servers"][0]["load"] == 100)
        complete = await asyncio.wait_for(login(HOST, system.login_port, m.PlayerRef("z")), 5)
        assert all((p.id or "").startswith("busy.") for p in complete.players)
        to_busy = await asyncio.wait_for(busy.expect(m.ConnectComplete), 5)
        assert isinstance(to_busy, m.ConnectComplete) and to_busy.url == system.games[0].url
    finally:
        await busy.close()
        await system.stop()
        system.records.close()


async def test_herna_serve_plugin_runs_house_bots_and_a_person_gets_a_table(
    tmp_path: Path,
) -> None:
    records = RecordStore(f"sqlite:///{tmp_path / 'serve.db'}")
    hall = Hall(records=records)
    args = serve_args(tmp_path, "marias", host=HOST, cgml_bot_delay=0.0, cgml_fill_wait=0.2)
    sub = hall.bus.subscribe()
    service = await PLUGIN.start(hall, args, {})
    try:
        assert service.game == "marias"
        assert len(service.endpoints()) == 3
        # The house players play on their own.
        await asyncio.wait_for(_wait_kind(sub, "game_over"), 20)
        port = service.login.player_address[1]  # type: ignore[attr-defined]
        complete = await asyncio.wait_for(login(HOST, port, m.PlayerRef("eve", "Eve")), 5)
        assert len(complete.players) == 2 and all(p.race == "bot" for p in complete.players)
        snap = service.snapshot()
        assert snap["house_players"] == 3 and snap["bot_servers"][0]["connected"]
    finally:
        await service.stop()
        records.close()


async def _wait_kind(sub: object, kind: str) -> None:
    from herna.hall.events import Subscription

    assert isinstance(sub, Subscription)
    while True:
        event = await sub.get()
        assert event is not None
        if event.kind == kind:
            data = event.data
            assert "view" in data and data["view"]["game"] == "marias"
            return

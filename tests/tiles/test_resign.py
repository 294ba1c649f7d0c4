"""Resigning a tile game over real TCP sockets: with more players the others play on, with
one left that player wins; bad requests are refused and change nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

from herna.clients.tiles import TilesClient
from tests.tiles.test_server import running


async def test_resign_with_three_others_who_play_on_and_it_is_recorded(tmp_path: Path) -> None:
    async with running(tmp_path, max_rounds=30) as server:
        client = await TilesClient.connect("127.0.0.1", server.port)
        await client.send({"type": "resign", "id": 1})
        refused = await client.recv(timeout=10)
        while refused["type"] != "error":
            refused = await client.recv(timeout=10)
        assert refused["code"] == "WRONG_PHASE" and refused["id"] == 1
        await client.join("ann", "tsuro")
        await client.start()
        await client.expect("started")
        await client.expect("your_turn")
        await client.send({"type": "resign"})
        over = await client.expect("game_over")
        assert over["result"]["reason"] == "you resigned"
        [table] = server.hub.tables.values()
        assert table.state.players[0].eliminated and not table.state.is_terminal()
        for _ in range(500):  # the house bots play on to the end
            if not server.hub.tables:
                break
            await asyncio.sleep(0.02)
        assert not server.hub.tables
        store = server.hub.records
        assert store is not None
        store.flush()
        [match] = store.matches(game="tiles")
        assert "ann" not in [p.name for p in match.players if p.winner]
        # a new game when ann asks for one, never before
        joined = await client.join("ann", "tsuro")
        assert joined["seat"] == 0
        await client.close()

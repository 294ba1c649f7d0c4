"""A rematch at a tile table with people (``rematch``, ``decline_rematch``; Herna extension)
over real TCP: each player must ask, the seats move round by one, a decline, a player who
moves on and an offer nobody answers end it in words (issue 26)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from herna.clients.tiles import TilesClient
from herna.servers.tiles import rematch
from tests.tiles.helpers import race
from tests.tiles.test_server import running

PEOPLE = "person,opponent=people"
"""How a play page joins: a person (only people hear of rematches)."""


async def over_by_resigning(
    a: TilesClient, b: TilesClient, rules: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``a`` and ``b`` at a new table of ``rules`` (two seats); the first to act resigns."""
    await a.join("ann", rules, seek=PEOPLE)
    await b.join("bea", rules, seek=PEOPLE)
    return await resign_first(a, b)


async def resign_first(a: TilesClient, b: TilesClient) -> tuple[dict[str, Any], dict[str, Any]]:
    started = [await c.expect("started") for c in (a, b)]
    first = a if started[0]["seat"] == 0 else b
    await first.expect("your_turn")
    await first.send({"type": "resign"})
    return await a.expect("game_over"), await b.expect("game_over")


async def test_people_rematch_decline_and_no_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rematch, "REMATCH_WAIT", 0.5)
    async with running(tmp_path, lobby_wait=0.0, max_rounds=30) as server:
        a = await TilesClient.connect("127.0.0.1", server.port)
        b = await TilesClient.connect("127.0.0.1", server.port)
        rules = race()
        over = await over_by_resigning(a, b, rules)
        first_table = over[0]["table"]
        # ann asks; both hear it, bea is asked
        await a.send({"type": "rematch"})
        for c in (a, b):
            offer = await c.expect("rematch_offered")
            assert offer["name"] == "ann" and offer["waiting_for"] == ["bea"]
            assert offer["table"] == first_table
        # bea accepts: a new table, the same two, the seats moved round by one
        await b.send({"type": "rematch"})
        joined = {name: await c.expect("joined") for name, c in (("ann", a), ("bea", b))}
        assert joined["ann"]["table"] == joined["bea"]["table"] != first_table
        assert joined["bea"]["seat"] == 0 and joined["ann"]["seat"] == 1
        await resign_first(a, b)
        # bea asks, ann declines: bea is told in words
        await b.send({"type": "rematch"})
        await a.expect("rematch_offered")
        await a.send({"type": "decline_rematch"})
        declined = await b.expect("rematch_declined")
        assert declined["name"] == "ann" and declined["reason"] == "declined"
        await a.send({"type": "rematch", "id": 5})
        refused = await a.expect("error")
        assert refused["code"] == "NO_REMATCH" and refused["id"] == 5
        # a new table; ann asks and bea never answers
        await over_by_resigning(a, b, rules)
        await a.send({"type": "rematch"})
        await b.expect("rematch_offered")
        late = await a.expect("rematch_declined", timeout=5)
        assert late["name"] == "bea" and late["reason"] == "no answer"
        # a player who moves on ends the offer for the others
        await over_by_resigning(a, b, rules)
        await a.send({"type": "rematch"})
        await b.expect("rematch_offered")
        await b.join("bea", "tsuro")
        left = await a.expect("rematch_declined")
        assert left["name"] == "bea" and left["reason"] == "left"
        # a bot over the network is never asked: no rematch at its table
        bot = await TilesClient.connect("127.0.0.1", server.port)
        await a.join("ann", rules, seek="person,opponent=anyone,fill=600")
        await bot.join("robo", rules)
        await resign_first(a, bot)
        await a.send({"type": "rematch", "id": 6})
        refused = await a.expect("error")
        assert refused["code"] == "NO_REMATCH"
        await a.close()
        await b.close()
        await bot.close()
        server.hub.records.flush()  # type: ignore[union-attr]
        games = server.hub.records.matches(game="tiles")  # type: ignore[union-attr]
        assert len(games) == 5

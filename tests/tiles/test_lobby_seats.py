"""Tile tables in the hall's lobby, over real TCP connections: every waiting table has one seek;
a join's seek picks house bots of a level, a fill wait, people only or a challenge; another
client sits down by accepting it (docs/protocols/tiles.md, "The lobby")."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from herna.clients.tiles import TilesClient, TilesServerError
from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.servers.tiles import TilesService, TilesSettings, serve

FAST = {"bot_delay": 0.0, "showcase": False, "lobby_wait": 0.0}


@asynccontextmanager
async def running(tmp_path: Path, **settings: Any) -> AsyncIterator[tuple[Hall, TilesService]]:
    hall = Hall(records=RecordStore(f"sqlite:///{tmp_path / 'tiles.db'}"))
    service = await serve(hall, port=0, settings=TilesSettings(**{**FAST, **settings}))
    hall.add(service)
    try:
        yield hall, service
    finally:
        await hall.stop()
        hall.records.close()


async def connect(service: TilesService) -> TilesClient:
    return await TilesClient.connect("127.0.0.1", service.port)


def seeks(hall: Hall) -> list[dict[str, Any]]:
    return hall.lobby.snapshot("tiles")


async def eventually(check: Callable[[], bool | Awaitable[bool]], seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.02)):
        result = check()
        if isinstance(result, Awaitable):
            result = await result
        if result:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("never happened")


async def test_house_bots_of_the_chosen_level_take_the_seats_at_once(tmp_path: Path) -> None:
    async with running(tmp_path) as (hall, service):
        ann = await connect(service)
        joined = await ann.join("ann", "labyrinth", seek="person,opponent=bots,level=random")
        started = await ann.expect("started")
        table = service.hub.tables[joined["table"]]
        bots = [s for s in table.seats if s is not None and s.kind == "house-bot"]
        assert len(bots) == 3 and {b.bot.strategy for b in bots if b.bot} == {"random"}
        assert started["seat"] == 0 and seeks(hall) == []  # never shown: nobody else may sit
        await ann.close()


async def test_a_fill_wait_shows_the_table_in_the_lobby_then_house_bots_fill_it(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as (hall, service):
        ann = await connect(service)
        joined = await ann.join("ann", "tsuro", seek="person,opponent=anyone,fill=0.4")
        [seek] = seeks(hall)
        assert (seek["owner"], seek["kind"], seek["seats"], seek["fill"]) == (
            "ann",
            "person",
            4,
            0.4,
        )
        assert joined["seek"] == seek["id"]
        await ann.expect("started", timeout=5)
        assert seeks(hall) == []
        await ann.close()


async def test_a_bot_over_tcp_accepts_a_persons_table_and_a_second_seek_takes_no_seat(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as (_hall, service):
        ann = await connect(service)
        joined = await ann.join("ann", "tsuro", seek="person,opponent=anyone,fill=60")
        bot = await connect(service)
        # no rules needed: the seek names the table
        taken = await bot.join("bot-1", kind="bot", seek=f"accept={joined['seek']}")
        assert taken["table"] == joined["table"] and taken["seat"] == 1
        # the same seek accepted again by its owner is refused, the table unchanged
        other = await connect(service)
        with pytest.raises(TilesServerError) as refused:
            await other.join("ann2", kind="bot", seek="accept=s999")
        assert refused.value.code == "NO_SUCH_SEEK"
        await ann.start()
        await ann.expect("started")
        assert (await bot.expect("started"))["table"] == joined["table"]
        for c in (ann, bot, other):
            await c.close()


async def test_people_only_tables_take_people_and_refuse_bots(tmp_path: Path) -> None:
    async with running(tmp_path) as (_hall, service):
        ann = await connect(service)
        mine = await ann.join("ann", "tsuro", seek="person,opponent=people")
        # a seed bot joining the same rules gets a table of its own
        bot = await connect(service)
        elsewhere = await bot.join("bot-1", "tsuro", kind="bot")
        assert elsewhere["table"] != mine["table"]
        # and naming the table is refused in the lobby's own words
        bot2 = await connect(service)
        with pytest.raises(TilesServerError) as refused:
            await bot2.join("bot-2", "tsuro", table=mine["table"], kind="bot")
        assert refused.value.code == "NOT_FOR_YOU"
        # a person who asks for people too sits down with ann
        bea = await connect(service)
        hers = await bea.join("bea", "tsuro", seek="person,opponent=people")
        assert hers["table"] == mine["table"]
        assert service.hub.tables[mine["table"]].timer is None  # people only: no fill timer
        for c in (ann, bot, bot2, bea):
            await c.close()


async def test_a_challenge_only_its_target_may_take(tmp_path: Path) -> None:
    async with running(tmp_path) as (_hall, service):
        ann = await connect(service)
        joined = await ann.join("ann", "tsuro", seek="person,challenge=bob")
        carol = await connect(service)
        with pytest.raises(TilesServerError) as refused:
            await carol.join("carol", kind="bot", seek=f"accept={joined['seek']}")
        assert refused.value.code == "NOT_FOR_YOU"
        bob = await connect(service)
        taken = await bob.join("bob", kind="bot", seek=f"accept={joined['seek']}")
        assert taken["table"] == joined["table"]
        # ann cannot challenge herself
        again = await connect(service)
        with pytest.raises(TilesServerError) as own:
            await again.join("dora", "tsuro", seek="challenge=dora")
        assert own.value.code == "OWN_SEEK"
        for c in (ann, carol, bob, again):
            await c.close()


async def test_the_seek_passes_on_when_its_owner_leaves_and_goes_with_the_last(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as (hall, service):
        ann = await connect(service)
        joined = await ann.join("ann", "tsuro", seek="person,opponent=anyone,fill=60")
        bob = await connect(service)
        await bob.join("bob", kind="bot", seek=f"accept={joined['seek']}")
        await ann.send({"type": "leave"})
        await ann.expect("left")
        await eventually(lambda: [s["owner"] for s in seeks(hall)] == ["bob"])
        assert seeks(hall)[0]["fill"] == 60
        await bob.close()
        await eventually(lambda: seeks(hall) == [])
        assert service.hub.tables == {}
        await ann.close()


async def test_cancelled_from_the_lobby_the_waiting_table_is_given_up(tmp_path: Path) -> None:
    async with running(tmp_path) as (hall, service):
        ann = await connect(service)
        joined = await ann.join("ann", "tsuro", seek="person,opponent=people")
        hall.lobby.cancel(joined["seek"], "ann")
        with pytest.raises(TilesServerError) as told:
            await ann.expect("left")
        assert told.value.code == "SEEK_CANCELLED"
        await ann.expect("left")
        assert service.hub.tables == {} and seeks(hall) == []
        # ann may sit down again on the same connection
        again = await ann.join("ann", "tsuro")
        assert again["table"] != joined["table"]
        await ann.close()


async def test_a_bad_seek_is_refused_with_the_reason_and_seats_nobody(tmp_path: Path) -> None:
    async with running(tmp_path) as (hall, service):
        ann = await connect(service)
        for words, code in (
            ("opponent=everyone", "BAD_SEEK"),
            ("fill=ten", "BAD_SEEK"),
            ("opponent=bots,level=grandmaster", "BAD_SEEK"),
            ("frobnicate", "BAD_SEEK"),
        ):
            with pytest.raises(TilesServerError) as refused:
                await ann.join("ann", "tsuro", seek=words)
            assert refused.value.code == code, words
        await ann.send({"type": "join", "name": "ann", "rules": "tsuro", "seek": "x" * 300})
        with pytest.raises(TilesServerError) as long:
            await ann.expect("joined")
        assert long.value.code == "BAD_MESSAGE"
        assert service.hub.tables == {} and seeks(hall) == []
        # a seed client without a seek still waits the seed's way, shown in the lobby
        joined = await ann.join("ann", "tsuro")
        assert [s["owner"] for s in seeks(hall)] == ["ann"] and "seek" in joined
        await ann.close()

"""Who may play under which name on the tile server, over real sockets (TCP and the web hall's
``/ws/tiles``, which share one hub): a name in use belongs to one connection, house bots' names
are the house's, a reserved name needs its token."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from herna.clients.tiles import TilesClient, TilesServerError, run_bot
from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.servers.tiles import TilesService, TilesSettings, serve
from herna.web.live import LiveSettings
from herna.web.plugin import WebHall
from tests.tiles.helpers import race

FAST: dict[str, Any] = {"bot_delay": 0.0, "showcase": False, "lobby_wait": 0.0}


@asynccontextmanager
async def running(
    tmp_path: Path, reserve: tuple[str, ...] = (), **settings: Any
) -> AsyncIterator[tuple[TilesService, str, dict[str, str]]]:
    """The tile server and the web hall in one hall; yields the service, the WebSocket URL
    and the tokens of the names reserved (``herna bots add``) before the start."""
    hall = Hall(records=RecordStore(f"sqlite:///{tmp_path / 'tiles.db'}"))
    assert hall.identity.book is not None
    tokens = {name: hall.identity.book.add(name) for name in reserve}
    tiles = await serve(hall, port=0, settings=TilesSettings(**{**FAST, **settings}))
    hall.add(tiles)
    web = WebHall(hall, LiveSettings(interval=0.02))
    try:
        await web.start("127.0.0.1", 0)
        hall.add(web)
        yield tiles, f"ws://127.0.0.1:{web.port}/ws/tiles", tokens
    finally:
        await hall.stop()
        hall.records.close()


async def both(tiles: TilesService, ws: str) -> list[TilesClient]:
    """One client over TCP, one over WebSocket."""
    return [
        await TilesClient.connect("127.0.0.1", tiles.port),
        await TilesClient.connect(ws),
    ]


async def refused(
    client: TilesClient, name: str, rules: Any, token: str | None = None, id: Any = None
) -> dict[str, Any]:
    """The error a ``join`` gets (``id`` and ``token`` only when given)."""
    message: dict[str, Any] = {"type": "join", "name": name, "rules": rules}
    if token is not None:
        message["token"] = token
    if id is not None:
        message["id"] = id
    await client.send(message)
    reply = await client.expect("joined", "error")
    assert reply["type"] == "error", reply
    return reply


async def test_a_name_in_use_belongs_to_one_connection_over_either_transport(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as (tiles, ws, _):
        for first_tcp in (True, False):
            tcp, web = await both(tiles, ws)
            holder, other = (tcp, web) if first_tcp else (web, tcp)
            await holder.join("ann", "tsuro")  # waits at its table: the name is in use
            # Another table, other rules, the other transport: still ann's name.
            for rules in ("labyrinth", "tsuro", race()):
                error = await refused(other, "ann", rules)
                assert error["code"] == "NAME_TAKEN"
                assert error["reason"] == "another connection is playing as 'ann'"
            # The holder itself may sit down again under its name.
            await holder.send({"type": "leave"})
            await holder.expect("left")
            await holder.join("ann", "labyrinth")
            # Once the holder is gone, the name is free.
            await holder.close()
            for _ in range(100):
                if tiles.hub.names.holder("ann") is None:
                    break
                await asyncio.sleep(0.02)
            joined = await other.join("ann", "labyrinth")
            assert joined["name"] == "ann"
            await other.close()


async def test_a_name_moves_with_its_connection_and_is_freed_by_a_new_name(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as (tiles, ws, _):
        tcp, web = await both(tiles, ws)
        await tcp.join("ann", "tsuro")
        await tcp.send({"type": "leave"})
        await tcp.expect("left")
        await tcp.join("bea", "tsuro")  # the connection now plays as bea: ann is free
        assert (await web.join("ann", "tsuro"))["name"] == "ann"
        assert (await refused(web, "bea", "labyrinth"))["code"] == "WRONG_PHASE"
        other = await TilesClient.connect("127.0.0.1", tiles.port)
        assert (await refused(other, "bea", "labyrinth"))["code"] == "NAME_TAKEN"
        for client in (tcp, web, other):
            await client.close()


async def test_nobody_sits_down_as_a_house_bot(tmp_path: Path) -> None:
    async with running(tmp_path) as (tiles, ws, _):
        for client in await both(tiles, ws):
            for name in ("house-1", "house-2", "house-16"):
                error = await refused(client, name, "tsuro", id=7)
                assert error["code"] == "HOUSE_BOT_NAME"
                assert error["reason"] == f"{name!r} is the name of one of Herna's house bots"
                assert error["id"] == 7
                # A token does not help: the house bots' tokens never leave the server.
                error = await refused(client, name, "tsuro", token="x" * 32)
                assert error["code"] == "HOUSE_BOT_NAME"
            # The house bots that fill the empty seats play under those names.
            await client.join("ann", "tsuro")
            await client.start()
            started = await client.expect("started")
            assert started["seats"][1:] == [
                {"name": f"house-{i}", "kind": "house-bot"} for i in (2, 3, 4)
            ]
            assert all(tiles.hub.identity.is_house_bot(s["name"]) for s in started["seats"][1:])
            await client.close()


async def test_a_reserved_name_needs_its_token_over_either_transport(tmp_path: Path) -> None:
    async with running(tmp_path, reserve=("ann", "bea")) as (tiles, ws, tokens):
        tcp, web = await both(tiles, ws)
        for client, name in ((tcp, "ann"), (web, "bea")):
            error = await refused(client, name, "tsuro", id="j")
            assert error == {
                "type": "error",
                "code": "RESERVED_NAME",
                "reason": f"{name!r} is reserved: log in with its token to use it",
                "id": "j",
            }
            other = "bea" if name == "ann" else "ann"
            for wrong in ("not-the-token", tokens[other]):
                error = await refused(client, name, "tsuro", token=wrong)
                assert error["code"] == "BAD_TOKEN"
                assert error["reason"] == f"that is not the token of {name!r}"
            joined = await client.join(name, "tsuro", token=tokens[name])
            assert joined["name"] == name
        # Even with the token, a name in use stays with the connection that holds it.
        third = await TilesClient.connect(ws)
        error = await refused(third, "ann", "labyrinth", token=tokens["ann"])
        assert error["code"] == "NAME_TAKEN"
        # A name nobody reserved plays as before, with or without a token.
        assert (await third.join("cid", "labyrinth", token="whatever"))["name"] == "cid"
        for client in (tcp, web, third):
            await client.close()


async def test_a_bad_token_field_is_a_bad_message(tmp_path: Path) -> None:
    async with running(tmp_path) as (tiles, ws, _):
        for client in await both(tiles, ws):
            for token in (5, "", "x" * 257, ["a"]):
                await client.send({"type": "join", "name": "ann", "rules": "tsuro", "token": token})
                error = await client.expect("error")
                assert error["code"] == "BAD_MESSAGE"
                assert "'token'" in error["reason"]
            await client.close()


async def test_a_bot_with_a_reserved_name_plays_with_its_token(tmp_path: Path) -> None:
    async with running(tmp_path, reserve=("robo",), max_rounds=20) as (tiles, ws, tokens):
        with pytest.raises(TilesServerError) as caught:
            await run_bot(ws, 0, "robo", race(), "random")
        assert caught.value.code == "RESERVED_NAME"
        holder = await TilesClient.connect("127.0.0.1", tiles.port)
        await holder.join("robo", "tsuro", token=tokens["robo"])
        with pytest.raises(TilesServerError) as caught:
            await run_bot(ws, 0, "robo", race(), "random", token=tokens["robo"])
        assert caught.value.code == "NAME_TAKEN"  # the token does not evict the holder
        await holder.close()
        for _ in range(100):
            if tiles.hub.names.holder("robo") is None:
                break
            await asyncio.sleep(0.02)
        for address, port in ((ws, 0), ("127.0.0.1", tiles.port)):
            run = await run_bot(address, port, "robo", race(), "random", token=tokens["robo"])
            assert len(run.games) == 1 and not run.errors


async def test_look_alike_names_are_the_names_they_look_like(tmp_path: Path) -> None:
    """``Аnn`` (Cyrillic А) and ``ann`` are the reserved ``Ann``; ``hоuse-1`` (Cyrillic о) is
    the house's; ``Вeа`` is the ``bea`` playing over the other transport."""
    async with running(tmp_path, reserve=("Ann",)) as (tiles, ws, tokens):
        tcp, web = await both(tiles, ws)
        for client in (tcp, web):
            for name in ("Аnn", "ann", "ANN"):
                assert (await refused(client, name, "tsuro"))["code"] == "RESERVED_NAME", name
            for name in ("hоuse-1", "House-2"):
                assert (await refused(client, name, "tsuro"))["code"] == "HOUSE_BOT_NAME", name
        await tcp.join("bea", "tsuro")
        for name in ("Вeа", "BEA"):
            assert (await refused(web, name, "labyrinth"))["code"] == "NAME_TAKEN", name
        await web.join("Ann", "labyrinth", token=tokens["Ann"])
        await tcp.close()
        await web.close()

"""Who may take a seat, use a name or a player id in the CGML hall (issue 14), over real
sockets: tickets for seats, seated ids, reserved and house bot names with their tokens."""

from __future__ import annotations

import asyncio
from pathlib import Path

from herna.clients.cgml import BotDecider, CgmlClient, login, play_group, run_player
from herna.hall.hall import Hall
from herna.hall.identity import ReservedNames, new_secret
from herna.hall.records import RecordStore
from herna.protocols.cgml import messages as m
from herna.servers.cgml import PLUGIN
from herna.servers.cgml.seats import GroupSettings
from tests.serve import serve_args
from tests.servers.cgml.helpers import HOST, System, make_system


async def refusal(client: CgmlClient) -> str:
    """The code of the ``<error>`` the server answers with."""
    error = await asyncio.wait_for(client.expect(m.Error), 5)
    assert isinstance(error, m.Error)
    return error.code


async def test_a_stranger_who_reads_the_group_id_loses_the_race_for_the_seat(
    tmp_path: Path,
) -> None:
    system = await make_system(tmp_path, GroupSettings(max_games=1))
    try:
        alice = m.PlayerRef("alice", "Alice", "human")
        complete = await asyncio.wait_for(login(HOST, system.login_port, alice), 5)
        # The group id is public: the live data of the server shows it.
        live = system.games[0].snapshot()["groups"]
        assert len(live) == 1
        group = live[0]["group"]
        assert m.public_group(complete.group) == group and complete.group != group
        # Not guessable either: no more g1, g2 ...
        assert len(group) == 16 and int(group, 16) >= 0

        stranger = await CgmlClient.connect(HOST, system.games[0].address[1])
        for ticket in (group, f"{group}.{new_secret()}", f"{group}.", complete.group[:-1]):
            for pid in ("alice", "mallory"):
                accept = m.NewGroupAnswer(True, ticket, m.GAME_MARIAS, m.PlayerRef(pid))
                await stranger.send(accept)
                assert await refusal(stranger) == "NOT_INVITED"
        # Nor can the stranger turn the group down for alice.
        await stranger.send(m.NewGroupAnswer(False, group, m.GAME_MARIAS, m.PlayerRef("alice")))
        assert await refusal(stranger) == "NOT_INVITED"

        # Alice answers second and gets her seat; the game is played.
        summary = await asyncio.wait_for(play_group(complete, alice, BotDecider("rule")), 30)
        assert summary.games == 1 and not summary.errors
        assert summary.ended == "cancelgame"
        await stranger.close()
    finally:
        await system.stop()


async def test_a_ticket_seats_only_once(tmp_path: Path) -> None:
    """A ticket that leaked after use is worth nothing: the seat is taken."""
    system = await make_system(tmp_path, GroupSettings(max_games=1))
    try:
        alice = m.PlayerRef("alice", "Alice", "human")
        complete = await asyncio.wait_for(login(HOST, system.login_port, alice), 5)
        first = await CgmlClient.connect(HOST, system.games[0].address[1])
        await first.send(m.NewGroupAnswer(True, complete.group, m.GAME_MARIAS, alice))
        await asyncio.wait_for(first.expect(m.NewGameAsk), 5)
        second = await CgmlClient.connect(HOST, system.games[0].address[1])
        await second.send(m.NewGroupAnswer(True, complete.group, m.GAME_MARIAS, alice))
        assert await refusal(second) == "ID_IN_USE"
        await first.close()
        await second.close()
    finally:
        await system.stop()


async def test_a_connect_under_a_seated_players_id_is_refused_and_its_game_goes_on(
    tmp_path: Path,
) -> None:
    system = await make_system(tmp_path, GroupSettings(max_games=2))
    try:
        alice = m.PlayerRef("alice", "Alice", "human")
        complete = await asyncio.wait_for(login(HOST, system.login_port, alice), 5)
        bot_id = complete.players[0].id
        assert bot_id is not None

        async def try_as(pid: str) -> str:
            async with await CgmlClient.connect(HOST, system.login_port) as mallory:
                await mallory.send(
                    m.ConnectPlayer("active", m.PlayerRef(pid, "Mallory", "human"), m.GAME_MARIAS)
                )
                return await refusal(mallory)

        # Alice's login connection is closed: only her group holds her id now.
        assert await try_as("alice") == "ID_IN_USE"
        assert await try_as(bot_id) == "ID_IN_USE"
        playing = asyncio.create_task(play_group(complete, alice, BotDecider("rule")))
        await System.until(lambda: system.games[0].snapshot()["groups"][0]["games"] >= 1)
        assert await try_as("alice") == "ID_IN_USE"
        summary = await asyncio.wait_for(playing, 30)
        assert summary.games == 2 and summary.ended == "cancelgame" and not summary.errors
        # The group is over and reported closed before alice's connection was: her id is
        # hers again at once.
        again = await asyncio.wait_for(login(HOST, system.login_port, alice), 5)
        assert again.playerid == "alice"
    finally:
        await system.stop()


async def test_house_bot_and_reserved_names_need_their_tokens(tmp_path: Path) -> None:
    records = RecordStore(f"sqlite:///{tmp_path / 'herna.db'}")
    token = ReservedNames(records.engine).add("alphabot", note="Alpha's bot")
    hall = Hall(records=records)
    args = serve_args(tmp_path, "marias", host=HOST, cgml_bot_delay=0.0, cgml_fill_wait=0.1)
    service = await PLUGIN.start(hall, args, {})
    port = service.login.player_address[1]  # type: ignore[attr-defined]

    async def attempt(pid: str | None, name: str | None, token: str | None = None) -> str:
        async with await CgmlClient.connect(HOST, port) as client:
            player = m.PlayerRef(pid, name, "bot")
            await client.send(m.ConnectPlayer("passive", player, m.GAME_MARIAS, token=token))
            return await refusal(client)

    try:
        # The house players and the bot server log in with their house tokens and play.
        await System.until(lambda: service.snapshot()["bot_servers"][0]["connected"], 10)
        await System.until(lambda: service.snapshot()["game_servers"][0]["games_finished"] >= 1)
        # Nobody else gets their names, as the id or as the <name>.
        assert await attempt("house-1", "house-1") == "HOUSE_BOT_NAME"
        assert await attempt("house-1", "Mallory") == "HOUSE_BOT_NAME"
        assert await attempt("m1", "house-heuristic-bot") == "HOUSE_BOT_NAME"
        assert await attempt("house-heuristic-bot", None, new_secret()) == "HOUSE_BOT_NAME"
        # A reserved name: no token, a wrong token, or one token for two reserved names.
        assert await attempt("alphabot", "alphabot") == "RESERVED_NAME"
        assert await attempt("a1", "alphabot") == "RESERVED_NAME"
        assert await attempt("alphabot", None, new_secret()) == "BAD_TOKEN"
        assert await attempt("alphabot", "house-2", token) == "HOUSE_BOT_NAME"
        # With its token the name plays; an unreserved name still needs nothing.
        alpha = m.PlayerRef("alphabot", "alphabot", "bot")
        summaries = await asyncio.wait_for(
            asyncio.gather(
                run_player(HOST, port, alpha, BotDecider("rule", games=1), token=token),
                run_player(HOST, port, m.PlayerRef("eve", "Eve"), BotDecider("rule", games=1)),
            ),
            30,
        )
        assert [s[0].games for s in summaries] == [1, 1]
    finally:
        await service.stop()
        records.close()


async def test_look_alike_names_and_ids_are_the_ones_they_look_like(tmp_path: Path) -> None:
    """``Аlphabot`` (Cyrillic А) is the reserved ``Alphabot``, ``hоuse-1`` (Cyrillic о) the
    house's, and ``CАRLA`` the id ``carla`` that is logged in."""
    records = RecordStore(f"sqlite:///{tmp_path / 'herna.db'}")
    ReservedNames(records.engine).add("Alphabot")
    hall = Hall(records=records)
    args = serve_args(tmp_path, "marias", host=HOST, cgml_bot_delay=0.0, cgml_fill_wait=0.1)
    service = await PLUGIN.start(hall, args, {})
    port = service.login.player_address[1]  # type: ignore[attr-defined]

    async def attempt(pid: str | None, name: str | None) -> str:
        async with await CgmlClient.connect(HOST, port) as client:
            player = m.PlayerRef(pid, name, "bot")
            await client.send(m.ConnectPlayer("passive", player, m.GAME_MARIAS))
            return await refusal(client)

    try:
        await System.until(lambda: service.snapshot()["bot_servers"][0]["connected"], 10)
        for pid, name in (("Аlphabot", None), ("alphabot", None), ("a1", "ALPHABOT")):
            assert await attempt(pid, name) == "RESERVED_NAME", (pid, name)
        for pid, name in (("hоuse-1", None), ("m1", "House-1")):
            assert await attempt(pid, name) == "HOUSE_BOT_NAME", (pid, name)
        async with await CgmlClient.connect(HOST, port) as carla:
            player = m.PlayerRef("carla", "Carla", "bot")
            await carla.send(m.ConnectPlayer("passive", player, m.GAME_MARIAS))
            await System.until(
                lambda: any(w["id"] == "carla" for w in service.snapshot()["login"]["waiting"]), 5
            )
            for pid in ("CАRLA", "carla"):
                assert await attempt(pid, None) == "ID_IN_USE", pid
    finally:
        await service.stop()
        records.close()

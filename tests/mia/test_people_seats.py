"""The people's seats at the Mia people's table over real UDP: a name registered again is
dealt in, and a person's seat (browser or terminal) cannot be taken over by its name."""

from __future__ import annotations

import asyncio
from pathlib import Path

from herna.clients.mia import MiaClient
from herna.clients.mia_seat import MiaSeat
from herna.protocols.mia import RoundStarted, RoundStarting
from herna.servers.mia import MiaService
from tests.mia.helpers import RawPeer
from tests.serve import serving


async def dealt_in(client: MiaClient, seconds: float) -> bool:
    """Whether ``client`` (joining every round) is in a ROUND STARTED within ``seconds``."""
    try:
        async with asyncio.timeout(seconds):
            async for msg in client.messages():
                if isinstance(msg, RoundStarting):
                    client.send(f"JOIN;{msg.token}")
                elif isinstance(msg, RoundStarted) and client.name in msg.players:
                    return True
    except TimeoutError:
        return False
    return False


async def test_a_name_registered_again_during_a_join_window_is_dealt_in(tmp_path: Path) -> None:
    # Somebody elsewhere registers the name and never joins; the round waits for it. It
    # leaves, and the name's person registers while that JOIN window is still open: the
    # missed JOIN was the other registration's, so the person is waited for and plays.
    async with serving(
        tmp_path, "mia", mia_people_timeout=3.0, mia_people_round_pause=0.2, mia_people_think=0.2
    ) as hall:
        service = hall.service("mia")
        assert isinstance(service, MiaService) and service.people is not None
        port = service.people.port
        other = RawPeer(port, ip="127.0.0.2")
        person = MiaClient("127.0.0.1", port, "tess")
        try:
            assert await other.ask("REGISTER;tess") == "REGISTERED"
            await asyncio.sleep(0.3)  # the round that waits for the other "tess" has begun
            assert service.people.table.phase == "joining"
            assert await other.ask("UNREGISTER") == "UNREGISTERED"
            await person.connect()
            await person.register()
            assert service.people.table.phase == "joining"  # the other's window still runs
            assert await dealt_in(person, 12.0)
        finally:
            other.close()
            person.close()


async def test_a_raw_register_from_the_same_host_does_not_take_a_persons_seat(
    tmp_path: Path,
) -> None:
    async with serving(
        tmp_path, "mia", mia_people_timeout=3.0, mia_people_round_pause=0.2, mia_people_think=0.2
    ) as hall:
        service = hall.service("mia")
        assert isinstance(service, MiaService) and service.people is not None
        port = service.people.port
        seat = MiaSeat("127.0.0.1", port, "guest-abcdefgh", window=3.0)
        seat.start()
        peer = RawPeer(port)  # another program on the same host
        try:
            await asyncio.wait_for(seat.registered.wait(), 5)
            for line in ("REGISTER;guest-abcdefgh", "REGISTER;guest-abcdefgh;guessed"):
                assert await peer.ask(line) == "REJECTED;NAME_ALREADY_TAKEN"
            assert await peer.ask("UNREGISTER") == "UNREGISTERED"  # its own, nobody else's
            client = service.people.table.clients["guest-abcdefgh"]
            assert client.addr == seat.client.transport.get_extra_info("sockname")  # type: ignore[union-attr]
            # The seat plays on: it is dealt into the next round.
            for _ in range(100):
                if seat.in_round:
                    break
                await asyncio.sleep(0.1)
            assert seat.in_round and seat.status == "playing"
            # A seed client without a secret keeps the seed's rule: the same host moves it.
            plain = MiaClient("127.0.0.1", port, "plain")
            await plain.connect()
            await plain.register()
            assert await peer.ask("REGISTER;plain") == "REGISTERED"
            plain.close()
        finally:
            peer.close()
            await seat.stop()


async def test_the_terminal_person_chooses_the_bots_plays_numbered_rounds_and_leaves(
    tmp_path: Path,
) -> None:
    from rich.console import Console

    from herna.cli.mia_play import play_terminal

    async with serving(
        tmp_path, "mia", mia_people_timeout=3.0, mia_people_round_pause=0.2, mia_people_think=0.2
    ) as hall:
        service = hall.service("mia")
        assert isinstance(service, MiaService) and service.people is not None
        table = service.people.table
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        console = Console(record=True, width=100, color_system=None)
        session = asyncio.create_task(
            play_terminal(
                "127.0.0.1",
                service.people.port,
                "tess",
                lines.get,
                console,
                window=3.0,
                level="easy",
            )
        )

        async def answer() -> None:  # "1": roll on her turn, the lowest announcement after
            while True:
                await lines.put("1")
                await asyncio.sleep(0.4)

        feeder = asyncio.create_task(answer())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 40
        while table.stats.rounds_played < 3 and loop.time() < deadline:
            await asyncio.sleep(0.2)
        assert table.stats.rounds_played >= 3
        feeder.cancel()
        await asyncio.sleep(0.5)
        while not lines.empty():
            lines.get_nowait()
        text = console.export_text(clear=False)
        started = [ln for ln in text.splitlines() if ln.startswith("Round ") and "(in this" in ln]
        numbers = [int(ln.split(":")[0].split()[1]) for ln in started]
        assert numbers[:3] == [1, 2, 3], started  # the bots' table plays on meanwhile
        assert service.table.round_number > numbers[2]
        assert all("Bara-bot" in ln and "Petra-bot" not in ln for ln in started), started
        # q asks first; anything but y stays; q then y leaves and frees the seat at once.
        await lines.put("q")
        await lines.put("n")
        await asyncio.sleep(0.3)
        assert "tess" in table.clients
        await lines.put("q")
        await lines.put("y")
        assert await asyncio.wait_for(session, 5) == 0
        assert "tess" not in table.clients
        out = console.export_text()
        assert "Leave the table?" in out and "You stay at the table." in out
        # The records: tess as a person, the house bots as house bots, people's numbering.
        await asyncio.sleep(0.5)
        hall.records.flush()
        rounds = [
            m
            for m in hall.records.matches(game="mia", limit=2000)
            if m.table_id.startswith("people-round-")
        ]
        assert rounds
        kinds = {p.name: p.kind for m in rounds for p in m.players}
        assert kinds["tess"] == "person" and kinds["Bara-bot"] == "house-bot"

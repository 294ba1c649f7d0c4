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
        tmp_path, "mia", mia_people_timeout=3.0, mia_people_round_pause=0.2
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
        tmp_path, "mia", mia_people_timeout=3.0, mia_people_round_pause=0.2
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

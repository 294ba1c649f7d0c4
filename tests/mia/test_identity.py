"""Who may use a Mia name, over real UDP: house bot names belong to the house bots, reserved
names to whoever has their token (``REGISTER;name;token``), every other name works as the
seed describes; nobody takes over or unregisters someone else's registration.

A second machine is a socket bound to 127.0.0.2 (Linux routes all of 127/8 to loopback)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from herna.hall.db import make_engine
from herna.hall.identity import ReservedNames
from herna.servers.mia import MiaService
from tests.mia.helpers import RawPeer, port_of, rounds_seen
from tests.serve import serving

HOUSE = ("house-honest", "house-prob", "house-random")


def _mia(service: object) -> MiaService:
    assert isinstance(service, MiaService)
    return service


async def _house_rounds(watcher: RawPeer, count: int, limit: float = 15) -> list[list[str]]:
    """The next ``count`` complete rounds that every house bot played, as ``watcher`` (a
    registered spectator) saw them."""
    start = len(watcher.seen)
    async with asyncio.timeout(limit):
        while True:
            rounds = [
                r
                for r in rounds_seen(watcher.seen[start:])
                if set(r[0].split(";")[2].split(",")) >= set(HOUSE)
            ]
            if len(rounds) >= count:
                return rounds
            await watcher.recv(limit)


async def test_house_bots_cannot_be_evicted(tmp_path: Path) -> None:
    async with serving(tmp_path, "mia", mia_house_round_pause=0.05) as hall:
        mia = _mia(hall.service("mia"))
        port = port_of(mia)
        watcher = RawPeer(port)
        assert await watcher.ask("REGISTER_SPECTATOR;watcher") == "REGISTERED"
        await _house_rounds(watcher, 1)
        attacker = RawPeer(port)  # the same IP as the house bots: the seed's takeover rule
        for name in HOUSE:
            lines = (f"REGISTER;{name}", f"REGISTER;{name};guess", f"REGISTER_SPECTATOR;{name}")
            for line in lines:
                assert await attacker.ask(line) == "REJECTED;HOUSE_BOT_NAME", line
            assert await attacker.ask("UNREGISTER") == "UNREGISTERED"
        assert set(HOUSE) <= set(mia.table.clients)
        # The house keeps playing, every bot in every round.
        assert len(await _house_rounds(watcher, 5)) >= 5
        attacker.close()
        watcher.close()


async def test_a_house_bot_that_drops_out_comes_back(tmp_path: Path) -> None:
    async with serving(tmp_path, "mia", mia_house_round_pause=0.05) as hall:
        mia = _mia(hall.service("mia"))
        watcher = RawPeer(port_of(mia))
        assert await watcher.ask("REGISTER_SPECTATOR;watcher") == "REGISTERED"
        await _house_rounds(watcher, 1)
        # However it happens (here the table simply forgets it), the bot hears nothing more:
        # no heartbeat, no round. It must notice and register again by itself.
        old = mia.table.clients["house-prob"].addr
        mia.table.seats.remove(mia.table.clients["house-prob"])
        async with asyncio.timeout(20):
            while "house-prob" not in mia.table.clients:
                await asyncio.sleep(0.1)
        assert mia.table.clients["house-prob"].addr == old  # the same bot, registered again
        assert len(await _house_rounds(watcher, 2)) >= 2
        watcher.close()


async def test_reserved_names_need_their_token_and_names_in_use_stay_put(
    tmp_path: Path,
) -> None:
    token = ReservedNames(make_engine(f"sqlite:///{tmp_path / 'herna.db'}")).add("alice")
    async with serving(tmp_path, "mia", no_house_bots=True) as hall:
        mia = _mia(hall.service("mia"))
        port = port_of(mia)
        here, other = RawPeer(port), RawPeer(port, "127.0.0.2")
        assert other.addr[0] == "127.0.0.2"

        # A reserved name: refused without its token or with a wrong one, from anywhere.
        assert await here.ask("REGISTER;alice") == "REJECTED;RESERVED_NAME"
        assert await here.ask("REGISTER;alice;") == "REJECTED;RESERVED_NAME"
        assert await here.ask("REGISTER;alice;not-the-token") == "REJECTED;BAD_TOKEN"
        assert await here.ask("REGISTER_SPECTATOR;alice") == "REJECTED;RESERVED_NAME"
        assert "alice" not in mia.table.clients
        assert await here.ask(f"REGISTER;alice;{token}") == "REGISTERED"
        assert mia.table.clients["alice"].addr == here.addr
        # Its owner, on another machine, takes it along with the token ...
        assert await other.ask("REGISTER;alice") == "REJECTED;RESERVED_NAME"
        assert await other.ask(f"REGISTER;alice;{token}") == "REGISTERED"
        assert mia.table.clients["alice"].addr == other.addr
        # ... and the address it left cannot unregister it: UNREGISTER acts on the sender's
        # own registration only, and that address has none any more.
        assert await here.ask("UNREGISTER") == "UNREGISTERED"
        assert mia.table.clients["alice"].addr == other.addr

        # Unreserved names work as the seed says: the same IP (any port) moves the player,
        # another IP is refused, with or without a made-up token.
        bob = RawPeer(port)
        assert await bob.ask("REGISTER;bob") == "REGISTERED"
        for line in ("REGISTER;bob", "REGISTER;bob;anything", "REGISTER_SPECTATOR;bob"):
            assert await other.ask(line) == "REJECTED;NAME_ALREADY_TAKEN", line
        assert mia.table.clients["bob"].addr == bob.addr
        assert "alice" in mia.table.clients  # other's failed attempts did not cost it alice
        bob_moved = RawPeer(port)
        assert await bob_moved.ask("REGISTER;bob;anything") == "REGISTERED"
        assert mia.table.clients["bob"].addr == bob_moved.addr
        # A stranger's UNREGISTER touches nobody.
        stranger = RawPeer(port)
        assert await stranger.ask("UNREGISTER") == "UNREGISTERED"
        assert {"alice", "bob"} <= set(mia.table.clients)
        for peer in (here, other, bob, bob_moved, stranger):
            peer.close()


async def test_look_alike_names_are_the_names_they_look_like(tmp_path: Path) -> None:
    """``Аlice`` (Cyrillic А), ``alice`` and ``ALICE`` are ``Alice``; the same for house bots
    and for names in use from another address. The names stay as their owners spelled them."""
    async with serving(tmp_path, "mia", mia_house_round_pause=0.05) as hall:
        mia = _mia(hall.service("mia"))
        ReservedNames(hall.records.engine).add("Alice")
        hall.identity.reload()
        peer = RawPeer(mia_port := port_of(mia))
        for name in ("Аlice", "alice", "ALICE", "Alice"):
            assert await peer.ask(f"REGISTER;{name}") == "REJECTED;RESERVED_NAME", name
        for name in ("hоuse-honest", "House-Honest", "HOUSE-PR0B"):
            assert await peer.ask(f"REGISTER;{name}") == "REJECTED;HOUSE_BOT_NAME", name
        assert await peer.ask("REGISTER;Bob") == "REGISTERED"
        other = RawPeer(mia_port, "127.0.0.2")
        for name in ("bob", "Воb", "BOB"):
            assert await other.ask(f"REGISTER;{name}") == "REJECTED;NAME_ALREADY_TAKEN", name
        assert await other.ask("REGISTER;Cleo") == "REGISTERED"
        assert {"Bob", "Cleo"} <= set(mia.table.clients)
        assert not {"bob", "Воb", "BOB", "Аlice"} & set(mia.table.clients)
        peer.close()
        other.close()


async def test_idle_registrations_neither_pile_up_nor_hold_rounds_up(tmp_path: Path) -> None:
    """One host sends a hundred ``REGISTER;idleN`` and never joins: it gets at most its
    share of names (``TOO_MANY_NAMES`` after that), and the house bots' rounds start as soon as
    they have joined instead of waiting out every JOIN window for the idle names."""
    async with serving(tmp_path, "mia", mia_house_round_pause=0.05, mia_answer_window=1.0) as hall:
        mia = _mia(hall.service("mia"))
        port = port_of(mia)
        watcher = RawPeer(port)
        assert await watcher.ask("REGISTER_SPECTATOR;watcher") == "REGISTERED"
        await _house_rounds(watcher, 1)
        floods = [RawPeer(port, "127.0.0.2") for _ in range(100)]  # one port per name
        answers = [await f.ask(f"REGISTER;idle{i}") for i, f in enumerate(floods)]
        assert answers.count("REGISTERED") == 32
        assert set(answers[32:]) == {"REJECTED;TOO_MANY_NAMES"}
        flood = floods[0]
        # Another address still registers; the flood's own address re-registers a name it has.
        other = RawPeer(port, "127.0.0.3")
        assert await other.ask("REGISTER;cleo") == "REGISTERED"
        assert await flood.ask("REGISTER;idle0") == "REGISTERED"
        # The idle names cost at most the one round that waits for them (1 s), not every round.
        started = asyncio.get_running_loop().time()
        assert len(await _house_rounds(watcher, 6, limit=20)) >= 6
        assert asyncio.get_running_loop().time() - started < 4.0
        for peer in (watcher, other, *floods):
            peer.close()

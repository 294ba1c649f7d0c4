"""What a Mia spectator sees, message for message, where the reference server of seed 002
(janernsting/maexchen) and Herna used to differ: an announced Mia is uncovered at once, a SEE
before anyone rolled is announced before it loses, and ``REGISTER;name;extra`` registers
``name``. Real UDP on 127.0.0.1, ``herna serve --only mia``."""

from __future__ import annotations

import asyncio
from pathlib import Path

from herna.clients.mia import MiaClient
from herna.protocols.mia import Registered
from tests.mia.helpers import port_of, rounds_seen, scores_of, scripted
from tests.serve import serving


async def _spectator(port: int) -> MiaClient:
    spectator = MiaClient("127.0.0.1", port, "eve", spectator=True, transcript=True)
    await spectator.connect()
    await spectator.register()
    return spectator


def _all_three(transcript: list[str]) -> list[list[str]]:
    return [r for r in rounds_seen(transcript) if r[0].count(",") == 2]


async def test_an_announced_mia_is_uncovered_before_the_loss(tmp_path: Path) -> None:
    # Every player always rolls and announces Mia: every round ends with MIA (the first
    # player had it) or LIED_ABOUT_MIA, and the spectator must see the dice in between, as
    # the seed says. Losers and scores come sorted by name, as the reference server sends
    # them (registered here in another order).
    async with serving(tmp_path, "mia", no_house_bots=True) as hall:
        port = port_of(hall.service("mia"))
        spectator = await _spectator(port)
        players = [MiaClient("127.0.0.1", port, name) for name in ("cy", "ann", "bob")]
        for client in players:
            await client.connect()
            await client.register()
        tasks = [
            asyncio.create_task(scripted(c, lambda: "ROLL", lambda dice: "2,1")) for c in players
        ]
        transcript = spectator.transcript
        assert transcript is not None
        try:
            async with asyncio.timeout(60):
                while {r[-2].rsplit(";", 1)[1] for r in _all_three(transcript)[1:]} < {
                    "MIA",
                    "LIED_ABOUT_MIA",
                }:
                    await asyncio.sleep(0.05)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        rounds = _all_three(transcript)
        assert rounds
        points = scores_of(rounds[0][-1])
        for seen in rounds[1:]:
            number, order = seen[0].split(";")[1:]
            first, *others = order.split(",")
            dice = seen[3].removeprefix("ACTUAL DICE;")
            if dice == "2,1":
                lost = f"PLAYER LOST;{','.join(sorted(others))};MIA"
                points[first] += 1
            else:
                lost = f"PLAYER LOST;{first};LIED_ABOUT_MIA"
                for name in others:
                    points[name] += 1
            assert seen[:-1] == [
                f"ROUND STARTED;{number};{order}",
                f"PLAYER ROLLS;{first}",
                f"ANNOUNCED;{first};2,1",
                f"ACTUAL DICE;{dice}",
                lost,
            ], seen
            assert seen[-1] == "SCORE;" + ",".join(f"{n}:{points[n]}" for n in sorted(points))
        for client in (spectator, *players):
            client.close()


async def test_register_with_an_extra_field_registers_the_name(tmp_path: Path) -> None:
    # The reference servers register "bob" and ignore the rest; Herna said INVALID_NAME.
    # That field is where a reserved name's token travels.
    async with serving(tmp_path, "mia", no_house_bots=True) as hall:
        port = port_of(hall.service("mia"))
        spectator = await _spectator(port)
        transcript = spectator.transcript
        assert transcript is not None
        ann = MiaClient("127.0.0.1", port, "ann")
        await ann.connect()
        await ann.register()
        bob = MiaClient("127.0.0.1", port, "bob")
        await bob.connect()
        bob.send("REGISTER;bob;some-extra-field")
        assert await asyncio.wait_for(bob.receive(), 2) == Registered()
        tasks = [
            asyncio.create_task(scripted(c, lambda: "ROLL", lambda dice: "3,1")) for c in (ann, bob)
        ]
        try:
            async with asyncio.timeout(10):
                while not [r for r in rounds_seen(transcript) if r[0].count(",") == 1]:
                    await asyncio.sleep(0.05)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        assert "SCORE;ann:0,bob:0" in transcript
        for client in (spectator, ann, bob):
            client.close()


async def test_see_before_the_first_roll_is_announced_before_the_loss(tmp_path: Path) -> None:
    async with serving(tmp_path, "mia", no_house_bots=True) as hall:
        port = port_of(hall.service("mia"))
        spectator = await _spectator(port)
        transcript = spectator.transcript
        assert transcript is not None
        players = [MiaClient("127.0.0.1", port, name) for name in ("ann", "bob")]
        for client in players:
            await client.connect()
            await client.register()
        tasks = [
            asyncio.create_task(scripted(c, lambda: "SEE", lambda dice: dice)) for c in players
        ]
        try:
            async with asyncio.timeout(30):
                while len([r for r in rounds_seen(transcript) if r[0].count(",") == 1]) < 5:
                    await asyncio.sleep(0.05)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        rounds = [r for r in rounds_seen(transcript) if r[0].count(",") == 1]
        points = scores_of(rounds[0][-1])
        for seen in rounds[1:]:
            number, order = seen[0].split(";")[1:]
            first, second = order.split(",")
            points[second] += 1
            assert seen[:-1] == [
                f"ROUND STARTED;{number};{order}",
                f"PLAYER WANTS TO SEE;{first}",
                f"PLAYER LOST;{first};SEE_BEFORE_FIRST_ROLL",
            ], seen
            assert scores_of(seen[-1]) == points
        for client in (spectator, *players):
            client.close()

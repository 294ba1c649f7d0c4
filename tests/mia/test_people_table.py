"""The people's Mia table over real UDP: a second table with a person's answer window, where
house bots play at a person's pace with a seed-speaking client, while the bots' table keeps
the seed's 250 ms."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from herna.clients.mia import MiaClient
from herna.games.mia.dice import Dice
from herna.protocols.mia import (
    Announced,
    PlayerLost,
    Rolled,
    RoundStarted,
    RoundStarting,
    YourTurn,
)
from herna.servers.mia import MiaService
from herna.servers.mia.people import parse_strategies
from tests.serve import serving

FAULTS = ("DID_NOT_TAKE_TURN", "DID_NOT_ANNOUNCE", "INVALID_TURN")
SLOW = ("DID_NOT_TAKE_TURN", "DID_NOT_ANNOUNCE")
PACE = 0.6
"""A person's answer (seconds): more than twice the bots' table's 250 ms window."""


async def slow_player(
    client: MiaClient,
    rounds: int,
    pause: float,
    until: Callable[[PlayerLost], bool] | None = None,
) -> list[PlayerLost]:
    """Play ``rounds`` whole rounds like a person (or fewer: until a loss ``until`` accepts):
    every answer after ``pause`` seconds (far beyond 250 ms), rolling on the first turn of a
    round, seeing on the next ones, announcing the truth when it is high enough and the
    lowest higher throw otherwise."""
    results: list[PlayerLost] = []
    last: Dice | None = None
    in_round = False
    async for msg in client.messages():
        if isinstance(msg, RoundStarting):
            client.send(f"JOIN;{msg.token}")
        elif isinstance(msg, RoundStarted):
            last, in_round = None, client.name in msg.players
        elif isinstance(msg, Announced):
            last = Dice.parse(msg.dice)
        elif isinstance(msg, YourTurn):
            await asyncio.sleep(pause)
            client.send(f"{'SEE' if last is not None and len(results) % 2 else 'ROLL'};{msg.token}")
        elif isinstance(msg, Rolled):
            await asyncio.sleep(pause)
            rolled = Dice.parse(msg.dice)
            higher = [d for d in _all() if last is None or d > last]
            say = rolled if last is None or rolled > last else higher[0]
            client.send(f"ANNOUNCE;{say};{msg.token}")
        elif isinstance(msg, PlayerLost) and in_round:
            results.append(msg)
            if len(results) >= rounds or (until is not None and until(msg)):
                return results
    raise AssertionError("the server went away")


def _all() -> list[Dice]:
    from herna.games.mia.dice import ALL_DICE

    return list(ALL_DICE)


async def test_people_play_whole_rounds_with_house_bots_at_a_persons_pace(
    tmp_path: Path,
) -> None:
    async with serving(
        tmp_path, "mia", mia_people_timeout=20.0, mia_people_round_pause=0.2, mia_people_think=0.4
    ) as hall:
        service = hall.service("mia")
        assert isinstance(service, MiaService) and service.people is not None
        people = service.people
        assert people.answer_window == 20.0 and service.table.settings.answer_window == 0.25
        assert people.port != service.server.address[1]
        assert {n for n, _ in people.levels[""]} == {"Petra-bot", "Ota-bot"}
        # With nobody but its house bots, the people's table does not play.
        await asyncio.sleep(1.5)
        assert people.table.stats.rounds_played == 0
        assert service.table.stats.rounds_played > 0

        person = MiaClient("127.0.0.1", people.port, "tess", transcript=True)
        await person.connect()
        await person.register()
        # At the same time, a client as slow as a person at the bots' table loses for its
        # slowness: that table keeps the seed's 250 ms.
        slow_at_bots = MiaClient("127.0.0.1", service.server.address[1], "sloth")
        await slow_at_bots.connect()
        await slow_at_bots.register()
        started = time.monotonic()
        results, bots_side = await asyncio.gather(
            slow_player(person, 3, PACE),
            # until sloth is lost for slowness (a round may end before its turn comes)
            slow_player(slow_at_bots, 12, PACE, until=lambda r: r.reason in SLOW),
        )
        person.close()
        slow_at_bots.close()

        # Three whole rounds with the house bots: nobody ran out of time or sent nonsense,
        # though every answer of tess came late (PACE) and the bots thought too.
        assert len(results) == 3
        assert all(r.reason not in FAULTS for r in results), [r.reason for r in results]
        rounds = [line for line in (person.transcript or []) if line.startswith("ROUND STARTED")]
        assert all("Petra-bot" in r and "Ota-bot" in r for r in rounds[-3:])
        assert time.monotonic() - started > 3 * PACE
        assert any(
            line.startswith("ROLLED") for line in person.transcript or []
        )  # tess rolled (only she saw her dice)
        # The bots' table: sloth lost for being slow (unless a bot ended the round first).
        slow = [r for r in bots_side if r.reason in SLOW]
        assert slow and all(r.names == ("sloth",) for r in slow)
        assert service.table.stats.rounds_played > people.table.stats.rounds_played
        snap = service.snapshot()["people_table"]
        assert snap["answer_window"] == 20.0 and snap["port"] == people.port


async def test_people_table_options_are_checked() -> None:
    assert parse_strategies("probability, random") == ("probability", "random")
    with pytest.raises(ValueError, match="choose from"):
        parse_strategies("probability,clever")


async def test_bad_people_table_option_starts_nothing(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="mia-people-timeout"):
        async with serving(tmp_path, "mia", mia_people_timeout=0.0):
            pass


async def test_a_seat_that_lets_the_clock_run_out_three_times_leaves_the_table(
    tmp_path: Path,
) -> None:
    from herna.clients.mia_seat import MAX_MISSED, MiaSeat

    async with serving(tmp_path, "mia", mia_people_timeout=1.5, mia_people_round_pause=0.1) as hall:
        service = hall.service("mia")
        assert isinstance(service, MiaService) and service.people is not None
        seat = MiaSeat("127.0.0.1", service.people.port, "dozy", window=1.5)
        task = seat.start()
        await asyncio.wait_for(task, 60)  # it never acts: three timeouts, then it leaves
        assert seat.status == "gone" and "clock run out 3 times" in seat.problem
        assert seat.missed == MAX_MISSED and seat.rounds >= MAX_MISSED
        assert seat.last_result is not None
        assert "did not roll or look in time" in seat.last_result["words"] or (
            "did not announce in time" in seat.last_result["words"]
        )
        await asyncio.sleep(0.3)
        assert "dozy" not in service.people.table.clients  # UNREGISTER reached the table
        await seat.stop()

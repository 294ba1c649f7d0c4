"""Where each Onitama game's seed comes from (real sockets).

Seeds of finished games are published with their records, so they must not let anyone
predict the next deal: without ``--onitama-seed`` every game's seed is drawn from
:mod:`secrets`. With a fixed seed, the sequence of game seeds is :class:`SeedSource`'s, and a
game's stored seed alone reproduces its deal and who got White.
"""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path

import pytest

from herna.clients.onitama import run_bot
from herna.core.rng import SeedSource
from herna.games.onitama.bots import make_strategy
from tests.onitama.helpers import dealt
from tests.onitama.wire import Server, real_clock, running


async def _forfeit(server: Server, names: tuple[str, str]) -> tuple[list[str], str]:
    """One game between ``names`` (logged in in that order) that Black gives up: the START
    fields and the name of White."""
    white, black, fields = await server.pair(*names)
    await black.close()
    assert await white.line() == f"LOGOUT|{fields[2]}"
    server.clock.advance(61)
    assert (await white.line()).startswith(f"GAME_OVER|{fields[1]}|")
    return fields, fields[1]


async def test_each_game_seed_is_drawn_from_secrets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []
    real = secrets.randbits

    def watched(k: int) -> int:
        value = real(k)
        drawn.append(value)
        return value

    monkeypatch.setattr(secrets, "randbits", watched)
    async with running(tmp_path, clock=real_clock(), seed=None) as server:
        await asyncio.gather(
            run_bot("127.0.0.1", server.port, "ann", make_strategy("random", seed=1), games=3),
            run_bot("127.0.0.1", server.port, "bob", make_strategy("random", seed=2), games=3),
        )
        store = server.hall.records
        store.flush()
        seeds = [m.seed for m in store.matches(game="onitama")]
    assert len(seeds) >= 3
    # every stored seed is a fresh draw from secrets, none derived from another
    assert set(seeds) <= set(drawn)


async def test_a_fixed_seed_gives_the_same_games_and_each_seed_explains_its_game(
    tmp_path: Path,
) -> None:
    runs: list[list[int]] = []
    for run in range(2):
        async with running(tmp_path / str(run), seed=7, requeue=False) as server:
            expected = SeedSource(7)
            for game in range(4):
                names = (f"a{game}", f"b{game}")
                fields, white = await _forfeit(server, names)
                seed = expected.next_seed()
                # the first to log in plays White exactly when the seed is even
                assert white == names[seed & 1]
                assert fields[3] == ",".join(dealt(seed).cards())
            store = server.hall.records
            store.flush()
            matches = sorted(store.matches(game="onitama"), key=lambda m: m.table_id)
            runs.append([m.seed for m in matches])
    source = SeedSource(7)
    assert runs[0] == runs[1] == [source.next_seed() for _ in range(4)]

"""Where the tile server's game seeds come from: a fresh draw from :mod:`secrets` for each game
(published seeds never predict the next ones) unless ``--tiles-seed`` fixes the sequence; either
way a record's seed replays its game."""

from __future__ import annotations

import itertools
import secrets
from pathlib import Path
from typing import Any

import pytest

from herna.clients.tiles import run_bot
from herna.core.rng import SeedSource
from herna.hall.records import StoredMatch
from herna.hall.replays import replay_steps
from herna.servers.tiles import TilesService
from tests.serve import serving

QUICK: dict[str, Any] = {
    "tiles_no_showcase": True,
    "tiles_bot_delay": 0.0,
    "tiles_lobby_wait": 0.0,
    "tiles_max_rounds": 8,
}


async def games(tmp_path: Path, count: int, **options: Any) -> list[StoredMatch]:
    """``count`` games of tsuro (a bot and three house bots) on a fresh ``herna serve``."""
    tmp_path.mkdir(exist_ok=True)
    async with serving(tmp_path, "tiles", **{**QUICK, **options}) as hall:
        service = hall.service("tiles")
        assert isinstance(service, TilesService)
        run = await run_bot("127.0.0.1", service.port, "robo", "tsuro", "random", count, seed=3)
        assert len(run.games) == count
        store = hall.records
        store.flush()
        found = [store.get(m.id) for m in reversed(store.matches(game="tiles"))]
        return [m for m in found if m is not None]


async def test_each_game_seed_is_a_fresh_draw_from_secrets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []
    counter = itertools.count(1001)

    def randbits(k: int) -> int:
        drawn.append(next(counter))
        return drawn[-1]

    # Stand in for the entropy source only, to see which seed came from which draw.
    monkeypatch.setattr(secrets, "randbits", randbits)
    played = await games(tmp_path, 3)
    seeds = [m.seed for m in played]
    assert len(set(seeds)) == 3
    # Every game's seed is itself one draw from secrets, none derived from an earlier one.
    assert all(seed in drawn for seed in seeds), (seeds, drawn)
    assert drawn.index(seeds[0]) < drawn.index(seeds[1]) < drawn.index(seeds[2])


async def test_a_fixed_seed_deals_the_same_games_and_records_replay(tmp_path: Path) -> None:
    first = await games(tmp_path / "a", 2, tiles_seed=7)
    again = await games(tmp_path / "b", 2, tiles_seed=7)
    other = await games(tmp_path / "c", 2, tiles_seed=8)
    source = SeedSource(7)
    source.next_seed()  # the first draw seeds the hub's own choices (house bots, timeouts)
    assert [m.seed for m in first] == [source.next_seed(), source.next_seed()]
    assert [m.seed for m in again] == [m.seed for m in first]
    assert [m.events for m in again] == [m.events for m in first]
    assert [m.seed for m in other] != [m.seed for m in first]
    for match in first + other:
        final = replay_steps(match)[-1]["view"]
        assert final["outcome"]["reason"] == match.result["reason"]
        assert final["outcome"]["winners"] == match.result["winners"]

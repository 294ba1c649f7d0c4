"""Deal seeds (issue 14): each mariáš game's seed comes from :mod:`secrets`, so the published
seeds of past games say nothing about the next deal; ``--cgml-seed`` fixes the sequence for
reproducible runs; a stored game replays from its seed."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path

import pytest

from herna.clients.cgml import BotDecider, run_player
from herna.games.marias import GameLog, play_log
from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.protocols.cgml import messages as m
from herna.servers.cgml import PLUGIN
from herna.servers.cgml.seats import GroupSettings
from tests.serve import serve_args
from tests.servers.cgml.helpers import HOST, make_system


async def test_every_games_seed_is_drawn_from_secrets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []
    real = secrets.randbits

    def watched(k: int) -> int:  # the real entropy source, only watched
        value = real(k)
        drawn.append(value)
        return value

    monkeypatch.setattr(secrets, "randbits", watched)
    system = await make_system(tmp_path, GroupSettings(max_games=4), bot_servers=0)
    try:
        players = [m.PlayerRef(f"s{i}", f"S{i}", "bot") for i in range(3)]
        await asyncio.wait_for(
            asyncio.gather(
                *(run_player(HOST, system.login_port, p, BotDecider("random")) for p in players)
            ),
            30,
        )
    finally:
        await system.stop()
    system.records.flush()
    stored = system.records.matches(game="marias", limit=10)
    assert len(stored) == 4
    seeds = [s.seed for s in stored]
    assert len(set(seeds)) == 4
    assert set(seeds) <= set(drawn)
    # The stored seed and log replay the game to the recorded money.
    for short in stored:
        match = system.records.get(short.id)
        assert match is not None
        state = play_log(GameLog.from_json(match.result["log"]))
        assert GameLog.from_json(match.result["log"]).seed == match.seed
        scores = [p.score for p in sorted(match.players, key=lambda p: p.seat)]
        assert [float(x) for x in state.settlement().money] == scores


async def _one_run(tmp_path: Path, seed: int) -> list[tuple[int, object]]:
    """Three bots play two games on a `herna serve --cgml-seed SEED` hall: (seed, deal)."""
    records = RecordStore(f"sqlite:///{tmp_path / 'herna.db'}")
    hall = Hall(records=records)
    args = serve_args(
        tmp_path, "marias", host=HOST, cgml_seed=seed, no_house_bots=True, cgml_bot_delay=0.0
    )
    service = await PLUGIN.start(hall, args, {})
    try:
        port = service.login.player_address[1]  # type: ignore[attr-defined]
        players = [m.PlayerRef(f"r{i}", f"R{i}", "bot") for i in range(3)]
        await asyncio.wait_for(
            asyncio.gather(
                *(
                    run_player(HOST, port, p, BotDecider("rule", games=2, seed=i))
                    for i, p in enumerate(players)
                )
            ),
            30,
        )
    finally:
        await service.stop()
    records.flush()
    out = []
    for short in sorted(records.matches(game="marias", limit=10), key=lambda s: s.id):
        match = records.get(short.id)
        assert match is not None
        log = GameLog.from_json(match.result["log"])
        out.append((match.seed, (log.dealer, log.actions[:32])))  # the 32 deal actions
    records.close()
    return out


async def test_a_fixed_cgml_seed_deals_the_same_games_again(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "c").mkdir()
    first = await _one_run(tmp_path / "a", 42)
    again = await _one_run(tmp_path / "b", 42)
    other = await _one_run(tmp_path / "c", 43)
    assert len(first) == 2 and first == again
    assert [s for s, _ in other] != [s for s, _ in first]

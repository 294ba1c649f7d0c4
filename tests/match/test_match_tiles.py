"""``herna match tiles``: one seed both ways, the sides' seats swapped, real bot programs on
Herna's own tile server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from herna.cli import main
from herna.cli.match.entrants import parse_entrant
from herna.cli.match.onitama import MatchOptions
from herna.cli.match.tally import Tally
from herna.cli.match.tiles import HOUSE_STRATEGIES, run_tiles, sides_of
from herna.hall.hall import Hall
from herna.hall.records import RecordStore


async def test_each_pair_is_one_seed_with_the_seats_swapped(tmp_path: Path) -> None:
    records = RecordStore(f"sqlite:///{tmp_path / 'match.db'}")
    hall = Hall(records=records)
    specs = {
        "A": parse_entrant("A", "house:goal", HOUSE_STRATEGIES),
        "B": parse_entrant("B", "house:random", HOUSE_STRATEGIES),
    }
    tally = Tally(planned_pairs=2)
    try:
        await run_tiles(
            hall, specs, MatchOptions(2, 1, 9, 5.0, 0.0, 20.0, tmp_path), tally, lambda: None,
            "tsuro", 4,
        )  # fmt: skip
        records.flush()
        games = sorted(records.matches(game="tiles"), key=lambda m: m.id)
    finally:
        await hall.stop()
        records.close()
    assert tally.games == 4 and tally.penta.pairs == 2 and len(games) == 4
    names = {"A": "engine-a", "B": "engine-b"}
    for index in range(2):
        first, second = games[2 * index], games[2 * index + 1]
        assert first.seed == second.seed  # the same tiles, draws and dice
        for game, side in ((first, "A"), (second, "B")):
            seated = [p.name.removesuffix("-2") for p in sorted(game.players, key=lambda p: p.seat)]
            assert seated == [names[s] for s in sides_of(4, side)]
    assert games[0].seed != games[2].seed


def test_against_a_bot_program(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    code = main(
        [
            "match", "tiles", "house:goal",
            "herna bot tiles --host {host} --port {port} --name {name} --rules {rules} "
            "--strategy random --no-start --no-reconnect --quiet",
            "--rules", "tsuro", "--games", "2", "--seed", "4",
            "--json", str(out), "--log-dir", str(tmp_path),
        ]
    )  # fmt: skip
    assert code == 0
    result: dict[str, Any] = json.loads(out.read_text())
    assert result["game"] == "tiles" and result["games"] == 2 and result["pairs"] == 1
    assert result["wins_a"] + result["draws"] + result["wins_b"] == 2
    assert (tmp_path / "engine-b-1.log").exists() and (tmp_path / "engine-b-2-1.log").exists()

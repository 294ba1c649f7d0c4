"""``herna match onitama`` end to end: real bot processes on real sockets, Herna's own server."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from herna.cli import main
from herna.cli.match.entrants import parse_entrant
from herna.cli.match.onitama import MatchOptions, run_onitama
from herna.cli.match.tally import Tally
from herna.hall.hall import Hall
from herna.hall.records import RecordStore

FAULTY = Path(__file__).with_name("faulty_bot.py")


def faulty(mode: str) -> str:
    return f"{sys.executable} {FAULTY} {mode}"


def match(tmp_path: Path, *argv: str) -> tuple[int, dict[str, Any]]:
    out = tmp_path / "result.json"
    code = main(["match", "onitama", *argv, "--json", str(out), "--log-dir", str(tmp_path)])
    return code, json.loads(out.read_text()) if out.exists() else {}


def test_crashing_bot_forfeits_each_game_and_is_restarted(tmp_path: Path) -> None:
    code, result = match(tmp_path, "house:random", faulty("crash"), "--games", "4")
    assert code == 0
    assert result["games"] == 4
    assert result["wins_a"] == 4
    assert result["forfeits"]["B"] == {"crash": 4, "stall": 0, "time": 0, "illegal": 0}
    assert result["forfeits"]["A"] == {"crash": 0, "stall": 0, "time": 0, "illegal": 0}
    assert result["pentanomial"] == [0, 0, 0, 0, 2]
    starts = (tmp_path / "B-1.log").read_text().count("--- start ")
    assert starts >= 4  # one start per game: it crashed in each and was started again


def test_illegal_move_forfeits(tmp_path: Path) -> None:
    code, result = match(tmp_path, faulty("illegal"), "house:greedy", "--games", "2")
    assert code == 0
    assert result["wins_b"] == 2
    assert result["forfeits"]["A"]["illegal"] == 2


def test_stalled_bot_is_killed_and_forfeits(tmp_path: Path) -> None:
    code, result = match(
        tmp_path, "house:random", faulty("stall"), "--games", "2", "--stall", "0.3"
    )
    assert code == 0
    assert result["forfeits"]["B"] == {"crash": 0, "stall": 2, "time": 0, "illegal": 0}


def test_out_of_time_forfeits(tmp_path: Path) -> None:
    code, result = match(
        tmp_path,
        faulty("stall"),
        "house:random",
        "--games",
        "2",
        "--stall",
        "20",
        "--game-clock",
        "0.3",
    )
    assert code == 0
    assert result["forfeits"]["A"] == {"crash": 0, "stall": 0, "time": 2, "illegal": 0}


def test_herna_bot_program_plays_a_house_bot(tmp_path: Path) -> None:
    cmd = "herna bot onitama --strategy greedy --host {host} --port {port} --name {name}"
    code, result = match(tmp_path, cmd, "house:random", "--games", "4", "--concurrency", "2")
    assert code == 0
    assert result["games"] == 4
    assert result["wins_a"] + result["wins_b"] == 4
    assert all(n == 0 for side in result["forfeits"].values() for n in side.values())
    assert (tmp_path / "A-1.log").exists() and (tmp_path / "A-2.log").exists()


def test_sprt_stops_early_on_a_clearly_stronger_bot(tmp_path: Path) -> None:
    code, result = match(
        tmp_path, "house:alphabeta:2", "house:random", "--games", "400", "--sprt", "0,100"
    )
    assert code == 0
    assert result["sprt"]["verdict"] == "H1"
    assert result["sprt"]["llr"] >= 2.94
    assert result["games"] < 400
    assert result["elo"] == "+inf" or result["elo"] > 100


def test_missing_program_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = match(tmp_path, "house:random", "no-such-bot-program --fast")
    assert code == 1
    out = capsys.readouterr().out.strip()
    assert out == (
        "herna match: B: no such program: 'no-such-bot-program' "
        "(command 'no-such-bot-program --fast')"
    )


def test_unknown_house_strategy_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = match(tmp_path, "house:clever", "house:random")
    assert code == 1
    assert "A: unknown house bot 'clever'" in capsys.readouterr().out


def test_program_that_never_plays_stops_the_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = match(tmp_path, "house:random", faulty("die"))
    assert code == 1
    out = capsys.readouterr().out
    assert "B:" in out and "exited 3 times without playing a game" in out
    assert "giving up before connecting" in out


async def test_each_pair_plays_the_same_cards_both_ways(tmp_path: Path) -> None:
    records = RecordStore(f"sqlite:///{tmp_path / 'm.db'}")
    hall = Hall(records=records)
    started = hall.bus.subscribe(lambda e: e.game == "onitama" and e.kind == "game_started")
    specs = {
        "A": parse_entrant("A", "house:greedy", ("greedy", "random")),
        "B": parse_entrant("B", "house:random", ("greedy", "random")),
    }
    options = MatchOptions(
        pairs=6,
        concurrency=2,
        seed=7,
        stall=0,
        game_clock=0,
        start_timeout=10,
        log_dir=tmp_path,
    )
    tally = Tally(planned_pairs=6)
    try:
        running = asyncio.create_task(run_onitama(hall, specs, options, tally, lambda: None))
        while len(hall.services) < 2:
            await asyncio.sleep(0.01)
        # A stranger cannot take a match seat: the entrants' names are reserved.
        port = hall.services[0].port  # type: ignore[attr-defined]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"LOGIN|engine-a\n")
        assert (await reader.readline()).startswith(b"LOGIN_FAILED|HOUSE_BOT_NAME|")
        writer.close()
        await running
    finally:
        await hall.stop()
        records.close()
    games: dict[str, list[tuple[str, str]]] = {}
    for event in started.drain():
        cards = ",".join(event.data["cards"])
        games.setdefault(cards, []).append((event.data["white"], event.data["black"]))
    assert tally.penta.pairs == 6
    assert len(games) == 6  # six different deals ...
    for seats in games.values():  # ... each played once with A and once with B as White
        assert sorted(seats) == [("engine-a", "engine-b"), ("engine-b", "engine-a")]

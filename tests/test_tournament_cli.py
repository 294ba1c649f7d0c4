"""``herna tournament`` end to end: house bots and bot programs on Herna's own servers (real
sockets), results in the hall's database, replays linked, crosstable totals checked."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from herna.cli import main
from herna.hall.records import RecordStore

FAULTY = Path(__file__).parent / "match" / "faulty_bot.py"
ONITAMA_BOTS = ["house:random", "house:greedy", "house:alphabeta:1", "house:alphabeta:2"]


def tournament(tmp_path: Path, *argv: str) -> tuple[int, dict[str, Any], str]:
    out = tmp_path / "result.json"
    db = f"sqlite:///{tmp_path / 'hall.db'}"
    code = main(
        [
            "tournament",
            "run",
            *argv,
            "--json",
            str(out),
            "--log-dir",
            str(tmp_path),
            "--database-url",
            db,
        ]
    )
    return code, json.loads(out.read_text()) if out.exists() else {}, db


def check_totals(result: dict[str, Any], points_per_game: float) -> None:
    """Each row of the crosstable adds up to the entrant's points; all points add up to what
    the games hand out."""
    rows = {r["name"]: r for r in result["standings"]}
    for name, row in result["crosstable"].items():
        total = sum(c["points"] for cells in row.values() for c in cells)
        byes = rows[name]["byes"] * result["bye_points"]
        assert total + byes == pytest.approx(rows[name]["points"])
    games = [g for g in result["games"] if not g["bye"]]
    byes = len(result["games"]) - len(games)
    assert sum(r["points"] for r in rows.values()) == pytest.approx(
        len(games) * points_per_game + byes * result["bye_points"]
    )


def check_replays(db: str, result: dict[str, Any], game: str) -> None:
    store = RecordStore(db)
    try:
        for g in result["games"]:
            if g["bye"]:
                continue
            assert g["match_id"] is not None
            stored = store.get(g["match_id"])
            assert stored is not None and stored.game == game
            assert [p.name for p in stored.players] == g["seats"]
            assert stored.events  # a replayable log
    finally:
        store.close()


def test_round_robin_of_four_onitama_house_bots(tmp_path: Path) -> None:
    code, result, db = tournament(
        tmp_path, "--game", "onitama", "--format", "round-robin", "--seed", "7", *ONITAMA_BOTS
    )
    assert code == 0
    assert result["status"] == "finished"
    names = {"random", "greedy", "alphabeta-1", "alphabeta-2"}
    assert {r["name"] for r in result["standings"]} == names
    games = result["games"]
    assert len(games) == 6
    assert {frozenset(g["seats"]) for g in games} == {
        frozenset((a, b)) for a in names for b in names if a < b
    }
    assert all(r["games"] == 3 for r in result["standings"])
    whites = Counter(g["seats"][0] for g in games)
    assert all(1 <= whites[n] <= 2 for n in names)  # colours balanced
    check_totals(result, 1.0)
    assert [t["name"] for t in result["tie_breaks"]] == ["Sonneborn–Berger", "Wins"]
    check_replays(db, result, "onitama")


def test_round_robin_of_four_tiles_house_bots_rotates_seats(tmp_path: Path) -> None:
    code, result, db = tournament(
        tmp_path, "--game", "tiles", "--format", "round-robin", "--seed", "3",
        "house:random", "house:goal", "g2=house:goal", "r2=house:random",
    )  # fmt: skip
    assert code == 0
    games = result["games"]
    assert len(games) == 4  # one table of four, one game per seat
    for name in ("random", "goal", "g2", "r2"):
        assert sorted(g["seats"].index(name) for g in games) == [0, 1, 2, 3]
    check_totals(result, 2.0)  # a table of four hands out 4·3/2 pairwise points / 3
    check_replays(db, result, "tiles")


def test_crashing_program_forfeits_its_games(tmp_path: Path) -> None:
    code, result, _ = tournament(
        tmp_path, "--game", "onitama", "house:random", "house:greedy",
        f"crasher={sys.executable} {FAULTY} crash",
    )  # fmt: skip
    assert code == 0
    crasher = next(r for r in result["standings"] if r["name"] == "crasher")
    assert crasher["points"] == 0 and crasher["losses"] == 2 and crasher["byes"] == 1
    forfeits = [g["forfeit"] for g in result["games"] if "crasher" in g["seats"] and not g["bye"]]
    assert forfeits == ["crash", "crash"]


def test_program_that_never_logs_in_is_a_no_show(tmp_path: Path) -> None:
    code, result, _ = tournament(
        tmp_path, "--game", "onitama", "--start-timeout", "3", "house:random", "house:greedy",
        f"ghost={sys.executable} {FAULTY} die",
    )  # fmt: skip
    assert code == 0
    ghost = next(r for r in result["standings"] if r["name"] == "ghost")
    assert ghost["points"] == 0 and ghost["losses"] == 2
    assert {g["forfeit"] for g in result["games"] if "ghost" in g["seats"] and not g["bye"]} == {
        "no-show"
    }
    check_totals(result, 1.0)


def test_swiss_with_a_bye(tmp_path: Path) -> None:
    code, result, _ = tournament(
        tmp_path, "--game", "onitama", "--format", "swiss", "--rounds", "3", "--seed", "5",
        *ONITAMA_BOTS, "house:alphabeta:3",
    )  # fmt: skip
    assert code == 0
    games = result["games"]
    for rnd in (1, 2, 3):
        seats = [s for g in games if g["round"] == rnd for s in g["seats"]]
        assert len(seats) == len(set(seats)) == 5
    byes = [g["seats"][0] for g in games if g["bye"]]
    assert len(byes) == 3 and len(set(byes)) == 3  # a different entrant each round
    pairs = [frozenset(g["seats"]) for g in games if not g["bye"]]
    assert len(pairs) == len(set(pairs))  # no rematches
    assert [t["name"] for t in result["tie_breaks"]] == ["Buchholz", "Sonneborn–Berger"]
    rows = {r["name"]: r for r in result["standings"]}
    for name in byes:
        assert rows[name]["byes"] == 1
    total = sum(r["points"] for r in rows.values())
    assert result["bye_points"] == 1  # a bye is worth a point in Swiss
    assert total == pytest.approx(len(pairs) + len(byes))
    check_totals(result, 1.0)


def test_arena_repairs_without_immediate_rematches(tmp_path: Path) -> None:
    code, result, _ = tournament(
        tmp_path, "--game", "onitama", "--format", "arena", "--duration", "2",
        "house:random", "house:greedy", "r2=house:random", "g2=house:greedy",
    )  # fmt: skip
    assert code == 0
    games = sorted(result["games"], key=lambda g: g["round"])
    assert len(games) >= 4
    last: dict[str, str] = {}
    for g in games:
        a, b = g["seats"]
        assert last.get(a) != b and last.get(b) != a
        last[a], last[b] = b, a
    check_totals(result, 1.0)


def test_show_exports_csv_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, result, db = tournament(tmp_path, "--game", "onitama", *ONITAMA_BOTS[:3])
    assert code == 0
    capsys.readouterr()
    assert main(["tournament", "show", str(result["id"]), "--csv", "--database-url", db]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "rank,name,points,Sonneborn–Berger,Wins,games,wins,draws,losses,byes"
    assert len(lines) == 4
    assert main(["tournament", "show", str(result["id"]), "--json", "--database-url", db]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["standings"] == result["standings"]
    assert main(["tournament", "list", "--database-url", db]) == 0
    assert main(["tournament", "show", "999", "--database-url", db]) == 1


def test_bad_entrants_are_refused(tmp_path: Path) -> None:
    assert tournament(tmp_path, "house:random", "house:nosuch")[0] == 2
    assert tournament(tmp_path, "house:random")[0] == 2
    assert tournament(tmp_path, "house-1=house:random", "house:greedy")[0] == 2
    assert tournament(tmp_path, "--game", "tiles", "house:random", "house:goal")[0] == 2


def test_arena_of_two_plays_on(tmp_path: Path) -> None:
    # Nobody else can come free: the two meet again rather than wait for ever.
    code, result, _ = tournament(
        tmp_path, "--format", "arena", "--duration", "1.5", "house:random", "house:greedy"
    )
    assert code == 0
    assert len(result["games"]) >= 2


def test_tiles_program_entrant_gets_the_rules(tmp_path: Path) -> None:
    program = "herna bot tiles --host {host} --port {port} --name {name} --rules {rules} --no-start"
    code, result, _ = tournament(
        tmp_path, "--game", "tiles", "--rules", "tsuro", "--rounds", "1",
        "house:random", "house:goal", "g2=house:goal", f"prog={program}",
    )  # fmt: skip
    assert code == 0
    (game,) = result["games"]
    assert "prog" in game["seats"] and game["forfeit"] is None
    assert result["settings"]["rules"] == "tsuro"


def test_mia_session_scoreboard(tmp_path: Path) -> None:
    code, result, db = tournament(
        tmp_path, "--game", "mia", "--format", "session", "--duration", "2", "--seed", "1",
        "house:random", "house:honest", "house:probability",
    )  # fmt: skip
    assert code == 0
    points = {r["name"]: r["points"] for r in result["standings"]}
    assert set(points) == {"random", "honest", "probability"}
    assert sum(points.values()) > 0
    assert [r["points"] for r in result["standings"]] == sorted(points.values(), reverse=True)
    first, last = result["settings"]["first_match"], result["settings"]["last_match"]
    store = RecordStore(db)
    try:
        rounds = store.matches(game="mia", limit=100_000)
        assert {m.id for m in rounds} == set(range(first, last + 1))
        # Each round gives a point to every player who did not lose it.
        made = Counter(p.name for m in rounds for p in m.players if p.score > 0)
        assert {n: made[n] for n in points} == points
    finally:
        store.close()


def test_mia_only_as_a_session(tmp_path: Path) -> None:
    assert tournament(tmp_path, "--game", "mia", "house:random", "house:honest")[0] == 2
    assert tournament(tmp_path, "--format", "session", "house:random", "house:greedy")[0] == 2


def test_reserved_names_are_not_taken(tmp_path: Path) -> None:
    # A name reserved with `herna bots add` belongs to its token holder: no tournament may
    # record games under it (nor under the same name in other case).
    db = f"sqlite:///{tmp_path / 'hall.db'}"
    assert main(["bots", "add", "Alice", "--database-url", db]) == 0
    code, result, _ = tournament(tmp_path, "alice=house:random", "house:greedy")
    assert code == 2 and result == {}
    store = RecordStore(db)
    try:
        assert store.count() == 0
    finally:
        store.close()


def test_marias_tables_of_three_rotate_seats(tmp_path: Path) -> None:
    code, result, db = tournament(
        tmp_path, "--game", "marias", "--deals", "2", "--seed", "4",
        "house:random", "house:heuristic", "h2=house:heuristic",
    )  # fmt: skip
    assert code == 0
    games = result["games"]
    assert len(games) == 3  # one table of three, one group per seat
    for name in ("random", "heuristic", "h2"):
        assert sorted(g["seats"].index(name) for g in games) == [0, 1, 2]
    check_totals(result, 1.5)  # a table of three hands out 3·2/2 pairwise points / 2
    check_replays(db, result, "marias")
    store = RecordStore(db)
    try:
        assert store.count("marias") == 6  # two deals a table
    finally:
        store.close()


def test_marias_takes_house_bots_only(tmp_path: Path) -> None:
    program = f"p={sys.executable} -c pass"
    assert tournament(tmp_path, "--game", "marias", "house:random", "house:random", program)[0] == 2

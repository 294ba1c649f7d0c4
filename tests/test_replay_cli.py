"""``herna replay``: every game listed with its result in words, and each game told as text
from its stored record (run in-process against a real SQLite file)."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from herna.cli import main
from herna.games.marias.cards import CARD_CODES
from herna.games.marias.names import card_name
from herna.games.marias.text import RANK_CS
from herna.hall.records import RecordStore
from tests.records import at, marias_deal, mia_round, onitama_game, tiles_game

T0 = datetime(2024, 5, 1, 18, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # rich wraps table cells to the terminal's width


@pytest.fixture
def db(tmp_path: Path) -> tuple[str, dict[str, int]]:
    url = f"sqlite:///{tmp_path / 'replay.db'}"
    store = RecordStore(url)
    ids = {
        "marias": store.save(at(marias_deal(3), T0)),
        "onitama": store.save(at(onitama_game(5), T0)),
        "tiles": store.save(at(tiles_game(7), T0)),
    }
    # Many Mia rounds after them: the listing must still show every game.
    for i in range(60):
        ids["mia"] = store.save(
            mia_round(i + 1, ["alice", "bob", "carol"], i, T0 + timedelta(minutes=i))
        )
    store.close()
    return url, ids


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["replay", *args]) == 0
    return capsys.readouterr().out


def test_listing_shows_every_game(
    db: tuple[str, dict[str, int]], capsys: pytest.CaptureFixture[str]
) -> None:
    url, ids = db
    out = run(capsys, "--database-url", url, "--last", "3")
    for game in ("marias", "mia", "onitama", "tiles"):
        assert re.search(rf"^\s*{game}\s*$", out, re.M), game
    assert " lost: " in out  # Mia's result in words
    assert "played" in out  # mariáš: who played what
    only = run(capsys, "--database-url", url, "--game", "onitama", "--json")
    assert [m["id"] for m in json.loads(only)] == [ids["onitama"]]
    carol = json.loads(
        run(capsys, "--database-url", url, "--player", "carol", "--json", "--last", "100")
    )
    assert {m["game"] for m in carol} == {"mia", "marias"}
    assert len([m for m in carol if m["game"] == "mia"]) == 60
    rows = list(
        csv.DictReader(
            io.StringIO(
                run(capsys, "--database-url", url, "--player", "alice", "--csv", "--last", "5")
            )
        )
    )
    assert len(rows) == 5 + 3 and all(r["player"] == "alice" for r in rows)


def test_marias_is_told_in_czech(
    db: tuple[str, dict[str, int]], capsys: pytest.CaptureFixture[str]
) -> None:
    url, ids = db
    out = run(capsys, str(ids["marias"]), "--database-url", url)
    for word in (
        "Rozdání (the deal)",
        "talon:",
        "Licitace (bidding)",
        "Vyúčtování (settlement)",
        "money:",
    ):
        assert word in out, word
    assert "forhont" in out and "zadák" in out
    assert any(rank in out for rank in RANK_CS)
    assert any(suit in out for suit in ("červené", "zelené", "kule", "žaludy"))
    tricks = re.findall(r"^Štych (\d+): (.*) → (\w+)$", out, re.M)
    assert [int(n) for n, _, _ in tricks] == list(range(1, len(tricks) + 1))
    store = RecordStore(url)
    match = store.get(ids["marias"])
    assert match is not None
    settled = match.result["details"]
    if not settled.get("renonc") and len(tricks) == 10:
        names = [p.name for p in match.players]
        for name, money in zip(names, settled["money"], strict=True):
            assert f"{name} {money:+d}" in out
    raw = json.loads(run(capsys, str(ids["marias"]), "--database-url", url, "--json"))
    assert raw["events"] and raw["events"][0]["kind"] == "action"


def test_marias_is_told_all_in_czech_with_language_cs(
    db: tuple[str, dict[str, int]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--language cs`` (and a Czech locale, by default) tells the deal in Czech sentences,
    the cards agreeing with their ranks and in the case each sentence needs (issue #29)."""
    url, ids = db
    out = run(capsys, str(ids["marias"]), "--database-url", url, "--language", "cs")
    for word in ("Hra č.", "místo 1:", "Výsledek:", "Rozdání:", "Licitace:", "Vyúčtování:"):
        assert word in out, word
    assert "prostřední" in out and "middle" not in out
    # the talon in the nominative, what is laid away in the accusative, each joined with "a"
    found = re.search(
        r"vyhrává licitaci \((.+)\), bere talon \((.+)\) a odkládá (.+)\.$", out, re.M
    )
    assert found, out
    assert re.fullmatch(r"\w+ \w+ a \w+ \w+", found.group(2)), found.group(2)
    assert found.group(2).split(" a ")[0] in {card_name(c) for c in CARD_CODES}
    assert re.fullmatch(r"\w+ \w+ a \w+ \w+", found.group(3)), found.group(3)
    assert any(found.group(3).split(" a ")[0] == card_name(c, "cs", "acc") for c in CARD_CODES)
    tricks = re.findall(r"^Štych (\d+): (.*) → (\w+)$", out, re.M)
    assert tricks
    named = {card_name(c) for c in CARD_CODES}
    for _, played, _ in tricks:
        for item in played.split(", "):
            assert item.split(" ", 1)[1] in named, item  # "bob kulový král"
    for english in ("wins", "the deal", "money", "points", "seat ", "Result", "played"):
        assert english not in out, english
    assert "peníze:" in out
    # A Czech locale makes Czech the default; --language en still says English.
    monkeypatch.setenv("LANG", "cs_CZ.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert "Vyúčtování:" in run(capsys, str(ids["marias"]), "--database-url", url)
    english = run(capsys, str(ids["marias"]), "--database-url", url, "--language", "en")
    assert "Vyúčtování (settlement):" in english and "wins the licitace" in english
    listing = run(capsys, "--database-url", url, "--game", "marias", "--language", "cs")
    assert "výsledek" in listing and "aktér" in listing and "played" not in listing


def test_onitama_moves_and_board(
    db: tuple[str, dict[str, int]], capsys: pytest.CaptureFixture[str]
) -> None:
    url, ids = db
    out = run(capsys, str(ids["onitama"]), "--database-url", url)
    moves = re.findall(r"^\s*(\d+)\. \w+ \((white|black)\): (\w+ [a-e][1-5][a-e][1-5])", out, re.M)
    assert moves and [int(n) for n, _, _ in moves] == list(range(1, len(moves) + 1))
    assert [c for _, c, _ in moves[:2]] in (["white", "black"], ["black", "white"])
    assert f"Board after move {len(moves)}:" in out
    ranks = re.findall(r"^  ([1-5]) ([.wWbB ]{9}) \1$", out, re.M)
    assert [r for r, _ in ranks] == ["5", "4", "3", "2", "1"]
    start = run(capsys, str(ids["onitama"]), "--database-url", url, "--move", "0")
    assert "Board at the start:" in start
    board = [row for _, row in re.findall(r"^  ([1-5]) ([.wWbB ]{9}) \1$", start, re.M)]
    assert board == ["b b B b b", ". . . . .", ". . . . .", ". . . . .", "w w W w w"]
    # The header in words: seats from 1, kinds as people say them, the seed said what it is.
    assert re.search(rf"^Game #{ids['onitama']}: Onitama, finished \d{{4}}-", out, re.M)
    assert re.search(r"^  seat 1: \S+ \((house bot|bot|person)\), score ", out, re.M)
    assert "seat 0" not in out and "house-bot" not in out
    assert "random seed " in out
    two = run(capsys, str(ids["onitama"]), "--database-url", url, "--move", "2")
    assert "Board after move 2:" in two
    assert "Result:" in out


def test_tiles_turns_in_words(
    db: tuple[str, dict[str, int]], capsys: pytest.CaptureFixture[str]
) -> None:
    url, ids = db
    out = run(capsys, str(ids["tiles"]), "--database-url", url)
    assert "Rules: Tsuro." in out  # the rules by name, as every page says them
    turns = re.findall(r"^\s*(\d+)\. (.+)$", out, re.M)
    assert turns and all(
        "placed a tile" in t or "eliminated" in t or "Game over" in t for _, t in turns[:3]
    )
    assert "Result:" in out


def test_mia_rolls_and_announcements(
    db: tuple[str, dict[str, int]], capsys: pytest.CaptureFixture[str]
) -> None:
    url, ids = db
    out = run(capsys, str(ids["mia"]), "--database-url", url)
    assert "Order of play: " in out
    assert re.search(r"^\w+ rolls and gets [1-6],[1-6]$", out, re.M)  # the host sees the dice
    assert re.search(r"^\w+ announces [1-6],[1-6]", out, re.M)
    assert re.search(r"^Result: .+ lost: [a-z][^_]+\.$", out, re.M)


def test_missing_match_and_csv_without_player(
    db: tuple[str, dict[str, int]], capsys: pytest.CaptureFixture[str]
) -> None:
    url, _ = db
    assert main(["replay", "999999", "--database-url", url]) == 1
    assert main(["replay", "--csv", "--database-url", url]) == 2

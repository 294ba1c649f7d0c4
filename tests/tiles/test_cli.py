"""herna rules check|show, herna play tiles (local and online), herna bot tiles."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from herna.cli import main
from herna.cli.tiles import play_local, play_online
from herna.games.tiles.rules import load_rules_file, shipped_rules
from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.servers.tiles import TilesSettings, serve


def test_rules_check_valid_and_invalid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "check", "labyrinth", str(shipped_rules()["tsuro"])]) == 0
    out = capsys.readouterr().out
    assert out.count("valid (0 error(s), 0 warning(s))") == 2
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "turn_structure": ["jump"],
                "board": {"width": 2, "height": 1},
                "tiles": [{"connections": ["U3"]}],
                "players": [
                    {
                        "starting_x": 5,
                        "starting_y": 0,
                        "starting_side": "L",
                        "starting_path_index": 0,
                    }
                ],
                "fill_unspecified_files": True,
            }
        )
    )
    assert main(["rules", "check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}: error: turn_structure[0]: expected one of move" in out
    assert f"{bad}: error: tiles[0].connections[0]: point U3" in out
    assert f"{bad}: error: players[0].starting_x: column 5 is off the board" in out
    assert "warning: fill_unspecified_files: deprecated spelling" in out
    assert out.strip().endswith("invalid (3 error(s), 1 warning(s))")
    assert main(["rules", "check", "--json", str(bad)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["valid"] is False and len(report["problems"]) == 4
    assert main(["rules", "check", str(tmp_path / "nope.json")]) == 1


def test_rules_check_strict_fails_on_warnings(tmp_path: Path) -> None:
    data = json.loads(shipped_rules()["labyrinth"].read_text())
    data["fill_unspecified_files"] = data.pop("fill_unspecified_tiles")
    path = tmp_path / "alias.json"
    path.write_text(json.dumps(data))
    assert main(["rules", "check", str(path)]) == 0
    assert main(["rules", "check", "--strict", str(path)]) == 1


def test_rules_show_draws_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "labyrinth", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("labyrinth: 7x7 board, 50 tiles, 4 players")
    assert "push: the pushed-out tile goes to the pile" in out
    assert "┼" in out or "┬" in out or "├" in out
    assert "Pile: 1 tile(s); top:" in out
    assert main(["rules", "show", "tsuro", "--seat", "1"]) == 0
    assert "3 tile(s) in hand" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["rules", "check", "--help"],
        ["rules", "show", "--help"],
        ["play", "tiles", "--help"],
        ["bot", "tiles", "--help"],
    ],
)
def test_help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "labyrinth" in out
    if argv[:2] == ["play", "tiles"]:
        assert "--language {en,cs}" in out


def test_play_local_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    rules = load_rules_file(shipped_rules()["tsuro"])
    answers = iter(["bogus", "999", "1"] + ["1"] * 200)
    assert play_local(rules, 0, "random", seed=3, ask=lambda _: next(answers)) == 0
    out = capsys.readouterr().out
    assert "type a number from 1 to" in out and "Game over:" in out


def test_play_local_quit(capsys: pytest.CaptureFixture[str]) -> None:
    rules = load_rules_file(shipped_rules()["labyrinth"])
    assert play_local(rules, 1, "random", seed=1, ask=lambda _: "q") == 0
    assert "Your turn: push" in capsys.readouterr().out
    # in Czech (--language cs): the rules' summary, the legend, the turn, the menu
    assert play_local(rules, 1, "random", seed=1, ask=lambda _: "q", lang="cs") == 0
    out = capsys.readouterr().out
    assert out.startswith("labyrinth: deska 7x7, dlaždic 50, hráčů 4")
    assert "posun: vysunutá dlaždice jde do balíčku" in out and "volný pohyb" in out
    assert "2 hráč 2 (ty): na (" in out and "Balíček: dlaždic 1; navrchu:" in out
    assert "Jsi na tahu: posun (možností: " in out and "Na shledanou." in out


async def test_play_online_and_bot_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hall = Hall(records=RecordStore(f"sqlite:///{tmp_path / 'cli.db'}"))
    settings = TilesSettings(bot_delay=0.0, showcase=False, lobby_wait=0.0, max_rounds=20)
    service = await serve(hall, port=0, settings=settings)
    hall.add(service)
    try:
        rules = json.loads(shipped_rules()["tsuro"].read_text())
        code = await play_online("127.0.0.1", service.port, "ann", rules, False, ask=lambda _: "1")
        assert code == 0
        out = capsys.readouterr().out
        # the shipped tsuro sent whole is recorded and shown by its name (issue 26)
        assert "You are player 1; the rules: Tsuro." in out and "Game over:" in out
        code = await asyncio.to_thread(
            main,
            [
                "bot",
                "tiles",
                "--strategy",
                "random",
                "--rules",
                "tsuro",
                "--port",
                str(service.port),
                "--games",
                "2",
                "--name",
                "robo",
            ],
        )
        assert code == 0
        assert "robo: 2 game(s)" in capsys.readouterr().out
        code = await asyncio.to_thread(main, ["bot", "tiles", "--port", "1", "--rules", "tsuro"])
        assert code == 1
    finally:
        await hall.stop()
        hall.records.close()


async def test_play_online_tells_each_turn_in_one_line_of_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 15 item 8: a real game over a real server; one line per turn, items by name,
    no setup noise and no coordinates outside the menus."""
    hall = Hall(records=RecordStore(f"sqlite:///{tmp_path / 'words.db'}"))
    settings = TilesSettings(bot_delay=0.0, showcase=False, lobby_wait=0.0, max_rounds=4, seed=11)
    service = await serve(hall, port=0, settings=settings)
    hall.add(service)
    try:
        rules = json.loads(shipped_rules()["gold_rush"].read_text())
        code = await play_online("127.0.0.1", service.port, "ann", rules, False, ask=lambda _: "1")
        assert code == 0
    finally:
        await hall.stop()
        hall.records.close()
    out = capsys.readouterr().out
    names = ("ann", "house-2", "house-3", "house-4")
    turns = [line for line in out.splitlines() if line.split(" ", 1)[0] in names]
    # 4 rounds of 4 players: exactly one line each, in seat order
    assert [line.split(" ", 1)[0] for line in turns] == list(names) * 4, turns
    for line in turns:
        assert "(" not in line and not re.search(r"\b[UDLR]\d\b", line), line
        assert " pushed " in line
    assert "a tile fills" not in out and "draws a secret goal" not in out
    assert any(re.search(r"moved to (the|\d+) (gold|gem)", line) for line in turns), turns
    assert any(re.search(r"picked (it|one|them) up", line) for line in turns), turns
    # coordinates stay where the person picks a move, with what lies there
    assert re.search(r"\d+\. move to \(\d, \d\) at [UDLR]0", out)
    assert out.count("Your turn: push") == 4


async def test_play_online_in_czech(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``herna play tiles --language cs`` over a real server: the turns, the menu, the legend
    and the end in Czech (the rules' own item names and the coordinates stay as written)."""
    from herna.cli import build_parser

    args = build_parser().parse_args(["play", "tiles", "gold_rush", "--language", "cs"])
    hall = Hall(records=RecordStore(f"sqlite:///{tmp_path / 'cs.db'}"))
    settings = TilesSettings(bot_delay=0.0, showcase=False, lobby_wait=0.0, max_rounds=2, seed=11)
    service = await serve(hall, port=0, settings=settings)
    hall.add(service)
    try:
        rules = json.loads(shipped_rules()["gold_rush"].read_text())
        code = await play_online(
            "127.0.0.1", service.port, "ann", rules, False, ask=lambda _: "1", lang=args.language
        )
        assert code == 0
    finally:
        await hall.stop()
        hall.records.close()
    out = capsys.readouterr().out
    assert "Jsi hráč 1; pravidla: " in out and "Hra začíná: ann, house-2" in out
    assert out.count("Jsi na tahu: posun") == 2
    assert re.search(r"\d+\. posunout (řádek|sloupec) \d (doprava|doleva|nahoru|dolů)", out)
    assert re.search(r"\d+\. tah na \(\d, \d\), bod [UDLR]0", out)
    assert re.search(r"^ann posouvá ", out, re.M), out
    assert re.search(r"^>?\d ann: na \(\d, \d\) [UDLR]\d, směr ", out, re.M), out
    assert "Konec hry: " in out and "Vítěz(ové): " in out
    for english in ("Your turn", "push row", "pushed", "Game over", "The game starts", "heading"):
        assert english not in out, english


def test_play_local_verbose_keeps_the_engine_detail(capsys: pytest.CaptureFixture[str]) -> None:
    rules = load_rules_file(shipped_rules()["labyrinth"])
    answers = iter(["1", "1", "q"])
    assert play_local(rules, 0, "random", seed=2, ask=lambda _: next(answers), verbose=True) == 0
    out = capsys.readouterr().out
    assert "a tile fills" in out and "pushes row" in out
    answers = iter(["1", "1", "q"])
    assert play_local(rules, 1, "random", seed=2, ask=lambda _: next(answers)) == 0
    out = capsys.readouterr().out
    assert "a tile fills" not in out and "draws a secret goal" not in out
    assert re.search(r"^random-0 pushed (row|column) \d from the \w+", out, re.M)


def test_play_local_at_a_level(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("builtins.input", lambda _="": "q")
    assert main(["play", "tiles", "tsuro", "--local", "--level", "easy", "--seed", "4"]) == 0
    assert "easy-1" in capsys.readouterr().out  # the opponents play at the level asked for


async def test_play_online_opens_a_table_at_a_level(tmp_path: Path) -> None:
    hall = Hall(records=RecordStore(f"sqlite:///{tmp_path / 'cli.db'}"))
    settings = TilesSettings(bot_delay=0.0, showcase=False, lobby_wait=0.0, max_rounds=3)
    service = await serve(hall, port=0, settings=settings)
    hall.add(service)
    try:
        made: list[str | None] = []
        make = service.hub._bot

        def recording(rules: Any, strategy: str | None = None) -> Any:
            made.append(strategy)
            return make(rules, strategy)

        service.hub._bot = recording  # type: ignore[method-assign]
        rules = json.loads(shipped_rules()["tsuro"].read_text())
        rules["players"] = rules["players"][:2]
        code = await play_online(
            "127.0.0.1", service.port, "ann", rules, False, ask=lambda _: "1", level="hard"
        )
        assert code == 0
        assert made == ["hard"]  # the one house bot at ann's table
    finally:
        await hall.stop()
        hall.records.close()


async def test_play_online_resign_after_a_confirm(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hall = Hall(records=RecordStore(f"sqlite:///{tmp_path / 'cli.db'}"))
    settings = TilesSettings(bot_delay=0.0, showcase=False, lobby_wait=0.0, max_rounds=20)
    service = await serve(hall, port=0, settings=settings)
    hall.add(service)
    try:
        rules = json.loads(shipped_rules()["tsuro"].read_text())
        rules["players"] = rules["players"][:2]
        answers = iter(["r", "n", "resign", "y"])
        asked: list[str] = []

        def ask(prompt: str) -> str:
            asked.append(prompt)
            return next(answers, "1")

        code = await play_online("127.0.0.1", service.port, "ann", rules, False, ask=ask)
        assert code == 0
        assert asked.count("Resign this game? You lose it. [y/N] ") == 2
        out = capsys.readouterr().out
        assert "Game over: the other player resigned. Winner(s): house-" in out
        hall.records.flush()
        [match] = hall.records.matches(game="tiles")
        assert match.result["reason"] == "the other player resigned"
        assert [p.name for p in match.players if not p.winner] == ["ann"]
    finally:
        await hall.stop()
        hall.records.close()


def test_rules_check_stops_at_the_size_limit_of_an_endless_file() -> None:
    """``/dev/zero`` reports size 0 and never ends: the check reads up to its limit only."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "herna.cli", "rules", "check", "/dev/zero"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "/dev/zero: error: (file): larger than 4194304 bytes" in done.stdout

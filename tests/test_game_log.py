"""The log is a record of play: a real ``herna serve`` writes one INFO line per finished game
or deal of every game, a Mia summary instead of a line per round, and refusals at WARNING
with the client's name."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from bench.mia_rounds import free_port

ROOT = Path(__file__).resolve().parent.parent
HERNA = [sys.executable, "-m", "herna.cli"]
PORTS = ("mia", "onitama", "cgml-login", "cgml-login-server", "cgml-game", "tiles", "web")


def _serve(tmp_path: Path, *extra: str) -> subprocess.Popen[str]:
    cmd = [*HERNA, "serve", "--database-url", f"sqlite:///{tmp_path / 'herna.db'}"]
    for name in PORTS:
        cmd += [f"--{name}-port", "0"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [*cmd, *extra],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def _collect(proc: subprocess.Popen[str], lines: list[dict[str, Any]], raw: list[str]) -> None:
    assert proc.stderr is not None
    for line in proc.stderr:
        raw.append(line)
        if line.startswith("{"):
            lines.append(json.loads(line))


def _wait_for(lines: list[dict[str, Any]], check: Any, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return False


def _game_lines(lines: list[dict[str, Any]], game: str) -> list[dict[str, Any]]:
    return [x for x in lines if x.get("event") == "game_over" and x.get("game") == game]


def test_every_game_writes_one_line_per_finished_game_and_mia_a_summary(
    tmp_path: Path,
) -> None:
    proc = _serve(
        tmp_path,
        "--log-format",
        "json",
        "--mia-house-round-pause",
        "0.02",
        "--mia-log-every",
        "1",
        "--onitama-house-bot-delay",
        "0",
        "--onitama-house-bot-strategy",
        "random",
        "--cgml-bot-delay",
        "0",
        "--tiles-bot-delay",
        "0.005",
        "--tiles-max-rounds",
        "3",
    )
    lines: list[dict[str, Any]] = []
    raw: list[str] = []
    reader = threading.Thread(target=_collect, args=(proc, lines, raw), daemon=True)
    reader.start()
    try:
        games = ("onitama", "mariáš", "tiles")
        done = _wait_for(
            lines,
            lambda: (
                all(_game_lines(lines, g) for g in games)
                and any(x.get("event") == "mia_summary" for x in lines)
            ),
            90,
        )
        assert done, "".join(raw[-40:])
        # The first endpoint is the bots' table (the people's table follows it).
        mia_port = next(
            int(re.findall(r"udp://[^:]+:(\d+)", x["msg"])[0])
            for x in lines
            if x["msg"].startswith("Mia UDP") and "listening" in x["msg"]
        )
        # An identity refusal: a house bot's name from an outsider.
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        probe.sendto(b"REGISTER;house-honest", ("127.0.0.1", mia_port))
        probe.settimeout(5)
        assert probe.recv(512).startswith(b"REJECTED")
        probe.close()
        assert _wait_for(lines, lambda: any(x["level"] == "warning" for x in lines), 5)
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(60)
        reader.join(5)
    assert proc.returncode == 0, "".join(raw[-40:])
    assert "Traceback" not in "".join(raw)

    for game in ("onitama", "mariáš", "tiles"):
        line = _game_lines(lines, game)[0]
        assert line["level"] == "info"
        assert line["players"] and all(isinstance(p, str) and p for p in line["players"])
        assert line["seconds"] >= 0
        assert line["table"] and line["result"]
        # The message says it in words, with the players and the duration.
        assert line["msg"].startswith(f"{game} {line['table']}: {line['result']}")
        assert ", ".join(line["players"]) in line["msg"]
    deal = _game_lines(lines, "mariáš")[0]
    assert " deal " in deal["table"]
    assert (" won " in deal["result"] and " units from " in deal["result"]) or (
        " paid " in deal["result"] or "renonc" in deal["result"]
    )
    assert sum(deal["money"].values()) == 0
    onitama = _game_lines(lines, "onitama")[0]
    assert " beat " in onitama["result"] or onitama["result"].startswith("aborted")

    # Mia: summaries, not a line per round; every round is in one of them.
    mia = [x for x in lines if x.get("event") == "mia_summary"]
    assert mia
    assert not any(x["msg"].startswith("round ") for x in lines)
    for summary in mia:
        assert summary["players"] and summary["rounds"] + summary["canceled"] >= 1
        assert set(summary["points"]) == set(summary["players"])
        assert (
            sum(summary["points"].values()) + sum(summary["losses"].values()) >= (summary["rounds"])
        )
    refusal = next(x for x in lines if x["level"] == "warning")
    assert refusal["event"] == "refused" and refusal["game"] == "mia"
    assert refusal["name"] == "house-honest" and refusal["code"] == "HOUSE_BOT_NAME"
    assert "house-honest" in refusal["msg"]


def test_log_level_warning_shows_refusals_only_and_log_json_is_an_alias(tmp_path: Path) -> None:
    port = free_port()
    proc = _serve(
        tmp_path,
        "--only",
        "mia",
        "--mia-port",
        str(port),
        "--log-json",
        "--log-level",
        "warning",
        "--mia-house-round-pause",
        "0.02",
        "--mia-log-every",
        "0.2",
    )
    lines: list[dict[str, Any]] = []
    raw: list[str] = []
    reader = threading.Thread(target=_collect, args=(proc, lines, raw), daemon=True)
    reader.start()
    try:
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        probe.settimeout(0.5)
        deadline = time.monotonic() + 30
        answer = b""
        while not answer and time.monotonic() < deadline:
            probe.sendto(b"REGISTER;house-honest", ("127.0.0.1", port))
            try:
                answer = probe.recv(512)
            except OSError:
                continue
        assert answer.startswith(b"REJECTED"), "".join(raw)
        probe.close()
        assert _wait_for(lines, lambda: bool(lines), 5)
        time.sleep(1.0)  # summaries would have come by now
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(60)
        reader.join(5)
    assert proc.returncode == 0, "".join(raw)
    assert lines, "".join(raw)
    assert {x["level"] for x in lines} == {"warning"}
    assert lines[0]["name"] == "house-honest"

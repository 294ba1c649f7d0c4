"""``herna bot <game>`` says what it is doing: connected/registered, each finished game with
its result and running score, a progress bar for a known number of games, and nothing at
all with ``--quiet``. Every bot plays a real ``herna serve``."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HERNA = [sys.executable, "-m", "herna.cli"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}


def _port(kind: int = socket.SOCK_STREAM) -> int:
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def ports(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, int]]:
    tmp = tmp_path_factory.mktemp("bots")
    ports = {"mia": _port(socket.SOCK_DGRAM)}
    for name in ("onitama", "cgml-login", "cgml-login-server", "cgml-game", "tiles"):
        ports[name] = _port()
    cmd = [*HERNA, "serve", "--database-url", f"sqlite:///{tmp / 'h.db'}", "--web-port", "0"]
    for name, port in ports.items():
        cmd += [f"--{name}-port", str(port)]
    cmd += ["--log-level", "warning", "--onitama-house-bot-delay", "0"]
    cmd += ["--onitama-house-bot-strategy", "random", "--cgml-bot-delay", "0"]
    cmd += ["--tiles-bot-delay", "0.005"]
    serve = subprocess.Popen(
        cmd, cwd=tmp, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", ports["tiles"]), timeout=1).close()
            break
        except OSError:
            time.sleep(0.2)
    try:
        yield ports
    finally:
        os.killpg(serve.pid, signal.SIGINT)
        serve.wait(60)


def _bot(*args: str) -> str:
    done = subprocess.run(
        [*HERNA, "bot", *args], env=ENV, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_onitama_bot_reports_games_and_score(ports: dict[str, int]) -> None:
    out = _bot("onitama", "--port", str(ports["onitama"]), "--games", "2", "--name", "oni",
               "--strategy", "random")  # fmt: skip
    assert "oni: logged in as oni" in out
    assert re.search(r"oni: new game against house-\d; playing (white|black)", out), out
    assert re.search(r"oni: game 1: (won against|lost to) house-\d .*\(\d won, \d lost\)", out)
    assert re.search(r"oni: game 2: .*\((\d) won, (\d) lost\)", out), out
    assert "2/2" in out  # the progress bar's last state
    assert "oni played 2 games" in out


def test_tiles_bot_reports_each_game(ports: dict[str, int]) -> None:
    out = _bot("tiles", "--port", str(ports["tiles"]), "--games", "1", "--name", "til")
    assert "til: connecting to" in out
    assert re.search(r"til: game 1: table \w+: .+ won \(.+\) \(\d won, \d lost\)", out), out


def test_marias_bot_reports_each_deal_with_money(ports: dict[str, int]) -> None:
    out = _bot("marias", "--port", str(ports["cgml-login"]), "--groups", "1", "--games", "2",
               "--name", "mar")  # fmt: skip
    assert "mar: logging in at" in out
    deals = re.findall(r"mar: game \d: \S+: ([+-]\d+) units \(.*\) \(\d won, \d lost", out)
    assert len(deals) == 2, out
    total = sum(int(x) for x in deals)
    assert f"total {total:+d}" in out, out


def test_mia_bot_summarises_rounds_and_quiet_is_silent(ports: dict[str, int]) -> None:
    out = _bot("mia", "--port", str(ports["mia"]), "--rounds", "12", "--name", "mi")
    assert "mi: registered; playing" in out
    assert "12/12" in out
    assert re.search(r"mi played 12 rounds; 12 rounds: \d+ points, lost \d+", out), out
    assert out.count("\n") < 6  # no line per round
    quiet = _bot("mia", "--port", str(ports["mia"]), "--rounds", "5", "--name", "mq", "--quiet")
    assert quiet == ""
    quiet = _bot("onitama", "--port", str(ports["onitama"]), "--games", "1", "--name", "oq",
                 "--strategy", "random", "--quiet")  # fmt: skip
    assert quiet == ""

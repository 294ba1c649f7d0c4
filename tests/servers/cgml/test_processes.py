"""CGML across processes (issue 16, items 1 and 3): super game servers run as their own
processes, register at the login server over the seed's server port and share one PostgreSQL
database, and one web hall shows every process's live tables.

Real processes, real sockets, a real PostgreSQL server: process A is ``herna serve --only
marias`` (login server, super game server, bot server), process B is ``herna serve --only
marias --cgml-login HOST:PORT`` (a super game server only). Players are balanced across
both; B is killed with SIGKILL mid-play; its players log in again and play on A, A's games
go on, and every deal either process announced with ``<result>`` is in the database."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path

from sqlalchemy import create_engine, func, select

from herna.clients.cgml import BotDecider, CgmlClientError, login, play_group
from herna.hall.db import MatchRow, normalise_url
from herna.protocols.cgml import messages as m
from herna.protocols.cgml.messages import PlayerRef
from tests.postgres import fresh_database

ROOT = Path(__file__).resolve().parents[3]
HOST = "127.0.0.1"


def _port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _serve(db: str, workdir: Path, log: Path, *options: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "herna.cli", "serve", "--no-house-bots",
             "--database-url", db, "--cgml-bot-delay", "0", "--log-level", "INFO", *options],
            cwd=workdir, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip


async def _wait_for(path: Path, text_: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and text_ in path.read_text(errors="replace"):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"{text_!r} never appeared in {path}:\n{path.read_text()[-3000:]}")


class Players:
    """Active players that log in, play a group, and log in again after a lost server; each
    deal's <result> is counted per super game server url."""

    def __init__(self, port: int, names: list[str]) -> None:
        self.port = port
        self.names = set(names)
        self.results: Counter[str] = Counter()
        self.on: dict[str, str] = {}  # player -> url of its current group
        self.lost: Counter[str] = Counter()
        self.tasks = [asyncio.create_task(self._play(n)) for n in names]

    async def _play(self, name: str) -> None:
        player = PlayerRef(name, name, "bot")
        while True:
            try:
                complete = await login(HOST, self.port, player, timeout=30)
            except (CgmlClientError, OSError):
                await asyncio.sleep(0.2)
                continue
            url = complete.url
            self.on[name] = url
            # Two of these players may share a group: only the first of them by name counts
            # its deals, so each deal is counted once.
            mine = [p.id for p in complete.players if p.id in self.names]
            counts = all(name < other for other in mine)

            def seen(
                message: m.Message, _tracker: object, url: str = url, counts: bool = counts
            ) -> None:
                if counts and isinstance(message, m.Result):
                    self.results[url] += 1

            try:
                summary = await play_group(complete, player, BotDecider("random"), on_message=seen)
            except (CgmlClientError, OSError):
                self.lost[url] += 1
            else:
                if summary.ended in ("", "disconnect"):  # the server went away
                    self.lost[url] += 1
            await asyncio.sleep(0.05)

    async def stop(self) -> None:
        for t in self.tasks:
            t.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def _until(cond, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.1)


def _deals(db: str) -> int:
    engine = create_engine(normalise_url(db))
    try:
        with engine.connect() as conn:
            return int(conn.execute(
                select(func.count()).select_from(MatchRow).where(MatchRow.game == "marias")
            ).scalar_one())  # fmt: skip
    finally:
        engine.dispose()


async def test_a_second_super_game_server_process_shares_the_load_and_its_death_loses_nothing(
    postgres_url: str, tmp_path: Path
) -> None:
    db = fresh_database(postgres_url)
    # Both processes run in one directory, so they share the journal directory a PostgreSQL
    # database gets under the working directory (var/records-journal/...).
    journal = tmp_path
    login_port, server_port = _port(), _port()
    game_a, game_b = _port(), _port()
    log_a, log_b = tmp_path / "a.log", tmp_path / "b.log"
    web_port = _port()
    a = _serve(
        db,
        journal,
        log_a,
        *("--only", "marias,web", "--web-port", str(web_port)),
        *("--cgml-login-port", str(login_port), "--cgml-login-server-port", str(server_port)),
        *("--cgml-game-port", str(game_a)),
    )
    b: subprocess.Popen[bytes] | None = None
    players: Players | None = None
    try:
        await _wait_for(log_a, "registered at the login server")
        b = _serve(db, journal, log_b, "--only", "marias", "--cgml-login", f"{HOST}:{server_port}",
                   "--cgml-game-port", str(game_b))  # fmt: skip
        await _wait_for(log_b, "registered at the login server")
        url_a, url_b = f"{HOST}:{game_a}", f"{HOST}:{game_b}"

        players = Players(login_port, [f"p{i}" for i in range(4)])
        # Balanced: both processes get groups and finish deals.
        await _until(lambda: players.results[url_a] >= 3 and players.results[url_b] >= 3)
        on_b = [name for name, url in players.on.items() if url == url_b]
        assert on_b, players.on
        # One web hall shows every process's live tables: A's web hall lists B's table,
        # whose events reached it over PostgreSQL's LISTEN/NOTIFY.
        live_url = f"http://{HOST}:{web_port}/api/live?game=marias"

        def b_table_shown() -> bool:
            with urllib.request.urlopen(live_url, timeout=5) as response:
                tables = json.loads(response.read())
            return any(f'"{on_b[0]}"' in json.dumps(t) for t in tables)

        await _until(b_table_shown, timeout=20)

        os.killpg(b.pid, signal.SIGKILL)
        b.wait(10)
        a_before = players.results[url_a]
        # B's players read what B sent before it died, then the end of the connection (a
        # result may still be on its way when the kill returns).
        await _until(lambda: players.lost[url_b] >= len(on_b))
        b_results = players.results[url_b]
        # B's players notice, log in again and are sent to A; A's games go on.
        await _until(lambda: all(players.on[name] == url_a for name in on_b))
        await _until(lambda: players.results[url_a] >= a_before + 8)
        assert players.results[url_b] == b_results  # nothing more from the dead process
        await players.stop()
        seen = sum(players.results.values())
        # Every deal either process announced is stored, while A runs: A's by its own
        # writer; B's last ones (journaled before its <result>, but B and its writer were
        # killed before they were committed) by A, which adopts a dead process's journal.
        await _until(lambda: _deals(db) >= seen, timeout=30)
        assert "Traceback" not in log_a.read_text()
    finally:
        if players is not None:
            await players.stop()
        if b is not None and b.poll() is None:
            os.killpg(b.pid, signal.SIGKILL)
        a.send_signal(signal.SIGTERM)
        a.wait(30)

"""A live tournament survives a restart of ``herna serve``: a real process holds an Onitama
round robin of four house bots, is stopped (SIGTERM, as an operator restarts it) while games
are under way, and started again on the same database; the tournament goes on and finishes
with every board decided exactly once, the games decided before the restart kept as they
were."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from herna.hall.db import make_engine
from herna.hall.tournament_store import Tournament, TournamentStore

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(db: str, onitama: int, web: int, log: Path) -> subprocess.Popen[bytes]:
    command = [
        *(sys.executable, "-m", "herna.cli", "serve", "--only", "onitama,web"),
        *("--database-url", db, "--onitama-port", str(onitama), "--web-port", str(web)),
        *("--onitama-house-bots", "0", "--onitama-house-bot-delay", "0.02"),
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = log.open("ab")
    return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=log.parent)


def _up(web: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text()[-3000:]
        try:
            if httpx.get(f"http://127.0.0.1:{web}/status", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError("herna serve did not come up:\n" + log.read_text()[-3000:])


def _wait(store: TournamentStore, tid: int, until: str, seconds: float) -> Tournament:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        tour = store.get(tid)
        assert tour is not None
        played = [g for g in tour.games if not g.board.bye]
        if until == "some" and played and tour.status == "running":
            return tour
        if until == "over" and tour.status in ("finished", "aborted"):
            return tour
        time.sleep(0.1)
    raise AssertionError(f"tournament {tid} did not get {until!r}: {store.get(tid)}")


def _entrants(store: TournamentStore, tid: int) -> tuple[object, ...]:
    tour = store.get(tid)
    return tour.entrants if tour is not None else ()


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    process.wait(60)


def test_a_live_tournament_goes_on_after_herna_serve_restarts(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'hall.db'}"
    onitama, web = _free_port(), _free_port()
    log = tmp_path / "serve.log"
    store = TournamentStore(make_engine(db))
    first = _serve(db, onitama, web, log)
    second = None
    try:
        _up(web, first, log)
        created = httpx.post(
            f"http://127.0.0.1:{web}/api/tournaments",
            json={
                "name": "Class contest",
                "game": "onitama",
                "format": "round-robin",
                "house": ["easy", "easy", "medium", "medium"],
            },
            timeout=180,  # the first house bot compiles the Onitama engine (cached after)
        )
        assert created.status_code == 201, created.text
        tid, token = created.json()["id"], created.json()["admin_token"]
        deadline = time.monotonic() + 30
        while len(_entrants(store, tid)) < 4:
            assert time.monotonic() < deadline, "the house bots did not enter"
            time.sleep(0.1)
        started = httpx.post(
            f"http://127.0.0.1:{web}/api/tournaments/{tid}/start",
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert started.status_code == 200, started.text
        before = _wait(store, tid, "some", 90)
        _stop(first)
        held = store.get(tid)
        assert held is not None and held.status == "running"  # held over, not aborted
        kept = {(g.board.round, g.board.number): g for g in held.games}
        assert kept.keys() >= {(g.board.round, g.board.number) for g in before.games}

        second = _serve(db, onitama, web, log)
        _up(web, second, log)
        tour = _wait(store, tid, "over", 240)
        assert tour.status == "finished", log.read_text()[-3000:]
        boards = [(g.board.round, g.board.number) for g in tour.games]
        assert len(boards) == len(set(boards)) == 6  # 4 entrants meet once: 6 games
        for key, game in kept.items():  # decided before the restart: kept as they were
            again = next(g for g in tour.games if (g.board.round, g.board.number) == key)
            assert again.ranks == game.ranks and again.seats == game.seats
        assert sum(r.points for r in tour.standings()) == 6
        assert tour.started_at is not None
        text = log.read_text()
        assert f"tournament {tid} is held over (running)" in text
        assert f"tournament {tid} goes on: {len(kept)} games on record" in text
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait(30)
        store.engine.dispose()

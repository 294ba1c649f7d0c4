"""Submitted bots come back after a restart of ``herna serve --ladder``: a real process holds a
contest's final between two locked bots and plays a third bot on the ladder, is stopped
(SIGTERM, as an operator restarts it) after the final's first game, and started again on
the same database; the final goes on with its locked bots to the end, every game played
out (no no-shows), and the ladder plays on."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from herna.hall.contests import Contests
from herna.hall.db import make_engine
from herna.hall.identity import Identity, ReservedNames
from herna.hall.submissions import Submissions
from herna.hall.tournament_store import Tournament, TournamentStore
from herna.starters import starter

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is missing")
ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(db: str, onitama: int, web: int, log: Path) -> subprocess.Popen[bytes]:
    command = [
        *(sys.executable, "-m", "herna.cli", "serve", "--only", "onitama,web"),
        *("--database-url", db, "--onitama-port", str(onitama), "--web-port", str(web)),
        *("--onitama-house-bot-delay", "0.02", "--ladder", "--ladder-concurrency", "3"),
        "--no-web-review-people",
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


def _played(store: TournamentStore, tid: int) -> Tournament | None:
    tour = store.get(tid)
    return tour if tour is not None and [g for g in tour.games if not g.board.bye] else None


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def test_a_contests_final_and_the_ladder_go_on_after_herna_serve_restarts(
    tmp_path: Path,
) -> None:
    db = f"sqlite:///{tmp_path / 'hall.db'}"
    engine = make_engine(db)
    book = Submissions(engine, Identity(ReservedNames(engine)))
    contests = Contests(engine, book)
    found = starter("onitama", "python")
    assert found is not None
    deadline = datetime.now(UTC) + timedelta(seconds=2)
    contest, token = contests.create("Class 3B", "onitama", deadline, games_per_pairing=4)
    for name, author in (("ada", "pupil-a"), ("bea", "pupil-b"), ("cyril", "pupil-c")):
        book.submit(name, "onitama", "bot.py", found[1], person=author)
    for name, author in (("ada", "pupil-a"), ("bea", "pupil-b")):
        contests.enter(contest.id, name, author)
    while datetime.now(UTC) < deadline:
        time.sleep(0.2)

    onitama, web = _free_port(), _free_port()
    log = tmp_path / "serve.log"
    store = TournamentStore(engine)
    first = _serve(db, onitama, web, log)
    second = None
    try:
        _up(web, first, log)
        with httpx.Client(base_url=f"http://127.0.0.1:{web}", timeout=30) as http:
            page = http.get(f"/contests/{contest.id}").text
            csrf = re.search(r'name="csrf" value="([^"]+)"', page)
            assert csrf is not None, page
            started = http.post(
                f"/contests/{contest.id}/final", data={"csrf": csrf.group(1), "token": token}
            )
            assert started.status_code in (200, 303), started.text
        tid = None
        limit = time.monotonic() + 120
        while tid is None or _played(store, tid) is None:
            assert time.monotonic() < limit, log.read_text()[-3000:]
            (held,) = [c for c in contests.all() if c.id == contest.id]
            tid = held.tournament_id
            time.sleep(0.2)
        first.send_signal(signal.SIGTERM)
        first.wait(60)
        stopped = datetime.now(UTC)
        ladder_before = len(book.runs("cyril", limit=100))

        second = _serve(db, onitama, web, log)
        _up(web, second, log)
        limit = time.monotonic() + 200
        while (tour := store.get(tid)) is None or tour.status not in ("finished", "aborted"):
            assert time.monotonic() < limit, log.read_text()[-3000:]
            time.sleep(0.2)
        assert tour.status == "finished", log.read_text()[-3000:]
        played = [g for g in tour.games if not g.board.bye]
        assert len(played) == 4 and all(g.forfeit is None for g in played), played
        for name, other in (("ada", "bea"), ("bea", "ada")):  # the locked bots played on
            later = [r for r in book.runs(name, limit=20) if _utc(r.started_at) > stopped]
            assert later and {r.opponent for r in later} == {other}, later
        limit = time.monotonic() + 60
        while len(book.runs("cyril", limit=100)) <= ladder_before:  # and the ladder too
            assert time.monotonic() < limit, log.read_text()[-3000:]
            time.sleep(0.2)
        text = log.read_text()
        assert f"contest {contest.id}: the final (tournament {tid}) goes on with 2 bots" in text
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait(30)
        engine.dispose()

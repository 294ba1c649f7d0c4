"""Nothing finished is lost to kill -9, no number is handed out twice, no process outlives
``herna serve``.

The end-to-end tests run ``herna serve`` as a real subprocess in a process group of its own
and kill that group with SIGKILL; bench/durability.py is the harness (and prints the same
figures with more load)."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from bench.durability import alive, descendants, kill_under_load
from bench.mia_rounds import free_port, wait_until_serving
from herna.hall.journal import HEADER, all_segments, frame, new_owner, segment_name
from herna.hall.records import MatchRecord, PlayerResult, RecordStore, new_key

ROOT = Path(__file__).resolve().parent.parent


def _record(i: int, winner: str = "alice", loser: str = "bob") -> MatchRecord:
    return MatchRecord(
        game="mia",
        table_id=f"round-{i}",
        players=[PlayerResult(0, winner, 1.0, True, "bot"), PlayerResult(1, loser, 0.0)],
        result={"round": i},
        events=[("action", {"player": 0, "action": "3,1"})],
        meta={"round": i},
    )


def test_kill_9_under_load_loses_no_scored_round_and_reuses_no_number(tmp_path: Path) -> None:
    # 2 s of play, and on until 150 rounds were scored: a busy machine plays fewer a second.
    report = kill_under_load(ROOT, bots=10, seconds=2.0, tmp=tmp_path, rounds=150)
    assert report["rounds_scored_before_kill"] > 100, report  # it was under load
    assert report["missing_count"] == 0, report
    assert report["stored_of_those"] == report["rounds_scored_before_kill"]
    assert report["rounds_announced_after_restart"] > 0, report
    assert report["reused"] == 0, report
    assert report["stored_twice"] == 0, report
    assert report["orphans"] == [], report


def test_replaying_a_journal_writes_each_record_once(database_url: str, tmp_path: Path) -> None:
    journal = tmp_path / "journal"
    store = RecordStore(database_url, journal_dir=journal)
    for i in range(20):
        store.submit(_record(i))
    store.flush()  # all 20 committed; their segment is still there (it is being appended to)
    (live,) = all_segments(journal)
    # A dead process's segment: the same 20 entries (committed already), 5 that are not, and
    # a torn last frame (a write cut short by kill -9).
    dead = journal / segment_name(new_owner(), 1)
    data = live.read_bytes()
    for i in range(20, 25):
        data += frame(("r", new_key(), _record(i)))
    data += frame(("n", "mia.round", 99))
    torn = frame(("r", new_key(), _record(25)))
    dead.write_bytes(data + torn[: HEADER.size + 10])
    store.close()

    again = RecordStore(database_url, journal_dir=journal)
    assert again.recover() == 5
    assert again.count("mia") == 25
    standings = {s.name: s for s in again.standings("mia")}
    assert standings["alice"].points == 25 and standings["alice"].games == 25
    assert again.allocate("mia.round") == 100  # the journaled reservation was replayed
    assert not dead.exists()
    # The same entries once more (another copy of that segment): nothing is written twice.
    dead.write_bytes(data)
    again.close()
    third = RecordStore(database_url, journal_dir=journal)
    assert third.recover() == 0
    assert third.count("mia") == 25
    assert {s.name: s.points for s in third.standings("mia")} == {"alice": 25, "bob": 0}
    third.close()


_CHILD = """
import os, signal, sys
from herna.hall.records import RecordStore
from tests.test_durability import _record
store = RecordStore(sys.argv[1])
store.recover()
numbers = [store.allocate("mia.round") for _ in range(3)]
with store._lock:
    store._spawn_locked()  # the writer starts with the first append; start it now
os.kill(store._writer.pid, signal.SIGSTOP)  # nothing it is sent gets committed
for n in numbers:
    store.submit(_record(n))
print(store._writer.pid, *numbers, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_numbers_and_records_survive_kill_9_before_any_commit(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'k.db'}"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, url], stdout=subprocess.PIPE, env=env, cwd=ROOT
    )
    assert child.stdout is not None
    writer, *numbers = (int(x) for x in child.stdout.readline().split())
    assert child.wait(60) == -signal.SIGKILL
    os.kill(writer, signal.SIGKILL)  # stopped, it cannot see its parent die (nor hold stdout)
    child.communicate()
    assert numbers == [1, 2, 3]
    store = RecordStore(url)
    assert store.count("mia") == 0  # nothing was committed before the kill
    assert store.recover() == 3
    assert sorted(m.meta["round"] for m in store.matches(game="mia")) == [1, 2, 3]
    # The block 1..100 was reserved before 1 was handed out: the next number skips the rest
    # of it, and none of 1, 2, 3 comes again.
    assert store.allocate("mia.round") == 101
    store.close()


def _tiles_rules_join(port: int) -> None:
    """Make the tiles server check a rules object, which starts its checker process."""
    rules = json.loads((ROOT / "herna/games/tiles/rules/labyrinth.json").read_text())
    deadline = time.monotonic() + 20
    while True:  # the tiles server starts after Mia, which the caller waited for
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            break
        except ConnectionRefusedError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    with sock:
        reader = sock.makefile("rb")
        reader.readline()  # welcome
        join = {"type": "join", "name": "ann", "rules": rules, "id": 1}
        sock.sendall(json.dumps(join).encode() + b"\n")
        assert b'"id":1' in reader.readline()  # joined (or an error): either way it was checked


def test_no_process_outlives_herna_serve_killed_with_sigkill(tmp_path: Path) -> None:
    mia, tiles, onitama = free_port(), free_port(), free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "herna.cli",
            "serve",
            "--only",
            "mia,tiles,onitama",
            "--workers",
            "1",
            "--no-house-bots",
            "--tiles-no-showcase",
            "--onitama-port",
            str(onitama),
            "--mia-port",
            str(mia),
            "--tiles-port",
            str(tiles),
            "--database-url",
            f"sqlite:///{tmp_path / 'o.db'}",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_until_serving(mia)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as player:
            player.sendto(b"REGISTER;ann", ("127.0.0.1", mia))  # a round: the records writer
            _tiles_rules_join(tiles)  # the rules checker (and multiprocessing's tracker)
            deadline = time.monotonic() + 60  # a busy machine starts them slowly
            while len(descendants(server.pid)) < 5 and time.monotonic() < deadline:
                time.sleep(0.1)
        family = descendants(server.pid)
        # records writer, rules checker, resource tracker, the Onitama game worker (in a
        # session of its own) and its records writer
        assert len(family) >= 5, family
        # The parent alone (a kill -9 of the whole group would take its members with it).
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
        deadline = time.monotonic() + 15
        while any(alive(p) for p in family) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [p for p in family if alive(p)]
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert left == []
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def test_a_running_store_adopts_a_dead_process_journal_but_never_a_live_one(
    database_url: str, tmp_path: Path
) -> None:
    """Several processes share one database and journal directory (docs/scaling.md): one
    that ends without committing has its records written by another while that one runs
    (``RecordStore.adopt``), and a live store's segments, older ones included, are never
    taken for dead."""
    journal = tmp_path / "journal"
    live = RecordStore(database_url, journal_dir=journal)
    live.recover()
    other = RecordStore(database_url, journal_dir=journal)
    other.recover()
    # A live store's older segment is unlocked (its writer may still read it); a newer one
    # is locked. Neither may be adopted.
    owner = new_owner()
    older = journal / segment_name(owner, 1)
    older.write_bytes(frame(("r", new_key(), _record(900))))
    newest = journal / segment_name(owner, 2)
    fd = os.open(newest, os.O_WRONLY | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        assert other.adopt() == 0
        assert older.exists() and newest.exists()
    finally:
        os.close(fd)  # that owner ends now
    dead = journal / segment_name(new_owner(), 1)
    dead.write_bytes(b"".join(frame(("r", new_key(), _record(i))) for i in range(3)))
    found = other.adopt()
    assert found == 4  # three from `dead`, one from the ended owner's older segment
    assert not dead.exists() and not older.exists()
    assert other.adopt() == 0
    live.flush()
    assert live.count("mia") == 4
    live.close()
    other.close()

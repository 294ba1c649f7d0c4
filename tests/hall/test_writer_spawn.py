"""Record writers after the first come from a zygote (herna/hall/writer_spawn.py): each store
still gets every record committed, a forked writer that is killed is replaced, and the zygote
and its writers end with the process that started them (real processes, a real SQLite)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import herna

SCRIPT = """
import json, os, signal, sys, time
from herna.hall import writer_spawn
from herna.hall.records import RecordStore
from tests.records import onitama_game

folder = sys.argv[1]
writer_spawn.FORK_TIMEOUT = 30.0  # a loaded machine: the fallback to subprocess is not tested here
kinds = []
for i in range(4):
    store = RecordStore(f"sqlite:///{folder}/db{i}.sqlite")
    store.submit(onitama_game(i))
    kinds.append(type(store._writer).__name__)
    store.flush()
    if i == 2:
        # a forked writer killed: the store starts another (from the zygote) and loses nothing
        store._writer.kill()
        store._writer.wait(5)
        store._writer = None
        store.submit(onitama_game(10))
        kinds.append(type(store._writer).__name__)
        store.flush()
    store.close()
    if i == 1:
        # the second writer started the zygote: wait until it has imported the writer (a
        # writer asked for before that comes from subprocess, as the first two did)
        deadline = time.monotonic() + 60
        while not writer_spawn._zygote.usable():
            assert time.monotonic() < deadline, "the zygote never got ready"
            time.sleep(0.05)
# one more store left open, its writer running, when the process dies
last = RecordStore(f"sqlite:///{folder}/last.sqlite")
last.submit(onitama_game(20))
last.flush()
print(json.dumps({"kinds": kinds, "zygote": writer_spawn._zygote.process.pid,
                  "writer": last._writer.pid}), flush=True)
os._exit(0)  # like kill -9: no close, no atexit
"""


def _gone(pid: int, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_writers_from_the_zygote_commit_and_end_with_their_parent(tmp_path: Path) -> None:
    root = str(Path(herna.__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=root)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    said = json.loads(done.stdout.strip().splitlines()[-1])
    # the first two with subprocess (the second starts the zygote), then forked ones
    assert said["kinds"][:2] == ["Popen", "Popen"], said
    assert set(said["kinds"][2:]) == {"ForkedWriter"}, said
    stored = {}
    for name in ("db0", "db1", "db2", "db3", "last"):
        with sqlite3.connect(tmp_path / f"{name}.sqlite") as db:
            stored[name] = db.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
    assert stored == {"db0": 1, "db1": 1, "db2": 2, "db3": 1, "last": 1}, stored
    assert _gone(said["zygote"]) and _gone(said["writer"])

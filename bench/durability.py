#!/usr/bin/env python3
"""kill -9 under load: is every Mia round whose result was sent still there after a restart?

Starts `herna serve --only mia --no-house-bots` in a process group of its own, lets instant
bots play at full speed for S seconds while a spectator notes every round whose `SCORE` it
received, then sends SIGKILL to the whole process group. It counts the rounds in the database
right after the kill, restarts the server on the same database (which replays the records
journal), plays a few more rounds and reports:

* rounds whose SCORE was received, and how many of them are stored after the restart
  (``missing`` lists any that are not);
* rounds in the database at the moment of the kill (the rest came back from the journal);
* round numbers announced after the restart that had been announced before (``reused``),
  and round numbers stored twice;
* Herna processes still alive 5 s after the kill (``orphans``).

``--root`` runs another checkout's Herna (e.g. an older commit) with the same harness.
The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import selectors
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mia_rounds  # the instant bots of the throughput bench

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Watch:
    """What a spectator saw: round numbers announced, and rounds whose SCORE arrived."""

    started: set[int] = field(default_factory=set)
    scored: set[int] = field(default_factory=set)
    current: int | None = None
    sock: socket.socket | None = None
    """The spectator's socket, kept open over the kill: what was sent before it is queued."""

    def see(self, data: bytes) -> None:
        if data.startswith(b"ROUND STARTED;"):
            self.current = int(data.split(b";")[1])
            self.started.add(self.current)
        elif data.startswith(b"SCORE"):
            if self.current is not None:
                self.scored.add(self.current)
            self.current = None
        elif data.startswith(b"ROUND STARTING"):
            self.current = None  # a SCORE before the next ROUND STARTED is a NO_PLAYERS cancel


def start_server(root: Path, port: int, db: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(root)
    cmd = [
        sys.executable,
        "-m",
        "herna.cli",
        "serve",
        "--only",
        "mia",
        "--no-house-bots",
        "--mia-port",
        str(port),
        "--database-url",
        db,
        "--log-level",
        "WARNING",
    ]
    proc = subprocess.Popen(
        cmd,
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group, which is what gets the SIGKILL
    )
    mia_rounds.wait_until_serving(port)
    return proc


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (Linux /proc), whatever session or group it is in."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            stat = Path(f"/proc/{entry}/stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    out: list[int] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def tree_cpu(pids: list[int]) -> float:
    """CPU seconds (user + system) the processes ``pids`` have used so far (Linux /proc)."""
    ticks = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def alive(pid: int) -> bool:
    """Running (a zombie waiting for a reaper counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def play(port: int, n: int, seconds: float, watch: Watch, rounds: int = 0) -> None:
    """``n`` instant bots and one spectator for ``seconds``, and on until the spectator saw
    ``rounds`` rounds scored (a busy machine plays fewer a second; at most 30 s more). The
    spectator fills ``watch``."""
    server = ("127.0.0.1", port)
    sel = selectors.DefaultSelector()
    figures = mia_rounds.Figures()
    bots = []
    for i in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        s.bind(("127.0.0.1", 0))
        s.connect(server)
        s.setblocking(False)
        bot = mia_rounds.Bot(f"k{i}", s)
        bots.append(bot)
        sel.register(s, selectors.EVENT_READ, bot)
        s.send(f"REGISTER;{bot.name}".encode())
    spectator = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    spectator.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    spectator.bind(("127.0.0.1", 0))
    spectator.connect(server)
    spectator.setblocking(False)
    spectator.send(b"REGISTER_SPECTATOR;watcher")
    sel.register(spectator, selectors.EVENT_READ, None)
    deadline = time.perf_counter() + seconds
    last = deadline + 30
    try:
        while (now := time.perf_counter()) < deadline or (
            len(watch.scored) < rounds and now < last
        ):
            for key, _ in sel.select(0.1):
                try:
                    data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                except OSError:
                    continue
                if key.data is None:
                    watch.see(data)
                else:
                    mia_rounds.react(key.data, data, figures, deadline, bots[0])
    finally:
        sel.close()
        for bot in bots:
            bot.sock.close()
    # The caller kills the server now; what it sent before that is in this socket's buffer.
    spectator.settimeout(0.5)
    watch.sock = spectator


def drain(watch: Watch) -> None:
    sock = watch.sock
    assert sock is not None
    with contextlib.suppress(OSError):
        while True:
            watch.see(sock.recv(65536))
    sock.close()


def stored_rounds(db_file: Path, until: datetime | None = None) -> list[int]:
    """Round numbers of the stored Mia rounds (those finished by ``until``, if given: rounds
    played after a restart may carry a reused number, and must not count for the old one)."""
    with contextlib.closing(sqlite3.connect(db_file)) as conn:
        rows = conn.execute("SELECT meta, finished_at FROM matches WHERE game = 'mia'").fetchall()
    out = []
    for meta, finished in rows:
        at = datetime.fromisoformat(finished)
        at = at if at.tzinfo else at.replace(tzinfo=UTC)
        if until is None or at <= until:
            out.append(int(json.loads(meta)["round"]))
    return out


def kill_under_load(
    root: Path, bots: int, seconds: float, tmp: Path, rounds: int = 0
) -> dict[str, Any]:
    """Play ``seconds`` (and until ``rounds`` were scored), kill -9, restart, compare."""
    port = mia_rounds.free_port()
    db_file = tmp / "durability.db"
    db = f"sqlite:///{db_file}"
    before = Watch()
    server = start_server(root, port, db)
    try:
        play(port, bots, seconds, before, rounds)
        family = descendants(server.pid)
        killed_at = datetime.now(UTC)
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(10)
        drain(before)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while any(alive(p) for p in family) and time.monotonic() < deadline:
        time.sleep(0.05)
    orphans = [p for p in family if alive(p)]
    for pid in orphans:  # leave nothing behind, but report it
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    at_kill = len(stored_rounds(db_file)) if db_file.exists() else 0

    after = Watch()
    server = start_server(root, port, db)
    try:
        play(port, 2, 0.5, after)
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        drain(after)
    stored = stored_rounds(db_file)
    stored_set = set(stored_rounds(db_file, until=killed_at))
    highest_before = max(before.started, default=0)
    return {
        "bots": bots,
        "seconds": seconds,
        "rounds_scored_before_kill": len(before.scored),
        "stored_of_those": len(before.scored & stored_set),
        "missing": sorted(before.scored - stored_set)[:50],
        "missing_count": len(before.scored - stored_set),
        "rounds_in_db_at_kill": at_kill,
        "highest_round_announced_before_kill": highest_before,
        "rounds_announced_after_restart": len(after.started),
        "reused": len([n for n in after.started if n <= highest_before]),
        "stored_twice": len(stored) - len(set(stored)),
        "orphans": orphans,
        "processes_before_kill": len(family),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bots", type=int, default=10, help="instant bots (default 10)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of play per run")
    parser.add_argument("--runs", type=int, default=3, help="kill/restart cycles (default 3)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the Herna checkout to run")
    args = parser.parse_args()
    runs = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            r = kill_under_load(args.root.resolve(), args.bots, args.seconds, Path(tmp))
        runs.append(r)
        print(
            f"SCORE sent for {r['rounds_scored_before_kill']} rounds, "
            f"{r['stored_of_those']} of them stored after restart "
            f"(missing {r['missing_count']}); {r['rounds_in_db_at_kill']} were in the database "
            f"at the kill; round numbers reused: {r['reused']}, stored twice: "
            f"{r['stored_twice']}; processes left 5 s after the kill: {len(r['orphans'])} "
            f"of {r['processes_before_kill']}"
        )
    print(json.dumps({"benchmark": "durability", "root": str(args.root), "runs": runs}))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""How fast do the log and the database grow? Runs a real ``herna serve`` for N seconds.

    python bench/log_volume.py --seconds 60              # house bots only
    python bench/log_volume.py --seconds 60 --outside-mia  # plus one outside Mia bot

Every server starts on free ports with a fresh SQLite database in a temporary directory;
with ``--outside-mia`` a ``herna bot mia`` process joins the Mia table once the server is
up (so Mia plays at full speed, as it does for a club with one outside bot). After the run
the server is stopped with SIGTERM (so every record is committed) and the bench prints log
lines per minute (in total and per logger), the database's bytes per hour, Mia rounds and
bytes per stored Mia round. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PORT_OPTIONS = (
    "--mia-port",
    "--onitama-port",
    "--cgml-login-port",
    "--cgml-login-server-port",
    "--cgml-game-port",
    "--tiles-port",
    "--web-port",
)
HERNA = (sys.executable, "-m", "herna.cli")
MIA_PORT = re.compile(r"listening on udp://[^:]+:(\d+)")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def run(seconds: float, outside_mia: bool, extra: list[str]) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="herna-logbench-") as tmp:
        db = Path(tmp) / "herna.db"
        cmd = [*HERNA, "serve", "--database-url", f"sqlite:///{db}"]
        for option in PORT_OPTIONS:
            cmd += [option, "0"]
        cmd += extra
        serve = subprocess.Popen(
            cmd, cwd=tmp, env=_env(), stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True
        )
        lines: list[tuple[float, str]] = []
        port: list[int] = []
        up = threading.Event()

        def read() -> None:
            assert serve.stderr is not None
            for line in serve.stderr:
                lines.append((time.monotonic(), line))
                m = MIA_PORT.search(line)
                if m and not port:
                    port.append(int(m.group(1)))
                if "Herna is running" in line:
                    up.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        if not up.wait(60):
            serve.kill()
            raise SystemExit("herna serve did not start:\n" + "".join(s for _, s in lines))
        started = time.monotonic()
        bot = None
        if outside_mia:
            if not port:
                raise SystemExit("no Mia port in the log; is the mia server running?")
            bot = subprocess.Popen(
                [*HERNA, "bot", "mia", "--name", "outside", "--port", str(port[0])],
                cwd=tmp,
                env=_env(),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        time.sleep(seconds)
        elapsed = time.monotonic() - started
        # SIGTERM, not SIGINT: a bench started in the background of a non-interactive shell
        # inherits SIGINT ignored. herna serve stops as gracefully on SIGTERM (every record
        # committed); the bot just goes.
        if bot is not None:
            bot.terminate()
            bot.wait(10)
        serve.terminate()
        serve.wait(120)
        reader.join(5)
        during = [line for t, line in lines if started <= t <= started + elapsed]
        loggers: collections.Counter[str] = collections.Counter()
        for line in during:
            parts = line.split()
            loggers[parts[2].rstrip(":") if len(parts) > 2 else "?"] += 1
        size = _db_bytes(db)
        rounds = _mia_rounds(db)
        grown = max(0, size - _empty_db_bytes(Path(tmp) / "empty.db"))
        return {
            "outside_mia": outside_mia,
            "seconds": round(elapsed, 1),
            "log_lines": len(during),
            "log_lines_per_min": round(len(during) * 60 / elapsed, 1),
            "per_logger_per_min": {k: round(v * 60 / elapsed, 1) for k, v in loggers.most_common()},
            "db_bytes": size,
            "db_bytes_per_hour": round(grown * 3600 / elapsed),
            "mia_rounds": rounds,
            "db_bytes_per_mia_round": round(grown / rounds) if rounds else None,
        }


def _db_bytes(db: Path) -> int:
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*") if p.is_file())


def _empty_db_bytes(path: Path) -> int:
    """Size of a database with the schema and nothing else: what a run grows on top of."""
    sys.path.insert(0, str(ROOT))
    from herna.hall.db import make_engine

    engine = make_engine(f"sqlite:///{path}")
    engine.dispose()
    return _db_bytes(path)


def _mia_rounds(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM matches WHERE game = 'mia'").fetchone()[0])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=60.0, help="how long to run (default 60)")
    p.add_argument("--outside-mia", action="store_true", help="add one outside Mia bot")
    p.add_argument("--both", action="store_true", help="run without and then with the bot")
    p.add_argument("extra", nargs="*", help="more herna serve options (after --)")
    args = p.parse_args()
    runs = [False, True] if args.both else [args.outside_mia]
    results = []
    for outside in runs:
        r = run(args.seconds, outside, args.extra)
        results.append(r)
        who = "house bots + one outside Mia bot" if outside else "house bots only"
        print(
            f"{who}: {r['log_lines_per_min']} log lines/min, {r['db_bytes_per_hour']:,} DB "
            f"bytes/hour, {r['mia_rounds']} Mia rounds in {r['seconds']} s, "
            f"{r['db_bytes_per_mia_round']} bytes per Mia round"
        )
        print("  lines/min by logger:", r["per_logger_per_min"])
    print(json.dumps(results))


if __name__ == "__main__":
    main()

"""``herna serve`` as a benchmark meets it: a real process on free ports, a SQLite file of its
own, the house bots playing, optionally from another checkout's ``herna`` package (so that a
bench can put main's figures beside this checkout's in the same run)."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

HOST = "127.0.0.1"


def free_port(kind: int = socket.SOCK_STREAM) -> int:
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    process: subprocess.Popen[bytes]
    ports: dict[str, int]
    work: Path
    log_path: Path
    env: dict[str, str]
    database_url: str
    package: str
    """The ``herna/__init__.py`` that runs (which checkout is measured)."""

    def url(self, path: str = "/") -> str:
        return f"http://{HOST}:{self.ports['web']}{path}"


def herna_command() -> list[str]:
    return [sys.executable, "-m", "herna.cli"]


ROOT = Path(__file__).resolve().parent.parent


def source_env(source: str | Path | None) -> dict[str, str]:
    """The environment that runs ``source``'s ``herna`` (None: this checkout's, never a copy
    installed in the virtualenv, which may be another checkout's)."""
    return dict(os.environ, PYTHONPATH=str(Path(source or ROOT).resolve()))


@contextlib.contextmanager
def serving(
    source: str | Path | None = None,
    extra: tuple[str, ...] = (),
    prefix: str = "herna-bench-",
    keep: bool = False,
    before: tuple[tuple[str, ...], ...] = (),
    database_url: str | None = None,
    start_timeout: float = 120.0,
    web: bool = True,
) -> Iterator[Served]:
    """Start ``herna serve`` and wait until its web hall answers and it says it runs.
    ``before``: ``herna`` commands to run first on the same database (e.g. reserving a name);
    ``database_url``: a database of the caller's (else a new SQLite file of its own);
    ``start_timeout``: seconds to wait for it (migrating a large database takes a while);
    ``web``: whether it serves the web hall (``--only`` without ``web``: then only its log
    says it runs)."""
    work = Path(tempfile.mkdtemp(prefix=prefix))
    env = source_env(source)
    db = database_url or f"sqlite:///{work / 'herna.db'}"
    ports = {
        "mia": free_port(socket.SOCK_DGRAM),
        "onitama": free_port(),
        "cgml": free_port(),
        "cgml_server": free_port(),
        "cgml_game": free_port(),
        "tiles": free_port(),
        "web": free_port(),
    }
    # cwd=work, not this checkout: `python -m` would import its herna before --source's.
    for args in before:
        subprocess.run(
            [*herna_command(), *args, "--database-url", db],
            env=env, check=True, capture_output=True, cwd=work,
        )  # fmt: skip
    package = subprocess.run(
        [sys.executable, "-c", "import herna; print(herna.__file__)"],
        env=env, cwd=work, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    log_path = work / "serve.log"
    cmd = [*herna_command(), "serve", "--database-url", db, "--host", HOST,
           "--mia-port", str(ports["mia"]), "--onitama-port", str(ports["onitama"]),
           "--cgml-login-port", str(ports["cgml"]),
           "--cgml-login-server-port", str(ports["cgml_server"]),
           "--cgml-game-port", str(ports["cgml_game"]), "--tiles-port", str(ports["tiles"]),
           "--web-port", str(ports["web"]), *extra]  # fmt: skip
    with log_path.open("w") as log:
        process = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=work)
    served = Served(process, ports, work, log_path, env, db, package)
    try:
        deadline = time.monotonic() + start_timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError("herna serve stopped:\n" + log_path.read_text()[-2000:])
            if time.monotonic() > deadline:
                raise RuntimeError(f"herna serve did not start within {start_timeout:g} s")
            running = "Herna is running" in log_path.read_text(errors="replace")
            if running and not web:
                break
            with contextlib.suppress(OSError), socket.create_connection((HOST, ports["web"]), 1):
                if running:
                    break
            time.sleep(0.5)
        yield served
    finally:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(10)
        if process.poll() is None:
            process.kill()
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


def cpu_seconds(pid: int) -> float:
    """User + system CPU of one process so far (all its threads), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def export_ref(ref: str, into: Path) -> Path:
    """The ``herna`` package of git ``ref`` of this repository, exported into ``into``."""
    root = Path(__file__).resolve().parent.parent
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", ref, "herna"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into

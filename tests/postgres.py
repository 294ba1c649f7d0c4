"""A throwaway PostgreSQL server on 127.0.0.1 for the storage tests (Debian's postgresql).

``make test`` installs the package; this starts a private cluster in a temp dir on a free port
and removes it afterwards. Set HERNA_TEST_POSTGRES_URL to use an existing server instead.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fresh_database(url: str) -> str:
    """The URL of a new, empty database on the server of ``url`` (tests stay independent)."""
    import uuid

    from sqlalchemy import create_engine, text

    from herna.hall.db import normalise_url

    name = "t_" + uuid.uuid4().hex[:12]
    admin = create_engine(normalise_url(url), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return url.rsplit("/", 1)[0] + f"/{name}"


@contextmanager
def postgres_server() -> Iterator[str]:
    url = os.environ.get("HERNA_TEST_POSTGRES_URL")
    if url:
        yield url
        return
    initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
    if not initdb or not pg_ctl:
        raise RuntimeError(
            "PostgreSQL is not installed; `make test` installs it (scripts/ensure-system-deps.sh)"
        )
    root = tempfile.mkdtemp(prefix="herna-pg-")
    data = os.path.join(root, "data")
    port = _free_port()
    prefix: list[str] = []
    if os.geteuid() == 0:
        # PostgreSQL refuses to run as root: run it as the postgres user Debian creates.
        shutil.chown(root, "postgres")
        os.chmod(root, 0o700)
        prefix = ["runuser", "-u", "postgres", "--"]

    def run(*cmd: str) -> None:
        subprocess.run(
            [*prefix, *cmd], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )

    try:
        run(initdb, "-D", data, "-U", "herna", "--auth=trust", "-E", "UTF8")
        run(
            pg_ctl,
            "-D",
            data,
            "-w",
            "-t",
            "30",
            "-l",
            os.path.join(root, "log"),
            "-o",
            f"-p {port} -h 127.0.0.1 -k {root} -F",
            "start",
        )
        url = f"postgresql://herna@127.0.0.1:{port}/postgres"
        deadline = time.time() + 10
        while time.time() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        yield url
    finally:
        subprocess.run(
            [*prefix, pg_ctl, "-D", data, "-m", "immediate", "stop"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        shutil.rmtree(root, ignore_errors=True)

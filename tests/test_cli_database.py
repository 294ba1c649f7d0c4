"""`herna serve`, `herna replay` and `herna bots` on a database they cannot use: one or two
lines that name the database (never its password), say what is wrong and what to do, and a
non-zero exit status; no traceback."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path

import pytest

from herna.hall.db import DatabaseUnavailable, make_engine, shown_url

ROOT = Path(__file__).resolve().parents[1]
HERNA = [sys.executable, "-m", "herna.cli"]
SECRET = "s3cr3t-pw"


def run_herna(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [*HERNA, *args], capture_output=True, text=True, timeout=90, env=env, cwd=ROOT
    )


def closed_port() -> int:
    """A local TCP port nobody listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def unwritable_directory(path: Path) -> Iterator[None]:
    """``path``, a directory nobody may create files in, for the duration.

    Tests here run as root, and root ignores permission bits, so as root the directory is made
    immutable (``chattr +i``, refused to root too); otherwise ``chmod 555`` is enough."""
    path.mkdir()
    root = os.geteuid() == 0
    if root:
        chattr = shutil.which("chattr")
        if chattr is None or subprocess.run([chattr, "+i", str(path)]).returncode != 0:
            pytest.skip("running as root without a working chattr: cannot make a read-only dir")
    else:
        path.chmod(0o555)
    try:
        yield
    finally:
        if root:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        else:
            path.chmod(0o755)


@contextmanager
def locked_database(path: Path) -> Iterator[None]:
    """A SQLite file another connection holds an exclusive lock on (as a second herna serve
    in the middle of a write would)."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE IF NOT EXISTS t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


Case = Callable[[Path], tuple[str, str, AbstractContextManager[object]]]
"""tmp_path -> (URL, what the message must name, the context to run herna in)."""


def corrupt(tmp: Path) -> tuple[str, str, AbstractContextManager[object]]:
    path = tmp / "corrupt.db"
    path.write_bytes(b"this is not SQLite\n" + bytes(range(256)) * 40)
    return f"sqlite:///{path}", str(path), nullcontext()


def locked(tmp: Path) -> tuple[str, str, AbstractContextManager[object]]:
    path = tmp / "locked.db"
    return f"sqlite:///{path}", str(path), locked_database(path)


def read_only_directory(tmp: Path) -> tuple[str, str, AbstractContextManager[object]]:
    folder = tmp / "read-only"
    return (
        f"sqlite:///{folder / 'herna.db'}",
        str(folder / "herna.db"),
        unwritable_directory(folder),
    )


def under_a_file(tmp: Path) -> tuple[str, str, AbstractContextManager[object]]:
    (tmp / "a-file").write_text("not a directory\n")
    path = tmp / "a-file" / "herna.db"
    return str(path), str(path), nullcontext()  # a bare path is a SQLite file too


def under_proc(tmp: Path) -> tuple[str, str, AbstractContextManager[object]]:
    return "sqlite:////proc/herna.db", "/proc/herna.db", nullcontext()


def wrong_scheme(tmp: Path) -> tuple[str, str, AbstractContextManager[object]]:
    return "nosuchdb://somewhere/herna", "nosuchdb://somewhere/herna", nullcontext()


def wrong_port(tmp: Path) -> tuple[str, str, AbstractContextManager[object]]:
    url = f"postgresql://herna:{SECRET}@127.0.0.1:notaport/herna"
    return url, "postgresql://herna:***@127.0.0.1:notaport/herna", nullcontext()


def postgres_down(tmp: Path) -> tuple[str, str, AbstractContextManager[object]]:
    port = closed_port()
    url = f"postgresql://herna:{SECRET}@127.0.0.1:{port}/herna"
    return url, f"postgresql://herna:***@127.0.0.1:{port}/herna", nullcontext()


CASES: dict[str, Case] = {
    "corrupt file": corrupt,
    "locked": locked,
    "read-only directory": read_only_directory,
    "path under a file": under_a_file,
    "under /proc": under_proc,
    "wrong URL": wrong_scheme,
    "wrong port": wrong_port,
    "PostgreSQL down": postgres_down,
}


def assert_short_message(result: subprocess.CompletedProcess[str], named: str) -> None:
    err = result.stderr
    assert result.returncode != 0, err
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert 1 <= len(lines) <= 2, err
    assert named in lines[0], err
    assert SECRET not in err + result.stdout


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_serve_on_a_bad_database_says_so_in_two_lines(tmp_path: Path, case: str) -> None:
    url, named, context = CASES[case](tmp_path)
    with context:
        result = run_herna(
            "serve", "--only", "web", "--web-port", "0", "--database-url", url, "--log-json"
        )
    assert_short_message(result, named)
    assert result.stderr.startswith("herna serve: cannot use the database ")


@pytest.mark.parametrize("case", ["corrupt file", "PostgreSQL down"])
@pytest.mark.parametrize("command", [["replay"], ["replay", "7"], ["bots", "list"]])
def test_replay_and_bots_on_a_bad_database_say_so_too(
    tmp_path: Path, case: str, command: list[str]
) -> None:
    url, named, _ = CASES[case](tmp_path)
    result = run_herna(*command, "--database-url", url)
    assert_short_message(result, named)
    assert result.stderr.startswith(f"herna {command[0]}: cannot use the database ")


def test_the_message_says_what_is_wrong_and_what_to_do(tmp_path: Path) -> None:
    url, _, _ = corrupt(tmp_path)
    with pytest.raises(DatabaseUnavailable) as info:
        make_engine(url)
    problem, advice = str(info.value).splitlines()
    assert "not a SQLite database" in problem
    assert advice.startswith("Move the file aside")
    with pytest.raises(DatabaseUnavailable) as info:
        make_engine(postgres_down(tmp_path)[0])
    problem, advice = str(info.value).splitlines()
    assert "no database server answers" in problem and SECRET not in problem
    assert advice.startswith("Start PostgreSQL")


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://u:pw@h:5432/db", "postgresql://u:***@h:5432/db"),
        ("postgresql://u:p@w@h/db", "postgresql://u:***@h/db"),
        ("postgresql://u@h/db", "postgresql://u@h/db"),
        ("postgresql://h/db?user=u&password=pw&x=1", "postgresql://h/db?user=u&password=***&x=1"),
        ("sqlite:///var/herna.db", "sqlite:///var/herna.db"),
        ("var/herna.db", "var/herna.db"),
    ],
)
def test_shown_url_masks_passwords(url: str, shown: str) -> None:
    assert shown_url(url) == shown


def test_serve_never_logs_the_database_password(postgres_url: str) -> None:
    """The start-up log names the database it uses, with the password masked (the test
    server trusts every login, so any password connects)."""
    url = postgres_url.replace("://herna@", f"://herna:{SECRET}@")
    assert SECRET in url
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [*HERNA, "serve", "--only", "web", "--web-port", "0", "--database-url", url],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert proc.stderr is not None
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if "Herna is running" in line:
            break
    proc.send_signal(signal.SIGTERM)
    _, rest = proc.communicate(timeout=60)
    log = "".join(seen) + rest
    assert proc.returncode == 0, log
    assert "postgresql://herna:***@127.0.0.1" in log
    assert SECRET not in log


@pytest.mark.parametrize(
    "command",
    [["tournament", "show", "1", "--csv"], ["tournament", "list"], ["replay"], ["replay", "3"]],
)
def test_commands_that_only_read_never_create_a_database(
    tmp_path: Path, command: list[str]
) -> None:
    """Run outside the hall's folder, a reading command says which database it looked for
    instead of creating an empty ``./var/herna.db`` and answering "no tournament 1"."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [*HERNA, *command], capture_output=True, text=True, timeout=90, env=env, cwd=tmp_path
    )
    assert done.returncode == 1
    assert f"there is no database file {tmp_path / 'var' / 'herna.db'}" in done.stderr
    assert "--database-url" in done.stderr
    assert "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_tournament_show_names_the_database_it_read(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'hall.db'}"
    make_engine(url).dispose()
    done = run_herna("tournament", "show", "7", "--database-url", url)
    assert done.returncode == 1
    assert f"no tournament 7 in {url}" in done.stdout

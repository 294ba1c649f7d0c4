"""The bot sandbox (herna.core.sandbox): real bubblewrap, real processes. Each hostile program
is contained by the limit meant for it, and the sandbox leaves nothing running behind."""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
from pathlib import Path

import pytest

from herna.core import sandbox
from herna.core.sandbox import Limits, describe_exit, run, staged, unavailable

PYTHON = ["/usr/bin/python3", "-I", "/bot/bot.py"]


def python(source: str, limits: Limits | None = None, stdin: bytes = b"") -> sandbox.RunResult:
    async def go() -> sandbox.RunResult:
        with staged({"bot.py": source.encode()}) as files:
            return await run(PYTHON, files, limits or Limits(wall_seconds=20), stdin)

    return asyncio.run(go())


def test_bubblewrap_is_installed_and_works_here() -> None:
    assert unavailable() is None


def test_a_program_reads_its_input_and_writes_its_output_and_log() -> None:
    result = python(
        "import sys\nprint(sys.stdin.readline().strip()[::-1])\nprint('thinking', file=sys.stderr)",
        stdin=b"hello\n",
    )
    assert (result.status, result.output, result.log) == (0, "olleh\n", "thinking\n")
    assert describe_exit(result.status) == "it ended"


def test_no_network_not_even_the_halls_own_ports() -> None:
    # A real listening socket on the host's loopback: inside, 127.0.0.1 is another machine.
    import socket

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        result = python(
            "import socket\n"
            "for host in ('127.0.0.1', '1.1.1.1'):\n"
            "    try:\n"
            f"        socket.create_connection((host, {port}), timeout=2)\n"
            "        print('connected', host)\n"
            "    except OSError as e:\n"
            "        print('refused', host, type(e).__name__)\n"
        )
    assert "connected" not in result.output
    assert result.output.count("refused") == 2, result


def test_the_halls_files_and_the_system_passwords_are_not_there(tmp_path: Path) -> None:
    database = tmp_path / "herna.db"
    database.write_bytes(b"SQLite format 3\x00 secret rows")
    targets = ["/etc/passwd", "/etc/shadow", str(database), "/work", "/root", "/home", "/var"]
    result = python(
        "import os\n"
        f"for path in {targets!r}:\n"
        "    print(path, os.path.exists(path))\n"
        "try:\n"
        "    open('/usr/evil', 'w')\n"
        "    print('wrote /usr')\n"
        "except OSError as e:\n"
        "    print('read-only', e.errno)\n"
        "open('/tmp/mine', 'w').write('x')\n"
        "print('tmp', open('/tmp/mine').read())\n"
    )
    for path in targets:
        assert f"{path} False" in result.output, result
    assert "read-only" in result.output and "tmp x" in result.output


def test_a_fork_bomb_stops_at_the_process_limit_and_leaves_nothing_behind() -> None:
    marker = f"herna-fork-bomb-{os.getpid()}"
    result = python(
        "import os, sys, time\n"
        f"sys.argv[0] = {marker!r}\n"
        "n = 0\n"
        "try:\n"
        "    while n < 5000:\n"
        "        if os.fork() == 0:\n"
        "            time.sleep(60); os._exit(0)\n"
        "        n += 1\n"
        "except OSError as e:\n"
        "    print('refused after', n, e.errno, flush=True)\n",
        Limits(processes=16, wall_seconds=20),
    )
    assert result.output.startswith("refused after"), result
    assert int(result.output.split()[2]) < 16
    # The sandbox's PID namespace died with its first process: no sleeper is left.
    time.sleep(0.2)
    left = subprocess.run(["pgrep", "-c", "-f", "time.sleep\\(60\\)"], capture_output=True)
    assert left.stdout.strip() in (b"0", b""), left


def test_ten_gigabytes_cannot_be_allocated() -> None:
    result = python(
        "try:\n"
        "    block = bytearray(10 * 1024 ** 3)\n"
        "    print('allocated')\n"
        "except MemoryError:\n"
        "    print('no memory')\n",
        Limits(memory_bytes=256 * sandbox.MIB, wall_seconds=20),
    )
    assert result.output == "no memory\n", result


def test_output_and_log_without_end_are_bounded_and_the_wall_clock_kills() -> None:
    began = time.monotonic()
    result = python(
        "import sys\n"
        "while True:\n    sys.stdout.write('x' * 1000)\n    sys.stderr.write('y' * 1000)\n",
        Limits(wall_seconds=2),
    )
    assert time.monotonic() - began < 10
    assert result.timed_out and describe_exit(result.status) == "it was killed"
    assert len(result.output) < 70_000 and "more bytes of log not kept" in result.output
    assert len(result.log) < 70_000 and "more bytes of log not kept" in result.log


def test_files_are_bounded_by_the_file_size_limit() -> None:
    result = python(
        "with open('/tmp/big', 'wb') as f:\n"
        "    f.write(b'z' * (4 * 1024 * 1024))\nprint('wrote')\n",
        Limits(file_bytes=1024 * 1024, wall_seconds=20),
    )
    # Python ignores SIGXFSZ, so the write fails instead (a C program is stopped by it).
    assert "wrote" not in result.output and "File too large" in result.log, result


def test_cpu_time_is_bounded() -> None:
    result = python("while True:\n    pass\n", Limits(cpu_seconds=1, wall_seconds=20))
    assert describe_exit(result.status) == "it used up its CPU time", result


@pytest.mark.parametrize("name", ["../x", "a/b", ""])
def test_file_names_stay_inside_the_bot_directory(name: str) -> None:
    with pytest.raises(ValueError):
        sandbox.command(["/bin/true"], {name: Path("/usr/bin/true")}, Limits())

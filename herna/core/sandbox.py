"""Run a program the hall does not trust: inside bubblewrap (``bwrap``, Debian's
``bubblewrap``), with kernel resource limits and a wall clock the hall keeps.

Why bubblewrap: it is the maintained sandbox Flatpak runs on, one small setuid-free binary in
Debian, and it does exactly what is needed here with command-line flags (namespaces, bind
mounts, a tmpfs, die-with-parent) — no daemon, no image, no configuration file. nsjail would
do the same but is not in Debian's main archive for every release, and a home-made
``unshare`` + ``chroot`` would re-implement what bwrap already gets right.

What a sandboxed program gets (:func:`command` builds the argument list):

* **no network**: a network namespace of its own, with only a loopback nobody listens on;
* **a read-only system**: ``/usr`` (and the ``/bin``, ``/lib*`` links into it), a fresh
  ``/proc`` of its own PID namespace and a minimal ``/dev``. Not ``/etc`` (so no
  ``/etc/passwd``), not ``/home``, ``/work``, ``/var`` or the hall's database: those paths do
  not exist inside;
* its program files read-only under ``/bot`` (the ``files`` given), and ``/tmp`` as an empty
  writable tmpfs of a bounded size, which is also its working directory;
* **limits** set by ``prlimit`` just before the program starts, inside the sandbox (so the
  program cannot raise them): CPU seconds, address space, processes, file size, open files;
* a PID namespace (its processes die with it), a new session (it cannot reach the hall's
  terminal), ``--die-with-parent`` (it dies when the hall does) and no capabilities.

The process limit (``RLIMIT_NPROC``) counts processes per user in the sandbox's user
namespace, and the kernel does not apply it to a namespace whose creator is root. So when the
hall runs as root, bwrap is started as the unprivileged :data:`SANDBOX_UID` (``setpriv``)
and creates its namespace as that user; any other user creates it as itself.

The wall clock is the caller's (``asyncio``): :class:`Sandboxed` kills the whole sandbox
(bwrap and, through its PID namespace, everything inside) when it is asked to.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

MIB = 1024 * 1024

SANDBOX_UID = 65534
"""The host user a root hall starts bwrap as (``nobody`` on Debian): see the module doc."""

INSIDE_UID = 1000
"""The user id a sandboxed program sees."""

BOT_DIR = "/bot"
"""Where the program's files are, read-only."""

OUT_DIR = "/out"
"""Where a compiler writes (the only writable place besides ``/tmp``, only when asked)."""

MISSING = (
    "the bot sandbox needs bubblewrap (the Debian package 'bubblewrap', command 'bwrap'): "
    "install it with 'apt-get install bubblewrap' ('make test' does)"
)


@dataclass(frozen=True)
class Limits:
    """What a sandboxed program may use. Kernel limits are per process (CPU, memory) or per
    sandbox (processes); the wall clock is the hall's."""

    cpu_seconds: int = 60
    memory_bytes: int = 512 * MIB
    """Address space (``RLIMIT_AS``): an allocation beyond it fails (Python: MemoryError)."""
    processes: int = 32
    """Processes and threads of the sandbox (``RLIMIT_NPROC``): a fork bomb stops here."""
    file_bytes: int = 8 * MIB
    """The largest file it may write (``RLIMIT_FSIZE``)."""
    open_files: int = 64
    tmp_bytes: int = 32 * MIB
    """The size of its writable ``/tmp``."""
    wall_seconds: float = 600.0
    """Kept by the caller: how long the whole run may take."""

    def prlimit(self) -> list[str]:
        return [
            "/usr/bin/prlimit",
            # SIGXCPU at the soft limit (a program may catch it and stop), SIGKILL a second on
            f"--cpu={self.cpu_seconds}:{self.cpu_seconds + 1}",
            f"--as={self.memory_bytes}",
            f"--nproc={self.processes}",
            f"--fsize={self.file_bytes}",
            f"--nofile={self.open_files}",
            "--core=0",
            "--",
        ]


def unavailable() -> str | None:
    """Why no program can be sandboxed here (``None``: it can)."""
    if shutil.which("bwrap") is None:
        return MISSING
    if not Path("/usr/bin/prlimit").exists():
        return "the bot sandbox needs /usr/bin/prlimit (Debian's util-linux)"
    probe = subprocess.run(
        command(["/bin/true"], {}, Limits()), capture_output=True, timeout=30, check=False
    )
    if probe.returncode != 0:
        why = probe.stderr.decode(errors="replace").strip() or f"status {probe.returncode}"
        return f"bubblewrap cannot make a sandbox on this machine: {why}"
    return None


def command(
    argv: Sequence[str], files: Mapping[str, Path], limits: Limits, out: Path | None = None
) -> list[str]:
    """The command line that runs ``argv`` in the sandbox, with each of ``files`` (name inside
    ``/bot`` → host path) bound read-only, and ``out`` (a directory of :func:`output_dir`)
    writable at :data:`OUT_DIR` (a compiler's output)."""
    wrap: list[str] = []
    if os.geteuid() == 0:
        uid = str(SANDBOX_UID)
        wrap = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--"]
    wrap += [
        "bwrap",
        "--unshare-all",  # user, pid, net, ipc, uts, cgroup namespaces
        "--die-with-parent",
        "--new-session",
        "--uid",
        str(INSIDE_UID),
        "--gid",
        str(INSIDE_UID),
        "--hostname",
        "sandbox",
        "--ro-bind",
        "/usr",
        "/usr",
    ]
    for link in ("bin", "lib", "lib64", "sbin"):
        if Path(f"/{link}").is_symlink():
            wrap += ["--symlink", f"usr/{link}", f"/{link}"]
        elif Path(f"/{link}").is_dir():
            wrap += ["--ro-bind", f"/{link}", f"/{link}"]
    wrap += ["--proc", "/proc", "--dev", "/dev"]
    wrap += ["--size", str(limits.tmp_bytes), "--tmpfs", "/tmp", "--dir", BOT_DIR]
    for name, path in files.items():
        if "/" in name or name in ("", ".", ".."):
            raise ValueError(f"not a plain file name: {name!r}")
        wrap += ["--ro-bind", str(path), f"{BOT_DIR}/{name}"]
    if out is not None:
        wrap += ["--bind", str(out), OUT_DIR]
    wrap += ["--remount-ro", "/", "--chdir", "/tmp", "--clearenv"]
    wrap += ["--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", "/tmp"]
    wrap += ["--setenv", "LANG", "C.UTF-8", "--setenv", "PYTHONUNBUFFERED", "1"]
    return [*wrap, "--", *limits.prlimit(), *argv]


@contextlib.contextmanager
def staged(files: Mapping[str, bytes]) -> Iterator[dict[str, Path]]:
    """Write a program's files to a fresh directory the sandbox user can read (the hall's own
    directories may be closed to it), for :func:`command`'s ``files``; removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="herna-bot-"))
    try:
        folder.chmod(0o755)
        paths = {}
        for name, data in files.items():
            path = folder / name
            path.write_bytes(data)
            path.chmod(0o644)
            paths[name] = path
        yield paths
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def output_dir() -> Iterator[Path]:
    """A fresh directory the sandbox user may write (a compiler's ``/out``); removed
    afterwards. Its files are bounded by the file size limit."""
    folder = Path(tempfile.mkdtemp(prefix="herna-out-"))
    try:
        folder.chmod(0o777)  # the sandbox's user is not the hall's
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class BoundedLog:
    """The first ``limit`` bytes of a stream (a bot's standard error), and how many more came."""

    limit: int = 64 * 1024
    data: bytearray = field(default_factory=bytearray)
    dropped: int = 0

    def add(self, chunk: bytes) -> None:
        room = self.limit - len(self.data)
        self.data += chunk[: max(0, room)]
        self.dropped += max(0, len(chunk) - max(0, room))

    def text(self) -> str:
        text = self.data.decode("utf-8", errors="replace")
        if self.dropped:
            text += f"\n[… {self.dropped} more bytes of log not kept]\n"
        return text


EXIT_SIGNALS = {
    signal.SIGXCPU: "it used up its CPU time",
    signal.SIGXFSZ: "it wrote a file over the size limit",
    signal.SIGSEGV: "it crashed (segmentation fault)",
    signal.SIGKILL: "it was killed",
    signal.SIGABRT: "it aborted",
}


def describe_exit(status: int | None) -> str:
    """Why a sandboxed program stopped, in words (bwrap reports a child killed by signal N as
    status 128+N)."""
    if status is None:
        return "it is still running"
    signum = -status if status < 0 else status - 128 if status > 128 else 0
    if signum:
        with contextlib.suppress(ValueError):
            return EXIT_SIGNALS.get(signal.Signals(signum), f"it was stopped by signal {signum}")
        return f"it was stopped by signal {signum}"
    return "it ended" if status == 0 else f"it ended with exit status {status}"


class Sandboxed:
    """One program running in the sandbox, its standard input and output pipes to the caller
    and its standard error into a :class:`BoundedLog`."""

    def __init__(self, process: asyncio.subprocess.Process, log: BoundedLog) -> None:
        self.process = process
        self.log = log
        assert process.stderr is not None
        self._stderr = asyncio.ensure_future(self._drain(process.stderr))

    @classmethod
    async def start(
        cls,
        argv: Sequence[str],
        files: Mapping[str, Path],
        limits: Limits,
        log_bytes: int = 64 * 1024,
        out: Path | None = None,
    ) -> Sandboxed:
        process = await asyncio.create_subprocess_exec(
            *command(argv, files, limits, out),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,  # its own process group: kill() reaches setpriv and bwrap
            limit=64 * 1024,
        )
        return cls(process, BoundedLog(log_bytes))

    async def _drain(self, stream: asyncio.StreamReader) -> None:
        while chunk := await stream.read(4096):
            self.log.add(chunk)

    def kill(self) -> None:
        """Kill the sandbox at once (bwrap's PID namespace takes every process inside)."""
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)

    async def wait(self, timeout: float | None = None) -> int:
        """The exit status; killed first when ``timeout`` seconds pass."""
        # asyncio.timeout, not wait_for, which on Python 3.11 can lose a cancellation.
        try:
            async with asyncio.timeout(timeout):
                await self.process.wait()
        except TimeoutError:
            self.kill()
            await self.process.wait()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(2.0):
                await asyncio.shield(self._stderr)
        assert self.process.returncode is not None
        return self.process.returncode


@dataclass(frozen=True)
class RunResult:
    status: int
    timed_out: bool
    output: str
    log: str


async def run(
    argv: Sequence[str],
    files: Mapping[str, Path],
    limits: Limits,
    stdin: bytes = b"",
    output_bytes: int = 64 * 1024,
    out: Path | None = None,
) -> RunResult:
    """Run ``argv`` to its end in the sandbox (a compiler, a test): its standard output is
    kept to ``output_bytes`` like its log, and it is killed after ``limits.wall_seconds``."""
    box = await Sandboxed.start(argv, files, limits, output_bytes, out)
    output = BoundedLog(output_bytes)
    assert box.process.stdin is not None and box.process.stdout is not None
    stdout = box.process.stdout

    async def drain() -> None:
        while chunk := await stdout.read(4096):
            output.add(chunk)

    with contextlib.suppress(ConnectionError):
        box.process.stdin.write(stdin)
        box.process.stdin.close()
    reading = asyncio.ensure_future(drain())
    loop = asyncio.get_running_loop()
    began = loop.time()
    status = await box.wait(limits.wall_seconds)
    timed_out = loop.time() - began >= limits.wall_seconds
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(2.0):
            await reading
    return RunResult(status, timed_out, output.text(), box.log.text())

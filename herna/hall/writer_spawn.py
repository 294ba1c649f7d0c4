"""Starting record writer processes: the first with :mod:`subprocess`, later ones forked from
a zygote that has imported the writer already.

A writer process (:mod:`herna.hall.writer`) spends about 0.35 s of CPU importing SQLAlchemy
and the schema before it commits anything, and at ``SCHED_IDLE`` on a busy machine that takes
longer still. ``herna serve`` starts one writer and never pays it again, but a process that
opens store after store (the test suite starts some four hundred writers, a fifth of its CPU)
or whose writer died pays it every time. So the second writer a process starts also starts a
*zygote*: a single-threaded ``python`` that imports the writer once and then forks one child
per writer it is asked for. A fork of a process that runs an event loop and threads could
inherit a lock held by another thread; the zygote runs neither, so its children start clean.

The parent hands the zygote the writer's two pipe ends over a Unix socket (``SCM_RIGHTS``) and
reads back the child's pid; the child starts a session of its own and runs
:func:`herna.hall.writer.writer_main` exactly as a ``subprocess`` writer does (it dies when its
control pipe reports end-of-file, as before). The zygote exits when its socket to the parent
does, so it dies with its parent too. Its children are not the parent's: :class:`ForkedWriter`
follows one through a pidfd (Linux), with :class:`subprocess.Popen`'s ``poll``/``wait``/
``kill``. Anything that goes wrong with a zygote (not ready yet, died, no pidfd) falls back to
starting the writer with :mod:`subprocess`.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import traceback
from typing import Protocol

READY = b"ready\n"
"""What a zygote says once it has imported the writer."""

FORK_TIMEOUT = 1.0
"""Seconds to wait for a zygote's answer (a fork takes milliseconds; the wait is on the loop
that submitted a record) before giving up on it and starting the writer with subprocess."""


class WriterProcess(Protocol):
    """What a record store needs of its writer process (a :class:`subprocess.Popen` has it)."""

    def poll(self) -> int | None: ...

    def wait(self, timeout: float | None = None) -> int: ...

    def kill(self) -> None: ...


class ForkedWriter:
    """A writer forked by the zygote, followed through a pidfd (its exit status is the
    zygote's to reap: 0 here once it has ended)."""

    def __init__(self, pid: int, pidfd: int) -> None:
        self.pid = pid
        self._pidfd = pidfd
        self.returncode: int | None = None

    def poll(self) -> int | None:
        return self.wait(0) if self._ended(0) else None

    def _ended(self, timeout: float | None) -> bool:
        if self.returncode is not None:
            return True
        watch = select.poll()
        watch.register(self._pidfd, select.POLLIN)
        if not watch.poll(None if timeout is None else timeout * 1000):
            return False
        self.returncode = 0
        os.close(self._pidfd)
        return True

    def wait(self, timeout: float | None = None) -> int:
        if not self._ended(timeout):
            raise subprocess.TimeoutExpired(f"record writer {self.pid}", timeout or 0)
        return 0

    def kill(self) -> None:
        if self.returncode is None:
            with contextlib.suppress(OSError):
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)


class _Zygote:
    """The parent's end of a zygote process."""

    def __init__(self, env: dict[str, str]) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    "from herna.hall.writer_spawn import zygote_main; zygote_main()",
                    str(theirs.fileno()),
                ],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                env=env,
                start_new_session=True,  # Ctrl-C to herna's process group is not for it
            )
        finally:
            theirs.close()
        self.sock = ours
        self.ready = False
        self.broken = False
        self._buffer = b""

    def _read_line(self, timeout: float) -> bytes | None:
        while b"\n" not in self._buffer:
            watch = select.poll()
            watch.register(self.sock, select.POLLIN)
            if not watch.poll(timeout * 1000):
                return None
            chunk = self.sock.recv(4096)
            if not chunk:
                raise OSError("the zygote is gone")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line

    def usable(self) -> bool:
        """Ready to fork (never waits: a zygote still importing is not used yet)."""
        if self.broken:
            return False
        if not self.ready:
            try:
                line = self._read_line(0)
            except OSError:
                self.broken = True
                return False
            self.ready = line == READY.strip()
        return self.ready

    def fork(self, fds: tuple[int, int]) -> ForkedWriter | None:
        try:
            socket.send_fds(self.sock, [b"w"], list(fds))
            line = self._read_line(FORK_TIMEOUT)
            if line is None:
                raise OSError("the zygote did not answer")
            pid = int(line)
        except (OSError, ValueError):
            self.broken = True
            return None
        try:
            return ForkedWriter(pid, os.pidfd_open(pid))
        except (AttributeError, OSError):
            # No pidfd (not Linux 5.3+), or the writer died already: end it; no zygote again.
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            self.broken = True
            return None

    def close(self) -> None:
        self.sock.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(1.0)


_lock = threading.Lock()
_zygote: _Zygote | None = None
_started = 0


def _forget_in_child() -> None:
    """A forked child (a pool's worker) has a copy of the parent's socket to the zygote and
    must not speak on it: it starts its own writers afresh."""
    global _lock, _zygote, _started
    _lock = threading.Lock()
    if _zygote is not None:
        _zygote.sock.close()  # (the child's copy only: the parent's stays open)
    _zygote, _started = None, 0


os.register_at_fork(after_in_child=_forget_in_child)


def start_writer(control_r: int, reply_w: int, env: dict[str, str]) -> WriterProcess:
    """A new writer process reading ``control_r`` and answering on ``reply_w`` (the caller
    closes its copies of both)."""
    global _zygote, _started
    with _lock:
        _started += 1
        zygote = _zygote
        if zygote is not None and zygote.usable():
            writer = zygote.fork((control_r, reply_w))
            if writer is not None:
                return writer
        if zygote is not None and zygote.broken:
            zygote.close()
            _zygote = None
        elif zygote is None and _started >= 2:
            # A second writer: more may follow (a store reopened, a test suite), so start
            # the zygote now, to be ready for the next one.
            with contextlib.suppress(OSError):
                _zygote = _Zygote(env)
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from herna.hall.writer import main; main()",
            str(control_r),
            str(reply_w),
        ],
        pass_fds=(control_r, reply_w),
        stdin=subprocess.DEVNULL,
        env=env,
        start_new_session=True,
    )


def zygote_main() -> None:
    """The zygote process: import the writer, say so, then fork a writer per request until
    the parent's socket closes."""
    from herna.hall import writer

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the writers
    sock = socket.socket(fileno=int(sys.argv[-1]))
    sock.sendall(READY)
    while True:
        try:
            message, fds, _flags, _address = socket.recv_fds(sock, 16, 2)
        except OSError:
            return
        if not message:
            return
        if len(fds) != 2:
            for fd in fds:
                os.close(fd)
            continue
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                sock.close()
                os.setsid()
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                writer.main(fds)
            except BaseException:
                traceback.print_exc()
                code = 1
            finally:
                os._exit(code)
        for fd in fds:
            os.close(fd)
        sock.sendall(f"{pid}\n".encode())

"""What every worker process Herna starts does first (the rules checker's, the reviews', the
balance reports'). A small module of its own: a ``spawn`` worker imports the module of its
initializer, and importing a whole server package would cost it seconds."""

from __future__ import annotations

import ctypes
import os
import signal

PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Pool initializer: have the kernel kill this worker when ``herna serve`` dies.

    Without it a worker killed parent leaves behind waits for work for ever (it holds its own
    copy of the pool's queues, so it never sees end-of-file), and with it the multiprocessing
    resource tracker, which only exits once every process holding its pipe is gone.
    PR_SET_PDEATHSIG is Linux-only; elsewhere the worker is left as it was. The signal fires
    when the *thread* that started the worker ends, so start pools from a thread that lives as
    long as the process."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the prctl: nobody would signal us
        os._exit(1)


def background_worker(parent: int, nice: int) -> None:
    """Pool initializer for work that may wait (reports, reviews): dies with its parent and
    lowers its priority by ``nice``, so the game servers' loops go first on a busy machine."""
    die_with_parent(parent)
    if nice:
        os.nice(nice)

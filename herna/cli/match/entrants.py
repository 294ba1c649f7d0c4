"""The two sides of an engine match: bot programs (any language) and in-process house bots.

A program is started once per match slot with the contract of ``docs/match.md``: the
environment carries ``HERNA_HOST``, ``HERNA_PORT``, ``HERNA_NAME``, ``HERNA_TOKEN`` and
``HERNA_GAME``, and ``{host}``, ``{port}``, ``{name}``, ``{game}`` in its command line are
replaced by the same values. Its output goes to a log file (a bot's chatter must not scroll the
progress line away). When it exits during the match it is started again before the next
game; one that exits :data:`MAX_EXITS_WITHOUT_GAME` times without ever getting a game stops
the match with an error, because restarting it for ever would only hide a broken command.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import shutil
import signal
import sys
from collections.abc import Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from herna.hall.hall import Hall

HOUSE_PREFIX = "house:"
MAX_EXITS_WITHOUT_GAME = 3
STOP_GRACE = 2.0
"""Seconds a program has to exit after SIGTERM at the end of a match before SIGKILL."""


class MatchError(Exception):
    """Why a match cannot start or go on, in one line for the user."""


@dataclass(frozen=True)
class EntrantSpec:
    """What was given for CMD_A or CMD_B: a command line, or ``house:<strategy>[:<depth>]``."""

    label: str
    """``A`` or ``B``."""
    text: str
    argv: tuple[str, ...] = ()
    house: str | None = None
    depth: int | None = None
    login: str | None = None
    """The login name when the caller chooses it (a tournament's entrant names)."""

    @property
    def name(self) -> str:
        """The login name of this side (reserved for the match)."""
        return self.login or f"engine-{self.label.lower()}"


def parse_entrant(label: str, text: str, strategies: tuple[str, ...]) -> EntrantSpec:
    """Check CMD_A/CMD_B before anything starts: a house strategy this game has, or a
    command whose program exists. Raises :class:`MatchError` with a one-line reason."""
    if text.startswith(HOUSE_PREFIX):
        strategy, _, depth = text[len(HOUSE_PREFIX) :].partition(":")
        if strategy not in strategies:
            raise MatchError(
                f"{label}: unknown house bot {strategy!r}; one of "
                + ", ".join(HOUSE_PREFIX + s for s in strategies)
            )
        if depth and not depth.isdigit():
            raise MatchError(f"{label}: the depth in {text!r} must be a number")
        return EntrantSpec(label, text, house=strategy, depth=int(depth) if depth else None)
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise MatchError(f"{label}: cannot read the command {text!r}: {exc}") from None
    if not argv:
        raise MatchError(f"{label}: the command is empty")
    program = argv[0]
    if program != "herna" and shutil.which(program) is None:
        raise MatchError(f"{label}: no such program: {program!r} (command {text!r})")
    return EntrantSpec(label, text, argv=tuple(argv))


def login_names(specs: Mapping[str, EntrantSpec], sides: Sequence[str]) -> tuple[str, ...]:
    """The login names of ``sides`` (``A``/``B`` per seat) when a side holds several seats:
    its first seat is the side's name, the next ones ``<name>-2``, ``<name>-3`` …

    >>> specs = {"A": EntrantSpec("A", "x"), "B": EntrantSpec("B", "y")}
    >>> login_names(specs, ["A", "B", "B"])
    ('engine-a', 'engine-b', 'engine-b-2')
    """
    seen: dict[str, int] = {}
    out = []
    for side in sides:
        seen[side] = seen.get(side, 0) + 1
        base = specs[side].name
        out.append(base if seen[side] == 1 else f"{base}-{seen[side]}")
    return tuple(out)


async def run_slots(slots: Iterable[Coroutine[Any, Any, None]]) -> None:
    """Run a match's slots (``--concurrency``) together until all are done; the first one
    that fails (a :class:`MatchError`) ends the others and is raised."""
    tasks = [asyncio.create_task(slot) for slot in slots]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        for task in done:
            task.result()
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def retire(
    hall: Hall,
    service: object,
    tasks: Iterable[asyncio.Task[Any]] = (),
    programs: Iterable[Program] = (),
) -> None:
    """End what one table of a match or tournament started: its in-process bots (``tasks``),
    its programs and its server, which leaves the hall."""
    tasks = list(tasks)
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(BaseException):
            await task
    for program in programs:
        await program.stop()
    stop = getattr(service, "stop", None)
    if stop is not None:
        await stop()
    if service in hall.services:
        hall.services.remove(service)  # type: ignore[arg-type]


def substitute(argv: tuple[str, ...], values: dict[str, str]) -> list[str]:
    """The command line with ``{host}`` … replaced; a plain replace, not ``str.format``, so a
    command may contain other braces (JSON, shell) untouched."""
    out = []
    for arg in argv:
        for key, value in values.items():
            arg = arg.replace("{" + key + "}", value)
        out.append(arg)
    if out and out[0] == "herna":
        # The Herna that runs the match, not whichever one is first on PATH.
        out[:1] = [sys.executable, "-m", "herna.cli"]
    return out


def _package_root() -> str:
    return str(Path(__file__).resolve().parents[3])


class Program:
    """One running copy of a bot program in one slot; started again before its next game when
    it has exited."""

    def __init__(
        self,
        spec: EntrantSpec,
        game: str,
        host: str,
        port: int,
        token: str,
        log_path: Path,
    ) -> None:
        self.spec = spec
        self.name = spec.name
        self.game = game
        self.host = host
        self.port = port
        self.token = token
        self.log_path = log_path
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        self.exits_without_game = 0
        self.killed_for_stall = False
        """Set when the runner killed it for stalling: its forfeit is a stall, not a crash."""
        self.stopping = False
        self._watch: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def environment(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            HERNA_HOST=self.host,
            HERNA_PORT=str(self.port),
            HERNA_NAME=self.name,
            HERNA_TOKEN=self.token,
            HERNA_GAME=self.game,
        )
        if self.spec.argv[0] == "herna":
            # `herna` runs as `python -m herna.cli`: make sure that finds this very package.
            path = env.get("PYTHONPATH")
            env["PYTHONPATH"] = _package_root() + (os.pathsep + path if path else "")
        return env

    def command(self) -> list[str]:
        values = {"host": self.host, "port": str(self.port), "name": self.name, "game": self.game}
        return substitute(self.spec.argv, values)

    async def start(self) -> None:
        """Start the program unless it is running (or the match is over)."""
        async with self._lock:
            if not self.alive and not self.stopping:
                await self._start()

    async def _start(self) -> None:
        self.killed_for_stall = False
        self.starts += 1
        with self.log_path.open("ab") as log:
            log.write(f"--- start {self.starts}: {shlex.join(self.command())}\n".encode())
            log.flush()
            try:
                self.proc = await asyncio.create_subprocess_exec(
                    *self.command(),
                    env=self.environment(),
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=log,
                    stderr=asyncio.subprocess.STDOUT,
                    # Its own process group: a shell script's children are stopped with it.
                    start_new_session=True,
                )
            except OSError as exc:
                raise MatchError(
                    f"{self.spec.label}: cannot start {self.spec.text!r}: {exc}"
                ) from None
        self._watch = asyncio.create_task(self._wait(self.proc))

    async def _wait(self, proc: asyncio.subprocess.Process) -> None:
        await proc.wait()
        if not self.stopping:
            self.exits_without_game += 1

    async def wait_exit(self, timeout: float) -> bool:
        """True when the process has exited (waiting up to ``timeout`` seconds)."""
        proc = self.proc
        if proc is None:
            return True
        try:
            await asyncio.wait_for(proc.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def kill(self) -> None:
        """SIGKILL its process group (a stalled bot: it gets no chance to answer late)."""
        if self.alive:
            assert self.proc is not None
            _signal_group(self.proc.pid, signal.SIGKILL)

    def last_output(self, lines: int = 3) -> str:
        try:
            text = self.log_path.read_text(errors="replace").strip().splitlines()
        except OSError:
            return ""
        return " | ".join(line.strip() for line in text[-lines:])

    async def stop(self) -> None:
        self.stopping = True
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return
        _signal_group(proc.pid, signal.SIGTERM)
        if not await self.wait_exit(STOP_GRACE):
            _signal_group(proc.pid, signal.SIGKILL)
            await proc.wait()


def _signal_group(pid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, sig)

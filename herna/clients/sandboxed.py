"""The runner: one game of a submitted bot, run in the sandbox and relayed to the game's
server as an ordinary client.

The bot (:mod:`herna.hall.submissions`) runs inside :mod:`herna.core.sandbox` with no
network; this relay, outside it, opens the connection to the game's server, logs in under the
bot's reserved name with a proof the bot never sees, and then passes messages both ways:
every server message from the login's answer on (Onitama: ``LOGIN_OK``) goes to the bot's
standard input, every message the bot writes goes to the server (except a login: the
relay's is the only one). The server, its rules and its
records are the same as for any client; what the relay adds is the clocks and bounds a
program the hall starts must have:

* a **per-move clock**: the bot must answer each of its turns within ``move_seconds``
  (``INVALID_MOVE`` does not restart it), or the relay resigns for it;
* a **per-game clock**: the whole game within ``game_seconds``;
* **output bounds**: messages of at most the protocol's length (Onitama: 1024 bytes), at
  most :data:`LINES_PER_TURN` messages between two server messages;
* the bot's end: a bot that exits or is killed by a limit mid-game loses (the protocol's
  own way of giving up: ``RESIGN``, ``resign``, ``UNREGISTER``, a stand-in).

Each ends the game with a sentence for the bot's author (:attr:`RunOutcome.reason`), kept
with the bot's standard error in ``bot_runs``. What is game-specific (the transport, the
login, whose turn it is, how the game ended, how to give up) is the game's :class:`Wire`
(:mod:`herna.clients.sandboxed_wires`): Onitama, tile games, Mia over UDP and mariáš over
CGML, whose bots read and write whole CGML documents instead of lines.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from herna.clients.sandboxed_wires import Refused, Wire, wire_for
from herna.core.sandbox import (
    MIB,
    Limits,
    RunResult,
    Sandboxed,
    describe_exit,
    output_dir,
    run,
    staged,
)
from herna.hall.submissions import LANGUAGES, Submission

LINES_PER_TURN = 20
"""Lines a bot may write between two server messages before it counts as a flood."""

END_WAIT = 1.0
"""Seconds a bot gets to exit by itself after its game is over (then it is killed)."""


@dataclass(frozen=True)
class RunSettings:
    move_seconds: float = 2.0
    game_seconds: float = 300.0
    limits: Limits = field(default_factory=lambda: Limits(cpu_seconds=120, wall_seconds=330))
    seek: str = "once,opponent=bots,level=easy"
    """The login's lobby words: who the bot plays (docs/protocols/onitama.md, "The lobby";
    tiles: the ``join``'s ``seek``; mariáš: ``bots=SERVER+SERVER`` names the opponents' bot
    servers, ``tournament=ID`` a live tournament's groups; Mia: none)."""
    start_seconds: float | None = None
    """How long the bot waits for its game to start before it leaves (None: the game
    clock's whole length): a challenge to a person who never comes ends then."""


@dataclass
class RunOutcome:
    outcome: str
    """``won``, ``lost``, ``draw`` or ``no game``."""
    reason: str
    log: str
    table_id: str = ""
    opponent: str = ""
    moves: int = 0
    """Moves the bot made."""
    started_at: datetime = field(default_factory=lambda: datetime.now(UTC))


class _Stop(Exception):
    """The relay ends the game for the bot: ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _log_tail(log: str) -> str:
    lines = [line for line in log.splitlines() if line.strip()]
    return lines[-1][:120] if lines else ""


async def play_game(
    submission: Submission,
    host: str,
    port: int,
    proof: str,
    settings: RunSettings | None = None,
) -> RunOutcome:
    """Run ``submission`` for one game on the Onitama server at ``host:port``, logged in as
    its name with ``proof`` (its token, or a proof the hall issued); a compiled language is
    compiled first, in the sandbox too (before each game: no cache yet)."""
    settings = settings or RunSettings()
    language = LANGUAGES[submission.language]
    with staged({language.filename: submission.source}) as files:
        if not language.compile:
            return await _play(submission, host, port, proof, settings, files, language.run)
        with output_dir() as out:
            compiled = await run(language.compile, files, COMPILE_LIMITS, out=out)
            binary = out / "bot"
            if compiled.status != 0 or not binary.is_file():
                return RunOutcome("no game", _compile_failure(compiled), compiled.log)
            return await _play(
                submission, host, port, proof, settings, {"bot": binary}, language.run
            )


COMPILE_LIMITS = Limits(
    cpu_seconds=30, memory_bytes=1024 * MIB, file_bytes=64 * MIB, wall_seconds=30
)
"""What a compilation may use (gcc runs several processes: cc1, as, ld)."""


def _compile_failure(result: RunResult) -> str:
    if result.timed_out:
        return f"it did not compile within {COMPILE_LIMITS.wall_seconds:g} s"
    error = next((line for line in result.log.splitlines() if "error" in line), "")
    why = describe_exit(result.status)
    return f"it did not compile ({why}): {error[:200]}" if error else f"it did not compile ({why})"


async def _play(
    submission: Submission,
    host: str,
    port: int,
    proof: str,
    settings: RunSettings,
    files: Mapping[str, Path],
    argv: tuple[str, ...],
) -> RunOutcome:
    outcome = RunOutcome("no game", "", "")
    wire = wire_for(submission.game, submission.name)
    box = await Sandboxed.start(argv, files, settings.limits)
    relay = _Relay(wire, box, settings, outcome)
    try:
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for loses a cancellation that
        # comes as the game ends, and a stopping hall then waited on a bot that played on.
        async with asyncio.timeout(settings.game_seconds):
            await relay.run(host, port, proof)
    except TimeoutError:
        await relay.resign(f"the game took longer than {settings.game_seconds:g} s (game clock)")
    finally:
        box.kill()
        status = await box.wait()
        await wire.close()
    outcome.log = box.log.text()
    outcome.opponent = wire.opponent
    outcome.moves = wire.moves
    if wire.over is not None:
        outcome.outcome = wire.over[0] if outcome.outcome != "lost" else "lost"
        outcome.reason = outcome.reason or wire.over[1]
    if not wire.started and not outcome.reason:
        outcome.reason = f"{describe_exit(status)} before the game began"
    if not wire.started:
        outcome.outcome = "no game"
    return outcome


class _Relay:
    """Passes messages between the sandboxed bot and its :class:`Wire`, with the clocks and
    bounds of the module doc."""

    def __init__(
        self, wire: Wire, box: Sandboxed, settings: RunSettings, outcome: RunOutcome
    ) -> None:
        self.wire = wire
        self.box = box
        self.settings = settings
        self.outcome = outcome
        self.messages_since_server = 0
        self.timer: asyncio.TimerHandle | None = None
        """The move clock of the bot's turn (a timer on the loop: no task to cancel)."""
        self.out_of_time: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.nobody_came: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.start_timer: asyncio.TimerHandle | None = None

    async def run(self, host: str, port: int, proof: str) -> None:
        if self.settings.start_seconds is not None:
            self.start_timer = asyncio.get_running_loop().call_later(
                self.settings.start_seconds, self._nobody_came
            )
        try:
            greeting = await self.wire.open(host, port, proof, self.settings.seek)
        except Refused as refused:
            self.outcome.reason = refused.reason
            return
        for text in greeting:
            await self._to_bot(text)
        from_server = asyncio.ensure_future(self._from_server())
        from_bot = asyncio.ensure_future(self._from_bot())
        clock = self.out_of_time
        nobody = self.nobody_came
        stop: BaseException | None = None
        done: set[asyncio.Future[None]] = set()
        try:
            done, _ = await asyncio.wait(
                {from_server, from_bot, clock, nobody}, return_when=asyncio.FIRST_COMPLETED
            )
            failed = [t.exception() for t in done if not t.cancelled()]
            why = next((e for e in failed if isinstance(e, (_Stop, Refused))), None)
            stop = _Stop(why.reason) if why is not None else None
            if clock in done:
                stop = _Stop(f"no move within {self.settings.move_seconds:g} s (the move clock)")
            if nobody in done:
                stop = _Stop(f"no game began within {self.settings.start_seconds:g} s")
            if from_bot in done and stop is None and self.wire.over is None:
                # Its output ended: it exited or a limit stopped it. Let the exit status come.
                status = await self.box.wait(2.0)
                tail = _log_tail(self.box.log.text())
                ended = f"{describe_exit(status)} during the game"
                stop = _Stop(f"{ended}; its log ends: {tail}" if tail else ended)
        finally:
            self._stop_clock()
            if self.start_timer is not None:
                self.start_timer.cancel()
            for task in (from_server, from_bot):
                task.cancel()
            await asyncio.gather(from_server, from_bot, return_exceptions=True)
        if isinstance(stop, _Stop):
            await self.resign(stop.reason)  # the readers are gone: it reads the answer
        elif from_server in done:
            from_server.result()
        if self.wire.over is not None:
            await self.wire.finish()
            await self._bot_ends()

    async def _from_server(self) -> None:
        while self.wire.over is None:
            was_mine = self.wire.mine
            texts = await self.wire.receive()
            if texts is None:
                if self.wire.over is None and not self.outcome.reason:
                    self.outcome.reason = "the server closed the connection"
                return
            self._clock(was_mine)
            for text in texts:
                await self._to_bot(text)

    def _clock(self, was_mine: bool) -> None:
        if self.wire.started and self.start_timer is not None:
            self.start_timer.cancel()
            self.start_timer = None
        if self.wire.mine and not was_mine:
            self._stop_clock()
            self.timer = asyncio.get_running_loop().call_later(
                self.settings.move_seconds, self._time_is_up
            )
        elif not self.wire.mine:
            self._stop_clock()

    async def _to_bot(self, text: str) -> None:
        self.messages_since_server = 0
        stdin = self.box.process.stdin
        assert stdin is not None
        with contextlib.suppress(ConnectionError, RuntimeError):
            stdin.write(text.encode() if text.endswith("\n") else (text + "\n").encode())
            await stdin.drain()

    async def _from_bot(self) -> None:
        stdout = self.box.process.stdout
        assert stdout is not None
        limit = self.wire.max_message
        what = "message" if self.wire.documents else "line"
        end = b"</cgml>" if self.wire.documents else b"\n"
        while True:
            try:
                raw = await stdout.readuntil(end)
            except asyncio.IncompleteReadError:
                return  # its output ended
            except asyncio.LimitOverrunError:
                raise _Stop(f"it wrote a {what} longer than {limit} bytes") from None
            if len(raw.strip()) > limit:
                raise _Stop(f"it wrote a {what} longer than {limit} bytes")
            self.messages_since_server += 1
            if self.messages_since_server > LINES_PER_TURN:
                raise _Stop(f"it wrote over {LINES_PER_TURN} {what}s without an answer between")
            text = raw.decode(errors="replace").strip()
            if not text:
                continue
            was_mine = self.wire.mine
            await self.wire.send(text)
            self._clock(was_mine)

    def _nobody_came(self) -> None:
        if not self.wire.started and not self.nobody_came.done():
            self.nobody_came.set_result(None)

    def _time_is_up(self) -> None:
        if not self.out_of_time.done():
            self.out_of_time.set_result(None)

    def _stop_clock(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    async def resign(self, reason: str) -> None:
        """End the game for the bot: it loses, and ``reason`` tells its author why."""
        self.box.kill()
        self.outcome.reason = reason
        if self.wire.over is not None or not self.wire.started:
            return  # no game to resign (or it is over already)
        await self.wire.give_up()
        self.outcome.outcome = "lost"

    async def _bot_ends(self) -> None:
        stdin = self.box.process.stdin
        if stdin is not None:
            stdin.close()
        await self.box.wait(END_WAIT)

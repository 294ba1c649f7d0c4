"""The runner: one game of a submitted bot, run in the sandbox and relayed to the game's
server as an ordinary client.

The bot (:mod:`herna.hall.submissions`) runs inside :mod:`herna.core.sandbox` with no
network; this relay, outside it, opens the TCP connection, logs in under the bot's reserved
name with a proof the bot never sees, and then passes lines both ways: every server line from
``LOGIN_OK`` on goes to the bot's standard input, every line the bot writes goes to the
server (except ``LOGIN``: the relay's login is the only one). The server, its rules and its
records are the same as for any client; what the relay adds is the clocks and bounds a
program the hall starts must have:

* a **per-move clock**: the bot must answer each of its turns within ``move_seconds``
  (``INVALID_MOVE`` does not restart it), or the relay resigns for it;
* a **per-game clock**: the whole game within ``game_seconds``;
* **output bounds**: lines of at most the protocol's 1024 bytes, at most
  :data:`LINES_PER_TURN` lines between two server messages;
* the bot's end: a bot that exits or is killed by a limit mid-game loses (``RESIGN``).

Each ends the game with a sentence for the bot's author (:attr:`RunOutcome.reason`), kept
with the bot's standard error in ``bot_runs``. Onitama's line protocol is the one spoken so
far (docs/protocols/onitama.md); its turn is read by :class:`OnitamaTurns`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

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
from herna.protocols.onitama import MAX_LINE

LINES_PER_TURN = 20
"""Lines a bot may write between two server messages before it counts as a flood."""

END_WAIT = 1.0
"""Seconds a bot gets to exit by itself after its game is over (then it is killed)."""

REASONS = {
    "way_of_the_stone": "the master was captured (Way of the Stone)",
    "way_of_the_stream": "a master reached the temple arch (Way of the Stream)",
    "opponent_left": "the opponent left",
    "out_of_time": "out of time",
    "resigned": "resigned",
    "draw_agreed": "a draw was agreed",
}


@dataclass(frozen=True)
class RunSettings:
    move_seconds: float = 2.0
    game_seconds: float = 300.0
    limits: Limits = field(default_factory=lambda: Limits(cpu_seconds=120, wall_seconds=330))
    seek: str = "once,opponent=bots,level=easy"
    """LOGIN's lobby field: who the bot plays (docs/protocols/onitama.md, "The lobby")."""
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


class OnitamaTurns:
    """Whose turn it is, read from the server's lines to one player."""

    def __init__(self, name: str) -> None:
        self.name = name.casefold()
        self.white = ""
        self.black = ""
        self.to_move = ""
        self.over: tuple[str, str] | None = None
        """(winner, reason) once ``GAME_OVER`` came."""

    @property
    def opponent(self) -> str:
        return self.black if self.white.casefold() == self.name else self.white

    @property
    def mine(self) -> bool:
        return bool(self.to_move) and self.to_move.casefold() == self.name and self.over is None

    def read(self, line: str) -> None:
        fields = line.split("|")
        kind = fields[0]
        if kind == "START" and len(fields) >= 3:
            self.white, self.black, self.to_move = fields[1], fields[2], fields[1]
        elif kind in ("MOVE_WAS_MADE", "STALEMATE_CARD") and self.to_move:
            self.to_move = self.black if self.to_move == self.white else self.white
        elif kind == "RECONNECT" and len(fields) >= 6:
            self.to_move = self.white if fields[5] == "white" else self.black
        elif kind == "GAME_OVER":
            self.over = (fields[1] if len(fields) > 1 else "", fields[2] if len(fields) > 2 else "")


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
    box = await Sandboxed.start(argv, files, settings.limits)
    try:
        reader, writer = await asyncio.open_connection(host, port, limit=4 * MAX_LINE)
    except OSError as exc:
        box.kill()
        await box.wait()
        outcome.reason = f"the hall's game server could not be reached: {exc}"
        outcome.log = box.log.text()
        return outcome
    relay = _Relay(submission.name, box, reader, writer, settings, outcome)
    try:
        await asyncio.wait_for(relay.run(proof), settings.game_seconds)
    except TimeoutError:
        await relay.resign(f"the game took longer than {settings.game_seconds:g} s (game clock)")
    finally:
        box.kill()
        status = await box.wait()
        writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await writer.wait_closed()
    outcome.log = box.log.text()
    if relay.turns.over is None and not outcome.reason:
        outcome.reason = f"{describe_exit(status)} before the game began"
    return outcome


class _Relay:
    def __init__(
        self,
        name: str,
        box: Sandboxed,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        settings: RunSettings,
        outcome: RunOutcome,
    ) -> None:
        self.name = name
        self.box = box
        self.reader = reader
        self.writer = writer
        self.settings = settings
        self.outcome = outcome
        self.turns = OnitamaTurns(name)
        self.lines_since_server = 0
        self.timer: asyncio.TimerHandle | None = None
        """The move clock of the bot's turn (a timer on the loop: no task to cancel)."""
        self.out_of_time: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.nobody_came: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.start_timer: asyncio.TimerHandle | None = None

    async def run(self, proof: str) -> None:
        self.writer.write(f"LOGIN|{self.name}|{proof}|{self.settings.seek}\n".encode())
        answer = (await self.reader.readline()).decode(errors="replace").rstrip("\r\n")
        if not answer.startswith("LOGIN_OK"):
            self.outcome.reason = f"the server refused the login: {answer or 'no answer'}"
            return
        await self._to_bot(answer)
        from_server = asyncio.ensure_future(self._from_server())
        from_bot = asyncio.ensure_future(self._from_bot())
        clock = self.out_of_time
        nobody = self.nobody_came
        if self.settings.start_seconds is not None:
            self.start_timer = asyncio.get_running_loop().call_later(
                self.settings.start_seconds, self._nobody_came
            )
        stop: BaseException | None = None
        done: set[asyncio.Future[None]] = set()
        try:
            done, _ = await asyncio.wait(
                {from_server, from_bot, clock, nobody}, return_when=asyncio.FIRST_COMPLETED
            )
            stop = next((t.exception() for t in done if isinstance(t.exception(), _Stop)), None)
            if clock in done:
                stop = _Stop(f"no move within {self.settings.move_seconds:g} s (the move clock)")
            if nobody in done:
                stop = _Stop(f"no game began within {self.settings.start_seconds:g} s")
            if from_bot in done and stop is None and self.turns.over is None:
                # Its output ended: it exited or a limit stopped it. Let the exit status come.
                status = await self.box.wait(2.0)
                tail = _log_tail(self.box.log.text())
                why = f"{describe_exit(status)} during the game"
                stop = _Stop(f"{why}; its log ends: {tail}" if tail else why)
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
        if self.turns.over is not None:
            await self._bot_ends()

    async def _from_server(self) -> None:
        while self.turns.over is None:
            raw = await self.reader.readline()
            if not raw:
                if self.turns.over is None and not self.outcome.reason:
                    self.outcome.reason = "the server closed the connection"
                return
            line = raw.decode(errors="replace").rstrip("\r\n")
            was_mine = self.turns.mine
            self.turns.read(line)
            self._note(line, was_mine)
            await self._to_bot(line)

    def _note(self, line: str, was_mine: bool) -> None:
        kind = line.split("|", 1)[0]
        if kind == "START":
            self.outcome.opponent = self.turns.opponent
        if was_mine and kind in ("MOVE_WAS_MADE", "STALEMATE_CARD"):
            self.outcome.moves += 1
        if self.turns.mine and (not was_mine or kind == "START"):
            self._stop_clock()
            self.timer = asyncio.get_running_loop().call_later(
                self.settings.move_seconds, self._time_is_up
            )
        elif not self.turns.mine:
            self._stop_clock()
        if self.turns.over is not None:
            winner, reason = self.turns.over
            if not winner:
                self.outcome.outcome = "draw"
            elif winner.casefold() == self.turns.name:
                self.outcome.outcome = "won"
            else:
                self.outcome.outcome = "lost"
            if not self.outcome.reason:
                self.outcome.reason = REASONS.get(reason, reason.replace("_", " "))

    async def _to_bot(self, line: str) -> None:
        self.lines_since_server = 0
        stdin = self.box.process.stdin
        assert stdin is not None
        with contextlib.suppress(ConnectionError, RuntimeError):
            stdin.write((line + "\n").encode())
            await stdin.drain()

    async def _from_bot(self) -> None:
        stdout = self.box.process.stdout
        assert stdout is not None
        while True:
            try:
                raw = await stdout.readuntil(b"\n")
            except asyncio.IncompleteReadError:
                return  # its output ended
            except asyncio.LimitOverrunError:
                raise _Stop(f"it wrote a line longer than {MAX_LINE} bytes") from None
            if len(raw) > MAX_LINE + 1:
                raise _Stop(f"it wrote a line longer than {MAX_LINE} bytes")
            self.lines_since_server += 1
            if self.lines_since_server > LINES_PER_TURN:
                raise _Stop(f"it wrote over {LINES_PER_TURN} lines without an answer between")
            line = raw.decode(errors="replace").rstrip("\r\n")
            if not line.strip() or line.split("|", 1)[0].strip().upper() == "LOGIN":
                continue
            self.writer.write((line + "\n").encode())
            await self.writer.drain()

    def _nobody_came(self) -> None:
        if not self.turns.white and not self.nobody_came.done():
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
        if self.turns.over is not None or not self.turns.white:
            return  # no game to resign (or it is over already)
        with contextlib.suppress(ConnectionError, OSError):
            self.writer.write(b"RESIGN\n")
            await self.writer.drain()
            while self.turns.over is None:
                raw = await asyncio.wait_for(self.reader.readline(), 5.0)
                if not raw:
                    break
                self.turns.read(raw.decode(errors="replace").rstrip("\r\n"))
        self.outcome.outcome = "lost"

    async def _bot_ends(self) -> None:
        stdin = self.box.process.stdin
        if stdin is not None:
            stdin.close()
        await self.box.wait(END_WAIT)

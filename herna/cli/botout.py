"""What ``herna bot <game>`` prints: the same shape for every game.

A bot says when it connects and registers, each finished game with its result and the
running score, and every reconnect; ``--quiet`` silences all of it but errors. With a known
number of games (``--games N``, ``--rounds N``) a rich progress bar shows how far the run
is, the lines scrolling above it. Mia finishes hundreds of rounds a second, so it prints a
summary every few seconds instead of a line per round (:meth:`BotOutput.tally`).
"""

from __future__ import annotations

import argparse
import time
from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


def add_quiet(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="print nothing but errors (default: connects, each finished game with the "
        "running score, reconnects, and a progress bar when the number of games is given)",
    )


class BotOutput:
    def __init__(
        self,
        name: str,
        total: int | None = None,
        quiet: bool = False,
        console: Console | None = None,
        unit: str = "games",
        every: float = 5.0,
    ) -> None:
        self.name = name
        self.quiet = quiet
        self.console = console or Console(highlight=False, soft_wrap=True)
        self.unit = unit
        self.every = every
        self.games = self.won = self.lost = 0
        self.points = 0
        self._last_tally = time.monotonic()
        self._progress: Progress | None = None
        self._task = None
        if total is not None and not quiet:
            self._progress = Progress(
                TextColumn(f"{name}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn(unit),
                TextColumn("{task.fields[score]}"),
                TimeElapsedColumn(),
                console=self.console,
                transient=False,
            )
            self._task = self._progress.add_task(unit, total=total, score="")

    def __enter__(self) -> BotOutput:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._progress is not None:
            self._progress.stop()

    def say(self, text: str) -> None:
        """A step worth a line: connected, registered, lost the server, back again."""
        if not self.quiet:
            self.console.print(f"{self.name}: {text}", highlight=False, markup=False)

    def score(self) -> str:
        return f"{self.won} won, {self.lost} lost" + (
            f", {self.points:+d} money" if self.points else ""
        )

    def game(self, text: str, won: bool | None, money: int = 0) -> None:
        """One finished game: ``text`` says the result in words."""
        self.games += 1
        self.won += won is True
        self.lost += won is False
        self.points += money
        self.say(f"game {self.games}: {text} ({self.score()})")
        self._advance()

    def tally(self, won: bool | None) -> None:
        """One finished Mia round (``None``: the bot sat it out): counted, and a summary
        line every few seconds."""
        self.games += 1
        self.won += won is True
        self.lost += won is False
        self._advance()
        now = time.monotonic()
        if now - self._last_tally >= self.every:
            self._last_tally = now
            self.say(self.summary())

    def summary(self) -> str:
        played = self.won + self.lost
        share = 100 * self.won / played if played else 0.0
        return f"{self.games} {self.unit}: {self.won} points, lost {self.lost} ({share:.0f} %)"

    def _advance(self) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, advance=1, score=self.score())

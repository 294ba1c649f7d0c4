"""The tournament runner: asks :mod:`herna.hall.tournament` for the boards of each round (or,
in an arena, for pairs the moment entrants are free), has each board played by the function
it was given and stores every decided board.

Two callers give it that function: ``herna tournament run`` plays a board on servers started
for it (:mod:`herna.cli.tournament.boards`), and a live tournament in ``herna serve``
(:mod:`herna.hall.tournament_live`) books it on the running game server, where the entrants
wait over their own protocols or at a play page.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from herna.hall.tournament import (
    FORMAT_TIE_BREAKS,
    Board,
    Game,
    History,
    Row,
    arena_pairings,
    arena_tables,
    bye_points,
    round_robin,
    round_robin_tables,
    scores,
    standings,
    swiss_round,
    tables_round,
)
from herna.hall.tournament_store import TournamentStore

PlayBoard = Callable[[Board, int], Awaitable[Game]]
"""Plays a board (its serial number, counted from 1, is the second argument) and returns it
decided."""


@dataclass(frozen=True)
class RunOptions:
    game: str
    format: str
    size: int
    """Seats at a table."""
    rounds: int | None
    """Swiss: rounds to play; tables: rounds of a round robin (default: one per seat)."""
    cycles: int
    """Round robin between two: times everyone meets everyone (colours swapped each time)."""
    duration: float
    """Arena: seconds during which new games start."""
    concurrency: int

    def tie_breaks(self) -> tuple[str, ...]:
        return tuple(FORMAT_TIE_BREAKS[self.format])


@dataclass
class Resume:
    """What a tournament taken up again after a restart already has (``herna serve`` holds
    live tournaments across restarts, :mod:`herna.hall.tournament_live`)."""

    games: Sequence[Game] = ()
    """The boards decided before: not played again (a board under way at the restart is)."""
    pairings: dict[int, list[Board]] = field(default_factory=dict)
    """Swiss rounds paired before, by round number."""
    elapsed: float = 0.0
    """Arena: seconds of its duration gone before."""
    on_paired: Callable[[int, list[Board]], None] = lambda number, boards: None
    """Called with a Swiss round's boards before it is played, to keep them."""


class RoundHooks:
    """What happens around each round of a round robin or a Swiss tournament (an arena has
    no rounds). The default does nothing: ``herna tournament run`` plays round after round;
    a live tournament keeps a timetable (:mod:`herna.hall.tournament_timetable`)."""

    async def before(self, number: int) -> None:
        """Wait until round ``number`` may start (a pause after the round before)."""

    def started(self, number: int, boards: list[Board]) -> None:
        """Round ``number`` starts with these boards (byes included)."""

    def ended(self, number: int) -> None:
        """Every board of round ``number`` is decided."""


class Runner:
    def __init__(
        self,
        store: TournamentStore,
        tournament_id: int,
        names: list[str],
        options: RunOptions,
        play_board: PlayBoard,
        on_change: Callable[[], None] = lambda: None,
        ready: Callable[[str], bool] = lambda name: True,
        resume: Resume | None = None,
        rounds: RoundHooks | None = None,
    ) -> None:
        self.store = store
        self.id = tournament_id
        self.names = list(names)
        self.options = options
        self.play_board = play_board
        self.on_change = on_change
        self.ready = ready
        """Whether an entrant is there to be paired now (an arena pairs only those)."""
        self.size = options.size
        self.resume = resume or Resume()
        self.rounds = rounds or RoundHooks()
        self.games: list[Game] = list(self.resume.games)
        self._decided = {(g.board.round, g.board.number): g for g in self.resume.games}
        self.playing: set[Board] = set()
        self.serial = len(self.games)
        self._slots = asyncio.Semaphore(options.concurrency)

    # -- formats -------------------------------------------------------------------------------
    async def run(self) -> None:
        fmt = self.options.format
        if fmt == "round-robin":
            if self.size == 2:
                schedule = round_robin(self.names, self.options.cycles)
            else:
                schedule = round_robin_tables(self.names, self.size, self.options.rounds)
            for number, boards in enumerate(schedule, 1):
                await self.rounds.before(number)
                await self.play_round(boards)
        elif fmt == "swiss":
            rounds = self.options.rounds or _swiss_rounds(len(self.names))
            for number in range(1, rounds + 1):
                await self.rounds.before(number)
                boards = self.resume.pairings.get(number) or self.swiss_boards(number)
                if number not in self.resume.pairings:
                    # Kept before the round is played: a round paired again after a restart
                    # would pair differently with some of its results already in.
                    self.resume.on_paired(number, boards)
                await self.play_round(boards)
        elif fmt == "arena":
            await self.arena()
        else:
            raise ValueError(f"unknown format {fmt!r}")

    def standings(self) -> list[Row]:
        fmt = self.options.format
        return standings(self.names, self.games, FORMAT_TIE_BREAKS[fmt], self.bye_points)

    @property
    def bye_points(self) -> Fraction:
        return bye_points(self.options.format, self.size)

    def ranking(self) -> list[str]:
        """The current order (entry order before the first game)."""
        if not self.games:
            return list(self.names)
        return [row.name for row in self.standings()]

    def history(self) -> History:
        return History.of([g.board for g in self.games])

    def swiss_boards(self, number: int) -> list[Board]:
        ranking = self.ranking()
        history = self.history()
        if self.size == 2:
            total = scores(self.names, self.games, self.bye_points)
            return swiss_round(number, ranking, total, history)
        return tables_round(number, ranking, self.size, history)

    def planned_rounds(self) -> int | None:
        """Rounds this tournament plays (``None``: an arena, which has none)."""
        fmt = self.options.format
        if fmt == "swiss":
            return self.options.rounds or _swiss_rounds(len(self.names))
        if fmt != "round-robin":
            return None
        if self.size == 2:
            return len(round_robin(self.names, self.options.cycles))
        return len(round_robin_tables(self.names, self.size, self.options.rounds))

    async def play_round(self, boards: list[Board]) -> None:
        number = boards[0].round if boards else 0
        self.rounds.started(number, boards)
        await asyncio.gather(*(self.play(board) for board in boards))
        self.rounds.ended(number)

    async def play(self, board: Board) -> Game:
        decided = self._decided.pop((board.round, board.number), None)
        if decided is not None and decided.seats == board.seats:
            return decided  # decided before a restart: in self.games already
        if board.bye:
            game = Game(board)
        else:
            async with self._slots:
                self.serial += 1
                self.playing.add(board)
                self.on_change()
                try:
                    game = await self.play_board(board, self.serial)
                finally:
                    self.playing.discard(board)
        self.games.append(game)
        self.store.add_game(self.id, game)
        self.on_change()
        return game

    async def arena(self) -> None:
        """Pair whoever is free, by rank, until the time is up; games running then finish."""
        end = time.monotonic() + self.options.duration - self.resume.elapsed
        waiting = list(self.names)
        running: dict[asyncio.Task[Game], Board] = {}
        number = max((g.board.round for g in self.games), default=0)
        self._decided.clear()  # an arena numbers its games as they start: none is planned
        while True:
            free = [n for n in waiting if self.ready(n)]
            if time.monotonic() < end and len(free) >= self.size:
                order = [n for n in self.ranking() if n in free]
                history = self.history()
                if self.size == 2:
                    tables: list[tuple[str, ...]] = list(arena_pairings(order, history))
                    if not tables and not running and len(free) == len(waiting):
                        # Nobody else is playing, so nobody else will come free: waiting
                        # would last for ever. The last opponents meet again.
                        history.last_opponents.clear()
                        tables = list(arena_pairings(order, history))
                else:
                    tables = arena_tables(order, self.size, history)
                for seats in tables:
                    number += 1
                    board = Board(number, 1, seats)
                    for name in seats:
                        waiting.remove(name)
                    running[asyncio.create_task(self.play(board))] = board
            if not running:
                if time.monotonic() >= end:
                    return
                # Nobody can be paired now (only last opponents are free): wait a little.
                await asyncio.sleep(min(0.2, max(0.0, end - time.monotonic())))
                continue
            done, _ = await asyncio.wait(
                set(running),
                # Not longer than half a second: an entrant who comes back is paired soon.
                timeout=max(0.05, min(0.5, end - time.monotonic())),
                return_when=asyncio.FIRST_COMPLETED,
            )
            for task in done:
                board = running.pop(task)
                task.result()
                waiting.extend(board.seats)


def _swiss_rounds(n: int) -> int:
    """Enough rounds to find a sole winner among ``n`` (ceil(log2 n)), at least 3."""
    return max(3, (max(n, 2) - 1).bit_length())

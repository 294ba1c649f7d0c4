"""The tournament runner: asks :mod:`herna.hall.tournament` for the boards of each round (or,
in an arena, for pairs the moment entrants are free), plays them with
:func:`~herna.cli.tournament.boards.play_board` and stores every decided board.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from herna.hall.hall import Hall
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

from ..match.entrants import EntrantSpec
from .boards import TABLE_SIZES, BoardOptions, play_board


@dataclass(frozen=True)
class RunOptions:
    game: str
    format: str
    rounds: int | None
    """Swiss: rounds to play; tables: rounds of a round robin (default: one per seat)."""
    cycles: int
    """Round robin between two: times everyone meets everyone (colours swapped each time)."""
    duration: float
    """Arena: seconds during which new games start."""
    concurrency: int
    board: BoardOptions

    def tie_breaks(self) -> tuple[str, ...]:
        return tuple(FORMAT_TIE_BREAKS[self.format])


class Runner:
    def __init__(
        self,
        hall: Hall,
        store: TournamentStore,
        tournament_id: int,
        specs: dict[str, EntrantSpec],
        options: RunOptions,
        on_change: Callable[[], None],
    ) -> None:
        self.hall = hall
        self.store = store
        self.id = tournament_id
        self.specs = specs
        self.names = list(specs)
        self.options = options
        self.on_change = on_change
        self.size = TABLE_SIZES[options.game]
        self.games: list[Game] = []
        self.playing: set[Board] = set()
        self.serial = 0
        self.tokens = {name: hall.identity.reserve_house_bot(name) for name in specs}
        self._slots = asyncio.Semaphore(options.concurrency)

    # -- formats -------------------------------------------------------------------------------
    async def run(self) -> None:
        fmt = self.options.format
        if fmt == "round-robin":
            if self.size == 2:
                schedule = round_robin(self.names, self.options.cycles)
            else:
                schedule = round_robin_tables(self.names, self.size, self.options.rounds)
            for boards in schedule:
                await self.play_round(boards)
        elif fmt == "swiss":
            rounds = self.options.rounds or _swiss_rounds(len(self.names))
            for number in range(1, rounds + 1):
                await self.play_round(self.swiss_boards(number))
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

    async def play_round(self, boards: list[Board]) -> None:
        await asyncio.gather(*(self.play(board) for board in boards))

    async def play(self, board: Board) -> Game:
        if board.bye:
            game = Game(board)
        else:
            async with self._slots:
                self.serial += 1
                self.playing.add(board)
                self.on_change()
                try:
                    game = await play_board(
                        self.hall,
                        self.options.game,
                        board,
                        self.serial,
                        self.specs,
                        self.tokens,
                        self.options.board,
                    )
                finally:
                    self.playing.discard(board)
        self.games.append(game)
        self.store.add_game(self.id, game)
        self.on_change()
        return game

    async def arena(self) -> None:
        """Pair whoever is free, by rank, until the time is up; games running then finish."""
        end = time.monotonic() + self.options.duration
        waiting = list(self.names)
        running: dict[asyncio.Task[Game], Board] = {}
        number = 0
        while True:
            if time.monotonic() < end and len(waiting) >= self.size:
                order = [n for n in self.ranking() if n in waiting]
                history = self.history()
                if self.size == 2:
                    tables: list[tuple[str, ...]] = list(arena_pairings(order, history))
                    if not tables and not running:
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
                timeout=max(0.05, end - time.monotonic()),
                return_when=asyncio.FIRST_COMPLETED,
            )
            for task in done:
                board = running.pop(task)
                task.result()
                waiting.extend(board.seats)


def _swiss_rounds(n: int) -> int:
    """Enough rounds to find a sole winner among ``n`` (ceil(log2 n)), at least 3."""
    return max(3, (max(n, 2) - 1).bit_length())

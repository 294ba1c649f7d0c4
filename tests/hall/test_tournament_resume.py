"""The tournament runner taken up after a restart (Resume): decided boards are not played
again, a Swiss round paired before the restart keeps its pairings (pairing it again with some
of its results in would pair differently), and an arena only plays the time it has left."""

from __future__ import annotations

import asyncio
from pathlib import Path

from herna.hall.db import make_engine
from herna.hall.tournament import Board, Game
from herna.hall.tournament_runner import PlayBoard, Resume, Runner, RunOptions
from herna.hall.tournament_store import TournamentStore

NAMES = ["ann", "bob", "cyd", "dee", "eve", "fay"]


def _first_seat_wins(played: list[Board]) -> PlayBoard:
    async def play(board: Board, serial: int) -> Game:
        played.append(board)
        await asyncio.sleep(0)
        return Game(board, tuple(1.0 if i == 0 else 0.0 for i in range(len(board.seats))))

    return play


async def test_a_swiss_taken_up_mid_round_keeps_its_pairings(tmp_path: Path) -> None:
    store = TournamentStore(make_engine(f"sqlite:///{tmp_path / 't.db'}"))
    tid = store.create("swiss", "onitama", "swiss", [], {})
    options = RunOptions("onitama", "swiss", 2, 3, 1, 0.0, 10)
    kept: dict[int, list[Board]] = {}
    played: list[Board] = []
    stop_after = 4  # round 1 (3 boards) and one board of round 2

    async def play_until_stopped(board: Board, serial: int) -> Game:
        if len(played) == stop_after:
            await asyncio.Event().wait()  # the hall stops while this board is under way
        played.append(board)
        return Game(board, (1.0, 0.0))

    first = Runner(
        store,
        tid,
        NAMES,
        options,
        play_until_stopped,
        resume=Resume(on_paired=lambda n, boards: kept.__setitem__(n, boards)),
    )
    task = asyncio.create_task(first.run())
    for _ in range(200):
        if len(played) == stop_after:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    task.cancel()
    tour = store.get(tid)
    assert tour is not None and len(tour.games) == stop_after
    round_two = kept[2]

    again: list[Board] = []
    second = Runner(
        store,
        tid,
        NAMES,
        options,
        _first_seat_wins(again),
        resume=Resume(tour.games, {n: b for n, b in kept.items()}),
    )
    await second.run()
    # Round 2's remaining boards are the ones paired before the restart, played once.
    assert [b for b in again if b.round == 2] == [b for b in round_two if b not in played]
    assert all(b.round != 1 for b in again)
    decided = [(g.board.round, g.board.number) for g in second.games]
    assert len(decided) == len(set(decided)) == 9  # 3 rounds of 3 boards


async def test_an_arena_taken_up_plays_only_the_time_left(tmp_path: Path) -> None:
    store = TournamentStore(make_engine(f"sqlite:///{tmp_path / 't.db'}"))
    tid = store.create("arena", "onitama", "arena", [], {})
    options = RunOptions("onitama", "arena", 2, None, 1, 600.0, 10)
    played: list[Board] = []
    runner = Runner(
        store,
        tid,
        NAMES[:2],
        options,
        _first_seat_wins(played),
        resume=Resume(elapsed=600.0),
    )
    await asyncio.wait_for(runner.run(), 5)
    assert played == []

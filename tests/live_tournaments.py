"""Waiting for a live tournament's entrants and its end, for the live tournament tests."""

from __future__ import annotations

import asyncio

from herna.hall.tournament_live import LiveTournaments
from herna.hall.tournament_store import Tournament, TournamentStore


async def entered(director: LiveTournaments, tid: int, n: int) -> list[str]:
    """Wait until ``n`` entrants are waiting for their games; returns them."""
    for _ in range(250):
        if len(director.waiting(tid)) >= n:
            return director.waiting(tid)
        await asyncio.sleep(0.02)
    raise AssertionError(f"only {director.waiting(tid)} are waiting")


async def finished(store: TournamentStore, tid: int, timeout: float = 60.0) -> Tournament:
    """Wait until the tournament is finished or aborted; returns it as stored."""
    for _ in range(int(timeout / 0.05)):
        tour = store.get(tid)
        assert tour is not None
        if tour.status in ("finished", "aborted"):
            return tour
        await asyncio.sleep(0.05)
    raise AssertionError("the tournament did not finish")

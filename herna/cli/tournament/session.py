"""The Mia *session*: a timed dojo evening. Every entrant sits at one Mia table (Herna's Mia
server on a free 127.0.0.1 UDP port, no house bots) for ``--duration`` seconds; the
scoreboard is the points each made in that time, written to the tournament every second so
the web page shows it live. Mia has no pairings: the table is everyone, every round.

Each round is an ordinary Mia record (the session's page links to them as the Mia history's
session ``FIRST-LAST``). A program that exits is started again; one that misses its answers
loses rounds by the Mia server's own rules (seed 002), nothing more.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from herna.clients.mia import run_bot
from herna.hall.db import MatchRow
from herna.hall.hall import Hall
from herna.hall.tournament_store import TournamentStore
from herna.servers.mia import MiaService
from herna.servers.mia.table import MiaSettings
from herna.servers.mia.udp import serve_table

from ..match.entrants import EntrantSpec, Program, retire

TICK = 1.0
"""Seconds between scoreboard updates (and checks that programs still run)."""


def _last_id(hall: Hall, game: str | None = None) -> int:
    query = select(func.max(MatchRow.id))
    if game is not None:
        query = query.where(MatchRow.game == game)
    with Session(hall.records.engine) as session:
        return int(session.scalar(query) or 0)


async def run_session(
    hall: Hall,
    store: TournamentStore,
    tournament_id: int,
    specs: dict[str, EntrantSpec],
    duration: float,
    seed: int,
    log_dir: Path,
    on_change: Callable[[dict[str, int]], None],
) -> dict[str, int]:
    """Play the session; returns each entrant's points in it."""
    names = list(specs)
    tokens = {name: hall.identity.reserve_house_bot(name) for name in names}
    hall.records.flush()
    before = _last_id(hall)
    baseline = {n: int(p) for n, p in hall.records.points("mia", names).items()}
    settings = MiaSettings(start_early=True, round_pause=0.0, house_round_pause=0.0, seed=seed)
    server, table = serve_table(hall, "127.0.0.1", 0, settings)
    service = MiaService(server, table, "127.0.0.1")
    hall.add(service)
    port = server.address[1]
    tasks: list[asyncio.Task[int]] = []
    programs: list[Program] = []

    def scores() -> dict[str, int]:
        return {n: int(table.scores.get(n, baseline.get(n, 0))) - baseline.get(n, 0) for n in names}

    try:
        for i, (name, spec) in enumerate(specs.items()):
            if spec.house is not None:
                tasks.append(
                    asyncio.create_task(
                        run_bot(
                            "127.0.0.1", port, name, spec.house, seed=seed + i, token=tokens[name]
                        )
                    )
                )
            else:
                program = Program(
                    spec, "mia", "127.0.0.1", port, tokens[name], log_dir / f"{name}.log"
                )
                programs.append(program)
                await program.start()
        end = time.monotonic() + duration
        while time.monotonic() < end:
            await asyncio.sleep(min(TICK, max(0.0, end - time.monotonic())))
            for program in programs:
                await program.start()  # started again if it exited
            current = scores()
            store.update_settings(tournament_id, scores=current)
            on_change(current)
    finally:
        await retire(hall, service, tasks, programs)
    hall.records.flush()
    after = {n: int(p) for n, p in hall.records.points("mia", names).items()}
    final = {n: after.get(n, 0) - baseline.get(n, 0) for n in names}
    last = _last_id(hall, "mia")
    store.update_settings(
        tournament_id,
        scores=final,
        first_match=before + 1 if last > before else None,
        last_match=last if last > before else None,
    )
    return final

"""Helpers of the submitted-bot tests: a database an earlier revision wrote, and a hall
whose sandbox runner plays contests' finals (the ladder's loop not running)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from alembic import command
from sqlalchemy import create_engine, text, update

from herna.hall.contests import Contest, Contests
from herna.hall.db import BotContestRow, normalise_url
from herna.hall.hall import Hall
from herna.hall.schema import alembic_config
from herna.hall.submissions import Submissions
from herna.servers.contest import SandboxedBots
from herna.servers.ladder import Ladder, LadderSettings
from tests.serve import serving

PUPILS = (("ada", "pupil-a"), ("bea", "pupil-b"), ("cyril", "pupil-c"))


def written_at(database_url: str, revision: str, sql: str, **params: object) -> None:
    """The database at ``database_url`` brought to ``revision`` only, with a row written by
    ``sql`` as that revision's Herna wrote it (the next open upgrades it)."""
    engine = create_engine(normalise_url(database_url))
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), revision)
        conn.execute(text(sql), params)
    engine.dispose()


@dataclass
class ContestHall:
    hall: Hall
    bots: Submissions
    contests: Contests

    def open_contest(
        self, game: str, kit: bytes, games_per_pairing: int, house: tuple[str, ...]
    ) -> Contest:
        """A contest of ``game`` closing in an hour, with :data:`PUPILS`' bots (each ``kit``)
        entered."""
        deadline = datetime.now(UTC) + timedelta(hours=1)
        contest, _ = self.contests.create("Class 3B", game, deadline, games_per_pairing, house)
        for name, author in PUPILS:
            self.bots.submit(name, game, "bot.py", kit, person=author)
            self.contests.enter(contest.id, name, author)
        return contest

    async def close_entries(self, contest: Contest) -> None:
        """Time passes: the contest's deadline is moved to now rather than waited for."""
        with self.hall.records.engine.begin() as db:
            db.execute(
                update(BotContestRow)
                .where(BotContestRow.id == contest.id)
                .values(deadline=datetime.now(UTC))
            )
        await asyncio.sleep(0.05)  # what is uploaded from now on is after the deadline


@asynccontextmanager
async def contest_hall(tmp_path: Path, only: str, **options: Any) -> AsyncIterator[ContestHall]:
    """``herna serve --only ONLY`` with the ladder's runner but not its loop: a test watches
    the final's games alone."""
    async with serving(tmp_path, only, **options) as hall:
        ladder = Ladder(hall, "127.0.0.1", LadderSettings(concurrency=1, game_seconds=120))
        runner = SandboxedBots(ladder)
        hall.submitted = runner
        engine = hall.records.engine
        bots = Submissions(engine, hall.identity)
        try:
            yield ContestHall(hall, bots, Contests(engine, bots))
        finally:
            await runner.stop()
            await ladder.stop()

"""The hall: what every server shares (event bus, records, clock) and the list of running
services that the web hall and the CLI show.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

from herna.core.clock import Clock, MonotonicClock
from herna.hall.bridge import PostgresBridge
from herna.hall.events import EventBus
from herna.hall.identity import Identity, ReservedNames
from herna.hall.lobby import Lobby
from herna.hall.records import RecordStore
from herna.hall.submissions import Submission
from herna.hall.tournament_live import LiveTournaments
from herna.hall.tournament_store import TournamentStore

log = logging.getLogger("herna.hall")

DATABASE_CHECK_EVERY = 1.0
"""Seconds between looks at the database file (a deleted one is noticed within this)."""


class Service(Protocol):
    """A running game server as the hall sees it."""

    game: str
    """``"mia"``, ``"marias"``, ``"onitama"``, ``"tiles"``."""

    protocol: str
    """Human-readable protocol name, e.g. ``"Mia UDP (seed 002)"``."""

    doc: str
    """Path of the protocol doc within the repository, e.g. ``docs/protocols/mia.md``."""

    def endpoints(self) -> list[str]:
        """Where clients connect, e.g. ``["udp://127.0.0.1:9000"]``."""
        ...

    def snapshot(self) -> dict[str, Any]:
        """JSON-ready live state: tables in play, connected players and bots."""
        ...

    async def stop(self) -> None: ...


class SubmittedBots(Protocol):
    """What the hall's player of submitted bots (``herna serve --ladder``:
    :class:`herna.servers.contest.SandboxedBots`) does for the web hall."""

    def challenge(self, bot: Submission, person: str) -> str | None:
        """Seat ``bot`` against ``person``, who challenged it; why not, or ``None``."""
        ...

    async def start_final(self, contest_id: int) -> int:
        """Lock a contest's versions and start its final; the final's tournament id."""
        ...


@dataclass
class Hall:
    records: RecordStore
    bus: EventBus = field(default_factory=EventBus)
    clock: Clock = field(default_factory=MonotonicClock)
    services: list[Service] = field(default_factory=list)
    lobby: Lobby = field(default_factory=Lobby)
    """Open seeks and challenges of every game (:mod:`herna.hall.lobby`), with its own bus."""
    identity: Identity = None  # type: ignore[assignment]
    """Who may use which name and seat; by default the reserved names in ``records``'
    database (``None`` is replaced in ``__post_init__``)."""
    bridge: PostgresBridge | None = None
    """Carries game events to and from other processes on the same PostgreSQL database."""
    tournaments: LiveTournaments | None = None
    """The live tournaments held in this hall (``herna serve`` makes it)."""
    submitted: SubmittedBots | None = None
    """Plays submitted bots in the sandbox (``herna serve --ladder``), else None."""
    _watching: asyncio.Task[None] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.identity is None:
            self.identity = Identity(ReservedNames(self.records.engine))

    def add(self, service: Service) -> None:
        self.services.append(service)

    def service(self, game: str) -> Service | None:
        return next((s for s in self.services if s.game == game), None)

    async def share_events(self) -> None:
        """Bridge this hall's events with every other process on its PostgreSQL database
        (:mod:`herna.hall.bridge`); with SQLite there are no other processes to reach."""
        if self.bridge is None:
            self.bridge = PostgresBridge(self.records.url, self.bus)
            await self.bridge.start()

    @property
    def closed(self) -> str | None:
        """Why this hall takes no new games, or None: the lobby's word, which every game
        server asks (:meth:`herna.hall.lobby.Lobby.close_for_new_games`)."""
        return self.lobby.closed

    def watch_database(self, every: float = DATABASE_CHECK_EVERY) -> None:
        """Look at the database file every ``every`` seconds while the hall runs (started by
        ``herna serve``; :meth:`check_database`)."""
        if self._watching is None:
            self._watching = asyncio.get_running_loop().create_task(self._watch(every))

    async def _watch(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                self.check_database()
            except Exception:  # the watch must go on; a bug here is logged, not fatal
                log.exception("could not check the database file")

    def check_database(self) -> None:
        """When the SQLite file was deleted or replaced under the running hall: one error
        that names it and says what to do, and no new games from then on. Play against the
        unlinked file would be lost at the next start; the records of the games that finish
        now stay in the journal, which the next start writes into the new database."""
        gone = self.records.check_database()
        if gone is None:
            return
        path = self.records.database_file[0] if self.records.database_file else "?"
        log.error(
            "the database file %s was %s while Herna was running: Herna takes no new games "
            "now. Restart Herna to create or open it again; records since are kept in the "
            "journal at %s and written into it at the start",
            path,
            gone,
            self.records.journal_dir or "?",
        )
        self.lobby.close_for_new_games(
            f"Herna takes no new games: its database file was {gone}; games in progress "
            "finish and are kept, and new games start again after the operator restarts Herna"
        )

    def hold_tournaments(self) -> LiveTournaments:
        """Hold live tournaments in this hall (their director answers the lobby's tournament
        seeks); returns the director."""
        if self.tournaments is None:
            self.tournaments = LiveTournaments(
                self.lobby,
                self.bus,
                TournamentStore(self.records.engine),
                self.records.flush,
                self.identity,
            )
        return self.tournaments

    async def stop(self) -> None:
        if self._watching is not None:
            self._watching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watching
            self._watching = None
        if self.tournaments is not None:
            await self.tournaments.stop()
        for service in reversed(self.services):
            await service.stop()
        self.services.clear()
        if self.bridge is not None:
            await self.bridge.stop()
            self.bridge = None
        self.records.flush()

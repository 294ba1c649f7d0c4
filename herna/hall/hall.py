"""The hall: what every server shares (event bus, records, clock) and the list of running
services that the web hall and the CLI show.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from herna.core.clock import Clock, MonotonicClock
from herna.hall.bridge import PostgresBridge
from herna.hall.events import EventBus
from herna.hall.identity import Identity, ReservedNames
from herna.hall.lobby import Lobby
from herna.hall.records import RecordStore
from herna.hall.tournament_live import LiveTournaments
from herna.hall.tournament_store import TournamentStore


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
        if self.tournaments is not None:
            await self.tournaments.stop()
        for service in reversed(self.services):
            await service.stop()
        self.services.clear()
        if self.bridge is not None:
            await self.bridge.stop()
            self.bridge = None
        self.records.flush()

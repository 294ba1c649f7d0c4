"""Tournaments in the hall's database: the tournament, its entrants and settings, and each
decided board (a game linked to the match record that replays it, or a bye).

Standings and crosstables are not stored: they are computed from the games by
:mod:`herna.hall.tournament` whenever they are shown, so they can never disagree with them.
Writes are few (one row per game) and synchronous; the match records themselves go through
the records' journal as always, so a game's ``match_id`` is filled in once the writer has
committed it (:meth:`TournamentStore.link_matches`; readers also look a missing one up by
table id).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from sqlalchemy import func, select, tuple_
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from herna.hall.db import MatchRow, PersonRow, RatingRow, TournamentGameRow, TournamentRow
from herna.hall.tournament import (
    FORMAT_TIE_BREAKS,
    Board,
    Crosstable,
    Game,
    Row,
    bye_points,
    crosstable,
    standings,
)
from herna.hall.tournament.season import Part

PRIVATE_SETTINGS = frozenset({"admin_digest", "holder"})
"""Settings never exported: the digest of a live tournament's admin token, and which process
(host name, pid) holds it."""


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _as_utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Entrant:
    name: str
    kind: str
    """``house-bot`` (Herna's own, in-process), ``bot`` (a program) or ``person`` (a
    live tournament's entrant at a play page)."""
    spec: str
    """What was given on the command line (a house strategy or a command)."""

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "kind": self.kind, "spec": self.spec}


@dataclass(frozen=True)
class MatchPlace:
    """Where a tournament game stands in its tournament."""

    tournament_id: int
    tournament: str
    round: int
    board: int


@dataclass(frozen=True)
class Tournament:
    id: int
    name: str
    game: str
    format: str
    status: str
    """``entry`` (a live tournament taking entrants), ``running``, ``finished`` or
    ``aborted``."""
    created_at: datetime
    started_at: datetime | None
    """When play began (``None``: still taking entrants, or stored before Herna kept it)."""
    finished_at: datetime | None
    entrants: tuple[Entrant, ...]
    settings: dict[str, Any]
    games: tuple[Game, ...] = ()

    @property
    def tie_breaks(self) -> tuple[str, ...]:
        return tuple(self.settings.get("tie_breaks") or FORMAT_TIE_BREAKS[self.format])

    @property
    def bye_points(self) -> Fraction:
        value = self.settings.get("bye_points")
        if value is not None:
            return Fraction(value)
        return bye_points(self.format, int(self.settings.get("table_size") or 2))

    def standings(self) -> list[Row]:
        if self.format == "session":
            return self._scoreboard()
        return standings(
            [e.name for e in self.entrants], self.games, self.tie_breaks, self.bye_points
        )

    def _scoreboard(self) -> list[Row]:
        """A Mia session's standings: the points each entrant made in it (``scores``)."""
        got = {str(k): int(v) for k, v in (self.settings.get("scores") or {}).items()}
        names = sorted((e.name for e in self.entrants), key=lambda n: (-got.get(n, 0), n))
        rows: list[Row] = []
        for i, name in enumerate(names):
            points = Fraction(got.get(name, 0))
            rank = rows[-1].rank if rows and rows[-1].points == points else i + 1
            rows.append(Row(rank, name, points, 0, 0, 0, 0, 0, {}))
        return rows

    def season_part(self) -> Part:
        """This tournament as one part of a season table."""
        house = frozenset(e.name for e in self.entrants if e.kind == "house-bot")
        return Part(self.id, self.name, self.standings(), house)

    def crosstable(self, rows: list[Row] | None = None) -> Crosstable:
        return crosstable(rows or self.standings(), self.games, self.bye_points)

    def summary_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "game": self.game,
            "format": self.format,
            "status": self.status,
            "created_at": self.created_at.isoformat(),
            "started_at": self.started_at.isoformat() if self.started_at else None,
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
            "entrants": [e.to_json() for e in self.entrants],
            "settings": {k: v for k, v in self.settings.items() if k not in PRIVATE_SETTINGS},
            "bye_points": float(self.bye_points),
        }


class TournamentStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(
        self,
        name: str,
        game: str,
        format: str,
        entrants: list[Entrant],
        settings: dict[str, Any],
        status: str = "running",
    ) -> int:
        now = _utcnow()
        with Session(self.engine) as session:
            row = TournamentRow(
                name=name,
                game=game,
                format=format,
                status=status,
                created_at=now,
                started_at=None if status == "entry" else now,
                entrants=[e.to_json() for e in entrants],
                settings=settings,
            )
            session.add(row)
            session.commit()
            return row.id

    def add_game(self, tournament_id: int, game: Game) -> None:
        with Session(self.engine) as session:
            session.add(
                TournamentGameRow(
                    tournament_id=tournament_id,
                    round=game.board.round,
                    board=game.board.number,
                    seats=list(game.seats),
                    ranks=list(game.ranks),
                    forfeit=game.forfeit,
                    table_id=game.table_id,
                    match_id=game.match_id,
                    finished_at=_utcnow(),
                )
            )
            session.commit()

    def update_settings(self, tournament_id: int, **values: Any) -> None:
        """Merge ``values`` into the tournament's settings (a Mia session's live scores)."""
        with Session(self.engine) as session:
            row = session.get(TournamentRow, tournament_id)
            if row is not None:
                row.settings = {**(row.settings or {}), **values}
                session.commit()

    def add_entrant(self, tournament_id: int, entrant: Entrant) -> None:
        with Session(self.engine) as session:
            row = session.get(TournamentRow, tournament_id)
            if row is not None:
                row.entrants = [*(row.entrants or []), entrant.to_json()]
                session.commit()

    def remove_entrant(self, tournament_id: int, name: str) -> None:
        with Session(self.engine) as session:
            row = session.get(TournamentRow, tournament_id)
            if row is not None:
                row.entrants = [e for e in row.entrants or [] if e.get("name") != name]
                session.commit()

    def set_entrant_kind(self, tournament_id: int, name: str, kind: str) -> None:
        """An entrant turned out another kind (a listed name claimed by a person)."""
        with Session(self.engine) as session:
            row = session.get(TournamentRow, tournament_id)
            if row is not None:
                row.entrants = [
                    {**e, "kind": kind} if e.get("name") == name else e for e in row.entrants or []
                ]
                session.commit()

    def set_status(self, tournament_id: int, status: str) -> None:
        with Session(self.engine) as session:
            row = session.get(TournamentRow, tournament_id)
            if row is not None:
                row.status = status
                if status == "running" and row.started_at is None:
                    row.started_at = _utcnow()
                session.commit()

    def finish(self, tournament_id: int, status: str = "finished") -> None:
        with Session(self.engine) as session:
            row = session.get(TournamentRow, tournament_id)
            if row is not None:
                row.status = status
                row.finished_at = _utcnow()
                session.commit()

    def link_matches(self, tournament_id: int) -> int:
        """Fill in the match ids of games whose records have been committed; returns how
        many games are still without one."""
        with Session(self.engine) as session:
            tour = session.get(TournamentRow, tournament_id)
            if tour is None:
                return 0
            rows = session.scalars(
                select(TournamentGameRow).where(
                    TournamentGameRow.tournament_id == tournament_id,
                    TournamentGameRow.match_id.is_(None),
                    TournamentGameRow.table_id.is_not(None),
                )
            ).all()
            found = _match_ids(session, tour.game, [r.table_id for r in rows if r.table_id])
            missing = 0
            for r in rows:
                if r.table_id in found:
                    r.match_id = found[r.table_id]
                else:
                    missing += 1
            session.commit()
            return missing

    def place_of_match(self, match_id: int) -> MatchPlace | None:
        """The tournament, round and board a recorded game was played for (``None``: it was
        not a tournament game), so its replay can link back."""
        with Session(self.engine) as session:
            found = session.execute(
                select(TournamentRow.id, TournamentRow.name, TournamentGameRow)
                .join(TournamentGameRow, TournamentGameRow.tournament_id == TournamentRow.id)
                .where(TournamentGameRow.match_id == match_id)
                .limit(1)
            ).first()
            if found is None:
                return None
            tid, name, game = found
            return MatchPlace(tid, name, game.round, game.board)

    def ordinals(self, game: str, names: list[str]) -> dict[str, float]:
        """OpenSkill ordinals (mu - 3 sigma) in ``game`` of those of ``names`` who have one:
        seeding by rating."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(RatingRow.name, RatingRow.mu, RatingRow.sigma).where(
                    RatingRow.game == game, RatingRow.name.in_(names)
                )
            ).all()
        return {name: mu - 3 * sigma for name, mu, sigma in rows}

    def people_among(self, names: list[str]) -> set[str]:
        """Which of ``names`` are people who signed up (an entry list's kinds)."""
        with Session(self.engine) as session:
            found = session.scalars(select(PersonRow.name).where(PersonRow.name.in_(names)))
            return set(found)

    def last_match_id(self, game: str) -> int:
        """The newest stored match of ``game`` (0: none), to find a Mia session's rounds."""
        with Session(self.engine) as session:
            query = select(func.max(MatchRow.id)).where(MatchRow.game == game)
            return int(session.scalar(query) or 0)

    def recent(self, limit: int = 100) -> list[Tournament]:
        with Session(self.engine) as session:
            rows = session.scalars(
                select(TournamentRow).order_by(TournamentRow.id.desc()).limit(limit)
            ).all()
            return [_tournament(r, ()) for r in rows]

    def get(self, tournament_id: int) -> Tournament | None:
        with Session(self.engine) as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                return None
            games = session.scalars(
                select(TournamentGameRow)
                .where(TournamentGameRow.tournament_id == tournament_id)
                .order_by(TournamentGameRow.round, TournamentGameRow.board, TournamentGameRow.id)
            ).all()
            unlinked = [g.table_id for g in games if g.match_id is None and g.table_id]
            found = _match_ids(session, row.game, unlinked)
            return _tournament(
                row,
                tuple(
                    Game(
                        Board(g.round, g.board, tuple(g.seats)),
                        tuple(float(x) for x in g.ranks),
                        g.forfeit,
                        g.match_id if g.match_id is not None else found.get(g.table_id or ""),
                        g.table_id,
                    )
                    for g in games
                ),
            )


def _match_ids(session: Session, game: str, table_ids: list[str]) -> dict[str, int]:
    if not table_ids:
        return {}
    pairs = [(game, t) for t in table_ids]
    rows = session.execute(
        select(MatchRow.table_id, MatchRow.id).where(
            tuple_(MatchRow.game, MatchRow.table_id).in_(pairs)
        )
    ).all()
    return {table: match_id for table, match_id in rows}


def _tournament(row: TournamentRow, games: tuple[Game, ...]) -> Tournament:
    created = _as_utc(row.created_at)
    assert created is not None
    return Tournament(
        id=row.id,
        name=row.name,
        game=row.game,
        format=row.format,
        status=row.status,
        created_at=created,
        started_at=_as_utc(row.started_at),
        finished_at=_as_utc(row.finished_at),
        entrants=tuple(
            Entrant(str(e["name"]), str(e.get("kind", "bot")), str(e.get("spec", "")))
            for e in row.entrants or []
        ),
        settings=dict(row.settings or {}),
        games=games,
    )

"""Read-only queries the web hall needs beyond :class:`~herna.hall.records.RecordStore`'s own:
counts for paging, the games and players on record, a player's per-game match statistics.

They run over ``store.engine`` with the models of :mod:`herna.hall.db` and never write.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select

from herna.hall.db import MatchPlayerRow, MatchRow
from herna.hall.records import RecordStore, Standing


@dataclass(frozen=True)
class MatchFilter:
    """The history filters: game, player name and a date range (UTC, inclusive)."""

    game: str | None = None
    player: str | None = None
    since: datetime | None = None
    until: datetime | None = None

    def apply(self, query: Select[Any]) -> Select[Any]:
        if self.game:
            query = query.where(MatchRow.game == self.game)
        if self.player:
            query = query.where(
                MatchRow.id.in_(
                    select(MatchPlayerRow.match_id).where(MatchPlayerRow.name == self.player)
                )
            )
        if self.since:
            query = query.where(MatchRow.finished_at >= self.since)
        if self.until:
            query = query.where(MatchRow.finished_at <= self.until)
        return query


def parse_when(value: str | None, end: bool = False) -> datetime | None:
    """``YYYY-MM-DD`` (the whole day, UTC) or an ISO 8601 date-time; None when empty.

    With ``end`` a bare date means the end of that day, so ``until=2024-05-01`` includes
    games finished on the 1st. Raises ValueError on anything else.
    """
    if value is None or not value.strip():
        return None
    text = value.strip()
    if len(text) == 10:
        day = date.fromisoformat(text)
        if end:
            return datetime.combine(day + timedelta(days=1), time(), UTC) - timedelta(
                microseconds=1
            )
        return datetime.combine(day, time(), UTC)
    when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def count_matches(engine: Engine, flt: MatchFilter) -> int:
    with Session(engine) as session:
        return int(session.scalar(flt.apply(select(func.count(MatchRow.id)))) or 0)


def games_on_record(engine: Engine) -> list[str]:
    with Session(engine) as session:
        return sorted(session.scalars(select(MatchRow.game).distinct()).all())


def matches_per_game(engine: Engine) -> dict[str, int]:
    """How many matches are on record per game."""
    with Session(engine) as session:
        rows = session.execute(
            select(MatchRow.game, func.count(MatchRow.id)).group_by(MatchRow.game)
        ).all()
    return {str(game): int(n) for game, n in sorted(rows)}


def player_names(
    engine: Engine, game: str | None = None, prefix: str | None = None, limit: int = 200
) -> list[str]:
    """Names of everyone on record (optionally in one game, starting with ``prefix``)."""
    with Session(engine) as session:
        query = select(MatchPlayerRow.name).distinct()
        if game:
            query = query.join(MatchRow, MatchRow.id == MatchPlayerRow.match_id).where(
                MatchRow.game == game
            )
        if prefix:
            escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            query = query.where(MatchPlayerRow.name.like(escaped + "%", escape="\\"))
        query = query.order_by(MatchPlayerRow.name).limit(limit)
        return list(session.scalars(query).all())


@dataclass(frozen=True)
class GameStats:
    """A player's record in one game: the standings row plus counts from the match table."""

    game: str
    points: float
    games: int
    wins: int
    mu: float | None
    sigma: float | None
    ordinal: float | None
    matches: int
    """Recorded matches of any status (standings count rated ones only)."""
    canceled: int
    average_score: float | None
    first_played: datetime | None
    last_played: datetime | None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "points": self.points,
            "games": self.games,
            "wins": self.wins,
            "win_rate": (self.wins / self.games) if self.games else None,
            "mu": self.mu,
            "sigma": self.sigma,
            "ordinal": self.ordinal,
            "matches": self.matches,
            "canceled": self.canceled,
            "average_score": self.average_score,
            "first_played": self.first_played.isoformat() if self.first_played else None,
            "last_played": self.last_played.isoformat() if self.last_played else None,
        }


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def player_stats(store: RecordStore, name: str) -> list[GameStats]:
    """One player's statistics in every game they have a standing or a match in."""
    standings: dict[str, Standing] = {s.game: s for s in store.player_stats(name)}
    with Session(store.engine) as session:
        rows = session.execute(
            select(
                MatchRow.game,
                func.count(MatchRow.id),
                func.sum(case((MatchRow.status != "finished", 1), else_=0)),
                func.avg(MatchPlayerRow.score),
                func.min(MatchRow.finished_at),
                func.max(MatchRow.finished_at),
            )
            .join(MatchPlayerRow, MatchPlayerRow.match_id == MatchRow.id)
            .where(MatchPlayerRow.name == name)
            .group_by(MatchRow.game)
        ).all()
    counts = {r[0]: r for r in rows}
    out = []
    for game in sorted(set(standings) | set(counts)):
        s = standings.get(game)
        c = counts.get(game)
        out.append(
            GameStats(
                game=game,
                points=s.points if s else 0.0,
                games=s.games if s else 0,
                wins=s.wins if s else 0,
                mu=s.mu if s else None,
                sigma=s.sigma if s else None,
                ordinal=s.ordinal if s else None,
                matches=int(c[1]) if c else 0,
                canceled=int(c[2] or 0) if c else 0,
                average_score=float(c[3]) if c and c[3] is not None else None,
                first_played=_utc(c[4]) if c else None,
                last_played=_utc(c[5]) if c else None,
            )
        )
    return out


def standing_json(s: Standing) -> dict[str, Any]:
    return {
        "game": s.game,
        "name": s.name,
        "points": s.points,
        "games": s.games,
        "wins": s.wins,
        "win_rate": (s.wins / s.games) if s.games else None,
        "mu": s.mu,
        "sigma": s.sigma,
        "ordinal": s.ordinal,
    }

"""Read-only queries the web hall needs beyond :class:`~herna.hall.records.RecordStore`'s own:
counts for paging, the games and players on record, a player's per-game match statistics.

They run over ``store.engine`` with the models of :mod:`herna.hall.db` and never write.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select

from herna.hall.db import GameTotalRow, MatchPlayerRow, MatchRow, PlayerTotalRow, RatingRow
from herna.hall.records import RecordStore, Standing, StoredMatch, read_matches

AnySelect = Select[*tuple[Any, ...]]
"""A select of any columns (SQLAlchemy 2.1 types a select by its column types)."""

RESULTS = ("won", "lost", "finished", "aborted", "canceled")
"""Values of the ``result`` filter: ``won``/``lost`` (by the ``player`` filtered on) or a
match status."""


@dataclass(frozen=True)
class MatchFilter:
    """The history filters: game, player name, a date range (UTC, inclusive), a result
    (:data:`RESULTS`) and an id range (one Mia session's rounds)."""

    game: str | None = None
    player: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    result: str | None = None
    first_id: int | None = None
    last_id: int | None = None
    table: str | None = None
    """Only records whose table id is ``<table>-N`` (a Mia table's rounds: ``round`` at the
    bots' table, ``people-round`` at the people's table)."""

    def apply(self, query: AnySelect) -> AnySelect:
        if self.game:
            query = query.where(MatchRow.game == self.game)
        if self.player:
            # A join, not ``id IN (their games)``: the newest of a player's games are the end
            # of their part of ix_match_players_name_match, where an IN list would first
            # gather every game a house bot ever played.
            query = query.join(MatchPlayerRow, MatchPlayerRow.match_id == MatchRow.id).where(
                MatchPlayerRow.name == self.player
            )
            if self.result == "won":
                query = query.where(MatchPlayerRow.winner.is_(True))
            elif self.result == "lost":
                query = query.where(MatchPlayerRow.winner.is_(False))
        if self.result in ("won", "lost"):
            query = query.where(MatchRow.status == "finished")
        elif self.result:
            query = query.where(MatchRow.status == self.result)
        if self.since:
            query = query.where(MatchRow.finished_at >= self.since)
        if self.until:
            query = query.where(MatchRow.finished_at <= self.until)
        if self.first_id is not None:
            query = query.where(MatchRow.id >= self.first_id)
        if self.last_id is not None:
            query = query.where(MatchRow.id <= self.last_id)
        if self.table:
            # The parameter admits letters and dashes only: nothing LIKE would read as a pattern.
            query = query.where(MatchRow.table_id.like(f"{self.table}-%"))
        return query

    def but(self, **changes: Any) -> MatchFilter:
        return replace(self, **changes)

    @property
    def newest_first(self) -> Any:
        """The order of a page of matches that an index gives as it is (see :meth:`apply`)."""
        return (MatchPlayerRow.match_id if self.player else MatchRow.id).desc()

    @property
    def whole_game(self) -> bool:
        """Whether the filter lets a game's every record through (its count is kept)."""
        return self == MatchFilter(game=self.game)


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


def record_mark(engine: Engine) -> int:
    """The newest record's id: records are only ever added, never changed, so a page made of
    them is the same while this is (an ``ETag``'s part; the end of the primary key: no scan)."""
    with Session(engine) as session:
        return int(session.scalar(select(func.max(MatchRow.id))) or 0)


def match_finished(engine: Engine, match_id: int) -> datetime | None:
    """When a recorded game finished (None: no such record), without reading its moves."""
    with Session(engine) as session:
        return session.scalar(select(MatchRow.finished_at).where(MatchRow.id == match_id))


def count_matches(engine: Engine, flt: MatchFilter) -> int:
    with Session(engine) as session:
        return int(session.scalar(flt.apply(select(func.count(MatchRow.id)))) or 0)


def list_matches(
    engine: Engine, flt: MatchFilter, limit: int, offset: int = 0
) -> list[StoredMatch]:
    """A page of matches (newest first) under the filter."""
    return read_matches(engine, flt.apply, limit, offset, flt.newest_first)


def counts_per_game(engine: Engine, flt: MatchFilter) -> dict[str, int]:
    """How many matches of each game the filter lets through (without a filter, or a game's
    alone, the totals the records writer keeps: no count runs over the whole record)."""
    if flt.whole_game:
        totals = matches_per_game(engine)
        return {g: n for g, n in totals.items() if not flt.game or g == flt.game}
    with Session(engine) as session:
        query = flt.apply(select(MatchRow.game, func.count(MatchRow.id)).group_by(MatchRow.game))
        return {str(g): int(n) for g, n in sorted(session.execute(query).all())}


def games_on_record(engine: Engine) -> list[str]:
    return list(matches_per_game(engine))


def matches_per_game(engine: Engine) -> dict[str, int]:
    """How many matches are on record per game (the records writer keeps the totals)."""
    with Session(engine) as session:
        rows = session.execute(
            select(GameTotalRow.game, GameTotalRow.matches).where(GameTotalRow.matches > 0)
        ).all()
    return {str(game): int(n) for game, n in sorted(rows)}


def player_names(
    engine: Engine, game: str | None = None, prefix: str | None = None, limit: int = 200
) -> list[str]:
    """Names of everyone on record (optionally in one game, starting with ``prefix``), from
    the players' totals (one row per player and game, not per game played)."""
    with Session(engine) as session:
        query = select(PlayerTotalRow.name).distinct()
        if game:
            query = query.where(PlayerTotalRow.game == game)
        if prefix:
            escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            query = query.where(PlayerTotalRow.name.like(escaped + "%", escape="\\"))
        query = query.where(PlayerTotalRow.matches > 0).order_by(PlayerTotalRow.name).limit(limit)
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
    rated_games: int = 0
    """Games that moved the OpenSkill rating (what the rating chart counts)."""

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
            "rated_games": self.rated_games,
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
    t = PlayerTotalRow
    with Session(store.engine) as session:
        # The totals the records writer keeps: a house bot's page reads one row per game, not
        # every game it played.
        rows = session.execute(
            select(
                t.game,
                t.matches,
                t.unfinished,
                case((t.matches > 0, t.score_sum / t.matches), else_=None),
                t.first_at,
                t.last_at,
            ).where(t.name == name, t.matches > 0)
        ).all()
        rated = dict(
            session.execute(
                select(RatingRow.game, RatingRow.games).where(RatingRow.name == name)
            ).all()
        )
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
                rated_games=int(rated.get(game, 0)),
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


# -- Mia sessions ------------------------------------------------------------------------

SESSION_GAP = timedelta(minutes=30)
"""Rounds of the same players further apart than this belong to different sessions."""

_CHUNK = 2000
"""Rounds read per query while grouping sessions (newest first)."""


@dataclass
class SessionPlayer:
    name: str
    rounds: int = 0
    lost: int = 0

    @property
    def points(self) -> int:
        """Mia scores a point for every round a player takes part in and does not lose."""
        return self.rounds - self.lost


def mia_table(table_id: str) -> str:
    """The Mia table a round was played at, from its record's table id: ``round`` (the bots'
    table, ``round-N``) or ``people-round`` (the people's table, ``people-round-N``)."""
    return table_id.rpartition("-")[0] or table_id


@dataclass
class MiaSession:
    """Consecutive Mia rounds of the same players at one table with no pause longer than the
    gap: one evening at the table. Rounds are numbered by match id, so ``first_id..last_id``
    under the same filter and :attr:`table` lists exactly the session's rounds."""

    first_id: int
    last_id: int
    started_at: datetime
    ended_at: datetime
    table: str = "round"
    """The table's records' prefix (:func:`mia_table`): the two tables' rounds interleave."""
    players: dict[str, SessionPlayer] = field(default_factory=dict)
    rounds: int = 0
    canceled: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "first_id": self.first_id,
            "last_id": self.last_id,
            "table": self.table,
            "started_at": self.started_at.isoformat(),
            "ended_at": self.ended_at.isoformat(),
            "rounds": self.rounds,
            "canceled": self.canceled,
            "players": [
                {"name": p.name, "rounds": p.rounds, "lost": p.lost, "points": p.points}
                for p in self.ranking()
            ],
        }

    def ranking(self) -> list[SessionPlayer]:
        return sorted(self.players.values(), key=lambda p: (-p.points, p.lost, p.name))


def mia_sessions(
    engine: Engine,
    flt: MatchFilter,
    limit: int,
    offset: int = 0,
    gap: timedelta = SESSION_GAP,
) -> tuple[list[MiaSession], bool]:
    """A page of Mia sessions, newest first, under ``flt``; and whether older ones exist.

    Rounds are read newest first in chunks of :data:`_CHUNK` (ids, then their players by an id
    range, both on indexes) and grouped on the way, each table's apart (the bots' table and
    the people's table play at once, their rounds interleaved), stopping once the page is
    complete: a session is complete when an older round of its table starts the next one, or
    the rounds read are older than it by more than the gap. A canceled round (too few
    players) joins the session it falls into instead of splitting it."""
    flt = flt.but(game="mia")
    wanted = offset + limit
    sessions: list[MiaSession] = []
    open_: dict[str, tuple[MiaSession, frozenset[str] | None]] = {}
    """Per table: its session still open to older rounds, and that session's players."""
    last_id: int | None = flt.last_id

    def page_complete(oldest: datetime) -> bool:
        """Is there a session past the page, and can no round from ``oldest`` on join one
        of the page's (each table's open session takes rounds up to the gap before it)?"""
        if len(sessions) <= wanted:
            return False
        still_open = [s for s, _ in open_.values() if s.started_at - oldest <= gap]
        return not any(s is o for s in sessions[:wanted] for o in still_open)

    with Session(engine) as session:
        while True:
            rows = session.execute(
                flt.but(last_id=last_id)
                .apply(
                    select(MatchRow.id, MatchRow.finished_at, MatchRow.status, MatchRow.table_id)
                )
                .order_by(MatchRow.id.desc())
                .limit(_CHUNK)
            ).all()
            if not rows:
                break
            low, high = rows[-1][0], rows[0][0]
            seats: dict[int, list[tuple[str, bool]]] = {}
            for row in session.execute(
                select(MatchPlayerRow.match_id, MatchPlayerRow.name, MatchPlayerRow.winner).where(
                    MatchPlayerRow.match_id.between(low, high)
                )
            ):
                seats.setdefault(row[0], []).append((row[1], bool(row[2])))
            for match_id, finished_at, status, table_id in rows:
                when = finished_at if finished_at.tzinfo else finished_at.replace(tzinfo=UTC)
                if page_complete(when):
                    return sessions[offset:wanted], True
                table = mia_table(table_id)
                players = seats.get(match_id, [])
                played = status == "finished" and len(players) >= 2
                key = frozenset(n for n, _ in players)
                current, current_key = open_.get(table, (None, None))
                if current is None or not (
                    current.started_at - when <= gap
                    and (not played or key == current_key or current_key is None)
                ):
                    current = MiaSession(match_id, match_id, when, when, table)
                    current_key = None
                    sessions.append(current)
                current.first_id = match_id
                current.started_at = min(current.started_at, when)
                current.rounds += 1
                if played:
                    current_key = key
                    for name, winner in players:
                        p = current.players.setdefault(name, SessionPlayer(name))
                        p.rounds += 1
                        p.lost += 0 if winner else 1
                else:
                    current.canceled += 1
                open_[table] = (current, current_key)
            last_id = low - 1
    return sessions[offset:wanted], len(sessions) > wanted

"""Database schema (SQLAlchemy 2) shared by every game: matches, their players and event logs,
per-game standings and ratings. SQLite by default, PostgreSQL by URL.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    create_engine,
    event,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class MatchRow(Base):
    """One finished (or aborted/canceled) game, Mia round or mariáš game."""

    __tablename__ = "matches"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    table_id: Mapped[str] = mapped_column(String(64))
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="finished")
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    result: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    meta: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    players: Mapped[list[MatchPlayerRow]] = relationship(
        back_populates="match", order_by="MatchPlayerRow.seat", cascade="all, delete-orphan"
    )
    events: Mapped[list[MatchEventRow]] = relationship(
        back_populates="match", order_by="MatchEventRow.seq", cascade="all, delete-orphan"
    )


class MatchPlayerRow(Base):
    __tablename__ = "match_players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64), index=True)
    kind: Mapped[str] = mapped_column(String(16), default="unknown")
    score: Mapped[float] = mapped_column(Float, default=0.0)
    winner: Mapped[bool] = mapped_column(Boolean, default=False)
    match: Mapped[MatchRow] = relationship(back_populates="players")
    __table_args__ = (Index("ix_match_players_match", "match_id"),)


class MatchEventRow(Base):
    """One step of a match's log: an action (chance ones included) or a server event."""

    __tablename__ = "match_events"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(32))
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    match: Mapped[MatchRow] = relationship(back_populates="events")
    __table_args__ = (Index("ix_match_events_match", "match_id", "seq"),)


class MatchKeyRow(Base):
    """The unique key a record was given when it was submitted (see :mod:`herna.hall.journal`):
    replaying a journal entry whose key is here already writes nothing twice."""

    __tablename__ = "match_keys"
    key: Mapped[str] = mapped_column(String(32), primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)


class CounterRow(Base):
    """The highest number handed out of a counter (Mia's round numbers), so that numbers are
    never handed out twice, not even after ``kill -9``."""

    __tablename__ = "counters"
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[int] = mapped_column(BigInteger)


class StandingRow(Base):
    """Running totals of one player in one game (Mia's score table survives restarts here)."""

    __tablename__ = "standings"
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    points: Mapped[float] = mapped_column(Float, default=0.0)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)


class RatingRow(Base):
    """OpenSkill (Plackett-Luce) rating of one player in one game."""

    __tablename__ = "ratings"
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)


class ReservedNameRow(Base):
    """A name reserved for one bot author: only a client presenting the token may use it.

    Only a SHA-256 digest of the token is stored (tokens are 192 random bits from
    ``secrets``, so a slow password hash would add nothing); see :mod:`herna.hall.identity`.
    """

    __tablename__ = "reserved_names"
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    token_sha256: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    note: Mapped[str] = mapped_column(String(200), default="")


def normalise_url(url: str) -> str:
    """Accept plain ``postgresql://`` URLs and a bare file path for SQLite."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url[len("postgresql://") :]
    if "://" not in url:
        return f"sqlite:///{url}"
    return url


def make_engine(url: str) -> Engine:
    """Create the engine and the schema (idempotent)."""
    url = normalise_url(url)
    if url.startswith("sqlite:///"):
        from pathlib import Path

        path = url[len("sqlite:///") :]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, future=True, pool_pre_ping=True)
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            # WAL lets the web hall read while the servers write; NORMAL sync is durable
            # across process crashes (only an OS crash may lose the last commits).
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

    Base.metadata.create_all(engine)
    return engine

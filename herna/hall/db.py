"""Database schema (SQLAlchemy 2) shared by every game: matches, their players and event logs,
per-game standings and ratings. SQLite by default, PostgreSQL by URL.
"""

from __future__ import annotations

import re
import sqlite3
from datetime import datetime
from pathlib import Path
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
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from herna.hall.schema import SchemaTooNew, upgrade


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
    name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(16), default="unknown")
    score: Mapped[float] = mapped_column(Float, default=0.0)
    winner: Mapped[bool] = mapped_column(Boolean, default=False)
    match: Mapped[MatchRow] = relationship(back_populates="players")
    __table_args__ = (
        Index("ix_match_players_match", "match_id"),
        # A player's newest games are the end of their part of this index (no list of every
        # game they played is built to find the last twenty).
        Index("ix_match_players_name_match", "name", "match_id"),
    )


class GameTotalRow(Base):
    """How many records of each game are on record, kept by the records writer as it writes
    (and prunes) them, so that nothing counts the whole record to say it (issue 28)."""

    __tablename__ = "game_totals"
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    matches: Mapped[int] = mapped_column(BigInteger, default=0)


class PlayerTotalRow(Base):
    """One player's records in one game, kept by the records writer as it writes them: what
    a player's page shows without reading every game a house bot ever played."""

    __tablename__ = "player_totals"
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    matches: Mapped[int] = mapped_column(BigInteger, default=0)
    unfinished: Mapped[int] = mapped_column(BigInteger, default=0)
    """Aborted and canceled ones."""
    score_sum: Mapped[float] = mapped_column(Float, default=0.0)
    first_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


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


class PersonRow(Base):
    """A person who signed up in the web hall: their name is also in ``reserved_names``
    (so no bot or guest can use it), and only an Argon2id hash of the password is kept."""

    __tablename__ = "people"
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PersonSessionRow(Base):
    """A signed-in web session of a person (by the SHA-256 of its random id): the session
    cookie is signed, not stored, so this is what lets signing out end it for good (a copy
    of the old cookie is no longer signed in)."""

    __tablename__ = "person_sessions"
    sid_sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class HallKeyRow(Base):
    """Secret keys the hall makes once and keeps (the web hall's session signing key), so
    that what was signed before a restart is still good after it."""

    __tablename__ = "hall_keys"
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingPointRow(Base):
    """A player's rating after a rated game, for the rating-over-time charts.

    Not every game leaves a point: the first 100 games of a player in a game each do, then
    every 10th up to 1,000, every 100th up to 10,000 and so on (see
    :func:`herna.hall.writer.keeps_rating_point`), so a house bot with a million Mia rounds
    has a few hundred points, not a million rows."""

    __tablename__ = "rating_points"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(64))
    games: Mapped[int] = mapped_column(Integer)
    """Rated games played, this one included."""
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (Index("ix_rating_points_player", "name", "game", "games"),)


class TournamentRow(Base):
    """A tournament (``herna tournament``): its format, entrants and state; its games are
    :class:`TournamentGameRow` rows (see :mod:`herna.hall.tournament_store`)."""

    __tablename__ = "tournaments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(100))
    game: Mapped[str] = mapped_column(String(32), index=True)
    format: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), default="running")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When play began: a live tournament takes entrants between its creation and its start
    (``None``: not started, or recorded before Herna kept the start, migration 0002)."""
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    entrants: Mapped[list[Any]] = mapped_column(JSON, default=list)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class TournamentGameRow(Base):
    """One board of a tournament once decided: a game (linked to its match record) or a bye."""

    __tablename__ = "tournament_games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[Any]] = mapped_column(JSON, default=list)
    ranks: Mapped[list[Any]] = mapped_column(JSON, default=list)
    forfeit: Mapped[str | None] = mapped_column(String(16), nullable=True)
    table_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    match_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MatchReviewRow(Base):
    """A finished game's review (the engine's verdict on every move, :mod:`herna.hall.reviews`),
    computed once in a worker process and kept beside the match (migration 0003)."""

    __tablename__ = "match_reviews"
    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    status: Mapped[str] = mapped_column(String(16))
    """``computing`` (a worker has it), ``done`` or ``failed`` (``data["error"]`` says why)."""
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class BotSubmissionRow(Base):
    """One version of a submitted bot (:mod:`herna.hall.submissions`, migration 0004): its
    source as uploaded; each upload under one name and game is the next version, and older
    versions stay."""

    __tablename__ = "bot_submissions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64), index=True)
    """The bot's reserved name: it plays under it, like any client."""
    game: Mapped[str] = mapped_column(String(32))
    version: Mapped[int] = mapped_column(Integer)
    language: Mapped[str] = mapped_column(String(16))
    filename: Mapped[str] = mapped_column(String(100))
    source: Mapped[bytes] = mapped_column(LargeBinary)
    owner: Mapped[str] = mapped_column(String(64), index=True)
    """Who uploaded it: a signed-in person's name, or the bot's own name (its token)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (UniqueConstraint("name", "game", "version", name="uq_bot_version"),)


class BotRunRow(Base):
    """One game a submitted bot played in the sandbox: how its run ended, in words, and its
    standard error (bounded), which only its author sees."""

    __tablename__ = "bot_runs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    submission_id: Mapped[int] = mapped_column(
        ForeignKey("bot_submissions.id", ondelete="CASCADE"), index=True
    )
    table_id: Mapped[str] = mapped_column(String(64), default="")
    """The game server's table id of the game (empty: the bot never got to a table)."""
    match_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The game's record in ``matches`` (its replay), when it was found."""
    opponent: Mapped[str] = mapped_column(String(64), default="")
    outcome: Mapped[str] = mapped_column(String(16))
    """``won``, ``lost``, ``draw`` or ``no game``."""
    reason: Mapped[str] = mapped_column(String(300))
    """Why the game or the run ended, in a sentence for the author."""
    log: Mapped[str] = mapped_column(Text, default="")
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class BotContestRow(Base):
    """A contest of submitted bots (:mod:`herna.hall.contests`, migrations 0005, 0007):
    entries until ``deadline``, then the versions are locked and the final is a live
    tournament (``tournament_id``) between them."""

    __tablename__ = "bot_contests"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    title: Mapped[str] = mapped_column(String(100))
    game: Mapped[str] = mapped_column(String(32))
    deadline: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    games_per_pairing: Mapped[int] = mapped_column(Integer, default=2)
    house: Mapped[str] = mapped_column(String(100), default="")
    """House bots' levels that play in the final, comma-separated (empty: none)."""
    admin_digest: Mapped[str] = mapped_column(String(64))
    """SHA-256 of the organiser's token (the token itself is shown once)."""
    tournament_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The final's live tournament, once the organiser started it."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    rules: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """A tile contest's shipped rules file (migration 0007); None for the other games."""


class BotContestEntryRow(Base):
    """A bot entered in a contest; ``submission_id`` is its locked version once the final
    started (before: whichever version is newest at the deadline)."""

    __tablename__ = "bot_contest_entries"
    contest_id: Mapped[int] = mapped_column(
        ForeignKey("bot_contests.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))
    entered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    submission_id: Mapped[int | None] = mapped_column(
        ForeignKey("bot_submissions.id", ondelete="SET NULL"), nullable=True
    )


def normalise_url(url: str) -> str:
    """Accept plain ``postgresql://`` URLs and a bare file path for SQLite."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url[len("postgresql://") :]
    if "://" not in url:
        return f"sqlite:///{url}"
    return url


FileIdentity = tuple[str, int, int]
"""A SQLite database file as opened: (absolute path, ``st_dev``, ``st_ino``)."""


def database_file(url: str) -> Path | None:
    """The SQLite file ``url`` names, made absolute; None for PostgreSQL or in-memory SQLite."""
    url = normalise_url(url)
    if not url.startswith("sqlite:///"):
        return None
    path = url[len("sqlite:///") :].partition("?")[0]
    if not path or path == ":memory:" or path.startswith("file::memory:"):
        return None
    return Path(path).absolute()


def file_identity(url: str) -> FileIdentity | None:
    """What :func:`file_changed` compares with later: the file as it is now (None for a
    database that is no file, or a file that is not there)."""
    path = database_file(url)
    if path is None:
        return None
    try:
        st = path.stat()
    except OSError:
        return None
    return (str(path), st.st_dev, st.st_ino)


def file_changed(opened: FileIdentity | None) -> str | None:
    """Why the path of a database file no longer leads to the file that was opened: it was
    deleted, or another file was put in its place (a move, a restored copy). Connections
    still open write to the unlinked file, which nobody will ever open again; None while the
    path is still that file (or the database is no file)."""
    if opened is None:
        return None
    path, dev, ino = opened
    try:
        st = Path(path).stat()
    except (FileNotFoundError, NotADirectoryError):
        return "deleted"
    except OSError:
        return None  # a passing failure to look (the connections still work): not proof
    if (st.st_dev, st.st_ino) != (dev, ino):
        return "replaced by another file"
    return None


class DatabaseMissing(Exception):
    """A command that only reads was pointed at a SQLite file that does not exist."""


class DatabaseUnavailable(Exception):
    """The database cannot be used. ``str()`` is what a person needs, in at most two lines:
    the database (password masked), what is wrong, what to do."""


def shown_url(url: str) -> str:
    """``url`` as it may be printed or logged: any password replaced by ``***``."""
    scheme, sep, rest = url.partition("://")
    if sep and "@" in rest:
        # The host part never holds an "@": the password ends at the last one.
        userinfo, _, host = rest.rpartition("@")
        if ":" in userinfo:
            rest = userinfo.split(":", 1)[0] + ":***@" + host
    return re.sub(r"(?i)(password=)[^&]*", r"\1***", scheme + sep + rest)


def _password(url: str) -> str | None:
    _, sep, rest = url.partition("://")
    userinfo = rest.rpartition("@")[0] if sep else ""
    return userinfo.split(":", 1)[1] if ":" in userinfo else None


_URLS = "a file path, sqlite:///PATH or postgresql://USER:PASSWORD@HOST:PORT/DATABASE"


def _diagnose(exc: BaseException) -> tuple[str, str]:
    """What is wrong and what to do, for the exceptions opening a database raises."""
    cause = getattr(exc, "orig", None) or exc
    text = str(cause).strip()
    detail = text.splitlines()[0] if text else type(cause).__name__
    low = text.lower()
    if isinstance(exc, DatabaseMissing):
        return (
            text,
            "Run the command in the hall's folder, or name the database with --database-url",
        )
    if isinstance(exc, ImportError):
        return f"its driver is not installed ({detail})", f"Install it, or use {_URLS}"
    if isinstance(exc, ArgumentError | ValueError) or "can't load plugin" in low:
        return f"this is not a database URL Herna can use ({detail})", f"Use {_URLS}"
    if isinstance(exc, OSError):
        where = f" {exc.filename}" if exc.filename else ""
        return (
            f"cannot create its directory{where} ({exc.strerror or detail})",
            "Create the directory or choose a database path in a writable directory",
        )
    if "not a database" in low or "malformed" in low:
        return (
            "the file is not a SQLite database or is damaged",
            "Move the file aside (Herna then creates a new one) or choose another --database-url",
        )
    if "locked" in low or "busy" in low:
        return (
            "another process holds a lock on it",
            "Stop that process (another herna serve?) or choose another database file",
        )
    if "unable to open" in low or "readonly" in low or "read-only" in low:
        return (
            f"it cannot be opened for writing ({detail})",
            "Check that its directory exists and this user may write there, or choose another path",
        )
    if "authentication" in low or "password" in low:
        return f"PostgreSQL refused the login ({detail})", "Check the user name and password"
    if "does not exist" in low:
        return detail, "Create it (createdb NAME) or correct the URL"
    if any(w in low for w in ("connect", "refused", "resolve", "timeout", "timed out")):
        return (
            f"no database server answers ({detail})",
            "Start PostgreSQL, or correct the host and port in the URL",
        )
    return detail, "Check the database and --database-url"


def make_engine(url: str, *, create: bool = True) -> Engine:
    """Open the database and bring its schema to this Herna's (:mod:`herna.hall.schema`:
    Alembic migrations; a new database gets every table).

    With ``create=False`` (commands that only read) a SQLite file that does not exist is an
    error instead of a new, empty database. Raises :class:`DatabaseUnavailable` (with a
    short explanation, never a password) when the URL is unusable or the database cannot be
    opened, created or reached, or was written by a newer Herna."""
    try:
        return _make_engine(url, create)
    except SchemaTooNew as exc:
        raise DatabaseUnavailable(
            f"cannot use the database {shown_url(url)}: {exc}.\nUse that Herna, or a copy of "
            "the database made before it opened it."
        ) from exc
    except (
        SQLAlchemyError,
        OSError,
        ImportError,
        ValueError,
        sqlite3.Error,
        DatabaseMissing,
    ) as exc:
        problem, advice = _diagnose(exc)
        password = _password(url)
        if password:  # a driver may quote the URL, or the host it took from a misparsed one
            for secret in sorted({password, *password.split("@")}, key=len, reverse=True):
                if len(secret) >= 3:
                    problem = problem.replace(secret, "***")
        raise DatabaseUnavailable(
            f"cannot use the database {shown_url(url)}: {problem}.\n{advice}."
        ) from exc


def _make_engine(url: str, create: bool) -> Engine:
    url = normalise_url(url)
    if url.startswith("sqlite:///"):
        path = Path(url[len("sqlite:///") :].partition("?")[0])
        if str(path) and str(path) != ":memory:":
            if not create and not path.is_file():
                raise DatabaseMissing(f"there is no database file {path.resolve()}")
            path.parent.mkdir(parents=True, exist_ok=True)
    options: dict[str, Any] = {"pool_pre_ping": True}
    if database_file(url) is not None:
        # A SQLite file's connections never go stale, so no ping per checkout; and enough of
        # them are kept for the web hall's worker threads, or every request beyond the pool
        # would open a connection and run the PRAGMAs again (issue 28's profile: 14 %).
        options = {"pool_pre_ping": False, "pool_size": 20, "max_overflow": 20}
    engine = create_engine(url, future=True, **options)
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

    upgrade(engine, Base.metadata)
    return engine

"""Submitted bots: programs the hall keeps and runs itself, in the sandbox
(:mod:`herna.core.sandbox`), instead of their authors keeping them connected.

A bot is a reserved name (:mod:`herna.hall.identity`) with versions of a program for one
game. Each upload — ``herna submit`` with the name's token, or the web form of a signed-in
person, who then owns the name — is the next version; older versions stay. The program speaks
the game's own wire protocol on its standard input and output (docs/bots.md); the runner
(:mod:`herna.clients.sandboxed`) connects it to the game's server as an ordinary client under
the bot's name, so servers, rules and records are unchanged. How each of its games ended for
it, and its standard error, are kept as runs (``bot_runs``), shown to its author only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from herna.hall.db import BotRunRow, BotSubmissionRow
from herna.hall.identity import Identity, NameTaken, ReservedNames, valid_name

MAX_SOURCE_BYTES = 256 * 1024
"""The largest program accepted (one source file)."""

MIA_NAME_LENGTH = 20
"""The longest name Mia's protocol carries (docs/protocols/mia.md, "Registering")."""

MAX_LOG_CHARS = 64 * 1024
"""The most of a run's standard error kept."""

GAMES = ("onitama", "marias", "mia", "tiles")
"""The games whose submitted bots the hall plays (each through its wire:
:mod:`herna.clients.sandboxed_wires`)."""


@dataclass(frozen=True)
class Language:
    code: str
    label: str
    filename: str
    """The name the source gets inside the sandbox (``/bot/NAME``)."""
    run: tuple[str, ...]
    compile: tuple[str, ...] = ()
    """The compiler's command, run in the sandbox with ``/out`` writable (empty: none)."""


LANGUAGES = {
    "python": Language("python", "Python 3", "bot.py", ("/usr/bin/python3", "-I", "/bot/bot.py")),
    "c": Language(
        "c",
        "C",
        "bot.c",
        ("/bot/bot",),
        ("/usr/bin/gcc", "-O2", "-std=c17", "-o", "/out/bot", "/bot/bot.c", "-lm"),
    ),
}
SUFFIXES = {".py": "python", ".c": "c"}


def language_of(filename: str) -> str | None:
    """The language a file name says (``bot.py``: Python), or ``None``."""
    for suffix, code in SUFFIXES.items():
        if filename.lower().endswith(suffix):
            return code
    return None


class SubmissionRefused(Exception):
    """An upload the hall does not take; ``reason`` says why, for the author."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Submission:
    id: int
    name: str
    game: str
    version: int
    language: str
    filename: str
    source: bytes
    owner: str
    created_at: datetime

    @property
    def label(self) -> str:
        return f"{self.name} v{self.version}"


@dataclass(frozen=True)
class BotRun:
    id: int
    submission_id: int
    version: int
    table_id: str
    match_id: int | None
    opponent: str
    outcome: str
    reason: str
    log: str
    started_at: datetime
    finished_at: datetime


def submission_of(row: BotSubmissionRow) -> Submission:
    return Submission(
        row.id,
        row.name,
        row.game,
        row.version,
        row.language,
        row.filename,
        row.source,
        row.owner,
        row.created_at,
    )


class Submissions:
    """The book of submitted bots and their runs (tables ``bot_submissions``, ``bot_runs``)."""

    def __init__(self, engine: Engine, identity: Identity) -> None:
        self.engine = engine
        self.identity = identity

    # -- uploads ----------------------------------------------------------------------------
    def submit(
        self,
        name: str,
        game: str,
        filename: str,
        source: bytes,
        *,
        token: str | None = None,
        person: str | None = None,
        language: str | None = None,
    ) -> tuple[Submission, str | None]:
        """Keep ``source`` as the next version of bot ``name`` for ``game``; the submission
        and, when this upload reserved the name for ``person``, the name's token (shown to
        them once, for ``herna submit``). Either ``token`` (the name's) or ``person`` (a
        signed-in person) says who uploads; :class:`SubmissionRefused` says why not."""
        code = language or language_of(filename)
        if game not in GAMES:
            raise SubmissionRefused(
                f"the hall plays submitted bots of {', '.join(GAMES)}, not {game}"
            )
        if code not in LANGUAGES:
            known = ", ".join(f"{lang.label} ({s})" for s, lang in _by_suffix())
            raise SubmissionRefused(f"{filename!r} is not a language the hall runs: {known}")
        if not source.strip():
            raise SubmissionRefused("the file is empty")
        if len(source) > MAX_SOURCE_BYTES:
            raise SubmissionRefused(
                f"the file has {len(source)} bytes; the most the hall takes is {MAX_SOURCE_BYTES}"
            )
        if not valid_name(name) or len(name) > 32:
            raise SubmissionRefused(
                f"{name!r} is not a bot name: 1-32 letters, digits, _, - or ., no spaces"
            )
        if game == "mia" and len(name) > MIA_NAME_LENGTH:
            raise SubmissionRefused(
                f"{name!r} is too long for Mia: its names have at most {MIA_NAME_LENGTH} characters"
            )
        new_token = self._check_owner(name, token, person)
        owner = person or name
        with Session(self.engine) as session, session.begin():
            latest = session.scalar(
                select(func.max(BotSubmissionRow.version)).where(
                    BotSubmissionRow.name == name, BotSubmissionRow.game == game
                )
            )
            row = BotSubmissionRow(
                name=name,
                game=game,
                version=(latest or 0) + 1,
                language=code,
                filename=filename[:100],
                source=source,
                owner=owner,
                created_at=datetime.now(UTC),
            )
            session.add(row)
            session.flush()
            return submission_of(row), new_token

    def _check_owner(self, name: str, token: str | None, person: str | None) -> str | None:
        if token is not None:
            if not self.identity.proves(name, token):
                raise SubmissionRefused(f"that is not the token of {name!r}")
            return None
        if person is None:
            raise SubmissionRefused(f"give the token of {name!r} (herna bots add {name})")
        if self.identity.reserved_spelling(name) is not None and name not in self.bot_names(person):
            raise SubmissionRefused(
                f"{name!r} is taken (or looks like a name that is): choose another bot name"
            )
        if name in self.bot_names(person):
            return None
        try:
            token = ReservedNames(self.engine).add(name, note=f"bot of {person}")
        except NameTaken:
            raise SubmissionRefused(f"{name!r} is taken: choose another bot name") from None
        self.identity.reload()
        return token

    # -- reading ----------------------------------------------------------------------------
    def get(self, submission_id: int) -> Submission | None:
        with Session(self.engine) as session:
            row = session.get(BotSubmissionRow, submission_id)
            return None if row is None else submission_of(row)

    def versions(self, name: str) -> list[Submission]:
        """Every version of bot ``name``, newest first."""
        with Session(self.engine) as session:
            rows = session.scalars(
                select(BotSubmissionRow)
                .where(BotSubmissionRow.name == name)
                .order_by(BotSubmissionRow.version.desc())
            )
            return [submission_of(r) for r in rows]

    def latest(self, game: str) -> list[Submission]:
        """The newest version of every bot of ``game``, by name."""
        with Session(self.engine) as session:
            newest = (
                select(BotSubmissionRow.name, func.max(BotSubmissionRow.version).label("v"))
                .where(BotSubmissionRow.game == game)
                .group_by(BotSubmissionRow.name)
                .subquery()
            )
            rows = session.scalars(
                select(BotSubmissionRow)
                .join(
                    newest,
                    (BotSubmissionRow.name == newest.c.name)
                    & (BotSubmissionRow.version == newest.c.v),
                )
                .where(BotSubmissionRow.game == game)
                .order_by(BotSubmissionRow.name)
            )
            return [submission_of(r) for r in rows]

    def bot_names(self, owner: str) -> list[str]:
        """The bots ``owner`` uploaded, by name."""
        with Session(self.engine) as session:
            names = session.scalars(
                select(BotSubmissionRow.name).where(BotSubmissionRow.owner == owner).distinct()
            )
            return sorted(names)

    # -- runs -------------------------------------------------------------------------------
    def record_run(
        self,
        submission: Submission,
        *,
        table_id: str,
        match_id: int | None = None,
        opponent: str,
        outcome: str,
        reason: str,
        log: str,
        started_at: datetime,
    ) -> int:
        with Session(self.engine) as session, session.begin():
            row = BotRunRow(
                submission_id=submission.id,
                table_id=table_id[:64],
                match_id=match_id,
                opponent=opponent[:64],
                outcome=outcome,
                reason=reason[:300],
                log=log[:MAX_LOG_CHARS],
                started_at=started_at,
                finished_at=datetime.now(UTC),
            )
            session.add(row)
            session.flush()
            return row.id

    def runs(self, name: str, limit: int = 20) -> list[BotRun]:
        """The newest runs of every version of bot ``name``."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(BotRunRow, BotSubmissionRow.version)
                .join(BotSubmissionRow, BotRunRow.submission_id == BotSubmissionRow.id)
                .where(BotSubmissionRow.name == name)
                .order_by(BotRunRow.finished_at.desc(), BotRunRow.id.desc())
                .limit(limit)
            )
            return [
                BotRun(
                    r.id,
                    r.submission_id,
                    version,
                    r.table_id,
                    r.match_id,
                    r.opponent,
                    r.outcome,
                    r.reason,
                    r.log,
                    r.started_at,
                    r.finished_at,
                )
                for r, version in rows
            ]


def _by_suffix() -> list[tuple[str, Language]]:
    return [(suffix, LANGUAGES[code]) for suffix, code in SUFFIXES.items()]

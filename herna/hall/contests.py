"""Contests of submitted bots (issue 30): what a teacher runs for a class.

An organiser creates a contest for one game (a tile contest also names its rules file) with
a **deadline** and gets an admin token (shown once; only its digest is kept, as for live
tournaments). Until the deadline authors **enter** their bots of that game
(:mod:`herna.hall.submissions`: a bot is a name with versions) and keep uploading: each
upload is a new version and the newest one counts. At the deadline the versions are
**locked**: each entry plays the newest version uploaded *before* the deadline, whatever
comes after. The organiser then starts the **final**, a live tournament
(:mod:`herna.hall.tournament_live`) of the game between the locked versions, in the
tournament's own formats (:func:`final_options`): a round robin of two-seat boards
(Onitama, two-player tile rules), each pairing ``games_per_pairing`` times with colours
swapped every other time; round-robin tables of the rules' seats (mariáš: three, each table
a duplicate deal: the same cards once with each bot in each seat); a session at the hall's
table for Mia. Its tournament page keeps the crosstable and every replay, and
:func:`ranking` gives the final table with a 95 % interval of each bot's score.

This module is the book of contests (tables ``bot_contests``, ``bot_contest_entries``); the
sandboxed games of the final are :mod:`herna.servers.contest`'s.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import Integer, cast, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from herna.hall.db import (
    BotContestEntryRow,
    BotContestRow,
    BotSubmissionRow,
    MatchPlayerRow,
    MatchRow,
)
from herna.hall.identity import new_secret, same_secret, token_digest
from herna.hall.stats import Z95
from herna.hall.submissions import Submission, Submissions, submission_of
from herna.hall.tournament.model import Game
from herna.hall.tournament_live import BOTS, LIVE_GAMES, SESSION, LiveOptions
from herna.hall.tournament_store import Tournament
from herna.hall.tournament_timetable import TimeError, parse_duration, parse_start

CONTEST_GAMES = LIVE_GAMES
"""The games a contest's final can be held for: every game a live tournament seats."""
MAX_GAMES_PER_PAIRING = 10
HOUSE_LEVELS = ("easy", "medium", "hard")
MAX_ROUNDS = 50
"""The most rounds a live tournament plays (round-robin tables)."""


class ContestRefused(Exception):
    """A request about a contest the hall does not take; ``reason`` says why, in words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def parse_deadline(text: str) -> datetime:
    """``90s``, ``2h``, ``1h30m`` from now, or a date and time (ISO 8601; UTC when it names
    no offset)."""
    text = text.strip()
    if not text:
        raise TimeError("give the deadline: a length of time (90s, 2h) or a date and time")
    try:
        seconds = parse_duration(text)
    except TimeError:
        return parse_start(text, 0)
    return datetime.now(UTC) + timedelta(seconds=seconds)


def utc(moment: datetime) -> datetime:
    """``moment`` in UTC (SQLite gives back the stored times without their zone)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


@dataclass(frozen=True)
class Contest:
    id: int
    title: str
    game: str
    deadline: datetime
    games_per_pairing: int
    house: tuple[str, ...]
    tournament_id: int | None
    created_at: datetime
    rules: str | None = None
    """A tile contest's shipped rules file (None for the other games)."""

    def open_at(self, moment: datetime) -> bool:
        """Whether entries and versions still count at ``moment``."""
        return moment < self.deadline


@dataclass(frozen=True)
class Entry:
    name: str
    owner: str
    entered_at: datetime
    version: Submission | None
    """The version that plays: locked at the final's start; before, the newest one uploaded
    before the deadline (None: none was)."""


def _contest(row: BotContestRow) -> Contest:
    house = tuple(level for level in row.house.split(",") if level)
    return Contest(
        row.id,
        row.title,
        row.game,
        utc(row.deadline),
        row.games_per_pairing,
        house,
        row.tournament_id,
        utc(row.created_at),
        row.rules,
    )


class Contests:
    """The book of contests; each method is one transaction."""

    def __init__(self, engine: Engine, submissions: Submissions) -> None:
        self.engine = engine
        self.submissions = submissions

    def create(
        self,
        title: str,
        game: str,
        deadline: datetime,
        games_per_pairing: int = 2,
        house: tuple[str, ...] = (),
        rules: str | None = None,
    ) -> tuple[Contest, str]:
        """A new contest and its admin token (shown to the organiser once). ``rules``: a tile
        contest's shipped rules file (the caller checks it is one, as the game is below the
        hall; :mod:`herna.servers.contest` loads it at the final)."""
        title = title.strip()
        if not title or len(title) > 100:
            raise ContestRefused("give the contest a title of 1 to 100 characters")
        if game not in CONTEST_GAMES:
            raise ContestRefused(
                f"contests are held for {', '.join(CONTEST_GAMES)} so far, not {game}"
            )
        rules = (rules or "").strip() or None
        if game == "tiles" and rules is None:
            raise ContestRefused("a tile contest names its rules file")
        if game != "tiles":
            rules = None
        if game == "mia" and house:
            raise ContestRefused(
                "a Mia final is a session at the hall's Mia table, whose house bots play "
                "anyway: give no house bots"
            )
        deadline = utc(deadline)
        if deadline <= datetime.now(UTC):
            raise ContestRefused("the submission deadline is in the past")
        if not 1 <= games_per_pairing <= MAX_GAMES_PER_PAIRING:
            raise ContestRefused(
                f"each pairing plays 1 to {MAX_GAMES_PER_PAIRING} games (2: once with each colour)"
            )
        bad = [level for level in house if level not in HOUSE_LEVELS]
        if bad:
            raise ContestRefused(f"house bots are {', '.join(HOUSE_LEVELS)}, not {bad[0]!r}")
        token = new_secret()
        with Session(self.engine) as session, session.begin():
            row = BotContestRow(
                title=title,
                game=game,
                deadline=deadline,
                games_per_pairing=games_per_pairing,
                house=",".join(house),
                admin_digest=token_digest(token),
                created_at=datetime.now(UTC),
                rules=rules,
            )
            session.add(row)
            session.flush()
            return _contest(row), token

    def authorised(self, contest_id: int, token: str | None) -> bool:
        with Session(self.engine) as session:
            row = session.get(BotContestRow, contest_id)
            return row is not None and same_secret(token_digest(token or ""), row.admin_digest)

    def get(self, contest_id: int) -> Contest | None:
        with Session(self.engine) as session:
            row = session.get(BotContestRow, contest_id)
            return None if row is None else _contest(row)

    def all(self) -> list[Contest]:
        """Every contest, newest first."""
        with Session(self.engine) as session:
            rows = session.scalars(select(BotContestRow).order_by(BotContestRow.id.desc()))
            return [_contest(r) for r in rows]

    def enter(self, contest_id: int, name: str, person: str) -> None:
        """Enter ``person``'s bot ``name`` (entering it again changes nothing)."""
        contest = self.get(contest_id)
        if contest is None:
            raise ContestRefused(f"there is no contest {contest_id}")
        if not contest.open_at(datetime.now(UTC)):
            raise ContestRefused("the deadline has passed: the contest takes no more entries")
        versions = [v for v in self.submissions.versions(name) if v.game == contest.game]
        if not versions or versions[0].owner != person:
            raise ContestRefused(f"you have no {contest.game} bot named {name!r}: upload it first")
        with Session(self.engine) as session, session.begin():
            if session.get(BotContestEntryRow, (contest_id, name)) is None:
                session.add(
                    BotContestEntryRow(
                        contest_id=contest_id,
                        name=name,
                        owner=person,
                        entered_at=datetime.now(UTC),
                    )
                )

    def entries(self, contest_id: int) -> list[Entry]:
        """The entries by name, each with the version that plays (see :class:`Entry`)."""
        contest = self.get(contest_id)
        if contest is None:
            return []
        with Session(self.engine) as session:
            rows = list(
                session.scalars(
                    select(BotContestEntryRow)
                    .where(BotContestEntryRow.contest_id == contest_id)
                    .order_by(BotContestEntryRow.name)
                )
            )
            locked = {
                r.name: session.get(BotSubmissionRow, r.submission_id)
                for r in rows
                if r.submission_id is not None
            }
            out = []
            for r in rows:
                held = locked.get(r.name)
                version = (
                    submission_of(held) if held is not None else self._at_deadline(r.name, contest)
                )
                out.append(Entry(r.name, r.owner, utc(r.entered_at), version))
            return out

    def _at_deadline(self, name: str, contest: Contest) -> Submission | None:
        """The newest version of ``name`` uploaded before the deadline (the lock)."""
        for version in self.submissions.versions(name):
            if version.game == contest.game and utc(version.created_at) < contest.deadline:
                return version
        return None

    def lock(self, contest_id: int) -> list[Submission]:
        """Keep each entry's version as the one that plays (after the deadline only); the
        locked versions, by name. Entries without a version before the deadline drop out."""
        contest = self.get(contest_id)
        if contest is None:
            raise ContestRefused(f"there is no contest {contest_id}")
        if contest.open_at(datetime.now(UTC)):
            raise ContestRefused("the final starts after the deadline: versions are not locked yet")
        entries = [e for e in self.entries(contest_id) if e.version is not None]
        with Session(self.engine) as session, session.begin():
            for entry in entries:
                row = session.get(BotContestEntryRow, (contest_id, entry.name))
                if row is not None and entry.version is not None:
                    row.submission_id = entry.version.id
        return [e.version for e in entries if e.version is not None]

    def set_final(self, contest_id: int, tournament_id: int) -> None:
        with Session(self.engine) as session, session.begin():
            row = session.get(BotContestRow, contest_id)
            if row is not None:
                row.tournament_id = tournament_id


def final_options(contest: Contest, players: int, seats: int) -> LiveOptions:
    """The live tournament that is ``contest``'s final for ``players`` entrants (the locked
    bots and the house bots) at boards of ``seats`` (tiles: the rules file's players).

    Two seats a board: a round robin, each pairing ``games_per_pairing`` times, colours or
    seats swapped every other time. More: round-robin tables, ``players`` rounds for each
    two games per pairing, so that everyone sits out (a bye) as often and the company at
    the tables changes; a mariáš table plays one duplicate deal (three groups of one deal,
    the seating turned a seat on each time and the same cards dealt from the same seat by the
    CGML server, so every bot holds every hand once).
    Mia: a session of ``games_per_pairing`` minutes at the hall's Mia table."""
    name = f"{contest.title}: the final"
    if contest.game == "mia":
        return LiveOptions(
            name=name,
            game="mia",
            format=SESSION,
            admits=BOTS,
            duration=60.0 * contest.games_per_pairing,
        )
    rounds = None
    if seats > 2:
        rounds = min(MAX_ROUNDS, players * math.ceil(contest.games_per_pairing / 2))
    return LiveOptions(
        name=name,
        game=contest.game,
        format="round-robin",
        admits=BOTS,
        rounds=rounds,
        cycles=contest.games_per_pairing,
        house=contest.house,
        rules=contest.rules,
        seats=seats,
        deals=1,
        duplicate=contest.game == "marias",
    )


# -- the final ranking ------------------------------------------------------------------------
@dataclass(frozen=True)
class Ranked:
    rank: int
    name: str
    version: int | None
    points: float
    games: int
    wins: int
    draws: int
    losses: int
    low: float
    """The 95 % Wilson interval of the score per game (points / games), low end."""
    high: float


def wilson(points: float, games: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a share ``points / games`` (a draw is half a win);
    (0, 1) without games."""
    if games <= 0:
        return 0.0, 1.0
    p = points / games
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    # No point (every point) puts the low (high) end at 0 (1) exactly; rounding must not
    # leave a bot that lost every game outside its own interval.
    low = 0.0 if points <= 0 else max(0.0, centre - half)
    high = 1.0 if points >= games else min(1.0, centre + half)
    return low, high


def ranking(games: Sequence[Game], versions: dict[str, int]) -> list[Ranked]:
    """The final table from the final's finished games: by points, then wins (equal ones
    share the place, listed by name); ``versions``: each bot's locked version (house bots
    have none)."""
    tally: dict[str, list[float]] = {}
    for game in games:
        if game.board.bye:
            continue
        for i, name in enumerate(game.seats):
            row = tally.setdefault(name, [0.0, 0, 0, 0, 0])
            row[0] += float(game.points(i))
            row[1] += 1
            result = game.result(i)
            row[2 if result == "won" else 3 if result == "drawn" else 4] += 1
    for name in versions:
        tally.setdefault(name, [0.0, 0, 0, 0, 0])
    order = sorted(tally, key=lambda n: (-tally[n][0], -tally[n][2], n.casefold()))
    out = []
    rank = 0
    for place, name in enumerate(order, 1):
        points, played, wins, draws, losses = tally[name]
        if place == 1 or (points, wins) != (tally[order[place - 2]][0], tally[order[place - 2]][2]):
            rank = place  # equal points and wins share the place (1, 2, 2, 4)
        low, high = wilson(points, int(played))
        out.append(
            Ranked(
                rank,
                name,
                versions.get(name),
                points,
                int(played),
                int(wins),
                int(draws),
                int(losses),
                low,
                high,
            )
        )
    return out


def final_ranking(engine: Engine, tour: Tournament, versions: dict[str, int]) -> list[Ranked]:
    """The final table of ``tour`` (a contest's final): :func:`ranking` of its games, or for
    a Mia session the rounds each entrant played at the table meanwhile, a round not lost
    being a point (as the table scores it), read from the rounds' records."""
    if tour.format != "session":
        return ranking(tour.games, versions)
    names = [e.name for e in tour.entrants]
    first, last = tour.settings.get("first_match"), tour.settings.get("last_match")
    rounds: dict[str, tuple[int, int]] = {}
    if isinstance(first, int) and isinstance(last, int) and names:
        with Session(engine) as session:
            query = (
                select(
                    MatchPlayerRow.name,
                    func.count(),
                    func.sum(cast(MatchPlayerRow.winner, Integer)),
                )
                .join(MatchRow, MatchRow.id == MatchPlayerRow.match_id)
                .where(
                    MatchRow.game == "mia",
                    MatchRow.status == "finished",
                    MatchRow.id.between(first, last),
                    MatchPlayerRow.name.in_(names),
                )
                .group_by(MatchPlayerRow.name)
            )
            rounds = {name: (int(n), int(won or 0)) for name, n, won in session.execute(query)}
    order = sorted(names, key=lambda n: (-rounds.get(n, (0, 0))[1], n.casefold()))
    out: list[Ranked] = []
    for place, name in enumerate(order, 1):
        played, won = rounds.get(name, (0, 0))
        rank = out[-1].rank if out and out[-1].points == won else place
        low, high = wilson(won, played)
        out.append(
            Ranked(rank, name, versions.get(name), won, played, won, 0, played - won, low, high)
        )
    return out


def ranking_csv(rows: list[Ranked]) -> str:
    """One line per bot: rank, name, version, points, games, W/D/L and the interval."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            "rank",
            "bot",
            "version",
            "points",
            "games",
            "wins",
            "draws",
            "losses",
            "score_low_95",
            "score_high_95",
        ]
    )
    for r in rows:
        # A name starting with = + - @ would be a formula to a spreadsheet.
        name = "'" + r.name if r.name[:1] in ("=", "+", "-", "@") else r.name
        writer.writerow(
            [
                r.rank,
                name,
                r.version if r.version is not None else "",
                f"{r.points:g}",
                r.games,
                r.wins,
                r.draws,
                r.losses,
                f"{r.low:.3f}",
                f"{r.high:.3f}",
            ]
        )
    return out.getvalue()

"""``herna contest create|show``: a teacher's contest of submitted bots from the terminal
(docs/bots.md, "Contests"). The final itself is started in the running hall (the contest's
page, with the admin token), whose sandbox runner plays it."""

from __future__ import annotations

import argparse
from datetime import datetime

from rich.console import Console

from herna.cli.serve import DEFAULT_DATABASE
from herna.games.tiles.rules import shipped_rules
from herna.hall.contests import (
    CONTEST_GAMES,
    MAX_GAMES_PER_PAIRING,
    ContestRefused,
    Contests,
    final_ranking,
    parse_deadline,
    ranking_csv,
)
from herna.hall.db import make_engine
from herna.hall.identity import Identity, ReservedNames
from herna.hall.submissions import Submissions
from herna.hall.tournament_store import TournamentStore
from herna.hall.tournament_timetable import TimeError
from herna.servers.contest import table_seats


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "contest",
        help="hold a contest of submitted bots (a deadline, then a final ranking)",
        description="A contest of submitted bots: authors enter their bots on its page until "
        "the deadline; then each bot's newest version from before the deadline is locked and "
        "the organiser starts the final on the contest's page with the admin token (the hall "
        "must run with --ladder). See docs/bots.md, 'Contests'.",
    )
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    create = actions.add_parser(
        "create",
        help="create a contest and print its admin token (shown once)",
        description="Create a contest and print its id, its page and its admin token.",
    )
    create.add_argument("title", help="the contest's title")
    create.add_argument(
        "--game",
        choices=CONTEST_GAMES,
        default=CONTEST_GAMES[0],
        help="the game (default onitama): onitama and two-player tile rules play a round "
        "robin; mariáš and larger tile rules play round-robin tables (mariáš: each table one "
        "duplicate deal, the same cards with every bot in every seat); Mia a session at the "
        "hall's Mia table",
    )
    create.add_argument(
        "--rules",
        choices=sorted(shipped_rules()),
        metavar="RULES",
        help="tiles: the shipped rules file the final plays (required for tiles; one of "
        f"{', '.join(sorted(shipped_rules()))})",
    )
    create.add_argument(
        "--deadline",
        required=True,
        help="when submissions close: a length of time from now (90s, 2h, 336h) or a date "
        "and time in UTC (2026-12-12T18:00)",
    )
    create.add_argument(
        "--games",
        type=int,
        default=2,
        help=f"games each pairing plays in the final, colours swapped every other game "
        f"(1-{MAX_GAMES_PER_PAIRING}; default 2); at tables of three or more, every two "
        "make the tables go round once more; Mia: the session's minutes",
    )
    create.add_argument(
        "--house",
        default="",
        help="house bots that play in the final, by level (e.g. 'easy,hard'; default none; "
        "none for Mia: the table's house bots play anyway)",
    )
    show = actions.add_parser(
        "show",
        help="print a contest's entries and, once its final has begun, the ranking",
        description="Print a contest's entries with the version each plays, and the final "
        "ranking with each bot's score per game and its 95 %% Wilson interval.",
    )
    show.add_argument("contest", type=int, metavar="ID", help="the contest's id")
    show.add_argument("--csv", action="store_true", help="print the final ranking as CSV")
    for q in (create, show):
        q.add_argument(
            "--database-url",
            default=DEFAULT_DATABASE,
            help=f"the hall's database ({DEFAULT_DATABASE})",
        )
    p.set_defaults(func=run_contest)


def run_contest(args: argparse.Namespace) -> int:
    console = Console(stderr=True)
    engine = make_engine(args.database_url)
    contests = Contests(engine, Submissions(engine, Identity(ReservedNames(engine))))
    if args.action == "create":
        house = tuple(w for w in args.house.replace(",", " ").split() if w)
        try:
            deadline = parse_deadline(args.deadline)
            rules = args.rules if args.game == "tiles" else None
            table_seats(args.game, rules)
            made, token = contests.create(args.title, args.game, deadline, args.games, house, rules)
        except (ContestRefused, TimeError) as exc:
            console.print(f"herna contest: {exc}")
            return 1
        print(f"contest {made.id}: {made.title}, submissions close {_when(made.deadline)}")
        print(f"page: /contests/{made.id}")
        print(f"admin token (shown only now): {token}")
        return 0
    contest = contests.get(args.contest)
    if contest is None:
        console.print(f"herna contest: there is no contest {args.contest}")
        return 1
    entries = contests.entries(contest.id)
    versions = {e.name: e.version.version for e in entries if e.version is not None}
    tour = TournamentStore(engine).get(contest.tournament_id) if contest.tournament_id else None
    if args.csv:
        if tour is None:
            console.print("herna contest: the final has not begun")
            return 1
        print(ranking_csv(final_ranking(engine, tour, versions)), end="")
        return 0
    rules = f", rules {contest.rules}" if contest.rules else ""
    print(f"contest {contest.id}: {contest.title} ({contest.game}{rules})")
    print(f"submissions close {_when(contest.deadline)}")
    for entry in entries:
        which = f"v{entry.version.version}" if entry.version else "no version before the deadline"
        print(f"  {entry.name} by {entry.owner}: {which}")
    if tour is not None:
        print(f"the final (tournament {tour.id}) is {tour.status}:")
        for r in final_ranking(engine, tour, versions):
            share = f"{r.points / r.games:.2f} ({r.low:.2f} to {r.high:.2f})" if r.games else "-"
            print(
                f"  {r.rank}. {r.name}: {r.points:g} points in {r.games} games, {r.wins} wins; "
                f"score per game {share}"
            )
    return 0


def _when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC")

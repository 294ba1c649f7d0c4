"""``herna tournament season ID ID …``: a season (or class) table, the standings of the
chosen tournaments summed (:mod:`herna.hall.tournament.season`), printed or as CSV. Reads
only: it never creates a database."""

from __future__ import annotations

import argparse
import sys

from rich.console import Console
from rich.table import Table

from herna.hall.db import DatabaseUnavailable, shown_url
from herna.hall.records import RecordStore
from herna.hall.tournament.season import (
    SEASON_RULE,
    cell_text,
    part_title,
    season_csv,
    season_table,
)
from herna.hall.tournament.standings import fmt_points
from herna.hall.tournament_store import TournamentStore


def register(
    tsub: argparse._SubParsersAction[argparse.ArgumentParser], default_database: str
) -> None:
    p = tsub.add_parser(
        "season",
        help="a season table: the standings of several tournaments summed (or --csv)",
        description="Sum the standings of the tournaments ID… (points summed; ties by games "
        "won, then the best place in any one of them). The web hall shows the same table at "
        "/tournaments/season?ids=ID,ID (printable).",
        epilog="example: herna tournament season 3 4 7 --csv > season.csv",
    )
    p.add_argument("ids", type=int, nargs="+", metavar="ID", help="the tournaments")
    p.add_argument("--name", default="Season table", help="the table's title")
    p.add_argument("--csv", action="store_true", help="print the table as CSV")
    p.add_argument("--database-url", default=default_database, help="database to read")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    console = Console(highlight=False, soft_wrap=True)
    try:
        records = RecordStore(args.database_url, create=False)
    except DatabaseUnavailable as exc:
        console.print(f"herna tournament: {exc}", style="red")
        return 1
    try:
        store = TournamentStore(records.engine)
        parts = []
        for tid in sorted(set(args.ids)):  # in the order they were held
            tour = store.get(tid)
            if tour is None:
                console.print(
                    f"herna tournament: no tournament {tid} in {shown_url(records.url)}",
                    style="red",
                )
                return 1
            parts.append(tour.season_part())
        rows = season_table(parts)
        if args.csv:
            sys.stdout.write(season_csv(parts, rows))
            return 0
        table = Table(title=args.name, caption=SEASON_RULE)
        for head in ("#", "entrant", "points", *(f"#{p.id}" for p in parts)):
            if head == "entrant":  # a house bot's name has its tournament: it may fold
                table.add_column(head, min_width=12, overflow="fold")
            else:
                table.add_column(head, justify="right", no_wrap=True)
        for head in ("tournaments", "games", "+ = −"):
            table.add_column(head, justify="right", no_wrap=True)
        for r in rows:
            table.add_row(
                str(r.rank),
                r.name,
                fmt_points(r.points),
                *(cell_text(v) for v in r.by_part),
                str(r.played),
                str(r.games),
                f"{r.wins} {r.draws} {r.losses}",
            )
        console.print(table)
        for p in parts:
            console.print(f"  {part_title(p)}")
        console.print(f"(read from {shown_url(records.url)})", style="dim")
    finally:
        records.close()
    return 0

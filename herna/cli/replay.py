"""``herna replay``: list recorded games and print one game's log."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.table import Table

from herna.cli.serve import DEFAULT_DATABASE
from herna.hall.records import RecordStore


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "replay",
        help="list recorded games or print one game's record",
        description="Without MATCH_ID: list the newest recorded games. With it: print that "
        "game's players, result and event log (as JSON with --json).",
    )
    p.add_argument("match_id", nargs="?", type=int, help="id of a recorded game")
    p.add_argument("--game", help="only this game (mia, marias, onitama, tiles)")
    p.add_argument("--player", help="only games with this player")
    p.add_argument("--limit", type=int, default=20, help="how many games to list (default 20)")
    p.add_argument("--database-url", default=DEFAULT_DATABASE, help="database to read")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    store = RecordStore(args.database_url)
    console = Console()
    if args.match_id is None:
        matches = store.matches(game=args.game, player=args.player, limit=args.limit)
        if args.json:
            print(json.dumps([m.to_json(with_events=False) for m in matches], indent=2))
            return 0
        table = Table("id", "game", "table", "finished", "status", "players")
        for m in matches:
            players = ", ".join(
                f"{p.name} {p.score:g}" + ("*" if p.winner else "") for p in m.players
            )
            table.add_row(
                str(m.id),
                m.game,
                m.table_id,
                m.finished_at.strftime("%Y-%m-%d %H:%M:%S"),
                m.status,
                players,
            )
        console.print(table)
        return 0
    match = store.get(args.match_id)
    if match is None:
        console.print(f"[red]no recorded game with id {args.match_id}[/red]")
        return 1
    if args.json:
        print(json.dumps(match.to_json(), indent=2, ensure_ascii=False))
        return 0
    console.print(
        f"[bold]#{match.id} {match.game}[/bold] table {match.table_id} "
        f"seed {match.seed} {match.status}"
    )
    for p in match.players:
        console.print(
            f"  seat {p.seat}: {p.name} ({p.kind}) score {p.score:g}"
            + (" winner" if p.winner else "")
        )
    console.print(f"  result: {json.dumps(match.result, ensure_ascii=False)}")
    for i, (kind, data) in enumerate(match.events):
        console.print(f"  {i:4d} {kind:12s} {json.dumps(data, ensure_ascii=False)}")
    return 0

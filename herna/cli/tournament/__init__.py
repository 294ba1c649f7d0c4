"""``herna tournament``: round robins, Swiss tournaments and arenas between bot programs and
house bots, played on Herna's own servers and stored in the hall's database.

``run`` plays a tournament and shows a live standings table; ``list`` and ``show`` read
stored ones (``show --csv/--json`` exports the final table). The pairings, standings and
tie-breaks are :mod:`herna.hall.tournament`; one board is played by
:mod:`herna.cli.tournament.boards` with the machinery of ``herna match``. See
``docs/tournaments.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

from rich.console import Console
from rich.live import Live
from rich.table import Table

from herna.core.rng import SeedSource
from herna.hall.db import DatabaseUnavailable, shown_url
from herna.hall.hall import Hall
from herna.hall.identity import Identity, ReservedNames
from herna.hall.records import RecordStore
from herna.hall.tournament import FORMATS, TIE_BREAK_NAMES, Board, Game, Row, fmt_points
from herna.hall.tournament.export import table_csv, table_json
from herna.hall.tournament_runner import Runner, RunOptions
from herna.hall.tournament_store import Entrant, Tournament, TournamentStore

from ..match.entrants import HOUSE_PREFIX, EntrantSpec, MatchError, parse_entrant
from . import live, season
from .boards import GAMES, HOUSE_STRATEGIES, TABLE_SIZES, BoardOptions, play_board
from .session import run_session

DEFAULT_DATABASE = "sqlite:///var/herna.db"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "tournament",
        help="run a round robin, Swiss, arena or Mia session between bots; list and show them; "
        "create, start and abort live ones in a running hall",
        description="Tournaments between bot programs and house bots on Herna's own servers; "
        "results go to the hall's database, where the web hall shows them at /tournaments. "
        "See docs/tournaments.md.",
    )
    tsub = p.add_subparsers(dest="tournament_command", metavar="COMMAND", required=True)
    run_p = tsub.add_parser(
        "run",
        help="play a tournament",
        description="Play a tournament between ENTRANTs on servers started for it on free "
        "127.0.0.1 "
        "ports, with a live standings table, and store it in the database. An ENTRANT is "
        "[NAME=]house:STRATEGY[:DEPTH] (one of Herna's bots, in-process) or [NAME=]'COMMAND' "
        "(a bot program, run as in 'herna match': HERNA_HOST, HERNA_PORT, HERNA_NAME, "
        "HERNA_TOKEN and HERNA_GAME in its environment, {host} {port} {name} {game} and, for "
        "tiles, {rules} in its command line). Round robin: everyone meets everyone (--cycles "
        "times, colours swapped); for games of more than two seats (tiles: 4, mariáš: 3) tables "
        "rotate seats so everyone takes each seat once. Swiss: --rounds rounds paired by score (no "
        "rematches, colours balanced, the bye to the lowest). Arena: for --duration seconds, "
        "entrants are paired again as soon as they finish, by rank, never with their last "
        "opponent. Session (Mia only): everyone at one Mia table for --duration seconds, "
        "ranked by the points made. A bot that crashes, stalls, runs out of time or plays an "
        "illegal move loses that game; one that does not log in within --start-timeout loses "
        "it as a no-show.",
        epilog="example: herna tournament run --game onitama --format round-robin "
        "house:random house:greedy house:alphabeta:1 house:alphabeta:2",
    )
    run_p.add_argument("entrants", metavar="ENTRANT", nargs="+", help="who plays (see above)")
    run_p.add_argument("--game", choices=GAMES, default="onitama", help="the game")
    run_p.add_argument("--format", choices=FORMATS, default="round-robin", help="the format")
    run_p.add_argument("--name", help="the tournament's name (default: game and format)")
    run_p.add_argument(
        "--rounds",
        type=_positive,
        help="Swiss: rounds (default ceil(log2 entrants), at least 3); tables in a round "
        "robin: rounds (default: one per seat)",
    )
    run_p.add_argument(
        "--cycles", type=_positive, default=1, help="round robin: times each pair meets"
    )
    run_p.add_argument(
        "--duration",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="arena: time during which new games start; Mia session: its length (default 60)",
    )
    run_p.add_argument(
        "--concurrency",
        type=_positive,
        default=2,
        metavar="K",
        help="games at the same time, each on its own server (default 2)",
    )
    run_p.add_argument(
        "--seed",
        type=int,
        help="derive every deal and house bot from this number (default: from the secrets "
        "module, printed and stored with the tournament)",
    )
    run_p.add_argument(
        "--game-clock",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="Onitama: thinking time per side for a whole game (default 60, 0: no clock)",
    )
    run_p.add_argument(
        "--stall",
        type=float,
        default=15.0,
        metavar="SECONDS",
        help="Onitama: a program silent this long loses the game (forfeit 'stall'); tiles: "
        "the turn timeout, after which a random legal action is played (default 15)",
    )
    run_p.add_argument(
        "--start-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="a player not seated this long after its game is due loses it (forfeit "
        "'no-show'; default 30)",
    )
    run_p.add_argument(
        "--rules",
        default="gold_rush",
        help="tiles: the shipped rules file every table plays (default gold_rush)",
    )
    run_p.add_argument(
        "--deals",
        type=_positive,
        default=3,
        help="mariáš: games a table plays (default 3: each seat deals once)",
    )
    run_p.add_argument(
        "--database-url",
        default=DEFAULT_DATABASE,
        help=f"the hall's database, where the tournament and its games go ({DEFAULT_DATABASE})",
    )
    run_p.add_argument(
        "--log-dir",
        type=Path,
        metavar="DIR",
        help="keep each program's output here (default: a temporary directory)",
    )
    run_p.add_argument("--json", type=Path, metavar="FILE", help="also write the final table")
    run_p.set_defaults(func=run)

    list_p = tsub.add_parser("list", help="list stored tournaments")
    list_p.add_argument("--database-url", default=DEFAULT_DATABASE, help="database to read")
    list_p.set_defaults(func=list_tournaments)

    show_p = tsub.add_parser(
        "show", help="a stored tournament's standings and games (or --csv/--json)"
    )
    show_p.add_argument("id", type=int, metavar="ID")
    show_p.add_argument("--database-url", default=DEFAULT_DATABASE, help="database to read")
    fmt = show_p.add_mutually_exclusive_group()
    fmt.add_argument("--csv", action="store_true", help="print the final table as CSV")
    fmt.add_argument("--json", action="store_true", help="print table, crosstable and games")
    show_p.set_defaults(func=show)
    live.register(tsub)
    season.register(tsub, DEFAULT_DATABASE)


# -- entrants ----------------------------------------------------------------------------------
def parse_entrants(game: str, texts: list[str], rules: str = "") -> dict[str, EntrantSpec]:
    """``[NAME=]SPEC`` each; names default to the house strategy (``alphabeta-2``) or
    ``bot-N``, made unique with a suffix; ``{rules}`` in a command is the tiles rules file.
    Raises :class:`MatchError`."""
    specs: dict[str, EntrantSpec] = {}
    for i, text in enumerate(texts, 1):
        name, sep, rest = text.partition("=")
        if sep and _NAME.match(name) and not name.startswith(HOUSE_PREFIX[:-1] + "-"):
            spec_text = rest
        else:
            name, spec_text = "", text
        if not name:
            if spec_text.startswith(HOUSE_PREFIX):
                name = spec_text[len(HOUSE_PREFIX) :].replace(":", "-")
            else:
                name = f"bot-{i}"
            base, n = name, 2
            while name in specs:
                name, n = f"{base}-{n}", n + 1
        if not _NAME.match(name):
            raise MatchError(f"{name!r}: a name is letters, digits, '_', '-' and '.' (≤ 32)")
        if name.startswith("house-"):
            raise MatchError(f"{name!r}: names house-N belong to the servers' own bots")
        if name in specs:
            raise MatchError(f"two entrants are called {name!r}")
        spec = parse_entrant(name, spec_text, HOUSE_STRATEGIES[game])
        if game == "marias" and spec.house is None:
            raise MatchError(f"{name}: mariáš tables take house bots only (house:STRATEGY)")
        argv = tuple(a.replace("{rules}", rules) for a in spec.argv)
        specs[name] = EntrantSpec(spec.label, spec.text, argv, spec.house, spec.depth, login=name)
    return specs


# -- run ---------------------------------------------------------------------------------------
def run(args: argparse.Namespace) -> int:
    console = Console(highlight=False, soft_wrap=True)
    try:
        specs = parse_entrants(args.game, args.entrants, args.rules)
        size = TABLE_SIZES[args.game]
        if len(specs) < size:
            raise MatchError(f"{args.game} needs at least {size} entrants")
        if args.format in ("arena", "session") and args.duration <= 0:
            raise MatchError("--duration must be positive")
        if (args.game == "mia") != (args.format == "session"):
            raise MatchError(
                "Mia is played as a session (--game mia --format session), "
                "and a session is a Mia evening"
            )
    except MatchError as exc:
        console.print(f"herna tournament: {exc}", style="red")
        return 2
    seed = args.seed if args.seed is not None else SeedSource().next_seed()
    try:
        records = RecordStore(args.database_url)
    except DatabaseUnavailable as exc:
        console.print(f"herna tournament: {exc}", style="red")
        return 1
    identity = Identity(ReservedNames(records.engine))
    for entrant in specs:
        reserved = identity.reserved_spelling(entrant)
        if reserved is not None:
            records.close()
            console.print(
                f"herna tournament: {entrant!r} is a reserved name ({reserved!r}, herna bots "
                "add): only its token holder may play under it, and a tournament plays under "
                f"names of its own; choose another, e.g. {entrant}.t1",
                style="red",
            )
            return 2
    store = TournamentStore(records.engine)
    settings = {
        "seed": seed,
        "rounds": args.rounds,
        "cycles": args.cycles,
        "duration": args.duration if args.format in ("arena", "session") else None,
        "game_clock": args.game_clock,
        "stall": args.stall,
        "start_timeout": args.start_timeout,
        "rules": args.rules if args.game == "tiles" else None,
        "deals": args.deals if args.game == "marias" else None,
        "table_size": size,
    }
    name = args.name or f"{args.game} {args.format}"
    entrants = [
        Entrant(n, "house-bot" if s.house is not None else "bot", s.text) for n, s in specs.items()
    ]
    tournament_id = store.create(name, args.game, args.format, entrants, settings)
    started = time.monotonic()
    error: str | None = None
    with tempfile.TemporaryDirectory(prefix="herna-tournament-") as temp:
        log_dir = args.log_dir or Path(temp)
        log_dir.mkdir(parents=True, exist_ok=True)
        options = RunOptions(
            game=args.game,
            format=args.format,
            size=size,
            rounds=args.rounds,
            cycles=args.cycles,
            duration=args.duration,
            concurrency=args.concurrency,
        )
        board_options = BoardOptions(
            seed=seed,
            stall=args.stall,
            game_clock=args.game_clock,
            start_timeout=args.start_timeout,
            log_dir=log_dir,
            rules=args.rules,
            deals=args.deals,
        )
        hall = Hall(records=records)
        tokens = {name: hall.identity.reserve_house_bot(name) for name in specs}

        async def play(board: Board, serial: int) -> Game:
            return await play_board(hall, args.game, board, serial, specs, tokens, board_options)

        runner = Runner(store, tournament_id, list(specs), options, play)
        live = Live(
            _live_table(name, runner), console=console, refresh_per_second=4, transient=True
        )

        def show() -> None:
            if console.is_terminal:
                live.update(_live_table(name, runner))

        runner.on_change = show
        try:
            if console.is_terminal:
                live.start()
            if args.format == "session":
                asyncio.run(_session(hall, store, tournament_id, specs, args, seed, log_dir, live))
            else:
                asyncio.run(_play(hall, runner))
        except MatchError as exc:
            error = str(exc)
        except KeyboardInterrupt:
            error = "interrupted"
        except BaseException:
            # A bug: the traceback is for the report, the stored tournament says "aborted".
            store.finish(tournament_id, "aborted")
            records.close()
            raise
        finally:
            if console.is_terminal:
                live.stop()
    elapsed = time.monotonic() - started
    store.finish(tournament_id, "aborted" if error else "finished")
    records.flush()
    store.link_matches(tournament_id)
    tour = store.get(tournament_id)
    records.close()
    assert tour is not None
    if error is not None:
        console.print(
            f"herna tournament: {error} (tournament {tournament_id} aborted)", style="red"
        )
        return 1
    played = sum(1 for g in tour.games if not g.board.bye)
    if tour.format == "session":
        first, last = tour.settings.get("first_match"), tour.settings.get("last_match")
        played = (last - first + 1) if first and last else 0
    rate = played / elapsed if elapsed > 0 else 0.0
    unit = "rounds" if tour.format == "session" else "games"
    console.print(
        f"herna tournament {tournament_id}: {name}, {played} {unit} in {elapsed:.1f} s "
        f"({rate:.2f} {unit}/s, concurrency {args.concurrency}), seed {seed}"
    )
    print_tournament(console, tour)
    if args.json is not None:
        rows = tour.standings()
        data = table_json(rows, tour.tie_breaks, tour.crosstable(rows), tour.games)
        data.update(tour.summary_json(), seconds=elapsed, games_per_second=rate)
        args.json.write_text(json.dumps(data, indent=2) + "\n")
    return 0


async def _session(
    hall: Hall,
    store: TournamentStore,
    tournament_id: int,
    specs: dict[str, EntrantSpec],
    args: argparse.Namespace,
    seed: int,
    log_dir: Path,
    live: Live,
) -> None:
    title = args.name or "mia session"

    def show(scores: dict[str, int]) -> None:
        table = Table(title=f"{title}: points this session")
        table.add_column("entrant")
        table.add_column("points", justify="right")
        for who, points in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0])):
            table.add_row(who, str(points))
        live.update(table)

    try:
        await run_session(hall, store, tournament_id, specs, args.duration, seed, log_dir, show)
    finally:
        await hall.stop()


async def _play(hall: Hall, runner: Runner) -> None:
    try:
        await runner.run()
    finally:
        await hall.stop()


def _live_table(name: str, runner: Runner) -> Table:
    rows = runner.standings()
    table = Table(
        title=f"{name}: {len(runner.games)} boards decided, {len(runner.playing)} playing"
    )
    _standings_columns(table, runner.options.tie_breaks())
    for r in rows:
        table.add_row(*_standings_cells(r, runner.options.tie_breaks()))
    return table


def _standings_columns(table: Table, tie_breaks: tuple[str, ...]) -> None:
    table.add_column("#", justify="right")
    table.add_column("entrant")
    table.add_column("points", justify="right")
    for tb in tie_breaks:
        table.add_column(TIE_BREAK_NAMES[tb], justify="right")
    table.add_column("games", justify="right")
    table.add_column("+ = −", justify="right")


def _standings_cells(r: Row, tie_breaks: tuple[str, ...]) -> list[str]:
    return [
        str(r.rank),
        r.name,
        fmt_points(r.points),
        *(fmt_points(r.tie_breaks[tb]) for tb in tie_breaks),
        str(r.games),
        f"{r.wins} {r.draws} {r.losses}",
    ]


def print_tournament(console: Console, tour: Tournament) -> None:
    rows = tour.standings()
    if tour.format == "session":
        board = Table(title=f"{tour.name} (Mia session, {tour.status}): points this session")
        board.add_column("#", justify="right")
        board.add_column("entrant")
        board.add_column("points", justify="right")
        for r in rows:
            board.add_row(str(r.rank), r.name, fmt_points(r.points))
        console.print(board)
        return
    table = Table(title=f"{tour.name} ({tour.game}, {tour.format}, {tour.status})")
    _standings_columns(table, tour.tie_breaks)
    for r in rows:
        table.add_row(*_standings_cells(r, tour.tie_breaks))
    console.print(table)
    cross = tour.crosstable(rows)
    grid = Table(title="crosstable (row's points against column)")
    grid.add_column("")
    for i, _ in enumerate(cross.names, 1):
        grid.add_column(str(i), justify="center")
    grid.add_column("total", justify="right")
    for i, a in enumerate(cross.names, 1):
        cells = []
        for b in cross.names:
            if a == b:
                cells.append("·")
                continue
            games = cross.cells.get((a, b), ())
            if tour.settings.get("table_size", 2) > 2:
                # Tables: one sum per opponent (a game's share is a fraction of a point).
                cells.append(fmt_points(sum((c.points for c in games), Fraction(0))))
            else:
                cells.append(" ".join(fmt_points(c.points) for c in games))
        grid.add_row(f"{i} {a}", *cells, fmt_points(cross.row_total(a)))
    console.print(grid)


# -- list / show -------------------------------------------------------------------------------
def _store(args: argparse.Namespace) -> tuple[RecordStore, TournamentStore]:
    """The stores of a command that only reads: it never creates a database."""
    records = RecordStore(args.database_url, create=False)
    return records, TournamentStore(records.engine)


def list_tournaments(args: argparse.Namespace) -> int:
    console = Console(highlight=False, soft_wrap=True)
    records, store = _store(args)
    try:
        table = Table(title="tournaments", caption=f"in {shown_url(records.url)}")
        for col in ("id", "name", "game", "format", "status", "entrants", "created"):
            table.add_column(col)
        for t in store.recent():
            table.add_row(
                str(t.id),
                t.name,
                t.game,
                t.format,
                t.status,
                str(len(t.entrants)),
                t.created_at.strftime("%Y-%m-%d %H:%M"),
            )
        console.print(table)
    finally:
        records.close()
    return 0


def show(args: argparse.Namespace) -> int:
    console = Console(highlight=False, soft_wrap=True)
    records, store = _store(args)
    try:
        tour = store.get(args.id)
        if tour is None:
            console.print(
                f"herna tournament: no tournament {args.id} in {shown_url(records.url)}",
                style="red",
            )
            return 1
        rows = tour.standings()
        if args.csv:
            sys.stdout.write(table_csv(rows, tour.tie_breaks))
        elif args.json:
            data = table_json(rows, tour.tie_breaks, tour.crosstable(rows), tour.games)
            data.update(tour.summary_json())
            sys.stdout.write(json.dumps(data, indent=2) + "\n")
        else:
            print_tournament(console, tour)
            console.print(f"(read from {shown_url(records.url)})", style="dim")
    finally:
        records.close()
    return 0

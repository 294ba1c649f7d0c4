"""``herna tournament create|start|abort``: live tournaments held in a running hall, through
its web hall's JSON API (``POST /api/tournaments``, ``…/start``, ``…/abort``; see
``docs/tournaments.md``, "Live tournaments in herna serve")."""

from __future__ import annotations

import argparse
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from herna.hall.tournament_timetable import TimeError, iso, parse_duration, parse_start

DEFAULT_HALL = "http://127.0.0.1:8080"


def register(tsub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    create = tsub.add_parser(
        "create",
        help="hold a live tournament in a running hall (prints its admin token)",
        description="Create a live tournament in the hall at --hall (herna serve's web hall): "
        "entrants then come over the game's own protocol under their reserved names (bots) "
        "or at the play page (signed-in people). Prints the tournament's id, page and admin "
        "token: keep the token, it is shown only now; 'herna tournament start ID --token "
        "TOKEN' starts it.",
        epilog="example: herna tournament create --game onitama --format swiss --rounds 4 "
        "--name 'Friday club'",
    )
    create.add_argument("--hall", default=DEFAULT_HALL, help=f"the web hall ({DEFAULT_HALL})")
    create.add_argument("--name", default="Tournament", help="its name")
    create.add_argument("--game", choices=("onitama", "tiles", "marias", "mia"), default="onitama")
    create.add_argument(
        "--format", choices=("round-robin", "swiss", "arena", "session"), default="round-robin"
    )
    create.add_argument(
        "--admits", choices=("anyone", "bots", "people"), default="anyone", help="who may enter"
    )
    create.add_argument("--rounds", type=int, help="Swiss: rounds")
    create.add_argument("--cycles", type=int, default=1, help="round robin: times pairs meet")
    create.add_argument("--minutes", type=float, default=10.0, help="arena or Mia session")
    create.add_argument(
        "--start-timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="seconds an entrant has to come when its board is due (then: no-show)",
    )
    create.add_argument(
        "--house", default="", help="Onitama: levels of house bots that enter (easy,hard)"
    )
    create.add_argument("--rules", default="gold_rush", help="tiles: the shipped rules file")
    create.add_argument("--deals", type=int, default=3, help="mariáš: deals a table plays")
    create.add_argument(
        "--entrants",
        type=Path,
        metavar="FILE",
        help="an entry list: one name a line, or a CSV whose first column is the name (a "
        "header 'name' is skipped). Each is entered now; a name nobody has yet is reserved for "
        "its entrant and its token printed (shown only now)",
    )
    create.add_argument(
        "--seeding",
        choices=("entry", "rating"),
        default="entry",
        help="the order of the first round: the entry list's (then as entrants came), or by "
        "rating in the game, best first (default entry)",
    )
    create.add_argument(
        "--starts-at",
        metavar="WHEN",
        help="start by itself at this date and time (e.g. 2026-12-01T14:00, your local time "
        "unless it names an offset); entries are open until then",
    )
    create.add_argument(
        "--pause",
        default="",
        metavar="TIME",
        help="a pause between rounds (e.g. 2m, 90s): each round starts that long after the "
        "round before ended; the tournament page shows the timetable",
    )
    create.set_defaults(func=run_create)
    for verb, what in (("start", "start pairing its entrants"), ("abort", "end it now")):
        p = tsub.add_parser(verb, help=f"{what} (a live tournament; needs its admin token)")
        p.add_argument("id", type=int, metavar="ID")
        p.add_argument("--token", required=True, help="the tournament's admin token")
        p.add_argument("--hall", default=DEFAULT_HALL, help=f"the web hall ({DEFAULT_HALL})")
        p.set_defaults(func=run_action, action=verb)


def _post(url: str, body: dict[str, Any], token: str | None = None) -> tuple[int, dict[str, Any]]:
    headers = {"content-type": "application/json"}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        try:
            return exc.code, json.loads(exc.read())
        except ValueError:
            return exc.code, {"error": exc.reason}


def _ask(
    hall: str, path: str, body: dict[str, Any], expected: int, token: str | None = None
) -> dict[str, Any] | None:
    """The hall's answer, or None after saying why there is none."""
    try:
        status, answer = _post(f"{hall}{path}", body, token)
    except OSError as exc:
        print(f"herna tournament: no hall at {hall} ({exc})")
        return None
    if status != expected:
        print(f"herna tournament: {answer.get('error', status)}")
        return None
    return answer


def run_create(args: argparse.Namespace) -> int:
    body: dict[str, Any] = {
        "name": args.name,
        "game": args.game,
        "format": args.format,
        "admits": args.admits,
        "cycles": args.cycles,
        "minutes": args.minutes,
        "start_timeout": args.start_timeout,
        "house": [w for w in args.house.split(",") if w.strip()],
        "deals": args.deals,
        "seeding": args.seeding,
    }
    try:
        if args.starts_at:
            body["starts_at"] = iso(parse_start(args.starts_at))
        body["pause"] = str(parse_duration(args.pause))
    except TimeError as exc:
        print(f"herna tournament: {exc}")
        return 2
    if args.entrants is not None:
        try:
            body["entrants"] = args.entrants.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            print(f"herna tournament: cannot read the entry list {args.entrants}: {exc}")
            return 2
    if args.rounds is not None:
        body["rounds"] = args.rounds
    if args.game == "tiles":
        body["rules"] = args.rules
    hall = args.hall.rstrip("/")
    answer = _ask(hall, "/api/tournaments", body, expected=201)
    if answer is None:
        return 1
    print(f"tournament {answer['id']}: {hall}{answer['url']} (taking entrants)")
    print(f"admin token (shown only now): {answer['admin_token']}")
    tokens = answer.get("entrant_tokens") or {}
    if tokens:
        print("entrants (entered now) and their tokens, shown only now (empty: it keeps its own):")
        print("name,token")
        for name, token in tokens.items():
            print(f"{name},{token}")
    print(f"start it: herna tournament start {answer['id']} --hall {hall} --token TOKEN")
    return 0


def run_action(args: argparse.Namespace) -> int:
    hall = args.hall.rstrip("/")
    answer = _ask(hall, f"/api/tournaments/{args.id}/{args.action}", {}, 200, args.token)
    if answer is None:
        return 1
    print(f"tournament {answer['id']}: {answer['status']}")
    return 0

"""``herna replay``: list recorded games of every game and show one game as readable text.

Without MATCH_ID it lists the newest matches of each game on record (``--last N`` per game,
so thousands of Mia rounds do not bury the mariáš deals), each with its result in words.
With MATCH_ID it tells the game as text built from the stored log by the game's own rules
engine (:data:`herna.hall.replays.TEXTS`). ``--json`` prints the raw stored form instead;
``--csv`` a player's results. ``--review`` adds the game's review: of an Onitama game the
engine's (the evaluation after every move, the best move where the played one cost a lot, the
counts of inaccuracies, mistakes and blunders), of a mariáš deal where the money went (each
card's double-dummy value, the costly cards, the house bot's advice on the auction): the
stored one, or computed here and stored once.

The host reads the database directly, so the text shows everything the record holds (Mia's
dice under the cup too); the web hall's public text hides what spectators never saw.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from sqlalchemy import select
from sqlalchemy.orm import Session

from herna.cli.language import add_language_option
from herna.cli.serve import DEFAULT_DATABASE
from herna.hall.db import MatchRow
from herna.hall.export import results_csv
from herna.hall.records import RecordStore, StoredMatch
from herna.hall.replays import match_summary, match_text
from herna.hall.reviews import REVIEWERS, ReviewStore, compute, review_text


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "replay",
        help="list recorded games or tell one game as text",
        description="Without MATCH_ID: list the newest recorded matches of every game (the "
        "last N of each game), with who played and the result in words. With MATCH_ID: tell "
        "that match as text — mariáš: the deal, bidding, talon, every trick and the "
        "settlement; Onitama: the moves in notation and the board; tiles: the turns; Mia: the "
        "rolls and announcements. --json prints the raw stored record instead.",
    )
    p.add_argument("match_id", nargs="?", type=int, help="id of a recorded match")
    p.add_argument("--game", help="only this game (mia, marias, onitama, tiles)")
    p.add_argument("--player", help="only matches this player took part in")
    p.add_argument(
        "--last",
        "--limit",
        dest="last",
        type=int,
        default=10,
        metavar="N",
        help="list the newest N matches of each game (default 10)",
    )
    p.add_argument(
        "--move",
        type=int,
        metavar="K",
        help="with MATCH_ID: draw the board after move K (Onitama; tiles: turn K; 0 = start)",
    )
    p.add_argument(
        "--review",
        action="store_true",
        help="with MATCH_ID: the review of the game, computed and stored if not yet. Onitama: "
        "the engine's evaluation after every move in pawns and White's win chance, the best "
        "move where the played one lost a lot, inaccuracies/mistakes/blunders per player. "
        "Mariáš: each card's value for the aktér with all hands open (double dummy), the "
        "cards that cost money with those that would have kept it, and the strongest house "
        "bot's advice on the licitace, the announcement and the fleks",
    )
    p.add_argument("--database-url", default=DEFAULT_DATABASE, help="database to read")
    add_language_option(p, "the mariáš words (English keeps the Czech game terms, glossed)")
    p.add_argument("--json", action="store_true", help="print the raw stored record(s) as JSON")
    p.add_argument(
        "--csv",
        action="store_true",
        help="with --player: print the player's results (the listed matches) as CSV",
    )
    p.set_defaults(func=run)


def _games(store: RecordStore, game: str | None) -> list[str]:
    if game:
        return [game]
    with Session(store.engine) as session:
        return sorted(session.scalars(select(MatchRow.game).distinct()).all())


def _listing(store: RecordStore, args: argparse.Namespace) -> list[tuple[str, list[StoredMatch]]]:
    """The newest ``--last`` matches of each game (one query per game, on its index)."""
    return [
        (game, store.matches(game=game, player=args.player, limit=max(0, args.last)))
        for game in _games(store, args.game)
    ]


def run(args: argparse.Namespace) -> int:
    store = RecordStore(args.database_url, create=False)
    lang = getattr(args, "language", "en")
    console = Console(highlight=False)
    if args.match_id is None:
        listing = _listing(store, args)
        if args.csv:
            if not args.player:
                print("herna replay: --csv needs --player NAME (whose results?)", file=sys.stderr)
                return 2
            matches = sorted((m for _, ms in listing for m in ms), key=lambda m: -m.id)
            sys.stdout.write(results_csv(matches, args.player))
            return 0
        if args.json:
            flat = sorted((m for _, ms in listing for m in ms), key=lambda m: -m.id)
            print(json.dumps([m.to_json(with_events=False) for m in flat], indent=2))
            return 0
        if not listing:
            console.print("No recorded matches.")
        for game, matches in listing:
            words = HEADER_WORDS.get(lang, HEADER_WORDS["en"])
            table = Table(*words["heads"], title=game)
            for m in matches:
                players = ", ".join(
                    f"{p.name} {p.score:g}" + ("*" if p.winner else "") for p in m.players
                )
                table.add_row(
                    str(m.id),
                    m.finished_at.strftime("%Y-%m-%d %H:%M:%S"),
                    words["listed"].get(m.status, m.status),
                    escape(players),
                    escape(match_summary(m, lang)),
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
    for line in _header(match, lang):
        print(line)
    print()
    for line in match_text(match, public=False, move=args.move, lang=lang):
        print(line)
    if args.review:
        return _review(store, match)
    return 0


HEADER_WORDS: dict[str, dict[str, Any]] = {
    "en": {
        "games": {"marias": "mariáš", "mia": "Mia", "onitama": "Onitama", "tiles": "tile game"},
        "kinds": {"house-bot": "house bot", "human": "person", "unknown": "kind not known"},
        "status": {"aborted": "stopped before the end", "canceled": "canceled before it began"},
        "title": "Game #{id}: {game}, finished {when}",
        "seat": "  seat {n}: {name} ({kind}), score {score}",
        "winner": ", winner",
        "table": "  (table {table}, random seed {seed}: the seed and the moves replay it)",
        "result": "Result: {summary}",
        "heads": ("id", "finished (UTC)", "status", "players", "result"),
        "listed": {},
    },
    "cs": {
        "games": {"marias": "mariáš", "mia": "Mia", "onitama": "Onitama", "tiles": "hra s dílky"},
        "kinds": {"house-bot": "bot herny", "human": "člověk", "unknown": "druh neznámý"},
        "status": {"aborted": "zastavena před koncem", "canceled": "zrušena před začátkem"},
        "title": "Hra č. {id}: {game}, skončila {when}",
        "seat": "  místo {n}: {name} ({kind}), skóre {score}",
        "winner": ", vítěz",
        "table": "  (stůl {table}, náhodné semínko {seed}: semínko a tahy hru přehrají)",
        "result": "Výsledek: {summary}",
        "heads": ("č.", "skončila (UTC)", "stav", "hráči", "výsledek"),
        "listed": {"finished": "dohraná", "aborted": "zastavená", "canceled": "zrušená"},
    },
}
"""The header's and the listing's words by language: the game's name (its id stays in
--json), a player's kind as records keep it (``bot`` and ``person`` say themselves), a
record's status."""


def _header(match: StoredMatch, lang: str) -> list[str]:
    """What a person reads first: the game, when, how it ended; seats counted from 1 as the
    pages count them. The table id and seed (for designers) come last, said what they are."""
    w = HEADER_WORDS.get(lang, HEADER_WORDS["en"])
    game = w["games"].get(match.game, match.game)
    when = f"{match.finished_at:%Y-%m-%d %H:%M:%S} UTC"
    lines = [w["title"].format(id=match.id, game=game, when=when)]
    if match.status != "finished":
        lines[0] += ", " + w["status"].get(match.status, match.status.replace("_", " "))
    for p in match.players:
        kind = w["kinds"].get(p.kind, p.kind)
        line = w["seat"].format(n=p.seat + 1, name=p.name, kind=kind, score=f"{p.score:g}")
        lines.append(line + (w["winner"] if p.winner else ""))
    lines.append(w["table"].format(table=match.table_id, seed=match.seed))
    lines.append(w["result"].format(summary=match_summary(match, lang)))
    return lines


REVIEW_WAIT = 300.0
"""Seconds ``--review`` waits for a review another process is computing."""


def _review(store: RecordStore, match: StoredMatch) -> int:
    if match.game not in REVIEWERS:
        print(f"herna replay: there is no review of {match.game} games", file=sys.stderr)
        return 2
    reviews = ReviewStore(store.engine)
    found = reviews.get(match.id)
    if found is None or found.status != "done":
        if reviews.claim(match.id):
            print("(computing the review…)", file=sys.stderr)
            compute(store.url, match.id)  # this command's own process: no server waits
        deadline = time.monotonic() + REVIEW_WAIT
        while (found := reviews.get(match.id)) is not None and found.status == "computing":
            if time.monotonic() > deadline:
                print("herna replay: the review is still being computed", file=sys.stderr)
                return 1
            time.sleep(0.5)
    if found is None or found.status != "done":
        why = found.data.get("error") if found is not None else "not computed"
        print(f"herna replay: no review: {why}", file=sys.stderr)
        return 1
    names = {str(p.seat): p.name for p in match.players}
    if match.game == "onitama":
        names.update({("white", "black")[p.seat]: p.name for p in match.players if p.seat < 2})
    print()
    for line in review_text(match.game, found.data, names):
        print(line)
    return 0

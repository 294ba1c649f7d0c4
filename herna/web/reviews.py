"""The review pages: ``/matches/ID/review`` (the engine's review of a finished Onitama game:
White's win chance after every move as a chart, the counts of inaccuracies, mistakes and
blunders per player with the thresholds, and every costly move with the engine's best one;
the review of a mariáš deal: :mod:`herna.web.review_marias`) and ``/play/onitama/review``,
``/play/marias/review`` (the result panel's link: the review of the game or deal this
browser's player just finished).

The review itself is computed once, in a worker process (:class:`herna.hall.reviews.Reviewer`);
a page only asks for it and shows "computing…" (reloading itself) until it is stored. Games
with a person in them are reviewed without being asked: :meth:`ReviewPages.watch` looks for
them after every ``game_over`` of a reviewed game on the hall's bus.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from herna.hall.events import EventBus
from herna.hall.records import RecordStore
from herna.hall.reviews import REVIEWERS, Reviewer, ReviewStore
from herna.web.guests import Guests
from herna.web.params import MATCH_ID, NotFound, endpoint
from herna.web.review_marias import marias_review_body

log = logging.getLogger("herna.web")
e = html.escape

Page = Callable[..., Response]

REFRESH = 2
"""Seconds between reloads of a page waiting for its review."""
RECENT = timedelta(minutes=10)
"""How recent a person's game must be for the result panel's link to mean it."""
SCAN_DELAY = 1.0
"""Seconds after a game's end before looking for it in the records (the writer commits
within about 50 ms, under load later; a later scan finds what this one missed)."""

TITLES = {"onitama": ("Engine review", "Onitama"), "marias": ("Deal review", "mariáš")}
"""Each reviewed game's page title and the game's name in the heading."""
WAITING = {
    "onitama": "the engine looks at every move",
    "marias": "every card is solved with all hands open, and the house bot weighs the bidding",
}
"""What a page waiting for its review says is going on."""

WIDTH, HEIGHT = 720, 240
LEFT, RIGHT, TOP, BOTTOM = 64, 12, 12, 40
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
STYLE = """<style>
.review-chart .half { stroke: var(--muted); stroke-dasharray: 4 4; }
.review-chart .white-area { fill: var(--accent); opacity: .15; }
.review-chart .blunder { fill: #c0392b; } .review-chart .mistake { fill: #e67e22; }
.review-chart .inaccuracy { fill: #d4ac0d; }
.review-moves td.v-blunder { color: #c0392b; font-weight: bold; }
.review-moves td.v-mistake { color: #e67e22; font-weight: bold; }
.review-table-wrap { overflow-x: auto; }
.review-moves .best-move { display: block; font-size: .85rem; color: var(--muted); }
@media (max-width: 600px) {
  #review-counts th, #review-counts td, .review-moves th, .review-moves td {
    padding: .2rem .25rem; font-size: .85rem; }
}
</style>"""


def chart(review: dict[str, Any]) -> str:
    """White's win chance after every ply as an inline SVG, costly moves marked."""
    values = [review["start"]["win_chance"]] + [p["win_chance"] for p in review["plies"]]
    n = max(1, len(values) - 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(i: int) -> float:
        return LEFT + i / n * plot_w

    def py(v: float) -> float:
        return TOP + (100 - v) / 100 * plot_h

    line = " ".join(f"{px(i):.1f},{py(v):.1f}" for i, v in enumerate(values))
    area = f"{px(0):.1f},{py(0):.1f} {line} {px(len(values) - 1):.1f},{py(0):.1f}"
    grid = "".join(
        f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{py(t):.1f}" y2="{py(t):.1f}"/>'
        f'<text class="tick" x="{LEFT - 6}" y="{py(t) + 4:.1f}" text-anchor="end">{t} %</text>'
        for t in (0, 25, 75, 100)
    )
    step = max(1, round(n / 10))
    xticks = "".join(
        f'<text class="tick" x="{px(i):.1f}" y="{TOP + plot_h + 16}" text-anchor="middle">'
        f"{i}</text>"
        for i in range(0, n + 1, step)
    )
    dots = "".join(
        f'<circle class="{p["class"]}" cx="{px(i + 1):.1f}" cy="{py(p["win_chance"]):.1f}" '
        f'r="4"><title>{p["ply"]}. {e(p["move"])}: {e(p["class"])}</title></circle>'
        for i, p in enumerate(review["plies"])
        if p["class"] in MARKS
    )
    return (
        '<figure class="rating-chart review-chart" id="review-chart">'
        f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" role="img" xmlns="http://www.w3.org/2000/svg" '
        'aria-label="White\'s win chance after every move">'
        f'{grid}<line class="half" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{py(50):.1f}" '
        f'y2="{py(50):.1f}"/><text class="tick" x="{LEFT - 6}" y="{py(50) + 4:.1f}" '
        'text-anchor="end">50 %</text>'
        f'<polygon class="white-area" points="{area}"/>'
        f'<polyline class="mu" points="{line}"/>{dots}{xticks}'
        f'<text class="label" x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 6}" '
        'text-anchor="middle">moves played (plies)</text></svg>'
        "<figcaption>White's win chance after every move, as the engine sees it: 100 % "
        "White wins, 0 % Black wins. Coloured dots: inaccuracies (yellow), mistakes (orange), "
        "blunders (red).</figcaption></figure>"
    )


def review_body(match: Any, review: dict[str, Any]) -> str:
    names = {("white", "black")[p.seat]: p.name for p in match.players if p.seat in (0, 1)}
    thresholds = review["thresholds"]
    rows = "".join(
        f"<tr><th>{e(names.get(c, c))} ({c})</th>"
        + "".join(
            f'<td data-class="{k}">{review["counts"][c][k]}</td>'
            for k in ("inaccuracy", "mistake", "blunder")
        )
        + f"<td>{sum(review['counts'][c].values())}</td></tr>"
        for c in ("white", "black")
    )
    counts = (
        '<table class="grid" id="review-counts"><tr><th>player</th>'
        f"<th>inaccuracies (≥ {thresholds['inaccuracy']:.0f})</th>"
        f"<th>mistakes (≥ {thresholds['mistake']:.0f})</th>"
        f"<th>blunders (≥ {thresholds['blunder']:.0f})</th><th>moves</th></tr>{rows}</table>"
    )
    moves = "".join(
        f'<tr id="ply-{p["ply"]}"><td>{p["ply"]}</td><td>{e(names.get(p["color"], p["color"]))}'
        f"</td><td>{e(p['move'])} {MARKS.get(p['class'], '')}</td>"
        f"<td>{e(p['score_words'])} ({p['win_chance']:.0f} %)</td>"
        f'<td class="v-{p["class"]}">{e(p["class"])}'
        + (f" (−{p['loss']:.0f})" if p["class"] in MARKS else "")
        + (
            f'<span class="best-move">best: {e(p["best_words"])}</span>'
            if "best_words" in p
            else ""
        )
        + "</td></tr>"
        for p in review["plies"]
    )
    settings = review["settings"]
    return (
        STYLE + f'<h1>Engine review: Onitama #{match.id}</h1><p><a href="/matches/{match.id}">'
        "← the game's replay</a></p>"
        + chart(review)
        + f'<div class="review-table-wrap">{counts}</div>'
        + '<p class="muted" id="review-thresholds">How bad a move was is what it cost its '
        "player in win chance (points out of 100): the chance before it (the engine's best "
        "move) minus the chance after it. "
        + ", ".join(f"{name} ≥ {value:.0f} points" for name, value in thresholds.items())
        + ". A move the engine would have played itself is never marked. Evaluations are in "
        "pawns from White's side (+1.0: White is a pawn ahead); the win chance is "
        "1 / (1 + e<sup>−score/250</sup>), so a pawn ahead is about 60 %. Compiled engine, "
        f"depth {settings['max_depth']}, at most {settings['budget']} s per position.</p>"
        '<div class="review-table-wrap"><table class="grid review-moves" id="review-moves">'
        "<tr><th>#</th><th>player</th><th>move</th><th>evaluation (White wins)</th>"
        f"<th>verdict, and the engine's move where it cost much</th></tr>{moves}</table></div>"
    )


class ReviewPages:
    def __init__(self, store: RecordStore, guests: Guests, page: Page) -> None:
        self.store = store
        self.guests = guests
        self.page = page
        self.reviewer = Reviewer(store.url, store.engine)
        self._task: asyncio.Task[None] | None = None

    def routes(self) -> list[Route]:
        get = ["GET"]
        return [
            *(
                Route(f"/play/{game}/review", endpoint(self._mine(game)), methods=get)
                for game in REVIEWERS
            ),
            Route(
                "/matches/{match_id}/review", endpoint(self.review_page, [MATCH_ID]), methods=get
            ),
        ]

    def review_page(self, request: Request, args: dict[str, Any]) -> Response:
        match = self.store.get(args["match_id"])
        if match is None or match.game not in REVIEWERS:
            raise NotFound(f"No game #{args['match_id']} with a review.")
        title, game = TITLES[match.game]
        status = self.reviewer.request(match.id, match.game)
        found = ReviewStore(self.store.engine).get(match.id) if status == "done" else None
        if found is None:
            body = (
                f"<h1>{title}: {game} #{match.id}</h1>"
                + (
                    f'<p id="review-status" class="error">The review failed. <a href="/matches/'
                    f'{match.id}/review">Try again</a>.</p>'
                    if status == "failed"
                    else '<p id="review-status" aria-live="polite">computing… ('
                    f"{WAITING[match.game]}; this page reloads itself)</p>"
                )
                + f'<p><a href="/matches/{match.id}">← the game\'s replay</a></p>'
            )
            response = self.page(title, body, {"kind": "review"}, "/history")
            if status != "failed":
                response.headers["Refresh"] = str(REFRESH)
            return response
        if match.game == "marias":
            body = marias_review_body(match, found.data)
        else:
            body = review_body(match, found.data)
        return self.page(f"{title} #{match.id}", body, {"kind": "review"}, "/history")

    def _mine(self, game: str) -> Callable[[Request, dict[str, Any]], Response]:
        def mine(request: Request, args: dict[str, Any]) -> Response:
            return self.mine(request, game)

        return mine

    def mine(self, request: Request, game: str) -> Response:
        """The game of ``game`` the player at this browser finished when the page says (its
        ``ended``: ms), once it is recorded: the first recorded after that, so a mariáš deal's
        link keeps meaning its deal while the next ones are played."""
        name, _new = self.guests.of(request)
        recent = self.store.matches(game=game, player=name, limit=20)
        now = datetime.now(UTC)
        # The page sends when its game ended (ms): a game recorded before that is the one
        # before, and the one just finished is still on its way to the database.
        try:
            ended = datetime.fromtimestamp(int(request.query_params["ended"]) / 1000, UTC)
            told = True
        except (KeyError, ValueError, OverflowError, OSError):
            ended, told = now - RECENT, False
        since = max(ended - timedelta(seconds=5), now - RECENT)
        after = [m for m in recent if m.finished_at >= since]
        if after:
            # Not told when: the newest (a person asks for the game they just finished).
            first = min(after, key=lambda m: m.finished_at) if told else after[0]
            return RedirectResponse(f"/matches/{first.id}/review", status_code=303)
        title = TITLES[game][0]
        body = (
            f'<h1>{title}</h1><p id="review-status">computing… (your game is being '
            "recorded; this page reloads itself)</p>"
        )
        response = self.page(title, body, {"kind": "review"}, "/history")
        response.headers["Refresh"] = str(REFRESH)
        return response

    # -- reviews nobody asked for yet: games with a person in them ---------------------------
    def watch(self, bus: EventBus) -> None:
        """Start looking for finished games with a person in them after every Onitama game
        (the database work runs in a thread, the review in the worker)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._watch(bus))

    async def _watch(self, bus: EventBus) -> None:
        subscription = bus.subscribe(
            lambda ev: ev.game in REVIEWERS and ev.kind == "game_over", limit=1000
        )
        await asyncio.to_thread(self._scan)
        while await subscription.get() is not None:
            await asyncio.sleep(SCAN_DELAY)
            subscription.drain()  # one scan finds every game finished meanwhile
            await asyncio.to_thread(self._scan)

    def _scan(self) -> None:
        try:
            self.reviewer.scan()
        except Exception:  # the database may be away: the next game's end tries again
            log.exception("looking for games to review failed")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self.reviewer.close()

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
import logging
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from babel.numbers import format_decimal
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from herna.games.onitama.review import WIN, WIN_FLOOR
from herna.games.onitama.words import card_words, cards_words
from herna.hall.events import EventBus
from herna.hall.records import RecordStore
from herna.hall.reviews import REVIEWERS, Reviewer, ReviewStore
from herna.web.guests import Guests
from herna.web.i18n import CURRENT_LOCALE, N_, format_number, ngettext, pgettext
from herna.web.i18n import gettext as _
from herna.web.params import MATCH_ID, NotFound, endpoint
from herna.web.review_marias import marias_review_body
from herna.web.templating import render

log = logging.getLogger("herna.web")

Page = Callable[..., Response]

REFRESH = 2
"""Seconds between reloads of a page waiting for its review."""
RECENT = timedelta(minutes=10)
"""How recent a person's game must be for the result panel's link to mean it."""
SCAN_DELAY = 1.0
"""Seconds after a game's end before looking for it in the records (the writer commits
within about 50 ms, under load later; a later scan finds what this one missed)."""

TITLES = {"onitama": N_("Engine review"), "marias": N_("Deal review")}
"""Each reviewed game's page title (the heading adds the game's name and the number)."""
HEADINGS = {
    "onitama": N_("Engine review: Onitama #%(id)s"),
    "marias": N_("Deal review: mariáš #%(id)s"),
}
WAITING = {
    "onitama": N_("the engine looks at every move"),
    "marias": N_("every card is solved with all hands open, and the house bot weighs the bidding"),
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


def chart(review: Mapping[str, Any]) -> dict[str, Any]:
    """White's win chance after every ply, placed for templates/review_onitama.html's SVG,
    costly moves marked."""
    values = [review["start"]["win_chance"]] + [p["win_chance"] for p in review["plies"]]
    n = max(1, len(values) - 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(i: int) -> str:
        return f"{LEFT + i / n * plot_w:.1f}"

    def py(v: float) -> str:
        return f"{TOP + (100 - v) / 100 * plot_h:.1f}"

    def tick(v: float) -> dict[str, Any]:
        return {"value": v, "y": py(v), "label_y": f"{float(py(v)) + 4:.1f}"}

    line = " ".join(f"{px(i)},{py(v)}" for i, v in enumerate(values))
    step = max(1, round(n / 10))
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "grid": [tick(t) for t in (0, 25, 75, 100)],
        "half": tick(50),
        "line": line,
        "area": f"{px(0)},{py(0)} {line} {px(len(values) - 1)},{py(0)}",
        "dots": [
            {
                "cls": p["class"],
                "x": px(i + 1),
                "y": py(p["win_chance"]),
                "ply": p["ply"],
                "move": cards_words(p["move"], CURRENT_LOCALE.get()),
                "verdict": verdict_words(p["class"]),
            }
            for i, p in enumerate(review["plies"])
            if p["class"] in MARKS
        ],
        "xticks": [{"x": px(i), "n": i} for i in range(0, n + 1, step)],
        "xtick_y": TOP + plot_h + 16,
        "label_x": f"{LEFT + plot_w / 2:.1f}",
        "label_y": HEIGHT - 6,
    }


def verdict_words(kind: str) -> str:
    """A move's class (the review's ``best``, ``blunder`` ...) in the page's language."""
    words = {
        "best": pgettext("verdict", "best"),
        "good": pgettext("verdict", "good"),
        "forced": pgettext("verdict", "forced"),
        "inaccuracy": pgettext("verdict", "inaccuracy"),
        "mistake": pgettext("verdict", "mistake"),
        "blunder": pgettext("verdict", "blunder"),
    }
    return words.get(kind, kind)


def color_words(color: str) -> str:
    return {"white": _("white"), "black": _("black")}.get(color, color)


def score_words(score: int) -> str:
    """The engine's score in the page's language (herna.games.onitama.review.score_words,
    which the review stores in English): ``+1,3`` pawns for White, or who wins in how many
    moves."""
    if abs(score) >= WIN_FLOOR:
        plies = WIN - abs(score)
        white = score > 0
        if plies == 0:
            return _("White has won") if white else _("Black has won")
        moves = (plies + 1) // 2
        if white:
            said = ngettext("White wins in %(num)d move", "White wins in %(num)d moves", moves)
        else:
            said = ngettext("Black wins in %(num)d move", "Black wins in %(num)d moves", moves)
        return said % {"num": moves}
    pawns = round(score / 100, 1)
    if not pawns:
        return format_decimal(0, "0.0", locale=CURRENT_LOCALE.get())  # never "-0.0"
    return format_decimal(pawns, "+0.0;-0.0", locale=CURRENT_LOCALE.get())


def _best(p: Mapping[str, Any]) -> str | None:
    """The engine's move where a move cost much: ``Tiger c1→c3: the pawn to c3 …`` as the
    review says it in English; the card (in the page's language) and the squares in another
    language (the review's sentence is stored in English)."""
    if "best_words" not in p:
        return None
    if CURRENT_LOCALE.get() == "en" or not isinstance(p.get("best"), str):
        return str(p["best_words"])
    card, _sep, squares = p["best"].partition(" ")
    return f"{card_words(card, CURRENT_LOCALE.get())} {squares[:2]}→{squares[2:]}"


def review_body(match: Any, review: Mapping[str, Any]) -> str:
    names = {("white", "black")[p.seat]: p.name for p in match.players if p.seat in (0, 1)}
    thresholds = review["thresholds"]
    kinds = ("inaccuracy", "mistake", "blunder")
    counts = [
        {
            "name": names.get(c, c),
            "color": color_words(c),
            "counts": [(k, review["counts"][c][k]) for k in kinds],
            "total": sum(review["counts"][c].values()),
        }
        for c in ("white", "black")
    ]
    plies = [
        {
            "ply": p["ply"],
            "name": names.get(p["color"], p["color"]),
            "move": cards_words(p["move"], CURRENT_LOCALE.get()),
            "mark": MARKS.get(p["class"], ""),
            "score": score_words(p["score"]) if "score" in p else p["score_words"],
            "chance": f"{p['win_chance']:.0f}",
            "cls": p["class"],
            "verdict": verdict_words(p["class"]),
            "loss": f"{p['loss']:.0f}" if p["class"] in MARKS else None,
            "best": _best(p),
        }
        for p in review["plies"]
    ]
    limits = ", ".join(
        _("%(name)s ≥ %(n)s points") % {"name": verdict_words(name), "n": f"{value:.0f}"}
        for name, value in thresholds.items()
    )
    settings = review["settings"]
    return render(
        "review_onitama.html",
        style=Markup(STYLE),
        match_id=match.id,
        chart=chart(review),
        thresholds={k: f"{v:.0f}" for k, v in thresholds.items()},
        counts=counts,
        plies=plies,
        limits=limits,
        depth=settings["max_depth"],
        budget=format_number(settings["budget"]),
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
        title = _(TITLES[match.game])
        status = self.reviewer.request(match.id, match.game)
        found = ReviewStore(self.store.engine).get(match.id) if status == "done" else None
        if found is None:
            body: str = render(
                "review_waiting.html",
                heading=_(HEADINGS[match.game]) % {"id": match.id},
                failed=status == "failed",
                again=f"/matches/{match.id}/review",
                what=_(WAITING[match.game]),
                match_id=match.id,
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
        title = _(TITLES[game])
        body = render(
            "review_waiting.html",
            heading=title,
            failed=False,
            again="",
            what=_("your game is being recorded"),
            match_id=None,
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

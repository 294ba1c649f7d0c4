"""Contests of submitted bots in the web hall (:mod:`herna.hall.contests`): ``/contests``
lists them and creates one (the organiser's admin token is shown once), ``/contests/{id}``
shows its deadline and entries, takes a signed-in author's entry until the deadline and the
organiser's "Start the final" after it, and then the final ranking, also as
``/contests/{id}/ranking.csv``. The final's games, crosstable and replays are on its
tournament page (the final is a live round robin).

Forms are POSTs checked like every form of the hall (same origin, the session's CSRF token:
:func:`herna.web.accounts.read_form`); the organiser's credential is the admin token.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from herna.hall.contests import (
    CONTEST_GAMES,
    Contest,
    ContestRefused,
    Contests,
    Entry,
    Ranked,
    parse_deadline,
    ranking,
    ranking_csv,
)
from herna.hall.hall import Hall
from herna.hall.submissions import Submissions
from herna.hall.tournament_store import TournamentStore
from herna.hall.tournament_timetable import TimeError
from herna.web.accounts import FormError, e, ensure_csrf, read_form
from herna.web.bots import person_of, table
from herna.web.pages import GAME_TITLES

MAX_OPEN_CONTESTS = 20
"""Contests taking entries at once (a bound on what one visitor can make)."""


def _when(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


class ContestPages:
    def __init__(self, hall: Hall, page: Any) -> None:
        self.hall = hall
        self.page = page
        self.bots = Submissions(hall.records.engine, hall.identity)
        self.contests = Contests(hall.records.engine, self.bots)
        self.store = TournamentStore(hall.records.engine)

    def routes(self) -> list[Route]:
        return [
            Route("/contests", self.index, methods=["GET"]),
            Route("/contests", self.create, methods=["POST"]),
            Route("/contests/{cid:int}", self.contest, methods=["GET"]),
            Route("/contests/{cid:int}/enter", self.enter, methods=["POST"]),
            Route("/contests/{cid:int}/final", self.final, methods=["POST"]),
            Route("/contests/{cid:int}/ranking.csv", self.csv, methods=["GET"]),
        ]

    def _respond(self, title: str, body: str, status: int = 200) -> Response:
        response: Response = self.page(title, body, {"kind": "contests"}, "/bots", status)
        response.headers["cache-control"] = "no-store"
        return response

    # -- the list and a new contest ---------------------------------------------------------
    async def index(self, request: Request) -> Response:
        body = await run_in_threadpool(self._index_html, request, "", {})
        return self._respond("Bot contests", body)

    def _index_html(self, request: Request, problem: str, form: dict[str, str]) -> str:
        now = datetime.now(UTC)
        rows = [
            [
                f'<a href="/contests/{c.id}">{e(c.title)}</a>',
                e(GAME_TITLES.get(c.game, c.game)),
                _when(c.deadline),
                e(_state(c, now)),
            ]
            for c in self.contests.all()
        ]
        listing = (
            table(["Contest", "Game", "Submissions close", "Now"], rows)
            if rows
            else "<p>No contest yet.</p>"
        )
        return (
            "<h1>Bot contests</h1>"
            '<p class="lead">A contest of submitted bots: authors enter their bots until the '
            "deadline and may upload new versions until then; at the deadline each bot's "
            "newest version is locked, and the organiser starts the final, where every bot "
            'meets every other. <a href="/doc/bots.md#contests">How it works</a>.</p>'
            + listing
            + _new_html(ensure_csrf(request), problem, form)
            + '<p><a href="/bots">Submitted bots and the ladder</a></p>'
        )

    async def create(self, request: Request) -> Response:
        form: dict[str, str] = {}
        try:
            form = await read_form(request)
            deadline = parse_deadline(form.get("deadline", ""))
            games = int(form.get("games", "2") or "2")
            words = form.get("house", "").replace(",", " ").split()
            house = tuple(dict.fromkeys(w.strip().lower() for w in words))
            if sum(1 for c in self.contests.all() if c.open_at(datetime.now(UTC))) >= (
                MAX_OPEN_CONTESTS
            ):
                raise ContestRefused("too many contests are taking entries now: try later")
            contest, token = await run_in_threadpool(
                self.contests.create,
                form.get("title", ""),
                form.get("game", ""),
                deadline,
                games,
                house,
            )
        except (FormError, TimeError, ContestRefused, ValueError) as exc:
            status = exc.status if isinstance(exc, FormError) else 400
            why = _reason(exc)
            body = await run_in_threadpool(self._index_html, request, why, form)
            return self._respond("Bot contests", body, status)
        body = (
            f"<h1>{e(contest.title)}</h1>"
            '<div role="status"><p>The contest is open until '
            f"{_when(contest.deadline)}. Keep this <strong>admin token</strong>; it is shown "
            "only now, and whoever holds it starts the final after the deadline:</p>"
            f'<p><code id="contest-token">{e(token)}</code></p></div>'
            f'<p><a href="/contests/{contest.id}">The contest\'s page</a>: send its address to '
            "the authors; they enter their bots there.</p>"
        )
        return self._respond(contest.title, body)

    # -- one contest --------------------------------------------------------------------------
    async def contest(self, request: Request) -> Response:
        body = await run_in_threadpool(self._contest_html, request, request.path_params["cid"], "")
        if body is None:
            return self._respond("No such contest", "<h1>No such contest</h1>", 404)
        return self._respond("Bot contest", body)

    def _contest_html(self, request: Request, cid: int, problem: str) -> str | None:
        contest = self.contests.get(cid)
        if contest is None:
            return None
        now = datetime.now(UTC)
        entries = self.contests.entries(cid)
        person = person_of(request)
        note = (
            f'<div id="form-error" role="alert"><p class="error">{e(problem)}</p></div>'
            if problem
            else ""
        )
        title = GAME_TITLES.get(contest.game, contest.game)
        pairing = (
            "once with each colour"
            if contest.games_per_pairing == 2
            else f"{contest.games_per_pairing} times, colours swapped every other game"
        )
        house = f" House bots ({', '.join(contest.house)}) play in it too." if contest.house else ""
        parts = [
            f"<h1>{e(contest.title)}</h1>",
            f'<p class="lead">A contest of submitted {e(title)} bots. Submissions close '
            f'<strong id="contest-deadline">{_when(contest.deadline)}</strong>; '
            f'now: <strong id="contest-state">{e(_state(contest, now))}</strong>. In the '
            f"final every bot meets every other {pairing}.{house}</p>",
            note,
        ]
        if contest.tournament_id is not None:
            parts.append(self._final_html(contest, entries))
        parts.append("<h2>Entries</h2>" + _entries_html(contest, entries, now))
        if contest.open_at(now):
            parts.append(self._enter_html(request, contest, person))
        elif contest.tournament_id is None:
            parts.append(_start_html(contest, ensure_csrf(request)))
        parts.append('<p><a href="/contests">All contests</a></p>')
        return "".join(parts)

    def _final_html(self, contest: Contest, entries: list[Entry]) -> str:
        assert contest.tournament_id is not None
        tour = self.store.get(contest.tournament_id)
        if tour is None:
            return ""
        versions = {en.name: en.version.version for en in entries if en.version is not None}
        rows = ranking(tour.games, versions)
        words = {"entry": "about to begin", "running": "under way", "finished": "finished"}
        state = words.get(tour.status, tour.status)
        heads = ["Rank", "Bot", "Version", "Points", "Games", "Wins", "Draws", "Losses"]
        cells = [[*_ranked_cells(r)] for r in rows]
        return (
            f'<section id="contest-final"><h2>The final ranking</h2><p>The final is '
            f'<strong id="final-state">{e(state)}</strong>. Its games, the crosstable and '
            f'every replay: <a href="/tournaments/{tour.id}">the final\'s tournament page</a>. '
            "The interval is the 95 % Wilson interval of the bot's score per game (a draw "
            "counts half).</p>"
            + table([*heads, "Score per game (95 % interval)"], cells)
            + f'<p><a href="/contests/{contest.id}/ranking.csv" download>'
            "Download the ranking (CSV)</a></p></section>"
        )

    def _enter_html(self, request: Request, contest: Contest, person: str | None) -> str:
        if person is None:
            here = quote(f"/contests/{contest.id}")
            return (
                f'<h2>Enter a bot</h2><p><a href="/signin?next={here}">Sign in</a> to enter '
                "one of your bots.</p>"
            )
        mine = [
            name
            for name in self.bots.bot_names(person)
            if any(v.game == contest.game for v in self.bots.versions(name))
        ]
        if not mine:
            return (
                '<h2>Enter a bot</h2><p>Upload a bot for this game on <a href="/bots">Bots</a> '
                "first, then enter it here.</p>"
            )
        options = "".join(f'<option value="{e(n)}">{e(n)}</option>' for n in mine)
        return (
            "<h2>Enter a bot</h2><p>Until the deadline you may upload new versions on "
            '<a href="/bots">Bots</a> under the same name; the newest one uploaded before the '
            "deadline plays.</p>"
            f'<form class="account" method="post" action="/contests/{contest.id}/enter">'
            f'<input type="hidden" name="csrf" value="{e(ensure_csrf(request))}">'
            f'<label for="contest-bot">Your bot</label><select id="contest-bot" name="bot">'
            f'{options}</select><button type="submit">Enter</button></form>'
        )

    async def enter(self, request: Request) -> Response:
        cid = request.path_params["cid"]
        person = person_of(request)
        try:
            form = await read_form(request)
            if person is None:
                raise FormError(403, "Sign in to enter a bot.")
            await run_in_threadpool(self.contests.enter, cid, form.get("bot", ""), person)
        except (FormError, ContestRefused) as exc:
            return await self._again(request, cid, exc)
        return RedirectResponse(f"/contests/{cid}", status_code=303)

    async def final(self, request: Request) -> Response:
        cid = request.path_params["cid"]
        try:
            form = await read_form(request)
            if not await run_in_threadpool(self.contests.authorised, cid, form.get("token")):
                raise FormError(403, "That is not the admin token of this contest.")
            runner = self.hall.submitted
            if runner is None:
                raise ContestRefused(
                    "this hall does not run submitted bots now (herna serve --ladder)"
                )
            await runner.start_final(cid)
        except (FormError, ContestRefused) as exc:
            return await self._again(request, cid, exc)
        return RedirectResponse(f"/contests/{cid}", status_code=303)

    async def _again(self, request: Request, cid: int, exc: Exception) -> Response:
        body = await run_in_threadpool(self._contest_html, request, cid, _reason(exc))
        if body is None:
            return self._respond("No such contest", "<h1>No such contest</h1>", 404)
        return self._respond("Bot contest", body, exc.status if isinstance(exc, FormError) else 400)

    async def csv(self, request: Request) -> Response:
        cid = request.path_params["cid"]
        contest = await run_in_threadpool(self.contests.get, cid)
        tour = (
            await run_in_threadpool(self.store.get, contest.tournament_id)
            if contest is not None and contest.tournament_id is not None
            else None
        )
        if contest is None or tour is None:
            return self._respond("No ranking", "<h1>No final ranking yet</h1>", 404)
        entries = await run_in_threadpool(self.contests.entries, cid)
        versions = {en.name: en.version.version for en in entries if en.version is not None}
        return Response(
            ranking_csv(ranking(tour.games, versions)),
            media_type="text/csv; charset=utf-8",
            headers={"content-disposition": f'attachment; filename="contest-{cid}-ranking.csv"'},
        )


def _reason(exc: Exception) -> str:
    if isinstance(exc, FormError):
        return exc.message
    if isinstance(exc, ContestRefused):
        return exc.reason[:1].upper() + exc.reason[1:] + "."
    if isinstance(exc, ValueError) and not isinstance(exc, TimeError):
        return "Games per pairing is a whole number."
    return str(exc)


def _state(contest: Contest, now: datetime) -> str:
    if contest.tournament_id is not None:
        return "the final"
    if contest.open_at(now):
        return "taking entries"
    return "versions locked; the final is still to start"


def _entries_html(contest: Contest, entries: list[Entry], now: datetime) -> str:
    if not entries:
        return "<p>No bot has entered yet.</p>"
    which = "plays in the final" if not contest.open_at(now) else "would play now"
    rows = [
        [
            f'<a href="/bots/{quote(en.name)}">{e(en.name)}</a>',
            e(en.owner),
            f"v{en.version.version}" if en.version is not None else "none before the deadline",
        ]
        for en in entries
    ]
    return table(["Bot", "Author", f"Version that {which}"], rows)


def _ranked_cells(r: Ranked) -> list[str]:
    return [
        str(r.rank),
        f'<a href="/bots/{quote(r.name)}">{e(r.name)}</a>'
        if r.version is not None
        else e(r.name) + " (house bot)",
        f"v{r.version}" if r.version is not None else "—",
        f"{r.points:g}",
        str(r.games),
        str(r.wins),
        str(r.draws),
        str(r.losses),
        f"{r.points / r.games:.2f} ({r.low:.2f} to {r.high:.2f})" if r.games else "—",
    ]


def _start_html(contest: Contest, csrf: str) -> str:
    return (
        "<h2>The final</h2><p>The deadline has passed: each entry's version is locked. The "
        "organiser starts the final with the contest's admin token.</p>"
        f'<form class="account" method="post" action="/contests/{contest.id}/final">'
        f'<input type="hidden" name="csrf" value="{e(csrf)}">'
        '<label for="contest-admin-token">Admin token</label>'
        '<input id="contest-admin-token" name="token" type="password" autocomplete="off" '
        'required><button type="submit">Start the final</button></form>'
    )


def _new_html(csrf: str, problem: str, form: dict[str, str]) -> str:
    note = (
        f'<div id="form-error" role="alert"><p class="error">{e(problem)}</p></div>'
        if problem
        else ""
    )
    games = "".join(
        f'<option value="{g}">{e(GAME_TITLES.get(g, g))}</option>' for g in CONTEST_GAMES
    )
    return (
        "<h2>Hold a contest</h2><p>You get an admin token: whoever holds it starts the final "
        "after the deadline.</p>" + note + '<form class="account" method="post" action="/contests">'
        f'<input type="hidden" name="csrf" value="{e(csrf)}">'
        '<label for="contest-title">Title</label>'
        f'<input id="contest-title" name="title" maxlength="100" required '
        f'value="{e(form.get("title", ""))}">'
        f'<label for="contest-game">Game</label><select id="contest-game" name="game">{games}'
        "</select>"
        '<label for="contest-deadline-input">Submissions close (in: 90s, 2h, 336h; or at: '
        "2026-12-12T18:00, UTC)</label>"
        f'<input id="contest-deadline-input" name="deadline" required '
        f'value="{e(form.get("deadline", ""))}">'
        '<label for="contest-games">Games per pairing in the final (2: once with each '
        "colour)</label>"
        f'<input id="contest-games" name="games" type="number" min="1" max="10" '
        f'value="{e(form.get("games", "2"))}">'
        '<label for="contest-house">House bots that play in the final, by level (e.g. '
        "<code>easy, hard</code>; empty: none)</label>"
        f'<input id="contest-house" name="house" value="{e(form.get("house", ""))}">'
        '<button type="submit">Create the contest</button></form>'
    )

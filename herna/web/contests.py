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

from herna.games.tiles.rules import rules_title, shipped_rules
from herna.hall.contests import (
    CONTEST_GAMES,
    Contest,
    ContestRefused,
    Contests,
    Entry,
    final_ranking,
    parse_deadline,
    ranking_csv,
)
from herna.hall.hall import Hall
from herna.hall.submissions import Submissions
from herna.hall.tournament_store import TournamentStore
from herna.hall.tournament_timetable import TimeError
from herna.servers.contest import table_seats
from herna.web.accounts import FormError, ensure_csrf, read_form
from herna.web.bots import person_of
from herna.web.i18n import CURRENT_LOCALE, format_when, ngettext
from herna.web.i18n import gettext as _
from herna.web.refusals import refusal_words
from herna.web.templating import TEMPLATES, render

MAX_OPEN_CONTESTS = 20
"""Contests taking entries at once (a bound on what one visitor can make)."""


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
        return self._respond(_("Bot contests"), body)

    def _index_html(self, request: Request, problem: str, form: dict[str, str]) -> str:
        now = datetime.now(UTC)
        return render(
            "contests.html",
            contests=[
                {
                    "id": c.id,
                    "title": c.title,
                    "game": c.game,
                    "deadline": c.deadline,
                    "state": _state(c, now),
                }
                for c in self.contests.all()
            ],
            problem=problem,
            form=form,
            csrf=ensure_csrf(request),
            games=CONTEST_GAMES,
            files=[(name, rules_title(name, CURRENT_LOCALE.get())) for name in shipped_rules()],
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
                raise FormError(400, _("Too many contests are taking entries now: try later."))
            game = form.get("game", "")
            rules = form.get("rules", "") if game == "tiles" else None
            table_seats(game, rules)  # a tile contest's rules file is one the hall ships
            contest, token = await run_in_threadpool(
                self.contests.create, form.get("title", ""), game, deadline, games, house, rules
            )
        except (FormError, TimeError, ContestRefused, ValueError) as exc:
            status = exc.status if isinstance(exc, FormError) else 400
            why = _reason(exc)
            body = await run_in_threadpool(self._index_html, request, why, form)
            return self._respond(_("Bot contests"), body, status)
        body = render("contest_created.html", contest=contest, token=token)
        return self._respond(contest.title, body)

    # -- one contest --------------------------------------------------------------------------
    async def contest(self, request: Request) -> Response:
        body = await run_in_threadpool(self._contest_html, request, request.path_params["cid"], "")
        if body is None:
            return self._no_such_contest()
        return self._respond(_("Bot contest"), body)

    def _no_such_contest(self) -> Response:
        body = render(
            "message.html", title=_("No such contest"), back=("/contests", _("All contests"))
        )
        return self._respond(_("No such contest"), body, 404)

    def _contest_html(self, request: Request, cid: int, problem: str) -> str | None:
        contest = self.contests.get(cid)
        if contest is None:
            return None
        now = datetime.now(UTC)
        entries = self.contests.entries(cid)
        person = person_of(request)
        open_now = contest.open_at(now)
        mine: list[str] = []
        if open_now and person is not None:
            mine = [
                name
                for name in self.bots.bot_names(person)
                if any(v.game == contest.game for v in self.bots.versions(name))
            ]
        entered = {en.name for en in entries}
        return render(
            "contest.html",
            contest=contest,
            state=_state(contest, now),
            problem=problem,
            final=self._final(contest, entries) if contest.tournament_id is not None else None,
            entries=entries,
            open=open_now,
            person=person,
            here=quote(f"/contests/{contest.id}"),
            how=_final_words(contest),
            mine=[name for name in mine if name not in entered],  # what is left to enter
            all_entered=bool(mine) and entered.issuperset(mine),
            csrf=ensure_csrf(request),
        )

    def _final(self, contest: Contest, entries: list[Entry]) -> dict[str, Any] | None:
        """The final's state in words, its tournament and its ranking."""
        assert contest.tournament_id is not None
        tour = self.store.get(contest.tournament_id)
        if tour is None:
            return None
        versions = {en.name: en.version.version for en in entries if en.version is not None}
        words = {"entry": _("about to begin"), "running": _("under way"), "finished": _("finished")}
        return {
            "tid": tour.id,
            "state": words.get(tour.status, tour.status),
            "rows": final_ranking(self.store.engine, tour, versions),
        }

    async def enter(self, request: Request) -> Response:
        cid = request.path_params["cid"]
        person = person_of(request)
        try:
            form = await read_form(request)
            if person is None:
                raise FormError(403, _("Sign in to enter a bot."))
            await run_in_threadpool(self.contests.enter, cid, form.get("bot", ""), person)
        except (FormError, ContestRefused) as exc:
            return await self._again(request, cid, exc)
        return RedirectResponse(f"/contests/{cid}", status_code=303)

    async def final(self, request: Request) -> Response:
        cid = request.path_params["cid"]
        try:
            form = await read_form(request)
            if not await run_in_threadpool(self.contests.authorised, cid, form.get("token")):
                raise FormError(403, _("That is not the admin token of this contest."))
            runner = self.hall.submitted
            if runner is None:
                raise FormError(
                    400, _("This hall does not run submitted bots now (herna serve --ladder).")
                )
            await runner.start_final(cid)
        except (FormError, ContestRefused) as exc:
            return await self._again(request, cid, exc)
        return RedirectResponse(f"/contests/{cid}", status_code=303)

    async def _again(self, request: Request, cid: int, exc: Exception) -> Response:
        body = await run_in_threadpool(self._contest_html, request, cid, _reason(exc))
        if body is None:
            return self._no_such_contest()
        status = exc.status if isinstance(exc, FormError) else 400
        return self._respond(_("Bot contest"), body, status)

    async def csv(self, request: Request) -> Response:
        cid = request.path_params["cid"]
        contest = await run_in_threadpool(self.contests.get, cid)
        tour = (
            await run_in_threadpool(self.store.get, contest.tournament_id)
            if contest is not None and contest.tournament_id is not None
            else None
        )
        if contest is None or tour is None:
            body = render("message.html", title=_("No final ranking yet"))
            return self._respond(_("No ranking"), body, 404)
        entries = await run_in_threadpool(self.contests.entries, cid)
        versions = {en.name: en.version.version for en in entries if en.version is not None}
        return Response(
            ranking_csv(final_ranking(self.store.engine, tour, versions)),
            media_type="text/csv; charset=utf-8",
            headers={"content-disposition": f'attachment; filename="contest-{cid}-ranking.csv"'},
        )


def _reason(exc: Exception) -> str:
    if isinstance(exc, FormError):
        return exc.message
    if isinstance(exc, ContestRefused):
        # The hall's refusals stay English (the hall speaks English to logs and the API).
        said = refusal_words(exc.reason)
        return said[:1].upper() + said[1:] + "."
    if isinstance(exc, ValueError) and not isinstance(exc, TimeError):
        return _("Games per pairing is a whole number.")
    return refusal_words(str(exc))


def _final_words(contest: Contest) -> str:
    """How the contest's final is played, in words (:func:`herna.hall.contests.final_options`)."""
    n = contest.games_per_pairing
    if contest.game == "mia":
        return ngettext(
            "The final is a session of %(n)d minute at the hall's Mia table: each round a bot "
            "does not lose is a point.",
            "The final is a session of %(n)d minutes at the hall's Mia table: each round a bot "
            "does not lose is a point.",
            n,
        ) % {"n": n}
    if contest.game == "marias":
        return _(
            "The final is played at tables of three, everyone sitting out as often; each table "
            "plays one duplicate deal: the same cards three times, so that each bot holds each "
            "hand once (forhont, prostřední, zadák) and a lucky hand decides nothing."
        )
    try:
        seats = table_seats(contest.game, contest.rules)
    except ContestRefused:
        seats = 2
    if seats > 2:
        return _(
            "The final is played at tables of %(seats)s (%(rules)s), everyone sitting out as "
            "often and the company changing from round to round."
        ) % {"seats": seats, "rules": rules_title(contest.rules or "", CURRENT_LOCALE.get())}
    if n == 2:
        return _("In the final every bot meets every other once with each colour.")
    return _(
        "In the final every bot meets every other %(n)s times, colours swapped every other game."
    ) % {"n": n}


def _state(contest: Contest, now: datetime) -> str:
    if contest.tournament_id is not None:
        return _("the final")
    if contest.open_at(now):
        return _("taking entries")
    return _("versions locked; the final is still to start")


def utc(moment: datetime) -> str:
    """A contest's moment, to the second, in UTC, as the hall's other pages write a moment
    in the page's language (``29. 11. 2026 18:00:00 UTC``, ``Nov 29, 2026, 6:00:00 PM UTC``)."""
    return f"{format_when(moment)} UTC"


TEMPLATES.env.globals["utc"] = utc

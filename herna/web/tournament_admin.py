"""Live tournaments from the web hall: ``/tournaments/new`` creates one (the admin token is
shown once), the tournament page says how to enter it, and ``/tournaments/{id}/admin``
starts or aborts it for whoever holds the admin token.

The director is the hall's :class:`~herna.hall.tournament_live.LiveTournaments`; these
handlers only read forms and call it. Forms are POSTs checked like the account forms (same
origin, the session's CSRF token; :func:`herna.web.accounts.read_form`).
"""

from __future__ import annotations

import csv
import functools
import io
import json
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from herna.games.onitama.bots import LEVEL_NAMES as ONITAMA_LEVELS
from herna.games.tiles.rules import load_rules_file, rules_title, shipped_rules
from herna.hall.hall import Hall
from herna.hall.tournament_live import (
    ENTRY,
    LIVE_FORMATS,
    LIVE_GAMES,
    RUNNING,
    LiveOptions,
    LiveTournaments,
    TournamentError,
)
from herna.hall.tournament_store import Tournament
from herna.hall.tournament_timetable import TimeError, iso, parse_duration, parse_start
from herna.web import api_operations as api
from herna.web.accounts import FormError, bounded_body, ensure_csrf, read_form
from herna.web.guests import session_of
from herna.web.i18n import CURRENT_LOCALE, N_, ngettext
from herna.web.i18n import gettext as _
from herna.web.pages import game_title
from herna.web.refusals import refusal_words
from herna.web.templating import render, render_macro

HOUSE_LEVELS = {"onitama": tuple(ONITAMA_LEVELS)}
"""The house bots' levels a live tournament of each game may enter."""
MAX_TAKING_ENTRANTS = 20
"""Live tournaments that may take entrants at once (a bound on what one visitor can make)."""
FORMAT_HELP = {
    "round-robin": N_("everyone meets everyone"),
    "swiss": N_("rounds paired by score"),
    "arena": N_("paired again as soon as a game ends, for a fixed time"),
    "session": N_("Mia: everyone at the Mia table for a fixed time, by points made"),
}
FORMAT_TITLES = {
    "round-robin": N_("round robin"),
    "swiss": N_("Swiss"),
    "arena": N_("arena"),
    "session": N_("Mia session"),
}
SEEDING_TITLES = {"entry": N_("by entry"), "rating": N_("by rating")}
SEEDING_HELP = {
    "entry": N_("the entry list's order, then as they entered"),
    "rating": N_("by rating in this game, best first"),
}
ADMITS_TITLES = {"anyone": N_("anyone"), "bots": N_("bots"), "people": N_("people")}
ADMITS_HELP = {
    "anyone": N_("bots and people"),
    "bots": N_("bots only"),
    "people": N_("people only"),
}


class TournamentAdmin:
    """Routes that create and run live tournaments."""

    def __init__(self, hall: Hall, page: Any) -> None:
        self.hall = hall
        self.page = page

    def routes(self) -> list[Route]:
        return [
            Route("/tournaments/new", self.new_page, methods=["GET"]),
            Route("/tournaments/new", self.create, methods=["POST"]),
            Route("/tournaments/{tournament_id}/admin", self.admin, methods=["POST"]),
            api.CREATE_TOURNAMENT.route(self.api_create),
            api.START_TOURNAMENT.route(self.api_action),
            api.ABORT_TOURNAMENT.route(self.api_action),
        ]

    # -- the JSON API (herna tournament create/start/abort) -----------------------------------
    # JSON bodies only: a page of another site cannot send one without a CORS preflight that
    # this hall never answers, so no CSRF token is needed; the admin token is the credential.
    async def api_create(self, request: Request, args: dict[str, Any]) -> Response:
        director = self.hall.tournaments
        if director is None:
            return _json_error(404, "this hall holds no live tournaments")
        body = await _json_body(request)
        if isinstance(body, Response):
            return body
        try:
            form = {k: _text(v, "\n") for k, v in body.items()}
            options = _options(form)
            tid, token, tokens = _create(director, options, form.get("entrants", ""))
        except TournamentError as exc:
            return _json_error(400, str(exc))
        return JSONResponse(
            {
                "id": tid,
                "admin_token": token,
                "url": f"/tournaments/{tid}",
                "status": ENTRY,
                "entrant_tokens": tokens,
            },
            status_code=201,
        )

    async def api_action(self, request: Request, args: dict[str, Any]) -> Response:
        director = self.hall.tournaments
        tid_text = str(request.path_params.get("tournament_id", ""))
        tid = int(tid_text) if tid_text.isdigit() else -1
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if (
            director is None
            or scheme.lower() != "bearer"
            or not director.authorised(tid, token.strip())
        ):
            return _json_error(403, "that is not the admin token of this tournament")
        action = request.url.path.rsplit("/", 1)[-1]
        try:
            _act(director, tid, action)
        except TournamentError as exc:
            return _json_error(409, str(exc))
        return JSONResponse({"id": tid, "status": director.held[tid].status})

    def _respond(self, title: str, body: str, status: int = 200) -> Response:
        response: Response = self.page(title, body, {"kind": "tournament-admin"}, "/tournaments")
        response.status_code = status
        response.headers["cache-control"] = "no-store"
        return response

    def _refused(self, tid: int, title: str, why: str, status: int) -> Response:
        back = (f"/tournaments/{tid}", _("Back to the tournament"))
        body = render("message.html", title=title, error=why, back=back)
        return self._respond(_("Tournament"), body, status)

    async def new_page(self, request: Request) -> Response:
        if self.hall.tournaments is None:
            return self._respond(_("New tournament"), _not_here(), 404)
        return self._respond(_("New tournament"), new_form(ensure_csrf(request)))

    async def create(self, request: Request) -> Response:
        director = self.hall.tournaments
        title = _("New tournament")
        if director is None:
            return self._respond(title, _not_here(), 404)
        try:
            form = await read_form(request)
        except FormError as exc:
            return self._respond(title, new_form(ensure_csrf(request), exc.message), 403)
        csrf = ensure_csrf(request)
        try:
            options = _options(form)
            tid, token, tokens = _create(director, options, form.get("entrants", ""))
        except TournamentError as exc:
            return self._respond(title, new_form(csrf, refusal_words(str(exc)), form), 400)
        body = created_html(tid, options, token, csrf, tokens)
        return self._respond(_("Tournament created"), body)

    async def admin(self, request: Request) -> Response:
        director = self.hall.tournaments
        tid_text = request.path_params.get("tournament_id", "")
        tid = int(tid_text) if str(tid_text).isdigit() else -1
        try:
            form = await read_form(request)
        except FormError as exc:
            return self._refused(tid, _("Not allowed"), exc.message, 403)
        if director is None or not director.authorised(tid, form.get("token", "").strip()):
            return self._refused(
                tid, _("Not allowed"), _("That is not the admin token of this tournament."), 403
            )
        try:
            _act(director, tid, form.get("action", ""), form.get("name", ""))
        except TournamentError as exc:
            return self._refused(tid, _("Not done"), refusal_words(str(exc)) + ".", 409)
        return RedirectResponse(f"/tournaments/{tid}", status_code=303)


def _create(
    director: LiveTournaments, options: LiveOptions, entry_list: str = ""
) -> tuple[int, str, dict[str, str]]:
    """A new live tournament (id, admin token, the tokens of the entry list's new names),
    unless too many take entrants already. ``entry_list``: names, one a line (or a CSV whose
    first column is the name; a first line ``name`` is a header)."""
    taking = sum(1 for h in director.held.values() if h.status == ENTRY)
    if taking >= MAX_TAKING_ENTRANTS:
        raise TournamentError(
            f"{taking} tournaments are taking entrants already; start or abort one first"
        )
    names = entry_names(entry_list)
    tid, token = director.create(options)
    if not names:
        return tid, token, {}
    try:
        return tid, token, director.pre_enter(tid, names)
    except TournamentError:
        director.abort(tid)  # not half made: the organiser corrects the list and sends again
        raise


def entry_names(text: str) -> list[str]:
    """The names of an entry list: one a line, or CSV rows whose first cell is the name."""
    rows = list(csv.reader(io.StringIO(text.replace("\r\n", "\n"))))
    names = [row[0].strip() for row in rows if row and row[0].strip()]
    if names and names[0].casefold() == "name":
        names = names[1:]
    return names


def _act(director: LiveTournaments, tid: int, action: str, name: str = "") -> None:
    """The admin's ``start``, ``abort`` or ``withdraw`` (of ``name``): the token was checked."""
    if action == "start":
        director.begin(tid)
    elif action == "abort":
        director.abort(tid)
    elif action == "withdraw":
        director.remove_entrant(tid, name.strip())
    else:
        raise TournamentError("the action is start, abort or withdraw")


def _options(form: dict[str, str]) -> LiveOptions:
    def number(key: str, default: float) -> float:
        text = form.get(key, "").strip()
        if not text:
            return default
        try:
            return float(text)
        except ValueError:
            raise TournamentError(f"{key} is a number") from None

    rounds = form.get("rounds", "").strip()
    if rounds and not rounds.isdigit():
        raise TournamentError("rounds is a whole number")
    game = form.get("game", "onitama")
    rules: str | None = None
    seats = 3 if game == "marias" else 2
    deals = form.get("deals", "").strip() or "3"
    if not deals.isdigit():
        raise TournamentError("deals is a whole number")
    if game == "tiles":
        rules = form.get("rules", "")
        shipped = _shipped_seats()
        if rules not in shipped:
            raise TournamentError(f"the rules file is one of {', '.join(shipped)}")
        seats = shipped[rules]
    house_text = form.get("house", "").replace("\n", ",")
    house = tuple(w.strip() for w in house_text.split(",") if w.strip())
    levels = HOUSE_LEVELS.get(form.get("game", "onitama"), ())
    if any(level not in levels for level in house):
        raise TournamentError(f"house bots' levels are {', '.join(levels) or 'none here'}")
    try:
        pause = parse_duration(form.get("pause", ""))
        start_text = form.get("starts_at", "").strip()
        offset = form.get("tz_offset", "").strip()
        offset_minutes = int(offset) if offset.lstrip("-").isdigit() else None
        starts_at = iso(parse_start(start_text, offset_minutes)) if start_text else None
    except TimeError as exc:
        raise TournamentError(str(exc)) from None
    return LiveOptions(
        starts_at=starts_at,
        pause=pause,
        name=form.get("name", "").strip() or "Tournament",
        game=game,
        format=form.get("format", "round-robin"),
        admits=form.get("admits", "anyone"),
        rounds=int(rounds) if rounds else None,
        cycles=int(number("cycles", 1)),
        duration=60 * number("minutes", 10),
        start_timeout=number("start_timeout", 60),
        house=house,
        rules=rules,
        seats=seats,
        deals=int(deals),
        seeding=form.get("seeding", "").strip() or "entry",
    )


@functools.cache
def _shipped_seats() -> dict[str, int]:
    """The shipped tile rules files and their players."""
    return {
        name: len(load_rules_file(path).players) for name, path in sorted(shipped_rules().items())
    }


MAX_JSON_BYTES = 32_768
"""A tournament with an entry list of a few hundred names fits."""


async def _json_body(request: Request) -> dict[str, Any] | Response:
    """The request's JSON object, or the error response."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        return _json_error(415, "send the tournament as application/json")
    body = await bounded_body(request, MAX_JSON_BYTES)
    if body is None:
        return _json_error(413, "the request is too large")
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, ValueError):
        return _json_error(400, "the body is not JSON")
    if not isinstance(data, dict):
        return _json_error(400, "the body is a JSON object")
    return data


def _text(value: object, joiner: str = ",") -> str:
    """A JSON value as the form field it stands for (lists: one item a line)."""
    if isinstance(value, list):
        return joiner.join(str(v) for v in value)
    return "" if value is None else str(value)


def _json_error(status: int, message: str) -> Response:
    return JSONResponse({"error": message}, status_code=status)


def _not_here() -> str:
    return render(
        "message.html",
        title=_("No live tournaments here"),
        text=_("This hall holds no live tournaments."),
    )


GAME_HELP = {
    "onitama": N_("two players"),
    "tiles": N_("a tile game of the rules file below"),
    "marias": N_("tables of three, each a CGML group of the deals below"),
    "mia": N_("a session at this hall's Mia table (bots)"),
}


def format_title(key: str) -> str:
    """A tournament format's name in the page's language (``round robin``)."""
    return _(FORMAT_TITLES[key]) if key in FORMAT_TITLES else key.replace("_", " ")


def new_form(csrf: str, problem: str = "", form: dict[str, str] | None = None) -> str:
    return render(
        "tournament_new.html",
        csrf=csrf,
        problem=problem,
        f=form or {},
        games=[(g, game_title(g), _(GAME_HELP[g])) for g in LIVE_GAMES],
        files=[
            (
                name,
                rules_title(name, CURRENT_LOCALE.get()),
                ngettext("%(n)d player", "%(n)d players", n) % {"n": n},
            )
            for name, n in _shipped_seats().items()
        ],
        formats=[(k, format_title(k), _(FORMAT_HELP[k])) for k in LIVE_FORMATS],
        admits=[(k, _(ADMITS_TITLES[k]), _(v)) for k, v in ADMITS_HELP.items()],
        levels=", ".join(ONITAMA_LEVELS),
        seeding=[(k, _(SEEDING_TITLES[k]), _(v)) for k, v in SEEDING_HELP.items()],
    )


def created_html(
    tid: int, options: LiveOptions, token: str, csrf: str, tokens: dict[str, str] | None = None
) -> str:
    """What a new live tournament's organiser sees once: the admin token, the entry list's
    tokens (to hand out), the admin's form."""
    tokens = tokens or {}
    return render(
        "tournament_created.html",
        name=options.name,
        tid=tid,
        token=token,
        csrf=csrf,
        tokens=tokens,
        listing="\n".join(["name,token", *(f"{n},{t}" for n, t in tokens.items())]),
    )


def entry_html(
    tour: Tournament, waiting: list[str], person: str | None, endpoint: str | None
) -> str:
    """How to take part in a live tournament, and who is waiting now."""
    if tour.status not in (ENTRY, RUNNING):
        return ""
    tid = tour.id
    admits = str(tour.settings.get("admits", "anyone"))
    entered = {x.name.casefold() for x in tour.entrants}
    open_to_me = tour.status == ENTRY or (person is not None and person.casefold() in entered)
    raw = {
        "tiles": f'{{"type": "join", "name": "NAME", "token": "TOKEN", '
        f'"seek": "tournament={tid}"}}',
        "marias": f'<connect status="passive" token="TOKEN" tournament="{tid}">'
        '<player id="NAME"/><game>licitovany_marias</game></connect>',
    }.get(tour.game, f"LOGIN|NAME|TOKEN|tournament={tid}")
    view = {
        "tid": tid,
        "game": tour.game,
        "mia": tour.game == "mia",
        "waiting": waiting,
        "endpoint": endpoint,
        "people": admits != "bots" and open_to_me,
        "person": person,
        "mine": person is not None and person.casefold() in entered,
        "started": tour.status != ENTRY,
        "join": f"/play/{tour.game}?seek=" + quote(f"person,tournament={tid}", safe=",="),
        "back": quote(f"/tournaments/{tid}", safe=""),
        "bots": admits != "people" and tour.status == ENTRY,
        "raw": raw,
    }
    return render_macro("tournament_admin.html", "entry", view)


def admin_box(tour: Tournament, csrf: str) -> str:
    """The admin's form under a live tournament's page (outside the part the page refreshes,
    so a token being typed is not swept away)."""
    if tour.status not in (ENTRY, RUNNING):
        return ""
    return render_macro("tournament_admin.html", "admin_box", tour.id, csrf)


def page_person(request: Request) -> str | None:
    person = session_of(request).get("person")
    return person if isinstance(person, str) else None

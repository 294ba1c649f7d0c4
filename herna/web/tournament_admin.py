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
import html
import io
import json
from collections.abc import Callable
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
from herna.web.pages import game_title

e = html.escape

HOUSE_LEVELS = {"onitama": tuple(ONITAMA_LEVELS)}
"""The house bots' levels a live tournament of each game may enter."""
MAX_TAKING_ENTRANTS = 20
"""Live tournaments that may take entrants at once (a bound on what one visitor can make)."""
FORMAT_HELP = {
    "round-robin": "everyone meets everyone",
    "swiss": "rounds paired by score",
    "arena": "paired again as soon as a game ends, for a fixed time",
    "session": "Mia: everyone at the Mia table for a fixed time, by points made",
}
FORMAT_TITLES = {
    "round-robin": "round robin",
    "swiss": "Swiss",
    "arena": "arena",
    "session": "Mia session",
}
SEEDING_TITLES = {"entry": "by entry", "rating": "by rating"}
SEEDING_HELP = {
    "entry": "the entry list's order, then as they entered",
    "rating": "by rating in this game, best first",
}
ADMITS_HELP = {
    "anyone": "bots and people",
    "bots": "bots only",
    "people": "people only",
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

    async def new_page(self, request: Request) -> Response:
        if self.hall.tournaments is None:
            return self._respond("New tournament", _not_here(), 404)
        return self._respond("New tournament", new_form(ensure_csrf(request)))

    async def create(self, request: Request) -> Response:
        director = self.hall.tournaments
        if director is None:
            return self._respond("New tournament", _not_here(), 404)
        try:
            form = await read_form(request)
        except FormError as exc:
            return self._respond("New tournament", new_form(ensure_csrf(request), exc.message), 403)
        csrf = ensure_csrf(request)
        try:
            options = _options(form)
            tid, token, tokens = _create(director, options, form.get("entrants", ""))
        except TournamentError as exc:
            return self._respond("New tournament", new_form(csrf, str(exc), form), 400)
        body = created_html(tid, options, token, csrf, tokens)
        return self._respond("Tournament created", body)

    async def admin(self, request: Request) -> Response:
        director = self.hall.tournaments
        tid_text = request.path_params.get("tournament_id", "")
        tid = int(tid_text) if str(tid_text).isdigit() else -1
        try:
            form = await read_form(request)
        except FormError as exc:
            return self._respond("Tournament", f'<p class="error">{e(exc.message)}</p>', 403)
        if director is None or not director.authorised(tid, form.get("token", "").strip()):
            return self._respond(
                "Tournament",
                '<h1>Not allowed</h1><p class="error">That is not the admin token of this '
                f'tournament.</p><p><a href="/tournaments/{tid}">Back to the tournament</a></p>',
                403,
            )
        try:
            _act(director, tid, form.get("action", ""), form.get("name", ""))
        except TournamentError as exc:
            return self._respond(
                "Tournament",
                f'<h1>Not done</h1><p class="error">{e(str(exc))}.</p>'
                f'<p><a href="/tournaments/{tid}">Back to the tournament</a></p>',
                409,
            )
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
    return "<h1>No live tournaments here</h1><p>This hall holds no live tournaments.</p>"


def _select(
    name: str, choices: dict[str, str], chosen: str, titles: Callable[[str], str] = str
) -> str:
    """A select of ``choices`` (value: what it means), each shown by its title in words."""
    options = "".join(
        f'<option value="{e(k)}"{" selected" if k == chosen else ""}>'
        f"{e(titles(k))}: {e(v)}</option>"
        for k, v in choices.items()
    )
    return f'<select name="{name}" id="t-{name}">{options}</select>'


def _title(titles: dict[str, str]) -> Callable[[str], str]:
    return lambda key: titles.get(key, key.replace("_", " "))


def new_form(csrf: str, problem: str = "", form: dict[str, str] | None = None) -> str:
    f = form or {}
    games = {
        "onitama": "two players",
        "tiles": "a tile game of the rules file below",
        "marias": "tables of three, each a CGML group of the deals below",
        "mia": "a session at this hall's Mia table (bots)",
    }
    games = {g: games[g] for g in LIVE_GAMES}
    files = {name: f"{n} players" for name, n in _shipped_seats().items()}
    formats = {k: FORMAT_HELP[k] for k in LIVE_FORMATS}
    return (
        '<link rel="stylesheet" href="/static/tournaments.css">'
        '<script src="/static/tournament.js" defer></script>'
        "<h1>New tournament</h1>"
        '<p class="lead">A tournament held in this hall: entrants come over the game\'s own '
        "protocol (bots, under a reserved name with its token) or at the play page (people, "
        "signed in). You get an <strong>admin token</strong>: whoever holds it starts the "
        "tournament when the entrants are there, or aborts it. "
        '<a href="/doc/tournaments.md">How tournaments are paired and scored</a>.</p>'
        + (
            f'<div id="form-problem" role="alert"><p class="error">{e(problem)}</p></div>'
            if problem
            else ""
        )
        + '<form method="post" action="/tournaments/new" class="account" id="new-tournament">'
        f'<input type="hidden" name="csrf" value="{e(csrf)}">'
        '<label for="t-name">Name</label>'
        f'<input id="t-name" name="name" maxlength="100" required value="{e(f.get("name", ""))}">'
        '<label for="t-game">Game</label>'
        + _select("game", games, f.get("game", "onitama"), game_title)
        + '<label for="t-rules">Tiles: the rules file</label>'
        + _select("rules", files, f.get("rules", "gold_rush"), rules_title)
        + '<label for="t-deals">Mariáš: deals a table plays</label>'
        f'<input id="t-deals" name="deals" inputmode="numeric" value="{e(f.get("deals", "3"))}">'
        + '<label for="t-format">Format</label>'
        + _select("format", formats, f.get("format", "round-robin"), _title(FORMAT_TITLES))
        + '<label for="t-admits">Who may enter</label>'
        + _select("admits", ADMITS_HELP, f.get("admits", "anyone"))
        + '<label for="t-house">House bots that enter, by level (e.g. <code>easy, hard</code>; '
        f"levels: {e(', '.join(ONITAMA_LEVELS))})</label>"
        f'<input id="t-house" name="house" value="{e(f.get("house", ""))}">'
        + '<label for="t-rounds">Swiss: rounds (empty: enough to find a winner)</label>'
        f'<input id="t-rounds" name="rounds" inputmode="numeric" value="{e(f.get("rounds", ""))}">'
        '<label for="t-minutes">Arena or Mia session: minutes</label>'
        f'<input id="t-minutes" name="minutes" inputmode="decimal" '
        f'value="{e(f.get("minutes", "10"))}">'
        '<label for="t-entrants">Entry list (optional): one name a line, or a CSV whose '
        "first column is the name. Each is entered now; a name nobody has yet is reserved "
        "for its entrant and gets a token, shown once on the next page.</label>"
        f'<textarea id="t-entrants" name="entrants" rows="5">{e(f.get("entrants", ""))}'
        "</textarea>"
        '<label for="t-seeding">Seeding: the order of the first round</label>'
        + _select("seeding", SEEDING_HELP, f.get("seeding", "entry"), _title(SEEDING_TITLES))
        + '<label for="t-starts-at">Starts by itself at (optional; empty: when the admin '
        "presses Start now). Entries are open until then.</label>"
        f'<input id="t-starts-at" name="starts_at" type="datetime-local" '
        f'value="{e(f.get("starts_at", ""))}">'
        '<input type="hidden" name="tz_offset" id="t-tz-offset" value="">'
        '<label for="t-pause">Pause between rounds (e.g. <code>2m</code>, <code>90s</code>; '
        "empty: none)</label>"
        f'<input id="t-pause" name="pause" value="{e(f.get("pause", ""))}">'
        '<label for="t-start">Seconds an entrant has to come when its game is due</label>'
        f'<input id="t-start" name="start_timeout" inputmode="decimal" '
        f'value="{e(f.get("start_timeout", "60"))}">'
        '<button type="submit">Create</button></form>'
    )


def created_html(
    tid: int, options: LiveOptions, token: str, csrf: str, tokens: dict[str, str] | None = None
) -> str:
    return (
        '<link rel="stylesheet" href="/static/tournaments.css">'
        '<script src="/static/tournament.js" defer></script>'
        f"<h1>{e(options.name)}: created</h1>"
        + (entrant_tokens_html(tokens) if tokens else "")
        + '<p class="lead">Keep this <strong>admin token</strong>; it is shown only now. '
        "Whoever holds it can start or abort the tournament.</p>"
        f'<p><code id="admin-token">{e(token)}</code></p>'
        f'<p><a id="tournament-link" href="/tournaments/{tid}">The tournament\'s page</a> '
        "says how to enter; send its address to the entrants.</p>" + admin_form(tid, csrf, token)
    )


def entrant_tokens_html(tokens: dict[str, str]) -> str:
    """The entry list's names with their new tokens, to hand out (shown only now)."""
    rows = "".join(
        f"<tr><td>{e(name)}</td><td>"
        + (f"<code>{e(token)}</code>" if token else '<span class="muted">has its own</span>')
        + "</td></tr>"
        for name, token in tokens.items()
    )
    listing = "\n".join(["name,token", *(f"{n},{t}" for n, t in tokens.items())])
    return (
        '<section id="entrant-tokens"><h2>The entrants\' tokens</h2>'
        '<p class="lead">Every listed name is entered. Hand each entrant its token: a bot '
        "logs in with it (<code>--token</code>), and nobody else can play under that name. "
        "Names that were reserved already, or belong to people who signed up, keep their "
        "own. Shown only now.</p>"
        f'<table class="grid"><tr><th>entrant</th><th>token</th></tr>{rows}</table>'
        '<label for="entrant-csv">The same as CSV, to copy</label>'
        f'<textarea id="entrant-csv" readonly rows="4">{e(listing)}</textarea></section>'
    )


def admin_form(tid: int, csrf: str, token: str = "") -> str:
    return (
        f'<form method="post" action="/tournaments/{tid}/admin" class="account" id="admin-form">'
        f'<input type="hidden" name="csrf" value="{e(csrf)}">'
        '<label for="admin-token-input">Admin token</label>'
        f'<input id="admin-token-input" name="token" type="password" autocomplete="off" '
        f'value="{e(token)}" required>'
        '<button type="submit" name="action" value="start" id="admin-start">Start now</button>'
        '<button type="submit" name="action" value="abort" id="admin-abort">Abort</button>'
        '<label for="admin-withdraw-name">Before the start: withdraw the entrant</label>'
        '<input id="admin-withdraw-name" name="name" autocomplete="off">'
        '<button type="submit" name="action" value="withdraw" id="admin-withdraw">'
        "Withdraw</button>"
        # Asked once more before it is sent (tournament.js shows it, as the play pages ask
        # before resigning): a withdrawn entrant loses their place and must enter again.
        '<div class="play-confirm" id="admin-withdraw-confirm" role="alertdialog" '
        'aria-labelledby="admin-withdraw-ask" hidden><span id="admin-withdraw-ask"></span> '
        '<button type="submit" name="action" value="withdraw" id="admin-withdraw-yes">'
        'Yes, withdraw</button> <button type="button" id="admin-withdraw-no">No, keep them'
        "</button></div></form>"
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
    parts = ['<section id="take-part"><h2>Take part</h2>']
    parts.append(
        '<p class="muted" id="waiting">'
        + ("At the table now: " if tour.game == "mia" else "Waiting for their next game: ")
        + (", ".join(e(n) for n in waiting) if waiting else "nobody")
        + "</p>"
    )
    if tour.game == "mia":
        where = e(endpoint or "the Mia server")
        parts.append(
            f"<p>Bots take part by playing at this hall's Mia table ({where}) under a reserved "
            "name with its token (<code>REGISTER;NAME;TOKEN</code>, or <code>herna bot mia "
            "--name NAME --token TOKEN</code>): from the start, for the session's length, "
            "every such player is an entrant, scored by the points it makes. Unreserved names "
            "play on but are not counted: anybody could use them.</p>"
        )
        parts.append("</section>")
        return "".join(parts)
    open_to_me = tour.status == ENTRY or (person is not None and person.casefold() in entered)
    if admits != "bots" and open_to_me:
        seek = quote(f"person,tournament={tid}", safe=",=")
        if person is not None:
            mine = person.casefold() in entered
            if tour.status != ENTRY:
                label = "Back to your games"
            elif mine:
                label = "Wait for your games"
            else:
                label = "Enter and wait for your games"
            parts.append(
                (f'<p id="you-are-entered">You are entered as {e(person)}.</p>' if mine else "")
                + f'<p><a class="button" id="join" href="/play/{e(tour.game)}?seek={seek}">'
                f"{label} as {e(person)}</a></p>"
            )
        else:
            back = quote(f"/tournaments/{tid}", safe="")
            parts.append(
                f'<p id="sign-in-to-enter"><a href="/signin?next={back}">Sign in</a> or '
                f'<a href="/signup?next={back}">sign up</a> to enter: a tournament seat '
                "belongs to a name only its owner can use. On the entry list with a token "
                "from your teacher? Sign up with your name and that token.</p>"
            )
    if admits != "people" and tour.status == ENTRY:
        where = e(endpoint or "the game server")
        raw = {
            "tiles": f'{{"type": "join", "name": "NAME", "token": "TOKEN", '
            f'"seek": "tournament={tid}"}}',
            "marias": f'<connect status="passive" token="TOKEN" tournament="{tid}">'
            '<player id="NAME"/><game>licitovany_marias</game></connect>',
        }.get(tour.game, f"LOGIN|NAME|TOKEN|tournament={tid}")
        parts.append(
            f"<p>Bots enter at {where} under a reserved name (<code>herna bots add NAME</code> "
            "gives its token) with the lobby word <code>tournament="
            f"{tid}</code>: <code>{e(raw)}</code>, or "
            f"<code>herna bot {e(tour.game)} --name NAME --token TOKEN --tournament {tid}</code>"
            ".</p>"
        )
    parts.append("</section>")
    return "".join(parts)


def admin_box(tour: Tournament, csrf: str) -> str:
    """The admin's form under a live tournament's page (outside the part the page refreshes,
    so a token being typed is not swept away)."""
    if tour.status not in (ENTRY, RUNNING):
        return ""
    return (
        '<details id="admin"><summary>Admin: start or abort</summary>'
        + admin_form(tour.id, csrf)
        + "</details>"
    )


def page_person(request: Request) -> str | None:
    person = session_of(request).get("person")
    return person if isinstance(person, str) else None

"""The web hall's tournament pages: ``/tournaments`` (the list), ``/tournaments/{id}``
(standings with named tie-breaks, the crosstable and every game linked to its replay) and
the final table as ``/tournaments/{id}/table.csv`` and ``table.json``.

Read-only like the rest of the web hall: everything comes from the hall's database
(:class:`~herna.hall.tournament_store.TournamentStore`), computed afresh on each request.
While a tournament runs, ``static/tournament.js`` fetches the page again every few seconds
and swaps in its body, so standings and crosstable follow the games without a reload.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from herna.hall.hall import Hall
from herna.hall.tournament import TIE_BREAK_NAMES, Game, Row, fmt_points
from herna.hall.tournament.export import table_csv, table_json
from herna.hall.tournament_seat import entrant_view
from herna.hall.tournament_store import Tournament, TournamentStore
from herna.web import pages
from herna.web import tournament_season as season
from herna.web.accounts import ensure_csrf
from herna.web.params import TOURNAMENT_ID, NotFound, Param, endpoint
from herna.web.templating import url
from herna.web.tournament_admin import (
    FORMAT_TITLES,
    TournamentAdmin,
    admin_box,
    entry_html,
    page_person,
)
from herna.web.tournament_times import times_html

e = html.escape

TIE_BREAK_HELP = {
    "buchholz": "the sum of the opponents' scores",
    "sonneborn-berger": "the points taken from each opponent times that opponent's score",
    "wins": "games won outright",
}
TIE_BREAK_SHORT = {"buchholz": "Buch.", "sonneborn-berger": "SB", "wins": "W"}
"""Column heads on narrow screens (the full names stay in the note above the table)."""
POLL_SECONDS = 3
ENTRANT = Param("name", "query", "text", "The entrant's name.")


PageFn = Callable[[str, str, dict[str, Any], str], HTMLResponse]


class TournamentPages:
    """The handlers; :meth:`routes` are added to the web hall's route list."""

    def __init__(self, hall: Hall, page: PageFn) -> None:
        self.hall = hall
        self.page = page
        self.admin = TournamentAdmin(hall, page)

    @property
    def store(self) -> TournamentStore:
        return TournamentStore(self.hall.records.engine)

    def routes(self) -> list[Route]:
        get = ["GET"]
        ident = [TOURNAMENT_ID]
        return [
            Route("/tournaments", endpoint(self.list_page), methods=get),
            # Before /tournaments/{tournament_id}, which would take "new" as an id.
            *self.admin.routes(),
            Route("/tournaments/season", endpoint(self.season_page), methods=get),
            Route("/tournaments/season.csv", endpoint(self.season_csv), methods=get),
            Route(
                "/tournaments/{tournament_id}", endpoint(self.tournament_page, ident), methods=get
            ),
            Route(
                "/tournaments/{tournament_id}/table.csv",
                endpoint(self.table_csv, ident),
                methods=get,
            ),
            Route(
                "/tournaments/{tournament_id}/table.json",
                endpoint(self.table_json, ident),
                methods=get,
            ),
            Route(
                "/tournaments/{tournament_id}/entrant.json",
                endpoint(self.entrant_json, [TOURNAMENT_ID, ENTRANT]),
                methods=get,
            ),
        ]

    def _get(self, args: dict[str, Any]) -> Tournament:
        tour = self.store.get(args["tournament_id"])
        if tour is None:
            raise NotFound(f"No tournament #{args['tournament_id']}.")
        return tour

    # -- handlers ----------------------------------------------------------------------------
    def list_page(self, request: Request, args: dict[str, Any]) -> Response:
        body = list_html(self.store.recent(200), self.hall.tournaments is not None)
        return self.page("Tournaments", body, {"kind": "tournaments"}, "/tournaments")

    def season_page(self, request: Request, args: dict[str, Any]) -> Response:
        tours = season.load(self.store, season.chosen_ids(request))
        title = season.season_title(request)
        body = _assets() + season.season_html(title, tours, request.url.query)
        return self.page(title, body, {"kind": "season"}, "/tournaments")

    def season_csv(self, request: Request, args: dict[str, Any]) -> Response:
        return season.csv_response(season.load(self.store, season.chosen_ids(request)))

    def tournament_page(self, request: Request, args: dict[str, Any]) -> Response:
        tour = self._get(args)
        data = {"kind": "tournament", "id": tour.id, "status": tour.status, "poll": POLL_SECONDS}
        entry, admin = self._entry(request, tour)
        body = tournament_html(tour, entry) + admin
        response = self.page(tour.name, body, data, "/tournaments")
        response.headers["cache-control"] = "no-store"
        return response

    def _entry(self, request: Request, tour: Tournament) -> tuple[str, str]:
        """A live tournament of this hall: how to take part, and the admin's form."""
        director = self.hall.tournaments
        if director is None or tour.id not in director.held:
            return "", ""
        service = self.hall.service(tour.game)
        endpoint = service.endpoints()[0] if service is not None and service.endpoints() else None
        csrf = ensure_csrf(request)
        entry = entry_html(tour, director.waiting(tour.id), page_person(request), endpoint)
        return entry, admin_box(tour, csrf)

    def table_csv(self, request: Request, args: dict[str, Any]) -> Response:
        tour = self._get(args)
        return Response(
            table_csv(tour.standings(), tour.tie_breaks),
            media_type="text/csv; charset=utf-8",
            headers={"content-disposition": f'attachment; filename="tournament-{tour.id}.csv"'},
        )

    def entrant_json(self, request: Request, args: dict[str, Any]) -> Response:
        """Where one entrant stands (the play pages show it beside the board). Public, as the
        tournament page is: the same facts, from one entrant's side."""
        tour = self._get(args)
        view = entrant_view(tour, args.get("name") or "")
        return JSONResponse(view, headers={"cache-control": "no-store"})

    def table_json(self, request: Request, args: dict[str, Any]) -> Response:
        tour = self._get(args)
        rows = tour.standings()
        data = table_json(rows, tour.tie_breaks, tour.crosstable(rows), tour.games)
        data.update(tour.summary_json())
        return JSONResponse(data)


# -- HTML ----------------------------------------------------------------------------------------
def tournament_url(tid: int, tail: str = "") -> str:
    return f"/tournaments/{tid}{tail}"


def _game_title(game: str) -> str:
    return pages.game_title(game)


def list_html(tours: Sequence[Tournament], can_create: bool = False) -> str:
    if not tours:
        rows = ""
    else:
        rows = "".join(
            f'<tr><td data-label="tournament"><a href="{tournament_url(t.id)}">{e(t.name)}</a>'
            f'</td><td data-label="game">{e(_game_title(t.game))}</td>'
            f'<td data-label="format">{e(FORMAT_TITLES.get(t.format, t.format))}</td>'
            f'<td data-label="entrants">{len(t.entrants)}</td>'
            f'<td data-label="status">{_status(t.status)}</td>'
            f'<td data-label="created">{pages.when(t.created_at)}</td>'
            f'<td data-label="started">{pages.when(t.started_at) or "–"}</td>'
            f'<td data-label="season"><input type="checkbox" name="ids" value="{t.id}" '
            f'form="season-form" aria-label="{e(t.name)} in the season table"></td></tr>'
            for t in tours
        )
    table = (
        '<div class="scroll"><table class="grid results" id="tournaments"><thead><tr>'
        "<th>tournament</th>"
        "<th>game</th><th>format</th><th>entrants</th><th>status</th><th>created</th>"
        "<th>started</th><th>season</th></tr>"
        f"</thead><tbody>{rows}</tbody></table></div>"
        '<form id="season-form" class="season-form" method="get" action="/tournaments/season">'
        '<label for="season-name">A season table of the ticked tournaments (their points '
        'summed), titled</label> <input id="season-name" name="name" maxlength="100" '
        'placeholder="Season table"> <button type="submit" id="season-go">Season table'
        "</button></form>"
        if rows
        else '<p class="muted" id="tournaments">No tournament on record yet.</p>'
    )
    return (
        _assets() + "<h1>Tournaments</h1>"
        '<p class="lead">Round robins, Swiss tournaments and arenas, held in this hall for '
        "bots and people (created here) or run between bot programs with "
        "<code>herna tournament run</code>: standings with tie-breaks, crosstables and every "
        'game\'s replay. <a href="/doc/tournaments.md">How they are paired and scored</a>.</p>'
        + (
            '<p><a class="button" id="new-tournament-link" href="/tournaments/new">'
            "New tournament</a></p>"
            if can_create
            else ""
        )
        + table
    )


STATUS_WORDS = {"entry": "taking entries"}
"""A tournament's status in words (the others say themselves)."""


def _status(status: str) -> str:
    cls = {"finished": "ok", "aborted": "bad"}.get(status, "")
    return f'<span class="status {cls}">{e(STATUS_WORDS.get(status, status))}</span>'


def tournament_html(tour: Tournament, entry: str = "") -> str:
    rows = tour.standings()
    settings = tour.settings
    facts = [
        _game_title(tour.game),
        FORMAT_TITLES.get(tour.format, tour.format),
        f"{len(tour.entrants)} entrants",
    ]
    if tour.game == "tiles" and settings.get("rules"):
        facts.append(f"rules {settings['rules']}")
    if settings.get("seed") is not None:
        facts.append(f"seed {settings['seed']}")
    live = tour.status in ("entry", "running")
    if tour.format == "session":
        return _assets() + session_html(tour, rows, facts, live, entry)
    played = sum(1 for g in tour.games if not g.board.bye)
    facts.append(f"{played} game" + ("" if played == 1 else "s"))
    body = (
        f'<section id="tournament-body" data-status="{e(tour.status)}">'
        + _head(tour, facts, live)
        + times_html(tour)
        + entry
        + "<h2>Standings</h2>"
        + _tie_break_note(tour)
        + standings_html(rows, tour.tie_breaks)
        + f'<p class="exports">Final table: <a href="{tournament_url(tour.id, "/table.csv")}" '
        f'download>CSV</a> · <a href="{tournament_url(tour.id, "/table.json")}">JSON</a> '
        "(standings, crosstable and games) · "
        '<button type="button" id="print-sheet">Print the result sheet</button></p>'
        + "<h2>Crosstable</h2>"
        + crosstable_html(tour, rows)
        + '<h2 class="no-print">Games</h2>'
        + games_html(tour.games)
        + _entrants_html(tour)
        + "</section>"
    )
    return _assets() + body


def _head(tour: Tournament, facts: list[str], live: bool) -> str:
    return (
        f"<h1>{e(tour.name)} {_status(tour.status)}</h1>"
        f'<p class="muted">{e(" · ".join(facts))} · '
        f"created {pages.when(tour.created_at)}"
        + (f" · started {pages.when(tour.started_at)}" if tour.started_at else "")
        + (f" · finished {pages.when(tour.finished_at)}" if tour.finished_at else "")
        + "</p>"
        + (
            f'<p class="muted" id="live-note">'
            f"{'Taking entrants' if tour.status == 'entry' else 'Playing now'}: this page "
            f"follows the games (every {POLL_SECONDS} s).</p>"
            if live
            else ""
        )
    )


def session_html(
    tour: Tournament, rows: Sequence[Row], facts: list[str], live: bool, entry: str = ""
) -> str:
    """A Mia session: the scoreboard (points made in the session) and its rounds."""
    settings = tour.settings
    if settings.get("duration"):
        facts.append(f"{float(settings['duration']):g} s")
    first, last = settings.get("first_match"), settings.get("last_match")
    body = "".join(
        f'<tr><td>{r.rank}</td><td class="who"><a href="{e(pages.player_url(r.name))}">'
        f'{e(r.name)}</a></td><td class="num"><strong>{fmt_points(r.points)}</strong></td></tr>'
        for r in rows
    )
    rounds = (
        f'<p><a href="{e(url("/history", game="mia", session=f"round.{first}-{last}"))}">'
        f"the session's {int(last) - int(first) + 1} rounds</a>, each with its replay.</p>"
        if first and last
        else ""
    )
    return (
        f'<section id="tournament-body" data-status="{e(tour.status)}">'
        + _head(tour, facts, live)
        + entry
        + "<h2>Scoreboard</h2>"
        '<p class="tie-breaks">Everyone sits at one Mia table for the whole session; a round '
        "gives a point to every player who did not lose it. Points made in this session "
        "only.</p>"
        '<div class="scroll"><table class="grid standings" id="standings"><thead><tr>'
        '<th>#</th><th>entrant</th><th class="num">points</th></tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
        f'<p class="exports">Final table: <a href="{tournament_url(tour.id, "/table.csv")}" '
        f'download>CSV</a> · <a href="{tournament_url(tour.id, "/table.json")}">JSON</a></p>'
        + rounds
        + _entrants_html(tour)
        + "</section>"
    )


def _assets() -> str:
    return (
        '<link rel="stylesheet" href="/static/tournaments.css">'
        '<script src="/static/tournament.js" defer></script>'
    )


def _tie_break_note(tour: Tournament) -> str:
    named = "; then ".join(
        f"<strong>{e(TIE_BREAK_NAMES[t])}</strong> ({e(TIE_BREAK_HELP[t])})"
        for t in tour.tie_breaks
    )
    bye = fmt_points(tour.bye_points)
    return (
        f'<p class="tie-breaks">Ranked by points; ties by {named}. A bye is worth {bye} '
        "and counts nothing in the tie-breaks. "
        + (
            "At tables of more than two, a game's point is shared out by finishing order "
            "(each seat scores what it took from each other seat, over the number of "
            "opponents). "
            if tour.settings.get("table_size", 2) > 2
            else ""
        )
        + "</p>"
    )


def standings_html(rows: Sequence[Row], tie_breaks: Sequence[str]) -> str:
    head = "".join(
        f'<th class="num"><span class="long">{e(TIE_BREAK_NAMES[t])}</span>'
        f'<abbr class="short" title="{e(TIE_BREAK_NAMES[t])}">{e(TIE_BREAK_SHORT[t])}</abbr></th>'
        for t in tie_breaks
    )
    body = "".join(
        f"<tr><td>{r.rank}</td>"
        f'<td class="who"><a href="{e(pages.player_url(r.name))}">{e(r.name)}</a></td>'
        f'<td class="num"><strong>{fmt_points(r.points)}</strong></td>'
        + "".join(f'<td class="num">{fmt_points(r.tie_breaks[t])}</td>' for t in tie_breaks)
        + f'<td class="num">{r.games}</td><td class="num">{r.wins}/{r.draws}/{r.losses}</td>'
        f'<td class="num">{r.byes}</td></tr>'
        for r in rows
    )
    return (
        '<div class="scroll"><table class="grid standings" id="standings"><thead><tr>'
        f'<th>#</th><th>entrant</th><th class="num">points</th>{head}<th class="num">games</th>'
        '<th class="num" title="won / drawn / lost (mariáš: by the money)">+/=/−</th>'
        '<th class="num">byes</th>'
        f"</tr></thead><tbody>{body}</tbody></table></div>"
    )


def crosstable_html(tour: Tournament, rows: Sequence[Row]) -> str:
    cross = tour.crosstable(list(rows))
    names = cross.names
    tables = tour.settings.get("table_size", 2) > 2
    head = "".join(f'<th title="{e(n)}">{i}</th>' for i, n in enumerate(names, 1))
    lines = []
    for i, a in enumerate(names, 1):
        cells = []
        for b in names:
            if a == b:
                cells.append('<td class="self"></td>')
                continue
            games = cross.cells.get((a, b), ())
            if tables:
                total = sum((c.points for c in games), Fraction(0))
                text = fmt_points(total) if games else ""
                cells.append(f'<td class="num">{text}</td>')
                continue
            links = []
            for c in games:
                colour = "" if c.white is None else (" white" if c.white else " black")
                label = fmt_points(c.points)
                title = f"round {c.round}" + (
                    "" if c.white is None else (", White" if c.white else ", Black")
                )
                if c.match_id is not None:
                    links.append(
                        f'<a class="r{colour}" href="/matches/{c.match_id}" '
                        f'title="{e(title)}: replay">{label}</a>'
                    )
                else:
                    links.append(f'<span class="r{colour}" title="{e(title)}">{label}</span>')
            cells.append(f'<td class="num">{" ".join(links)}</td>')
        lines.append(
            f'<tr><th class="who">{i} {e(a)}</th>{"".join(cells)}'
            f'<td class="num"><strong>{fmt_points(cross.row_total(a))}</strong></td></tr>'
        )
    note = (
        "Each cell: what the row's entrant took from the column's, summed over their tables."
        if tables
        else "Each cell: the row's result against the column, one per game (a framed "
        "result: the row had White), each linked to its replay."
    )
    return (
        '<div class="scroll"><table class="grid crosstable" id="crosstable"><thead><tr>'
        f"<th></th>{head}<th>total</th></tr></thead><tbody>{''.join(lines)}</tbody>"
        f'</table></div><p class="muted">{note}</p>'
    )


def games_html(games: Sequence[Game]) -> str:
    if not games:
        return '<p class="muted" id="games">No game decided yet.</p>'
    rows = []
    for g in sorted(games, key=lambda g: (g.board.round, g.board.number)):
        if g.board.bye:
            rows.append(
                f'<tr><td data-label="round">{g.board.round}</td>'
                f'<td data-label="board">{g.board.number}</td>'
                f'<td data-label="game">{e(g.seats[0])}</td><td data-label="note">bye</td>'
                '<td data-label="replay"></td></tr>'
            )
            continue
        if len(g.seats) == 2:
            white, black = g.seats
            score = f"{fmt_points(g.points(0))}–{fmt_points(g.points(1))}"
            seats = f"{e(white)} <strong>{score}</strong> {e(black)}"
        else:
            seats = ", ".join(
                f"{e(n)} <strong>{fmt_points(g.points(i))}</strong>" for i, n in enumerate(g.seats)
            )
        result = f"forfeit: {e(g.forfeit)}" if g.forfeit else ""
        replay = (
            f'<a href="/matches/{g.match_id}">replay #{g.match_id}</a>'
            if g.match_id is not None
            else ""
        )
        rows.append(
            f'<tr><td data-label="round">{g.board.round}</td>'
            f'<td data-label="board">{g.board.number}</td><td data-label="game">{seats}</td>'
            f'<td data-label="note">{result}</td><td data-label="replay">{replay}</td></tr>'
        )
    return (
        '<div class="scroll"><table class="grid games results" id="games"><thead><tr>'
        "<th>round</th><th>board</th><th>game (in seat order), points</th>"
        "<th>note</th>"
        f"<th>replay</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def _entry_words(spec: str, game: str) -> str:
    """How an entrant came, in words: the hall notes ``entered over the onitama protocol``
    (a game id); other specs (a bot's command) stay as code."""
    if spec.startswith("entered ") or spec in ("on the entry list", "at the Mia table"):
        said = spec.replace(f"over the {game} protocol", f"over the {_game_title(game)} protocol")
        return e(said)
    return f"<code>{e(spec)}</code>"


def _entrants_html(tour: Tournament) -> str:
    items = "".join(
        f'<li><strong>{e(x.name)}</strong> <span class="muted">'
        f"{e(pages.KIND_WORDS.get(x.kind, x.kind))}: {_entry_words(x.spec, tour.game)}</span></li>"
        for x in tour.entrants
    )
    return f'<h2 class="no-print">Entrants</h2><ul class="entrants no-print">{items}</ul>'

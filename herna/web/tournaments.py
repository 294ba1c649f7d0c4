"""The web hall's tournament pages: ``/tournaments`` (the list), ``/tournaments/{id}``
(standings with named tie-breaks, the crosstable and every game linked to its replay) and
the final table as ``/tournaments/{id}/table.csv`` and ``table.json``.

Read-only like the rest of the web hall: everything comes from the hall's database
(:class:`~herna.hall.tournament_store.TournamentStore`), computed afresh on each request.
While a tournament runs, ``static/tournament.js`` fetches the page again every few seconds
and swaps in its body, so standings and crosstable follow the games without a reload.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from herna.games.tiles.rules import rules_title
from herna.hall.hall import Hall
from herna.hall.tournament import TIE_BREAK_NAMES, Game, Row, fmt_points
from herna.hall.tournament.export import table_csv, table_json
from herna.hall.tournament_seat import entrant_view
from herna.hall.tournament_store import Tournament, TournamentStore
from herna.web import pages
from herna.web import tournament_season as season
from herna.web.accounts import ensure_csrf
from herna.web.i18n import CURRENT_LOCALE, N_, ngettext
from herna.web.i18n import gettext as _
from herna.web.params import TOURNAMENT_ID, NotFound, Param, endpoint
from herna.web.templating import TEMPLATES, render, url
from herna.web.tournament_admin import (
    TournamentAdmin,
    admin_box,
    entry_html,
    format_title,
    page_person,
)
from herna.web.tournament_times import times_view

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
            raise NotFound(N_("No tournament #%(id)s."), id=args["tournament_id"])
        return tour

    # -- handlers ----------------------------------------------------------------------------
    def list_page(self, request: Request, args: dict[str, Any]) -> Response:
        body = list_html(self.store.recent(200), self.hall.tournaments is not None)
        return self.page(_("Tournaments"), body, {"kind": "tournaments"}, "/tournaments")

    def season_page(self, request: Request, args: dict[str, Any]) -> Response:
        tours = season.load(self.store, season.chosen_ids(request))
        title = season.season_title(request)
        body = season.season_html(title, tours, request.url.query)
        return self.page(title, body, {"kind": "season"}, "/tournaments")

    def season_csv(self, request: Request, args: dict[str, Any]) -> Response:
        return season.csv_response(season.load(self.store, season.chosen_ids(request)))

    def tournament_page(self, request: Request, args: dict[str, Any]) -> Response:
        tour = self._get(args)
        data = {"kind": "tournament", "id": tour.id, "status": tour.status, "poll": POLL_SECONDS}
        entry, admin = self._entry(request, tour)
        body = tournament_html(tour, entry, admin)
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
        # The hall words it in English; the play page reads it in its own language.
        said = view.pop("said")
        view["message"] = said_words(said["message"])
        if said["place"] is not None:
            view["place"] = said_words(said["place"])
        return JSONResponse(view, headers={"cache-control": "no-store"})

    def table_json(self, request: Request, args: dict[str, Any]) -> Response:
        tour = self._get(args)
        rows = tour.standings()
        data = table_json(rows, tour.tie_breaks, tour.crosstable(rows), tour.games)
        data.update(tour.summary_json())
        return JSONResponse(data)


# -- the pages' data ------------------------------------------------------------------------------
def tournament_url(tid: int, tail: str = "") -> str:
    return f"/tournaments/{tid}{tail}"


def list_html(tours: Sequence[Tournament], can_create: bool = False) -> str:
    return render("tournaments.html", tours=tours, can_create=can_create)


TIE_BREAK_WORDS = {
    "buchholz": N_("Buchholz"),
    "sonneborn-berger": N_("Sonneborn–Berger"),
    "wins": N_("Wins"),
}
"""The tie-breaks' names (herna.hall.tournament.TIE_BREAK_NAMES, which stays English for the
API and the terminal) in the page's language."""
TIE_BREAK_HELP = {
    "buchholz": N_("the sum of the opponents' scores"),
    "sonneborn-berger": N_("the points taken from each opponent times that opponent's score"),
    "wins": N_("games won outright"),
}
TIE_BREAK_SHORT = {
    "buchholz": N_("Buch."),
    "sonneborn-berger": N_("SB"),
    "wins": N_("W"),
}
"""Column heads on narrow screens (the full names stay in the note above the table)."""
ENTRY_WORDS = {
    "entered at a play page": N_("entered at a play page"),
    "on the entry list": N_("on the entry list"),
    "at the Mia table": N_("at the Mia table"),
}
"""How an entrant came, as the hall notes it (herna.hall.tournament_live), in words."""


TEMPLATES.env.globals.update(format_title=format_title, points=fmt_points)
"""The tournament pages name formats and write points one way."""


def tie_break_name(key: str) -> str:
    return _(TIE_BREAK_WORDS[key]) if key in TIE_BREAK_WORDS else TIE_BREAK_NAMES.get(key, key)


def tournament_html(tour: Tournament, entry: str = "", admin: str = "") -> str:
    """A tournament's page body (the part ``static/tournament.js`` swaps in, then the admin's
    box)."""
    rows = tour.standings()
    settings = tour.settings
    n = len(tour.entrants)
    facts = [
        pages.game_title(tour.game),
        format_title(tour.format),
        ngettext("%(n)d entrant", "%(n)d entrants", n) % {"n": n},
    ]
    if tour.game == "tiles" and settings.get("rules"):
        rules = rules_title(str(settings["rules"]), CURRENT_LOCALE.get())
        facts.append(_("rules %(rules)s") % {"rules": rules})
    if settings.get("seed") is not None:
        facts.append(_("seed %(seed)s") % {"seed": settings["seed"]})
    session = tour.format == "session"
    context: dict[str, Any] = {}
    if session:
        if settings.get("duration"):
            facts.append(f"{float(settings['duration']):g} s")
        first, last = settings.get("first_match"), settings.get("last_match")
        context["start"] = context["timetable"] = None
        context["session"] = {
            "rounds": int(last) - int(first) + 1 if first and last else 0,
            "link": url("/history", game="mia", session=f"round.{first}-{last}"),
        }
    else:
        played = sum(1 for g in tour.games if not g.board.bye)
        facts.append(ngettext("%(n)d game", "%(n)d games", played) % {"n": played})
        context.update(times_view(tour))
        context.update(
            session=None,
            tie_breaks=[(tie_break_name(t), _(TIE_BREAK_HELP[t])) for t in tour.tie_breaks],
            columns=[(t, tie_break_name(t), _(TIE_BREAK_SHORT[t])) for t in tour.tie_breaks],
            bye=fmt_points(tour.bye_points),
            shared=settings.get("table_size", 2) > 2,
            cross=crosstable_view(tour, rows),
            games=games_view(tour.games),
        )
    return render(
        "tournament.html",
        tour=tour,
        facts=facts,
        live=tour.status in ("entry", "running"),
        poll=POLL_SECONDS,
        rows=rows,
        entry=Markup(entry),
        admin=Markup(admin),
        entrants=[entrant_view_words(x, tour.game) for x in tour.entrants],
        **context,
    )


def crosstable_view(tour: Tournament, rows: Sequence[Row]) -> dict[str, Any]:
    """The crosstable's cells: None on the diagonal; at tables of more than two the points
    taken, else one linked result per game (``colour``: the row's side, if the game has
    sides)."""
    cross = tour.crosstable(list(rows))
    tables = tour.settings.get("table_size", 2) > 2
    lines = []
    for a in cross.names:
        cells: list[Any] = []
        for b in cross.names:
            games = cross.cells.get((a, b), ())
            if a == b:
                cells.append(None)
            elif tables:
                total = sum((c.points for c in games), Fraction(0))
                cells.append(fmt_points(total) if games else "")
            else:
                cells.append([_cross_game(c) for c in games])
        lines.append({"name": a, "cells": cells, "total": fmt_points(cross.row_total(a))})
    return {"names": cross.names, "lines": lines, "tables": tables}


def _cross_game(c: Any) -> dict[str, Any]:
    if c.white is None:
        title = _("round %(n)s") % {"n": c.round}
    elif c.white:
        title = _("round %(n)s, White") % {"n": c.round}
    else:
        title = _("round %(n)s, Black") % {"n": c.round}
    return {
        "colour": "" if c.white is None else (" white" if c.white else " black"),
        "label": fmt_points(c.points),
        "title": title,
        "match_id": c.match_id,
    }


def games_view(games: Sequence[Game]) -> list[dict[str, Any]]:
    return [
        {
            "round": g.board.round,
            "board": g.board.number,
            "bye": g.board.bye,
            "seats": [(n, fmt_points(g.points(i))) for i, n in enumerate(g.seats)],
            "forfeit": g.forfeit,
            "match_id": g.match_id,
        }
        for g in sorted(games, key=lambda g: (g.board.round, g.board.number))
    ]


def entry_words(spec: str, game: str) -> tuple[str, bool]:
    """How an entrant came, in words, and whether it is code: the hall notes ``entered over
    the onitama protocol`` (a game id); other specs (a bot's command) stay as code."""
    if spec in ENTRY_WORDS:
        return _(ENTRY_WORDS[spec]), False
    if spec == f"entered over the {game} protocol":
        return _("entered over the %(game)s protocol") % {"game": pages.game_title(game)}, False
    if spec.startswith("entered "):
        return spec, False
    return spec, True


def entrant_view_words(x: Any, game: str) -> dict[str, Any]:
    how, code = entry_words(x.spec, game)
    return {"name": x.name, "kind": pages.kind_words(x.kind), "how": how, "code": code}


def said_words(words: Any) -> str:
    """A sentence of the hall's (:data:`herna.hall.tournament_seat.Said`) in the page's
    language: its template from the catalog, each part said the same way."""
    if isinstance(words, dict) and "points" in words:
        n = int(words.get("n") or 0)
        return ngettext("%(n)s point", "%(n)s points", n) % {"n": words["points"]}
    if isinstance(words, dict):
        args = {k: said_words(v) for k, v in words["args"].items()}
        return _(str(words["text"])) % args
    return str(words)

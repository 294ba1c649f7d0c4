"""The season table: ``/tournaments/season?ids=3,4,7`` (or ``ids`` ticked on the tournament
list, one parameter each) sums the standings of the tournaments an organiser chose, as a
page that prints as a clean sheet and as ``/tournaments/season.csv`` with the same query.
``name`` gives the table a title ("Class 4B, autumn").

The table itself is :mod:`herna.hall.tournament.season`; this module reads the query and the
tournaments and writes HTML.
"""

from __future__ import annotations

from collections.abc import Sequence

from starlette.requests import Request
from starlette.responses import Response

from herna.hall.tournament.season import Part, season_csv, season_table
from herna.hall.tournament_store import Tournament, TournamentStore
from herna.web import pages
from herna.web.i18n import N_
from herna.web.i18n import gettext as _
from herna.web.params import BadParameter, NotFound
from herna.web.templating import render, render_macro

MAX_PARTS = 40
"""Tournaments one season table sums (a school year of weekly ones fits)."""


def chosen_ids(request: Request) -> list[int]:
    """The tournament ids of the query: ``ids=3,4,7`` and/or ``ids=3&ids=4``, each once, in
    the order they were held. Raises :class:`BadParameter`."""
    ids: list[int] = []
    for value in request.query_params.getlist("ids"):
        for word in value.replace(" ", ",").split(","):
            if not word:
                continue
            if not word.isascii() or not word.isdigit() or len(word) > 9:
                raise BadParameter("ids", "tournament ids are whole numbers, e.g. ids=3,4,7")
            if int(word) not in ids:
                ids.append(int(word))
    if len(ids) > MAX_PARTS:
        raise BadParameter("ids", f"at most {MAX_PARTS} tournaments in one table")
    return sorted(ids)  # the season's columns in the order the tournaments were held


def season_title(request: Request) -> str:
    return (request.query_params.get("name") or "").strip()[:100] or _("Season table")


def load(store: TournamentStore, ids: list[int]) -> list[Tournament]:
    tours = []
    for tid in ids:
        tour = store.get(tid)
        if tour is None:
            raise NotFound(N_("No tournament #%(id)s."), id=tid)
        tours.append(tour)
    return tours


def parts_of(tours: Sequence[Tournament]) -> list[Part]:
    return [t.season_part() for t in tours]


def csv_response(tours: Sequence[Tournament]) -> Response:
    parts = parts_of(tours)
    return Response(
        season_csv(parts, season_table(parts)),
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": 'attachment; filename="season.csv"'},
    )


def season_html(title: str, tours: Sequence[Tournament], query: str) -> str:
    parts = parts_of(tours)
    return render(
        "tournament_season.html",
        title=title,
        tours=tours,
        parts=parts,
        rows=season_table(parts) if parts else [],
        games=sorted({pages.game_title(t.game) for t in tours}),
        unfinished=[f"#{t.id} ({status_words(t.status)})" for t in tours if t.status != "finished"],
        legend=list(zip(tours, parts, strict=True)),
        query=query,
    )


def status_words(status: str) -> str:
    """A tournament's status in words (as the tournament pages' status badge says it)."""
    if status in ("entry", "running", "aborted", "finished"):
        return str(render_macro("tournament_parts.html", "status_badge", status).striptags())
    return status

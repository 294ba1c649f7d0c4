"""The season table: ``/tournaments/season?ids=3,4,7`` (or ``ids`` ticked on the tournament
list, one parameter each) sums the standings of the tournaments an organiser chose, as a
page that prints as a clean sheet and as ``/tournaments/season.csv`` with the same query.
``name`` gives the table a title ("Class 4B, autumn").

The table itself is :mod:`herna.hall.tournament.season`; this module reads the query and the
tournaments and writes HTML.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from starlette.requests import Request
from starlette.responses import Response

from herna.hall.tournament.season import (
    SEASON_RULE,
    Part,
    SeasonRow,
    cell_text,
    part_title,
    season_csv,
    season_table,
)
from herna.hall.tournament.standings import fmt_points
from herna.hall.tournament_store import Tournament, TournamentStore
from herna.web import pages
from herna.web.params import BadParameter, NotFound

e = html.escape

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
    return (request.query_params.get("name") or "").strip()[:100] or "Season table"


def load(store: TournamentStore, ids: list[int]) -> list[Tournament]:
    tours = []
    for tid in ids:
        tour = store.get(tid)
        if tour is None:
            raise NotFound(f"No tournament #{tid}.")
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
    if not tours:
        return (
            f"<h1>{e(title)}</h1>"
            '<p class="lead" id="season-empty">Tick the tournaments on '
            '<a href="/tournaments">the tournament list</a> and press <em>Season table</em> '
            "(or give their ids: <code>/tournaments/season?ids=3,4,7</code>).</p>"
        )
    parts = parts_of(tours)
    rows = season_table(parts)
    games = {pages.GAME_TITLES.get(t.game, t.game) for t in tours}
    mixed = (
        '<p class="muted">These tournaments are of different games '
        f"({e(', '.join(sorted(games)))}): their points are summed all the same.</p>"
        if len(games) > 1
        else ""
    )
    unfinished = [t for t in tours if t.status != "finished"]
    note = (
        '<p class="muted" id="season-unfinished">Not finished yet: '
        + e(", ".join(f"#{t.id} ({t.status})" for t in unfinished))
        + ": their standings as they are now.</p>"
        if unfinished
        else ""
    )
    legend = "".join(
        f'<li><a href="/tournaments/{t.id}">{e(part_title(p))}</a> '
        f'<span class="muted">{e(pages.GAME_TITLES.get(t.game, t.game))}, '
        f"{pages.when(t.finished_at or t.created_at)}</span></li>"
        for t, p in zip(tours, parts, strict=True)
    )
    return (
        '<section id="season">'
        f"<h1>{e(title)}</h1>"
        f'<p class="tie-breaks">{e(SEASON_RULE)}</p>'
        + mixed
        + note
        + table_html(parts, rows)
        + f'<ol class="season-parts" id="season-parts">{legend}</ol>'
        + '<p class="exports no-print">'
        f'<a href="/tournaments/season.csv?{e(query)}" download id="season-csv">CSV</a> · '
        '<button type="button" id="print-sheet">Print</button></p>'
        "</section>"
    )


def table_html(parts: Sequence[Part], rows: Sequence[SeasonRow]) -> str:
    heads = "".join(f'<th class="num" title="{e(p.name)}">#{p.id}</th>' for p in parts)
    body = "".join(
        f'<tr><td>{r.rank}</td><td class="who">{e(r.name)}</td>'
        f'<td class="num"><strong>{fmt_points(r.points)}</strong></td>'
        + "".join(f'<td class="num">{cell_text(v)}</td>' for v in r.by_part)
        + f'<td class="num">{r.played}</td><td class="num">{r.games}</td>'
        f'<td class="num">{r.wins}/{r.draws}/{r.losses}</td></tr>'
        for r in rows
    )
    return (
        '<div class="scroll"><table class="grid standings season" id="season-table"><thead>'
        f'<tr><th>#</th><th>entrant</th><th class="num">points</th>{heads}'
        '<th class="num">tournaments</th><th class="num">games</th>'
        '<th class="num" title="won / drawn / lost">+/=/−</th></tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )

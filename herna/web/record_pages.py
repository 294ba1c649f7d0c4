"""The pages made of the record: the history (``/history``), one recorded game
(``/matches/{id}``), the standings (``/players``) and a player's page (``/players/{name}``).

Each answers ``304`` when the browser's copy is current (:mod:`herna.web.conditional`):
records are only ever added, so the newest record's id (:func:`~herna.web.queries.record_mark`)
says whether anything they show can have changed, and a recorded game never changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from herna.hall.records import RecordStore
from herna.hall.replays import match_summary
from herna.hall.tournament_store import TournamentStore
from herna.web import conditional, pages
from herna.web.charts import rating_charts, rating_history, versions
from herna.web.i18n import CURRENT_LOCALE, N_
from herna.web.i18n import gettext as _
from herna.web.params import NotFound, match_filter
from herna.web.queries import (
    counts_per_game,
    games_on_record,
    list_matches,
    match_finished,
    mia_sessions,
    player_names,
    player_stats,
    record_mark,
)

MATCHES_PER_SECTION = 10
"""Matches each game shows on the history overview (a game's own page shows more)."""
SESSIONS_PER_SECTION = 5
LEADERS = 5
"""Players each game shows on the Players page before a game is chosen."""
SESSIONS_PER_PAGE = 20

PageMaker = Callable[..., Response]
"""``WebApp.page``: title, body, page data, active menu entry."""


class RecordPages:
    def __init__(
        self,
        store: RecordStore,
        page: PageMaker,
        known_games: Callable[[], list[str]],
        closed: Callable[[], str | None],
        page_size: int,
        kept: conditional.KeptPages,
    ) -> None:
        self.store = store
        self.page = page
        self.known_games = known_games
        self.closed = closed
        self.page_size = page_size
        self.kept = kept

    def history_page(self, request: Request, args: dict[str, Any]) -> Response:
        mark = record_mark(self.store.engine)
        games = self.known_games()
        etag = conditional.tag("history", request.url.query, mark, games, self.closed())
        return self.kept.answer(request, etag, lambda: self._history(request, args, games))

    def _history(self, request: Request, args: dict[str, Any], known: list[str]) -> Response:
        flt, offset = match_filter(args), args["offset"]
        # The form shows the filters as typed (dates too); they were checked above.
        q = request.query_params
        shown = {k: q[k].strip() for k in (*pages.FILTER_KEYS, "session") if q.get(k)}
        engine = self.store.engine
        session = None
        first, last = flt.first_id, flt.last_id
        if first is not None and last is not None:
            # One Mia session's rounds (the session row links here).
            flt = flt.but(game="mia")
            shown["game"] = "mia"
            session = pages.MatchFilterView(first, last, flt.table)
        counts = counts_per_game(engine, flt)
        paged = bool(flt.game)
        wanted = [flt.game] if flt.game else [g for g, n in counts.items() if n]
        sections = []
        for game in wanted:
            total = counts.get(game, 0)
            if game == "mia" and session is None:
                limit = SESSIONS_PER_PAGE if paged else SESSIONS_PER_SECTION
                start = offset if paged else 0
                sessions, more = mia_sessions(engine, flt.but(game="mia"), limit, start)
                sections.append(
                    pages.GameSection(
                        game, total, sessions=sessions, offset=start, limit=limit, more=more
                    )
                )
                continue
            limit = self.page_size if paged else MATCHES_PER_SECTION
            matches = list_matches(engine, flt.but(game=game), limit, offset if paged else 0)
            sections.append(
                pages.GameSection(
                    game,
                    total,
                    matches,
                    {m.id: match_summary(m, CURRENT_LOCALE.get()) for m in matches},
                    offset=offset if paged else 0,
                    limit=limit,
                    more=(offset if paged else 0) + len(matches) < total,
                )
            )
        games = sorted(set(games_on_record(engine)) | set(known))
        names = player_names(engine, limit=500)
        body = pages.history(sections, shown, games, paged, session, names)
        return self.page(_("History"), body, {"kind": "history"}, "/history")

    def match_page(self, request: Request, args: dict[str, Any]) -> Response:
        match_id = args["match_id"]
        finished = match_finished(self.store.engine, match_id)
        place = TournamentStore(self.store.engine).place_of_match(match_id)
        if finished is None:
            return self._match(match_id, place)  # its 404
        # A record never changes once written; only the tournament it belongs to may be added.
        etag = conditional.tag("match", match_id, place, self.closed())
        modified = conditional.changed_at(finished)
        return self.kept.answer(request, etag, lambda: self._match(match_id, place), modified)

    def _match(self, match_id: int, place: Any) -> Response:
        match = self.store.get(match_id)
        if match is None:
            raise NotFound(N_("No recorded game #%(id)s."), id=match_id)
        data = {"kind": "replay", "match": match.id, "game": match.game}
        body = pages.match_page(match, place)
        return self.page(pages.match_heading(match), body, data, "/history")

    def players_page(self, request: Request, args: dict[str, Any]) -> Response:
        if args["name"]:
            return RedirectResponse(pages.player_url(args["name"]), status_code=303)
        mark = record_mark(self.store.engine)
        etag = conditional.tag("players", request.url.query, mark, self.closed())
        return self.kept.answer(request, etag, lambda: self._players(args))

    def _players(self, args: dict[str, Any]) -> Response:
        games = games_on_record(self.store.engine)
        game = args["game"] or (games[0] if len(games) == 1 else None)
        rows = self.store.standings(game) if game else []
        # No game chosen: the first few of each, not an empty page that says "Pick a game."
        leaders = {} if game else {g: self.store.standings(g, limit=LEADERS) for g in games}
        names = player_names(self.store.engine, limit=500)
        body = pages.players(game, games, rows, names, leaders)
        return self.page(_("Players"), body, {"kind": "players"}, "/players")

    def player_page(self, request: Request, args: dict[str, Any]) -> Response:
        mark = record_mark(self.store.engine)
        etag = conditional.tag("player", args["name"], mark, self.closed())
        return self.kept.answer(request, etag, lambda: self._player(args["name"]))

    def _player(self, name: str) -> Response:
        stats = player_stats(self.store, name)
        if not stats:
            raise NotFound(N_("No player '%(name)s' on record."), name=name)
        recent = self.store.matches(player=name, limit=20)
        charts = rating_charts(rating_history(self.store.engine, name), pages.game_titles())
        charts += versions(self.store.engine, name)
        body = pages.player(name, stats, recent, charts)
        return self.page(name, body, {"kind": "player"}, "/players")

"""The web hall's Starlette application: pages, JSON API, OpenAPI docs, protocol docs, static
files, the live WebSocket, the game servers' WebSocket transports (``/ws/tiles``,
``/ws/onitama``) and the page where people play Onitama (``/play/onitama``).

Everything here is read-only but the account forms (``/signup``, ``/signin``, ``/signout``:
POST, see :mod:`herna.web.accounts`) and the live tournaments' forms (``/tournaments/new``,
``/tournaments/{id}/admin``: see :mod:`herna.web.tournament_admin`): other routes accept
GET (and HEAD) only, the live WebSocket ignores what browsers send (``/ws/tiles`` and
``/ws/onitama`` are the game servers' own protocols, not writes to the hall: see
:mod:`herna.web.play`; the play page is one more client of the Onitama server over
``/ws/onitama``), and the app reads the hall (services, event bus via
:class:`LiveHub`) and the database (:class:`~herna.hall.records.RecordStore`) without writing
either. Database work runs in Starlette's thread pool so a slow query never blocks the game
servers' event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import html
import logging
import re
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import herna
from herna.games.onitama.cards import CARDS
from herna.hall.export import results_csv
from herna.hall.hall import Hall
from herna.hall.people import People, hall_key
from herna.hall.records import StoredMatch
from herna.hall.replays import REPLAYERS, match_summary
from herna.web import api_operations as api
from herna.web import conditional, openapi, pages, params
from herna.web.accounts import Accounts, SessionContext, account_box, safe_next
from herna.web.balance import BalancePage
from herna.web.bots import BotPages
from herna.web.contests import ContestPages
from herna.web.errors import ErrorPages
from herna.web.fresh import Fresh
from herna.web.guests import COOKIE, MAX_AGE, Guests, session_of
from herna.web.i18n import CURRENT_LOCALE, N_, LocaleContext
from herna.web.i18n import gettext as _
from herna.web.live import LiveHub, parse_resume
from herna.web.lobby import LobbyRoutes
from herna.web.match_documents import match_export, public_text, replay_of
from herna.web.origins import OriginCheck
from herna.web.params import NotFound, async_endpoint, endpoint, match_filter
from herna.web.play import GameSocket, SocketSettings
from herna.web.play_marias import MariasPlay, MariasPlaySettings
from herna.web.play_mia import MiaPlay
from herna.web.play_tiles import TilesPlay
from herna.web.queries import (
    count_matches,
    list_matches,
    matches_per_game,
    mia_sessions,
    player_names,
    player_stats,
    standing_json,
)
from herna.web.record_pages import RecordPages
from herna.web.reviews import ReviewPages
from herna.web.tournaments import TournamentPages

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).resolve().parent / "static"
WEB_GAME = "web"
"""``Service.game`` of the web hall itself (it is listed in ``hall.services`` too)."""

GAME_SOCKETS = {"onitama": "/ws/onitama", "tiles": "/ws/tiles"}
"""Game servers the web hall also carries over a WebSocket (see :mod:`herna.web.play`)."""

_NAME = re.compile(r"^[A-Za-z0-9_-]+$")
_DOC_PATH = re.compile(r"^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*\.md$")

FAVICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
    '<rect x="3" y="3" width="26" height="26" rx="5" fill="#1f6f5c"/>'
    '<g fill="#fff"><circle cx="11" cy="11" r="3"/><circle cx="21" cy="21" r="3"/>'
    '<circle cx="21" cy="11" r="3"/><circle cx="11" cy="21" r="3"/></g></svg>'
)
"""Served from code: package data only ships .js/.css/.md/.html/.json files."""

SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        b"script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        b"form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]


def find_docs_root() -> Path | None:
    """The repository's ``docs/`` (next to the package in a checkout), else ``./docs``."""
    for candidate in (Path(herna.__file__).resolve().parent.parent / "docs", Path.cwd() / "docs"):
        if candidate.is_dir():
            return candidate
    return None


@dataclass
class WebSettings:
    docs_root: Path | None = field(default_factory=find_docs_root)
    static_dir: Path = STATIC_DIR
    page_size: int = 50
    marias: MariasPlaySettings = field(default_factory=MariasPlaySettings)
    origins: tuple[str, ...] = ()
    """Origins besides the hall's own whose pages may open person WebSockets (herna.web.origins)."""
    review_people: bool = True
    """Review every finished game with a person in it without being asked (a page that asks
    for a review gets it either way)."""


class _Outer:
    """In front of Starlette: adds CSP and friends to every HTTP response and hands the live
    WebSocket straight to its raw ASGI endpoint."""

    def __init__(self, app: ASGIApp, live: ASGIApp) -> None:
        self.app = app
        self.live = live

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == "/ws/live":
            await self.live(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


PLAY_LABELS = {
    "marias": N_("Play mariáš"),
    "mia": N_("Play Mia"),
    "onitama": N_("Play Onitama"),
    "tiles": N_("Play a tile game"),
}
"""The home page's button for each play page (translated where it is shown); a new one says
"Play <game title>" until it has its own words."""


class WebApp:
    """Routes over one hall; :attr:`app` is the ASGI application."""

    def __init__(self, hall: Hall, hub: LiveHub, settings: WebSettings | None = None) -> None:
        self.hall = hall
        self.hub = hub
        self.settings = settings or WebSettings()
        get = ["GET"]
        # A play page's seek outlives a reload by the same grace in every game.
        sockets = SocketSettings(seek_grace=self.settings.marias.seek_grace)
        self.tiles_socket = GameSocket(hall, "tiles", sockets)
        self.onitama_socket = GameSocket(hall, "onitama", sockets)
        self.guests = Guests(hall.identity)
        self.people = People(self.store.engine, hall.identity)
        # What every visitor sees alike is computed at most once a second (issue 28).
        self._recent = Fresh(self.recent_results)
        self._totals = Fresh(functools.partial(matches_per_game, self.store.engine))
        self._tables: tuple[int, int, float, list[dict[str, Any]], str] = (-1, 0, 0.0, [], "")
        self.kept = conditional.KeptPages()
        self.accounts = Accounts(self.people, hall.identity, self.page)
        post = ["POST"]
        acc = self.accounts
        self.tournaments = TournamentPages(hall, self.page)
        self.marias = MariasPlay(
            hall, self.guests, lambda t, b, d: self.page(t, b, d), self.settings.marias
        )
        self.tiles = TilesPlay(hall, self.guests, lambda t, b, d: self.page(t, b, d))
        self.mia = MiaPlay(hall, self.guests, lambda t, b, d: self.page(t, b, d))
        self.lobby = LobbyRoutes(hall, self.guests, lambda t, b, d: self.page(t, b, d))
        self.reviews = ReviewPages(self.store, self.guests, self.page)
        self.bots = BotPages(hall, self.page)
        self.contests = ContestPages(hall, self.page)
        self.balance = BalancePage(lambda t, b, d: self.page(t, b, d))
        rec = self.records = RecordPages(
            self.store,
            self.page,
            self.known_games,
            lambda: hall.closed,
            self.settings.page_size,
            self.kept,
        )
        p = params
        # Every handler gets its parameters parsed and checked by herna.web.params (the same
        # declarations /openapi.json shows); path segments are plain strings here so that a
        # bad id is that module's 404, not a converter's crash.
        routes: list[Route | Mount | WebSocketRoute] = [
            Route("/", self.home, methods=get),
            Route("/live", async_endpoint(self.live_page), methods=get),
            Route("/live/{game}", async_endpoint(self.live_page, p.LIVE_PAGE[:1]), methods=get),
            Route(
                "/live/{game}/{table:path}",
                async_endpoint(self.live_page, p.LIVE_PAGE),
                methods=get,
            ),
            Route("/play/onitama", self.play_onitama, methods=get),
            *self.reviews.routes(),
            Route("/play/tiles", self.tiles.page, methods=get),
            Route("/tools/balance", self.balance.page, methods=get),
            Route("/signin", acc.signin_page, methods=get),
            Route("/signin", acc.signin, methods=post),
            Route("/signup", acc.signup_page, methods=get),
            Route("/signup", acc.signup, methods=post),
            Route("/signout", acc.signout, methods=post),
            Route("/language", endpoint(self.language, p.LANGUAGE), methods=get),
            Route("/status", self.status_page, methods=get),
            Route("/play/marias", self.marias.page, methods=get),
            Route("/play/mia", self.mia.page, methods=get),
            Route("/lobby", self.lobby.page, methods=get),
            Route("/history", endpoint(rec.history_page, p.HISTORY), methods=get),
            Route("/matches/{match_id}", endpoint(rec.match_page, [p.MATCH_ID]), methods=get),
            *self.tournaments.routes(),
            *self.bots.routes(),
            *self.contests.routes(),
            Route("/players", endpoint(rec.players_page, p.PLAYERS_PAGE), methods=get),
            Route("/players/{name:path}", endpoint(rec.player_page, p.PLAYER), methods=get),
            Route("/doc", self.doc_index, methods=get),
            Route("/doc/{path:path}", endpoint(self.doc_page, p.DOC), methods=get),
            Route("/docs", self.api_docs, methods=get),
            Route("/favicon.svg", self.favicon, methods=get),
            Route("/openapi.json", self.openapi_json, methods=get),
            # The JSON API: each route binds a declaration of herna.web.api_operations, which
            # /openapi.json is generated from.
            api.SERVICES.route(self.api_services),
            api.GAMES.route(self.api_games),
            api.LIVE.route(self.api_live),
            api.MATCHES.route(self.api_matches),
            api.MATCH.route(self.api_match),
            api.REPLAY.route(self.api_replay),
            api.STANDINGS.route(self.api_standings),
            api.PLAYERS.route(self.api_players),
            api.SESSIONS.route(self.api_sessions),
            api.EXPORT.route(self.api_export),
            api.TEXT.route(self.api_text),
            api.RESULTS_CSV.route(self.api_results_csv),
            api.PLAYER.route(self.api_player),
            Mount("/static", app=StaticFiles(directory=self.settings.static_dir), name="static"),
            WebSocketRoute("/ws/tiles", self.tiles_socket),
            WebSocketRoute("/ws/onitama", self.onitama_socket),
            WebSocketRoute("/ws/marias", self.marias.socket),
            WebSocketRoute("/ws/mia", self.mia.socket),
            WebSocketRoute("/ws/lobby", self.lobby.socket),
            WebSocketRoute("/ws/balance", self.balance.socket),
        ]
        self.errors = ErrorPages(self.error_page)
        # The session cookie is signed with a key kept in the database, so guests keep their
        # names and people stay signed in across restarts (see herna.web.guests).
        middleware = [
            Middleware(
                SessionMiddleware,
                secret_key=hall_key(self.store.engine, "web-session"),
                session_cookie=COOKIE,
                max_age=MAX_AGE,
                same_site="lax",
            ),
            Middleware(SessionContext, people=self.people),
            Middleware(LocaleContext),
        ]
        self.starlette = Starlette(
            routes=routes, middleware=middleware, exception_handlers=self.errors.handlers()
        )
        outer = _Outer(self.starlette, self.ws_live)
        self.app: ASGIApp = OriginCheck(outer, self.settings.origins)

    # -- helpers ----------------------------------------------------------------------------
    @property
    def store(self) -> Any:
        return self.hall.records

    def renderers(self) -> list[str]:
        """Games with a browser renderer: ``static/games/<game>.js`` files, listed live so a
        new renderer needs no code change here."""
        folder = self.settings.static_dir / "games"
        if not folder.is_dir():
            return []
        return sorted(p.stem for p in folder.glob("*.js") if _NAME.match(p.stem))

    def game_services(self) -> list[Any]:
        return [s for s in self.hall.services if s.game != WEB_GAME]

    def doc_url(self, doc: str | None) -> str | None:
        """Where this hall serves ``docs/...`` (None if the file is not there)."""
        if not doc or self.settings.docs_root is None:
            return None
        rel = doc[len("docs/") :] if doc.startswith("docs/") else doc
        if not _DOC_PATH.match(rel) or not (self.settings.docs_root / rel).is_file():
            return None
        return "/doc/" + rel

    def web_socket_url(self, path: str) -> str | None:
        """``ws://host:port<path>`` of this web hall (None when it is not listed as running)."""
        web = next((s for s in self.hall.services if s.game == WEB_GAME), None)
        base = getattr(web, "url", None)
        if not isinstance(base, str) or not base.startswith("http"):
            return None
        return "ws" + base[len("http") :] + path

    def service_json(self, service: Any) -> dict[str, Any]:
        try:
            endpoints = list(service.endpoints())
            if service.game in GAME_SOCKETS:
                # The same game server, reached through the web hall's WebSocket.
                ws = self.web_socket_url(GAME_SOCKETS[service.game])
                if ws is not None:
                    endpoints.append(ws)
            snapshot = service.snapshot()
        except Exception as exc:  # a buggy snapshot must not take the home page down
            log.exception("snapshot of %s failed", getattr(service, "game", "?"))
            endpoints, snapshot = [], {"error": f"{type(exc).__name__}: {exc}"}
        doc = getattr(service, "doc", None)
        return {
            "game": service.game,
            "protocol": service.protocol,
            "endpoints": endpoints,
            "doc": doc,
            "doc_url": self.doc_url(doc),
            "snapshot": snapshot,
        }

    def page(
        self,
        title: str,
        body: str,
        page: dict[str, Any] | None = None,
        active: str = "",
        status: int = 200,
    ) -> HTMLResponse:
        if (closed := self.hall.closed) is not None:
            # Every page says it, play pages first: a game asked for now would be refused.
            body = f'<p class="error" role="alert">{html.escape(closed)}</p>' + body
        text = pages.layout(title, body, self.renderers(), page, active, account_box())
        # The same address speaks the browser's language: caches must keep them apart.
        headers = {"content-language": CURRENT_LOCALE.get(), "vary": conditional.PAGE_VARY}
        return HTMLResponse(text, status_code=status, headers=headers)

    def live_tables(self) -> tuple[list[dict[str, Any]], str]:
        """The live hub's tables as the home page lists them, and a digest of what it shows of
        them (who plays where: its ``ETag`` is made of it), shared by every page: taken again
        when a table came or went, else at most once a second. Every deal and roll moves the
        hub's version (a hundred times a second with Mia's bots), and a page made anew each
        time could never be answered from :class:`~herna.web.conditional.KeptPages`; the
        page's script brings the list up to date from ``/api/live`` anyway."""
        hub, (version, count, at, _tables, _shown) = self.hub, self._tables
        now = time.monotonic()
        if version != hub.version and (count != len(hub.tables) or now - at >= 1.0):
            tables = hub.snapshot()
            shown = [pages.watch_item(t) for t in tables if t.get("status") == "live"][:20]
            digest = conditional.tag(shown, personal=False)
            self._tables = (hub.version, len(hub.tables), now, tables, digest)
        return self._tables[3], self._tables[4]

    def error_page(self, title: str, message: str, status: int, back: str) -> HTMLResponse:
        """An error (400, 404, 405 ...) in the hall's layout (see herna.web.errors)."""
        return self.page(title, pages.error(title, message, back), status=status)

    def known_games(self) -> list[str]:
        games = {s.game for s in self.game_services()} | set(REPLAYERS) | set(self.renderers())
        # A copy first: sync pages run in a worker thread while the loop updates the tables.
        games |= {t.game for t in list(self.hub.tables.values())}
        return sorted(games)

    # -- pages ------------------------------------------------------------------------------
    def play_pages(self) -> list[tuple[str, str]]:
        """``(path, "Play <game>")`` of every play page this hall serves whose game server runs
        here (read from the routes, so a new play page needs no change here)."""
        running = {s.game for s in self.hall.services}
        out = []
        for route in self.starlette.routes:
            path = getattr(route, "path", "")
            game = path[len("/play/") :] if path.startswith("/play/") else ""
            if (
                _NAME.match(game)
                and game in running
                and "GET" in (getattr(route, "methods", None) or ())
            ):
                label = PLAY_LABELS.get(game)
                said = _(label) if label else _("Play %(game)s") % {"game": pages.game_title(game)}
                out.append((path, said))
        return out

    def has_route(self, path: str) -> bool:
        return any(getattr(r, "path", None) == path for r in self.starlette.routes)

    def recent_results(self, per_game: int = 3) -> list[StoredMatch]:
        """The newest few results of each game, newest first (a few per game, or Mia's
        rounds would crowd out every other game; each page says them in its language). Each
        game's are
        read from its end of the index, so the cost does not grow with the record."""
        games = set(REPLAYERS) | {s.game for s in self.game_services()}
        matches: list[StoredMatch] = []
        for game in sorted(games):
            matches += self.store.matches(game=game, limit=per_game)
        matches.sort(key=lambda m: m.finished_at, reverse=True)
        return matches[:12]

    async def home(self, request: Request) -> Response:
        lang = CURRENT_LOCALE.get()
        matches = await self._recent.get()
        tables, shown = self.live_tables()
        etag = conditional.tag("home", self._recent.generation, shown, self.hall.closed)

        def render() -> Response:
            person = self.guests.person(request)
            lobby = self.has_route("/lobby")
            recent = [(m, match_summary(m, lang)) for m in matches]
            body = pages.home(self.play_pages(), lobby, tables, recent, person)
            return self.page(_("Home"), body, {"kind": "home"}, "/")

        return self.kept.answer(request, etag, render)

    def language(self, request: Request, args: dict[str, Any]) -> Response:
        """The header's language switch: a link, so that it works without JavaScript. The
        choice is kept in the session; ``next`` is a path of this hall (else home)."""
        session_of(request)["lang"] = args["to"]
        return RedirectResponse(safe_next(args["next"]), status_code=303)

    async def status_page(self, request: Request) -> Response:
        services = [self.service_json(s) for s in self.game_services()]
        web = next((s for s in self.hall.services if s.game == WEB_GAME), None)
        totals = await self._totals.get()
        body = pages.status(
            services,
            self.service_json(web) if web is not None else None,
            self.hub.snapshot(),
            totals,
            getattr(self.store, "trouble", None),
        )
        return self.page(
            _("Status"),
            body,
            {"kind": "status", **pages.status_script_words()},
            "/status",
        )

    async def live_page(self, request: Request, args: dict[str, Any]) -> Response:
        game, table = args.get("game"), args.get("table")
        games = self.known_games()
        data = {"kind": "live", "game": game, "table": table, "tables": pages.live_table_words()}
        etag = conditional.tag("live", game, table, games, self.hall.closed)
        return self.kept.answer(
            request,
            etag,
            lambda: self.page(
                pages.live_title(game, table), pages.live(game, table, games), data, "/live"
            ),
        )

    async def play_onitama(self, request: Request) -> Response:
        """A person plays Onitama here: a guest name in a signed cookie, the game over
        ``/ws/onitama`` (see :mod:`herna.web.guests` and ``static/play-onitama.js``)."""
        guest, new = self.guests.of(request)
        service = self.hall.service("onitama")
        hub = getattr(service, "hub", None)
        running = hub is not None and not getattr(hub, "closing", True)
        window = getattr(getattr(hub, "settings", None), "reconnect_window", None)
        data: dict[str, Any] = {
            "kind": "play",
            "game": "onitama",
            "guest": guest,
            "running": running,
            "cards": {c.name: [list(o) for o in c.offsets] for c in CARDS},
            # the clocks a person may choose when opening a table
            "clocks": list(getattr(getattr(hub, "settings", None), "time_controls", ())),
            "move_clock": getattr(getattr(hub, "settings", None), "move_clock", 0),
        }
        token = self.guests.token(request)
        if token is not None:
            data["token"] = token  # a proof of the signed-in person's name, for LOGIN
        response = self.page(_("Play Onitama"), pages.play_onitama(guest, running, window), data)
        if new:
            self.guests.remember(response, guest, request.url.scheme == "https")
        response.headers["cache-control"] = "no-store"
        return response

    def doc_index(self, request: Request) -> Response:
        root = self.settings.docs_root
        files: list[str] = []
        if root is not None:
            files = sorted(
                str(p.relative_to(root))
                for p in root.rglob("*.md")
                if _DOC_PATH.match(str(p.relative_to(root)))
            )
        return self.page("Docs", pages.doc_index(files))

    def doc_page(self, request: Request, args: dict[str, Any]) -> Response:
        rel = request.path_params["path"]
        root = self.settings.docs_root
        if root is None or not _DOC_PATH.match(rel) or ".." in rel:
            raise NotFound(N_("No such document."))
        path = (root / rel).resolve()
        if not path.is_relative_to(root.resolve()) or not path.is_file():
            raise NotFound(N_("No such document."))
        text = path.read_text(encoding="utf-8")
        if args["raw"]:
            return PlainTextResponse(text, media_type="text/plain; charset=utf-8")
        return self.page(rel, pages.doc(rel, render_markdown(text), f"/doc/{quote(rel)}?raw=1"))

    @functools.cached_property
    def api_spec(self) -> dict[str, Any]:
        """The OpenAPI document of the routes this app serves (they never change)."""
        return openapi.spec(openapi.api_operations(self.starlette.routes))

    def api_docs(self, request: Request) -> Response:
        return self.page("API", openapi.docs_html(self.api_spec), {"kind": "docs"}, "/docs")

    def favicon(self, request: Request) -> Response:
        return Response(
            FAVICON, media_type="image/svg+xml", headers={"cache-control": "max-age=86400"}
        )

    def openapi_json(self, request: Request) -> Response:
        return JSONResponse(self.api_spec)

    # -- API --------------------------------------------------------------------------------
    async def api_services(self, request: Request, args: dict[str, Any]) -> Response:
        return JSONResponse([self.service_json(s) for s in self.hall.services])

    async def api_games(self, request: Request, args: dict[str, Any]) -> Response:
        counts = await self._totals.get()
        running = {s.game for s in self.game_services()}
        renderers = set(self.renderers())
        games = sorted(set(self.known_games()) | set(counts))
        return JSONResponse(
            [
                {
                    "game": g,
                    "running": g in running,
                    "replayer": g in REPLAYERS,
                    "renderer": g in renderers,
                    "matches": counts.get(g, 0),
                }
                for g in games
            ]
        )

    async def api_live(self, request: Request, args: dict[str, Any]) -> Response:
        hub, public = self.hub, conditional.PUBLIC
        etag = conditional.tag("api-live", hub.version, args["game"], args["table"], personal=False)
        modified = conditional.changed_at(hub.changed_at)
        if conditional.unchanged(request, etag, modified):
            return conditional.not_modified(etag, modified, public, vary=None)
        body = "[" + hub.snapshot_json(args["game"], args["table"]) + "]"
        response = Response(body, media_type="application/json")
        return conditional.stamp(response, etag, modified, public)

    def api_matches(self, request: Request, args: dict[str, Any]) -> Response:
        flt, limit, offset = match_filter(args), args["limit"], args["offset"]
        matches = list_matches(self.store.engine, flt, limit, offset)
        return JSONResponse(
            {
                "total": count_matches(self.store.engine, flt),
                "limit": limit,
                "offset": offset,
                "matches": [
                    {**m.to_json(with_events=False), "summary": match_summary(m)} for m in matches
                ],
            }
        )

    def api_sessions(self, request: Request, args: dict[str, Any]) -> Response:
        flt, limit, offset = match_filter(args), args["limit"], args["offset"]
        gap = timedelta(minutes=args["gap"])
        sessions, more = mia_sessions(self.store.engine, flt, limit, offset, gap)
        return JSONResponse(
            {
                "limit": limit,
                "offset": offset,
                "more": more,
                "sessions": [s.to_json() for s in sessions],
            }
        )

    def api_export(self, request: Request, args: dict[str, Any]) -> Response:
        match = self.store.get(args["match_id"])
        if match is None:
            raise NotFound("no such match")
        return JSONResponse(match_export(match))

    def api_text(self, request: Request, args: dict[str, Any]) -> Response:
        match = self.store.get(args["match_id"])
        if match is None:
            raise NotFound("no such match")
        return PlainTextResponse(public_text(match))

    def api_results_csv(self, request: Request, args: dict[str, Any]) -> Response:
        name = args["name"]
        flt = match_filter({**args, "player": name})
        matches = list_matches(self.store.engine, flt, args["limit"], 0)
        filename = re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:64] or "player"
        return Response(
            results_csv(matches, name),
            media_type="text/csv; charset=utf-8",
            headers={"content-disposition": f'attachment; filename="{filename}-results.csv"'},
        )

    def api_match(self, request: Request, args: dict[str, Any]) -> Response:
        match = self.store.get(args["match_id"])
        if match is None:
            raise NotFound("no such match")
        return JSONResponse(match.to_json(with_events=False))

    def api_replay(self, request: Request, args: dict[str, Any]) -> Response:
        match = self.store.get(args["match_id"])
        if match is None:
            raise NotFound("no such match")
        replay = replay_of(match, args.get("lang") or "en")
        return JSONResponse({"match": match.to_json(with_events=False), **replay})

    def api_standings(self, request: Request, args: dict[str, Any]) -> Response:
        return JSONResponse([standing_json(s) for s in self.store.standings(args["game"])])

    def api_players(self, request: Request, args: dict[str, Any]) -> Response:
        names = player_names(self.store.engine, args["game"], args["prefix"], args["limit"])
        return JSONResponse(names)

    def api_player(self, request: Request, args: dict[str, Any]) -> Response:
        name = args["name"]
        stats = player_stats(self.store, name)
        if not stats:
            raise NotFound("no such player")
        recent = self.store.matches(player=name, limit=20)
        return JSONResponse(
            {
                "name": name,
                "games": [s.to_json() for s in stats],
                "recent": [m.to_json(with_events=False) for m in recent],
            }
        )

    # -- live -------------------------------------------------------------------------------
    async def ws_live(self, scope: Scope, receive: Receive, send: Send) -> None:
        """``/ws/live``: a raw ASGI WebSocket endpoint, since sending frames to hundreds of
        spectators is the hot path (no per-frame framework layers).

        Query parameters, all optional: ``game`` and ``table`` filter the tables;
        ``resume`` is what a reconnecting browser has, a JSON list of
        ``[game, table, stream, version]`` (from the ``stream`` and ``version`` of the
        frames it got). Then the first frame is ``{"type": "resume"}``: for each table the
        events after that version (``"mode": "resume"``) when the hub still keeps them all,
        else a fresh snapshot of the table (``"mode": "snapshot"``); see
        :mod:`herna.web.live` and docs/web.md, "Live WebSocket"."""
        message = await receive()
        if message["type"] != "websocket.connect":
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        game = (query.get("game") or [""])[0] or None
        table = (query.get("table") or [""])[0] or None
        resume_text = (query.get("resume") or [""])[0]
        resume = parse_resume(resume_text, self.hub.settings.max_tables) if resume_text else None
        await send({"type": "websocket.accept"})

        async def send_text(text: str) -> None:
            await send({"type": "websocket.send", "text": text})

        client = self.hub.connect(send_text, game, table, resume)
        if client is None:
            await _close_quietly(send, 1013, "too many spectators")
            return
        tasks = [
            asyncio.ensure_future(client.run()),
            asyncio.ensure_future(_until_disconnect(receive)),
            asyncio.ensure_future(client.closed.wait()),
        ]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self.hub.disconnect(client)
        if tasks[1].done() and not tasks[1].cancelled():
            return  # the browser went away
        code, reason = (4001, "too slow") if client.dropped else (1001, "going away")
        await _close_quietly(send, code, reason)


async def _until_disconnect(receive: Receive) -> None:
    """Read (and ignore) what the browser sends until it disconnects."""
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            return


async def _close_quietly(send: Send, code: int, reason: str) -> None:
    # A client too slow to read may never take the close frame either: do not wait on it.
    with contextlib.suppress(Exception):
        await asyncio.wait_for(
            send({"type": "websocket.close", "code": code, "reason": reason}), timeout=1.0
        )


def render_markdown(text: str) -> str:
    """Markdown to HTML (raw HTML in the source is escaped, not passed through)."""
    try:
        from markdown_it import MarkdownIt
    except ImportError:  # markdown-it-py comes with rich; without it show the text
        import html

        return f"<pre>{html.escape(text)}</pre>"
    md = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    return str(md.render(text))

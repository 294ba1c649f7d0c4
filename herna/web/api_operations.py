"""Every operation of the web hall's JSON API, declared once: path, method, parameters, the
shape of its answer (a model of :mod:`herna.web.api_models`), its errors and its words.

The route table of :class:`herna.web.app.WebApp` (and of
:class:`herna.web.tournament_admin.TournamentAdmin`) binds each declaration to its handler
with :meth:`ApiOperation.route`; the :class:`ApiRoute` it makes carries the declaration, and
:mod:`herna.web.openapi` writes ``/openapi.json`` by walking those routes. So a route without
a declaration, or a declaration without a route, cannot reach the document, and the
parameters documented are the ones :mod:`herna.web.params` checks.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass
from typing import Any, Literal, cast

from pydantic import BaseModel
from starlette.routing import Route

from herna.web import api_models as m
from herna.web import params as p
from herna.web.params import AsyncHandler, Param, SyncHandler, async_endpoint, endpoint


@dataclass(frozen=True)
class ApiOperation:
    """One method on one path of the JSON API."""

    method: Literal["GET", "POST"]
    path: str
    """As Starlette routes it (``{name:path}``); /openapi.json writes ``{name}``."""
    summary: str
    returns: str
    """The success answer in words."""
    response: Any
    """The success body's type: a model of :mod:`herna.web.api_models`, a list of one, or
    ``str`` for a text body."""
    description: str = ""
    params: tuple[Param, ...] = ()
    body: type[BaseModel] | None = None
    """The JSON request body's model."""
    status: int = 200
    media_type: str = "application/json"
    errors: tuple[int, ...] = ()
    """Error statuses the handler answers itself, beside those of its checked parameters."""
    checks_params: bool = True
    """False: :data:`params` are documented but the handler reads them itself."""
    admin_token: bool = False
    """Needs the tournament's admin token as ``Authorization: Bearer TOKEN``."""

    @property
    def openapi_path(self) -> str:
        return re.sub(r"\{(\w+)(:\w+)?\}", r"{\1}", self.path)

    def error_codes(self) -> list[int]:
        """Every error status: the handler's own and those its checked parameters answer
        (an id no record can have is a 404, any other bad value a 400)."""
        codes = set(self.errors)
        if self.checks_params:
            codes.update(404 if q.kind == "id" else 400 for q in self.params)
        return sorted(codes)

    def route(self, handler: SyncHandler | AsyncHandler) -> ApiRoute:
        """The Starlette route that serves this operation with ``handler(request, args)``."""
        return ApiRoute(self, handler)


class ApiRoute(Route):
    """A route of the JSON API; :attr:`operation` is what /openapi.json says of it."""

    def __init__(self, operation: ApiOperation, handler: SyncHandler | AsyncHandler) -> None:
        checked = operation.params if operation.checks_params else ()
        if inspect.iscoroutinefunction(handler):
            run: Any = async_endpoint(cast(AsyncHandler, handler), checked)
        else:
            run = endpoint(cast(SyncHandler, handler), checked)
        super().__init__(operation.path, run, methods=[operation.method])
        self.operation = operation


SERVICES = ApiOperation(
    "GET",
    "/api/services",
    "Running game servers",
    "Servers",
    list[m.Service],
    "Every server `herna serve` runs: protocol, addresses, live snapshot (tables, connected "
    "players and bots) and its protocol doc.",
)
GAMES = ApiOperation(
    "GET",
    "/api/games",
    "Games known to the hall",
    "Games",
    list[m.GameInfo],
    "Games with a running server, records, a replayer or a renderer.",
)
LIVE = ApiOperation(
    "GET",
    "/api/live",
    "Live tables now",
    "Tables, newest first",
    list[m.LiveTable],
    "The same tables the `/ws/live` WebSocket sends in its snapshot frame. For updates as "
    "they happen connect to `/ws/live?game=&table=`.",
    p.LIVE,
)
MATCHES = ApiOperation(
    "GET",
    "/api/matches",
    "Recorded matches, newest first",
    "A page of matches",
    m.MatchPage,
    params=p.MATCHES,
)


def _of_one_match(
    tail: str,
    summary: str,
    returns: str,
    response: Any,
    description: str = "",
    query: tuple[Param, ...] = (),
    **more: Any,
) -> ApiOperation:
    """A GET of one recorded match: its id in the path (and ``query``), 404 when no match
    has it."""
    path = "/api/matches/{match_id}" + tail
    params = (p.MATCH_ID, *query)
    return ApiOperation(
        "GET", path, summary, returns, response, description, params, errors=(404,), **more
    )


MATCH = _of_one_match("", "One recorded match (without its raw event log)", "The match", m.Match)
REPLAY = _of_one_match(
    "/replay",
    "Replay steps of a recorded match",
    "Steps",
    m.MatchReplay,
    "The spectator view after every step, from the game's `replay_steps` (see "
    "herna/hall/replays.py), each labelled in words (English unless `lang` asks for Czech).",
    query=(p.REPLAY_LANG,),
)
EXPORT = _of_one_match(
    "/export",
    "A recorded match as one JSON document",
    "The export",
    m.MatchExport,
    "Match, result in words, the match told as text, the replay steps and (Onitama) the game "
    "record. Schema `herna-match/1`, described in docs/web.md.",
)
TEXT = _of_one_match(
    "/text",
    "A recorded match as plain text",
    "text/plain; charset=utf-8",
    str,
    "Onitama: the game record in Herna's notation (tags, then the numbered moves), to paste "
    "elsewhere. Other games: the match told in words.",
    media_type="text/plain",
)
SESSIONS = ApiOperation(
    "GET",
    "/api/sessions",
    "Mia sessions, newest first",
    "A page of sessions",
    m.SessionPage,
    "Mia rounds grouped into sessions: the same players with no pause longer than `gap` minutes.",
    p.SESSIONS,
)
RESULTS_CSV = ApiOperation(
    "GET",
    # Routed before PLAYER, whose {name:path} would take ".../results.csv" as a name.
    "/api/players/{name:path}/results.csv",
    "A player's results as CSV",
    "text/csv; charset=utf-8, as an attachment",
    str,
    "One row per match, newest first: match_id, game, table, finished_at, status, seat, "
    "player, score, winner (yes/no), opponents (;-separated), result (in words).",
    p.RESULTS_CSV,
    media_type="text/csv",
)
STANDINGS = ApiOperation(
    "GET",
    "/api/standings/{game}",
    "Standings of one game, best first",
    "Standings",
    list[m.Standing],
    params=p.STANDINGS,
)
PLAYERS = ApiOperation(
    "GET",
    "/api/players",
    "Player names on record",
    "Names, in order",
    list[str],
    params=p.PLAYERS,
)
PLAYER = ApiOperation(
    "GET",
    "/api/players/{name:path}",
    "Statistics of one player",
    "Statistics",
    m.PlayerStats,
    "Per game: points, rated games, wins, OpenSkill mu/sigma and ordinal, recorded matches; "
    "plus the player's newest matches.",
    p.PLAYER,
    errors=(404,),
)
CREATE_TOURNAMENT = ApiOperation(
    "POST",
    "/api/tournaments",
    "Hold a live tournament",
    "The tournament, with its admin token",
    m.TournamentCreated,
    "A live tournament in this hall, taking entrants (`herna tournament create`). The answer "
    "carries its admin token, shown only now. Changes state: the one family of routes here "
    "that does, with start and abort. 404: this hall holds no live tournaments.",
    body=m.NewTournament,
    status=201,
    errors=(400, 404, 413, 415),
)


def _admin_action(action: str, description: str) -> ApiOperation:
    """``start`` or ``abort`` of a live tournament, for the holder of its admin token.

    The handler reads the tournament id itself: any id without its admin token is a 403, so
    nobody learns which tournaments exist."""
    return ApiOperation(
        "POST",
        f"/api/tournaments/{{tournament_id}}/{action}",
        f"{action.capitalize()} a live tournament",
        "Its new status",
        m.TournamentStatus,
        description,
        (p.TOURNAMENT_ID,),
        errors=(403, 409),
        checks_params=False,
        admin_token=True,
    )


START_TOURNAMENT = _admin_action(
    "start", "Pairs the entrants that entered (a Mia session: starts its clock)."
)
ABORT_TOURNAMENT = _admin_action(
    "abort", "Ends it now; the entrants still waiting are told it is over."
)

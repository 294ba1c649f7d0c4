"""Path and query parameters of the web hall, declared and checked in one place.

Every route lists the parameters it reads (:data:`MATCH_FILTERS`, :data:`MATCH_ID` ...).
:func:`endpoint` wraps the route's handler so that it only ever runs with parsed,
range-checked values, and :mod:`herna.web.openapi` documents the very same declarations, so
the API description and the checks cannot drift apart.

Input a parameter cannot take raises :class:`BadParameter` (``400``); a path id that no
record can have (``/api/matches/99999999999999999999``, ``/api/matches/abc``) raises
:class:`NotFound` (``404``). :mod:`herna.web.errors` turns both into a JSON body for the API
and an HTML page for the pages. What reaches the database is therefore always something it
can compare: integers within its column types, dates within ``datetime``'s range, text
without NUL (PostgreSQL refuses NUL in text and would answer with an error) and of bounded
length.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from starlette.requests import Request
from starlette.responses import Response

from herna.web.i18n import LANGUAGES, N_, gettext
from herna.web.queries import RESULTS, MatchFilter, parse_when

MAX_ID = 2**31 - 1
"""Largest match id: ``matches.id`` is an INTEGER column, 32 bits in PostgreSQL."""

MAX_TEXT = 200
"""Longest text parameter; names on record are at most 64 characters."""

_DIGITS = re.compile(r"[0-9]{1,12}")
_TABLE = re.compile(r"[a-z]{1,20}(-[a-z]{1,20}){0,3}")
"""A Mia table's records' prefix in ``session`` (letters and dashes: safe in a LIKE)."""
"""ASCII digits only: ``int()`` would also take ``" 3"``, ``"+3"``, ``"3_0"`` and ``"٣"``."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

Kind = Literal["text", "integer", "date", "id"]


class BadParameter(ValueError):
    """A parameter the route cannot take: ``400``."""

    status = 400

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"{name}: {problem}")
        self.name = name


class NotFound(LookupError):
    """Nothing here: ``404``. The message is shown to the client: in English to the API,
    in the page's language on a page (``message`` is a catalog message, marked with
    ``N_``, with ``%(name)s`` placeholders filled from ``values``)."""

    status = 404

    def __init__(self, message: str = "", **values: object) -> None:
        super().__init__(message % values if values else message)
        self.message = message
        self.values = values

    def words(self) -> str:
        """The message in the page's language."""
        said = gettext(self.message) if self.message else ""
        return said % self.values if self.values else said


@dataclass(frozen=True)
class Param:
    """One path or query parameter: how to read it and how to document it."""

    name: str
    where: Literal["path", "query"]
    kind: Kind
    description: str
    default: int | None = None
    """Integers: the value when the parameter is absent or empty."""
    low: int = 0
    high: int = 0
    end_of_day: bool = False
    """Dates: a bare ``YYYY-MM-DD`` means the end of that day (an inclusive ``until``)."""
    missing: str = N_("not found")
    """Ids: the 404 message for an id no record can have."""
    choices: tuple[str, ...] = ()
    """Text: the only values it may take (any when empty)."""

    def parse(self, raw: str | None) -> Any:
        """The value for the handler; raises :class:`BadParameter` or :class:`NotFound`."""
        if self.where == "query" and raw is not None:
            raw = raw.strip()
        if raw is None or raw == "":
            return self.default
        if len(raw) > MAX_TEXT:
            if self.kind == "id":
                raise NotFound(self.missing)
            raise BadParameter(self.name, f"at most {MAX_TEXT} characters")
        if self.kind == "id":
            if not _DIGITS.fullmatch(raw) or not 1 <= int(raw) <= MAX_ID:
                raise NotFound(self.missing)
            return int(raw)
        if _CONTROL.search(raw):
            raise BadParameter(self.name, "control characters are not allowed")
        if self.kind == "integer":
            if not _DIGITS.fullmatch(raw) or not self.low <= int(raw) <= self.high:
                raise BadParameter(
                    self.name, f"must be a whole number from {self.low} to {self.high}"
                )
            return int(raw)
        if self.kind == "date":
            return self._date(raw)
        if self.choices and raw not in self.choices:
            raise BadParameter(self.name, "must be one of " + ", ".join(self.choices))
        return raw

    def _date(self, raw: str) -> datetime:
        try:
            when = parse_when(raw, end=self.end_of_day)
            if when is None:
                raise ValueError("empty")
            # In UTC, as the database compares: near year 1 or 9999 this may not exist.
            return when.astimezone(UTC)
        except (ValueError, OverflowError):
            raise BadParameter(
                self.name, "must be a date (YYYY-MM-DD) or an ISO 8601 date-time"
            ) from None

    def schema(self) -> dict[str, Any]:
        if self.kind == "id":
            return {"type": "integer", "minimum": 1, "maximum": MAX_ID}
        if self.kind == "integer":
            out: dict[str, Any] = {"type": "integer", "minimum": self.low, "maximum": self.high}
            if self.default is not None:
                out["default"] = self.default
            return out
        if self.kind == "date":
            return {"type": "string", "examples": ["2024-05-01", "2024-05-01T12:00:00Z"]}
        if self.choices:
            return {"type": "string", "enum": list(self.choices)}
        return {"type": "string", "maxLength": MAX_TEXT}

    def openapi(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "in": self.where,
            "description": self.description,
            "required": self.where == "path",
            "schema": self.schema(),
        }


def _text(name: str, where: Literal["path", "query"], description: str) -> Param:
    return Param(name, where, "text", description)


MATCH_ID = Param(
    "match_id",
    "path",
    "id",
    "Match id.",
    missing=N_("no such match: match ids are 1 to 2147483647"),
)
TOURNAMENT_ID = Param(
    "tournament_id", "path", "id", "A tournament's id.", missing=N_("No such tournament.")
)
GAME = _text("game", "query", "Only this game (mia, marias, onitama, tiles).")
MATCH_FILTERS = (
    GAME,
    _text("player", "query", "Only matches this player took part in."),
    Param(
        "since",
        "query",
        "date",
        "Finished on or after this date (YYYY-MM-DD, UTC) or ISO 8601 date-time.",
    ),
    Param(
        "until",
        "query",
        "date",
        "Finished on or before this date (a bare date includes the whole day).",
        end_of_day=True,
    ),
    Param(
        "result",
        "query",
        "text",
        "Only matches with this result: won or lost (by the player filtered on; needs "
        "player), or a status: finished, aborted, canceled.",
        choices=RESULTS,
    ),
)
SESSION = _text(
    "session",
    "query",
    "One Mia session's rounds: TABLE.FIRST-LAST, the table (round: the bots' table, "
    "people-round: the people's table) and the match ids of its first and last round, as "
    "/api/sessions gives them (FIRST-LAST alone: any table's rounds).",
)
OFFSET = Param("offset", "query", "integer", "Skip this many.", default=0, low=0, high=10**9)
MATCHES = (
    *MATCH_FILTERS,
    Param("limit", "query", "integer", "Page size (1-500).", default=50, low=1, high=500),
    OFFSET,
)
HISTORY = (*MATCH_FILTERS, SESSION, OFFSET)
SESSIONS = (
    *[p for p in MATCH_FILTERS if p.name != "game"],
    Param(
        "gap",
        "query",
        "integer",
        "Minutes: rounds further apart start a new session (default 30).",
        default=30,
        low=1,
        high=24 * 60,
    ),
    Param("limit", "query", "integer", "Sessions per page (1-200).", default=20, low=1, high=200),
    OFFSET,
)
RESULTS_CSV = (
    _text("name", "path", "Player name."),
    *[p for p in MATCH_FILTERS if p.name != "player"],
    Param("limit", "query", "integer", "At most (1-100000).", default=10000, low=1, high=100000),
)
LIVE = (
    _text("game", "query", "Only this game."),
    _text("table", "query", "Only this table."),
)
LIVE_PAGE = (_text("game", "path", "Game."), _text("table", "path", "Table."))
STANDINGS = (_text("game", "path", "Game."),)
PLAYERS = (
    _text("game", "query", "Only players of this game."),
    _text("prefix", "query", "Names starting with this."),
    Param("limit", "query", "integer", "At most (1-1000).", default=200, low=1, high=1000),
)
PLAYERS_PAGE = (
    _text("game", "query", "Standings of this game."),
    _text("name", "query", "Go to this player's page."),
)
PLAYER = (_text("name", "path", "Player name."),)
DOC = (_text("raw", "query", "Any value: the Markdown source as plain text."),)
REPLAY_LANG = Param(
    "lang",
    "query",
    "text",
    "The language of the steps' labels: `en` (the default) or `cs`; the match page asks "
    "for its own.",
    choices=tuple(LANGUAGES),
)
LANGUAGE = (
    Param("to", "query", "text", "The language the pages speak.", choices=tuple(LANGUAGES)),
    _text("next", "query", "The page to go back to: a path of this hall."),
)


def match_filter(args: Mapping[str, Any]) -> MatchFilter:
    """The history filter from parsed :data:`MATCH_FILTERS` (and ``session`` if declared)."""
    result, player = args.get("result"), args.get("player")
    if result in ("won", "lost") and not player:
        raise BadParameter("result", f"{result} needs a player (whose result?)")
    first = last = table = None
    session = args.get("session")
    if session:
        table, dot, span = session.rpartition(".")
        if dot and not _TABLE.fullmatch(table):
            raise BadParameter("session", "the table must be round or people-round")
        first_text, dash, last_text = span.partition("-")
        if not dash or not _DIGITS.fullmatch(first_text) or not _DIGITS.fullmatch(last_text):
            raise BadParameter("session", "must be TABLE.FIRST-LAST, a table and two match ids")
        first, last = int(first_text), int(last_text)
        if not 1 <= first <= last <= MAX_ID:
            raise BadParameter("session", "must be FIRST-LAST with 1 <= FIRST <= LAST")
    return MatchFilter(
        game=args.get("game"),
        player=player,
        since=args.get("since"),
        until=args.get("until"),
        result=result,
        first_id=first,
        last_id=last,
        table=table or None,
    )


def parse_all(params: Sequence[Param], request: Request) -> dict[str, Any]:
    """Every declared parameter of ``request``, parsed; nothing undeclared."""
    out: dict[str, Any] = {}
    for p in params:
        source: Mapping[str, Any] = (
            request.path_params if p.where == "path" else request.query_params
        )
        raw = source.get(p.name)
        out[p.name] = p.parse(raw if isinstance(raw, str) else None)
    return out


SyncHandler = Callable[[Request, dict[str, Any]], Response]
AsyncHandler = Callable[[Request, dict[str, Any]], Awaitable[Response]]


def endpoint(handler: SyncHandler, params: Sequence[Param] = ()) -> Callable[[Request], Response]:
    """A Starlette endpoint that parses ``params`` and calls ``handler(request, args)``.

    It stays synchronous, so Starlette runs it (and the database reads in it) in its thread
    pool, never on the event loop the game servers share."""

    def run(request: Request) -> Response:
        return handler(request, parse_all(params, request))

    run.params = tuple(params)  # type: ignore[attr-defined]  # for herna.web.openapi's test
    return run


def async_endpoint(
    handler: AsyncHandler, params: Sequence[Param] = ()
) -> Callable[[Request], Awaitable[Response]]:
    """:func:`endpoint` for handlers that run on the event loop (no blocking work)."""

    async def run(request: Request) -> Response:
        return await handler(request, parse_all(params, request))

    run.params = tuple(params)  # type: ignore[attr-defined]
    return run

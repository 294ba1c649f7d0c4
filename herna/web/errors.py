"""Every error the web hall answers, in one place: a JSON body for the API, an HTML page for
the pages.

:class:`ErrorPages` installs Starlette exception handlers for the parameter errors of
:mod:`herna.web.params` (``400``/``404``), Starlette's own (unknown route ``404``, method
``405``, static files), database trouble and, last, anything unexpected. Each of them ends in
:meth:`ErrorPages.respond`, which picks :func:`json_error` for ``/api/...`` and
``/openapi.json`` and the hall's HTML layout for everything else.

A ``500`` is a bug in Herna, never an answer to input: input is checked before any query
runs (:mod:`herna.web.params`), and what the database still refuses as data is a ``400``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from sqlalchemy.exc import DataError, OperationalError
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection
from starlette.responses import HTMLResponse, JSONResponse, Response

from herna.web.i18n import N_
from herna.web.i18n import gettext as _
from herna.web.params import BadParameter, NotFound

log = logging.getLogger(__name__)

JSON_PREFIXES = ("/api/", "/openapi.json")

HtmlPage = Callable[[str, str, int, str], HTMLResponse]
"""(title, message, status, link back) -> the page in the hall's layout."""


def is_json_route(path: str) -> bool:
    return path.startswith(JSON_PREFIXES) or path == "/api"


def json_error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """The API's error: ``{"error": message}`` (the ``Error`` schema of /openapi.json)."""
    return JSONResponse({"error": message}, status_code=status, headers=headers)


TITLES = {
    400: N_("Bad Request"),
    403: N_("Forbidden"),
    404: N_("Not Found"),
    405: N_("Method Not Allowed"),
    413: N_("Content Too Large"),
    500: N_("Internal Server Error"),
    503: N_("Service Unavailable"),
}
"""The error pages' headings a person can meet, in the page's language (HTTP's phrases)."""
NO_PAGE = N_("no such page")
NOT_ALLOWED = N_("%(method)s is not allowed: the hall is read-only (GET and HEAD only)")
OUT_OF_RANGE = N_("a parameter is out of the range the database accepts")
DATABASE_DOWN = N_("the database is unavailable; try again shortly")
INTERNAL = N_("internal error in the web hall")


def title_of(status: int) -> str:
    """An error page's heading: HTTP's phrase for ``status``, in the page's language."""
    if status in TITLES:
        return _(TITLES[status])
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return _("Error")


class ErrorPages:
    """The hall's exception handlers; ``html_page`` draws an HTML error in the layout."""

    def __init__(self, html_page: HtmlPage) -> None:
        self.html_page = html_page

    def handlers(self) -> dict[Any, Callable[..., Any]]:
        """For ``Starlette(exception_handlers=...)``; ``Exception`` is the 500 of last resort."""
        return {
            BadParameter: self.bad_parameter,
            NotFound: self.not_found,
            HTTPException: self.http_exception,
            DataError: self.data_error,
            OperationalError: self.database_down,
            Exception: self.internal_error,
        }

    def respond(
        self,
        conn: HTTPConnection,
        status: int,
        message: str,
        headers: dict[str, str] | None = None,
        words: str | None = None,
    ) -> Response | None:
        """The API gets ``message`` (English); a page gets ``words``, else ``message`` as the
        page's catalog says it."""
        if conn.scope["type"] != "http":
            return None  # a WebSocket: the server closes it (1011)
        if is_json_route(conn.url.path):
            return json_error(status, message, headers)
        # After a bad parameter the same page without its query is the way on.
        back = conn.url.path if status == 400 else "/"
        said = words if words is not None else _(message)
        page = self.html_page(title_of(status), said, status, back)
        if headers:
            page.headers.update(headers)
        return page

    def bad_parameter(self, conn: HTTPConnection, exc: Exception) -> Response | None:
        return self.respond(conn, 400, str(exc))

    def not_found(self, conn: HTTPConnection, exc: Exception) -> Response | None:
        words = exc.words() if isinstance(exc, NotFound) and exc.message else None
        return self.respond(conn, 404, str(exc) or "not found", words=words)

    def http_exception(self, conn: HTTPConnection, exc: Exception) -> Response | None:
        assert isinstance(exc, HTTPException)
        status = exc.status_code
        words = None
        if status == 404:
            message = NO_PAGE if not is_json_route(conn.url.path) else "no such API route"
        elif status == 405:
            method = conn.scope.get("method", "")
            message = NOT_ALLOWED % {"method": method}
            words = _(NOT_ALLOWED) % {"method": method}
        else:
            message = exc.detail
        return self.respond(conn, status, message, dict(exc.headers or {}), words)

    def data_error(self, conn: HTTPConnection, exc: Exception) -> Response | None:
        # A value the database cannot compare; params.py should have refused it already.
        log.warning(
            "web hall: %s %s: the database refused a value: %s",
            _method(conn),
            conn.url.path,
            str(exc).splitlines()[0],
        )
        return self.respond(conn, 400, OUT_OF_RANGE)

    def database_down(self, conn: HTTPConnection, exc: Exception) -> Response | None:
        log.warning("web hall: database unavailable: %s", str(exc).splitlines()[0])
        return self.respond(conn, 503, DATABASE_DOWN)

    def internal_error(self, conn: HTTPConnection, exc: Exception) -> Response | None:
        # Starlette logs the exception after this answer (it re-raises it to the server).
        return self.respond(conn, 500, INTERNAL)


def _method(conn: HTTPConnection) -> str:
    return str(conn.scope.get("method", "WS"))

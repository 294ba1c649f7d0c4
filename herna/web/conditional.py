"""Conditional requests (issue 28): a page that has not changed since the browser fetched it
is answered ``304 Not Modified`` before anything is rendered or read from the records.

A page's ``ETag`` is a digest of what it shows — the live hub's tables, the generation of a
shared value (:class:`~herna.web.fresh.Fresh`), the record's last change — and of what makes
one person's copy differ from another's: the page's language, the signed-in person and the
session's form token (the header's sign-out form carries it), and the hall's closing notice.
Every tag also carries :data:`BOOT`, a number drawn when the process starts: versions and
generations count from zero again after a restart (and the code may be new), so a tag of the
last run must never match one of this run.

``Last-Modified`` goes out where a time is known (the live hub's last event, a record's
finish); ``If-Modified-Since`` is weighed only when the request has no ``If-None-Match``
(RFC 9110, 13.2.2). Pages are ``Cache-Control: private, no-cache``: a browser keeps its copy
and asks each time, a shared cache keeps none (they depend on the cookie).

A request without a current copy is answered from :class:`KeptPages` when the page is no one's
in particular (nobody signed in) and was rendered for its tag already: the tag says what the
page shows, so a page is rendered once per change, not once per visitor.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime
from email.utils import format_datetime, parsedate_to_datetime

from starlette.requests import Request
from starlette.responses import Response

from herna.web.accounts import account_box
from herna.web.i18n import CURRENT_LOCALE

BOOT = secrets.token_hex(6)
"""Drawn once per process: no tag of an earlier run matches one of this run."""
BOOTED_AT = time.time()
"""When this process started: nothing it renders is older (its code may be new)."""

PRIVATE = "private, no-cache"
"""A page: the browser revalidates its own copy; no shared cache keeps one."""
PUBLIC = "no-cache"
"""What is the same for everyone (``/api/live``): any cache may keep it, but asks each time."""
PAGE_VARY = "Accept-Language, Cookie"
"""A page at one address speaks the browser's language and greets whoever is signed in."""


def tag(*parts: object, personal: bool = True) -> str:
    """A weak ``ETag`` of ``parts`` (what the page shows); ``personal`` adds the page's
    language, the signed-in person and the session's form token, so that one person's tag is
    never another's."""
    if personal:
        parts = (*parts, CURRENT_LOCALE.get(), *account_box())
    digest = hashlib.blake2b(repr((BOOT, parts)).encode(), digest_size=12).hexdigest()
    return f'W/"{digest}"'


def changed_at(when: float | datetime | None) -> float:
    """The time to send as ``Last-Modified``: ``when`` (seconds or a datetime), but never
    before this process started."""
    if isinstance(when, datetime):
        when = (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()
    return max(when or 0.0, BOOTED_AT)


def _matches(header: str, etag: str) -> bool:
    """``If-None-Match`` by weak comparison: ``*`` or any listed tag, ``W/`` or not."""
    if header.strip() == "*":
        return True
    opaque = etag.removeprefix("W/")
    return any(t.strip().removeprefix("W/") == opaque for t in header.split(","))


def unchanged(request: Request, etag: str, modified: float | None = None) -> bool:
    """Whether the browser's copy is current: its ``If-None-Match`` names ``etag``, or (with
    no ``If-None-Match``) nothing changed since its ``If-Modified-Since``."""
    if request.method not in ("GET", "HEAD"):
        return False
    none_match = request.headers.get("if-none-match")
    if none_match is not None:
        return _matches(none_match, etag)
    since = request.headers.get("if-modified-since")
    if since is None or modified is None:
        return False
    try:
        when = parsedate_to_datetime(since).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return False  # a date we cannot read: send the page
    return int(modified) <= when


def _last_modified(modified: float) -> str | None:
    """The ``Last-Modified`` header for a change at ``modified``: whole seconds, and only once
    that second is over — a second change within the same second would otherwise go unseen
    by a browser that asks with the date alone."""
    if time.time() - modified < 1.0:
        return None
    return format_datetime(datetime.fromtimestamp(int(modified), UTC), usegmt=True)


def stamp(
    response: Response,
    etag: str,
    modified: float | None = None,
    cache: str = PRIVATE,
) -> Response:
    """``response`` with its validators and ``Cache-Control``."""
    response.headers["etag"] = etag
    response.headers["cache-control"] = cache
    if modified is not None and (said := _last_modified(modified)) is not None:
        response.headers["last-modified"] = said
    return response


def not_modified(
    etag: str, modified: float | None = None, cache: str = PRIVATE, vary: str | None = PAGE_VARY
) -> Response:
    """The ``304`` for a current copy, with the validators, ``Cache-Control`` and ``Vary`` the
    full answer would have had (RFC 9110, 15.4.5)."""
    response = Response(status_code=304)
    if vary:
        response.headers["vary"] = vary
    return stamp(response, etag, modified, cache)


class KeptPages:
    """Pages as rendered for visitors who are not signed in, kept by ``ETag`` and address and
    answered from again while their tag holds (issue 28: fifty people loading the home page
    must cost one render, not fifty, in the process that hosts the game servers; a browser
    that does not revalidate, or a first visit, still gets the whole page).

    Only pages of no one are kept: a signed-in person's page greets them and carries their
    session's form token, so it is rendered for them alone. The tag holds the language, so
    Czech and English are kept apart; the address (path and query) is part of the key because
    the header's language switch links back to it. A page whose render writes to the session
    (a new guest name) must not be answered through here: the kept copy would not write it.
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._pages: OrderedDict[tuple[str, str], tuple[bytes, list[tuple[str, str]]]] = (
            OrderedDict()
        )
        # Record pages render in worker threads, the home page on the loop.
        self._lock = threading.Lock()
        self.rendered = 0
        """Pages rendered through here (tests and benchmarks read it)."""

    def answer(
        self,
        request: Request,
        etag: str,
        render: Callable[[], Response],
        modified: float | None = None,
    ) -> Response:
        """A page: ``304`` before anything is rendered when the browser's copy is current,
        else the kept copy for this tag and address, else ``render()``; each with its
        validators."""
        if unchanged(request, etag, modified):
            return not_modified(etag, modified)
        anyone = account_box() == (None, None)
        scope = request.scope  # the address as sent (building request.url costs more)
        key = (etag, scope["path"] + "?" + scope["query_string"].decode("latin-1"))
        if anyone:
            with self._lock:
                kept = self._pages.get(key)
                if kept is not None:
                    self._pages.move_to_end(key)
            if kept is not None:
                body, headers = kept
                return stamp(Response(body, headers=dict(headers)), etag, modified)
        response = render()
        self.rendered += 1
        if anyone and response.status_code == 200 and "set-cookie" not in response.headers:
            headers = [(k, v) for k, v in response.headers.items() if k != "content-length"]
            with self._lock:
                self._pages[key] = (bytes(response.body), headers)
                while len(self._pages) > self.size:
                    self._pages.popitem(last=False)
        return stamp(response, etag, modified)

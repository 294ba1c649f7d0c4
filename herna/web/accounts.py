"""Sign up, sign in, sign out: people's reserved names in the web hall.

``GET /signup`` and ``GET /signin`` show the forms; ``POST /signup`` (with ``token``: claim a
name reserved with that token, :meth:`~herna.hall.people.People.claim`), ``POST /signin`` and
``POST /signout`` act and answer ``303 See Other`` (to ``next``, a path on this hall, else
home), or the form again with what went wrong (``400``, ``403`` for a failed form check,
``413`` for an oversized body, ``429`` while throttled).

What protects them:

* **Passwords** are hashed with Argon2id (:mod:`herna.hall.people`), off the event loop and
  at most :data:`HASHING_AT_ONCE` at a time, so a flood of sign-ins cannot stall the games.
* **Throttling.** Each failed sign-in counts against the name and against the client address:
  after :data:`FAILS_PER_NAME` failures for one name, or :data:`FAILS_PER_ADDRESS` from one
  address, within :data:`WINDOW` seconds, sign-ins there are refused with ``429`` and a
  ``Retry-After`` until the oldest failure leaves the window (the password is not even
  checked meanwhile). Sign-ups count per address (:data:`SIGNUPS_PER_ADDRESS`).
* **CSRF.** The session cookie is SameSite=Lax, so other sites' forms post without it; on top
  of that each form carries the session's random ``csrf`` token, compared in constant time,
  and a request whose ``Origin`` is another site's is refused.
* **Sessions end for good.** Signing in makes a new session id (its digest recorded in
  ``person_sessions``), CSRF token and set of proofs; signing out deletes the session id and
  revokes every proof the session was issued, so a copy of the old cookie is signed in no
  more (:class:`SessionContext`).
"""

from __future__ import annotations

import asyncio
import hmac
import html
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from herna.hall.identity import Identity, new_secret
from herna.hall.people import MIN_PASSWORD, People, Refused
from herna.web.guests import session_of
from herna.web.i18n import gettext as _
from herna.web.i18n import ngettext
from herna.web.templating import render, url

FAILS_PER_NAME = 5
FAILS_PER_ADDRESS = 20
SIGNUPS_PER_ADDRESS = 10
WINDOW = 300.0
"""Seconds a failed sign-in (or a sign-up) counts against its name and address."""
HASHING_AT_ONCE = 1
"""Password hashes computed at once (each takes 19 MiB and about 70 ms of one core): the other
core stays with the games however many sign-ins arrive."""
MAX_FORM_BYTES = 8192
MAX_FORM_FIELDS = 20
"""Fields a form may send (the new tournament form has 11)."""

Page = Callable[..., HTMLResponse]
"""``page(title, body, data=None, active="", status=200)`` of :class:`herna.web.app.WebApp`."""

KEPT = ("guest", "lang")
"""What a session keeps across signing in and out: the guest name and the language chosen."""

CURRENT_SESSION: ContextVar[dict[str, Any] | None] = ContextVar("herna_session", default=None)
"""The session of the request being answered, for the page header (who is signed in)."""


class SessionContext:
    """ASGI middleware inside the session middleware.

    * A signed-in session whose id was closed (signed out, or the name freed with ``herna
      bots remove``) is signed in no more: the cookie is signed, not stored, so a copy of it
      would otherwise stay good until it expires. The person is taken out of the session.
    * Makes the request's session known to the page layout (:data:`CURRENT_SESSION`), which
      has no request at hand.
    """

    def __init__(self, app: ASGIApp, people: People) -> None:
        self.app = app
        self.people = people

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        session = scope.get("session")
        if isinstance(session, dict) and "person" in session:
            await self._check(session)
        token = CURRENT_SESSION.set(session if isinstance(session, dict) else None)
        try:
            await self.app(scope, receive, send)
        finally:
            CURRENT_SESSION.reset(token)

    async def _check(self, session: dict[str, Any]) -> None:
        person, sid = session.get("person"), session.get("sid")
        holder = None
        if isinstance(sid, str) and isinstance(person, str):
            known, holder = self.people.cached_session(sid)
            if not known:
                holder = await run_in_threadpool(self.people.session_person, sid)
        if holder is None or holder != person:
            for key in ("person", "sid", "csrf"):
                session.pop(key, None)


def account_box() -> tuple[str | None, str | None]:
    """(person, csrf) of the current request's session, for the header."""
    session = CURRENT_SESSION.get() or {}
    person, csrf = session.get("person"), session.get("csrf")
    return (
        person if isinstance(person, str) else None,
        csrf if isinstance(csrf, str) else None,
    )


@dataclass
class Throttle:
    """Failures per key within a sliding window (kept in memory, bounded)."""

    limit: int
    window: float
    clock: Callable[[], float] = time.monotonic
    max_keys: int = 10_000
    _fails: OrderedDict[str, deque[float]] = field(default_factory=OrderedDict)

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        fails = self._fails.get(key)
        if fails is None:
            return 0.0
        now = self.clock()
        while fails and now - fails[0] >= self.window:
            fails.popleft()
        if not fails:
            del self._fails[key]
            return 0.0
        return self.window - (now - fails[0]) if len(fails) >= self.limit else 0.0

    def fail(self, key: str) -> None:
        fails = self._fails.setdefault(key, deque(maxlen=self.limit))
        fails.append(self.clock())
        self._fails.move_to_end(key)
        while len(self._fails) > self.max_keys:
            self._fails.popitem(last=False)

    def clear(self, key: str) -> None:
        self._fails.pop(key, None)


class FormError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def safe_next(value: str | None) -> str:
    """Where to go after the form: a path on this hall, never another site."""
    if not value or not value.startswith("/") or value.startswith("//") or "\\" in value:
        return "/"
    if any(ord(c) < 0x20 or c == "\x7f" for c in value) or urlsplit(value).netloc:
        return "/"
    return value


def client_address(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client is not None else "unknown"


def ensure_csrf(conn: HTTPConnection) -> str:
    session = session_of(conn)
    csrf = session.get("csrf")
    if not isinstance(csrf, str) or not csrf:
        csrf = new_secret()
        session["csrf"] = csrf
    return csrf


def _own_origin(request: Request) -> str:
    url = request.url
    return f"{url.scheme}://{url.netloc}"


async def bounded_body(request: Request, limit: int) -> bytes | None:
    """The request's body, read no further than ``limit`` bytes (None: it is longer)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None
    return body


async def read_form(request: Request) -> dict[str, str]:
    """The urlencoded form of a POST, checked: size, encoding, same origin, CSRF token."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        raise FormError(400, _("This form must be sent as application/x-www-form-urlencoded."))
    body = await bounded_body(request, MAX_FORM_BYTES)
    if body is None:
        raise FormError(413, _("The form is too large."))
    try:
        text = body.decode("utf-8")
        parsed = parse_qs(
            text, keep_blank_values=True, max_num_fields=MAX_FORM_FIELDS, errors="strict"
        )
    except (UnicodeDecodeError, ValueError) as exc:
        raise FormError(400, _("The form could not be read.")) from exc
    form = {k: v[0] for k, v in parsed.items()}
    check_form(request, form.get("csrf", ""))
    return form


def check_form(request: Request, given: str) -> None:
    """Refuse (:class:`FormError`) a form posted from another site or without this session's
    CSRF token ``given``: every form of the hall, urlencoded or multipart, passes here."""
    origin = request.headers.get("origin")
    if origin is not None and origin != _own_origin(request):
        raise FormError(403, _("The form was sent from another site."))
    if request.headers.get("sec-fetch-site") == "cross-site":
        raise FormError(403, _("The form was sent from another site."))
    expected = session_of(request).get("csrf")
    if (
        not isinstance(expected, str)
        or not expected
        or not hmac.compare_digest(given.encode("utf-8", "surrogateescape"), expected.encode())
    ):
        raise FormError(
            403, _("The form has expired (or came from elsewhere). Please try once more.")
        )


def e(text: object) -> str:
    """Escaped for HTML (the pages that are not templates yet: bots.py)."""
    return html.escape(str(text))


def signin_form(csrf: str, next_path: str, name: str = "", problem: str = "") -> str:
    return _form("signin.html", "/signup", csrf, next_path, name, problem)


def signup_form(csrf: str, next_path: str, name: str = "", problem: str = "") -> str:
    return _form(
        "signup.html", "/signin", csrf, next_path, name, problem, min_password=MIN_PASSWORD
    )


def _form(
    template: str, other: str, csrf: str, next_path: str, name: str, problem: str, **more: Any
) -> str:
    """A sign-in or sign-up form; its link to the other form keeps where the person goes
    after (``next``)."""
    other_href = url(other, next=None if next_path == "/" else next_path)
    return render(
        template,
        csrf=csrf,
        next_path=next_path,
        name=name,
        problem=problem,
        other_href=other_href,
        **more,
    )


class Accounts:
    """The account routes over one hall's database and identity."""

    def __init__(
        self,
        people: People,
        identity: Identity,
        page: Page,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.people = people
        self.identity = identity
        self.page = page
        self.by_name = Throttle(FAILS_PER_NAME, WINDOW, clock)
        self.by_address = Throttle(FAILS_PER_ADDRESS, WINDOW, clock)
        self.signups = Throttle(SIGNUPS_PER_ADDRESS, WINDOW, clock)
        self._hashing = asyncio.Semaphore(HASHING_AT_ONCE)
        self.refused_signins = 0
        self.throttled = 0

    async def _hash_work(self, fn: Callable[..., Any], *args: Any) -> Any:
        async with self._hashing:
            return await run_in_threadpool(fn, *args)

    def _respond(self, title: str, body: str, status: int = 200) -> HTMLResponse:
        response = self.page(title, body, {"kind": "account"}, "", status)
        response.headers["cache-control"] = "no-store"
        return response

    # -- pages --------------------------------------------------------------------------------
    async def signin_page(self, request: Request) -> Response:
        csrf = ensure_csrf(request)
        person = session_of(request).get("person")
        if isinstance(person, str):
            return self._respond(_("Signed in"), render("signed_in.html", person=person, csrf=csrf))
        next_path = safe_next(request.query_params.get("next"))
        return self._respond(_("Sign in"), signin_form(csrf, next_path))

    async def signup_page(self, request: Request) -> Response:
        csrf = ensure_csrf(request)
        person = session_of(request).get("person")
        if isinstance(person, str):
            return self._respond(_("Signed in"), render("signed_in.html", person=person, csrf=csrf))
        next_path = safe_next(request.query_params.get("next"))
        return self._respond(_("Sign up"), signup_form(csrf, next_path))

    # -- actions --------------------------------------------------------------------------------
    async def _form(
        self, request: Request, redraw: Callable[[str, str, str, str], str], title: str
    ) -> dict[str, str] | Response:
        try:
            return await read_form(request)
        except FormError as exc:
            csrf = ensure_csrf(request)
            return self._respond(title, redraw(csrf, "/", "", exc.message), exc.status)

    def _throttled(self, title: str, body: str, seconds: float) -> Response:
        self.throttled += 1
        response = self._respond(title, body, 429)
        response.headers["retry-after"] = str(max(1, int(seconds + 0.999)))
        return response

    async def signin(self, request: Request) -> Response:
        form = await self._form(request, signin_form, _("Sign in"))
        if isinstance(form, Response):
            return form
        name, password = form.get("name", "").strip(), form.get("password", "")
        next_path = safe_next(form.get("next"))
        csrf = ensure_csrf(request)
        name_key, address_key = "name:" + name.casefold()[:64], client_address(request)
        wait = max(self.by_name.wait(name_key), self.by_address.wait(address_key))
        if wait > 0:
            minutes = max(1, int(wait // 60 + 1))
            problem = ngettext(
                "Too many failed sign-ins; try again in about %(n)d minute.",
                "Too many failed sign-ins; try again in about %(n)d minutes.",
                minutes,
            ) % {"n": minutes}
            return self._throttled(_("Sign in"), signin_form(csrf, next_path, name, problem), wait)
        found = await self._hash_work(self.people.check, name, password) if name else None
        if found is None:
            self.refused_signins += 1
            self.by_name.fail(name_key)
            self.by_address.fail(address_key)
            return self._respond(
                _("Sign in"),
                signin_form(csrf, next_path, name, _("Wrong name or password.")),
                400,
            )
        self.by_name.clear(name_key)
        await self._start(request, found)
        return RedirectResponse(next_path, status_code=303)

    async def signup(self, request: Request) -> Response:
        form = await self._form(request, signup_form, _("Sign up"))
        if isinstance(form, Response):
            return form
        name, password = form.get("name", "").strip(), form.get("password", "")
        next_path = safe_next(form.get("next"))
        csrf = ensure_csrf(request)
        address_key = client_address(request)
        wait = self.signups.wait(address_key)
        if wait > 0:
            return self._throttled(
                _("Sign up"),
                signup_form(csrf, next_path, name, _("Too many sign-ups from here; try later.")),
                wait,
            )
        token = form.get("token", "").strip()
        if token:
            return await self._claim(request, name, token, password, next_path)
        try:
            made = await self._hash_work(self.people.sign_up, name, password)
        except Refused as exc:
            return self._respond(_("Sign up"), signup_form(csrf, next_path, name, exc.reason), 400)
        self.signups.fail(address_key)
        await self._start(request, made)
        return RedirectResponse(next_path, status_code=303)

    async def _claim(
        self, request: Request, name: str, token: str, password: str, next_path: str
    ) -> Response:
        """Sign-up with a token: the reserved name becomes this person's (a wrong token counts
        against the name and the address, as a wrong password does)."""
        csrf = ensure_csrf(request)
        name_key, address_key = "name:" + name.casefold()[:64], client_address(request)
        wait = max(self.by_name.wait(name_key), self.by_address.wait(address_key))
        if wait > 0:
            return self._throttled(
                _("Sign up"),
                signup_form(csrf, next_path, name, _("Too many wrong tokens; try again later.")),
                wait,
            )
        try:
            made = await self._hash_work(self.people.claim, name, token, password)
        except Refused as exc:
            if exc.code == "BAD_TOKEN":
                self.by_name.fail(name_key)
                self.by_address.fail(address_key)
            # The token is not written back into the form: it was wrong, or not needed.
            return self._respond(_("Sign up"), signup_form(csrf, next_path, name, exc.reason), 400)
        self.by_name.clear(name_key)
        await self._start(request, made)
        return RedirectResponse(next_path, status_code=303)

    async def signout(self, request: Request) -> Response:
        try:
            await read_form(request)
        except FormError as exc:
            return self._respond(
                _("Sign out"), render("signout_refused.html", problem=exc.message), exc.status
            )
        session = session_of(request)
        sid = session.get("sid")
        if isinstance(sid, str):
            self.identity.revoke_proofs(sid)
            await run_in_threadpool(self.people.close_session, sid)
        kept = {k: session[k] for k in KEPT if k in session}
        session.clear()
        session.update(kept)  # back to the guest name this browser had, in its language
        session["csrf"] = new_secret()
        return RedirectResponse("/", status_code=303)

    async def _start(self, request: Request, person: str) -> None:
        """A new session for ``person``: new id (recorded, so signing out can end it), new
        CSRF token (never the one from before signing in), the guest name kept for after
        signing out."""
        session = session_of(request)
        old = session.get("sid")
        if isinstance(old, str):
            self.identity.revoke_proofs(old)
            await run_in_threadpool(self.people.close_session, old)
        sid = await run_in_threadpool(self.people.open_session, person)
        kept = {k: session[k] for k in KEPT if k in session}
        session.clear()
        session.update(kept)
        session["person"] = person
        session["sid"] = sid
        session["csrf"] = new_secret()

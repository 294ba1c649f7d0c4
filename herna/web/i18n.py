"""The web hall's languages: which one a page speaks, its messages, its dates and numbers.

A page speaks the language the person chose with the switch in every page's header
(``/language?to=cs&next=...``, kept in the session cookie as ``lang``), else the best match of
the browser's ``Accept-Language`` among :data:`LANGUAGES`, else English. The choice is made
once per request by :class:`LocaleContext` and read by everything that renders
(:data:`CURRENT_LOCALE`), as the page header reads the session: templates, the Python that
words a page, and the messages the page hands its scripts (:func:`script_messages`).

Messages live in gettext catalogs made with Babel: ``herna/locale/<lang>/LC_MESSAGES/
herna.po`` in the repository, compiled to ``herna.mo`` by ``make run``/``make test``
(:func:`compile_catalogs`; a page reads the ``.po`` itself when its ``.mo`` is missing or
older; :mod:`herna.core.catalogs` reads them); docs/translating.md says how to add a language.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable
from contextvars import ContextVar
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel.core import Locale, negotiate_locale
from babel.dates import format_date, format_datetime
from babel.messages.extract import extract_from_file
from babel.numbers import format_decimal
from starlette.types import ASGIApp, Receive, Scope, Send

# The catalogs themselves are the core's (the terminal clients read them too); a page adds
# the request's language. DEFAULT is also what a browser that asks for none of ours gets.
from herna.core.catalogs import DEFAULT as DEFAULT
from herna.core.catalogs import LOCALE_DIR as LOCALE_DIR
from herna.core.catalogs import compile_catalogs as compile_catalogs
from herna.core.catalogs import translations as translations

# One marker for the hall's messages and the web's, re-exported here for the web's modules.
from herna.core.lang import N_ as N_

log = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).resolve().parent / "static"

LANGUAGES = {"cs": "Čeština", "en": "English"}
"""The languages the hall speaks, each named in itself (as the switch shows them)."""

CURRENT_LOCALE: ContextVar[str] = ContextVar("herna_locale", default=DEFAULT)
CURRENT_TARGET: ContextVar[str] = ContextVar("herna_target", default="/")
"""The path and query of the page being answered: where the language switch comes back to."""


def gettext(message: str) -> str:
    """``message`` in the language of the page being answered."""
    return translations(CURRENT_LOCALE.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations(CURRENT_LOCALE.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` as said in ``context`` (a button's "Sign up" is not a heading's)."""
    return str(translations(CURRENT_LOCALE.get()).pgettext(context, message))


_ = gettext


def accept_language(header: str) -> list[str]:
    """The languages of an ``Accept-Language`` header, most wanted first (``q=0`` dropped)."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, _sep, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag and tag != "*" and q > 0:
            ranked.append((-q, i, tag.strip()))
    return [tag for _q, _i, tag in sorted(ranked)]


def choose(chosen: object, header: str) -> str:
    """The page's language: the switch's choice, else the browser's, else :data:`DEFAULT`."""
    if isinstance(chosen, str) and chosen in LANGUAGES:
        return chosen
    return negotiate_locale(accept_language(header), list(LANGUAGES), sep="-") or DEFAULT


class LocaleContext:
    """ASGI middleware inside the session middleware: sets :data:`CURRENT_LOCALE` and
    :data:`CURRENT_TARGET` for the request (the page layout has no request at hand)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        session = scope.get("session")
        chosen = session.get("lang") if isinstance(session, dict) else None
        header = dict(scope.get("headers") or []).get(b"accept-language", b"")
        locale = choose(chosen, header.decode("latin-1"))
        query = scope.get("query_string", b"").decode("latin-1")
        target = scope.get("path", "/") + ("?" + query if query else "")
        tokens = CURRENT_LOCALE.set(locale), CURRENT_TARGET.set(target)
        try:
            await self.app(scope, receive, send)
        finally:
            CURRENT_TARGET.reset(tokens[1])
            CURRENT_LOCALE.reset(tokens[0])


# -- what the page prints -------------------------------------------------------------------


def format_when(value: datetime) -> str:
    """A moment as the page's language writes it (UTC: the hall's clock)."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return format_datetime(value, "medium", tzinfo=UTC, locale=CURRENT_LOCALE.get())


def format_day(value: datetime) -> str:
    """A day as the page's language writes it (``1. 5. 2024``, ``May 1, 2024``; UTC)."""
    if value.tzinfo is not None:
        value = value.astimezone(UTC)
    return format_date(value, "medium", locale=CURRENT_LOCALE.get())


def format_number(value: float, digits: int = 2) -> str:
    """A number as the page's language writes it, with at most ``digits`` decimals."""
    pattern = "#,##0" + ("." + "#" * digits if digits > 0 else "")
    return format_decimal(value, format=pattern, locale=CURRENT_LOCALE.get())


# -- the browser scripts' messages ------------------------------------------------------------


@functools.cache
def script_message_ids(folder: Path = STATIC_DIR) -> tuple[str | tuple[str, str], ...]:
    """The messages the browser scripts (and the games' renderers, ``static/games/``) mark
    with ``_("...")`` (static/hall.js: ``Herna._``) and, for a count, ``ngettext("...",
    "...", n)`` (a ``(singular, plural)`` pair), found the way the catalog's extraction finds
    them (Babel's JavaScript extractor), once per process."""
    found: list[str | tuple[str, str]] = []
    for path in sorted(folder.glob("*.js")) + sorted(folder.glob("games/*.js")):
        for _line, message, _comments, _context in extract_from_file("javascript", str(path)):
            if isinstance(message, tuple):
                message = (message[0], message[1])
            if isinstance(message, str | tuple) and message not in found:
                found.append(message)
    return tuple(found)


@functools.cache  # (a page block carries them on every page; the catalogs are read once too)
def plural_forms(singular: str, plural: str, locale: str) -> dict[str, str]:
    """A counted message in ``locale`` by CLDR plural category (``one``, ``few``, ``other``),
    the categories the browser's ``Intl.PluralRules`` gives a count: each category's form is
    the catalog's for a whole number of that category (the catalog's own Plural-Forms pick
    it: Czech 1 kolo, 2 kola, 5 kol)."""
    table = translations(locale)
    rule = Locale.parse(locale).plural_form
    forms: dict[str, str] = {}
    for n in range(112):  # every category of whole numbers shows up below 112
        forms.setdefault(rule(n), table.ngettext(singular, plural, n))
    return forms


def script_messages(ids: Iterable[str | tuple[str, str]] | None = None) -> dict[str, Any]:
    """The scripts' messages in the page's language (``Herna.page.messages``): only those
    that differ from the source text, which a script falls back to; a counted message as its
    forms by plural category, under its singular (``Herna.ngettext``)."""
    locale = CURRENT_LOCALE.get()
    table = translations(locale)
    out: dict[str, Any] = {}
    for message in script_message_ids() if ids is None else ids:
        if isinstance(message, tuple):
            forms = plural_forms(*message, locale)
            if forms != {"one": message[0], "other": message[1]}:
                out[message[0]] = forms
            continue
        said = table.gettext(message)
        if said != message:
            out[message] = said
    return out

"""Herna's gettext catalogs (issue #29), for whoever speaks to a person: the web hall's pages
(:mod:`herna.web.i18n` adds the request's language to them) and the terminal clients
(``herna play mia|onitama|tiles --language cs``), which have no request and no web hall.

Messages live in ``herna/locale/<lang>/LC_MESSAGES/herna.po`` (in git), compiled to
``herna.mo`` by ``make run``/``make test`` (:func:`compile_catalogs`); a catalog whose ``.mo``
is missing or older than its ``.po`` is read from the ``.po`` itself. docs/translating.md says
how to add a language.
"""

from __future__ import annotations

import functools
import io
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel.support import NullTranslations

log = logging.getLogger(__name__)

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "herna"
DEFAULT = "en"
"""The catalogs' source language: the messages are written in English."""


def compile_catalogs(root: Path | None = None) -> list[Path]:
    """Compile every ``<lang>/LC_MESSAGES/herna.po`` under ``root`` whose ``.mo`` is missing
    or older (what ``pybabel compile`` does); returns the files written."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted((root or LOCALE_DIR).glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parent.parent.name, domain=DOMAIN)
        # Written aside and renamed: test workers compiling at once never read half a file.
        part = mo.with_name(f"{mo.name}.{os.getpid()}.part")
        with part.open("wb") as f:
            write_mo(f, catalog)
        part.replace(mo)
        written.append(mo)
    return written


@functools.cache
def translations(locale: str) -> NullTranslations:
    """The catalog of ``locale`` (read once per process): its compiled ``.mo``, or, when that
    is missing or older than the ``.po`` (``herna serve`` started without ``make run``, or
    after a pull that changed the catalog), the ``.po`` compiled in memory, so that Czech is
    never silently English."""
    # Babel is imported here, not above: the protocols mark their sentences with N_, and a
    # command that never speaks to a person need not load it.
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    po = LOCALE_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"
    mo = po.with_suffix(".mo")
    if po.exists() and (not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime):
        with po.open("rb") as f:
            catalog = read_po(f, locale=locale, domain=DOMAIN)
        compiled = io.BytesIO()
        write_mo(compiled, catalog)
        compiled.seek(0)
        return Translations(compiled, domain=DOMAIN)
    found = Translations.load(str(LOCALE_DIR), [locale], DOMAIN)
    if locale != DEFAULT and not isinstance(found, Translations):
        log.warning("no catalog for %s in %s", locale, LOCALE_DIR)
    return found


def say_in(lang: str) -> Callable[[str], str]:
    """The gettext of ``lang``'s catalog, for words said outside a page (the terminal clients,
    and the game packages' words: Mia's dice, a tile game's goals); the catalog is read on
    first use. English is the messages themselves: a game server that words its events in
    English never reads a catalog."""
    if lang == DEFAULT:
        return _as_written
    return translations(lang).gettext


def _as_written(message: str) -> str:
    return message


__all__ = ["DEFAULT", "DOMAIN", "LOCALE_DIR", "compile_catalogs", "say_in", "translations"]

"""The languages the games' own words are said in (issue #29), and choosing between them.

The games and clients have no gettext catalogs (those belong to the web hall): a game that
words its events for people writes each sentence in both languages and says the one asked
for with :func:`pick`. ``en`` is English (with a game's own terms: mariáš's Czech ones, Mia's
German "Mäxchen"), ``cs`` Czech.
"""

from __future__ import annotations

from typing import Literal

Lang = Literal["en", "cs"]
LANGUAGES: tuple[Lang, ...] = ("en", "cs")


def pick(lang: str, en: str, cs: str) -> str:
    """The sentence in the language asked (``cs`` or else English)."""
    return cs if lang == "cs" else en


def lang_of(value: object) -> Lang:
    """``cs`` for any Czech language tag (``cs``, ``cs-CZ``), else ``en``."""
    return "cs" if str(value or "").lower().startswith("cs") else "en"


def N_(message: str) -> str:
    """Marks ``message`` for the web hall's catalog where it is defined (Babel extracts
    ``N_(...)`` from every module of ``herna``); it is translated where a page shows it
    (``_(...)`` on the same text, herna/web/i18n.py, or :func:`herna.core.catalogs.say_in` in
    the terminal). The logs say it as written, in English."""
    return message

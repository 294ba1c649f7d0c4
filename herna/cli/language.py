"""``--language cs|en`` for the terminal commands that speak to a person (``herna play
marias|mia|onitama|tiles``, ``herna replay``): by default from the locale, and the catalog
their own lines are said from."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from herna.games.marias.names import LANGUAGES, language_from_env

Say = Callable[[str], str]
"""A message of the catalogs (its English text) in the chosen language."""


def add_language_option(parser: argparse.ArgumentParser, what: str = "what it says") -> None:
    """Adds ``--language`` (``cs`` or ``en``; the default read from ``LC_ALL`` /
    ``LC_MESSAGES`` / ``LANG`` when the parser is built); ``what`` names what it changes."""
    parser.add_argument(
        "--language",
        choices=LANGUAGES,
        default=language_from_env(),
        help=f"the language of {what}: cs (Czech) or en (English); default from the locale "
        "(LC_ALL, LANG: cs when it starts with cs)",
    )


def say_in(lang: str) -> Say:
    """The catalogs' gettext for ``lang`` (:func:`herna.core.catalogs.say_in`), imported when a
    session starts: building the parser stays cheap."""
    from herna.core.catalogs import say_in as catalog_of

    return catalog_of(lang)


__all__ = ["Say", "add_language_option", "say_in"]

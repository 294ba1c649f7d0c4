"""``--language cs|en`` for the terminal commands that tell a mariáš game (``herna play
marias``, ``herna replay``): the language of the game's words, by default from the locale."""

from __future__ import annotations

import argparse

from herna.games.marias.names import LANGUAGES, language_from_env


def add_language_option(parser: argparse.ArgumentParser) -> None:
    """Adds ``--language`` (``cs`` or ``en``; the default read from ``LC_ALL`` /
    ``LC_MESSAGES`` / ``LANG`` when the parser is built)."""
    parser.add_argument(
        "--language",
        choices=LANGUAGES,
        default=language_from_env(),
        help="the language of the mariáš words: cs (Czech) or en (English with the Czech "
        "game terms); default from the locale (LC_ALL, LANG: cs when it starts with cs)",
    )

"""The vocabulary of CGML messages and the values written in their text: game codes,
trumps, flek levels, the size limits a peer must respect, and their parsers."""

from __future__ import annotations

import re
from dataclasses import dataclass

GAME_MARIAS = "licitovany_marias"
"""The ``<game>`` value of licitovaný mariáš (table 2-1)."""

GAME_CODES: tuple[str, ...] = (
    "PASS",
    "G",
    "BG",
    "7",
    "B7",
    "100",
    "107",
    "B100",
    "B107",
    "SMALL",
    "BIG",
    "27",
    "127",
    "B27",
    "B127",
)
"""The ``<licite>`` game codes of table 3-1, in the seed's order (lowest first)."""

LICITE_ANSWERS: tuple[str, ...] = ("YES", "NO")
"""Answers to a ``licite ask`` that names a game: "mám" / "nemám"."""

TRUMP_SUITS: tuple[str, ...] = ("R", "B", "G", "A")

PLACES: tuple[str, ...] = ("hand", "desk", "talon")
"""Values of the ``to``/``from`` attributes of ``dial`` and ``playcard``."""

MAX_ID_LENGTH = 64
"""Longest player id accepted."""
MAX_GROUP_LENGTH = 128
"""Longest group id accepted: room for a ticket (a group id, a dot and a 32-character secret)
even around a 64-character group id from another login server."""
MAX_TOKEN_LENGTH = 128
"""Longest name token accepted (Herna's tokens have 32 characters)."""
MAX_NAME_LENGTH = 64
"""Longest player name, game name or url accepted."""
MAX_TEXT_LENGTH = 1024
"""Longest free text (abort, disconnect, pause, renonc, error messages) accepted."""
MAX_FLEK = 1 << 20
"""Largest flek multiplier a message may carry."""


class MessageError(ValueError):
    """A well-formed XML element that is not a valid CGML message."""


@dataclass(frozen=True, slots=True)
class Trumf:
    """Trumps, optionally with the "strkací" (helper) suit of dvě sedmy: ``G`` or ``G:B``."""

    suit: str
    second: str | None = None

    def __str__(self) -> str:
        return self.suit if self.second is None else f"{self.suit}:{self.second}"


@dataclass(frozen=True, slots=True)
class Flek:
    """A flek level (multiplier); ``game:seven`` in colon notation for games with a sedma."""

    game: int
    seven: int | None = None

    def __str__(self) -> str:
        return str(self.game) if self.seven is None else f"{self.game}:{self.seven}"


# -- values in text ----------------------------------------------------------------------

_INT = re.compile(r"[0-9]{1,9}")
_XML_INVALID = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


MAX_FILL = 3600
"""Longest fill wait a ``<connect fill>`` may ask for (seconds)."""
MAX_GROUP_GAMES = 100
"""Most games a ``<newgroup games>`` may ask a group to play."""


def parse_int(text: str, what: str) -> int:
    """A non-negative integer of at most nine digits (``what`` names it in the error)."""
    if not _INT.fullmatch(text):
        raise MessageError(f"{what} must be a non-negative integer, got {text[:20]!r}")
    return int(text)


def parse_game_code(text: str, allow_answers: bool = False) -> str:
    code = text.strip().upper()
    if code in GAME_CODES or (allow_answers and code in LICITE_ANSWERS):
        return code
    raise MessageError(f"unknown game code {text[:20]!r}")


def parse_trumf(text: str) -> Trumf:
    """``"G"`` or ``"G:B"`` in any case."""
    parts = text.strip().upper().split(":")
    if len(parts) > 2 or any(p not in TRUMP_SUITS for p in parts):
        raise MessageError(
            f"trumps must be R, B, G or A, optionally ':' a second suit; got {text[:20]!r}"
        )
    return Trumf(parts[0], parts[1] if len(parts) == 2 else None)


def parse_flek(text: str) -> Flek:
    """``"4"`` or ``"2:1"``."""
    parts = text.strip().split(":")
    if len(parts) > 2:
        raise MessageError(f"flek must be N or N:M, got {text[:20]!r}")
    values = [parse_int(p.strip(), "flek") for p in parts]
    if any(v < 1 or v > MAX_FLEK for v in values):
        raise MessageError(f"flek levels must be between 1 and {MAX_FLEK}")
    return Flek(values[0], values[1] if len(values) == 2 else None)


def public_group(group: str) -> str:
    """The group id of a ticket (what comes before its last dot), for logs and people: a
    ticket's secret must never be shown."""
    head, dot, _ = group.rpartition(".")
    return head if dot else group


def clean_text(value: str) -> str:
    """``value`` with characters XML 1.0 cannot carry replaced by U+FFFD."""
    return _XML_INVALID.sub("\ufffd", value)

"""What both Onitama dialects share: limits, reason codes, names, record framing and the
requests a client connection hands to the server.

>>> LineBuffer(separator=b"\\0").feed(b"LOGIN|eva\\0PING|PING\\0MAKE")
[b'LOGIN|eva', b'PING|PING']
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field

from herna.core.lang import N_
from herna.hall.identity import name_key as look_alike_key

MAX_LINE = 1024
"""Longest record accepted, in bytes without its terminator (the longest legal one is ~120)."""

MAX_ERRORS = 100
"""Bad records in a row after which the server closes the connection (``TOO_MANY_ERRORS``)."""

MAX_NAME_LENGTH = 32
NAME_EXTRA_CHARS = frozenset("_-.")

# login refusals
INVALID_NAME = "INVALID_NAME"
NAME_IN_USE = "NAME_IN_USE"
RESERVED_NAME = "RESERVED_NAME"
BAD_TOKEN = "BAD_TOKEN"
HOUSE_BOT_NAME = "HOUSE_BOT_NAME"
WRONG_DIALECT = "WRONG_DIALECT"

# errors
LINE_TOO_LONG = "LINE_TOO_LONG"
NOT_UTF8 = "NOT_UTF8"
UNKNOWN_COMMAND = "UNKNOWN_COMMAND"
WRONG_FIELD_COUNT = "WRONG_FIELD_COUNT"
NOT_LOGGED_IN = "NOT_LOGGED_IN"
ALREADY_LOGGED_IN = "ALREADY_LOGGED_IN"
NOT_IN_GAME = "NOT_IN_GAME"
TOO_MANY_ERRORS = "TOO_MANY_ERRORS"
SERVER_SHUTDOWN = "SERVER_SHUTDOWN"
LOGIN_TIMEOUT = "LOGIN_TIMEOUT"
SLOW_READER = "SLOW_READER"
SEAT_TAKEN_OVER = "SEAT_TAKEN_OVER"
SEEK_CANCELLED = "SEEK_CANCELLED"
TOURNAMENT_OVER = "TOURNAMENT_OVER"
CLOSED = "CLOSED"
NOTHING_TO_CLAIM = "NOTHING_TO_CLAIM"
NO_DRAW_OFFER = "NO_DRAW_OFFER"
DRAW_NOT_NOW = "DRAW_NOT_NOW"
NO_REMATCH = "NO_REMATCH"
ALREADY_WAITING = "ALREADY_WAITING"

ERROR_TEXT = {
    LINE_TOO_LONG: f"a message may be at most {MAX_LINE} bytes",
    NOT_UTF8: N_("the message is not UTF-8 text"),
    UNKNOWN_COMMAND: N_("unknown command"),
    WRONG_FIELD_COUNT: N_("wrong number of fields for this command"),
    NOT_LOGGED_IN: N_("log in first"),
    ALREADY_LOGGED_IN: N_("this connection is logged in already"),
    NOT_IN_GAME: N_("you are not in a game"),
    TOO_MANY_ERRORS: N_("too many bad messages in a row; closing"),
    SERVER_SHUTDOWN: N_("the server is shutting down"),
    LOGIN_TIMEOUT: N_("no login in time; closing"),
    SLOW_READER: N_("you do not read what the server sends; closing"),
    SEAT_TAKEN_OVER: N_("your seat was taken back by a new connection that proved it is yours"),
    SEEK_CANCELLED: N_("you cancelled your seek in the lobby; closing"),
    TOURNAMENT_OVER: N_("the tournament you waited for is over; closing"),
    CLOSED: N_("the hall takes no new games until it is restarted; closing"),
    NOTHING_TO_CLAIM: N_("your opponent is neither away nor out of time past the grace period"),
    NO_DRAW_OFFER: N_("your opponent has not offered a draw"),
    DRAW_NOT_NOW: N_("you offered a draw already; make a move before you offer again"),
    NO_REMATCH: N_("there is no opponent of a finished game here to play again"),
    ALREADY_WAITING: N_("you are waiting for a game already"),
}
"""One English sentence per error code, for dialects that carry text rather than codes (marked
for the catalogs: `herna play onitama --language cs` says them in Czech)."""

# GAME_OVER reasons (a Herna extension field of the line dialect)
WAY_OF_THE_STONE = "way_of_the_stone"
WAY_OF_THE_STREAM = "way_of_the_stream"
OPPONENT_LEFT = "opponent_left"
RESIGNED = "resigned"
DRAW_AGREED = "draw_agreed"


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player name, or None. Valid: 1-32 characters, each a letter,
    a digit, ``_``, ``-`` or ``.`` (letters and digits of any script)."""
    if not name or len(name) > MAX_NAME_LENGTH:
        return INVALID_NAME
    if not all(c.isalnum() or c in NAME_EXTRA_CHARS for c in name):
        return INVALID_NAME
    return None


def name_key(name: str) -> str:
    """Names are unique regardless of case and look-alike letters: ``Eva``, ``eva`` and
    ``Еva`` (Cyrillic ``Е``) are the same player (the hall's one comparison of names)."""
    return look_alike_key(name)


def printable(text: str, limit: int = 80) -> str:
    """A short, log-safe excerpt of a peer's record."""
    clean = "".join(c if c.isprintable() else "?" for c in text[:limit])
    return clean + ("…" if len(text) > limit else "")


# -- framing -----------------------------------------------------------------------------------
class LineBuffer:
    """Cuts a byte stream into records ended by ``separator``; never holds more than
    ``max_line`` bytes.

    :meth:`feed` returns complete records (without the separator; for ``\\n`` also without a
    trailing ``\\r``) and a :class:`Garbage` ``LINE_TOO_LONG`` for a record over the limit,
    once per such record; the rest of that record is skipped up to its separator (for a peer
    that never sends one, for ever).
    """

    def __init__(self, max_line: int = MAX_LINE, separator: bytes = b"\n") -> None:
        self.max_line = max_line
        self.separator = separator
        self._strip_cr = separator == b"\n"
        self._buf = bytearray()
        self._skipping = False

    @property
    def pending(self) -> int:
        """Bytes held for an unfinished record."""
        return len(self._buf)

    def held(self) -> tuple[bytes, bool]:
        """What it holds (the unfinished record, whether it skips an overlong one), for
        :meth:`hold` in another process."""
        return bytes(self._buf), self._skipping

    def hold(self, held: tuple[bytes, bool]) -> None:
        self._buf = bytearray(held[0])
        self._skipping = held[1]

    @property
    def idle(self) -> bool:
        """Nothing held and nothing being skipped: the next byte starts a new record."""
        return not self._buf and not self._skipping

    def feed(self, data: bytes) -> list[bytes | Garbage]:
        sep = self.separator
        n = len(data)
        if n and not self._buf and not self._skipping and data.find(sep) == n - 1:
            # The usual read: exactly one whole record.
            line = data[:-1]
            if self._strip_cr and line.endswith(b"\r"):
                line = line[:-1]
            return [Garbage(LINE_TOO_LONG) if len(line) > self.max_line else line]
        out: list[bytes | Garbage] = []
        start = 0
        while start < n:
            end = data.find(sep, start)
            if end == -1:
                chunk = data[start:]
                if self._skipping:
                    return out
                if len(self._buf) + len(chunk) > self.max_line:
                    self._buf.clear()
                    self._skipping = True
                    out.append(Garbage(LINE_TOO_LONG))
                else:
                    self._buf += chunk
                return out
            piece = data[start:end]
            start = end + 1
            if self._skipping:
                self._skipping = False
                continue
            if self._buf:
                self._buf += piece
                line = bytes(self._buf)
                self._buf.clear()
            else:
                line = piece
            if self._strip_cr and line.endswith(b"\r"):
                line = line[:-1]
            if len(line) > self.max_line:
                out.append(Garbage(LINE_TOO_LONG))
            else:
                out.append(line)
        return out


# -- client → server requests ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Login:
    name: str
    problem: str | None = None
    """``INVALID_NAME`` when the name breaks the rules (see :func:`name_problem`)."""
    proof: str | None = None
    """**[Herna extension]** the optional third field: the name's token (``herna bots add``)
    or the seat secret of a game to come back to. None when the client sent two fields."""
    seek: str | None = field(default=None, repr=False)
    """**[Herna extension]** the optional fourth field: what the player wants from the hall's
    lobby (:func:`herna.hall.lobby.parse_seek`); None when the client sent fewer fields."""


@dataclass(frozen=True, slots=True)
class MakeMove:
    """A move with its fields as sent (trimmed; squares as names like ``c1``, or as the
    client wrote them when they are not on the board); the server checks them."""

    card: str
    frm: str
    to: str


@dataclass(frozen=True, slots=True)
class StalemateRequest:
    """The player to move has no move and gives up ``card`` (``STALEMATE|card`` in the line
    dialect, ``MAKE_PASS|card`` in the NUL dialect); the table's rule says what happens."""

    card: str


@dataclass(frozen=True, slots=True)
class ClaimWin:
    """**[Herna extension]** ``CLAIM_WIN``: the opponent is away or out of time past the grace
    period (the server said ``CLAIMABLE``) and this player takes the win."""


@dataclass(frozen=True, slots=True)
class GameRequest:
    """**[Herna extension]** in a game: ``RESIGN``, ``OFFER_DRAW``, ``ACCEPT_DRAW`` or
    ``DECLINE_DRAW`` (``command``); the server decides."""

    command: str


@dataclass(frozen=True, slots=True)
class AfterGameRequest:
    """**[Herna extension]** after a game on a seat that is not paired again by itself (seek
    word ``once``): ``REMATCH`` (offer or accept the same opponent again), ``DECLINE_REMATCH``
    or ``PLAY_AGAIN`` (wait in the lobby with the login's seek again)."""

    command: str


GAME_REQUESTS = ("RESIGN", "OFFER_DRAW", "ACCEPT_DRAW", "DECLINE_DRAW")
AFTER_GAME_REQUESTS = ("REMATCH", "DECLINE_REMATCH", "PLAY_AGAIN")


@dataclass(frozen=True, slots=True)
class Ping:
    """A keepalive (NUL dialect): the connection answers it itself."""


@dataclass(frozen=True, slots=True)
class Garbage:
    """A record that is not a message; ``reason`` is the error code it is answered with."""

    reason: str
    text: str = ""


Request = Login | MakeMove | StalemateRequest | ClaimWin | GameRequest | AfterGameRequest
ClientMessage = Request | Ping | Garbage


def split_fields(
    record: bytes | str, field_counts: Mapping[str, tuple[int, ...]]
) -> list[str] | Garbage | None:
    """The ``|``-separated fields of one client record (its terminator removed), the command
    upper-cased: both dialects frame differently but split, check and refuse alike. ``None``
    for a blank record, :class:`Garbage` for one that is not a message of ``field_counts``."""
    if isinstance(record, bytes):
        if len(record) > MAX_LINE:
            return Garbage(LINE_TOO_LONG)
        try:
            text = record.decode("utf-8")
        except UnicodeDecodeError:
            return Garbage(NOT_UTF8)
    else:
        text = record
    if not text.strip():
        return None
    fields = [f.strip() for f in text.split("|")]
    fields[0] = fields[0].upper()
    expected = field_counts.get(fields[0])
    if expected is None:
        return Garbage(UNKNOWN_COMMAND, printable(text))
    if len(fields) not in expected:
        return Garbage(WRONG_FIELD_COUNT, printable(text))
    return fields


# -- what a connection tells its transport ------------------------------------------------------
class Phase(enum.Enum):
    LOGIN = "login"
    """Connected (or, in the NUL dialect, back from a game), waiting for ``LOGIN``."""
    LOBBY = "lobby"
    """Logged in, waiting for a game."""
    GAME = "game"
    """Playing."""
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class Reply:
    """Bytes the transport sends at once (an error, a keepalive answer)."""

    data: bytes
    refusal: bool = True
    """An error answer (counted and logged as a refusal); False for a keepalive answer."""


@dataclass(frozen=True, slots=True)
class Close:
    """The transport should close the connection (after sending any replies)."""

    reason: str

"""The NUL dialect of the Onitama protocol: the final version of seed 003's own project.

The seed is the protocol draft of a university project (``lukas-varga/fav-ups``); the server
and the pygame client it shipped speak a later dialect, which Herna speaks to every connection
whose first record ends in a NUL byte. What differs from the line dialect:

* a record ends with ``\\0``, not ``\\n``; fields are separated by ``|``;
* squares are two 0-based integer fields, row then column, with row 0 the top row of the
  board as White sees it (Black's back row, rank 5) and column 0 the ``a`` file;
* cards are sent in lower case (the client looks them up by that spelling);
* ``LOGIN|name`` is answered ``WAITING|name`` or ``FAILED|text``; ``START`` has eight fields,
  ``START|black|white|b1|b2|spare|w1|w2``; White moves first;
* the player without a move sends ``MAKE_PASS|card``: that card and the spare change places
  (the official rule), answered ``PASS_WAS_MADE|card``;
* ``INVALID_MOVE|text``; ``DISCONNECT|name`` when the opponent drops; ``GAME_OVER|winner``;
* ``PING|PING`` is answered ``PING|PING`` (the client calls the connection broken without it);
* after ``GAME_OVER`` the client logs in again for the next game;
* a returning player gets ``RECONNECT`` with 35 fields (names, cards, ``1``/``0`` for
  "you are White" and "White to move", then the 25 squares row by row as ``wK``, ``wP``,
  ``bK``, ``bP`` or ``--``); the opponent gets ``RECONNECT|name``.

Herna extensions, used only by clients that send ``LOGIN`` with a third field (so that the
published client, which treats every unknown record as an error, never sees them): the third
field is a token or a seat secret, and such a client gets ``SEAT_KEY|secret`` before ``START``.

>>> parse_final(b"MAKE_MOVE|ox|4|2|3|2")
MakeMove(card='ox', frm='c1', to='c2')
>>> FINAL.start("eva", "ota", ("Ox", "Boar", "Horse", "Elephant", "Crab"), "s3cret", False)
b'START|ota|eva|horse|elephant|crab|ox|boar\\x00'
>>> FINAL.move_was_made("Ox", square_of(4, 2), square_of(3, 2))
b'MOVE_WAS_MADE|ox|4|2|3|2\\x00'
"""

from __future__ import annotations

from collections.abc import Sequence

from herna.games.onitama.board import square_name
from herna.games.onitama.cards import WHITE
from herna.protocols.onitama.common import (
    ERROR_TEXT,
    ClientMessage,
    Garbage,
    Login,
    MakeMove,
    Ping,
    StalemateRequest,
    name_problem,
    printable,
    split_fields,
)

MAX_READ = 255
"""The published client disconnects when one ``recv`` brings more than this many bytes; every
record Herna sends it is far shorter (the longest, ``RECONNECT``, is ~200 with 32-character
names)."""

_PIECES = {"W": "wK", "w": "wP", "B": "bK", "b": "bP", ".": "--"}
_FIELD_COUNTS = {"LOGIN": (2, 3), "MAKE_MOVE": (6,), "MAKE_PASS": (2,), "PING": (2,)}


def square_of(row: int, col: int) -> int:
    """The engine's square (``rank * 5 + file``, rank 0 = rank 1) for a 0-based row/column."""
    return (4 - row) * 5 + col


def row_col(square: int) -> tuple[int, int]:
    """The 0-based row (0 = rank 5, Black's back row) and column of an engine square."""
    return 4 - square // 5, square % 5


def _square(row: str, col: str) -> str:
    """A square name for the server to check; off-board or unreadable squares stay as the
    client wrote them (with a comma, so they can never name a square)."""
    try:
        r, c = int(row), int(col)
    except ValueError:
        return f"{printable(row, 8)},{printable(col, 8)}"
    if 0 <= r <= 4 and 0 <= c <= 4:
        return square_name(square_of(r, c))
    return f"{r},{c}"


def parse_final(record: bytes | str) -> ClientMessage | None:
    """Decode one client record (without its NUL); None for an empty one."""
    fields = split_fields(record, _FIELD_COUNTS)
    if fields is None or isinstance(fields, Garbage):
        return fields
    command = fields[0]
    if command == "PING":
        return Ping()
    if command == "LOGIN":
        proof = fields[2] if len(fields) == 3 else None
        return Login(fields[1], name_problem(fields[1]), proof)
    if command == "MAKE_MOVE":
        return MakeMove(fields[1], _square(fields[2], fields[3]), _square(fields[4], fields[5]))
    return StalemateRequest(fields[1])


def _record(*fields: str) -> bytes:
    return ("|".join(fields) + "\0").encode()


def _text(text: str) -> str:
    """Free text as one field: no separator, no NUL, nothing the client's parser trims."""
    return " ".join(text.replace("|", "/").replace("\0", " ").split()) or "-"


def _cards(cards: Sequence[str]) -> list[str]:
    """Herna's ``(w1, w2, b1, b2, spare)`` in this dialect's order: Black's two, the spare,
    White's two, in lower case."""
    w1, w2, b1, b2, spare = (c.lower() for c in cards)
    return [b1, b2, spare, w1, w2]


class FinalDialect:
    """The NUL dialect as the server speaks it (stateless)."""

    name = "nul"
    separator = b"\0"
    relogin_after_game = True
    """After ``GAME_OVER`` its client logs in again for the next game."""
    rules = frozenset({"pass"})
    """``PASS_WAS_MADE`` can only say "this card and the spare changed places"."""

    parse = staticmethod(parse_final)

    @staticmethod
    def login_ok(name: str) -> bytes:
        return _record("WAITING", name)

    @staticmethod
    def login_failed(code: str, text: str) -> bytes:
        return _record("FAILED", _text(f"{code}: {text}"))

    @staticmethod
    def start(white: str, black: str, cards: Sequence[str], secret: str, extensions: bool) -> bytes:
        # The published client takes exactly eight fields and counts any record it does not
        # know as an error, so the secret goes in a record of its own, before START, and only
        # to clients that asked for Herna's extensions with a third LOGIN field.
        start = _record("START", black, white, *_cards(cards))
        return _record("SEAT_KEY", secret) + start if extensions else start

    @staticmethod
    def move_was_made(card: str, frm: int, to: int) -> bytes:
        r0, c0 = row_col(frm)
        r1, c1 = row_col(to)
        return _record("MOVE_WAS_MADE", card.lower(), str(r0), str(c0), str(r1), str(c1))

    @staticmethod
    def invalid_move(reason: str) -> bytes:
        return _record("INVALID_MOVE", _text(reason))

    @staticmethod
    def no_move(old: str, new: str, spare: str) -> bytes:
        return _record("PASS_WAS_MADE", old.lower())

    @staticmethod
    def opponent_left(name: str) -> bytes:
        return _record("DISCONNECT", name)

    @staticmethod
    def reconnected(
        white: str, black: str, seat: int, board: str, cards: Sequence[str], to_move: int
    ) -> bytes:
        return _record(
            "RECONNECT",
            black,
            white,
            *_cards(cards),
            "1" if seat == WHITE else "0",
            "1" if to_move == WHITE else "0",
            *(_PIECES[ch] for ch in board),
        )

    @staticmethod
    def opponent_back(
        white: str, black: str, seat: int, board: str, cards: Sequence[str], to_move: int
    ) -> bytes:
        return _record("RECONNECT", (white, black)[seat])

    @staticmethod
    def game_over(winner: str, reason: str) -> bytes:
        return _record("GAME_OVER", winner)

    @staticmethod
    def error(code: str) -> bytes:
        return _record("FAILED", _text(f"{code}: {ERROR_TEXT.get(code, code.lower())}"))

    @staticmethod
    def pong() -> bytes:
        return _record("PING", "PING")


FINAL = FinalDialect()
"""The NUL dialect (a stateless singleton)."""

"""The line dialect of the Onitama protocol: seed 003 as written, with Herna's extensions.

A message is one line of UTF-8 text ended by ``\\n`` (a ``\\r`` before it is dropped); fields
are separated by ``|`` and blanks around fields are trimmed. Commands are read in any case.
Squares are written ``c1`` (file letter, rank digit; rank 1 is White's back row).

* :func:`parse_client` turns one client line into a request; problems come back as
  :class:`Garbage` values, never as exceptions.
* :data:`SEED` (a :class:`SeedDialect`) formats every server message for a connection that
  speaks this dialect; :class:`fmt` is the same as plain functions.
* :func:`parse_server` reads server lines back for clients; :func:`action_line` and
  :func:`login_line` write the client's lines.

>>> parse_client(b"make_move | tiger | c1 | c3")
MakeMove(card='tiger', frm='c1', to='c3')
>>> parse_client(b"MAKE_MOVE|Tiger|c1")
Garbage(reason='WRONG_FIELD_COUNT', text='MAKE_MOVE|Tiger|c1')
>>> fmt.start("eva", "ota", ("Ox", "Boar", "Horse", "Elephant", "Crab"))
b'START|eva|ota|Ox,Boar,Horse,Elephant,Crab\\n'
>>> parse_server("MOVE_WAS_MADE|Tiger|c1|c3")
MoveWasMade(card='Tiger', frm='c1', to='c3')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from herna.games.onitama.board import square_name
from herna.games.onitama.cards import COLOR_NAMES
from herna.games.onitama.state import Move, Pass, PlayerAction, Stalemate
from herna.protocols.onitama.common import (
    AFTER_GAME_REQUESTS,
    GAME_REQUESTS,
    NOT_UTF8,
    UNKNOWN_COMMAND,
    WRONG_FIELD_COUNT,
    AfterGameRequest,
    ClaimWin,
    ClientMessage,
    GameRequest,
    Garbage,
    Login,
    MakeMove,
    StalemateRequest,
    name_problem,
    printable,
    split_fields,
)

_FIELD_COUNTS = {
    "LOGIN": (2, 3, 4),
    "MAKE_MOVE": (4,),
    "STALEMATE": (2,),
    "CLAIM_WIN": (1,),
    **{command: (1,) for command in (*GAME_REQUESTS, *AFTER_GAME_REQUESTS)},
}


def parse_client(line: bytes | str) -> ClientMessage | None:
    """Decode one client line (without its newline); None for an empty line."""
    fields = split_fields(line, _FIELD_COUNTS)
    if fields is None or isinstance(fields, Garbage):
        return fields
    command = fields[0]
    if command == "LOGIN":
        proof = fields[2] if len(fields) >= 3 else None
        seek = fields[3] if len(fields) == 4 else None
        return Login(fields[1], name_problem(fields[1]), proof, seek)
    if command == "CLAIM_WIN":
        return ClaimWin()
    if command in GAME_REQUESTS:
        return GameRequest(command)
    if command in AFTER_GAME_REQUESTS:
        return AfterGameRequest(command)
    if command == "MAKE_MOVE":
        return MakeMove(fields[1], fields[2], fields[3])
    return StalemateRequest(fields[1])


# -- server → client ---------------------------------------------------------------------------
def _line(*fields: str) -> bytes:
    return ("|".join(fields) + "\n").encode()


def _clean(text: str) -> str:
    """Free text as one field: no separator, no line break."""
    return text.replace("|", "/").replace("\n", " ").replace("\r", " ")


class fmt:
    """Every server message as one line of bytes (newline included)."""

    @staticmethod
    def login_ok(name: str) -> bytes:
        return _line("LOGIN_OK", name)

    @staticmethod
    def login_failed(reason: str, text: str | None = None) -> bytes:
        """``LOGIN_FAILED|reason`` plus, as a Herna extension field, an English sentence."""
        if text:
            return _line("LOGIN_FAILED", reason, _clean(text))
        return _line("LOGIN_FAILED", reason)

    @staticmethod
    def start(white: str, black: str, cards: Sequence[str], secret: str | None = None) -> bytes:
        """``START|white|black|w1,w2,b1,b2,spare|secret``: the cards and the seat secret are
        Herna extension fields."""
        if secret:
            return _line("START", white, black, ",".join(cards), secret)
        return _line("START", white, black, ",".join(cards))

    @staticmethod
    def move_was_made(card: str, frm: str, to: str) -> bytes:
        return _line("MOVE_WAS_MADE", card, frm, to)

    @staticmethod
    def invalid_move() -> bytes:
        return b"INVALID_MOVE\n"

    @staticmethod
    def stalemate_card(old: str, new: str, spare: str | None = None) -> bytes:
        """``STALEMATE_CARD|old|new|spare``; the spare after the exchange is a Herna
        extension field (it changes only at tables that play the official pass)."""
        if spare:
            return _line("STALEMATE_CARD", old, new, spare)
        return _line("STALEMATE_CARD", old, new)

    @staticmethod
    def logout(name: str) -> bytes:
        return _line("LOGOUT", name)

    @staticmethod
    def reconnect(name: str, color: str, board: str, cards: Sequence[str], to_move: str) -> bytes:
        return _line("RECONNECT", name, color, board, ",".join(cards), to_move)

    @staticmethod
    def game_over(winner: str, reason: str | None = None) -> bytes:
        """``GAME_OVER|winner`` plus the reason as a Herna extension field."""
        return _line("GAME_OVER", winner, reason) if reason else _line("GAME_OVER", winner)

    @staticmethod
    def error(reason: str) -> bytes:
        return _line("ERROR", reason)

    # Herna's lobby extensions: sent only to clients that sent LOGIN's fourth field.
    @staticmethod
    def seek(seek_id: str) -> bytes:
        """``SEEK|id``: the player's seek is open in the hall's lobby under this id."""
        return _line("SEEK", seek_id)

    @staticmethod
    def clock(color: str, seconds: float) -> bytes:
        """``CLOCK|color|seconds``: the side to move has this long for its decision."""
        return _line("CLOCK", color, f"{seconds:.1f}")

    @staticmethod
    def overtime(color: str, seconds: float) -> bytes:
        """``OVERTIME|color|seconds``: that side's clock ran out; it has this grace period."""
        return _line("OVERTIME", color, f"{seconds:.1f}")

    @staticmethod
    def game_clock(white: float, black: float, to_move: str) -> bytes:
        """``GAME_CLOCK|white|black|to_move``: both game clocks (seconds left) as ``to_move``
        starts thinking."""
        return _line("GAME_CLOCK", f"{white:.1f}", f"{black:.1f}", to_move)

    @staticmethod
    def draw_offered(name: str) -> bytes:
        """``DRAW_OFFERED|name``: your opponent offers a draw (``ACCEPT_DRAW`` or
        ``DECLINE_DRAW``; a move declines it too)."""
        return _line("DRAW_OFFERED", name)

    @staticmethod
    def draw_declined(name: str) -> bytes:
        """``DRAW_DECLINED|name``: ``name`` declined your draw offer (or moved instead)."""
        return _line("DRAW_DECLINED", name)

    @staticmethod
    def rematch_offered(name: str) -> bytes:
        """``REMATCH_OFFERED|name``: your last opponent wants to play you again."""
        return _line("REMATCH_OFFERED", name)

    @staticmethod
    def rematch_declined(name: str) -> bytes:
        """``REMATCH_DECLINED|name``: ``name`` declined (or withdrew its offer, left, or sat
        down elsewhere)."""
        return _line("REMATCH_DECLINED", name)

    @staticmethod
    def claimable(name: str, reason: str) -> bytes:
        """``CLAIMABLE|name|reason``: ``name`` is away or out of time past the grace period;
        the opponent may send ``CLAIM_WIN``."""
        return _line("CLAIMABLE", name, reason)


# -- server messages as a client reads them ----------------------------------------------------
@dataclass(frozen=True, slots=True)
class LoginOk:
    name: str


@dataclass(frozen=True, slots=True)
class LoginFailed:
    reason: str
    text: str = ""


@dataclass(frozen=True, slots=True)
class Start:
    white: str
    black: str
    cards: tuple[str, ...] | None
    """``(w1, w2, b1, b2, spare)``; None from a server without the Herna extension."""
    secret: str | None = None
    """The seat secret (Herna extension): ``LOGIN|name|secret`` takes the seat back."""


@dataclass(frozen=True, slots=True)
class MoveWasMade:
    card: str
    frm: str
    to: str


@dataclass(frozen=True, slots=True)
class InvalidMove:
    pass


@dataclass(frozen=True, slots=True)
class StalemateCard:
    old: str
    new: str
    spare: str | None = None
    """The spare after the exchange (Herna extension); None from servers without it."""


@dataclass(frozen=True, slots=True)
class Logout:
    name: str


@dataclass(frozen=True, slots=True)
class Reconnect:
    name: str
    color: str
    board: str
    cards: tuple[str, ...]
    to_move: str


@dataclass(frozen=True, slots=True)
class GameOver:
    winner: str
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class Error:
    reason: str


ServerMessage = (
    LoginOk
    | LoginFailed
    | Start
    | MoveWasMade
    | InvalidMove
    | StalemateCard
    | Logout
    | Reconnect
    | GameOver
    | Error
)


def parse_server(line: str | bytes) -> ServerMessage | Garbage:
    """Decode one server line (trailing newline allowed)."""
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError:
            return Garbage(NOT_UTF8)
    text = line.rstrip("\r\n")
    fields = [f.strip() for f in text.split("|")]
    command = fields[0].upper()
    args = fields[1:]
    n = len(args)
    if command == "LOGIN_OK" and n >= 1:
        return LoginOk(args[0])
    if command == "LOGIN_FAILED":
        return LoginFailed(args[0] if args else "", args[1] if n >= 2 else "")
    if command == "START" and n >= 2:
        cards = tuple(c.strip() for c in args[2].split(",")) if n >= 3 and args[2] else None
        return Start(args[0], args[1], cards, args[3] if n >= 4 and args[3] else None)
    if command == "MOVE_WAS_MADE" and n >= 3:
        return MoveWasMade(args[0], args[1], args[2])
    if command == "INVALID_MOVE":
        return InvalidMove()
    if command == "STALEMATE_CARD" and n >= 2:
        return StalemateCard(args[0], args[1], args[2] if n >= 3 and args[2] else None)
    if command == "LOGOUT" and n >= 1:
        return Logout(args[0])
    if command == "RECONNECT" and n >= 5:
        return Reconnect(
            args[0], args[1], args[2], tuple(c.strip() for c in args[3].split(",")), args[4]
        )
    if command == "GAME_OVER" and n >= 1:
        return GameOver(args[0], args[1] if n >= 2 and args[1] else None)
    if command == "ERROR":
        return Error(args[0] if args else "")
    if command in (
        "LOGIN_OK",
        "START",
        "MOVE_WAS_MADE",
        "STALEMATE_CARD",
        "LOGOUT",
        "RECONNECT",
        "GAME_OVER",
    ):
        return Garbage(WRONG_FIELD_COUNT, printable(text))
    return Garbage(UNKNOWN_COMMAND, printable(text))


def action_line(action: PlayerAction) -> bytes:
    """The client line for an engine action: ``MAKE_MOVE|card|from|to``, or ``STALEMATE|card``
    for a player without a move (the server applies its table's rule to it)."""
    if isinstance(action, Move):
        return _line("MAKE_MOVE", action.card, square_name(action.frm), square_name(action.to))
    if isinstance(action, Stalemate | Pass):
        return _line("STALEMATE", action.card)
    raise ValueError(f"{action} cannot be sent")


def login_line(name: str, proof: str | None = None, seek: str | None = None) -> bytes:
    """``LOGIN|name``, or ``LOGIN|name|proof`` with a token or seat secret; with ``seek``,
    ``LOGIN|name|proof-or-dash|seek`` (the lobby extension)."""
    if seek:
        return _line("LOGIN", name, proof or "-", seek)
    return _line("LOGIN", name, proof) if proof else _line("LOGIN", name)


class SeedDialect:
    """The line dialect as the server speaks it to one kind of connection (stateless)."""

    name = "line"
    separator = b"\n"
    relogin_after_game = False
    """After ``GAME_OVER`` its players go back to the lobby by themselves."""
    rules = frozenset({"stalemate", "pass"})
    """No-move rules its clients can follow (``STALEMATE_CARD`` carries the new spare)."""

    parse = staticmethod(parse_client)

    @staticmethod
    def login_ok(name: str) -> bytes:
        return fmt.login_ok(name)

    @staticmethod
    def login_failed(code: str, text: str) -> bytes:
        return fmt.login_failed(code, text)

    @staticmethod
    def start(white: str, black: str, cards: Sequence[str], secret: str, extensions: bool) -> bytes:
        # The secret rides on START for every line client: extra fields are how Herna
        # extends this dialect (the cards came first), and a client that reads two
        # fields is not disturbed by a fourth.
        return fmt.start(white, black, cards, secret)

    @staticmethod
    def move_was_made(card: str, frm: int, to: int) -> bytes:
        return fmt.move_was_made(card, square_name(frm), square_name(to))

    @staticmethod
    def invalid_move(reason: str) -> bytes:
        return fmt.invalid_move()

    @staticmethod
    def no_move(old: str, new: str, spare: str) -> bytes:
        return fmt.stalemate_card(old, new, spare)

    @staticmethod
    def opponent_left(name: str) -> bytes:
        return fmt.logout(name)

    @staticmethod
    def reconnected(
        white: str, black: str, seat: int, board: str, cards: Sequence[str], to_move: int
    ) -> bytes:
        name = (white, black)[seat]
        return fmt.login_ok(name) + fmt.reconnect(
            name, COLOR_NAMES[seat], board, cards, COLOR_NAMES[to_move]
        )

    @staticmethod
    def opponent_back(
        white: str, black: str, seat: int, board: str, cards: Sequence[str], to_move: int
    ) -> bytes:
        name = (white, black)[seat]
        return fmt.reconnect(name, COLOR_NAMES[seat], board, cards, COLOR_NAMES[to_move])

    @staticmethod
    def game_over(winner: str, reason: str) -> bytes:
        return fmt.game_over(winner, reason)

    @staticmethod
    def error(code: str) -> bytes:
        return fmt.error(code)

    @staticmethod
    def pong() -> bytes:
        return b""


SEED = SeedDialect()
"""The line dialect (a stateless singleton)."""

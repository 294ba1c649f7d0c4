"""Sans-I/O codec and per-connection state machine for the Onitama line protocol (seed 003).

A message is one line of UTF-8 text ended by ``\\n`` (a ``\\r`` before it is dropped); fields
are separated by ``|`` and blanks around fields are trimmed. Commands are read in any case.

* :class:`LineBuffer` cuts a byte stream into lines with a bounded buffer.
* :func:`parse_client` turns one client line into a typed message; problems come back as
  :class:`Garbage` values, never as exceptions.
* :class:`ServerConnection` is one client connection as the server sees it: bytes in, requests
  (:class:`Login`, :class:`MakeMove`, :class:`StalemateRequest`) or ready replies out, with the
  phase checks (no move before ``LOGIN``, no second ``LOGIN`` ...) and an error budget.
* :class:`fmt` formats every server message; :func:`parse_server` reads them back for clients.

It knows nothing of sockets, time, games or the lobby; see :mod:`herna.servers.onitama`.

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

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from herna.core.errors import IllegalAction
from herna.games.onitama.board import parse_square, square_name
from herna.games.onitama.cards import BLACK, WHITE, canonical_card
from herna.games.onitama.notation import parse_cards
from herna.games.onitama.state import Draw, Move, OnitamaState, PlayerAction, Stalemate

MAX_LINE = 1024
"""Longest line accepted, in bytes without the newline (the longest legal line is ~120)."""

MAX_ERRORS = 100
"""Bad lines in a row after which the server closes the connection (``TOO_MANY_ERRORS``)."""

MAX_NAME_LENGTH = 32
NAME_EXTRA_CHARS = frozenset("_-.")

# LOGIN_FAILED reasons
INVALID_NAME = "INVALID_NAME"
NAME_IN_USE = "NAME_IN_USE"

# ERROR reasons
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

# GAME_OVER reasons (Herna extension field)
WAY_OF_THE_STONE = "way_of_the_stone"
WAY_OF_THE_STREAM = "way_of_the_stream"
OPPONENT_LEFT = "opponent_left"


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player name, or None. Valid: 1-32 characters, each a letter,
    a digit, ``_``, ``-`` or ``.`` (letters and digits of any script)."""
    if not name or len(name) > MAX_NAME_LENGTH:
        return INVALID_NAME
    if not all(c.isalnum() or c in NAME_EXTRA_CHARS for c in name):
        return INVALID_NAME
    return None


def name_key(name: str) -> str:
    """Names are unique regardless of case: ``Eva`` and ``eva`` are the same player."""
    return name.casefold()


# -- framing -----------------------------------------------------------------------------------
class LineBuffer:
    """Cuts a byte stream into lines; never holds more than ``max_line`` bytes.

    :meth:`feed` returns complete lines (without ``\\n`` and a trailing ``\\r``) and a
    :class:`Garbage` ``LINE_TOO_LONG`` for a line over the limit, once per such line; the rest
    of that line is skipped up to its newline (for a peer that never sends one, for ever).
    """

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self._buf = bytearray()
        self._skipping = False

    @property
    def pending(self) -> int:
        """Bytes held for an unfinished line."""
        return len(self._buf)

    def feed(self, data: bytes) -> list[bytes | Garbage]:
        out: list[bytes | Garbage] = []
        start = 0
        n = len(data)
        while start < n:
            end = data.find(b"\n", start)
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
            if line.endswith(b"\r"):
                line = line[:-1]
            if len(line) > self.max_line:
                out.append(Garbage(LINE_TOO_LONG))
            else:
                out.append(line)
        return out


# -- client → server ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Login:
    name: str
    problem: str | None = None
    """``INVALID_NAME`` when the name breaks the rules (see :func:`name_problem`)."""


@dataclass(frozen=True, slots=True)
class MakeMove:
    """``MAKE_MOVE|card|from|to`` with its fields as sent (trimmed); the server checks them."""

    card: str
    frm: str
    to: str


@dataclass(frozen=True, slots=True)
class StalemateRequest:
    """``STALEMATE|card``."""

    card: str


@dataclass(frozen=True, slots=True)
class Garbage:
    """A line that is not a message; ``reason`` is what ``ERROR|reason`` carries."""

    reason: str
    text: str = ""


ClientMessage = Login | MakeMove | StalemateRequest | Garbage

_FIELD_COUNTS = {"LOGIN": 2, "MAKE_MOVE": 4, "STALEMATE": 2}


def parse_client(line: bytes | str) -> ClientMessage | None:
    """Decode one client line (without its newline); None for an empty line."""
    if isinstance(line, bytes):
        if len(line) > MAX_LINE:
            return Garbage(LINE_TOO_LONG)
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            return Garbage(NOT_UTF8)
    else:
        text = line
    if not text.strip():
        return None
    fields = [f.strip() for f in text.split("|")]
    command = fields[0].upper()
    expected = _FIELD_COUNTS.get(command)
    if expected is None:
        return Garbage(UNKNOWN_COMMAND, _printable(text))
    if len(fields) != expected:
        return Garbage(WRONG_FIELD_COUNT, _printable(text))
    if command == "LOGIN":
        return Login(fields[1], name_problem(fields[1]))
    if command == "MAKE_MOVE":
        return MakeMove(fields[1], fields[2], fields[3])
    return StalemateRequest(fields[1])


def _printable(text: str, limit: int = 80) -> str:
    """A short, log-safe excerpt of a peer's line."""
    clean = "".join(c if c.isprintable() else "?" for c in text[:limit])
    return clean + ("…" if len(text) > limit else "")


# -- the connection state machine --------------------------------------------------------------
class Phase(enum.Enum):
    LOGIN = "login"
    """Connected, waiting for ``LOGIN``."""
    LOBBY = "lobby"
    """Logged in, waiting for a game."""
    GAME = "game"
    """Playing."""
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class Reply:
    """Bytes the transport sends at once (an ``ERROR`` line)."""

    data: bytes


@dataclass(frozen=True, slots=True)
class Close:
    """The transport should close the connection (after sending any replies)."""

    reason: str


Request = Login | MakeMove | StalemateRequest
Output = Request | Reply | Close


class ServerConnection:
    """One client connection as the server sees it, without any I/O.

    Feed it bytes with :meth:`receive`; it returns, in order, the requests the server has to
    decide (:class:`Login` in the login phase, :class:`MakeMove` / :class:`StalemateRequest`
    in a game) and :class:`Reply` / :class:`Close` outputs for everything it answers itself
    (``ERROR|reason`` for malformed or out-of-phase lines). The server moves it between phases
    with :meth:`logged_in`, :meth:`game_started` and :meth:`game_ended`.
    """

    def __init__(self, max_line: int = MAX_LINE, max_errors: int = MAX_ERRORS) -> None:
        self.phase = Phase.LOGIN
        self.name: str | None = None
        self.errors_in_a_row = 0
        self.errors = 0
        self.max_errors = max_errors
        self._lines = LineBuffer(max_line)

    def receive(self, data: bytes) -> list[Output]:
        out: list[Output] = []
        if self.phase is Phase.CLOSED:
            return out
        for item in self._lines.feed(data):
            msg = item if isinstance(item, Garbage) else parse_client(item)
            if msg is None:
                continue
            problem = msg.reason if isinstance(msg, Garbage) else self._phase_problem(msg)
            if problem is None:
                self.errors_in_a_row = 0
                out.append(msg)  # type: ignore[arg-type]
                continue
            self.errors += 1
            self.errors_in_a_row += 1
            out.append(Reply(fmt.error(problem)))
            if self.errors_in_a_row >= self.max_errors:
                out.append(Reply(fmt.error(TOO_MANY_ERRORS)))
                out.append(Close(TOO_MANY_ERRORS))
                self.phase = Phase.CLOSED
                break
        return out

    def _phase_problem(self, msg: Request) -> str | None:
        if isinstance(msg, Login):
            return None if self.phase is Phase.LOGIN else ALREADY_LOGGED_IN
        if self.phase is Phase.LOGIN:
            return NOT_LOGGED_IN
        if self.phase is Phase.LOBBY:
            return NOT_IN_GAME
        return None

    def logged_in(self, name: str) -> None:
        self.name = name
        self.phase = Phase.LOBBY

    def game_started(self) -> None:
        self.phase = Phase.GAME

    def game_ended(self) -> None:
        if self.phase is Phase.GAME:
            self.phase = Phase.LOBBY

    def closed(self) -> None:
        self.phase = Phase.CLOSED


# -- server → client ---------------------------------------------------------------------------
def _line(*fields: str) -> bytes:
    return ("|".join(fields) + "\n").encode()


class fmt:
    """Every server message as one line of bytes (newline included)."""

    @staticmethod
    def login_ok(name: str) -> bytes:
        return _line("LOGIN_OK", name)

    @staticmethod
    def login_failed(reason: str) -> bytes:
        return _line("LOGIN_FAILED", reason)

    @staticmethod
    def start(white: str, black: str, cards: Sequence[str]) -> bytes:
        """``START|white|black|w1,w2,b1,b2,spare`` (the cards are a Herna extension)."""
        return _line("START", white, black, ",".join(cards))

    @staticmethod
    def move_was_made(card: str, frm: str, to: str) -> bytes:
        return _line("MOVE_WAS_MADE", card, frm, to)

    @staticmethod
    def invalid_move() -> bytes:
        return b"INVALID_MOVE\n"

    @staticmethod
    def stalemate_card(old: str, new: str) -> bytes:
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


# -- server messages as a client reads them ----------------------------------------------------
@dataclass(frozen=True, slots=True)
class LoginOk:
    name: str


@dataclass(frozen=True, slots=True)
class LoginFailed:
    reason: str


@dataclass(frozen=True, slots=True)
class Start:
    white: str
    black: str
    cards: tuple[str, ...] | None
    """``(w1, w2, b1, b2, spare)``; None from a server without the Herna extension."""


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
        return LoginFailed(args[0] if args else "")
    if command == "START" and n >= 2:
        cards = tuple(c.strip() for c in args[2].split(",")) if n >= 3 and args[2] else None
        return Start(args[0], args[1], cards)
    if command == "MOVE_WAS_MADE" and n >= 3:
        return MoveWasMade(args[0], args[1], args[2])
    if command == "INVALID_MOVE":
        return InvalidMove()
    if command == "STALEMATE_CARD" and n >= 2:
        return StalemateCard(args[0], args[1])
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
        return Garbage(WRONG_FIELD_COUNT, _printable(text))
    return Garbage(UNKNOWN_COMMAND, _printable(text))


# -- following a game from the client side ----------------------------------------------------
class ClientGame:
    """What a client knows of its game, rebuilt from the server's messages (no I/O).

    Feed every :class:`ServerMessage` to :meth:`feed`; :attr:`state` is then the current
    :class:`~herna.games.onitama.state.OnitamaState` (None outside a game or when the server
    sent no cards), :attr:`color` this client's colour and :meth:`my_turn` says whether the
    server waits for this client's move.
    """

    def __init__(self, name: str | None = None) -> None:
        self.name = name
        self.state: OnitamaState | None = None
        self.white: str | None = None
        self.black: str | None = None
        self.color: int | None = None
        self.over: GameOver | None = None
        self.opponent_away = False
        self.games = 0

    @property
    def in_game(self) -> bool:
        return self.white is not None and self.over is None

    def my_turn(self) -> bool:
        return (
            self.in_game
            and self.state is not None
            and self.color is not None
            and self.state.current_player() == self.color
        )

    def opponent(self) -> str | None:
        if self.color is None:
            return None
        return self.black if self.color == WHITE else self.white

    def feed(self, msg: ServerMessage | Garbage) -> None:
        """Update from one server message; raises ``ValueError`` if it contradicts the
        game as this client knows it (a desynchronised or broken server)."""
        if isinstance(msg, LoginOk):
            self.name = msg.name
        elif isinstance(msg, Start):
            self.white, self.black, self.over = msg.white, msg.black, None
            self.opponent_away = False
            self.games += 1
            self.color = self._my_color(msg.white, msg.black)
            if msg.cards is not None and len(msg.cards) == 5:
                c = [canonical_card(x) for x in msg.cards]
                self.state = OnitamaState.setup(c[0:2], c[2:4], c[4])
            else:
                self.state = None
        elif isinstance(msg, MoveWasMade):
            if self.state is not None:
                move = Move(canonical_card(msg.card), parse_square(msg.frm), parse_square(msg.to))
                try:
                    self.state = self.state.apply(move)
                except IllegalAction as exc:
                    raise ValueError(f"server move {move} is illegal here: {exc}") from None
        elif isinstance(msg, StalemateCard):
            if self.state is not None:
                try:
                    pending = self.state.apply(Stalemate(canonical_card(msg.old)))
                    self.state = pending.apply(Draw(canonical_card(msg.new)))
                except IllegalAction as exc:
                    raise ValueError(f"stalemate swap is illegal here: {exc}") from None
        elif isinstance(msg, Reconnect):
            white, black, spare = parse_cards(",".join(msg.cards))
            to_move = BLACK if msg.to_move.lower() == "black" else WHITE
            self.state = OnitamaState.setup(white, black, spare, board=msg.board, to_move=to_move)
            if self.name is not None and name_key(msg.name) == name_key(self.name):
                self.color = BLACK if msg.color.lower() == "black" else WHITE
            else:
                self.opponent_away = False
            self.over = None
        elif isinstance(msg, Logout):
            self.opponent_away = True
        elif isinstance(msg, GameOver):
            self.over = msg

    def _my_color(self, white: str, black: str) -> int | None:
        if self.name is None:
            return None
        if name_key(white) == name_key(self.name):
            return WHITE
        if name_key(black) == name_key(self.name):
            return BLACK
        return None


def action_line(action: PlayerAction) -> bytes:
    """The client line for an engine action: ``MAKE_MOVE|card|from|to`` or ``STALEMATE|card``."""
    if isinstance(action, Move):
        return _line("MAKE_MOVE", action.card, square_name(action.frm), square_name(action.to))
    if isinstance(action, Stalemate):
        return _line("STALEMATE", action.card)
    raise ValueError(f"{action} cannot be sent: the server plays the seed's stalemate rule")


def login_line(name: str) -> bytes:
    return _line("LOGIN", name)

"""One Onitama client connection as the server sees it, in either dialect, without any I/O.

The dialect is chosen from the connection's first bytes and kept for its whole life: a first
record that ends in ``\\0`` before any ``\\n`` means the NUL dialect
(:mod:`~herna.protocols.onitama.final`), anything else the line dialect
(:mod:`~herna.protocols.onitama.seed`). From then on :class:`ServerConnection` turns bytes
into requests in the same terms for both, and :attr:`ServerConnection.out` formats the
server's messages in that connection's dialect, so the server itself never looks at dialects.

>>> conn = ServerConnection()
>>> conn.receive(b"LOGIN|eva\\0PING|PING\\0")
[Login(name='eva', problem=None, proof=None), Reply(data=b'PING|PING\\x00', refusal=False)]
>>> conn.out.name
'nul'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from herna.protocols.onitama.common import (
    ALREADY_LOGGED_IN,
    LINE_TOO_LONG,
    MAX_ERRORS,
    MAX_LINE,
    NOT_IN_GAME,
    NOT_LOGGED_IN,
    TOO_MANY_ERRORS,
    AfterGameRequest,
    ClientMessage,
    Close,
    Garbage,
    LineBuffer,
    Login,
    MakeMove,
    Phase,
    Ping,
    Reply,
    Request,
)
from herna.protocols.onitama.final import FINAL
from herna.protocols.onitama.seed import SEED

Output = Request | Reply | Close

_MOVE = b"MAKE_MOVE|"


class Dialect(Protocol):
    """How one dialect reads client records and writes every server message.

    Squares are engine squares (``rank * 5 + file``), cards Herna's ``(w1, w2, b1, b2,
    spare)``, seats 0 = White and 1 = Black.
    """

    name: str
    separator: bytes
    relogin_after_game: bool
    """True: after ``GAME_OVER`` the client logs in again for its next game; False: it goes
    back to the lobby by itself."""
    rules: frozenset[str]
    """The no-move rules (``stalemate``, ``pass``) its clients can follow."""

    def parse(self, record: bytes | str) -> ClientMessage | None: ...

    def login_ok(self, name: str) -> bytes: ...

    def login_failed(self, code: str, text: str) -> bytes: ...

    def start(
        self, white: str, black: str, cards: Sequence[str], secret: str, extensions: bool
    ) -> bytes: ...

    def move_was_made(self, card: str, frm: int, to: int) -> bytes: ...

    def invalid_move(self, reason: str) -> bytes: ...

    def no_move(self, old: str, new: str, spare: str) -> bytes:
        """The player to move gave up ``old`` and took ``new``; ``spare`` is the spare now."""
        ...

    def opponent_left(self, name: str) -> bytes: ...

    def reconnected(
        self, white: str, black: str, seat: int, board: str, cards: Sequence[str], to_move: int
    ) -> bytes:
        """To the player of ``seat``, who has just come back: the whole game."""
        ...

    def opponent_back(
        self, white: str, black: str, seat: int, board: str, cards: Sequence[str], to_move: int
    ) -> bytes:
        """To the opponent of the player of ``seat``, who has just come back."""
        ...

    def game_over(self, winner: str, reason: str) -> bytes: ...

    def error(self, code: str) -> bytes: ...

    def pong(self) -> bytes: ...


DIALECTS: dict[str, Dialect] = {SEED.name: SEED, FINAL.name: FINAL}


class ServerConnection:
    """One client connection as the server sees it, without any I/O.

    Feed it bytes with :meth:`receive`; it returns, in order, the requests the server has to
    decide (:class:`Login` in the login phase, :class:`MakeMove` / :class:`StalemateRequest`
    in a game) and :class:`Reply` / :class:`Close` outputs for everything it answers itself
    (errors for malformed or out-of-phase records, keepalives). The server moves it between
    phases with :meth:`logged_in`, :meth:`game_started` and :meth:`game_ended`.
    """

    def __init__(self, max_line: int = MAX_LINE, max_errors: int = MAX_ERRORS) -> None:
        self.phase = Phase.LOGIN
        self.name: str | None = None
        self.errors_in_a_row = 0
        self.errors = 0
        self.max_errors = max_errors
        self.max_line = max_line
        self.dialect: Dialect | None = None
        """None until the first record's end shows which dialect the client speaks."""
        self.extensions = False
        """The client sent a ``LOGIN`` with a third field: it understands Herna's extension
        messages (the NUL dialect sends them only then)."""
        self._sniffed = bytearray()
        self._records: LineBuffer | None = None

    @property
    def out(self) -> Dialect:
        """The dialect to answer in (the line dialect while it is not known yet)."""
        return self.dialect if self.dialect is not None else SEED

    @property
    def pending(self) -> int:
        """Bytes held for an unfinished record (never more than ``max_line``)."""
        return self._records.pending if self._records is not None else len(self._sniffed)

    def _detect(self, data: bytes) -> bytes:
        """Hold bytes until the first record ends; then fix the dialect and hand them on."""
        self._sniffed += data
        # Only the first record's end counts, and a record is at most max_line bytes: look
        # no further, so that how the bytes were cut into reads never changes the answer.
        window = self._sniffed[: self.max_line + 1]
        nul = window.find(b"\0")
        newline = window.find(b"\n")
        if nul == -1 and newline == -1:
            if len(self._sniffed) <= self.max_line:
                return b""
            dialect: Dialect = SEED  # no terminator in sight: the line rules report it
        elif nul != -1 and (newline == -1 or nul < newline):
            dialect = FINAL
        else:
            dialect = SEED
        self.dialect = dialect
        self._records = LineBuffer(self.max_line, dialect.separator)
        held = bytes(self._sniffed)
        self._sniffed = bytearray()
        return held

    def receive(self, data: bytes) -> list[Output]:
        out: list[Output] = []
        if self.phase is Phase.CLOSED:
            return out
        records = self._records
        if records is None:
            data = self._detect(data)
            records = self._records
            if records is None:
                return out
        elif self.phase is Phase.GAME and data.startswith(_MOVE) and self.dialect is SEED:
            move = self._one_move(records, data)
            if move is not None:
                return [move]
        return self._handle(records.feed(data))

    def _one_move(self, records: LineBuffer, data: bytes) -> MakeMove | None:
        """A read that is exactly one well-formed ``MAKE_MOVE`` line in a game (what players
        send all game long), read the way :meth:`_handle` would read it; None for anything
        else, which then takes the general way."""
        if not records.idle or data.find(b"\n") != len(data) - 1 or len(data) > self.max_line:
            return None
        try:
            fields = data[len(_MOVE) : -1].decode("utf-8").split("|")
        except UnicodeDecodeError:
            return None
        if len(fields) != 3:
            return None
        self.errors_in_a_row = 0
        return MakeMove(fields[0].strip(), fields[1].strip(), fields[2].strip())

    def receive_frame(self, data: bytes | str) -> list[Output]:
        """One whole record from a message-framed transport (a WebSocket frame: ``str`` for a
        text frame, ``bytes`` for a binary one), answered as the same record on a line would be.

        Such a transport always speaks the line dialect (a browser has no use for the NUL
        one). The frame is the record: one trailing ``\n`` (or ``\r\n``) is allowed, and
        whatever else it holds stays inside that one record, so a frame can never smuggle a
        second command in."""
        if self.phase is Phase.CLOSED:
            return []
        if self._records is None:
            self.dialect = SEED
            self._records = LineBuffer(self.max_line, SEED.separator)
        raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
        if raw.endswith(b"\n"):
            raw = raw[:-1]
            if raw.endswith(b"\r"):
                raw = raw[:-1]
        return self._handle([Garbage(LINE_TOO_LONG) if len(raw) > self.max_line else raw])

    def _handle(self, items: Sequence[bytes | Garbage]) -> list[Output]:
        out: list[Output] = []
        dialect = self.out
        for item in items:
            msg = item if isinstance(item, Garbage) else dialect.parse(item)
            if msg is None:
                continue
            if isinstance(msg, Ping):
                self.errors_in_a_row = 0
                out.append(Reply(dialect.pong(), refusal=False))
                continue
            problem = msg.reason if isinstance(msg, Garbage) else self._phase_problem(msg)
            if problem is None:
                self.errors_in_a_row = 0
                assert not isinstance(msg, Garbage)
                out.append(msg)
                continue
            self.errors += 1
            self.errors_in_a_row += 1
            out.append(Reply(dialect.error(problem)))
            if self.errors_in_a_row >= self.max_errors:
                out.append(Reply(dialect.error(TOO_MANY_ERRORS)))
                out.append(Close(TOO_MANY_ERRORS))
                self.phase = Phase.CLOSED
                break
        return out

    def _phase_problem(self, msg: Request) -> str | None:
        if self.phase is Phase.GAME and not isinstance(msg, Login):
            return None  # a move (or a claim) in a game: the usual record
        if isinstance(msg, Login):
            if self.phase is not Phase.LOGIN:
                return ALREADY_LOGGED_IN
            if msg.proof is not None:
                self.extensions = True
            return None
        if self.phase is Phase.LOGIN:
            return NOT_LOGGED_IN if self.name is None else NOT_IN_GAME
        if self.phase is Phase.LOBBY:
            # After a game a seat that is not paired again asks for what comes next.
            return None if isinstance(msg, AfterGameRequest) else NOT_IN_GAME
        return None

    def export(self) -> dict[str, Any]:
        """Everything this connection knows, plain data, so that another process (a game
        worker that takes the socket over) continues it exactly: :meth:`restore`."""
        return {
            "phase": self.phase.value,
            "name": self.name,
            "errors": self.errors,
            "errors_in_a_row": self.errors_in_a_row,
            "dialect": self.dialect.name if self.dialect is not None else None,
            "extensions": self.extensions,
            "sniffed": bytes(self._sniffed),
            "held": self._records.held() if self._records is not None else None,
        }

    @classmethod
    def restore(cls, state: dict[str, Any]) -> ServerConnection:
        conn = cls()
        conn.phase = Phase(state["phase"])
        conn.name = state["name"]
        conn.errors = state["errors"]
        conn.errors_in_a_row = state["errors_in_a_row"]
        conn.extensions = state["extensions"]
        conn._sniffed = bytearray(state["sniffed"])
        if state["dialect"] is not None:
            conn.dialect = DIALECTS[state["dialect"]]
            conn._records = LineBuffer(conn.max_line, conn.dialect.separator)
            if state["held"] is not None:
                conn._records.hold(state["held"])
        return conn

    def logged_in(self, name: str) -> None:
        self.name = name
        self.phase = Phase.LOBBY

    def game_started(self) -> None:
        self.phase = Phase.GAME

    def game_ended(self) -> None:
        """Back to the lobby; in a dialect whose clients log in again after each game, back
        to waiting for that ``LOGIN``."""
        if self.phase is Phase.GAME:
            self.phase = Phase.LOGIN if self.out.relogin_after_game else Phase.LOBBY

    def closed(self) -> None:
        self.phase = Phase.CLOSED

"""Herna's tile-game protocol (``herna-tiles/1``): JSON objects, one per line over TCP.

Sans-I/O: :class:`ServerConnection` turns received bytes into client messages (or
:class:`~herna.core.errors.ProtocolError` values) and server messages into bytes;
:class:`ClientConnection` does the same for the other side. Framing and message handling are
separate (:func:`parse_client_message` takes one JSON text), so the same messages can travel
one per WebSocket text frame. See ``docs/protocols/tiles.md``.

>>> conn = ServerConnection()
>>> events = conn.receive_data(b'{"type": "join", "name": "ann", "rules": "tsuro"}\\n{"type"')
>>> events
[Join(name='ann', rules='tsuro', table=None, kind='human', id=None, seek=None, lang=None)]
>>> conn.receive_data(b': "ping", "id": 7}\\n')
[Ping(id=7)]
>>> conn.send({"type": "pong", "id": 7})
b'{"type":"pong","id":7}\\n'
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from herna.core.errors import ProtocolError

PROTOCOL = "herna-tiles/1"

MAX_LINE_BYTES = 1024 * 1024
"""Longest line accepted (a join may carry a whole rules file); longer is fatal."""
MAX_NAME_LENGTH = 32
MAX_BAD_MESSAGES = 50
"""Consecutive malformed messages after which the server gives up on a peer."""
ASCII_WHITESPACE = " \t\n\r\x0b\x0c"
"""What makes a line or frame blank (a keep-alive): the characters ``bytes.strip()`` removes.
``str.strip()`` would also drop the separators 0x1C-0x1F and Unicode spaces, so a frame and a TCP
line with the same bytes would be answered differently."""
MAX_JSON_DEPTH = 64

MAX_TOKEN_LENGTH = 256
"""Longest ``token`` a ``join`` may carry (Herna's tokens are 32 characters)."""
MAX_SEEK_LENGTH = 200
"""Longest lobby seek a join may carry (the longest real one is about 60 characters)."""

NAME_RE = re.compile(r"^[\w.@+-]{1,32}$")
"""Player names: letters, digits and ``_ . @ + -``, 1..32 characters."""

Phase = Literal["lobby", "waiting", "seated", "playing"]


# -- client messages --------------------------------------------------------------------------
@dataclass(frozen=True)
class Join:
    """Sit down at a table playing ``rules`` (a shipped name or a whole rules object).

    ``token`` proves a reserved name (``herna bots add NAME``); it is kept out of ``repr`` so
    that it never reaches a log."""

    name: str
    rules: str | dict[str, Any] | None
    table: str | None = None
    kind: Literal["human", "bot"] = "human"
    id: Any = None
    token: str | None = field(default=None, repr=False)
    secret: str | None = field(default=None, repr=False)
    """**[Herna extension]** with ``table``: the seat secret ``started`` handed out, to take
    that seat back after a lost connection (kept out of ``repr`` like the token)."""
    seek: str | None = None
    """**[Herna extension]** the hall lobby's seek, in the words of
    :func:`herna.hall.lobby.parse_seek` (``person,opponent=bots,level=goal``,
    ``opponent=anyone,fill=10``, ``challenge=ann``, ``accept=s7``): who may sit down at the
    table this join opens, when house bots fill it, or which open table to sit down at."""
    lang: str | None = None
    """**[Herna extension]** the language of the game's story (``said``) for this
    connection: ``en`` (the default) or ``cs`` (:data:`LANGUAGES`)."""


LANGUAGES = ("en", "cs")
"""The languages a join may ask the story of the game in."""


@dataclass(frozen=True)
class Start:
    """Start the table now; empty seats get house bots (when the server has them)."""

    id: Any = None


@dataclass(frozen=True)
class Act:
    action: dict[str, Any]
    id: Any = None


@dataclass(frozen=True)
class GetState:
    id: Any = None


@dataclass(frozen=True)
class ListTables:
    id: Any = None


@dataclass(frozen=True)
class Leave:
    id: Any = None


@dataclass(frozen=True)
class Ping:
    id: Any = None


@dataclass(frozen=True)
class Back:
    """**[Herna extension]** Take one's seat back from the stand-in (a house bot) that plays
    it since one's turn clock and grace period ran out."""

    id: Any = None


@dataclass(frozen=True)
class Resign:
    """**[Herna extension]** Give up the game in progress: the seat is out of it (the last
    player left wins; with more players the others play on)."""

    id: Any = None


@dataclass(frozen=True)
class Rematch:
    """**[Herna extension]** After ``game_over``: play the same rules again with the same
    players (each person at the table must ask or accept; house bots play again)."""

    id: Any = None


@dataclass(frozen=True)
class DeclineRematch:
    """**[Herna extension]** After ``game_over``: no rematch (one's own offer withdrawn, or
    the others' declined)."""

    id: Any = None


ClientMessage = (
    Join | Start | Act | GetState | ListTables | Leave | Ping | Back | Resign | Rematch
) | DeclineRematch

CLIENT_TYPES = (
    "join",
    "start",
    "act",
    "state",
    "list",
    "leave",
    "ping",
    "back",
    "resign",
    "rematch",
    "decline_rematch",
)
SERVER_TYPES = (
    "clock",
    "welcome",
    "waiting",
    "joined",
    "table",
    "started",
    "state",
    "your_turn",
    "game_over",
    "error",
    "tables",
    "left",
    "pong",
    "stand_in",
    "rematch_offered",
    "rematch_declined",
)


def _depth(value: Any, limit: int) -> int:
    """Nesting depth of a JSON value, stopping early past ``limit``."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    deepest = 0
    while stack:
        item, d = stack.pop()
        deepest = max(deepest, d)
        if deepest > limit:
            return deepest
        if isinstance(item, dict):
            stack.extend((v, d + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, d + 1) for v in item)
    return deepest


def parse_json_object(text: str) -> dict[str, Any] | ProtocolError:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        return ProtocolError(f"not JSON: {exc}", "BAD_JSON")
    if not isinstance(data, dict):
        return ProtocolError("a message must be a JSON object", "BAD_MESSAGE")
    if _depth(data, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        return ProtocolError("message nested too deeply", "BAD_MESSAGE")
    return data


class MessageError(ProtocolError):
    """A bad message whose ``id`` could be read, so the error reply can echo it."""

    def __init__(self, reason: str, code: str, request_id: Any = None, fatal: bool = False) -> None:
        super().__init__(reason, code, fatal)
        self.request_id = request_id


def parse_client_message(text: str) -> ClientMessage | ProtocolError:
    """One client message (the text of a line or of a WebSocket frame)."""
    data = parse_json_object(text)
    if isinstance(data, ProtocolError):
        return data
    mid = data.get("id")
    if isinstance(mid, bool) or (mid is not None and not isinstance(mid, str | int)):
        return ProtocolError("'id' must be a string or an integer", "BAD_MESSAGE")
    message = _parse_fields(data)
    if isinstance(message, ProtocolError):
        return MessageError(message.reason, message.code, mid)
    return message


def _parse_fields(data: dict[str, Any]) -> ClientMessage | ProtocolError:
    kind = data.get("type")
    mid = data.get("id")
    if kind == "join":
        name = data.get("name")
        if not isinstance(name, str) or not NAME_RE.fullmatch(name):
            return ProtocolError(
                f"'name' must be 1..{MAX_NAME_LENGTH} letters, digits or _ . @ + -", "BAD_NAME"
            )
        rules = data.get("rules")
        table = data.get("table")
        seek = data.get("seek")
        if seek is not None and (not isinstance(seek, str) or len(seek) > MAX_SEEK_LENGTH):
            return ProtocolError(
                f"'seek' must be a string of at most {MAX_SEEK_LENGTH} characters", "BAD_MESSAGE"
            )
        if (
            rules is None
            and table is None
            and not (seek and ("accept=" in seek or "tournament=" in seek))
        ):
            return ProtocolError(
                "a join needs 'rules' (a rules name or object), 'table', or a 'seek' that "
                "accepts an open table or names a tournament",
                "BAD_MESSAGE",
            )
        if rules is not None and not isinstance(rules, str | dict):
            return ProtocolError("'rules' must be a rules name or a rules object", "BAD_MESSAGE")
        if table is not None and not isinstance(table, str):
            return ProtocolError("'table' must be a string", "BAD_MESSAGE")
        who = data.get("kind", "human")
        if who not in ("human", "bot"):
            return ProtocolError("'kind' must be 'human' or 'bot'", "BAD_MESSAGE")
        token = data.get("token")
        if token is not None and (
            not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_LENGTH
        ):
            return ProtocolError(
                f"'token' must be a string of 1..{MAX_TOKEN_LENGTH} characters", "BAD_MESSAGE"
            )
        secret = data.get("secret")
        if secret is not None and (
            not isinstance(secret, str) or not 0 < len(secret) <= MAX_TOKEN_LENGTH
        ):
            return ProtocolError(
                f"'secret' must be a string of 1..{MAX_TOKEN_LENGTH} characters", "BAD_MESSAGE"
            )
        if secret is not None and table is None:
            return ProtocolError(
                "a join with 'secret' needs the 'table' of the seat", "BAD_MESSAGE"
            )
        lang = data.get("lang")
        if lang is not None and lang not in LANGUAGES:
            return ProtocolError(f"'lang' must be one of {', '.join(LANGUAGES)}", "BAD_MESSAGE")
        return Join(name, rules, table, who, mid, token, secret, seek, lang)
    if kind == "act":
        action = data.get("action")
        if not isinstance(action, dict):
            return ProtocolError("'act' needs an 'action' object", "BAD_MESSAGE")
        return Act(action, mid)
    simple: dict[
        str,
        type[Start | GetState | ListTables | Leave | Ping | Back | Resign | Rematch]
        | type[DeclineRematch],
    ] = {
        "start": Start,
        "state": GetState,
        "list": ListTables,
        "leave": Leave,
        "ping": Ping,
        "back": Back,
        "resign": Resign,
        "rematch": Rematch,
        "decline_rematch": DeclineRematch,
    }
    if isinstance(kind, str) and kind in simple:
        return simple[kind](mid)
    if not isinstance(kind, str):
        return ProtocolError("a message needs a 'type'", "BAD_MESSAGE")
    return ProtocolError(
        f"unknown message type {kind!r}; expected one of {', '.join(CLIENT_TYPES)}", "UNKNOWN_TYPE"
    )


def encode_message(message: dict[str, Any]) -> str:
    """A message as compact JSON text (no newline: add it for TCP, not for WebSocket)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


class LineFramer:
    """Splits a byte stream into lines, never holding more than ``limit`` bytes."""

    def __init__(self, limit: int = MAX_LINE_BYTES) -> None:
        self.limit = limit
        self._buffer = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list[bytes | ProtocolError]:
        out: list[bytes | ProtocolError] = []
        self._buffer += data
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                if len(self._buffer) > self.limit:
                    self._buffer.clear()
                    self._skipping = True
                    out.append(
                        ProtocolError(
                            f"line longer than {self.limit} bytes", "TOO_LARGE", fatal=True
                        )
                    )
                return out
            line = bytes(self._buffer[:end])
            del self._buffer[: end + 1]
            if self._skipping:  # the tail of an oversized line
                self._skipping = False
                continue
            if len(line) > self.limit:
                out.append(
                    ProtocolError(f"line longer than {self.limit} bytes", "TOO_LARGE", fatal=True)
                )
                continue
            out.append(line.rstrip(b"\r"))

    @property
    def buffered(self) -> int:
        return len(self._buffer)

    def held(self) -> tuple[bytes, bool]:
        """What it holds (an unfinished line, whether it skips an oversized one)."""
        return bytes(self._buffer), self._skipping

    def hold(self, held: tuple[bytes, bool]) -> None:
        self._buffer = bytearray(held[0])
        self._skipping = held[1]


class ServerConnection:
    """The server's side of one client connection.

    ``phase`` follows the client: ``lobby`` (not at a table), ``seated`` (at a table that has
    not started), ``playing``. Messages that make no sense in the current phase come back as
    ProtocolErrors with code ``WRONG_PHASE``; the server answers them with :meth:`error`.
    """

    def __init__(self, limit: int = MAX_LINE_BYTES) -> None:
        self.framer = LineFramer(limit)
        self.phase: Phase = "lobby"
        self.bad_in_a_row = 0
        self.closed = False
        self.lang = "en"
        """The language of the story this connection's last ``join`` asked for."""

    def export(self) -> dict[str, Any]:
        """Everything this connection knows, plain data, so that another process (a game
        worker that takes the socket over) continues it exactly: :meth:`restore`."""
        return {
            "phase": self.phase,
            "bad_in_a_row": self.bad_in_a_row,
            "closed": self.closed,
            "lang": self.lang,
            "limit": self.framer.limit,
            "held": self.framer.held(),
        }

    @classmethod
    def restore(cls, state: dict[str, Any]) -> ServerConnection:
        conn = cls(state["limit"])
        conn.phase = state["phase"]
        conn.bad_in_a_row = state["bad_in_a_row"]
        conn.closed = state["closed"]
        conn.lang = state.get("lang", "en")
        conn.framer.hold(state["held"])
        return conn

    # -- input -------------------------------------------------------------------------------
    def receive_data(self, data: bytes) -> list[ClientMessage | ProtocolError]:
        out: list[ClientMessage | ProtocolError] = []
        for line in self.framer.feed(data):
            if isinstance(line, ProtocolError):
                out.append(line)
                continue
            if not line.strip():
                continue  # blank lines are keep-alives
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError:
                out.append(self._bad(ProtocolError("not UTF-8", "BAD_UTF8")))
                continue
            out.append(self.receive_message(text))
        return out

    def receive_message(self, text: str) -> ClientMessage | ProtocolError:
        """One message from a framed transport (a line, a WebSocket frame)."""
        message = parse_client_message(text)
        if isinstance(message, ProtocolError):
            return self._bad(message)
        problem = self._check_phase(message)
        if problem is not None:
            return self._bad(MessageError(problem.reason, problem.code, message.id))
        self.bad_in_a_row = 0
        return message

    def receive_frame(self, data: str | bytes) -> ClientMessage | ProtocolError | None:
        """One whole message from a message-framed transport (a WebSocket frame, no newline).

        A frame gets the answer a TCP line with the same bytes gets: over ``MAX_LINE_BYTES``
        it is ``TOO_LARGE`` (fatal), bytes that are not UTF-8 are ``BAD_UTF8``, a blank frame
        is a keep-alive, anything else goes through :meth:`receive_message` (``BAD_JSON``,
        ``UNKNOWN_TYPE`` ..., and the count of bad messages in a row).

        >>> conn = ServerConnection()
        >>> conn.receive_frame('{"type": "ping", "id": 1}')
        Ping(id=1)
        >>> conn.receive_frame(b"\\xff").code
        'BAD_UTF8'
        >>> conn.receive_frame(" ") is None
        True
        """
        limit = self.framer.limit
        # Text needs encoding only when it may be too long (UTF-8: at most 4 bytes a character).
        if isinstance(data, bytes) or len(data) * 4 <= limit:
            size = len(data)
        else:
            size = len(data.encode("utf-8", "surrogatepass"))
        if size > limit:
            return ProtocolError(f"message longer than {limit} bytes", "TOO_LARGE", fatal=True)
        if isinstance(data, bytes):
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                return self._bad(ProtocolError("not UTF-8", "BAD_UTF8"))
        else:
            text = data
        if not text.strip(ASCII_WHITESPACE):
            return None  # a blank message is a keep-alive, as a blank line is
        return self.receive_message(text)

    def _bad(self, error: ProtocolError) -> ProtocolError:
        self.bad_in_a_row += 1
        if self.bad_in_a_row >= MAX_BAD_MESSAGES and not error.fatal:
            return MessageError(
                f"{error.reason} ({MAX_BAD_MESSAGES} bad messages in a row)",
                error.code,
                getattr(error, "request_id", None),
                fatal=True,
            )
        return error

    def _check_phase(self, message: ClientMessage) -> ProtocolError | None:
        if isinstance(message, Join) and self.phase == "waiting":
            return ProtocolError(
                "waiting for your tournament game already; send 'leave' first", "WRONG_PHASE"
            )
        if isinstance(message, Join) and self.phase != "lobby":
            return ProtocolError("already at a table; send 'leave' first", "WRONG_PHASE")
        if isinstance(message, Resign) and self.phase != "playing":
            return ProtocolError("'resign' needs a game in progress", "WRONG_PHASE")
        if isinstance(message, Rematch | DeclineRematch) and self.phase != "lobby":
            return ProtocolError("a rematch is for after the game", "WRONG_PHASE")
        if isinstance(message, Back) and self.phase != "playing":
            return ProtocolError("'back' needs a game in progress", "WRONG_PHASE")
        if isinstance(message, Start) and self.phase != "seated":
            return ProtocolError(
                "'start' needs a table that has not started: 'join' first"
                if self.phase in ("lobby", "waiting")
                else "the game has started",
                "WRONG_PHASE",
            )
        if isinstance(message, Act) and self.phase != "playing":
            return ProtocolError("no game in progress: 'join' a table first", "WRONG_PHASE")
        if isinstance(message, Leave) and self.phase == "lobby":
            return ProtocolError("not at a table", "WRONG_PHASE")
        return None

    # -- output (each returns the bytes to send and moves the phase on) -----------------------
    def send(self, message: dict[str, Any]) -> bytes:
        kind = message.get("type")
        if kind == "waiting":
            self.phase = "waiting"
        elif kind == "joined":
            self.phase = "seated"
        elif kind == "started":
            self.phase = "playing"
        elif kind in ("game_over", "left"):
            self.phase = "lobby"
        return (encode_message(message) + "\n").encode("utf-8")

    def error(self, code: str, reason: str, request_id: Any = None, **extra: Any) -> bytes:
        message: dict[str, Any] = {"type": "error", "code": code, "reason": reason}
        if request_id is not None:
            message["id"] = request_id
        message.update(extra)
        return self.send(message)


class ClientConnection:
    """The client's side: messages to bytes, received bytes to server messages (dicts)."""

    def __init__(self, limit: int = 16 * MAX_LINE_BYTES) -> None:
        self.framer = LineFramer(limit)

    def receive_data(self, data: bytes) -> list[dict[str, Any] | ProtocolError]:
        out: list[dict[str, Any] | ProtocolError] = []
        for line in self.framer.feed(data):
            if isinstance(line, ProtocolError):
                out.append(line)
                continue
            if not line.strip():
                continue
            try:
                message = parse_json_object(line.decode("utf-8"))
            except UnicodeDecodeError:
                out.append(ProtocolError("not UTF-8", "BAD_UTF8"))
                continue
            if isinstance(message, dict) and message.get("type") not in SERVER_TYPES:
                message = ProtocolError(
                    f"unknown server message {message.get('type')!r}", "UNKNOWN_TYPE"
                )
            out.append(message)
        return out

    @staticmethod
    def send(message: dict[str, Any]) -> bytes:
        return (encode_message(message) + "\n").encode("utf-8")

    def join(
        self,
        name: str,
        rules: str | dict[str, Any] | None = None,
        table: str | None = None,
        kind: str = "human",
        token: str | None = None,
        seek: str | None = None,
    ) -> bytes:
        message: dict[str, Any] = {"type": "join", "name": name, "kind": kind}
        if rules is not None:
            message["rules"] = rules
        if table is not None:
            message["table"] = table
        if token is not None:
            message["token"] = token
        if seek is not None:
            message["seek"] = seek
        return self.send(message)

    def act(self, action: dict[str, Any]) -> bytes:
        return self.send({"type": "act", "action": action})

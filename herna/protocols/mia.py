"""Sans-I/O codec for the Mäxchen (Mia) UDP protocol of seed 002.

One datagram is one line of UTF-8 text, fields separated by ``;``. This module turns client
datagrams into typed messages (problems come back as :class:`Garbage` values, never as
exceptions), formats every server message, and parses server messages for client libraries.
It knows nothing of sockets, time or rounds; see :mod:`herna.servers.mia` for those.

>>> parse_client(b"ANNOUNCE;3,1;ab12")
TokenCommand(command='ANNOUNCE', args=('3,1',), token='ab12')
>>> parse_client(b"REGISTER;bad name")
Register(name='bad name', spectator=False, problem='INVALID_NAME', token=None)
>>> parse_client(b"REGISTER;alice;k3Y")
Register(name='alice', spectator=False, problem=None, token='k3Y')
>>> fmt.player_lost(["ann", "bob"], "MIA")
b'PLAYER LOST;ann,bob;MIA'
>>> parse_server("SCORE;ann:3,bob:0")
Score(scores={'ann': 3, 'bob': 0})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

MAX_DATAGRAM = 512
"""Longest datagram accepted; every legal client message is far shorter."""

MAX_NAME_LENGTH = 20
FORBIDDEN_NAME_CHARS = frozenset(":;,")

INVALID_NAME = "INVALID_NAME"
NAME_ALREADY_TAKEN = "NAME_ALREADY_TAKEN"
TOO_MANY_NAMES = "TOO_MANY_NAMES"
"""Herna: the address has as many names registered as one address may."""


def name_problem(name: str) -> str | None:
    """Why ``name`` is not a valid player name, or None. Valid: 1-20 characters, no
    whitespace, no ``:``, ``;`` or ``,``."""
    if not name or len(name) > MAX_NAME_LENGTH:
        return INVALID_NAME
    if any(c.isspace() or c in FORBIDDEN_NAME_CHARS or not c.isprintable() for c in name):
        return INVALID_NAME
    return None


# -- client → server ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Register:
    name: str
    spectator: bool
    problem: str | None = None
    """``INVALID_NAME`` when the name breaks the rules (or there is none)."""
    token: str | None = None
    """The optional third field, ``REGISTER;name;token`` (a Herna extension): the token of a
    reserved name. The reference servers ignore every field after the name, so a bot that
    always sends its token still plays there."""
    seat: tuple[str, ...] = ()
    """The fields after the token (a Herna extension of the people's table, which seed
    clients never send): ``person`` (a person plays under the name: recorded so) and
    ``bots=LEVEL`` (the house bots this person wants to play with)."""


@dataclass(frozen=True, slots=True)
class Unregister:
    pass


@dataclass(frozen=True, slots=True)
class TokenCommand:
    """A message whose last field is a token: ``JOIN``, ``ROLL``, ``SEE``, ``ANNOUNCE`` and any
    unknown command that carries one. The server checks the command against the phase (a
    malformed message with the current token is an ``INVALID_TURN``)."""

    command: str
    args: tuple[str, ...]
    token: str


@dataclass(frozen=True, slots=True)
class Garbage:
    """A datagram that is not a message: ``reason`` is one of ``OVERSIZED``, ``NOT_UTF8``,
    ``EMPTY``, ``UNKNOWN_COMMAND``, ``MISSING_TOKEN``."""

    reason: str
    text: str = ""


ClientMessage = Register | Unregister | TokenCommand | Garbage

TOKEN_COMMANDS = frozenset({"JOIN", "ROLL", "SEE", "ANNOUNCE"})


def parse_client(data: bytes) -> ClientMessage:
    """Decode one client datagram."""
    if len(data) > MAX_DATAGRAM:
        return Garbage("OVERSIZED")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return Garbage("NOT_UTF8")
    text = text.rstrip("\r\n")
    if not text.strip():
        return Garbage("EMPTY")
    fields = text.split(";")
    command = fields[0].strip()
    if command in ("REGISTER", "REGISTER_SPECTATOR"):
        spectator = command == "REGISTER_SPECTATOR"
        if len(fields) < 2:
            return Register("", spectator, INVALID_NAME)
        # Fields after the name are ignored, as the reference servers do, except the first
        # one: that is where a reserved name's token travels (empty means none).
        token = fields[2] if len(fields) > 2 and fields[2] else None
        seat = tuple(f for f in fields[3:6] if f == "person" or f.startswith("bots="))
        return Register(fields[1], spectator, name_problem(fields[1]), token, seat)
    if command == "UNREGISTER":
        return Unregister()
    if len(fields) < 2 or not fields[-1]:
        return Garbage("MISSING_TOKEN" if command in TOKEN_COMMANDS else "UNKNOWN_COMMAND", text)
    return TokenCommand(command, tuple(fields[1:-1]), fields[-1])


# -- server → client ---------------------------------------------------------------------------
class fmt:
    # A namespace of formatters, used as fmt.registered().
    """Every server message as bytes."""

    @staticmethod
    def registered() -> bytes:
        return b"REGISTERED"

    @staticmethod
    def rejected(reason: str) -> bytes:
        return f"REJECTED;{reason}".encode()

    @staticmethod
    def unregistered() -> bytes:
        return b"UNREGISTERED"

    @staticmethod
    def heartbeat() -> bytes:
        return b"HEARTBEAT"

    @staticmethod
    def round_starting(token: str) -> bytes:
        return f"ROUND STARTING;{token}".encode()

    @staticmethod
    def round_started(number: int, names: Iterable[str]) -> bytes:
        return f"ROUND STARTED;{number};{','.join(names)}".encode()

    @staticmethod
    def round_canceled(reason: str) -> bytes:
        return f"ROUND CANCELED;{reason}".encode()

    @staticmethod
    def your_turn(token: str) -> bytes:
        return f"YOUR TURN;{token}".encode()

    @staticmethod
    def player_rolls(name: str) -> bytes:
        return f"PLAYER ROLLS;{name}".encode()

    @staticmethod
    def rolled(dice: str, token: str) -> bytes:
        return f"ROLLED;{dice};{token}".encode()

    @staticmethod
    def announced(name: str, dice: str) -> bytes:
        return f"ANNOUNCED;{name};{dice}".encode()

    @staticmethod
    def player_wants_to_see(name: str) -> bytes:
        return f"PLAYER WANTS TO SEE;{name}".encode()

    @staticmethod
    def actual_dice(dice: str) -> bytes:
        return f"ACTUAL DICE;{dice}".encode()

    @staticmethod
    def player_lost(names: Iterable[str], reason: str) -> bytes:
        return f"PLAYER LOST;{','.join(names)};{reason}".encode()

    @staticmethod
    def score(scores: Mapping[str, int]) -> bytes:
        return ("SCORE;" + ",".join(f"{n}:{p}" for n, p in scores.items())).encode()


# -- server messages as a client reads them ----------------------------------------------------
@dataclass(frozen=True, slots=True)
class Registered:
    pass


@dataclass(frozen=True, slots=True)
class Rejected:
    reason: str


@dataclass(frozen=True, slots=True)
class Unregistered:
    pass


@dataclass(frozen=True, slots=True)
class Heartbeat:
    pass


@dataclass(frozen=True, slots=True)
class RoundStarting:
    token: str


@dataclass(frozen=True, slots=True)
class RoundStarted:
    number: int
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoundCanceled:
    reason: str


@dataclass(frozen=True, slots=True)
class YourTurn:
    token: str


@dataclass(frozen=True, slots=True)
class PlayerRolls:
    name: str


@dataclass(frozen=True, slots=True)
class Rolled:
    dice: str
    token: str


@dataclass(frozen=True, slots=True)
class Announced:
    name: str
    dice: str


@dataclass(frozen=True, slots=True)
class PlayerWantsToSee:
    name: str


@dataclass(frozen=True, slots=True)
class ActualDice:
    dice: str


@dataclass(frozen=True, slots=True)
class PlayerLost:
    names: tuple[str, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class Score:
    scores: dict[str, int]


@dataclass(frozen=True, slots=True)
class UnknownServerMessage:
    text: str


ServerMessage = (
    Registered
    | Rejected
    | Unregistered
    | Heartbeat
    | RoundStarting
    | RoundStarted
    | RoundCanceled
    | YourTurn
    | PlayerRolls
    | Rolled
    | Announced
    | PlayerWantsToSee
    | ActualDice
    | PlayerLost
    | Score
    | UnknownServerMessage
)


def _names(field: str) -> tuple[str, ...]:
    return tuple(n for n in field.split(",") if n)


def parse_server(text: str) -> ServerMessage:
    """Parse one server line; anything unexpected is an :class:`UnknownServerMessage`."""
    fields = text.rstrip("\r\n").split(";")
    head, n = fields[0], len(fields)
    try:
        if head == "REGISTERED":
            return Registered()
        if head == "REJECTED":
            return Rejected(fields[1] if n > 1 else "")
        if head == "UNREGISTERED":
            return Unregistered()
        if head == "HEARTBEAT":
            return Heartbeat()
        if head == "ROUND STARTING" and n == 2:
            return RoundStarting(fields[1])
        if head == "ROUND STARTED" and n == 3:
            return RoundStarted(int(fields[1]), _names(fields[2]))
        if head == "ROUND CANCELED" and n == 2:
            return RoundCanceled(fields[1])
        if head == "YOUR TURN" and n == 2:
            return YourTurn(fields[1])
        if head == "PLAYER ROLLS" and n == 2:
            return PlayerRolls(fields[1])
        if head == "ROLLED" and n == 3:
            return Rolled(fields[1], fields[2])
        if head == "ANNOUNCED" and n == 3:
            return Announced(fields[1], fields[2])
        if head == "PLAYER WANTS TO SEE" and n == 2:
            return PlayerWantsToSee(fields[1])
        if head == "ACTUAL DICE" and n == 2:
            return ActualDice(fields[1])
        if head == "PLAYER LOST" and n == 3:
            return PlayerLost(_names(fields[1]), fields[2])
        if head == "SCORE" and n == 2:
            scores: dict[str, int] = {}
            for entry in filter(None, fields[1].split(",")):
                name, _, points = entry.rpartition(":")
                scores[name] = int(points)
            return Score(scores)
    except ValueError:
        pass
    return UnknownServerMessage(text)

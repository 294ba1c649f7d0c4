"""Typed CGML messages (seed 001, chapters 2-4) with their XML form.

Every message is a frozen dataclass. :meth:`Message.nodes` gives the body elements of the
``<cgml>`` document; :func:`herna.protocols.cgml.decoding.decode_body` turns parsed body
elements back into a message.
``encode(decode(x)) == x`` holds for every message (see the property tests).

Herna's extensions (all optional for peers, see docs/protocols/cgml.md):

- ``id`` attribute and member ``<player>`` list on ``newgroup status="init"/"ack"``;
- ``ticket`` attribute on each ``<player>`` of ``newgroup status="ack"``: the id that member is
  told in ``connect complete`` and must join with (the group id, a dot, a secret);
- ``newgroup status="closed"`` (super game server -> login server): the group has ended;
- ``token`` attribute on ``connect status="active"/"passive"``: the token of a reserved name;
- ``playerid`` attribute on ``connect status="complete"``: the id the recipient must use at
  the super game server (for a bot server: the id of the bot it should start);
- ``playerid`` attribute on ``pause`` when the server relays it;
- ``id`` attribute (group id) on ``newgame``;
- the ``<error code="...">reason</error>`` message for well-formed messages at the wrong time.

Spellings: ``trumf`` and ``winner`` are emitted; ``trumpf`` and ``winer`` are accepted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import ClassVar

from herna.protocols.cgml.cards import Card

# -- vocabulary --------------------------------------------------------------------------

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


# -- XML building blocks -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Node:
    """A tiny XML element model for writing: tag, attributes in order, text or children."""

    tag: str
    attrs: tuple[tuple[str, str], ...] = ()
    text: str | None = None
    children: tuple[Node, ...] = ()


def _text(tag: str, value: str, *attrs: tuple[str, str]) -> Node:
    return Node(tag, tuple(attrs), value)


def _attrs(*pairs: tuple[str, str | None]) -> tuple[tuple[str, str], ...]:
    return tuple((k, v) for k, v in pairs if v is not None)


# -- shared parts ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A ``<player id="...">`` element with optional ``<name>`` and ``<race>``."""

    id: str | None = None
    name: str | None = None
    race: str | None = None

    def node(self) -> Node:
        children: list[Node] = []
        if self.name is not None:
            children.append(_text("name", self.name))
        if self.race is not None:
            children.append(_text("race", self.race))
        return Node("player", _attrs(("id", self.id)), None, tuple(children))


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


@dataclass(frozen=True, slots=True)
class MoneyLine:
    """One ``<winner>``/``<loser>`` line of a result: who and how much (units)."""

    playerid: str
    amount: int


# -- messages ----------------------------------------------------------------------------


class Message:
    """Base of every CGML message."""

    __slots__ = ()
    tag: ClassVar[str] = ""

    def nodes(self) -> tuple[Node, ...]:
        raise NotImplementedError


# chapter 2: login and new games


@dataclass(frozen=True, slots=True)
class ConnectServer(Message):
    """2.1 Super game server -> login server: registration."""

    game: str
    numplayers: int
    url: str
    tag: ClassVar[str] = "connect"

    def nodes(self) -> tuple[Node, ...]:
        return (
            Node(
                "connect",
                (("status", "server"),),
                None,
                (
                    _text("game", self.game),
                    _text("numplayers", str(self.numplayers)),
                    _text("url", self.url),
                ),
            ),
        )


@dataclass(frozen=True, slots=True)
class ConnectPlayer(Message):
    """2.3 Player or bot server -> login server: ``passive`` (available) or ``active``.

    ``token`` (Herna extension, attribute of ``<connect>``) proves a reserved name; it is kept
    out of ``repr`` so that no log line ever shows it. ``fill`` (Herna extension, attribute of
    ``<connect>``): seconds this player waits for people before bots may fill the group
    (0 to :data:`MAX_FILL` whole seconds; absent: the login server's fill wait).
    ``tournament`` (Herna extension, attribute of ``<connect>``): the id of the live
    tournament whose groups this player waits for (it is grouped only as the tournament
    books it; it needs the token of its reserved id).
    """

    status: str
    player: PlayerRef
    game: str
    opponents: tuple[PlayerRef, ...] = ()
    token: str | None = field(default=None, repr=False)
    fill: int | None = None
    tournament: str | None = None
    tag: ClassVar[str] = "connect"

    def nodes(self) -> tuple[Node, ...]:
        children = [self.player.node(), _text("game", self.game)]
        if self.opponents:
            children.append(Node("opponent", (), None, tuple(p.node() for p in self.opponents)))
        fill = str(self.fill) if self.fill is not None else None
        attrs = _attrs(
            ("status", self.status),
            ("token", self.token),
            ("fill", fill),
            ("tournament", self.tournament),
        )
        return (Node("connect", attrs, None, tuple(children)),)


@dataclass(frozen=True, slots=True)
class ConnectComplete(Message):
    """2.6 Login server -> player or bot server: a group was formed at ``url``.

    ``players`` are the opponents. ``playerid`` (Herna extension) is the id the recipient
    joins with; a bot server starts a bot with that id.
    """

    group: str
    game: str
    players: tuple[PlayerRef, ...]
    url: str
    playerid: str | None = None
    tag: ClassVar[str] = "connect"

    def nodes(self) -> tuple[Node, ...]:
        children = (
            _text("game", self.game),
            *(p.node() for p in self.players),
            _text("url", self.url),
        )
        attrs = _attrs(("status", "complete"), ("id", self.group), ("playerid", self.playerid))
        return (Node("connect", attrs, None, children),)


@dataclass(frozen=True, slots=True)
class NewGroupInit(Message):
    """2.4 Login server -> super game server: create a group (id, members: extensions).

    ``tournament`` and ``games`` (Herna extensions, attributes): a live tournament's board
    tag, carried by the group's records and events, and how many games the group plays
    before it closes."""

    game: str
    group: str | None = None
    players: tuple[PlayerRef, ...] = ()
    tournament: str | None = None
    games: int | None = None
    tag: ClassVar[str] = "newgroup"

    def nodes(self) -> tuple[Node, ...]:
        games = str(self.games) if self.games is not None else None
        attrs = _attrs(
            ("status", "init"),
            ("id", self.group),
            ("tournament", self.tournament),
            ("games", games),
        )
        children = (_text("game", self.game), *(p.node() for p in self.players))
        return (Node("newgroup", attrs, None, children),)


@dataclass(frozen=True, slots=True)
class NewGroupAck(Message):
    """2.5 Super game server -> login server: the group exists (id, members: extensions).

    ``tickets`` (extension, a ``ticket`` attribute on each ``<player>``, in the same order):
    the id each member is told in ``connect complete`` and must join with. Only that member
    learns it, so nobody else can answer for it. Empty: the server admits by player id.
    """

    game: str
    group: str | None = None
    players: tuple[PlayerRef, ...] = ()
    tickets: tuple[str, ...] = field(default=(), repr=False)
    tag: ClassVar[str] = "newgroup"

    def __post_init__(self) -> None:
        if self.tickets and len(self.tickets) != len(self.players):
            raise ValueError("one ticket per player, or none")

    def nodes(self) -> tuple[Node, ...]:
        attrs = _attrs(("status", "ack"), ("id", self.group))
        players = [p.node() for p in self.players]
        for i, ticket in enumerate(self.tickets):
            node = players[i]
            players[i] = Node(node.tag, (*node.attrs, ("ticket", ticket)), node.text, node.children)
        children = (_text("game", self.game), *players)
        return (Node("newgroup", attrs, None, children),)


@dataclass(frozen=True, slots=True)
class NewGroupClosed(Message):
    """Herna extension, super game server -> login server: group ``group`` has ended, so its
    members' ids are free again at the login server."""

    game: str
    group: str
    tag: ClassVar[str] = "newgroup"

    def nodes(self) -> tuple[Node, ...]:
        attrs = (("status", "closed"), ("id", self.group))
        return (Node("newgroup", attrs, None, (_text("game", self.game),)),)


@dataclass(frozen=True, slots=True)
class NewGroupAnswer(Message):
    """2.7 Player or bot -> super game server: join (accept) or refuse (reject) a group."""

    accept: bool
    group: str
    game: str
    player: PlayerRef
    tag: ClassVar[str] = "newgroup"

    def nodes(self) -> tuple[Node, ...]:
        attrs = (("status", "accept" if self.accept else "reject"), ("id", self.group))
        return (Node("newgroup", attrs, None, (_text("game", self.game), self.player.node())),)


@dataclass(frozen=True, slots=True)
class NewGameAsk(Message):
    """2.8 Super game server -> players: may the next game start? (``group``: extension)."""

    players: tuple[PlayerRef, ...]
    group: str | None = None
    tag: ClassVar[str] = "newgame"

    def nodes(self) -> tuple[Node, ...]:
        attrs = _attrs(("status", "ask"), ("id", self.group))
        return (Node("newgame", attrs, None, tuple(p.node() for p in self.players)),)


@dataclass(frozen=True, slots=True)
class NewGameAnswer(Message):
    """2.9 Player -> super game server: accept or reject the next game."""

    accept: bool
    player: PlayerRef
    group: str | None = None
    tag: ClassVar[str] = "newgame"

    def nodes(self) -> tuple[Node, ...]:
        attrs = _attrs(("status", "accept" if self.accept else "reject"), ("id", self.group))
        return (Node("newgame", attrs, None, (self.player.node(),)),)


@dataclass(frozen=True, slots=True)
class DialPart:
    """One ``<dial>`` element: cards moved ``from_`` -> ``to``; ``None`` is a hidden card."""

    type: str
    to: str
    from_: str
    cards: tuple[Card | None, ...]
    playerid: str | None = None

    def node(self) -> Node:
        attrs = _attrs(
            ("type", self.type), ("to", self.to), ("from", self.from_), ("playerid", self.playerid)
        )
        cards = tuple(Node("card", (), "" if c is None else c.code) for c in self.cards)
        return Node("dial", attrs, None, cards)


@dataclass(frozen=True, slots=True)
class Dial(Message):
    """2.10/2.11 and talon: dealing. One message may carry several ``<dial>`` elements."""

    parts: tuple[DialPart, ...]
    tag: ClassVar[str] = "dial"

    def nodes(self) -> tuple[Node, ...]:
        return tuple(p.node() for p in self.parts)


# chapter 3: the game


@dataclass(frozen=True, slots=True)
class LiciteAsk(Message):
    """Server -> player: offer a game (``value`` None) or answer YES/NO to ``value``."""

    value: str | None = None
    tag: ClassVar[str] = "licite"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("licite", (("type", "ask"),), self.value or ""),)


@dataclass(frozen=True, slots=True)
class LiciteAnswer(Message):
    """Player -> server: a game code, ``PASS``, ``YES`` or ``NO``."""

    value: str
    tag: ClassVar[str] = "licite"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("licite", (("type", "answer"),), self.value),)


@dataclass(frozen=True, slots=True)
class LiciteInfo(Message):
    """Server -> players: ``playerid`` bid (or held) ``value``."""

    playerid: str
    value: str
    tag: ClassVar[str] = "licite"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("licite", (("type", "info"), ("playerid", self.playerid)), self.value),)


@dataclass(frozen=True, slots=True)
class LiciteResult(Message):
    """Server -> players: ``playerid`` won the auction at ``value`` and takes the talon."""

    playerid: str
    value: str
    tag: ClassVar[str] = "licite"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("licite", (("type", "result"), ("playerid", self.playerid)), self.value),)


@dataclass(frozen=True, slots=True)
class PlayCardAsk(Message):
    """Server -> player: play a card."""

    tag: ClassVar[str] = "playcard"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("playcard", (("type", "ask"),), ""),)


@dataclass(frozen=True, slots=True)
class PlayCardCards(Message):
    """Player -> server: discard to the talon (2 cards) or play to the desk (1, or all = claim)."""

    cards: tuple[Card, ...]
    from_: str = "hand"
    to: str = "desk"
    tag: ClassVar[str] = "playcard"

    def nodes(self) -> tuple[Node, ...]:
        attrs = (("type", "cards"), ("from", self.from_), ("to", self.to))
        return (Node("playcard", attrs, None, tuple(Node("card", (), c.code) for c in self.cards)),)


@dataclass(frozen=True, slots=True)
class PlayCardInfo(Message):
    """Server -> players: ``playerid`` played (desk) or discarded (talon, cards hidden)."""

    playerid: str
    cards: tuple[Card | None, ...]
    from_: str | None = "hand"
    to: str | None = "desk"
    tag: ClassVar[str] = "playcard"

    def nodes(self) -> tuple[Node, ...]:
        attrs = _attrs(
            ("type", "info"), ("from", self.from_), ("to", self.to), ("playerid", self.playerid)
        )
        cards = tuple(Node("card", (), "" if c is None else c.code) for c in self.cards)
        return (Node("playcard", attrs, None, cards),)


@dataclass(frozen=True, slots=True)
class GameTypeAsk(Message):
    """Server -> auction winner: announce the game (keep or raise ``licite``) and trumps."""

    licite: str
    tag: ClassVar[str] = "gametype"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("gametype", (("type", "ask"),), None, (_text("licite", self.licite),)),)


@dataclass(frozen=True, slots=True)
class GameTypeAnswer(Message):
    """Auction winner -> server: the announced game and trumps (none for betl/durch)."""

    licite: str
    trumf: Trumf | None = None
    tag: ClassVar[str] = "gametype"

    def nodes(self) -> tuple[Node, ...]:
        children = [_text("licite", self.licite)]
        if self.trumf is not None:
            children.append(_text("trumf", str(self.trumf)))
        return (Node("gametype", (("type", "answer"),), None, tuple(children)),)


@dataclass(frozen=True, slots=True)
class GameTypeInfo(Message):
    """Server -> players: the announced game; with ``flek`` it is the summary before play."""

    playerid: str
    licite: str
    trumf: Trumf | None = None
    flek: Flek | None = None
    tag: ClassVar[str] = "gametype"

    def nodes(self) -> tuple[Node, ...]:
        children = [_text("licite", self.licite)]
        if self.trumf is not None:
            children.append(_text("trumf", str(self.trumf)))
        if self.flek is not None:
            children.append(_text("flek", str(self.flek)))
        attrs = (("type", "info"), ("playerid", self.playerid))
        return (Node("gametype", attrs, None, tuple(children)),)


@dataclass(frozen=True, slots=True)
class FlekAsk(Message):
    """Server -> player: the current flek level; answer with it (no raise) or higher."""

    level: Flek
    tag: ClassVar[str] = "flek"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("flek", (("type", "ask"),), str(self.level)),)


@dataclass(frozen=True, slots=True)
class FlekAnswer(Message):
    """Player -> server: keep the offered level or raise it."""

    level: Flek
    tag: ClassVar[str] = "flek"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("flek", (("type", "answer"),), str(self.level)),)


@dataclass(frozen=True, slots=True)
class FlekInfo(Message):
    """Server -> players: the flek level after ``playerid``'s answer."""

    playerid: str
    level: Flek
    tag: ClassVar[str] = "flek"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("flek", (("type", "info"), ("playerid", self.playerid)), str(self.level)),)


@dataclass(frozen=True, slots=True)
class Round(Message):
    """Server -> players: trick ``number`` (1-10) was taken by ``playerid``."""

    number: int
    playerid: str
    cards: tuple[Card, ...]
    tag: ClassVar[str] = "round"

    def nodes(self) -> tuple[Node, ...]:
        attrs = (("number", str(self.number)), ("playerid", self.playerid))
        return (Node("round", attrs, None, tuple(Node("card", (), c.code) for c in self.cards)),)


@dataclass(frozen=True, slots=True)
class Result(Message):
    """Server -> players: the game, every trick and the money (units) of each player."""

    game: str
    licite: str
    trumf: Trumf | None = None
    flek: Flek | None = None
    rounds: tuple[Round, ...] = ()
    winners: tuple[MoneyLine, ...] = ()
    losers: tuple[MoneyLine, ...] = ()
    tag: ClassVar[str] = "result"

    def nodes(self) -> tuple[Node, ...]:
        children: list[Node] = [_text("game", self.game), _text("licite", self.licite)]
        if self.trumf is not None:
            children.append(_text("trumf", str(self.trumf)))
        if self.flek is not None:
            children.append(_text("flek", str(self.flek)))
        children.extend(r.nodes()[0] for r in self.rounds)
        for line in self.winners:
            money = Node("money", (("type", "get"),), str(line.amount))
            children.append(Node("winner", (("playerid", line.playerid),), None, (money,)))
        for line in self.losers:
            money = Node("money", (("type", "lost"),), str(line.amount))
            children.append(Node("loser", (("playerid", line.playerid),), None, (money,)))
        return (Node("result", (), None, tuple(children)),)

    def money(self) -> dict[str, int]:
        """Net money per player id: winners positive, losers negative."""
        out: dict[str, int] = {}
        for line in self.winners:
            out[line.playerid] = out.get(line.playerid, 0) + line.amount
        for line in self.losers:
            out[line.playerid] = out.get(line.playerid, 0) - line.amount
        return out


# chapter 4: control messages


@dataclass(frozen=True, slots=True)
class Abort(Message):
    """Super game server -> players: the game ended early because of ``player``."""

    player: PlayerRef
    message: str
    tag: ClassVar[str] = "abort"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("abort", (), None, (self.player.node(), _text("message", self.message))),)


@dataclass(frozen=True, slots=True)
class Load(Message):
    """Bot server -> login server: load 0 (idle) .. 100 (full)."""

    value: int
    tag: ClassVar[str] = "load"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("load", (), str(self.value)),)


@dataclass(frozen=True, slots=True)
class Disconnect(Message):
    """Either way: a fatal error; the connection is closed."""

    reason: str
    tag: ClassVar[str] = "disconnect"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("disconnect", (), self.reason),)


@dataclass(frozen=True, slots=True)
class PauseStart(Message):
    """Player -> server, relayed to all: pause the game (``playerid``: extension)."""

    message: str | None = None
    playerid: str | None = None
    tag: ClassVar[str] = "pause"

    def nodes(self) -> tuple[Node, ...]:
        attrs = _attrs(("type", "start"), ("playerid", self.playerid))
        children = () if self.message is None else (_text("message", self.message),)
        return (Node("pause", attrs, None, children),)


@dataclass(frozen=True, slots=True)
class PauseFinish(Message):
    """Player -> server, relayed to all: end the pause (``playerid``: extension)."""

    playerid: str | None = None
    tag: ClassVar[str] = "pause"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("pause", _attrs(("type", "finish"), ("playerid", self.playerid)), ""),)


@dataclass(frozen=True, slots=True)
class CancelGame(Message):
    """Server -> players: the game ends early by the rules (``renonc``, ``rejected`` ...)."""

    reason: str
    tag: ClassVar[str] = "cancelgame"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("cancelgame", (), self.reason),)


@dataclass(frozen=True, slots=True)
class Renonc(Message):
    """Server -> players: ``player`` broke the rules of the game."""

    player: PlayerRef
    message: str
    tag: ClassVar[str] = "renonc"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("renonc", (), None, (self.player.node(), _text("message", self.message))),)


@dataclass(frozen=True, slots=True)
class Error(Message):
    """Herna extension: a well-formed message that is not valid now; nothing changed."""

    reason: str
    code: str = "ERROR"
    tag: ClassVar[str] = "error"

    def nodes(self) -> tuple[Node, ...]:
        return (Node("error", (("code", self.code),), self.reason),)


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


__all__ = [
    "GAME_CODES",
    "GAME_MARIAS",
    "LICITE_ANSWERS",
    "Abort",
    "CancelGame",
    "ConnectComplete",
    "ConnectPlayer",
    "ConnectServer",
    "Dial",
    "DialPart",
    "Disconnect",
    "Error",
    "Flek",
    "FlekAnswer",
    "FlekAsk",
    "FlekInfo",
    "GameTypeAnswer",
    "GameTypeAsk",
    "GameTypeInfo",
    "LiciteAnswer",
    "LiciteAsk",
    "LiciteInfo",
    "LiciteResult",
    "Load",
    "Message",
    "MessageError",
    "MoneyLine",
    "NewGameAnswer",
    "NewGameAsk",
    "NewGroupAck",
    "NewGroupAnswer",
    "NewGroupClosed",
    "NewGroupInit",
    "Node",
    "PauseFinish",
    "PauseStart",
    "PlayCardAsk",
    "PlayCardCards",
    "PlayCardInfo",
    "PlayerRef",
    "Renonc",
    "Result",
    "Round",
    "Trumf",
    "clean_text",
    "parse_flek",
    "parse_game_code",
    "parse_int",
    "parse_trumf",
    "public_group",
]

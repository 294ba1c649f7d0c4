"""Typed CGML messages (seed 001, chapters 2-4) with their XML form.

Every message is a frozen dataclass. :meth:`Message.nodes` gives the body elements of the
``<cgml>`` document; :func:`decode_body` turns parsed body elements back into a message.
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar
from xml.etree.ElementTree import Element

from herna.protocols.cgml.cards import Card, CardCodeError, parse_card

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
    out of ``repr`` so that no log line ever shows it.
    """

    status: str
    player: PlayerRef
    game: str
    opponents: tuple[PlayerRef, ...] = ()
    token: str | None = field(default=None, repr=False)
    tag: ClassVar[str] = "connect"

    def nodes(self) -> tuple[Node, ...]:
        children = [self.player.node(), _text("game", self.game)]
        if self.opponents:
            children.append(Node("opponent", (), None, tuple(p.node() for p in self.opponents)))
        attrs = _attrs(("status", self.status), ("token", self.token))
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
    """2.4 Login server -> super game server: create a group (id, members: extensions)."""

    game: str
    group: str | None = None
    players: tuple[PlayerRef, ...] = ()
    tag: ClassVar[str] = "newgroup"

    def nodes(self) -> tuple[Node, ...]:
        attrs = _attrs(("status", "init"), ("id", self.group))
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


# -- decoding ----------------------------------------------------------------------------

_INT = re.compile(r"[0-9]{1,9}")
_XML_INVALID = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _tag(el: Element) -> str:
    tag = el.tag
    if not isinstance(tag, str):
        raise MessageError("unexpected XML node")
    if "}" in tag:
        raise MessageError(f"namespaced element {tag!r} is not CGML")
    return tag.lower()


def _children(el: Element, tag: str) -> list[Element]:
    return [c for c in el if _tag(c) == tag]


def _one(el: Element, tag: str, required: bool = True) -> Element | None:
    found = _children(el, tag)
    if len(found) > 1:
        raise MessageError(f"<{_tag(el)}> has more than one <{tag}>")
    if not found:
        if required:
            raise MessageError(f"<{_tag(el)}> needs a <{tag}> element")
        return None
    return found[0]


def _limited(value: str, limit: int, what: str) -> str:
    if len(value) > limit:
        raise MessageError(f"{what} is longer than {limit} characters")
    return value


def _text_of(el: Element | None, limit: int = MAX_NAME_LENGTH, what: str = "text") -> str:
    if el is None:
        return ""
    return _limited((el.text or "").strip(), limit, what)


def _child_text(el: Element, tag: str, limit: int = MAX_NAME_LENGTH) -> str:
    return _text_of(_one(el, tag), limit, f"<{tag}>")


def _opt_child_text(el: Element, tag: str, limit: int = MAX_NAME_LENGTH) -> str | None:
    child = _one(el, tag, required=False)
    return None if child is None else _text_of(child, limit, f"<{tag}>")


def _attr(el: Element, name: str, limit: int = MAX_ID_LENGTH) -> str:
    value = _opt_attr(el, name, limit)
    if value is None:
        raise MessageError(f"<{_tag(el)}> needs the {name!r} attribute")
    return value


def _opt_attr(el: Element, name: str, limit: int = MAX_ID_LENGTH) -> str | None:
    attrib = el.attrib
    value = attrib.get(name)
    if value is None:
        value = next((v for k, v in attrib.items() if k.lower() == name), None)
        if value is None:
            return None
    return _limited(value.strip(), limit, f"attribute {name!r}")


def _enum_attr(el: Element, name: str, allowed: Sequence[str]) -> str:
    value = _attr(el, name).lower()
    if value not in allowed:
        raise MessageError(f"<{_tag(el)} {name}={value!r}>: expected one of {', '.join(allowed)}")
    return value


def _opt_place(el: Element, name: str) -> str | None:
    value = _opt_attr(el, name)
    if value is None:
        return None
    value = value.lower()
    if value not in PLACES:
        raise MessageError(f"<{_tag(el)} {name}={value!r}>: expected hand, desk or talon")
    return value


def _int(text: str, what: str) -> int:
    if not _INT.fullmatch(text):
        raise MessageError(f"{what} must be a non-negative integer, got {text[:20]!r}")
    return int(text)


def _player(el: Element) -> PlayerRef:
    pid = _opt_attr(el, "id")
    name_el = _one(el, "name", required=False)
    race_el = _one(el, "race", required=False)
    name = _text_of(name_el, MAX_NAME_LENGTH, "<name>") if name_el is not None else None
    race = _text_of(race_el, MAX_NAME_LENGTH, "<race>").lower() if race_el is not None else None
    if name is None and len(el) == 0 and (el.text or "").strip():
        name = _text_of(el, MAX_NAME_LENGTH, "<player>")
    return PlayerRef(pid, name, race)


def _players(el: Element) -> tuple[PlayerRef, ...]:
    return tuple(_player(p) for p in _children(el, "player"))


def _card(el: Element, hidden_ok: bool) -> Card | None:
    text = (el.text or "").strip()
    if not text:
        if hidden_ok:
            return None
        raise MessageError("an empty <card> is not allowed here")
    try:
        return parse_card(text[:8])
    except CardCodeError as e:
        raise MessageError(str(e)) from None


def _cards(el: Element) -> tuple[Card, ...]:
    out: list[Card] = []
    for c in _children(el, "card"):
        card = _card(c, hidden_ok=False)
        assert card is not None
        out.append(card)
    return tuple(out)


def _maybe_cards(el: Element) -> tuple[Card | None, ...]:
    return tuple(_card(c, hidden_ok=True) for c in _children(el, "card"))


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
    values = [_int(p.strip(), "flek") for p in parts]
    if any(v < 1 or v > MAX_FLEK for v in values):
        raise MessageError(f"flek levels must be between 1 and {MAX_FLEK}")
    return Flek(values[0], values[1] if len(values) == 2 else None)


def _trumf_child(el: Element) -> Trumf | None:
    found = _children(el, "trumf") + _children(el, "trumpf")
    if len(found) > 1:
        raise MessageError(f"<{_tag(el)}> has more than one <trumf>")
    if not found:
        return None
    text = _text_of(found[0])
    return parse_trumf(text) if text else None


def _flek_child(el: Element) -> Flek | None:
    text = _opt_child_text(el, "flek")
    return parse_flek(text) if text else None


def _round(el: Element) -> Round:
    number = _int(_attr(el, "number"), "round number")
    return Round(number, _attr(el, "playerid"), _cards(el))


def _money(el: Element, expected: str) -> MoneyLine:
    money = _one(el, "money")
    assert money is not None
    kind = (_opt_attr(money, "type") or expected).lower()
    if kind != expected:
        raise MessageError(f"<{_tag(el)}> money must have type {expected!r}")
    return MoneyLine(_attr(el, "playerid"), _int(_text_of(money), "money"))


def _decode_connect(el: Element) -> Message:
    status = _enum_attr(el, "status", ("server", "passive", "active", "complete"))
    if status == "server":
        return ConnectServer(
            _child_text(el, "game"),
            _int(_child_text(el, "numplayers"), "numplayers"),
            _child_text(el, "url"),
        )
    if status == "complete":
        return ConnectComplete(
            _attr(el, "id", MAX_GROUP_LENGTH),
            _child_text(el, "game"),
            _players(el),
            _child_text(el, "url"),
            _opt_attr(el, "playerid"),
        )
    player = _one(el, "player")
    assert player is not None
    opponent = _one(el, "opponent", required=False)
    opponents = _players(opponent) if opponent is not None else ()
    return ConnectPlayer(
        status,
        _player(player),
        _child_text(el, "game"),
        opponents,
        _opt_attr(el, "token", MAX_TOKEN_LENGTH) or None,
    )


def _decode_newgroup(el: Element) -> Message:
    status = _enum_attr(el, "status", ("init", "ack", "accept", "reject", "closed"))
    game = _child_text(el, "game")
    if status == "init":
        return NewGroupInit(game, _opt_attr(el, "id", MAX_GROUP_LENGTH), _players(el))
    if status == "ack":
        elements = _children(el, "player")
        tickets = [_opt_attr(p, "ticket", MAX_GROUP_LENGTH) for p in elements]
        given = tuple(t for t in tickets if t is not None)
        if given and len(given) != len(tickets):
            raise MessageError("<newgroup status='ack'>: a ticket for every player or for none")
        return NewGroupAck(
            game, _opt_attr(el, "id", MAX_GROUP_LENGTH), tuple(map(_player, elements)), given
        )
    if status == "closed":
        return NewGroupClosed(game, _attr(el, "id", MAX_GROUP_LENGTH))
    player = _one(el, "player")
    assert player is not None
    return NewGroupAnswer(
        status == "accept", _attr(el, "id", MAX_GROUP_LENGTH), game, _player(player)
    )


def _decode_newgame(el: Element) -> Message:
    status = _enum_attr(el, "status", ("ask", "accept", "reject"))
    group = _opt_attr(el, "id", MAX_GROUP_LENGTH)
    if status == "ask":
        return NewGameAsk(_players(el), group)
    player = _one(el, "player")
    assert player is not None
    return NewGameAnswer(status == "accept", _player(player), group)


def _decode_dial_part(el: Element) -> DialPart:
    kind = _enum_attr(el, "type", ("cards", "info"))
    to = _opt_place(el, "to")
    from_ = _opt_place(el, "from")
    if to is None or from_ is None:
        raise MessageError("<dial> needs 'to' and 'from' attributes")
    return DialPart(kind, to, from_, _maybe_cards(el), _opt_attr(el, "playerid"))


def _decode_licite(el: Element) -> Message:
    kind = _enum_attr(el, "type", ("ask", "answer", "info", "result"))
    text = _text_of(el)
    if kind == "ask":
        return LiciteAsk(parse_game_code(text) if text else None)
    if kind == "answer":
        return LiciteAnswer(parse_game_code(text, allow_answers=True))
    if kind == "info":
        return LiciteInfo(_attr(el, "playerid"), parse_game_code(text, allow_answers=True))
    return LiciteResult(_attr(el, "playerid"), parse_game_code(text))


def _decode_playcard(el: Element) -> Message:
    kind = _enum_attr(el, "type", ("ask", "cards", "info"))
    if kind == "ask":
        return PlayCardAsk()
    if kind == "cards":
        cards = _cards(el)
        if not cards:
            raise MessageError("<playcard type='cards'> needs at least one <card>")
        return PlayCardCards(
            cards, _opt_place(el, "from") or "hand", _opt_place(el, "to") or "desk"
        )
    return PlayCardInfo(
        _attr(el, "playerid"), _maybe_cards(el), _opt_place(el, "from"), _opt_place(el, "to")
    )


def _decode_gametype(el: Element) -> Message:
    kind = _enum_attr(el, "type", ("ask", "answer", "info"))
    licite = parse_game_code(_child_text(el, "licite"))
    if kind == "ask":
        return GameTypeAsk(licite)
    if kind == "answer":
        return GameTypeAnswer(licite, _trumf_child(el))
    return GameTypeInfo(_attr(el, "playerid"), licite, _trumf_child(el), _flek_child(el))


def _decode_flek(el: Element) -> Message:
    kind = _enum_attr(el, "type", ("ask", "answer", "info"))
    level = parse_flek(_text_of(el))
    if kind == "ask":
        return FlekAsk(level)
    if kind == "answer":
        return FlekAnswer(level)
    return FlekInfo(_attr(el, "playerid"), level)


def _decode_result(el: Element) -> Message:
    return Result(
        _child_text(el, "game"),
        parse_game_code(_child_text(el, "licite")),
        _trumf_child(el),
        _flek_child(el),
        tuple(_round(r) for r in _children(el, "round")),
        tuple(_money(w, "get") for w in _children(el, "winner") + _children(el, "winer")),
        tuple(_money(w, "lost") for w in _children(el, "loser")),
    )


def _decode_abort(el: Element) -> Message:
    player = _one(el, "player")
    assert player is not None
    return Abort(_player(player), _child_text(el, "message", MAX_TEXT_LENGTH))


def _decode_load(el: Element) -> Message:
    value = _int(_text_of(el), "load")
    if value > 100:
        raise MessageError("load must be between 0 and 100")
    return Load(value)


def _decode_pause(el: Element) -> Message:
    kind = _enum_attr(el, "type", ("start", "finish"))
    if kind == "start":
        return PauseStart(
            _opt_child_text(el, "message", MAX_TEXT_LENGTH), _opt_attr(el, "playerid")
        )
    return PauseFinish(_opt_attr(el, "playerid"))


def _decode_renonc(el: Element) -> Message:
    player = _one(el, "player")
    assert player is not None
    return Renonc(_player(player), _child_text(el, "message", MAX_TEXT_LENGTH))


_DECODERS: dict[str, Callable[[Element], Message]] = {
    "connect": _decode_connect,
    "newgroup": _decode_newgroup,
    "newgame": _decode_newgame,
    "licite": _decode_licite,
    "playcard": _decode_playcard,
    "gametype": _decode_gametype,
    "flek": _decode_flek,
    "round": _round,
    "result": _decode_result,
    "abort": _decode_abort,
    "load": _decode_load,
    "disconnect": lambda el: Disconnect(_text_of(el, MAX_TEXT_LENGTH, "<disconnect>")),
    "pause": _decode_pause,
    "cancelgame": lambda el: CancelGame(_text_of(el, MAX_TEXT_LENGTH, "<cancelgame>")),
    "renonc": _decode_renonc,
    "error": lambda el: Error(
        _text_of(el, MAX_TEXT_LENGTH, "<error>"), _opt_attr(el, "code") or "ERROR"
    ),
}

MESSAGE_TAGS: tuple[str, ...] = ("dial", *_DECODERS)
"""Every element name that may appear directly inside ``<cgml>``."""


def decode_body(body: Sequence[Element]) -> Message:
    """The message carried by the child elements of ``<cgml>``."""
    if not body:
        raise MessageError("empty <cgml> message")
    tags = [_tag(el) for el in body]
    if tags[0] == "dial":
        if any(t != "dial" for t in tags):
            raise MessageError("a message with <dial> may contain only <dial> elements")
        return Dial(tuple(_decode_dial_part(el) for el in body))
    if len(body) > 1:
        raise MessageError("one <cgml> message carries one element (only <dial> may repeat)")
    decoder = _DECODERS.get(tags[0])
    if decoder is None:
        raise MessageError(f"unknown message <{tags[0][:30]}>")
    return decoder(body[0])


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
    "MESSAGE_TAGS",
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
    "decode_body",
    "parse_flek",
    "parse_game_code",
    "parse_trumf",
    "public_group",
]

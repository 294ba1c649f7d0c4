"""Chapter 2 of seed 001: login, groups and new games (``connect``, ``newgroup``,
``newgame``) and the deal (``dial``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from herna.protocols.cgml.cards import Card
from herna.protocols.cgml.messages.nodes import Message, Node, PlayerRef, _attrs, _text


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

    ``tournament``, ``games`` and ``deal`` (Herna extensions, attributes): a live
    tournament's board tag, carried by the group's records and events; how many games the
    group plays before it closes; ``deal="duplicate"``: the board's duplicate deal, the same
    cards dealt from the same seat in every group of that tournament tag."""

    game: str
    group: str | None = None
    players: tuple[PlayerRef, ...] = ()
    tournament: str | None = None
    games: int | None = None
    duplicate: bool = False
    tag: ClassVar[str] = "newgroup"

    def nodes(self) -> tuple[Node, ...]:
        games = str(self.games) if self.games is not None else None
        attrs = _attrs(
            ("status", "init"),
            ("id", self.group),
            ("tournament", self.tournament),
            ("games", games),
            ("deal", "duplicate" if self.duplicate else None),
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

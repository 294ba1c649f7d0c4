"""Chapter 3 of seed 001: the game (``licite``, ``playcard``, ``gametype``, ``flek``,
``round``, ``result``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from herna.protocols.cgml.cards import Card
from herna.protocols.cgml.messages.nodes import Message, Node, _attrs, _text
from herna.protocols.cgml.messages.values import Flek, Trumf


@dataclass(frozen=True, slots=True)
class MoneyLine:
    """One ``<winner>``/``<loser>`` line of a result: who and how much (units)."""

    playerid: str
    amount: int


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

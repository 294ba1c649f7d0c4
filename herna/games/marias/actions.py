"""Actions of a mariáš game, one type per phase in CGML order, and their compact text form.

=================  ==========================  ===================================================
phase              action                      CGML
=================  ==========================  ===================================================
deal (chance)      ``Deal(card)``              ``dial`` (32 chance actions: 5 each, talon 2, 5 each)
auction: offer     ``Bid(Contract.C7)``        ``<licite type="ask"/>`` → answer ``7`` or ``PASS``
auction: hold      ``Answer(True)``            ``<licite type="ask">7</licite>`` → ``YES`` / ``NO``
talon              (automatic)                 ``dial from="talon" to="hand"`` to the winner
discard            ``Discard((c1, c2))``       ``playcard from="hand" to="talon"``
game type          ``GameType(C27, G, B)``     ``gametype answer`` ``<licite>`` + ``<trumf>G:B``
flek               ``Flek((2, 1))``            ``flek answer`` ``2:1``
play               ``Play(card)``              ``playcard from="hand" to="desk"`` (one card)
ložená claim       ``Claim(cards)``            ``playcard`` with all remaining cards
renonc             ``Renonc(action)``          the server rules an illegal move a renonc
concession         ``Resign()``                ``<resign/>`` (Herna extension): the aktér gives up
=================  ==========================  ===================================================

Actions are small frozen values, equal by content, hashable, and encode to short strings for
logs (:func:`encode_action` / :func:`decode_action`):

>>> encode_action(GameType(Contract.C27, 2, 1)), decode_action("play A0A")
('game 27 G:B', Play(card=31))
>>> encode_action(Renonc(Play(0)))
'renonc play R07'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from herna.games.marias.cards import (
    BYTE_CARDS,
    CARD_CODES,
    Card,
    CardError,
    Suit,
    parse_card,
)
from herna.games.marias.contracts import (
    Contract,
    format_flek,
    format_trumps,
    parse_flek,
    parse_trumps,
)


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the next card of the deal (positions 0-4 forhont, 5-9 middle, 10-14 zadák,
    15-16 talon, 17-21 forhont, 22-26 middle, 27-31 zadák)."""

    card: Card


@dataclass(frozen=True, slots=True)
class Bid:
    """The bidder offers a contract strictly above the current one, or ``Contract.PASS``."""

    contract: Contract


@dataclass(frozen=True, slots=True)
class Answer:
    """The holder answers "do you have it?": YES (mám, ``True``) or NO (nemám, drops out)."""

    yes: bool


@dataclass(frozen=True, slots=True)
class Discard:
    """The auction winner lays two cards (sorted ascending) into the talon."""

    cards: tuple[Card, Card]


@dataclass(frozen=True, slots=True)
class GameType:
    """The final contract (equal to or above the auction result) with trumps and, for dvě
    sedmy, the strkací suit. ``trumps`` is None for betl/durch and ``R`` for ``B*``."""

    contract: Contract
    trumps: Suit | None = None
    second: Suit | None = None


@dataclass(frozen=True, slots=True)
class Flek:
    """A flek answer: the new multiplier of each part (``(2,)``, ``(2, 1)`` = CGML ``2:1``).
    Equal to the current levels means "no raise"."""

    levels: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Play:
    """Play one card to the current trick."""

    card: Card


@dataclass(frozen=True, slots=True)
class Claim:
    """Lay down all remaining cards: the rest is ložená (see :mod:`herna.games.marias.claim`).

    Not listed by ``legal_actions()``; ``apply`` accepts it on the player's turn in play when
    the claim holds (``state.claim_holds(player)``) and raises ``IllegalAction`` otherwise.
    """

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Renonc:
    """The current player's ``action`` breaks the rules and the server rules it a renonc
    instead of rejecting it: the game ends and the offender's side pays (see the docs)."""

    action: Action


@dataclass(frozen=True, slots=True)
class Resign:
    """The aktér concedes the game on his turn (a flek or a card to play): he loses every
    part of the announced contract at full value with its fleks, as after his own renonc, but
    nobody broke a rule. The rules digest has no rule for giving up; a defender cannot give up
    alone (the partner's money is at stake), so only the aktér may. Not listed by
    ``legal_actions()``."""


Action = Deal | Bid | Answer | Discard | GameType | Flek | Play | Claim | Renonc | Resign
RESIGN = Resign()

# Interned instances for the hot path (actions are values: these equal fresh ones).
DEAL: tuple[Deal, ...] = tuple(Deal(c) for c in range(32))
PLAY: tuple[Play, ...] = tuple(Play(c) for c in range(32))
BID: tuple[Bid, ...] = tuple(Bid(c) for c in Contract)
YES = Answer(True)
NO = Answer(False)


# Tables for listing legal actions from card masks: a mask is four suit bytes, and each table
# maps (suit, byte) to the tuple of interned actions of those cards, ascending.
DEAL_BYTES: tuple[tuple[tuple[Deal, ...], ...], ...] = tuple(
    tuple(tuple(DEAL[c] for c in cards) for cards in suit) for suit in BYTE_CARDS
)
PLAY_BYTES: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(tuple(PLAY[c] for c in cards) for cards in suit) for suit in BYTE_CARDS
)
BIDS_ABOVE: tuple[tuple[Bid, ...], ...] = tuple((BID[0], *BID[b + 1 :]) for b in range(len(BID)))
"""BIDS_ABOVE[bid]: the offers open after ``bid`` (PASS, then every higher contract)."""
YES_NO: tuple[Answer, Answer] = (YES, NO)
# DISCARDS[c1 * 32 + c2]: the discard of two cards, interned (sorted ascending).
DISCARDS: tuple[Discard, ...] = tuple(
    Discard((a, b) if a < b else (b, a)) for a in range(32) for b in range(32)
)
DISCARD_OF_PAIR: dict[tuple[Card, Card], Discard] = {
    (a, b): DISCARDS[a * 32 + b] for a in range(32) for b in range(32)
}
"""(c1, c2) -> the interned discard of those two cards."""
_FLEKS: dict[tuple[int, ...], Flek] = {}


def flek_of(levels: tuple[int, ...]) -> Flek:
    """The interned flek answer of ``levels``."""
    f = _FLEKS.get(levels)
    if f is None:
        f = _FLEKS[levels] = Flek(levels)
    return f


CHANCE_BYTES: list[tuple[tuple[tuple[Deal, float], ...], ...] | None] = [None] * 33


def chance_bytes(n: int) -> tuple[tuple[tuple[Deal, float], ...], ...]:
    """``chance_bytes(n)[suit << 8 | byte]``: the chance outcomes (deal action, probability
    ``1/n``) of one suit's undealt cards when ``n`` cards are left to deal. Built on first
    use: 1,024 tuples per ``n``."""
    table = CHANCE_BYTES[n]
    if table is None:
        pairs = tuple((DEAL[c], 1.0 / n) for c in range(32))
        table = tuple(tuple(pairs[c] for c in cards) for suit in BYTE_CARDS for cards in suit)
        CHANCE_BYTES[n] = table
    return table


def discard_of(c1: Card, c2: Card) -> Discard:
    return DISCARDS[c1 * 32 + c2] if 0 <= c1 < 32 and 0 <= c2 < 32 else _discard(c1, c2)


def _discard(c1: Card, c2: Card) -> Discard:
    return Discard((c1, c2) if c1 < c2 else (c2, c1))


def encode_action(action: Action) -> str:
    """Compact text form for logs: ``deal R07``, ``bid 7``, ``yes``, ``no``, ``discard R07 B08``,
    ``game 27 G:B``, ``game SMALL``, ``flek 2:1``, ``play A0A``, ``claim A0A A10``,
    ``renonc <action>``, ``resign``."""
    match action:
        case Deal(card):
            return f"deal {CARD_CODES[card]}"
        case Bid(contract):
            return f"bid {contract.code}"
        case Answer(yes):
            return "yes" if yes else "no"
        case Discard(cards):
            return "discard " + " ".join(CARD_CODES[c] for c in cards)
        case GameType(contract, trumps, second):
            trumf = format_trumps(trumps, second)
            return f"game {contract.code} {trumf}" if trumf else f"game {contract.code}"
        case Flek(levels):
            return f"flek {format_flek(levels)}"
        case Play(card):
            return f"play {CARD_CODES[card]}"
        case Claim(cards):
            return "claim " + " ".join(CARD_CODES[c] for c in cards)
        case Renonc(inner):
            return f"renonc {encode_action(inner)}"
        case Resign():
            return "resign"
    raise TypeError(f"not a mariáš action: {action!r}")


def decode_action(text: str) -> Action:
    """Inverse of :func:`encode_action`. Raises ``ValueError`` on malformed text."""
    verb, _, rest = text.strip().partition(" ")
    args = rest.split()
    try:
        if verb == "deal" and len(args) == 1:
            return DEAL[parse_card(args[0])]
        if verb == "bid" and len(args) == 1:
            return BID[Contract.parse(args[0])]
        if verb in ("yes", "no") and not args:
            return YES if verb == "yes" else NO
        if verb == "discard" and len(args) == 2:
            return discard_of(parse_card(args[0]), parse_card(args[1]))
        if verb == "game" and 1 <= len(args) <= 2:
            trumps, second = parse_trumps(args[1] if len(args) == 2 else None)
            return GameType(Contract.parse(args[0]), trumps, second)
        if verb == "flek" and len(args) == 1:
            pieces = args[0].split(":")
            return Flek(parse_flek(args[0], len(pieces)))
        if verb == "play" and len(args) == 1:
            return PLAY[parse_card(args[0])]
        if verb == "claim" and args:
            return Claim(tuple(parse_card(a) for a in args))
        if verb == "resign" and not args:
            return RESIGN
        if verb == "renonc" and rest:
            return Renonc(decode_action(rest))
    except CardError as exc:
        raise ValueError(str(exc)) from None
    raise ValueError(f"not a mariáš action: {text!r}")


class MariasCodec:
    """:class:`herna.hall.match.ActionCodec` for mariáš: actions as compact strings."""

    def encode(self, action: Action) -> Any:
        return encode_action(action)

    def decode(self, data: Any) -> Action:
        if not isinstance(data, str):
            raise ValueError(f"a mariáš action is a string, not {data!r}")
        return decode_action(data)


def parse_licite_answer(text: str) -> Bid | Answer:
    """CGML ``<licite type="answer">`` text: ``YES``/``NO`` → :class:`Answer`, a game code or
    ``PASS`` → :class:`Bid`. Raises ``ValueError``."""
    word = text.strip().upper()
    if word in ("YES", "NO"):
        return YES if word == "YES" else NO
    return BID[Contract.parse(word)]


def licite_text(action: Bid | Answer) -> str:
    """The CGML text of an auction action (``7``, ``PASS``, ``YES``, ``NO``)."""
    if isinstance(action, Answer):
        return "YES" if action.yes else "NO"
    return action.contract.code

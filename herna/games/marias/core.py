"""The facts of one deal and how each legal action changes them (no validation here).

:class:`MariasCore` holds everything a deal knows — hands and talon as bit masks, the
auction, the contract, the fleks, the trick in progress, the finished tricks — plus the
queries on those facts (whose turn, which cards may be played, flek options) and one
transition per kind of action. The transitions assume the action is legal: validation,
the reasons people read when it is not (:mod:`~herna.games.marias.legality`), views and
claims sit on top in :class:`~herna.games.marias.state.MariasState`, the class everyone uses.

Every module here depends on this one and this one on none of them, so there is no import
circle between the state, its views, its claims and its rule explanations.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from herna.core.game import CHANCE, TERMINAL, PlayerId
from herna.games.marias.actions import Action
from herna.games.marias.cards import (
    ABOVE,
    BIT,
    CARD_CODES,
    KING,
    OBER,
    SUIT_MASK,
    TENS_ACES_MASK,
    Card,
    cards_of,
)
from herna.games.marias.contracts import Contract, Rules, format_flek, format_trumps
from herna.games.marias.evaluation import RenoncInfo, Settlement, Trick, settle_played
from herna.games.marias.rules import (
    CONTRACT_CODES,
    CONTRACT_PLAY,
    FLEK_TEXT,
    NEXT_SEAT,
    SEATS_AFTER,
    STRENGTH,
    Phase,
    new_tuple,
    raisable_levels,
)

DEFAULT_RULES = Rules()
"""The digest's DEFAULT choices: ČSM tariff, fleks up to boty (16)."""

# Enum members as module constants: ``Phase.PLAY`` is an attribute look-up on the enum class
# (tens of ns), a module global is one dictionary hit.
_DEAL, _AUCTION, _DISCARD, _GAMETYPE, _FLEK, _PLAY, _DONE = Phase
_PASS, _G, _BIG, _B27 = Contract.PASS, Contract.G, Contract.BIG, Contract.B27
# MATE[card]: the bit of the other half of a marriage (for an ober or a king), else 0.
_MATE: tuple[int, ...] = tuple(BIT[c ^ 3] if c & 7 in (OBER, KING) else 0 for c in range(32))


SeatLevels = tuple[tuple[int, ...], ...]
RaiseSets = tuple[frozenset[int], frozenset[int]]
FlekStep = tuple[SeatLevels, int, int, str]
_FLEK_STEPS: dict[tuple[SeatLevels, int, int, int, tuple[int, ...], RaiseSets], FlekStep] = {}
"""Memo of :func:`_flek_step` (a few hundred keys at most: levels are small powers of two)."""


def _flek_step(
    seat_levels: SeatLevels,
    declined: int,
    seat: int,
    decl: int,
    levels: tuple[int, ...],
    raise_sets: RaiseSets,
) -> FlekStep:
    """Seat ``seat`` answers a flek with ``levels``: the new levels per seat, the seats that
    declined (bits), who answers next (-1: the play starts) and the CGML text."""
    text = FLEK_TEXT.get(levels)
    if text is None:
        text = FLEK_TEXT[levels] = format_flek(levels)
    old = seat_levels[seat]
    if levels == old:
        declined |= 1 << seat
    else:
        seats = list(seat_levels)
        d0, d1 = NEXT_SEAT[decl], NEXT_SEAT[NEXT_SEAT[decl]]
        if seat != decl:
            seats[seat] = levels
        else:  # re/boty doubles the level of every defender at the highest level
            for d in (d0, d1):
                seats[d] = tuple(
                    new if mine == was else mine
                    for mine, new, was in zip(seats[d], levels, old, strict=True)
                )
        a, b = seats[d0], seats[d1]
        seats[decl] = a if a == b else tuple(map(max, a, b))
        seat_levels = (seats[0], seats[1], seats[2])
        declined = 1 << seat
    return (
        seat_levels,
        declined,
        _next_flek_seat(seat_levels, declined, seat, decl, raise_sets),
        text,
    )


def _next_flek_seat(
    seat_levels: SeatLevels, declined: int, seat: int, decl: int, raise_sets: RaiseSets
) -> int:
    """The next seat after ``seat`` that has not declined and may still raise, or -1."""
    by_defender, by_aktér = raise_sets
    for s in SEATS_AFTER[seat]:
        if declined >> s & 1:
            continue
        allowed = by_aktér if s == decl else by_defender
        for x in seat_levels[s]:
            if x in allowed:
                return s
    return -1


class MariasCore:
    """The facts of one deal and the transitions between them (see the module docs)."""

    __slots__ = (
        "_flek_declined",
        "_led",
        "_legal",
        "_log",
        "_raise_sets",
        "_settlement",
        "_undealt",
        "_win",
        "_win_seat",
        "auction_log",
        "bid",
        "bidder",
        "contract",
        "current",
        "dealer",
        "declarer",
        "discarded",
        "flek_levels",
        "flek_log",
        "hands",
        "holder",
        "leader",
        "marriages",
        "ndealt",
        "order",
        "pending",
        "phase",
        "played",
        "renonc",
        "reserve_seat",
        "rules",
        "seat_levels",
        "second",
        "talon_mask",
        "trick",
        "tricks",
        "trumps",
        "waiting",
        "won",
        "won_rung",
    )

    num_players = 3

    def __init__(self, dealer: int = 0, rules: Rules | None = None) -> None:
        if dealer not in (0, 1, 2):
            raise ValueError(f"dealer must be seat 0, 1 or 2, not {dealer!r}")
        self.rules = rules or DEFAULT_RULES
        self.dealer = dealer
        self.phase = Phase.DEAL
        self.hands = [0, 0, 0]
        self.talon_mask = 0
        self.ndealt = 0
        self._undealt = 0xFFFFFFFF
        self.bid = Contract.PASS
        self.bidder = dealer  # zadák offers
        self.holder = (dealer + 1) % 3  # forhont holds
        self.waiting = (dealer + 2) % 3  # middle joins after the first drop-out
        self.pending = False
        self.auction_log: tuple[tuple[int, str], ...] = ()
        self.declarer = -1
        self.won_rung = Contract.PASS
        self.contract = Contract.PASS
        self.trumps = -1
        self.second = -1
        self.order = 0
        self.reserve_seat = -1  # the aktér when he has announced sevens to hold back
        self.discarded = 0
        self.flek_levels: tuple[int, ...] = ()  # the highest level of each part
        # Per seat: a defender's own levels (a flek binds only who said it, ČSM); the aktér's
        # entry is the highest level, as for flek_levels.
        self.seat_levels: tuple[tuple[int, ...], ...] = ((), (), ())
        self._flek_declined = 0
        self._raise_sets = raisable_levels(self.rules.max_flek)
        self.flek_log: tuple[tuple[int, str], ...] = ()
        self.leader = -1
        self.trick: tuple[Card, ...] = ()
        # The trick in progress: the led suit and the card that takes it so far (the highest
        # trump, else the highest card of the led suit) with its seat; -1 before the lead.
        self._led = -1
        self._win = -1
        self._win_seat = -1
        self._legal = -1  # legal_play_mask() of this position once computed, else -1
        self.played = 0  # mask of every card played to a trick so far
        self.tricks: tuple[Trick, ...] = ()
        self.won = [0, 0, 0]
        self.marriages: tuple[tuple[int, int], ...] = ()
        self.current: int = CHANCE
        self.renonc: RenoncInfo | None = None
        self._settlement: Settlement | None = None
        self._log: tuple[Any, ...] | None = None  # (player, action, previous) cons list

    def clone(self) -> Self:
        """An independent copy of the deal (same class), to mutate with ``apply_action``."""
        cls = self.__class__
        n = cls.__new__(cls)
        n.rules = self.rules
        n.dealer = self.dealer
        n.phase = self.phase
        n.hands = self.hands[:]
        n.talon_mask = self.talon_mask
        n.ndealt = self.ndealt
        n._undealt = self._undealt
        n.bid = self.bid
        n.bidder = self.bidder
        n.holder = self.holder
        n.waiting = self.waiting
        n.pending = self.pending
        n.auction_log = self.auction_log
        n.declarer = self.declarer
        n.won_rung = self.won_rung
        n.contract = self.contract
        n.trumps = self.trumps
        n.second = self.second
        n.order = self.order
        n.reserve_seat = self.reserve_seat
        n.discarded = self.discarded
        n.flek_levels = self.flek_levels
        n.seat_levels = self.seat_levels
        n._flek_declined = self._flek_declined
        n._raise_sets = self._raise_sets
        n.flek_log = self.flek_log
        n.leader = self.leader
        n.trick = self.trick
        n._led = self._led
        n._win = self._win
        n._win_seat = self._win_seat
        n._legal = self._legal
        n.played = self.played
        n.tricks = self.tricks
        n.won = self.won[:]
        n.marriages = self.marriages
        n.current = self.current
        n.renonc = self.renonc
        n._settlement = self._settlement
        n._log = self._log
        return n

    # -- queries ----------------------------------------------------------------------------
    def current_player(self) -> PlayerId:
        return self.current

    def is_terminal(self) -> bool:
        return self.phase is _DONE

    def is_chance_node(self) -> bool:
        """Whether nature moves next (a deal step), as OpenSpiel's ``is_chance_node``."""
        return self.phase is _DEAL

    @property
    def forhont(self) -> int:
        return (self.dealer + 1) % 3

    @property
    def middle(self) -> int:
        return (self.dealer + 2) % 3

    @property
    def zadak(self) -> int:
        return self.dealer

    @property
    def auction_winner(self) -> int | None:
        return self.declarer if self.declarer >= 0 else None

    @property
    def pending_bid(self) -> Contract | None:
        """In the auction: the contract the holder is asked about (CGML ``<licite
        type="ask">CODE</licite>``), or None when the bidder is asked to offer."""
        if self.phase == _AUCTION and self.pending:
            return self.bid
        return None

    def hand(self, seat: int) -> list[Card]:
        return cards_of(self.hands[seat])

    def talon(self) -> list[Card]:
        """The talon: the two dealt cards until the aktér has discarded (in the discard phase
        they are in his hand), then the two cards he laid away."""
        return cards_of(self.discarded or self.talon_mask)

    def dealt_talon(self) -> list[Card]:
        """The two cards dealt to the talon (what the auction winner picks up: CGML
        ``dial from="talon" to="hand"``), whatever happened since."""
        return cards_of(self.talon_mask)

    def undealt_mask(self) -> int:
        return self._undealt

    def current_trick(self) -> tuple[int, tuple[Card, ...]]:
        """(leader, cards so far) of the trick in progress."""
        return self.leader, self.trick

    def trumps_text(self) -> str:
        """CGML ``<trumf>``: ``G``, ``G:B`` or ``""``."""
        return format_trumps(self.trumps_or_none, self.second_or_none)

    def flek_text(self, seat: int | None = None) -> str:
        """CGML ``<flek>`` text (``2`` or ``2:1``; ``1`` before the flek phase): the highest
        levels, or with ``seat`` that seat's own (what a ``<flek type="ask">`` offers it)."""
        levels = self.flek_levels if seat is None else self.seat_levels[seat]
        return format_flek(levels) if levels else "1"

    def seat_flek_levels(self, seat: int) -> tuple[int, ...]:
        """The flek levels between the aktér and defender ``seat`` (the highest for the aktér)."""
        return self.seat_levels[seat]

    @property
    def trumps_or_none(self) -> int | None:
        return self.trumps if self.trumps >= 0 else None

    @property
    def second_or_none(self) -> int | None:
        return self.second if self.second >= 0 else None

    def history(self) -> list[tuple[PlayerId, Action]]:
        """Every action applied so far (``apply_action``/``apply``), with the seat (or CHANCE)."""
        out: list[tuple[PlayerId, Action]] = []
        node = self._log
        while node is not None:
            out.append((node[0], node[1]))
            node = node[2]
        out.reverse()
        return out

    def settlement(self) -> Settlement:
        """The settled result of a finished deal. Raises ``ValueError`` before the end."""
        if self._settlement is None:
            raise ValueError("the deal is not finished")
        return self._settlement

    # -- what may be played -----------------------------------------------------------------
    def reserved_mask(self, seat: int) -> int:
        """Announced sevens the aktér must hold back in the current trick: the trump seven
        until the tenth trick, the strkací seven (dvě sedmy) until the ninth."""
        if seat != self.reserve_seat or self.phase != _PLAY:
            return 0
        number = len(self.tricks)  # 0-based index of the current trick
        if number >= 9:
            return 0
        m = BIT[self.trumps * 8]
        if number < 8 and self.second >= 0:
            m |= BIT[self.second * 8]
        return m

    def legal_play_mask(self) -> int:
        """Mask of the cards the player to move may play: the seed's 11 steps (as
        :func:`~herna.games.marias.rules.legal_play_mask`, here from the trick's running
        winner), then the announced sevens the aktér holds back."""
        seat = self.current
        hand = self.hands[seat]
        led = self._led
        if led < 0:  # the lead: any card
            m = hand
        else:
            w = self._win
            follow = hand & SUIT_MASK[led]
            if follow:  # steps 1-6: follow suit, overtake unless the trick has been trumped
                m = follow if w >> 3 != led else (follow & ABOVE[self.order][w] or follow)
            else:
                t = self.trumps
                tr = hand & SUIT_MASK[t] if t >= 0 else 0
                if tr:  # steps 7-10: trump, overtrump a trump already in the trick
                    m = (tr & ABOVE[self.order][w] or tr) if w >> 3 == t else tr
                else:  # step 11
                    m = hand
        if seat == self.reserve_seat:
            number = len(self.tricks)
            if number < 9:
                r = BIT[self.trumps * 8]
                if number < 8 and self.second >= 0:
                    r |= BIT[self.second * 8]
                if m & r and m & ~r:
                    m &= ~r
        return m

    def discard_allowed_mask(self) -> int:
        """Cards the auction winner may lay into the talon (before the contract is known)."""
        hand = self.hands[self.declarer]
        if self.won_rung > _BIG:
            hand &= ~TENS_ACES_MASK
            if self.won_rung >= _B27:
                hand &= ~BIT[0]  # R07 is the announced trump seven of every B27/B127
        return hand

    def flek_options(self) -> list[tuple[int, ...]]:
        """Flek answers of the player to move: keep his levels, or raise any of the parts he
        may (defenders 1 -> 2 flek, 4 -> 8 tutti; the aktér 2 -> 4 re, 8 -> 16 boty)."""
        seat = self.current
        levels = self.seat_levels[seat]
        allowed = self._raise_sets[seat == self.declarer]
        if len(levels) == 1:
            (a,) = levels
            return [levels, (a * 2,)] if a in allowed else [levels]
        out = [levels]
        a, b = levels
        ra, rb = a in allowed, b in allowed
        if ra:
            out.append((a * 2, b))
        if rb:
            out.append((a, b * 2))
        if ra and rb:
            out.append((a * 2, b * 2))
        return out

    def _can_raise(self, seat: int, level: int) -> bool:
        return level in self._raise_sets[seat == self.declarer]

    # -- transitions (the action is legal) --------------------------------------------------
    def deal_all(self, order: Sequence[Card]) -> None:
        """Deal a whole shuffled deck at once (same result as 32 ``Deal`` actions in order,
        not recorded in :meth:`history`: for a client that does not see the deal)."""
        assert self.phase == _DEAL and self.ndealt == 0 and len(order) == 32
        d = self.dealer
        f = NEXT_SEAT[d]
        m = NEXT_SEAT[f]
        bits = list(map(BIT.__getitem__, order))  # distinct bits: sums are unions
        hands = self.hands
        hands[f] = sum(bits[0:5]) + sum(bits[17:22])
        hands[m] = sum(bits[5:10]) + sum(bits[22:27])
        hands[d] = sum(bits[10:15]) + sum(bits[27:32])
        self.talon_mask = bits[15] + bits[16]
        self.ndealt = 32
        self._undealt = 0
        self.phase = _AUCTION
        self.current = self.bidder

    def _bid(self, contract: Contract) -> None:
        seat = self.current
        self.auction_log += ((seat, CONTRACT_CODES[contract]),)
        if contract == _PASS:
            self._drop(seat)
        else:
            self.bid = contract
            self.pending = True
            self.current = self.holder

    def _answer(self, yes: bool) -> None:
        seat = self.current
        self.auction_log += ((seat, "YES" if yes else "NO"),)
        if yes:
            self.pending = False
            self.current = self.bidder
        else:
            self._drop(seat)

    def _drop(self, seat: int) -> None:
        if self.waiting >= 0:  # the middle player takes over the role of whoever dropped
            newcomer = self.waiting
            self.waiting = -1
            if seat == self.bidder:
                self.bidder = newcomer
                self.pending = False
            else:
                self.holder = newcomer
            self.current = newcomer
            return
        winner = self.holder if seat == self.bidder else self.bidder
        self.pending = False
        self.declarer = winner
        self.won_rung = self.bid if self.bid != _PASS else _G
        self.hands[winner] |= self.talon_mask
        self.phase = _DISCARD
        self.current = winner

    def _discard(self, mask: int) -> None:
        self.hands[self.declarer] &= ~mask
        self.discarded = mask
        self.phase = _GAMETYPE

    def _gametype(self, contract: Contract, trumps: int | None, second: int | None) -> None:
        self.contract = contract
        self.trumps = -1 if trumps is None else trumps
        self.second = -1 if second is None else second
        order, sevens, n = CONTRACT_PLAY[contract]
        self.order = order
        self.reserve_seat = self.declarer if sevens else -1
        self.flek_levels = (1,) * n
        self.seat_levels = (self.flek_levels,) * 3
        self._flek_declined = 0
        self.phase = _FLEK
        self.current = self.declarer
        self._next_flek()

    def _flek(self, levels: tuple[int, ...]) -> None:
        seat = self.current
        key = (self.seat_levels, self._flek_declined, seat, self.declarer, levels, self._raise_sets)
        step = _FLEK_STEPS.get(key)
        if step is None:
            step = _FLEK_STEPS[key] = _flek_step(*key)
        seat_levels, declined, nxt, text = step
        self.flek_log += ((seat, text),)
        self.seat_levels = seat_levels
        self.flek_levels = seat_levels[self.declarer]
        self._flek_declined = declined
        if nxt < 0:
            self._start_play()
        else:
            self.current = nxt

    def _next_flek(self) -> None:
        nxt = _next_flek_seat(
            self.seat_levels, self._flek_declined, self.current, self.declarer, self._raise_sets
        )
        if nxt < 0:
            self._start_play()
        else:
            self.current = nxt

    def _start_play(self) -> None:
        self._legal = -1
        self.phase = _PLAY
        self.leader = self.forhont if self.order == 0 else self.declarer
        self.current = self.leader

    def _play(self, card: Card) -> None:
        seat = self.current
        hands = self.hands
        hand = hands[seat]
        bit = BIT[card]
        mate = _MATE[card]
        if mate and hand & mate and self.order == 0:
            self.marriages += ((seat, card >> 3),)
        hands[seat] = hand ^ bit
        self.played |= bit
        self._legal = -1
        trick = self.trick
        suit = card >> 3
        if not trick:  # the lead
            self.trick = (card,)
            self._led = suit
            self._win = card
            self._win_seat = seat
            self.current = NEXT_SEAT[seat]
            return
        w = self._win
        if suit == w >> 3:
            strength = STRENGTH[self.order]
            if strength[card] > strength[w]:
                self._win = card
                self._win_seat = seat
        elif suit == self.trumps:
            self._win = card
            self._win_seat = seat
        if len(trick) == 1:
            self.trick = (trick[0], card)
            self.current = NEXT_SEAT[seat]
            return
        # The third card: the trick goes to whoever played the card that takes it.
        c0, c1 = trick
        winner = self._win_seat
        self.won[winner] |= BIT[c0] | BIT[c1] | bit
        tricks = self.tricks
        number = len(tricks) + 1
        self.tricks = (*tricks, new_tuple(Trick, (number, self.leader, (c0, c1, card), winner)))
        self.trick = ()
        self._led = self._win = self._win_seat = -1
        self.leader = self.current = winner
        if number == 10:
            self._finish()

    def _finish(self) -> None:
        self.phase = _DONE
        self.current = TERMINAL
        self._settlement = settle_played(
            contract=self.contract,
            trumps=self.trumps_or_none,
            second=self.second_or_none,
            declarer=self.declarer,
            seat_levels=self.seat_levels,
            tariff=self.rules.tariff,
            won=self.won,
            tricks=self.tricks,
            marriages=self.marriages,
        )

    def __repr__(self) -> str:
        hands = " | ".join(" ".join(CARD_CODES[c] for c in cards_of(h)) for h in self.hands)
        return f"<{self.__class__.__name__} {self.phase.name} current={self.current} hands={hands}>"

"""The state of one deal of licitovaný mariáš, from the shuffle to the settlement.

Seats are 0, 1, 2 in clockwise (playing) order. The dealer is the zadák (he bids first), his
left neighbour ``dealer + 1`` is the forhont (holds in the auction, leads in trump games) and
``dealer + 2`` is the middle player. A group of games rotates the dealer clockwise
(:func:`next_dealer`).

Phases follow the CGML flow: 32 chance ``Deal`` actions, the auction (``Bid``/``Answer``), the
talon goes to the winner, ``Discard``, ``GameType``, flek rounds (``Flek``), ten tricks
(``Play``, or a ``Claim`` of the rest), settlement. ``apply`` returns a new state; internally
the engine mutates a private copy (``_apply``), which is also what fast playouts use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from herna.core.errors import IllegalAction
from herna.core.game import CHANCE, TERMINAL, Outcome, PlayerId
from herna.games.marias.actions import (
    BID,
    DEAL,
    NO,
    PLAY,
    YES,
    Action,
    Answer,
    Bid,
    Claim,
    Deal,
    Discard,
    Flek,
    GameType,
    Play,
    Renonc,
    discard_of,
    encode_action,
)
from herna.games.marias.cards import (
    BIT,
    BYTE_CARDS,
    CARD_CODES,
    KING,
    OBER,
    SEVENS_MASK,
    SUIT_MASK,
    TENS_ACES_MASK,
    Card,
    cards_of,
)
from herna.games.marias.contracts import (
    Contract,
    Rules,
    format_flek,
    format_trumps,
)
from herna.games.marias.evaluation import (
    PartResult,
    RenoncInfo,
    Settlement,
    Trick,
    settle_played,
    settle_renonc,
)
from herna.games.marias.rules import (
    ALL_GAMETYPES,
    CONTRACT_CODES,
    CONTRACT_PLAY,
    DEAL_TO,
    FLEK_TEXT,
    GAMETYPE_CACHE,
    GAMETYPES_FROM,
    NEXT_SEAT,
    SEATS_AFTER,
    STRENGTH,
    SUIT_WORDS,
    Phase,
    legal_play_mask,
    new_tuple,
    raisable_levels,
    trick_winner_index,
)

__all__ = [
    "ALL_GAMETYPES",
    "DEAL_TO",
    "STRENGTH",
    "MariasState",
    "PartResult",
    "Phase",
    "RenoncInfo",
    "Settlement",
    "Trick",
    "dealer_of_game",
    "legal_play_mask",
    "new_game",
    "next_dealer",
    "trick_winner_index",
]


DEFAULT_RULES = Rules()
"""The digest's DEFAULT choices: ČSM tariff, fleks up to boty (16)."""


def next_dealer(dealer: int) -> int:
    """The dealer of the next game of a group: one seat on, clockwise."""
    return (dealer + 1) % 3


def dealer_of_game(first_dealer: int, index: int) -> int:
    """The dealer of game ``index`` (0-based) of a group whose first dealer is given."""
    return (first_dealer + index) % 3


def new_game(dealer: int = 0, rules: Rules | None = None) -> MariasState:
    """A fresh deal: the next 32 actions are chance ``Deal`` actions."""
    return MariasState(dealer, rules)


class MariasState:
    """One deal. Treat as immutable: :meth:`apply` returns a new state."""

    __slots__ = (
        "_flek_declined",
        "_log",
        "_raise_sets",
        "_settlement",
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
        self.played = 0  # mask of every card played to a trick so far
        self.tricks: tuple[Trick, ...] = ()
        self.won = [0, 0, 0]
        self.marriages: tuple[tuple[int, int], ...] = ()
        self.current: int = CHANCE
        self.renonc: RenoncInfo | None = None
        self._settlement: Settlement | None = None
        self._log: tuple[Any, ...] | None = None  # (player, action, previous) cons list

    # -- copying ----------------------------------------------------------------------------
    def clone(self) -> MariasState:
        """A copy that may be mutated with ``_apply`` (for playouts and search)."""
        n = MariasState.__new__(MariasState)
        n.rules = self.rules
        n.dealer = self.dealer
        n.phase = self.phase
        n.hands = self.hands[:]
        n.talon_mask = self.talon_mask
        n.ndealt = self.ndealt
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
        n.played = self.played
        n.tricks = self.tricks
        n.won = self.won[:]
        n.marriages = self.marriages
        n.current = self.current
        n.renonc = self.renonc
        n._settlement = self._settlement
        n._log = self._log
        return n

    # -- GameState protocol -----------------------------------------------------------------
    def current_player(self) -> PlayerId:
        return self.current

    def is_terminal(self) -> bool:
        return self.phase == Phase.DONE

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move (all deal outcomes at a chance node).

        ``Claim`` and ``Renonc`` are never listed: both are accepted by :meth:`apply` when
        they apply (see their docs).
        """
        phase = self.phase
        if phase == Phase.PLAY:
            m = self.legal_play_mask()
            return [
                PLAY[c]
                for c in (
                    *BYTE_CARDS[0][m & 255],
                    *BYTE_CARDS[1][m >> 8 & 255],
                    *BYTE_CARDS[2][m >> 16 & 255],
                    *BYTE_CARDS[3][m >> 24 & 255],
                )
            ]
        if phase == Phase.DEAL:
            return [DEAL[c] for c in cards_of(self.undealt_mask())]
        if phase == Phase.AUCTION:
            if self.pending:
                return [YES, NO]
            bids: list[Action] = [BID[0]]
            bids.extend(BID[c] for c in range(self.bid + 1, len(BID)))
            return bids
        if phase == Phase.DISCARD:
            allowed = cards_of(self.discard_allowed_mask())
            return [discard_of(a, b) for i, a in enumerate(allowed) for b in allowed[i + 1 :]]
        if phase == Phase.GAMETYPE:
            return list(self.legal_gametypes())
        if phase == Phase.FLEK:
            return [Flek(levels) for levels in self.flek_options()]
        return []

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase != Phase.DEAL:
            return []
        cards = cards_of(self.undealt_mask())
        p = 1.0 / len(cards)
        return [(DEAL[c], p) for c in cards]

    def apply(self, action: Action) -> MariasState:
        """The state after ``action``; raises :class:`IllegalAction` and changes nothing."""
        player = self.current
        n = self.clone()
        n._apply(action)
        n._log = (player, action, self._log)
        return n

    def outcome(self) -> Outcome | None:
        if self.phase != Phase.DONE:
            return None
        s = self.settlement()
        return Outcome(
            returns=tuple(float(m) for m in s.money),
            winners=tuple(i for i in range(3) if s.money[i] > 0),
            reason=s.reason,
            details=s.to_json(),
        )

    # -- queries ----------------------------------------------------------------------------
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
        if self.phase == Phase.AUCTION and self.pending:
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
        dealt = self.hands[0] | self.hands[1] | self.hands[2] | self.talon_mask
        return ~dealt & 0xFFFFFFFF

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
        """Every action applied through :meth:`apply` so far, with the seat (or CHANCE)."""
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

    # -- legality ---------------------------------------------------------------------------
    def reserved_mask(self, seat: int) -> int:
        """Announced sevens the aktér must hold back in the current trick: the trump seven
        until the tenth trick, the strkací seven (dvě sedmy) until the ninth."""
        if seat != self.reserve_seat or self.phase != Phase.PLAY:
            return 0
        number = len(self.tricks)  # 0-based index of the current trick
        if number >= 9:
            return 0
        m = BIT[self.trumps * 8]
        if number < 8 and self.second >= 0:
            m |= BIT[self.second * 8]
        return m

    def legal_play_mask(self) -> int:
        """Mask of the cards the player to move may play (11 steps + reserved sevens)."""
        seat = self.current
        m = legal_play_mask(self.hands[seat], self.trick, self.trumps, self.order)
        if seat == self.reserve_seat:
            r = self.reserved_mask(seat)
            if m & r and m & ~r:
                m &= ~r
        return m

    def discard_allowed_mask(self) -> int:
        """Cards the auction winner may lay into the talon (before the contract is known)."""
        hand = self.hands[self.declarer]
        if self.won_rung > Contract.BIG:
            hand &= ~TENS_ACES_MASK
            if self.won_rung >= Contract.B27:
                hand &= ~BIT[0]  # R07 is the announced trump seven of every B27/B127
        return hand

    def legal_gametypes(self) -> tuple[GameType, ...]:
        """Announcements allowed after this auction and discard (cached by what matters)."""
        d = self.discarded
        key = (self.won_rung, bool(d & TENS_ACES_MASK), d & SEVENS_MASK)
        cached = GAMETYPE_CACHE.get(key)
        if cached is None:
            cached = tuple(
                g for g in GAMETYPES_FROM[self.won_rung] if self._gametype_problem(g) is None
            )
            GAMETYPE_CACHE[key] = cached
        return cached

    def _gametype_problem(self, g: GameType) -> tuple[str, str] | None:
        c = g.contract
        if not isinstance(c, Contract) or c == Contract.PASS:
            return "PASS is not a contract", "BAD_CONTRACT"
        if c < self.won_rung:
            return (
                f"The auction was won at {self.won_rung.code}: you may keep or raise it, "
                f"not announce {c.code}",
                "CONTRACT_TOO_LOW",
            )
        if not c.has_trumps:
            if g.trumps is not None or g.second is not None:
                return f"{c.code} is played without trumps", "NO_TRUMPS_IN_BETL_DURCH"
            return None
        if g.trumps is None or g.trumps not in (0, 1, 2, 3):
            return f"{c.code} needs a trump suit", "TRUMPS_MISSING"
        if c.hearts and g.trumps != 0:
            return f"{c.code} is played with red (R) trumps", "HEARTS_REQUIRED"
        if not c.hearts and g.trumps == 0:
            return f"red trumps make {c.code} the better game B{c.code}", "HEARTS_MEANS_BETTER"
        if c.has_second_suit:
            if g.second is None or g.second not in (0, 1, 2, 3) or g.second == g.trumps:
                return (
                    f"{c.code} needs a second (strkací) suit other than trumps, e.g. G:B",
                    "SECOND_SUIT_MISSING",
                )
        elif g.second is not None:
            return f"{c.code} has no second suit", "NO_SECOND_SUIT"
        d = self.discarded
        if d & TENS_ACES_MASK:
            return (
                "An ace or a ten lies in the talon: only betl or durch can be played",
                "ACE_TEN_IN_TALON",
            )
        if c.announced_sevens and d & BIT[g.trumps * 8]:
            return f"The announced seven {CARD_CODES[g.trumps * 8]} lies in the talon", (
                "SEVEN_IN_TALON"
            )
        if c.announced_sevens == 2 and g.second is not None and d & BIT[g.second * 8]:
            return f"The announced seven {CARD_CODES[g.second * 8]} lies in the talon", (
                "SEVEN_IN_TALON"
            )
        return None

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

    def check(self, action: Action) -> str | None:
        """Why ``action`` is illegal now (a reason for people), or None if it is legal."""
        problem = self._problem(action)
        return problem[0] if problem else None

    def _problem(self, action: Action) -> tuple[str, str] | None:
        phase = self.phase
        seat = self.current
        if phase == Phase.DONE:
            return "The game is over", "GAME_OVER"
        if isinstance(action, Renonc):
            return "A renonc is ruled by the server, it is not a move", "NOT_A_MOVE"
        if phase == Phase.DEAL:
            if not isinstance(action, Deal):
                return "The cards are being dealt", "WRONG_PHASE"
            if not self.undealt_mask() >> action.card & 1:
                return f"{CARD_CODES[action.card]} has been dealt already", "ALREADY_DEALT"
            return None
        if phase == Phase.AUCTION:
            if self.pending:
                if not isinstance(action, Answer):
                    return (
                        f"Answer YES or NO: do you have {self.bid.code}?",
                        "ANSWER_YES_OR_NO",
                    )
                return None
            if not isinstance(action, Bid):
                return "Offer a game or PASS", "OFFER_A_GAME"
            if action.contract != Contract.PASS and action.contract <= self.bid:
                return (
                    f"Offer a game above {self.bid.code} or PASS",
                    "BID_TOO_LOW",
                )
            return None
        if phase == Phase.DISCARD:
            if not isinstance(action, Discard):
                return "Lay two cards into the talon", "DISCARD_TWO"
            a, b = action.cards
            hand = self.hands[seat]
            if a == b or not (0 <= a < 32 and 0 <= b < 32):
                return "Lay two different cards into the talon", "DISCARD_TWO"
            for c in (a, b):
                if not hand >> c & 1:
                    return f"You do not hold {CARD_CODES[c]}!", "NOT_IN_HAND"
            allowed = self.discard_allowed_mask()
            for c in (a, b):
                if not allowed >> c & 1:
                    if BIT[c] & TENS_ACES_MASK:
                        return (
                            f"Aces and tens may not go to the talon in {self.won_rung.code}!",
                            "ACE_TEN_TO_TALON",
                        )
                    return (
                        f"The announced seven {CARD_CODES[c]} may not go to the talon!",
                        "SEVEN_TO_TALON",
                    )
            return None
        if phase == Phase.GAMETYPE:
            if not isinstance(action, GameType):
                return "Announce the game and trumps", "ANNOUNCE_GAME"
            return self._gametype_problem(action)
        if phase == Phase.FLEK:
            if not isinstance(action, Flek):
                return "Answer the flek", "ANSWER_FLEK"
            if action.levels not in self.flek_options():
                return (
                    f"You may keep the flek at {self.flek_text(seat)} or raise a "
                    "part one step (defenders 2 and 8, the aktér 4 and 16)",
                    "BAD_FLEK",
                )
            return None
        # PLAY
        if isinstance(action, Claim):
            if sorted(action.cards) != self.hand(seat):
                return "A claim lays down all your remaining cards", "CLAIM_NOT_WHOLE_HAND"
            if not self.claim_holds(seat):
                return (
                    "The rest is not ložená: some legal defence beats the claim",
                    "CLAIM_FAILS",
                )
            return None
        if not isinstance(action, Play):
            return "Play a card", "PLAY_A_CARD"
        return self.play_problem(action.card)

    def play_problem(self, card: Card) -> tuple[str, str] | None:
        """Why the player to move may not play ``card`` (reason, code), or None."""
        seat = self.current
        hand = self.hands[seat]
        if not 0 <= card < 32 or not hand >> card & 1:
            code = CARD_CODES[card] if 0 <= card < 32 else str(card)
            return f"You do not hold {code}!", "NOT_IN_HAND"
        legal = self.legal_play_mask()
        if legal >> card & 1:
            return None
        trick = self.trick
        base = legal_play_mask(hand, trick, self.trumps, self.order)
        if base >> card & 1:  # legal by the 11 steps, so it is a reserved seven
            if card == self.trumps * 8:
                return (
                    f"You must keep the announced seven {CARD_CODES[card]} for the last trick!",
                    "SEVEN_RESERVED",
                )
            return (
                f"You must keep the strkací seven {CARD_CODES[card]} for the ninth trick!",
                "SEVEN_RESERVED",
            )
        led = trick[0] >> 3
        if hand & SUIT_MASK[led]:
            if card >> 3 != led:
                return f"You must play {SUIT_WORDS[led]}!", "MUST_FOLLOW_SUIT"
            return f"You must play a higher {SUIT_WORDS[led]} card!", "MUST_OVERTAKE"
        t = self.trumps
        if card >> 3 != t:
            return f"You must trump with {SUIT_WORDS[t]}!", "MUST_TRUMP"
        return f"You must play a higher {SUIT_WORDS[t]} trump!", "MUST_OVERTRUMP"

    # -- ložená ------------------------------------------------------------------------------
    def claim_holds(self, seat: int) -> bool:
        """Whether ``seat`` (to move, in play) wins every remaining trick against every legal
        defence (a betl aktér: loses every remaining trick). Exhaustive search."""
        from herna.games.marias.claim import claim_strategy

        return claim_strategy(self, seat) is not None

    # -- applying ---------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        """Validate and apply ``action`` in place (used on private copies)."""
        t = type(action)
        if t is Play and self.phase == Phase.PLAY:
            card = action.card  # type: ignore[union-attr]
            if not (0 <= card < 32 and self.legal_play_mask() >> card & 1):
                problem = self.play_problem(card)
                assert problem is not None
                raise IllegalAction(*problem)
            self._play(card)
            return
        if t is Deal and self.phase == Phase.DEAL:
            card = action.card  # type: ignore[union-attr]
            if not (0 <= card < 32 and self.undealt_mask() >> card & 1):
                raise IllegalAction(f"{card} cannot be dealt now", "ALREADY_DEALT")
            self._deal(card)
            return
        if t is Renonc:
            self._apply_renonc(action)  # type: ignore[arg-type]
            return
        problem = self._problem(action)
        if problem is not None:
            raise IllegalAction(*problem)
        if t is Bid:
            self._bid(action.contract)  # type: ignore[union-attr]
        elif t is Answer:
            self._answer(action.yes)  # type: ignore[union-attr]
        elif t is Discard:
            a, b = action.cards  # type: ignore[union-attr]
            self._discard(BIT[a] | BIT[b])
        elif t is GameType:
            g: GameType = action  # type: ignore[assignment]
            self._gametype(g.contract, g.trumps, g.second)
        elif t is Flek:
            self._flek(action.levels)  # type: ignore[union-attr]
        elif t is Claim:
            self._claim()
        else:  # pragma: no cover - _problem covers every other case
            raise IllegalAction(f"not a mariáš action: {action!r}", "NOT_AN_ACTION")

    def _deal(self, card: Card) -> None:
        to = DEAL_TO[self.ndealt]
        if to < 0:
            self.talon_mask |= BIT[card]
        else:
            self.hands[(self.dealer + to) % 3] |= BIT[card]
        self.ndealt += 1
        if self.ndealt == 32:
            self.phase = Phase.AUCTION
            self.current = self.bidder

    def deal_all(self, order: Sequence[Card]) -> None:
        """Deal a whole shuffled deck at once (same result as 32 ``Deal`` actions in order)."""
        assert self.phase == Phase.DEAL and self.ndealt == 0 and len(order) == 32
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
        self.phase = Phase.AUCTION
        self.current = self.bidder

    def _bid(self, contract: Contract) -> None:
        seat = self.current
        self.auction_log += ((seat, CONTRACT_CODES[contract]),)
        if contract == Contract.PASS:
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
        self.won_rung = self.bid if self.bid != Contract.PASS else Contract.G
        self.hands[winner] |= self.talon_mask
        self.phase = Phase.DISCARD
        self.current = winner

    def _discard(self, mask: int) -> None:
        self.hands[self.declarer] &= ~mask
        self.discarded = mask
        self.phase = Phase.GAMETYPE

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
        self.phase = Phase.FLEK
        self.current = self.declarer
        self._next_flek()

    def _flek(self, levels: tuple[int, ...]) -> None:
        seat = self.current
        old = self.seat_levels[seat]
        text = FLEK_TEXT.get(levels)
        if text is None:
            text = FLEK_TEXT[levels] = format_flek(levels)
        self.flek_log += ((seat, text),)
        if levels == old:
            self._flek_declined |= 1 << seat
        else:
            decl = self.declarer
            seats = list(self.seat_levels)
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
            top = a if a == b else tuple(map(max, a, b))
            seats[decl] = top
            self.flek_levels = top
            self.seat_levels = (seats[0], seats[1], seats[2])
            self._flek_declined = 1 << seat
        self._next_flek()

    def _next_flek(self) -> None:
        seat = self.current
        declined = self._flek_declined
        by_defender, by_aktér = self._raise_sets
        decl = self.declarer
        for s in SEATS_AFTER[seat]:
            if declined >> s & 1:
                continue
            allowed = by_aktér if s == decl else by_defender
            for x in self.seat_levels[s]:
                if x in allowed:
                    self.current = s
                    return
        self._start_play()

    def _start_play(self) -> None:
        self.phase = Phase.PLAY
        self.leader = self.forhont if self.order == 0 else self.declarer
        self.current = self.leader

    def _play(self, card: Card) -> None:
        seat = self.current
        hand = self.hands[seat]
        rank = card & 7
        if rank in (OBER, KING) and self.order == 0 and hand >> (card ^ 3) & 1:
            self.marriages += ((seat, card >> 3),)
        self.hands[seat] = hand ^ BIT[card]
        self.played |= BIT[card]
        trick = self.trick
        if len(trick) < 2:
            self.trick = (*trick, card)
            self.current = NEXT_SEAT[seat]
            return
        # Third card: who takes the trick?
        strength = STRENGTH[self.order]
        trumps = self.trumps
        c0, c1 = trick
        best, bc = 0, c0
        if c1 >> 3 == c0 >> 3:
            if strength[c1] > strength[c0]:
                best, bc = 1, c1
        elif c1 >> 3 == trumps:
            best, bc = 1, c1
        if card >> 3 == bc >> 3:
            if strength[card] > strength[bc]:
                best = 2
        elif card >> 3 == trumps:
            best = 2
        leader = self.leader
        winner = (leader + best) % 3
        self.won[winner] |= BIT[c0] | BIT[c1] | BIT[card]
        tricks = self.tricks
        self.tricks = (
            *tricks,
            new_tuple(Trick, (len(tricks) + 1, leader, (c0, c1, card), winner)),
        )
        self.trick = ()
        self.leader = winner
        self.current = winner
        if len(tricks) == 9:
            self._finish()

    def _claim(self) -> None:
        from herna.games.marias.claim import complete_claim

        for card in complete_claim(self, self.current):
            self._play(card)

    def _finish(self) -> None:
        self.phase = Phase.DONE
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

    def _apply_renonc(self, renonc: Renonc) -> None:
        inner = renonc.action
        phase = self.phase
        if phase not in (Phase.DISCARD, Phase.GAMETYPE, Phase.PLAY):
            raise IllegalAction(
                "Only a discard, a game announcement or a card can be ruled a renonc",
                "NOT_A_RENONC",
            )
        expected = {Phase.DISCARD: Discard, Phase.GAMETYPE: GameType, Phase.PLAY: (Play, Claim)}
        if not isinstance(inner, expected[phase]):  # type: ignore[arg-type]
            raise IllegalAction("That is not an action of this phase", "NOT_A_RENONC")
        problem = self._problem(inner)
        if problem is None:
            raise IllegalAction("That action is legal: it is not a renonc", "NOT_A_RENONC")
        seat = self.current
        contract = self.won_rung
        if phase == Phase.GAMETYPE:
            g: GameType = inner  # type: ignore[assignment]
            if isinstance(g.contract, Contract) and g.contract >= self.won_rung:
                contract = g.contract
        seat_levels: tuple[tuple[int, ...], ...] = ((1,) * len(contract.parts),) * 3
        if phase == Phase.PLAY:
            contract, seat_levels = self.contract, self.seat_levels
        self.renonc = RenoncInfo(seat, problem[0], problem[1], encode_action(inner))
        self.phase = Phase.DONE
        self.current = TERMINAL
        self._settlement = settle_renonc(
            contract=contract,
            trumps=self.trumps_or_none,
            second=self.second_or_none,
            declarer=self.declarer,
            seat_levels=seat_levels,
            tariff=self.rules.tariff,
            renonc=self.renonc,
            tricks=self.tricks,
        )

    # -- views ------------------------------------------------------------------------------
    def view(self, player: PlayerId | None) -> Mapping[str, Any]:
        """What ``player`` may see (``None``: a spectator), JSON-ready; see
        :func:`herna.games.marias.view.state_view`."""
        from herna.games.marias.view import state_view

        return state_view(self, player)

    def __repr__(self) -> str:
        hands = " | ".join(" ".join(CARD_CODES[c] for c in cards_of(h)) for h in self.hands)
        return f"<MariasState {self.phase.name} current={self.current} hands={hands}>"

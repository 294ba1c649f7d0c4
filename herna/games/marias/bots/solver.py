"""Exact solving of the last tricks of one sampled world (double dummy, all cards open).

The search bot deals the unseen cards into sample worlds (PIMC). Late in the play a world is
small enough to solve exactly instead of playing it out with the rule policy: alpha-beta
over every remaining card, the aktér maximising his money and the defenders minimising it,
the money taken from the engine's own settlement (:func:`settle_played`), so hra, sedma,
sto, tichá sedma, marriages, fleks and the limit count exactly as the referee counts them.

Three things keep it small: touching cards of one hand that score alike are one move (the
claim search's trick, :mod:`herna.games.marias.claim`); in betl and durch the first trick
that decides the contract ends the line; and positions at a trick's start are memoised
(bounds, as alpha-beta leaves them). In betl and durch the rest of the deal depends only on
the cards left, the leader and whether it is decided; in trump games also on what the past
left for the settlement: the aktér's aces and tens taken so far, his first marriage and the
marriages' sums per side (the last tricks, which decide sedma and dvě sedmy, are still to
come: the memo stops before trick 9). That memo is what lets the deal review
(:mod:`herna.games.marias.review`) solve whole deals. A node budget bounds the work;
:class:`Unsolved` tells the caller to fall back to a rollout.
"""

from __future__ import annotations

from herna.games.marias.cards import BIT, KING, OBER, POINTS, SUIT_MASK, TENS_ACES_MASK, Card
from herna.games.marias.contracts import Contract
from herna.games.marias.evaluation import Trick, settle_played
from herna.games.marias.rules import STRENGTH, legal_play_mask, trick_winner_index
from herna.games.marias.state import MariasState, Phase

_INF = 1 << 30


class Unsolved(Exception):
    """The node budget ran out before the position was solved."""


class EndgameSolver:
    """Solves the play of ``state`` (a full, known deal in the play phase) from now on."""

    def __init__(
        self,
        state: MariasState,
        max_nodes: int = 20_000,
        memo: dict[tuple[int, ...], tuple[int, int]] | None = None,
    ) -> None:
        if state.phase != Phase.PLAY:
            raise ValueError("the solver needs a deal in the play phase")
        self.state = state
        self.max_nodes = max_nodes
        self.nodes = 0
        self.trumps = state.trumps
        self.order = state.order
        self.declarer = state.declarer
        self.contract = state.contract
        self.strength = STRENGTH[state.order]
        self.betl = state.contract == Contract.SMALL
        self.durch = state.contract == Contract.BIG
        self.reserve = state.reserve_seat
        self.second_seven = state.second * 8 if state.second >= 0 else -1
        # Cards that are never interchangeable with a touching card: the trump seven (sedma
        # and tichá sedma are about that card) and the strkací seven.
        self.special = 0
        if self.trumps >= 0:
            self.special |= BIT[self.trumps * 8]
        if self.second_seven >= 0:
            self.special |= BIT[self.second_seven]
        self.ordered = [
            sorted(range(suit * 8, suit * 8 + 8), key=lambda c: self.strength[c])
            for suit in range(4)
        ]
        self.hands = list(state.hands)
        self.played = state.played
        self.won = list(state.won)
        self.tricks = list(state.tricks)
        self.marriages = state.marriages
        self.memo = {} if memo is None else memo
        """Bounds of positions at a trick's start; its keys hold everything the rest of the deal
        depends on, so solvers of later positions of the same deal may share one (the review)."""
        self._decided: int | None = None

    # -- moves ------------------------------------------------------------------------------
    def legal(self, seat: int, trick: tuple[Card, ...]) -> int:
        m = legal_play_mask(self.hands[seat], trick, self.trumps, self.order)
        if seat == self.reserve:
            number = len(self.tricks)
            r = 0
            if number < 9:
                r = BIT[self.trumps * 8]
                if number < 8 and self.second_seven >= 0:
                    r |= BIT[self.second_seven]
            if m & r and m & ~r:
                m &= ~r
        return m

    def _kind(self, card: Card) -> int:
        """Cards of one kind score alike (points, marriage card, a special seven)."""
        if self.order == 1:
            return 0
        if self.special >> card & 1:
            return 100 + card
        return POINTS[card] + (1 if card & 7 in (KING, OBER) else 0)

    def moves(self, seat: int, trick: tuple[Card, ...]) -> list[Card]:
        """One legal card per run of touching cards of one kind, strongest first."""
        mask = self.legal(seat, trick)
        mine = self.hands[seat]
        out: list[Card] = []
        for suit in range(4):
            if not mask & SUIT_MASK[suit]:
                continue
            prev_kind = -1
            for c in self.ordered[suit]:
                bit = BIT[c]
                if mask & bit:
                    kind = self._kind(c)
                    if kind != prev_kind:
                        out.append(c)
                    prev_kind = kind
                elif mine & bit or not self.played & bit or c in trick:
                    prev_kind = -1  # a card still out (or in this trick) splits the run
        out.reverse()
        return out

    # -- search -----------------------------------------------------------------------------
    def values(self, cards: list[Card]) -> dict[Card, int]:
        """The aktér's money after each of ``cards`` (legal for the seat to move) under best
        play by both sides. Raises :class:`Unsolved` past the node budget."""
        s = self.state
        out: dict[Card, int] = {}
        for card in cards:
            out[card] = self._play(card, s.trick, s.leader, -_INF, _INF)
        return out

    def _play(self, card: Card, trick: tuple[Card, ...], leader: int, alpha: int, beta: int) -> int:
        """Value after the player to move plays ``card``."""
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise Unsolved
        seat = (leader + len(trick)) % 3
        hands = self.hands
        hand = hands[seat]
        marriages = self.marriages
        if self.order == 0 and card & 7 in (KING, OBER) and hand >> (card ^ 3) & 1:
            self.marriages = (*marriages, (seat, card >> 3))
        hands[seat] = hand ^ BIT[card]
        played = self.played
        self.played = played | BIT[card]
        t = (*trick, card)
        if len(t) < 3:
            value = self._node(t, leader, alpha, beta)
        else:
            value = self._finish_trick(t, leader, alpha, beta)
        hands[seat] = hand
        self.played = played
        self.marriages = marriages
        return value

    def _finish_trick(self, t: tuple[Card, ...], leader: int, alpha: int, beta: int) -> int:
        c0, c1, c2 = t
        best = trick_winner_index(t, self.trumps, self.order)
        winner = (leader + best) % 3
        won = self.won
        before = won[winner]
        won[winner] = before | BIT[c0] | BIT[c1] | BIT[c2]
        tricks = self.tricks
        tricks.append(Trick(len(tricks) + 1, leader, t, winner))
        try:
            if (self.betl and winner == self.declarer) or (self.durch and winner != self.declarer):
                return self._settle()  # decided: the rest cannot change it
            if len(tricks) == 10:
                return self._settle()
            return self._node((), winner, alpha, beta)
        finally:
            tricks.pop()
            won[winner] = before

    def _settle(self) -> int:
        if (self.betl or self.durch) and self._decided is not None and len(self.tricks) < 10:
            return self._decided
        s = self.state
        money = settle_played(
            contract=self.contract,
            trumps=s.trumps_or_none,
            second=s.second_or_none,
            declarer=self.declarer,
            seat_levels=s.seat_levels,
            tariff=s.rules.tariff,
            won=self.won,
            tricks=self.tricks,
            marriages=self.marriages,
        ).money[self.declarer]
        if (self.betl or self.durch) and len(self.tricks) < 10:
            self._decided = money
        return money

    def _memo_key(self, leader: int) -> tuple[int, ...] | None:
        """What the rest of the deal depends on at a trick's start (None: not memoised)."""
        h = self.hands
        if self.betl or self.durch:
            # Betl/durch: only the cards left matter, and whether a past trick decided it
            # already (not in one search, which stops there; in a memo shared by positions).
            declarer = self.declarer
            decided = any((t.winner == declarer) == self.betl for t in self.tricks)
            return (h[0], h[1], h[2], leader, decided)
        if len(self.tricks) > 7:
            return None  # tricks 9 and 10 are the sevens' (the settlement reads them)
        declarer = self.declarer
        first = total = other = 0
        for seat, suit in self.marriages:
            value = 40 if suit == self.trumps else 20
            if seat == declarer:
                first = first or value
                total += value
            else:
                other += value
        points = (self.won[declarer] & TENS_ACES_MASK).bit_count()
        return (h[0], h[1], h[2], leader, points, first, total, other)

    def _node(self, trick: tuple[Card, ...], leader: int, alpha: int, beta: int) -> int:
        seat = (leader + len(trick)) % 3
        key = self._memo_key(leader) if not trick else None
        if key is not None:
            hit = self.memo.get(key)
            if hit is not None:
                low, high = hit
                if low >= beta or low == high:
                    return low
                if high <= alpha:
                    return high
                alpha, beta = max(alpha, low), min(beta, high)
        a0, b0 = alpha, beta
        maximise = seat == self.declarer
        best = -_INF if maximise else _INF
        for card in self.moves(seat, trick):
            v = self._play(card, trick, leader, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        if key is not None:
            low, high = self.memo.get(key, (-_INF, _INF))
            if best <= a0:
                high = min(high, best)
            elif best >= b0:
                low = max(low, best)
            else:
                low = high = best
            self.memo[key] = (low, high)
        return best


def solve_cards(state: MariasState, cards: list[Card], max_nodes: int = 20_000) -> dict[Card, int]:
    """The aktér's money after each card of the player to move in ``state``, both sides
    playing perfectly with all cards open. Raises :class:`Unsolved` past ``max_nodes``."""
    return EndgameSolver(state, max_nodes).values(cards)


__all__ = ["EndgameSolver", "Unsolved", "solve_cards"]

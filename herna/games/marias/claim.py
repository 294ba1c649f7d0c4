"""Ložená hra: a claim of all remaining cards (CGML: one ``playcard`` with every card left).

A claim by seat ``c`` holds when ``c`` can win every remaining trick whatever the other two
legally play (for the aktér of a betl: lose every remaining trick). The search is exhaustive
over the actual hands, with memoisation; follow rules and reserved sevens are the game's own.

An accepted claim is finished in a fixed, legal order so the record keeps ten tricks (and
marriages and a tichá sedma are still credited): the claimant plays the first card of his
winning line (lowest card first, a trump seven as late as possible), the others their lowest
legal card.
"""

from __future__ import annotations

from herna.games.marias.cards import BIT, SUIT_MASK, Card, cards_of
from herna.games.marias.contracts import Contract
from herna.games.marias.core import MariasCore
from herna.games.marias.rules import STRENGTH, Phase, legal_play_mask, trick_winner_index


class _Search:
    def __init__(self, state: MariasCore, claimant: int) -> None:
        self.legal_play_mask = legal_play_mask
        self.trick_winner_index = trick_winner_index
        self.claimant = claimant
        self.trumps = state.trumps
        self.order = state.order
        self.declarer = state.declarer
        self.contract = state.contract
        self.must_lose = claimant == state.declarer and state.contract == Contract.SMALL
        self.strength = STRENGTH[state.order]
        self.ordered = [
            sorted(range(suit * 8, suit * 8 + 8), key=lambda c: self.strength[c])
            for suit in range(4)
        ]
        # Sevens the aktér holds back are never interchangeable with other cards.
        self.special = 0
        if state.contract.announced_sevens:
            self.special |= BIT[state.trumps * 8]
            if state.second >= 0:
                self.special |= BIT[state.second * 8]
        self.memo: dict[tuple[int, int, int, tuple[Card, ...], int], bool] = {}

    def legal(self, hands: tuple[int, int, int], trick: tuple[Card, ...], seat: int,
              ntricks: int) -> int:  # fmt: skip
        m: int = self.legal_play_mask(hands[seat], trick, self.trumps, self.order)
        if seat == self.declarer and self.contract.announced_sevens:
            r = 0
            if ntricks < 9:
                r |= BIT[self.trumps * 8]
            if self.contract.announced_sevens == 2 and ntricks < 8:
                r |= BIT[self.second_seven]
            if m & r and m & ~r:
                m &= ~r
        return m

    second_seven = 0

    def representatives(
        self, mask: int, seat: int, hands: tuple[int, int, int], trick: tuple[Card, ...]
    ) -> list[Card]:
        """One card of each run of touching legal cards of ``seat`` (cards of a suit with no
        card of another hand or of the current trick between them are interchangeable when
        only winning tricks matters), strongest runs first."""
        mine = hands[seat]
        others = hands[0] | hands[1] | hands[2] | self.special
        others &= ~mine
        for c in trick:
            others |= BIT[c]
        out: list[Card] = []
        for suit in range(4):
            if not mask & SUIT_MASK[suit]:
                continue
            in_run = False
            for c in self.ordered[suit]:
                bit = BIT[c]
                if mask & bit:
                    if self.special & bit:  # a reserved seven is a run of its own
                        out.append(c)
                        in_run = False
                        continue
                    if not in_run:
                        out.append(c)
                    in_run = True
                elif mine & bit or others & bit:
                    in_run = False
        out.sort(key=lambda c: -self.power(c))
        return out

    def power(self, card: Card) -> int:
        return self.strength[card] + (16 if card >> 3 == self.trumps else 0)

    def candidates(self, mask: int, hands: tuple[int, int, int] | None = None,
                   trick: tuple[Card, ...] = ()) -> list[Card]:  # fmt: skip
        """The claimant's cards to try: every legal card (one per run when ``hands`` is
        given), lowest first, a trump seven as late as possible."""
        if hands is None:
            cards = cards_of(mask)
        else:
            cards = self.representatives(mask, self.claimant, hands, trick)
            cards.reverse()
        if self.trumps >= 0 and self.trumps * 8 in cards:
            cards.remove(self.trumps * 8)
            cards.append(self.trumps * 8)
        return cards

    def step(self, hands: tuple[int, int, int], trick: tuple[Card, ...], leader: int,
             ntricks: int, card: Card) -> tuple[tuple[int, int, int], tuple[Card, ...], int,
                                                int] | None:  # fmt: skip
        """Play ``card``; None when that breaks the claim."""
        seat = (leader + len(trick)) % 3
        h = list(hands)
        h[seat] &= ~BIT[card]
        new_hands = (h[0], h[1], h[2])
        t = (*trick, card)
        if len(t) < 3:
            return new_hands, t, leader, ntricks
        winner = (leader + self.trick_winner_index(t, self.trumps, self.order)) % 3
        if (winner == self.claimant) == self.must_lose:
            return None
        return new_hands, (), winner, ntricks + 1

    def holds(self, hands: tuple[int, int, int], trick: tuple[Card, ...], leader: int,
              ntricks: int) -> bool:  # fmt: skip
        if ntricks == 10:
            return True
        key = (hands[0], hands[1], hands[2], trick, leader)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        seat = (leader + len(trick)) % 3
        mask = self.legal(hands, trick, seat, ntricks)
        if seat == self.claimant:
            result = False
            for card in self.candidates(mask, hands, trick):
                nxt = self.step(hands, trick, leader, ntricks, card)
                if nxt is not None and self.holds(*nxt):
                    result = True
                    break
        else:
            result = True
            for card in self.representatives(mask, seat, hands, trick):
                nxt = self.step(hands, trick, leader, ntricks, card)
                if nxt is None or not self.holds(*nxt):
                    result = False
                    break
        self.memo[key] = result
        return result


def _search(state: MariasCore, claimant: int) -> _Search | None:
    if state.phase != Phase.PLAY or state.current != claimant:
        return None
    s = _Search(state, claimant)
    if state.second >= 0:
        s.second_seven = state.second * 8
    hands = (state.hands[0], state.hands[1], state.hands[2])
    if not s.holds(hands, state.trick, state.leader, len(state.tricks)):
        return None
    return s


def claim_strategy(state: MariasCore, claimant: int) -> list[Card] | None:
    """The canonical completion (every remaining card in play order) if the claim holds."""
    s = _search(state, claimant)
    if s is None:
        return None
    hands = (state.hands[0], state.hands[1], state.hands[2])
    trick, leader, ntricks = state.trick, state.leader, len(state.tricks)
    out: list[Card] = []
    while ntricks < 10:
        seat = (leader + len(trick)) % 3
        mask = s.legal(hands, trick, seat, ntricks)
        chosen = -1
        if seat == claimant:
            for card in s.candidates(mask, hands, trick):
                nxt = s.step(hands, trick, leader, ntricks, card)
                if nxt is not None and s.holds(*nxt):
                    chosen = card
                    break
        else:
            chosen = cards_of(mask)[0]
        assert chosen >= 0
        out.append(chosen)
        nxt = s.step(hands, trick, leader, ntricks, chosen)
        assert nxt is not None
        hands, trick, leader, ntricks = nxt
    return out


def complete_claim(state: MariasCore, claimant: int) -> list[Card]:
    """Cards to play, in order, to finish the deal after an accepted claim."""
    line = claim_strategy(state, claimant)
    if line is None:
        raise ValueError("the claim does not hold")
    return line

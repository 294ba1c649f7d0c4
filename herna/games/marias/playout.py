"""Fast random playouts: uniformly random legal actions from any state to the settlement.

Same rules code as :meth:`MariasState.apply` (the engine's own legal-move generators and
in-place transitions), minus the per-action copying, validation of already-legal choices
and history keeping. A random game from the deal draws the same distribution as 32 chance
``Deal`` actions followed by uniformly random legal actions through the public API.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from herna.games.marias.cards import ABOVE, SUIT_MASK, cards_of
from herna.games.marias.contracts import Contract
from herna.games.marias.evaluation import Settlement, Trick
from herna.games.marias.rules import NEXT_SEAT, STRENGTH, new_tuple
from herna.games.marias.state import MariasState, Phase, new_game

_CONTRACTS = tuple(Contract)
_DECK = tuple(range(32))


class PlayoutRng(Protocol):
    def random(self) -> float: ...

    def sample(self, population: list[int], k: int) -> list[int]: ...


def random_game(rng: PlayoutRng, dealer: int = 0) -> Settlement:
    """Deal and play one whole game with uniformly random legal actions."""
    state = new_game(dealer)
    keys = [rng.random() for _ in _DECK]
    state.deal_all(sorted(_DECK, key=keys.__getitem__))
    return random_playout(state, rng, in_place=True)


def random_playout(state: MariasState, rng: PlayoutRng, in_place: bool = False) -> Settlement:
    """Finish ``state`` with uniformly random legal actions and return the settlement."""
    s = state if in_place else state.clone()
    rand = rng.random
    if s.phase == Phase.DEAL:
        undealt = cards_of(s.undealt_mask())
        for c in sorted(undealt, key=lambda _: rand()):
            s._deal(c)
    while s.phase == Phase.AUCTION:
        if s.pending:
            s._answer(rand() < 0.5)
        else:
            k = int(rand() * (15 - s.bid))  # PASS or one of the rungs above the bid
            s._bid(_CONTRACTS[s.bid + k] if k else Contract.PASS)
    if s.phase == Phase.DISCARD:
        allowed = cards_of(s.discard_allowed_mask())
        n = len(allowed)
        i = int(rand() * n)
        j = int(rand() * (n - 1))
        s._discard(1 << allowed[i] | 1 << allowed[j + (j >= i)])
    if s.phase == Phase.GAMETYPE:
        options = s.legal_gametypes()
        g = options[int(rand() * len(options))]
        s._gametype(g.contract, g.trumps, g.second)
    while s.phase == Phase.FLEK:
        options2 = s.flek_options()
        s._flek(options2[int(rand() * len(options2))])
    if s.phase == Phase.PLAY:
        _random_tricks(s, rand, None)
    return s.settlement()


def _random_tricks(s: MariasState, rand: Callable[[], float], record: list[int] | None) -> None:
    """Play the remaining tricks of ``s`` (in place) with uniformly random legal cards.

    This is the play loop of :meth:`MariasState._play` and the 11-step rule of
    :func:`~herna.games.marias.state.legal_play_mask` fused into one loop over local
    variables, the hot path of every random game; tests check it against the engine.
    """
    hands = s.hands
    trumps, order, second = s.trumps, s.order, s.second
    strength = STRENGTH[order]
    above = ABOVE[order]
    reserve = s.reserve_seat
    won = s.won
    tricks = list(s.tricks)
    marriages = list(s.marriages)
    played = s.played
    leader = s.leader
    seat = s.current
    ntricks = len(tricks)
    trump_mask = SUIT_MASK[trumps] if trumps >= 0 else 0
    # The trick so far: its cards, the led suit, the highest card of it and the highest trump
    # (the trick goes to the highest trump, else to the highest card of the led suit).
    trick: list[int] = []
    led = hi_led = hi_trump = -1
    for c in s.trick:
        trick.append(c)
        if led < 0:
            led, hi_led = c >> 3, c
        elif c >> 3 == led and strength[c] > strength[hi_led]:
            hi_led = c
        if c >> 3 == trumps and (hi_trump < 0 or strength[c] > strength[hi_trump]):
            hi_trump = c
    while ntricks < 10:
        hand = hands[seat]
        if led < 0:
            m = hand
        else:
            follow = hand & SUIT_MASK[led]
            if follow:
                if hi_trump >= 0 and led != trumps:
                    m = follow
                else:
                    m = follow & above[hi_led] or follow
            elif hand & trump_mask:
                tr = hand & trump_mask
                m = (tr & above[hi_trump] or tr) if hi_trump >= 0 else tr
            else:
                m = hand
        if seat == reserve and ntricks < 9:
            r = 1 << (trumps * 8)
            if ntricks < 8 and second >= 0:
                r |= 1 << (second * 8)
            if m & r and m & ~r:
                m &= ~r
        n = m.bit_count()
        if n > 1:  # the k-th card of m, k uniform
            k = int(rand() * n)
            while k:
                m &= m - 1
                k -= 1
        card = (m & -m).bit_length() - 1
        if record is not None:
            record.append(card)
        rank = card & 7
        if (rank == 5 or rank == 6) and order == 0 and hand >> (card ^ 3) & 1:
            marriages.append((seat, card >> 3))
        bit = 1 << card
        hands[seat] = hand ^ bit
        played |= bit
        trick.append(card)
        suit = card >> 3
        if led < 0:
            leader = seat
            led, hi_led = suit, card
        elif suit == led and strength[card] > strength[hi_led]:
            hi_led = card
        if suit == trumps and (hi_trump < 0 or strength[card] > strength[hi_trump]):
            hi_trump = card
        if len(trick) < 3:
            seat = NEXT_SEAT[seat]
            continue
        c0, c1 = trick[0], trick[1]
        winner = (leader + trick.index(hi_trump if hi_trump >= 0 else hi_led)) % 3
        won[winner] |= 1 << c0 | 1 << c1 | bit
        ntricks += 1
        tricks.append(new_tuple(Trick, (ntricks, leader, (c0, c1, card), winner)))
        trick = []
        led = hi_trump = -1
        leader = seat = winner
    s.tricks = tuple(tricks)
    s.marriages = tuple(marriages)
    s.played = played
    s.trick = ()
    s.leader = s.current = leader
    s._finish()

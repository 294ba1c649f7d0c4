"""The rules as tables and pure functions: deal order, rank orders, the seed's 11-step follow
rule, trick winners, flek raising, the possible announcements. Shared by the state, the claim
search and the bots.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from herna.games.marias.actions import GameType
from herna.games.marias.cards import ABOVE, BETL_ORDER, KING, OBER, SUIT_MASK, TRUMP_ORDER, Card
from herna.games.marias.contracts import CONTRACTS, Contract


class Phase(enum.IntEnum):
    """Where a deal stands, in CGML order."""

    DEAL = 0
    AUCTION = 1
    DISCARD = 2
    GAMETYPE = 3
    FLEK = 4
    PLAY = 5
    DONE = 6


# Deal position -> seat offset from the dealer (1 forhont, 2 middle, 0 zadák) or -1 (talon).
DEAL_TO: tuple[int, ...] = (
    (1,) * 5 + (2,) * 5 + (0,) * 5 + (-1,) * 2 + (1,) * 5 + (2,) * 5 + (0,) * 5
)

# DEAL_PLACES[dealer][position]: the seat (or 3, the talon) each dealt card goes to.
DEAL_PLACES: tuple[tuple[int, ...], ...] = tuple(
    tuple(3 if to < 0 else (dealer + to) % 3 for to in DEAL_TO) for dealer in range(3)
)

# STRENGTH[order][card]: 0 = trump games, 1 = betl/durch.
STRENGTH: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(TRUMP_ORDER[c & 7] for c in range(32)),
    tuple(BETL_ORDER[c & 7] for c in range(32)),
)
assert OBER ^ KING == 3  # card ^ 3 turns an ober into the king of its suit and back
NEXT_SEAT = (1, 2, 0)
CONTRACT_PLAY: dict[Contract, tuple[int, int, int]] = {
    c: (0 if c.has_trumps else 1, c.announced_sevens, len(c.parts)) for c in Contract
}
"""Per contract: rank order (0 trump games, 1 betl/durch), announced sevens, flek parts."""
SEATS_AFTER = ((1, 2, 0), (2, 0, 1), (0, 1, 2))  # the seats after ``seat``, ending with itself
_RAISE_CACHE: dict[int, tuple[frozenset[int], frozenset[int]]] = {}


def raisable_levels(max_flek: int) -> tuple[frozenset[int], frozenset[int]]:
    """Levels a defender (flek 1 -> 2, tutti 4 -> 8) and the aktér (re 2 -> 4, boty 8 -> 16)
    may raise, under the cap ``max_flek``."""
    table = _RAISE_CACHE.get(max_flek)
    if table is None:
        table = (
            frozenset(x for x in (1, 4) if 2 * x <= max_flek),
            frozenset(x for x in (2, 8) if 2 * x <= max_flek),
        )
        _RAISE_CACHE[max_flek] = table
    return table


FLEK_TEXT: dict[tuple[int, ...], str] = {}
new_tuple = tuple.__new__
CONTRACT_CODES = tuple(c.code for c in Contract)
SUIT_WORDS = ("red", "bells", "green", "acorns")
"""How reasons name the suits, in the seed's style ("You must play red!")."""


def legal_play_mask(hand: int, trick: Sequence[Card], trumps: int, order: int) -> int:
    """The cards of ``hand`` the seed's 11-step rule allows on ``trick`` (cards so far).

    ``trumps`` is the trump suit or -1 (betl/durch), ``order`` 0 for trump games and 1 for
    betl/durch. Reserved sevens are handled by the caller.
    """
    if not trick:
        return hand
    first = trick[0]
    led = first >> 3
    follow = hand & SUIT_MASK[led]
    strength = STRENGTH[order]
    if follow:  # step 1
        if trumps >= 0 and led != trumps:
            for c in trick:
                if c >> 3 == trumps:  # steps 2-3: trumped already, any card of the led suit
                    return follow
        hi = first
        for c in trick:
            if c >> 3 == led and strength[c] > strength[hi]:
                hi = c
        return follow & ABOVE[order][hi] or follow  # steps 4-6
    if trumps >= 0:
        tr = hand & SUIT_MASK[trumps]
        if tr:  # step 7
            hi = -1
            for c in trick:
                if c >> 3 == trumps and (hi < 0 or strength[c] > strength[hi]):
                    hi = c
            if hi < 0:
                return tr
            return tr & ABOVE[order][hi] or tr  # steps 8-10
    return hand  # step 11


def trick_winner_index(trick: Sequence[Card], trumps: int, order: int) -> int:
    """Index of the card that takes ``trick`` (or leads it so far, for 1-2 cards)."""
    strength = STRENGTH[order]
    best = 0
    bc = trick[0]
    for i in range(1, len(trick)):
        c = trick[i]
        if c >> 3 == bc >> 3:
            if strength[c] > strength[bc]:
                best, bc = i, c
        elif c >> 3 == trumps:
            best, bc = i, c
    return best


def _all_gametypes() -> dict[Contract, list[GameType]]:
    out: dict[Contract, list[GameType]] = {}
    every: list[GameType] = []
    for c in CONTRACTS:
        if not c.has_trumps:
            every.append(GameType(c))
        elif c.hearts:
            if c.has_second_suit:
                every.extend(GameType(c, 0, s) for s in (1, 2, 3))
            else:
                every.append(GameType(c, 0))
        elif c.has_second_suit:
            every.extend(GameType(c, t, s) for t in (1, 2, 3) for s in (0, 1, 2, 3) if s != t)
        else:
            every.extend(GameType(c, t) for t in (1, 2, 3))
    for rung in CONTRACTS:
        out[rung] = [g for g in every if g.contract >= rung]
    out[Contract.PASS] = out[Contract.G]
    return out


GAMETYPES_FROM = _all_gametypes()
ALL_GAMETYPES: tuple[GameType, ...] = tuple(GAMETYPES_FROM[Contract.G])

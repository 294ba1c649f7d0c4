"""Careful hand judgement for sto, betl and durch (issue #19).

The first rule bot rated sto by every marriage in the hand, but the evaluation counts only the
aktér's **first** marriage in play order (../shared/marias-rules.md §8); and it rated betl by
a rank formula that ignored the duty to overtake, so it lost more betls than it won. These
functions judge what the evaluation and the play rules actually demand:

* sto: the card points (tens, aces, last trick) the hand should take, plus the trump 40 only
  (the rule bot then plays a card of the trump marriage before any other marriage card);
* betl: in every suit the aktér holds, the defenders lead their lowest card and the partner
  overtakes as cheaply as he can; the suit is lost if the aktér must then beat the trick
  (everyone must overtake in betl too, §7);
* durch: the aktér leads every trick from the top; a suit is lost if a defender's card can
  beat one of his.

Cards are ranks 0..7 within a suit (betl/durch order = natural order, the ten below the
unter).

>>> betl_suit_forced((0,), (1, 2, 3))     # the seven alone never takes a trick
False
>>> betl_suit_forced((2,), (0, 1, 3, 4))  # 7 led, 8 overtakes: the nine must beat it
True
>>> betl_suit_forced((0, 2), (1, 3, 4))   # 8 led, ten overtakes: the nine stays under
False
>>> durch_suit_lost((7, 6), (0, 1, 2, 3))  # ace and king: no card of theirs beats them
False
>>> durch_suit_lost((7, 5), (6, 0))        # their king beats the ober
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from herna.games.marias.cards import BIT, KING, OBER, cards_of


def _ranks_of(byte: int) -> list[int]:
    return [r for r in range(8) if byte >> r & 1]


def betl_suit_forced(mine: Sequence[int], theirs: Sequence[int]) -> bool:
    """Can the defenders, leading this suit, force the aktér to take a trick in it?

    ``mine`` and ``theirs`` are ranks (betl order). The defenders' cards are pooled: the
    leader plays their lowest card, the partner the lowest card that overtakes it (he must
    overtake if he can); the aktér must beat the trick if he can, else he sheds his highest
    card of the suit."""
    m = sorted(mine)
    d = sorted(theirs)
    while m and d:
        lead = d.pop(0)
        follow = next((x for x in d if x > lead), None)
        if follow is not None:
            d.remove(follow)
        elif d:
            d.pop(0)
        top = lead if follow is None else follow
        if m[-1] > top:
            return True
        m.pop()
    return False


def durch_suit_lost(mine: Sequence[int], theirs: Sequence[int]) -> bool:
    """Leading this suit from the top, can a defender's card ever beat one of the aktér's?

    Each round the aktér leads his highest card and the defenders shed only their lowest card
    (as if one of them held the whole suit and kept his best to beat him later)."""
    m = sorted(mine)
    d = sorted(theirs)
    while m:
        card = m.pop()
        if d and d[-1] > card:
            return True
        del d[:1]
    return False


def _suit_table(lost: Callable[[Sequence[int], Sequence[int]], bool]) -> list[bytearray]:
    """``table[mine][theirs]``: 1 if the suit is lost, for every pair of disjoint suit bytes
    (65,536 small simulations, done once at import: the search bot asks millions of times)."""
    table = [bytearray(256) for _ in range(256)]
    for mine in range(1, 256):
        ranks = _ranks_of(mine)
        for theirs in range(256):
            if not mine & theirs:
                table[mine][theirs] = lost(ranks, _ranks_of(theirs))
    return table


@cache
def _betl_table() -> list[bytearray]:
    return _suit_table(betl_suit_forced)


@cache
def _durch_table() -> list[bytearray]:
    return _suit_table(durch_suit_lost)


def _lost_suits(table: list[bytearray], hand: int, theirs: int) -> int:
    return (
        table[hand & 0xFF][theirs & 0xFF]
        + table[hand >> 8 & 0xFF][theirs >> 8 & 0xFF]
        + table[hand >> 16 & 0xFF][theirs >> 16 & 0xFF]
        + table[hand >> 24 & 0xFF][theirs >> 24 & 0xFF]
    )


def betl_lost_suits(hand: int, theirs: int) -> int:
    """Suits of ``hand`` in which the defenders (holding ``theirs``) can force a trick."""
    return _lost_suits(_betl_table(), hand, theirs)


def durch_lost_suits(hand: int, theirs: int) -> int:
    """Suits of ``hand`` a defender's card (of ``theirs``) can beat when the aktér leads."""
    return _lost_suits(_durch_table(), hand, theirs)


def betl_safe(hand: int, theirs: int) -> bool:
    """No suit can be forced and the aktér has a safe first lead (his lowest card of a suit
    in which some defender must overtake it, leaving the rest of that suit safe)."""
    if betl_lost_suits(hand, theirs):
        return False
    for s in range(4):
        mine = hand >> (8 * s) & 0xFF
        others = theirs >> (8 * s) & 0xFF
        if not mine:
            continue
        low = mine & -mine
        if others > low:  # a defender's card above my lowest: he must overtake it
            beater = others & ~(2 * low - 1)
            beater &= -beater
            rest = mine & ~low
            if not rest or not _betl_table()[rest][others & ~beater]:
                return True
    return False


def best_discard(hand12: int, lost: Callable[[int, int], int]) -> tuple[int, int, int]:
    """(lost suits, card, card): the two cards whose discard leaves the fewest lost suits by
    ``lost(hand, theirs)`` (``betl_lost_suits`` or ``durch_lost_suits``); among equals the
    higher cards go (they are the dangerous ones in betl, and useless in durch)."""
    cards = cards_of(hand12)
    theirs = ~hand12 & ((1 << 32) - 1)
    best: tuple[int, int, int, int] | None = None
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            n = lost(hand12 & ~(BIT[a] | BIT[b]), theirs)
            key = (n, -((a & 7) + (b & 7)), a, b)
            if best is None or key < best:
                best = key
    assert best is not None
    return best[0], best[2], best[3]


def side_marriages(hand: int, trumps: int) -> int:
    """Marriages (svršek + král) of ``hand`` outside the trump suit."""
    return sum(
        1
        for s in range(4)
        if s != trumps and hand >> (s * 8 + KING) & 1 and hand >> (s * 8 + OBER) & 1
    )


def sto_chance(card_points: float) -> float:
    """Chance that an aktér with the trump 40 counted first makes sto (60 card points), from
    the estimated card points of his hand (:func:`.rule_bot.trump_points` without marriages).

    Calibrated on 3,000 rule-bot deals: of the hands estimated at 50–59 points two in three
    took 60 or more, at 60–69 nine in ten, at 70 and more all."""
    return max(0.0, min(0.97, (card_points - 38.0) / 25.0))


__all__ = [
    "best_discard",
    "betl_lost_suits",
    "betl_safe",
    "betl_suit_forced",
    "durch_lost_suits",
    "durch_suit_lost",
    "side_marriages",
    "sto_chance",
]

"""Settlement of every contract, won and lost, each part on its own, with flek arithmetic and
the worked examples of the rules digest (ČSM tariff, units per defender).

Deals are given as their ten finished tricks (who won each and which cards were in it): the
evaluation only needs that, so each example can be checked by hand.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from herna.games.marias import Contract, Settlement, parse_card
from herna.games.marias.cards import POINTS, TENS_ACES_MASK, cards_of
from herna.games.marias.contracts import TARIFFS, Tariff
from herna.games.marias.evaluation import Trick, settle_played

AKTER, D1, D2 = 0, 1, 2
R, B, G, A = 0, 1, 2, 3


def build_tricks(
    winners: Sequence[int],
    aktér_cards: str = "",
    specials: dict[int, tuple[int, str]] | None = None,
) -> tuple[list[Trick], list[int]]:
    """Ten tricks: ``winners[i]`` takes trick i (and leads it). ``aktér_cards`` (aces/tens)
    go into the aktér's tricks, the other aces/tens into the defenders'; ``specials`` puts a
    card first in a trick with its leader (e.g. the seven in the last trick)."""
    specials = specials or {}
    slots: list[list[int]] = [[] for _ in range(10)]
    leaders = list(winners)
    used: set[int] = set()
    for i, (leader, code) in specials.items():
        card = parse_card(code)
        slots[i].append(card)
        leaders[i] = leader
        used.add(card)
    mine = [parse_card(x) for x in aktér_cards.split()]
    theirs = [c for c in cards_of(TENS_ACES_MASK) if c not in mine and c not in used]
    for cards, side in ((mine, True), (theirs, False)):
        for card in cards:
            i = next(i for i in range(10) if (winners[i] == AKTER) == side and len(slots[i]) < 3)
            slots[i].append(card)
            used.add(card)
    sevens = [s * 8 for s in range(4)]
    pool = [c for c in sevens if c not in used] + [
        c for c in range(32) if not POINTS[c] and c not in sevens and c not in used
    ]
    for i in range(10):
        while len(slots[i]) < 3:
            slots[i].append(pool.pop(0))
    tricks = [Trick(i + 1, leaders[i], tuple(slots[i]), winners[i]) for i in range(10)]
    won = [0, 0, 0]
    for t in tricks:
        for card in t.cards:
            won[t.winner] |= 1 << card
    return tricks, won


def settle(
    contract: Contract,
    trumps: int | None,
    winners: Sequence[int],
    aktér_cards: str = "",
    *,
    second: int | None = None,
    specials: dict[int, tuple[int, str]] | None = None,
    marriages: Sequence[tuple[int, int]] = (),
    levels: Sequence[tuple[int, ...]] | None = None,
    tariff: Tariff = TARIFFS["csm"],
) -> Settlement:
    tricks, won = build_tricks(winners, aktér_cards, specials)
    n = len(contract.parts)
    seat_levels = list(levels) if levels else [(1,) * n] * 3
    return settle_played(
        contract=contract,
        trumps=trumps,
        second=second,
        declarer=AKTER,
        seat_levels=seat_levels,
        tariff=tariff,
        won=won,
        tricks=tricks,
        marriages=marriages,
    )


def parts(s: Settlement) -> dict[str, bool]:
    return {p.name: p.won for p in s.parts}


ALL = "R10 R0A B10 B0A G10 G0A A10 A0A"
MOST = [AKTER] * 7 + [D1, D2, AKTER]  # the aktér takes 8 tricks incl. the last
FEW = [D1, D2] * 4 + [AKTER, D1]  # the defenders take the last trick


# -- hra (G, BG) ---------------------------------------------------------------------------
def test_hra_won_and_lost() -> None:
    s = settle(Contract.G, B, MOST, "R10 R0A B10 B0A G0A")  # 50 + last 10 = 60 : 30
    assert (s.declarer_points, s.defender_points) == (60, 30)
    assert s.money == (2, -1, -1) and parts(s) == {"hra": True}
    s = settle(Contract.G, B, FEW, "R10 R0A B10")  # 30 : 60
    assert s.money == (-2, 1, 1) and parts(s) == {"hra": False}


def test_marriages_count_for_both_sides_in_hra() -> None:
    s = settle(Contract.G, B, FEW, "R10 R0A B10", marriages=[(AKTER, B)])  # 30+40 : 60
    assert s.money == (2, -1, -1)
    s = settle(Contract.G, B, FEW, "R10 R0A B10", marriages=[(AKTER, R), (D1, G)])  # 50 : 80
    assert s.money == (-2, 1, 1)


def test_better_hra_pays_double() -> None:
    assert settle(Contract.BG, R, MOST, "R10 R0A B10 B0A G0A").money == (4, -2, -2)
    assert settle(Contract.BG, R, FEW, "").money == (-4, 2, 2)


def test_tiche_sto_doubles_the_hra() -> None:
    # 70 card points + last trick + trump marriage 40 = 120: hra 1 x 2 x (1 + 2) = 6.
    s = settle(Contract.G, B, MOST, "R10 R0A B10 B0A G10 G0A A10", marriages=[(AKTER, B)])
    assert s.money == (12, -6, -6) and "tiché sto" in s.parts[0].note
    # The defenders' tiché sto: 80 + last 10 + 20 + 20 = 130: 1 x 2 x (1 + 3) = 8.
    s = settle(Contract.G, B, FEW, "", marriages=[(D1, R), (D2, G)])
    assert s.defender_points == 90 and s.money == (-16, 8, 8)


def test_ticha_sedma_in_hra() -> None:
    last = {9: (AKTER, "B07")}
    s = settle(Contract.G, B, MOST, "R10 R0A B10 B0A G0A", specials=last)
    assert parts(s) == {"hra": True, "tichá sedma": True} and s.money == (4, -2, -2)
    # A defender's trump seven killed in the last trick earns the aktér the tichá sedma.
    s = settle(Contract.G, B, MOST, "R10 R0A B10 B0A G0A", specials={9: (D1, "B07")})
    assert parts(s)["tichá sedma"] is True
    # The aktér's seven beaten: the defenders earn it.
    lost = [AKTER] * 7 + [D1, D2, D1]
    s = settle(Contract.G, B, lost, "R10 R0A B10 B0A G0A G10", specials={9: (AKTER, "B07")})
    assert parts(s) == {"hra": True, "tichá sedma": False} and s.money == (0, 0, 0)


# -- sedma (7, B7) ---------------------------------------------------------------------------
SEVEN_WINS = {9: (AKTER, "G07")}


@pytest.mark.parametrize(
    ("winners", "cards", "specials", "expected", "money"),
    [
        (MOST, "R10 R0A B10 B0A G0A", SEVEN_WINS, {"hra": True, "sedma": True}, 3),
        # hra won but the seven killed in the last trick: +1 - 2 = -1 (digest example)
        ([*MOST[:9], D1], "R10 R0A B10 B0A G0A G10", {9: (AKTER, "G07")},
         {"hra": True, "sedma": False}, -1),
        ([*FEW[:9], AKTER], "", SEVEN_WINS, {"hra": False, "sedma": True}, 1),
        (FEW, "", {9: (AKTER, "G07")}, {"hra": False, "sedma": False}, -3),
    ],
)  # fmt: skip
def test_sedma_parts_on_their_own(
    winners: list[int], cards: str, specials: dict[int, tuple[int, str]],
    expected: dict[str, bool], money: int,
) -> None:  # fmt: skip
    s = settle(Contract.C7, G, winners, cards, specials=specials)
    assert parts(s) == expected
    assert s.money == (2 * money, -money, -money)


def test_sedma_lost_when_the_seven_is_not_in_the_last_trick() -> None:
    s = settle(Contract.C7, G, MOST, "R10 R0A B10 B0A G0A", specials={3: (AKTER, "G07")})
    assert parts(s) == {"hra": True, "sedma": False}


def test_better_sedma_with_one_defender_flekking_the_sedma() -> None:
    # Digest 9.3: B7 made, one defender flekked the sedma: he pays 2 + 8, the other 2 + 4.
    s = settle(Contract.B7, R, MOST, "B10 B0A G10 G0A A0A", specials={9: (AKTER, "R07")},
               levels=[(1, 2), (1, 2), (1, 1)])  # fmt: skip
    assert s.money == (16, -10, -6)
    assert s.levels == (1, 2)


def test_flek_re_tutti_boty_multiply_each_part() -> None:
    s = settle(Contract.C7, G, MOST, "R10 R0A B10 B0A G0A", specials=SEVEN_WINS,
               levels=[(8, 4), (8, 4), (8, 4)])  # fmt: skip
    assert s.money == (2 * (8 + 8), -(8 + 8), -(8 + 8))


# -- sto (100, 107, B100, B107) ----------------------------------------------------------------
def test_sto_made_with_the_trump_forty() -> None:
    # Digest 9.3: trumps A, aktér 120 with the trump 40 counted: 4 + 2 x 4 = 12 each.
    s = settle(Contract.C100, A, MOST, "R10 R0A B10 B0A G10 G0A A10", marriages=[(AKTER, A)])
    assert s.declarer_points == 80 and s.money == (24, -12, -12) and parts(s) == {"sto": True}


def test_sto_missed_by_ten() -> None:
    # 50 card points + last trick = 60, + 40 = 100: made exactly.
    s = settle(Contract.C100, A, MOST, "R10 R0A B10 B0A G10", marriages=[(AKTER, A)])
    assert s.declarer_points == 60 and parts(s) == {"sto": True} and s.money == (8, -4, -4)
    # 40 + 10 + 40 = 90: short by 10 -> 4 each.
    s2 = settle(Contract.C100, A, MOST, "R10 R0A B10 B0A", marriages=[(AKTER, A)])
    assert s2.declarer_points == 50 and s2.money == (-8, 4, 4)


def test_sto_failed_pays_for_the_defenders_marriages_too() -> None:
    # Digest 9.1: 80 with the defenders' 20 -> 16 units.
    two = [AKTER, AKTER] + [D1] * 8
    s = settle(Contract.C100, A, two, "R10 R0A B10 B0A", marriages=[(AKTER, A), (D1, R)])
    assert s.declarer_points == 40 and s.money == (-32, 16, 16)


def test_sto_counts_only_the_first_marriage() -> None:
    # First marriage 20, then the trump 40: 70 + 20 = 90 counted -> lost by 10.
    s = settle(Contract.C100, A, MOST, "R10 R0A B10 B0A G10 G0A", marriages=[(AKTER, R),
               (AKTER, A)])  # fmt: skip
    assert s.declarer_points == 70 and parts(s) == {"sto": False} and s.money == (-8, 4, 4)
    # Trump 40 first: 110 counted; payment counts all marriages: 130 -> 4 x 4 = 16.
    s = settle(Contract.C100, A, MOST, "R10 R0A B10 B0A G10 G0A", marriages=[(AKTER, A),
               (AKTER, R)])  # fmt: skip
    assert s.money == (32, -16, -16)


def test_sto_without_a_marriage_cannot_be_made() -> None:
    s = settle(Contract.C100, A, [AKTER] * 10, "R10 R0A B10 B0A G10 G0A A10 A0A")
    assert s.declarer_points == 90 and s.money == (-8, 4, 4)


def test_sto_a_sedma_parts() -> None:
    s = settle(Contract.C107, A, MOST, "R10 R0A B10 B0A G10 G0A", specials={9: (AKTER, "A07")},
               marriages=[(AKTER, A)])  # fmt: skip
    assert parts(s) == {"sto": True, "sedma": True} and s.money == (2 * (8 + 2), -10, -10)


def test_better_sto_and_better_sto_a_sedma() -> None:
    s = settle(Contract.B100, R, MOST, "B10 B0A G10 G0A A10 A0A", marriages=[(AKTER, R)])
    assert s.declarer_points == 70 and s.money == (2 * 8 * 2, -16, -16)  # 110: 8 x 2
    # B107: sto lost by 10 (-8), sedma won (+4): -4 each.
    s = settle(Contract.B107, R, MOST, "B10 B0A G10 G0A", specials={9: (AKTER, "R07")},
               marriages=[(AKTER, R)])  # fmt: skip
    assert parts(s) == {"sto": False, "sedma": True} and s.money == (-8, 4, 4)


# -- betl, durch -------------------------------------------------------------------------------
def test_betl() -> None:
    assert settle(Contract.SMALL, None, [D1, D2] * 5).money == (30, -15, -15)
    s = settle(Contract.SMALL, None, [D1] * 9 + [AKTER])
    assert parts(s) == {"betl": False} and s.money == (-30, 15, 15)


def test_betl_lost_flekked_once_by_both_defenders() -> None:
    # Digest 9.3: SMALL lost, flekked once: the aktér pays 15 x 2 = 30 to each defender.
    s = settle(Contract.SMALL, None, [AKTER] + [D1] * 9, levels=[(2,), (2,), (2,)])
    assert s.money == (-60, 30, 30)


def test_durch() -> None:
    assert settle(Contract.BIG, None, [AKTER] * 10, ALL).money == (60, -30, -30)
    assert settle(Contract.BIG, None, [AKTER] * 9 + [D2], ALL).money == (-60, 30, 30)


# -- dvě sedmy (27, 127, B27, B127) ----------------------------------------------------------
TWO_SEVENS = {8: (AKTER, "B07"), 9: (AKTER, "G07")}


def test_dve_sedmy_won_and_lost() -> None:
    s = settle(Contract.C27, G, [D1] * 8 + [AKTER, AKTER], second=B, specials=TWO_SEVENS)
    assert parts(s) == {"dvě sedmy": True} and s.money == (80, -40, -40)
    s = settle(Contract.C27, G, [D1] * 8 + [D2, AKTER], second=B, specials=TWO_SEVENS)
    assert s.money == (-80, 40, 40)


def test_sto_a_dve_sedmy_and_better_forms() -> None:
    s = settle(Contract.C127, G, [*MOST[:8], AKTER, AKTER], "R10 R0A B10 B0A G10 G0A",
               second=B, specials=TWO_SEVENS, marriages=[(AKTER, G)])  # fmt: skip
    assert parts(s) == {"sto": True, "dvě sedmy": True} and s.money == (2 * (8 + 40), -48, -48)
    s = settle(Contract.B27, R, [D1] * 8 + [AKTER, AKTER], second=B,
               specials={8: (AKTER, "B07"), 9: (AKTER, "R07")})  # fmt: skip
    assert s.money == (160, -80, -80)
    s = settle(Contract.B127, R, [D1] * 8 + [AKTER, D1], second=B,
               specials={8: (AKTER, "B07"), 9: (AKTER, "R07")}, marriages=[(AKTER, R)])  # fmt: skip
    # sto: 0 card points + 40 -> short by 60: 8 x 6 = 48; dvě sedmy lost: 80.
    assert parts(s) == {"sto": False, "dvě sedmy": False} and s.money == (-256, 128, 128)


# -- tariff options and the limit ---------------------------------------------------------------
def test_other_tariffs_and_the_limit() -> None:
    assert settle(Contract.SMALL, None, [D1] * 10, tariff=TARIFFS["re"]).money == (20, -10, -10)
    assert settle(Contract.BIG, None, [AKTER] * 10, ALL, tariff=TARIFFS["pub"]).money == (
        20, -10, -10,
    )  # fmt: skip
    # B27 at boty against one defender: 80 x 16 = 1280 > 500: capped at the limit.
    s = settle(Contract.B27, R, [D1] * 8 + [AKTER, AKTER], second=B,
               specials={8: (AKTER, "B07"), 9: (AKTER, "R07")},
               levels=[(16,), (16,), (1,)])  # fmt: skip
    assert s.capped and s.money == (580, -500, -80)
    # Both defenders flekked: the raised limit 750 applies.
    s = settle(Contract.B27, R, [D1] * 8 + [AKTER, AKTER], second=B,
               specials={8: (AKTER, "B07"), 9: (AKTER, "R07")},
               levels=[(16,), (16,), (2,)])  # fmt: skip
    assert s.money == (750 + 160, -750, -160)


# -- all fourteen contracts, won and lost ------------------------------------------------------
SEVEN_LAST = {9: (AKTER, "{t}07")}
TWO_LAST = {8: (AKTER, "B07"), 9: (AKTER, "{t}07")}
WON_SEVEN = [AKTER] * 7 + [D1, D2, AKTER]
LOST_SEVEN = [AKTER] * 7 + [D1, D2, D1]
WON_TWO = [AKTER] * 6 + [D1, D2, AKTER, AKTER]
LOST_TWO = [AKTER] * 6 + [D1, D2, D1, AKTER]
# (contract, trumps, second, winners, aktér's aces/tens, specials, aktér marriages, money)
FOURTEEN = [
    (Contract.G, B, None, MOST, "R10 R0A B10 B0A G0A", None, [], 1),
    (Contract.G, B, None, FEW, "R10 R0A B10", None, [], -1),
    (Contract.BG, R, None, MOST, "B10 B0A G10 G0A A0A", None, [], 2),
    (Contract.BG, R, None, FEW, "B10", None, [], -2),
    (Contract.C7, G, None, WON_SEVEN, "R10 R0A B10 B0A A0A", SEVEN_LAST, [], 1 + 2),
    (Contract.C7, G, None, LOST_SEVEN, "R10", SEVEN_LAST, [], -1 - 2),
    (Contract.B7, R, None, WON_SEVEN, "B10 B0A G10 G0A A0A", SEVEN_LAST, [], 2 + 4),
    (Contract.B7, R, None, LOST_SEVEN, "B10", SEVEN_LAST, [], -2 - 4),
    # sto exactly 100: 50 + last trick 10 + trump marriage 40
    (Contract.C100, A, None, MOST, "R10 R0A B10 B0A G10", None, [A], 4),
    (Contract.C100, A, None, MOST, "R10 R0A B10 B0A", None, [A], -4),  # 90: short 10
    (Contract.C107, A, None, WON_SEVEN, "R10 R0A B10 B0A G10", SEVEN_LAST, [A], 4 + 2),
    # 40 + 40 = 80 (the last trick lost with the seven): sto -8, sedma -2
    (Contract.C107, A, None, LOST_SEVEN, "R10 R0A B10 B0A", SEVEN_LAST, [A], -8 - 2),
    (Contract.B100, R, None, MOST, "B10 B0A G10 G0A A10", None, [R], 8),
    (Contract.B100, R, None, MOST, "B10 B0A G10 G0A", None, [R], -8),
    (Contract.B107, R, None, WON_SEVEN, "B10 B0A G10 G0A A10", SEVEN_LAST, [R], 8 + 4),
    (Contract.B107, R, None, LOST_SEVEN, "B10 B0A G10 G0A", SEVEN_LAST, [R], -16 - 4),
    (Contract.SMALL, None, None, [D1, D2] * 5, "", None, [], 15),
    (Contract.SMALL, None, None, [D1, D2] * 4 + [AKTER, D1], "", None, [], -15),
    (Contract.BIG, None, None, [AKTER] * 10, ALL, None, [], 30),
    (Contract.BIG, None, None, [AKTER] * 9 + [D1], "R10 R0A B10 B0A G10 G0A", None, [], -30),
    (Contract.C27, G, B, WON_TWO, "R10 R0A", TWO_LAST, [], 40),
    (Contract.C27, G, B, LOST_TWO, "", TWO_LAST, [], -40),
    (Contract.C127, G, B, WON_TWO, "R10 R0A B10 B0A G10", TWO_LAST, [G], 4 + 40),
    (Contract.C127, G, B, LOST_TWO, "R10 R0A B10 B0A", TWO_LAST, [G], -4 - 40),
    (Contract.B27, R, B, WON_TWO, "G10 G0A", TWO_LAST, [], 80),
    (Contract.B27, R, B, LOST_TWO, "", TWO_LAST, [], -80),
    (Contract.B127, R, B, WON_TWO, "G10 G0A A10 A0A B10", TWO_LAST, [R], 8 + 80),
    (Contract.B127, R, B, LOST_TWO, "G10 G0A A10 A0A", TWO_LAST, [R], -8 - 80),
]


@pytest.mark.parametrize(
    ("contract", "trumps", "second", "winners", "cards", "specials", "marriages", "each"),
    FOURTEEN,
    ids=[f"{row[0].code}-{'won' if row[7] > 0 else 'lost'}" for row in FOURTEEN],
)
def test_every_contract_won_and_lost(
    contract: Contract,
    trumps: int | None,
    second: int | None,
    winners: list[int],
    cards: str,
    specials: dict[int, tuple[int, str]] | None,
    marriages: list[int],
    each: int,
) -> None:
    suit = "RBGA"[trumps] if trumps is not None else ""
    spec = {i: (p, code.format(t=suit)) for i, (p, code) in (specials or {}).items()}
    s = settle(
        contract, trumps, winners, cards, second=second, specials=spec,
        marriages=[(AKTER, m) for m in marriages],
    )  # fmt: skip
    assert s.money == (2 * each, -each, -each), s.parts
    assert all(p.won for p in s.parts) == (each > 0)
    assert all(not p.won for p in s.parts) == (each < 0)

"""Renonc (a move against the rules ruled a renonc by the server) and ložená claims."""

from __future__ import annotations

import random

import pytest

from herna.core.errors import IllegalAction
from herna.games.marias import (
    Claim,
    Contract,
    MariasState,
    Phase,
    Play,
    Renonc,
    Rules,
    decode_action,
    parse_cards,
)
from herna.games.marias.claim import _Search
from herna.games.marias.log import deal_actions, play_actions
from herna.games.marias.state import new_game, trick_winner_index
from tests.games.marias.helpers import c, deal, run

# Trumps green; seat 0 (zadák) becomes the aktér; seat 1 (forhont) leads.
HANDS = [
    "G07 G08 G0K B07 B10 R07 R08 R09 R0J R0Q",
    "B09 B0J A0A A08 A09 A10 A0J G09 R10 R0A",
    "B08 B0Q B0K B0A G0J G0Q G10 G0A A0Q A0K",
]
TALON = "R0K A07"


def sedma_in_play() -> MariasState:
    s = deal(HANDS, TALON, rules=Rules(max_flek=1))
    return run(s, "bid 7", "no", "no", "discard R0K A07", "game 7 G", "play A0A", "play A0K")


def test_aktér_renonc_loses_every_part() -> None:
    s = sedma_in_play()
    bad = Play(c("R07"))  # he must trump
    assert s.check(bad) == "You must trump with green!"
    with pytest.raises(IllegalAction):
        s.apply(bad)
    end = s.apply(Renonc(bad))
    assert end.is_terminal() and end.phase == Phase.DONE
    result = end.settlement()
    assert result.renonc is not None and result.renonc.player == 0
    assert result.renonc.reason == "You must trump with green!"
    assert result.money == (-6, 3, 3)  # hra 1 + sedma 2 to each defender
    outcome = end.outcome()
    assert outcome is not None and outcome.winners == (1, 2)
    assert "renonc" in outcome.reason


def test_defender_renonc_pays_both_shares_alone() -> None:
    s = deal(HANDS, TALON, rules=Rules(max_flek=1))
    s = run(s, "bid 7", "no", "no", "discard R0K A07", "game 7 G", "play A0A")
    bad = Play(c("G0J"))  # seat 2 holds acorns
    end = s.apply(Renonc(bad))
    assert end.settlement().renonc.reason == "You must play acorns!"  # type: ignore[union-attr]
    assert end.settlement().money == (6, 0, -6)


def test_renonc_with_fleks() -> None:
    s = deal(HANDS, TALON)
    s = run(s, "bid 7", "no", "no", "discard R0K A07", "game 7 G", "flek 2:2", "flek 1:1",
            "flek 2:2", "play A0A", "play A0K")  # fmt: skip
    assert s.seat_flek_levels(1) == (2, 2) and s.seat_flek_levels(2) == (1, 1)
    end = s.apply(Renonc(Play(c("B07"))))
    assert end.settlement().money == (-(6 + 3), 6, 3)


def test_a_legal_move_is_not_a_renonc() -> None:
    s = sedma_in_play()
    with pytest.raises(IllegalAction, match="legal"):
        s.apply(Renonc(Play(c("G08"))))
    with pytest.raises(IllegalAction, match="renonc"):
        deal(HANDS, TALON).apply(Renonc(decode_action("bid 7")))


def test_renonc_at_the_talon_and_at_the_announcement() -> None:
    s = run(deal(HANDS, TALON), "bid 27", "no", "no")
    end = s.apply(Renonc(decode_action("discard G09 B07")))  # G09 is not his card
    assert end.settlement().renonc.code == "NOT_IN_HAND"  # type: ignore[union-attr]
    end = s.apply(Renonc(decode_action("discard B10 B07")))  # a ten in a dvě sedmy talon
    assert end.settlement().money == (-80, 40, 40)
    s = run(deal(HANDS, TALON), "bid 7", "no", "no", "discard R0K B10")
    end = s.apply(Renonc(decode_action("game 7 G")))  # a ten lies in the talon
    assert end.settlement().contract is Contract.C7 and end.settlement().money == (-6, 3, 3)


def durch_deal(aktér_hand: str, other: str) -> MariasState:
    hands = [aktér_hand, other, "R10 R0J R0Q B0Q B0K B0A A09 A10 A0J A0Q"]
    s = deal(hands, "A0K A0A", rules=Rules(max_flek=1))
    return run(s, "bid BIG", "no", "no", "discard A0K A0A", "game BIG")


def test_lozena_durch_claim_is_accepted_and_played_out() -> None:
    s = durch_deal("G07 G08 G09 G10 G0J G0Q G0K G0A R0A R0K",
                   "R07 R08 R09 B07 B08 B09 B10 B0J A07 A08")  # fmt: skip
    assert s.claim_holds(0)
    end = s.apply(Claim(tuple(parse_cards("G07 G08 G09 G10 G0J G0Q G0K G0A R0A R0K"))))
    assert end.is_terminal() and len(end.tricks) == 10
    assert all(t.winner == 0 for t in end.tricks)
    assert end.settlement().money == (60, -30, -30)


def test_lozena_claim_that_can_be_beaten_is_refused() -> None:
    s = durch_deal("G07 G08 G09 G10 G0J G0Q G0K G0A R0A R07",
                   "R0K R08 R09 B07 B08 B09 B10 B0J A07 A08")  # fmt: skip
    assert not s.claim_holds(0)
    claim = Claim(tuple(parse_cards("G07 G08 G09 G10 G0J G0Q G0K G0A R0A R07")))
    with pytest.raises(IllegalAction, match="not ložená") as err:
        s.apply(claim)
    assert err.value.code == "CLAIM_FAILS"
    assert s.apply(Renonc(claim)).settlement().money == (-60, 30, 30)
    with pytest.raises(IllegalAction, match="all your remaining cards"):
        s.apply(Claim(tuple(parse_cards("G07 G08"))))


def test_claim_in_a_sedma_keeps_the_seven_for_the_last_trick() -> None:
    hands = [
        "G07 G08 G09 G10 G0J G0Q G0K G0A R0A B0A",
        "R07 R08 R09 B07 B08 B09 B10 B0J A0A A08",
        "R10 R0J R0Q B0Q B0K R0K A09 A10 A0J A0Q",
    ]
    s = deal(hands, "A0K A07", rules=Rules(max_flek=1))
    s = run(s, "bid 7", "no", "no", "discard A0K A07", "game 7 G", "play R07", "play R0Q")
    s = run(s, "play R0A")  # the aktér takes the trick and leads next
    assert s.current_player() == 0 and s.claim_holds(0)
    end = s.apply(Claim(tuple(s.hand(0))))
    assert end.tricks[-1].cards[0] == c("G07") and end.tricks[-1].winner == 0
    assert {p.name: p.won for p in end.settlement().parts} == {"hra": True, "sedma": True}


def brute_force_claim(s: MariasState, claimant: int) -> bool:
    """Exhaustive search over every legal card (no run reduction), for cross-checking."""
    search = _Search(s, claimant)

    def holds(hands: tuple[int, int, int], trick: tuple[int, ...], leader: int, n: int) -> bool:
        if n == 10:
            return True
        seat = (leader + len(trick)) % 3
        mask = search.legal(hands, trick, seat, n)
        results = []
        for card in [x for x in range(32) if mask >> x & 1]:
            h = list(hands)
            h[seat] &= ~(1 << card)
            t = (*trick, card)
            if len(t) < 3:
                results.append(holds((h[0], h[1], h[2]), t, leader, n))
                continue
            winner = (leader + trick_winner_index(t, s.trumps, s.order)) % 3
            ok = (winner == claimant) != search.must_lose
            results.append(ok and holds((h[0], h[1], h[2]), (), winner, n + 1))
        return any(results) if seat == claimant else all(results)

    return holds((s.hands[0], s.hands[1], s.hands[2]), s.trick, s.leader, len(s.tricks))


def test_claim_search_agrees_with_brute_force_in_random_endgames() -> None:
    rng = random.Random(11)
    checked = holding = 0
    while checked < 60:
        s = play_actions(new_game(rng.randrange(3)), deal_actions(rng))
        left = rng.choice([3, 4, 5])
        while not s.is_terminal() and not (s.phase == Phase.PLAY and len(s.tricks) == 10 - left):
            legal = s.legal_actions()
            s = s.apply(legal[rng.randrange(len(legal))])
        if s.is_terminal():
            continue
        for _ in range(rng.randrange(3)):  # sometimes claim in the middle of a trick
            legal = s.legal_actions()
            s = s.apply(legal[rng.randrange(len(legal))])
        seat = s.current_player()
        expected = brute_force_claim(s, seat)
        assert s.claim_holds(seat) == expected, s
        holding += expected
        checked += 1
    assert 0 < holding < checked

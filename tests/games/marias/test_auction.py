"""The auction (licitace): zadák offers against the forhont, the middle player joins after the
first drop-out, the holder only matches, the last player left takes the talon."""

from __future__ import annotations

import random

import pytest

from herna.core.errors import IllegalAction
from herna.core.game import CHANCE
from herna.games.marias import (
    Answer,
    Bid,
    Contract,
    Phase,
    dealer_of_game,
    encode_action,
    new_game,
    next_dealer,
)
from herna.games.marias.log import deal_actions, play_actions
from tests.games.marias.helpers import contracts_of, run


def dealt(dealer: int = 0, seed: int = 1):  # type: ignore[no-untyped-def]
    return play_actions(new_game(dealer), deal_actions(random.Random(seed)))


def test_deal_is_32_chance_actions_in_cgml_order() -> None:
    state = new_game(dealer=0)
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 32 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    deal = deal_actions(random.Random(5))
    for i, a in enumerate(deal):
        state = state.apply(a)
        if i == 4:  # the first five cards go to the forhont (seat 1 when seat 0 deals)
            assert state.hands[1].bit_count() == 5 and state.hands[0] == 0
        if i == 16:
            assert len(state.talon()) == 2
    assert [len(state.hand(s)) for s in range(3)] == [10, 10, 10]
    assert state.phase == Phase.AUCTION
    with pytest.raises(IllegalAction):
        new_game(0).apply(deal[0]).apply(deal[0])


def test_seat_roles_and_rotation() -> None:
    s = new_game(dealer=2)
    assert (s.forhont, s.middle, s.zadak) == (0, 1, 2)
    assert [next_dealer(d) for d in range(3)] == [1, 2, 0]
    assert [dealer_of_game(1, i) for i in range(5)] == [1, 2, 0, 1, 2]


def test_zadak_offers_first_and_forhont_holds() -> None:
    s = dealt(dealer=0)
    assert s.current_player() == 0 and s.pending_bid is None
    legal = s.legal_actions()
    assert legal[0] == Bid(Contract.PASS) and len(legal) == 15
    s = run(s, "bid 7")
    assert s.current_player() == 1 and s.pending_bid is Contract.C7
    assert s.legal_actions() == [Answer(True), Answer(False)]
    s = run(s, "yes")  # the forhont matches: the zadák must go higher
    assert s.current_player() == 0
    assert s.legal_actions()[0] == Bid(Contract.PASS)
    assert min(contracts_of(s.legal_actions()) - {Contract.PASS}) == Contract.B7
    with pytest.raises(IllegalAction, match="above 7"):
        run(s, "bid 7")
    s = run(s, "bid PASS")  # zadák drops: the middle player bids against the forhont
    assert s.current_player() == 2 and s.pending_bid is None
    s = run(s, "bid SMALL", "no")
    assert s.phase == Phase.DISCARD and s.declarer == 2 and s.won_rung == Contract.SMALL
    assert len(s.hand(2)) == 12  # the talon goes to the winner


def test_middle_becomes_holder_when_forhont_drops() -> None:
    s = run(dealt(dealer=1), "bid 100")  # zadák = 1, forhont = 2, middle = 0
    assert s.current_player() == 2
    s = run(s, "no")  # the forhont drops: the middle player is asked about 100
    assert s.current_player() == 0 and s.pending_bid is Contract.C100
    s = run(s, "yes", "bid 107", "yes", "bid PASS")
    assert s.phase == Phase.DISCARD and s.declarer == 0 and s.won_rung == Contract.C107
    assert [t for _, t in s.auction_log] == ["100", "NO", "YES", "107", "YES", "PASS"]


def test_all_pass_forhont_plays_hra() -> None:
    s = run(dealt(dealer=0), "bid PASS", "bid PASS")
    assert s.phase == Phase.DISCARD and s.declarer == 1 and s.won_rung == Contract.G


def test_bidder_wins_when_both_others_drop() -> None:
    s = run(dealt(dealer=0), "bid B7", "no", "no")
    assert s.declarer == 0 and s.won_rung == Contract.B7


def test_wrong_kind_of_answer_is_refused_with_reason() -> None:
    s = run(dealt(dealer=0), "bid 7")
    with pytest.raises(IllegalAction, match="YES or NO"):
        run(s, "bid 100")
    s2 = dealt(dealer=0)
    with pytest.raises(IllegalAction, match="Offer a game"):
        run(s2, "yes")
    assert encode_action(s.legal_actions()[0]) == "yes"

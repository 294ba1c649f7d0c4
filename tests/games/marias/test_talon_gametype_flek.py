"""Talon discard restrictions, announcing the contract (keep or raise, trumps, strkací suit)
and flek rounds (who may raise what, colon notation, per-defender bookkeeping)."""

from __future__ import annotations

import pytest

from herna.core.errors import IllegalAction
from herna.games.marias import Contract, Flek, GameType, MariasState, Phase, Rules
from tests.games.marias.helpers import c, contracts_of, deal, discards_of, run

HANDS = [
    "R07 R08 R09 R0J R0Q R0K R10 R0A B07 B08",  # seat 0: zadák (dealer 0)
    "B09 B10 B0J B0Q B0K B0A G07 G08 G09 G10",  # seat 1: forhont
    "G0J G0Q G0K G0A A07 A08 A09 A10 A0J A0Q",  # seat 2: middle
]
TALON = "A0K A0A"


def won_by_zadak(rung: str) -> MariasState:
    return run(deal(HANDS, TALON), f"bid {rung}", "no", "no")


def test_discard_may_not_hold_aces_tens_after_a_trump_auction_above_durch() -> None:
    s = won_by_zadak("27")
    with pytest.raises(IllegalAction, match="Aces and tens"):
        run(s, "discard R10 B07")
    assert all(
        not ({c("R10"), c("R0A"), c("A0A")} & set(d)) for d in discards_of(s.legal_actions())
    )
    s = won_by_zadak("B27")
    with pytest.raises(IllegalAction, match="announced seven R07"):
        run(s, "discard R07 B07")
    with pytest.raises(IllegalAction, match="do not hold"):
        run(s, "discard G07 B07")


def test_ace_in_talon_leaves_only_betl_and_durch() -> None:
    s = run(won_by_zadak("7"), "discard A0A B08")
    assert contracts_of(s.legal_actions()) == {Contract.SMALL, Contract.BIG}
    with pytest.raises(IllegalAction, match="ace or a ten lies in the talon"):
        run(s, "game 7 B")
    assert run(s, "game SMALL").contract is Contract.SMALL


def test_announced_seven_may_not_lie_in_the_talon() -> None:
    s = run(won_by_zadak("7"), "discard B07 B08")
    with pytest.raises(IllegalAction, match="announced seven B07"):
        run(s, "game 7 B")
    legal = s.legal_actions()
    assert GameType(Contract.B7, 0) in legal  # hearts seven still in hand
    assert GameType(Contract.C100, 1) in legal  # sto announces no seven
    assert GameType(Contract.C7, 1) not in legal


def test_keep_or_raise_with_consistent_trumps() -> None:
    s = run(won_by_zadak("7"), "discard B07 A0K")
    for text, match in (
        ("game G B", "won at 7"),
        ("game 7 R", "better game B7"),
        ("game B7 G", "red"),
        ("game 27 G", "second"),
        ("game 27 G:G", "second"),
        ("game SMALL R", "without trumps"),
        ("game 7 G:B", "no second suit"),
    ):
        with pytest.raises(IllegalAction, match=match):
            run(s, text)
    s2 = run(s, "game B27 R:G")
    assert (s2.contract, s2.trumps_text(), s2.phase) == (Contract.B27, "R:G", Phase.FLEK)
    assert s2.view(None)["trumf"] == "R:G"


def test_flek_rounds_defenders_flek_and_tutti_aktér_re_and_boty() -> None:
    s = run(won_by_zadak("B7"), "discard B07 B08", "game B7 R")
    # The defender on the aktér's left (seat 1) is asked first.
    assert s.current_player() == 1 and s.flek_text(1) == "1:1"
    assert s.legal_actions() == [Flek((1, 1)), Flek((2, 1)), Flek((1, 2)), Flek((2, 2))]
    s = run(s, "flek 2:1")  # flek on the hra only
    # The other defender is asked at his own level: a flek binds only who said it.
    assert s.current_player() == 2 and s.flek_text(2) == "1:1" and s.flek_text() == "2:1"
    s = run(s, "flek 1:1")
    assert s.current_player() == 0 and s.flek_text(0) == "2:1"
    with pytest.raises(IllegalAction, match="keep the flek at 2:1"):
        run(s, "flek 2:2")  # the aktér cannot flek, only re
    s = run(s, "flek 4:1")  # re on the hra, against seat 1 only
    assert s.current_player() == 1 and s.flek_text(1) == "4:1" and s.flek_text(2) == "1:1"
    assert s.legal_actions() == [Flek((4, 1)), Flek((8, 1)), Flek((4, 2)), Flek((8, 2))]
    s = run(s, "flek 4:1", "flek 1:1")  # both defenders keep: play starts
    assert s.phase == Phase.PLAY and s.flek_levels == (4, 1)
    assert [s.seat_flek_levels(i) for i in range(3)] == [(4, 1), (4, 1), (1, 1)]
    assert [t for _, t in s.flek_log] == ["2:1", "1:1", "4:1", "4:1", "1:1"]
    assert s.current_player() == 1  # forhont leads in trump games


def test_both_defenders_flek_and_the_aktér_re_doubles_both() -> None:
    s = run(won_by_zadak("SMALL"), "discard R0A A0A", "game SMALL")
    s = run(s, "flek 2", "flek 2", "flek 4", "flek 8")
    assert s.current_player() == 2 and s.flek_text(2) == "4"
    s = run(s, "flek 4", "flek 16")
    assert s.current_player() == 2  # seat 2 may still say tutti against the boty
    s = run(s, "flek 4")
    assert s.phase == Phase.PLAY and s.flek_levels == (16,)
    assert [s.seat_flek_levels(i) for i in range(3)] == [(16,), (16,), (4,)]
    assert s.current_player() == 0  # the aktér leads in betl


def test_no_flek_round_when_fleks_are_off() -> None:
    s = deal(HANDS, TALON, rules=Rules(max_flek=1))
    s = run(s, "bid 100", "no", "no", "discard B07 B08", "game B100 R")
    assert s.phase == Phase.PLAY and s.flek_text() == "1"

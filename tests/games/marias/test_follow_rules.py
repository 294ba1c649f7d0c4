"""The seed's 11-step follow rule, branch by branch, plus the betl/durch differences and the
reserved announced sevens."""

from __future__ import annotations

import pytest

from herna.core.errors import IllegalAction
from herna.games.marias import Contract, MariasState, Rules, format_cards, parse_cards
from herna.games.marias.cards import cards_of, mask_of
from herna.games.marias.state import legal_play_mask
from tests.games.marias.helpers import c, cards_of_plays, deal, run

G, B = 2, 1


def legal(hand: str, trick: str, trumps: int = G, order: int = 0) -> str:
    m = legal_play_mask(mask_of(parse_cards(hand)), tuple(parse_cards(trick)), trumps, order)
    return format_cards(cards_of(m))


def test_lead_anything() -> None:
    assert legal("R07 B10 G0A", "") == "R07 B10 G0A"


def test_steps_1_2_3_led_suit_already_trumped_any_card_of_that_suit() -> None:
    # Bells led, somebody trumped: follow bells, no need to overtake.
    assert legal("B07 B0A G0A", "B09 G08") == "B07 B0A"


def test_steps_4_5_must_overtake_in_the_led_suit() -> None:
    assert legal("B07 B10 B0K G0A", "B09 B08") == "B10 B0K"
    assert legal("B07 B10 B0K", "B0K") == "B10"  # the ten beats the king in trump games


def test_steps_4_6_cannot_overtake_any_card_of_the_led_suit() -> None:
    assert legal("B07 B08 R0A", "B09") == "B07 B08"
    assert legal("B07 B08 R0A", "B09 B0A") == "B07 B08"


def test_step_2_led_trumps_must_overtake_in_trumps() -> None:
    assert legal("G07 G0A B0A", "G10") == "G0A"
    assert legal("G07 G08 B0A", "G10") == "G07 G08"


def test_steps_7_8_9_void_must_overtrump() -> None:
    assert legal("G08 G0K R0A", "A07 G09") == "G0K"


def test_steps_7_10_void_cannot_overtrump_any_trump() -> None:
    assert legal("G07 G08 R0A", "A07 G09") == "G07 G08"


def test_steps_7_8_no_trump_yet_any_trump() -> None:
    assert legal("G07 G0A R0A", "A07 A0A") == "G07 G0A"


def test_step_11_neither_led_suit_nor_trumps() -> None:
    assert legal("R07 B0A", "A07 G09") == "R07 B0A"


def test_betl_durch_no_trumps_and_betl_order() -> None:
    # In betl the ten sits under the unter, and there are no trumps.
    assert legal("B0J B09", "B10", trumps=-1, order=1) == "B0J"
    assert legal("B0J B09", "B10", trumps=G, order=0) == "B09 B0J"  # trump game: 10 is high
    assert legal("G07 R0A", "A07", trumps=-1, order=1) == "R0A G07"


# A played position: trumps green (G), seat 0 is the aktér, seat 1 (forhont) leads.
HANDS = [
    "G07 G08 G0K B07 B10 R07 R08 R09 R0J R0Q",
    "B09 B0J A0A A08 A09 A10 A0J G09 R10 R0A",
    "B08 B0Q B0K B0A G0J G0Q G10 G0A A0Q A0K",
]
TALON = "R0K A07"


def position(contract: str) -> MariasState:
    s = deal(HANDS, TALON, rules=Rules(max_flek=1))
    s = run(s, f"bid {contract}", "no", "no", "discard R0K A07", f"game {contract} G")
    return run(s, "play A0A")


def test_reasons_in_the_seed_style() -> None:
    s = position("G")
    assert s.current_player() == 2
    with pytest.raises(IllegalAction, match="You must play acorns!") as err:
        run(s, "play G0J")
    assert err.value.code == "MUST_FOLLOW_SUIT"
    assert s.check(run(s, "play A0K").history()[-1][1]) is None
    s = run(s, "play A0K")
    assert s.current_player() == 0
    assert cards_of_plays(s.legal_actions()) == {c("G07"), c("G08"), c("G0K")}
    with pytest.raises(IllegalAction, match="You must trump with green!"):
        run(s, "play R07")
    with pytest.raises(IllegalAction, match="do not hold"):
        run(s, "play G0A")


def test_announced_seven_is_held_back() -> None:
    s = run(position("7"), "play A0K")
    assert s.contract is Contract.C7
    assert cards_of_plays(s.legal_actions()) == {c("G08"), c("G0K")}
    with pytest.raises(IllegalAction, match="keep the announced seven G07") as err:
        run(s, "play G07")
    assert err.value.code == "SEVEN_RESERVED"


def test_announced_seven_may_go_when_it_is_the_only_legal_card() -> None:
    hands = [
        "G07 B07 B10 R07 R08 R09 R0J R0Q R0K B08",
        "B09 B0J A0A A08 A09 A10 A0J G09 R10 R0A",
        "G08 B0Q B0K B0A G0J G0Q G10 G0A A0Q A0K",
    ]
    s = deal(hands, "G0K A07", rules=Rules(max_flek=1))
    s = run(s, "bid 7", "no", "no", "discard G0K A07", "game 7 G", "play A0A", "play A0K")
    assert cards_of_plays(s.legal_actions()) == {c("G07")}  # must trump, only the seven
    s = run(s, "play G07")
    assert s.tricks[0].winner == 0

from __future__ import annotations

import pytest

from herna.games.marias import (
    CardError,
    cards_of,
    format_card,
    format_cards,
    is_cgml_card_code,
    mask_of,
    parse_card,
    parse_cards,
    parse_suit,
)
from herna.games.marias.cards import ABOVE, BETL_ORDER, POINTS, TRUMP_ORDER


def test_every_card_round_trips() -> None:
    codes = [s + r for s in "RBGA" for r in ("07", "08", "09", "10", "0J", "0Q", "0K", "0A")]
    assert [format_card(parse_card(code)) for code in codes] == codes
    assert sorted(parse_card(code) for code in codes) == list(range(32))


def test_seed_examples() -> None:
    assert format_card(parse_card("R07")) == "R07"  # červená sedma
    assert parse_card("B10") == 8 + 3
    assert parse_card("G0J") == 16 + 4
    assert parse_card("A0A") == 31


def test_suit_letter_is_case_insensitive() -> None:
    assert parse_card("g0k") == parse_card("G0K")
    assert parse_suit("a") == 3


@pytest.mark.parametrize("code", ["T01", "T18", "T22", "J00"])
def test_tarot_and_joker_are_cgml_but_not_marias(code: str) -> None:
    assert is_cgml_card_code(code)
    with pytest.raises(CardError, match="not a mariáš card"):
        parse_card(code)


@pytest.mark.parametrize("code", ["T00", "T23", "J01", "R06", "X07", "R0X", "", "R070", "A11"])
def test_garbage_is_refused(code: str) -> None:
    assert not is_cgml_card_code(code)
    with pytest.raises(CardError):
        parse_card(code)


def test_cards_and_masks() -> None:
    cards = parse_cards("A0A, R07 G10")
    assert format_cards(cards_of(mask_of(cards))) == "R07 G10 A0A"


def test_rank_orders() -> None:
    # Trump games: 7 8 9 J Q K 10 A; betl/durch: 7 8 9 10 J Q K A.
    natural = ["07", "08", "09", "10", "0J", "0Q", "0K", "0A"]
    trump = sorted(natural, key=lambda r: TRUMP_ORDER[natural.index(r)])
    betl = sorted(natural, key=lambda r: BETL_ORDER[natural.index(r)])
    assert trump == ["07", "08", "09", "0J", "0Q", "0K", "10", "0A"]
    assert betl == natural
    assert format_cards(cards_of(ABOVE[0][parse_card("G0K")])) == "G10 G0A"
    assert format_cards(cards_of(ABOVE[1][parse_card("G0K")])) == "G0A"
    assert format_cards(cards_of(ABOVE[1][parse_card("G10")])) == "G0J G0Q G0K G0A"
    assert sum(POINTS) == 80

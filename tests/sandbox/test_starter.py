"""The starter kits know the rules: the Onitama kit's card table is the game's and its legal
moves are the referee's in every position of 30 random games; the mariáš kit plays only the
cards the engine allows."""

from __future__ import annotations

import random

import pytest

from herna.games.marias.cards import CARD_CODES, SUIT_CODES
from herna.games.marias.rules import legal_play_mask
from herna.games.onitama.board import parse_square, square_name
from herna.games.onitama.cards import CARDS
from herna.games.onitama.state import Move
from herna.starters import marias as marias_kit
from herna.starters import onitama as kit
from tests.onitama.helpers import dealt


def test_the_starter_kits_cards_are_the_games() -> None:
    assert {card.name: list(card.offsets) for card in CARDS} == kit.CARDS


@pytest.mark.parametrize("seed", range(30))
def test_the_starter_kit_sees_exactly_the_legal_moves(seed: int) -> None:
    state = dealt(seed)
    game = kit.Game("ann", "ann", "bob", list(state.cards()))
    choose = random.Random(seed)
    while not state.is_terminal():
        legal = {(m.card, square_name(m.frm), square_name(m.to)) for m in state.legal_moves()}
        assert set(game.moves()) == legal, (seed, state.board)
        if not legal:
            break  # a stalemate: the kit sends STALEMATE, the server deals
        card, src, dst = choose.choice(sorted(legal))
        game.play(card, src, dst)
        state = state.apply(Move(card, parse_square(src), parse_square(dst)))
        assert state.cards() == (*game.hands["w"], *game.hands["b"], game.spare)


@pytest.mark.parametrize("seed", range(200))
def test_the_marias_starter_kit_plays_only_what_the_rules_allow(seed: int) -> None:
    """Its cards on a trick are the engine's legal cards (no renonc), with trumps and in
    betl/durch, whatever the hand and the trick so far."""
    rng = random.Random(seed)
    cards = list(range(32))
    rng.shuffle(cards)
    hand, trick = cards[:10], cards[10 : 10 + rng.randrange(3)]
    trumps = rng.choice([-1, 0, 1, 2, 3])
    order = 1 if trumps < 0 and rng.random() < 0.9 else 0
    deal = marias_kit.Deal("me")
    deal.hand = {CARD_CODES[c] for c in hand}
    deal.trick = [CARD_CODES[c] for c in trick]
    deal.trumps = SUIT_CODES[trumps] if trumps >= 0 else None
    deal.order = marias_kit.PLAIN_ORDER if order else marias_kit.TRUMP_ORDER
    mask = legal_play_mask(sum(1 << c for c in hand), trick, trumps, order)
    assert set(deal.legal()) == {CARD_CODES[c] for c in range(32) if mask >> c & 1}
    assert deal.play() in deal.legal()

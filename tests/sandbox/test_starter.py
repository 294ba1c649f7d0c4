"""The Onitama starter kit (herna/starters/onitama.py) knows the rules: its card table is the
game's, and its legal moves are the referee's in every position of 30 random games."""

from __future__ import annotations

import random

import pytest

from herna.games.onitama.board import parse_square, square_name
from herna.games.onitama.cards import CARDS
from herna.games.onitama.state import Move
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

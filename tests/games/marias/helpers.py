"""Helpers for building mariáš positions by hand in tests."""

from __future__ import annotations

from collections.abc import Sequence

from herna.games.marias import (
    Action,
    Bid,
    Contract,
    Discard,
    GameType,
    MariasState,
    Play,
    decode_action,
    new_game,
    parse_card,
    parse_cards,
)
from herna.games.marias.contracts import Rules
from herna.games.marias.log import deal_for, play_actions


def deal(hands: list[str], talon: str, dealer: int = 0, rules: Rules | None = None) -> MariasState:
    """A state right after the deal: ``hands[seat]`` as card codes, ``talon`` two codes."""
    cards = [parse_cards(h) for h in hands]
    return play_actions(new_game(dealer, rules), deal_for(dealer, cards, parse_cards(talon)))


def run(state: MariasState, *actions: str | Action) -> MariasState:
    """Apply actions given as log text (``"bid 7"``, ``"play G0A"``) or objects."""
    for a in actions:
        state = state.apply(decode_action(a) if isinstance(a, str) else a)
    return state


def play(state: MariasState, cards: str) -> MariasState:
    """Play the given cards in turn order."""
    for code in cards.split():
        state = run(state, f"play {code}")
    return state


def c(code: str) -> int:
    return parse_card(code)


def cards_of_plays(actions: Sequence[Action]) -> set[int]:
    """The cards of the ``Play`` actions among ``actions``."""
    return {a.card for a in actions if isinstance(a, Play)}


def contracts_of(actions: Sequence[Action]) -> set[Contract]:
    """Contracts offered (``Bid``) or announceable (``GameType``) among ``actions``."""
    return {a.contract for a in actions if isinstance(a, Bid | GameType)}


def discards_of(actions: Sequence[Action]) -> list[tuple[int, int]]:
    return [a.cards for a in actions if isinstance(a, Discard)]

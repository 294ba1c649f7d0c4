"""The one-line turn descriptions of herna.games.tiles.narrate, on views the engine makes."""

from __future__ import annotations

from herna.core.game import CHANCE
from herna.core.rng import SeededRng
from herna.games.tiles.actions import TilesCodec
from herna.games.tiles.engine import TilesState, new_game
from herna.games.tiles.narrate import TurnLog, item_names
from herna.games.tiles.rules import load_rules_file, shipped_rules


def _settle(state: TilesState, rng: SeededRng) -> TilesState:
    while not state.is_terminal() and state.current_player() == CHANCE:
        state = state.apply(rng.weighted(state.chance_outcomes()))
    return state


def test_item_names() -> None:
    assert item_names({"ghost": 1}) == "the ghost"
    assert item_names({"gem": 2, "coins": 3, "map": 1}) == "2 gems, 3 coins and the map"


def test_a_whole_game_gives_one_line_per_turn() -> None:
    rules = load_rules_file(shipped_rules()["gold_rush"])
    codec = TilesCodec(rules.n)
    rng = SeededRng(5)
    names = ["a", "b", "c", "d"]
    log = TurnLog(names)
    state = _settle(new_game(rules, 6), rng)
    lines: list[str] = []
    turns = 0
    while not state.is_terminal():
        seat = state.current_player()
        before = state.view(0)
        turn = state.turn
        action = state.legal_actions()[-1]
        state = _settle(state.apply(action), rng)
        turns += state.turn != turn or state.is_terminal()
        line = log.add(seat, codec.encode(action), before, state.view(0))
        if line:
            lines += line.splitlines()
    assert len(lines) == turns == 24
    assert all(line.split()[1] == "pushed" for line in lines), lines
    assert all("(" not in line for line in lines)

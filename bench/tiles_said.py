"""What the tile server's ``said`` line (each action in words, per reader) costs: for every
shipped rules file, random games of up to 200 actions; per action and reader, the reader's
view of the state before the action plus narrate.py's words. (The view after the action is
sent anyway; it is counted here too, so the figure is an upper bound.)

    .venv/bin/python bench/tiles_said.py
"""

from __future__ import annotations

import time

from herna.core.game import CHANCE
from herna.core.rng import SeededRng
from herna.games.tiles.actions import TilesCodec
from herna.games.tiles.engine import TilesState, new_game
from herna.games.tiles.rules import load_rules_file, shipped_rules
from herna.servers.tiles.hub import said


def settle(state: TilesState, rng: SeededRng) -> TilesState:
    while state.current_player() == CHANCE and not state.is_terminal():
        outcomes = state.chance_outcomes()
        state = state.apply(outcomes[rng.randint(0, len(outcomes) - 1)][0])
    return state


def main() -> None:
    for name in sorted(shipped_rules()):
        rules = load_rules_file(shipped_rules()[name])
        codec = TilesCodec(rules.n)
        rng = SeededRng(1)
        names = [f"p{i}" for i in range(len(rules.players))]
        state = settle(new_game(rules), rng)
        total, n = 0.0, 0
        while not state.is_terminal() and n < 200:
            seat = state.current_player()
            actions = list(state.legal_actions())
            action = actions[rng.randint(0, len(actions) - 1)]
            old, state = state, settle(state.apply(action), rng)
            start = time.perf_counter()
            for reader in range(len(names)):
                said(codec.encode(action), old.view(reader), state.view(reader), seat, names)
            total += time.perf_counter() - start
            n += 1
        per = 1000 * total / n / len(names)
        print(f"{name}: {n} actions, {per:.2f} ms per action and reader")


if __name__ == "__main__":
    main()

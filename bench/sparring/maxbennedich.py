"""Sparring driver for maxbennedich/onitama (Java: iterative deepening, PVS, quiescence,
Zobrist TT, SPSA-tuned piece-square evaluation), searching for the think time it is given.

    python bench/sparring/maxbennedich.py \\
        --harness 'java -cp /tmp/spar/maxb-harness/classes onitama.ai.SparHarness 20'

Plays in ``bench/onitama_strength.py --external``; see README.md for building the harness.
The harness makes a fresh ``Searcher`` per move with the think time as its time limit, as
the project's own ``AIPlayer`` does, without pondering (which would search on the other
side's time and cores).

maxbennedich's board is a 25-character string, row ``y = 0`` (rank 5) first, exactly as
Herna's, with ``r``/``R`` for player 0 (at the bottom, Herna's White) and ``b``/``B`` for
player 1; card offsets use ``dy < 0`` for forward. Its search has no rule for a blocked
player, so when Herna says the mover is blocked the driver passes the first card itself.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import Harness, serve

from herna.games.onitama.state import Move, OnitamaState, PlayerAction


def request(state: OnitamaState) -> str:
    board = state.view(None)["board"].replace("W", "R").replace("w", "r")
    return f"{board} {','.join(state.cards())} {state.to_move}"


def parse_move(text: str) -> Move:
    card, px, py, nx, ny = text.split()
    return Move(card, (4 - int(py)) * 5 + int(px), (4 - int(ny)) * 5 + int(nx))


def moves(harness: Harness, state: OnitamaState) -> list[Move]:
    answer = harness.ask("moves " + request(state))
    return [parse_move(part) for part in answer.split(";") if part]


def choose(harness: Harness, state: OnitamaState, ms: int) -> PlayerAction:
    legal = state.legal_actions()
    if not state.legal_moves():
        return legal[0]
    move = parse_move(harness.ask(f"go {request(state)} {ms}"))
    if move not in legal:
        raise RuntimeError(f"maxbennedich chose {move}, not legal here")
    return move


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--harness", required=True, help="the harness command (README.md)")
    parser.add_argument("--ms", type=int, help="think time per move (default: what is asked)")
    args = parser.parse_args()
    harness = Harness(args.harness)
    try:
        return serve(lambda state, ms: choose(harness, state, args.ms or ms))
    finally:
        harness.close()


if __name__ == "__main__":
    raise SystemExit(main())

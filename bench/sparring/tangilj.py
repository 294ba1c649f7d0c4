"""Sparring driver for TangilJ/Onitama (C++ bitboard negamax with alpha-beta, fixed depth).

    python bench/sparring/tangilj.py --harness /tmp/spar/tangilj-harness/tangilj-harness --depth 7

Plays in ``bench/onitama_strength.py --external 'tangilj-d7=python bench/sparring/tangilj.py
...'`` (see README.md for building the harness). The engine searches to ``--depth`` plies
whatever the think time says, as its own CLI does.

TangilJ's state (``core/types.h``): ``allPieces[0]`` blue, ``allPieces[1]`` red, ``kings``;
squares are bits 31..7 (index ``31 - bit``, index 0..4 blue's back row, from White's right to
left), the low five bits say which of the five cards (in lookup order blue1, blue2, red1,
red2, side) each player holds, and the kings word's low bits hold the side card. Blue starts
and is Herna's White. Moves are read back by comparing the engine's chosen child state with
the child each Herna legal move produces, so the mapping is checked on every single move.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import Harness, serve

from herna.games.onitama.cards import BLACK, WHITE
from herna.games.onitama.state import Move, OnitamaState, Pass, PlayerAction

Triple = tuple[int, int, int]


def square_bit(sq: int) -> int:
    rank, file = divmod(sq, 5)
    return 1 << (31 - (rank * 5 + 4 - file))


def encode(state: OnitamaState, order: tuple[str, ...]) -> Triple:
    """TangilJ's ``State`` for ``state``; ``order`` maps each card in play to its lookup slot
    (fixed by the position the engine is asked about, so children keep their parent's slots)."""
    words = [0, 0]
    kings = 0
    view = state.view(None)
    for i, ch in enumerate(view["board"]):
        if ch == ".":
            continue
        # The view's board lists rank 5 first.
        sq = (4 - i // 5) * 5 + i % 5
        words[WHITE if ch in "Ww" else BLACK] |= square_bit(sq)
        if ch in "WB":
            kings |= square_bit(sq)
    cards = view["cards"]
    for color, key in ((WHITE, "white"), (BLACK, "black")):
        for name in cards[key]:
            words[color] |= 1 << order.index(name)
    kings |= 1 << order.index(cards["spare"])
    return words[0], words[1], kings


def request(state: OnitamaState, order: tuple[str, ...]) -> str:
    a0, a1, k = encode(state, order)
    names = " ".join(n.lower() for n in order)
    return f"{a0} {a1} {k} {names} {state.to_move}"


def children(harness: Harness, state: OnitamaState) -> list[Triple]:
    fields = list(map(int, harness.ask("moves " + request(state, state.cards())).split()))
    return [tuple(fields[1 + 3 * i : 4 + 3 * i]) for i in range(fields[0])]  # type: ignore[misc]


def expected(state: OnitamaState) -> dict[Triple, Move]:
    """The TangilJ child state each Herna move leads to."""
    order = state.cards()
    return {encode(state.apply(m), order): m for m in state.legal_moves()}


def choose(harness: Harness, depth: int, state: OnitamaState) -> PlayerAction:
    order = state.cards()
    chosen: Triple = tuple(map(int, harness.ask(f"go {request(state, order)} {depth}").split()))  # type: ignore[assignment]
    moves = expected(state)
    if moves:
        if chosen not in moves:
            raise RuntimeError(f"TangilJ chose {chosen}, no Herna move leads there")
        return moves[chosen]
    # Blocked: TangilJ's two children give up the lower-slot card (0) or the other one (1).
    # (Its pass children carry a garbled card word, so they are told apart by position.)
    index = children(harness, state).index(chosen)
    hand = sorted(state.cards()[2 * state.to_move : 2 * state.to_move + 2], key=order.index)
    return Pass(hand[index])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--harness", required=True, help="the harness program (README.md)")
    parser.add_argument("--depth", type=int, default=7, help="search depth in plies")
    args = parser.parse_args()
    harness = Harness(args.harness)
    try:
        return serve(lambda state, _ms: choose(harness, args.depth, state))
    finally:
        harness.close()


if __name__ == "__main__":
    raise SystemExit(main())

"""Cross-check a sparring partner's move generation against Herna's rules engine before
trusting any match result: same legal-move set on every one of N random positions.

    python bench/sparring/crosscheck.py --positions 400 \\
        --tangilj /tmp/spar/tangilj-harness/tangilj-harness \\
        --maxbennedich "java -cp /tmp/spar/maxb-harness/classes onitama.ai.SparHarness 20"

Positions: half from random play after a random deal (0-40 plies, official pass rule), half
random boards (1-5 pawns a side, masters anywhere that is not already won), both sides to
move; and ten blocked positions. Together they use every one of the 16 cards (the script
prints how often each). A blocked position counts as matching when Herna offers the two
passes and the engine either offers two pass children (TangilJ) or no move (maxbennedich).
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import maxbennedich
import tangilj
from common import Harness

from herna.games.onitama.cards import CARD_NAMES
from herna.games.onitama.state import OnitamaState


def random_position(rnd: random.Random) -> OnitamaState:
    while True:
        cards = rnd.sample(CARD_NAMES, 5)
        if rnd.random() < 0.5:
            state = OnitamaState.setup(cards[:2], cards[2:4], cards[4], rule="pass")
            for _ in range(rnd.randrange(41)):
                actions = state.legal_actions()
                child = state.apply(rnd.choice(actions))
                if child.is_terminal():
                    break
                state = child
        else:
            squares = rnd.sample(range(25), 10)
            n_white, n_black = rnd.randint(1, 5), rnd.randint(1, 5)
            board = ["."] * 25
            for i, sq in enumerate(squares[: n_white + n_black]):
                board[sq] = "w" if i < n_white else "b"
            board[squares[0]] = "W"
            board[squares[n_white]] = "B"
            try:
                state = OnitamaState.setup(
                    cards[:2], cards[2:4], cards[4], board="".join(board),
                    to_move=rnd.randrange(2), rule="pass",
                )  # fmt: skip
            except ValueError:
                continue
        if not state.is_terminal():
            return state


def blocked_positions(rnd: random.Random) -> list[OnitamaState]:
    """Ten blocked positions (random boards are practically never blocked): the mover's five
    pawns fill its left-hand file and its cards (Tiger, Horse) only go straight or left."""
    out = []
    for color in (0, 1):
        for master_row in range(5):
            board = ["."] * 25
            file = 0 if color == 0 else 4  # Black's left is White's right
            for row in range(5):
                board[row * 5 + file] = "wb"[color]
            board[master_row * 5 + file] = "WB"[color]
            enemy = rnd.sample([i for i in range(25) if i % 5 not in (file, 2)], 3)
            board[enemy[0]] = "BW"[color]
            for i in enemy[1:]:
                board[i] = "bw"[color]
            others = [c for c in CARD_NAMES if c not in ("Tiger", "Horse")]
            rest = rnd.sample(others, 3)
            own, opp = ["Tiger", "Horse"], rest[:2]
            white, black = (own, opp) if color == 0 else (opp, own)
            state = OnitamaState.setup(
                white, black, rest[2], board="".join(board), to_move=color, rule="pass"
            )
            assert not state.is_terminal() and not state.legal_moves()
            out.append(state)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--tangilj", help="TangilJ harness program")
    parser.add_argument("--maxbennedich", help="maxbennedich harness command")
    args = parser.parse_args()
    engines: dict[str, Harness] = {}
    if args.tangilj:
        engines["tangilj"] = Harness(args.tangilj)
    if args.maxbennedich:
        engines["maxbennedich"] = Harness(args.maxbennedich)
    rnd = random.Random(args.seed)
    mismatches = collections.Counter[str]()
    seen_cards = collections.Counter[str]()
    blocked = 0
    total_moves = 0
    positions = [random_position(rnd) for _ in range(args.positions)] + blocked_positions(rnd)
    for state in positions:
        seen_cards.update(state.cards())
        herna = state.legal_moves()
        total_moves += len(herna)
        blocked += not herna
        for name, harness in engines.items():
            if name == "tangilj":
                theirs = tangilj.children(harness, state)
                ok = (
                    (len(theirs) == 2) if not herna else set(theirs) == set(tangilj.expected(state))
                )
                ok = ok and len(theirs) == max(len(herna), 2 if not herna else 0)
            else:
                got = maxbennedich.moves(harness, state)
                ok = sorted(map(str, got)) == sorted(map(str, herna)) and len(got) == len(set(got))
            if not ok:
                mismatches[name] += 1
                if mismatches[name] <= 3:
                    print(f"MISMATCH {name}: {state!r}")
    for harness in engines.values():
        harness.close()
    print(
        f"{len(positions)} positions ({blocked} blocked, {total_moves} Herna moves), "
        f"cards used: {len(seen_cards)}/16 (least: {min(seen_cards.values())} positions)"
    )
    for name in engines:
        print(f"{name}: {mismatches[name]} mismatches")
    return 1 if any(mismatches.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())

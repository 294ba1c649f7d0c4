"""Perft: count the move paths of a given depth, to check the move generator.

The counting rules are those of the published figures (``onitama-rules.md`` §8, from the
TangilJ/Onitama engine):

1. moves are distinct (card, from, to) triples;
2. a position where the game is already won is a leaf that counts 1, even with depth left;
3. a side with no legal move has exactly two children, the two official passes.

So perft always uses the official pass (rule 3), whatever the state's ``rule``.

>>> from herna.games.onitama.state import OnitamaState
>>> perft(OnitamaState.setup(["Ox", "Boar"], ["Horse", "Elephant"], "Crab"), 3)
1989
"""

from __future__ import annotations

from herna.games.onitama.board import TEMPLE
from herna.games.onitama.cards import TARGETS
from herna.games.onitama.state import OnitamaState


def perft(state: OnitamaState, depth: int) -> int:
    """Number of leaf nodes ``depth`` plies below ``state`` (see the module doc)."""
    if depth < 0:
        raise ValueError("depth must be >= 0")
    if state.current_player() < 0 and not state.is_terminal():
        raise ValueError("perft needs a position with a player to move")
    if depth == 0 or state.is_terminal():
        return 1
    return _perft(*state.mover_view(), depth)


def divide(state: OnitamaState, depth: int) -> dict[str, int]:
    """Perft split by first move (``"Ox c1c2"`` → count); passes appear as ``"pass Ox"``."""
    if depth < 1:
        raise ValueError("depth must be >= 1")
    out: dict[str, int] = {}
    pass_state = state if state.rule == "pass" else _with_pass_rule(state)
    for action in pass_state.legal_actions():
        child = pass_state.apply(action)
        out[str(action)] = perft(child, depth - 1)
    return out


def _with_pass_rule(state: OnitamaState) -> OnitamaState:
    from herna.games.onitama.notation import format_position, parse_position

    return parse_position(format_position(state), rule="pass")


def _perft(
    own: int,
    opp: int,
    own_m: int,
    opp_m: int,
    c0: int,
    c1: int,
    o0: int,
    o1: int,
    spare: int,
    side: int,
    depth: int,
) -> int:
    """Perft from the mover's point of view; the position is not won yet."""
    other = 1 - side
    t0 = TARGETS[side][c0]
    t1 = TARGETS[side][c1]
    not_own = ~own
    arch = TEMPLE[other]
    if depth == 1:
        total = 0
        bits = own
        while bits:
            low = bits & -bits
            sq = low.bit_length() - 1
            bits ^= low
            total += (t0[sq] & not_own).bit_count() + (t1[sq] & not_own).bit_count()
        return total if total else 2
    total = 0
    found = False
    next_depth = depth - 1
    bits = own
    while bits:
        low = bits & -bits
        frm = low.bit_length() - 1
        bits ^= low
        moved = own ^ low
        is_master = frm == own_m
        for card, keep, targets in ((c0, c1, t0[frm] & not_own), (c1, c0, t1[frm] & not_own)):
            while targets:
                tbit = targets & -targets
                targets ^= tbit
                found = True
                to = tbit.bit_length() - 1
                if to == opp_m or (is_master and to == arch):
                    total += 1  # the game is won: a leaf that counts 1
                    continue
                total += _perft(
                    opp & ~tbit,
                    moved | tbit,
                    opp_m,
                    to if is_master else own_m,
                    o0,
                    o1,
                    spare,
                    keep,
                    card,
                    other,
                    next_depth,
                )
    if found:
        return total
    # No legal move: the two official passes (either card to the spare).
    return _perft(opp, own, opp_m, own_m, o0, o1, spare, c1, c0, other, next_depth) + _perft(
        opp, own, opp_m, own_m, o0, o1, c0, spare, c1, other, next_depth
    )

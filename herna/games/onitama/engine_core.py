"""The compiled Onitama search core (numba ``njit``, cached on disk; ``nogil``, so a house
bot's search in a worker thread leaves the servers' event loop free).

Everything here works on plain integers and numpy arrays so numba compiles it to machine
code; :mod:`herna.games.onitama.engine` wraps it for Python callers. A position is seen from
the player to move ("the mover"):

``own, opp``   bitboards of the mover's and the opponent's pawns (bit ``rank * 5 + file``),
``own_m, opp_m`` the two masters' squares,
``c0, c1``     the mover's cards, ``o0, o1`` the opponent's, ``spare`` the spare card,
``side``       the mover's colour (0 White, 1 Black), which orients the cards.

A move is ``card << 10 | from << 5 | to``. The tables are built from
:data:`herna.games.onitama.cards.TARGETS`, the rules engine's own tables, so both agree by
construction; the tests still check move generation and perft against the rules engine.

Search: iterative deepening (driven from Python by :class:`..engine.Searcher`) over a
principal-variation alpha-beta with a Zobrist-keyed transposition table, check extension (a
"check" is a threat to capture the master or reach the arch next move), late-move
reductions, killer and history move ordering, and a quiescence search over captures, threat
replies and threatening moves.
"""

from __future__ import annotations

import time

import numba
import numpy as np
from numba import njit

from herna.games.onitama.cards import TARGETS

WIN = 1_000_000
"""Score of a won position, minus the plies to the win (quicker wins score higher)."""
INF = 2 * WIN
MAX_PLY = 96
MAX_MOVES = 48
Q_MAX = 8
"""Quiescence plies at most: threat sequences can otherwise run long."""

TT_KEY, TT_SCORE, TT_INFO, TT_MOVE = 0, 1, 2, 3
"""Columns of the transposition table (an ``int64[n, 4]``); INFO is ``depth << 2 | flag``."""
FLAG_EXACT, FLAG_LOWER, FLAG_UPPER = 1, 2, 3

# stats array slots
S_NODES, S_STOP, S_BEST, S_SCORE, S_DEPTH, S_FIRST = 0, 1, 2, 3, 4, 5
STATS_SIZE = 8

# evaluation parameters (an int64 array, so tuning needs no recompiling)
P_MATERIAL, P_CENTER, P_ADVANCE, P_MASTER_DIST, P_MOBILITY, P_TEMPO, P_ATTACK, P_HANGING = range(8)
P_MASTER_ZONE = 8
DEFAULT_PARAMS = np.array([100, 4, 3, 8, 2, 6, 12, 20, 6], dtype=np.int64)

RULE_STALEMATE, RULE_PASS = 0, 1

TARGET = np.array(TARGETS, dtype=np.int64)
"""``TARGET[side, card, sq]``: squares a pawn of ``side`` on ``sq`` reaches with ``card``."""
REVERSE = np.zeros((2, 16, 25), dtype=np.int64)
"""``REVERSE[side, card, sq]``: squares from which a pawn of ``side`` reaches ``sq``."""
for _side in range(2):
    for _card in range(16):
        for _frm in range(25):
            _t = int(TARGET[_side, _card, _frm])
            for _to in range(25):
                if _t >> _to & 1:
                    REVERSE[_side, _card, _to] |= 1 << _frm
TEMPLE = np.array([2, 22], dtype=np.int64)
"""Temple arch of each colour; a master of ``side`` wins on ``TEMPLE[1 - side]``."""
CENTER = np.array([2 - max(abs(sq % 5 - 2), abs(sq // 5 - 2)) for sq in range(25)], dtype=np.int64)
DISTANCE = np.array(
    [[max(abs(a % 5 - b % 5), abs(a // 5 - b // 5)) for b in range(25)] for a in range(25)],
    dtype=np.int64,
)
ZONE = np.array(
    [sum(1 << b for b in range(25) if max(abs(a % 5 - b % 5), abs(a // 5 - b // 5)) <= 1)
     for a in range(25)],
    dtype=np.int64,
)  # fmt: skip
"""``ZONE[sq]``: ``sq`` and the squares next to it (a master's surroundings)."""
_rng = np.random.default_rng(0x0A17A3A)
# 62-bit keys keep XOR in int64 without sign surprises.
Z_PIECE = _rng.integers(1, 1 << 62, size=(2, 25), dtype=np.int64)
Z_MASTER = _rng.integers(1, 1 << 62, size=(2, 25), dtype=np.int64)
Z_CARD = _rng.integers(1, 1 << 62, size=(16, 3), dtype=np.int64)
"""``Z_CARD[card, holder]``: holder 0 White's hand, 1 Black's hand, 2 the spare."""
Z_SIDE = int(_rng.integers(1, 1 << 62, dtype=np.int64))
_DEBRUIJN_ORDER = (0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8, 31, 27, 13, 23)
DEBRUIJN = np.array([*_DEBRUIJN_ORDER, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9], dtype=np.int64)


@njit(cache=True, nogil=True)
def lsb(low: int) -> int:
    """Index of the single set bit ``low`` (a 32-bit de Bruijn lookup)."""
    return DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]


@njit(cache=True, nogil=True)
def popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@njit(cache=True)
def now() -> float:
    # numba has no clock of its own; the object-mode call costs a few microseconds and runs
    # once every 1024 nodes.
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


@njit(cache=True, nogil=True)
def can_win(own: int, own_m: int, opp_m: int, c0: int, c1: int, side: int) -> bool:
    """Whether the mover wins this move: a pawn takes the master, or the master reaches the
    arch (not occupied by one of the mover's own pawns)."""
    if (REVERSE[side, c0, opp_m] | REVERSE[side, c1, opp_m]) & own:
        return True
    arch = TEMPLE[1 - side]
    if own >> arch & 1:
        return False
    return ((TARGET[side, c0, own_m] | TARGET[side, c1, own_m]) >> arch & 1) == 1


@njit(cache=True, nogil=True)
def zobrist(
    own: int, opp: int, own_m: int, opp_m: int, c0: int, c1: int, o0: int, o1: int, spare: int,
    side: int,
) -> int:  # fmt: skip
    h = 0
    other = 1 - side
    for sq in range(25):
        if own >> sq & 1:
            h ^= Z_PIECE[side, sq]
        if opp >> sq & 1:
            h ^= Z_PIECE[other, sq]
    h ^= Z_MASTER[side, own_m] ^ Z_MASTER[other, opp_m]
    h ^= Z_CARD[c0, side] ^ Z_CARD[c1, side] ^ Z_CARD[o0, other] ^ Z_CARD[o1, other]
    h ^= Z_CARD[spare, 2]
    if side == 1:
        h ^= Z_SIDE
    return h


@njit(cache=True, nogil=True)
def generate(
    own: int, opp: int, c0: int, c1: int, side: int, out: np.ndarray, captures: bool
) -> int:
    """Write the mover's moves (only captures if ``captures``) into ``out``; the count."""
    n = 0
    allowed = opp if captures else ~own
    for k in range(2):
        card = c0 if k == 0 else c1
        bits = own
        while bits:
            low = bits & -bits
            bits ^= low
            frm = lsb(low)
            targets = TARGET[side, card, frm] & allowed
            while targets:
                tbit = targets & -targets
                targets ^= tbit
                out[n] = (card << 10) | (frm << 5) | lsb(tbit)
                n += 1
    return n


@njit(cache=True, nogil=True)
def evaluate(
    own: int, opp: int, own_m: int, opp_m: int, c0: int, c1: int, o0: int, o1: int, side: int,
    params: np.ndarray,
) -> int:  # fmt: skip
    """Static score from the mover's view (material, centre, advance, masters' way to the
    arches, mobility, attacked pawns, tempo), weighted by ``params``."""
    other = 1 - side
    score = params[P_MATERIAL] * (popcount(own) - popcount(opp)) + params[P_TEMPO]
    score += params[P_MASTER_DIST] * (
        DISTANCE[opp_m, TEMPLE[side]] - DISTANCE[own_m, TEMPLE[other]]
    )
    center = 0
    advance = 0
    mobility = 0
    own_att = 0
    bits = own
    while bits:
        low = bits & -bits
        bits ^= low
        sq = lsb(low)
        reach = TARGET[side, c0, sq] | TARGET[side, c1, sq]
        own_att |= reach
        mobility += popcount(reach & ~own)
        if sq != own_m:
            center += CENTER[sq]
            advance += sq // 5 if side == 0 else 4 - sq // 5
    opp_att = 0
    bits = opp
    while bits:
        low = bits & -bits
        bits ^= low
        sq = lsb(low)
        reach = TARGET[other, o0, sq] | TARGET[other, o1, sq]
        opp_att |= reach
        mobility -= popcount(reach & ~opp)
        if sq != opp_m:
            center -= CENTER[sq]
            advance -= sq // 5 if other == 0 else 4 - sq // 5
    score += params[P_CENTER] * center + params[P_ADVANCE] * advance
    score += params[P_MOBILITY] * mobility
    # Master safety: squares around each master that the other side's pawns reach.
    score += params[P_MASTER_ZONE] * (
        popcount(own_att & ZONE[opp_m]) - popcount(opp_att & ZONE[own_m])
    )
    # The mover strikes first: an attacked enemy pawn is worth more than an attacked own one
    # that is also defended.
    score += params[P_ATTACK] * popcount(own_att & opp)
    score -= params[P_HANGING] * popcount(opp_att & own & ~own_att)
    return score


@njit(cache=True, nogil=True)
def _child_hash(
    h: int, opp: int, own_m: int, spare: int, side: int, move: int
) -> int:  # fmt: skip
    card = move >> 10
    frm = (move >> 5) & 31
    to = move & 31
    h ^= Z_PIECE[side, frm] ^ Z_PIECE[side, to] ^ Z_SIDE
    if opp >> to & 1:
        h ^= Z_PIECE[1 - side, to]
    if frm == own_m:
        h ^= Z_MASTER[side, frm] ^ Z_MASTER[side, to]
    h ^= Z_CARD[card, side] ^ Z_CARD[card, 2] ^ Z_CARD[spare, 2] ^ Z_CARD[spare, side]
    return h


@njit(cache=True, nogil=True)
def search(
    own: int, opp: int, own_m: int, opp_m: int, c0: int, c1: int, o0: int, o1: int, spare: int,
    side: int, h: int, depth: int, alpha: int, beta: int, ply: int, qd: int, rule: int,
    params: np.ndarray, tt: np.ndarray, killers: np.ndarray, history: np.ndarray,
    moves: np.ndarray, order: np.ndarray, stats: np.ndarray, deadline: float,
) -> int:  # fmt: skip
    """Principal-variation alpha-beta; at ``ply == 0`` the best move goes to ``stats``.

    With ``depth <= 0`` it is the quiescence search (``qd`` its plies so far): captures and
    moves that threaten to win, or every move when the mover must parry a threat. One
    self-recursive function rather than two: numba's disk cache cannot hold a recursive
    function that calls another recursive one."""
    # Recursive calls must pass typed values, not literals: a literal argument makes numba
    # compile a second specialisation that its disk cache cannot link back (a segfault).
    zero = ply * 0
    stats[S_NODES] += 1
    if (stats[S_NODES] & 1023) == 0 and now() >= deadline:
        stats[S_STOP] = 1
    if stats[S_STOP]:
        return 0
    if can_win(own, own_m, opp_m, c0, c1, side):
        return WIN - ply
    if ply >= MAX_PLY - 1:
        return evaluate(own, opp, own_m, opp_m, c0, c1, o0, o1, side, params)
    other = 1 - side
    in_check = can_win(opp, opp_m, own_m, o0, o1, other)
    if qd == 0 and in_check and ply < 2 * depth + 8:
        depth += 1
    if depth <= 0:
        buf = moves[ply]
        if in_check:
            # Every move must parry the threat; no standing pat.
            if qd >= Q_MAX:
                return evaluate(own, opp, own_m, opp_m, c0, c1, o0, o1, side, params)
            n = generate(own, opp, c0, c1, side, buf, False)
            if n == 0:
                return evaluate(own, opp, own_m, opp_m, c0, c1, o0, o1, side, params)
            best = -WIN + ply + 1
        else:
            stand = evaluate(own, opp, own_m, opp_m, c0, c1, o0, o1, side, params)
            if stand >= beta or qd >= Q_MAX:
                return stand
            if stand > alpha:
                alpha = stand
            best = stand
            n = generate(own, opp, c0, c1, side, buf, qd > 0)
            if qd == 0:
                # Keep captures, and the quiet moves that threaten to win next move.
                k = 0
                for i in range(n):
                    m = buf[i]
                    card = m >> 10
                    frm = (m >> 5) & 31
                    to = m & 31
                    tbit = 1 << to
                    keep = c1 if card == c0 else c0
                    new_own = (own & ~(1 << frm)) | tbit
                    new_m = to if frm == own_m else own_m
                    if opp & tbit or can_win(new_own, new_m, opp_m, spare, keep, side):
                        buf[k] = m
                        k += 1
                n = k
        for i in range(n):
            m = buf[i]
            card = m >> 10
            frm = (m >> 5) & 31
            to = m & 31
            tbit = 1 << to
            keep = c1 if card == c0 else c0
            score = -search(
                opp & ~tbit, (own & ~(1 << frm)) | tbit, opp_m, to if frm == own_m else own_m,
                o0, o1, spare, keep, card, other, zero, zero, -beta, -alpha, ply + 1, qd + 1, rule,
                params, tt, killers, history, moves, order, stats, deadline,
            )  # fmt: skip
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best
    mask = tt.shape[0] - 1
    slot = h & mask
    tt_move = -1
    if tt[slot, TT_KEY] == h:
        tt_move = tt[slot, TT_MOVE]
        info = tt[slot, TT_INFO]
        if ply > 0 and info >> 2 >= depth:
            value = tt[slot, TT_SCORE]
            # Win scores are stored relative to the node, not the root.
            if value > WIN - 1000:
                value -= ply
            elif value < -WIN + 1000:
                value += ply
            flag = info & 3
            if flag == FLAG_EXACT:
                return value
            if flag == FLAG_LOWER and value >= beta:
                return value
            if flag == FLAG_UPPER and value <= alpha:
                return value
    buf = moves[ply]
    n = generate(own, opp, c0, c1, side, buf, False)
    if n == 0:
        # Blocked. Official pass: either card goes to the spare. Seed 003's stalemate swaps a
        # card for a random unused one; the search treats that as a null move (hand kept).
        if rule == RULE_PASS:
            best = -INF
            for k in range(2):
                give = c0 if k == 0 else c1
                keep = c1 if k == 0 else c0
                hh = h ^ Z_SIDE ^ Z_CARD[give, side] ^ Z_CARD[give, 2]
                hh ^= Z_CARD[spare, 2] ^ Z_CARD[spare, side]
                score = -search(
                    opp, own, opp_m, own_m, o0, o1, spare, keep, give, other, hh, depth - 1,
                    -beta, -alpha, ply + 1, zero, rule, params, tt, killers, history, moves,
                    order, stats, deadline,
                )  # fmt: skip
                if score > best:
                    best = score
                    if score > alpha:
                        alpha = score
            return best
        return -search(
            opp, own, opp_m, own_m, o0, o1, c0, c1, spare, other, h ^ Z_SIDE, depth - 1,
            -beta, -alpha, ply + 1, zero, rule, params, tt, killers, history, moves, order, stats,
            deadline,
        )  # fmt: skip
    keys = order[ply]
    k0 = killers[ply, 0]
    k1 = killers[ply, 1]
    for i in range(n):
        m = buf[i]
        to = m & 31
        if m == tt_move:
            keys[i] = 1 << 40
        elif opp >> to & 1:
            keys[i] = (1 << 38) + 100 * CENTER[to]
        elif m == k0:
            keys[i] = 1 << 37
        elif m == k1:
            keys[i] = 1 << 36
        else:
            keys[i] = history[side, (m >> 5) & 31, to]
    alpha0 = alpha
    best = -INF
    best_move = buf[0]
    for i in range(n):
        # Selection sort: most moves are never reached after a cut-off.
        j = i
        for t in range(i + 1, n):
            if keys[t] > keys[j]:
                j = t
        m = buf[j]
        buf[j] = buf[i]
        buf[i] = m
        kj = keys[j]
        keys[j] = keys[i]
        keys[i] = kj
        if ply == 0 and i == 0:
            stats[S_FIRST] = m
        card = m >> 10
        frm = (m >> 5) & 31
        to = m & 31
        tbit = 1 << to
        keep = c1 if card == c0 else c0
        capture = (opp >> to & 1) == 1
        n_own = opp & ~tbit
        n_opp = (own & ~(1 << frm)) | tbit
        n_m = to if frm == own_m else own_m
        hh = _child_hash(h, opp, own_m, spare, side, m)
        if i == 0:
            score = -search(
                n_own, n_opp, opp_m, n_m, o0, o1, spare, keep, card, other, hh, depth - 1,
                -beta, -alpha, ply + 1, zero, rule, params, tt, killers, history, moves, order,
                stats, deadline,
            )  # fmt: skip
        else:
            r = 0
            if depth >= 3 and i >= 3 and not capture and not in_check:
                r = 1 if i < 8 else 2
            score = -search(
                n_own, n_opp, opp_m, n_m, o0, o1, spare, keep, card, other, hh, depth - 1 - r,
                -alpha - 1, -alpha, ply + 1, zero, rule, params, tt, killers, history, moves, order,
                stats, deadline,
            )  # fmt: skip
            if score > alpha and (r > 0 or score < beta) and not stats[S_STOP]:
                score = -search(
                    n_own, n_opp, opp_m, n_m, o0, o1, spare, keep, card, other, hh,
                    depth - 1, -beta, -alpha, ply + 1, zero, rule, params, tt, killers, history,
                    moves, order, stats, deadline,
                )  # fmt: skip
        if stats[S_STOP]:
            return 0
        if score > best:
            best = score
            best_move = m
            if ply == 0:
                stats[S_BEST] = m
                stats[S_SCORE] = score
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    if not capture:
                        if killers[ply, 0] != m:
                            killers[ply, 1] = killers[ply, 0]
                            killers[ply, 0] = m
                        history[side, frm, to] += depth * depth
                    break
    flag = FLAG_EXACT
    if best <= alpha0:
        flag = FLAG_UPPER
    elif best >= beta:
        flag = FLAG_LOWER
    stored = best
    if stored > WIN - 1000:
        stored += ply
    elif stored < -WIN + 1000:
        stored -= ply
    tt[slot, TT_KEY] = h
    tt[slot, TT_SCORE] = stored
    tt[slot, TT_INFO] = (depth << 2) | flag
    tt[slot, TT_MOVE] = best_move
    return best


@njit(cache=True, nogil=True)
def perft(
    own: int, opp: int, own_m: int, opp_m: int, c0: int, c1: int, o0: int, o1: int, spare: int,
    side: int, depth: int, moves: np.ndarray, ply: int,
) -> int:  # fmt: skip
    """Move paths of ``depth`` plies under the published counting rules (a won position is a
    leaf; a blocked side has the two official passes); the position is not won yet."""
    if depth == 0:
        return 1
    buf = moves[ply]
    n = generate(own, opp, c0, c1, side, buf, False)
    other = 1 - side
    if n == 0:
        return perft(
            opp, own, opp_m, own_m, o0, o1, spare, c1, c0, other, depth - 1, moves, ply + 1
        ) + perft(
            opp, own, opp_m, own_m, o0, o1, c0, spare, c1, other, depth - 1, moves, ply + 1
        )  # fmt: skip
    total = 0
    for i in range(n):
        m = buf[i]
        card = m >> 10
        frm = (m >> 5) & 31
        to = m & 31
        if to == opp_m or (frm == own_m and to == TEMPLE[other]):
            total += 1
            continue
        tbit = 1 << to
        keep = c1 if card == c0 else c0
        total += perft(
            opp & ~tbit, (own & ~(1 << frm)) | tbit, opp_m, to if frm == own_m else own_m,
            o0, o1, spare, keep, card, other, depth - 1, moves, ply + 1,
        )  # fmt: skip
    return total

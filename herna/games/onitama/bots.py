"""Onitama bots: random, greedy (one ply), alpha-beta (pure Python) and the compiled engine
(:mod:`.engine`, chosen by level).

Bots are pure: randomness comes from a :class:`~herna.core.rng.SeededRng` and time from a
``now`` function the caller passes in (``time.monotonic`` in the CLI, a fake in tests), so a
bot with a seed and a depth limit always picks the same move.

>>> from herna.games.onitama.state import OnitamaState
>>> s = OnitamaState.setup(["Tiger", "Crab"], ["Ox", "Boar"], "Eel",
...                        board="..B.........W.......ww.w.")
>>> str(AlphaBetaBot(depth=2).choose(s))
'Tiger c3c5'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from herna.core.rng import SeededRng
from herna.games.onitama.board import TEMPLE
from herna.games.onitama.cards import CARD_NAMES, TARGETS
from herna.games.onitama.levels import DEFAULT_LEVEL, LEVEL_NAMES
from herna.games.onitama.state import Move, OnitamaState, PlayerAction

STRATEGIES = ("random", "greedy", "alphabeta", "engine")

WIN = 1_000_000
"""Score of a won position (minus the plies it takes, so quicker wins score higher)."""

# REVERSE[color][card][sq]: squares from which a pawn of ``color`` reaches ``sq`` with ``card``.
REVERSE: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            sum(1 << frm for frm in range(25) if TARGETS[color][card][frm] & (1 << sq))
            for sq in range(25)
        )
        for card in range(16)
    )
    for color in (0, 1)
)

# Chebyshev distance between squares, used to value masters approaching the enemy arch.
DISTANCE: tuple[tuple[int, ...], ...] = tuple(
    tuple(max(abs(a % 5 - b % 5), abs(a // 5 - b // 5)) for b in range(25)) for a in range(25)
)

# A small bonus for pawns in the centre (they reach more squares).
CENTER: tuple[int, ...] = tuple(2 - max(abs(sq % 5 - 2), abs(sq // 5 - 2)) for sq in range(25))


class Strategy(Protocol):
    """Anything that picks an action for the player to move."""

    name: str

    def choose(self, state: OnitamaState) -> PlayerAction: ...


def _no_move_action(state: OnitamaState, rng: SeededRng | None) -> PlayerAction:
    actions = state.legal_actions()
    if not actions:
        raise ValueError("no player is to move in this state")
    if rng is None:
        return actions[0]  # type: ignore[return-value]
    return rng.choice(actions)  # type: ignore[return-value]


class RandomBot:
    """A uniformly random legal action."""

    name = "random"

    def __init__(self, rng: SeededRng | None = None) -> None:
        self.rng = rng or SeededRng(0)

    def choose(self, state: OnitamaState) -> PlayerAction:
        actions = state.legal_actions()
        if state.current_player() < 0 or not actions:
            raise ValueError("no player is to move in this state")
        return self.rng.choice(actions)  # type: ignore[return-value]


# -- fast internal positions ----------------------------------------------------------------
# A search position is seen from the mover: (own, opp, own_m, opp_m, c0, c1, o0, o1, spare,
# side) with bitboards, master squares and card ids.
Pos = tuple[int, int, int, int, int, int, int, int, int, int]
RawMove = tuple[int, int, int, int]  # card, other hand card, from, to


def _pos(state: OnitamaState) -> Pos:
    return state.mover_view()


def _child(pos: Pos, move: RawMove) -> Pos:
    own, opp, own_m, opp_m, _c0, _c1, o0, o1, spare, side = pos
    card, keep, frm, to = move
    tbit = 1 << to
    return (
        opp & ~tbit,
        (own & ~(1 << frm)) | tbit,
        opp_m,
        to if frm == own_m else own_m,
        o0,
        o1,
        spare,
        keep,
        card,
        1 - side,
    )


def _moves(pos: Pos) -> list[RawMove]:
    own, _opp, _own_m, _opp_m, c0, c1, _o0, _o1, _spare, side = pos
    out: list[RawMove] = []
    not_own = ~own
    for card, keep in ((c0, c1), (c1, c0)):
        table = TARGETS[side][card]
        bits = own
        while bits:
            low = bits & -bits
            frm = low.bit_length() - 1
            bits ^= low
            targets = table[frm] & not_own
            while targets:
                tbit = targets & -targets
                targets ^= tbit
                out.append((card, keep, frm, tbit.bit_length() - 1))
    return out


def _is_win(pos: Pos, move: RawMove) -> bool:
    _own, _opp, own_m, opp_m, _c0, _c1, _o0, _o1, _spare, side = pos
    to = move[3]
    return to == opp_m or (move[2] == own_m and to == TEMPLE[1 - side])


def _can_win(pos: Pos) -> bool:
    """Whether the mover has a winning move (capture the master or reach the arch)."""
    own, _opp, own_m, opp_m, c0, c1, _o0, _o1, _spare, side = pos
    rev = REVERSE[side]
    if (rev[c0][opp_m] | rev[c1][opp_m]) & own:
        return True
    arch = TEMPLE[1 - side]
    if own & (1 << arch):
        return False
    return bool((TARGETS[side][c0][own_m] | TARGETS[side][c1][own_m]) & (1 << arch))


def evaluate(pos: Pos) -> int:
    """Static score from the mover's view: material, masters' way to the arch, centre."""
    own, opp, own_m, opp_m, _c0, _c1, _o0, _o1, _spare, side = pos
    score = 100 * (own.bit_count() - opp.bit_count())
    score += 6 * (DISTANCE[opp_m][TEMPLE[side]] - DISTANCE[own_m][TEMPLE[1 - side]])
    bits = own
    while bits:
        low = bits & -bits
        score += CENTER[low.bit_length() - 1]
        bits ^= low
    bits = opp
    while bits:
        low = bits & -bits
        score -= CENTER[low.bit_length() - 1]
        bits ^= low
    return score


def _to_action(move: RawMove) -> Move:
    return Move(CARD_NAMES[move[0]], move[2], move[3])


class GreedyBot:
    """One ply with a safety check: a winning move if there is one; else, among the moves
    that do not hand the opponent an immediate win (all moves if every one does), a capture
    if there is one; random among equals."""

    name = "greedy"

    def __init__(self, rng: SeededRng | None = None) -> None:
        self.rng = rng or SeededRng(0)

    def choose(self, state: OnitamaState) -> PlayerAction:
        if state.current_player() < 0:
            raise ValueError("no player is to move in this state")
        pos = _pos(state)
        moves = _moves(pos)
        if not moves:
            return _no_move_action(state, self.rng)
        best: list[RawMove] = []
        best_score = -WIN * 2
        opp_bits = pos[1]
        for move in moves:
            if _is_win(pos, move):
                score = WIN
            else:
                score = (opp_bits >> move[3]) & 1
                if _can_win(_child(pos, move)):
                    score -= 10
            if score > best_score:
                best, best_score = [move], score
            elif score == best_score:
                best.append(move)
        return _to_action(self.rng.choice(best))


class _OutOfTime(Exception):
    pass


class AlphaBetaBot:
    """Negamax with alpha-beta pruning, iterative deepening and a transposition table.

    Give it a ``depth`` limit, a time ``budget`` in seconds (with ``now``, a monotonic clock
    function) and/or a ``max_nodes`` budget; it searches deeper until one runs out and plays
    the best move of the deepest finished iteration. With none of them it searches depth 4.
    Equal moves are broken at random with ``rng`` (the first one without it).
    """

    name = "alphabeta"

    def __init__(
        self,
        depth: int | None = None,
        budget: float | None = None,
        now: Callable[[], float] | None = None,
        max_nodes: int | None = None,
        rng: SeededRng | None = None,
    ) -> None:
        if budget is not None and now is None:
            raise ValueError("a time budget needs a clock function (now)")
        if depth is None and budget is None and max_nodes is None:
            depth = 4
        self.depth = depth
        self.budget = budget
        self.now = now
        self.max_nodes = max_nodes
        self.rng = rng
        self.nodes = 0
        self.reached_depth = 0
        self._deadline = 0.0
        self._tt: dict[Pos, tuple[int, int, int, RawMove | None]] = {}

    def choose(self, state: OnitamaState) -> PlayerAction:
        if state.current_player() < 0:
            raise ValueError("no player is to move in this state")
        pos = _pos(state)
        moves = _moves(pos)
        if not moves:
            return _no_move_action(state, self.rng)
        for move in moves:
            if _is_win(pos, move):
                return _to_action(move)
        if self.rng is not None:
            moves = self.rng.shuffled(moves)
        self.nodes = 0
        self._tt = {}
        if self.budget is not None and self.now is not None:
            self._deadline = self.now() + self.budget
        best = moves[0]
        limit = self.depth if self.depth is not None else 64
        self.reached_depth = 0
        for depth in range(1, limit + 1):
            try:
                score, move = self._root(pos, moves, depth)
            except _OutOfTime:
                break
            best = move
            self.reached_depth = depth
            # Put the best move first for the next iteration.
            moves.remove(move)
            moves.insert(0, move)
            if abs(score) >= WIN - 100:
                break  # a forced win or loss is found; deeper search cannot change it
        return _to_action(best)

    def _check_budget(self) -> None:
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise _OutOfTime
        if self.budget is not None and self.now is not None and self.now() >= self._deadline:
            raise _OutOfTime

    def _root(self, pos: Pos, moves: list[RawMove], depth: int) -> tuple[int, RawMove]:
        alpha, beta = -WIN * 2, WIN * 2
        best_move = moves[0]
        for move in moves:
            score = -self._search(_child(pos, move), depth - 1, -beta, -alpha, 1)
            if score > alpha:
                alpha, best_move = score, move
        return alpha, best_move

    def _search(self, pos: Pos, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes & 1023 == 0:
            self._check_budget()
        if _can_win(pos):
            return WIN - ply - 1
        if depth <= 0:
            return evaluate(pos)
        entry = self._tt.get(pos)
        tt_move: RawMove | None = None
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_flag == 0:
                    return e_value
                if e_flag < 0 and e_value <= alpha:
                    return e_value
                if e_flag > 0 and e_value >= beta:
                    return e_value
        moves = _moves(pos)
        if not moves:
            # Blocked: treat the stalemate swap / pass as a null move (cards unchanged).
            own, opp, own_m, opp_m, c0, c1, o0, o1, spare, side = pos
            return -self._search(
                (opp, own, opp_m, own_m, o0, o1, c0, c1, spare, 1 - side),
                depth - 1,
                -beta,
                -alpha,
                ply + 1,
            )
        opp_bits = pos[1]
        # Captures first, then the rest; the TT move before everything.
        moves.sort(key=lambda m: not (opp_bits >> m[3]) & 1)
        if tt_move is not None and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        original_alpha = alpha
        best = -WIN * 2
        best_move: RawMove | None = None
        for move in moves:
            score = -self._search(_child(pos, move), depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        flag = 0
        if best <= original_alpha:
            flag = -1
        elif best >= beta:
            flag = 1
        self._tt[pos] = (depth, best, flag, best_move)
        return best


def make_strategy(
    name: str,
    seed: int = 0,
    *,
    depth: int | None = None,
    budget: float | None = None,
    now: Callable[[], float] | None = None,
    level: str | None = None,
) -> Strategy:
    """A bot by name (``random``, ``greedy``, ``alphabeta``, ``engine``); raises
    ``ValueError``. ``engine`` plays at ``level`` (default ``strongest``); ``depth`` and
    ``budget`` override the level's."""
    rng = SeededRng(seed)
    key = name.strip().lower().replace("-", "")
    if key == "random":
        return RandomBot(rng)
    if key == "greedy":
        return GreedyBot(rng)
    if key in ("alphabeta", "ab"):
        return AlphaBetaBot(depth=depth, budget=budget, now=now, rng=rng)
    if key == "engine":
        # Imported here: numba loads in about a second, and only the engine needs it.
        from herna.games.onitama.engine import EngineBot

        return EngineBot(level or DEFAULT_LEVEL, budget=budget, max_depth=depth, rng=rng)
    raise ValueError(f"unknown strategy {name!r}; one of {', '.join(STRATEGIES)}")


# The engine's level names too (from :mod:`.levels`): option parsers take them from here.
__all__ = [
    "CENTER",
    "DISTANCE",
    "LEVEL_NAMES",
    "REVERSE",
    "STRATEGIES",
    "WIN",
    "AlphaBetaBot",
    "GreedyBot",
    "Pos",
    "RandomBot",
    "RawMove",
    "Strategy",
    "evaluate",
    "make_strategy",
]

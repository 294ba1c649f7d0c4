"""The engine bot: the compiled search of :mod:`.engine_core` behind Herna's bot interface.

The rules engine (:class:`~herna.games.onitama.state.OnitamaState`) stays the referee: the
bot reads a state, searches, and answers with an action from ``state.legal_actions()``. When
the player to move has no move, the bot answers under the state's own rule, exactly as the
referee expects: a :class:`Pass` (official rule) or a :class:`Stalemate` (seed 003).

Levels for people (``LEVELS``, defined in :mod:`.levels`) trade strength for speed and a
little randomness.

The first call compiles the core (or loads it from numba's on-disk cache); :func:`warm_up`
does that at start-up so no timed move pays for it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from herna.core.rng import SeededRng
from herna.games.onitama import engine_core as core
from herna.games.onitama.cards import CARD_NAMES
from herna.games.onitama.levels import DEFAULT_LEVEL, LEVEL_NAMES, LEVELS
from herna.games.onitama.state import Move, OnitamaState, Pass, PlayerAction, Stalemate

DEADLINE = 0.95
"""Searches stop at this share of the budget (the rest is slack for the answer)."""
START_LIMIT = 0.75
"""No new iteration starts after this share of the budget."""


class Searcher:
    """The per-bot search memory: transposition table, killers, history, scratch buffers."""

    def __init__(self, tt_bits: int = 19) -> None:
        self.tt = np.zeros((1 << tt_bits, 4), dtype=np.int64)
        self.killers = np.zeros((core.MAX_PLY, 2), dtype=np.int64)
        self.history = np.zeros((2, 25, 25), dtype=np.int64)
        self.moves = np.zeros((core.MAX_PLY, core.MAX_MOVES), dtype=np.int64)
        self.order = np.zeros((core.MAX_PLY, core.MAX_MOVES), dtype=np.int64)
        self.stats = np.zeros(core.STATS_SIZE, dtype=np.int64)

    def think(
        self,
        state: OnitamaState,
        *,
        budget: float,
        max_depth: int = 64,
        max_nodes: int = 0,
        params: np.ndarray | None = None,
    ) -> int:
        """The best move code for the player to move, or -1 when there is none: iterative
        deepening within ``budget`` seconds (and ``max_nodes`` nodes if > 0). ``depth``,
        ``nodes`` and ``score`` tell what the deepest finished iteration found."""
        start = time.perf_counter()
        deadline = start + budget * DEADLINE  # slack for the answer and a busy machine
        pos = mover_view(state)
        rule = core.RULE_PASS if state.rule == "pass" else core.RULE_STALEMATE
        weights = core.DEFAULT_PARAMS if params is None else params
        stats = self.stats
        stats[:] = 0
        n = int(core.generate(pos[0], pos[1], pos[4], pos[5], pos[9], self.moves[0], False))
        if n == 0:
            return -1
        arch = int(core.TEMPLE[1 - pos[9]])
        for code in map(int, self.moves[0, :n]):
            # The search scores a won position without a move: take the win here.
            to = code & 31
            if to == pos[3] or ((code >> 5) & 31 == pos[2] and to == arch):
                stats[core.S_SCORE] = core.WIN
                return code
        best = int(self.moves[0, 0])
        h = core.zobrist(*pos)
        self.killers[:, :] = 0
        self.history //= 8  # keep a little of what the last move taught
        score = reached = nodes = 0
        for depth in range(1, max_depth + 1):
            stats[core.S_STOP] = 0
            stats[core.S_NODES] = 0
            stats[core.S_BEST] = -1
            stats[core.S_FIRST] = -1
            value = int(
                core.search(
                    *pos, h, depth, -core.INF, core.INF, 0, 0, rule, weights, self.tt,
                    self.killers, self.history, self.moves, self.order, stats, deadline,
                )
            )  # fmt: skip
            nodes += int(stats[core.S_NODES])
            if stats[core.S_STOP]:
                # An unfinished iteration still counts when it searched the previous best
                # move first: any move that replaced it beat it in a full-window search.
                replaced = int(stats[core.S_BEST])
                if depth > 1 and stats[core.S_FIRST] == best and replaced not in (-1, best):
                    best, score = replaced, int(stats[core.S_SCORE])
                break
            best, score, reached = int(stats[core.S_BEST]), value, depth
            if abs(value) > core.WIN - 1000:
                break  # a forced result: deeper search cannot change it
            if max_nodes and nodes >= max_nodes:
                break
            # The next iteration costs several times this one: one that could not even
            # search its first move would only waste the time.
            if time.perf_counter() - start > budget * START_LIMIT:
                break
        stats[core.S_NODES] = nodes
        stats[core.S_SCORE] = score
        stats[core.S_DEPTH] = reached
        return best

    @property
    def depth(self) -> int:
        return int(self.stats[core.S_DEPTH])

    @property
    def nodes(self) -> int:
        return int(self.stats[core.S_NODES])

    @property
    def score(self) -> int:
        return int(self.stats[core.S_SCORE])


def mover_view(state: OnitamaState) -> tuple[int, int, int, int, int, int, int, int, int, int]:
    """The position as the compiled core takes it (:meth:`OnitamaState.mover_view`)."""
    return state.mover_view()


def decode(code: int) -> Move:
    return Move(CARD_NAMES[code >> 10], (code >> 5) & 31, code & 31)


def encode(move: Move) -> int:
    return (CARD_NAMES.index(move.card) << 10) | (move.frm << 5) | move.to


def core_moves(state: OnitamaState) -> list[Move]:
    """The compiled move generator's moves for the player to move (for cross-checks)."""
    pos = mover_view(state)
    buf = np.zeros(core.MAX_MOVES, dtype=np.int64)
    n = int(core.generate(pos[0], pos[1], pos[4], pos[5], pos[9], buf, False))
    return [decode(int(code)) for code in buf[:n]]


def core_perft(state: OnitamaState, depth: int) -> int:
    """Perft by the compiled core, same counting rules as :func:`..perft.perft`."""
    if depth == 0 or state.is_terminal():
        return 1
    moves = np.zeros((depth + 2, core.MAX_MOVES), dtype=np.int64)
    return int(core.perft(*mover_view(state), depth, moves, 0))


_warm = False


def warm_up() -> float:
    """Compile (or load from numba's cache) the core once; the seconds it took."""
    global _warm
    start = time.perf_counter()
    if not _warm:
        state = OnitamaState.setup(["Tiger", "Crab"], ["Ox", "Boar"], "Eel")
        Searcher(tt_bits=12).think(state, budget=1.0, max_depth=6)
        core_perft(state, 2)
        _warm = True
    return time.perf_counter() - start


class EngineBot:
    """The compiled engine as a Herna bot.

    ``budget`` seconds per move (default that of ``level``), ``max_depth`` a depth cap,
    ``blunder`` the chance of playing a random move that does not lose at once instead of
    the best one, ``rng`` for those choices. ``last_think`` holds the seconds of the last
    search; ``depth``/``nodes`` what it reached.
    """

    name = "engine"

    def __init__(
        self,
        level: str = DEFAULT_LEVEL,
        *,
        budget: float | None = None,
        max_depth: int | None = None,
        rng: SeededRng | None = None,
        params: np.ndarray | None = None,
        tt_bits: int = 19,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; one of {', '.join(LEVEL_NAMES)}")
        spec = LEVELS[level]
        self.level = level
        self.name = f"engine-{level}"
        self.budget = spec.budget if budget is None else budget
        self.max_depth = spec.max_depth if max_depth is None else max_depth
        self.blunder = spec.blunder
        self.rng = rng or SeededRng(0)
        self.params = params
        self.searcher = Searcher(tt_bits)
        self.last_think = 0.0
        warm_up()

    @property
    def depth(self) -> int:
        return self.searcher.depth

    @property
    def nodes(self) -> int:
        return self.searcher.nodes

    def choose(self, state: OnitamaState) -> PlayerAction:
        if state.current_player() < 0:
            raise ValueError("no player is to move in this state")
        start = time.perf_counter()
        try:
            return self._choose(state)
        finally:
            self.last_think = time.perf_counter() - start

    def _choose(self, state: OnitamaState) -> PlayerAction:
        moves = state.legal_moves()
        if not moves:
            return self._no_move(state)
        if self.blunder and self.rng.random() < self.blunder:
            guess = self._guess(state, moves)
            if guess is not None:
                return guess
        code = self.searcher.think(
            state, budget=self.budget, max_depth=self.max_depth, params=self.params
        )
        move = decode(code)
        if move not in moves:  # cannot happen unless the core and the referee disagree
            raise RuntimeError(f"engine chose an illegal move {move} in {state!r}")
        return move

    def _guess(self, state: OnitamaState, moves: list[Move]) -> Move | None:
        """A random move that neither misses a win nor hands the opponent one."""
        safe = []
        for move in moves:
            child = state.apply(move)
            if child.is_terminal():
                return move
            pos = mover_view(child)
            if not core.can_win(pos[0], pos[2], pos[3], pos[4], pos[5], pos[9]):
                safe.append(move)
        return self.rng.choice(safe) if safe else None

    def _no_move(self, state: OnitamaState) -> PlayerAction:
        """No move: the referee's own options (pass or stalemate swap), the better one by a
        short search of what follows (each draw weighed equally for a stalemate swap)."""
        actions = state.legal_actions()
        best: PlayerAction | None = None
        best_value = -float("inf")
        probe = Searcher(tt_bits=12)
        for action in actions:
            assert isinstance(action, Pass | Stalemate)
            child = state.apply(action)
            if isinstance(action, Stalemate):
                children = [child.apply(draw) for draw, _p in child.chance_outcomes()]
            else:
                children = [child]
            total = 0.0
            for grandchild in children:
                if grandchild.is_terminal():
                    total -= core.WIN
                    continue
                probe.think(grandchild, budget=self.budget / 8, max_depth=3)
                total -= probe.score
            value = total / len(children)
            if value > best_value:
                best, best_value = action, value
        assert best is not None
        return best


def make_engine_bot(
    level: str = DEFAULT_LEVEL,
    seed: int = 0,
    *,
    budget: float | None = None,
    now: Callable[[], float] | None = None,
) -> EngineBot:
    """An :class:`EngineBot`; ``now`` is accepted for symmetry with the other bots (the core
    keeps time itself)."""
    del now
    return EngineBot(level, budget=budget, rng=SeededRng(seed))


# The levels too: the engine's callers (the strength bench, the tests) take them from here.
__all__ = [
    "DEADLINE",
    "DEFAULT_LEVEL",
    "LEVELS",
    "LEVEL_NAMES",
    "START_LIMIT",
    "EngineBot",
    "Searcher",
    "core_moves",
    "core_perft",
    "decode",
    "encode",
    "make_engine_bot",
    "mover_view",
    "warm_up",
]

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herna.core.rng import SeededRng
from herna.games.onitama.bots import (
    AlphaBetaBot,
    GreedyBot,
    RandomBot,
    Strategy,
    make_strategy,
)
from herna.games.onitama.cards import BLACK, WHITE
from herna.games.onitama.state import Move, OnitamaState, Stalemate
from tests.onitama.helpers import blocked_state, dealt, play_out


def match_series(opponent: str, games: int, depth: int = 3) -> tuple[int, int]:
    """Alpha-beta against ``opponent``, alternating colours; (alpha-beta wins, games)."""
    wins = 0
    for game in range(games):
        ab = AlphaBetaBot(depth=depth, rng=SeededRng(game))
        other = make_strategy(opponent, seed=10_000 + game)
        if game % 2 == 0:
            final = play_out(ab, other, seed=game)
            wins += final.winner == WHITE
        else:
            final = play_out(other, ab, seed=game)
            wins += final.winner == BLACK
    return wins, games


def test_alphabeta_beats_random_in_at_least_99_percent_of_200_games() -> None:
    wins, games = match_series("random", 200)
    assert wins / games >= 0.99, f"{wins}/{games}"


def test_alphabeta_beats_greedy_in_at_least_80_percent_of_200_games() -> None:
    wins, games = match_series("greedy", 200)
    assert wins / games >= 0.80, f"{wins}/{games}"


def test_greedy_beats_random_mostly() -> None:
    wins = 0
    for game in range(60):
        greedy, rnd = GreedyBot(SeededRng(game)), RandomBot(SeededRng(game + 1))
        if game % 2 == 0:
            wins += play_out(greedy, rnd, game).winner == WHITE
        else:
            wins += play_out(rnd, greedy, game).winner == BLACK
    assert wins >= 45


def test_alphabeta_takes_a_win_and_blocks_a_threat() -> None:
    # White master on c3 can capture Black's master on c5 with Tiger.
    win = OnitamaState.setup(
        ["Tiger", "Crab"], ["Ox", "Boar"], "Eel", board="..B.........W.......ww.w."
    )
    for bot in (AlphaBetaBot(depth=1), GreedyBot()):
        assert bot.choose(win) == Move("Tiger", 12, 22)
    # Black threatens Tiger c5 -> c3 onto White's master: White must not stay there.
    threat = OnitamaState.setup(
        ["Ox", "Crab"], ["Tiger", "Boar"], "Eel", board="..B.........W.......w...w"
    )
    move = AlphaBetaBot(depth=2).choose(threat)
    after = threat.apply(move)
    assert not any(after.apply(m).winner == BLACK for m in after.legal_moves())


def test_time_budget_with_an_injected_clock() -> None:
    ticks = itertools.count()
    bot = AlphaBetaBot(budget=0.01, now=lambda: next(ticks) * 0.001)
    state = dealt(7)
    move = bot.choose(state)
    assert move in state.legal_moves()
    assert bot.reached_depth >= 1
    with pytest.raises(ValueError):
        AlphaBetaBot(budget=1.0)
    nodes = AlphaBetaBot(max_nodes=2000)
    assert nodes.choose(state) in state.legal_moves()
    assert nodes.nodes <= 2100


@pytest.mark.parametrize("name", ["random", "greedy", "alphabeta"])
def test_blocked_bots_ask_for_a_stalemate_swap(name: str) -> None:
    state = blocked_state()
    action = make_strategy(name, depth=2).choose(state)
    assert isinstance(action, Stalemate) and action.card in state.hand(WHITE)


def test_unknown_strategy() -> None:
    with pytest.raises(ValueError):
        make_strategy("oracle")


@settings(deadline=None, max_examples=25)
@given(st.integers(0, 2**32), st.sampled_from(["random", "greedy", "alphabeta"]))
def test_bots_only_choose_legal_actions(seed: int, name: str) -> None:
    rng = SeededRng(seed)
    state = dealt(seed)
    bot: Strategy = make_strategy(name, seed=seed, depth=2)
    for _ in range(rng.randint(0, 20)):
        if state.is_terminal():
            return
        state = state.apply(rng.choice(state.legal_actions()))
        if state.current_player() < 0:
            return
    if state.is_terminal():
        return
    assert bot.choose(state) in state.legal_actions()


def test_seeded_bots_are_deterministic() -> None:
    a = play_out(AlphaBetaBot(depth=2, rng=SeededRng(1)), GreedyBot(SeededRng(2)), seed=3)
    b = play_out(AlphaBetaBot(depth=2, rng=SeededRng(1)), GreedyBot(SeededRng(2)), seed=3)
    assert a == b and a.last == b.last

"""The compiled engine core against the rules engine (the referee), and the engine bot."""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herna.core.rng import SeededRng
from herna.games.onitama import engine_core as core
from herna.games.onitama.board import parse_square
from herna.games.onitama.bots import AlphaBetaBot, RandomBot
from herna.games.onitama.cards import BLACK, WHITE
from herna.games.onitama.engine import (
    LEVEL_NAMES,
    EngineBot,
    core_moves,
    core_perft,
    mover_view,
    warm_up,
)
from herna.games.onitama.notation import parse_position
from herna.games.onitama.perft import perft
from herna.games.onitama.state import Move, OnitamaState, Pass, Stalemate
from tests.onitama.helpers import blocked_state, dealt, play_out
from tests.onitama.test_notation_perft import PUBLISHED


def random_position(seed: int, plies: int) -> OnitamaState:
    """A position after up to ``plies`` random moves (stops before the game ends)."""
    rng = SeededRng(seed)
    state = dealt(seed, rule="pass")
    bot = RandomBot(rng)
    for _ in range(plies):
        action = bot.choose(state)
        child = state.apply(action)
        if child.is_terminal():
            break
        state = child
    return state


def referee_wins_now(state: OnitamaState) -> bool:
    return any(state.apply(m).is_terminal() for m in state.legal_moves())


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 40))
def test_move_generation_equals_the_referees_legal_moves(seed: int, plies: int) -> None:
    state = random_position(seed, plies)
    assert sorted(map(str, core_moves(state))) == sorted(map(str, state.legal_moves()))
    own, _opp, own_m, opp_m, c0, c1, _o0, _o1, _spare, side = mover_view(state)
    assert core.can_win(own, own_m, opp_m, c0, c1, side) == referee_wins_now(state)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 30), st.integers(1, 3))
def test_perft_equals_the_referees_perft(seed: int, plies: int, depth: int) -> None:
    state = random_position(seed, plies)
    assert core_perft(state, depth) == perft(state, depth)


@pytest.mark.parametrize(("mine", "theirs", "spare", "counts"), PUBLISHED)
def test_perft_matches_the_published_figures(
    mine: tuple[str, str], theirs: tuple[str, str], spare: str, counts: list[int]
) -> None:
    state = OnitamaState.setup(list(mine), list(theirs), spare)
    for depth, expected in enumerate(counts[:6], start=1):
        assert core_perft(state, depth) == expected, depth


def test_perft_with_a_blocked_side_counts_the_two_passes() -> None:
    state = blocked_state("pass")
    assert core_moves(state) == []
    for depth in (1, 2, 3):
        assert core_perft(state, depth) == perft(state, depth)


# -- forced wins ------------------------------------------------------------------------------
def forced_win_in_three(state: OnitamaState, move: Move) -> bool:
    """Referee brute force: after ``move`` every reply leaves the mover a winning move."""
    child = state.apply(move)
    if child.is_terminal():
        return True
    replies = child.legal_moves()
    return bool(replies) and all(
        not child.apply(r).is_terminal() and referee_wins_now(child.apply(r)) for r in replies
    )


# Found by a brute-force scan of random games and checked by forced_win_in_three below.
MATES_IN_TWO = [
    ("bbb.......w..Bw.W....w... Frog,Ox,Rooster,Boar,Crab black", {"Boar d3d2"}),
    ("..B.b...wbbb....w..w.wW.. Cobra,Tiger,Crane,Eel,Frog black", {"Crane b3b2", "Eel a3b2"}),
    (".b..b.b...B.w.b...w..Ww.w Mantis,Ox,Rabbit,Goose,Horse white", {"Mantis b1a2"}),
    ("B....b.....b..W.b..w...w. Monkey,Crane,Cobra,Boar,Mantis white", {"Monkey e3d4"}),
]


@pytest.mark.parametrize(("text", "winning"), MATES_IN_TWO)
def test_engine_finds_a_forced_win_in_two_moves(text: str, winning: set[str]) -> None:
    state = parse_position(text)
    assert not referee_wins_now(state)
    assert {str(m) for m in state.legal_moves() if forced_win_in_three(state, m)} == winning
    bot = EngineBot("strongest", budget=0.5)
    assert str(bot.choose(state)) in winning
    assert bot.searcher.score >= core.WIN - 10


def test_engine_takes_the_master_and_walks_into_the_arch() -> None:
    # Stone: White's student on c3 takes Black's master on c5 with Tiger.
    stone = OnitamaState.setup(
        ["Tiger", "Crab"], ["Ox", "Boar"], "Eel", board="..B" + "." * 9 + "w" + "." * 7 + "W...."
    )
    # Stream: White's master on c4 steps onto Black's arch c5 (Crab or Horse).
    stream = OnitamaState.setup(
        ["Crab", "Horse"], ["Ox", "Boar"], "Eel", board="B......W" + "." * 15 + "w."
    )
    for state, reason in ((stone, "way of the stone"), (stream, "way of the stream")):
        child = state.apply(EngineBot("strongest").choose(state))
        assert (child.winner, child.reason) == (WHITE, reason)


def test_engine_parries_a_threat_on_its_master() -> None:
    # Black's student on c3 takes White's master on c1 with Tiger next move unless it steps
    # aside (c2 is no refuge: Black's Ox reaches it).
    state = OnitamaState.setup(
        ["Boar", "Crab"], ["Tiger", "Ox"], "Eel", board="B" + "." * 11 + "b" + "." * 7 + "w.W.w"
    )
    careless = Move("Boar", parse_square("a1"), parse_square("a2"))
    assert referee_wins_now(state.apply(careless))
    action = EngineBot("strongest").choose(state)
    assert not referee_wins_now(state.apply(action)), f"{action} leaves the master hanging"


@pytest.mark.parametrize("rule", ["stalemate", "pass"])
def test_engine_answers_a_blocked_position_under_the_referees_rule(rule: str) -> None:
    state = blocked_state(rule)
    action = EngineBot("strongest", budget=0.05).choose(state)
    assert action in state.legal_actions()
    assert isinstance(action, Stalemate if rule == "stalemate" else Pass)


def test_engine_plays_whole_games_under_both_rules_with_legal_moves_only() -> None:
    for seed, rule in ((1, "stalemate"), (2, "pass")):
        state = dealt(seed, rule)
        bot = EngineBot("hard", budget=0.005, rng=SeededRng(seed))
        while not state.is_terminal() and state.ply < 120:
            action = bot.choose(state)
            assert action in state.legal_actions()
            state = state.apply(action)


@pytest.mark.serial
def test_every_level_plays_and_keeps_its_time_budget() -> None:
    warm_up()
    state = dealt(7)
    for level in LEVEL_NAMES:
        bot = EngineBot(level, rng=SeededRng(3))
        start = time.perf_counter()
        bot.choose(state)
        # Generous slack: CI machines are shared; the bench measures the real p99.
        assert time.perf_counter() - start < bot.budget * 3 + 0.05


def test_warm_up_is_paid_once() -> None:
    warm_up()
    assert warm_up() < 0.01


def test_engine_beats_the_old_alphabeta_depth_3() -> None:
    # Small and bounded (about 10 s): 10 games, each deal from both sides, 20 ms per move.
    wins = 0
    games = 0
    for seed in range(5):
        for engine_color in (WHITE, BLACK):
            engine = EngineBot("hard", budget=0.02, rng=SeededRng(seed))
            old = AlphaBetaBot(depth=3, rng=SeededRng(seed + 100))
            bots = (engine, old) if engine_color == WHITE else (old, engine)
            final = play_out(bots[0], bots[1], seed=seed, max_plies=200)
            wins += final.winner == engine_color
            games += 1
    assert wins >= 8, f"engine won {wins} of {games}"


def colour_mirrored(state: OnitamaState) -> OnitamaState:
    """The same position with the colours swapped: the board turned by 180°, each side's
    pawns and cards given to the other, the other side to move."""
    view = state.view(None)
    board = view["board"][::-1].translate(str.maketrans("WwBb", "BbWw"))
    cards = view["cards"]
    return OnitamaState.setup(
        cards["black"], cards["white"], cards["spare"], board=board,
        to_move=1 - state.to_move, rule=state.rule,
    )  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 40))
def test_evaluation_is_colour_symmetric(seed: int, plies: int) -> None:
    # Each side's evaluation of a position is its twin's, seen by the other colour: a term
    # that favoured White (or the side that moves first on the board) would show here.
    state = random_position(seed, plies)
    twin = colour_mirrored(state)
    pos, mirrored = mover_view(state), mover_view(twin)
    params = core.DEFAULT_PARAMS
    score = core.evaluate(*pos[:8], pos[9], params)
    assert score == core.evaluate(*mirrored[:8], mirrored[9], params)
    # And White's view of the two positions are opposite.
    white_view = score if state.to_move == WHITE else -score
    twin_score = core.evaluate(*mirrored[:8], mirrored[9], params)
    twin_white_view = twin_score if twin.to_move == WHITE else -twin_score
    assert white_view == -twin_white_view
    assert sorted(map(str, core_moves(twin))) == sorted(
        str(Move(m.card, 24 - m.frm, 24 - m.to)) for m in state.legal_moves()
    )


def test_strength_bench_plays_an_external_program_over_its_pipe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # bench/onitama_strength.py --external: one process per pairing, Herna's notation both
    # ways, answers checked by the referee. A stand-in program plays the first legal move.
    root = Path(__file__).resolve().parents[2]
    program = tmp_path / "first_move.py"
    program.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(root)!r})\n"
        "from herna.games.onitama.notation import format_action, parse_position\n"
        "for line in sys.stdin:\n"
        "    *position, ms = line.split()\n"
        "    state = parse_position(' '.join(position), rule='pass')\n"
        "    print(format_action(state.legal_actions()[0]), flush=True)\n"
    )
    spec = importlib.util.spec_from_file_location(
        "onitama_strength", root / "bench/onitama_strength.py"
    )
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench  # dataclasses look their module up there
    spec.loader.exec_module(bench)
    side = bench.external("first-move", f"{sys.executable} {program}", 0.01)
    bench.pairing(bench.engine("medium"), side, 1, "pass", 1)
    out = capsys.readouterr().out
    assert "engine medium vs first-move" in out
    assert " 2.0/2 " in out  # the engine wins both games
    assert side.shared.proc.poll() is not None  # the program was told to stop

"""The balance report (herna/games/tiles/balance.py): a file where the first seat always wins
is reported with warnings, a fair coin toss is not; the intervals checked by hand; the counts
of any report add up; the worker pool plays the same games as one process."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herna.games.tiles.balance import (
    ENDING_WORDS,
    GameSummary,
    clopper_pearson,
    histogram,
    play_games,
    summarize,
    wilson,
)
from herna.servers.tiles.balance import BalanceJob, BalancePool, batches
from tests.tiles.helpers import make, player, race, rules_data, tile

ROOT = Path(__file__).resolve().parents[2]


def coin_toss() -> dict[str, Any]:
    """Two players in one corridor; each draws one goal from a pool of two without
    replacement: the tile next to both of them, or one in a corridor nobody can reach. Whoever
    draws the near one wins on their first move, so each seat wins half the games by the
    draw, whoever moves first."""
    tiles = [tile("L0,R0", at=(x, 0)) for x in range(3)]
    tiles += [tile("L0,R0", at=(x, 1)) for x in range(3)]
    players = [player(0, 0, "L", goals=["random 1"]), player(2, 0, "R", goals=["random 1"])]
    return rules_data(
        3, 2, tiles, players, random_goal_pool=["reach 1 0", "reach 1 1"], max_move_distance=1
    )


def test_a_seat_that_always_wins_is_reported_with_a_warning() -> None:
    games = play_games(make(race()), "medium", range(30))
    report = summarize(games, 2, "race", "medium")
    first, second = report.seats
    assert (first.wins, second.wins) == (30, 0)
    assert first.unfair == "more" and second.unfair == "less"
    assert report.fair == 0.5
    assert first.low == pytest.approx(wilson(30, 30)[0]) and first.low > 0.88
    assert report.warnings[0].startswith("Seat 1 wins 100 % of the games")
    assert "more than a fair share of 50 %" in report.warnings[0]
    assert "Seat 2 wins 0 %" in report.warnings[1]
    assert report.endings == {"winner": 30, "shared": 0, "stalled": 0, "limit": 0}
    # the first player reaches the end of its corridor on its third move: turns 1, 3, 5
    assert report.lengths == (5,) * 30
    assert {g.goal: (g.reached, g.had) for g in report.goals} == {
        "reach 3 0": (30, 30),
        "reach 3 1": (0, 30),
    }
    measures = {m.ludii: m.value for m in report.measures}
    assert measures["AdvantageP1"] == 1.0 and measures["Balance"] == 0.0
    assert measures["Decisiveness"] == 1.0 and measures["Completion"] == 1.0
    assert measures["Duration"] == 5.0 and measures["Drawishness"] == 0.0


def test_a_fair_coin_toss_gets_no_warning() -> None:
    games = play_games(make(coin_toss()), "medium", range(200))
    report = summarize(games, 2, "coin", "medium")
    first, second = report.seats
    assert first.wins + second.wins == 200
    assert 80 <= first.wins <= 120  # each seat's goal is a coin toss
    assert first.low < 0.5 < first.high and second.low < 0.5 < second.high
    assert not first.unfair and not second.unfair
    assert report.warnings == ()
    assert {g.goal: g.had for g in report.goals} == {"reach 1 0": 200, "reach 1 1": 200}
    assert sum(g.reached for g in report.goals) == 200


def test_the_round_limit_is_an_ending_of_its_own_with_a_warning() -> None:
    data = race()
    data["players"][0]["goals"] = ["reach 3 1"]  # the other corridor: nobody can win
    data["players"][1]["goals"] = ["reach 3 0"]
    report = summarize(play_games(make(data), "medium", range(4), max_rounds=3), 2)
    assert report.endings["limit"] + report.endings["stalled"] == 4
    assert report.seats[0].wins == report.seats[1].wins == 0
    assert report.warnings == () or "round limit" in report.warnings[-1]


# -- intervals, by hand -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # p = 1/2: centre 0.5, half-width 1.96·√(0.025 + 0.0096)/1.38415 = 0.26341
        (5, 10, 0.23659, 0.76341),
        # k = 0: centre = half-width = (1.96²/20)/(1 + 1.96²/10) = 0.19207/1.38415 = 0.13877
        (0, 10, 0.0, 0.27754),
        (10, 10, 0.72246, 1.0),
        # k = 1, n = 1: centre (1 + 1.92073)/4.84146 = 0.60328, half 1.95996·1.95996/2/4.84146
        (1, 1, 0.20654, 1.0),
    ],
)
def test_wilson_intervals_by_hand(k: int, n: int, low: float, high: float) -> None:
    got = wilson(k, n)
    assert got == pytest.approx((low, high), abs=5e-5)


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # k = 0: the upper bound solves (1 - p)^10 = 0.025: 1 - 0.025^(1/10)
        (0, 10, 0.0, 1 - 0.025 ** (1 / 10)),
        (10, 10, 0.025 ** (1 / 10), 1.0),
        # k = 1, n = 2: 1 - (1 - p)² = 0.025 and p² = 0.025 · … by symmetry
        (1, 2, 1 - 0.975**0.5, 0.975**0.5),
        # k = 1, n = 1: the lower bound solves p = 0.025
        (1, 1, 0.025, 1.0),
        # k = 5, n = 10: published tables give [0.1871, 0.8129]
        (5, 10, 0.18709, 0.81291),
    ],
)
def test_clopper_pearson_intervals_by_hand(k: int, n: int, low: float, high: float) -> None:
    got = clopper_pearson(k, n)
    assert got == pytest.approx((low, high), abs=5e-5)
    assert wilson(k, n)[1] - wilson(k, n)[0] < high - low  # the exact interval is wider


def test_the_exact_interval_is_used_when_asked() -> None:
    games = [GameSummary((0,), "winner", "completed every goal", 3)] * 5
    report = summarize(games, 2, interval="exact")
    assert (report.seats[0].low, report.seats[0].high) == pytest.approx(clopper_pearson(5, 5))


# -- the counts of any report add up ------------------------------------------------------------
@st.composite
def game_lists(draw: st.DrawFn) -> tuple[int, list[GameSummary]]:
    players = draw(st.integers(1, 5))
    seats = st.integers(0, players - 1)
    goals = st.sampled_from(["reach 1 0", "find gem", "collect 2 gold"])
    games = []
    for _ in range(draw(st.integers(0, 60))):
        ending = draw(st.sampled_from(list(ENDING_WORDS)))
        if ending == "winner":
            winners: tuple[int, ...] = (draw(seats),)
        else:
            winners = tuple(sorted(set(draw(st.lists(seats, max_size=players)))))
        reason = {"stalled": "no progress for a full round", "limit": "round limit (9 rounds)"}
        goal_list = draw(st.lists(st.tuples(seats, goals, st.booleans()), max_size=6))
        games.append(
            GameSummary(
                winners,
                ending,
                reason.get(ending, draw(st.sampled_from(["completed every goal", "scores"]))),
                draw(st.integers(1, 400)),
                tuple(goal_list),
            )
        )
    return players, games


@settings(max_examples=40, deadline=None)
@given(game_lists())
def test_the_counts_add_up(case: tuple[int, list[GameSummary]]) -> None:
    players, games = case
    report = summarize(games, players)
    n = len(games)
    assert report.games == n
    assert sum(report.endings.values()) == n
    assert sum(report.reasons.values()) == n
    assert sum(g for _, _, g in report.histogram) == n
    assert sum(s.wins for s in report.seats) == report.endings["winner"]
    assert len(report.seats) == players
    for s in report.seats:
        assert 0 <= s.low <= s.rate <= s.high <= 1
        assert s.wins + s.shared <= n
        assert bool(s.unfair) == (s.low > report.fair or s.high < report.fair)
    assert report.fair * n * players == pytest.approx(report.endings["winner"])
    bins = report.histogram
    assert all(a <= b for a, b, _ in bins)
    assert all(bins[i][1] + 1 == bins[i + 1][0] for i in range(len(bins) - 1))
    if n:
        assert bins[0][0] == min(g.turns for g in games) and bins[-1][1] >= max(
            g.turns for g in games
        )
    assert sum(g.had for g in report.goals) == sum(len(g.goals) for g in games)
    assert all(0 <= g.reached <= g.had for g in report.goals)
    json.dumps(report.to_json())  # the page gets it as JSON


def test_histogram_bins_cover_every_length_once() -> None:
    assert histogram((3, 3, 4, 10), bins=4) == ((3, 4, 3), (5, 6, 0), (7, 8, 0), (9, 10, 1))
    assert histogram(()) == ()


# -- worker processes ---------------------------------------------------------------------------
def test_batches_cover_every_seed_once() -> None:
    for games in (1, 7, 100, 1001):
        for workers in (1, 2, 3):
            seeds = [s for b in batches(games, workers, 5) for s in b]
            assert seeds == list(range(5, 5 + games))


def test_the_pool_plays_the_same_games_as_one_process() -> None:
    data = coin_toss()
    alone = summarize(play_games(make(data), "easy", range(24)), 2, "coin", "easy")
    pool = BalancePool(2)
    seen: list[tuple[int, int]] = []

    async def progress(done: int, total: int) -> None:
        seen.append((done, total))

    try:
        job = BalanceJob(data, players=2, games=24, level="easy", name="coin")
        report = asyncio.run(pool.report_async(job, progress))
    finally:
        pool.close(wait=True)
    assert report == alone
    assert seen[-1] == (24, 24) and [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_herna_rules_balance_in_a_process(tmp_path: Path) -> None:
    path = tmp_path / "race.json"
    path.write_text(json.dumps(race()))
    command = [sys.executable, "-m", "herna.cli", "rules", "balance", str(path), "--games", "12"]
    run = subprocess.run(
        [*command, "--workers", "2", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["games"] == 12 and report["workers"] == 2
    assert [s["wins"] for s in report["seats"]] == [12, 0]
    assert len(report["warnings"]) == 2
    text = subprocess.run(
        [*command, "--quiet"], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert text.returncode == 0, text.stderr
    assert "seat 1:    12 won  100 %" in text.stdout
    assert "Warning: Seat 1 wins 100 % of the games" in text.stdout
    assert "[Ludii: AdvantageP1]" in text.stdout
    assert "Traceback" not in text.stderr
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**race(), "movement_type": "teleport"}))
    refused = subprocess.run(
        [sys.executable, "-m", "herna.cli", "rules", "balance", str(bad)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert refused.returncode == 1
    assert "movement_type" in refused.stderr and "nothing played" in refused.stderr

"""Match statistics (herna/hall/stats.py) against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from herna.hall.stats import Pentanomial, elo_of, logistic, mean_interval, sprt_bounds


def test_sprt_bounds_for_five_percent() -> None:
    low, high = sprt_bounds(0.05, 0.05)
    assert high == pytest.approx(math.log(19)) and high == pytest.approx(2.944, abs=1e-3)
    assert low == pytest.approx(-high)


def test_logistic_and_elo_are_inverse() -> None:
    assert logistic(0) == 0.5
    assert elo_of(0.75) == pytest.approx(190.85, abs=0.01)
    for elo in (-300.0, -20.0, 5.0, 400.0):
        assert elo_of(logistic(elo)) == pytest.approx(elo)
    assert elo_of(1.0) == math.inf and elo_of(0.0) == -math.inf


def test_pentanomial_estimate_by_hand() -> None:
    penta = Pentanomial([1, 2, 3, 2, 2])  # 10 pairs
    est = penta.estimate()
    # x = 0, .25, .5, .75, 1: mean (0 + .5 + 1.5 + 1.5 + 2) / 10 = 0.55
    assert est.score == pytest.approx(0.55)
    var = (0.55**2 + 2 * 0.3**2 + 3 * 0.05**2 + 2 * 0.2**2 + 2 * 0.45**2) / 10
    margin = 1.959964 * math.sqrt(var / 10)
    assert est.score_low == pytest.approx(0.55 - margin, abs=1e-6)
    assert est.score_high == pytest.approx(0.55 + margin, abs=1e-6)
    assert est.elo == pytest.approx(-400 * math.log10(1 / 0.55 - 1))
    assert est.difference == pytest.approx(0.1)
    assert est.difference_margin == pytest.approx(2 * margin, abs=1e-6)


def test_interval_clipped_at_a_full_score_keeps_the_difference_margin() -> None:
    est = Pentanomial([0, 0, 2, 0, 8]).estimate()
    assert est.score == pytest.approx(0.9)
    assert est.score_high == 1.0
    assert est.difference_margin == pytest.approx(2 * (0.9 - est.score_low))


def test_llr_normal_approximation_by_hand() -> None:
    penta = Pentanomial([1, 2, 3, 2, 2])
    var = (0.55**2 + 2 * 0.3**2 + 3 * 0.05**2 + 2 * 0.2**2 + 2 * 0.45**2) / 10
    s0, s1 = 0.5, logistic(10)
    expected = 10 * (s1 - s0) * (2 * 0.55 - s0 - s1) / (2 * var)
    assert penta.llr(0, 10) == pytest.approx(expected)
    # Evidence for the stronger side grows with the number of pairs.
    assert Pentanomial([10, 20, 30, 20, 20]).llr(0, 10) == pytest.approx(10 * expected)


def test_clean_sweep_gives_a_finite_large_llr() -> None:
    penta = Pentanomial()
    for _ in range(10):
        penta.add(2)
    assert penta.counts == [0, 0, 0, 0, 10]
    assert math.isfinite(penta.llr(0, 10)) and penta.llr(0, 10) > 2.95
    assert penta.estimate().elo == math.inf


def test_pair_points_must_be_half_points() -> None:
    with pytest.raises(ValueError):
        Pentanomial().add(0.7)


def test_mean_interval() -> None:
    mean, margin = mean_interval([1.0, 3.0])
    assert mean == 2.0
    assert margin == pytest.approx(1.959964 * math.sqrt(2.0 / 2))

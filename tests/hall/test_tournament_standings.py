"""Standings, tie-breaks and crosstables, checked by hand."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from herna.hall.tournament import (
    Board,
    Game,
    bye_points,
    crosstable,
    fmt_points,
    round_robin,
    standings,
)
from herna.hall.tournament.export import table_csv

# A four-player round robin, results chosen by hand:
#   A-B 1-0, A-C ½-½, A-D 1-0, B-C 1-0, B-D 0-1, C-D 1-0
# Scores: A 2½, B 1, C 1½, D 1.
# Sonneborn–Berger: A = 1·1 + ½·1½ + 1·1 = 2¾; B = 1·1½ = 1½; C = ½·2½ + 1·1 = 2¼; D = 1·1 = 1.
# Buchholz: A = 1 + 1½ + 1 = 3½; B = 2½ + 1½ + 1 = 5; C = 2½ + 1 + 1 = 4½; D = 2½ + 1 + 1½ = 5.
RESULTS = [
    ("A", "B", 1, 0),
    ("A", "C", 1, 1),
    ("A", "D", 1, 0),
    ("B", "C", 1, 0),
    ("D", "B", 1, 0),
    ("C", "D", 1, 0),
]


def _games() -> list[Game]:
    return [
        Game(Board(i + 1, 1, (a, b)), (ra, rb), match_id=100 + i)
        for i, (a, b, ra, rb) in enumerate(RESULTS)
    ]


def test_hand_checked_sonneborn_berger_and_buchholz() -> None:
    rows = standings("ABCD", _games(), ("sonneborn-berger", "buchholz", "wins"))
    by = {r.name: r for r in rows}
    assert {n: r.points for n, r in by.items()} == {
        "A": F(5, 2),
        "B": F(1),
        "C": F(3, 2),
        "D": F(1),
    }
    assert {n: r.tie_breaks["sonneborn-berger"] for n, r in by.items()} == {
        "A": F(11, 4),
        "B": F(3, 2),
        "C": F(9, 4),
        "D": F(1),
    }
    assert {n: r.tie_breaks["buchholz"] for n, r in by.items()} == {
        "A": F(7, 2),
        "B": F(5),
        "C": F(9, 2),
        "D": F(5),
    }
    # B and D are level on points; Sonneborn–Berger puts B (who beat C) ahead.
    assert [r.name for r in rows] == ["A", "C", "B", "D"]
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    assert (by["A"].wins, by["A"].draws, by["A"].losses) == (2, 1, 0)


def test_buchholz_first_orders_differently_and_ties_share_a_rank() -> None:
    rows = standings("ABCD", _games(), ("buchholz",))
    assert [r.name for r in rows] == ["A", "C", "B", "D"]
    assert [r.rank for r in rows] == [1, 2, 3, 3]  # B and D: 1 point, Buchholz 5 each


def test_crosstable_rows_add_up_to_the_points() -> None:
    games = _games()
    rows = standings("ABCD", games, ("sonneborn-berger",))
    table = crosstable(rows, games, F(0))
    assert table.names == ("A", "C", "B", "D")
    assert [c.points for c in table.cells["A", "C"]] == [F(1, 2)]
    assert table.cells["D", "B"][0].white is True and table.cells["D", "B"][0].match_id == 104
    for r in rows:
        assert table.row_total(r.name) == r.points


def test_tables_of_four_score_pairwise() -> None:
    game = Game(Board(1, 1, ("w", "x", "y", "z")), (3, 1, 1, 0))
    assert [game.points(i) for i in range(4)] == [F(1), F(1, 2), F(1, 2), F(0)]
    rows = standings("wxyz", [game], ("sonneborn-berger", "buchholz"))
    by = {r.name: r for r in rows}
    # SB of x: ½ from y (score ½) and 1 from z (score 0), each over 3 opponents = 1/12
    assert by["x"].tie_breaks["sonneborn-berger"] == F(1, 12)
    assert by["w"].tie_breaks["buchholz"] == (F(1, 2) + F(1, 2) + 0) / 3
    assert (by["w"].wins, by["x"].draws, by["z"].losses) == (1, 1, 1)


def test_byes_count_points_but_no_tie_breaks() -> None:
    games = [Game(Board(1, 1, ("a", "b")), (1, 0)), Game(Board(1, 2, ("c",)))]
    rows = standings("abc", games, ("buchholz",), bye_points=F(1))
    by = {r.name: r for r in rows}
    assert by["c"].points == 1 and by["c"].byes == 1 and by["c"].tie_breaks["buchholz"] == 0
    table = crosstable(rows, games, F(1))
    assert table.row_total("c") == 1


@given(st.integers(min_value=2, max_value=9), st.randoms(use_true_random=False))
def test_round_robin_totals(n: int, rng: object) -> None:
    names = [f"p{i}" for i in range(n)]
    games = [
        Game(b, () if b.bye else (rng.randint(0, 2), rng.randint(0, 2)))  # type: ignore[attr-defined]
        for r in round_robin(names)
        for b in r
    ]
    rows = standings(names, games, ("sonneborn-berger", "wins"))
    played = [g for g in games if not g.board.bye]
    assert sum(r.points for r in rows) == len(played)  # one point per game
    table = crosstable(rows, games, F(0))
    for r in rows:
        assert table.row_total(r.name) == r.points
        assert r.games == n - 1


def test_unknown_tie_break() -> None:
    with pytest.raises(ValueError):
        standings("ab", [], ("median",))


def test_fmt_points() -> None:
    assert [fmt_points(F(x, 2)) for x in (0, 1, 2, 3)] == ["0", "½", "1", "1½"]
    # A table of three shares quarters, of four sixths: one format beside "1½", not "2.25".
    assert [fmt_points(F(x, 4)) for x in (1, 3, 9)] == ["¼", "¾", "2¼"]
    assert [fmt_points(F(x, 6)) for x in (1, 2, 5, 13)] == ["⅙", "⅓", "⅚", "2⅙"]
    assert fmt_points(F(3, 10)) == "0.30"  # no fraction sign for tenths


def test_mariáš_tables_are_won_and_lost_by_money() -> None:
    """A player who paid in every deal lost every deal (it used to be "3 drawn": both
    defenders who paid tie each other for last, which the pairwise points call half)."""
    deals = [
        Game(Board(1, 1, ("ann", "bob", "cyd")), (4.0, -2.0, -2.0)),  # ann's game made
        Game(Board(2, 1, ("bob", "cyd", "ann")), (-6.0, 3.0, 3.0)),  # bob's failed
        Game(Board(3, 1, ("cyd", "ann", "bob")), (2.0, -1.0, -1.0)),  # cyd's made
    ]
    rows = {r.name: r for r in standings(["ann", "bob", "cyd"], deals, ("wins",))}
    assert (rows["bob"].wins, rows["bob"].draws, rows["bob"].losses) == (0, 0, 3)
    assert (rows["ann"].wins, rows["ann"].draws, rows["ann"].losses) == (2, 0, 1)
    assert (rows["cyd"].wins, rows["cyd"].draws, rows["cyd"].losses) == (2, 0, 1)
    # A tiles table (ranks are places, not money): a tie for last between first and last.
    tiles = Game(Board(1, 1, ("ann", "bob", "cyd")), (2.0, 1.0, 1.0))
    assert [tiles.result(i) for i in range(3)] == ["won", "drawn", "drawn"]


def test_csv_export_never_carries_a_spreadsheet_formula() -> None:
    games = [Game(Board(1, 1, ("=HYPERLINK(1)", "@x")), (1, 0))]
    rows = standings(["=HYPERLINK(1)", "@x"], games, ("sonneborn-berger",))
    text = table_csv(rows, ("sonneborn-berger",))
    names = [line.split(",")[1] for line in text.splitlines()[1:]]
    assert names == ["'=HYPERLINK(1)", "'@x"]


def test_a_swiss_bye_at_tables_is_worth_a_mean_seat() -> None:
    assert bye_points("swiss") == 1
    assert bye_points("swiss", table_size=4) == F(1, 2)
    assert bye_points("round-robin", table_size=4) == 0

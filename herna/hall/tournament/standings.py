"""Standings, tie-breaks and the crosstable of a tournament, from its finished games alone.

Tie-breaks (named on every standings table):

* **Buchholz**: the sum, over one's games, of the opponents' final scores (at a table of more
  than two, the mean of the other seats' scores counts for the game).
* **Sonneborn–Berger**: the sum, over one's games and opponents, of what one took from that
  opponent (1, 1/2 or 0, divided by the number of opponents at the table) times the
  opponent's final score: beating strong players counts more than beating weak ones.
* **Wins**: games won (a sole first place; at mariáš tables, a game that took money: see
  :meth:`Game.result <herna.hall.tournament.model.Game.result>`).

Byes count their points (:func:`bye_points` of the format) but nothing in Buchholz or
Sonneborn–Berger: there was no opponent. Forfeited games count like games played out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .model import DRAWN, LOST, WON, Game

TIE_BREAK_NAMES = {
    "buchholz": "Buchholz",
    "sonneborn-berger": "Sonneborn–Berger",
    "wins": "Wins",
}
FORMAT_TIE_BREAKS: Mapping[str, tuple[str, ...]] = {
    # Round robin: everyone met everyone, so Buchholz ties nobody apart; SB does.
    "round-robin": ("sonneborn-berger", "wins"),
    "swiss": ("buchholz", "sonneborn-berger"),
    "arena": ("sonneborn-berger", "buchholz"),
    "session": (),
}
BYE_POINTS: Mapping[str, Fraction] = {
    # In a round robin everyone has the same number of byes: a bye worth 0 changes nothing.
    "round-robin": Fraction(0),
    # Swiss: a bye is a win (FIDE's pairing-allocated bye).
    "swiss": Fraction(1),
    "arena": Fraction(0),
    "session": Fraction(0),
}


def bye_points(format: str, table_size: int = 2) -> Fraction:
    """What sitting out a round is worth. At tables of more than two a Swiss bye is worth
    the mean score of a seat (1/2), not a win: a table's winner is one of several."""
    points = BYE_POINTS[format]
    return min(points, Fraction(1, 2)) if table_size > 2 else points


@dataclass(frozen=True)
class Row:
    rank: int
    """Shared by entrants equal on points and every tie-break."""
    name: str
    points: Fraction
    games: int
    wins: int
    draws: int
    losses: int
    byes: int
    tie_breaks: dict[str, Fraction] = field(default_factory=dict)


@dataclass(frozen=True)
class Cell:
    """One game between two entrants as the crosstable shows it (row entrant's view)."""

    round: int
    points: Fraction
    """What the row entrant took from the column entrant in this game."""
    match_id: int | None
    white: bool | None
    """Two-player games: the row entrant had seat 0; ``None`` at bigger tables."""


@dataclass(frozen=True)
class Crosstable:
    names: tuple[str, ...]
    """In standings order."""
    cells: dict[tuple[str, str], tuple[Cell, ...]]
    bye_points: dict[str, Fraction]
    totals: dict[str, Fraction]

    def row_total(self, name: str) -> Fraction:
        """The sum of a row's cells plus its byes: equals the entrant's points."""
        cells = (c.points for other in self.names for c in self.cells.get((name, other), ()))
        return sum(cells, Fraction(0)) + self.bye_points.get(name, Fraction(0))


def scores(
    entrants: Sequence[str], games: Sequence[Game], bye_points: Fraction
) -> dict[str, Fraction]:
    out = {name: Fraction(0) for name in entrants}
    for game in games:
        if game.board.bye:
            name = game.seats[0]
            out[name] = out.get(name, Fraction(0)) + bye_points
            continue
        for i, name in enumerate(game.seats):
            out[name] = out.get(name, Fraction(0)) + game.points(i)
    return out


def standings(
    entrants: Sequence[str],
    games: Sequence[Game],
    tie_breaks: Sequence[str] = ("buchholz", "sonneborn-berger"),
    bye_points: Fraction = Fraction(0),
) -> list[Row]:
    """Everyone's points, results and tie-breaks, best first; ties broken by ``tie_breaks``
    in order, then shared (equal rank), listed by name."""
    for tb in tie_breaks:
        if tb not in TIE_BREAK_NAMES:
            raise ValueError(f"unknown tie-break {tb!r}")
    total = scores(entrants, games, bye_points)
    names = list(dict.fromkeys([*entrants, *total]))
    buchholz = dict.fromkeys(names, Fraction(0))
    sb = dict.fromkeys(names, Fraction(0))
    counts = {name: [0, 0, 0, 0, 0] for name in names}  # games, wins, draws, losses, byes
    for game in games:
        if game.board.bye:
            counts[game.seats[0]][4] += 1
            continue
        seats = game.seats
        others = len(seats) - 1
        for i, name in enumerate(seats):
            c = counts[name]
            c[0] += 1
            c[(WON, DRAWN, LOST).index(game.result(i)) + 1] += 1
            for j, other in enumerate(seats):
                if j == i:
                    continue
                buchholz[name] += total[other] / others
                sb[name] += game.pairwise(i, j) / others * total[other]
    values = {"buchholz": buchholz, "sonneborn-berger": sb}

    def tb_value(tb: str, name: str) -> Fraction:
        return Fraction(counts[name][1]) if tb == "wins" else values[tb][name]

    def key(name: str) -> tuple[Fraction, ...]:
        return (total[name], *(tb_value(tb, name) for tb in tie_breaks))

    ordered = sorted(names, key=lambda n: (tuple(-v for v in key(n)), n))
    rows: list[Row] = []
    for i, name in enumerate(ordered):
        rank = rows[-1].rank if rows and key(rows[-1].name) == key(name) else i + 1
        g, w, d, lo, b = counts[name]
        rows.append(
            Row(
                rank,
                name,
                total[name],
                g,
                w,
                d,
                lo,
                b,
                {tb: tb_value(tb, name) for tb in tie_breaks},
            )
        )
    return rows


def crosstable(rows: Sequence[Row], games: Sequence[Game], bye_points: Fraction) -> Crosstable:
    """Every game between each two entrants, rows and columns in standings order."""
    names = tuple(r.name for r in rows)
    cells: dict[tuple[str, str], list[Cell]] = {}
    byes: dict[str, Fraction] = {}
    for game in sorted(games, key=lambda g: (g.board.round, g.board.number)):
        seats = game.seats
        if game.board.bye:
            byes[seats[0]] = byes.get(seats[0], Fraction(0)) + bye_points
            continue
        others = len(seats) - 1
        for i, a in enumerate(seats):
            for j, b in enumerate(seats):
                if i == j:
                    continue
                white = (i == 0) if len(seats) == 2 else None
                cell = Cell(game.board.round, game.pairwise(i, j) / others, game.match_id, white)
                cells.setdefault((a, b), []).append(cell)
    return Crosstable(
        names,
        {k: tuple(v) for k, v in cells.items()},
        byes,
        {r.name: r.points for r in rows},
    )


_VULGAR = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
    Fraction(1, 6): "⅙",
    Fraction(5, 6): "⅚",
    Fraction(1, 8): "⅛",
    Fraction(3, 8): "⅜",
    Fraction(5, 8): "⅝",
    Fraction(7, 8): "⅞",
}


def fmt_points(value: Fraction) -> str:
    """How points are printed, one way everywhere: ``2``, ``1½``, ``2¼`` (a table of three
    shares quarters), ``⅙`` (a table of four, sixths), and two decimals only where no
    fraction sign exists (tables of six and more)."""
    whole, part = divmod(value, 1)
    if part == 0:
        return str(int(whole))
    if part in _VULGAR:
        return ("" if whole == 0 else str(int(whole))) + _VULGAR[part]
    return f"{float(value):.2f}"

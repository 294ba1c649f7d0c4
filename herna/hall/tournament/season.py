"""A season (or class) table: the standings of several tournaments chosen by the organiser,
summed. Pure: it takes each tournament's standings rows and returns the season's.

The rule, named wherever the table is shown: **points summed** over the tournaments; ties
by **games won** over them, then by the **best place** reached in any one of them; entrants
still equal share the place. An entrant who missed a tournament scores nothing in it (the
table shows a dash, not a 0, so missing and losing differ).

**House bots** are rows of their own tournament, named with it ("random (house bot of #3)"):
a house bot of one tournament is not the one of another (another game, another level, or a
pupil whose program happens to be called ``random``), so their points are never summed with
anyone's.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from .export import _cell, _num
from .standings import Row, fmt_points

SEASON_RULE = (
    "Ranked by the points summed over the tournaments; ties by games won, then by the best "
    "place in any one of them; still equal: a shared place. A dash: not entered. A house "
    "bot is a row of its own tournament."
)


@dataclass(frozen=True)
class Part:
    """One tournament of the season: its id, name and final standings."""

    id: int
    name: str
    rows: Sequence[Row]
    house: frozenset[str] = frozenset()
    """The entrants that are house bots (a row of their own, named with this tournament)."""

    def key(self, name: str) -> str:
        """Whose row ``name``'s results go to: a house bot's own, else the name's."""
        return f"{name} (house bot of #{self.id})" if name in self.house else name.casefold()


@dataclass(frozen=True)
class SeasonRow:
    rank: int
    name: str
    points: Fraction
    by_part: tuple[Fraction | None, ...]
    """Points in each tournament, in the season's order (``None``: not entered)."""
    places: tuple[int | None, ...]
    played: int
    """Tournaments entered."""
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def best(self) -> int | None:
        return min((p for p in self.places if p is not None), default=None)


def season_table(parts: Sequence[Part]) -> list[SeasonRow]:
    names: dict[str, str] = {}  # by key (Part.key): the first spelling seen
    for part in parts:
        for row in part.rows:
            key = part.key(row.name)
            names.setdefault(key, key if row.name in part.house else row.name)
    found: list[SeasonRow] = []
    for key, name in names.items():
        mine = [next((r for r in p.rows if p.key(r.name) == key), None) for p in parts]
        rows = [r for r in mine if r is not None]
        found.append(
            SeasonRow(
                0,
                name,
                sum((r.points for r in rows), Fraction(0)),
                tuple(r.points if r is not None else None for r in mine),
                tuple(r.rank if r is not None else None for r in mine),
                len(rows),
                sum(r.games for r in rows),
                sum(r.wins for r in rows),
                sum(r.draws for r in rows),
                sum(r.losses for r in rows),
            )
        )

    def order(r: SeasonRow) -> tuple[Fraction, int, int]:
        return (-r.points, -r.wins, r.best or 10**9)

    found.sort(key=lambda r: (order(r), r.name.casefold()))
    ranked: list[SeasonRow] = []
    for i, r in enumerate(found):
        same = ranked and order(ranked[-1]) == order(r)
        rank = ranked[-1].rank if same else i + 1
        ranked.append(replace(r, rank=rank))
    return ranked


def part_title(part: Part) -> str:
    return f"#{part.id} {part.name}"


def season_csv(parts: Sequence[Part], rows: Sequence[SeasonRow]) -> str:
    """rank, name, points, the points in each tournament (empty: not entered), then the
    tournaments entered, games and results."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    heads = [_cell(part_title(p)) for p in parts]
    writer.writerow(
        ["rank", "name", "points", *heads, "tournaments", "games", "wins", "draws", "losses"]
    )
    for r in rows:
        cells = ["" if v is None else _num(v) for v in r.by_part]
        counts = [r.played, r.games, r.wins, r.draws, r.losses]
        writer.writerow([r.rank, _cell(r.name), _num(r.points), *cells, *counts])
    return out.getvalue()


def cell_text(value: Fraction | None) -> str:
    return "–" if value is None else fmt_points(value)

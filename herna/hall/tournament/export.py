"""The final table of a tournament as CSV and JSON (the web hall's exports and
``herna tournament show --csv/--json``)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from .model import Game
from .standings import TIE_BREAK_NAMES, Crosstable, Row


def _num(value: Fraction) -> float | int:
    return int(value) if value.denominator == 1 else float(value)


def _cell(text: str) -> str:
    # A cell starting with = + - @ is a formula to spreadsheets (as in herna.hall.export):
    # entrants' names may come from anyone who registers one.
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def table_csv(rows: Sequence[Row], tie_breaks: Sequence[str]) -> str:
    """One line per entrant: rank, name, points, the tie-breaks (by their names), results."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    names = [TIE_BREAK_NAMES[t] for t in tie_breaks]
    writer.writerow(["rank", "name", "points", *names, "games", "wins", "draws", "losses", "byes"])
    for r in rows:
        breaks = [_num(r.tie_breaks[t]) for t in tie_breaks]
        counts = [r.games, r.wins, r.draws, r.losses, r.byes]
        writer.writerow([r.rank, _cell(r.name), _num(r.points), *breaks, *counts])
    return out.getvalue()


def table_json(
    rows: Sequence[Row], tie_breaks: Sequence[str], table: Crosstable, games: Sequence[Game]
) -> dict[str, Any]:
    """Standings (points as numbers; tie-breaks under their names), crosstable and games."""
    return {
        "tie_breaks": [{"key": t, "name": TIE_BREAK_NAMES[t]} for t in tie_breaks],
        "standings": [
            {
                "rank": r.rank,
                "name": r.name,
                "points": _num(r.points),
                "tie_breaks": {t: _num(r.tie_breaks[t]) for t in tie_breaks},
                "games": r.games,
                "wins": r.wins,
                "draws": r.draws,
                "losses": r.losses,
                "byes": r.byes,
            }
            for r in rows
        ],
        "crosstable": {
            a: {
                b: [
                    {"round": c.round, "points": _num(c.points), "match_id": c.match_id}
                    for c in table.cells.get((a, b), ())
                ]
                for b in table.names
                if b != a
            }
            for a in table.names
        },
        "games": [
            {
                "round": g.board.round,
                "board": g.board.number,
                "seats": list(g.seats),
                "points": [_num(g.points(i)) for i in range(len(g.seats))]
                if not g.board.bye
                else [],
                "bye": g.board.bye,
                "forfeit": g.forfeit,
                "match_id": g.match_id,
            }
            for g in games
        ],
    }

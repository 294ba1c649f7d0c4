"""Exports of recorded games: a player's results as CSV (``herna replay --player NAME --csv``,
``/api/players/<name>/results.csv``).

One row per match the player took part in, newest first, with the columns of
:data:`CSV_COLUMNS` (documented in docs/web.md). ``result`` is the match's result in words,
``opponents`` the other players' names joined by ``;``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from herna.hall.records import StoredMatch
from herna.hall.replays import match_summary

CSV_COLUMNS = (
    "match_id", "game", "table", "finished_at", "status", "seat", "player", "score",
    "winner", "opponents", "result",
)  # fmt: skip


def _cell(text: str) -> str:
    # A cell starting with = + - @ is a formula to spreadsheets: names are chosen by players.
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def results_csv(matches: Sequence[StoredMatch], name: str) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for m in matches:
        me = next((p for p in m.players if p.name == name), None)
        if me is None:
            continue
        others = ";".join(p.name for p in m.players if p is not me)
        writer.writerow(
            [
                m.id,
                m.game,
                _cell(m.table_id),
                m.finished_at.isoformat(),
                m.status,
                me.seat,
                _cell(me.name),
                f"{me.score:g}",
                "yes" if me.winner else "no",
                _cell(others),
                _cell(match_summary(m)),
            ]
        )
    return out.getvalue()

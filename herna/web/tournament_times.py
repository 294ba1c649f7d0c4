"""A live tournament's times on its page: the scheduled start with a countdown, and the
timetable of its rounds (when each started and ended, when the next one starts after its
pause). The data is what :mod:`herna.hall.tournament_timetable` keeps in the settings.

Times are written in UTC and marked ``<time class="local">``: ``static/tournament.js`` shows
them in the reader's own time and counts ``.countdown`` elements down every second.
"""

from __future__ import annotations

import html
from datetime import datetime
from typing import Any

from herna.hall.tournament_store import Tournament
from herna.hall.tournament_timetable import duration_words, read_time

e = html.escape


def local_time(when: datetime) -> str:
    stamp = when.isoformat()
    return (
        f'<time class="local" datetime="{e(stamp)}">'
        f"{e(when.strftime('%Y-%m-%d %H:%M:%S'))} UTC</time>"
    )


def countdown(when: datetime) -> str:
    return f'<span class="countdown" data-until="{e(when.isoformat())}"></span>'


def times_html(tour: Tournament) -> str:
    """The start time (while taking entrants) and the timetable of a round-based live
    tournament; empty for the others."""
    settings = tour.settings
    options: dict[str, Any] = settings.get("options") or {}
    if not settings.get("live") or tour.format in ("arena", "session"):
        return _start_html(tour, options)
    return _start_html(tour, options) + _timetable_html(tour, options)


def _start_html(tour: Tournament, options: dict[str, Any]) -> str:
    start = read_time(options.get("starts_at"))
    if tour.status != "entry" or start is None:
        return ""
    note = tour.settings.get("start_note")
    return (
        f'<p id="starts-at" class="starts-at">Starts by itself at {local_time(start)} '
        f"{countdown(start)}; entries are open until then.</p>"
        + (f'<p class="error" id="start-note">{e(str(note))}.</p>' if note else "")
    )


def _timetable_html(tour: Tournament, options: dict[str, Any]) -> str:
    settings = tour.settings
    pause = float(options.get("pause") or 0)
    table: dict[str, Any] = settings.get("timetable") or {}
    count = settings.get("round_count")
    known = [int(k) for k in table]
    numbers = range(1, max([int(count or 0), *known, 0]) + 1)
    after = f" and a pause of {duration_words(pause)}" if pause else ""
    rule = (
        f"Each round starts {duration_words(pause)} after every game of the round before has ended."
        if pause
        else "Each round starts as soon as every game of the round before has ended."
    )
    if not numbers:
        return f'<h2>Timetable</h2><p class="muted" id="timetable">{e(rule)}</p>'
    due = settings.get("next_round") or {}
    rows = []
    for n in numbers:
        kept = table.get(str(n)) or {}
        started, ended = read_time(kept.get("started")), read_time(kept.get("ended"))
        if started is not None:
            starts = local_time(started)
        elif due.get("round") == n and (at := read_time(due.get("at"))) is not None:
            starts = f"{local_time(at)} {countdown(at)}"
        elif n == 1:
            starts = "at the start"
        else:
            starts = e(f"after round {n - 1}{after}")
        ends = local_time(ended) if ended is not None else ("playing" if started else "")
        rows.append(
            f'<tr><td data-label="round">{n}</td><td data-label="starts">{starts}</td>'
            f'<td data-label="ends">{ends}</td></tr>'
        )
    return (
        f'<h2>Timetable</h2><p class="muted">{e(rule)}</p>'
        '<div class="scroll"><table class="grid" id="timetable"><thead><tr><th>round</th>'
        f"<th>starts</th><th>ends</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )

"""A live tournament's times on its page: the scheduled start with a countdown, and the
timetable of its rounds (when each started and ended, when the next one starts after its
pause). The data is what :mod:`herna.hall.tournament_timetable` keeps in the settings; the
tournament page's template (``tournament.html``) writes it.

Times are written in UTC and marked ``<time class="local">``: ``static/tournament.js`` shows
them in the reader's own time and counts ``.countdown`` elements down every second.
"""

from __future__ import annotations

from typing import Any

from herna.hall.tournament_store import Tournament
from herna.hall.tournament_timetable import duration_words, read_time
from herna.web.i18n import gettext as _


def times_view(tour: Tournament) -> dict[str, Any]:
    """``start`` (while taking entrants, if a start is scheduled) and ``timetable`` (a
    round-based live tournament's), each None when there is none."""
    settings = tour.settings
    options: dict[str, Any] = settings.get("options") or {}
    timetable = None
    if settings.get("live") and tour.format not in ("arena", "session"):
        timetable = _timetable(tour, options)
    return {"start": _start(tour, options), "timetable": timetable}


def _start(tour: Tournament, options: dict[str, Any]) -> dict[str, Any] | None:
    start = read_time(options.get("starts_at"))
    if tour.status != "entry" or start is None:
        return None
    note = tour.settings.get("start_note")
    return {"at": start, "note": str(note) if note else ""}


def _timetable(tour: Tournament, options: dict[str, Any]) -> dict[str, Any]:
    settings = tour.settings
    pause = float(options.get("pause") or 0)
    table: dict[str, Any] = settings.get("timetable") or {}
    count = settings.get("round_count")
    known = [int(k) for k in table]
    numbers = range(1, max([int(count or 0), *known, 0]) + 1)
    rule = (
        _("Each round starts %(pause)s after every game of the round before has ended.")
        % {"pause": duration_words(pause)}
        if pause
        else _("Each round starts as soon as every game of the round before has ended.")
    )
    due = settings.get("next_round") or {}
    rows = []
    for n in numbers:
        kept = table.get(str(n)) or {}
        at = read_time(due.get("at")) if due.get("round") == n else None
        rows.append(
            {
                "n": n,
                "started": read_time(kept.get("started")),
                "ended": read_time(kept.get("ended")),
                "due": at,
            }
        )
    return {"rule": rule, "rows": rows, "pause": duration_words(pause) if pause else ""}

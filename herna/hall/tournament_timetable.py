"""A live tournament's times: a **scheduled start** (it takes entrants until then and starts
by itself) and a **timetable** of rounds with a pause between them.

Everything is kept in the tournament's settings, so a restart of ``herna serve`` finds it
again (:mod:`herna.hall.tournament_live` takes the tournament up) and the web hall of any
process can show it:

* ``options.starts_at``: when it starts, ISO 8601 in UTC; ``options.pause``: seconds between
  the end of a round and the start of the next;
* ``timetable``: per round number (a string key, as JSON has them) the boards it was
  played with and when it started and ended;
* ``next_round``: the round waiting out its pause and when it starts.
"""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from herna.hall.tournament import Board
from herna.hall.tournament_runner import RoundHooks
from herna.hall.tournament_store import TournamentStore

_DURATION = re.compile(r"^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?:in)?)?(?:(\d+(?:\.\d+)?)s)?$")
MAX_PAUSE = 3600.0


class TimeError(ValueError):
    """A start time or a pause that cannot be read (the message says why, in words)."""


def parse_duration(text: str) -> float:
    """Seconds in ``2m``, ``90s``, ``1m30s``, ``1h`` or a plain number of seconds.

    >>> parse_duration("2m"), parse_duration("1m30s"), parse_duration("45")
    (120.0, 90.0, 45.0)
    """
    words = text.strip().lower().replace(" ", "")
    if not words:
        return 0.0
    try:
        return float(words)
    except ValueError:
        pass
    found = _DURATION.match(words)
    if found is None or not any(found.groups()):
        raise TimeError(f"{text!r} is not a length of time (e.g. 2m, 90s, 1m30s)")
    hours, minutes, seconds = (float(g) if g else 0.0 for g in found.groups())
    return hours * 3600 + minutes * 60 + seconds


def parse_start(text: str, offset_minutes: int | None = None) -> datetime:
    """The moment in ``text`` (ISO 8601, e.g. ``2026-12-01T14:00``), in UTC. A time without
    an offset is the organiser's local time: the browser's (``offset_minutes``, as
    JavaScript's ``getTimezoneOffset`` gives it: UTC minus local) or else this machine's."""
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise TimeError(f"{text!r} is not a date and time (e.g. 2026-12-01T14:00)") from None
    if when.tzinfo is None:
        if offset_minutes is not None:
            when = when.replace(tzinfo=timezone(timedelta(minutes=-offset_minutes)))
        else:
            when = when.astimezone()  # this machine's local time
    return when.astimezone(UTC)


def iso(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="seconds")


def read_time(value: Any) -> datetime | None:
    """A time kept in the settings (``None``: none, or not one)."""
    if not isinstance(value, str):
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def now() -> datetime:
    return datetime.now(UTC)


async def sleep_until(when: datetime) -> None:
    """Sleep until the wall-clock moment ``when`` (a timetable is kept in wall-clock time, so a
    restart counts the time the hall was down)."""
    while (left := (when - now()).total_seconds()) > 0:
        await asyncio.sleep(min(left, 30.0))


class Timetable(RoundHooks):
    """Keeps a live tournament's rounds in its settings and waits out the pause before each
    round after the first. Taken up after a restart it goes on from what it kept: a round
    that had started is not waited for again, and a pause counts from the end of the round
    before."""

    def __init__(self, store: TournamentStore, tid: int, pause: float, kept: Any = None) -> None:
        self.store = store
        self.tid = tid
        self.pause = pause
        self.rounds: dict[str, dict[str, Any]] = {
            str(k): dict(v) for k, v in (kept or {}).items() if isinstance(v, dict)
        }

    def _save(self, **more: Any) -> None:
        self.store.update_settings(self.tid, timetable=self.rounds, **more)

    async def before(self, number: int) -> None:
        if number == 1 or self.pause <= 0 or "started" in self.rounds.get(str(number), {}):
            return
        ended = read_time(self.rounds.get(str(number - 1), {}).get("ended")) or now()
        due = ended + timedelta(seconds=self.pause)
        self.store.update_settings(self.tid, next_round={"round": number, "at": iso(due)})
        await sleep_until(due)

    def started(self, number: int, boards: list[Board]) -> None:
        entry = self.rounds.setdefault(str(number), {})
        entry.setdefault("started", iso(now()))
        entry["boards"] = [list(b.seats) for b in boards]
        self._save(next_round=None)

    def ended(self, number: int) -> None:
        self.rounds.setdefault(str(number), {})["ended"] = iso(now())
        self._save()


def duration_words(seconds: float) -> str:
    """>>> duration_words(120), duration_words(90), duration_words(45)
    ('2 min', '1 min 30 s', '45 s')"""
    minutes, rest = divmod(round(seconds), 60)
    if minutes and rest:
        return f"{minutes} min {rest} s"
    return f"{minutes} min" if minutes else f"{rest} s"

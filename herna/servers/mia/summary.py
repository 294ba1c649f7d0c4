"""Mia's log is a summary, not a line per round.

With one outside bot at the table Mia plays hundreds of rounds a second; a line for each
buried everything else in the log (30,000 lines a minute measured with
``bench/log_volume.py``). Instead the table counts the rounds of the same set of players and
writes one INFO line when that set changes or once a period (default a minute) has passed:
rounds, canceled rounds, points won per player in that stretch and the running totals. Each
round still has a DEBUG line for whoever needs it.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable

from herna.servers.gamelog import words_for_seconds

DEFAULT_SUMMARY_SECONDS = 60.0


class RoundSummary:
    def __init__(self, log: logging.Logger, every: float = DEFAULT_SUMMARY_SECONDS) -> None:
        self.log = log
        self.every = every
        self.players: tuple[str, ...] = ()
        self.rounds = 0
        self.canceled = 0
        self.points: Counter[str] = Counter()
        self.losses: Counter[str] = Counter()
        self.first_round = 0
        self.last_round = 0
        self.since = 0.0

    def played(
        self, now: float, number: int, players: Iterable[str], losers: Iterable[str]
    ) -> None:
        names = tuple(sorted(players))
        lost = set(losers)
        self._same_table(now, number, names)
        self.rounds += 1
        for name in names:
            if name in lost:
                self.losses[name] += 1
            else:
                self.points[name] += 1
        self._maybe_flush(now)

    def canceled_round(self, now: float, number: int, players: Iterable[str]) -> None:
        names = tuple(sorted(players))
        # A canceled round (nobody or one player joined) does not start a new stretch: the
        # set of players who joined is not the table's, and counting it keeps lines few.
        if not self.rounds and not self.canceled:
            self._same_table(now, number, names)
        self.canceled += 1
        self.last_round = number
        self._maybe_flush(now)

    def tick(self, now: float) -> None:
        """Called on every heartbeat: a quiet table still gets its line once a period."""
        self._maybe_flush(now)

    def _same_table(self, now: float, number: int, names: tuple[str, ...]) -> None:
        if names != self.players and (self.rounds or self.canceled):
            self.flush(now)
        if not self.rounds and not self.canceled:
            self.players = names
            self.first_round = number
            self.since = now
        self.last_round = number

    def _maybe_flush(self, now: float) -> None:
        if (self.rounds or self.canceled) and now - self.since >= self.every:
            self.flush(now)

    def flush(self, now: float) -> None:
        """Write the line for the stretch so far (if any round was in it) and start anew."""
        if not self.rounds and not self.canceled:
            return
        seconds = max(0.0, now - self.since)
        ranked = sorted(self.players, key=lambda n: (-self.points[n], n))
        points = ", ".join(f"{n} +{self.points[n]}" for n in ranked)
        canceled = f", {self.canceled} canceled" if self.canceled else ""
        rounds = "round" if self.rounds == 1 else "rounds"
        self.log.info(
            "mia rounds %d-%d: %d %s%s in %s by %s; points %s",
            self.first_round,
            self.last_round,
            self.rounds,
            rounds,
            canceled,
            words_for_seconds(seconds),
            ", ".join(self.players) or "nobody",
            points or "none",
            extra={
                "fields": {
                    "event": "mia_summary",
                    "game": "mia",
                    "first_round": self.first_round,
                    "last_round": self.last_round,
                    "rounds": self.rounds,
                    "canceled": self.canceled,
                    "players": list(self.players),
                    "points": {n: self.points[n] for n in ranked},
                    "losses": {n: self.losses[n] for n in ranked},
                    "seconds": round(seconds, 3),
                }
            },
        )
        self.rounds = self.canceled = 0
        self.points.clear()
        self.losses.clear()

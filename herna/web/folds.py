"""Live table state for the web hall: fold a table's GameEvents into the spectator view that
the browser renderer draws.

Turn-based games (mariáš, Onitama, tiles) put the spectator view in every event's
``data["view"]``, so :class:`LastViewFold` just keeps the newest one. Mia's events carry small
fields instead (see docs/protocols/mia.md, "Spectator events"); :class:`MiaFold` folds them
into a view: the current round, the last finished round, the score table and a
points-per-minute chart.

A fold only ever sees what was published on the bus, so it can never reveal hidden
information; it must not invent any either. Adding a game whose events lack a ``view`` means
writing one fold class here and listing it in :data:`FOLDS`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from herna.hall.events import GameEvent


class TableFold(Protocol):
    """The live state of one table as seen by spectators."""

    def apply(self, event: GameEvent) -> None:
        """Take one event into account (called for every event, in order)."""
        ...

    def view(self) -> dict[str, Any] | None:
        """The spectator view to draw now (JSON-ready), or None if nothing to draw yet."""
        ...


class LastViewFold:
    """For games whose events carry ``data["view"]``: the newest view wins."""

    def __init__(self) -> None:
        self._view: dict[str, Any] | None = None

    def apply(self, event: GameEvent) -> None:
        view = event.data.get("view")
        if isinstance(view, dict):
            self._view = view

    def view(self) -> dict[str, Any] | None:
        return self._view


MAX_TURNS = 200
"""Turns kept per Mia round (a round is normally a handful; the bound guards the memory)."""

CHART_WINDOW = 60.0
"""Points per minute are measured over this many seconds."""

CHART_SPAN = 600.0
"""The chart shows this many seconds of history."""

CHART_STEP = 5.0
"""One chart point every this many seconds (at most ``CHART_SPAN / CHART_STEP`` points)."""

HISTORY_ROUNDS = 100
"""Finished rounds whose scores the "points over rounds" chart shows (the newest)."""
RATE_WINDOW = 10.0
"""Rounds per second are measured over this many seconds."""


def _round_summary(
    number: Any, players: list[str] | None = None, started: float | None = None
) -> dict[str, Any]:
    return {
        "round": number,
        "players": list(players or []),
        "turns": [],
        "actual_dice": None,
        "losers": [],
        "reason": None,
        "status": "playing",
        "started": started,
    }


class MiaFold:
    """Folds Mia spectator events into a view.

    The view (all JSON-ready)::

        {"kind": "mia-live",
         "round": {round, players, turns: [{name, action, dice?}], actual_dice, losers,
                   reason, status: "playing" | "lost" | "over" | "canceled"},
         "last_round": same shape or None (the newest finished round),
         "players": [{name, spectator}],      # registered now
         "scores": {name: points},
         "rates": {name: points per minute},  # over the last CHART_WINDOW seconds
         "chart": {"window": s, "start": t0, "series": {name: [[t, ppm], ...]}},
         "history": [[round, {name: points}], ...],  # after each of the newest rounds
         "stats": {name: {"rounds": played, "lost": n, "reasons": {REASON: n}}},
         "rounds": finished rounds seen, "rounds_per_s": float, "updated": ts}

    ``history`` and ``stats`` count the rounds this fold saw end (since the web hall started
    watching), for the watch page's points-over-rounds chart and its scoreboard.
    """

    def __init__(self) -> None:
        self.current: dict[str, Any] | None = None
        self.last_round: dict[str, Any] | None = None
        self.registered: dict[str, bool] = {}
        self.scores: dict[str, float] = {}
        self.rounds = 0
        self.updated = 0.0
        self._finished_at: deque[float] = deque()  # finish times within RATE_WINDOW
        # (ts, scores) sampled at most every CHART_STEP seconds, CHART_SPAN + window kept.
        self._samples: deque[tuple[float, dict[str, float]]] = deque(
            maxlen=int((CHART_SPAN + CHART_WINDOW) / CHART_STEP) + 2
        )
        self._latest: tuple[float, dict[str, float]] | None = None
        self._chart_cache: tuple[int, dict[str, Any]] | None = None
        self._sample_no = 0
        self.history: deque[tuple[Any, dict[str, float]]] = deque(maxlen=HISTORY_ROUNDS)
        self.stats: dict[str, dict[str, Any]] = {}

    # -- folding ----------------------------------------------------------------------------
    def _round(self, data: dict[str, Any], ts: float) -> dict[str, Any]:
        number = data.get("round")
        if self.current is None or (number is not None and self.current["round"] != number):
            self._finish()
            self.current = _round_summary(number, started=ts)
        return self.current

    def _finish(self) -> None:
        if self.current is not None and self.current["status"] != "playing":
            self.last_round = self.current
        self.current = None

    def apply(self, event: GameEvent) -> None:
        data, kind, ts = event.data, event.kind, event.ts
        self.updated = ts
        if kind == "player_registered":
            self.registered[str(data.get("name"))] = bool(data.get("spectator", False))
        elif kind == "player_unregistered":
            self.registered.pop(str(data.get("name")), None)
        elif kind == "game_started":
            if self.current is not None and self.current["status"] != "playing":
                self.last_round = self.current
            players = [str(p) for p in data.get("players", [])]
            self.current = _round_summary(data.get("round"), players, ts)
        elif kind in ("player_rolls", "announced", "wants_to_see"):
            rnd = self._round(data, ts)
            if len(rnd["turns"]) < MAX_TURNS:
                turn: dict[str, Any] = {"name": data.get("name"), "action": kind}
                if kind == "announced":
                    turn["dice"] = data.get("dice")
                rnd["turns"].append(turn)
        elif kind == "actual_dice":
            self._round(data, ts)["actual_dice"] = data.get("dice")
        elif kind == "player_lost":
            rnd = self._round(data, ts)
            rnd["losers"] = list(data.get("names", []))
            rnd["reason"] = data.get("reason")
            rnd["status"] = "lost"
        elif kind == "round_canceled":
            rnd = self._round(data, ts)
            rnd["status"] = "canceled"
            rnd["reason"] = data.get("reason")
            self._round_done(ts)
        elif kind == "game_over":
            rnd = self._round(data, ts)
            rnd["status"] = "over"
            if data.get("losers") is not None:
                rnd["losers"] = list(data.get("losers", []))
            if data.get("reason") is not None:
                rnd["reason"] = data.get("reason")
            if isinstance(data.get("scores"), dict):
                self._scores(data["scores"], ts)
            self._round_done(ts)
        elif kind == "score" and isinstance(data.get("scores"), dict):
            self._scores(data["scores"], ts)

    def _round_done(self, ts: float) -> None:
        rnd = self.current
        if rnd is not None and rnd["status"] == "over":
            self._count(rnd)
        self.rounds += 1
        finished = self._finished_at
        finished.append(ts)
        while ts - finished[0] > RATE_WINDOW:
            finished.popleft()
        self.last_round = self.current

    def _count(self, rnd: dict[str, Any]) -> None:
        """A round was played to its end: who played it, who lost and why."""
        losers = set(rnd.get("losers") or ())
        reason = str(rnd.get("reason") or "unknown")
        for name in rnd.get("players") or sorted(losers):
            entry = self.stats.setdefault(name, {"rounds": 0, "lost": 0, "reasons": {}})
            entry["rounds"] += 1
            if name in losers:
                entry["lost"] += 1
                entry["reasons"][reason] = entry["reasons"].get(reason, 0) + 1
        self.history.append((rnd.get("round"), dict(self.scores)))

    def _scores(self, scores: dict[str, Any], ts: float) -> None:
        self.scores = {str(k): float(v) for k, v in scores.items()}
        self._latest = (ts, dict(self.scores))
        if not self._samples or ts - self._samples[-1][0] >= CHART_STEP:
            self._samples.append(self._latest)
            self._sample_no += 1

    # -- viewing ----------------------------------------------------------------------------
    def _rates(self, t: float, now: dict[str, float], upto: int) -> dict[str, float]:
        """Points per minute at time ``t`` with totals ``now``, against the oldest sample
        among ``self._samples[:upto]`` no more than CHART_WINDOW seconds older."""
        first = None
        for k in range(upto - 1, -1, -1):
            if t - self._samples[k][0] > CHART_WINDOW + 1e-9:
                break
            first = k
        if first is None:
            return {}
        t0, then = self._samples[first]
        minutes = (t - t0) / 60.0
        if minutes <= 0:
            return {}
        return {name: (pts - then.get(name, pts)) / minutes for name, pts in now.items()}

    def _chart(self) -> dict[str, Any]:
        if self._chart_cache is not None and self._chart_cache[0] == self._sample_no:
            return self._chart_cache[1]
        series: dict[str, list[list[float]]] = {}
        start = None
        if self._samples:
            newest = self._samples[-1][0]
            for i in range(len(self._samples)):
                t = self._samples[i][0]
                if newest - t > CHART_SPAN:
                    continue
                rates = self._rates(t, self._samples[i][1], i)
                if not rates:
                    continue
                start = t if start is None else start
                for name, rate in rates.items():
                    series.setdefault(name, []).append([round(t, 3), round(rate, 3)])
        chart = {"window": CHART_WINDOW, "start": start, "series": series}
        self._chart_cache = (self._sample_no, chart)
        return chart

    def _rounds_per_s(self) -> float:
        finished = self._finished_at
        if len(finished) < 2:
            return 0.0
        span = finished[-1] - finished[0]
        return (len(finished) - 1) / span if span > 0 else 0.0

    def view(self) -> dict[str, Any] | None:
        rates = {}
        if self._latest is not None:
            t, now = self._latest
            rates = self._rates(t, now, len(self._samples))
        return {
            "kind": "mia-live",
            "round": self.current,
            "last_round": self.last_round,
            "players": [{"name": n, "spectator": s} for n, s in sorted(self.registered.items())],
            "scores": dict(self.scores),
            "rates": {n: round(r, 3) for n, r in rates.items()},
            "chart": self._chart(),
            "history": [[r, dict(pts)] for r, pts in self.history],
            "stats": {
                n: {"rounds": e["rounds"], "lost": e["lost"], "reasons": dict(e["reasons"])}
                for n, e in self.stats.items()
            },
            "rounds": self.rounds,
            "rounds_per_s": round(self._rounds_per_s(), 2),
            "updated": self.updated,
        }


FOLDS: dict[str, Callable[[], TableFold]] = {
    "mia": MiaFold,
}
"""Games whose events do not carry a ``view``; every other game gets :class:`LastViewFold`."""


def fold_for(game: str) -> TableFold:
    return FOLDS.get(game, LastViewFold)()

"""The model behind ``herna watch mia``: a spectator's scoreboard with points per minute."""

from __future__ import annotations

from dataclasses import dataclass, field

from herna.protocols.mia import (
    Announced,
    PlayerLost,
    RoundCanceled,
    RoundStarted,
    Score,
    ServerMessage,
)


@dataclass
class _Rate:
    first_time: float
    first_points: int
    points: int


@dataclass
class Scoreboard:
    """Folds spectator messages into a table; ``now`` comes from the caller's clock."""

    rates: dict[str, _Rate] = field(default_factory=dict)
    rounds_seen: int = 0
    canceled: int = 0
    current_round: int = 0
    current_players: tuple[str, ...] = ()
    last_announcements: list[str] = field(default_factory=list)
    last_result: str = ""

    def update(self, msg: ServerMessage, now: float) -> None:
        if isinstance(msg, Score):
            for name, points in msg.scores.items():
                rate = self.rates.get(name)
                if rate is None:
                    self.rates[name] = _Rate(now, points, points)
                else:
                    rate.points = points
        elif isinstance(msg, RoundStarted):
            self.current_round = msg.number
            self.current_players = msg.players
            self.last_announcements = []
        elif isinstance(msg, Announced):
            self.last_announcements.append(f"{msg.name} {msg.dice}")
        elif isinstance(msg, PlayerLost):
            self.rounds_seen += 1
            self.last_result = f"{', '.join(msg.names)} lost ({msg.reason})"
        elif isinstance(msg, RoundCanceled):
            self.canceled += 1
            self.last_result = f"round canceled ({msg.reason})"

    def rows(self, now: float) -> list[tuple[str, int, float]]:
        """(name, points, points per minute since first seen), best first."""
        out = []
        for name, rate in self.rates.items():
            minutes = (now - rate.first_time) / 60.0
            ppm = (rate.points - rate.first_points) / minutes if minutes > 0 else 0.0
            out.append((name, rate.points, ppm))
        out.sort(key=lambda r: (-r[1], r[0]))
        return out

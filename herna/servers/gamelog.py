"""The operator's record of play: one INFO line per finished game, deal or match.

Every server says the same things in the same order — game, table, players, the result in
words, how long it took — so ``grep 'deal '`` or a log shipper's filter on ``game`` works for
all of them. The facts also travel as ``fields`` (see :mod:`herna.cli.logs`), which the JSON
log format puts at the top level of each object.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any


def duration(started: datetime, finished: datetime) -> float:
    return max(0.0, (finished - started).total_seconds())


def words_for_seconds(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``1 h 02 min``: short and unambiguous in a log line."""
    s = round(seconds)
    if s < 60:
        return f"{seconds:.1f} s" if seconds < 10 else f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def game_finished(
    log: logging.Logger,
    game: str,
    table: str,
    players: Sequence[str],
    result: str,
    seconds: float,
    level: int = logging.INFO,
    **fields: Any,
) -> None:
    """Log ``<game> <table>: <result> (<players>; <duration>)`` with the facts as fields."""
    if not log.isEnabledFor(level):
        return  # a busy server ends hundreds of games a second: no words nobody reads
    log.log(
        level,
        "%s %s: %s (%s; %s)",
        game,
        table,
        result,
        ", ".join(players),
        words_for_seconds(seconds),
        extra={
            "fields": {
                "event": "game_over",
                "game": game,
                "table": table,
                "players": list(players),
                "result": result,
                "seconds": round(seconds, 3),
                **fields,
            }
        },
    )


REFUSALS_PER_MINUTE = 10
"""WARNING lines one peer address may cause a minute: a client that sends garbage in a loop
must not flood the log (or the disk under it); the rest are counted in the next line."""

_budget: dict[str, tuple[float, int, int]] = {}  # "game host" -> (start, lines, suppressed)


def reset_refusal_budget() -> None:
    """Forget every peer's count (for tests that assert on refusal lines)."""
    _budget.clear()


def _allowed(host: str, now: float) -> tuple[bool, int]:
    """(log this one?, refusals suppressed before it)."""
    start, lines, suppressed = _budget.get(host, (now, 0, 0))
    if now - start >= 60.0:
        start, lines = now, 0
    if lines >= REFUSALS_PER_MINUTE:
        _budget[host] = (start, lines, suppressed + 1)
        return False, 0
    if len(_budget) > 10_000:  # spoofed UDP sources must not grow it without bound
        _budget.clear()
    _budget[host] = (start, lines + 1, 0)
    return True, suppressed


def refused(log: logging.Logger, game: str, who: str, peer: str, code: str, reason: str) -> None:
    """A refusal (bad name, wrong token, malformed input) at WARNING with the client's name:
    what an operator looks for when a player says "it does not let me in". At most
    :data:`REFUSALS_PER_MINUTE` lines a minute per peer host."""
    host = peer.rsplit(":", 1)[0] if ":" in peer else peer
    ok, suppressed = _allowed(f"{game} {host}", time.monotonic())
    if not ok:
        return
    more = f" [{suppressed} more from {host} not logged]" if suppressed else ""
    log.warning(
        "%s: %s refused from %s: %s (%s)%s",
        game,
        who or "-",
        peer,
        code,
        reason,
        more,
        extra={
            "fields": {
                "event": "refused",
                "game": game,
                "name": who,
                "peer": peer,
                "code": code,
                "reason": reason,
                "suppressed": suppressed,
            }
        },
    )

"""The records of Mia rounds: a played round's, compact, and a canceled round's.

Hundreds of rounds a second are stored, so a played round's record keeps what a replay and
the standings need and no more (:func:`played_record`); the table submits each one before
anyone hears the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from herna.games.mia.round import MiaAction, MiaRound
from herna.hall.match import Match
from herna.hall.records import MatchRecord, PlayerResult


def played_record(match: Match[MiaAction], state: MiaRound, n: int) -> MatchRecord:
    """Round ``n``'s record from its match, ``state`` being the round's end."""
    record = match.record()
    # Only the players who acted are rated: the others scored a point by sitting still,
    # and rating dozens of bystanders every round cost the writer most of its time.
    acted = {a.name for a in state.announcements} | {state.current_name} | set(state.losers)
    for p in record.players:  # fresh objects of this record: set in place, not copied
        p.rated = p.name in acted
    # Compact: the actions go into the match row (no event rows); "details" repeated the
    # losers, "returns" and "winners" the players' rows (score, winner).
    record.packed = True
    for repeated in ("details", "returns", "winners"):
        record.result.pop(repeated, None)
    record.result["round"] = n
    record.result["order"] = list(state.players)
    record.result["losers"] = list(state.losers)
    return record


def canceled_record(
    table_id: str,
    n: int,
    joined: Sequence[tuple[str, str]],
    reason: str,
    started_at: datetime,
) -> MatchRecord:
    """Round ``n``'s record when it was canceled (``NO_PLAYERS``, ``ONLY_ONE_PLAYER``);
    ``joined`` is ``(name, kind)`` of who joined it. Unrated: nobody played."""
    return MatchRecord(
        game="mia",
        table_id=table_id,
        players=[PlayerResult(i, name, 0.0, False, kind) for i, (name, kind) in enumerate(joined)],
        result={"round": n, "canceled": reason},
        status="canceled",
        started_at=started_at,
        meta={"round": n},
        rated=False,
    )

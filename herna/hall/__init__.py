"""The hall shared by all games: matches, records, ratings and the spectator event bus."""

from herna.hall.events import EventBus, GameEvent, Subscription
from herna.hall.hall import Hall, Service
from herna.hall.match import Match, Seat, replay
from herna.hall.records import MatchRecord, PlayerResult, RecordStore, StoredMatch

__all__ = [
    "EventBus",
    "GameEvent",
    "Hall",
    "Match",
    "MatchRecord",
    "PlayerResult",
    "RecordStore",
    "Seat",
    "Service",
    "StoredMatch",
    "Subscription",
    "replay",
]

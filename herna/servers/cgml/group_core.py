"""What every group at the super game server holds and how it talks: its members and
their connections, the hall's bus (spectator events) and records, the group's settings and
clock. :class:`GroupCore` is the base of :class:`~herna.servers.cgml.group.Group`:

- :mod:`~herna.servers.cgml.group_core` (this module): state, sending, events, records;
- :mod:`~herna.servers.cgml.group_control`: answer deadlines, pauses, stand-ins, dropped
  members and the end of the group (``abort``, ``cancelgame``, ``disconnect``);
- :mod:`~herna.servers.cgml.group_deal`: ``newgame`` before every game and one deal's flow
  (auction, talon, game type, flek, play, ``renonc``, result);
- :mod:`~herna.servers.cgml.group`: joining, the dispatch of members' messages, snapshots.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from herna.core.clock import Clock, TimerHandle
from herna.core.rng import SeededRng, SeedSource
from herna.games.marias import (
    Action,
    MariasState,
)
from herna.hall.events import EventBus
from herna.hall.identity import new_secret
from herna.hall.match import Match
from herna.hall.records import RecordStore
from herna.protocols.cgml.cards import Card as CgmlCard
from herna.protocols.cgml.codec import encode
from herna.protocols.cgml.messages import (
    Message,
    PlayerRef,
)
from herna.servers.cgml.seats import GroupPhase, GroupSettings, Member, seat_names

log = logging.getLogger("herna.cgml.game")

WRONG_PHASE = "WRONG_PHASE"
NOT_YOUR_TURN = "NOT_YOUR_TURN"
PAUSED = "PAUSED"

_ALWAYS_VIEW = frozenset({"game_started", "game_over"})
"""Events that carry the spectator view even when nobody is subscribed (the bus keeps a
short history for late subscribers)."""


@dataclass
class GroupHooks:
    """Where the group reports to (the hall's bus and records, the server's statistics)."""

    bus: EventBus | None = None
    records: RecordStore | None = None
    on_closed: Callable[[GroupCore], None] | None = None
    on_game_over: Callable[[], None] | None = None
    on_reaction: Callable[[float], None] | None = None
    """Called with the seconds between a player's message and the server's answer."""
    house_names: frozenset[str] = frozenset()
    closed: Callable[[], str | None] | None = None
    """Why the hall takes no new games (its lobby says), or None: a group then ends after the
    deal in progress instead of dealing the next one."""


class GroupCore(ABC):
    """A group's state and its ways to members, spectators and records."""

    def __init__(
        self,
        group_id: str,
        members: Sequence[PlayerRef],
        clock: Clock,
        settings: GroupSettings,
        hooks: GroupHooks,
        url: str = "",
        seeds: SeedSource | None = None,
        tournament: str | None = None,
        max_games: int | None = None,
        deal_seed: int | None = None,
    ) -> None:
        self.id = group_id
        self.tournament = tournament
        """A live tournament's board tag (``<newgroup tournament>``): its records and
        events carry it."""
        self.max_games = max_games
        """Games this group plays before it closes (``<newgroup games>``); None: the
        server's setting."""
        self.deal_seed = deal_seed
        """A duplicate deal's seed (``<newgroup deal="duplicate">``): every game of the group
        is dealt from it, and the first dealer's seat too, so each group of the same deal
        deals the same cards from the same seat (the members seated in another order hold
        other hands)."""
        # Each announced member gets a secret; its ticket (group id, dot, secret) goes to
        # that member alone, through the login server, and is what it must join with.
        self.members = [Member(ref, i, secret=new_secret()) for i, ref in enumerate(members)]
        self.open_seats = not self.members
        self.clock = clock
        self.settings = settings
        self.hooks = hooks
        self.url = url
        self.phase = GroupPhase.JOINING
        self.seeds = seeds or SeedSource()
        """Every game's seed (recorded with the game): from :mod:`secrets` unless the server
        was given a fixed seed, so published seeds never predict the next deals."""
        dealer_seed = self.seeds.next_seed() if deal_seed is None else deal_seed
        self.first_dealer = SeededRng(dealer_seed).randint(0, 2)
        self.games = 0
        self.match: Match[Action] | None = None
        self.money = [0, 0, 0]
        self._timer: TimerHandle | None = None
        self._deadline_seat: int | None = None
        self._deadline_left = 0.0
        self._deadline_at = 0.0
        self._paused_by: int | None = None
        self._pause_timer: TimerHandle | None = None
        self._asked_at: float | None = None
        self._newgame_answers: set[int] = set()
        self._game_open = False
        """A game is being played (started and not yet recorded)."""
        self._view_cache: tuple[object, dict[str, Any]] | None = None
        self._talon: tuple[CgmlCard, ...] = ()
        self._stand_ins: set[int] = set()
        """Seats whose client says a stand-in answers for the player now (``<standin>``)."""
        self._stood_in: set[int] = set()
        """Seats that had a stand-in at some time during the current deal (for its record)."""
        self.table = self.id
        self.names = seat_names(self.members)
        self._timer = clock.call_later(settings.join_timeout, self._join_timeout)

    # -- helpers ---------------------------------------------------------------------------
    def member_by_id(self, pid: str) -> Member | None:
        return next((m for m in self.members if m.id == pid), None)

    def _send(self, member: Member, message: Message) -> None:
        if member.peer is not None and not member.peer.closed:
            member.peer.send(message)

    def _broadcast(self, message: Message, exclude: Member | None = None) -> None:
        data = encode(message)
        for m in self.members:
            if m is not exclude and m.peer is not None and not m.peer.closed:
                m.peer.send_bytes(data)

    def _emit(self, kind: str, **data: Any) -> None:
        bus = self.hooks.bus
        if bus is None:
            return
        match = self.match
        payload: dict[str, Any] = {
            "group": self.id,
            "game_no": self.games,
            "players": [
                {"id": m.id, "name": self.names[m.seat], "race": m.ref.race} for m in self.members
            ],
            "money": list(self.money),
            **data,
        }
        if self.tournament is not None:
            payload["tournament"] = self.tournament
        if (
            match is not None
            and "view" not in payload
            and (bus.subscriber_count or kind in _ALWAYS_VIEW)
        ):
            # The spectator view after the event. It is the same for every event of one
            # move (a card and the trick it completes), so it is computed once per state;
            # with nobody watching only the start and the end of a game carry one.
            state = match.state
            if self._view_cache is None or self._view_cache[0] is not state:
                self._view_cache = (state, dict(state.view(None)))
            payload["view"] = self._view_cache[1]
        # One live address per table: spectators follow the group from deal to deal (each
        # deal's record keeps its own table id, ``<group>.<deal>``; ``game_no`` tells deals
        # apart on the bus).
        bus.emit("marias", self.id, kind, **payload)

    def _ref(self, seat: int) -> PlayerRef:
        m = self.members[seat]
        return PlayerRef(m.id, m.ref.name)

    @property
    def state(self) -> MariasState:
        assert self.match is not None
        state = self.match.state
        assert isinstance(state, MariasState)
        return state

    def _record(self, match: Match[Action], status: str, extra: dict[str, Any]) -> None:
        if self._stood_in:
            match.meta["stand_in"] = [m.id for m in self.members if m.seat in self._stood_in]
        records = self.hooks.records
        if records is None:
            return
        try:
            record = match.record(status, extra)
            # A deal a stand-in played (in part) says nothing of that person's skill: it counts
            # in the standings and the money, but their rating does not move (issue 13).
            for player in record.players:
                if player.seat in self._stood_in:
                    player.rated = False
            records.submit(record)
        except Exception:  # the database must not stop the table
            log.exception("group %s: could not record game %s", self.id, match.table_id)

    @abstractmethod
    def _join_timeout(self) -> None:
        """Not every member joined in time (:class:`~herna.servers.cgml.group.Group`)."""

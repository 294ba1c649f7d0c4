"""How the Onitama hub seats waiting players: through the hall's lobby.

Every player waiting for a game has an open seek in :class:`~herna.hall.lobby.Lobby` (a seed
client's is "anyone, at once", so seed clients are paired first come, first served as
before). :class:`LobbySeats` is the part of :class:`~herna.servers.onitama.hub.OnitamaHub`
that opens those seeks, starts the games the lobby pairs (asking the hub's planner, when
``herna match`` set one), seats house bots for seeks whose fill wait is over, and ends a
connection whose seek its owner cancelled on the lobby page.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from herna.core.clock import Clock, TimerHandle
from herna.hall.lobby import (
    BOT,
    CANCELLED,
    CLOSED,
    ENDED,
    HALL_CLOSED,
    HOUSE_BOT,
    PERSON,
    Lobby,
    LobbyError,
    Seek,
    Want,
)
from herna.protocols import onitama as proto
from herna.servers.onitama.tables import Client, GamePlan, OnitamaSettings, Player, hang_up

GAME = "onitama"

DEFAULT_WANT = Want()
"""What a seed client wants: anyone, at once (first come, first paired, as the seed says)."""


class LobbySeats:
    """The hub's seating through the hall's lobby (a mix-in of ``OnitamaHub``)."""

    if TYPE_CHECKING:
        lobby: Lobby
        waiting: dict[str, Player]
        clock: Clock
        closing: bool
        settings: OnitamaSettings
        plan: Callable[[str, str], GamePlan | None] | None
        summon: Callable[[Seek, str], None] | None
        _fill_timer: TimerHandle | None

        def _start(
            self,
            a: Player,
            b: Player,
            planned: GamePlan | None = None,
            tournament: str | None = None,
        ) -> None: ...

        def disconnect(self, client: Client) -> None: ...

    @staticmethod
    def _lobby_kind(player: Player) -> str:
        if player.kind == HOUSE_BOT:
            return HOUSE_BOT
        return PERSON if player.person else BOT

    @staticmethod
    def _want(player: Player) -> Want:
        return player.spec.want if player.spec is not None else DEFAULT_WANT

    def _enqueue(self, player: Player, again: bool = False, want: Want | None = None) -> None:
        """``player`` waits for a game: an open seek in the hall's lobby (``want``, else the
        one it logged in with). After a game (``again``) a challenge or an accepted seek is
        not repeated."""
        client = player.client
        if client is None:
            return
        want = want or self._want(player)
        if again and (want.challenge is not None or want.accept is not None):
            want = Want(again=want.again)
        kind = self._lobby_kind(player)
        try:
            seek = self.lobby.open(
                GAME, player.name, kind, want, client, self.clock.now(), player.verified
            )
        except LobbyError as exc:
            if exc.code == CLOSED:
                # The hall takes no new games (after this player's last one): said, and the
                # connection is closed rather than left waiting for nothing.
                client.send(client.conn.out.error(proto.CLOSED))
                hang_up(client.peer, proto.CLOSED)
                self.disconnect(client)
                return
            player.tell_ext(proto.fmt.error(exc.code))
            if want.tournament is not None:
                # The tournament is over (or closed to it): it came for that alone.
                hang_up(client.peer, exc.code)
                self.disconnect(client)
                return
            # The accepted seek is gone meanwhile: it waits for anyone instead.
            seek = self.lobby.open(
                GAME,
                player.name,
                self._lobby_kind(player),
                Want(again=want.again),
                client,
                self.clock.now(),
            )
        player.seek = seek
        self.waiting[seek.id] = player
        player.tell_ext(proto.fmt.seek(seek.id))
        self._pair()

    def _unseek(self, player: Player) -> None:
        seek = player.seek
        if seek is not None:
            player.seek = None
            self.waiting.pop(seek.id, None)
            self.lobby.withdraw(seek)

    def _seek_closed(self, seek: Seek, why: str) -> None:
        """The lobby closed a seek of ours (its owner cancelled it on the lobby page, or its
        tournament ended): the connection that waited with it is told and closed."""
        if why not in (CANCELLED, ENDED, HALL_CLOSED):
            return  # a connection that is gone: the hub's disconnect cleans up
        player = self.waiting.pop(seek.id, None)
        if player is None or player.seek is not seek:
            return
        player.seek = None
        client = player.client
        if client is None:
            return
        code = {CANCELLED: proto.SEEK_CANCELLED, HALL_CLOSED: proto.CLOSED}.get(
            why, proto.TOURNAMENT_OVER
        )
        client.send(client.conn.out.error(code))
        hang_up(client.peer, code)
        self.disconnect(client)

    @property
    def queue(self) -> list[Player]:
        """Players waiting for a game, oldest first."""
        return list(self.waiting.values())

    def pair(self) -> None:
        """Start games for the players waiting in the lobby (a planner calls this when it has
        the next game ready)."""
        self._pair()

    def _pair(self) -> None:
        """Start the games the lobby pairs; then seat house bots for seeks whose fill wait is
        over, and wake up when the next one ends."""
        now = self.clock.now()
        while not self.closing:
            group = self.lobby.next_group(GAME, now)
            if group is None:
                break
            a, b = (self.waiting[s.id] for s in group)
            planned: GamePlan | None = None
            booking = group[0].booking
            if booking is not None:
                planned = (a.name, None)  # seat order: the first is White
            elif self.plan is not None:
                planned = self.plan(a.name, b.name)
                if planned is None:
                    return
            self.lobby.seated(group)
            for p in (a, b):
                self.waiting.pop(p.seek.id if p.seek else "", None)
                p.seek = None
            self._start(a, b, planned, booking.tag if booking else None)
        if self.closing:
            return
        if self.summon is not None:
            for seek in self.lobby.due(GAME, now):
                waiting = self.waiting.get(seek.id)
                if waiting is None or waiting.spec is None:
                    # A seed client gets today's behaviour: it waits for whoever comes
                    # (standing house bots included); nobody is summoned for it.
                    continue
                self.lobby.summoned(seek)
                level = seek.want.level or self.settings.house_bot_level
                self.clock.call_later(0, functools.partial(self._summon, seek, level))
        nxt = self.lobby.next_fill(GAME)
        if self._fill_timer is not None:
            self._fill_timer.cancel()
            self._fill_timer = None
        if nxt is not None and nxt > now:
            self._fill_timer = self.clock.call_later(nxt - now, self._pair)

    def _summon(self, seek: Seek, level: str) -> None:
        if seek.open and self.summon is not None and not self.closing:
            self.summon(seek, level)

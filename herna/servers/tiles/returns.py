"""Seat returns **[Herna extension]**: a player whose connection drops mid-game keeps its seat
for the reconnect window and takes it back with the seat secret that ``started`` handed it
(a ``join`` with ``table`` and ``secret``). A browser reload must not cost a person the game,
and a name alone never opens a seat: the secret (or a reserved name's token) does, as
:class:`~herna.hall.identity.SeatKey` decides for every Herna server.

Stand-ins: a person (``kind: human``) who lets the turn clock run out gets the same window as
a grace period (``TIME_UP``), then a house bot plays the seat while the person stays
connected, until ``back`` (or any ``act``) takes it back.

:class:`SeatReturns` is a part of :class:`~herna.servers.tiles.hub.TilesHub`, kept apart
because it is one concept of its own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from herna.core.clock import Clock
from herna.games.tiles.bots import TilesBot
from herna.games.tiles.rules import Rules
from herna.hall.identity import Identity, SeatKey
from herna.protocols import tiles as proto
from herna.servers.deadlines import LoginDeadlines
from herna.servers.tiles.names import NameBook
from herna.servers.tiles.tables import Client, HubStats, SeatSlot, Table, TilesSettings

log = logging.getLogger("herna.tiles")


class SeatReturns:
    """Seat secrets, waiting seats and their return (mixed into the hub)."""

    if TYPE_CHECKING:
        tables: dict[str, Table]
        settings: TilesSettings
        identity: Identity
        names: NameBook[Client]
        deadlines: LoginDeadlines[Client]
        clock: Clock
        stats: HubStats

        def _error(
            self, client: Client, code: str, reason: str, request_id: Any = None, **extra: Any
        ) -> None: ...

        def _send_table(self, table: Table) -> None: ...

        def _prompt(self, table: Table, keep_clock: bool = False) -> None: ...

        def _replace_with_bot(self, table: Table, seat: int, slot: SeatSlot) -> None: ...

        def _guarded(self, table: Table, fn: Callable[..., None], *args: Any) -> None: ...

        def _bot(self, rules: Rules, strategy: str | None = None) -> TilesBot: ...

        def _still(self, table: Table, seat: int, token: object) -> bool: ...

        def _timed_out(self, table: Table, seat: int, token: object) -> None: ...

    def _hold_seat(self, table: Table, seat: int, slot: SeatSlot) -> bool:
        """The connection of ``slot`` (a seat in a game) is gone: keep the seat for its player
        for the reconnect window; False when it may not wait (a house bot takes it then)."""
        if slot.key is None or self.settings.reconnect_window <= 0:
            return False
        # Its turn clock keeps running, so nobody waits longer than the turn timeout.
        slot.away = self.clock.call_later(
            self.settings.reconnect_window,
            lambda: self._guarded(table, self._away_expired, table, seat, slot),
        )
        assert table.match is not None
        table.match.note("away", player=seat, name=slot.name)
        log.info("%s lost its connection at table %s; seat %d waits", slot.name, table.id, seat)
        self._send_table(table)
        return True

    def _away_expired(self, table: Table, seat: int, slot: SeatSlot) -> None:
        slot.away = None
        if table.status == "playing" and table.seats[seat] is slot and slot.is_away:
            self._replace_with_bot(table, seat, slot)

    def _resume(self, client: Client, msg: proto.Join) -> None:
        """**[Herna extension]** ``join`` with ``table`` and the seat ``secret`` from
        ``started``: the player takes its seat back (from the waiting seat or from the house
        bot that plays it) and gets ``joined``, ``started`` and, on its turn, ``your_turn``."""
        assert msg.secret is not None
        table = self.tables.get(msg.table or "")
        if table is None or table.status != "playing":
            self._error(
                client, "NO_SUCH_TABLE", f"no game in progress at table {msg.table!r}", msg.id
            )
            return
        found = [
            (i, s)
            for i, s in enumerate(table.seats)
            if s is not None
            and s.key is not None
            and s.key.opens(msg.name, msg.secret, self.identity)
        ]
        if not found:
            self._error(
                client,
                "BAD_SECRET",
                f"that is not the secret of {msg.name!r}'s seat at table {table.id}",
                msg.id,
            )
            return
        seat, slot = found[0]
        if slot.client is not None:
            # Its name is claimed by a live connection, so this is caught above; kept for safety.
            self._error(client, "NAME_TAKEN", f"another connection plays seat {seat}", msg.id)
            return
        if slot.away is not None:
            slot.away.cancel()
            slot.away = None
        slot.client, slot.bot = client, None
        client.table, client.seat = table, seat
        self.names.claim(client, msg.name)
        self.deadlines.done(client)
        self.stats.reconnects += 1
        assert table.match is not None
        table.match.note("returned", player=seat, name=slot.name)
        log.info("%s took seat %d at table %s back", slot.name, seat, table.id)
        joined: dict[str, Any] = {
            "type": "joined",
            "table": table.id,
            "seat": seat,
            "name": slot.name,
            "rules_name": table.rules.name,
            "rules": table.rules.data,
            "seats": table.seats_json(),
            "house_bots": self.settings.house_bots,
            "resumed": True,
        }
        if msg.id is not None:
            joined["id"] = msg.id
        client.send(joined)
        client.send(self._started(table, seat, slot))
        self._send_table(table)
        if table.state.current_player() == seat:
            # A house bot may be about to play this seat: the player decides now, on what is
            # left of the turn's clock.
            table.cancel_timer()
            self._prompt(table, keep_clock=True)

    def _turn_time(self, table: Table, token: object, keep: bool) -> float:
        """The seconds the person to act has for this turn: the whole turn time, or (``keep``,
        the same turn asked again after a return to the seat) what is left of it (1 s at
        least, so a returning person can still act)."""
        if self.settings.turn_timeout <= 0:
            return 0.0
        now = self.clock.now()
        if keep and table.turn_ends is not None and table.turn_ends[0] is token:
            return max(table.turn_ends[1] - now, 1.0)
        table.turn_ends = (token, now + self.settings.turn_timeout)
        return float(self.settings.turn_timeout)

    def _started(self, table: Table, seat: int, slot: SeatSlot) -> dict[str, Any]:
        """``started`` for the player of ``seat``, with its seat secret **[Herna extension]**."""
        if slot.key is None:
            slot.key = SeatKey(slot.name)
        started: dict[str, Any] = {
            "type": "started",
            "table": table.id,
            "seat": seat,
            "rules_name": table.rules.name,
            "seats": table.seats_json(),
            "view": table.state.view(seat),
            "secret": slot.key.secret,
        }
        if table.said.get(seat):
            # **[Herna extension]** back in a game: its story so far, in this seat's words
            started["said"] = list(table.said[seat])
        return started

    # -- stand-ins for people who let the clock run out ---------------------------------------
    def _time_up(self, table: Table, seat: int, token: object) -> None:
        """A person's turn time is over: ``TIME_UP`` says how long the grace period is."""
        slot = table.seats[seat]
        if not self._still(table, seat, token) or slot is None:
            return
        if slot.client is None:
            # The connection dropped during the turn: the seat waits for its player, but the
            # game does not wait past the turn time (a random action, as for a bot).
            self._timed_out(table, seat, token)
            return
        assert table.match is not None
        self.stats.timeouts += 1
        grace = self.settings.reconnect_window
        table.match.note("late", player=seat, name=slot.name)
        self._error(
            slot.client,
            "TIME_UP",
            f"your {self.settings.turn_timeout:g} s are up; a stand-in (house bot) plays "
            f"your seat in {grace:g} s unless you act now",
            grace=grace,
        )

    def _grace_over(self, table: Table, seat: int, token: object) -> None:
        slot = table.seats[seat]
        if not self._still(table, seat, token) or slot is None or slot.client is None:
            return
        self._stand_in(table, seat, slot)

    def _stand_in(self, table: Table, seat: int, slot: SeatSlot) -> None:
        """A house bot plays ``slot`` for its (connected) person until ``back``."""
        assert table.match is not None and slot.client is not None
        slot.bot = self._bot(table.rules)
        slot.stood_in = True
        table.match.note("stand_in", player=seat, name=slot.name)
        log.info("%s let the clock run out at table %s; a stand-in plays", slot.name, table.id)
        slot.client.send({"type": "stand_in", "table": table.id, "seat": seat, "on": True})
        self._send_table(table)
        table.cancel_timer()
        self._prompt(table)

    def _back(self, client: Client, msg: proto.Back | None = None) -> bool:
        """The person takes the seat back from its stand-in (False: nobody stands in)."""
        table, seat = client.table, client.seat
        slot = table.seats[seat] if table is not None and table.status == "playing" else None
        if table is None or slot is None or not slot.standing_in or slot.client is not client:
            if msg is not None:
                self._error(
                    client, "NOT_STANDING_IN", "nobody stands in for you: it is your seat", msg.id
                )
            return False
        assert table.match is not None
        slot.bot = None
        table.match.note("returned", player=seat, name=slot.name)
        reply: dict[str, Any] = {"type": "stand_in", "table": table.id, "seat": seat, "on": False}
        if msg is not None and msg.id is not None:
            reply["id"] = msg.id
        client.send(reply)
        self._send_table(table)
        if table.state.current_player() == seat:
            table.cancel_timer()  # the stand-in may be about to play: the person decides now
            self._prompt(table)
        return True

"""Tile tables for live tournaments (:mod:`herna.hall.tournament_live`): a mix-in of
``TilesHub``.

A ``join`` whose seek names a tournament (``"seek": "tournament=3"``, Herna extension) does
not sit down at once: the player waits in the hall's lobby with a tournament seek (answered
``{"type": "waiting", "seek": …, "tournament": "3"}``) until the tournament's director books
its next table. Then the hub opens a table of the tournament's rules with the booked players
in the booked seat order, sends each the usual ``joined`` and starts the game; its record and
events carry the board's tag (``meta.tournament``). After ``game_over`` a player joins again
the same way for its next game, as tile clients do for every game. ``leave`` ends the wait
(before the tournament starts, it also withdraws the entry).
When the tournament ends, a waiting player gets ``error`` ``TOURNAMENT_OVER`` and is
disconnected.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from herna.core.clock import Clock
from herna.games.tiles.rules import Rules
from herna.hall.lobby import ENDED, TOURNAMENT_OVER, Lobby, LobbyError, Seek, Want
from herna.protocols import tiles as proto
from herna.servers.deadlines import LoginDeadlines
from herna.servers.tiles.names import NameBook
from herna.servers.tiles.tables import Client, SeatSlot, Table

log = logging.getLogger("herna.tiles")

GAME = "tiles"


@dataclass
class Waiting:
    """A player waiting for its next tournament table."""

    seek: Seek
    name: str
    kind: str
    """``human`` or ``bot``, as its join said."""
    person: bool
    rules: Rules
    request_id: Any = None


class TournamentSeats:
    """The hub's tournament waits and booked tables (a mix-in of ``TilesHub``)."""

    if TYPE_CHECKING:
        tables: dict[str, Table]
        lobby: Lobby
        clock: Clock
        closing: bool
        names: NameBook[Client]
        deadlines: LoginDeadlines[Client]

        def _error(
            self, client: Client, code: str, reason: str, request_id: Any = None, **extra: Any
        ) -> None: ...

        def shipped(self, name: str) -> Rules | None: ...

        def _new_table(self, rules: Rules, showcase: bool = False) -> Table: ...

        def _joined(self, table: Table, seat: int, request_id: Any = None) -> dict[str, Any]: ...

        def _send_table(self, table: Table) -> None: ...

        def _begin(self, table: Table) -> None: ...

        def disconnect(self, client: Client) -> None: ...

    waits: dict[Client, Waiting]

    def _wait_for_tournament(
        self,
        client: Client,
        msg: proto.Join,
        rules: Rules | None,
        want: Want,
        person: bool,
        verified: bool,
    ) -> None:
        """``msg`` asks for its games of tournament ``want.tournament``: wait for them."""
        assert want.tournament is not None
        named = self.lobby.desk.setting(want.tournament, "rules") if self.lobby.desk else None
        tournament_rules = self.shipped(str(named)) if named else None
        if rules is None:
            rules = tournament_rules
        elif tournament_rules is not None and rules.name != tournament_rules.name:
            self._error(
                client,
                "RULES_MISMATCH",
                f"tournament {want.tournament} plays {tournament_rules.name}",
                msg.id,
            )
            return
        kind = "person" if person else "bot"
        try:
            seek = self.lobby.open(
                GAME, msg.name, kind, want, client, self.clock.now(), verified=verified
            )
        except LobbyError as exc:
            self._error(client, exc.code, exc.reason, msg.id)
            return
        if rules is None:
            # The lobby admitted it, so the tournament is one of tiles: it names its rules.
            self.lobby.withdraw(seek)
            self._error(client, "UNKNOWN_RULES", "the tournament names no rules file", msg.id)
            return
        self.names.claim(client, msg.name)
        self.deadlines.done(client)
        self.waits[client] = Waiting(seek, msg.name, msg.kind, person, rules, msg.id)
        reply: dict[str, Any] = {
            "type": "waiting",
            "seek": seek.id,
            "tournament": want.tournament,
            "rules_name": rules.name,
        }
        if msg.id is not None:
            reply["id"] = msg.id
        client.send(reply)

    def _leave_wait(self, client: Client) -> None:
        """``client`` sent ``leave`` while waiting: before the start that withdraws it from
        the tournament (a dropped connection does not: it may come back)."""
        waiting = self.waits.get(client)
        desk = self.lobby.desk
        if waiting is not None and desk is not None and waiting.seek.want.tournament:
            desk.withdraw(waiting.seek.want.tournament, waiting.name)
        self._stop_waiting(client)

    def _stop_waiting(self, client: Client) -> None:
        """``client`` leaves, or is gone: its tournament wait ends."""
        waiting = self.waits.pop(client, None)
        if waiting is not None:
            self.lobby.withdraw(waiting.seek)

    def _pair_booked(self) -> None:
        """Open the tables the tournaments booked (the lobby calls this)."""
        while not self.closing:
            group = self.lobby.next_booked(GAME)
            if group is None:
                return
            clients = [s.holder for s in group]
            waits = [self.waits.get(c) if isinstance(c, Client) else None for c in clients]
            if any(w is None for w in waits):
                continue  # a seat went meanwhile: the seeks stay open, the director retries
            self.lobby.seated(group)
            seated = [w for w in waits if w is not None]
            rules = seated[0].rules
            table = self._new_table(rules)
            if len(table.seats) != len(seated):
                log.error("tournament table of %d for %s seats", len(seated), rules.name)
                del self.tables[table.id]
                continue
            booking = group[0].booking
            table.tournament = booking.tag if booking is not None else None
            for seat, (client, waiting) in enumerate(zip(clients, seated, strict=True)):
                assert isinstance(client, Client)
                del self.waits[client]
                table.seats[seat] = SeatSlot(
                    waiting.name, waiting.kind, client, person=waiting.person
                )
                client.table, client.seat = table, seat
            for seat, client in table.clients():
                client.send(self._joined(table, seat, seated[seat].request_id))
            log.info("tournament table %s: %s", table.id, ", ".join(table.names()))
            self._send_table(table)
            self._begin(table)

    def _tournament_over(self, seek: Seek) -> None:
        """The tournament ``seek`` waited for is over (the lobby closed it)."""
        client = seek.holder
        if not isinstance(client, Client):
            return
        waiting = self.waits.get(client)
        if waiting is None or waiting.seek is not seek:
            return
        del self.waits[client]
        self._error(client, TOURNAMENT_OVER, "the tournament you waited for is over")
        client.peer.close()
        self.disconnect(client)

    def _tournament_seek_closed(self, seek: Seek, why: str) -> bool:
        """Handle a closed seek of a tournament wait (True: it was one)."""
        if seek.want.tournament is None:
            return False
        if why == ENDED:
            self._tournament_over(seek)
        return True

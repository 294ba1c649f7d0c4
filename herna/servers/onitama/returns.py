"""How a player takes its place back at the Onitama hub: the seat after a lost connection, or
the name from another connection.

:class:`SeatReturns` is the part of :class:`~herna.servers.onitama.hub.OnitamaHub` that
decides a ``LOGIN`` for a name the hub already knows. A seat in a game opens only to the seat
secret its player got at ``START`` (or the name's token); a waiting player's connection can
be taken over only with the name's token; everyone else is told why not. A player who comes
back gets the whole game (``RECONNECT``) and its opponent is told; one who does not, within
the reconnect window, loses on time (the clocks' stand-in rules). A seat whose game runs in a
game worker is passed on to it (:mod:`~herna.servers.onitama.workers`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from herna.games.onitama.cards import COLOR_NAMES
from herna.hall.identity import Identity
from herna.hall.lobby import PERSON, SeekSpec, Want
from herna.protocols import onitama as proto
from herna.servers.deadlines import LoginDeadlines
from herna.servers.onitama.clocks import ABANDONED, TableClocks
from herna.servers.onitama.tables import (
    Client,
    Elsewhere,
    HubStats,
    Player,
    Table,
    hang_up,
    host_of,
)

log = logging.getLogger("herna.onitama")


class SeatReturns:
    """Seats and names taken back (a mix-in of ``OnitamaHub``)."""

    if TYPE_CHECKING:
        identity: Identity
        elsewhere: Elsewhere | None
        clocks: TableClocks
        stats: HubStats
        deadlines: LoginDeadlines[Client]

        def _refuse(self, client: Client, code: str, text: str, name: str = "") -> None: ...

        def _unseek(self, player: Player) -> None: ...

        def _enqueue(
            self, player: Player, again: bool = False, want: Want | None = None
        ) -> None: ...

        def _settle(self, client: Client) -> None: ...

        def _emit(self, table: Table, kind: str, **data: object) -> None: ...

        def _abort(self, table: Table, reason: str) -> None: ...

    def _seat_opens(
        self, client: Client, existing: Player, proof: str | None, name: str = ""
    ) -> bool:
        """A login for the seat of ``existing``, proven with the seat secret or the name's
        token, takes the seat back (True: answered)."""
        table = existing.table
        if table is None or table.over:
            return False
        if proof is None:
            if name != existing.name or not self._same_host_returns(client, existing):
                return False
        elif (key := existing.seat_key) is None or not key.opens(
            existing.name, proof, self.identity
        ):
            spelled = self.identity.reserved_spelling(existing.name)
            if spelled is None or not self.identity.proves(spelled, proof):
                return False
        if table.state.rule not in client.conn.out.rules:
            self._refuse(
                client,
                proto.WRONG_DIALECT,
                f"this game plays the {table.state.rule} rule, which your client's dialect "
                "cannot follow; come back with the client you started with",
                existing.name,
            )
            return True
        self._reconnect(client, existing, table)
        return True

    def _same_host_returns(self, client: Client, existing: Player) -> bool:
        """The published final-dialect client comes back with ``LOGIN|name`` alone, as its own
        server allows. Herna lets it, as the Mia seed does for re-registration, only when the
        seat's connection is gone, the login comes from the host that connection came from,
        and the name is not reserved (a reserved name has its token, the stronger proof).
        The trade-off: another program on that host (behind one NAT, a whole classroom) could
        take the seat in the reconnect window; the seat secret and the token rule that out."""
        return (
            existing.client is None
            and client.conn.out.name == "nul"
            and existing.left_from != ""
            and existing.left_from == host_of(client.peer.describe())
            and self.identity.reserved_spelling(existing.name) is None
        )

    def _name_taken(
        self,
        client: Client,
        existing: Player,
        proof: str | None,
        verified: bool,
        spec: SeekSpec | None = None,
    ) -> None:
        """A login with the name of a player the hub knows that did not open a seat: only the
        name's token holder may take over a connected lobby player; everyone else is told
        why not."""
        seated = existing.table is not None and not existing.table.over
        if verified and not seated and existing.client is not None:
            # The player waits on: the seek of the old connection dies with it, the new
            # connection's takes its place.
            self._unseek(existing)
            self._take_over(client, existing)
            existing.verified = True
            existing.spec = spec
            existing.kind = PERSON if spec is not None and spec.person else existing.kind
            client.send(client.conn.out.login_ok(existing.name))
            self._enqueue(existing)
            return
        if proof is not None and not verified:
            code = proto.BAD_TOKEN
            text = f"that is neither the seat secret nor the token of {existing.name!r}"
        elif existing.client is None:
            code = proto.NAME_IN_USE
            text = (
                f"{existing.name!r} has a game waiting for them; only their own client can "
                "take the seat back, with the seat secret it got at START (or the name's token)"
            )
        else:
            code = proto.NAME_IN_USE
            text = f"{existing.name!r} is logged in already"
        self._refuse(client, code, text, existing.name)

    def _take_over(self, client: Client, player: Player) -> None:
        """Attach ``player`` to ``client``; its old connection, if any, is told and closed."""
        old = player.client
        if old is not None and old is not client:
            old.player = None
            old.send(old.conn.out.error(proto.SEAT_TAKEN_OVER))
            old.resume()
            old.conn.closed()
            hang_up(old.peer, proto.SEAT_TAKEN_OVER)
        player.client = client
        player.kind = client.peer.kind
        client.player = player
        self.deadlines.done(client)
        client.conn.logged_in(player.name)

    # -- a dropped player comes back --------------------------------------------------------
    def _reconnect(self, client: Client, player: Player, table: Table) -> None:
        if table.elsewhere is not None and self.elsewhere is not None:
            self.elsewhere.reconnect(client, player, table)
            return
        if player.timer is not None:
            player.timer.cancel()
            player.timer = None
        self._take_over(client, player)
        client.conn.game_started()
        self.stats.reconnects += 1
        state = table.state
        white, black = (p.name for p in table.players)
        seat, board, cards, to_move = player.seat, state.board, state.cards(), state.to_move
        client.send(client.conn.out.reconnected(white, black, seat, board, cards, to_move))
        self._settle(client)
        table.players[1 - seat].tell(
            lambda d: d.opponent_back(white, black, seat, board, cards, to_move)
        )
        if table.claimable is not None and table.claimable[1] == ABANDONED:
            table.claimable = None  # back in time: nothing to claim any more
        self.clocks.tell_clock(table, player)
        self.clocks.tell_game_clock(table, player)
        table.match.note("reconnect", name=player.name, player=player.seat)
        self._emit(table, "reconnect", name=player.name, color=COLOR_NAMES[player.seat])
        log.info("%s is back at table %s", player.name, table.id)

    def _reconnect_expired(self, player: Player) -> None:
        player.timer = None
        table = player.table
        if player.client is not None or table is None or table.over:
            return
        opponent = table.players[1 - player.seat]
        if opponent.client is None:
            log.info("table %s: both players gone; aborted", table.id)
            self._abort(table, "both players left")
            return
        log.info("table %s: %s did not come back", table.id, player.name)
        self.clocks.stand_in(table, player.seat, ABANDONED)

"""A player who gives up a tile game (``{"type": "resign"}``, a Herna extension).

:class:`Resigning` is the part of :class:`~herna.servers.tiles.hub.TilesHub` that takes the
seat out of the game through the rules engine (:meth:`~herna.games.tiles.engine.TilesState.resign`):
the match records it (a ``resign`` note; the result's reason "the other player resigned" when
one player is left, who wins), the other players read "NAME resigns." in their story, and the
resigned player gets ``game_over`` at once. With more players left the game goes on without
that seat. The server decides; the play page and the terminal only ask.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from herna.core.errors import IllegalAction
from herna.protocols import tiles as proto
from herna.servers.tiles.tables import Client, Table


class Resigning:
    """Resigning (a mix-in of ``TilesHub``)."""

    if TYPE_CHECKING:

        def _error(
            self, client: Client, code: str, reason: str, request_id: Any = None, **extra: Any
        ) -> None: ...

        def _emit(self, table: Table, kind: str, **data: Any) -> None: ...

        def _prompt(self, table: Table) -> None: ...

    def _resign(self, client: Client, msg: proto.Resign) -> None:
        """The player gives up: out of the game (recorded), told ``game_over`` at once."""
        table, seat = client.table, client.seat
        if table is None or table.status != "playing" or table.match is None:
            self._error(client, "WRONG_PHASE", "no game in progress", msg.id)
            return
        try:
            table.match.state = table.state.resign(seat)
        except IllegalAction as exc:
            self._error(client, exc.code, exc.reason, msg.id)
            return
        names = table.names()
        table.match.note("resign", name=names[seat], player=seat)
        table.cancel_timer()
        line = f"{names[seat]} resigns."
        for other, c in table.clients():
            table.remember_said(other, line)
            if other != seat:
                view = table.view_of(table.state, other)
                c.send({"type": "state", "table": table.id, "view": view, "said": line})
        self._emit(table, "resign", player=seat, name=names[seat], players=names, label=line)
        if table.state.is_terminal():
            self._prompt(table)  # finishes it: game_over to everyone, the record
            return
        # The others play on; the resigned player is done with this table.
        slot = table.seats[seat]
        if slot is not None:
            slot.client = None
        client.send(
            {
                "type": "game_over",
                "table": table.id,
                "result": {"reason": "you resigned", "winners": [], "winner_names": []},
                "view": table.view_of(table.state, seat),
            }
        )
        client.table, client.seat = None, -1
        self._prompt(table)

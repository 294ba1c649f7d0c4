"""A player who gives up a tile game (``{"type": "resign"}``, a Herna extension), and the
game clock a person may choose when opening a table (seek word ``clock=5+3``).

:class:`Resigning` is the part of :class:`~herna.servers.tiles.hub.TilesHub` that takes the
seat out of the game through the rules engine (:meth:`~herna.games.tiles.engine.TilesState.resign`):
the match records it (a ``resign`` note; the result's reason "the other player resigned" when
one player is left, who wins), the other players read "NAME resigns." in their story, and the
resigned player gets ``game_over`` at once. With more players left the game goes on without
that seat. The server decides; the play page and the terminal only ask.

A game clock gives every seat ``MINUTES`` for the whole game and ``SECONDS`` more after each
of its actions; it replaces the turn clock at that table. Each prompt tells every player both
clocks (``{"type": "clock", "left": [...], "to_act": seat}``). A seat whose clock runs out is
out of the game as if it had resigned ("ran out of time"; the last player left wins).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from herna.core.clock import Clock
from herna.core.errors import IllegalAction
from herna.hall.lobby import parse_clock
from herna.protocols import tiles as proto
from herna.servers.tiles.tables import Client, Table


@dataclass(frozen=True)
class Out:
    """How a seat leaves a game before its end, in the record and in words."""

    note: str
    reason: str
    """The result's reason when one player is left."""
    said: str
    yours: str


OUT_RESIGNED = Out("resign", "the other player resigned", "resigns", "you resigned")
OUT_OF_TIME = Out(
    "out_of_time", "the other player ran out of time", "ran out of time", "you ran out of time"
)


class Resigning:
    """Resigning and the game clock (a mix-in of ``TilesHub``)."""

    if TYPE_CHECKING:
        clock: Clock

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
            self._drop_out(table, seat, OUT_RESIGNED)
        except IllegalAction as exc:
            self._error(client, exc.code, exc.reason, msg.id)

    def _drop_out(self, table: Table, seat: int, how: Out) -> None:
        """``seat`` is out of the game (it resigned or its game clock ran out): the record,
        the others' story, ``game_over`` to that player; the others play on, or the last one
        left wins."""
        assert table.match is not None
        table.match.state = table.state.resign(seat, how.reason)
        names = table.names()
        table.match.note(how.note, name=names[seat], player=seat)
        table.cancel_timer()
        line = f"{names[seat]} {how.said}."
        for other, c in table.clients():
            table.remember_said(other, line)
            if other != seat:
                view = table.view_of(table.state, other)
                c.send({"type": "state", "table": table.id, "view": view, "said": line})
        self._emit(table, how.note, player=seat, name=names[seat], players=names, label=line)
        if table.state.is_terminal():
            self._prompt(table)  # finishes it: game_over to everyone, the record
            return
        # The others play on; this player is done with the table.
        slot = table.seats[seat]
        client = slot.client if slot is not None else None
        if slot is not None:
            slot.client = None
        if client is not None:
            client.send(
                {
                    "type": "game_over",
                    "table": table.id,
                    "result": {"reason": how.yours, "winners": [], "winner_names": []},
                    "view": table.view_of(table.state, seat),
                }
            )
            client.table, client.seat = None, -1
        self._prompt(table)

    # -- the game clock --------------------------------------------------------------------------
    def start_game_clock(self, table: Table) -> None:
        """A table whose opener chose a time control (seek word ``clock=``): every seat's
        game clock (recorded with the match)."""
        want = table.want
        if want is None or want.clock is None or table.match is None:
            return
        base, table.increment = parse_clock(want.clock)
        table.clock_left = [base] * len(table.seats)
        table.match.meta["time_control"] = want.clock

    def game_clock_turn(self, table: Table, seat: int) -> bool:
        """``seat`` is to act: its game clock runs (True: the table has one, and no turn
        clock runs); every player is told both clocks (``clock``)."""
        left = table.clock_left
        if left is None:
            return False
        if table.clock_timer is not None:
            table.clock_timer.cancel()
        table.turn_started = self.clock.now()
        token = table.match.state if table.match else None
        table.clock_timer = self.clock.call_later(
            max(left[seat], 0.0), lambda: self._flagged(table, seat, token)
        )
        message = {"type": "clock", "table": table.id, "left": list(left), "to_act": seat}
        for _, client in table.clients():
            client.send(message)
        return True

    def game_clock_acted(self, table: Table, seat: int) -> None:
        """``seat`` acted: the time it took off its clock, the increment on."""
        left = table.clock_left
        if left is None:
            return
        if table.clock_timer is not None:
            table.clock_timer.cancel()
            table.clock_timer = None
        left[seat] += table.increment - (self.clock.now() - table.turn_started)

    def _flagged(self, table: Table, seat: int, token: object) -> None:
        table.clock_timer = None
        if table.status != "playing" or table.match is None or table.match.state is not token:
            return
        assert table.clock_left is not None
        table.clock_left[seat] = 0.0
        self._drop_out(table, seat, OUT_OF_TIME)

"""The clocks of every Onitama table, and who stands in when a player is late or gone.

Two clocks, both on the hub's injected :class:`~herna.core.clock.Clock`:

* the **game clock** (:attr:`OnitamaSettings.game_clock`, engine matches): each side's budget
  for the whole game; using it up loses at once (``out_of_time``);
* the **move clock** (:attr:`OnitamaSettings.move_clock`) for people: each decision of a
  person has that long. When it runs out the person gets a grace period (the reconnect
  window, the same one a dropped player gets) and may still move. After the grace period —
  and likewise when a dropped player has not come back within the reconnect window — the
  opponent wins: a bot (or any client that did not ask for the lobby's extension lines) at
  once, a person when they send ``CLAIM_WIN`` after ``CLAIMABLE``. Until then the late or
  dropped person who comes back (or moves) keeps the seat.

The record says how such a game ended: ``result.reason`` is ``out_of_time`` or ``forfeit``
(left), ``result.ended`` is ``out_of_time`` or ``abandoned`` and ``result.claimed`` tells
whether the opponent claimed it.
"""

from __future__ import annotations

from typing import Any, Protocol

from herna.core.clock import Clock
from herna.games.onitama.cards import COLOR_NAMES
from herna.hall.clocks import DecisionClock
from herna.protocols.onitama import fmt
from herna.servers.onitama.tables import OnitamaSettings, Player, Table

OUT_OF_TIME = "out_of_time"
"""``GAME_OVER`` reason of a game lost on time (Herna extension value)."""
ABANDONED = "abandoned"
"""How a game ended whose loser left and did not come back (``result.ended``)."""


class ClockedHub(Protocol):
    """What the clocks need of the hub (:class:`~herna.servers.onitama.hub.OnitamaHub`)."""

    clock: Clock
    settings: OnitamaSettings

    def emit_table(self, table: Table, kind: str, **data: Any) -> None: ...

    def forfeit(
        self,
        table: Table,
        seat: int,
        reason: str | None,
        ended: str | None = None,
        claimed: bool = False,
    ) -> None: ...


class TableClocks:
    """The clocks of the hub's tables (see the module doc)."""

    def __init__(self, hub: ClockedHub) -> None:
        self.hub = hub

    # -- turns --------------------------------------------------------------------------------
    def start(self, table: Table) -> None:
        """The side to move starts thinking."""
        hub = self.hub
        seat = table.state.to_move
        left = table.clock_left
        limit = hub.settings.move_clock
        if table.time_control is not None:
            limit = 0.0  # a game clock chosen for this table replaces the move clock
        if (
            left is None
            and table.decision is None
            and (limit <= 0 or not table.players[seat].person)
        ):
            return  # no clock runs at this table now: the usual case between bots
        if left is not None:
            table.turn_started = hub.clock.now()
            if table.clock_timer is not None:
                table.clock_timer.cancel()
            table.clock_timer = hub.clock.call_later(
                max(left[seat], 0.0), lambda: hub.forfeit(table, seat, OUT_OF_TIME)
            )
            self.tell_game_clock(table)
        self._cancel_move(table)
        player = table.players[seat]
        if limit > 0 and player.person:
            table.decision = DecisionClock(
                hub.clock,
                limit,
                hub.settings.reconnect_window,
                lambda: self._overtime(table, seat),
                lambda: self._grace_over(table, seat),
            )
            table.decision.start()
            self.tell_clock(table)

    def stop(self, table: Table, seat: int) -> None:
        """``seat`` decided: its game clock stops, its move clock (or grace) is over."""
        if table.clock_left is not None:
            table.clock_left[seat] -= self.hub.clock.now() - table.turn_started
            table.clock_left[seat] += table.increment
            if table.clock_timer is not None:
                table.clock_timer.cancel()
                table.clock_timer = None
        self._cancel_move(table)
        if table.late == seat:
            table.late = None
        if table.claimable is not None and table.claimable[0] == seat:
            table.claimable = None

    def cancel(self, table: Table) -> None:
        if table.clock_timer is not None:
            table.clock_timer.cancel()
            table.clock_timer = None
        self._cancel_move(table)

    def tell_game_clock(self, table: Table, only: Player | None = None) -> None:
        """``GAME_CLOCK|white|black|to_move``: both sides' game clocks as the side to move
        starts thinking (only at tables whose time control a player chose)."""
        left = table.clock_left
        if left is None or table.time_control is None or table.over:
            return
        now = self.hub.clock.now()
        seat = table.state.to_move
        shown = [
            max(t - (now - table.turn_started if i == seat else 0.0), 0.0)
            for i, t in enumerate(left)
        ]
        line = fmt.game_clock(shown[0], shown[1], COLOR_NAMES[seat])
        for player in (only,) if only is not None else table.players:
            player.tell_ext(line)

    def tell_clock(self, table: Table, only: Player | None = None) -> None:
        """``CLOCK|color|seconds`` (or ``OVERTIME``) of the side to move, to both players or
        to ``only`` (one who has just come back)."""
        left = table.decision.left() if table.decision is not None else None
        if left is None or table.over:
            return
        seat = table.state.to_move
        line = (
            fmt.overtime(COLOR_NAMES[seat], left)
            if table.late == seat
            else fmt.clock(COLOR_NAMES[seat], left)
        )
        for player in (only,) if only is not None else table.players:
            player.tell_ext(line)

    def _cancel_move(self, table: Table) -> None:
        if table.decision is not None:
            table.decision.stop()
            table.decision = None

    # -- late and gone ------------------------------------------------------------------------
    def _overtime(self, table: Table, seat: int) -> None:
        """The person to move used up the move clock: the grace period starts."""
        hub = self.hub
        if table.over or table.state.to_move != seat:
            return
        grace = hub.settings.reconnect_window
        table.late = seat
        name = table.players[seat].name
        table.match.note("overtime", name=name, player=seat)
        hub.emit_table(table, "overtime", name=name, color=COLOR_NAMES[seat], grace=grace)
        self.tell_clock(table)

    def _grace_over(self, table: Table, seat: int) -> None:
        if table.over or table.state.to_move != seat or table.late != seat:
            return
        self.stand_in(table, seat, OUT_OF_TIME)

    def stand_in(self, table: Table, seat: int, ended: str) -> None:
        """``seat`` is out of time or gone past its grace: its opponent wins now, or — a
        person who reads the lobby's extension lines — may claim the win."""
        hub = self.hub
        opponent = table.players[1 - seat]
        reason = OUT_OF_TIME if ended == OUT_OF_TIME else None
        if opponent.person and opponent.aware:
            table.claimable = (seat, ended)
            name = table.players[seat].name
            opponent.tell_ext(fmt.claimable(name, ended))
            hub.emit_table(table, "claimable", name=name, color=COLOR_NAMES[seat], ended=ended)
            return
        hub.forfeit(table, seat, reason, ended=ended)

    def claim(self, table: Table, player: Player) -> bool:
        """``player`` sent ``CLAIM_WIN``: True when it was theirs to claim (game over)."""
        claim = table.claimable
        if claim is None or claim[0] != 1 - player.seat or table.over:
            return False
        seat, ended = claim
        late = table.players[seat]
        if ended == ABANDONED and late.client is not None:
            return False  # back meanwhile
        self.hub.forfeit(
            table, seat, OUT_OF_TIME if ended == OUT_OF_TIME else None, ended=ended, claimed=True
        )
        return True

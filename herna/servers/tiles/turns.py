"""Whose turn it is at a tile table, and who answers: the part of
:class:`~herna.servers.tiles.hub.TilesHub` that asks the player to act (``your_turn`` with the
legal actions, the turn time and, for a person, the grace period), starts the clock that
watches the answer, lets a house bot choose off the event loop, and plays a random legal action
when a bot client's turn time is over. What follows an action is the hub's (``_play``); what
follows a person's time running out is :mod:`~herna.servers.tiles.returns`'s.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from herna.core.clock import Clock
from herna.core.rng import SeededRng
from herna.hall.clocks import DecisionClock
from herna.servers.tiles.tables import Client, HubStats, SeatSlot, Table, TilesSettings

log = logging.getLogger("herna.tiles")


class Turns:
    """Prompts, turn clocks and house bots' turns (a mix-in of ``TilesHub``)."""

    if TYPE_CHECKING:
        clock: Clock
        settings: TilesSettings
        stats: HubStats
        rng: SeededRng

        def _error(
            self, client: Client, code: str, reason: str, request_id: Any = None, **extra: Any
        ) -> None: ...

        def _finish(self, table: Table, status: str = "finished") -> None: ...

        def _guarded(self, table: Table, fn: Callable[..., None], *args: Any) -> None: ...

        def _play(self, table: Table, seat: int, wire: dict[str, Any]) -> None: ...

        def _turn_time(self, table: Table, token: object, keep: bool) -> float: ...

        def game_clock_turn(self, table: Table, seat: int) -> bool: ...

        def _time_up(self, table: Table, seat: int, token: object) -> None: ...

        def _grace_over(self, table: Table, seat: int, token: object) -> None: ...

    def _prompt(self, table: Table, keep_clock: bool = False) -> None:
        """Ask whoever is to act (or finish the game). ``keep_clock``: the person to act came
        back to the seat during the turn, so the turn clock runs on (not from the start)."""
        if table.status != "playing":
            return
        state = table.state
        if state.is_terminal():
            self._finish(table)
            return
        seat = state.current_player()
        slot = table.seats[seat]
        assert slot is not None
        # The state the prompt is about: only an action replaces it (notes in the match log,
        # such as a seat waiting for its player or coming back, must not void the prompt).
        token = table.match.state if table.match else None
        table.cancel_timer()
        clocked = self.game_clock_turn(table, seat)  # a chosen game clock: no turn clock
        if slot.bot is None and (slot.client is not None or slot.is_away):
            move = self._turn_time(table, token, keep_clock)
            if slot.client is not None:
                slot.client.send(self._your_turn(table, seat, move))
            if clocked:
                return  # the game clock alone decides
            if self._on_persons_clock(slot):
                # A person: the hall's decision clock (the turn time, then the grace period,
                # then a stand-in; see returns.py), not a random action.
                table.decision = DecisionClock(
                    self.clock,
                    move,
                    self.settings.reconnect_window,
                    lambda: self._guarded(table, self._time_up, table, seat, token),
                    lambda: self._guarded(table, self._grace_over, table, seat, token),
                )
                table.decision.start()
            elif self.settings.turn_timeout > 0:
                table.timer = self.clock.call_later(
                    move,
                    lambda: self._guarded(table, self._timed_out, table, seat, token),
                )
        else:
            table.timer = self.clock.call_later(
                self.settings.bot_delay,
                lambda: self._guarded(table, self._bot_turn, table, seat, token),
            )

    def _your_turn(self, table: Table, seat: int, move: float) -> dict[str, Any]:
        state = table.state
        return {
            "type": "your_turn",
            "table": table.id,
            "seat": seat,
            "action": state.current_action(),
            "actions": [table.codec.encode(a) for a in state.legal_actions()],
            "view": table.view_of(state, seat),
            # the seconds left of the turn (all of them, unless the person came back during
            # it); 0 at a table with a game clock: the "clock" message says how long is left
            "timeout": round(move, 1) if table.clock_left is None else 0,
            **({} if table.clock_left is not None else self._grace_of(table, seat)),
        }

    def _grace_of(self, table: Table, seat: int) -> dict[str, Any]:
        """**[Herna extension]** ``grace`` in ``your_turn`` for a person: the seconds after
        ``timeout`` before a stand-in plays the seat (a bot's time-out plays a random action)."""
        slot = table.seats[seat]
        if slot is None or not self._on_persons_clock(slot):
            return {}
        return {"grace": self.settings.reconnect_window}

    def _on_persons_clock(self, slot: SeatSlot) -> bool:
        """A person's seat whose time-outs lead to a stand-in (house bots needed)."""
        return (
            slot.kind == "human"
            and slot.client is not None
            and self.settings.house_bots
            and self.settings.turn_timeout > 0
        )

    def _still(self, table: Table, seat: int, token: object) -> bool:
        return (
            table.status == "playing"
            and table.match is not None
            and table.match.state is token
            and table.state.current_player() == seat
        )

    def _bot_turn(self, table: Table, seat: int, token: object) -> None:
        table.timer = None
        if not self._still(table, seat, token):
            return
        slot = table.seats[seat]
        assert slot is not None and slot.bot is not None
        state = table.state
        actions = [table.codec.encode(a) for a in state.legal_actions()]
        view = state.view(seat)
        # A goal bot may think for ~0.2 s: do it off the event loop, which every server of
        # `herna serve` shares (Mia's 250 ms windows included).
        future = asyncio.get_running_loop().run_in_executor(None, slot.bot.choose, view, actions)

        def decided(done: asyncio.Future[Any]) -> None:
            if not self._still(table, seat, token) or slot.bot is None:
                return  # the game moved on, or the seat's player took it back meanwhile
            try:
                choice = dict(done.result())
            except Exception:
                log.exception("house bot at table %s failed; playing at random", table.id)
                choice = self.rng.choice(actions)
            self._play(table, seat, choice)

        future.add_done_callback(decided)

    def _timed_out(self, table: Table, seat: int, token: object) -> None:
        table.timer = None
        if not self._still(table, seat, token):
            return
        self.stats.timeouts += 1
        slot = table.seats[seat]
        assert slot is not None and table.match is not None
        state = table.state
        choice = table.codec.encode(self.rng.choice(list(state.legal_actions())))
        table.match.note("timeout", player=seat, name=slot.name)
        if slot.client is not None:
            self._error(
                slot.client,
                "TIMEOUT",
                f"no action within "
                f"{self.settings.turn_timeout:g} s; a random legal action was played",
                action=choice,
            )
        self._play(table, seat, choice)

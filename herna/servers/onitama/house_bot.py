"""House bots: in-process Onitama players, so a lone person always finds an opponent.

A house bot offered a draw (``DRAW_OFFERED``) accepts it when it has fewer pieces on the
board than its opponent, and declines it otherwise: a simple rule a person can play to.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from herna.core.clock import TimerHandle
from herna.games.onitama.bots import Strategy
from herna.games.onitama.cards import WHITE
from herna.protocols import onitama as proto
from herna.protocols.onitama import ClientGame
from herna.servers.onitama.hub import OnitamaHub

log = logging.getLogger("herna.onitama")


class HouseBot:
    """An in-process player: reads the server's lines like any client and answers after
    ``delay`` seconds on the hub's clock."""

    kind = "house-bot"

    def __init__(
        self,
        hub: OnitamaHub,
        name: str,
        strategy: Strategy,
        delay: float,
        token: str | None = None,
        off_loop: bool = False,
        seek: str | None = None,
    ) -> None:
        self.hub = hub
        self.name = name
        self.base_name = name
        self.token = token
        """The token of its reserved house-bot name, presented at login like any client's."""
        self.strategy = strategy
        self.delay = delay
        self.seek = seek
        """LOGIN's lobby field: set for a bot seated for one person's seek (``accept=ID``),
        which plays that one game and leaves, or for a live tournament's house entrant
        (``tournament=ID``), which plays until the tournament is over."""
        self.one_game = seek is not None and seek.startswith("accept=")
        self.off_loop = off_loop
        """Think in a worker thread: the engine searches for up to 100 ms (its compiled core
        releases the GIL), and the event loop is shared by every server of `herna serve`."""
        self.game = ClientGame(name)
        self.closed = False
        self.failed_logins = 0
        self.logged_in = False
        self._timer: TimerHandle | None = None
        self._thinking = False
        self.client = hub.connect(self)
        hub.receive(self.client, proto.login_line(name, token, seek))

    def describe(self) -> str:
        return f"house bot {self.name}"

    def send(self, data: bytes) -> None:
        for line in data.decode().splitlines():
            if line.startswith("DRAW_OFFERED|"):
                self.hub.clock.call_later(0, self._answer_draw)
                continue
            msg = proto.parse_server(line)
            if isinstance(msg, proto.Garbage):
                continue  # the lobby's extension lines (SEEK, CLOCK …): nothing to do
            if isinstance(msg, proto.LoginOk):
                self.logged_in = True
            elif isinstance(msg, proto.LoginFailed) and self.seek is not None:
                # The seek it was summoned for is gone (its person left), or the tournament
                # it came for does not take it: nothing to do.
                self.hub.clock.call_later(0, self.close)
                continue
            elif isinstance(msg, proto.LoginFailed) and not self.logged_in:
                # Someone has our name (only possible without a reserved one): take another.
                self.failed_logins += 1
                self.name = f"{self.base_name}.{self.failed_logins}"
                self.token = self.hub.identity.reserve_house_bot(self.name)
                self.game = ClientGame(self.name)
                self.hub.receive(self.client, proto.login_line(self.name, self.token))
                continue
            if isinstance(msg, proto.GameOver) and self.one_game:
                self.hub.clock.call_later(0, self.close)
            try:
                self.game.feed(msg)
            except ValueError:
                log.exception("house bot %s lost track of its game", self.name)
        if self.game.my_turn() and self._timer is None and not self._thinking and not self.closed:
            self._timer = self.hub.clock.call_later(self.delay, self._play)

    def accepts_draw(self) -> bool:
        """The house bots' rule: a draw is welcome when it has fewer pieces than you."""
        state, color = self.game.state, self.game.color
        if state is None or color is None:
            return False
        board = state.board
        mine, theirs = ("Ww", "Bb") if color == WHITE else ("Bb", "Ww")
        return sum(board.count(c) for c in mine) < sum(board.count(c) for c in theirs)

    def _answer_draw(self) -> None:
        if self.closed:
            return
        answer = b"ACCEPT_DRAW\n" if self.accepts_draw() else b"DECLINE_DRAW\n"
        self.hub.receive(self.client, answer)

    def _play(self) -> None:
        self._timer = None
        state = self.game.state
        if self.closed or state is None or not self.game.my_turn():
            return
        if not self.off_loop:
            self.hub.receive(self.client, proto.action_line(self.strategy.choose(state)))
            return
        self._thinking = True  # one search at a time: a strategy is not thread-safe
        future = asyncio.get_running_loop().run_in_executor(None, self.strategy.choose, state)

        def decided(done: asyncio.Future[Any]) -> None:
            self._thinking = False
            # The game may have moved on meanwhile (the opponent left, the server stopped).
            if self.closed or not self.game.my_turn():
                return
            if self.game.state is not state:  # re-synced meanwhile: think again
                self._timer = self._timer or self.hub.clock.call_later(self.delay, self._play)
                return
            try:
                action = done.result()
            except Exception:
                log.exception("house bot %s failed to choose a move", self.name)
                return
            self.hub.receive(self.client, proto.action_line(action))

        future.add_done_callback(decided)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.hub.disconnect(self.client)

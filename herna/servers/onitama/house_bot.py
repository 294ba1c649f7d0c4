"""House bots: in-process Onitama players, so a lone person always finds an opponent.

A house bot offered a draw (``DRAW_OFFERED``) accepts it when it has fewer pieces on the
board than its opponent, or when nothing has been taken for :data:`QUIET_PLIES` moves, and
declines it otherwise: a simple rule a person can play to.

Onitama itself has no draw (no repetition rule, no move limit: onitama-rules.md, "Winning"),
so two house bots left with a master and a student each could shuffle for ever: a newcomer's
walk found one at 1,989 moves, the home page's "Watch Onitama" showing it for half an hour
and a third bot waiting for a partner meanwhile. So after :data:`QUIET_PLIES` moves without
a capture a house bot offers a draw (Herna's ``OFFER_DRAW``), and again every
:data:`QUIET_PLIES` moves while it is declined; a person who wants to play on declines.
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

QUIET_PLIES = 40
"""Moves (both players') in a row without a capture after which a house bot takes a draw."""


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
        self._pieces = 0
        self._quiet_from = 0
        """The ply of the last capture seen (or of the game's start)."""
        self._offered_at: int | None = None
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
            if isinstance(msg, proto.Start):
                self._pieces, self._quiet_from, self._offered_at = 0, 0, None
            self._count_pieces()
        if self.game.my_turn() and self._timer is None and not self._thinking and not self.closed:
            self._timer = self.hub.clock.call_later(self.delay, self._play)

    def _count_pieces(self) -> None:
        state = self.game.state
        if state is None:
            return
        pieces = sum(1 for square in state.board if square != ".")
        if pieces != self._pieces:
            self._pieces, self._quiet_from = pieces, state.ply

    def quiet(self) -> bool:
        """Whether nothing has been taken for :data:`QUIET_PLIES` moves."""
        state = self.game.state
        return state is not None and state.ply - self._quiet_from >= QUIET_PLIES

    def accepts_draw(self) -> bool:
        """The house bots' rule: a draw is welcome when it has fewer pieces than you, or
        when the game has gone :data:`QUIET_PLIES` moves without a capture."""
        state, color = self.game.state, self.game.color
        if state is None or color is None:
            return False
        if self.quiet():
            return True
        board = state.board
        mine, theirs = ("Ww", "Bb") if color == WHITE else ("Bb", "Ww")
        return sum(board.count(c) for c in mine) < sum(board.count(c) for c in theirs)

    def _answer_draw(self) -> None:
        if self.closed:
            return
        answer = b"ACCEPT_DRAW\n" if self.accepts_draw() else b"DECLINE_DRAW\n"
        self.hub.receive(self.client, answer)

    def _offer_draw(self, ply: int) -> None:
        """Offer a draw in a quiet game, once per :data:`QUIET_PLIES` moves; the move that
        follows leaves the offer standing until the opponent answers or moves."""
        if not self.quiet():
            return
        if self._offered_at is not None and ply - self._offered_at < QUIET_PLIES:
            return
        self._offered_at = ply
        self.hub.receive(self.client, b"OFFER_DRAW\n")

    def _play(self) -> None:
        self._timer = None
        state = self.game.state
        if self.closed or state is None or not self.game.my_turn():
            return
        self._offer_draw(state.ply)
        if self.closed or self.game.state is not state or not self.game.my_turn():
            return  # the offer ended the game (an offer of the opponent's was open)
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

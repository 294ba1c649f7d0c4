"""House bots end a game that goes nowhere by agreeing a draw (Onitama has no draw rule of its
own): two house bots that never take anything, playing on the real server, end their game
with ``GAME_OVER||draw_agreed`` once it has gone ``QUIET_PLIES`` moves without a capture, and
the record says so. A person offered such a draw may decline it and play on."""

from __future__ import annotations

import asyncio
from pathlib import Path

from herna.games.onitama.state import OnitamaState, PlayerAction
from herna.servers.onitama.house_bot import QUIET_PLIES, HouseBot
from tests.onitama.wire import fixed_start, real_clock, running


class NeverTakes:
    """A strategy that shuffles: the first move that neither captures nor wins."""

    name = "never-takes"

    def choose(self, state: OnitamaState) -> PlayerAction:
        pieces = sum(1 for square in state.board if square != ".")
        for move in state.legal_moves():
            after = state.apply(move)
            if not after.is_terminal() and sum(1 for sq in after.board if sq != ".") == pieces:
                return move
        return state.legal_actions()[0]  # type: ignore[return-value]


async def test_two_house_bots_that_never_take_agree_a_draw(tmp_path: Path) -> None:
    async with running(tmp_path, clock=real_clock(), initial_state=fixed_start) as server:
        hub = server.service.hub
        bots = [HouseBot(hub, name, NeverTakes(), 0.0) for name in ("shuffle-a", "shuffle-b")]
        store = server.hall.records
        try:
            for _ in range(200):
                store.flush()
                if store.matches(game="onitama"):
                    break
                await asyncio.sleep(0.05)
            match = min(store.matches(game="onitama"), key=lambda m: m.id)  # the first game
        finally:
            for bot in bots:
                bot.close()
        stored = store.get(match.id)
        assert stored is not None
        assert stored.result["reason"] == "draw agreed", stored.result
        # Nothing taken from the start: the bot to move after QUIET_PLIES moves offers the
        # draw with its move, and the other accepts it at once.
        assert stored.result["details"]["plies"] == QUIET_PLIES + 1, stored.result

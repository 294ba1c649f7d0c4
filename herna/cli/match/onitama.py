"""Onitama engine matches: the same five cards both ways, on Herna's own Onitama server.

Each slot (``--concurrency``) is one Onitama server on a free 127.0.0.1 port with one copy of
each side logged in, so its lobby only ever pairs A with B. The slot is the server's
*planner* (:attr:`~herna.servers.onitama.hub.OnitamaHub.plan`): it says who takes White and
which cards are dealt, and the server does everything else: the rules, illegal moves
(``illegal_move_forfeits``), the game clock (``game_clock``) and a player that leaves (lost at
once: the reconnect window is 0). The slot only watches the server's events to learn results
and to catch a program that stalls, which it kills (the server then scores the game as lost)
and starts again before the next game.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from herna.core.rng import SeededRng
from herna.games.onitama.bots import STRATEGIES, make_strategy
from herna.games.onitama.state import OnitamaState
from herna.hall.events import GameEvent
from herna.hall.hall import Hall
from herna.protocols import onitama as proto
from herna.servers.onitama import HouseBot, OnitamaService, OnitamaSettings, serve
from herna.servers.onitama.hub import ILLEGAL_MOVE, OUT_OF_TIME, GamePlan

from .entrants import MAX_EXITS_WITHOUT_GAME, EntrantSpec, MatchError, Program, run_slots
from .tally import GameResult, Tally

log = logging.getLogger("herna.match")

GAME = "onitama"
HOUSE_STRATEGIES = STRATEGIES
ABORTED_RETRIES = 3
"""Times a game that ended without a winner (both sides gone) is played again."""
POLL = 0.05
"""Seconds between checks while waiting for both sides to be seated."""


@dataclass(frozen=True)
class MatchOptions:
    pairs: int
    concurrency: int
    seed: int
    stall: float
    game_clock: float
    start_timeout: float
    log_dir: Path


def opening(seed: int, index: int) -> OnitamaState:
    """The position of pair ``index``: the five cards dealt by a generator seeded from the
    match seed and the index alone, so a pair's deal does not depend on ``--concurrency``
    or on which slot plays it."""
    rng = SeededRng(seed * 2**32 + index)
    state = OnitamaState.new()
    while state.dealing:
        state = state.apply(rng.weighted(state.chance_outcomes()))
    return state


class House:
    """An in-process house bot as one side of the match (``house:<strategy>``)."""

    def __init__(self, spec: EntrantSpec, service: OnitamaService, token: str, seed: int):
        self.spec = spec
        self.name = spec.name
        self.service = service
        self.token = token
        self.seed = seed
        self.bot: HouseBot | None = None
        self.exits_without_game = 0

    async def start(self) -> None:
        if self.bot is None:
            assert self.spec.house is not None
            strategy = make_strategy(self.spec.house, seed=self.seed, depth=self.spec.depth)
            self.bot = HouseBot(self.service.hub, self.name, strategy, 0.0, self.token)

    async def stop(self) -> None:
        if self.bot is not None:
            self.bot.close()


Entrant = Program | House


class Slot:
    """One server with one copy of A and one of B, playing pairs one after the other."""

    def __init__(
        self,
        index: int,
        hall: Hall,
        service: OnitamaService,
        specs: dict[str, EntrantSpec],
        tokens: dict[str, str],
        options: MatchOptions,
        tally: Tally,
        on_game: Callable[[], None],
    ) -> None:
        self.index = index
        self.service = service
        self.hub = service.hub
        self.options = options
        self.tally = tally
        self.on_game = on_game
        self.entrants: dict[str, Entrant] = {}
        for label, spec in specs.items():
            if spec.house is not None:
                self.entrants[label] = House(spec, service, tokens[label], options.seed + index)
            else:
                log_path = options.log_dir / f"{label}-{index + 1}.log"
                self.entrants[label] = Program(
                    spec, GAME, "127.0.0.1", service.port, tokens[label], log_path
                )
        self.label_of = {e.name: label for label, e in self.entrants.items()}
        self.pending: GamePlan | None = None
        self.table: str | None = None
        self.started: asyncio.Future[str] | None = None
        self.over: asyncio.Future[tuple[str | None, str]] | None = None
        self.stall_timer: asyncio.TimerHandle | None = None
        self.hub.plan = self._plan
        hub = self.hub
        self.events = hall.bus.subscribe(lambda e: e.game == GAME and e.table in hub.tables)

    # -- the server's planner --------------------------------------------------------------
    def _plan(self, first: str, second: str) -> GamePlan | None:
        if self.pending is None or {first, second} != set(self.label_of):
            return None
        plan, self.pending = self.pending, None
        return plan

    # -- events ----------------------------------------------------------------------------
    async def _read(self) -> None:
        async for event in self.events:
            self._event(event)

    def _event(self, event: GameEvent) -> None:
        if event.kind == "game_started":
            self.table = event.table
            for entrant in self.entrants.values():
                entrant.exits_without_game = 0
            if self.started is not None and not self.started.done():
                self.started.set_result(event.table)
        if event.table != self.table:
            return
        if event.kind in ("game_started", "move", "stalemate_card"):
            self._watch_stall(event.table)
        elif event.kind == "game_over":
            self._cancel_stall()
            if self.over is not None and not self.over.done():
                self.over.set_result((event.data.get("winner"), str(event.data.get("reason"))))

    def _watch_stall(self, table_id: str) -> None:
        """Give the side to move ``--stall`` seconds to send anything that moves the game."""
        self._cancel_stall()
        table = self.hub.tables.get(table_id)
        if table is None or table.over or self.options.stall <= 0:
            return
        entrant = self.entrants[self.label_of[table.players[table.state.to_move].name]]
        if not isinstance(entrant, Program):
            return
        moves = table.moves
        self.stall_timer = asyncio.get_running_loop().call_later(
            self.options.stall, self._stalled, table_id, moves, entrant
        )

    def _stalled(self, table_id: str, moves: int, entrant: Program) -> None:
        self.stall_timer = None
        table = self.hub.tables.get(table_id)
        if table is None or table.over or table.moves != moves:
            return
        log.info(
            "slot %d: %s sent no move for %g s; killed",
            self.index,
            entrant.name,
            self.options.stall,
        )
        entrant.killed_for_stall = True
        entrant.kill()

    def _cancel_stall(self) -> None:
        if self.stall_timer is not None:
            self.stall_timer.cancel()
            self.stall_timer = None

    # -- games -----------------------------------------------------------------------------
    async def run(self) -> None:
        reader = asyncio.create_task(self._read())
        try:
            while (index := self.tally.take_pair()) is not None:
                position = opening(self.options.seed, index)
                first = await self.play(position, white="A")
                self._count(first)
                if self.tally.verdict is not None:
                    break
                second = await self.play(position, white="B")
                self._count(second)
                self.tally.add_pair(first, second)
                self.on_game()
        finally:
            reader.cancel()
            self.events.close()

    async def play_single(self, position: OnitamaState, white: str) -> GameResult:
        """One game outside the pair schedule (a tournament's board), with the same rules
        for forfeits; raises :class:`MatchError` when the sides do not both log in."""
        reader = asyncio.create_task(self._read())
        try:
            return await self.play(position, white)
        finally:
            reader.cancel()
            self.events.close()

    def _count(self, result: GameResult) -> None:
        self.tally.add_game(result)
        self.on_game()

    async def play(self, position: OnitamaState, white: str) -> GameResult:
        loop = asyncio.get_running_loop()
        for _ in range(ABORTED_RETRIES):
            self.table = None
            self.pending = (self.entrants[white].name, position)
            self.started = loop.create_future()
            self.over = loop.create_future()
            await self._seat_both()
            winner, reason = await self.over
            if winner is not None:
                return self._result(winner, reason)
        # Both sides left the same game again and again: no one won it.
        return GameResult(None)

    async def _seat_both(self) -> None:
        """Start (or restart) both sides and wait until the server has started the game."""
        assert self.started is not None
        deadline = time.monotonic() + self.options.start_timeout
        while not self.started.done():
            for label, entrant in self.entrants.items():
                if entrant.exits_without_game >= MAX_EXITS_WITHOUT_GAME:
                    assert isinstance(entrant, Program)
                    raise MatchError(
                        f"{label}: {entrant.spec.text!r} exited {entrant.exits_without_game} "
                        f"times without playing a game; its last output: "
                        f"{entrant.last_output() or '(none)'} (log {entrant.log_path})"
                    )
                await entrant.start()
            self.hub.pair()
            if time.monotonic() > deadline:
                missing = [
                    f"{label}: {e.spec.text!r}"
                    for label, e in self.entrants.items()
                    if not self.hub.logged_in(e.name)
                ]
                raise MatchError(
                    f"no game could start within {self.options.start_timeout:g} s: "
                    + ("; ".join(missing) or "both sides")
                    + f" did not log in (bot output in {self.options.log_dir})"
                )
            await asyncio.wait({self.started}, timeout=POLL)

    def _result(self, winner: str, reason: str) -> GameResult:
        won = self.label_of[winner]
        lost = self.entrants["B" if won == "A" else "A"]
        kind: str | None = None
        if reason == ILLEGAL_MOVE:
            kind = "illegal"
        elif reason == OUT_OF_TIME:
            kind = "time"
        elif reason == proto.OPPONENT_LEFT:
            kind = "stall" if isinstance(lost, Program) and lost.killed_for_stall else "crash"
        return GameResult(won, kind)

    async def close(self) -> None:
        self._cancel_stall()
        for entrant in self.entrants.values():
            await entrant.stop()


async def run_onitama(
    hall: Hall,
    specs: dict[str, EntrantSpec],
    options: MatchOptions,
    tally: Tally,
    on_game: Callable[[], None],
) -> None:
    """Play the match: ``options.concurrency`` slots take pairs until the tally is done."""
    tokens = {label: hall.identity.reserve_house_bot(spec.name) for label, spec in specs.items()}
    settings = OnitamaSettings(
        reconnect_window=0.0,
        illegal_move_forfeits=True,
        game_clock=options.game_clock,
        house_bot_delay=0.0,
        seed=options.seed,
    )
    slots: list[Slot] = []
    try:
        for index in range(options.concurrency):
            service = await serve(hall, "127.0.0.1", 0, settings)
            hall.add(service)
            slots.append(Slot(index, hall, service, specs, tokens, options, tally, on_game))
        await run_slots(slot.run() for slot in slots)
    finally:
        for slot in slots:
            await slot.close()

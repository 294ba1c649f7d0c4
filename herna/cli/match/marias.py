"""Mariáš engine matches: duplicate deals, seats rotated, on Herna's own CGML servers.

A pair is one deal played twice with the same cards in the same seats: first the program
of side A alone in seat ``i`` against two copies of side B, then B alone in seat ``i``
against two copies of A (``i`` rotates 0, 1, 2 from pair to pair, so each side sits alone
in every seat and deals as often). The pair's score is the lone A's money minus the lone
B's money in the same seat on the same cards: luck of the deal cancels, skill stays. Each
game counts as won by the lone side when it made money, lost when it paid, drawn at 0, so
the pentanomial statistics, the Elo estimate and the SPRT of ``herna match`` apply as for
Onitama; the money per pair is reported with its 95 % interval.

Each game runs on a fresh CGML hall (login server, super game server, no bot servers) on
free 127.0.0.1 ports, seeded from the match seed and the pair's index alone, so both games
of a pair get the same deal whatever ``--concurrency`` is. The login server is told the
group to form (:attr:`herna.protocols.cgml.lobby.Lobby.plan`): the three entrants in seat
order, whatever order they log in. Programs get the contract of ``docs/match.md``
(``HERNA_PORT`` is the login server's player port; they log in ``passive`` or ``active``
and play one group of one deal); a copy's name is the side's name with ``-2``. A game the
server aborts (a program that crashed, stalled past ``--stall`` or broke the rules) is
lost by the side whose player caused it (forfeit, money 0 for the pair's difference of that
game) and the programs are started again for the next game.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
from collections.abc import Callable
from typing import Any

from herna.clients.cgml import BotDecider, run_player
from herna.games.marias.bots import STRATEGY_CHOICES
from herna.hall.hall import Hall
from herna.protocols.cgml.messages import PlayerRef
from herna.servers.cgml import PLUGIN as CGML
from herna.servers.cgml import CgmlService

from .entrants import EntrantSpec, MatchError, Program, login_names, retire, run_slots
from .onitama import MatchOptions
from .tally import GameResult, Tally

log = logging.getLogger("herna.match")

GAME = "marias"
HOUSE_STRATEGIES = STRATEGY_CHOICES
SEATS = 3


def seats_of(index: int, lone: str) -> tuple[str, str, str]:
    """The sides in seat order for pair ``index``'s game with ``lone`` alone in its seat.

    >>> seats_of(0, "A"), seats_of(1, "B"), seats_of(5, "A")
    (('A', 'B', 'B'), ('A', 'B', 'A'), ('B', 'B', 'A'))
    """
    other = "B" if lone == "A" else "A"
    seats = [other] * SEATS
    seats[index % SEATS] = lone
    return (seats[0], seats[1], seats[2])


def deal_seed(seed: int, index: int) -> int:
    """The CGML server's seed for pair ``index``: the same for both games of the pair."""
    return (seed * 1_000_003 + index) % 2**63


@dataclasses.dataclass
class Played:
    """One game of a pair: each seat's money, or why it was not played out."""

    seats: tuple[str, str, str]
    money: list[int] | None
    culprit: str | None = None
    """The side whose player made the server abort the deal."""
    group: str = ""


class MariasSlot:
    """Pairs of duplicate deals, one after the other (one of ``--concurrency``)."""

    def __init__(
        self,
        index: int,
        hall: Hall,
        specs: dict[str, EntrantSpec],
        tokens: dict[str, str],
        options: MatchOptions,
        tally: Tally,
        on_game: Callable[[], None],
    ) -> None:
        self.index = index
        self.hall = hall
        self.specs = specs
        self.tokens = tokens
        self.options = options
        self.tally = tally
        self.on_game = on_game
        self.played: list[Played] = []

    async def run(self) -> None:
        while (index := self.tally.take_pair()) is not None:
            first = await self.play(index, "A")
            second = await self.play(index, "B")
            a, b = self._result(first, index, "A"), self._result(second, index, "B")
            for result in (a, b):
                self.tally.add_game(result)
                self.on_game()
            self.tally.add_pair(a, b)
            self.on_game()

    def _result(self, game: Played, index: int, lone: str) -> GameResult:
        """The game from A's side: the lone player's money, signed for A."""
        if game.money is None:
            loser = game.culprit or lone
            return GameResult("B" if loser == "A" else "A", "crash", 0.0)
        money = game.money[index % SEATS]
        for_a = money if lone == "A" else -money
        winner = None if for_a == 0 else ("A" if for_a > 0 else "B")
        return GameResult(winner, None, float(for_a))

    async def play(self, index: int, lone: str) -> Played:
        """One game: the deal of pair ``index`` with ``lone`` alone in its seat."""
        sides = seats_of(index, lone)
        names = login_names(self.specs, sides)
        seed = deal_seed(self.options.seed, index)
        service = await serve_table(self.hall, seed, self.options.stall)
        login = service.login
        assert login is not None
        login.lobby.plan = lambda: names
        over: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

        def watch(event: Any) -> None:
            ids = [p.get("id") for p in event.data.get("players", [])]
            if event.kind == "game_over" and tuple(ids) == names and not over.done():
                over.set_result(dict(event.data))

        events = self.hall.bus.subscribe(lambda e: e.game == GAME and e.kind == "game_over")
        reader = asyncio.create_task(_feed(events, watch))
        port = login.player_address[1]
        running: list[Program] = []
        tasks: list[asyncio.Task[Any]] = []
        try:
            for seat, (side, name) in enumerate(zip(sides, names, strict=True)):
                spec = self.specs[side]
                if spec.house is not None:
                    decider = BotDecider(spec.house, games=1, seed=seed + seat)
                    me = PlayerRef(name, name, "bot")
                    tasks.append(
                        asyncio.create_task(
                            run_player(
                                "127.0.0.1",
                                port,
                                me,
                                decider,
                                groups=1,
                                status="passive",
                                token=self.tokens[name],
                            )
                        )
                    )
                else:
                    copy = dataclasses.replace(spec, login=name)
                    log_path = self.options.log_dir / f"{name}-{self.index + 1}.log"
                    program = Program(copy, GAME, "127.0.0.1", port, self.tokens[name], log_path)
                    running.append(program)
                    await program.start()
            limit = self.options.start_timeout + self.options.stall * 40
            try:
                data = await asyncio.wait_for(over, limit)
            except TimeoutError:
                raise MatchError(
                    f"a mariáš deal did not end within {limit:g} s (bot output in "
                    f"{self.options.log_dir})"
                ) from None
            money = data.get("money_game")
            if money is None:
                culprit = (data.get("result") or {}).get("culprit")
                guilty = sides[names.index(culprit)] if culprit in names else None
                return Played(sides, None, guilty)
            return Played(sides, [int(m) for m in money])
        finally:
            events.close()
            await retire(self.hall, service, [*tasks, reader], running)


async def serve_table(hall: Hall, seed: int, stall: float) -> CgmlService:
    """A CGML hall of its own for one table (``herna match``, ``herna tournament``): login
    server and super game server on free 127.0.0.1 ports, no bot servers, deals from
    ``seed``, ``stall`` seconds for each answer."""
    args = argparse.Namespace(
        host="127.0.0.1",
        cgml_login_port=0,
        cgml_login_server_port=0,
        cgml_game_port=0,
        no_house_bots=True,
        cgml_bot_delay=0.0,
        cgml_bot_capacity=0,
        cgml_house_tables=0,
        cgml_seed=seed,
        cgml_timeout=stall,
    )
    service = await CGML.start(hall, args, {})
    assert isinstance(service, CgmlService)
    hall.add(service)
    return service


async def _feed(events: Any, watch: Callable[[Any], None]) -> None:
    async for event in events:
        watch(event)


def copies(specs: dict[str, EntrantSpec]) -> list[str]:
    """Every login name a mariáš match uses (each side twice: alone and as a copy)."""
    return list(login_names(specs, ["A", "A", "B", "B"]))


async def run_marias(
    hall: Hall,
    specs: dict[str, EntrantSpec],
    options: MatchOptions,
    tally: Tally,
    on_game: Callable[[], None],
) -> None:
    """Play the match: ``options.concurrency`` slots take pairs until the tally is done."""
    tokens = {name: hall.identity.reserve_house_bot(name) for name in copies(specs)}
    slots = [
        MariasSlot(i, hall, specs, tokens, options, tally, on_game)
        for i in range(options.concurrency)
    ]
    await run_slots(slot.run() for slot in slots)


__all__ = ["HOUSE_STRATEGIES", "MariasSlot", "Played", "deal_seed", "run_marias", "seats_of"]

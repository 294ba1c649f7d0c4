"""Tile-game engine matches: the same seed both ways, the sides' seats swapped.

A pair is one game seed played twice on a shipped rules file (``--rules``, all seats of
it): first with A in the even seats (0, 2, …) and B in the odd ones, then swapped, so each
side plays every seat of the same tiles, draws and dice. A side with more than one seat
plays it with copies of its program named ``<name>-2``, … . A game is won by the side
whose seats' returns (``game_over``'s ``returns``) add up to more; equal sums are a draw.

One table is played by :func:`play_table` (``herna tournament`` plays its tile boards with
it too): a tile server of its own on a free 127.0.0.1 port, without house bots, seeded;
the seats join one after the other, so the join order is the seat order. The tile server's
own rules stand: a player that leaves is replaced by a house bot for the rest of the game,
one that does not act within the turn timeout (``--stall``) has a random legal action
played for it. A seat that does not sit down within ``--start-timeout`` ends the match
with an error (the tournament counts it as a no-show).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from herna.clients.tiles import run_bot
from herna.games.tiles.bots import STRATEGIES
from herna.hall.hall import Hall
from herna.servers.tiles import Table as TilesTable
from herna.servers.tiles import TilesSettings
from herna.servers.tiles import serve as serve_tiles

from .entrants import EntrantSpec, MatchError, Program, login_names, retire, run_slots
from .marias import deal_seed
from .onitama import MatchOptions
from .tally import GameResult, Tally

log = logging.getLogger("herna.match")

GAME = "tiles"
HOUSE_STRATEGIES = STRATEGIES
POLL = 0.05


@dataclass(frozen=True)
class TableResult:
    table: str | None
    returns: tuple[float, ...] | None
    """Each seat's return; None when the game stopped without a result."""
    missing: tuple[str, ...] = ()
    """Seats (names) that did not sit down in time (then ``returns`` is None)."""


async def play_table(
    hall: Hall,
    seats: list[tuple[str, EntrantSpec]],
    tokens: Mapping[str, str],
    rules: str,
    seed: int,
    stall: float,
    start_timeout: float,
    log_dir: Path,
    serial: int,
) -> TableResult:
    """One game of ``rules`` with ``seats`` (login name and side, in seat order)."""
    settings = TilesSettings(
        house_bots=False,
        bot_delay=0.0,
        turn_timeout=stall,
        lobby_wait=0.0,
        showcase=False,
        seed=seed,
        login_timeout=start_timeout,
    )
    service = await serve_tiles(hall, "127.0.0.1", 0, settings)
    hall.add(service)
    hub = service.hub
    events = hall.bus.subscribe(lambda e: e.game == GAME and e.kind == "game_over")
    tasks: list[asyncio.Task[object]] = []
    programs: list[Program] = []
    try:
        deadline = time.monotonic() + start_timeout
        table_id: str | None = None
        for seat, (name, spec) in enumerate(seats):
            if spec.house is not None:
                tasks.append(
                    asyncio.create_task(
                        run_bot(
                            "127.0.0.1",
                            service.port,
                            name,
                            rules,
                            strategy=spec.house,
                            games=1,
                            seed=seed * 16 + seat,
                            start=False,
                            token=tokens[name],
                            reconnect=False,
                        )
                    )
                )
            else:
                log_path = log_dir / f"{name}-{serial}.log"
                program = Program(
                    replace(spec, login=name), GAME, "127.0.0.1", service.port, tokens[name],
                    log_path,
                )  # fmt: skip
                programs.append(program)
                await program.start()
            # The next seat joins only once this one sits: join order is seat order.
            while (table_id := _seated(hub.tables, name, seat)) is None:
                if time.monotonic() > deadline:
                    log.info("tiles table %d: %s did not sit down", serial, name)
                    return TableResult(None, None, tuple(n for n, _ in seats[seat:]))
                await asyncio.sleep(POLL)
        async for event in events:
            if event.table != table_id:
                continue
            returns = event.data.get("result", {}).get("returns")
            if returns is None:
                return TableResult(table_id, None)  # stopped without a result
            names = event.data.get("players") or [n for n, _ in seats]
            by_name = dict(zip(names, returns, strict=False))
            return TableResult(table_id, tuple(float(by_name.get(n, 0.0)) for n, _ in seats))
        raise MatchError("the tile server stopped during a game")
    finally:
        events.close()
        await retire(hall, service, tasks, programs)


def _seated(tables: Mapping[str, TilesTable], name: str, seat: int) -> str | None:
    for table_id, table in tables.items():
        slot = table.seats[seat] if seat < len(table.seats) else None
        if slot is not None and slot.name == name:
            return table_id
    return None


def sides_of(seats: int, first: str) -> list[str]:
    """Which side sits where: ``first`` in the even seats, the other in the odd ones.

    >>> sides_of(4, "A"), sides_of(3, "B")
    (['A', 'B', 'A', 'B'], ['B', 'A', 'B'])
    """
    other = "B" if first == "A" else "A"
    return [first if i % 2 == 0 else other for i in range(seats)]


async def run_tiles(
    hall: Hall,
    specs: dict[str, EntrantSpec],
    options: MatchOptions,
    tally: Tally,
    on_game: Callable[[], None],
    rules: str,
    seats: int,
) -> None:
    """Play the match: ``options.concurrency`` slots take pairs until the tally is done."""
    everyone = {n for first in ("A", "B") for n in login_names(specs, sides_of(seats, first))}
    tokens = {name: hall.identity.reserve_house_bot(name) for name in everyone}

    async def game(index: int, first: str, slot: int) -> GameResult:
        sides = sides_of(seats, first)
        names = login_names(specs, sides)
        result = await play_table(
            hall,
            [(n, specs[s]) for n, s in zip(names, sides, strict=True)],
            tokens,
            rules,
            deal_seed(options.seed, index),
            options.stall,
            options.start_timeout,
            options.log_dir,
            slot + 1,
        )
        if result.returns is None:
            if result.missing:
                raise MatchError(
                    f"{', '.join(result.missing)} did not sit down within "
                    f"{options.start_timeout:g} s (bot output in {options.log_dir})"
                )
            return GameResult(None)
        a = sum(r for r, s in zip(result.returns, sides, strict=True) if s == "A")
        b = sum(r for r, s in zip(result.returns, sides, strict=True) if s == "B")
        return GameResult(None if a == b else ("A" if a > b else "B"))

    async def slot(number: int) -> None:
        while (index := tally.take_pair()) is not None:
            first = await game(index, "A", number)
            tally.add_game(first)
            on_game()
            second = await game(index, "B", number)
            tally.add_game(second)
            tally.add_pair(first, second)
            on_game()

    await run_slots(slot(i) for i in range(options.concurrency))


__all__ = ["HOUSE_STRATEGIES", "TableResult", "play_table", "run_tiles", "sides_of"]

"""Playing one board of a tournament on Herna's own servers.

Each board gets its own server on a free 127.0.0.1 port (as each slot of ``herna match``
does), in the hall the tournament runs in, so its record lands in the hall's database and
replays like any other game.

* Onitama: the board is one :class:`~herna.cli.match.onitama.Slot` of the match machinery:
  the same planner hook (seat 0 takes White, the cards come from the tournament's seed), the
  same forfeits (a crash, a stall, running out of ``--game-clock``, an illegal move) and the
  same restarts of programs.
* Tiles: the seats join one after the other, so the join order is the seat order the pairing
  chose; the server runs without house bots. A player who leaves mid-game is replaced by a
  house bot for the rest of it (the tile server's rule) and one who does not act within the
  turn timeout has a random legal action played for it; the result stands either way.

A board whose players do not all sit down within ``--start-timeout`` seconds is decided by
forfeit ``no-show``: those who came win, those who did not lose; when nobody came it counts
as lost for everyone.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path

from herna.clients.cgml import BotDecider, CgmlClientError, run_player
from herna.games.marias.bots import STRATEGY_CHOICES as MARIAS_STRATEGIES
from herna.games.mia.bots import STRATEGIES as MIA_STRATEGIES
from herna.games.tiles.bots import STRATEGIES as TILES_STRATEGIES
from herna.hall.hall import Hall
from herna.hall.tournament import Board, Game, no_show
from herna.protocols.cgml.messages import PlayerRef
from herna.servers.onitama import OnitamaSettings
from herna.servers.onitama import serve as serve_onitama

from ..match.entrants import EntrantSpec, MatchError, retire
from ..match.marias import serve_table
from ..match.onitama import HOUSE_STRATEGIES as ONITAMA_STRATEGIES
from ..match.onitama import MatchOptions, Slot, opening
from ..match.tally import Tally
from ..match.tiles import play_table

log = logging.getLogger("herna.tournament")

GAMES = ("onitama", "tiles", "marias", "mia")
HOUSE_STRATEGIES = {
    "onitama": ONITAMA_STRATEGIES,
    "tiles": TILES_STRATEGIES,
    "marias": MARIAS_STRATEGIES,
    "mia": MIA_STRATEGIES,
}
TABLE_SIZES = {"onitama": 2, "tiles": 4, "marias": 3, "mia": 2}
"""Seats at a board (Mia: the fewest players a session needs)."""
POLL = 0.05


@dataclass(frozen=True)
class BoardOptions:
    seed: int
    stall: float
    game_clock: float
    start_timeout: float
    log_dir: Path
    rules: str = "gold_rush"
    """Tiles: the shipped rules file every table plays."""
    deals: int = 3
    """Mariáš: games (deals) a table plays; 3 lets each seat deal once."""


async def play_board(
    hall: Hall,
    game: str,
    board: Board,
    serial: int,
    specs: dict[str, EntrantSpec],
    tokens: dict[str, str],
    options: BoardOptions,
) -> Game:
    """Play ``board`` (seats in order) and return it decided."""
    if game == "onitama":
        return await _onitama(hall, board, serial, specs, tokens, options)
    if game == "tiles":
        return await _tiles(hall, board, serial, specs, tokens, options)
    if game == "marias":
        return await _marias(hall, board, serial, specs, tokens, options)
    raise ValueError(f"no tournaments of {game!r}")


# -- Onitama -----------------------------------------------------------------------------------
async def _onitama(
    hall: Hall,
    board: Board,
    serial: int,
    specs: dict[str, EntrantSpec],
    tokens: dict[str, str],
    options: BoardOptions,
) -> Game:
    white, black = board.seats
    settings = OnitamaSettings(
        reconnect_window=0.0,
        illegal_move_forfeits=True,
        game_clock=options.game_clock,
        house_bot_delay=0.0,
        seed=options.seed + serial,
    )
    service = await serve_onitama(hall, "127.0.0.1", 0, settings)
    hall.add(service)
    sides = {"A": specs[white], "B": specs[black]}
    match_options = MatchOptions(
        pairs=1,
        concurrency=1,
        seed=options.seed,
        stall=options.stall,
        game_clock=options.game_clock,
        start_timeout=options.start_timeout,
        log_dir=options.log_dir,
    )
    slot = Slot(
        serial,
        hall,
        service,
        sides,
        {"A": tokens[white], "B": tokens[black]},
        match_options,
        Tally(planned_pairs=1),
        lambda: None,
    )
    try:
        try:
            result = await slot.play_single(opening(options.seed, serial), white="A")
        except MatchError as exc:
            present = [name for name in board.seats if slot.hub.logged_in(name)]
            log.info("board %d.%d: %s", board.round, board.number, exc)
            return no_show(board, present)
        if result.winner is None:
            ranks: tuple[float, ...] = (0.0, 0.0)
        else:
            ranks = (1.0, 0.0) if result.winner == "A" else (0.0, 1.0)
        return Game(board, ranks, result.forfeit, None, slot.table)
    finally:
        await slot.close()
        await retire(hall, service)


# -- tiles -------------------------------------------------------------------------------------
async def _tiles(
    hall: Hall,
    board: Board,
    serial: int,
    specs: dict[str, EntrantSpec],
    tokens: dict[str, str],
    options: BoardOptions,
) -> Game:
    result = await play_table(
        hall,
        [(name, specs[name]) for name in board.seats],
        tokens,
        options.rules,
        options.seed + serial,
        options.stall,
        options.start_timeout,
        options.log_dir,
        serial,
    )
    if result.missing:
        present = [n for n in board.seats if n not in result.missing]
        log.info("board %d.%d: %s did not sit down", board.round, board.number, result.missing)
        return no_show(board, present)
    if result.returns is None:
        # Stopped without a result (the server went away): nobody scores.
        return Game(board, (0.0,) * len(board.seats), "aborted", None, result.table)
    return Game(board, result.returns, None, None, result.table)


# -- mariáš ------------------------------------------------------------------------------------
async def _marias(
    hall: Hall,
    board: Board,
    serial: int,
    specs: dict[str, EntrantSpec],
    tokens: dict[str, str],
    options: BoardOptions,
) -> Game:
    """One CGML group of ``options.deals`` games. Seat 0 logs in ``active`` asking for the
    other seats by id, in seat order, and they log in ``passive``: the login server forms the
    group in that order and no bot server can take a seat. The board's result is each seat's
    money over the group's games."""
    service = await serve_table(hall, options.seed + serial, options.stall)
    assert service.login is not None  # a whole CGML hall, not a --cgml-login game server
    port = service.login.player_address[1]
    seats = board.seats
    before = max((m.id for m in hall.records.matches(game="marias", limit=1)), default=0)
    tasks = []
    try:
        for i, name in enumerate(seats):
            spec = specs[name]
            assert spec.house is not None  # parse_entrants admits house bots only here
            me = PlayerRef(name, name, "bot")
            others = tuple(PlayerRef(n) for n in seats[1:]) if i == 0 else ()
            decider = BotDecider(spec.house, games=options.deals, seed=options.seed + serial + i)
            tasks.append(
                asyncio.create_task(
                    run_player(
                        "127.0.0.1",
                        port,
                        me,
                        decider,
                        groups=1,
                        status="active" if i == 0 else "passive",
                        opponents=others,
                        token=tokens[name],
                    )
                )
            )
        try:
            summaries = await asyncio.wait_for(
                asyncio.gather(*tasks), options.start_timeout + options.deals * 60.0
            )
        except (TimeoutError, OSError, CgmlClientError) as exc:
            raise MatchError(f"mariáš table {board.round}.{board.number}: {exc}") from None
        money = tuple(float(s[0].money) if s else 0.0 for s in summaries)
        return Game(board, money, None, None, await _first_deal(hall, seats, before))
    finally:
        await retire(hall, service, tasks)


async def _first_deal(hall: Hall, seats: tuple[str, ...], after: int) -> str | None:
    """The table id of the group's first game (``GROUP.1``): the newest such record with
    these players in these seats. (A player hears a ticket, never the group's id.)"""
    await asyncio.to_thread(hall.records.flush)
    for m in hall.records.matches(game="marias", limit=50):
        if m.id <= after:
            break
        names = tuple(p.name for p in sorted(m.players, key=lambda p: p.seat))
        if m.table_id.endswith(".1") and names == seats:
            return m.table_id
    return None

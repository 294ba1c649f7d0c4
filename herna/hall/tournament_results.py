"""A live tournament board's result from its game server's events
(:mod:`herna.hall.tournament_live`): which event ends a board, and the :class:`Game` it
decides (Onitama's winner, a tile table's returns, a mariáš group's money); and the seatings
of a mariáš board played as a duplicate deal.
"""

from __future__ import annotations

from collections.abc import Sequence

from herna.hall.events import GameEvent
from herna.hall.lobby import name_key
from herna.hall.tournament import Board, Game

GROUP_FINISHED = "group finished"
"""How a CGML group that played all its games closes."""
FORFEITS = {"out_of_time": "time", "illegal_move": "illegal", "opponent_left": "left"}
"""Onitama ``GAME_OVER`` reasons that end a game a side did not play out, as the
tournament's forfeit words."""


def board_over(event: GameEvent) -> bool:
    """The event that ends a tournament board: a game's ``game_over``, or for mariáš the
    ``group_closed`` of its CGML group (a board is a group of several deals)."""
    if "tournament" not in event.data:
        return False
    return event.kind == ("group_closed" if event.game == "marias" else "game_over")


def decided(board: Board, event: GameEvent) -> Game:
    """The board's result from the game server's ``game_over`` event: a tile table's
    ``result.returns`` (one per seat, in seat order), or Onitama's ``winner``."""
    data = event.data
    result = data.get("result")
    returns = result.get("returns") if isinstance(result, dict) else None
    equal: tuple[float, ...] = (0.0,) * len(board.seats)  # no result (aborted): a tie
    if event.game == "marias":
        # The money each member won over the group's deals, by member id.
        ids = [str(p.get("id")) for p in data.get("players", [])]
        money = data.get("money") or []
        won = {name_key(i): float(m) for i, m in zip(ids, money, strict=False)}
        ranks = tuple(won.get(name_key(n), 0.0) for n in board.seats)
        played = int(data.get("game_no") or 0)
        forfeit = None if data.get("reason") == GROUP_FINISHED else "aborted"
        return Game(board, ranks, forfeit, None, f"{event.table}.1" if played else None)
    if event.game == "tiles":
        ranks = tuple(float(r) for r in returns) if returns else equal
        if len(ranks) != len(board.seats):
            ranks = equal
        return Game(board, ranks, None if returns else "aborted", None, event.table)
    winner = data.get("winner")
    if winner is None:
        ranks = equal
    else:
        ranks = tuple(1.0 if name_key(n) == name_key(winner) else 0.0 for n in board.seats)
    forfeit = FORFEITS.get(str(data.get("reason")))
    return Game(board, ranks, forfeit, None, event.table)


def duplicate_seats(board: Board) -> list[tuple[str, ...]]:
    """The seatings a board of a duplicate deal is played in: the board's own, then each
    turned one seat on, so that with the dealer's seat the same every time (the deal is
    the same) each entrant holds every hand once.

    >>> duplicate_seats(Board(1, 1, ("a", "b", "c")))
    [('a', 'b', 'c'), ('c', 'a', 'b'), ('b', 'c', 'a')]
    """
    seats = board.seats
    n = len(seats)
    return [tuple(seats[(i - k) % n] for i in range(n)) for k in range(n)]


def summed(board: Board, games: Sequence[Game]) -> Game:
    """One result of a board played as several games (a duplicate deal's seatings): each
    entrant's ranks added up, the first forfeit if any, the first game's record."""
    totals = {name: 0.0 for name in board.seats}
    for game in games:
        for name, rank in zip(game.seats, game.ranks, strict=False):
            totals[name] += rank
    forfeit = next((g.forfeit for g in games if g.forfeit is not None), None)
    first = games[0] if games else None
    return Game(
        board,
        tuple(totals[n] for n in board.seats),
        forfeit,
        first.match_id if first else None,
        first.table_id if first else None,
    )

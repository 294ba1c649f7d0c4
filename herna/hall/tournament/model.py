"""What a tournament is made of, as plain data: entrants, boards (one game at one table, or a
bye) and finished games with the points each seat scored.

Two-player games and multi-player tables are the same thing here: a board lists its seats in
order (seat 0 first: White in Onitama, the first to act in tiles), and a finished game gives
each seat the *pairwise* points it took from each other seat (1 for finishing ahead, 1/2 for a
tie, 0 for finishing behind). A seat's tournament points for the game are its pairwise points
divided by the number of opponents, so a two-player game scores 1, 1/2 or 0 as in chess and a
sole winner at a table of four scores 1, the last 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

FORMATS = ("round-robin", "swiss", "arena", "session")
"""``session``: Mia's timed dojo evening (everyone at one table, no pairings)."""


@dataclass(frozen=True)
class Board:
    """One game to play in a round: ``seats`` in seat order (a single name: a bye)."""

    round: int
    """1-based; an arena numbers its games as they start."""
    number: int
    """1-based board number within the round."""
    seats: tuple[str, ...]

    @property
    def bye(self) -> bool:
        return len(self.seats) == 1


@dataclass(frozen=True)
class Game:
    """A finished board: what each seat scored against each other seat."""

    board: Board
    ranks: tuple[float, ...] = ()
    """One number per seat, higher is better (the engine's returns); equal numbers tie.
    Empty for a bye, and for a game nobody came to (everyone scores 0)."""
    forfeit: str | None = None
    """How the game was decided when a side did not play it out (``crash``, ``stall``,
    ``time``, ``illegal``, ``no-show``); ``None`` for a game played out."""
    match_id: int | None = None
    """The hall's record of the game (its replay), when it has one."""
    table_id: str | None = None

    @property
    def seats(self) -> tuple[str, ...]:
        return self.board.seats

    def pairwise(self, i: int, j: int) -> Fraction:
        """What seat ``i`` took from seat ``j``: 1, 1/2 or 0 (0 for all when nobody came:
        a game without ranks)."""
        if not self.ranks:
            return Fraction(0)
        a, b = self.ranks[i], self.ranks[j]
        return Fraction(1) if a > b else Fraction(1, 2) if a == b else Fraction(0)

    def result(self, i: int) -> str:
        """``won``, ``drawn`` or ``lost`` for seat ``i`` (the standings' W/D/L and the Wins
        tie-break). Two seats: by the points (1, ½, 0). A larger table whose ranks add up to
        zero, as mariáš money does (what each seat won or paid): by the sign of the seat's
        rank, so both defenders who paid the aktér lost. Other tables: a sole first place
        won, a sole last place lost, anything between drawn."""
        if len(self.seats) > 2 and self.ranks and abs(sum(self.ranks)) < 1e-9:
            rank = self.ranks[i]
            return WON if rank > 0 else LOST if rank < 0 else DRAWN
        points = self.points(i)
        return WON if points == 1 else LOST if points == 0 else DRAWN

    def points(self, i: int) -> Fraction:
        """Seat ``i``'s tournament points for this game (see the module's docstring)."""
        n = len(self.seats)
        if n < 2:
            return Fraction(0)
        return sum((self.pairwise(i, j) for j in range(n) if j != i), Fraction(0)) / (n - 1)


NO_SHOW = "no-show"
WON, DRAWN, LOST = "won", "drawn", "lost"


def no_show(board: Board, present: Sequence[str]) -> Game:
    """A board decided because not everyone sat down in time: those present beat those
    absent; when nobody came it counts as lost for everyone."""
    if not present:
        return Game(board, (), NO_SHOW)
    return Game(board, tuple(1.0 if n in present else 0.0 for n in board.seats), NO_SHOW)


@dataclass
class History:
    """What pairing needs to know about the games so far."""

    met: dict[frozenset[str], int] = field(default_factory=dict)
    """How often each pair of entrants has sat at the same table."""
    whites: dict[str, int] = field(default_factory=dict)
    """Games each entrant played in seat 0 (White)."""
    blacks: dict[str, int] = field(default_factory=dict)
    seats: dict[str, list[int]] = field(default_factory=dict)
    """How often each entrant sat in each seat (multi-player tables)."""
    last_colour: dict[str, int] = field(default_factory=dict)
    byes: dict[str, int] = field(default_factory=dict)
    last_opponents: dict[str, frozenset[str]] = field(default_factory=dict)
    """Whom each entrant met in its latest game (the arena's "no immediate rematch")."""

    def add(self, board: Board) -> None:
        if board.bye:
            name = board.seats[0]
            self.byes[name] = self.byes.get(name, 0) + 1
            return
        seats = board.seats
        for i, a in enumerate(seats):
            for b in seats[i + 1 :]:
                key = frozenset((a, b))
                self.met[key] = self.met.get(key, 0) + 1
            counts = self.seats.setdefault(a, [0] * len(seats))
            if len(counts) < len(seats):
                counts.extend([0] * (len(seats) - len(counts)))
            counts[i] += 1
            self.last_opponents[a] = frozenset(s for s in seats if s != a)
        if len(seats) == 2:
            white, black = seats
            self.whites[white] = self.whites.get(white, 0) + 1
            self.blacks[black] = self.blacks.get(black, 0) + 1
            self.last_colour[white] = 0
            self.last_colour[black] = 1

    def colour_balance(self, name: str) -> int:
        """Whites minus blacks so far."""
        return self.whites.get(name, 0) - self.blacks.get(name, 0)

    @classmethod
    def of(cls, boards: Sequence[Board]) -> History:
        history = cls()
        for board in boards:
            history.add(board)
        return history

"""A client of the NUL dialect that behaves as the seed project's published client does.

Written for Herna's tests from the published client's observable behaviour (never from its
code): one ``read`` of at most 1024 bytes at a time, more than 255 bytes in one read is fatal,
records split on ``\\0`` without reassembly, a record with fewer than two fields or an unknown
command is ``WRONG_DATA``, exact field counts per message and phase (``START`` 8,
``RECONNECT`` 35 before a game and 2 in one, ``MOVE_WAS_MADE`` 6, the rest 2), ``PING|PING``
whenever a ``PING_TIME`` has passed since the last answer and a broken connection when none
came for ``MAX_TIMEOUT``, its own 5×5 board of ``wK``/``wP``/``bK``/``bP``/``--`` (row 0 at
the top, Black's side; White moves first) and its own move generator, ``MAKE_PASS`` with a
hand card when no card gives a move, and after ``GAME_OVER`` a new ``LOGIN`` for a rematch.

Everything that the published client would count as an error, or that would make it lose
track, is collected in :class:`Report` instead of ending the run, so tests can assert that
none happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import dataclass, field

COMMANDS = {
    "LOGIN",
    "MAKE_MOVE",
    "MAKE_PASS",
    "WAITING",
    "FAILED",
    "START",
    "MOVE_WAS_MADE",
    "PASS_WAS_MADE",
    "INVALID_MOVE",
    "DISCONNECT",
    "RECONNECT",
    "GAME_OVER",
    "PING",
}

# (dx, dy) from the holder's side: dx to the right, dy forward (onitama-rules.md, section 3).
CARDS: dict[str, list[tuple[int, int]]] = {
    "tiger": [(0, 2), (0, -1)],
    "dragon": [(-2, 1), (2, 1), (-1, -1), (1, -1)],
    "frog": [(-2, 0), (-1, 1), (1, -1)],
    "rabbit": [(2, 0), (1, 1), (-1, -1)],
    "crab": [(0, 1), (-2, 0), (2, 0)],
    "elephant": [(-1, 1), (1, 1), (-1, 0), (1, 0)],
    "goose": [(-1, 1), (-1, 0), (1, 0), (1, -1)],
    "rooster": [(1, 1), (-1, 0), (1, 0), (-1, -1)],
    "monkey": [(-1, 1), (1, 1), (-1, -1), (1, -1)],
    "mantis": [(-1, 1), (1, 1), (0, -1)],
    "horse": [(0, 1), (-1, 0), (0, -1)],
    "ox": [(0, 1), (1, 0), (0, -1)],
    "crane": [(0, 1), (-1, -1), (1, -1)],
    "boar": [(0, 1), (-1, 0), (1, 0)],
    "eel": [(-1, 1), (1, 0), (-1, -1)],
    "cobra": [(1, 1), (-1, 0), (1, -1)],
}

START_BOARD = [
    ["bP", "bP", "bK", "bP", "bP"],
    ["--"] * 5,
    ["--"] * 5,
    ["--"] * 5,
    ["wP", "wP", "wK", "wP", "wP"],
]

Move = tuple[str, int, int, int, int]


@dataclass
class Report:
    games: int = 0
    wins: int = 0
    moves: int = 0
    passes: int = 0
    pings: int = 0
    pongs: int = 0
    wrong_data: list[str] = field(default_factory=list)
    """Records the published client would count as wrong (and after five, quit)."""
    rejected: list[str] = field(default_factory=list)
    """INVALID_MOVE answers to moves this client's own generator called legal."""
    illegal_from_server: list[str] = field(default_factory=list)
    """Moves or passes the server announced that this client's model calls illegal."""
    lost_after_start: list[str] = field(default_factory=list)
    """Records that arrived in the same read as START or a full RECONNECT: the published
    client hands them to nobody."""
    oversized_reads: int = 0
    broken: bool = False
    failed: list[str] = field(default_factory=list)
    boards: list[list[list[str]]] = field(default_factory=list)
    """The board at the end of each game."""
    starts: list[list[str]] = field(default_factory=list)
    seat_key: str | None = None
    """``SEAT_KEY`` (only sent after a LOGIN with a third field)."""


class FinalClient:
    MAX_BUFF = 1024
    MAX_INPUT = 255

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        name: str,
        *,
        seed: int = 0,
        ping_time: float = 10.0,
        max_timeout: float = 20.0,
        proof: str | None = None,
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.name = name
        self.rng = random.Random(seed)
        self.ping_time = ping_time
        self.max_timeout = max_timeout
        self.proof = proof
        """A third LOGIN field (Herna extension); None speaks exactly as published."""
        self.report = Report()
        self.last_pong = time.monotonic()
        self.can_ping = True
        self.in_game = False
        self.game_over = False
        self.waiting_for_answer = False
        self.board: list[list[str]] = []
        self.cards: list[str] = []
        self.black = self.white = ""
        self.white_to_move = True
        self.enemy_away = False

    @classmethod
    async def open(cls, port: int, name: str, **options: object) -> FinalClient:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer, name, **options)  # type: ignore[arg-type]

    # -- wire -----------------------------------------------------------------------------------
    async def send(self, *fields: object) -> None:
        self.writer.write(("|".join(str(f) for f in fields) + "\0").encode())
        await self.writer.drain()

    async def login(self) -> None:
        if self.proof is None:
            await self.send("LOGIN", self.name)
        else:
            await self.send("LOGIN", self.name, self.proof)

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()

    # -- the model ------------------------------------------------------------------------------
    @property
    def me_white(self) -> bool:
        return self.white == self.name and self.black != self.name

    def my_turn(self) -> bool:
        return (
            self.in_game
            and not self.game_over
            and not self.enemy_away
            and self.white_to_move == self.me_white
        )

    def hand(self) -> list[str]:
        return self.cards[3:5] if self.white_to_move else self.cards[0:2]

    def valid_moves(self, card: str) -> list[Move]:
        colour = "w" if self.white_to_move else "b"
        sign = 1 if self.white_to_move else -1
        moves: list[Move] = []
        for r in range(5):
            for c in range(5):
                if self.board[r][c][0] != colour:
                    continue
                for dx, dy in CARDS[card]:
                    nr, nc = r - sign * dy, c + sign * dx
                    if 0 <= nr < 5 and 0 <= nc < 5 and self.board[nr][nc][0] != colour:
                        moves.append((card, r, c, nr, nc))
        return moves

    def apply(self, move: Move) -> None:
        card, r, c, nr, nc = move
        self.board[nr][nc] = self.board[r][c]
        self.board[r][c] = "--"
        self.exchange(card)

    def exchange(self, card: str) -> None:
        i = self.cards.index(card)
        self.cards[2], self.cards[i] = card, self.cards[2]
        self.white_to_move = not self.white_to_move

    def begin(self, fields: list[str]) -> None:
        self.black, self.white = fields[1], fields[2]
        self.cards = list(fields[3:8])
        self.board = [row[:] for row in START_BOARD]
        self.white_to_move = True
        self.in_game, self.game_over, self.enemy_away = True, False, False
        self.waiting_for_answer = False

    # -- one record -----------------------------------------------------------------------------
    def wrong(self, record: str) -> None:
        self.report.wrong_data.append(record)

    async def handle(self, record: str, rest: list[str]) -> None:
        fields = record.strip().split("|")
        if self.proof is not None and fields[0] == "SEAT_KEY" and len(fields) == 2:
            self.report.seat_key = fields[1]  # a Herna extension this client asked for
            return
        if len(fields) < 2 or fields[0] not in COMMANDS:
            self.wrong(record)
            return
        if fields[0] == "PING":
            if fields[1] != "PING":
                self.wrong(record)
            self.report.pongs += 1
            self.last_pong = time.monotonic()
            self.can_ping = True
        elif self.in_game:
            self.handle_game(fields[0], fields, record)
        else:
            await self.handle_intro(fields[0], fields, record, rest)

    async def handle_intro(self, cmd: str, fields: list[str], record: str, rest: list[str]) -> None:
        n = len(fields)
        if cmd == "WAITING" and n == 2:
            return
        if cmd == "FAILED" and n == 2:
            self.report.failed.append(fields[1])
            return
        if cmd == "START" and n == 8:
            self.report.starts.append(fields)
            self.begin(fields)
            self.report.lost_after_start += rest
            return
        if cmd == "RECONNECT" and n == 35:
            self.begin(["START", *fields[1:8]])
            me_white = fields[8] == "1"
            if me_white != self.me_white:
                self.wrong(record)
            self.white_to_move = fields[9] == "1"
            cells = fields[10:]
            self.board = [cells[r * 5 : r * 5 + 5] for r in range(5)]
            self.report.lost_after_start += rest
            return
        self.wrong(record)

    def handle_game(self, cmd: str, fields: list[str], record: str) -> None:
        n = len(fields)
        if cmd == "MOVE_WAS_MADE" and n == 6:
            try:
                move: Move = (fields[1], *(int(f) for f in fields[2:6]))  # type: ignore[assignment]
            except ValueError:
                self.wrong(record)
                return
            if move[0] not in self.hand() or move not in self.valid_moves(move[0]):
                self.report.illegal_from_server.append(record)
            self.apply(move)
            self.waiting_for_answer = False
        elif cmd == "PASS_WAS_MADE" and n == 2:
            card = fields[1]
            if card not in self.hand() or any(self.valid_moves(c) for c in self.hand()):
                self.report.illegal_from_server.append(record)
            self.exchange(card)
            self.waiting_for_answer = False
        elif cmd == "INVALID_MOVE" and n == 2:
            self.report.rejected.append(fields[1])
            self.waiting_for_answer = False
        elif cmd == "GAME_OVER" and n == 2:
            self.game_over = True
            self.report.games += 1
            self.report.wins += fields[1] == self.name
            self.report.boards.append([row[:] for row in self.board])
        elif cmd in ("DISCONNECT", "RECONNECT") and n == 2:
            enemy = self.black if self.me_white else self.white
            if fields[1] != enemy:
                self.wrong(record)
            self.enemy_away = cmd == "DISCONNECT"
        else:
            self.wrong(record)

    # -- playing ------------------------------------------------------------------------------
    async def maybe_play(self) -> None:
        if not self.my_turn() or self.waiting_for_answer:
            return
        hand = self.hand()
        moves = [m for card in hand for m in self.valid_moves(card)]
        self.waiting_for_answer = True
        if not moves:
            self.report.passes += 1
            await self.send("MAKE_PASS", self.rng.choice(hand))
            return
        winning = [m for m in moves if self.board[m[3]][m[4]][1] == "K"]
        card, r, c, nr, nc = self.rng.choice(winning or moves)
        self.report.moves += 1
        await self.send("MAKE_MOVE", card, r, c, nr, nc)

    async def maybe_ping(self) -> None:
        now = time.monotonic()
        if self.can_ping and now - self.last_pong > self.ping_time:
            self.can_ping = False
            self.report.pings += 1
            await self.send("PING", "PING")
        if now - self.last_pong > self.max_timeout:
            self.report.broken = True

    async def until_start(self, timeout: float = 10.0) -> None:
        """Log in and read until the game starts (then, say, lose the connection)."""
        await self.login()

        async def wait() -> None:
            while not self.in_game:
                data = await self.reader.read(self.MAX_BUFF)
                if not data:
                    raise ConnectionError("server closed the connection")
                for record in [r for r in data.decode().split("\0") if r]:
                    await self.handle(record, [])

        await asyncio.wait_for(wait(), timeout)

    async def run(self, games: int, timeout: float = 60.0, linger: float = 0.0) -> Report:
        """Log in and play ``games`` games, logging in again after each ``GAME_OVER`` (after
        ``linger`` seconds looking at the final board, as a person would)."""
        deadline = time.monotonic() + timeout
        await self.login()
        over_at: float | None = None
        while self.report.games < games and not self.report.broken:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: {self.report}")
            await self.maybe_ping()
            await self.maybe_play()
            if self.game_over and self.in_game:
                over_at = over_at or time.monotonic()
                if time.monotonic() - over_at >= linger and self.report.games < games:
                    self.in_game, over_at = False, None
                    await self.login()  # the rematch
            try:
                data = await asyncio.wait_for(self.reader.read(self.MAX_BUFF), 0.02)
            except TimeoutError:
                continue
            if not data:
                self.report.failed.append("server closed the connection")
                break
            if len(data) > self.MAX_INPUT:
                self.report.oversized_reads += 1
            records = [r for r in data.decode().split("\0") if r]
            for i, record in enumerate(records):
                rest = records[i + 1 :] if not self.in_game else []
                await self.handle(record, rest)
        return self.report

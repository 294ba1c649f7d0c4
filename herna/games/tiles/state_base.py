"""The fields of a tile game's state and the small lookups every part of the engine reads.

:class:`StateBase` holds what a :class:`~herna.games.tiles.engine.TilesState` is made of (the
board, the tiles, the pile, the players, where the turn stands) and answers the questions the
other parts ask of it: whose decision it is, what lies on a cell, which path a point is on.
The parts themselves are mix-ins built on it: :mod:`~herna.games.tiles.movement`,
:mod:`~herna.games.tiles.effects`, :mod:`~herna.games.tiles.applying`,
:mod:`~herna.games.tiles.legal` and :mod:`~herna.games.tiles.views`.
"""

from __future__ import annotations

from typing import Any, Literal

from herna.core.game import CHANCE, TERMINAL, Outcome, PlayerId
from herna.games.tiles.actions import Move, PlayerAction, Push
from herna.games.tiles.pieces import Player, Target, Tile
from herna.games.tiles.precomputed import KindInfo, Shared
from herna.games.tiles.rules import Rules


class StateBase:
    """The state's fields (one ``__slots__`` for the whole class family) and shared lookups."""

    __slots__ = (
        "_board_view",
        "_legal",
        "_legal_set",
        "_targets",
        "bag",
        "board",
        "bottom",
        "chance",
        "eliminated_now",
        "found",
        "goal_cursor",
        "hand_cursor",
        "happened",
        "movers",
        "phase",
        "pile",
        "players",
        "pool_left",
        "progress",
        "quiet",
        "refill",
        "result",
        "roll",
        "s",
        "step",
        "tiles",
        "turn",
        "turn_player",
    )

    def __init__(self, shared: Shared) -> None:
        self.s = shared
        self.board: list[int] = []
        self.tiles: list[Tile] = []
        self.pile: list[int] = []
        """Known top of the pile, top first."""
        self.bag: list[int] = []
        """The shuffled, still unknown middle of the pile (drawn from by CHANCE)."""
        self.bottom: list[int] = []
        """Tiles put under the pile (hands of eliminated players), next to be drawn first."""
        self.players: list[Player] = []
        self.phase: Literal["setup", "play", "over"] = "setup"
        self.goal_cursor: tuple[int, int, int] = (0, 0, 0)
        self.hand_cursor = 0
        self.pool_left: tuple[int, ...] = ()
        self.turn_player = 0
        self.step = 0
        self.movers: tuple[int, ...] | None = None
        self.roll: int | None = None
        self.refill = False
        self.turn = 0
        self.quiet = 0
        self.progress = False
        self.eliminated_now: tuple[int, ...] = ()
        self.found: tuple[tuple[int, str], ...] = ()
        """(seat, item) picked up on arriving in this action: still counts for 'find'."""
        self.result: Outcome | None = None
        self.chance: str | None = None
        self.happened: tuple[tuple[int | None, str], ...] = ()
        self._legal: list[PlayerAction] = []
        self._legal_set: dict[PlayerAction, PlayerAction] = {}
        self._targets: dict[Move, Target] = {}
        self._board_view: list[list[dict[str, Any] | None]] | None = None
        """The board as views show it, made once per state (every seat's view has it)."""

    # -- whose decision, which action -------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self.s.rules

    @property
    def num_players(self) -> int:
        return len(self.players)

    def current_player(self) -> PlayerId:
        if self.result is not None:
            return TERMINAL
        if self.chance is not None:
            return CHANCE
        if self.movers:
            return self.movers[0]
        return self.turn_player

    def current_action(self) -> str | None:
        """The ``turn_structure`` entry being played (``None`` during setup and at the end)."""
        if self.phase != "play" or self.refill or self.step >= len(self.rules.turn_structure):
            return None
        return self.rules.turn_structure[self.step]

    # -- lookups -----------------------------------------------------------------------------
    def _note(self, seat: int | None, text: str) -> None:
        self.happened = (*self.happened, (seat, text))

    def _xy(self, idx: int) -> str:
        w = self.rules.width
        return f"({idx % w}, {idx // w})"

    def pile_count(self) -> int:
        return len(self.pile) + len(self.bag) + len(self.bottom)

    def pile_top(self) -> int | None:
        """Id of the pile's known top tile (None if empty or not yet turned up)."""
        if self.pile:
            return self.pile[0]
        if not self.bag and self.bottom:
            return self.bottom[0]
        return None

    def _kind_at(self, cell: int) -> KindInfo | None:
        """Kind of the face-up tile on ``cell``; None for an empty cell or a face-down tile."""
        tid = self.board[cell]
        if tid < 0:
            return None
        tile = self.tiles[tid]
        if tile.face_down:
            return None
        return self.s.kinds[tile.kind]

    def _path_at(self, cell: int, point: int) -> tuple[int, ...] | None:
        tid = self.board[cell]
        if tid < 0:
            return None
        tile = self.tiles[tid]
        if tile.face_down:
            return None
        info = self.s.kinds[tile.kind]
        pi = info.point_path[tile.rotation][point]
        return info.paths[tile.rotation][pi] if pi >= 0 else None

    def _all_path_points(self, cell: int) -> list[int]:
        tid = self.board[cell]
        if tid < 0 or self.tiles[tid].face_down:
            return []
        tile = self.tiles[tid]
        return [p for path in self.s.kinds[tile.kind].paths[tile.rotation] for p in path]

    def _line(self, push: Push) -> list[int]:
        """Cells of the pushed line from the near end (where a tile comes in) to the far end."""
        w, h = self.rules.width, self.rules.height
        i = push.index
        if push.direction == "right":
            return [i * w + x for x in range(w)]
        if push.direction == "left":
            return [i * w + x for x in reversed(range(w))]
        if push.direction == "down":
            return [y * w + i for y in range(h)]
        return [y * w + i for y in reversed(range(h))]

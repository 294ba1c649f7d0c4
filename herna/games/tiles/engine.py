"""The tile/path game engine: a pure, deterministic :class:`~herna.core.game.GameState` for any
checked :class:`~herna.games.tiles.rules.Rules` (seed 004).

``new_game(rules)`` returns the state before setup; setup (filling the board, drawing random
goals, dealing hands), die rolls and draws from the pile are CHANCE actions, so a match's seed
and its action log replay a game exactly. Player actions are :class:`Move`, :class:`Push`,
:class:`Add` and :class:`Exchange` (see :mod:`herna.games.tiles.actions`); the runtime rules
the seed leaves open are decided in ``docs/games/tiles.md``.

>>> from herna.core.rng import SeededRng
>>> from herna.games.tiles.rules import load_rules_file, shipped_rules
>>> state = new_game(load_rules_file(shipped_rules()["labyrinth"]))
>>> rng = SeededRng(7)
>>> while state.current_player() < 0:
...     state = state.apply(rng.weighted(state.chance_outcomes()))
>>> state.current_player(), state.current_action()
(0, 'push')
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from herna.core.errors import IllegalAction
from herna.core.game import CHANCE, TERMINAL, Outcome, PlayerId
from herna.games.tiles.actions import (
    Action,
    Add,
    ChanceAction,
    Draw,
    DrawGoal,
    Exchange,
    Fill,
    Move,
    PlayerAction,
    Push,
    Roll,
)
from herna.games.tiles.geometry import SIDES, across, point_name, rotate_point
from herna.games.tiles.rules import Effect, Goal, RandomGoals, Rules, TileKind

Items = tuple[tuple[str, int], ...]
"""Item counts in listed order, e.g. ``(("coin", 3), ("gem", 1))``; counts are >= 1."""

Heading = Literal["in", "out"]

DEFAULT_MAX_ROUNDS = 500
"""Rounds after which a game is drawn ("round limit"); a Herna safeguard, not a rules field."""

DICE_ROUTE_BUDGET = 200_000
"""Most route steps explored for one die roll (keeps huge dice on open boards bounded)."""


# -- item bags --------------------------------------------------------------------------------
def items_count(items: Items, name: str) -> int:
    for n, c in items:
        if n == name:
            return c
    return 0


def items_add(items: Items, name: str, count: int) -> Items:
    if count <= 0:
        return items
    for i, (n, c) in enumerate(items):
        if n == name:
            return (*items[:i], (n, c + count), *items[i + 1 :])
    return (*items, (name, count))


def items_remove(items: Items, name: str, count: int) -> Items:
    out = []
    for n, c in items:
        if n == name:
            c -= count
        if c > 0:
            out.append((n, c))
    return tuple(out)


def items_merge(a: Items, b: Items) -> Items:
    for name, count in b:
        a = items_add(a, name, count)
    return a


def items_total(items: Items) -> int:
    return sum(c for _, c in items)


# -- pieces -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Tile:
    """One physical tile: a copy of ``rules.tiles[kind]`` with its own orientation and items."""

    id: int
    kind: int
    rotation: int = 0
    face_down: bool = False
    items: Items = ()
    store: Items = ()
    """Items kept by a tile with the ``collect`` effect (never picked up again)."""


@dataclass(frozen=True, slots=True)
class Player:
    cell: int
    """Cell index ``y * width + x`` of the player's current tile."""
    point: int
    heading: Heading = "in"
    """``in``: the next step goes along the current tile from ``point``; ``out``: it crosses
    ``point`` into the neighbouring cell."""
    goals: tuple[Goal, ...] = ()
    hidden: tuple[bool, ...] = ()
    """Per goal: drawn at random, so only its owner sees it until it is done."""
    done: int = 0
    """Goals completed (they are met in order)."""
    items: Items = ()
    hand: tuple[int, ...] = ()
    skip: int = 0
    eliminated: bool = False


class KindInfo:
    """Geometry of one tile kind in its four orientations (precomputed once per rules)."""

    __slots__ = (
        "can_turn_around",
        "canon",
        "distinct",
        "effect_texts",
        "effects",
        "face_down",
        "index",
        "items",
        "movement_ending",
        "named",
        "paths",
        "point_path",
    )

    def __init__(self, kind: TileKind | None, index: int, n: int) -> None:
        base = kind.paths if kind else ()
        self.index = index
        self.paths: list[tuple[tuple[int, ...], ...]] = []
        self.point_path: list[tuple[int, ...]] = []
        signatures = []
        for r in range(4):
            paths = tuple(tuple(rotate_point(p, r, n) for p in path) for path in base)
            table = [-1] * (4 * n)
            for pi, path in enumerate(paths):
                for p in path:
                    table[p] = pi
            self.paths.append(paths)
            self.point_path.append(tuple(table))
            signatures.append(frozenset(frozenset(path) for path in paths))
        self.canon = tuple(signatures.index(s) for s in signatures)
        """Smallest rotation that lays the paths out the same way."""
        self.distinct = tuple(sorted(set(self.canon)))
        self.movement_ending = bool(kind and kind.movement_ending)
        self.can_turn_around = bool(kind and kind.can_turn_around)
        self.effects: tuple[Effect, ...] = kind.effects if kind else ()
        self.items: Items = kind.items if kind else ()
        self.face_down = bool(kind and kind.face_down)
        # What views show of the kind, spelled out once (every view of every seat shows
        # every tile on the board).
        self.named = tuple(
            tuple(",".join(point_name(q, n) for q in path) for path in paths)
            for paths in self.paths
        )
        self.effect_texts = tuple(e.text for e in self.effects)


class Geometry:
    """Neighbour table of a board: ``across[cell][point] = (cell, point)`` or ``(-1, -1)``."""

    def __init__(self, width: int, height: int, n: int) -> None:
        self.width, self.height, self.n = width, height, n
        self.cells = width * height
        self.across: list[tuple[tuple[int, int], ...]] = []
        for idx in range(self.cells):
            row = []
            for p in range(4 * n):
                (x, y), q = across((idx % width, idx // width), p, n)
                row.append((y * width + x, q) if 0 <= x < width and 0 <= y < height else (-1, -1))
            self.across.append(tuple(row))

    def phys(self, cell: int, point: int) -> tuple[int, int]:
        """A name for the physical place of a point, the same from both sides."""
        other = self.across[cell][point]
        return (cell, point) if other[0] < 0 else min((cell, point), other)


@dataclass(frozen=True)
class _Shared:
    rules: Rules
    kinds: tuple[KindInfo, ...]
    """One per ``rules.tiles`` entry, plus a blank kind last (for tiles a bot cannot see)."""
    geo: Geometry
    max_rounds: int


_SHARED: OrderedDict[tuple[int, int], _Shared] = OrderedDict()
_SHARED_KEPT = 64
"""Rules objects whose precomputed geometry is kept (a server starts game after game of the
same few rules files; custom ones come and go)."""


_SHARED_LOCK = threading.Lock()  # bots search in worker threads


def _shared(rules: Rules, max_rounds: int) -> _Shared:
    key = (id(rules), max_rounds)
    with _SHARED_LOCK:
        found = _SHARED.get(key)
        if found is not None and found.rules is rules:
            _SHARED.move_to_end(key)
            return found
    kinds = tuple(KindInfo(k, i, rules.n) for i, k in enumerate(rules.tiles))
    blank = KindInfo(None, len(kinds), rules.n)
    geo = Geometry(rules.width, rules.height, rules.n)
    shared = _Shared(rules, (*kinds, blank), geo, max_rounds)
    with _SHARED_LOCK:
        _SHARED[key] = shared
        while len(_SHARED) > _SHARED_KEPT:
            _SHARED.popitem(last=False)
    return shared


# -- the state --------------------------------------------------------------------------------
Target = tuple[int, int, Heading]
"""Where a move ends: cell, point, heading."""


class TilesState:
    """One position of a tile/path game. Treat as immutable: :meth:`apply` returns a new one."""

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

    def __init__(self, shared: _Shared) -> None:
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

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def initial(cls, rules: Rules, max_rounds: int = DEFAULT_MAX_ROUNDS) -> TilesState:
        if max_rounds < 1:
            raise ValueError("max_rounds must be >= 1")
        state = cls(_shared(rules, max_rounds))
        state.board = [-1] * (rules.width * rules.height)
        for k, kind in enumerate(rules.tiles):
            for _ in range(kind.amount):
                tile = Tile(len(state.tiles), k, 0, kind.face_down, kind.items)
                state.tiles.append(tile)
                if kind.location is not None:
                    x, y = kind.location
                    state.board[y * rules.width + x] = tile.id
                else:
                    state.bag.append(tile.id)
        state.players = [
            Player(cell=spec.start[1] * rules.width + spec.start[0], point=spec.start_point)
            for spec in rules.players
        ]
        state.pool_left = tuple(range(len(rules.random_goal_pool)))
        state._advance()
        return state

    def _clone(self) -> TilesState:
        new = TilesState.__new__(TilesState)
        new.s = self.s
        new.board = list(self.board)
        new.tiles = list(self.tiles)
        new.pile = list(self.pile)
        new.bag = list(self.bag)
        new.bottom = list(self.bottom)
        new.players = list(self.players)
        new.phase = self.phase
        new.goal_cursor = self.goal_cursor
        new.hand_cursor = self.hand_cursor
        new.pool_left = self.pool_left
        new.turn_player = self.turn_player
        new.step = self.step
        new.movers = self.movers
        new.roll = self.roll
        new.refill = self.refill
        new.turn = self.turn
        new.quiet = self.quiet
        new.progress = self.progress
        new.eliminated_now = self.eliminated_now
        new.found = ()
        new.result = self.result
        new.chance = None
        new.happened = ()
        new._legal = []
        new._legal_set = {}
        new._targets = {}
        new._board_view = None
        return new

    # -- GameState protocol ------------------------------------------------------------------
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

    def legal_actions(self) -> Sequence[Action]:
        if self.chance is not None:
            return [a for a, _ in self.chance_outcomes()]
        return list(self._legal)

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]:
        kind = self.chance
        if kind is None:
            return []
        if kind == "roll":
            low, high = self.rules.min_move_distance, self.rules.max_move_distance
            return [(Roll(v), 1.0 / (high - low + 1)) for v in range(low, high + 1)]
        if kind == "goal":
            return [(DrawGoal(i), 1.0 / len(self.pool_left)) for i in self.pool_left]
        counts: dict[int, int] = {}
        for tid in self.bag:
            k = self.tiles[tid].kind
            counts[k] = counts.get(k, 0) + 1
        total = len(self.bag)
        if kind == "fill":
            return [
                (Fill(k, r), c / total / 4) for k, c in sorted(counts.items()) for r in range(4)
            ]
        return [(Draw(k), c / total) for k, c in sorted(counts.items())]

    def apply(self, action: Action) -> TilesState:
        if self.result is not None:
            raise IllegalAction("the game is over", "GAME_OVER")
        new = self._clone()
        if self.chance is not None:
            new.happened = self.happened  # chance steps add to the story of the last action
            if not isinstance(action, Fill | DrawGoal | Draw | Roll):
                raise IllegalAction("nature moves now (a chance event)", "NOT_YOUR_TURN")
            if action not in {a for a, _ in self.chance_outcomes()}:
                raise IllegalAction(f"{action} is not a possible chance outcome", "ILLEGAL")
            new._apply_chance(self.chance, action)
        else:
            if isinstance(action, Fill | DrawGoal | Draw | Roll):
                raise IllegalAction("chance actions are drawn by the match", "ILLEGAL")
            legal = self._legal_set.get(self.normalize(action))
            if legal is None:
                raise IllegalAction(self.explain_illegal(action), "ILLEGAL_ACTION")
            new._targets = self._targets
            new._apply_player(legal)
        new._advance()
        return new

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    # -- turn flow ---------------------------------------------------------------------------
    def _note(self, seat: int | None, text: str) -> None:
        self.happened = (*self.happened, (seat, text))

    def _advance(self) -> None:
        """Run the game on until a player or chance must decide, or the game is over."""
        self._legal, self._legal_set, self._targets = [], {}, {}
        self.chance = None
        rules = self.rules
        turn = rules.turn_structure
        while self.result is None:
            if self.phase == "setup":
                if not self._setup():
                    return
                self.phase = "play"
                self._begin_turn(0)
                continue
            if self.refill:
                if not self._refill():
                    return
                self.refill = False
                self._end_turn()
                continue
            if self.step >= len(turn) or (
                self.players[self.turn_player].eliminated and self.movers is None
            ):
                self.step = len(turn)
                self.movers = None
                self.refill = True
                continue
            name = turn[self.step]
            if name in ("move", "moveAll"):
                if self.movers is None:
                    self.movers = self._move_order(name == "moveAll")
                while self.movers and self.players[self.movers[0]].eliminated:
                    self.movers = self.movers[1:]
                if not self.movers:
                    self.movers = None
                    self.step += 1
                    self._end_action()
                    continue
                if rules.movement_type == "dice" and self.roll is None:
                    self.chance = "roll"
                    return
                self._targets = self._move_targets(self.players[self.movers[0]])
                options: list[PlayerAction] = list(self._targets)
                if len(options) == 1:
                    self._apply_player(options[0])
                    continue
                if not options:
                    self._note(self.movers[0], "cannot move")
                    self.movers = self.movers[1:]
                    self.roll = None
                    continue
                self._offer(options)
                return
            if self._needs_pile_top(name) and not self.pile and self.bag:
                self.chance = "reveal"
                return
            options = self._options(name)
            if not options:
                self.step += 1
                continue
            if len(options) == 1:
                self._apply_player(options[0])
                continue
            self._offer(options)
            return
        self.phase = "over"
        self.movers = None

    def _offer(self, options: list[PlayerAction]) -> None:
        self._legal = options
        self._legal_set = {a: a for a in options}

    def _move_order(self, everyone: bool) -> tuple[int, ...]:
        if not everyone:
            return (self.turn_player,)
        n = len(self.players)
        return tuple((self.turn_player + i) % n for i in range(n))

    def _begin_turn(self, seat: int) -> None:
        self.turn_player = seat
        self.step = 0
        self.movers = None
        self.roll = None
        self.refill = False
        self.progress = False
        self.turn += 1

    def _end_turn(self) -> None:
        self.quiet = 0 if self.progress else self.quiet + 1
        if self._stalled():
            return
        n = len(self.players)
        seat = self.turn_player
        for _ in range(n * (1 + max((p.skip for p in self.players), default=0))):
            seat = (seat + 1) % n
            p = self.players[seat]
            if p.eliminated:
                continue
            if p.skip > 0:
                self.players[seat] = replace(p, skip=p.skip - 1)
                self._note(seat, "misses a turn")
                self.turn += 1
                self.quiet += 1
                if self._stalled():
                    return
                continue
            self._begin_turn(seat)
            return
        raise AssertionError("no player to take a turn")  # pragma: no cover

    def _stalled(self) -> bool:
        """Rule 4 (a full round without progress) and Herna's round limit."""
        alive = [i for i, p in enumerate(self.players) if not p.eliminated]
        rounds = 5 if self.rules.movement_type == "dice" else 1
        if self.quiet >= rounds * len(alive):
            self._finish(
                alive,
                "no progress for a full round"
                if rounds == 1
                else f"no progress for {rounds} full rounds",
            )
            return True
        if self.turn >= self.s.max_rounds * len(self.players):
            self._finish(alive, f"round limit ({self.s.max_rounds} rounds)")
            return True
        return False

    # -- setup -------------------------------------------------------------------------------
    def _setup(self) -> bool:
        """Deterministic setup steps; False while a chance event is pending."""
        rules = self.rules
        if rules.fill_unspecified_tiles and self.bag:
            for idx in range(len(self.board)):
                if self.board[idx] == -1:
                    self.chance = "fill"
                    return False
        while True:
            i, j, k = self.goal_cursor
            if i >= len(rules.players):
                break
            slots = rules.players[i].goals
            if j >= len(slots):
                self.goal_cursor = (i + 1, 0, 0)
                continue
            slot = slots[j]
            if isinstance(slot, RandomGoals):
                if k < slot.count:
                    self.chance = "goal"
                    return False
                self.goal_cursor = (i, j + 1, 0)
                continue
            p = self.players[i]
            self.players[i] = replace(p, goals=(*p.goals, slot), hidden=(*p.hidden, False))
            self.goal_cursor = (i, j + 1, 0)
        while self.hand_cursor < len(self.players):
            if not self._fill_hand(self.hand_cursor, "deal"):
                return False
            self.hand_cursor += 1
        return True

    def _fill_hand(self, seat: int, chance: str) -> bool:
        """Draw up to ``max_hand_size``; False while a chance draw is pending."""
        size = self.rules.hand_size
        while True:
            p = self.players[seat]
            if p.eliminated or len(p.hand) >= size or self.pile_count() == 0:
                return True
            if not self.pile and self.bag:
                self.chance = chance
                return False
            tid = self.pile.pop(0) if self.pile else self.bottom.pop(0)
            self.tiles[tid] = replace(self.tiles[tid], face_down=False)
            self.players[seat] = replace(p, hand=(*p.hand, tid))

    def _refill(self) -> bool:
        return self._fill_hand(self.turn_player, "refill")

    def _apply_chance(self, kind: str, action: ChanceAction) -> None:
        if isinstance(action, Roll):
            self.roll = action.value
            assert self.movers
            self._note(self.movers[0], f"rolls {action.value}")
            return
        if isinstance(action, DrawGoal):
            i, j, k = self.goal_cursor
            self.pool_left = tuple(x for x in self.pool_left if x != action.index)
            p = self.players[i]
            goal = self.rules.random_goal_pool[action.index]
            self.players[i] = replace(p, goals=(*p.goals, goal), hidden=(*p.hidden, True))
            self.goal_cursor = (i, j, k + 1)
            self._note(i, "draws a secret goal")
            return
        tid = min(t for t in self.bag if self.tiles[t].kind == action.kind)
        self.bag.remove(tid)
        if isinstance(action, Fill):
            idx = self.board.index(-1)
            spec = self.rules.tiles[action.kind]
            self.tiles[tid] = replace(
                self.tiles[tid], rotation=action.rotation, face_down=spec.face_down
            )
            self.board[idx] = tid
            self._note(None, f"a tile fills {self._xy(idx)}")
        elif kind == "reveal":
            self.tiles[tid] = replace(self.tiles[tid], face_down=False)  # off the board: up
            self.pile.insert(0, tid)
            self._note(None, "the pile's top tile is turned up")
        else:
            seat = self.hand_cursor if kind == "deal" else self.turn_player
            self.tiles[tid] = replace(self.tiles[tid], face_down=False)
            p = self.players[seat]
            self.players[seat] = replace(p, hand=(*p.hand, tid))
            self._note(seat, "draws a tile")

    # -- helpers -----------------------------------------------------------------------------
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

    def _turnable(self, p: Player) -> bool:
        if not self.rules.only_forward_movement:
            return True
        kind = self._kind_at(p.cell)
        return bool(kind and kind.can_turn_around)

    def _start_exits(self, p: Player) -> tuple[list[int], bool]:
        """(points by which the player can leave along its current tile, whether it may cross
        its own point directly)."""
        turnable = self._turnable(p)
        path = self._path_at(p.cell, p.point)
        if path is not None:
            along = [q for q in path if q != p.point]
        else:
            along = self._all_path_points(p.cell)  # off every path: any path of the tile
        if p.heading == "in":
            return along, turnable
        return (along if turnable else []), True

    # -- movement ----------------------------------------------------------------------------
    def _move_targets(self, p: Player) -> dict[Move, Target]:
        kind = self.rules.movement_type
        if kind == "free":
            ends = self._free(p)
        elif kind == "dice":
            ends = self._dice(p, self.roll or 0)
        else:
            ends = self._forced(p, self.rules.max_steps, True)[0]
        w = self.rules.width
        out: dict[Move, Target] = {}
        for (cell, point), heading in ends.items():
            out.setdefault(Move(cell % w, cell // w, point), (cell, point, heading))
        return out

    def _free(self, p: Player) -> dict[tuple[int, int], Heading]:
        rules = self.rules
        low, high = rules.min_move_distance, rules.max_steps
        forward_only = rules.only_forward_movement
        across_ = self.s.geo.across
        along, cross = self._start_exits(p)
        leave = set(along)
        if cross:
            leave.add(p.point)
        tile_dist = {p.cell: 0}
        entries: dict[tuple[int, int], int] = {}
        seen: set[tuple[int, int, int]] = set()
        queue: deque[tuple[int, int, int, int]] = deque()

        def reach(q_cell: int, q: int, d: int) -> None:
            nb, q2 = across_[q_cell][q]
            if nb < 0:
                return
            path = self._path_at(nb, q2)
            if path is None:
                return
            best = tile_dist.setdefault(nb, d)
            if best == d:
                entries.setdefault((nb, q2), d)
            key = (nb, min(path), q2 if forward_only else -1)
            if key not in seen:
                seen.add(key)
                queue.append((nb, q2, d, 0))

        if high is None or high >= 1:
            for q in sorted(leave):
                reach(p.cell, q, 1)
        while queue:
            cell, entry, d, _ = queue.popleft()
            kind = self._kind_at(cell)
            if kind is None or kind.movement_ending or (high is not None and d >= high):
                continue
            path = self._path_at(cell, entry)
            assert path is not None
            for q in path:
                if q != entry:
                    reach(cell, q, d + 1)
        out: dict[tuple[int, int], Heading] = {}
        if low <= 0:
            out[(p.cell, p.point)] = p.heading
        for (cell, entry), d in entries.items():
            if d >= low and (high is None or d <= high):
                out[(cell, entry)] = "in"
        return out

    def _dice(self, p: Player, roll: int) -> dict[tuple[int, int], Heading]:
        stay: dict[tuple[int, int], Heading] = {(p.cell, p.point): p.heading}
        if roll <= 0:
            return stay
        across_ = self.s.geo.across
        along, cross = self._start_exits(p)
        leave = set(along)
        if cross:
            leave.add(p.point)
        found: dict[tuple[int, int], Heading] = {}
        budget = [DICE_ROUTE_BUDGET]

        def go(cell: int, entry: int, depth: int, visited: frozenset[int]) -> None:
            budget[0] -= 1
            if budget[0] < 0:
                return
            kind = self._kind_at(cell)
            if depth == roll or (kind is not None and kind.movement_ending):
                found[(cell, entry)] = "in"
                return
            path = self._path_at(cell, entry)
            assert path is not None
            for q in path:
                if q == entry:
                    continue
                nb, q2 = across_[cell][q]
                if nb >= 0 and nb not in visited and self._path_at(nb, q2) is not None:
                    go(nb, q2, depth + 1, visited | {nb})

        start = frozenset({p.cell})
        for q in sorted(leave):
            nb, q2 = across_[p.cell][q]
            if nb >= 0 and nb != p.cell and self._path_at(nb, q2) is not None:
                go(nb, q2, 1, start | {nb})
        return found or stay

    def _forced(
        self,
        p: Player,
        limit: int | None,
        stop_on_ending: bool,
    ) -> tuple[dict[tuple[int, int], Heading], set[int], set[int]]:
        """Follow the player's path: (ends -> heading, cells passed, empty cells at the ends).

        With ``limit``/``stop_on_ending`` off this is "the path the player is on" used by
        ``connected`` adding and exchanging.
        """
        geo = self.s.geo
        ends: dict[tuple[int, int], Heading] = {}
        passed: set[int] = set()
        empty: set[int] = set()
        start = (p.cell, p.point)

        def stop(cell: int, point: int, heading: Heading) -> None:
            if (cell, point) == start:
                heading = p.heading
            ends.setdefault((cell, point), heading)

        # (cell, point about to be crossed, steps so far, physical points passed)
        stack: list[tuple[int, int, int, set[tuple[int, int]]]] = []
        along, cross = self._start_exits(p)
        home = {geo.phys(p.cell, p.point)}
        if self._kind_at(p.cell) is not None:
            passed.add(p.cell)
        if p.heading == "in":
            if self.board[p.cell] < 0:
                empty.add(p.cell)
            if not along:
                stop(p.cell, p.point, p.heading)
            for e in along:
                if geo.phys(p.cell, e) in home:
                    continue
                stack.append((p.cell, e, 0, home | {geo.phys(p.cell, e)}))
            if cross:
                stack.append((p.cell, p.point, 0, set(home)))
        else:
            stack.append((p.cell, p.point, 0, set(home)))
            for e in along:
                stack.append((p.cell, e, 0, home | {geo.phys(p.cell, e)}))
        while stack:
            cell, q, steps, visited = stack.pop()
            while True:
                nb, q2 = geo.across[cell][q]
                if nb < 0:
                    stop(cell, q, "out")
                    break
                if self.board[nb] < 0:
                    empty.add(nb)
                    stop(cell, q, "out")
                    break
                path = self._path_at(nb, q2)
                if path is None or (limit is not None and steps >= limit):
                    stop(cell, q, "out")
                    break
                steps += 1
                passed.add(nb)
                kind = self._kind_at(nb)
                if stop_on_ending and kind is not None and kind.movement_ending:
                    stop(nb, q2, "in")
                    break
                exits = [e for e in path if e != q2]
                fresh = [e for e in exits if geo.phys(nb, e) not in visited]
                if not exits or len(fresh) < len(exits):
                    stop(nb, q2, "in")  # a dead end, or the path closes on itself
                if not fresh:
                    break
                for e in fresh[1:]:
                    stack.append((nb, e, steps, visited | {geo.phys(nb, e)}))
                visited.add(geo.phys(nb, fresh[0]))
                cell, q = nb, fresh[0]
        if not ends:
            ends[start] = p.heading
        return ends, passed, empty

    # -- applying player actions -------------------------------------------------------------
    def _apply_player(self, action: PlayerAction) -> None:
        if isinstance(action, Move):
            self._do_move(action)
            return
        seat = self.turn_player
        if isinstance(action, Push):
            self._do_push(action)
        elif isinstance(action, Add):
            self._do_add(action)
        else:
            self._do_exchange(action)
        self.progress = True
        self.step += 1
        self._check_goal(seat)
        self._end_action()

    def _do_move(self, move: Move) -> None:
        assert self.movers
        seat = self.movers[0]
        cell, point, heading = self._targets[move]
        p = self.players[seat]
        moved = (cell, point) != (p.cell, p.point)
        self.players[seat] = replace(p, cell=cell, point=point, heading=heading)
        if moved:
            self.progress = True
            self._note(seat, f"moves to {self._xy(cell)} {point_name(point, self.rules.n)}")
            self._arrive(seat)
        else:
            self._note(seat, "stays")
        self.movers = self.movers[1:]
        self.roll = None
        self._check_goal(seat)
        if self.result is None:
            self._check_conditions()

    def _arrive(self, seat: int) -> None:
        """End of a real movement: pick up items, then run the tile's effects in order."""
        rules = self.rules
        p = self.players[seat]
        tid = self.board[p.cell]
        if tid < 0 or self.tiles[tid].face_down:
            return
        tile = self.tiles[tid]
        if rules.max_player_items != 0 and tile.items:
            room = (
                rules.max_player_items - items_total(p.items)
                if rules.max_player_items > 0
                else 10**9
            )
            taken: Items = ()
            for name, count in tile.items:
                take = count if rules.items_picked_up < 0 else min(count, rules.items_picked_up)
                take = min(take, room)
                if take > 0:
                    taken = items_add(taken, name, take)
                    room -= take
            if taken:
                self.tiles[tid] = replace(tile, items=_items_minus(tile.items, taken))
                p = replace(p, items=items_merge(p.items, taken))
                self.players[seat] = p
                self.found = (*self.found, *((seat, name) for name, _ in taken))
                self._note(seat, "picks up " + ", ".join(f"{c} {n}" for n, c in taken))
        for effect in self.s.kinds[tile.kind].effects:
            self._effect(seat, tid, effect)
            if self.players[seat].eliminated:
                break

    def _effect(self, seat: int, tid: int, effect: Effect) -> None:
        p = self.players[seat]
        w = self.rules.width
        if effect.kind == "move":
            self.players[seat] = replace(
                p, cell=effect.y * w + effect.x, point=effect.point, heading="in"
            )
            self._note(
                seat,
                f"is sent to ({effect.x}, {effect.y}) {point_name(effect.point, self.rules.n)}",
            )
        elif effect.kind == "return":
            spec = self.rules.players[seat]
            self.players[seat] = replace(
                p, cell=spec.start[1] * w + spec.start[0], point=spec.start_point, heading="in"
            )
            self._note(seat, "returns to the start")
        elif effect.kind == "skip":
            self.players[seat] = replace(p, skip=p.skip + effect.count)
            self._note(seat, f"will miss {effect.count} turn(s)")
        elif effect.kind == "collect":
            if p.items:
                tile = self.tiles[tid]
                self.tiles[tid] = replace(tile, store=items_merge(tile.store, p.items))
                self.players[seat] = replace(p, items=())
                self._note(seat, "stores " + ", ".join(f"{c} {n}" for n, c in p.items))
        elif effect.kind == "send":
            target = self.board[effect.y * w + effect.x]
            if p.items and target >= 0:
                tile = self.tiles[target]
                self.tiles[target] = replace(tile, items=items_merge(tile.items, p.items))
                self.players[seat] = replace(p, items=())
                self._note(seat, f"loses its items to ({effect.x}, {effect.y})")
        elif effect.kind == "eliminate":
            self._eliminate(seat)

    def _eliminate(self, seat: int) -> None:
        p = self.players[seat]
        tid = self.board[p.cell]
        if p.items and tid >= 0:
            tile = self.tiles[tid]
            self.tiles[tid] = replace(tile, items=items_merge(tile.items, p.items))
        self.bottom.extend(p.hand)
        self.players[seat] = replace(p, eliminated=True, items=(), hand=(), skip=0)
        self.eliminated_now = (*self.eliminated_now, seat)
        self._note(seat, "is eliminated")

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

    def _do_push(self, push: Push) -> None:
        line = self._line(push)
        old = [self.board[c] for c in line]
        leaving = old[-1]
        if self.rules.cycle_pushed_out_tiles:
            incoming = leaving
        else:
            incoming = self._take_pile_top()
            if leaving >= 0:
                self.tiles[leaving] = replace(self.tiles[leaving], rotation=0, face_down=False)
                self.pile.insert(0, leaving)
        if incoming >= 0:
            self.tiles[incoming] = replace(
                self.tiles[incoming], rotation=push.rotation, face_down=False
            )
        for c, tid in zip(line, [incoming, *old[:-1]], strict=True):
            self.board[c] = tid
        where = {c: k for k, c in enumerate(line)}
        for seat, p in enumerate(self.players):
            k = where.get(p.cell)
            if k is not None and not p.eliminated:
                self.players[seat] = replace(p, cell=line[(k + 1) % len(line)])
        self._note(self.turn_player, f"pushes {push.line} {push.index} {push.direction}")

    def _take_pile_top(self) -> int:
        if self.pile:
            return self.pile.pop(0)
        assert not self.bag, "the pile's top must be turned up first"
        return self.bottom.pop(0)

    def _place(self, tid: int, cell: int, rotation: int) -> None:
        self.tiles[tid] = replace(self.tiles[tid], rotation=rotation, face_down=False)
        self.board[cell] = tid

    def _take_new_tile(self, from_hand: bool, tid: int | None) -> int:
        if not from_hand:
            return self._take_pile_top()
        assert tid is not None
        p = self.players[self.turn_player]
        hand = list(p.hand)
        hand.remove(tid)
        self.players[self.turn_player] = replace(p, hand=tuple(hand))
        return tid

    def _do_add(self, add: Add) -> None:
        tid = self._take_new_tile(self.rules.adding_from == "hand", add.tile)
        cell = add.y * self.rules.width + add.x
        self._place(tid, cell, add.rotation)
        self._note(self.turn_player, f"adds a tile at {self._xy(cell)}")

    def _do_exchange(self, ex: Exchange) -> None:
        cell = ex.y * self.rules.width + ex.x
        old = self.board[cell]
        to_hand = self.rules.exchange_with == "hand"
        tid = self._take_new_tile(to_hand, ex.tile)
        self._place(tid, cell, ex.rotation)
        self.tiles[old] = replace(self.tiles[old], rotation=0, face_down=False)
        if to_hand:
            p = self.players[self.turn_player]
            self.players[self.turn_player] = replace(p, hand=(*p.hand, old))
        else:
            self.pile.insert(0, old)
        self._note(self.turn_player, f"exchanges the tile at {self._xy(cell)}")

    # -- options -----------------------------------------------------------------------------
    def _needs_pile_top(self, name: str) -> bool:
        rules = self.rules
        return (
            (name == "push" and not rules.cycle_pushed_out_tiles)
            or (name == "add" and rules.adding_from == "pile")
            or (name == "exchange" and rules.exchange_with == "pile")
        )

    def _rotations(self, tid: int) -> tuple[int, ...]:
        if tid < 0:
            return (0,)
        return self.s.kinds[self.tiles[tid].kind].distinct

    def _new_tiles(self, from_hand: bool) -> list[int | None]:
        """Tiles the player can put down: None = the pile's top; else distinct hand tiles."""
        if not from_hand:
            return [None] if self.pile_count() else []
        seen = set()
        out: list[int | None] = []
        for tid in self.players[self.turn_player].hand:
            t = self.tiles[tid]
            key = (t.kind, t.items, t.store)
            if key not in seen:
                seen.add(key)
                out.append(tid)
        return out

    def _options(self, name: str) -> list[PlayerAction]:
        rules = self.rules
        w, h = rules.width, rules.height
        out: list[PlayerAction] = []
        if name == "push":
            if not rules.cycle_pushed_out_tiles and self.pile_count() == 0:
                return []
            lines: list[Push] = []
            for y in range(h):
                if y not in rules.unpushable_rows:
                    lines += [Push("left", y), Push("right", y)]
            for x in range(w):
                if x not in rules.unpushable_columns:
                    lines += [Push("up", x), Push("down", x)]
            for push in lines:
                incoming = (
                    self.board[self._line(push)[-1]]
                    if rules.cycle_pushed_out_tiles
                    else self.pile_top()
                )
                for r in self._rotations(-1 if incoming is None else incoming):
                    out.append(Push(push.direction, push.index, r))
            return out
        p = self.players[self.turn_player]
        if name == "add":
            from_hand = rules.adding_from == "hand"
            if rules.adding_mode == "connected":
                cells = sorted(self._forced(p, None, False)[2])
            else:
                cells = [c for c, tid in enumerate(self.board) if tid < 0]
            for tid in self._new_tiles(from_hand):
                real = self.pile_top() if tid is None else tid
                for cell in cells:
                    for r in self._rotations(-1 if real is None else real):
                        out.append(Add(cell % w, cell // w, r, tid))
            return out
        # exchange
        from_hand = rules.exchange_with == "hand"
        if rules.exchanging_mode == "connected":
            cells = sorted(
                c for c in self._forced(p, None, False)[1] | {p.cell} if self.board[c] >= 0
            )
        else:
            cells = [c for c, tid in enumerate(self.board) if tid >= 0]
        cells = [
            c
            for c in cells
            if (c % w, c // w) not in rules.not_exchangeable_tiles
            and (not rules.exchange_only_flipped or self.tiles[self.board[c]].face_down)
        ]
        for tid in self._new_tiles(from_hand):
            real = self.pile_top() if tid is None else tid
            for cell in cells:
                for r in self._rotations(-1 if real is None else real):
                    out.append(Exchange(cell % w, cell // w, r, tid))
        return out

    def normalize(self, action: PlayerAction) -> PlayerAction:
        """The same action in the form :meth:`legal_actions` lists it: rotations that lay a
        tile out identically map to the smallest one, identical hand tiles to the first."""
        if isinstance(action, Push):
            if self.rules.cycle_pushed_out_tiles:
                if (
                    not 0
                    <= action.index
                    < (self.rules.height if action.line == "row" else self.rules.width)
                ):
                    return action
                tid = self.board[self._line(action)[-1]]
            else:
                top = self.pile_top()
                tid = -1 if top is None else top
            rot = self.s.kinds[self.tiles[tid].kind].canon[action.rotation % 4] if tid >= 0 else 0
            return replace(action, rotation=rot)
        if isinstance(action, Add | Exchange):
            hand_tile: int | None = action.tile
            real: int | None = hand_tile
            if hand_tile is not None:
                hand = self.players[self.turn_player].hand
                if hand_tile in hand:
                    t = self.tiles[hand_tile]
                    key = (t.kind, t.items, t.store)
                    real = hand_tile = next(
                        h
                        for h in hand
                        if (self.tiles[h].kind, self.tiles[h].items, self.tiles[h].store) == key
                    )
            else:
                real = self.pile_top()
            if real is None or not 0 <= real < len(self.tiles):
                return action
            rot = self.s.kinds[self.tiles[real].kind].canon[action.rotation % 4]
            return replace(action, rotation=rot, tile=hand_tile)
        return action

    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal now, in words."""
        name = self.current_action()
        want = {"move": Move, "moveAll": Move, "push": Push, "add": Add, "exchange": Exchange}
        if name is None:
            return "no player action is expected now"
        expected = want[name]
        if not isinstance(action, expected):
            return f"now is the {name!r} action: send a {expected.__name__.lower()} action"
        rules = self.rules
        if isinstance(action, Move):
            return (
                f"cannot end a move at ({action.x}, {action.y}) "
                f"{point_name(action.point, rules.n)}; see the legal moves"
            )
        if isinstance(action, Push):
            if action.line == "row" and action.index in rules.unpushable_rows:
                return f"row {action.index} cannot be pushed"
            if action.line == "column" and action.index in rules.unpushable_columns:
                return f"column {action.index} cannot be pushed"
            return f"cannot push {action.line} {action.index} {action.direction}"
        if isinstance(action, Add | Exchange):
            if (
                action.tile is not None
                and (rules.adding_from if isinstance(action, Add) else rules.exchange_with)
                == "hand"
                and action.tile not in self.players[self.turn_player].hand
            ):
                return f"tile {action.tile} is not in your hand"
            source = rules.adding_from if isinstance(action, Add) else rules.exchange_with
            if source == "hand" and action.tile is None:
                return "say which hand tile to use ('tile': ID)"
            if source == "pile" and action.tile is not None:
                return "the tile comes from the pile here: leave out 'tile'"
            verb = "add a tile at" if isinstance(action, Add) else "exchange the tile at"
            return f"cannot {verb} ({action.x}, {action.y})"
        return "not legal now"

    # -- goals and the end -------------------------------------------------------------------
    def _goal_met(self, seat: int, p: Player, goal: Goal) -> bool:
        w = self.rules.width
        if goal.kind == "reach":
            return p.cell == goal.y * w + goal.x
        if goal.kind == "collect":
            return items_count(p.items, goal.name) >= goal.count
        if goal.kind == "find":
            tid = self.board[p.cell]
            if any(f == (seat, goal.name) for f in self.found):
                return True  # it was on the tile when the player arrived and picked it up
            return (
                tid >= 0
                and not self.tiles[tid].face_down
                and items_count(self.tiles[tid].items, goal.name) > 0
            )
        return False

    def _check_goal(self, seat: int) -> None:
        p = self.players[seat]
        if p.eliminated or p.done >= len(p.goals) or self.result is not None:
            return
        goal = p.goals[p.done]
        if not self._goal_met(seat, p, goal):
            return
        p = replace(p, done=p.done + 1)
        self.players[seat] = p
        self._note(seat, f"completes goal '{goal.text}'")
        if p.done == len(p.goals):
            self._finish([seat], "completed every goal")

    def _free_count(self, name: str) -> int:
        total = sum(items_count(t.items, name) for t in self.tiles)
        return total + sum(items_count(p.items, name) for p in self.players)

    def _check_conditions(self) -> None:
        for name in self.rules.end_of_game_conditions:
            if self._free_count(name) == 0:
                self._score(f"no {name} left")
                return

    def _end_action(self) -> None:
        """Checks after a whole action (a moveAll counts as one)."""
        if self.result is None:
            alive = [i for i, p in enumerate(self.players) if not p.eliminated]
            if len(self.players) >= 2 and len(alive) == 1:
                self._finish(alive, "last player not eliminated")
            elif not alive:
                self._finish(
                    list(self.eliminated_now) if len(self.players) >= 2 else [],
                    "every player was eliminated",
                )
        if self.result is None:
            self._check_conditions()
        self.eliminated_now = ()

    def scores(self) -> list[int | None]:
        """End-of-game score of each player (None when eliminated)."""
        w = self.rules.width
        out: list[int | None] = []
        for seat, p in enumerate(self.players):
            if p.eliminated:
                out.append(None)
                continue
            total = 0
            for line in self.rules.players[seat].scoring:
                if line.cell is None:
                    total += items_count(p.items, line.name)
                else:
                    tid = self.board[line.cell[1] * w + line.cell[0]]
                    if tid >= 0:
                        total += items_count(self.tiles[tid].store, line.name)
            out.append(total)
        return out

    def _score(self, reason: str) -> None:
        alive = [i for i, p in enumerate(self.players) if not p.eliminated]
        if not any(spec.scoring for spec in self.rules.players):
            self._finish(alive, reason)
            return
        scores = self.scores()
        best = max((s for s in scores if s is not None), default=0)
        self._finish([i for i in alive if scores[i] == best], reason)

    def _finish(self, winners: Iterable[int], reason: str) -> None:
        won = tuple(sorted(set(winners)))
        share = 1.0 / len(won) if won else 0.0
        details: dict[str, Any] = {
            "goals_done": [p.done for p in self.players],
            "eliminated": [i for i, p in enumerate(self.players) if p.eliminated],
            "turns": self.turn,
        }
        if any(spec.scoring for spec in self.rules.players):
            details["scores"] = self.scores()
        self.result = Outcome(
            returns=tuple(share if i in won else 0.0 for i in range(len(self.players))),
            winners=won,
            reason=reason,
            details=details,
        )
        self.phase = "over"
        self._note(None, f"game over: {reason}")

    # -- views -------------------------------------------------------------------------------
    def tile_view(self, tid: int, hidden: bool = False) -> dict[str, Any]:
        """A tile as JSON; face-down tiles (and ``hidden``) show only their back."""
        tile = self.tiles[tid]
        if tile.face_down or hidden:
            return {"face_down": True}
        info = self.s.kinds[tile.kind]
        return {
            "id": tile.id,
            "kind": tile.kind,
            "rotation": tile.rotation,
            "connections": list(info.named[tile.rotation]),
            "items": dict(tile.items),
            "store": dict(tile.store),
            "effects": list(info.effect_texts),
            "movement_ending": info.movement_ending,
            "can_turn_around": info.can_turn_around,
        }

    def view(self, player: PlayerId | None) -> dict[str, Any]:
        rules = self.rules
        n, w = rules.n, rules.width
        if self._board_view is None:
            self._board_view = [
                [
                    self.tile_view(self.board[y * w + x]) if self.board[y * w + x] >= 0 else None
                    for x in range(w)
                ]
                for y in range(rules.height)
            ]
        # Each view has its own rows; the tiles in them are shared (views are read, not
        # changed; a reader that changes one copies it).
        board = [row[:] for row in self._board_view]
        players = []
        for seat, p in enumerate(self.players):
            spec = rules.players[seat]
            own = seat == player
            goals: list[dict[str, Any]] = []
            for i, goal in enumerate(p.goals):
                done = i < p.done
                if (p.hidden[i] and not own and not done) or goal.kind == "unknown":
                    goals.append({"goal": None, "hidden": True, "done": done})
                else:
                    goals.append({"goal": goal.text, "hidden": False, "done": done})
            entry: dict[str, Any] = {
                "seat": seat,
                "x": p.cell % w,
                "y": p.cell // w,
                "side": SIDES[p.point // n],
                "index": p.point % n,
                "heading": p.heading,
                "eliminated": p.eliminated,
                "skip": p.skip,
                "items": dict(p.items),
                "hand_count": len(p.hand),
                "goals": goals,
                "goals_done": p.done,
                "start": {
                    "x": spec.start[0],
                    "y": spec.start[1],
                    "side": SIDES[spec.start_point // n],
                    "index": spec.start_point % n,
                },
            }
            if own:
                entry["hand"] = [self.tile_view(t) for t in p.hand]
            players.append(entry)
        current = self.current_player()
        return {
            "game": "tiles",
            "rules": rules.name,
            "you": player,
            "width": w,
            "height": rules.height,
            "paths_on_tile_side": n,
            "turn_structure": list(rules.turn_structure),
            "movement_type": rules.movement_type,
            "unpushable_rows": sorted(rules.unpushable_rows),
            "unpushable_columns": sorted(rules.unpushable_columns),
            "board": board,
            "pile": {"count": self.pile_count(), "known": [self.tile_view(t) for t in self.pile]},
            "players": players,
            "phase": self.phase,
            "turn": {
                "number": self.turn,
                "player": self.turn_player,
                "step": self.step,
                "action": self.current_action(),
                "to_act": current if current >= 0 else None,
                "movers": list(self.movers) if self.movers is not None else None,
                "roll": self.roll,
                "progress": self.progress,
                "quiet_turns": self.quiet,
                "eliminated_now": list(self.eliminated_now),
            },
            "max_rounds": self.s.max_rounds,
            "outcome": self.result.to_json() if self.result else None,
        }

    # -- bots: a state rebuilt from a player's view ------------------------------------------
    @classmethod
    def from_view(cls, rules: Rules, view: Mapping[str, Any], seat: int | None) -> TilesState:
        """A state consistent with what ``seat`` sees (hidden parts guessed), for bots that
        look ahead. Hidden goals of others never complete; unseen tiles are arbitrary copies
        of the tiles nobody can see. Only valid at a player decision (not mid-chance)."""
        state = cls(_shared(rules, int(view.get("max_rounds", DEFAULT_MAX_ROUNDS))))
        n, w = rules.n, rules.width
        blank = len(rules.tiles)
        base: list[Tile] = []
        for k, kind in enumerate(rules.tiles):
            for _ in range(kind.amount):
                base.append(Tile(len(base), k, 0, kind.face_down, kind.items))
        seen: dict[int, Tile] = {}

        def known(tv: Mapping[str, Any]) -> int | None:
            if tv.get("face_down"):
                return None
            tile = Tile(
                int(tv["id"]),
                int(tv["kind"]),
                int(tv["rotation"]),
                False,
                tuple((str(a), int(b)) for a, b in tv["items"].items()),
                tuple((str(a), int(b)) for a, b in tv["store"].items()),
            )
            seen[tile.id] = tile
            return tile.id

        board_ids: list[int | None] = []
        for row in view["board"]:
            for tv in row:
                board_ids.append(-1 if tv is None else known(tv))
        pile_known = [known(tv) for tv in view["pile"]["known"]]
        hands: list[list[int | None]] = []
        for pv in view["players"]:
            if "hand" in pv:
                hands.append([known(tv) for tv in pv["hand"]])
            else:
                hands.append([None] * int(pv["hand_count"]))
        unseen = [t for t in base if t.id not in seen]

        def guess() -> int:
            if unseen:
                return unseen.pop(0).id
            tile = Tile(len(base) + len(extra), blank)
            extra.append(tile)
            return tile.id

        extra: list[Tile] = []
        state.tiles = [seen.get(t.id, t) for t in base]
        state.board = []
        for tid in board_ids:
            state.board.append(guess() if tid is None else tid)  # None: face down, unseen
        face_down_ids = [state.board[i] for i, tid in enumerate(board_ids) if tid is None]
        hand_ids = [[h if h is not None else guess() for h in hand] for hand in hands]
        state.pile = [t for t in pile_known if t is not None]
        rest = int(view["pile"]["count"]) - len(state.pile)
        state.bag = sorted(guess() for _ in range(max(0, rest)))
        state.tiles.extend(extra)
        for tid in face_down_ids:
            state.tiles[tid] = replace(state.tiles[tid], face_down=True)
        for i, pv in enumerate(view["players"]):
            goals: list[Goal] = []
            hidden: list[bool] = []
            for gv in pv["goals"]:
                text = gv.get("goal")
                goals.append(_goal_from_text(text) if text else Goal("unknown"))
                hidden.append(bool(gv.get("hidden")))
            state.players.append(
                Player(
                    cell=int(pv["y"]) * w + int(pv["x"]),
                    point=SIDES.index(pv["side"]) * n + int(pv["index"]),
                    heading="out" if pv["heading"] == "out" else "in",
                    goals=tuple(goals),
                    hidden=tuple(hidden),
                    done=int(pv["goals_done"]),
                    items=tuple((str(a), int(b)) for a, b in pv["items"].items()),
                    hand=tuple(hand_ids[i]),
                    skip=int(pv["skip"]),
                    eliminated=bool(pv["eliminated"]),
                )
            )
        turn = view["turn"]
        state.phase = view["phase"]
        state.goal_cursor = (len(rules.players), 0, 0)
        state.hand_cursor = len(rules.players)
        state.turn_player = int(turn["player"])
        state.step = int(turn["step"])
        state.movers = tuple(turn["movers"]) if turn["movers"] is not None else None
        state.roll = turn["roll"]
        state.turn = int(turn["number"])
        state.quiet = int(turn["quiet_turns"])
        state.progress = bool(turn["progress"])
        state.eliminated_now = tuple(turn["eliminated_now"])
        if view.get("outcome"):
            o = view["outcome"]
            state.result = Outcome(
                tuple(o["returns"]), tuple(o["winners"]), o["reason"], o["details"]
            )
        state._advance()
        return state


def _items_minus(items: Items, taken: Items) -> Items:
    for name, count in taken:
        items = items_remove(items, name, count)
    return items


def _goal_from_text(text: str) -> Goal:
    from herna.games.tiles.rules import parse_goal

    goal = parse_goal(text, allow_random=False)
    return goal if isinstance(goal, Goal) else Goal("unknown")


def new_game(rules: Rules, max_rounds: int = DEFAULT_MAX_ROUNDS) -> TilesState:
    """The state of a new game before setup (CHANCE fills the board, draws goals, deals)."""
    return TilesState.initial(rules, max_rounds)

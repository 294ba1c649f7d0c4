"""The tile/path game engine: a pure, deterministic :class:`~herna.core.game.GameState` for any
checked :class:`~herna.games.tiles.rules.Rules` (seed 004).

``new_game(rules)`` returns the state before setup; setup (filling the board, drawing random
goals, dealing hands), die rolls and draws from the pile are CHANCE actions, so a match's seed
and its action log replay a game exactly. Player actions are :class:`Move`, :class:`Push`,
:class:`Add` and :class:`Exchange` (see :mod:`herna.games.tiles.actions`); the runtime rules
the seed leaves open are decided in ``docs/games/tiles.md``.

:class:`TilesState` is put together from parts, each a module of this package (read them in
this order):

- :mod:`~herna.games.tiles.pieces`: item bags, :class:`Tile`, :class:`Player`;
- :mod:`~herna.games.tiles.precomputed`: tables made once per rules (tile kinds in their four
  orientations, the board's neighbour table), shared by every state as ``state.s``;
- :mod:`~herna.games.tiles.state_base`: the state's fields and the lookups every part reads;
- :mod:`~herna.games.tiles.movement`: the ends of a move (free, dice, forced);
- :mod:`~herna.games.tiles.effects`: arriving on a tile, its effects, goals, the end;
- :mod:`~herna.games.tiles.applying`: applying a player action;
- :mod:`~herna.games.tiles.legal`: the legal actions, their normal form, why one is illegal;
- :mod:`~herna.games.tiles.views`: views of a seat, and a state rebuilt from one;
- this module: the GameState protocol, the turn flow, setup and chance events.

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

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from herna.core.errors import IllegalAction
from herna.core.game import Outcome
from herna.games.tiles.actions import (
    Action,
    ChanceAction,
    Draw,
    DrawGoal,
    Fill,
    PlayerAction,
    Roll,
)
from herna.games.tiles.applying import Applying
from herna.games.tiles.legal import LegalActions
from herna.games.tiles.movement import DICE_ROUTE_BUDGET
from herna.games.tiles.pieces import (
    Heading,
    Items,
    Player,
    Target,
    Tile,
    items_add,
    items_count,
    items_merge,
    items_remove,
    items_total,
)
from herna.games.tiles.precomputed import Geometry, KindInfo, shared_for
from herna.games.tiles.rules import RandomGoals, Rules
from herna.games.tiles.views import Views, load_view

__all__ = [
    "DEFAULT_MAX_ROUNDS",
    "DICE_ROUTE_BUDGET",
    "Geometry",
    "Heading",
    "Items",
    "KindInfo",
    "Player",
    "Target",
    "Tile",
    "TilesState",
    "items_add",
    "items_count",
    "items_merge",
    "items_remove",
    "items_total",
    "new_game",
]

DEFAULT_MAX_ROUNDS = 500
"""Rounds after which a game is drawn ("round limit"); a Herna safeguard, not a rules field."""


class TilesState(Applying, LegalActions, Views):
    """One position of a tile/path game. Treat as immutable: :meth:`apply` returns a new one.

    Its fields and lookups (``rules``, ``num_players``, ``current_player``,
    ``current_action``, ``pile_top`` …) are in :class:`~herna.games.tiles.state_base.StateBase`;
    the parts it is built from are listed in this module's docstring."""

    __slots__ = ()

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def initial(cls, rules: Rules, max_rounds: int = DEFAULT_MAX_ROUNDS) -> TilesState:
        if max_rounds < 1:
            raise ValueError("max_rounds must be >= 1")
        state = cls(shared_for(rules, max_rounds))
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
        # Every field of StateBase.__init__, copied or reset.
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

    # -- GameState protocol (rules, num_players, current_player, current_action: StateBase) -
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

    def resign(self, seat: int, reason: str = "the other player resigned") -> TilesState:
        """``seat`` gives up (or ran out of time): it is out of the game (as if eliminated);
        the last player left in wins, for ``reason``; otherwise the others play on."""
        if self.result is not None:
            raise IllegalAction("the game is over", "GAME_OVER")
        if not 0 <= seat < len(self.players) or self.players[seat].eliminated:
            raise IllegalAction("that player is out of the game already", "ILLEGAL_ACTION")
        new = self._clone()
        new.happened = ()
        new._eliminate(seat)
        new.eliminated_now = ()
        alive = [i for i, p in enumerate(new.players) if not p.eliminated]
        if len(alive) == 1:
            new._finish(alive, reason)
            return new
        new._advance()  # the legal actions again (the resigned seat's turn is skipped)
        return new

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    # -- turn flow ---------------------------------------------------------------------------
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

    # -- bots: a state rebuilt from a player's view ------------------------------------------
    @classmethod
    def from_view(cls, rules: Rules, view: Mapping[str, Any], seat: int | None) -> TilesState:
        """A state consistent with what ``seat`` sees (hidden parts guessed), for bots that
        look ahead. Hidden goals of others never complete; unseen tiles are arbitrary copies
        of the tiles nobody can see. Only valid at a player decision (not mid-chance)."""
        state = cls(shared_for(rules, int(view.get("max_rounds", DEFAULT_MAX_ROUNDS))))

        load_view(state, rules, view)
        state._advance()
        return state


def new_game(rules: Rules, max_rounds: int = DEFAULT_MAX_ROUNDS) -> TilesState:
    """The state of a new game before setup (CHANCE fills the board, draws goals, deals)."""
    return TilesState.initial(rules, max_rounds)

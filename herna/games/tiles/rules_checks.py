"""Herna's cross-field checks of a ``rules.json`` (what a JSON Schema cannot say: coordinates on
the board, point indices below ``paths_on_tile_side``, one tile per cell, enough random goals,
dice faces ...), run after the schema by :func:`herna.games.tiles.rules.check_rules`.

Every problem points at the entry of the file it is about, and a value the schema already
refused is skipped here rather than blamed a second time elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from herna.games.tiles.geometry import SIDES, Cell, make_point, point_name
from herna.games.tiles.rules_model import (
    ACTIONS,
    ALIASES,
    MAX_BOARD_SIDE,
    MAX_PATHS_ON_SIDE,
    MAX_PLAYERS,
    MAX_TILES,
    NAME_PATTERN,
    NUM_PATTERN,
    UNKNOWN_N,
    Effect,
    Goal,
    PlayerSpec,
    Problem,
    RandomGoals,
    Rules,
    TileKind,
    format_path,
    is_int,
    parse_condition,
    parse_connection,
    parse_effect,
    parse_goal,
    parse_item,
    parse_scoring,
)


# -- cross-field checks -----------------------------------------------------------------------
class RulesChecker:
    """Reads a JSON value that may be anything and collects problems.

    Types and syntax were already reported by the schema; here a wrongly typed value is
    simply skipped (its default is used) so that one mistake gives one message.
    """

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.problems: list[Problem] = []
        self.width = 0
        self.height = 0
        self.n = 1
        self.pool_at: list[int] = []
        """Where each goal of the pool stands in the file (malformed ones are skipped)."""
        self.goals_at: dict[int, list[int]] = {}
        """For each player, where each of its goals stands in the file."""
        self.scoring_at: dict[int, list[int]] = {}
        """For each player, where each of its end_of_game_scoring entries stands."""
        self.conditions_at: list[int] = []
        """Where each end_of_game_conditions entry that parses stands in the file."""

    def error(self, parts: Sequence[str | int], message: str) -> None:
        self.problems.append(Problem(format_path(parts), message))

    def warn(self, parts: Sequence[str | int], message: str) -> None:
        self.problems.append(Problem(format_path(parts), message, "warning"))

    # typed getters: return the default when missing or of the wrong type
    @staticmethod
    def get_int(obj: Mapping[str, Any], key: str, default: int) -> int:
        value = obj.get(key, default)
        return value if is_int(value) else default

    @staticmethod
    def get_bool(obj: Mapping[str, Any], key: str, default: bool) -> bool:
        value = obj.get(key, default)
        return value if isinstance(value, bool) else default

    @staticmethod
    def get_str(obj: Mapping[str, Any], key: str, default: str, allowed: Sequence[str]) -> str:
        value = obj.get(key, default)
        return value if isinstance(value, str) and value in allowed else default

    @staticmethod
    def get_list(obj: Mapping[str, Any], key: str) -> list[Any]:
        value = obj.get(key, [])
        return value if isinstance(value, list) else []

    def aliased(self, canonical: str) -> tuple[str, Any]:
        """The key actually used for an aliased field and its value."""
        alias = next(a for a, c in ALIASES.items() if c == canonical)
        if canonical in self.data and alias in self.data:
            self.error(
                [alias],
                f"both {canonical!r} and its deprecated spelling {alias!r} are "
                "given; keep only " + repr(canonical),
            )
            return canonical, self.data[canonical]
        if alias in self.data:
            self.warn([alias], f"deprecated spelling of {canonical!r} (accepted; please rename)")
            return alias, self.data[alias]
        return canonical, self.data.get(canonical)

    def cell(self, parts: Sequence[str | int], x: int, y: int, what: str = "") -> bool:
        ok = True
        label = f"{what} " if what else ""
        if self.width and not 0 <= x < self.width:
            self.error(
                parts, f"{label}column {x} is off the board (columns are 0..{self.width - 1})"
            )
            ok = False
        if self.height and not 0 <= y < self.height:
            self.error(parts, f"{label}row {y} is off the board (rows are 0..{self.height - 1})")
            ok = False
        return ok

    # -- the file ---------------------------------------------------------------------------
    def run(self, name: str) -> Rules | None:
        data = self.data
        board = data.get("board") if isinstance(data.get("board"), dict) else {}
        assert isinstance(board, dict)
        # Each side is known or unknown (0) on its own: a bad height must not hide the
        # columns that are off the board.
        for key, limit in (("width", MAX_BOARD_SIDE), ("height", MAX_BOARD_SIDE)):
            side = self.get_int(board, key, 0)
            if side > limit:
                self.error(["board", key], f"at most {limit} (Herna's limit); got {board[key]}")
            setattr(self, key, side if 1 <= side <= limit else 0)
        n = board.get("paths_on_tile_side", 1)
        if is_int(n) and n > MAX_PATHS_ON_SIDE:
            self.error(
                ["board", "paths_on_tile_side"],
                f"at most {MAX_PATHS_ON_SIDE} (Herna's limit); got {n}",
            )
        # An unreadable count (reported by the schema or above) must not turn every point
        # index into an error: with UNKNOWN_N no index is out of range.
        self.n = n if is_int(n) and 1 <= n <= MAX_PATHS_ON_SIDE else UNKNOWN_N

        turn = tuple(a for a in self.get_list(data, "turn_structure") if a in ACTIONS)
        movement = self.get_str(data, "movement_type", "free", ("free", "forced", "dice"))
        min_move = self.get_int(data, "min_move_distance", 0)
        max_move = self.get_int(data, "max_move_distance", 0)
        if movement == "dice":
            if max_move < 1:
                self.error(
                    ["max_move_distance"],
                    "movement_type 'dice' needs "
                    "max_move_distance >= 1 (the die's highest face); got "
                    f"{max_move}" + (" (the default)" if "max_move_distance" not in data else ""),
                )
            elif min_move > max_move:
                self.error(
                    ["min_move_distance"],
                    f"the die's lowest face ({min_move}) is above "
                    f"its highest face max_move_distance ({max_move})",
                )
        elif max_move > 0 and min_move > max_move:
            self.error(
                ["min_move_distance"],
                f"min_move_distance {min_move} is above max_move_distance {max_move}"
                + (
                    ": no move would ever be legal"
                    if movement == "free"
                    else " (a forced move ignores the minimum, but the two contradict each other)"
                ),
            )
        elif max_move < 0 and min_move > 0:
            self.error(
                ["max_move_distance"],
                f"{max_move} is below min_move_distance {min_move}; a negative maximum means "
                "no limit, so write 0 for that (or a maximum >= the minimum)",
            )
        elif movement == "forced" and min_move > 0:
            self.warn(
                ["min_move_distance"],
                "ignored with movement_type 'forced' (a forced "
                "move always follows its path to the end)",
            )
        if movement != "dice" and max_move < 0 and min_move <= 0:
            self.warn(
                ["max_move_distance"],
                f"{max_move} means no limit, as 0 does (the seed's rule); 0 says it plainly",
            )

        hand = self.get_int(data, "max_hand_size", 0)
        adding_from = self.get_str(data, "adding_from", "pile", ("pile", "hand"))
        exchange_with = self.get_str(data, "exchange_with", "pile", ("pile", "hand"))
        hand_known = is_int(data.get("max_hand_size", 0))  # else the schema said it
        for key, value in (("adding_from", adding_from), ("exchange_with", exchange_with)):
            if value == "hand" and hand <= 0 and hand_known:
                self.error(
                    [key],
                    "'hand' needs max_hand_size > 0 (players have no hand); "
                    f"max_hand_size is {hand}",
                )

        unpush_cols = self._lines(board, "unpushable_columns", self.width, "column")
        unpush_rows = self._lines(board, "unpushable_rows", self.height, "row")
        not_exchangeable = self._not_exchangeable(board)

        pool_key, pool_value = self.aliased("random_goal_pool")
        pool_pairs = self._goals(
            [pool_key], pool_value if isinstance(pool_value, list) else [], False
        )
        self.pool_at = [j for j, _ in pool_pairs]
        pool = [g for _, g in pool_pairs]
        # A pool that is not a list was reported by the schema; its size is unknown then.
        pool_size = len(pool) if pool_value is None or isinstance(pool_value, list) else None
        cond_key, cond_value = self.aliased("end_of_game_conditions")
        conditions = []
        for j, text in enumerate(cond_value if isinstance(cond_value, list) else []):
            if isinstance(text, str) and re.fullmatch(rf"no {NAME_PATTERN}", text):
                conditions.append(parse_condition(text))  # bad syntax: reported by the schema
                self.conditions_at.append(j)
        _, fill_value = self.aliased("fill_unspecified_tiles")
        fill = fill_value if isinstance(fill_value, bool) else False

        tiles = self._tiles()
        players = self._players(pool_size)
        self._warnings(turn, tiles, players, pool, conditions, cond_key, board, hand)

        if any(p.severity == "error" for p in self.problems):
            return None
        return Rules(
            turn_structure=turn,
            width=self.width,
            height=self.height,
            tiles=tuple(t for t in tiles if t is not None),
            players=tuple(p for p in players if p is not None),
            movement_type=movement,  # type: ignore[arg-type]
            min_move_distance=min_move,
            max_move_distance=max_move,
            only_forward_movement=self.get_bool(data, "only_forward_movement", False),
            cycle_pushed_out_tiles=self.get_bool(data, "cycle_pushed_out_tiles", True),
            adding_from=adding_from,  # type: ignore[arg-type]
            adding_mode=self.get_str(
                data,
                "adding_mode",
                "anywhere",  # type: ignore[arg-type]
                ("anywhere", "connected"),
            ),
            exchange_with=exchange_with,  # type: ignore[arg-type]
            exchanging_mode=self.get_str(
                data,
                "exchanging_mode",  # type: ignore[arg-type]
                "anywhere",
                ("anywhere", "connected"),
            ),
            exchange_only_flipped=self.get_bool(data, "exchange_only_flipped", False),
            max_hand_size=hand,
            max_player_items=self.get_int(data, "max_player_items", 0),
            items_picked_up=self.get_int(data, "items_picked_up", -1),
            random_goal_pool=tuple(g for g in pool if isinstance(g, Goal)),
            end_of_game_conditions=tuple(conditions),
            fill_unspecified_tiles=fill,
            unpushable_columns=frozenset(unpush_cols),
            unpushable_rows=frozenset(unpush_rows),
            not_exchangeable_tiles=frozenset(not_exchangeable),
            paths_on_tile_side=self.n,
            name=name,
            data=data,
            warnings=tuple(self.problems),
        )

    def _lines(self, board: Mapping[str, Any], key: str, size: int, what: str) -> list[int]:
        out = []
        for i, value in enumerate(self.get_list(board, key)):
            if not is_int(value) or value < 0:
                continue
            if size and value >= size:
                self.error(
                    ["board", key, i],
                    f"{what} {value} is off the board ({what}s are 0..{size - 1})",
                )
            out.append(value)
        return out

    def _not_exchangeable(self, board: Mapping[str, Any]) -> list[Cell]:
        out = []
        for i, text in enumerate(self.get_list(board, "not_exchangeable_tiles")):
            if isinstance(text, str) and (
                m := re.fullmatch(rf"({NUM_PATTERN}),({NUM_PATTERN})", text)
            ):
                x, y = int(m[1]), int(m[2])
                if self.cell(["board", "not_exchangeable_tiles", i], x, y):
                    out.append((x, y))
        return out

    def _goals(
        self, parts: list[str | int], values: list[Any], allow_random: bool
    ) -> list[tuple[int, Goal | RandomGoals]]:
        """The goals that parse, each with its index in ``values`` (problems must point at
        the entry in the file, not at its place among the good ones)."""
        out: list[tuple[int, Goal | RandomGoals]] = []
        for j, text in enumerate(values):
            if not isinstance(text, str):
                continue
            goal = parse_goal(text, allow_random)
            if isinstance(goal, str):
                continue  # the schema reported the syntax
            if isinstance(goal, Goal) and goal.kind == "reach":
                self.cell([*parts, j], goal.x, goal.y, "goal")
            out.append((j, goal))
        return out

    def _tiles(self) -> list[TileKind | None]:
        out: list[TileKind | None] = []
        placed: dict[Cell, int] = {}
        total = 0
        for i, tile in enumerate(self.get_list(self.data, "tiles")):
            if not isinstance(tile, dict):
                out.append(None)
                continue
            at: list[str | int] = ["tiles", i]
            paths = []
            conn_strings = []
            seen: dict[int, int] = {}
            for j, text in enumerate(self.get_list(tile, "connections")):
                if not isinstance(text, str):
                    continue
                points = parse_connection(text, self.n)
                if isinstance(points, str):
                    if re.fullmatch(rf"[UDLR]{NUM_PATTERN}(,[UDLR]{NUM_PATTERN})*", text):
                        self.error([*at, "connections", j], points)  # index out of range
                    continue
                for p in points:
                    if p in seen:
                        where = (
                            "earlier in this path" if seen[p] == j else f"in connections[{seen[p]}]"
                        )
                        self.error(
                            [*at, "connections", j],
                            f"point {point_name(p, self.n)} is used twice ({where}); a "
                            "point belongs to one path of a tile",
                        )
                    seen[p] = j
                paths.append(points)
                conn_strings.append(text)
            location: Cell | None = None
            loc = tile.get("location")
            if isinstance(loc, list) and len(loc) == 2:
                x, y = (v if is_int(v) and v >= 0 else -1 for v in loc)
                # Check the good coordinate even when the other is bad (the schema said so).
                on_board = self.cell([*at, "location"], max(x, 0), max(y, 0))
                if x >= 0 and y >= 0 and on_board:
                    location = (x, y)
                    if location in placed:
                        self.error(
                            [*at, "location"],
                            f"cell ({x}, {y}) already holds "
                            f"tiles[{placed[location]}]; one cell holds one tile",
                        )
                    else:
                        placed[location] = i
            amount = self.get_int(tile, "amount", 1)
            amount = max(amount, 1)
            total += amount
            items: dict[str, int] = {}
            for j, text in enumerate(self.get_list(tile, "items")):
                if isinstance(text, str) and not isinstance(item := parse_item(text), str):
                    if item[0] in items:
                        self.warn(
                            [*at, "items", j],
                            f"item {item[0]!r} is listed twice on this tile; the counts are added",
                        )
                    items[item[0]] = items.get(item[0], 0) + item[1]
            effects = []
            for j, text in enumerate(self.get_list(tile, "effects")):
                if not isinstance(text, str):
                    continue
                effect = parse_effect(text, self.n)
                if isinstance(effect, str):
                    if text.startswith("move ") and "out of range" in effect:
                        self.error([*at, "effects", j], effect)
                        target = parse_effect(text, UNKNOWN_N)  # the cell is still checked
                        if isinstance(target, Effect):
                            self.cell([*at, "effects", j], target.x, target.y, "target")
                    continue
                if effect.kind in ("move", "send"):
                    self.cell([*at, "effects", j], effect.x, effect.y, "target")
                effects.append(effect)
            out.append(
                TileKind(
                    index=i,
                    paths=tuple(paths),
                    connections=tuple(conn_strings),
                    location=location,
                    face_down=self.get_bool(tile, "face_down", False),
                    movement_ending=self.get_bool(tile, "movement_ending", False),
                    can_turn_around=self.get_bool(tile, "can_turn_around", False),
                    items=tuple(items.items()),
                    effects=tuple(effects),
                    amount=amount,
                )
            )
        if total > MAX_TILES:
            self.error(["tiles"], f"{total} tiles in all; Herna's limit is {MAX_TILES}")
        return out

    def _players(self, pool_size: int | None) -> list[PlayerSpec | None]:
        """``pool_size``: goals in ``random_goal_pool`` (None: unknown, not a list)."""
        out: list[PlayerSpec | None] = []
        players = self.get_list(self.data, "players")
        if len(players) > MAX_PLAYERS:
            self.error(["players"], f"{len(players)} players; Herna's limit is {MAX_PLAYERS}")
        drawn = 0
        for i, player in enumerate(players):
            if not isinstance(player, dict):
                out.append(None)
                continue
            at: list[str | int] = ["players", i]
            x = self.get_int(player, "starting_x", -1)
            y = self.get_int(player, "starting_y", -1)
            side = player.get("starting_side")
            index = self.get_int(player, "starting_path_index", -1)
            ok = x >= 0 and y >= 0 and isinstance(side, str) and side in tuple(SIDES) and index >= 0
            if x >= 0 and self.width and x >= self.width:
                self.error(
                    [*at, "starting_x"],
                    f"column {x} is off the board (columns are 0..{self.width - 1})",
                )
                ok = False
            if y >= 0 and self.height and y >= self.height:
                self.error(
                    [*at, "starting_y"], f"row {y} is off the board (rows are 0..{self.height - 1})"
                )
                ok = False
            if index >= self.n:
                self.error(
                    [*at, "starting_path_index"],
                    f"index {index} is out of range: with "
                    f"paths_on_tile_side = {self.n} indices are 0..{self.n - 1}",
                )
                ok = False
            goals_raw = self.get_list(player, "goals")
            goal_pairs = self._goals([*at, "goals"], goals_raw, True)
            self.goals_at[i] = [j for j, _ in goal_pairs]
            goals = [g for _, g in goal_pairs]
            for j, goal in goal_pairs:
                if isinstance(goal, RandomGoals):
                    drawn += goal.count
                    if pool_size is not None and drawn > pool_size:
                        self.error(
                            [*at, "goals", j],
                            f"{drawn} random goals are asked for up to "
                            f"here but random_goal_pool holds {pool_size} (goals are "
                            "drawn without replacement)",
                        )
            scoring = []
            self.scoring_at[i] = []
            for j, text in enumerate(self.get_list(player, "end_of_game_scoring")):
                if isinstance(text, str) and not isinstance(sc := parse_scoring(text), str):
                    if sc.cell is not None:
                        self.cell([*at, "end_of_game_scoring", j], *sc.cell)
                    scoring.append(sc)
                    self.scoring_at[i].append(j)
            if not ok:
                out.append(None)
                continue
            assert isinstance(side, str)
            out.append(
                PlayerSpec(
                    start=(x, y),
                    start_point=make_point(side, index, self.n),
                    goals=tuple(goals),
                    scoring=tuple(scoring),
                )
            )
        return out

    def _warnings(
        self,
        turn: tuple[str, ...],
        tiles: list[TileKind | None],
        players: list[PlayerSpec | None],
        pool: list[Goal | RandomGoals],
        conditions: list[str],
        cond_key: str,
        board: Mapping[str, Any],
        hand: int,
    ) -> None:
        kinds = [t for t in tiles if t is not None]
        carried = {name for t in kinds for name, _ in t.items}
        max_items = self.get_int(self.data, "max_player_items", 0)

        def check_name(parts: list[str | int], name: str, what: str) -> None:
            if name not in carried:
                self.warn(parts, f"{what} {name!r}: no tile carries an item of that name")

        for j, goal in zip(self.pool_at, pool, strict=True):
            if isinstance(goal, Goal) and goal.kind in ("find", "collect"):
                key = (
                    "random_goal_pools" if "random_goal_pools" in self.data else "random_goal_pool"
                )
                check_name([key, j], goal.name, "item")
        for i, p in enumerate(players):
            if p is None:
                continue
            for j, goal in zip(self.goals_at.get(i, []), p.goals, strict=True):
                if isinstance(goal, Goal) and goal.kind in ("find", "collect"):
                    check_name(["players", i, "goals", j], goal.name, "item")
                if isinstance(goal, Goal) and goal.kind == "collect" and max_items == 0:
                    self.warn(
                        ["players", i, "goals", j],
                        "a 'collect' goal can never be met: "
                        "max_player_items is 0, so players never take items",
                    )
            for j, sc in zip(self.scoring_at.get(i, []), p.scoring, strict=True):
                check_name(["players", i, "end_of_game_scoring", j], sc.name, "item")
                if sc.cell is None and max_items == 0:
                    self.warn(
                        ["players", i, "end_of_game_scoring", j],
                        "players never hold items (max_player_items is 0), so this always scores 0",
                    )
            if p.scoring and not conditions:
                self.warn(
                    ["players", i, "end_of_game_scoring"],
                    "end_of_game_scoring only "
                    "counts when an end_of_game_conditions entry ends the game, and there "
                    "is none",
                )
        for j, name in zip(self.conditions_at, conditions, strict=True):
            check_name([cond_key, j], name, "item")
        has_elimination = any(e.kind == "eliminate" for t in kinds for e in t.effects)
        if not conditions and not has_elimination:
            for i, p in enumerate(players):
                if p is not None and not p.goals:
                    self.warn(
                        ["players", i],
                        "this player has no goals, and with no "
                        "'eliminate' effect and no end_of_game_conditions it can never win",
                    )
        if "push" in turn and self.width and self.height:
            cols = {v for v in self.get_list(board, "unpushable_columns") if is_int(v)}
            rows = {v for v in self.get_list(board, "unpushable_rows") if is_int(v)}
            if cols >= set(range(self.width)) and rows >= set(range(self.height)):
                self.warn(
                    ["turn_structure"],
                    "'push' is listed but every row and column is "
                    "unpushable, so it is always skipped",
                )
        if (
            "exchange" in turn
            and self.get_bool(self.data, "exchange_only_flipped", False)
            and not any(t.face_down for t in kinds)
        ):
            self.warn(
                ["exchange_only_flipped"],
                "no tile starts face down, so 'exchange' is always skipped",
            )
        if max_items == 0 and any(e.kind == "collect" for t in kinds for e in t.effects):
            self.warn(
                ["max_player_items"],
                "a tile has the 'collect' effect but players never "
                "hold items (max_player_items is 0)",
            )
        if hand > 0 and "add" not in turn and "exchange" not in turn:
            self.warn(
                ["max_hand_size"],
                "players hold tiles but turn_structure has neither "
                "'add' nor 'exchange' to use them",
            )

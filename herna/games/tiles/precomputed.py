"""What is worked out once per rules object and shared by every state of its games: the tile
kinds in their four orientations (:class:`KindInfo`), the board's neighbour table
(:class:`Geometry`), bundled as :class:`Shared` and kept in a small cache (:func:`shared_for`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from herna.games.tiles.geometry import across, point_name, rotate_point
from herna.games.tiles.pieces import Items
from herna.games.tiles.rules import Effect, Rules, TileKind


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
class Shared:
    """Everything a rules object's states share (``state.s``)."""

    rules: Rules
    kinds: tuple[KindInfo, ...]
    """One per ``rules.tiles`` entry, plus a blank kind last (for tiles a bot cannot see)."""
    geo: Geometry
    max_rounds: int


_SHARED: OrderedDict[tuple[int, int], Shared] = OrderedDict()
_SHARED_KEPT = 64
"""Rules objects whose precomputed geometry is kept (a server starts game after game of the
same few rules files; custom ones come and go)."""


_SHARED_LOCK = threading.Lock()  # bots search in worker threads


def shared_for(rules: Rules, max_rounds: int) -> Shared:
    """The precomputed tables of ``rules`` (made on first use, then taken from the cache)."""
    key = (id(rules), max_rounds)
    with _SHARED_LOCK:
        found = _SHARED.get(key)
        if found is not None and found.rules is rules:
            _SHARED.move_to_end(key)
            return found
    kinds = tuple(KindInfo(k, i, rules.n) for i, k in enumerate(rules.tiles))
    blank = KindInfo(None, len(kinds), rules.n)
    geo = Geometry(rules.width, rules.height, rules.n)
    shared = Shared(rules, (*kinds, blank), geo, max_rounds)
    with _SHARED_LOCK:
        _SHARED[key] = shared
        while len(_SHARED) > _SHARED_KEPT:
            _SHARED.popitem(last=False)
    return shared

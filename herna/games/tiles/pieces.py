"""The values a tile game's state is made of: item bags, :class:`Tile` and :class:`Player`.

All are immutable; the state replaces them (``dataclasses.replace``) when they change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from herna.games.tiles.rules import Goal

Items = tuple[tuple[str, int], ...]
"""Item counts in listed order, e.g. ``(("coin", 3), ("gem", 1))``; counts are >= 1."""

Heading = Literal["in", "out"]

Target = tuple[int, int, Heading]
"""Where a move ends: cell, point, heading."""


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


def items_minus(items: Items, taken: Items) -> Items:
    for name, count in taken:
        items = items_remove(items, name, count)
    return items


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

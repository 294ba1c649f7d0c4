"""Text pictures of a tile game, drawn from a view (so the terminal client, ``herna rules show``
and logs all draw the same thing).

With one path point per side a tile is drawn with box-drawing lines; with more, each point
shows a letter and points with the same letter are joined by one path. Digits are players
(numbered from 1, as columns and rows are) standing on that point; corner marks: ``*``
items, ``!`` effects, ``$`` a store,
``#`` the tile stops movement. Face-down tiles are ``░``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from herna.core.catalogs import say_in
from herna.core.lang import N_
from herna.games.tiles.geometry import SIDES, make_point
from herna.games.tiles.narrate import goal_words, item_word, nth

_GLYPHS = {
    frozenset("UD"): "│",
    frozenset("LR"): "─",
    frozenset("UR"): "└",
    frozenset("RD"): "┌",
    frozenset("DL"): "┐",
    frozenset("LU"): "┘",
    frozenset("URD"): "├",
    frozenset("RDL"): "┬",
    frozenset("DLU"): "┤",
    frozenset("LUR"): "┴",
    frozenset("URDL"): "┼",
    frozenset("U"): "╵",
    frozenset("R"): "╶",
    frozenset("D"): "╷",
    frozenset("L"): "╴",
}


def _point_xy(point: int, n: int) -> tuple[int, int]:
    """Logical grid position (row, col) of a point on a (2n+1) x (2n+1) grid."""
    side, i = divmod(point, n)
    last = 2 * n
    if side == 0:
        return 0, 2 * i + 1
    if side == 1:
        return 2 * i + 1, last
    if side == 2:
        return last, last - (2 * i + 1)
    return last - (2 * i + 1), 0


def _parse_points(conn: str, n: int) -> list[int]:
    return [make_point(p[0], int(p[1:]), n) for p in conn.split(",")]


def tile_lines(
    tile: Mapping[str, Any] | None, n: int, players: Sequence[tuple[int, int]] = ()
) -> list[str]:
    """The picture of one cell: ``2n+1`` lines of ``2(2n+1)+1`` characters.

    ``players`` lists (seat, point) of the players on this cell.
    """
    size = 2 * n + 1
    width = 2 * size + 1
    grid = [[" "] * width for _ in range(size)]
    if tile is None:
        grid[n][width // 2] = "·"
    elif tile.get("face_down"):
        for row in grid:
            row[:] = ["░"] * width
    elif n == 1:
        sides: set[str] = set()
        for conn in tile["connections"]:
            sides.update(p[0] for p in conn.split(","))
        mid = width // 2
        if "U" in sides:
            grid[0][mid] = "│"
        if "D" in sides:
            grid[2][mid] = "│"
        if "L" in sides:
            grid[1][:mid] = ["─"] * mid
        if "R" in sides:
            grid[1][mid + 1 :] = ["─"] * (width - mid - 1)
        grid[1][mid] = _GLYPHS.get(frozenset(sides), "·") if sides else "·"
    else:
        for k, conn in enumerate(tile["connections"]):
            letter = "abcdefghijklmnopqrstuvwxyz"[k % 26]
            for p in _parse_points(conn, n):
                r, c = _point_xy(p, n)
                grid[r][2 * c + 1] = letter
    if tile is not None and not tile.get("face_down"):
        if tile.get("items"):
            grid[0][width - 1] = "*"
        if tile.get("effects"):
            grid[size - 1][0] = "!"
        if tile.get("store"):
            grid[size - 1][width - 1] = "$"
        if tile.get("movement_ending"):
            grid[0][0] = "#"
    for seat, point in players:
        r, c = _point_xy(point, n)
        col = 2 * c + 1 if n > 1 or c not in (0, 2 * n) else (0 if c == 0 else width - 1)
        grid[r][col] = str((seat + 1) % 10)  # players numbered from 1, as the legend says
    return ["".join(row) for row in grid]


def render_board(view: Mapping[str, Any]) -> str:
    """The whole board with column and row numbers."""
    n = int(view["paths_on_tile_side"])
    w, h = int(view["width"]), int(view["height"])
    size = 2 * n + 1
    cell_w = 2 * size + 1
    on_cell: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for p in view["players"]:
        if not p["eliminated"]:
            point = make_point(p["side"], int(p["index"]), n)
            on_cell.setdefault((int(p["x"]), int(p["y"])), []).append((int(p["seat"]), point))
    # columns and rows numbered as people count them, from 1 (the rules file counts from 0)
    lines = ["    " + " ".join(f"{x + 1:^{cell_w}}" for x in range(w))]
    for y in range(h):
        pictures = [tile_lines(view["board"][y][x], n, on_cell.get((x, y), ())) for x in range(w)]
        for r in range(size):
            label = f"{y + 1:>3} " if r == n else "    "
            lines.append(label + " ".join(pic[r] for pic in pictures))
    return "\n".join(lines)


DIRECTION_WORDS = {
    "left": N_("left"),
    "right": N_("right"),
    "up": N_("up"),
    "down": N_("down"),
}
"""A push's direction as a menu says it (the protocol's keyword is the key)."""


def render_legend(
    view: Mapping[str, Any], names: Sequence[str] | None = None, lang: str = "en"
) -> str:
    """Players, items, effects and the pile, in words (in ``lang``, from the catalogs; the
    coordinates and the effects stay as written, a designer's own items too)."""
    _ = say_in(lang)
    out = []
    w, h = int(view["width"]), int(view["height"])
    turn = view.get("turn") or {}
    for p in view["players"]:
        seat = int(p["seat"])
        if names and seat < len(names):
            name = names[seat]
        else:
            name = _("player {n}").format(n=seat + 1)
        mark = ">" if turn.get("to_act") == seat else " "
        if p["eliminated"]:
            state = _("eliminated")
        else:
            state = _("at ({x}, {y}) {point} heading {heading}").format(
                x=nth(p["x"]),
                y=nth(p["y"]),
                point=f"{p['side']}{p['index']}",
                heading=p["heading"],
            )
        goals = [
            ("✓ " if g["done"] else "") + (goal_words(g["goal"], lang) if g["goal"] else "?")
            for g in p["goals"]
        ]
        extra = []
        if p["items"]:
            held = ", ".join(f"{c} {item_word(k, lang)}" for k, c in p["items"].items())
            extra.append(_("holds {items}").format(items=held))
        if p["skip"]:
            extra.append(_("misses {n} turn(s)").format(n=p["skip"]))
        if p["hand_count"]:
            extra.append(_("{n} tile(s) in hand").format(n=p["hand_count"]))
        line = f"{mark}{seat + 1} {name}: {state}"
        if goals:
            line += "; " + _("goals {done}/{all}:").format(done=p["goals_done"], all=len(goals))
            line += " " + ", ".join(goals)
        if extra:
            line += "; " + "; ".join(extra)
        out.append(line)
    groups: dict[str, list[str]] = {}
    for y in range(h):
        for x in range(w):
            tile = view["board"][y][x]
            if not tile or tile.get("face_down"):
                continue
            bits = []
            if tile.get("items"):
                bits.append(
                    ", ".join(
                        f"{item_word(k, lang)} x{c}" if c > 1 else item_word(k, lang)
                        for k, c in tile["items"].items()
                    )
                )
            if tile.get("store"):
                held = ", ".join(f"{c} {item_word(k, lang)}" for k, c in tile["store"].items())
                bits.append(_("bank holds {items}").format(items=held))
            if tile.get("effects"):
                bits.append(_("effects: {effects}").format(effects=", ".join(tile["effects"])))
            if bits:
                groups.setdefault("; ".join(bits), []).append(f"({nth(x)},{nth(y)})")
    if groups:
        many = _("{n} tiles {what}")
        out.append(
            _("Tiles:")
            + " "
            + " | ".join(
                f"{' '.join(cells)} {what}"
                if len(cells) <= 3
                else many.format(n=len(cells), what=what)
                for what, cells in groups.items()
            )
        )
    pile = view.get("pile") or {}
    if pile:
        top = pile.get("known") or []
        desc = _("Pile: {n} tile(s)").format(n=pile.get("count", 0))
        if top and not top[0].get("face_down"):
            desc += "; " + _("top: {tile}").format(tile=" ".join(top[0]["connections"]))
            if top[0].get("items"):
                desc += " " + _("with {items}").format(items=", ".join(top[0]["items"]))
        out.append(desc)
    return "\n".join(out)


def describe_action(action: Mapping[str, Any], lang: str = "en") -> str:
    """A player action (JSON form) in words, for menus (in ``lang``; the coordinates a person
    picks by stay as written)."""
    _ = say_in(lang)
    kind = action.get("type")
    at = {"x": nth(action.get("x", 0)), "y": nth(action.get("y", 0))}
    deg = 90 * int(action.get("rotation", 0))
    if kind == "move":
        point = f"{action['side']}{action['index']}"
        return _("move to ({x}, {y}) at {point}").format(point=point, **at)
    if kind == "push":
        direction = str(action["direction"])
        way = _(DIRECTION_WORDS[direction]) if direction in DIRECTION_WORDS else direction
        if "row" in action:
            said = _("push row {n} {way}").format(n=nth(action["row"]), way=way)
        else:
            said = _("push column {n} {way}").format(n=nth(action["column"]), way=way)
        return said + (_(", tile turned {deg}°").format(deg=deg) if deg else "")
    if kind in ("add", "exchange"):
        tile = action.get("tile")
        if kind == "add":
            said = (
                _("add tile #{tile} ({x}, {y})").format(tile=tile, **at)
                if tile is not None
                else _("add ({x}, {y})").format(**at)
            )
        else:
            said = (
                _("exchange at tile #{tile} ({x}, {y})").format(tile=tile, **at)
                if tile is not None
                else _("exchange at ({x}, {y})").format(**at)
            )
        return said + (_(", turned {deg}°").format(deg=deg) if deg else "")
    return str(dict(action))


__all__ = ["SIDES", "describe_action", "render_board", "render_legend", "tile_lines"]

"""One line of words per turn of a tile game, for people watching in a terminal.

A line is built from what the reader legitimately saw: the action a player took (its JSON
form) and the reader's own views before and after it. So the terminal client says
"bob pushed row 3 from the left, moved to the chest and picked up the chest" instead of
printing the rules engine's step-by-step log (every tile dealt at setup, every goal drawn,
coordinates and path points). Coordinates stay in the menus, where a person picks a move.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

View = Mapping[str, Any]

_PUSHED_FROM = {"right": "from the left", "left": "from the right", "down": "from the top"}
_PUSHED_FROM["up"] = "from the bottom"

GOAL_WORDS = {
    "reach": "reach the tile in column {x}, row {y}",
    "collect": "collect {count} {name}",
    "find": "find the {name}",
    "hidden": "a secret goal",
}
"""How a goal reads wherever a person sees it; static/games/tiles.js keeps a copy (a test
checks the two match). Columns and rows are counted from 1, as people count (:func:`nth`)."""


def nth(index: int | str) -> int:
    """A column or row as people count it: the rules file and the wire count from 0 (``reach 3
    0`` is the top row), a person from 1 (``column 4, row 1``)."""
    return int(index) + 1


def goal_words(text: str | None) -> str:
    """A goal as the rules write it (``reach 3 0``) in words (``reach the tile in column 4,
    row 1``); None (a goal hidden from the reader) is ``a secret goal``."""
    if not text:
        return GOAL_WORDS["hidden"]
    if m := re.fullmatch(r"reach (\d+) (\d+)", text):
        return GOAL_WORDS["reach"].format(x=nth(m[1]), y=nth(m[2]))
    if m := re.fullmatch(r"collect (\d+) (.+)", text):
        return GOAL_WORDS["collect"].format(count=m[1], name=m[2])
    if m := re.fullmatch(r"find (.+)", text):
        return GOAL_WORDS["find"].format(name=m[1])
    return text


def item_names(items: Mapping[str, int]) -> str:
    """``{"ghost": 1, "coins": 3}`` -> ``the ghost and 3 coins``."""
    parts = [
        f"the {name}" if count == 1 else f"{count} {name}{'' if name.endswith('s') else 's'}"
        for name, count in items.items()
    ]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _player(view: View, seat: int) -> Mapping[str, Any] | None:
    for p in view.get("players") or ():
        if int(p["seat"]) == seat:
            found: Mapping[str, Any] = p
            return found
    return None


def _tile(view: View, x: int, y: int) -> Mapping[str, Any] | None:
    try:
        tile: Mapping[str, Any] | None = view["board"][y][x]
    except (KeyError, IndexError, TypeError):
        return None
    return tile


def _steps(dx: int, dy: int) -> str:
    """``moved 2 tiles right and 1 down``: direction words instead of coordinates."""
    bits = []
    if dx:
        bits.append(f"{abs(dx)} {'right' if dx > 0 else 'left'}")
    if dy:
        bits.append(f"{abs(dy)} {'down' if dy > 0 else 'up'}")
    if not bits:
        return "moved within its tile"
    first, *rest = bits
    count, word = first.split(" ", 1)
    lead = f"{count} tile{'s' if count != '1' else ''} {word}"
    return "moved " + " and ".join([lead, *rest])


def action_words(action: Mapping[str, Any], before: View, seat: int) -> str:
    """What the player did, in words (the main verb of the turn line)."""
    kind = action.get("type")
    if kind == "push":
        line = "row" if "row" in action else "column"
        return f"pushed {line} {nth(action[line])} {_PUSHED_FROM.get(str(action['direction']), '')}"
    if kind == "move":
        x, y = int(action["x"]), int(action["y"])
        me = _player(before, seat)
        roll = (before.get("turn") or {}).get("roll")
        rolled = f"rolled {roll} and " if roll is not None else ""
        here = (action["side"], int(action["index"]), x, y)
        if me is not None and (me["side"], int(me["index"]), int(me["x"]), int(me["y"])) == here:
            return rolled + "stayed put"
        tile = _tile(before, x, y) or {}
        if tile.get("items"):
            return f"{rolled}moved to {item_names(tile['items'])}"
        if tile.get("store"):
            return f"{rolled}moved to a bank"  # a tile with the collect effect
        if me is None:
            return f"{rolled}moved"
        return rolled + _steps(x - int(me["x"]), y - int(me["y"]))
    if kind == "add":
        return "placed a tile"
    if kind == "exchange":
        return "exchanged a tile"
    return str(kind or "acted")


def consequences(
    action: Mapping[str, Any], before: View, after: View, seat: int, names: Sequence[str]
) -> list[str]:
    """What followed from the action for every player, read from the two views."""
    out: list[str] = []
    for p in after.get("players") or ():
        who = int(p["seat"])
        old = _player(before, who)
        if old is None:
            continue
        subject = "" if who == seat else (names[who] if who < len(names) else f"player {who + 1}")
        said: list[str] = []
        moved = (int(p["x"]), int(p["y"])) != (int(old["x"]), int(old["y"]))
        if action.get("type") == "move" and who == seat:
            target = (int(action["x"]), int(action["y"]))
            if not p["eliminated"] and (int(p["x"]), int(p["y"])) != target:
                start = p.get("start") or {}
                home = (int(p["x"]), int(p["y"])) == (start.get("x"), start.get("y"))
                said.append("was sent back to the start" if home else "was carried on")
        elif action.get("type") in ("add", "exchange") and moved and not p["eliminated"]:
            said.append("followed the path")
        gained = {k: c - old["items"].get(k, 0) for k, c in p["items"].items()}
        gained = {k: c for k, c in gained.items() if c > 0}
        if gained and who == seat and action.get("type") == "move":
            # "moved to the ghost, picked it up" rather than naming the ghost twice
            there = (_tile(before, int(action["x"]), int(action["y"])) or {}).get("items") or {}
            if gained.keys() <= there.keys():
                took, lay = sum(gained.values()), sum(there[k] for k in gained)
                said.append(
                    "picked one up"
                    if took == 1 < lay
                    else "picked it up"
                    if took == 1
                    else "picked them up"
                )
                gained = {}
        if gained:
            said.append("picked up " + item_names(gained))
        lost = {k: c - p["items"].get(k, 0) for k, c in old["items"].items()}
        lost = {k: c for k, c in lost.items() if c > 0}
        if lost:
            where = _tile(after, int(p["x"]), int(p["y"])) or {}
            stored = where.get("store") and who == seat
            lost_words = item_names(lost)
            said.append(f"put {lost_words} in the bank" if stored else f"lost {lost_words}")
        for g_old, g_new in zip(old.get("goals") or (), p.get("goals") or (), strict=False):
            if g_new["done"] and not g_old["done"]:
                text = g_new.get("goal")
                done = f"completed the goal to {goal_words(text)}"
                said.append(done if text else "completed a goal")
        if int(p.get("skip") or 0) > int(old.get("skip") or 0):
            said.append(f"will miss {p['skip']} turn{'s' if int(p['skip']) > 1 else ''}")
        if p["eliminated"] and not old["eliminated"]:
            said.append("was eliminated")
        if said:
            phrase = ", ".join(said)
            out.append(f"{subject} {phrase}" if subject else phrase)
    return out


def turn_words(
    action: Mapping[str, Any], before: View, after: View, seat: int, names: Sequence[str]
) -> str:
    """One action and what followed, as its reader saw it: ``ann pushed row 1 from the right``,
    ``house-2 moved to the gold and picked it up``."""
    parts = [action_words(action, before, seat), *consequences(action, before, after, seat, names)]
    words = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    who = names[seat] if 0 <= seat < len(names) else f"player {seat + 1}"
    return f"{who} {words}"


class TurnLog:
    """Collects the actions of one turn (a push and a move, say) into one line.

    ``add`` returns the finished line when the turn passes to someone else or the game ends,
    and None while the same player is still acting.
    """

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self._seat: int | None = None
        self._parts: list[str] = []

    def add(self, seat: int, action: Mapping[str, Any], before: View, after: View) -> str | None:
        done = None
        if self._seat is not None and self._seat != seat:
            done = self.flush()
        self._seat = seat
        self._parts.append(action_words(action, before, seat))
        self._parts += consequences(action, before, after, seat, self.names)
        turn = after.get("turn") or {}
        still_mine = turn.get("player") == seat and after.get("outcome") is None
        if not still_mine:
            line = self.flush()
            return line if done is None else f"{done}\n{line}"
        return done

    def flush(self) -> str | None:
        """The line of the turn so far (None when nothing is pending)."""
        if self._seat is None:
            return None
        seat = self._seat
        who = self.names[seat] if 0 <= seat < len(self.names) else f"player {seat + 1}"
        parts = self._parts
        words = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        line = f"{who} {words}"
        self._seat, self._parts = None, []
        return line

"""One line of words per turn of a tile game, for people watching in a terminal.

A line is built from what the reader legitimately saw: the action a player took (its JSON
form) and the reader's own views before and after it. So the terminal client says
"bob pushed row 3 from the left, moved to the chest and picked up the chest" instead of
printing the rules engine's step-by-step log (every tile dealt at setup, every goal drawn,
coordinates and path points). Coordinates stay in the menus, where a person picks a move.

Every line can be said in Czech too (``lang="cs"``, :mod:`herna.core.lang`), in the present
tense so that no verb has to guess a player's gender: "bob posouvá řádek 3 zleva, jde na pole
(truhla) a bere to". The items of the rules Herna ships (:data:`ITEM_WORDS`) are said
in the reader's language; a designer's own items stay as the file names them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from herna.core.catalogs import say_in
from herna.core.lang import N_, pick

View = Mapping[str, Any]

_PUSHED_FROM = {"right": "from the left", "left": "from the right", "down": "from the top"}
_PUSHED_FROM["up"] = "from the bottom"
_PUSHED_FROM_CS = {"right": "zleva", "left": "zprava", "down": "shora", "up": "zdola"}

ITEM_WORDS = {
    "gold": N_("gold"),
    "gem": N_("gem"),
    "book": N_("book"),
    "coins": N_("coins"),
    "map": N_("map"),
    "crown": N_("crown"),
    "keys": N_("keys"),
    "skull": N_("skull"),
    "ring": N_("ring"),
    "chest": N_("chest"),
    "emerald": N_("emerald"),
    "sword": N_("sword"),
    "candlestick": N_("candlestick"),
    "helmet": N_("helmet"),
    "bat": N_("bat"),
    "moth": N_("moth"),
    "owl": N_("owl"),
    "lizard": N_("lizard"),
    "spider": N_("spider"),
    "mouse": N_("mouse"),
    "dragon": N_("dragon"),
    "ghost": N_("ghost"),
    "fairy": N_("fairy"),
    "genie": N_("genie"),
    "beetle": N_("beetle"),
    "sorceress": N_("sorceress"),
}
"""The items of the rules files Herna ships (rules/*.json: Gold rush's and Dungeon's gold and
gems, Labyrinth's treasures), each a message of the catalogs so that a Czech page says
"zlato"; static/games/tiles.js's ITEM_WORDS marks the same (a test checks the two match).
An item a designer's own rules name otherwise is said as the file writes it."""


def item_word(name: str, lang: str = "en") -> str:
    """One item's name in ``lang``: a shipped one from the catalogs, any other as written."""
    if name in ITEM_WORDS and lang != "en":
        return say_in(lang)(ITEM_WORDS[name])
    return name


GOAL_WORDS = {
    "reach": N_("reach the tile in column {x}, row {y}"),
    "collect": N_("collect {count} {name}"),
    "find": N_("find the {name}"),
    "hidden": N_("a secret goal"),
}
"""How a goal reads wherever a person sees it, in a language from the catalogs;
static/games/tiles.js marks the same messages (a test checks the two match). Columns and rows
are counted from 1, as people count (:func:`nth`)."""


def nth(index: int | str) -> int:
    """A column or row as people count it: the rules file and the wire count from 0 (``reach 3
    0`` is the top row), a person from 1 (``column 4, row 1``)."""
    return int(index) + 1


def goal_words(text: str | None, lang: str = "en") -> str:
    """A goal as the rules write it (``reach 3 0``) in words (``reach the tile in column 4,
    row 1``); None (a goal hidden from the reader) is ``a secret goal``."""
    _ = say_in(lang)
    words = {key: _(message) for key, message in GOAL_WORDS.items()}
    if not text:
        return words["hidden"]
    if m := re.fullmatch(r"reach (\d+) (\d+)", text):
        return words["reach"].format(x=nth(m[1]), y=nth(m[2]))
    if m := re.fullmatch(r"collect (\d+) (.+)", text):
        return words["collect"].format(count=m[1], name=item_word(m[2], lang))
    if m := re.fullmatch(r"find (.+)", text):
        return words["find"].format(name=item_word(m[1], lang))
    return text


def _and(parts: Sequence[str], lang: str = "en") -> str:
    """``a, b and c`` (``a, b a c``)."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + pick(lang, " and ", " a ") + parts[-1]


def item_names(items: Mapping[str, int], lang: str = "en") -> str:
    """``{"ghost": 1, "coins": 3}`` -> ``the ghost and 3 coins`` (``duch a 3× mince``: in
    the nominative, so a Czech sentence puts them after a colon or a "kde je")."""
    if lang == "cs":
        said = [item_word(name, lang) for name in items]
        counts = items.values()
        return _and([w if c == 1 else f"{c}× {w}" for w, c in zip(said, counts, strict=True)], lang)
    parts = [
        f"the {name}" if count == 1 else f"{count} {name}{'' if name.endswith('s') else 's'}"
        for name, count in items.items()
    ]
    return _and(parts)


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


def _steps(dx: int, dy: int, lang: str = "en") -> str:
    """``moved 2 tiles right and 1 down``: direction words instead of coordinates (``táhne
    2× doprava a 1× dolů``)."""
    if lang == "cs":
        said = []
        if dx:
            said.append(f"{abs(dx)}× {'doprava' if dx > 0 else 'doleva'}")
        if dy:
            said.append(f"{abs(dy)}× {'dolů' if dy > 0 else 'nahoru'}")
        return "táhne " + _and(said, lang) if said else "táhne v rámci své dlaždice"
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


def action_words(action: Mapping[str, Any], before: View, seat: int, lang: str = "en") -> str:
    """What the player did, in words (the main verb of the turn line)."""
    kind = action.get("type")
    if kind == "push":
        line = "row" if "row" in action else "column"
        direction = str(action["direction"])
        if lang == "cs":
            noun = "řádek" if line == "row" else "sloupec"
            return f"posouvá {noun} {nth(action[line])} {_PUSHED_FROM_CS.get(direction, '')}"
        return f"pushed {line} {nth(action[line])} {_PUSHED_FROM.get(direction, '')}"
    if kind == "move":
        x, y = int(action["x"]), int(action["y"])
        me = _player(before, seat)
        roll = (before.get("turn") or {}).get("roll")
        rolled = pick(lang, f"rolled {roll} and ", f"hází {roll} a ") if roll is not None else ""
        here = (action["side"], int(action["index"]), x, y)
        if me is not None and (me["side"], int(me["index"]), int(me["x"]), int(me["y"])) == here:
            return rolled + pick(lang, "stayed put", "zůstává stát")
        tile = _tile(before, x, y) or {}
        if tile.get("items"):
            items = item_names(tile["items"], lang)
            return rolled + pick(lang, f"moved to {items}", f"jde na pole ({items})")
        if tile.get("store"):  # a tile with the collect effect
            return rolled + pick(lang, "moved to a bank", "jde do banky")
        if me is None:
            return rolled + pick(lang, "moved", "táhne")
        return rolled + _steps(x - int(me["x"]), y - int(me["y"]), lang)
    if kind == "add":
        return pick(lang, "placed a tile", "pokládá dlaždici")
    if kind == "exchange":
        return pick(lang, "exchanged a tile", "vyměňuje dlaždici")
    return str(kind or pick(lang, "acted", "hraje"))


def consequences(
    action: Mapping[str, Any],
    before: View,
    after: View,
    seat: int,
    names: Sequence[str],
    lang: str = "en",
) -> list[str]:
    """What followed from the action for every player, read from the two views."""
    cs = lang == "cs"
    out: list[str] = []
    for p in after.get("players") or ():
        who = int(p["seat"])
        old = _player(before, who)
        if old is None:
            continue
        subject = "" if who == seat else _name(names, who, lang)
        said: list[str] = []
        moved = (int(p["x"]), int(p["y"])) != (int(old["x"]), int(old["y"]))
        if action.get("type") == "move" and who == seat:
            target = (int(action["x"]), int(action["y"]))
            if not p["eliminated"] and (int(p["x"]), int(p["y"])) != target:
                start = p.get("start") or {}
                home = (int(p["x"]), int(p["y"])) == (start.get("x"), start.get("y"))
                if cs:
                    said.append("se vrací na start" if home else "putuje dál")
                else:
                    said.append("was sent back to the start" if home else "was carried on")
        elif action.get("type") in ("add", "exchange") and moved and not p["eliminated"]:
            said.append(pick(lang, "followed the path", "jde po cestě"))
        gained = {k: c - old["items"].get(k, 0) for k, c in p["items"].items()}
        gained = {k: c for k, c in gained.items() if c > 0}
        if gained and who == seat and action.get("type") == "move":
            # "moved to the ghost, picked it up" rather than naming the ghost twice
            there = (_tile(before, int(action["x"]), int(action["y"])) or {}).get("items") or {}
            if gained.keys() <= there.keys():
                took, lay = sum(gained.values()), sum(there[k] for k in gained)
                if cs:
                    # (no pronoun that guesses the item's gender: "bere to", not "bere ho")
                    said.append(
                        "bere jeden kus"
                        if took == 1 < lay
                        else "bere to"
                        if took == 1
                        else "bere je"
                    )
                else:
                    said.append(
                        "picked one up"
                        if took == 1 < lay
                        else "picked it up"
                        if took == 1
                        else "picked them up"
                    )
                gained = {}
        if gained:
            said.append(pick(lang, "picked up ", "bere: ") + item_names(gained, lang))
        lost = {k: c - p["items"].get(k, 0) for k, c in old["items"].items()}
        lost = {k: c for k, c in lost.items() if c > 0}
        if lost:
            where = _tile(after, int(p["x"]), int(p["y"])) or {}
            stored = where.get("store") and who == seat
            lost_words = item_names(lost, lang)
            if cs:
                said.append(f"ukládá do banky: {lost_words}" if stored else f"ztrácí: {lost_words}")
            else:
                said.append(f"put {lost_words} in the bank" if stored else f"lost {lost_words}")
        for g_old, g_new in zip(old.get("goals") or (), p.get("goals") or (), strict=False):
            if g_new["done"] and not g_old["done"]:
                text = g_new.get("goal")
                if cs:
                    said.append(f"plní cíl: {goal_words(text, lang)}" if text else "plní cíl")
                else:
                    done = f"completed the goal to {goal_words(text)}"
                    said.append(done if text else "completed a goal")
        if int(p.get("skip") or 0) > int(old.get("skip") or 0):
            if cs:
                said.append(f"vynechá tahů: {p['skip']}")
            else:
                said.append(f"will miss {p['skip']} turn{'s' if int(p['skip']) > 1 else ''}")
        if p["eliminated"] and not old["eliminated"]:
            said.append(pick(lang, "was eliminated", "je vyřazen(a)"))
        if said:
            phrase = ", ".join(said)
            out.append(f"{subject} {phrase}" if subject else phrase)
    return out


def _name(names: Sequence[str], seat: int, lang: str = "en") -> str:
    if 0 <= seat < len(names):
        return names[seat]
    return pick(lang, f"player {seat + 1}", f"hráč {seat + 1}")


def turn_words(
    action: Mapping[str, Any],
    before: View,
    after: View,
    seat: int,
    names: Sequence[str],
    lang: str = "en",
) -> str:
    """One action and what followed, as its reader saw it: ``ann pushed row 1 from the right``,
    ``house-2 moved to the gold and picked it up`` (``house-2 jde na pole (zlato) a bere
    to``)."""
    parts = [
        action_words(action, before, seat, lang),
        *consequences(action, before, after, seat, names, lang),
    ]
    return f"{_name(names, seat, lang)} {_and(parts, lang)}"


class TurnLog:
    """Collects the actions of one turn (a push and a move, say) into one line.

    ``add`` returns the finished line when the turn passes to someone else or the game ends,
    and None while the same player is still acting.
    """

    def __init__(self, names: Sequence[str], lang: str = "en") -> None:
        self.names = list(names)
        self.lang = lang
        self._seat: int | None = None
        self._parts: list[str] = []

    def add(self, seat: int, action: Mapping[str, Any], before: View, after: View) -> str | None:
        done = None
        if self._seat is not None and self._seat != seat:
            done = self.flush()
        self._seat = seat
        self._parts.append(action_words(action, before, seat, self.lang))
        self._parts += consequences(action, before, after, seat, self.names, self.lang)
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
        line = f"{_name(self.names, seat, self.lang)} {_and(self._parts, self.lang)}"
        self._seat, self._parts = None, []
        return line


END_WORDS = (
    N_("completed every goal"),
    N_("last player not eliminated"),
    N_("every player was eliminated"),
    N_("no progress for a full round"),
    N_("the other player resigned"),
    N_("the other player ran out of time"),
    N_("you resigned"),
    N_("you ran out of time"),
)
"""How a game ends, as the engine and the tile server word it (effects.py, engine.py,
herna/servers/tiles/endings.py), each a message of the catalogs; static/games/tiles.js's
END_WORDS marks the same (a test checks the two match)."""


def end_words(reason: str, lang: str = "en") -> str:
    """How a game ended (:data:`END_WORDS`, or a reason with a number or a name in it) in
    ``lang`` from the catalogs: ``round limit (40 rounds)`` -> ``limit kol (40 kol)``."""
    if lang == "en":
        return reason
    _ = say_in(lang)
    if reason in END_WORDS:
        return _(reason)
    if found := re.fullmatch(r"no (.+) left", reason):
        return _("no {name} left").format(name=item_word(found[1], lang))
    if found := re.fullmatch(r"no progress for (\d+) full rounds", reason):
        return _("no progress for {n} full rounds").format(n=found[1])
    if found := re.fullmatch(r"round limit \((\d+) rounds\)", reason):
        return _("round limit ({n} rounds)").format(n=found[1])
    return reason

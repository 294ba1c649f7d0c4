"""A recorded tile game as readable text (``herna replay ID``): each turn in words, the
result, and the board after the last turn (or after turn ``move``).

The turns are the labels of :func:`herna.games.tiles.replay.replay_steps`, which rebuilds the
game on the rules engine from the stored rules object and action log.
"""

from __future__ import annotations

import re

from herna.games.tiles.render import render_board, render_legend
from herna.games.tiles.replay import replay_steps
from herna.games.tiles.rules import rules_title
from herna.hall.records import StoredMatch


def match_text(match: StoredMatch, public: bool = False, move: int | None = None) -> list[str]:
    names = [p.name for p in sorted(match.players, key=lambda p: p.seat)]
    named = str(match.meta.get("rules_name", "") or "custom")
    rules = "rules of the players' own" if named == "custom" else rules_title(named)
    lines = [f"Rules: {rules}. Players: {', '.join(names) or 'none'}."]
    steps = replay_steps(match)
    for i, step in enumerate(steps):
        if i == 0 and step["label"] == "setup":
            continue
        lines.append(f"{i:3d}. {step['label']}")
    lines.append(f"Result: {summary(match)}.")
    k = len(steps) - 1 if move is None else max(0, min(move, len(steps) - 1))
    view = steps[k]["view"] if steps else {}
    if "board" in view:
        title = "Board at the start:" if k == 0 else f"Board after turn {k}:"
        lines += ["", title, *render_board(view).splitlines()]
        lines += render_legend(view, names).splitlines()
    return lines


REASONS_CS = {
    "completed every goal": "splnil(a) všechny cíle",
    "last player not eliminated": "poslední nevyřazený hráč",
    "every player was eliminated": "všichni hráči byli vyřazeni",
    "no progress for a full round": "celé kolo bez pokroku",
    "the other player resigned": "soupeř se vzdal",
    "the other player ran out of time": "soupeři došel čas",
}
"""The engine's and the tile server's end reasons in Czech, as the play page says them (its
catalog's words), for the Czech pages' result lines."""


def reason_words(reason: str, lang: str = "en") -> str:
    """An end reason in the page's language (the engine words it in English)."""
    if lang != "cs":
        return reason
    if reason in REASONS_CS:
        return REASONS_CS[reason]
    if m := re.fullmatch(r"no progress for (\d+) full rounds", reason):
        return f"bez pokroku celá kola za sebou ({m[1]})"
    if m := re.fullmatch(r"round limit \((\d+) rounds\)", reason):
        return f"limit kol ({m[1]} kol)"
    if m := re.fullmatch(r"no (\S+) left", reason):
        return f"už nezbývá {m[1]}"  # the item's name as the rules file writes it
    return reason


def scores_words(match: StoredMatch, lang: str = "en") -> str:
    """The end-of-game scores of rules with scoring (what the banks and hands held), in words:
    ``points: alice 4, bob 3``; empty for rules without scoring."""
    details = match.result.get("details") if isinstance(match.result, dict) else None
    scores = details.get("scores") if isinstance(details, dict) else None
    if not isinstance(scores, list):
        return ""
    names = [p.name for p in sorted(match.players, key=lambda p: p.seat)]
    out = "vyřazen(a)" if lang == "cs" else "eliminated"
    said = [
        f"{names[i] if i < len(names) else f'player {i + 1}'} "
        + (out if score is None else str(score))
        for i, score in enumerate(scores)
    ]
    return ("body: " if lang == "cs" else "points: ") + ", ".join(said)


def summary(match: StoredMatch, lang: str = "en") -> str:
    """``alice won (reached the goal)``; with scoring, ``alice won (no gold left; points:
    alice 4, bob 3)``; a stall, ``alice, bob share the win (no progress for a full round: a
    draw among the players still in, whatever the points; points: alice 8, bob 1)``. In Czech
    without a past-tense verb after a name (it would need the player's gender): ``vítěz:
    alice (…)``, ``o výhru se dělí alice, bob (…)``."""
    cs = lang == "cs"
    reason = str(match.result.get("reason", match.status))
    if match.status != "finished":
        if reason in ("aborted", "canceled", match.status):  # nothing more to say than that
            if match.status == "canceled":
                return "zrušeno, než hra začala" if cs else "canceled before it began"
            return "hra přerušena před koncem" if cs else "stopped before the end"
        return f"hra přerušena ({reason})" if cs else f"game {match.status} ({reason})"
    scores = scores_words(match, lang)
    winners = [p.name for p in match.players if p.winner]
    said = reason_words(reason, lang)
    shared = len(winners) > 1 and reason.startswith(("no progress", "round limit"))
    if shared:
        # A stall or the round limit is a draw among everyone still in, whatever the points
        # (docs/games/tiles.md, "The end", rules 4 and 5): said, so that a shared win at
        # "points: alice 8, bob 1" does not read as a mistake.
        said += (
            ": remíza mezi hráči, kteří jsou ještě ve hře, ať jsou body jakékoli"
            if cs
            else ": a draw among the players still in, whatever the points"
        )
    why = f"{said}; {scores}" if scores else said
    names = ", ".join(winners)
    if cs:
        if not winners:
            return f"nikdo nevyhrál ({why})"
        return f"o výhru se dělí {names} ({why})" if len(winners) > 1 else f"vítěz: {names} ({why})"
    if shared:
        return f"{names} share the win ({why})"
    return f"{names} won ({why})" if winners else f"nobody won ({why})"

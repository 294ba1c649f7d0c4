"""A recorded tile game as readable text (``herna replay ID``): each turn in words, the
result, and the board after the last turn (or after turn ``move``).

The turns are the labels of :func:`herna.games.tiles.replay.replay_steps`, which rebuilds the
game on the rules engine from the stored rules object and action log.
"""

from __future__ import annotations

from herna.core.lang import pick
from herna.games.tiles.narrate import end_words
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


def scores_words(match: StoredMatch, lang: str = "en") -> str:
    """The end-of-game scores of rules with scoring (what the banks and hands held), in words:
    ``points: alice 4, bob 3``; empty for rules without scoring."""
    details = match.result.get("details") if isinstance(match.result, dict) else None
    scores = details.get("scores") if isinstance(details, dict) else None
    if not isinstance(scores, list):
        return ""
    names = [p.name for p in sorted(match.players, key=lambda p: p.seat)]
    said = [
        f"{names[i] if i < len(names) else pick(lang, 'player', 'hráč') + f' {i + 1}'} "
        + (pick(lang, "eliminated", "vyřazen(a)") if score is None else str(score))
        for i, score in enumerate(scores)
    ]
    return pick(lang, "points: ", "body: ") + ", ".join(said)


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
        return (
            f"hra přerušena ({end_words(reason, lang)})"
            if cs
            else f"game {match.status} ({reason})"
        )
    scores = scores_words(match, lang)
    winners = [p.name for p in match.players if p.winner]
    said = end_words(reason, lang)
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

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


STATUS_CS = {"aborted": "hra přerušena", "canceled": "hra zrušena"}


def summary(match: StoredMatch, lang: str = "en") -> str:
    """``alice won (reached the goal)``; with scoring, ``alice won (no gold left; points:
    alice 4, bob 3)`` (``lang="cs"``: ``alice vyhrává (už nezbývá gold; body: …)``)."""
    reason = end_words(str(match.result.get("reason", match.status)), lang)
    if match.status != "finished":
        game = pick(lang, f"game {match.status}", STATUS_CS.get(match.status, match.status))
        return f"{game} ({reason})"
    scores = scores_words(match, lang)
    why = f"{reason}; {scores}" if scores else str(reason)
    winners = [p.name for p in match.players if p.winner]
    if lang == "cs":
        verb = "vyhrávají" if len(winners) > 1 else "vyhrává"
        return f"{', '.join(winners)} {verb} ({why})" if winners else f"nikdo nevyhrál ({why})"
    return f"{', '.join(winners)} won ({why})" if winners else f"nobody won ({why})"

"""A recorded tile game as readable text (``herna replay ID``): each turn in words, the
result, and the board after the last turn (or after turn ``move``).

The turns are the labels of :func:`herna.games.tiles.replay.replay_steps`, which rebuilds the
game on the rules engine from the stored rules object and action log.
"""

from __future__ import annotations

from herna.games.tiles.render import render_board, render_legend
from herna.games.tiles.replay import replay_steps
from herna.hall.records import StoredMatch


def match_text(match: StoredMatch, public: bool = False, move: int | None = None) -> list[str]:
    names = [p.name for p in sorted(match.players, key=lambda p: p.seat)]
    rules = str(match.meta.get("rules_name", "")).replace("_", " ") or "custom rules"
    lines = [f"Rules: {rules}. Players: {', '.join(names) or 'none'}."]
    steps = replay_steps(match)
    for i, step in enumerate(steps):
        if i == 0 and step["label"] == "setup":
            continue
        lines.append(f"{i:3d}. {step['label']}")
    winners = [p.name for p in match.players if p.winner]
    reason = match.result.get("reason", match.status)
    if match.status != "finished":
        lines.append(f"Result: game {match.status} ({reason}).")
    elif winners:
        lines.append(f"Result: {', '.join(winners)} won ({reason}).")
    else:
        lines.append(f"Result: nobody won ({reason}).")
    k = len(steps) - 1 if move is None else max(0, min(move, len(steps) - 1))
    view = steps[k]["view"] if steps else {}
    if "board" in view:
        title = "Board at the start:" if k == 0 else f"Board after turn {k}:"
        lines += ["", title, *render_board(view).splitlines()]
        lines += render_legend(view, names).splitlines()
    return lines


def summary(match: StoredMatch) -> str:
    """``alice won (reached the goal)``."""
    reason = match.result.get("reason", match.status)
    if match.status != "finished":
        return f"{match.status} ({reason})"
    winners = [p.name for p in match.players if p.winner]
    return f"{', '.join(winners)} won ({reason})" if winners else f"nobody won ({reason})"

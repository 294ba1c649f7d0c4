"""Replays of recorded tile games for the web hall and ``herna replay``.

A record keeps the rules object (``meta["rules"]``), the round limit and the full action log
(chance actions included), so the game is rebuilt exactly. One step per player action (with
the chance events that followed it); the first step is the board after setup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from herna.core.game import CHANCE
from herna.core.lang import pick
from herna.games.tiles.actions import TilesCodec
from herna.games.tiles.engine import DEFAULT_MAX_ROUNDS, TilesState, new_game
from herna.games.tiles.narrate import turn_words
from herna.games.tiles.rules import RulesError, load_rules
from herna.hall.records import StoredMatch
from herna.hall.replays import ReplayStep


def describe(happened: Sequence[tuple[int | None, str]], names: Sequence[str]) -> str:
    """``[(0, "pushes row 1 right"), (None, "game over: ...")]`` -> one line for people."""
    parts = []
    for seat, text in happened:
        if seat is None:
            parts.append(text)
        else:
            who = names[seat] if 0 <= seat < len(names) else f"player {seat + 1}"
            parts.append(f"{who} {text}")
    return "; ".join(parts)


def replay_states(
    rules_data: Any,
    events: Sequence[tuple[str, dict[str, Any]]],
    name: str = "",
    max_rounds: int = DEFAULT_MAX_ROUNDS,
) -> list[tuple[int | None, TilesState]]:
    """(player, state after it) for every logged action, starting with (None, initial)."""
    rules = load_rules(rules_data, name)
    state = new_game(rules, max_rounds)
    codec = TilesCodec(rules.n)
    out: list[tuple[int | None, TilesState]] = [(None, state)]
    for kind, data in events:
        if kind != "action":
            continue
        state = state.apply(codec.decode(data["action"]))
        out.append((int(data["player"]), state))
    return out


def replay_steps(match: StoredMatch, lang: str = "en") -> list[ReplayStep]:
    """The board after setup, then after each player's action (with the chance events that
    followed it), each labelled in ``lang`` (``en`` or ``cs``)."""
    names = [p.name for p in sorted(match.players, key=lambda p: p.seat)]
    meta = match.meta
    try:
        states = replay_states(
            meta["rules"],
            match.events,
            str(meta.get("rules_name", "")),
            int(meta.get("max_rounds", DEFAULT_MAX_ROUNDS)),
        )
    except (KeyError, RulesError) as exc:
        said = pick(lang, "cannot replay", "záznam nelze přehrát")
        return [{"label": f"{said}: {exc}", "view": {"game": "tiles", "error": str(exc)}}]
    except Exception as exc:  # a broken log must not break the hall
        said = pick(lang, "replay stopped", "přehrávání se zastavilo")
        return [{"label": f"{said}: {exc}", "view": {"game": "tiles", "error": str(exc)}}]
    # the logged actions in their JSON form: states[i] is the state after actions[i - 1]
    actions = [data["action"] for kind, data in match.events if kind == "action"]
    steps: list[ReplayStep] = []
    played = False
    last_rest = 0
    for i, (player, state) in enumerate(states):
        following = states[i + 1][0] if i + 1 < len(states) else None
        played = played or (player is not None and player != CHANCE)
        at_rest = following is None or following != CHANCE
        if i + 1 < len(states) and not at_rest:
            continue
        view = state.view(None)
        # the same words as the live table and the play page (herna.games.tiles.narrate);
        # the outcome is shown beside the board, so the label does not repeat it
        label = (
            "; ".join(
                turn_words(actions[j - 1], states[j - 1][1].view(None), view, seat, names, lang)
                for j in range(last_rest + 1, i + 1)
                if (seat := states[j][0]) is not None and seat != CHANCE
            )
            if played
            else pick(lang, "setup", "příprava")
        )
        last_rest = i
        view["names"] = names  # replays only: who sat where (live events carry data.players)
        steps.append({"label": label or "...", "view": view})
    return steps

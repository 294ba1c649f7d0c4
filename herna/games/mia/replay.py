"""Replay a recorded Mia round step by step (for the web hall's stepper)."""

from __future__ import annotations

from typing import Any

from herna.core.game import CHANCE
from herna.games.mia.round import DiceRoll, MiaActionCodec, MiaRound
from herna.games.mia.text import reason_words
from herna.hall.records import StoredMatch
from herna.hall.replays import ReplayStep


def replay_steps(match: StoredMatch) -> list[ReplayStep]:
    """The round's spectator view after each action. Dice nobody saw stay hidden, as they
    were live: replays are public, and unrevealed rolls would tell other bots how a player
    bluffs. (The database keeps them; `herna replay ID` prints the full log.)"""
    order = match.result.get("order") or [p.name for p in match.players]
    if len(order) < 2:
        return [
            {
                "label": f"round canceled ({match.result.get('canceled', match.status)})",
                "view": {"players": list(order), "phase": "canceled"},
            }
        ]
    codec = MiaActionCodec()
    state = MiaRound(tuple(order))
    steps: list[ReplayStep] = [{"label": f"order: {', '.join(order)}", "view": _view(state)}]
    for kind, data in match.events:
        if kind != "action":
            continue
        action = codec.decode(data["action"])
        actor = state.current_name
        state = state.apply(action)
        if data.get("player") == CHANCE and isinstance(action, DiceRoll):
            label = f"{actor} rolled (under the cup)"
        else:
            label = f"{actor}: {action}"
        if state.is_terminal():
            label += f" — {', '.join(state.losers)} lost: {reason_words(state.reason)}"
        steps.append({"label": label, "view": _view(state)})
    return steps


def _view(state: MiaRound) -> dict[str, Any]:
    return dict(state.view(None))

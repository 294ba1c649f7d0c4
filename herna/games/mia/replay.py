"""Replay a recorded Mia round step by step (for the web hall's stepper)."""

from __future__ import annotations

from typing import Any

from herna.core.game import CHANCE
from herna.games.mia.round import (
    Announce,
    DiceRoll,
    Fault,
    MiaAction,
    MiaActionCodec,
    MiaRound,
    Roll,
    See,
)
from herna.games.mia.text import reason_words
from herna.games.mia.words import dice_words
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
        actor, before = state.current_name, state
        state = state.apply(action)
        if data.get("player") == CHANCE and isinstance(action, DiceRoll):
            label = f"{actor} rolled (under the cup)"
        else:
            label = _action_words(actor, action, before)
        if state.is_terminal():
            label += f" — {', '.join(state.losers)} lost: {reason_words(state.reason)}"
        steps.append({"label": label, "view": _view(state)})
    return steps


def _action_words(actor: str, action: MiaAction, before: MiaRound) -> str:
    """A player's action as a person says it (the wire's ROLL, ANNOUNCE 6,5, SEE stay in
    the record): ``ann rolls``, ``ann announces 6-5``, ``bob wants to see ann's 6-5``."""
    if isinstance(action, Roll):
        return f"{actor} rolls"
    if isinstance(action, Announce):
        return f"{actor} announces {dice_words(action.dice)}"
    if isinstance(action, See):
        last = before.last_announcement
        return f"{actor} wants to see" + (f" {last.name}'s {dice_words(last.dice)}" if last else "")
    if isinstance(action, Fault):
        return f"{actor} {reason_words(action.reason)}"
    return f"{actor}: {action}"


def _view(state: MiaRound) -> dict[str, Any]:
    return dict(state.view(None))

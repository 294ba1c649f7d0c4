"""Replay a recorded Mia round step by step (for the web hall's stepper)."""

from __future__ import annotations

from typing import Any

from herna.core.game import CHANCE
from herna.core.lang import pick
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
from herna.games.mia.text import lost_words, reason_words
from herna.games.mia.words import dice_words
from herna.hall.records import StoredMatch
from herna.hall.replays import ReplayStep


def replay_steps(match: StoredMatch, lang: str = "en") -> list[ReplayStep]:
    """The round's spectator view after each action, each label in ``lang``. Dice nobody
    saw stay hidden, as they were live: replays are public, and unrevealed rolls would tell
    other bots how a player bluffs. (The database keeps them; `herna replay ID` prints the
    full log.)"""
    order = match.result.get("order") or [p.name for p in match.players]
    if len(order) < 2:
        why = reason_words(match.result.get("canceled", match.status), lang)
        return [
            {
                "label": f"{pick(lang, 'round canceled', 'kolo zrušeno')} ({why})",
                "view": {"players": list(order), "phase": "canceled"},
            }
        ]
    codec = MiaActionCodec()
    state = MiaRound(tuple(order))
    first = f"{pick(lang, 'order', 'pořadí')}: {', '.join(order)}"
    steps: list[ReplayStep] = [{"label": first, "view": _view(state)}]
    for kind, data in match.events:
        if kind != "action":
            continue
        action = codec.decode(data["action"])
        actor, before = state.current_name, state
        state = state.apply(action)
        if data.get("player") == CHANCE and isinstance(action, DiceRoll):
            label = pick(
                lang, f"{actor} rolled (under the cup)", f"{actor} hodil(a) (pod kelímkem)"
            )
        else:
            label = _action_words(actor, action, before, lang)
        if state.is_terminal():
            why = reason_words(state.reason, lang)
            label += f" — {lost_words(list(state.losers), lang)}: {why}"
        steps.append({"label": label, "view": _view(state)})
    return steps


def _action_words(actor: str, action: MiaAction, before: MiaRound, lang: str = "en") -> str:
    """A player's action as a person says it (the wire's ROLL, ANNOUNCE 6,5, SEE stay in
    the record): ``ann rolls``, ``ann announces 6-5``, ``bob wants to see ann's 6-5``
    (Czech: ``ann hází``, ``ann ohlašuje 6-5``, ``bob odkrývá: ann ohlásil(a) 6-5``)."""
    if isinstance(action, Roll):
        return pick(lang, f"{actor} rolls", f"{actor} hází")
    if isinstance(action, Announce):
        # Czech announces Mia in the accusative: "ohlašuje Miu".
        said = "Miu" if lang == "cs" and action.dice.is_mia else dice_words(action.dice, lang)
        return pick(lang, f"{actor} announces {said}", f"{actor} ohlašuje {said}")
    if isinstance(action, See):
        last = before.last_announcement
        if lang == "cs":
            return f"{actor} odkrývá" + (
                f": {last.name} ohlásil(a) {dice_words(last.dice, lang)}" if last else ""
            )
        return f"{actor} wants to see" + (f" {last.name}'s {dice_words(last.dice)}" if last else "")
    if isinstance(action, Fault):
        return f"{actor} {reason_words(action.reason, lang)}"
    return f"{actor}: {action}"


def _view(state: MiaRound) -> dict[str, Any]:
    return dict(state.view(None))

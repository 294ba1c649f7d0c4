"""Replays of recorded Onitama games for the web hall and ``herna replay``.

A record holds the match seed and its log: every action (the five deal cards and stalemate
draws included) plus server notes (``logout``, ``reconnect``, ``forfeit``). A game that did
not start from the usual deal stores its start position in ``meta["start"]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from herna.core.lang import pick
from herna.games.onitama.cards import BLACK, COLOR_NAMES, WHITE
from herna.games.onitama.notation import parse_position
from herna.games.onitama.state import (
    ACTION_CODEC,
    Deal,
    Draw,
    Move,
    OnitamaState,
    Pass,
    Rule,
    Stalemate,
)
from herna.games.onitama.words import (
    action_words,
    card_words,
    end_words,
    who_words,
    win_words,
)

if TYPE_CHECKING:
    from herna.hall.records import StoredMatch
    from herna.hall.replays import ReplayStep


def initial_state(meta: dict[str, Any]) -> OnitamaState:
    """The state a recorded game started from (before its logged actions)."""
    rule: Rule = "pass" if meta.get("rule") == "pass" else "stalemate"
    start = meta.get("start")
    if start:
        return parse_position(str(start), rule=rule)
    return OnitamaState.new(rule)


def replay_steps(match: StoredMatch, lang: str = "en") -> list[ReplayStep]:
    """One step after the deal, then one per move, stalemate swap and server note; each
    label in ``lang`` (``en`` or ``cs``)."""
    names = {p.seat: p.name for p in match.players}

    def who(color: int) -> str:
        return names.get(color, COLOR_NAMES[color])

    players = {"white": who(WHITE), "black": who(BLACK)}

    def view(state: OnitamaState) -> dict[str, Any]:
        out = state.view(None)
        out["players"] = players
        return out

    state = initial_state(match.meta)
    steps: list[ReplayStep] = []
    if not state.dealing:
        steps.append({"label": pick(lang, "start position", "výchozí pozice"), "view": view(state)})
    for kind, data in match.events:
        if kind == "action":
            action = ACTION_CODEC.decode(data["action"])
            mover = state.to_move
            state = state.apply(action)
            if isinstance(action, Deal):
                if not state.dealing:
                    steps.append(
                        {
                            "label": pick(lang, "cards dealt: ", "rozdané karty: ")
                            + ", ".join(card_words(c, lang) for c in state.cards()),
                            "view": view(state),
                        }
                    )
                continue
            if isinstance(action, Move | Draw | Pass) and state.last is not None:
                who_moved = who_words(who(mover), COLOR_NAMES[mover], lang)
                label = action_words(state.last, who_moved, lang)
            elif isinstance(action, Stalemate):
                continue  # shown together with its draw
            else:  # pragma: no cover - every action type is handled above
                label = str(action)
            if state.is_terminal() and state.winner is not None:
                label += "; " + _wins(who(state.winner), state.reason, lang)
            steps.append({"label": label, "view": view(state)})
        elif kind == "forfeit":
            loser = int(data.get("player", 0))
            reason = str(data.get("reason") or "")
            state = state.forfeit(loser, reason) if reason else state.forfeit(loser)
            steps.append(
                {
                    # No reason: the reconnect window ran out.
                    "label": _wins(who(1 - loser), reason or "abandoned", lang),
                    "view": view(state),
                }
            )
        elif kind == "draw_agreed":
            state = state.agree_draw()
            draw = pick(lang, "a draw, agreed by both players", "remíza, na které se oba dohodli")
            steps.append({"label": draw, "view": view(state)})
        elif kind in ("logout", "reconnect"):
            if kind == "logout":
                verb = pick(lang, "disconnected", "se odpojil(a)")
            else:
                verb = pick(lang, "reconnected", "se znovu připojil(a)")
            steps.append({"label": f"{data.get('name', '?')} {verb}", "view": view(state)})
        elif kind == "aborted":
            stopped = pick(lang, "the game was stopped", "hra byla zastavena")
            label = f"{stopped}: {end_words(data.get('reason'), lang)}"
            steps.append({"label": label, "view": view(state)})
    return steps


def _wins(name: str, reason: object, lang: str) -> str:
    """``ann wins by the Way of the Stone (captured the master)``."""
    return f"{name} {pick(lang, 'wins', 'vyhrává')} {win_words(reason, lang)}"

"""Replay a recorded mariáš deal step by step (for the web hall's stepper and `herna replay`).

The record's ``meta`` says how the deal was set up: ``dealer`` (seat, default 0), ``tariff``
(a :data:`~herna.games.marias.contracts.TARIFFS` name, default ``csm``) and ``max_flek``
(default 16); ``meta["players"]``/the record's players name the seats. The 32 chance ``Deal``
actions are shown as one step. The deal is over, so every step also shows all hands and the
talon (live spectators never saw them).
"""

from __future__ import annotations

from typing import Any

from herna.core.game import CHANCE
from herna.games.marias.actions import Deal, Flek, MariasCodec, Renonc
from herna.games.marias.cards import CARD_CODES, mask_codes
from herna.games.marias.contracts import TARIFFS, Rules
from herna.games.marias.names import pick
from herna.games.marias.state import MariasState, Phase, new_game
from herna.games.marias.words import action_words, event_words, settlement_words
from herna.hall.records import StoredMatch
from herna.hall.replays import ReplayStep


def rules_from_meta(meta: dict[str, Any]) -> Rules:
    tariff = TARIFFS.get(str(meta.get("tariff", "csm")), TARIFFS["csm"])
    return Rules(tariff=tariff, max_flek=int(meta.get("max_flek", 16)))


def replay_steps(match: StoredMatch, lang: str = "en") -> list[ReplayStep]:
    """Each step's label in ``lang`` (``en``: English with the Czech terms; ``cs``: Czech)."""
    names = [p.name for p in sorted(match.players, key=lambda p: p.seat)] or ["0", "1", "2"]
    state = new_game(int(match.meta.get("dealer", 0)), rules_from_meta(match.meta))
    codec = MariasCodec()
    new = pick(lang, "new deal", "nové rozdání")
    steps: list[ReplayStep] = [{"label": new, "view": _view(state, names)}]
    for kind, data in match.events:
        if kind != "action":
            if kind in ("timeout", "abort", "disconnect", "note"):
                steps.append(
                    {"label": event_words(kind, data, names, lang), "view": _view(state, names)}
                )
            continue
        action = codec.decode(data["action"])
        seat = state.current_player()
        try:
            state = state.apply(action)
        except Exception as exc:  # a damaged record: show where it stops
            stop = pick(lang, "the record stops here", "záznam zde končí")
            steps.append({"label": f"{stop}: {exc}", "view": _view(state, names)})
            break
        if seat == CHANCE and isinstance(action, Deal):
            if state.phase != Phase.DEAL:
                dealt = pick(lang, "cards dealt", "karty rozdány")
                steps.append({"label": dealt, "view": _view(state, names)})
            continue
        who = names[seat] if 0 <= seat < len(names) else f"seat {seat}"
        parts = tuple(p.label for p in state.contract.parts) if isinstance(action, Flek) else ()
        text = action_words(action, parts, lang)
        if isinstance(action, Renonc):
            text = f"renonc: {state.renonc.reason}" if state.renonc else "renonc"
        label = f"{who} {text}"
        if state.is_terminal():
            s = state.settlement()
            money = ", ".join(f"{names[i]} {m:+d}" for i, m in enumerate(s.money))
            label += f" — {settlement_words(s, names, lang)}; {money}"
        steps.append({"label": label, "view": _view(state, names)})
    return steps


def _view(state: MariasState, names: list[str]) -> dict[str, Any]:
    view = dict(state.view(None))
    view["players"] = names
    view["hands"] = [mask_codes(h) for h in state.hands]
    view["talon"] = [CARD_CODES[c] for c in state.talon()]
    return view

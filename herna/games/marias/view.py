"""Views: what one seat (or a spectator) may see of a deal, JSON-ready.

A seat sees its own hand; everybody sees the auction, the contract, the fleks, the tricks, the
marriages and the rules in force; the aktér also sees the talon he laid away. Nobody sees the
dealt talon or other hands. ``history`` lists the public actions as ``[seat, log text]`` with
other players' discards hidden (bots replay it on sampled deals).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from herna.core.game import CHANCE, PlayerId
from herna.games.marias.actions import Discard, Renonc, encode_action
from herna.games.marias.cards import CARD_CODES, SUIT_CODES, mask_codes
from herna.games.marias.contracts import Contract, Rules, Tariff, format_flek
from herna.games.marias.core import MariasCore
from herna.games.marias.rules import Phase


def state_view(state: MariasCore, player: PlayerId | None) -> dict[str, Any]:
    """What ``player`` may see (``None``: a spectator), JSON-ready.

    Own hand; the public auction, contract, fleks and tricks; the talon only for the
    aktér who laid it (and the two dealt talon cards for nobody). ``history`` lists the
    public actions as ``[seat, text]`` with other players' discards hidden.
    """
    if player is not None and player not in (0, 1, 2):
        raise ValueError(f"no seat {player!r}")
    decl = state.declarer
    out: dict[str, Any] = {
        "game": "marias",
        "seat": player,
        "phase": state.phase.name.lower(),
        "dealer": state.dealer,
        "forhont": state.forhont,
        "middle": state.middle,
        "zadak": state.zadak,
        "current_player": state.current if state.current >= 0 else None,
        "hand_sizes": [state.hands[i].bit_count() for i in range(3)],
        "auction": [{"player": p, "licite": t} for p, t in state.auction_log],
        "pending_bid": state.pending_bid.code if state.pending_bid is not None else None,
        "bid": state.bid.code if state.bid != Contract.PASS else None,
        "declarer": decl if decl >= 0 else None,
        "auction_result": state.won_rung.code if decl >= 0 else None,
        "talon_size": 2 if state.phase != Phase.DISCARD else 0,
        "licite": state.contract.code if state.contract != Contract.PASS else None,
        "trumf": state.trumps_text() if state.contract != Contract.PASS else None,
        "flek": state.flek_text() if state.flek_levels else None,
        "fleks": [{"player": p, "flek": t} for p, t in state.flek_log],
        "seat_fleks": [format_flek(x) if x else None for x in state.seat_levels],
        "trick": {
            "leader": state.leader if state.phase == Phase.PLAY else None,
            "cards": [CARD_CODES[c] for c in state.trick],
        },
        "tricks": [t.to_json() for t in state.tricks],
        "marriages": [
            {"player": p, "suit": SUIT_CODES[s], "points": 40 if s == state.trumps else 20}
            for p, s in state.marriages
        ],
        "history": public_history(state, player),
        "rules": {
            "max_flek": state.rules.max_flek,
            "tariff": dataclasses.asdict(state.rules.tariff),
        },
    }
    if player is not None:
        out["hand"] = mask_codes(state.hands[player])
        if player == decl and state.phase > Phase.DISCARD:
            out["talon"] = mask_codes(state.discarded)
    if state.phase == Phase.DONE:
        s = state.settlement()
        out["result"] = s.to_json()
        out["money"] = list(s.money)
    return out


def public_history(state: MariasCore, player: PlayerId | None) -> list[list[Any]]:
    out: list[list[Any]] = []
    for seat, action in state.history():
        if seat == CHANCE:
            continue
        if isinstance(action, Discard) and seat != player:
            out.append([seat, "discard"])
        elif isinstance(action, Renonc) and isinstance(action.action, Discard):
            out.append([seat, "renonc discard" if seat != player else encode_action(action)])
        else:
            out.append([seat, encode_action(action)])
    return out


def rules_of_view(view: Mapping[str, Any]) -> Rules:
    """The :class:`Rules` a view was made under (defaults when the view has none)."""
    data = view.get("rules") or {}
    tariff = Tariff(**data["tariff"]) if "tariff" in data else Tariff()
    return Rules(tariff=tariff, max_flek=int(data.get("max_flek", 16)))

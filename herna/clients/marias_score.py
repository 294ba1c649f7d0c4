"""The card points each side has taken so far in a mariáš deal, for the play page (issue 26:
a person sees the score grow during play, not only in the vyúčtování).

Counted as the rules digest counts them (§8): eso and desítka 10 each, the last trick 10,
hlášky 20 (40 in trumps) — and only in contracts about points (not betl, durch or plain dvě
sedmy). Only what this seat knows goes in: tricks are public, and the hlášky are the ones the
relay already shows (this seat's own, another seat's once both cards were played).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from herna.clients.marias_text import CARD_POINTS

NO_POINTS = frozenset({"SMALL", "BIG", "27", "B27"})
"""Contracts where card points and hlášky do not count."""


def points_so_far(
    view: dict[str, Any], marriages: Sequence[dict[str, Any]]
) -> dict[str, Any] | None:
    """``{"aktér": cards, "obrana": cards, "aktér_hlasky": n, "obrana_hlasky": n, "tricks": n}``
    while the tricks of a contract about points are played; None otherwise."""
    contract = view.get("licite")
    declarer = view.get("declarer")
    playing = view.get("trick", {}).get("leader") is not None or view.get("tricks")
    if not contract or contract in NO_POINTS or declarer is None or not playing:
        return None
    cards = {"aktér": 0, "obrana": 0}
    tricks = view.get("tricks", [])
    for trick in tricks:
        side = "aktér" if trick["winner"] == declarer else "obrana"
        cards[side] += sum(CARD_POINTS.get(c[1:], 0) for c in trick["cards"])
        if trick.get("number") == 10:
            cards[side] += 10  # the last trick
    hlasky = {"aktér": 0, "obrana": 0}
    for m in marriages:
        hlasky["aktér" if m.get("seat") == declarer else "obrana"] += int(m["points"])
    return {
        "aktér": cards["aktér"],
        "obrana": cards["obrana"],
        "aktér_hlasky": hlasky["aktér"],
        "obrana_hlasky": hlasky["obrana"],
        "tricks": len(tricks),
    }


__all__ = ["NO_POINTS", "points_so_far"]

"""The settlement breakdown of a finished deal, derived on the player's side, sans-I/O.

CGML's ``<result>`` carries the contract, the flek, the tricks and the money, but not how the
money came about: no hlášky (marriages), no sedma or sto outcome, no per-defender flek. A
player can still work all of it out from what it legitimately saw, because at the end of a
deal nothing that matters is hidden any more:

* every card of the ten tricks was played face up, with the seat that played it;
* the only cards never shown are the aktér's two discards, and those are exactly the two
  cards nobody played (a defender knows them by elimination; they count for nothing in a
  trump game because aces and tens may not be discarded);
* a hláška (svršek + král of one suit) counts when its owner plays one of the pair while
  holding the other, i.e. exactly when one seat played both cards; the order of play says
  which hláška came first (the one that counts for sto);
* every ``<flek type="info">`` names the seat that said it, so the per-defender levels follow.

The :class:`~herna.protocols.cgml.player.PlayerTracker` already replays those public actions
through the rules engine (its shadow state), and at the end of a deal its guesses are forced
to the real cards. So the breakdown is the engine's own evaluation
(:func:`~herna.games.marias.evaluation.settle_played` / ``settle_renonc``) of that state,
with the tariff the player says the server uses. The server's money stays authoritative: a
breakdown that disagrees with it is flagged, never shown instead of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from herna.games.marias import (
    TARIFFS,
    Contract,
    MariasState,
    Phase,
    RenoncInfo,
    Settlement,
    Tariff,
)
from herna.games.marias.evaluation import settle_conceded, settle_played, settle_renonc
from herna.protocols.cgml.messages import Result
from herna.protocols.cgml.player import PlayerTracker, TrackerError
from herna.protocols.cgml.resign import RESIGNED


@dataclass(frozen=True)
class Breakdown:
    """How one deal was settled, as far as this player can tell.

    ``settlement`` is None when it cannot be derived (``unknown`` says why); the money of
    ``server_money`` is then all there is.
    """

    server_money: tuple[int, int, int]
    """Money per seat as the server's ``<result>`` says (the authority)."""
    settlement: Settlement | None = None
    seat_levels: tuple[tuple[int, ...], ...] = ()
    """Flek multipliers of each part between the aktér and each defender (aktér: highest)."""
    marriages: tuple[tuple[int, int, int], ...] = ()
    """``(seat, suit, value)`` of each hláška in play order."""
    tariff: str = "csm"
    unknown: str = ""
    matching_tariff: str | None = None
    """When the derived money disagrees: another named tariff that gives the server's money."""
    points_matter: bool = False
    """Card points and hlášky decide a part of this contract (hra or sto)."""

    @property
    def derived_money(self) -> tuple[int, int, int] | None:
        return None if self.settlement is None else self.settlement.money

    @property
    def agrees(self) -> bool:
        return self.settlement is not None and self.settlement.money == self.server_money


def server_money(tracker: PlayerTracker, result: Result) -> tuple[int, int, int]:
    money = result.money()
    out = [money.get(p.id or "", 0) for p in tracker.players[:3]]
    return (out[0], out[1], out[2])


def derive(tracker: PlayerTracker, result: Result, tariff: str = "csm") -> Breakdown:
    """The breakdown of the deal ``result`` ends, from the tracker's public record."""
    money = server_money(tracker, result)
    if tariff not in TARIFFS:
        return Breakdown(money, tariff=tariff, unknown=f"unknown tariff {tariff!r}")
    try:
        state = tracker.state()
    except TrackerError as e:
        return Breakdown(money, tariff=tariff, unknown=f"the deal cannot be rebuilt: {e}")

    def settle(t: Tariff) -> Settlement | None:
        return _settle(state, tracker, result, t)

    settlement = settle(TARIFFS[tariff])
    if settlement is None:
        return Breakdown(
            money,
            tariff=tariff,
            unknown="the deal did not end in ten tricks, a renonc or a concession this player saw",
        )
    matching = None
    if settlement.money != money:
        matching = next(
            (n for n, t in TARIFFS.items() if n != tariff and _money_of(settle(t)) == money),
            None,
        )
    marriages = tuple(
        (seat, suit, 40 if suit == state.trumps else 20) for seat, suit in state.marriages
    )
    levels = settlement.contract.parts
    seat_levels = (
        tuple(tuple(state.seat_levels[s]) for s in range(3))
        if state.seat_levels[0]
        else (((1,) * len(levels)),) * 3
    )
    points_matter = (
        settlement.renonc is None
        and not settlement.conceded
        and any(p.name in ("hra", "sto") for p in settlement.parts)
    )
    return Breakdown(
        money,
        settlement,
        seat_levels,
        marriages if points_matter else (),
        tariff,
        matching_tariff=matching,
        points_matter=points_matter,
    )


def _money_of(s: Settlement | None) -> tuple[int, int, int] | None:
    return None if s is None else s.money


def _settle(
    state: MariasState, tracker: PlayerTracker, result: Result, tariff: Tariff
) -> Settlement | None:
    if tracker.renonc_seat >= 0:
        return _settle_renonc(state, tracker, result, tariff)
    last = tracker.last_game
    if last is not None and last.ended == RESIGNED:
        if state.declarer < 0 or state.phase not in (Phase.FLEK, Phase.PLAY):
            return None
        # The aktér gave up (``<resign>``): every part lost, as the engine settles it.
        return settle_conceded(
            contract=state.contract,
            trumps=state.trumps_or_none,
            second=state.second_or_none,
            declarer=state.declarer,
            seat_levels=state.seat_levels,
            tariff=tariff,
            tricks=state.tricks,
        )
    if state.phase != Phase.DONE or len(state.tricks) != 10:
        return None
    return settle_played(
        contract=state.contract,
        trumps=state.trumps_or_none,
        second=state.second_or_none,
        declarer=state.declarer,
        seat_levels=state.seat_levels,
        tariff=tariff,
        won=state.won,
        tricks=state.tricks,
        marriages=state.marriages,
    )


def _settle_renonc(
    state: MariasState, tracker: PlayerTracker, result: Result, tariff: Tariff
) -> Settlement | None:
    """A renonc ends the deal before the engine's shadow sees the offending move; settle it
    the way the engine does (all parts lost by the offender's side, fleks only if play had
    begun) with the contract the ``<result>`` names."""
    if state.declarer < 0:
        return None
    try:
        contract = Contract.parse(result.licite)
    except ValueError:
        return None
    if state.phase == Phase.PLAY:
        contract, seat_levels = state.contract, state.seat_levels
    else:
        seat_levels = ((1,) * len(contract.parts),) * 3
    info = RenoncInfo(tracker.renonc_seat, tracker.renonc_reason, "", "")
    return settle_renonc(
        contract=contract,
        trumps=state.trumps_or_none,
        second=state.second_or_none,
        declarer=state.declarer,
        seat_levels=seat_levels,
        tariff=tariff,
        renonc=info,
        tricks=state.tricks,
    )


__all__ = ["Breakdown", "derive", "server_money"]

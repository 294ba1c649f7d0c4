"""What one seat knows, in the engine's compact form (ints and masks).

Built from a seat's JSON view (:meth:`Observation.from_view`, what bots get) or, for fast
simulations inside the search bot, straight from a state for that seat
(:meth:`Observation.from_state`, which reads only what that seat's view shows). Tests check
that the two agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from herna.games.marias.cards import BIT, parse_card, parse_suit
from herna.games.marias.contracts import Contract, parse_flek
from herna.games.marias.evaluation import Trick
from herna.games.marias.state import MariasState, Phase

_PHASES = {p.name.lower(): p for p in Phase}


@dataclass(slots=True)
class Observation:
    seat: int
    phase: Phase
    hand: int
    dealer: int
    declarer: int
    """The auction winner (aktér), -1 before the auction ends."""
    won_rung: Contract
    contract: Contract
    trumps: int
    second: int
    levels: tuple[int, ...]
    """This seat's flek levels (the highest ones for the aktér)."""
    bid: Contract
    pending: bool
    leader: int
    trick: tuple[int, ...]
    tricks: tuple[Trick, ...]
    played: int
    """Cards played to tricks so far, the current trick included."""
    talon: int
    """The discarded talon if this seat is the aktér (else 0)."""
    auction: tuple[tuple[int, str], ...]
    fleks: tuple[tuple[int, str], ...]
    order: int = 0
    """Rank order in play: 0 trump games, 1 betl/durch."""

    @property
    def forhont(self) -> int:
        return (self.dealer + 1) % 3

    @property
    def is_declarer(self) -> bool:
        return self.seat == self.declarer

    @classmethod
    def from_state(cls, state: MariasState, seat: int) -> Observation:
        decl = state.declarer
        phase = state.phase
        return cls(
            seat=seat,
            phase=phase,
            hand=state.hands[seat],
            dealer=state.dealer,
            declarer=decl,
            won_rung=state.won_rung if decl >= 0 else Contract.PASS,
            contract=state.contract,
            trumps=state.trumps,
            second=state.second,
            levels=state.seat_levels[seat],
            bid=state.bid,
            pending=state.pending and phase == Phase.AUCTION,
            leader=state.leader if phase == Phase.PLAY else -1,
            trick=state.trick,
            tricks=state.tricks,
            played=state.played,
            talon=state.discarded if seat == decl and phase > Phase.DISCARD else 0,
            auction=state.auction_log,
            fleks=state.flek_log,
            order=state.order,
        )

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Observation:
        seat = view["seat"]
        if seat is None:
            raise ValueError("a spectator view has no seat")
        hand = 0
        for code in view.get("hand", ()):
            hand |= BIT[parse_card(code)]
        tricks = tuple(
            Trick(
                t["number"],
                t["leader"],
                tuple(parse_card(c) for c in t["cards"]),
                t["winner"],
            )
            for t in view["tricks"]
        )
        trick = tuple(parse_card(c) for c in view["trick"]["cards"])
        played = 0
        for t in tricks:
            for c in t.cards:
                played |= BIT[c]
        for c in trick:
            played |= BIT[c]
        contract = Contract.parse(view["licite"]) if view.get("licite") else Contract.PASS
        trumps = second = -1
        trumf = view.get("trumf") or ""
        if trumf:
            first, _, rest = trumf.partition(":")
            trumps = parse_suit(first)
            second = parse_suit(rest) if rest else -1
        levels: tuple[int, ...] = ()
        own = (view.get("seat_fleks") or [None, None, None])[seat]
        if own and contract != Contract.PASS:
            levels = parse_flek(own, len(contract.parts))
        talon = 0
        for code in view.get("talon", ()):
            talon |= BIT[parse_card(code)]
        decl = view["declarer"]
        leader = view["trick"]["leader"]
        return cls(
            seat=seat,
            phase=_PHASES[view["phase"]],
            hand=hand,
            dealer=view["dealer"],
            declarer=-1 if decl is None else decl,
            won_rung=Contract.parse(view["auction_result"])
            if view.get("auction_result")
            else Contract.PASS,
            contract=contract,
            trumps=trumps,
            second=second,
            levels=levels,
            bid=Contract.parse(view["bid"]) if view.get("bid") else Contract.PASS,
            pending=view.get("pending_bid") is not None,
            leader=-1 if leader is None else leader,
            trick=trick,
            tricks=tricks,
            played=played,
            talon=talon,
            auction=tuple((p["player"], p["licite"]) for p in view["auction"]),
            fleks=tuple((p["player"], p["flek"]) for p in view["fleks"]),
            order=1 if contract.is_betl_durch else 0,
        )

"""Evaluation of a finished deal: every part of the contract on its own, then money.

Money is in whole tariff units (:class:`~herna.games.marias.contracts.Tariff`). Each part is
settled between the aktér (declarer) and each defender separately; a flek binds the aktér and
the defender(s) who said flek or tutti on that part (ČSM bookkeeping), so the two defenders can
pay different amounts. The limit caps what one defender pays or gets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from herna.games.marias.cards import CARD_CODES, SUIT_CODES, TENS_ACES_MASK, card_words
from herna.games.marias.contracts import Contract, Part, Tariff, format_flek, format_trumps


class Trick(NamedTuple):
    """A finished trick: ``number`` 1..10, ``leader`` seat, ``cards`` in play order, ``winner``."""

    number: int
    leader: int
    cards: tuple[int, ...]
    winner: int

    def player_of(self, card: int) -> int:
        return (self.leader + self.cards.index(card)) % 3

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "leader": self.leader,
            "cards": [CARD_CODES[c] for c in self.cards],
            "winner": self.winner,
        }


@dataclass(slots=True)
class PartResult:
    """One settled part. ``money[seat]`` is what each seat wins (+) or pays (-) for this part,
    before the limit; it sums to zero."""

    name: str
    """``hra``, ``sedma``, ``sto``, ``betl``, ``durch``, ``dvě sedmy`` or ``tichá sedma``."""
    won: bool
    """True when the aktér's side won this part."""
    units: int
    """Value per defender before flek (tariff × hearts factor × sto steps / tiché sto)."""
    money: tuple[int, int, int]
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "won": self.won,
            "units": self.units,
            "money": list(self.money),
            "note": self.note,
        }


@dataclass(frozen=True)
class RenoncInfo:
    """Who broke the rules, why (seed style, e.g. "You must play red!") and with what."""

    player: int
    reason: str
    code: str
    action: str

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "reason": self.reason, "code": self.code,
                "action": self.action}  # fmt: skip


@dataclass(slots=True)
class Settlement:
    """The result of a deal: money per seat (sums to zero) and how it came about."""

    money: tuple[int, int, int]
    declarer: int
    contract: Contract
    trumps: int | None
    second: int | None
    levels: tuple[int, ...]
    parts: tuple[PartResult, ...]
    renonc: RenoncInfo | None = None
    declarer_points: int = 0
    """Card points + last trick of the aktér (not counting marriages)."""
    defender_points: int = 0
    declarer_marriages: tuple[int, ...] = ()
    """Values (20/40) of the aktér's marriages in play order."""
    defender_marriages: tuple[int, ...] = ()
    tricks: tuple[Trick, ...] = field(default=())
    capped: bool = False
    conceded: bool = False
    """The aktér gave up the game (``Resign``): every part lost, nobody broke a rule."""

    @property
    def reason(self) -> str:
        if self.renonc is not None:
            return f"renonc by seat {self.renonc.player}: {self.renonc.reason}"
        if self.conceded:
            return f"{self.contract.code}: conceded by the aktér (seat {self.declarer})"
        won = [p.name for p in self.parts if p.won]
        lost = [p.name for p in self.parts if not p.won]
        bits = []
        if won:
            bits.append("won " + ", ".join(won))
        if lost:
            bits.append("lost " + ", ".join(lost))
        return f"{self.contract.code}: " + "; ".join(bits)

    def to_json(self) -> dict[str, Any]:
        return {
            "money": list(self.money),
            "declarer": self.declarer,
            "licite": self.contract.code,
            "trumf": format_trumps(self.trumps, self.second),
            "flek": format_flek(self.levels),
            "parts": [p.to_json() for p in self.parts],
            "renonc": self.renonc.to_json() if self.renonc else None,
            "declarer_points": self.declarer_points,
            "defender_points": self.defender_points,
            "declarer_marriages": list(self.declarer_marriages),
            "defender_marriages": list(self.defender_marriages),
            "capped": self.capped,
            "conceded": self.conceded,
            "reason": self.reason,
        }


def _amounts(declarer: int, per_def: dict[int, int]) -> tuple[int, int, int]:
    """Money per seat from what each defender pays the aktér (negative: the aktér pays)."""
    out = [0, 0, 0]
    for d, v in per_def.items():
        out[d] = -v
    out[declarer] = sum(per_def.values())
    return (out[0], out[1], out[2])


def _money(
    declarer: int, parts: Sequence[PartResult], tariff: Tariff, both_flekked: bool
) -> tuple[tuple[int, int, int], bool]:
    limit = tariff.raised_limit if both_flekked else tariff.limit
    money = [0, 0, 0]
    capped = False
    for d in range(3):
        if d == declarer:
            continue
        total = 0  # what defender d pays the aktér
        for p in parts:
            total -= p.money[d]
        if abs(total) > limit:
            capped = True
            total = limit if total > 0 else -limit
        money[d] -= total
        money[declarer] += total
    return (money[0], money[1], money[2]), capped


_INFO = {c: (c.hearts, c.parts, c.silent_seven_possible) for c in Contract}


def defenders_of(declarer: int) -> tuple[int, int]:
    return (declarer + 1) % 3, (declarer + 2) % 3


def settle_played(
    *,
    contract: Contract,
    trumps: int | None,
    second: int | None,
    declarer: int,
    seat_levels: Sequence[tuple[int, ...]],
    tariff: Tariff,
    won: Sequence[int],
    tricks: Sequence[Trick],
    marriages: Sequence[tuple[int, int]],
) -> Settlement:
    """Settle a deal played out to ten tricks.

    ``won[seat]`` is the mask of cards that seat took in tricks; ``marriages`` lists
    ``(seat, suit)`` in play order; ``seat_levels[d]`` are the flek multipliers of each part
    between the aktér and defender ``d`` (the aktér's own entry holds the highest).
    """
    d0, d1 = (declarer + 1) % 3, (declarer + 2) % 3
    hearts, part_list, silent_seven = _INFO[contract]
    hf = tariff.hearts_factor if hearts else 1
    last = tricks[-1]
    a_last = last.winner == declarer
    a_pts = 10 * (won[declarer] & TENS_ACES_MASK).bit_count() + (10 if a_last else 0)
    d_pts = 10 * ((won[d0] | won[d1]) & TENS_ACES_MASK).bit_count() + (0 if a_last else 10)
    a_mar: tuple[int, ...] = ()
    d_mar: tuple[int, ...] = ()
    for p, suit in marriages:
        if p == declarer:
            a_mar += (40 if suit == trumps else 20,)
        else:
            d_mar += (40 if suit == trumps else 20,)
    parts: list[PartResult] = []

    def add(index: int, name: str, won_part: bool, units: int, note: str = "") -> None:
        signed = units if won_part else -units
        m0 = signed * seat_levels[d0][index] if index >= 0 else signed
        m1 = signed * seat_levels[d1][index] if index >= 0 else signed
        money = [0, 0, 0]
        money[d0] = -m0
        money[d1] = -m1
        money[declarer] = m0 + m1
        parts.append(PartResult(name, won_part, units, (money[0], money[1], money[2]), note))

    for i, part in enumerate(part_list):
        value = tariff.part_value(part) * hf
        if part == Part.HRA:
            a_total, d_total = a_pts + sum(a_mar), d_pts + sum(d_mar)
            won_hra = a_total > d_total
            top = a_total if won_hra else d_total
            note = f"{a_total}:{d_total}"
            units = value
            if top >= 100:
                units = value * 2 * (1 + (top - 100) // 10)
                note += f", tiché sto ({top})"
            add(i, "hra", won_hra, units, note)
        elif part == Part.STO:
            counted = a_pts + (a_mar[0] if a_mar else 0)
            total = a_pts + sum(a_mar)
            if counted >= 100:
                add(i, "sto", True, value * (1 + (total - 100) // 10), f"{total}")
            else:
                steps = (100 - counted) // 10 + sum(d_mar) // 10
                add(i, "sto", False, value * steps, f"{counted} counted, "
                    f"defenders' marriages {sum(d_mar)}")  # fmt: skip
        elif part == Part.SEDMA:
            add(i, "sedma", _seven_wins(last, trumps, declarer), value)
        elif part == Part.DVE_SEDMY:
            ok = _seven_wins(tricks[8], second, declarer) and _seven_wins(last, trumps, declarer)
            add(i, "dvě sedmy", ok, value)
        elif part == Part.BETL:
            add(i, "betl", all(t.winner != declarer for t in tricks), value)
        else:  # DURCH
            add(i, "durch", all(t.winner == declarer for t in tricks), value)

    if silent_seven and trumps is not None:
        seven = trumps * 8
        if seven in last.cards:
            owner = last.player_of(seven)
            earner = owner if last.winner == owner else last.winner
            same_side = (earner == declarer) == (owner == declarer)
            if last.winner == owner or not same_side:
                ticha = tariff.ticha_sedma * hf
                side = "aktér" if owner == declarer else "obrana"
                note = f"{card_words(CARD_CODES[seven])} ({side}) " + (
                    "won the last trick" if last.winner == owner else "was killed in the last trick"
                )
                add(-1, "tichá sedma", earner == declarer, ticha, note)

    both = max(seat_levels[d0]) > 1 and max(seat_levels[d1]) > 1
    money, capped = _money(declarer, parts, tariff, both)
    return Settlement(
        money=money,
        declarer=declarer,
        contract=contract,
        trumps=trumps,
        second=second,
        levels=tuple(seat_levels[declarer]),
        parts=tuple(parts),
        declarer_points=a_pts,
        defender_points=d_pts,
        declarer_marriages=a_mar,
        defender_marriages=d_mar,
        tricks=tuple(tricks),
        capped=capped,
    )


def _seven_wins(trick: Trick, suit: int | None, declarer: int) -> bool:
    """The seven of ``suit`` was played by the aktér in ``trick`` and won it."""
    if suit is None:
        return False
    seven = suit * 8
    return seven in trick.cards and trick.player_of(seven) == declarer and trick.winner == declarer


def settle_renonc(
    *,
    contract: Contract,
    trumps: int | None,
    second: int | None,
    declarer: int,
    seat_levels: Sequence[tuple[int, ...]],
    tariff: Tariff,
    renonc: RenoncInfo,
    tricks: Sequence[Trick] = (),
) -> Settlement:
    """The offender's side loses every part at its tariff value with fleks and the hearts
    factor. A defender's renonc is paid by him alone: both defenders' shares to the aktér."""
    defs = defenders_of(declarer)
    hf = tariff.hearts_factor if contract.hearts else 1
    offender = renonc.player
    parts: list[PartResult] = []
    for i, part in enumerate(contract.parts):
        value = tariff.part_value(part) * hf

        def mult(d: int, i: int = i) -> int:
            return seat_levels[d][i]

        if offender == declarer:
            per_def = {d: -value * mult(d) for d in defs}
            parts.append(PartResult(part.label, False, value, _amounts(declarer, per_def),
                                    "renonc"))  # fmt: skip
        else:
            partner = defs[1] if offender == defs[0] else defs[0]
            per_def = {offender: sum(value * mult(d) for d in defs), partner: 0}
            parts.append(PartResult(part.label, True, value, _amounts(declarer, per_def),
                                    "renonc"))  # fmt: skip
    both = max(seat_levels[defs[0]]) > 1 and max(seat_levels[defs[1]]) > 1
    limit = tariff.raised_limit if both else tariff.limit
    capped = False
    shares: dict[int, int] = {}
    for d in defs:  # each defender's share, capped on its own
        share = (
            sum(abs(p.money[d]) for p in parts)
            if offender == declarer
            else sum(
                tariff.part_value(part) * hf * seat_levels[d][i]
                for i, part in enumerate(contract.parts)
            )
        )
        if share > limit:
            share, capped = limit, True
        shares[d] = share
    out = [0, 0, 0]
    if offender == declarer:
        for d in defs:
            out[d] = shares[d]
        out[declarer] = -sum(shares.values())
    else:
        out[offender] = -sum(shares.values())
        out[declarer] = sum(shares.values())
    money = (out[0], out[1], out[2])
    return Settlement(
        money=money,
        declarer=declarer,
        contract=contract,
        trumps=trumps,
        second=second,
        levels=tuple(seat_levels[declarer]),
        parts=tuple(parts),
        renonc=renonc,
        tricks=tuple(tricks),
        capped=capped,
    )


def settle_conceded(
    *,
    contract: Contract,
    trumps: int | None,
    second: int | None,
    declarer: int,
    seat_levels: Sequence[tuple[int, ...]],
    tariff: Tariff,
    tricks: Sequence[Trick] = (),
) -> Settlement:
    """The aktér gave up: he pays what his own renonc would cost (every part lost at its
    tariff value with fleks and the hearts factor, the limit applies), without a renonc."""
    as_renonc = settle_renonc(
        contract=contract,
        trumps=trumps,
        second=second,
        declarer=declarer,
        seat_levels=seat_levels,
        tariff=tariff,
        renonc=RenoncInfo(declarer, "", "", ""),
        tricks=tricks,
    )
    as_renonc.parts = tuple(replace(p, note="conceded") for p in as_renonc.parts)
    as_renonc.renonc = None
    as_renonc.conceded = True
    return as_renonc


def suit_text(suit: int | None) -> str:
    return "" if suit is None else SUIT_CODES[suit]

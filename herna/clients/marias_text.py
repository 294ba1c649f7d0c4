"""Mariáš in words for people: card, contract, flek and trump names, the settlement
breakdown (vyúčtování) as lines and the per-player result rows, shared by the terminal client
(``herna play marias``) and the browser seat relay of the web hall.

Czech game terms as in the rules digest, English in brackets (the hall's readers are both).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from herna.games.marias import (
    CARD_CODES,
    Action,
    Answer,
    Bid,
    Claim,
    Discard,
    Flek,
    GameType,
    Play,
    Resign,
    format_trumps,
)
from herna.games.marias.words import CONTRACT_CS, card_words, end_words, part_words
from herna.protocols.cgml.breakdown import Breakdown
from herna.protocols.cgml.messages import Result
from herna.protocols.cgml.player import PlayerTracker
from herna.protocols.cgml.resign import RESIGNED

SUIT_WORD = {"R": "hearts", "B": "bells", "G": "leaves", "A": "acorns"}
"""German suits in English, as the rules digest names them (hearts are the "lepší" suit)."""
SUIT_CS = {"R": "červené", "B": "kule", "G": "zelené", "A": "žaludy"}
RANK_WORD = {
    "07": "7",
    "08": "8",
    "09": "9",
    "10": "10",
    "0J": "spodek",
    "0Q": "svršek",
    "0K": "král",
    "0A": "eso",
}
"""One name per card everywhere (hand, table, choices): suit letter and the Czech rank."""
CARD_POINTS = {"10": 10, "0A": 10}
RESIGN_WORDS = "vzdát: give up the game (you lose every part)"
"""The aktér's giving up (``Resign``) as a choice."""
TARIFF_WORDS = {"csm": "ČSM", "re": "RE!", "pub": "pub"}
"""The tariffs (``--cgml-tariff``) by the names people know them by."""
FLEK_WORD = {1: "no flek", 2: "flek", 4: "re", 8: "tutti", 16: "boty", 32: "kalhoty"}
"""A flek level is the multiplier: 1 is no flek at all."""
WORDS_HELP = (
    "Cards are named by suit and rank: červené (hearts), kule (bells), zelené (leaves), "
    "žaludy (acorns); 7, 8, 9, 10, spodek (Unter), svršek (Ober), král (king), eso (ace). "
    "Contracts: hra (game), sedma (win the last trick with the "
    "trump 7), kilo (100 points), betl (take no trick), durch (take every trick), "
    "lepší = in hearts, paid double. Flek doubles a part (flek ×2, re ×4, tutti ×8 ...)."
)


def verb(who: str, third_person: str) -> str:
    """The verb agreeing with who does it: ``you announce`` but ``anna announces``."""
    return third_person.removesuffix("s") if who == "you" else third_person


def flek_words(levels: object) -> str:
    """``"1"`` -> ``no flek``; ``"2:1"`` -> ``flek on the game, no flek on the sedma``."""
    text = str(levels or "1")
    parts = [int(x) if x.isdigit() else 0 for x in text.split(":")]

    def one(n: int) -> str:
        return FLEK_WORD.get(n, f"×{n}") + (f" (×{n})" if n > 1 else "")

    if len(parts) == 2 and parts[0] != parts[1]:
        return f"{one(parts[0])} on the game, {one(parts[1])} on the sedma"
    return one(parts[0])


def units_words(n: int) -> str:
    """``1`` -> ``1 unit``, ``4`` -> ``4 units``: the count agrees with its noun."""
    return f"{n} unit" if abs(n) == 1 else f"{n} units"


def trumps_words(trumf: object) -> str:
    """``"G"`` -> ``zelené (leaves)``; ``"G:B"`` adds the second suit of dvě sedmy."""
    text = str(trumf or "")
    if not text:
        return "bez trumfů (no trumps)"
    first, _, second = text.partition(":")
    out = f"{SUIT_CS.get(first, first)} ({SUIT_WORD.get(first, first)})"
    if second:
        out += f", second suit {SUIT_CS.get(second, second)} ({SUIT_WORD.get(second, second)})"
    return out


PART_WORD = {
    "hra": "game",
    "sedma": "seven: the last trick with the trump 7",
    "sto": "kilo: 100 points",
    "betl": "no trick",
    "durch": "every trick",
    "dvě sedmy": "two sevens",
    "tichá sedma": "silent seven",
}
"""English for the parts of a settlement (evaluation's names are Czech)."""

CONTRACT_WORD = {**CONTRACT_CS, "PASS": "pass"}
"""Contracts in the words of :mod:`herna.games.marias.words`, the one place they are named."""


def card_name(code: str) -> str:
    """``A0A`` -> ``žaludy eso``, as every page and the replays name it."""
    return card_words(code)


def cancel_words(reason: str) -> str:
    """A ``<cancelgame>`` in words: ``The aktér gave up the game: every part is lost.``"""
    if reason == RESIGNED:
        return "The aktér gave up the game (vzdal): every part is lost."
    return f"The game was cancelled: {end_words(reason)}."


def action_text(action: Action) -> str:
    if isinstance(action, Bid):
        code = action.contract.code
        return f"{code} ({CONTRACT_WORD.get(code, code)})"
    if isinstance(action, Answer):
        return "YES (mám)" if action.yes else "NO (nemám)"
    if isinstance(action, GameType):
        code = action.contract.code
        trumf = format_trumps(action.trumps, action.second)
        words = CONTRACT_WORD.get(code, code)
        if not trumf:
            return f"{code} ({words})"
        return f"{code} {trumf} ({words}, trumfy {trumps_words(trumf)})"
    if isinstance(action, Flek):
        return flek_words(":".join(str(x) for x in action.levels))
    if isinstance(action, Play):
        return card_name(CARD_CODES[action.card])
    if isinstance(action, Discard):
        return " ".join(card_name(CARD_CODES[c]) for c in action.cards)
    if isinstance(action, Claim):
        return "ložená hra, lay down: " + " ".join(card_name(CARD_CODES[c]) for c in action.cards)
    if isinstance(action, Resign):
        return RESIGN_WORDS
    return str(action)


@dataclass(frozen=True)
class ResultRow:
    """One player's line of a deal's result table."""

    seat: int
    name: str
    role: str
    """``aktér``, ``obrana`` or empty when the breakdown is unknown."""
    tricks: int
    points: int
    """Card points of the tricks taken (eso and desítka 10 each, the last trick 10)."""
    hlasky: str
    """Sum of the player's hlášky, ``-`` when they do not count, ``?`` when unknown."""
    money: int


def result_rows(
    b: Breakdown, tracker: PlayerTracker, result: Result, me: str, you: str = "you"
) -> list[ResultRow]:
    """The result table of a deal: tricks, card points, hlášky and money per player, with
    this player called ``you``."""
    s = b.settlement
    money = result.money()
    tricks: dict[str, int] = {}
    points: dict[str, int] = {}
    for r in result.rounds:
        tricks[r.playerid] = tricks.get(r.playerid, 0) + 1
        won = sum(CARD_POINTS.get(c.code[1:], 0) for c in r.cards if c is not None)
        last = 10 if r.number == 10 else 0  # the last trick counts 10
        points[r.playerid] = points.get(r.playerid, 0) + won + last
    rows = []
    for seat, p in enumerate(tracker.players):
        pid = p.id or ""
        role = "" if s is None else "aktér" if seat == s.declarer else "obrana"
        hlasky = "?" if s is None else str(sum(v for x, _, v in b.marriages if x == seat))
        rows.append(
            ResultRow(
                seat,
                you if pid == me else tracker.name_of(seat),
                role,
                tricks.get(pid, 0),
                points.get(pid, 0),
                hlasky if b.points_matter or s is None else "-",
                money.get(pid, 0),
            )
        )
    return rows


def breakdown_lines(b: Breakdown, names: Sequence[str]) -> list[tuple[str, str]]:
    """Vyúčtování in words, one ``(text, style)`` per line (style ``""``, ``dim``, ``yellow``
    or ``bold red`` for a breakdown that disagrees with the server): points and hlášky per
    side, each part with its flek, and the money — derived from what this player saw and
    checked against the server's money. ``names``: each seat's name as the reader knows it."""
    s = b.settlement
    if s is None:
        return [(f"Breakdown unknown: {b.unknown}. The money above is the server's.", "yellow")]
    out: list[tuple[str, str]] = []
    defenders = [d for d in range(3) if d != s.declarer]
    if s.renonc is not None:
        out.append((f"Renonc by {names[s.renonc.player]}: their side loses every part.", ""))
    elif s.conceded:
        out.append((f"{names[s.declarer]} (aktér) gave up the game (vzdal): every part lost.", ""))
    elif b.points_matter:

        def side(pts: int, marriages: Sequence[int]) -> str:
            if not marriages:
                return f"{pts} (no hlášky)"
            return f"{pts} + hlášky {' + '.join(map(str, marriages))} = {pts + sum(marriages)}"

        out.append(
            (
                f"Body (points): aktér {side(s.declarer_points, s.declarer_marriages)}; "
                f"obrana {side(s.defender_points, s.defender_marriages)}",
                "",
            )
        )
        for seat, suit, value in b.marriages:
            trump = ", trumfy" if value == 40 else ""
            out.append(
                (
                    f"  hláška {SUIT_CS['RBGA'[suit]]} ({SUIT_WORD['RBGA'[suit]]}{trump}) "
                    f"{value} — {names[seat]} ({'aktér' if seat == s.declarer else 'obrana'})",
                    "",
                )
            )
    else:
        words = CONTRACT_WORD.get(s.contract.code, s.contract.code)
        out.append((f"Card points and hlášky do not count in {words}.", ""))
    nparts = len(s.contract.parts)
    for i, part in enumerate(s.parts):
        outcome = "won" if part.won else "lost"
        note = f" ({part.note})" if part.note and part.note not in ("renonc", "conceded") else ""
        if i < nparts:
            levels = [b.seat_levels[d][i] for d in defenders]
            if levels[0] == levels[1]:
                flek = flek_words(levels[0])
            else:
                flek = ", ".join(
                    f"{flek_words(x)} with {names[d]}"
                    for d, x in zip(defenders, levels, strict=True)
                )
        else:
            flek = "never flekked"
        aktér = part.money[s.declarer]
        out.append(
            (
                f"  {part_words(part.name)} ({PART_WORD.get(part.name, part.name)}): {outcome} "
                "by the aktér"
                f"{note}; {units_words(part.units)} × {flek} → aktér {aktér:+d}",
                "",
            )
        )
    if s.capped:
        out.append(("  The limit caps what one defender pays or gets.", ""))
    if b.agrees:
        out.append(
            (
                f"Money as the server's result says: the {TARIFF_WORDS.get(b.tariff, b.tariff)} "
                "tariff, per defender × part × flek (1 unit = 0.20 Kč in the ČSM tariff).",
                "dim",
            )
        )
    else:
        derived = ", ".join(f"{names[x]} {s.money[x]:+d}" for x in range(3))
        tariff = TARIFF_WORDS.get(b.tariff, b.tariff)
        hint = (
            f"; the server seems to use the {TARIFF_WORDS.get(b.matching_tariff)} tariff"
            if b.matching_tariff
            else ""
        )
        out.append(
            (
                f"Check: this breakdown (the {tariff} tariff) gives {derived}, but the "
                f"server's result differs; the server's money counts{hint}.",
                "bold red",
            )
        )
    return out

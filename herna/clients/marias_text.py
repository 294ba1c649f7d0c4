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
from herna.games.marias.names import RANK_EN, SUIT_EN, SUIT_NOUN, Case, pick
from herna.games.marias.names import card_name as card_words_in
from herna.games.marias.words import CONTRACT_CS, SUIT_IN_CS, end_words, part_words
from herna.protocols.cgml.breakdown import Breakdown
from herna.protocols.cgml.messages import Result
from herna.protocols.cgml.player import PlayerTracker
from herna.protocols.cgml.resign import RESIGNED

SUIT_WORD = SUIT_EN
"""German suits in English, as the rules digest names them (hearts are the "lepší" suit)."""
SUIT_CS = SUIT_NOUN
RANK_WORD = RANK_EN
"""The ranks in English, for the glosses (the Czech names are :mod:`.names`')."""
CARD_POINTS = {"10": 10, "0A": 10}
RESIGN_WORDS = "vzdát: give up the game (you lose every part)"
"""The aktér's giving up (``Resign``) as a choice."""
RESIGN_WORDS_CS = "vzdát: vzdáš hru (prohraješ všechny části)"
TARIFF_WORDS = {"csm": "ČSM", "re": "RE!", "pub": "pub"}
"""The tariffs (``--cgml-tariff``) by the names people know them by."""
FLEK_WORD = {1: "no flek", 2: "flek", 4: "re", 8: "tutti", 16: "boty", 32: "kalhoty"}
"""A flek level is the multiplier: 1 is no flek at all."""
WORDS_HELP = (
    "Cards are named by suit and rank, the suit agreeing with the rank: červená sedma, zelený "
    "spodek, kulový svršek, žaludové eso; the suits are červené (hearts), kule (bells), zelené "
    "(leaves), žaludy (acorns); the ranks sedma, osma, devítka, desítka (7-10), spodek (Unter), "
    "svršek (Ober), král (king), eso (ace). Contracts: hra (game), sedma (win the last trick "
    "with the trump 7), kilo (100 points), betl (take no trick), durch (take every trick), "
    "lepší = in hearts, paid double. Flek doubles a part (flek ×2, re ×4, tutti ×8 ...). "
    "--language cs says everything in Czech."
)
YOU = {"en": "you", "cs": "ty"}
"""The reader, as the sentences about them name them."""


def you(lang: str = "en") -> str:
    return YOU.get(lang, "you")


def verb(who: str, third_person: str) -> str:
    """The verb agreeing with who does it: ``you announce`` but ``anna announces``."""
    return third_person.removesuffix("s") if who == "you" else third_person


def says(lang: str, who: str, en: str, cs: str, cs_you: str, en_you: str = "") -> str:
    """``who`` and the verb agreeing with them: English ``you announce`` / ``anna
    announces`` (``en`` is the third person; its first word is the verb, or ``en_you`` says
    it for "you" when more than one verb agrees); Czech ``ty hlásíš`` / ``anna hlásí``."""
    if lang == "cs":
        return f"{who} {cs_you if who == YOU['cs'] else cs}"
    if who == YOU["en"] and en_you:
        return f"{who} {en_you}"
    first, _, rest = en.partition(" ")
    return f"{who} {verb(who, first)}" + (f" {rest}" if rest else "")


def flek_words(levels: object, lang: str = "en") -> str:
    """``"1"`` -> ``no flek``; ``"2:1"`` -> ``flek on the game, no flek on the sedma``; in Czech
    ``bez fleku``, ``flek (×2) na hru, bez fleku na sedmu``."""
    text = str(levels or "1")
    parts = [int(x) if x.isdigit() else 0 for x in text.split(":")]

    def one(n: int) -> str:
        word = "bez fleku" if n == 1 and lang == "cs" else FLEK_WORD.get(n, f"×{n}")
        return word + (f" (×{n})" if n > 1 else "")

    if len(parts) == 2 and parts[0] != parts[1]:
        return pick(
            lang,
            f"{one(parts[0])} on the game, {one(parts[1])} on the sedma",
            f"{one(parts[0])} na hru, {one(parts[1])} na sedmu",
        )
    return one(parts[0])


def units_words(n: int, lang: str = "en") -> str:
    """``1`` -> ``1 unit``, ``4`` -> ``4 units``: the count agrees with its noun (Czech: 1
    jednotka, 2–4 jednotky, 5 jednotek)."""
    if lang == "cs":
        m = abs(n)
        return f"{n} jednotka" if m == 1 else f"{n} jednotky" if 2 <= m <= 4 else f"{n} jednotek"
    return f"{n} unit" if abs(n) == 1 else f"{n} units"


def trumps_words(trumf: object, lang: str = "en") -> str:
    """``"G"`` -> ``zelené (leaves)``; ``"G:B"`` adds the second suit of dvě sedmy; in Czech
    ``zelené, strkací kule``."""
    text = str(trumf or "")
    if not text:
        return pick(lang, "bez trumfů (no trumps)", "bez trumfů")
    first, _, second = text.partition(":")
    if lang == "cs":
        out = SUIT_CS.get(first, first)
        return out + (f", strkací {SUIT_CS.get(second, second)}" if second else "")
    out = f"{SUIT_CS.get(first, first)} ({SUIT_WORD.get(first, first)})"
    if second:
        out += f", second suit {SUIT_CS.get(second, second)} ({SUIT_WORD.get(second, second)})"
    return out


PART_WORD = {
    "hra": "game",
    "sedma": "seven: the last trick with the trump 7",
    "sto": "100 points",
    "betl": "no trick",
    "durch": "every trick",
    "dvě sedmy": "two sevens",
    "tichá sedma": "silent seven",
}
"""English for the parts of a settlement (evaluation's names are Czech)."""

CONTRACT_WORD = {**CONTRACT_CS, "PASS": "pass"}
"""Contracts in the words of :mod:`herna.games.marias.words`, the one place they are named."""
CONTRACT_WORD_CS = {**CONTRACT_CS, "PASS": "nic"}


def contract_word(code: str, lang: str = "en") -> str:
    return (CONTRACT_WORD_CS if lang == "cs" else CONTRACT_WORD).get(code, code)


def card_name(code: str, lang: str = "en", case: Case = "nom") -> str:
    """``A0A`` -> ``žaludové eso``, as every page and the replays name it (Czech: in the case
    the sentence needs)."""
    return card_words_in(code, lang, case)


def cancel_words(reason: str, lang: str = "en") -> str:
    """A ``<cancelgame>`` in words: ``The aktér gave up the game: every part is lost.``"""
    if reason == RESIGNED:
        return pick(
            lang,
            "The aktér gave up the game (vzdal): every part is lost.",
            "Aktér hru vzdal: všechny části jsou prohrané.",
        )
    why = end_words(reason, lang)
    return pick(lang, f"The game was cancelled: {why}.", f"Hra byla zrušena: {why}.")


def action_text(action: Action, lang: str = "en") -> str:
    if isinstance(action, Bid):
        code = action.contract.code
        return f"{code} ({contract_word(code, lang)})"
    if isinstance(action, Answer):
        return "YES (mám)" if action.yes else "NO (nemám)"
    if isinstance(action, GameType):
        code = action.contract.code
        trumf = format_trumps(action.trumps, action.second)
        words = contract_word(code, lang)
        if not trumf:
            return f"{code} ({words})"
        return f"{code} {trumf} ({words}, trumfy {trumps_words(trumf, lang)})"
    if isinstance(action, Flek):
        return flek_words(":".join(str(x) for x in action.levels), lang)
    if isinstance(action, Play):
        return card_name(CARD_CODES[action.card], lang)
    if isinstance(action, Discard):
        return " ".join(card_name(CARD_CODES[c], lang) for c in action.cards)
    if isinstance(action, Claim):
        cards = " ".join(card_name(CARD_CODES[c], lang) for c in action.cards)
        return pick(lang, "ložená hra, lay down: ", "ložená hra, vyložit: ") + cards
    if isinstance(action, Resign):
        return pick(lang, RESIGN_WORDS, RESIGN_WORDS_CS)
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


def breakdown_lines(b: Breakdown, names: Sequence[str], lang: str = "en") -> list[tuple[str, str]]:
    """Vyúčtování in words, one ``(text, style)`` per line (style ``""``, ``dim``, ``yellow``
    or ``bold red`` for a breakdown that disagrees with the server): points and hlášky per
    side, each part with its flek, and the money — derived from what this player saw and
    checked against the server's money. ``names``: each seat's name as the reader knows it."""
    s = b.settlement
    cs = lang == "cs"
    if s is None:
        return [
            (
                pick(
                    lang,
                    f"Breakdown unknown: {b.unknown}. The money above is the server's.",
                    f"Vyúčtování nelze odvodit: {b.unknown}. Peníze výše jsou podle serveru.",
                ),
                "yellow",
            )
        ]
    out: list[tuple[str, str]] = []
    defenders = [d for d in range(3) if d != s.declarer]
    if s.renonc is not None:
        who = names[s.renonc.player]
        out.append(
            (
                pick(
                    lang,
                    f"Renonc by {who}: their side loses every part.",
                    f"Renonc ({who}): strana, která ho udělala, prohrává všechny části.",
                ),
                "",
            )
        )
    elif s.conceded:
        who = names[s.declarer]
        out.append(
            (
                pick(
                    lang,
                    f"{who} (aktér) gave up the game (vzdal): every part lost.",
                    f"Aktér {who} hru vzdal: všechny části prohrává.",
                ),
                "",
            )
        )
    elif b.points_matter:

        def side(pts: int, marriages: Sequence[int]) -> str:
            if not marriages:
                return f"{pts} ({pick(lang, 'no hlášky', 'bez hlášek')})"
            return f"{pts} + hlášky {' + '.join(map(str, marriages))} = {pts + sum(marriages)}"

        out.append(
            (
                pick(lang, "Body (points): ", "Body: ")
                + f"aktér {side(s.declarer_points, s.declarer_marriages)}; "
                f"obrana {side(s.defender_points, s.defender_marriages)}",
                "",
            )
        )
        for seat, suit, value in b.marriages:
            letter = "RBGA"[suit]
            role = "aktér" if seat == s.declarer else "obrana"
            if cs:
                trump = " (trumfy)" if value == 40 else ""
                where = SUIT_IN_CS[letter]
                out.append((f"  hláška {where}{trump} {value} — {names[seat]} ({role})", ""))
            else:
                trump = ", trumfy" if value == 40 else ""
                out.append(
                    (
                        f"  hláška {SUIT_CS[letter]} ({SUIT_WORD[letter]}{trump}) "
                        f"{value} — {names[seat]} ({role})",
                        "",
                    )
                )
    else:
        words = contract_word(s.contract.code, lang)
        out.append(
            (
                pick(
                    lang,
                    f"Card points and hlášky do not count in {words}.",
                    f"Body za karty a hlášky se ve hře {words} nepočítají.",
                ),
                "",
            )
        )
    nparts = len(s.contract.parts)
    for i, part in enumerate(s.parts):
        note = f" ({part.note})" if part.note and part.note not in ("renonc", "conceded") else ""
        if i < nparts:
            levels = [b.seat_levels[d][i] for d in defenders]
            if levels[0] == levels[1]:
                flek = flek_words(levels[0], lang)
            else:
                flek = ", ".join(
                    f"{flek_words(x, lang)} {pick(lang, 'with', 's hráčem')} {names[d]}"
                    for d, x in zip(defenders, levels, strict=True)
                )
        else:
            flek = pick(lang, "never flekked", "bez fleku")
        aktér = part.money[s.declarer]
        units = units_words(part.units, lang)
        if cs:
            outcome = "aktér vyhrál" if part.won else "aktér prohrál"
            line = (
                f"  {part_words(part.name)}: {outcome}{note}; {units} × {flek} → aktér {aktér:+d}"
            )
        else:
            outcome = "won" if part.won else "lost"
            line = (
                f"  {part_words(part.name)} ({PART_WORD.get(part.name, part.name)}): {outcome} "
                f"by the aktér{note}; {units} × {flek} → aktér {aktér:+d}"
            )
        out.append((line, ""))
    if s.capped:
        out.append(
            (
                pick(
                    lang,
                    "  The limit caps what one defender pays or gets.",
                    "  Limit omezuje, kolik jeden obránce platí nebo dostává.",
                ),
                "",
            )
        )
    tariff = TARIFF_WORDS.get(b.tariff, b.tariff)
    if b.agrees:
        out.append(
            (
                pick(
                    lang,
                    f"Money as the server's result says: the {tariff} tariff, per defender × "
                    "part × flek (1 unit = 0.20 Kč in the ČSM tariff).",
                    f"Peníze podle výsledku serveru: sazebník {tariff}, za každého obránce × "
                    "část × flek (1 jednotka = 0,20 Kč v sazebníku ČSM).",
                ),
                "dim",
            )
        )
    else:
        derived = ", ".join(f"{names[x]} {s.money[x]:+d}" for x in range(3))
        matching = TARIFF_WORDS.get(b.matching_tariff or "")
        hint = (
            pick(
                lang,
                f"; the server seems to use the {matching} tariff",
                f"; server zřejmě používá sazebník {matching}",
            )
            if b.matching_tariff
            else ""
        )
        out.append(
            (
                pick(
                    lang,
                    f"Check: this breakdown (the {tariff} tariff) gives {derived}, but the "
                    f"server's result differs; the server's money counts{hint}.",
                    f"Kontrola: toto vyúčtování (sazebník {tariff}) dává {derived}, ale výsledek "
                    f"serveru se liší; platí peníze serveru{hint}.",
                ),
                "bold red",
            )
        )
    return out

"""Mariáš in the words a person reads — the one formatter of cards, contracts, parts, fleks and
how a deal ended, used by the play page, the replays, the history, the terminal and the logs
(issue 26: the same words on every page).

The terms are the rules digest's (shared/marias-rules.md): German-suited cards named by suit
and rank with agreement (``žaludové eso``, ``červená sedma``: :mod:`.names`), contracts by
their Czech names (``lepší kilo a sedma``), never the CGML codes (``B107``, ``A0A``) the wire
and the record use. Every formatter takes ``lang``: ``en`` (the default: English sentences
with the Czech terms) or ``cs`` (Czech sentences, cards in the case the sentence needs:
``Bob hraje červenou sedmu``). Sentences about a player use the present tense, which in
Czech does not depend on the player's gender (``Alice hlásí sedmu``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from herna.games.marias.actions import (
    Action,
    Answer,
    Bid,
    Claim,
    Deal,
    Discard,
    Flek,
    GameType,
    Play,
    Renonc,
    Resign,
)
from herna.games.marias.cards import CARD_CODES, RANK_CS, SUIT_CODES, card_words
from herna.games.marias.contracts import CONTRACTS, Contract
from herna.games.marias.evaluation import Settlement
from herna.games.marias.names import SUIT_EN, SUIT_NOUN, card_name, pick

SUIT_CS = SUIT_NOUN
"""The German suits in Czech as nouns, by CGML letter (hearts are the "lepší" suit)."""
SUIT_IN_CS = {"R": "v červených", "B": "v kulích", "G": "v zelených", "A": "v žaludech"}
"""``in hearts`` … in Czech (the locative plural)."""
CONTRACT_CS = {
    "PASS": "nic (pass)",
    "G": "hra",
    "BG": "lepší hra",
    "7": "sedma",
    "B7": "lepší sedma",
    "100": "kilo",
    "107": "kilo a sedma",
    "B100": "lepší kilo",
    "B107": "lepší kilo a sedma",
    "SMALL": "betl",
    "BIG": "durch",
    "27": "dvě sedmy",
    "127": "dvě sedmy a kilo",
    "B27": "lepší dvě sedmy",
    "B127": "lepší dvě sedmy a kilo",
}
"""Each contract by its CGML code; "lepší" = hearts are trumps and every part pays double."""
PART_CS = {"sto": "kilo"}
"""The settlement's part names where the engine's differ from the contract words."""
FLEK_CS = {1: "bez fleku", 2: "flek", 4: "re", 8: "tutti", 16: "boty", 32: "kalhoty"}

END_WORDS = {
    "disconnected": "lost the connection",
    "left": "left",
    "pause too long": "paused too long",
    "timeout": "did not answer in time",
    "rejected": "refused the table",
    "server shutdown": "the server was shut down",
    "server shutting down": "the server was shut down",
    "group finished": "the table closed",
    "renonc": "renonc",
    "move limit": "too many moves",
    "resigned": "the aktér gave up the game",
}
"""Why a deal or a table ended, by the reason the server records."""
END_WORDS_CS = {
    "disconnected": "ztráta spojení",
    "left": "odchod od stolu",
    "pause too long": "příliš dlouhá pauza",
    "timeout": "žádná odpověď včas",
    "rejected": "odmítnutí stolu",
    "server shutdown": "vypnutí serveru",
    "server shutting down": "vypnutí serveru",
    "group finished": "stůl se zavřel",
    "renonc": "renonc",
    "move limit": "příliš mnoho tahů",
    "resigned": "aktér hru vzdal",
}
"""The same reasons in Czech, as nouns (``stůl skončil: odchod od stolu (bob)``): a verb would
have to agree with the player's gender, which the hall does not know."""

_ACCUSATIVE = ((re.compile(r"\bhra\b"), "hru"), (re.compile(r"\bsedma\b"), "sedmu"))


def accusative(words: str) -> str:
    """A contract or part name as an object: ``lepší sedma`` -> ``lepší sedmu``, ``hra`` ->
    ``hru`` (kilo, betl, durch and dvě sedmy keep their form; tichá sedma -> tichou sedmu)."""
    for pattern, form in _ACCUSATIVE:
        words = pattern.sub(form, words)
    return words.replace("tichá sedmu", "tichou sedmu")


def cards_words(codes: Sequence[str], lang: str = "en") -> str:
    return ", ".join(card_name(c, lang) for c in codes)


def contract_words(code: object) -> str:
    """``B107`` -> ``lepší kilo a sedma`` (the Czech name in either language)."""
    text = str(code or "")
    return CONTRACT_CS.get(text.upper(), text)


def part_words(name: str) -> str:
    return PART_CS.get(name, name)


def suit_words(letter: str) -> str:
    return SUIT_CS.get(letter.upper(), letter)


def trumps_words(trumf: object) -> str:
    """``G`` -> ``trumfy zelené``; ``G:B`` adds the second suit of dvě sedmy; empty: none.
    The same Czech words in either language."""
    text = str(trumf or "")
    if not text:
        return ""
    first, _, second = text.partition(":")
    out = f"trumfy {suit_words(first)}"
    return out + (f", strkací {suit_words(second)}" if second else "")


SEAT_ROLE_CS = {"forhont": "forhont", "middle": "prostřední", "zadak": "zadák"}
"""The three seats of a deal by the view's key: forhont, prostřední, zadák (the dealer). The
view's key ``middle`` is a field name; a person reads prostřední in either language."""


def seat_roles(view: Mapping[str, Any]) -> dict[int, str]:
    """Each seat's role in this deal from a view holding ``forhont``, ``middle``, ``zadak``:
    ``{1: "forhont", 2: "prostřední", 0: "zadák"}``."""
    return {view[key]: word for key, word in SEAT_ROLE_CS.items() if key in view}


def outbid_words(won: str, trumps: str = "", lang: str = "en") -> str:
    """Why the announcement must be at least what the licitace was won at, for the aktér
    choosing ``trumps`` (a CGML suit letter, or "" for any): a "lepší" (hearts) bid keeps a
    game of the same kind in červené, and only a higher rung may be played in another suit.

    >>> outbid_words("BG", "G")[:55]
    'Lepší hra was bid: the game is in červené (hearts); in '
    >>> outbid_words("7", "G")
    'The licitace was sedma: announce sedma or a higher game.'
    >>> outbid_words("BG", "G", "cs")[:50]
    'Vydražená hra: lepší hra. Hraje se v červených; v '
    >>> outbid_words("7", "G", "cs")
    'Vydražená hra: sedma. Hlásit lze sedmu nebo vyšší hru.'
    """
    c = Contract.parse(won)
    word = contract_words(c.code)
    if c.hearts and trumps.upper() != "R":
        higher = next((x for x in CONTRACTS if x > c and x.has_trumps and not x.hearts), None)
        if lang == "cs":
            out = f"Vydražená hra: {word}. Hraje se v červených"
            if higher is not None:
                where = SUIT_IN_CS[trumps.upper()] if trumps else "v jiné barvě"
                out += f"; {where} ji přebije jen {contract_words(higher.code)} nebo vyšší hra"
            return out + "."
        out = f"{word[:1].upper()}{word[1:]} was bid: the game is in červené (hearts)"
        if higher is not None:
            where = (
                f"in {SUIT_CS[trumps.upper()]} ({SUIT_EN[trumps.upper()]})"
                if trumps
                else "in another suit"
            )
            out += f"; {where} only {contract_words(higher.code)} or higher outbids it"
        return out + "."
    if lang == "cs":
        return f"Vydražená hra: {word}. Hlásit lze {accusative(word)} nebo vyšší hru."
    return f"The licitace was {word}: announce {word} or a higher game."


def end_words(reason: object, lang: str = "en") -> str:
    """A recorded reason in words (an unknown one with its underscores spaced out)."""
    text = str(reason or "")
    table = END_WORDS_CS if lang == "cs" else END_WORDS
    return table.get(text, text.replace("_", " ").lower() if text.isupper() else text)


def flek_words(levels: Iterable[int], parts: Sequence[str] = ()) -> str:
    """``(2, 1)`` with parts ``hra, sedma`` -> ``hra flek, sedma bez fleku`` (Czech terms in
    either language)."""
    words = [FLEK_CS.get(n, f"×{n}") for n in levels]
    if parts and len(parts) == len(words):
        return ", ".join(f"{part_words(p)} {w}" for p, w in zip(parts, words, strict=True))
    return ", ".join(words)


def _suits_cs(trumps: int | None, second: int | None) -> str:
    out = "" if trumps is None else f", trumfy {SUIT_CS[SUIT_CODES[trumps]]}"
    return out + ("" if second is None else f", strkací {SUIT_CS[SUIT_CODES[second]]}")


def action_words(action: Action, flek_parts: Sequence[str] = (), lang: str = "en") -> str:
    """What a seat did, in words, to follow its name: ``bids sedma``, ``plays žaludové eso``
    …; in Czech ``licituje sedmu``, ``hraje žaludové eso``, ``odkládá do talonu červenou
    sedmu a zelené eso``."""
    cs = lang == "cs"
    match action:
        case Deal(card):
            code = CARD_CODES[card]
            return pick(
                lang, f"is dealt {card_words(code)}", f"dostává {card_name(code, lang, 'acc')}"
            )
        case Bid(contract):
            word = contract_words(contract.code)
            if contract.code == "PASS":
                return pick(lang, "passes (nic)", "pasuje (nic)")
            return pick(lang, f"bids {word}", f"licituje {accusative(word)}")
        case Answer(yes):
            if cs:
                return "říká „mám“ (drží hru)" if yes else "říká „nemám“ (končí v licitaci)"
            return "mám (has it)" if yes else "nemám (drops out)"
        case Discard(cards):
            codes = [CARD_CODES[c] for c in cards]
            if cs:
                return "odkládá do talonu " + " a ".join(card_name(c, lang, "acc") for c in codes)
            return "lays into the talon " + cards_words(codes)
        case GameType(contract, trumps, second):
            word = contract_words(contract.code)
            if cs:
                return f"hlásí {accusative(word)}{_suits_cs(trumps, second)}"
            return f"announces {word}{_suits_cs(trumps, second)}"
        case Flek(levels):
            return flek_words(levels, flek_parts)
        case Play(card):
            code = CARD_CODES[card]
            return pick(lang, f"plays {card_words(code)}", f"hraje {card_name(code, lang, 'acc')}")
        case Claim(cards):
            listed = cards_words([CARD_CODES[c] for c in cards], lang)
            return pick(
                lang,
                f"lays the cards down (ložená): {listed}",
                f"pokládá karty (ložená hra): {listed}",
            )
        case Renonc(inner):
            return f"renonc ({action_words(inner, lang=lang)})"
        case Resign():
            return pick(
                lang,
                "gives up the game (vzdává): the aktér loses every part",
                "vzdává hru: aktér prohrává všechny části",
            )
    return str(action)


def settlement_words(s: Settlement, names: Sequence[str], lang: str = "en") -> str:
    """``kilo a sedma: won kilo; lost sedma``, ``renonc by bob`` or ``sedma: bob gave up
    (vzdal), every part lost``; in Czech ``kilo a sedma: aktér vyhrál kilo, prohrál sedmu``."""
    if s.renonc is not None:
        who = names[s.renonc.player] if 0 <= s.renonc.player < len(names) else "?"
        return pick(lang, f"renonc by {who}", f"renonc: {who}")
    contract = contract_words(s.contract.code)
    if s.conceded:
        who = names[s.declarer] if 0 <= s.declarer < len(names) else "the aktér"
        return pick(
            lang,
            f"{contract}: {who} gave up (vzdal), every part lost",
            f"{contract}: aktér {who} hru vzdal, prohrává všechny části",
        )
    won = [part_words(p.name) for p in s.parts if p.won]
    lost = [part_words(p.name) for p in s.parts if not p.won]
    return f"{contract}: " + verdict_words(won, lost, lang)


def verdict_words(won: Sequence[str], lost: Sequence[str], lang: str = "en") -> str:
    """``won kilo; lost sedma``; in Czech ``aktér vyhrál kilo, prohrál sedmu``."""
    if lang == "cs":
        bits = [
            "vyhrál " + " a ".join(accusative(p) for p in won) if won else "",
            "prohrál " + " a ".join(accusative(p) for p in lost) if lost else "",
        ]
        return "aktér " + ", ".join(b for b in bits if b)
    bits = [f"won {', '.join(won)}" if won else "", f"lost {', '.join(lost)}" if lost else ""]
    return "; ".join(b for b in bits if b)


def ended_words(result: Mapping[str, Any], status: str = "aborted", lang: str = "en") -> str:
    """Why a table ended before its deal was settled, from the stored result
    (``{"reason": "aborted", "abort": "left", "culprit": "guest-x"}``):
    ``the table ended: guest-x left``; in Czech ``stůl skončil: odchod od stolu (guest-x)``."""
    why = end_words(result.get("abort") or result.get("reason") or "", lang)
    who = result.get("culprit")
    if lang == "cs":
        if who:
            return f"stůl skončil: {why} ({who})" if why else f"stůl skončil ({who})"
        return f"stůl skončil: {why}" if why and why != status else "stůl skončil předčasně"
    if who:
        return f"the table ended: {who} {why}".rstrip()
    return f"the table ended: {why}" if why and why != status else f"the table ended ({status})"


def event_words(kind: str, data: Mapping[str, Any], names: Sequence[str], lang: str = "en") -> str:
    """A recorded non-move event (an abort, a timeout, a note) as a sentence."""
    player = data.get("player")
    who = (
        names[player]
        if isinstance(player, int) and 0 <= player < len(names)
        else str(data.get("name") or "")
    )
    why = end_words(data.get("reason", kind), lang)
    if kind in ("abort", "timeout", "disconnect"):
        if lang == "cs":
            return f"Rozdání bylo zastaveno: {why}" + (f" ({who})." if who else ".")
        return f"The deal was stopped: {who} {why}." if who else f"The deal was stopped: {why}."
    return f"{who + ': ' if who else ''}{why}"


__all__ = [
    "CONTRACT_CS",
    "END_WORDS",
    "END_WORDS_CS",
    "FLEK_CS",
    "PART_CS",
    "RANK_CS",
    "SEAT_ROLE_CS",
    "SUIT_CS",
    "SUIT_EN",
    "SUIT_IN_CS",
    "accusative",
    "action_words",
    "card_words",
    "cards_words",
    "contract_words",
    "end_words",
    "ended_words",
    "event_words",
    "flek_words",
    "outbid_words",
    "part_words",
    "seat_roles",
    "settlement_words",
    "suit_words",
    "trumps_words",
    "verdict_words",
]

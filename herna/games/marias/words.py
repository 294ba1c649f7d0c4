"""Mariáš in the words a person reads — the one formatter of cards, contracts, parts, fleks and
how a deal ended, used by the play page, the replays, the history, the terminal and the logs
(issue 26: the same words on every page).

The terms are the rules digest's (shared/marias-rules.md): German-suited cards named by suit
and rank (``žaludy eso``, ``červené 7``), contracts by their Czech names (``lepší kilo a
sedma``), never the CGML codes (``B107``, ``A0A``) the wire and the record use.
"""

from __future__ import annotations

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

SUIT_CS = {"R": "červené", "B": "kule", "G": "zelené", "A": "žaludy"}
"""The German suits in Czech, by CGML letter (hearts are the "lepší" suit)."""
SUIT_EN = {"R": "hearts", "B": "bells", "G": "leaves", "A": "acorns"}
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


def cards_words(codes: Sequence[str]) -> str:
    return ", ".join(card_words(c) for c in codes)


def contract_words(code: object) -> str:
    """``B107`` -> ``lepší kilo a sedma``."""
    text = str(code or "")
    return CONTRACT_CS.get(text.upper(), text)


def part_words(name: str) -> str:
    return PART_CS.get(name, name)


def suit_words(letter: str) -> str:
    return SUIT_CS.get(letter.upper(), letter)


def trumps_words(trumf: object) -> str:
    """``G`` -> ``trumfy zelené``; ``G:B`` adds the second suit of dvě sedmy; empty: none."""
    text = str(trumf or "")
    if not text:
        return ""
    first, _, second = text.partition(":")
    out = f"trumfy {suit_words(first)}"
    return out + (f", strkací {suit_words(second)}" if second else "")


SEAT_ROLE_CS = {"forhont": "forhont", "middle": "prostřední", "zadak": "zadák"}
"""The three seats of a deal by the view's key: forhont, prostřední (middle), zadák (dealer)."""


def seat_roles(view: Mapping[str, Any]) -> dict[int, str]:
    """Each seat's role in this deal from a view holding ``forhont``, ``middle``, ``zadak``:
    ``{1: "forhont", 2: "prostřední", 0: "zadák"}``."""
    return {view[key]: word for key, word in SEAT_ROLE_CS.items() if key in view}


def outbid_words(won: str, trumps: str = "") -> str:
    """Why the announcement must be at least what the licitace was won at, for the aktér
    choosing ``trumps`` (a CGML suit letter, or "" for any): a "lepší" (hearts) bid keeps a
    game of the same kind in červené, and only a higher rung may be played in another suit.

    >>> outbid_words("BG", "G")[:55]
    'Lepší hra was bid: the game is in červené (hearts); in '
    >>> outbid_words("7", "G")
    'The licitace was sedma: announce sedma or a higher game.'
    """
    c = Contract.parse(won)
    word = contract_words(c.code)
    if c.hearts and trumps.upper() != "R":
        higher = next((x for x in CONTRACTS if x > c and x.has_trumps and not x.hearts), None)
        out = f"{word[:1].upper()}{word[1:]} was bid: the game is in červené (hearts)"
        if higher is not None:
            where = (
                f"in {SUIT_CS[trumps.upper()]} ({SUIT_EN[trumps.upper()]})"
                if trumps
                else "in another suit"
            )
            out += f"; {where} only {contract_words(higher.code)} or higher outbids it"
        return out + "."
    return f"The licitace was {word}: announce {word} or a higher game."


def end_words(reason: object) -> str:
    """A recorded reason in words (an unknown one with its underscores spaced out)."""
    text = str(reason or "")
    return END_WORDS.get(text, text.replace("_", " ").lower() if text.isupper() else text)


def flek_words(levels: Iterable[int], parts: Sequence[str] = ()) -> str:
    """``(2, 1)`` with parts ``hra, sedma`` -> ``hra flek, sedma bez fleku``."""
    words = [FLEK_CS.get(n, f"×{n}") for n in levels]
    if parts and len(parts) == len(words):
        return ", ".join(f"{part_words(p)} {w}" for p, w in zip(parts, words, strict=True))
    return ", ".join(words)


def action_words(action: Action, flek_parts: Sequence[str] = ()) -> str:
    """What a seat did, in words: ``bids sedma``, ``mám``, ``plays žaludy eso`` ..."""
    match action:
        case Deal(card):
            return f"is dealt {card_words(CARD_CODES[card])}"
        case Bid(contract):
            return (
                "passes (nic)"
                if contract.code == "PASS"
                else f"bids {contract_words(contract.code)}"
            )
        case Answer(yes):
            return "mám (has it)" if yes else "nemám (drops out)"
        case Discard(cards):
            return "lays into the talon " + cards_words([CARD_CODES[c] for c in cards])
        case GameType(contract, trumps, second):
            out = f"announces {contract_words(contract.code)}"
            if trumps is not None:
                out += f", trumfy {SUIT_CS[SUIT_CODES[trumps]]}"
            if second is not None:
                out += f", strkací {SUIT_CS[SUIT_CODES[second]]}"
            return out
        case Flek(levels):
            return flek_words(levels, flek_parts)
        case Play(card):
            return f"plays {card_words(CARD_CODES[card])}"
        case Claim(cards):
            return "lays the cards down (ložená): " + cards_words([CARD_CODES[c] for c in cards])
        case Renonc(inner):
            return f"renonc ({action_words(inner)})"
        case Resign():
            return "gives up the game (vzdává): the aktér loses every part"
    return str(action)


def settlement_words(s: Settlement, names: Sequence[str]) -> str:
    """``kilo a sedma: won kilo; lost sedma``, ``renonc by bob`` or ``sedma: bob gave up
    (vzdal), every part lost``."""
    if s.renonc is not None:
        who = names[s.renonc.player] if 0 <= s.renonc.player < len(names) else "?"
        return f"renonc by {who}"
    if s.conceded:
        who = names[s.declarer] if 0 <= s.declarer < len(names) else "the aktér"
        return f"{contract_words(s.contract.code)}: {who} gave up (vzdal), every part lost"
    won = [part_words(p.name) for p in s.parts if p.won]
    lost = [part_words(p.name) for p in s.parts if not p.won]
    bits = [f"won {', '.join(won)}" if won else "", f"lost {', '.join(lost)}" if lost else ""]
    return f"{contract_words(s.contract.code)}: " + "; ".join(b for b in bits if b)


def ended_words(result: Mapping[str, Any], status: str = "aborted") -> str:
    """Why a table ended before its deal was settled, from the stored result
    (``{"reason": "aborted", "abort": "left", "culprit": "guest-x"}``):
    ``the table ended: guest-x left``."""
    why = end_words(result.get("abort") or result.get("reason") or "")
    who = result.get("culprit")
    if who:
        return f"the table ended: {who} {why}".rstrip()
    return f"the table ended: {why}" if why and why != status else f"the table ended ({status})"


def event_words(kind: str, data: Mapping[str, Any], names: Sequence[str]) -> str:
    """A recorded non-move event (an abort, a timeout, a note) as a sentence."""
    player = data.get("player")
    who = (
        names[player]
        if isinstance(player, int) and 0 <= player < len(names)
        else str(data.get("name") or "")
    )
    why = end_words(data.get("reason", kind))
    if kind in ("abort", "timeout", "disconnect"):
        return f"The deal was stopped: {who} {why}." if who else f"The deal was stopped: {why}."
    return f"{who + ': ' if who else ''}{why}"


__all__ = [
    "CONTRACT_CS",
    "END_WORDS",
    "FLEK_CS",
    "PART_CS",
    "RANK_CS",
    "SEAT_ROLE_CS",
    "SUIT_CS",
    "SUIT_EN",
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
]

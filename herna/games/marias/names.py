"""Card names in correct Czech, and the language the mariáš words are said in (issue #29).

A card is named by its suit as an adjective agreeing with the rank's gender, then the rank:
``červená sedma`` (f.), ``zelený spodek`` (m.), ``kulový svršek``, ``žaludové eso`` (n.). A
Czech sentence needs the card in its case: ``Bob hraje červenou sedmu`` (accusative),
``bez červené sedmy`` (genitive), ``s žaludovým esem`` (instrumental). Spodek, svršek and
král decline as animate nouns (``hraje zeleného spodka``), as mariáš players say them.

Two languages: ``en`` (the default) says English sentences with the Czech terms, glossed
where a gloss is asked for (``červený král (king of hearts)``); ``cs`` says everything in
Czech. :func:`language_from_env` picks one from the locale (``LC_ALL``, ``LC_MESSAGES``,
``LANG``) for the terminal commands.

The suits as nouns (trumps, hlášky, a hand grouped by suit) keep the rules digest's plural
names: červené, kule, zelené, žaludy.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Literal

from herna.core.lang import LANGUAGES, Lang, pick

Case = Literal["nom", "gen", "acc", "ins"]
CASES: tuple[Case, ...] = ("nom", "gen", "acc", "ins")

SUIT_STEM = {"R": "červen", "B": "kulov", "G": "zelen", "A": "žaludov"}
"""The suit adjectives' stems (all hard adjectives: červený, kulový, zelený, žaludový)."""
SUIT_NOUN = {"R": "červené", "B": "kule", "G": "zelené", "A": "žaludy"}
"""A suit as a noun (plural), the rules digest's names: trumfy červené, hláška v kulích …"""
SUIT_EN = {"R": "hearts", "B": "bells", "G": "leaves", "A": "acorns"}

ADJECTIVE_ENDING: dict[str, dict[Case, str]] = {
    "m": {"nom": "ý", "gen": "ého", "acc": "ého", "ins": "ým"},  # animate: zeleného spodka
    "f": {"nom": "á", "gen": "é", "acc": "ou", "ins": "ou"},
    "n": {"nom": "é", "gen": "ého", "acc": "é", "ins": "ým"},
}
RANK_FORMS: dict[str, tuple[str, dict[Case, str]]] = {
    "07": ("f", {"nom": "sedma", "gen": "sedmy", "acc": "sedmu", "ins": "sedmou"}),
    "08": ("f", {"nom": "osma", "gen": "osmy", "acc": "osmu", "ins": "osmou"}),
    "09": ("f", {"nom": "devítka", "gen": "devítky", "acc": "devítku", "ins": "devítkou"}),
    "10": ("f", {"nom": "desítka", "gen": "desítky", "acc": "desítku", "ins": "desítkou"}),
    "0J": ("m", {"nom": "spodek", "gen": "spodka", "acc": "spodka", "ins": "spodkem"}),
    "0Q": ("m", {"nom": "svršek", "gen": "svrška", "acc": "svrška", "ins": "svrškem"}),
    "0K": ("m", {"nom": "král", "gen": "krále", "acc": "krále", "ins": "králem"}),
    "0A": ("n", {"nom": "eso", "gen": "esa", "acc": "eso", "ins": "esem"}),
}
"""Each rank's gender and its forms in the cases the sentences use."""
RANK_EN = {
    "07": "seven",
    "08": "eight",
    "09": "nine",
    "10": "ten",
    "0J": "Unter",
    "0Q": "Ober",
    "0K": "king",
    "0A": "ace",
}


def rank_name(rank: str, case: Case = "nom") -> str:
    """``07`` -> ``sedma``; ``0K`` in the accusative -> ``krále``."""
    found = RANK_FORMS.get(rank)
    return found[1][case] if found else rank


def card_name(code: str, lang: str = "en", case: Case = "nom", gloss: bool = False) -> str:
    """A card (CGML code) as a person reads it: ``R0K`` -> ``červený král``; in Czech in the
    case asked (``R07``, ``acc`` -> ``červenou sedmu``); ``gloss`` adds the English in
    brackets in English (``červený král (king of hearts)``). English sentences keep the
    nominative: ``Bob plays červený král``."""
    suit, rank = code[:1].upper(), code[1:].upper()
    found = RANK_FORMS.get(rank)
    if suit not in SUIT_STEM or found is None:
        return code
    gender, forms = found
    if lang != "cs":
        case = "nom"
    name = f"{SUIT_STEM[suit]}{ADJECTIVE_ENDING[gender][case]} {forms[case]}"
    if gloss and lang != "cs":
        name += f" ({RANK_EN[rank]} of {SUIT_EN[suit]})"
    return name


def cards_names(codes: list[str] | tuple[str, ...], lang: str = "en", case: Case = "nom") -> str:
    """``červenou sedmu a zelené eso`` in Czech, ``červená sedma, zelené eso`` in English."""
    names = [card_name(c, lang, case) for c in codes]
    if lang == "cs" and len(names) > 1:
        return ", ".join(names[:-1]) + " a " + names[-1]
    return ", ".join(names)


def language_from_env(environ: Mapping[str, str] | None = None) -> Lang:
    """``cs`` when the locale (``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``, the first one
    set) starts with ``cs``, else ``en``: the terminal commands' default ``--language``."""
    env = os.environ if environ is None else environ
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key, "")
        if value:
            return "cs" if value.lower().startswith("cs") else "en"
    return "en"


__all__ = [
    "CASES",
    "LANGUAGES",
    "RANK_EN",
    "RANK_FORMS",
    "SUIT_EN",
    "SUIT_NOUN",
    "SUIT_STEM",
    "Case",
    "Lang",
    "card_name",
    "cards_names",
    "language_from_env",
    "pick",
    "rank_name",
]

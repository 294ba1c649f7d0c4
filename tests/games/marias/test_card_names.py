"""Card names in correct Czech (issue #29): every card of the deck in every case the sentences
use, checked by hand against Czech grammar — the suit is an adjective agreeing with the rank's
gender (sedma, osma, devítka, desítka f.; spodek, svršek, král m. animate; eso n.) — and the
sentences in both languages."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from herna.games.marias.actions import Answer, Bid, Discard, GameType, Play
from herna.games.marias.cards import CARD_CODES, parse_card
from herna.games.marias.contracts import Contract
from herna.games.marias.names import (
    ADJECTIVE_ENDING,
    RANK_FORMS,
    SUIT_STEM,
    Case,
    card_name,
    cards_names,
    language_from_env,
)
from herna.games.marias.words import action_words, ended_words, outbid_words, seat_roles

# Written out by hand, one line per card: nominative, genitive, accusative, instrumental.
CZECH = {
    "R07": ("červená sedma", "červené sedmy", "červenou sedmu", "červenou sedmou"),
    "R08": ("červená osma", "červené osmy", "červenou osmu", "červenou osmou"),
    "R09": ("červená devítka", "červené devítky", "červenou devítku", "červenou devítkou"),
    "R10": ("červená desítka", "červené desítky", "červenou desítku", "červenou desítkou"),
    "R0J": ("červený spodek", "červeného spodka", "červeného spodka", "červeným spodkem"),
    "R0Q": ("červený svršek", "červeného svrška", "červeného svrška", "červeným svrškem"),
    "R0K": ("červený král", "červeného krále", "červeného krále", "červeným králem"),
    "R0A": ("červené eso", "červeného esa", "červené eso", "červeným esem"),
    "B07": ("kulová sedma", "kulové sedmy", "kulovou sedmu", "kulovou sedmou"),
    "B08": ("kulová osma", "kulové osmy", "kulovou osmu", "kulovou osmou"),
    "B09": ("kulová devítka", "kulové devítky", "kulovou devítku", "kulovou devítkou"),
    "B10": ("kulová desítka", "kulové desítky", "kulovou desítku", "kulovou desítkou"),
    "B0J": ("kulový spodek", "kulového spodka", "kulového spodka", "kulovým spodkem"),
    "B0Q": ("kulový svršek", "kulového svrška", "kulového svrška", "kulovým svrškem"),
    "B0K": ("kulový král", "kulového krále", "kulového krále", "kulovým králem"),
    "B0A": ("kulové eso", "kulového esa", "kulové eso", "kulovým esem"),
    "G07": ("zelená sedma", "zelené sedmy", "zelenou sedmu", "zelenou sedmou"),
    "G08": ("zelená osma", "zelené osmy", "zelenou osmu", "zelenou osmou"),
    "G09": ("zelená devítka", "zelené devítky", "zelenou devítku", "zelenou devítkou"),
    "G10": ("zelená desítka", "zelené desítky", "zelenou desítku", "zelenou desítkou"),
    "G0J": ("zelený spodek", "zeleného spodka", "zeleného spodka", "zeleným spodkem"),
    "G0Q": ("zelený svršek", "zeleného svrška", "zeleného svrška", "zeleným svrškem"),
    "G0K": ("zelený král", "zeleného krále", "zeleného krále", "zeleným králem"),
    "G0A": ("zelené eso", "zeleného esa", "zelené eso", "zeleným esem"),
    "A07": ("žaludová sedma", "žaludové sedmy", "žaludovou sedmu", "žaludovou sedmou"),
    "A08": ("žaludová osma", "žaludové osmy", "žaludovou osmu", "žaludovou osmou"),
    "A09": ("žaludová devítka", "žaludové devítky", "žaludovou devítku", "žaludovou devítkou"),
    "A10": ("žaludová desítka", "žaludové desítky", "žaludovou desítku", "žaludovou desítkou"),
    "A0J": ("žaludový spodek", "žaludového spodka", "žaludového spodka", "žaludovým spodkem"),
    "A0Q": ("žaludový svršek", "žaludového svrška", "žaludového svrška", "žaludovým svrškem"),
    "A0K": ("žaludový král", "žaludového krále", "žaludového krále", "žaludovým králem"),
    "A0A": ("žaludové eso", "žaludového esa", "žaludové eso", "žaludovým esem"),
}
CASES: tuple[Case, ...] = ("nom", "gen", "acc", "ins")
STATIC = Path(__file__).resolve().parents[3] / "herna" / "web" / "static"


def test_the_table_covers_the_deck() -> None:
    assert sorted(CZECH) == sorted(CARD_CODES)


@pytest.mark.parametrize("code", sorted(CZECH))
def test_every_card_in_every_case(code: str) -> None:
    for case, expected in zip(CASES, CZECH[code], strict=True):
        assert card_name(code, "cs", case) == expected, (code, case)


def test_english_keeps_the_czech_nominative_and_glosses_on_request() -> None:
    for code, forms in CZECH.items():
        assert card_name(code) == forms[0]
        assert card_name(code, "en", "acc") == forms[0]  # no Czech case inside English
    assert card_name("R0K", gloss=True) == "červený král (king of hearts)"
    assert card_name("A07", gloss=True) == "žaludová sedma (seven of acorns)"
    assert card_name("G0J", "cs", gloss=True) == "zelený spodek"  # Czech needs no gloss
    assert card_name("X99") == "X99"


def test_the_wrong_words_of_the_issue_are_gone() -> None:
    every = " | ".join(
        card_name(c, lang, case) for c in CARD_CODES for lang in ("en", "cs") for case in CASES
    )
    for wrong in ("červené král", "kule svršek", "žaludy eso", "červené 7", "zelené svršek"):
        assert wrong not in every


def test_several_cards_are_joined_with_a() -> None:
    assert cards_names(["R07", "A0A"], "cs", "acc") == "červenou sedmu a žaludové eso"
    assert cards_names(["R07", "A0A"]) == "červená sedma, žaludové eso"


def test_sentences_in_both_languages() -> None:
    play = Play(parse_card("R07"))
    assert action_words(play) == "plays červená sedma"
    assert action_words(play, lang="cs") == "hraje červenou sedmu"
    assert action_words(Play(parse_card("B0K")), lang="cs") == "hraje kulového krále"
    sedma = GameType(Contract.parse("7"), parse_card("G07") >> 3, None)
    assert action_words(sedma) == "announces sedma, trumfy zelené"
    assert action_words(sedma, lang="cs") == "hlásí sedmu, trumfy zelené"
    assert action_words(Bid(Contract.parse("BG")), lang="cs") == "licituje lepší hru"
    assert action_words(Bid(Contract.parse("100")), lang="cs") == "licituje kilo"
    assert action_words(Answer(True), lang="cs") == "říká „mám“ (drží hru)"
    discard = Discard((parse_card("B09"), parse_card("G0J")))
    assert action_words(discard, lang="cs") == "odkládá do talonu kulovou devítku a zeleného spodka"
    assert action_words(discard) == "lays into the talon kulová devítka, zelený spodek"
    assert outbid_words("7", "G", "cs") == "Vydražená hra: sedma. Hlásit lze sedmu nebo vyšší hru."
    assert ended_words({"abort": "left", "culprit": "bob"}, lang="cs") == (
        "stůl skončil: odchod od stolu (bob)"
    )
    assert ended_words({"abort": "left", "culprit": "bob"}) == "the table ended: bob left"


def test_no_seat_is_called_middle() -> None:
    roles = seat_roles({"forhont": 1, "middle": 2, "zadak": 0})
    assert roles == {1: "forhont", 2: "prostřední", 0: "zadák"}
    for script in (STATIC / "games" / "marias.js", STATIC / "play-marias.js"):
        source = script.read_text(encoding="utf-8")
        assert not re.search(r'push\("middle"\)|"middle"\s*[,)\]]', source), script


def test_the_language_comes_from_the_locale() -> None:
    assert language_from_env({"LANG": "cs_CZ.UTF-8"}) == "cs"
    assert language_from_env({"LC_ALL": "en_US.UTF-8", "LANG": "cs_CZ.UTF-8"}) == "en"
    assert language_from_env({"LC_ALL": "", "LANG": "cs_CZ"}) == "cs"
    assert language_from_env({"LANG": "de_DE.UTF-8"}) == "en"
    assert language_from_env({}) == "en"


def _js_json(source: str, name: str) -> object:
    """A ``const NAME = {...};`` table written as JSON in a script."""
    block = source[source.index(f"const {name} = ") + len(f"const {name} = ") :]
    return json.loads(block[: block.index(";")])


def test_the_browser_declines_cards_as_the_python_does() -> None:
    source = (STATIC / "games" / "marias.js").read_text(encoding="utf-8")
    assert _js_json(source, "SUIT_STEM") == SUIT_STEM
    assert _js_json(source, "ADJECTIVE_ENDING") == ADJECTIVE_ENDING
    forms = _js_json(source, "RANK_FORMS")
    assert forms == {rank: [gender, cases] for rank, (gender, cases) in RANK_FORMS.items()}
    sevens = re.search(r"const SEVENS = (\{[^}]*\});", (STATIC / "play-marias.js").read_text())
    assert sevens is not None
    pairs = dict(re.findall(r'(\w): "([^"]+)"', sevens.group(1)))
    assert pairs == {s: card_name(f"{s}07") for s in "RBGA"}


def _node(lang: str, expression: str) -> str:
    """``expression`` evaluated with marias.js loaded into a page of language ``lang``."""
    script = (
        f"global.document = {{documentElement: {{lang: {json.dumps(lang)}}}}};"
        "global.window = {Herna: {el: () => null, addStyle: () => null}};"
        f"require({json.dumps(str(STATIC / 'games' / 'marias.js'))});"
        f"const m = window.HernaGames.marias; console.log({expression});"
    )
    return subprocess.run(
        ["node", "-e", script], check=True, capture_output=True, text=True
    ).stdout.strip()


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_browser_says_the_cards_in_the_pages_language() -> None:
    card = "{kind: 'card', data: {player: 0, card: 'B0Q', players: [{name: 'anna'}]}}"
    gametype = (
        "{kind: 'gametype', data: {player: 0, licite: 'B7', trumf: 'R', players: [{name: 'bob'}]}}"
    )
    assert _node("en", f"m.eventWords({card})") == "anna plays kulový svršek"
    assert _node("cs-CZ", f"m.eventWords({card})") == "anna hraje kulového svrška"
    assert _node("cs", f"m.eventWords({gametype})") == "bob hlásí lepší sedmu, trumfy červené"
    assert _node("en", "m.cardTitle('R0K')") == "červený král (king of hearts)"
    assert _node("cs", "m.cardTitle('R0K')") == "červený král"
    codes = json.dumps(list(CARD_CODES))
    every = _node("cs", f"JSON.stringify({codes}.map((c) => m.cardName(c, 'acc')))")
    assert json.loads(every) == [card_name(c, "cs", "acc") for c in CARD_CODES]

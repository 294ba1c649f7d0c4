"""Herna in Czech and English (issue 29): the catalogs are complete, the converted templates
hold no text outside them, the language comes from the browser or the header's switch, and
a person walks the hall in Czech and switches to English in real Chromium."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path

import httpx
import jinja2
import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations
from jinja2 import nodes

from herna.core import catalogs
from herna.games.mia.dice import ALL_DICE
from herna.games.mia.words import dice_words
from herna.web import i18n
from herna.web.plugin import WebHall
from herna.web.templating import TEMPLATES
from tests.chromium import Chromium
from tests.records import at, marias_deal, mia_round, onitama_game, tiles_game
from tests.serve import serving
from tests.web.conftest import screenshot_path
from tests.web.helpers import publish_mia_round

ROOT = Path(__file__).resolve().parents[2]

CONVERTED = (
    "layout.html",
    "macros.html",
    "home.html",
    "lobby.html",
    "history.html",
    "players.html",
    "player.html",
    "signin.html",
    "signup.html",
    "signed_in.html",
    "signout_refused.html",
    "match.html",
    "play_marias.html",
    "play_onitama.html",
    "live.html",
    "review_onitama.html",
    "review_waiting.html",
    "review_marias.html",
    "play_mia.html",
    "play_tiles.html",
    "error.html",
    "message.html",
    "status.html",
    "status_parts.html",
    "tournaments.html",
    "tournament.html",
    "tournament_parts.html",
    "tournament_admin.html",
    "tournament_new.html",
    "tournament_created.html",
    "tournament_season.html",
    "bots.html",
    "bot.html",
    "bot_parts.html",
    "contests.html",
    "contest.html",
    "contest_created.html",
    "balance.html",
)
"""The templates whose every word is in the catalogs (the pages moved to templates so far)."""

ONITAMA = {"onitama_house_bot_strategy": "greedy", "onitama_house_bot_delay": 0.02}

NOT_WORDS = {"Herna", "UTC", "s", "μ − 3σ", "API", "JSON", "CSV", "v"}
"""Literal text a converted template may hold: the hall's name, units, symbols, formats, the
mark of a version (v2)."""


Key = tuple[str | None, str | tuple[str, ...]]


def extracted() -> dict[Key, list[str]]:
    """Every message of the hall as ``pybabel extract -F babel.cfg`` finds it, with where."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    found: dict[Key, list[str]] = {}
    for filename, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map
    ):
        text = message if isinstance(message, str) else tuple(m for m in message if m)
        found.setdefault((context, text), []).append(filename)
    return found


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"%\(\w+\)[sd]|\{\w+\}", text))


def test_every_message_has_a_czech_translation() -> None:
    messages = extracted()
    assert len(messages) > 150  # the extraction saw the pages, templates and scripts
    with (ROOT / "herna/locale/cs/LC_MESSAGES/herna.po").open("rb") as f:
        catalog = read_po(f, locale="cs")
    problems = []
    for (context, key), where in sorted(messages.items(), key=str):
        msgid = key if isinstance(key, str) else key[0]
        entry = catalog.get(msgid, context)
        strings = [] if entry is None else entry.string
        strings = [strings] if isinstance(strings, str) else list(strings)
        if entry is None or entry.fuzzy or not strings or not all(strings):
            problems.append(f"no Czech for {key!r} ({', '.join(sorted(set(where)))})")
            continue
        sources = [msgid] if isinstance(key, str) else list(key)
        for said in strings:
            if placeholders(said) != placeholders(sources[-1]):
                problems.append(f"the Czech of {msgid!r} has other placeholders: {said!r}")
    assert problems == [], "\n".join(problems)


def test_a_game_that_is_over_is_told_in_the_past_in_czech() -> None:
    """After a game "You won." / "You lost." are "Vyhrál(a) jsi." / "Prohrál(a) jsi.", as the
    hall words a lost Mia round ("Toto kolo jsi prohrál(a).") and a won tile game; the
    present ("Prohráváš") is for what is still going on (a Mia round's loss as it happens)."""
    with (ROOT / "herna/locale/cs/LC_MESSAGES/herna.po").open("rb") as f:
        catalog = read_po(f, locale="cs")
    told = {
        m.id: m.string
        for m in catalog
        if isinstance(m.id, str) and re.match(r"You (won|lost)\b", m.id) and "round" not in m.id
    }
    assert len(told) >= 10, told
    present = {k: v for k, v in told.items() if re.search(r"^(Prohráváš|Vyhráváš|Prohra\b)", v)}
    assert present == {}
    assert told["You lost. {name} won."] == "Prohrál(a) jsi. {name} vyhrál(a)."
    assert told["You won."] == "Vyhrál(a) jsi."


def test_a_name_after_a_czech_preposition_is_told_as_a_player() -> None:
    """Names are not declined, so Czech puts "hráčem"/"hráči" before a name after "s" or
    "od" (not "s walker", "od walker"), and the verb agrees with how many: "přijme" for one,
    "přijmou" for two."""
    cs = Translations.load(ROOT / "herna/locale", ["cs"], domain="herna")
    draw = "A draw: you share the win with {names}{reason}."
    assert cs.ngettext(draw, draw, 1) == "Remíza: o výhru se dělíš s hráčem {names}{reason}."
    assert cs.ngettext(draw, draw, 2) == "Remíza: o výhru se dělíš s hráči {names}{reason}."
    wait = "Waiting for %(names)s to accept the rematch, at most %(seconds)s s…"
    assert "přijme %(names)s" in cs.ngettext(wait, wait, 1)
    assert "přijmou %(names)s" in cs.ngettext(wait, wait, 2)
    assert cs.gettext("Rematch {name}") == "Odveta s hráčem {name}"


class _Text(HTMLParser):
    """The words of HTML that people read: text, and the attributes shown to them."""

    SHOWN = ("title", "placeholder", "aria-label", "alt")

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.words += [value or "" for name, value in attrs if name in self.SHOWN]

    def handle_data(self, data: str) -> None:
        self.words.append(data)


def _literal_text(template: str) -> list[str]:
    """The words a template prints outside gettext. Its literal parts (TemplateData: what a
    ``{% trans %}`` or ``_()`` holds is a gettext call, not TemplateData) are joined with a
    mark where an expression goes, and read as HTML."""
    source = TEMPLATES.env.loader.get_source(TEMPLATES.env, template)[0]  # type: ignore[union-attr]
    tree = TEMPLATES.env.parse(source)
    parser = _Text()
    # (spaced: a mark between attributes reads as one more attribute, not as text)
    parser.feed(" \x00 ".join(str(d.data) for d in tree.find_all(nodes.TemplateData)))
    parser.close()
    found = [w.strip(" ·–,:()") for words in parser.words for w in words.split("\x00")]
    return [w for w in found if re.search(r"[^\W\d_]", w) and w not in NOT_WORDS]


@pytest.mark.parametrize("template", CONVERTED)
def test_converted_templates_say_nothing_outside_the_catalogs(template: str) -> None:
    assert _literal_text(template) == []


def test_the_literal_check_catches_an_untranslated_word() -> None:
    env = TEMPLATES.env
    loader = env.loader
    try:
        env.loader = jinja2.DictLoader({"bad.html": '<p title="Hello">{{ _("Hi") }} there</p>'})
        assert _literal_text("bad.html") == ["Hello", "there"]
    finally:
        env.loader = loader


def test_the_language_from_the_browser_or_the_choice() -> None:
    assert i18n.accept_language("en;q=0.5, cs-CZ, de;q=0") == ["cs-CZ", "en"]
    assert i18n.choose(None, "cs-CZ,cs;q=0.9,en;q=0.8") == "cs"
    assert i18n.choose(None, "de-DE, en-GB;q=0.7") == "en"
    assert i18n.choose(None, "de-DE") == "en"  # none of ours: the catalogs' source
    assert i18n.choose("en", "cs") == "en"  # the switch wins
    assert i18n.choose("xx", "cs") == "cs"  # a session value we do not speak is ignored


async def test_pages_speak_the_browsers_language_and_keep_the_choice(web: WebHall) -> None:
    web.hall.records.save(at(onitama_game(5), datetime(2026, 3, 14, 15, 9, 26, tzinfo=UTC)))
    czech = {"accept-language": "cs-CZ,cs;q=0.9"}
    async with httpx.AsyncClient(base_url=web.url, timeout=10, headers=czech) as http:
        home = await http.get("/")
        assert '<html lang="cs">' in home.text
        assert home.headers["content-language"] == "cs"
        assert "Poslední výsledky" in home.text and "Recent results" not in home.text
        assert "14. 3. 2026 15:09:26" in home.text  # Babel's Czech date
        history = await http.get("/history")
        assert "Historie" in history.text and "jakýkoli výsledek" in history.text
        match = await http.get("/matches/1")
        assert " proti " in match.text and "<h2>Výsledek</h2>" in match.text
        assert re.search(r"hráno <time [^>]*>14\. 3\. 2026 15:04:26</time>, 5 min", match.text)
        assert "Podrobnosti pro autory her" in match.text and "« první" in match.text
        # The switch: a link with the page to come back to; a foreign next goes home.
        switched = await http.get("/language", params={"to": "en", "next": "/history?game=x"})
        assert switched.status_code == 303
        assert switched.headers["location"] == "/history?game=x"
        again = await http.get("/")
        assert '<html lang="en">' in again.text and "Recent results" in again.text
        assert "Mar 14, 2026, 3:09:26\u202fPM" in again.text
        # Signing up starts a new session: the language chosen stays.
        form = await http.get("/signup")
        csrf = re.search(r'name="csrf" value="([^"]+)"', form.text)
        assert csrf and "Reserve a name" in form.text
        fields = {"csrf": csrf.group(1), "name": "jana", "password": "a long password"}
        signed = await http.post("/signup", data={**fields, "next": "/"})
        assert signed.status_code == 303
        home = await http.get("/")
        assert 'id="signed-in"' in home.text and "Signed in as" in home.text
        away = await http.get("/language", params={"to": "cs", "next": "//evil.example/"})
        assert away.headers["location"] == "/"
        assert "Přihlášen(a) jako" in (await http.get("/")).text
        bad = await http.get("/language", params={"to": "xx"})
        assert bad.status_code == 400 and "must be one of cs, en" in bad.text


# -- the click path -------------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["1280", "390"])
async def test_a_czech_browser_walks_the_hall_and_switches_to_english(
    tmp_path: Path, size: tuple[int, int], chromium: Chromium
) -> None:
    width, height = size
    errors: list[str] = []
    async with (
        serving(tmp_path, "onitama,web", **ONITAMA) as hall,
        chromium.context(locale="cs-CZ", viewport={"width": width, "height": height}) as context,
    ):
        when = datetime(2026, 3, 14, 15, 9, 26, tzinfo=UTC)
        hall.records.save(at(marias_deal(3), when))
        # One game of each other game, written into the file: their results, replays and
        # a player's rating chart in Czech words.
        hall.records.save(at(onitama_game(5), when))
        hall.records.save(at(tiles_game(7), when))
        # a short gold rush (three rounds): its replay draws banks, goals and the pile
        hall.records.save(at(tiles_game(8, "gold_rush", ("jana", "petr"), max_rounds=3), when))
        hall.records.save(mia_round(1, ["ann", "bob"], 3, when))
        web = hall.service("web")
        assert isinstance(web, WebHall)
        page = await context.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))

        await page.goto(web.url + "/")
        assert await page.get_attribute("html", "lang") == "cs"
        assert await page.locator("#play-now h2").inner_text() == "Hrát"
        assert "Poslední výsledky" in await page.locator("#results h2").inner_text()
        assert "aktér prohrál dvě sedmy" in await page.locator("#recent").inner_text()
        assert "Hraješ pod jménem hosta" in await page.locator("#play-now").inner_text()
        recent = await page.locator("#recent").inner_text()
        # Onitama's newest three may be the house bots' games by now: each in Czech words
        assert re.search(r"\((bílý|černý)\) vyhrává [^\n]* za \d+ tah(y|ů)?\b", recent), recent
        assert "prohrává ann: ohlásil(a) Miu, ale na kostkách nebyla" in recent, recent
        assert "o výhru se dělí alice, erin3 (všichni hráči byli vyřazeni)" in recent, recent
        await page.screenshot(path=screenshot_path(f"i18n-home-cs-{width}"), full_page=True)

        await page.get_by_role("link", name="Předsálí").click()
        await page.wait_for_url("**/lobby")
        await page.wait_for_function("document.getElementById('lobby').dataset.state === 'live'")
        assert await page.locator("h1").inner_text() == "Předsálí"
        status = await page.locator("#lobby-status").inner_text()
        assert status == "Právě nikdo nečeká." or status.startswith("čeká: "), status
        assert await page.locator("#lobby-game option").all_inner_texts() == ["Onitama"]
        options = await page.locator("#lobby-opponent option").all_inner_texts()
        assert options == [
            "Kdokoli (nejdřív lidé)",
            "Jen lidé",
            "Bot herny: snadný",
            "Bot herny: střední",
            "Bot herny: těžký",
            "Bot herny: nejsilnější",
        ], options
        # A seek the hall refuses, said in Czech: a challenge to oneself.
        await page.fill("#lobby-challenge", await page.locator("#lobby-name").inner_text())
        await page.get_by_role("button", name="Vyzvat").click()
        refused = page.locator("#lobby-error")
        await refused.filter(has_text="Sebe vyzvat nemůžeš.").wait_for()
        await page.screenshot(path=screenshot_path(f"i18n-lobby-cs-{width}"), full_page=True)

        await page.locator("header nav").get_by_role("link", name="Historie").click()
        await page.wait_for_url("**/history")
        assert await page.locator("h1").inner_text() == "Historie"
        section = page.locator("#history-marias")
        assert "1 hra" in await section.locator("h2").inner_text()
        assert await section.locator("th").first.inner_text() == "hra"
        assert "14. 3. 2026" in await section.inner_text()
        # the deal's result in Czech words, as the mariáš page says it
        assert "aktér prohrál dvě sedmy" in await section.inner_text()
        mia = await page.locator("#history-mia").inner_text()
        assert "stůl botů" in mia and "table" not in mia, mia
        assert "o výhru se dělí" in await page.locator("#history-tiles").inner_text()
        await page.screenshot(path=screenshot_path(f"i18n-history-cs-{width}"), full_page=True)

        # An Onitama game's replay: its steps in Czech; then a player's rating chart.
        alices = page.locator("#history-onitama tr", has_text="dave")
        await alices.locator('a[href^="/matches/"]').first.click()
        await page.wait_for_url("**/matches/*")
        await page.locator("#replay[data-steps]").wait_for()
        steps = await page.locator("#replay-steps").inner_text()
        assert steps.startswith("rozdané karty: ") and "alice (bílý) zahrál(a) " in steps, steps
        await page.keyboard.press("End")
        assert "dave vyhrává Cestou kamene" in await page.locator("#replay-label").inner_text()
        await page.screenshot(path=screenshot_path(f"i18n-replay-cs-{width}"), full_page=True)
        await page.locator("#match-players").get_by_role("link", name="alice").click()
        await page.wait_for_url("**/players/alice")
        assert await page.locator("main h2", has_text="Vývoj hodnocení").count() == 1
        caption = await page.locator('.rating-chart[data-game="onitama"] figcaption').inner_text()
        assert caption.startswith("Onitama: po 1 hodnocené hře μ = "), caption
        assert "Hráno od 14. 3. 2026 do 14. 3. 2026 (UTC)." in caption, caption
        axis = page.locator(".rating-chart .x-label").first
        assert await axis.text_content() == "odehrané hodnocené hry"
        await page.screenshot(path=screenshot_path(f"i18n-player-cs-{width}"), full_page=True)
        await page.go_back()
        await page.locator("header nav").get_by_role("link", name="Historie").click()
        await page.wait_for_url("**/history")

        # A game's page, in Czech: the heading, the replay's controls.
        await section.locator('a[href^="/matches/"]').first.click()
        await page.wait_for_url("**/matches/*")
        await page.locator("#replay[data-steps]").wait_for()
        assert " a carol" in await page.locator("#match-heading").inner_text()
        assert await page.locator("#replay button").first.inner_text() == "« první"
        assert "hráno 14. 3. 2026" in await page.locator("#match-summary").inner_text()
        assert "Body: aktér alice 30, obrana 60" in await page.locator("main").inner_text()
        steps = await page.locator("#replay-steps").inner_text()
        assert steps.startswith("nové rozdání\nkarty rozdány\n"), steps
        # the replay's card is headed by its step, not by an internal kind
        await page.locator("#replay .marias").wait_for()
        assert "replay" not in await page.locator("#replay").inner_text()
        await page.screenshot(path=screenshot_path(f"i18n-match-cs-{width}"), full_page=True)

        # (after the Onitama replay: the house bots' newer games may push it off the history)
        await page.locator("header nav").get_by_role("link", name="Historie").click()
        await page.wait_for_url("**/history")
        # A tile game's replay: the picture's words (static/games/tiles.js) in Czech.
        rush = page.locator("#history-tiles tr", has_text="jana")
        await rush.locator('a[href^="/matches/"]').first.click()
        await page.wait_for_url("**/matches/*")
        await page.locator("#replay .tiles-side").wait_for()
        await page.keyboard.press("End")
        side = page.locator("#replay .tiles-side")
        await side.locator(".tiles-outcome").wait_for()
        words = await side.inner_text()
        assert "Konec hry: limit kol (3 kol). Vyhrávají jana, petr, jana2, petr3" in words, words
        assert "Banka ve sloupci 1, řádku 1: " in words, words
        assert re.search(r"Balíček: \d+ dlaždic", words), words
        assert "Banka ve sloupci 5, řádku 5: zatím nic" in words, words
        assert "na dlaždici ve sloupci" in words, words
        for english in ("Game over", "Bank in", "column", "Pile", "Goals", "nothing yet"):
            assert english not in words, (english, words)
        await page.screenshot(path=screenshot_path(f"i18n-tiles-replay-cs-{width}"), full_page=True)

        # The Mia table's watch page: the round, the scoreboard and the charts in Czech.
        scores: dict[str, int] = {}
        for name in ("ann", "bob"):
            web.hall.bus.emit("mia", "mia", "player_registered", name=name, spectator=False)
        for n in range(1, 4):
            publish_mia_round(web.hall.bus, n, ["ann", "bob"], scores, see=n != 2)
        await page.locator("header nav").get_by_role("link", name="Živě").click()
        await page.get_by_role("link", name="Mia", exact=True).first.click()
        await page.locator('.mia-round[data-round="3"]').first.wait_for()
        heads = await page.locator("section.card.table h3 a").all_inner_texts()
        assert heads and all(h == "Mia · stůl botů" for h in heads), heads
        mia = await page.locator(".mia").first.inner_text()
        for said in (
            "Kolo 3",
            "ann ohlašuje 4-2; bob nevěří tomu, co ohlásil(a) ann, a chce vidět; "
            "pod kelímkem: 4-2; bob prohrává: odkryl(a), ale ohlášení bylo pravdivé.",
            "skutečný hod: 4-2",
            "Tabulka bodů",
            "prohry podle důvodu",
            "× odkryl(a), ale ohlášení bylo pravdivé",
            "3 sledovaná kola · ",
        ):
            assert said in mia, (said, mia)
        for english in ("actual dice", "announces", "Scoreboard", "rounds seen", "lost"):
            assert english not in mia, (english, mia)
        assert re.search(r"· [\d\s]+,\d kol/s", mia), mia  # a Czech decimal comma
        # the dice as Python says them in Czech (herna/games/mia/words.py), on every throw
        dice = await page.evaluate(
            "ds => ds.map(d => window.HernaGames.mia.diceWords(d))", [str(d) for d in ALL_DICE]
        )
        assert dice == [dice_words(d, "cs") for d in ALL_DICE]
        await page.screenshot(path=screenshot_path(f"i18n-mia-live-cs-{width}"), full_page=True)

        # Signing in and up, in Czech.
        await page.locator("header .account-box").get_by_role("link").click()
        await page.wait_for_url(re.compile(r"/signin\?next="))  # back to this page after
        assert await page.locator("h1").inner_text() == "Přihlásit se"
        await page.locator("main").get_by_role("link", name="Zaregistruj se").click()
        await page.wait_for_url(re.compile(r"/signup\?next="))
        assert await page.locator("h1").inner_text() == "Registrace"
        assert await page.locator("label[for=password]").inner_text() == "Heslo"
        assert await page.locator("form.account button").inner_text() == "Zaregistrovat se"
        await page.screenshot(path=screenshot_path(f"i18n-signup-cs-{width}"), full_page=True)
        await page.locator("header nav").get_by_role("link", name="Historie").click()
        await page.wait_for_url("**/history")

        # English with the switch in the header; the choice survives a reload.
        await page.locator("#languages").get_by_role("link", name="English").click()
        await page.wait_for_url("**/history")
        assert await page.get_attribute("html", "lang") == "en"
        assert await page.locator("h1").inner_text() == "History"
        await page.reload()
        assert await page.locator("h1").inner_text() == "History"
        assert "1 game" in await page.locator("#history-marias h2").inner_text()
        assert await page.locator("#languages b").inner_text() == "English"
        await page.screenshot(path=screenshot_path(f"i18n-history-en-{width}"), full_page=True)
        await page.locator("header nav").get_by_role("link", name="Home").click()
        await page.wait_for_url(web.url + "/")
        assert "Recent results" in await page.locator("#results h2").inner_text()
        scroll = await page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert scroll[0] <= scroll[1], scroll
    assert errors == []


def test_a_catalog_without_its_compiled_file_is_read_from_the_po(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``herna serve`` started without ``make run`` (no ``.mo`` yet), or after a pull changed
    a ``.po`` (an older ``.mo``): the pages still speak Czech, from the ``.po`` itself."""
    po = i18n.LOCALE_DIR / "cs" / "LC_MESSAGES" / "herna.po"
    here = tmp_path / "cs" / "LC_MESSAGES"
    here.mkdir(parents=True)
    (here / "herna.po").write_bytes(po.read_bytes())
    monkeypatch.setattr(catalogs, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    token = i18n.CURRENT_LOCALE.set("cs")
    try:
        assert i18n.gettext("Sign in") == "Přihlásit se"
        assert not (here / "herna.mo").exists()  # read in memory: the package stays as it was
        # a stale .mo (an empty catalog, older than the .po) does not win either
        with (here / "herna.mo").open("wb") as f:
            write_mo(f, Catalog(locale="cs", domain="herna"))
        os.utime(here / "herna.mo", (0, 0))
        i18n.translations.cache_clear()
        assert i18n.gettext("Sign in") == "Přihlásit se"
    finally:
        i18n.CURRENT_LOCALE.reset(token)
        i18n.translations.cache_clear()


def test_a_tournament_entrants_box_speaks_czech() -> None:
    """The hall's sentences of where an entrant stands (herna.hall.tournament_seat), said by
    the web hall in the page's language as entrant.json hands them to the play page."""
    from herna.hall.tournament_seat import entrant_view
    from herna.web.tournaments import said_words
    from tests.hall.test_tournament_season import _tour

    boards = {"1": {"started": "2026-12-01T13:00:00+00:00", "boards": [["ada", "ben"], ["cleo"]]}}
    running = _tour("running", {"timetable": boards, "round_count": 3})
    token = i18n.CURRENT_LOCALE.set("cs")
    try:
        bye = entrant_view(running, "cleo")["said"]
        assert said_words(bye["message"]) == (
            "V tomto kole máš volno: 0 bodů; tvoje další hra začne s 2. kolem."
        )
        assert said_words(bye["place"]) == "dělené 1. místo z 3"
        game = entrant_view(running, "ben")["said"]["message"]
        assert said_words(game) == "Kolo 1: hraješ proti ada, ty za černého."
        over = entrant_view(_tour("finished", {}), "ada")["said"]["message"]
        assert said_words(over) == "Turnaj skončil — tvoje umístění: dělené 1. místo z 3."
    finally:
        i18n.CURRENT_LOCALE.reset(token)

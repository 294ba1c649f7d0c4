"""What the public forms of a record may show: Mia dice that stayed under the cup stay hidden
in the public text, a player's CSV cannot carry a spreadsheet formula, and the pages a person
walks (home, history, every game's replay, a player, live Mia) show results, reasons and cards
in words, never internal codes (issue 26)."""

from __future__ import annotations

import csv
import html
import io
import random
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from herna.games.mia.dice import ALL_DICE
from herna.games.mia.text import REASONS, match_text
from herna.games.mia.words import dice_words
from herna.hall.export import results_csv
from herna.hall.records import RecordStore
from tests.records import at, marias_deal, mia_round, onitama_game, tiles_game
from tests.web.conftest import Browser, browser, start_web, stop_web
from tests.web.helpers import publish_mia_round

STATIC = Path(__file__).resolve().parents[1] / "herna" / "web" / "static"
__all__ = ["browser"]  # the Chromium fixture of the web tests


def test_public_mia_text_shows_at_most_the_last_roll_and_only_if_it_was_revealed(
    tmp_path: Path,
) -> None:
    store = RecordStore(f"sqlite:///{tmp_path / 'm.db'}")
    now = datetime.now(UTC)
    ids = [store.save(mia_round(n, ["ann", "bob", "cid"], 1000 + n, now)) for n in range(60)]
    several_rolls = 0
    for match_id in ids:
        match = store.get(match_id)
        assert match is not None
        private = "\n".join(match_text(match))
        public = "\n".join(match_text(match, public=True))
        rolls = private.count(" rolls")
        assert private.count(" and gets ") == rolls  # the host sees every roll
        hidden = public.count("(the dice stay under the cup)")
        shown = public.count(" and gets ")
        assert shown + hidden == rolls
        assert shown <= 1
        if shown:  # only the last roll, and only after a SEE or a Mia announcement
            assert "wants to see" in public or "(Mia!)" in public
        several_rolls += rolls > 1
    assert several_rolls > 10  # the sample has rounds with hidden earlier rolls
    store.close()


def test_results_csv_escapes_formulas_in_names(tmp_path: Path) -> None:
    store = RecordStore(f"sqlite:///{tmp_path / 'c.db'}")
    store.save(at(onitama_game(5, white="=HYPERLINK(1)", black="+evil"), datetime.now(UTC)))
    matches = store.matches(player="=HYPERLINK(1)")
    rows = list(csv.reader(io.StringIO(results_csv(matches, "=HYPERLINK(1)"))))
    assert len(rows) == 2
    assert not any(cell[:1] in "=+-@" for cell in rows[1] if cell)
    assert "'+evil" in rows[1]
    store.close()


# -- no internals on the pages (issue 26) --------------------------------------------------

BAD_TEXT = [
    (re.compile(r"\b[a-z]+(?:_[a-z]+)+\b"), "a snake_case code"),
    (re.compile(r"\b[A-Z]{2,}(?:_[A-Z]+)+\b"), "an upper-case enum code"),
    (re.compile(r"\{'|'\s*:\s*'|\{\"\w+\"\s*:"), "a dict repr"),
    (re.compile(r'"\w+"\s*:\s*["\d\[{]'), "a JSON key"),
    (re.compile(r"[♠♣♥♦◆♤♧♡♢]"), "a French suit symbol"),
    (re.compile(r"\((?:B?G|B?7|B?100|B?107|SMALL|BIG|B?27|B?127)\)"), "a contract code"),
    (re.compile(r"\b[RBGA]-(?:7|8|9|10|spodek|svršek|král|eso)\b"), "a card code"),
    (re.compile(r"\b[RBGA](?:0[789JQKA]|10)\b"), "a card code"),
]


def internals(text: str) -> list[str]:
    """What in ``text`` is an internal code rather than words (with its surroundings)."""
    found = []
    for pattern, what in BAD_TEXT:
        for m in pattern.finditer(text):
            found.append(f"{what}: …{text[max(0, m.start() - 40) : m.end() + 40]}…")
    return found


def test_the_check_finds_what_issue_26_saw() -> None:
    """The walk below can fail: each thing the issue found on a page is caught."""
    for seen in (
        "step 3: abort: {'player': 1, 'reason': 'disconnected'}",
        "alice lost (out_of_time)",
        "bob lost (ANNOUNCED_LOSING_DICE)",
        "carol played lepší hra (BG): won hra",
        "kilo a sedma (107)",
        "alice A-eso, bob R-9",
        "trumps ♦ bells, 7♣",
        '"licite": "7",\n  "trumf": "B",\n  "flek": "1:1"',
    ):
        assert internals(seen), seen
    assert not internals("alice played lepší kilo a sedma, trumfy červené: won kilo; bob +4")


def js_table(path: Path, name: str) -> dict[str, str]:
    """A ``const NAME = {key: "words", ...}`` table of a static script, as a dict."""
    source = path.read_text(encoding="utf-8")
    block = source[source.index(f"const {name} = {{") :]
    block = block[: block.index("};")]
    # (a value may be marked for the catalogs: ``key: _("words")``)
    pairs = re.findall(r'(?:"([^"]+)"|([\w]+))\s*:\s*(?:_\()?"([^"]*)"', block)
    return {a or b: words for a, b, words in pairs}


def test_the_renderers_say_what_the_python_formatters_say() -> None:
    """One formatter per game: the browser renderers carry copies of its tables; they match."""
    from herna.games.marias.words import CONTRACT_CS, FLEK_CS, PART_CS, RANK_CS, SUIT_CS
    from herna.games.mia.text import REASONS
    from herna.games.mia.words import DOUBLES
    from herna.games.onitama.cards import CARD_NAMES
    from herna.games.onitama.words import ACTION_WORDS, CARD_WORDS, WIN_WORDS
    from herna.games.tiles.narrate import END_WORDS, GOAL_WORDS, ITEM_WORDS
    from herna.games.tiles.rules import RULES_TITLES

    games = STATIC / "games"
    marias = games / "marias.js"
    assert js_table(marias, "GAMES") == {**CONTRACT_CS, "YES": "mám", "NO": "nemám"}
    assert js_table(marias, "RANKS") == RANK_CS
    assert js_table(marias, "PARTS") == PART_CS
    assert {k: v for k, v in js_table(marias, "FLEKS").items()} == {
        str(k): v for k, v in FLEK_CS.items()
    }
    suits = re.findall(r'(\w): \{ name: "([^"]+)"', marias.read_text(encoding="utf-8"))
    assert dict(suits) == SUIT_CS
    assert js_table(games / "mia.js", "REASONS") == REASONS
    # the same messages: the catalogs say them alike in every language (the Czech browser
    # walk, tests/web/test_i18n.py, runs the dice words of both on every throw)
    assert js_table(games / "mia.js", "DOUBLES") == {str(k): v for k, v in DOUBLES.items()}
    assert js_table(games / "onitama.js", "WIN_WORDS") == WIN_WORDS
    assert js_table(games / "onitama.js", "ACTION_WORDS") == ACTION_WORDS
    # every card, under its protocol name, marked as the same message in both
    assert js_table(games / "onitama.js", "CARD_WORDS") == CARD_WORDS
    assert sorted(CARD_WORDS) == sorted(CARD_NAMES) and all(k == v for k, v in CARD_WORDS.items())
    assert "SHORT" not in (games / "mia.js").read_text(encoding="utf-8")  # no second wording
    assert js_table(games / "tiles.js", "GOAL_WORDS") == GOAL_WORDS
    assert js_table(games / "tiles.js", "END_WORDS") == {w: w for w in END_WORDS}
    assert js_table(games / "tiles.js", "ITEM_WORDS") == ITEM_WORDS
    assert js_table(games / "tiles.js", "RULES_TITLES") == RULES_TITLES


def test_the_status_page_says_snapshot_keys_and_codes_in_words() -> None:
    """The Mia server's snapshot as the Status page shows it: words, not its JSON keys."""
    from herna.web.pages import value_html

    snapshot = {
        "round": 3,
        "players": [{"name": "house_bot", "points": 2, "active": True}],
        "rounds_played": 2,
        "rounds_canceled": 1,
        "dropped": {"STALE_TOKEN": 4, "WRONG_PLAYER": 1},
        "faults": {"DID_NOT_ANNOUNCE": 1, "DID_NOT_TAKE_TURN": 2},
        "people_table": {"port": 9001, "answer_window": 20.0, "rounds_played": 0},
    }
    shown = re.sub(r"<[^>]+>", " ", value_html(snapshot))
    assert internals(shown.replace("house_bot", "")) == []
    assert "house_bot" in shown  # a player's name stays as written
    assert "did not take their turn in time" in shown
    assert '<div class="scroll"><table class="grid">' in value_html(snapshot)


def _walk_records(url: str) -> None:
    """Finished and aborted games of every game, as their servers record them."""
    from herna.games.marias.actions import MariasCodec
    from herna.games.marias.state import new_game as new_deal
    from herna.games.onitama.state import ACTION_CODEC, OnitamaState
    from herna.hall.match import Match, Seat

    store = RecordStore(url)
    now = datetime.now(UTC)
    store.save(at(marias_deal(3), now))
    # a deal stopped because a player's connection dropped (the CGML server's note and result)
    deal: Match[Any] = Match(
        "marias",
        "g9.1",
        new_deal(0),
        [Seat(n, "bot") for n in ("alice", "bob", "carol")],
        9,
        MariasCodec(),
        meta={"dealer": 0, "tariff": "csm", "max_flek": 16, "game_no": 1},
    )
    rnd = random.Random(9)
    for _ in range(40):
        deal.act(deal.state.current_player(), rnd.choice(list(deal.state.legal_actions())))
    deal.note("abort", player=1, reason="disconnected")
    store.save(at(deal.record("aborted", {"abort": "disconnected", "culprit": "bob"}), now))
    store.save(at(onitama_game(5), now))
    # lost on time, and aborted when the server stopped
    game: Match[Any] = Match(
        "onitama",
        "g7",
        OnitamaState.new("stalemate"),
        [Seat("erin", "human"), Seat("dave", "bot")],
        7,
        ACTION_CODEC,
        meta={"rule": "stalemate"},
    )
    for _ in range(4):
        game.act(game.state.current_player(), next(iter(game.state.legal_actions())))
    game.state = game.state.forfeit(1, "out_of_time")
    game.note("forfeit", name="dave", player=1, reason="out_of_time")
    store.save(at(game.record(), now))
    stopped: Match[Any] = Match(
        "onitama",
        "g8",
        OnitamaState.new("stalemate"),
        [Seat("erin", "human"), Seat("dave", "bot")],
        8,
        ACTION_CODEC,
        meta={"rule": "stalemate"},
    )
    for _ in range(3):
        stopped.act(stopped.state.current_player(), next(iter(stopped.state.legal_actions())))
    stopped.note("aborted", reason="server shutdown")
    store.save(at(stopped.record("aborted", {"reason": "server shutdown"}), now))
    store.save(at(tiles_game(7), now))
    for n in range(6):
        store.save(mia_round(n, ["alice", "bob", "carol"], 4000 + n, now))
    store.close()


def test_the_match_page_says_a_deals_result_in_words(tmp_path: Path) -> None:
    """A mariáš deal's result: the game, trumps, fleks, points and money, not its JSON."""
    from herna.web.pages import match_page

    store = RecordStore(f"sqlite:///{tmp_path / 'r.db'}")
    match = store.get(store.save(at(marias_deal(3), datetime.now(UTC))))
    assert match is not None
    page = match_page(match)
    result = re.sub(r"<[^>]+>", " ", page[page.index('id="result"') :])
    assert internals(result) == []
    for words in ("alice played lepší dvě sedmy", "trumfy červené", "dvě sedmy re", "alice 30"):
        assert words in result, words
    assert "alice -480, bob +160, carol +320" in result
    store.close()


@pytest.mark.browser
async def test_no_internals_on_the_pages_a_person_walks(tmp_path: Path, browser: Browser) -> None:
    """From the home page, by clicks: the history, the replay of every game (finished and
    aborted, every step), a player's page and the live Mia table: no code, dict repr or
    French suit in the visible text; the Mia scoreboard is not cut off at 1280 px."""
    url = f"sqlite:///{tmp_path / 'walk.db'}"
    _walk_records(url)
    hall, web = await start_web(url)
    try:
        bus = web.hall.bus
        scores: dict[str, int] = {}
        for name in ("alice", "bob", "carol"):
            bus.emit("mia", "mia", "player_registered", name=name, spectator=False)
        for n in range(1, 8):
            players = ["alice", "bob", "carol"][n % 3 :] + ["alice", "bob", "carol"][: n % 3]
            publish_mia_round(bus, n, players, scores, see=n % 2 == 0)
        page = browser.page
        await page.set_viewport_size({"width": 1280, "height": 800})
        problems: list[str] = []

        async def check(where: str) -> None:
            text = await page.locator("body").inner_text()
            problems.extend(f"{where}: {p}" for p in internals(text))

        await page.goto(web.url + "/")
        await check("home")
        await page.locator("header").get_by_role("link", name="History").click()
        await page.wait_for_url("**/history")
        await check("history")
        links = await page.locator('a[href^="/matches/"]').evaluate_all(
            "as => [...new Set(as.map(a => a.getAttribute('href')))]"
        )
        assert len(links) == 6, links  # two deals, three Onitama games, a tile game
        # the Mia session opens to its rounds: the first round's replay too
        await page.locator("tr[data-session] a").first.click()
        await page.wait_for_url("**session=*")
        await check("history of a Mia session")
        await page.locator('a[href^="/matches/"]').first.click()
        await page.locator("#replay[data-steps]").wait_for()
        await page.keyboard.press("End")
        await check("replay of a Mia round")
        await page.go_back()
        await page.go_back()
        await page.wait_for_url("**/history")
        for href in links:
            await page.locator(f'a[href="{href}"]').first.click()
            await page.locator("#replay[data-steps]").wait_for()
            await page.keyboard.press("End")
            await check(f"replay {href} (last step and the list of steps)")
            result = await page.locator("#result").inner_text()
            problems.extend(f"result of {href}: {p}" for p in internals(result))
            await page.keyboard.press("Home")
            await check(f"replay {href} (first step)")
            await page.go_back()
            await page.wait_for_url("**/history")
        await page.goto(web.url + "/")  # home, then by clicks again
        await page.locator("header").get_by_role("link", name="History").click()
        await page.locator('a[href^="/players/"]').first.click()
        await page.locator("#player-stats").wait_for()
        await check("player page")
        await page.locator("header").get_by_role("link", name="Live").click()
        await page.get_by_role("link", name="Mia", exact=True).first.click()
        await page.locator(".mia-scores").first.wait_for()
        await page.locator('.mia-round[data-round="7"]').first.wait_for()
        await check("live Mia")
        heads = await page.locator("section.card.table h3 a").all_inner_texts()
        assert heads and all(h == "Mia · the bots' table" for h in heads), heads  # not "mia · mia"
        # dice as the play page says them (herna/games/mia/words.py), reasons as the history
        said = await page.evaluate(
            "ds => ds.map(d => window.HernaGames.mia.diceWords(d))", [str(d) for d in ALL_DICE]
        )
        assert said == [dice_words(d) for d in ALL_DICE]
        live = await page.locator(".mia").first.inner_text()
        assert "4-2" in live and "4,2" not in live
        why = await page.locator(".mia-scores .mia-why").all_inner_texts()
        assert why and all(w.split("× ", 1)[1] in REASONS.values() for w in why), why
        # a colour per player, in the table and the chart
        swatches = await page.locator(".mia-scores .mia-swatch").evaluate_all(
            "ss => ss.map(s => getComputedStyle(s).backgroundColor)"
        )
        assert len(swatches) == 3 and len(set(swatches)) == 3, swatches
        strokes = await page.locator("svg.mia-history polyline").evaluate_all(
            "ps => ps.map(p => p.getAttribute('stroke'))"
        )
        assert len(strokes) == 3 and len(set(strokes)) == 3, strokes
        await page.screenshot(path="/tmp/words-walk-live-mia-1280.png", full_page=True)
        cut = await page.evaluate(
            "() => [...document.querySelectorAll('.mia-side')].some("
            "s => s.scrollWidth > s.clientWidth + 1)"
        )
        assert not cut, "the Mia scoreboard is cut off at 1280 px"
        assert not problems, "\n".join(problems)
        assert browser.errors == []
    finally:
        await stop_web(hall)


# -- the Status page's cards, the tournament form and page (words, not codes) ---------------


class _Server:
    """A game server as the Status page sees one: a name, endpoints and a snapshot."""

    def __init__(self, game: str, snapshot: dict[str, Any]) -> None:
        self.game, self.protocol, self.doc = game, "test protocol", ""
        self._snapshot = snapshot

    def endpoints(self) -> list[str]:
        return ["tcp://127.0.0.1:1"]

    def snapshot(self) -> dict[str, Any]:
        return self._snapshot

    async def stop(self) -> None:
        return None


def _marias_snapshot() -> dict[str, Any]:
    """A CGML server's snapshot: a login lobby, a game server with a table, a bot server."""
    group = {
        "group": "2d6e0deee168dfb4",
        "phase": "playing",
        "games": 3,
        "players": [
            {"id": "p1", "name": "anna", "race": "bot", "joined": True},
            {"id": "p2", "name": "bob", "race": "human", "joined": False},
            {"id": "p3", "name": "cyril", "race": "bot", "joined": True},
        ],
        "money": [10, -20, 10],
        "game_phase": "flek",
        "paused": False,
    }
    return {
        "login": {
            "player_port": 1,
            "waiting": [],
            "game_servers": [
                {"game": "licitovany_marias", "url": "u", "numplayers": 3, "groups": 1, "load": 0}
            ],
            "live_groups": 1,
        },
        "game_servers": [
            {
                "url": "marias-1",
                "registered": True,
                "connections": 3,
                "awaiting_login": 0,
                "login_timeouts": 0,
                "groups": [group],
                "groups_created": 1,
                "games_finished": 2,
            }
        ],
        "bot_servers": [
            {"id": "b1", "name": "bots", "strategy": "greedy", "running": 1, "capacity": 8}
        ],
    }


def _onitama_snapshot() -> dict[str, Any]:
    """An Onitama hub's snapshot with a seek that has waited two minutes."""
    from herna.hall.lobby import Lobby, Want

    lobby = Lobby()
    lobby.open("onitama", "erin", "person", Want(), None, now=19365.018474674)
    return {"games": [], "seeks": lobby.snapshot("onitama", now=19365.018474674 + 125)}


def test_the_status_page_says_a_cgml_table_and_a_seek_in_words() -> None:
    from herna.web.pages import status

    services = [
        {"game": g, "protocol": "p", "endpoints": [], "snapshot": snap}
        for g, snap in (("marias", _marias_snapshot()), ("onitama", _onitama_snapshot()))
    ]
    page = status(services, None, [], {})
    shown = re.sub(r"<[^>]+>", " ", page)
    assert internals(shown) == [], internals(shown)
    assert "anna (bot), bob (person, not joined yet), cyril (bot)" in shown
    assert "2 min" in shown and "19365" not in shown
    assert "licitovaný mariáš" in shown
    assert '<section class="card service wide" data-game="marias">' in page
    assert "<h3>Mariáš " in page


@pytest.mark.browser
async def test_the_status_page_at_1280_shows_whole_tables_in_words(
    tmp_path: Path, browser: Browser
) -> None:
    """The mariáš card's tables fit at 1280 px (no header cut to "loa"), and the page's
    script, refreshing the snapshots, says them as the server did."""
    hall, web = await start_web(f"sqlite:///{tmp_path / 's.db'}")
    hall.add(_Server("marias", _marias_snapshot()))  # type: ignore[arg-type]
    hall.add(_Server("onitama", _onitama_snapshot()))  # type: ignore[arg-type]
    try:
        page = browser.page
        await page.set_viewport_size({"width": 1280, "height": 800})
        await page.goto(web.url + "/status")
        problems: list[str] = []
        for moment in ("served", "refreshed"):
            text = await page.locator("main").inner_text()
            problems += [f"{moment}: {p}" for p in internals(text)]
            assert "bob (person, not joined yet)" in text, moment
            assert "licitovaný mariáš" in text, moment
            cut = await page.evaluate(
                "() => [...document.querySelectorAll('.service .scroll, .service .snapshot')]"
                ".filter(s => s.scrollWidth > s.clientWidth + 1).map(s => s.innerText.slice(0, 60))"
            )
            await page.screenshot(path=f"/tmp/words-status-{moment}.png", full_page=True)
            assert cut == [], f"{moment}: cut off at 1280 px: {cut}"
            await page.wait_for_timeout(3500)  # static/hall.js refreshes every 3 s
        assert not problems, "\n".join(problems)
        assert browser.errors == []
    finally:
        await stop_web(hall)


def test_the_new_tournament_form_says_games_rules_and_formats_in_words() -> None:
    from herna.web.tournament_admin import new_form

    page = new_form("csrf")
    shown = re.sub(r"<[^>]+>", " ", page)
    assert internals(shown) == [], internals(shown)
    assert ">Onitama: two players<" in page
    assert ">Mariáš: tables of three" in page
    assert ">Gold rush: 4 players<" in page
    assert ">round robin: everyone meets everyone<" in page
    assert 'value="gold_rush"' in page and 'value="round-robin"' in page  # the form's values


def test_the_tiles_play_page_offers_rules_by_title() -> None:
    from herna.web.play_tiles import page_body

    page = page_body("guest", True, None)
    shown = re.sub(r"<[^>]+>", " ", page)
    assert internals(shown) == [], internals(shown)
    assert "Gold rush — 4 players" in shown


def test_the_tournament_page_says_its_status_and_entrants_in_words() -> None:
    from herna.hall.tournament_store import Entrant
    from herna.web.i18n import CURRENT_LOCALE
    from herna.web.templating import render_macro
    from herna.web.tournaments import entrant_view_words

    assert ">taking entries<" in render_macro("tournament_parts.html", "status_badge", "entry")
    x = Entrant("house-easy", "house-bot", "entered over the onitama protocol")
    view = entrant_view_words(x, "onitama")
    shown = f"{view['kind']}: {view['how']}"
    assert shown == "house bot: entered over the Onitama protocol"
    assert internals(shown) == []
    token = CURRENT_LOCALE.set("cs")
    try:
        view = entrant_view_words(x, "onitama")
        assert render_macro("tournament_parts.html", "status_badge", "entry").endswith(
            ">přihlášky otevřeny</span>"
        )
    finally:
        CURRENT_LOCALE.reset(token)
    assert f"{view['kind']}: {view['how']}" == "bot herny: přihlášen přes protokol Onitama"


def test_game_titles_come_from_one_place() -> None:
    """Pages say Mariáš, Mia, Onitama, Tile games (pages.GAME_TITLES), never a game's id."""
    from herna.web import pages
    from herna.web.queries import GameStats

    assert [pages.game_title(g) for g in ("marias", "mia", "onitama", "tiles")] == [
        "Mariáš",
        "Mia",
        "Onitama",
        "Tile games",
    ]
    hall_js = (STATIC / "hall.js").read_text(encoding="utf-8")
    assert "tile games" not in hall_js  # the titles come with the page (Herna.page.titles)
    layout = pages.layout("t", "", page={"kind": "home"})
    assert '"titles":{"marias":"Mariáš"' in layout
    stats = [
        GameStats(g, 1.0, 1, 0, None, None, None, 1, 0, None, None, None) for g in pages.GAME_TITLES
    ]
    player = pages.player("ann", stats, [])
    column = re.findall(r'<tr><td><a href="/players\?game=\w+">([^<]+)</a></td>', player)
    assert column == ["Mariáš", "Mia", "Onitama", "Tile games"]
    section = pages.GameSection("marias", 30, more=True)
    assert "all Mariáš history →" in pages.history([section], {}, ["marias"], paged=False)


# -- the record pages in words (issue 26, "internals on screen") ----------------------------

SEED_OR_ID = re.compile(r"\bseed\b|\btable (?:g|t)\d+\b|\b[0-9a-f]{16}\b|\bround-\d+\b")
"""What the head of a match page must not show outside its details: seeds and table ids."""


def _visible(page: str) -> str:
    """A page's text without tags and without the closed "Details for game designers"."""
    details = r'<details class="muted" id="match-details">.*?</details>'
    shown = re.sub(details, " ", page, flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", shown)))


def test_the_match_page_heads_with_game_players_when_and_result(tmp_path: Path) -> None:
    """The head of a match page: the game (a tile game by its rules), the players, when, the
    result; the table id and the seed only under "Details for game designers"; seats from 1."""
    from herna.web.pages import match_heading, match_page, player

    store = RecordStore(f"sqlite:///{tmp_path / 'h.db'}")
    now = datetime.now(UTC)
    deal = store.get(store.save(at(marias_deal(3), now)))
    tiles = store.get(store.save(at(tiles_game(7, "gold_rush", ("ann", "bob")), now)))
    mia = store.get(store.save(mia_round(1, ["ann", "bob", "cid"], 99, now)))
    assert deal is not None and tiles is not None and mia is not None
    assert match_heading(deal) == "Mariáš: alice, bob and carol"
    assert match_heading(tiles) == "Gold rush: ann, bob, ann2 and bob3"
    for match in (deal, tiles, mia):
        page = match_page(match)
        shown = _visible(page)
        assert not SEED_OR_ID.search(shown), (match.game, SEED_OR_ID.search(shown))
        assert internals(shown) == [], internals(shown)
        took = "1 s" if match.game == "mia" else "5 min"  # as tests/records.py dates them
        # the moment as the page's language writes it (Babel): "Nov 28, 2026, 4:43:56 PM"
        assert re.search(rf"played \w+ \d+, \d{{4}}, \d+:\d\d:\d\d\s[AP]M ?, for {took}", shown)
        details = page[page.index('id="match-details"') :]
        assert "Details for game designers" in details
        assert str(match.seed) in details and match.table_id in details
        seats = re.findall(r"<tr><td>(\d+)</td><td><a", page)
        assert seats == [str(i + 1) for i in range(len(match.players))], seats
    assert "points: ann " in _visible(match_page(tiles))  # gold rush scores its banks
    recent = _visible(player("alice", [], [deal, tiles, mia]))  # a player's recent games
    assert deal.table_id not in recent and tiles.table_id not in recent
    assert "alice played lepší" in recent and "the bots' table, round 1: " in recent, recent
    store.close()


def test_tile_positions_and_banks_read_as_people_count() -> None:
    """Columns, rows and players from 1; banks and what they hold in words."""
    from herna.games.tiles.narrate import action_words, consequences, goal_words
    from herna.games.tiles.render import describe_action

    assert goal_words("reach 0 0") == "reach the tile in column 1, row 1"
    assert action_words({"type": "push", "column": 0, "direction": "down"}, {}, 0) == (
        "pushed column 1 from the top"
    )
    assert describe_action({"type": "move", "x": 0, "y": 2, "side": "U", "index": 0}) == (
        "move to (1, 3) at U0"
    )
    bank = {"items": {}, "store": {"gold": 2}, "effects": ["collect"]}
    player = {"seat": 0, "x": 0, "y": 0, "side": "U", "index": 0, "eliminated": False}
    before = {"players": [{**player, "items": {"gold": 1}, "goals": []}], "board": [[bank]]}
    after = {"players": [{**player, "items": {}, "goals": []}], "board": [[bank]]}
    move = {"type": "move", "x": 0, "y": 0, "side": "U", "index": 0}
    assert consequences(move, before, after, 0, ["ann"]) == ["put the gold in the bank"]


def test_a_shipped_rules_file_sent_whole_is_known_by_its_name() -> None:
    """The play page sends Labyrinth for two as a rules object: it is still Labyrinth."""
    import json

    from herna.games.tiles.rules import shipped_name, shipped_rules

    for name, path in shipped_rules().items():
        data = json.loads(path.read_text(encoding="utf-8"))
        assert shipped_name(data) == name
        assert shipped_name({**data, "players": data["players"][:2]}) == name
        assert shipped_name({**data, "players": data["players"][1:3]}) is None
        assert shipped_name({**data, "max_hand_size": 9}) is None
    assert shipped_name({"players": []}) is None and shipped_name("labyrinth") is None


def test_a_seeks_empty_seats_and_a_cgml_server_in_words() -> None:
    """The Status page: "players per table", not ``numplayers``; what fills a seek's empty
    seats, not ``fill 0``."""
    from herna.hall.lobby import Lobby, Want, fill_words
    from herna.web.pages import status

    assert fill_words(Want()) == "house bots fill them at once"
    assert fill_words(Want(fill=30)) == "house bots fill them after 30 s"
    assert fill_words(Want(opponent="people", fill=30)) == "no house bots fill them"
    assert fill_words(Want(challenge="ann")) == "no house bots fill them"
    assert fill_words(Want(opponent="bots")) == "house bots fill them at once"
    lobby = Lobby()
    lobby.open("tiles", "erin", "person", Want(fill=12.5), None, now=100.0)
    seeks = {"games": [], "seeks": lobby.snapshot("tiles", now=130.0)}
    services = [
        {"game": "marias", "protocol": "p", "endpoints": [], "snapshot": _marias_snapshot()},
        {"game": "tiles", "protocol": "p", "endpoints": [], "snapshot": seeks},
    ]
    shown = re.sub(r"<[^>]+>", " ", status(services, None, [], {}))
    assert internals(shown) == [], internals(shown)
    for code in (r"numplayers", r"fill\s+[\d.]+", r"inflight", r"house-bot"):
        assert not re.search(rf"\b{code}\b", shown), code
    assert re.search(r"players per table\s+3", shown)
    assert "empty seats" in shown and "house bots fill them after 12.5 s" in shown
    assert lobby.snapshot("tiles")[0]["fill"] == 12.5  # the API keeps the number

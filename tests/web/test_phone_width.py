"""Every page of the web hall fits a phone: at 390 × 844 (CSS pixels) no page scrolls sideways
(``scrollWidth <= innerWidth``). The pages are found from the app's own routes (a new page
is checked without being listed here) and filled with real data: a real ``herna serve``
with every game, their house bots playing, a stored tournament."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from herna.hall.tournament import Board, Game
from herna.hall.tournament_store import Entrant, TournamentStore
from herna.web.plugin import WebHall
from tests.serve import serving
from tests.web.conftest import Browser
from tests.web.test_privacy import _a_contest, _a_submitted_bot, _paths

pytestmark = pytest.mark.browser

GAMES = ("mia", "onitama", "tiles", "marias")
WIDEST = """() => {
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    const parent = el.parentElement && el.parentElement.getBoundingClientRect();
    if (r.right > window.innerWidth + 1 && (!parent || parent.right <= window.innerWidth + 1)) {
      out.push(`${el.tagName.toLowerCase()}.${el.className}#${el.id} ${Math.round(r.right)}`);
    }
  }
  return out.slice(0, 5);
}"""
DOCS = ("protocols/cgml.md", "protocols/tiles.md", "games/marias.md", "scaling.md")


@pytest.mark.timeout(300)  # some forty pages, each loaded in a real browser (20 s alone)
async def test_every_page_fits_390_pixels(tmp_path: Path, browser: Browser) -> None:
    async with serving(
        tmp_path,
        "mia,onitama,tiles,marias,web",
        # A round every half second: enough records for every page, and not so many that
        # the pages of records grow heavier while the walk goes on.
        mia_house_round_pause=0.5,
        # House bots that answer at once would keep the hall's loop busy all the walk long.
        cgml_bot_delay=0.05,
        onitama_house_bot_delay=0.05,
        tiles_bot_delay=0.05,
    ) as hall:
        web = hall.service("web")
        assert isinstance(web, WebHall)
        ids: dict[str, str] = {}
        names: list[str] = []
        async with httpx.AsyncClient(base_url=web.url, timeout=10) as http:
            deadline = asyncio.get_running_loop().time() + 60
            while len(ids) < len(GAMES):
                hall.records.flush()
                for game in set(GAMES) - set(ids):
                    listed = (await http.get("/api/matches", params={"game": game})).json()
                    if listed["matches"]:
                        ids[game] = str(listed["matches"][0]["id"])
                        # player pages of names that have played (a house bot that has
                        # not played yet has no page: 404)
                        names += [p["name"] for p in listed["matches"][0]["players"]]
                if asyncio.get_running_loop().time() > deadline:
                    live = (await http.get("/api/live")).json()
                    tables = {t["table"]: t.get("phase") or t.get("status") for t in live}
                    raise AssertionError(f"no record of {set(GAMES) - set(ids)}; live: {tables}")
                await asyncio.sleep(0.3)
            live = (await http.get("/api/live")).json()
        tables = [t["table"] for t in live][:2] or ["mia"]
        store = TournamentStore(hall.records.engine)
        tid = store.create(
            "evening", "onitama", "round-robin", [Entrant("house-1", "bot", "?")], {}
        )
        store.add_game(tid, Game(Board(1, 1, ("house-1",)), match_id=int(ids["onitama"])))
        bot = _a_submitted_bot(hall)
        values = {
            "game": list(GAMES),
            "table": tables,
            "match_id": list(ids.values()),
            "name": sorted(set(names))[:3],
            "path": list(DOCS),
            "tournament_id": [str(tid)],
            "bot": [bot],
            "kit": ["onitama-python"],
            "cid": [_a_contest(hall, bot, tid)],
        }
        paths, _ = _paths(web, values)
        pages = [
            p
            for p in paths
            if not p.startswith(("/api/", "/openapi", "/favicon"))
            and not p.endswith((".csv", ".json"))
            # an engine review is of Onitama games only and reloads itself while it is
            # computed: tests/web/test_review_page.py checks it at 390 px
            and not p.endswith("/review")
            and not p.startswith("/bots/starter/")  # a download, not a page
        ]
        pages += ["/history?game=mia", f"/players?name={names[0]}"]
        page = browser.page
        await page.set_viewport_size({"width": 390, "height": 844})
        too_wide: dict[str, tuple[int, int, list[str]]] = {}
        for path in pages:
            response = await page.goto(web.url + path)
            assert response is not None and response.status == 200, path
            await page.wait_for_load_state("load")
            width, inner = await page.evaluate(
                "[document.documentElement.scrollWidth, window.innerWidth]"
            )
            if width > inner:
                # the outermost elements that stick out, to say what to fix
                culprits = await page.evaluate(WIDEST)
                too_wide[path] = (width, inner, culprits)
        assert len(pages) > 20
        assert too_wide == {}, too_wide
        assert browser.errors == []

"""The walk of issue 32 in Chromium: an organiser starts at the home page and makes a round
robin for people on the new tournament form; three people, each in a browser of their own,
sign up and enter it at the tournament page; the organiser starts it. Three people make one
bye a round. Each person plays on the Onitama play page and is carried from game to game
without a click (the only clicks are White resigning, to end games fast); the play page
shows each of them the tournament, the round, their game or their bye in words, their place,
and at the end their final rank with a link to the standings. Real sockets, a real SQLite
file, a real browser; screenshots at 1280x800 and 390x844 go to test-output/web.
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path
from typing import Any

import pytest

from herna.hall.tournament_seat import ordinal
from herna.hall.tournament_store import TournamentStore
from tests.live_tournaments import finished
from tests.serve import serving
from tests.web.conftest import Browser, screenshot_path
from tests.web.test_people import ONITAMA, _web

pytestmark = pytest.mark.browser

PEOPLE = ("Ada", "Ben", "Cleo")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SEAT = "#tournament-seat"


async def _seat(page: Any) -> dict[str, str]:
    """What the play page's tournament panel shows now."""
    return dict(
        await page.evaluate(
            """() => {
              const box = document.getElementById('tournament-seat');
              const text = (id) => (document.getElementById(id) || {}).textContent || '';
              const s = window.HernaPlay ? window.HernaPlay.state : {};
              return { kind: box ? box.dataset.kind || '' : '',
                       round: box ? box.dataset.round || '' : '',
                       message: text('tournament-message'), place: text('tournament-place'),
                       table: text('tournament-standings'), phase: s.phase || '',
                       color: s.color || '', status: text('play-status') };
            }"""
        )
    )


async def _shoot(page: Any, name: str) -> None:
    await page.set_viewport_size(DESKTOP)
    await page.screenshot(path=screenshot_path(f"{name}-1280"))
    await page.set_viewport_size(PHONE)
    await page.screenshot(path=screenshot_path(f"{name}-390"), full_page=True)
    await page.set_viewport_size(DESKTOP)


async def test_three_people_walk_a_round_robin_with_a_bye_to_their_final_ranks(
    tmp_path: Path, browser: Browser
) -> None:
    async with serving(tmp_path, "onitama,web", onitama_house_bots=0, **ONITAMA) as hall:
        url = _web(hall).url
        chromium = browser.page.context.browser
        assert chromium is not None

        # The organiser, from the home page, through the form on screen.
        organiser = browser.page
        await organiser.set_viewport_size(DESKTOP)
        await organiser.goto(url + "/")
        await organiser.click("header nav a[href='/tournaments']")
        await organiser.click("#new-tournament-link")
        await organiser.fill("#t-name", "Class 4B")
        await organiser.select_option("#t-format", "round-robin")
        await organiser.select_option("#t-admits", "people")
        await organiser.fill("#t-pause", "2s")
        await organiser.click("#new-tournament button[type=submit]")
        admin = (await organiser.locator("#admin-token").inner_text()).strip()
        await organiser.click("#tournament-link")
        tid = int(organiser.url.rsplit("/", 1)[1])
        body = await organiser.locator("#tournament-body").inner_text()
        assert "Each round starts 2 s after every game of the round before has ended." in body

        # Three people, each in a browser of their own, sign up and enter.
        pages: dict[str, Any] = {}
        for name in PEOPLE:
            context = await chromium.new_context(viewport=DESKTOP)
            page = await context.new_page()
            page.set_default_timeout(15_000)
            page.on("pageerror", lambda exc: browser.errors.append(f"pageerror: {exc}"))
            await page.goto(f"{url}/signup?next=/tournaments/{tid}")
            await page.fill("#name", name)
            await page.fill("#password", "correct horse battery")
            await page.click("form.account button[type=submit]")
            await page.wait_for_url(f"{url}/tournaments/{tid}")
            await page.click("#join")
            await page.wait_for_url("**/play/onitama*")
            await page.wait_for_selector(f"{SEAT}[data-kind=entry]")
            assert "You are entered" in (await _seat(page))["message"]
            pages[name] = page
        await _shoot(pages["Ada"], "tournament-walk-entered")

        await organiser.goto(f"{url}/tournaments/{tid}")
        await organiser.click("#admin summary")
        await organiser.fill("#admin-token-input", admin)
        await organiser.click("#admin-start")
        await organiser.wait_for_url(f"{url}/tournaments/{tid}")

        # Play: in every game White resigns as soon as every panel shows the round (so
        # each person sees it); nobody clicks anything else, between games or after them.
        store = TournamentStore(hall.records.engine)
        seen: dict[str, list[dict[str, str]]] = {n: [] for n in PEOPLE}
        shot: set[str] = set()
        deadline = time.monotonic() + 240
        while True:
            tour = store.get(tid)
            assert tour is not None
            if tour.status in ("finished", "aborted"):
                break
            assert time.monotonic() < deadline, seen
            now = {n: await _seat(p) for n, p in pages.items()}
            for name, view in now.items():
                if not seen[name] or seen[name][-1] != view:
                    seen[name].append(view)
            current = {v["round"] for v in now.values()}
            if len(current) == 1 and "" not in current:
                for name, view in now.items():
                    page = pages[name]
                    if view["kind"] == "bye" and f"bye{view['round']}" not in shot:
                        shot.add(f"bye{view['round']}")
                        if view["round"] == "2":
                            await _shoot(page, "tournament-walk-bye")
                    if view["kind"] == "game" and view["phase"] == "game":
                        if view["round"] == "2" and "game2" not in shot:
                            shot.add("game2")
                            await _shoot(page, "tournament-walk-game")
                        if view["color"] == "white":
                            await page.click("#play-resign")
                            await page.click("#play-resign-yes")
                            await page.wait_for_function(
                                "() => window.HernaPlay.state.phase !== 'game'"
                            )
            await asyncio.sleep(0.2)

        tour = await finished(store, tid)
        assert tour.status == "finished"
        games = [g for g in tour.games if not g.board.bye]
        assert len(games) == 3 and all(g.forfeit is None for g in games)
        rows = {r.name: r for r in tour.standings()}

        for name, page in pages.items():
            await page.wait_for_selector(f"{SEAT}[data-kind=over]", timeout=15_000)
            final = await _seat(page)
            rank = rows[name].rank
            shared = sum(1 for r in rows.values() if r.rank == rank) > 1
            place = f"{'shared ' if shared else ''}{ordinal(rank)} of 3"
            assert final["message"].startswith(f"The tournament is over — you finished {place}.")
            link = page.locator("#tournament-final")
            assert await link.get_attribute("href") == f"/tournaments/{tid}"
            assert name in final["table"]
            # One bye in words, two games, each told with the round and the opponent.
            byes = [v for v in seen[name] if v["kind"] == "bye"]
            assert byes, seen[name]
            n = int(byes[0]["round"])
            expected = "You have a bye this round: 0 points; " + (
                f"your next game starts when round {n + 1} does."
                if n < 3
                else "this is the last round: the tournament ends when its games do."
            )
            assert byes[0]["message"] == expected
            told = {v["round"]: v["message"] for v in seen[name] if v["kind"] == "game"}
            assert len(told) == 2, seen[name]
            for message in told.values():
                assert re.fullmatch(
                    r"Round \d: you play (Ada|Ben|Cleo), as (White|Black)\.", message
                )
            places = [v["place"] for v in seen[name] if v["place"]]
            assert places and all(re.match(r"You: (shared )?\d\w\w of 3, ", p) for p in places)
        await _shoot(pages[min(rows, key=lambda n: rows[n].rank)], "tournament-walk-over")
        assert browser.errors == []

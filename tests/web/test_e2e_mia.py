"""`herna serve --only mia,web` with house bots: the live view follows the real game in a
browser, and what spectators receive never shows dice that were not revealed."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from websockets.asyncio.client import connect

from herna.hall.db import MatchRow
from herna.hall.hall import Hall
from herna.web.plugin import WebHall
from tests.serve import serving
from tests.web.conftest import Browser, screenshot_path


def _web(hall: Hall) -> WebHall:
    web = hall.service("web")
    assert isinstance(web, WebHall)
    return web


@pytest.mark.browser
async def test_live_mia_view_follows_house_bots_in_the_browser(
    tmp_path: Path, browser: Browser
) -> None:
    async with serving(tmp_path, "mia,web") as hall:
        web, page = _web(hall), browser.page
        await page.goto(web.url + "/status")  # servers and endpoints: the operators' page
        card = page.locator('.service[data-game="mia"]')
        await card.wait_for()
        assert "udp://127.0.0.1:" in await card.inner_text()
        await page.screenshot(path=screenshot_path("e2e-home"), full_page=True)
        await card.get_by_role("link", name="protocol doc").click()
        await page.wait_for_url("**/doc/protocols/mia.md")
        assert "Spectator events" in await page.locator("article.doc").inner_text()

        await page.goto(web.url + "/live/mia/mia")
        rounds = page.locator('section.table[data-game="mia"] .mia-rounds .mia-round').first
        await rounds.wait_for()
        first = await rounds.get_attribute("data-round")
        deadline = time.monotonic() + 15
        seen = {first}
        while len(seen) < 3 and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            seen.add(await rounds.get_attribute("data-round"))
        assert len(seen) >= 3, f"the live view did not move on: {seen}"
        scores = page.locator(".mia-scores")
        for bot in ("house-honest", "house-prob", "house-random"):
            assert bot in await scores.inner_text()
        await page.screenshot(path=screenshot_path("e2e-live-mia"), full_page=True)
        assert browser.errors == []


async def test_spectators_never_see_unrevealed_dice(tmp_path: Path) -> None:
    # house bots at full speed: many rounds to check in two seconds
    async with serving(tmp_path, "mia,web", mia_house_round_pause=0.0) as hall:
        web = _web(hall)
        rounds: dict[int, dict[str, Any]] = {}
        async with connect(f"ws://127.0.0.1:{web.port}/ws/live?game=mia", max_size=None) as ws:
            deadline = time.monotonic() + 2.0
            while time.monotonic() < deadline:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 5))
                for table in frame["tables"]:
                    view = table["view"]
                    for rnd in (view["round"], view["last_round"]):
                        if rnd and rnd["status"] == "over":
                            rounds[rnd["round"]] = rnd
        assert len(rounds) >= 3
        hall.records.flush()
        async with httpx.AsyncClient(base_url=web.url) as http:
            checked = 0
            for number, rnd in rounds.items():
                with Session(hall.records.engine) as session:
                    match_id = session.scalar(
                        select(MatchRow.id).where(
                            MatchRow.game == "mia", MatchRow.table_id == f"round-{number}"
                        )
                    )
                if match_id is None:
                    continue
                record = hall.records.get(match_id)
                assert record is not None
                actions = [str(d["action"]) for k, d in record.events if k == "action"]
                rolls = [a.split()[1] for a in actions if a.startswith("DICE ")]
                announced = [a.split()[1] for a in actions if a.startswith("ANNOUNCE ")]
                assert [t["dice"] for t in rnd["turns"] if "dice" in t] == announced
                if rnd["actual_dice"] is not None:
                    # Only ever shown after somebody wanted to see or announced Mia (which is
                    # uncovered at once), and then it is the truth.
                    if announced[-1] != "2,1":
                        assert "SEE" in actions
                        assert any(t["action"] == "wants_to_see" for t in rnd["turns"])
                    assert rnd["actual_dice"] == rolls[-1]
                else:
                    assert "SEE" not in actions or not announced
                    assert not announced or announced[-1] != "2,1"
                checked += 1
                # The public API does not leak the rolls through the record either.
                public = (await http.get(f"/api/matches/{match_id}")).json()
                assert "events" not in public
            assert checked >= 3

"""Ratings people can read: a rating-over-time chart per game on each player page, drawn by
Herna as inline SVG (no script, no CDN), axes labelled with their units, the OpenSkill μ and
its μ ± 2σ band over the rated games played."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from herna.hall.db import RatingPointRow, RatingRow
from herna.hall.hall import Hall
from herna.hall.writer import keeps_rating_point
from herna.web.charts import RatingPoint, nice_ticks, rating_chart
from herna.web.plugin import WebHall
from tests.records import mia_round, onitama_game
from tests.serve import serving
from tests.web.conftest import Browser, screenshot_path


def _web(hall: Hall) -> WebHall:
    web = hall.service("web")
    assert isinstance(web, WebHall)
    return web


def _fill(hall: Hall) -> None:
    for seed in range(1, 9):
        white, black = ("alice", "bob") if seed % 2 else ("bob", "alice")
        hall.records.save(onitama_game(seed, white, black))
    for n in range(1, 6):
        hall.records.save(mia_round(n, ["alice", "carol"], n, datetime.now(UTC)))
    hall.records.flush()


def test_points_are_kept_for_every_early_game_then_ever_fewer() -> None:
    kept = [g for g in range(1, 100_001) if keeps_rating_point(g)]
    assert kept[:100] == list(range(1, 101))
    assert kept[100:103] == [110, 120, 130]
    assert 1_100 in kept and 1_110 not in kept
    assert len(kept) < 500  # a hundred thousand games, a few hundred points


def test_ticks_are_round_numbers() -> None:
    assert nice_ticks(17.3, 31.9) == [20, 25, 30]
    assert nice_ticks(0, 8, 6) == [0, 2, 4, 6, 8]


def test_a_chart_of_one_point_still_draws() -> None:
    svg = rating_chart("mia", "Mia", [RatingPoint(1, 25.0, 8.3)])
    assert "<svg" in svg and "after 1 rated game " in svg


async def test_player_page_has_a_rating_chart_per_game(tmp_path: Path) -> None:
    async with serving(tmp_path, "web") as hall:
        _fill(hall)
        with Session(hall.records.engine) as session:
            points = session.scalars(
                select(RatingPointRow).where(RatingPointRow.name == "alice")
            ).all()
            current = {r.game: r for r in session.scalars(select(RatingRow)) if r.name == "alice"}
        by_game = {g: [p for p in points if p.game == g] for g in ("onitama", "mia")}
        assert [p.games for p in by_game["onitama"]] == list(range(1, 9))
        # The last point is the rating the standings show.
        assert by_game["onitama"][-1].mu == pytest.approx(current["onitama"].mu)
        async with httpx.AsyncClient(base_url=_web(hall).url, timeout=10) as http:
            page = (await http.get("/players/alice")).text
        charts = re.findall(r'<figure class="rating-chart" data-game="(\w+)"', page)
        assert sorted(charts) == ["mia", "onitama"]
        onitama = page[page.index('data-game="onitama"') :]
        onitama = onitama[: onitama.index("</figure>")]
        assert "rated games played" in onitama  # x axis and its unit
        assert "OpenSkill μ (points)" in onitama  # y axis and its unit
        assert 'class="band"' in onitama and 'class="mu"' in onitama
        assert "after 8 rated games" in onitama
        assert "<script" not in onitama and "http://" not in onitama.replace(
            'xmlns="http://www.w3.org/2000/svg"', ""
        )


@pytest.mark.browser
async def test_rating_chart_in_the_browser(tmp_path: Path, browser: Browser) -> None:
    async with serving(tmp_path, "web") as hall:
        _fill(hall)
        page = browser.page
        await page.goto(_web(hall).url + "/players/alice")
        chart = page.locator('figure.rating-chart[data-game="onitama"] svg')
        await chart.wait_for()
        box = await chart.bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 100
        labels = page.locator('figure.rating-chart[data-game="onitama"] text.label')
        labels_text = await labels.all_text_contents()
        assert "rated games played" in labels_text
        await page.screenshot(path=screenshot_path("rating-chart-1280"), full_page=True)
        await page.set_viewport_size({"width": 390, "height": 844})
        await page.goto(_web(hall).url + "/players/alice")
        wide = await page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1], wide
        await page.screenshot(path=screenshot_path("rating-chart-390"), full_page=True)
        assert browser.errors == []

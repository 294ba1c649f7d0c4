"""A start time and a pause given on the command line (``herna tournament create
--starts-at … --pause 2m``) reach the running hall and its tournament page: a countdown in
the reader's own time while entries are open, and the rule of the timetable."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from herna.cli import main
from herna.hall.tournament_store import TournamentStore
from herna.hall.tournament_timetable import read_time
from tests.serve import serving
from tests.web.conftest import Browser, screenshot_path
from tests.web.test_people import _web

pytestmark = pytest.mark.browser


async def test_a_start_time_and_a_pause_from_the_command_line_show_on_the_page(
    tmp_path: Path, browser: Browser, capsys: pytest.CaptureFixture[str]
) -> None:
    async with serving(tmp_path, "onitama,web", onitama_house_bots=0) as hall:
        url = _web(hall).url
        local = (datetime.now() + timedelta(hours=1)).replace(second=0, microsecond=0)
        argv = ["tournament", "create", "--hall", url, "--name", "Friday 14:00"]
        bad = await asyncio.to_thread(main, [*argv, "--pause", "two minutes"])
        assert bad == 2 and "not a length of time" in capsys.readouterr().out
        late = await asyncio.to_thread(main, [*argv, "--starts-at", "2001-01-01T14:00"])
        assert late == 1 and "in the coming year" in capsys.readouterr().out
        when = local.isoformat(timespec="minutes")
        code = await asyncio.to_thread(main, [*argv, "--starts-at", when, "--pause", "2m"])
        assert code == 0, capsys.readouterr().out
        tour = TournamentStore(hall.records.engine).recent(1)[0]
        options = tour.settings["options"]
        assert read_time(options["starts_at"]) == local.astimezone(UTC)
        assert options["pause"] == 120

        page = browser.page
        await page.set_viewport_size({"width": 1280, "height": 800})
        await page.goto(f"{url}/tournaments/{tour.id}")
        starts = await page.locator("#starts-at").inner_text()
        assert local.strftime("%H:%M:00") in starts  # the reader's (here: this machine's) time
        assert "(in 59 min" in starts or "(in 1 h" in starts
        assert "Each round starts 2 min after every game of the round before has ended." in (
            await page.locator("#tournament-body").inner_text()
        )
        await page.screenshot(path=screenshot_path("tournament-starts-at-1280"), full_page=True)
        await page.set_viewport_size({"width": 390, "height": 844})
        await page.screenshot(path=screenshot_path("tournament-starts-at-390"), full_page=True)
        assert browser.errors == []

"""A teacher's contest in the browser: a person signs up, uploads the starter kit, creates a
contest (short: its deadline is seconds away) from the Bots page, enters the bot, uploads a
crashing version after the deadline, starts the final with the admin token and reads the
final ranking and its CSV; the crashing version never plays. Two more bots by other authors
and a house bot make the field. Real browser, real sandbox, real sockets, a real SQLite
file."""

from __future__ import annotations

import asyncio
import csv
import io
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import update

from herna.hall.contests import Contests
from herna.hall.db import BotContestRow
from herna.hall.submissions import Submissions
from herna.servers.contest import SandboxedBots
from herna.servers.ladder import Ladder, LadderSettings
from herna.web.plugin import WebHall
from tests.serve import serving
from tests.web.bot_helpers import fits, sign_up_from_home, starter_source
from tests.web.conftest import Browser, screenshot_path

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is missing")

CRASHER = b"import sys\nprint('version two crashes', file=sys.stderr)\nraise SystemExit(3)\n"


@pytest.mark.browser
async def test_a_teacher_runs_a_contest_to_its_final_ranking(
    tmp_path: Path, browser: Browser
) -> None:
    async with serving(tmp_path, "onitama,web", onitama_house_bot_delay=0.02) as hall:
        web = hall.service("web")
        assert isinstance(web, WebHall)
        kit = starter_source()
        source = tmp_path / "pavla.py"
        source.write_bytes(kit)
        crasher = tmp_path / "pavla2.py"
        crasher.write_bytes(CRASHER)
        bots = Submissions(hall.records.engine, hall.identity)
        contests = Contests(hall.records.engine, bots)
        # The ladder's runner without its loop: only the final's games are played.
        ladder = Ladder(hall, "127.0.0.1", LadderSettings(concurrency=1, game_seconds=120))
        hall.submitted = SandboxedBots(ladder)
        try:
            page = browser.page
            await page.set_viewport_size({"width": 1280, "height": 800})
            await sign_up_from_home(page, web.url, "Pavla")
            await page.get_by_role("link", name="Bots", exact=True).click()
            await page.get_by_label("Bot name").fill("pavla-bot")
            await page.get_by_label("Program").set_input_files(str(source))
            await page.get_by_role("button", name="Upload").click()
            await page.get_by_role("heading", name="pavla-bot", exact=True).wait_for()

            # A new contest from the Bots page; the admin token is shown once.
            await page.get_by_role("link", name="Bots", exact=True).click()
            await page.get_by_role("link", name="contest", exact=True).click()
            await page.get_by_role("heading", name="Bot contests").wait_for()
            assert await page.get_by_text("No contest yet.").count() == 1
            games = page.get_by_label("Game", exact=True).locator("option")
            assert await games.all_inner_texts() == ["Onitama", "Tile games", "Mariáš", "Mia"]
            await page.get_by_label("Title").fill("Class 3B")
            await page.get_by_label("Submissions close").fill("25s")
            await page.get_by_label("House bots that play in the final").fill("easy")
            await page.screenshot(path=screenshot_path("contest-new-1280"), full_page=True)
            await page.get_by_role("button", name="Create the contest").click()
            token = (await page.locator("#contest-token").inner_text()).strip()
            assert len(token) > 20
            await page.get_by_role("link", name="The contest's page").click()
            await page.get_by_role("heading", name="Class 3B").wait_for()
            assert "taking entries" in await page.locator("#contest-state").inner_text()
            await page.get_by_label("Your bot").select_option("pavla-bot")
            await page.get_by_role("button", name="Enter").click()
            entries = await page.locator("table.results").inner_text()
            assert "pavla-bot" in entries and "v1" in entries, entries
            # entered: the form does not offer the same bot again
            assert await page.get_by_label("Your bot").count() == 0
            said = await page.locator("#contest-all-entered").inner_text()
            assert said == "Every bot of yours for this game is entered."
            (contest,) = contests.all()
            for name, author in (("bea", "pupil-b"), ("cyril", "pupil-c")):
                bots.submit(name, "onitama", "bot.py", kit, person=author)
                contests.enter(contest.id, name, author)
            await page.reload()
            await page.screenshot(path=screenshot_path("contest-open-1280"), full_page=True)

            # Time passes: the deadline the teacher set is moved to now rather than waited
            # for (it was 25 s of a test worker doing nothing).
            with hall.records.engine.begin() as db:
                db.execute(
                    update(BotContestRow)
                    .where(BotContestRow.id == contest.id)
                    .values(deadline=datetime.now(UTC))
                )
            await asyncio.sleep(0.05)  # a version uploaded now is after the deadline
            # After the deadline: entries are closed, and a new version does not count.
            await page.reload()
            assert await page.get_by_label("Your bot").count() == 0
            await page.get_by_role("link", name="Bots", exact=True).click()
            await page.get_by_label("Bot name").fill("pavla-bot")
            await page.get_by_label("Program").set_input_files(str(crasher))
            await page.get_by_role("button", name="Upload").click()
            await page.get_by_text("Latest version: v2").wait_for()
            await page.get_by_role("link", name="Bots", exact=True).click()
            await page.get_by_role("link", name="contest", exact=True).click()
            await page.get_by_role("link", name="Class 3B").click()
            await page.get_by_role("heading", name="Class 3B").wait_for()
            entries = await page.locator("table.results").inner_text()
            assert "plays in the final" in entries and "v2" not in entries, entries

            # A wrong token is refused; the right one starts the final.
            await page.get_by_label("Admin token").fill("not-the-token")
            await page.get_by_role("button", name="Start the final").click()
            alert = await page.get_by_role("alert").inner_text()
            assert "That is not the admin token of this contest." in alert, alert
            await page.get_by_label("Admin token").fill(token)
            await page.get_by_role("button", name="Start the final").click()
            await page.get_by_role("heading", name="The final ranking").wait_for()
            for _ in range(600):
                if await page.locator("#final-state").inner_text() == "finished":
                    break
                await asyncio.sleep(0.5)
                await page.reload()
            else:
                raise AssertionError("the final did not finish")
            ranked = page.locator("#contest-final table.results tbody tr")
            assert await ranked.count() == 4
            table = await page.locator("#contest-final table.results").inner_text()
            assert "house-easy" in table and "(house bot)" in table, table
            assert "pavla-bot" in table and "v2" not in table, table
            assert " to " in table  # every bot's interval
            await page.screenshot(path=screenshot_path("contest-final-1280"), full_page=True)
            await page.set_viewport_size({"width": 390, "height": 844})
            await page.screenshot(path=screenshot_path("contest-final-390"), full_page=True)
            await fits(page)
            await page.set_viewport_size({"width": 1280, "height": 800})

            async with page.expect_download() as download:
                await page.get_by_role("link", name="Download the ranking (CSV)").click()
            saved = tmp_path / "ranking.csv"
            await (await download.value).save_as(saved)
            rows = list(csv.DictReader(io.StringIO(saved.read_text())))
            ranks = [int(r["rank"]) for r in rows]
            assert len(rows) == 4 and ranks[0] == 1 and ranks == sorted(ranks)
            assert sum(float(r["points"]) for r in rows) == 12  # 6 pairings, twice each
            assert {r["version"] for r in rows if r["bot"] == "pavla-bot"} == {"1"}
            assert all(int(r["games"]) == 6 for r in rows)
            # The crashing version never ran: no log of pavla-bot's says so.
            assert not any("version two crashes" in r.log for r in bots.runs("pavla-bot", 50))

            await page.get_by_role("link", name="the final's tournament page").click()
            await page.get_by_role("heading", name="Class 3B: the final").wait_for()
            assert browser.errors == [] or all("status of 40" in x for x in browser.errors)
        finally:
            await hall.submitted.stop()
            await ladder.stop()

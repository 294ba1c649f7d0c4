"""A person plays tile games in the browser (real Chromium): the page at /play/tiles is one more
client of the tile server, over /ws/tiles, speaking herna-tiles/1 as a TCP bot does."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from herna.clients.tiles import TilesClient
from herna.games.tiles.engine import new_game
from herna.games.tiles.geometry import point_name
from herna.games.tiles.rules import load_rules_file, shipped_rules
from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.servers.tiles import TilesService, TilesSettings, serve
from herna.servers.tiles.tables import Table
from herna.web.live import LiveSettings
from herna.web.plugin import WebHall
from tests.tiles.helpers import corridor, player, race
from tests.web.conftest import Browser, screenshot_path
from tests.web.test_resume_browser import CUT, NOT_RELOADED, SOCKETS

pytestmark = pytest.mark.browser

FAST: dict[str, Any] = {"bot_delay": 0.0, "showcase": False, "lobby_wait": 0.0, "seed": 7}
MY_TURN_OR_OVER = (
    "() => { const p = document.getElementById('play');"
    " return (p.dataset.myTurn === '1' && !window.HernaTilesPlay.state.pending)"
    " || p.dataset.phase === 'over'; }"
)
PHASE = "document.getElementById('play')?.dataset.phase"


@dataclass
class TilesHall:
    tiles: TilesService
    web: WebHall

    @property
    def url(self) -> str:
        return self.web.url


@asynccontextmanager
async def tiles_hall(tmp_path: Path, **settings: Any) -> AsyncIterator[TilesHall]:
    hall = Hall(records=RecordStore(f"sqlite:///{tmp_path / 'play.db'}"))
    tiles = await serve(hall, port=0, settings=TilesSettings(**{**FAST, **settings}))
    hall.add(tiles)
    web = WebHall(hall, LiveSettings(interval=0.02))
    try:
        await web.start("127.0.0.1", 0)
        hall.add(web)
        yield TilesHall(tiles, web)
    finally:
        await hall.stop()
        hall.records.close()


@dataclass
class Frames:
    """Every WebSocket frame the page sent and received on /ws/tiles."""

    sent: list[dict[str, Any]] = field(default_factory=list)
    received: list[dict[str, Any]] = field(default_factory=list)

    def watch(self, page: Any) -> Frames:
        def on_socket(ws: Any) -> None:
            if "/ws/tiles" not in ws.url:
                return
            ws.on("framesent", lambda payload: self.sent.append(json.loads(payload)))
            ws.on("framereceived", lambda payload: self.received.append(json.loads(payload)))

        page.on("websocket", on_socket)
        return self


async def page_state(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = await page.evaluate(
        "() => { const s = window.HernaTilesPlay.state; return {phase: s.phase, table: s.table,"
        " seat: s.seat, view: s.view, said: s.said.slice(), note: s.note,"
        " turn: s.turn ? s.turn.action : null}; }"
    )
    return result


def table_of(tiles: TilesService, name: str) -> Table | None:
    for table in tiles.hub.tables.values():
        if name in table.names():
            return table
    return None


async def play_one(page: Any, rnd: random.Random, by_keyboard: bool = False) -> None:
    """One action through the page: an arrow, a highlighted cell (and a way in), a hand tile
    and a rotation where the action has them; then wait for the server's answer."""
    before = len((await page_state(page))["said"])
    action = await page.evaluate("document.getElementById('play')?.dataset.action")
    hand = page.locator("button.tp-hand-tile")
    if await hand.count() > 1 and rnd.random() < 0.5:
        await hand.nth(rnd.randrange(await hand.count())).click()
    rotate = page.locator("button.tp-rotate")
    if await rotate.count() and rnd.random() < 0.5:
        if by_keyboard:
            await page.keyboard.press("r")
        else:
            await rotate.nth(rnd.randrange(2)).click()
    targets = page.locator("polygon.tp-arrow" if action == "push" else "rect.tp-target")
    count = await targets.count()
    assert count, f"nothing to click for {action}"
    target = targets.nth(rnd.randrange(count))
    if by_keyboard:
        await target.focus()
        await page.keyboard.press("Enter")
    else:
        await target.click()
    choice = page.locator("button.tp-choice")
    if await choice.count():
        await choice.nth(rnd.randrange(await choice.count())).click()
    await page.wait_for_function(
        f"() => window.HernaTilesPlay.state.said.length > {before}"
        " || window.HernaTilesPlay.state.phase === 'over'"
    )


async def sit_down(page: Any, url: str, rules: str, players: int | None = None) -> str:
    await page.goto(url + "/play/tiles")
    await page.wait_for_function(f"() => {PHASE} === 'setup'")
    await page.select_option("#tp-rules", rules)
    if players is not None:
        await page.select_option("#tp-players", str(players))
    await page.click("#tp-sit")
    await page.wait_for_function(f"() => {PHASE} === 'game' || {PHASE} === 'over'")
    return str(await page.locator("#play-name").inner_text())


async def play_to_the_end(page: Any, rnd: random.Random, limit: int = 400) -> int:
    mine = 0
    while True:
        await page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
        if await page.evaluate(PHASE) == "over":
            return mine
        await play_one(page, rnd, by_keyboard=mine % 3 == 2)
        mine += 1
        assert mine < limit


def check_hidden(frames: Frames, seat: int) -> int:
    """No frame shows another seat's hand or secret goals; the number of hidden goals seen."""
    hidden = 0
    for frame in frames.received:
        view = frame.get("view")
        if not isinstance(view, dict):
            continue
        for p in view["players"]:
            if p["seat"] == seat:
                continue
            assert "hand" not in p, frame["type"]
            for goal in p["goals"]:
                if goal["hidden"]:
                    assert goal["goal"] is None, frame["type"]
                    hidden += 1
    return hidden


@pytest.mark.parametrize("rules", sorted(shipped_rules()))
async def test_a_whole_game_of_each_example_by_clicking(
    tmp_path: Path, browser: Browser, rules: str
) -> None:
    # The whole game to its game_over, on the full board with every seat of the file: with
    # these seeds each ends by its own rules (every goal, no gold left, the last marker) well
    # before the server's round limit, which only guards the test's length.
    async with tiles_hall(tmp_path, max_rounds=60) as h:
        page = browser.page
        frames = Frames().watch(page)
        await page.goto(h.url + "/")
        await page.get_by_role("link", name="Play a tile game").click()
        await page.wait_for_url("**/play/tiles")
        guest = await sit_down(page, h.url, rules)
        assert re.fullmatch(r"guest-[a-z2-9]{8}", guest)
        table = table_of(h.tiles, guest)
        assert table is not None and table.rules.name == rules
        st = await page_state(page)
        assert st["view"]["rules"] == rules
        rnd = random.Random(rules)
        await page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
        await page.screenshot(path=screenshot_path(f"play-tiles-{rules}-1280"), full_page=True)
        mine = await play_to_the_end(page, rnd)
        assert mine > 0
        result = await page.locator("#play-result").inner_text()
        said_result = r"^(You won|A draw: you share the win|You lost\. .+ won|Game over: nobody)"
        assert re.match(said_result, result), result
        await page.screenshot(path=screenshot_path(f"play-tiles-{rules}-over-1280"), full_page=True)
        # what the page said is the server's narration, one line per action
        said = await page.locator("#play-moves li").all_inner_texts()
        assert any(line.startswith(guest + " ") for line in said)
        # the page only sent a join (house bots of the chosen level: the table starts at
        # once) and actions; the server refused none of them
        kinds = [f["type"] for f in frames.sent]
        assert kinds[0] == "join" and set(kinds[1:]) == {"act"}
        assert frames.sent[0]["seek"] == "person,opponent=bots,level=medium"
        assert kinds.count("act") == mine
        errors = [f for f in frames.received if f["type"] == "error"]
        assert errors == []
        seat = next(f["seat"] for f in frames.received if f["type"] == "started")
        hidden = check_hidden(frames, seat)
        if rules == "labyrinth":
            assert hidden > 0  # secret goals exist, and other seats' never reach this page
        over = next(f for f in frames.received if f["type"] == "game_over")
        assert over["result"]["reason"] and "round limit" not in over["result"]["reason"]
        if rules == "gold_rush":  # a game with scoring: everyone's score, in words
            scores = await page.locator("#play-scores").inner_text()
            assert scores.startswith("Scores: ") and "you " in scores
        assert browser.errors == []


async def test_a_game_of_an_uploaded_rules_file_and_a_bad_one(
    tmp_path: Path, browser: Browser
) -> None:
    bad = tmp_path / "bad.json"
    data = race()
    bad.write_text(json.dumps({**data, "movement_type": "teleport"}))
    good = tmp_path / "rules.json"
    good.write_text(json.dumps(data))
    async with tiles_hall(tmp_path) as h:
        page = browser.page
        await page.goto(h.url + "/play/tiles")
        await page.wait_for_function(f"() => {PHASE} === 'setup'")
        await page.set_input_files("#tp-file", str(bad))
        await page.click("#tp-sit")
        problems = page.locator("#tp-problems")
        await problems.get_by_text("movement_type").wait_for()
        text = await problems.inner_text()
        assert "The server refused the rules" in text and "teleport" in text
        assert await page.evaluate(PHASE) == "setup"
        await page.set_input_files("#tp-file", str(good))
        await page.click("#tp-sit")
        await page.wait_for_function(f"() => {PHASE} === 'game' || {PHASE} === 'over'")
        mine = await play_to_the_end(page, random.Random(1))
        assert mine > 0
        result = await page.locator("#play-result").inner_text()
        assert result.startswith(("You won", "You lost", "A draw"))
        assert browser.errors == []


async def test_a_file_with_one_seat_starts_by_itself(tmp_path: Path, browser: Browser) -> None:
    data = corridor(4, max_move_distance=1)
    data["players"][0]["goals"] = ["reach 3 0"]
    solo = tmp_path / "solo.json"
    solo.write_text(json.dumps(data))
    async with tiles_hall(tmp_path) as h:
        page = browser.page
        frames = Frames().watch(page)
        await page.goto(h.url + "/play/tiles")
        await page.wait_for_function(f"() => {PHASE} === 'setup'")
        await page.set_input_files("#tp-file", str(solo))
        # The page reads the file asynchronously (FileReader) before it fixes the seat count.
        await page.wait_for_function("() => document.querySelector('#tp-players').disabled")
        await page.click("#tp-sit")
        mine = await play_to_the_end(page, random.Random(2))
        assert mine >= 1
        # alone at the table: the game ends at the goal, or when a whole round made no progress
        assert (await page.locator("#play-result").inner_text()).startswith("You won (")
        # the table was full at once: no 'start' (it would be WRONG_PHASE), no error
        assert [f["type"] for f in frames.sent] == ["join"] + ["act"] * mine
        assert not [f for f in frames.received if f["type"] == "error"]
        assert h.tiles.hub.stats.errors == 0
        # Two seats that can only stay where they are: the first round makes no progress. A
        # stalled game is a draw whatever the score (rules reference, "The end", rule 4), and
        # the result line says so in words.
        stuck = {
            "turn_structure": ["move"],
            "board": {"width": 1, "height": 2},
            "tiles": [{"connections": ["L0,R0"], "location": [0, y]} for y in (0, 1)],
            "players": [player(0, y, "L") for y in (0, 1)],
        }
        (tmp_path / "stuck.json").write_text(json.dumps(stuck))
        await page.reload()
        await page.wait_for_function(f"() => {PHASE} === 'setup'")
        await page.set_input_files("#tp-file", str(tmp_path / "stuck.json"))
        await page.wait_for_function("() => document.querySelector('#tp-about').textContent")
        await page.click("#tp-sit")
        await page.wait_for_function(f"() => {PHASE} === 'over'")
        result = await page.locator("#play-result").inner_text()
        assert re.fullmatch(
            r"A draw: you share the win with \S+\. For a whole round nobody placed, pushed or "
            r"exchanged a tile and nobody moved, so the game stopped: a stalled game is a draw "
            r"among the players still in, whatever the score\.",
            result.strip(),
        ), result
        await page.screenshot(path=screenshot_path("play-tiles-stalled-draw-1280"))
        assert browser.errors == []


async def test_two_people_wait_for_each_other_and_play_at_one_table(
    tmp_path: Path, browser: Browser
) -> None:
    async with tiles_hall(tmp_path, max_rounds=3) as h:
        first = browser.page
        other_context = await first.context.browser.new_context()
        second = await other_context.new_page()
        second_errors: list[str] = []
        second.on("pageerror", lambda exc: second_errors.append(str(exc)))
        frames = [Frames().watch(first), Frames().watch(second)]
        try:
            for page in (first, second):
                await page.goto(h.url + "/play/tiles")
                await page.wait_for_function(f"() => {PHASE} === 'setup'")
                await page.select_option("#tp-rules", "labyrinth")
                await page.select_option("#tp-players", "2")
                await page.check('input[name="who"][value="people"]')
                await page.click("#tp-sit")
                if page is first:
                    await page.wait_for_function(f"() => {PHASE} === 'seated'")
                    status = await page.locator("#play-status").inner_text()
                    assert "Labyrinth: waiting for more players (empty seats: 1)" in status
            names = []
            for page in (first, second):
                await page.wait_for_function(f"() => {PHASE} === 'game'")
                names.append(await page.locator("#play-name").inner_text())
            table = table_of(h.tiles, names[0])
            assert table is not None and table.names() == names  # nobody else, no house bot
            assert [s["kind"] for s in table.seats_json() if s] == ["human", "human"]
            # both play by clicking until the game ends (the round limit is low)
            rnd = random.Random(11)
            while await first.evaluate(PHASE) != "over" or await second.evaluate(PHASE) != "over":
                for page in (first, second):
                    ready = await page.evaluate(
                        "() => document.getElementById('play')?.dataset.myTurn === '1'"
                        " && !window.HernaTilesPlay.state.pending"
                    )
                    if ready and await page.evaluate(PHASE) == "game":
                        await play_one(page, rnd)
                await first.wait_for_timeout(20)
            for seat, f in enumerate(frames):
                assert check_hidden(f, seat) > 0  # the other person's secret goals stay hidden
                assert not [m for m in f.received if m["type"] == "error"]
        finally:
            await other_context.close()
        assert browser.errors == [] and second_errors == []


async def test_a_reload_mid_game_returns_to_the_same_seat_and_state(
    tmp_path: Path, browser: Browser
) -> None:
    async with tiles_hall(tmp_path, bot_delay=0.05) as h:
        page = browser.page
        guest = await sit_down(page, h.url, "labyrinth")
        rnd = random.Random(3)
        for _ in range(3):
            await page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
            await play_one(page, rnd)
        await page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
        before = await page_state(page)
        table = table_of(h.tiles, guest)
        assert table is not None
        secret = await page.evaluate(
            f"JSON.parse(localStorage.getItem('herna.tiles.seat.{guest}')).secret"
        )
        frames = Frames().watch(page)
        await page.reload()
        assert await page.locator("#play-name").inner_text() == guest
        await page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
        after = await page_state(page)
        assert (after["table"], after["seat"], after["turn"], after["said"]) == (
            before["table"],
            before["seat"],
            before["turn"],
            before["said"],
        )
        assert len(after["said"]) >= 3 and after["note"] == "Back at your seat."
        assert after["view"] == before["view"] == table.state.view(before["seat"])
        assert frames.sent[0] == {
            "type": "join",
            "name": guest,
            "table": table.id,
            "secret": secret,
            "id": "resume",
            "lang": "en",  # the story in the page's language
        }
        assert [f["type"] for f in frames.received[:5]] == [
            "welcome",
            "joined",
            "started",
            "table",
            "your_turn",
        ]
        assert h.tiles.hub.stats.reconnects == 1
        slot = table.seats[before["seat"]]
        assert slot is not None and slot.bot is None  # no house bot played meanwhile
        await play_one(page, rnd)
        assert browser.errors == []


async def refusals(page: Any, frames: Frames, *ids: str) -> dict[str, dict[str, Any]]:
    """The server's errors for the requests ``ids``, once the last one's reason is on the
    page in words (never its code)."""
    for _ in range(100):
        errors = {f["id"]: f for f in frames.received if f["type"] == "error"}
        if all(i in errors for i in ids):
            break
        await asyncio.sleep(0.1)
    said = f"The server refused that: {errors[ids[-1]]['reason']}."
    await page.wait_for_function(
        "(s) => document.getElementById('play-note').textContent === s", arg=said
    )
    assert errors[ids[-1]]["code"] not in said
    return errors


async def test_forged_and_out_of_turn_actions_are_refused_and_change_nothing(
    tmp_path: Path, browser: Browser
) -> None:
    async with tiles_hall(tmp_path, bot_delay=1.0) as h:
        page = browser.page
        frames = Frames().watch(page)
        guest = await sit_down(page, h.url, "labyrinth", players=2)
        table = table_of(h.tiles, guest)
        assert table is not None and table.match is not None
        await page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
        seat = (await page_state(page))["seat"]
        log_before = len(table.match.log)
        view_before = table.state.view(seat)
        # a push of a row the rules fix in place, and a push that is no action at all
        await page.evaluate(
            "() => window.HernaTilesPlay.send({type: 'act', id: 'f1',"
            " action: {type: 'push', row: 0, direction: 'right', rotation: 0}})"
        )
        await page.evaluate(
            "() => window.HernaTilesPlay.send({type: 'act', id: 'f2',"
            " action: {type: 'push', row: 99}})"
        )
        errors = await refusals(page, frames, "f1", "f2")
        assert errors["f1"]["code"] == "ILLEGAL_ACTION" and "row 0" in errors["f1"]["reason"]
        assert errors["f2"]["code"] == "BAD_ACTION"
        assert len(table.match.log) == log_before and table.state.view(seat) == view_before
        # out of turn: after the page's own push it is still its turn (move), so play both,
        # then act while the house bot is to play
        rnd = random.Random(5)
        await play_one(page, rnd)
        await page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
        await play_one(page, rnd)
        assert table.state.current_player() != seat
        log_before = len(table.match.log)
        await page.evaluate(
            "() => window.HernaTilesPlay.send({type: 'act', id: 'f3',"
            " action: {type: 'push', row: 1, direction: 'right', rotation: 0}})"
        )
        assert (await refusals(page, frames, "f3"))["f3"]["code"] == "NOT_YOUR_TURN"
        assert len(table.match.log) == log_before
        assert browser.errors == []


async def test_the_page_turns_tiles_as_the_engine_does(tmp_path: Path, browser: Browser) -> None:
    async with tiles_hall(tmp_path) as h:
        page = browser.page
        await page.goto(h.url + "/play/tiles")
        await page.wait_for_function(f"() => {PHASE} === 'setup'")
        checked = 0
        for name in ("labyrinth", "tsuro", "dungeon"):
            rules = load_rules_file(shipped_rules()[name])
            state = new_game(rules)
            n = rules.n
            for info in state.s.kinds:
                if not info.paths:
                    continue
                for start in range(4):
                    tile = {
                        "rotation": start,
                        "connections": [
                            ",".join(point_name(q, n) for q in path) for path in info.paths[start]
                        ],
                    }
                    for r in range(4):
                        want = [",".join(point_name(q, n) for q in path) for path in info.paths[r]]
                        got = await page.evaluate(
                            "([t, r, n]) => window.HernaTilesRules.turned(t, r, n)", [tile, r, n]
                        )
                        assert got == want, (name, start, r)
                        checked += 1
        assert checked > 100


async def test_the_page_fits_a_phone_and_works_with_the_keyboard(
    tmp_path: Path, browser: Browser
) -> None:
    async with tiles_hall(tmp_path, max_rounds=3) as h:
        page = browser.page
        await page.set_viewport_size({"width": 390, "height": 844})
        await page.goto(h.url + "/play/tiles")
        await page.wait_for_function(f"() => {PHASE} === 'setup'")
        fits = "document.documentElement.scrollWidth <= window.innerWidth"
        assert await page.evaluate(fits)
        await page.screenshot(path=screenshot_path("play-tiles-setup-390"), full_page=True)
        # the form by keyboard: the rules select, then the Sit down button
        await page.focus("#tp-rules")
        await page.keyboard.press("End")
        await page.focus("#tp-sit")
        await page.keyboard.press("Enter")
        await page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
        assert await page.evaluate(fits)
        await page.screenshot(path=screenshot_path("play-tiles-game-390"), full_page=True)
        rnd = random.Random(9)
        while await page.evaluate(PHASE) != "over":
            await play_one(page, rnd, by_keyboard=True)
            await page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
            assert await page.evaluate(fits)
        await page.screenshot(path=screenshot_path("play-tiles-over-390"), full_page=True)
        assert browser.errors == []


async def test_the_clock_runs_out_a_stand_in_plays_and_back_to_my_seat(
    tmp_path: Path, browser: Browser
) -> None:
    async with tiles_hall(tmp_path, bot_delay=0.05, turn_timeout=1.0, reconnect_window=1.0) as h:
        page = browser.page
        frames = Frames().watch(page)
        guest = await sit_down(page, h.url, "labyrinth")
        await page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
        # the clock and what follows it are said on the page
        status = await page.locator("#play-status").inner_text()
        assert "1 s to act, then 1 s more, then a stand-in plays for you" in status, status
        clock = page.locator("#tp-clock")
        await clock.wait_for(state="visible")
        assert (await clock.inner_text()).endswith("s left to act.")
        await page.wait_for_function(
            "() => document.getElementById('tp-clock').dataset.late === '1'", timeout=10_000
        )
        # nobody acts: the grace period is announced, then a stand-in plays the seat
        await page.wait_for_function(
            "() => window.HernaTilesPlay.state.note.startsWith('Time is up')", timeout=10_000
        )
        back = page.locator("#tp-back")
        await back.wait_for(timeout=10_000)
        note = await page.locator("#play-note").inner_text()
        assert note == "A stand-in (house bot) plays for you.", note
        table = table_of(h.tiles, guest)
        assert table is not None
        seat = int(await page.evaluate("window.HernaTilesPlay.state.seat"))
        slot = table.seats[seat]
        assert slot is not None and slot.standing_in
        # the person takes the seat back and plays again
        await back.click()
        await page.wait_for_function(
            "() => window.HernaTilesPlay.state.standIn === false", timeout=10_000
        )
        assert {"type": "back"} in frames.sent
        assert not slot.standing_in and slot.stood_in
        await page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
        assert browser.errors == []


async def test_a_browser_table_in_the_lobby_is_accepted_by_a_bot_over_tcp(
    tmp_path: Path, browser: Browser
) -> None:
    async with tiles_hall(tmp_path) as h:
        page = browser.page
        frames = Frames().watch(page)
        await page.goto(h.url + "/play/tiles")
        await page.wait_for_function(f"() => {PHASE} === 'setup'")
        await page.select_option("#tp-rules", "tsuro")
        await page.check('input[name="who"][value="anyone"]')
        await page.fill("#tp-fill", "600")
        await page.click("#tp-sit")
        await page.wait_for_function(f"() => {PHASE} === 'seated'")
        guest = await page.locator("#play-name").inner_text()
        assert frames.sent[0]["seek"] == "person,opponent=anyone,fill=600,level=medium"
        # the table is in the hall's lobby, live, for a second browser
        other = await browser.page.context.browser.new_context()
        watcher = await other.new_page()
        await watcher.goto(h.url + "/lobby")
        row = watcher.locator(f'li.lobby-seek[data-owner="{guest}"]')
        await row.wait_for()
        assert "person" in await row.locator(".lobby-kind").inner_text()
        [seek] = h.tiles.hub.lobby.snapshot("tiles")
        # a bot over TCP accepts it in the tile protocol and starts the game
        bot = await TilesClient.connect("127.0.0.1", h.tiles.port)
        joined = await bot.join("tcpbot", kind="bot", seek=f"accept={seek['id']}")
        await bot.start()
        await page.wait_for_function(f"() => {PHASE} === 'game'", timeout=10_000)
        assert await page.evaluate("window.HernaTilesPlay.state.table") == joined["table"]
        await row.wait_for(state="detached")  # seated: gone from the lobby, live
        await bot.close()
        await other.close()
        assert browser.errors == []


async def test_a_bots_waiting_table_is_taken_from_the_lobby_page(
    tmp_path: Path, browser: Browser
) -> None:
    async with tiles_hall(tmp_path) as h:
        bot = await TilesClient.connect("127.0.0.1", h.tiles.port)
        joined = await bot.join("tcpbot", "tsuro", kind="bot")  # a seed client: no seek
        page = browser.page
        frames = Frames().watch(page)
        await page.goto(h.url + "/lobby")
        row = page.locator('li.lobby-seek[data-owner="tcpbot"]')
        await row.wait_for()
        await row.locator("button.lobby-accept").click()
        await page.wait_for_url("**/play/tiles?seek=*")
        await page.wait_for_function(f"() => {PHASE} === 'seated'", timeout=10_000)
        assert frames.sent[0]["seek"].startswith("person,accept=s")
        assert "rules" not in frames.sent[0]  # the table's rules come with it
        assert await page.evaluate("window.HernaTilesPlay.state.table") == joined["table"]
        await bot.start()
        await page.wait_for_function(f"() => {PHASE} === 'game'", timeout=10_000)
        await bot.close()
        assert browser.errors == []


async def test_a_dropped_socket_comes_back_with_the_story_it_missed_without_a_reload(
    tmp_path: Path, browser: Browser
) -> None:
    async with tiles_hall(tmp_path, bot_delay=0.2, reconnect_window=30) as h:
        page = browser.page
        await page.add_init_script(SOCKETS)
        guest = await sit_down(page, h.url, "labyrinth")
        await page.evaluate("() => { window.__marker = 'still here'; }")
        rnd = random.Random(5)
        await page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
        await play_one(page, rnd)  # the push; the move is still this seat's
        await page.wait_for_function(MY_TURN_OR_OVER, timeout=30_000)
        await play_one(page, rnd)
        table = table_of(h.tiles, guest)
        assert table is not None
        seat = int(await page.evaluate("window.HernaTilesPlay.state.seat"))
        heard = len(table.said[seat])
        # the socket drops while the house bots play on
        await page.evaluate(CUT, "/ws/tiles")
        for _ in range(300):
            if len(table.said[seat]) >= heard + 3:
                break
            await asyncio.sleep(0.02)
        await page.evaluate("() => { window.__offline = false; }")
        await page.wait_for_function(
            f"() => window.HernaTilesPlay.state.said.length >= {heard + 3}", timeout=15_000
        )
        shown = await page.locator("#play-moves li").all_inner_texts()
        assert shown == table.said[seat][-200:][: len(shown)]  # every line, once, in order
        assert await page.evaluate(NOT_RELOADED)
        assert [e for e in browser.errors if "/ws-offline/" not in e] == []


async def test_the_person_chooses_how_strong_the_house_bots_play(
    tmp_path: Path, browser: Browser
) -> None:
    async with tiles_hall(tmp_path) as h:
        page = browser.page
        frames = Frames().watch(page)
        await page.goto(h.url + "/play/tiles")
        await page.wait_for_function(f"() => {PHASE} === 'setup'")
        options = await page.locator("#tp-level option").all_inner_texts()
        assert [o.split(" — ")[0] for o in options] == ["easy", "medium", "hard", "strongest"]
        assert await page.locator("#tp-level").input_value() == "medium"
        await page.select_option("#tp-rules", "tsuro")
        await page.select_option("#tp-players", "2")
        await page.select_option("#tp-level", "strongest")
        await page.click("#tp-sit")
        await page.wait_for_function(f"() => {PHASE} === 'game' || {PHASE} === 'over'")
        (join,) = [f for f in frames.sent if f["type"] == "join"]
        assert join["seek"] == "person,opponent=bots,level=strongest"
        (table,) = h.tiles.hub.tables.values()
        assert table.want is not None and table.want.level == "strongest"
        assert [type(s.bot).__name__ for s in table.seats if s and s.bot] == ["SearchBot"]
        assert browser.errors == []

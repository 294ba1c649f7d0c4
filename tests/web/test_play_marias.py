"""A person plays mariáš in the browser (real Chromium): /play/marias talks JSON with the web
hall over /ws/marias, and the web hall relays the seat to the hall's own CGML super game
server over a real TCP connection (herna.clients.marias_seat)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from herna.games.marias import CARD_CODES
from herna.games.marias.log import GameLog, play_log
from herna.hall.hall import Hall
from herna.hall.records import StoredMatch
from herna.hall.replays import match_summary
from herna.servers.cgml import CgmlService
from herna.web.plugin import WebHall
from tests.serve import serving
from tests.web.conftest import Browser, screenshot_path
from tests.web.play_helpers import eventually, in_viewport

pytestmark = pytest.mark.browser

MY_TURN_OR_DEALS = (
    "(n) => { const p = document.getElementById('play');"
    " return p.dataset.myTurn === '1' || Number(p.dataset.deals) >= n; }"
)
MY_TURN = "() => document.getElementById('play')?.dataset.myTurn === '1'"


@dataclass
class MariasHall:
    hall: Hall
    marias: CgmlService
    web: WebHall

    @property
    def url(self) -> str:
        return self.web.url


@asynccontextmanager
async def marias_hall(
    tmp_path: Path, grace: float = 60.0, clock: float = 90.0
) -> AsyncIterator[MariasHall]:
    """`herna serve --only marias,web` on free ports: bots without delay, no house tables."""
    async with serving(
        tmp_path,
        "marias,web",
        cgml_bot_delay=0.0,
        cgml_house_tables=0,
        cgml_fill_wait=0.05,
        web_marias_grace=grace,
        web_marias_clock=clock,
    ) as hall:
        service = hall.service("marias")
        web = hall.service("web")
        assert isinstance(service, CgmlService) and isinstance(web, WebHall)
        snap = service.login.lobby.snapshot
        # the main bot server and the default levels easy, hard, strongest
        await eventually(lambda: bool(snap()["game_servers"]) and len(snap()["bot_servers"]) == 4)
        yield MariasHall(hall, service, web)


@dataclass
class Frames:
    """Every JSON frame a page sent and received on /ws/marias."""

    sent: list[dict[str, Any]]
    received: list[dict[str, Any]]

    @classmethod
    def watch(cls, page: Any) -> Frames:
        frames = cls([], [])

        def on_socket(ws: Any) -> None:
            if not ws.url.endswith("/ws/marias"):
                return
            ws.on("framesent", lambda payload: frames.sent.append(json.loads(payload)))
            ws.on("framereceived", lambda payload: frames.received.append(json.loads(payload)))

        page.on("websocket", on_socket)
        return frames

    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.received if f["type"] == "state"]


async def page_state(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = await page.evaluate("() => window.HernaMarias.state.state")
    return result


async def sit(page: Any, url: str, level: str = "medium") -> str:
    """From the home page to a seat; the guest name."""
    await page.goto(url + "/")
    await page.get_by_role("link", name="Play mariáš").click()
    await page.wait_for_url("**/play/marias")
    guest: str = await page.locator("#play-name").inner_text()
    await page.get_by_role("radio", name=re.compile(f"^{re.escape(level)} ")).check()
    await page.get_by_role("button", name="Sit down").click()
    return guest


async def press(page: Any, locator: Any) -> None:
    """The keyboard way: the page put the focus on the question's first choice; Enter."""
    focused = await page.evaluate(
        "() => { const a = document.activeElement; return a ? a.outerHTML : ''; }"
    )
    assert focused == await locator.evaluate("b => b.outerHTML"), focused
    await page.keyboard.press("Enter")


async def answer(page: Any, by_keyboard: bool = False) -> str:
    """Answer the question on the screen by clicking (or with the keyboard): a highlighted
    card, two cards for the talon, or the first choice button. The kind of question."""
    kind: str = await page.evaluate("document.getElementById('play')?.dataset.decision")
    seq = int(await page.evaluate("document.getElementById('play')?.dataset.seq"))
    keyboard_pair = False
    if by_keyboard and kind == "discard":
        st = await page_state(page)
        pairs = [set(o["cards"]) for o in st["decision"]["options"]]
        legal = await page.locator("button.mar-legal").evaluate_all(
            "bs => bs.map(b => b.dataset.code)"
        )
        keyboard_pair = set(legal[:2]) in pairs
    if keyboard_pair:
        # Enter picks the focused card, Tab goes to the next legal one, Enter picks it; the
        # focus moves to "Lay these two away", and Enter lays them away.
        await press(page, page.locator("button.mar-legal").first)
        await page.keyboard.press("Tab")
        await page.keyboard.press("Enter")
        await page.wait_for_function(
            "() => document.activeElement && document.activeElement.classList.contains("
            "'mar-discard')"
        )
        await page.keyboard.press("Enter")
    elif by_keyboard and kind == "play":
        await press(page, page.locator("button.mar-legal").first)
    elif kind == "gametype":
        await announce(page, by_keyboard)
    elif by_keyboard and kind in ("licite", "flek"):
        await press(page, page.locator("button.mar-choice").first)
    elif kind == "play":
        await page.locator("button.mar-legal").first.click()
    elif kind == "discard":
        legal = page.locator("button.mar-legal")
        count = await legal.count()
        done = False
        for i in range(count):
            for j in range(i + 1, count):
                await legal.nth(i).click()
                await legal.nth(j).click()
                button = page.locator("button.mar-discard")
                if await button.is_enabled():
                    await button.click()
                    done = True
                    break
                await legal.nth(j).click()
                await legal.nth(i).click()
            if done:
                break
        assert done, "no pair of highlighted cards could be laid away"
    else:
        await page.locator("button.mar-choice").first.click()
    await page.wait_for_function(
        f"() => Number(document.getElementById('play')?.dataset.seq) > {seq}"
    )
    return kind


async def announce(page: Any, by_keyboard: bool = False) -> None:
    """The announcement in steps (the game, trumps, additions): the first offer of each step,
    then the button that announces it."""
    for _ in range(6):
        if await page.locator("button.mar-choice").count():
            break
        if by_keyboard:
            await press(page, page.locator("button.mar-step").first)
        else:
            await page.locator("button.mar-step").first.click()
    if by_keyboard:
        await press(page, page.locator("button.mar-choice").first)
    else:
        await page.locator("button.mar-choice").first.click()


async def play_until_deals(
    page: Any, deals: int, limit: int = 200, keyboard: bool = False
) -> list[str]:
    """Answer every question until ``deals`` deals are over (every other answer with the
    keyboard if asked); the kinds of questions answered."""
    kinds: list[str] = []
    while True:
        await page.wait_for_function(MY_TURN_OR_DEALS, arg=deals, timeout=30_000)
        if int(await page.evaluate("document.getElementById('play')?.dataset.deals")) >= deals:
            return kinds
        kind = await page.evaluate("document.getElementById('play')?.dataset.decision")
        by_keyboard = keyboard and (len(kinds) % 2 == 1 or kind == "discard")
        kinds.append(await answer(page, by_keyboard))
        assert len(kinds) < limit


def deals_of_records(hall: Hall, name: str) -> list[StoredMatch]:
    """The recorded deals ``name`` played in, oldest first."""
    hall.records.flush()
    return sorted(hall.records.matches(game="marias", player=name), key=lambda m: m.id)


def deals_of(h: MariasHall, guest: str) -> list[StoredMatch]:
    return deals_of_records(h.hall, guest)


def money_of(match: StoredMatch, name: str) -> int:
    return int(next(p.score for p in match.players if p.name == name))


def hands_of(match: StoredMatch) -> tuple[list[set[str]], set[str]]:
    """Each seat's ten dealt cards and the dealt talon of a recorded deal."""
    state = play_log(GameLog.from_json(match.result["log"]), upto=32)
    hands = [{CARD_CODES[c] for c in state.hand(s)} for s in range(3)]
    return hands, {CARD_CODES[c] for c in state.dealt_talon()}


def codes_in(value: Any) -> set[str]:
    text = json.dumps(value)
    return {c for c in CARD_CODES if f'"{c}"' in text or f"/{c}.svg" in text}


async def test_a_whole_deal_by_clicking_then_the_next_with_running_totals(
    tmp_path: Path, browser: Browser
) -> None:
    async with marias_hall(tmp_path) as h:
        page = browser.page
        frames = Frames.watch(page)
        guest = await sit(page, h.url)
        await page.wait_for_function(MY_TURN, timeout=20_000)
        await page.screenshot(path=screenshot_path("play-marias-1280"), full_page=True)
        kinds = await play_until_deals(page, 1)
        assert "play" in kinds
        # the settlement breakdown of the deal is on the screen
        result = page.locator("#mar-result")
        await result.get_by_text("Vyúčtování — deal 1").wait_for()
        rows = await result.locator("tbody tr").all_inner_texts()
        assert len(rows) == 3 and any(r.startswith("you") for r in rows)
        lines = await result.locator(".mar-breakdown li").all_inner_texts()
        assert any(re.search(r"\bunits?\b", x) or "Renonc" in x for x in lines), lines
        assert any("server" in x for x in lines)  # checked against the server's money
        await page.screenshot(path=screenshot_path("play-marias-result-1280"), full_page=True)
        # the money matches the record; the next deal starts at the same table
        first = deals_of(h, guest)
        assert len(first) == 1 and first[0].status == "finished"
        kinds_of = {p.name: p.kind for p in first[0].players}  # the bot server's: house bots
        assert kinds_of.pop(guest) == "human" and set(kinds_of.values()) == {"house-bot"}
        ids = first[0].result["ids"]
        me = ids.index(guest)
        st = await page_state(page)
        totals = {p["name"]: p["total"] for p in st["players"]}
        assert totals[guest] == money_of(first[0], guest)
        await page.wait_for_function(MY_TURN, timeout=20_000)
        st = await page_state(page)
        assert st["deals"] == 1 and len(st["hand"]) >= 10 and st["result"]["deal"] == 1
        kinds = await play_until_deals(page, 2, keyboard=True)
        assert len(kinds) >= 2  # every other answer of this deal by the keyboard
        second = deals_of(h, guest)
        assert len(second) == 2 and second[1].meta["group"] == first[0].meta["group"]
        st = await page_state(page)
        money = sum(money_of(d, guest) for d in second)
        assert st["result"]["rows"][me]["total"] == money
        assert "stand_in" not in second[0].meta
        # never another seat's hidden cards: hands and talons hold own and taken cards only,
        # and before the first card is played no frame names a card of another seat
        hands, talon = hands_of(first[0])
        others = (hands[0] | hands[1] | hands[2]) - hands[me]
        states = [f for f in frames.states() if f["deals"] == 0 and f["hand"]]
        assert states
        for f in states:
            own = {c["code"] for c in f["hand"]} | {c["code"] for c in f["talon"]}
            assert own <= hands[me] | talon, f
            if not f["trick"] and not f["last_trick"]:
                assert not codes_in(f) & others, f
        assert not any(f["type"] == "error" for f in frames.received)
        assert frames.sent[0] == {
            "type": "sit",
            "name": guest,
            "lang": "en",  # the page's <html lang>: the seat speaks it
            "opponents": "house-heuristic-bot",
        }
        assert browser.errors == []


async def test_reload_forgeries_and_a_narrow_screen(tmp_path: Path, browser: Browser) -> None:
    async with marias_hall(tmp_path) as h:
        page = browser.page
        await page.set_viewport_size({"width": 390, "height": 844})
        guest = await sit(page, h.url, "strongest")  # the strongest level
        await page.wait_for_function(MY_TURN, timeout=20_000)
        await answer(page)
        await page.wait_for_function(MY_TURN, timeout=20_000)
        width = await page.evaluate(
            "() => [document.documentElement.scrollWidth, window.innerWidth]"
        )
        assert width[0] <= width[1], width
        await page.screenshot(path=screenshot_path("play-marias-390"), full_page=True)
        before = await page_state(page)
        secret = await page.evaluate(
            f"JSON.parse(localStorage.getItem('herna.marias.seat.{guest}')).seat"
        )
        # a reload returns to the same seat and the same question
        frames = Frames.watch(page)
        await page.reload()
        await page.wait_for_function(MY_TURN)
        after = await page_state(page)
        assert frames.sent[0] == {"type": "resume", "seat": secret, "seq": -1}
        for key in ("hand", "players", "auction", "contract", "trick", "decision", "deals"):
            assert after[key] == before[key], key
        names = {p["name"] for p in after["players"]}
        assert names == {guest, "house-strongest-bot", "house-strongest-bot#2"}
        # forged answers change nothing: a choice that is not offered, a question that is over
        number = after["decision"]["number"]
        for forged, code in (
            ({"decision": number, "choice": 99}, "BAD_CHOICE"),
            ({"decision": number, "choice": "0"}, "BAD_CHOICE"),
            ({"decision": number - 1, "choice": 0}, "STALE"),
        ):
            await page.evaluate(
                "(f) => window.HernaMarias.send(Object.assign({type: 'act'}, f))", forged
            )
            await page.wait_for_function(
                "(c) => (document.getElementById('play-status').textContent || '').length > 0"
                " && window.HernaMarias.state.error !== null",
                arg=code,
            )
            error = next(f for f in reversed(frames.received) if f["type"] == "error")
            assert error["code"] == code and error["seq"] == after["seq"]
            page_error = await page.evaluate("window.HernaMarias.state.error")
            assert page_error == error["message"]
            await page.evaluate("window.HernaMarias.state.error = null")
        st = await page_state(page)
        assert st["decision"]["number"] == number and st["seq"] == after["seq"]
        # only legal cards are clickable
        if st["decision"]["kind"] == "play":
            legal = {o["card"] for o in st["decision"]["options"] if o["kind"] == "play"}
            clickable = await page.locator("button.mar-legal").evaluate_all(
                "bs => bs.map(b => b.dataset.code)"
            )
            assert set(clickable) == legal
        # a stranger with a forged seat id, or with the guest's name, gets nothing
        other = await browser.page.context.browser.new_context()
        stranger = await other.new_page()
        seen = Frames.watch(stranger)
        await stranger.goto(h.url + "/play/marias")
        await stranger.evaluate(
            f"localStorage.setItem('herna.marias.seat.' + "
            f"document.getElementById('play-name').textContent, "
            f"JSON.stringify({{seat: {json.dumps(secret[:-2] + 'xx')}}}))"
        )
        await stranger.reload()
        await eventually(lambda: any(f["type"] == "error" for f in seen.received), 10)
        assert [f["code"] for f in seen.received] == ["UNKNOWN_SEAT"]
        await stranger.evaluate(
            f"window.HernaMarias.send({{type: 'sit', name: {json.dumps(guest)}, "
            "opponents: 'house-heuristic-bot'})"
        )
        await eventually(lambda: len(seen.received) == 2, 10)
        assert seen.received[1]["code"] == "BAD_NAME"
        assert not any(f["type"] == "state" for f in seen.received)
        await other.close()
        # and the game goes on from the same question
        await answer(page)
        assert browser.errors == []


async def test_a_closed_page_gets_a_stand_in_and_the_person_takes_the_seat_back(
    tmp_path: Path, browser: Browser
) -> None:
    async with marias_hall(tmp_path, grace=0.5) as h:
        # A context of its own: a page closes, and another page of the same browser
        # (the same cookie and localStorage) comes back.
        context = await browser.page.context.browser.new_context()
        page = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        guest = await sit(page, h.url)
        await page.wait_for_function(MY_TURN, timeout=20_000)
        await answer(page)
        await page.wait_for_function(MY_TURN, timeout=20_000)
        await page.close()
        # the stand-in finishes the deal, and its record says so
        await eventually(lambda: len(deals_of(h, guest)) >= 1, 30)
        first = deals_of(h, guest)[0]
        assert first.meta["stand_in"] == [guest]
        # the person comes back (same browser) and gets the seat: questions come to the page
        page = await context.new_page()
        await page.set_viewport_size({"width": 390, "height": 844})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        frames = Frames.watch(page)
        await page.goto(h.url + "/play/marias")
        await page.wait_for_function(MY_TURN, timeout=30_000)
        st = await page_state(page)
        assert st["stand_in"] is False and st["deals"] >= 1
        # the vyúčtování of the last deal fits a phone screen too
        await page.locator("#mar-result table").wait_for()
        width = await page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], width
        await page.screenshot(path=screenshot_path("play-marias-back-390"), full_page=True)
        assert frames.sent[0]["type"] == "resume"
        # the deal the person came back into may have had the stand-in too; the next not
        await play_until_deals(page, st["deals"] + 2)
        later = deals_of(h, guest)[-1]
        assert "stand_in" not in later.meta
        assert errors == []
        await context.close()


async def test_the_clock_runs_out_a_stand_in_answers_and_the_person_takes_the_seat_back(
    tmp_path: Path, browser: Browser
) -> None:
    async with marias_hall(tmp_path, grace=1.5, clock=3.0) as h:
        page = browser.page
        frames = Frames.watch(page)
        guest = await sit(page, h.url)
        await page.wait_for_function(MY_TURN, timeout=20_000)
        # the question's clock is on the page, counting down from the move clock
        clock = page.locator("#mar-clock")
        await clock.wait_for(state="visible")
        assert "s left to answer" in await clock.inner_text()
        first = next(f for f in frames.states() if f.get("decision"))
        assert first["clock"]["move_clock"] == 3.0 and 0 < first["clock"]["left"] <= 3.0
        # nobody answers: the grace period, said in words, then a stand-in
        await page.wait_for_function(
            "() => document.getElementById('mar-clock').dataset.late === '1'", timeout=5_000
        )
        assert "stand-in answers for you" in await clock.inner_text()
        await page.wait_for_function(
            "() => window.HernaMarias.state.state.stand_in === true", timeout=5_000
        )
        back = page.get_by_role("button", name="Back to my seat")
        await back.wait_for()
        # the stand-in plays on: the deal ends, and its record says a stand-in played
        await eventually(lambda: len(deals_of(h, guest)) >= 1, 40)
        assert deals_of(h, guest)[0].meta["stand_in"] == [guest]
        # the person takes the seat back and answers again
        await back.click()
        await page.wait_for_function(
            "() => window.HernaMarias.state.state.stand_in === false", timeout=5_000
        )
        assert "back" in [f["type"] for f in frames.sent]
        # a question comes back to the person, who answers it by clicking
        await page.wait_for_function(MY_TURN, timeout=20_000)
        assert await answer(page)
        # a "back" with nobody standing in is refused with a clear error
        if not (await page_state(page))["stand_in"]:
            await page.evaluate("() => window.HernaMarias.send({type: 'back'})")
            await eventually(
                lambda: any(f.get("code") == "NOT_STANDING_IN" for f in frames.received), 5
            )


async def test_two_people_at_one_table_and_one_leaves(tmp_path: Path, browser: Browser) -> None:
    async with marias_hall(tmp_path) as h:
        chromium = browser.page.context.browser
        contexts = [await chromium.new_context() for _ in range(2)]
        pages = [await c.new_page() for c in contexts]
        guests = [await sit(p, h.url, "people") for p in pages]
        assert guests[0] != guests[1]
        for p in pages:
            await p.wait_for_function(
                "() => document.getElementById('play')?.dataset.status === 'playing'",
                timeout=20_000,
            )
        for p in pages:
            st = await page_state(p)
            names = [x["name"] for x in st["players"]]
            assert set(guests) <= set(names) and len(names) == 3
        # the one who is not asked leaves: the server ends the group, and the one whose
        # question is waiting is told at once (the seat reads on while a person thinks)
        asked = None
        for _ in range(200):
            turns = [await p.evaluate(MY_TURN) for p in pages]
            if any(turns):
                asked = turns.index(True)
                break
            await asyncio.sleep(0.05)
        assert asked is not None
        stays, leaves = pages[asked], pages[1 - asked]
        leaver = guests[1 - asked]
        await leaves.set_viewport_size({"width": 390, "height": 844})
        # Leaving ends the table for all: it asks first, as giving up does; "Stay" stays
        await leaves.get_by_role("button", name="Leave the table").click()
        confirm = leaves.locator("#mar-leave-confirm")
        await confirm.wait_for()
        assert "Leave the table?" in await confirm.inner_text()
        assert await in_viewport(leaves, "#mar-leave-confirm")
        await leaves.get_by_role("button", name="Stay").click()
        assert await confirm.is_hidden()
        await asyncio.sleep(0.3)
        assert (await page_state(leaves))["status"] == "playing"
        await leaves.get_by_role("button", name="Leave the table").click()
        await leaves.get_by_role("button", name="Yes, leave the table").click()
        await stays.wait_for_function(
            "() => document.getElementById('play')?.dataset.status === 'over'", timeout=20_000
        )
        status = await stays.locator("#play-status").inner_text()
        assert f"The table ended: {leaver} left." in status, status
        assert (await page_state(stays))["decision"] is None
        await stays.get_by_role("button", name="Sit at a new table").wait_for()
        # the history row says why in words, not "aborted: aborted"
        aborted = [m for m in deals_of_records(h.hall, leaver) if m.status != "finished"]
        assert len(aborted) == 1
        assert match_summary(aborted[0]) == f"the table ended: {leaver} left", match_summary(
            aborted[0]
        )
        for c in contexts:
            await c.close()


async def test_a_waiting_person_is_taken_from_the_lobby_page(
    tmp_path: Path, browser: Browser
) -> None:
    async with marias_hall(tmp_path) as h:
        chromium = browser.page.context.browser
        contexts = [await chromium.new_context() for _ in range(2)]
        first, second = [await c.new_page() for c in contexts]
        ann = await sit(first, h.url, "people")  # waits for another person
        await eventually(lambda: [s["owner"] for s in h.hall.lobby.snapshot("marias")] == [ann])
        # a second person sees ann live on the lobby page and takes the seat
        frames = Frames.watch(second)
        await second.goto(h.url + "/lobby")
        row = second.locator(f'li.lobby-seek[data-owner="{ann}"]')
        await row.wait_for()
        assert "people only" in await row.locator(".lobby-wants").inner_text()
        await row.locator("button.lobby-accept").click()
        await second.wait_for_url("**/play/marias?seek=*")
        for p in (first, second):
            await p.wait_for_function(
                "() => document.getElementById('play')?.dataset.status === 'playing'",
                timeout=20_000,
            )
        bea = await second.locator("#play-name").inner_text()
        assert frames.sent[0]["type"] == "sit" and frames.sent[0]["seek"].startswith(
            "person,accept=s"
        )
        for p in (first, second):
            names = [x["name"] for x in (await page_state(p))["players"]]
            assert {ann, bea} <= set(names) and len(names) == 3
        assert h.hall.lobby.snapshot("marias") == []
        # a seek that is gone meanwhile is refused in words, and the page offers the choice
        contexts.append(await chromium.new_context())
        third = await contexts[2].new_page()
        await third.goto(h.url + "/play/marias?seek=person,accept=s999")
        await third.locator("#play-status").filter(has_text="no waiting").wait_for()
        for c in contexts:
            await c.close()


async def test_anyone_with_a_wait_of_the_persons_choosing(tmp_path: Path, browser: Browser) -> None:
    async with marias_hall(tmp_path) as h:
        page = browser.page
        frames = Frames.watch(page)
        await page.goto(h.url + "/play/marias")
        await page.get_by_role("radio", name=re.compile("^anyone ")).check()
        await page.fill("#mar-fill", "2")
        guest = await page.locator("#play-name").inner_text()
        await page.get_by_role("button", name="Sit down").click()

        # waiting: listed in the lobby with the person's own wait (the house tables' seeks
        # come and go meanwhile: this person's is the one looked for)
        def mine() -> list[dict[str, Any]]:
            return [s for s in h.hall.lobby.snapshot("marias") if s["owner"] == guest]

        await eventually(lambda: bool(mine()), 10)
        [seek] = mine()
        assert seek["fill"] == 2 and seek["opponent"] == "anyone"
        assert frames.sent[0]["seek"] == "person,opponent=anyone,fill=2"
        # then house bots sit down and the deal starts
        await page.wait_for_function(
            "() => document.getElementById('play')?.dataset.status === 'playing'", timeout=20_000
        )
        names = [x["name"] for x in (await page_state(page))["players"]]
        assert sum(n.startswith("house-") for n in names) == 2
        assert h.hall.lobby.snapshot("marias") == []

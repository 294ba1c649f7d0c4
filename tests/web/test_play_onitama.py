"""A person plays Onitama in the browser (real Chromium): the page at /play/onitama is one more
client of the Onitama server, over /ws/onitama, speaking its line protocol."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from herna.games.onitama.board import square_name
from herna.servers.onitama.hub import OnitamaHub
from tests.onitama.helpers import blocked_state
from tests.web.conftest import Browser, screenshot_path
from tests.web.play_helpers import (
    Frames,
    eventually,
    play_hall,
    play_one,
    seed_where_second_is_white,
    sit_down,
    state,
    wait_my_turn,
)

pytestmark = pytest.mark.browser

IN_GAME = "() => document.getElementById('play')?.dataset.phase === 'game'"

SENT = re.compile(
    r"^(LOGIN\|guest-[a-z2-9]{8}\|(-|[A-Za-z0-9_-]{32})\|person(,[a-z]+(=[a-z0-9.]+)?)*"
    r"|MAKE_MOVE\|[A-Z][a-z]+\|[a-e][1-5]\|[a-e][1-5]|STALEMATE\|[A-Z][a-z]+)$"
)


def table_of(hub: OnitamaHub, name: str) -> tuple[str, str, tuple[str, ...], str] | None:
    """The server's own game of ``name``: (table id, board, cards, to move)."""
    for table in hub.tables.values():
        if name in (p.name for p in table.players):
            st = table.state
            return table.id, st.board, st.cards(), ("white", "black")[st.to_move]
    return None


async def test_a_whole_game_from_the_home_page_against_a_house_bot(
    tmp_path: Path, browser: Browser
) -> None:
    async with play_hall(tmp_path) as h:
        page = browser.page
        frames = Frames().watch(page)
        await page.goto(h.url + "/")
        await page.get_by_role("link", name="Play Onitama").click()
        await page.wait_for_url("**/play/onitama")
        guest = await page.locator("#play-name").inner_text()
        assert re.fullmatch(r"guest-[a-z2-9]{8}", guest)
        await sit_down(page)
        await page.wait_for_function(IN_GAME)
        await page.screenshot(path=screenshot_path("play-onitama-1280"), full_page=True)
        side = page.locator(".play-side")
        at_start = await side.bounding_box()
        mine = 0
        while await wait_my_turn(page) != "over":
            st = await state(page)
            # what the page shows is the server's game, move by move
            _, board, cards, to_move = table_of(h.onitama.hub, guest) or ("", "", (), "")
            assert (st["board"], tuple(st["cards"]), st["toMove"]) == (board, cards, to_move)
            await play_one(page, by_keyboard=mine % 2 == 1)
            mine += 1
            assert mine < 200
        result = await page.locator("#play-result").inner_text()
        assert re.search(r"^(You lost\. house-1|You) won by the Way of the (Stone|Stream)", result)
        await page.screenshot(path=screenshot_path("play-onitama-over-1280"), full_page=True)
        at_end = await side.bounding_box()  # the moves did not jump for the result line
        assert at_start and at_end and at_end["x"] == at_start["x"], (at_start, at_end)
        moves = await page.locator("#play-moves li").all_inner_texts()
        assert len(moves) >= mine and any(m.startswith(guest + " (") for m in moves)
        assert await page.locator("#play-moves-title").is_visible()  # over the moves
        # the frames: a login, then moves only; the server's START carried this seat's secret
        assert frames.sent[0] == f"LOGIN|{guest}|-|person,opponent=anyone,fill=0,once"
        assert all(SENT.match(f) for f in frames.sent), frames.sent
        assert sum(f.startswith("MAKE_MOVE|") for f in frames.sent) == mine
        start = next(f for f in frames.received if f.startswith("START|"))
        assert re.fullmatch(r"START\|[^|]+\|[^|]+\|([A-Z][a-z]+,){4}[A-Z][a-z]+\|[\w-]{32}", start)
        assert "INVALID_MOVE" not in frames.received
        assert not any(f.startswith("ERROR") for f in frames.received)
        # the game is on record with the guest as one of the players
        h.hall.records.flush()
        recorded = h.hall.records.matches(player=guest, limit=5)
        assert recorded and recorded[0].game == "onitama" and recorded[0].status == "finished"
        # the finished game stays on the screen; the next one starts when asked
        await page.locator("#play-next").click()
        await page.wait_for_function(IN_GAME)
        assert browser.errors == []


async def test_a_reload_mid_game_returns_to_the_same_seat_and_state(
    tmp_path: Path, browser: Browser
) -> None:
    async with play_hall(tmp_path) as h:
        page = browser.page
        await page.goto(h.url + "/play/onitama")
        guest = await page.locator("#play-name").inner_text()
        await sit_down(page)
        for _ in range(2):
            assert await wait_my_turn(page) == "game"
            await play_one(page)
        assert await wait_my_turn(page) == "game"
        before = await state(page)
        table_id = (table_of(h.onitama.hub, guest) or ("",))[0]
        secret = await page.evaluate(
            f"JSON.parse(localStorage.getItem('herna.onitama.seat.{guest}')).secret"
        )
        frames = Frames().watch(page)
        await page.reload()
        assert await page.locator("#play-name").inner_text() == guest  # the signed cookie
        await page.wait_for_function(IN_GAME)
        after = await state(page)
        for key in ("board", "cards", "color", "toMove", "moves", "white", "black"):
            assert after[key] == before[key], key
        assert frames.sent[0] == f"LOGIN|{guest}|{secret}|person,once"
        assert frames.received[:2][-1].startswith(f"RECONNECT|{guest}|{before['color']}|")
        assert h.onitama.hub.stats.reconnects == 1
        assert (table_of(h.onitama.hub, guest) or ("",))[0] == table_id
        # and the game goes on from there
        await play_one(page)
        assert len((await state(page))["moves"]) > len(before["moves"])
        assert browser.errors == []


async def test_two_people_at_one_table_a_third_watches_and_forgeries_change_nothing(
    tmp_path: Path, browser: Browser
) -> None:
    async with play_hall(tmp_path, house_bots=0) as h:
        chromium = browser.page.context.browser
        contexts = [await chromium.new_context() for _ in range(3)]
        pages = [await c.new_page() for c in contexts]
        frames = [Frames().watch(p) for p in pages[:2]]
        for p in pages[:2]:
            await p.goto(h.url + "/play/onitama")
            await sit_down(p, "people")
        names = [await p.locator("#play-name").inner_text() for p in pages[:2]]
        assert names[0] != names[1]  # two browsers, two guests
        for p in pages[:2]:
            await p.wait_for_function(IN_GAME)
        watcher = pages[2]
        await watcher.goto(h.url + "/live/onitama")
        st = [await state(p) for p in pages[:2]]
        assert {st[0]["color"], st[1]["color"]} == {"white", "black"}
        white = 0 if st[0]["color"] == "white" else 1
        black = 1 - white
        # each got its own seat secret, and only its own
        starts = [next(f for f in fr.received if f.startswith("START|")) for fr in frames]
        secrets = [start.split("|")[4] for start in starts]
        assert secrets[0] != secrets[1]
        assert not any(secrets[1] in f for f in frames[0].received)
        assert not any(secrets[0] in f for f in frames[1].received)

        # out of turn: Black's clicks send nothing
        sent_before = len(frames[black].sent)
        await pages[black].locator('rect[data-square="c5"]').click(force=True)
        await pages[black].locator('rect[data-square="c4"]').click(force=True)
        assert len(frames[black].sent) == sent_before
        # forged frames from the pages: the protocol's own answers, nothing changes
        board = table_of(h.onitama.hub, names[0])
        await pages[black].evaluate(
            "window.HernaPlay.send('MAKE_MOVE|' + window.HernaPlay.state.cards[2] + '|c5|c4')"
        )
        w_cards = st[white]["cards"]
        await pages[white].evaluate(f"window.HernaPlay.send('MAKE_MOVE|{w_cards[2]}|c1|c2')")
        await pages[white].evaluate("window.HernaPlay.send('hello')")
        await eventually(lambda: "INVALID_MOVE" in frames[black].received)
        await eventually(lambda: "ERROR|UNKNOWN_COMMAND" in frames[white].received)
        assert "INVALID_MOVE" in frames[white].received
        assert table_of(h.onitama.hub, names[0]) == board
        # a forged seat: another browser presents a wrong secret, or the name alone
        forged = await watcher.evaluate(
            """async (name) => {
                const ws = new WebSocket(`ws://${location.host}/ws/onitama`);
                const got = [];
                await new Promise((ok) => { ws.onopen = ok; });
                ws.onmessage = (ev) => got.push(String(ev.data));
                ws.send(`LOGIN|${name}|${'x'.repeat(32)}`);
                ws.send(`LOGIN|${name}`);
                ws.send('MAKE_MOVE|Tiger|c1|c3');
                // the three answers (a loaded machine may take longer than a moment)
                const until = Date.now() + 10000;
                while (got.length < 3 && Date.now() < until) {
                    await new Promise((ok) => setTimeout(ok, 20));
                }
                ws.close();
                return got;
            }""",
            names[white],
        )
        assert forged[0].startswith("LOGIN_FAILED|BAD_TOKEN|")
        assert forged[1].startswith("LOGIN_FAILED|NAME_IN_USE|")
        assert forged[2] == "ERROR|NOT_LOGGED_IN"
        assert table_of(h.onitama.hub, names[0]) == board
        assert all(p.client is not None for t in h.onitama.hub.tables.values() for p in t.players)

        # they play; the watcher sees every move
        for _ in range(4):
            mover = white if (await state(pages[white]))["toMove"] == "white" else black
            if await wait_my_turn(pages[mover]) == "over":
                break
            await play_one(pages[mover])
        plies = len((await state(pages[white]))["moves"])
        await watcher.wait_for_function(
            f"() => [...document.querySelectorAll('.onitama[data-ply]')]"
            f".some((n) => Number(n.dataset.ply) >= {plies})"
        )
        assert (await state(pages[black]))["board"] == (await state(pages[white]))["board"]
        await watcher.screenshot(path=screenshot_path("play-onitama-watcher"), full_page=True)
        await pages[black].screenshot(path=screenshot_path("play-onitama-black"), full_page=True)
        for c in contexts:
            await c.close()


async def test_the_stalemate_card_choice_when_no_move_is_possible(
    tmp_path: Path, browser: Browser
) -> None:
    seed = seed_where_second_is_white(1)
    async with play_hall(tmp_path, initial_state=blocked_state, seed=seed) as h:
        page = browser.page
        frames = Frames().watch(page)
        await page.goto(h.url + "/play/onitama")
        await sit_down(page)
        await page.wait_for_function("() => window.HernaPlay.state.phase === 'game'")
        assert (await state(page))["color"] == "white"
        # START carries no board: the protocol's games begin at the standard position. This
        # test's game does not, so the page learns the real board the way a returning
        # player does: a reload, and the server's RECONNECT with the whole state.
        await page.reload()
        assert await wait_my_turn(page) == "game"
        assert (await state(page))["board"] == blocked_state().board
        status = await page.locator("#play-status").inner_text()
        assert "no legal move" in status
        assert await page.locator("rect.oni-movable").count() == 0
        buttons = page.locator("button.play-give-up")
        assert await buttons.all_inner_texts() == ["Tiger", "Horse"]
        await page.screenshot(path=screenshot_path("play-onitama-stalemate"), full_page=True)
        await buttons.first.click()
        await eventually(lambda: "STALEMATE_CARD|Tiger|" in "\n".join(frames.received))
        assert "STALEMATE|Tiger" in frames.sent
        guest = await page.locator("#play-name").inner_text()
        await page.wait_for_function("() => window.HernaPlay.state.moves.length >= 1")
        st = await state(page)
        found = table_of(h.onitama.hub, guest)
        if found is not None and found[3] == st["toMove"]:
            assert tuple(st["cards"]) == found[2]
        assert st["moves"][0].startswith(
            f"{guest} ({st['color']}) could not move: swapped Tiger for "
        )


async def test_phone_width_and_keyboard(tmp_path: Path, browser: Browser) -> None:
    async with play_hall(tmp_path) as h:
        page = browser.page
        await page.set_viewport_size({"width": 390, "height": 844})
        await page.goto(h.url + "/")
        wide = await page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1], wide
        await page.goto(h.url + "/play/onitama")
        await sit_down(page)
        assert await wait_my_turn(page) == "game"
        await play_one(page, by_keyboard=True)
        await wait_my_turn(page)
        wide = await page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1], wide
        # Tab reaches the pawns that can move
        await page.locator("#play-status").click()  # (the introduction folds away in a game)
        for _ in range(30):
            await page.keyboard.press("Tab")
            focused = await page.evaluate(
                "document.activeElement && document.activeElement.getAttribute('class')"
            )
            if focused and "oni-movable" in focused:
                break
        else:
            raise AssertionError("no movable pawn reachable with Tab")
        await page.screenshot(path=screenshot_path("play-onitama-390"), full_page=True)
        assert browser.errors == []


async def test_highlighted_targets_are_the_engines_legal_moves(
    tmp_path: Path, browser: Browser
) -> None:
    """The page computes targets from the card table the server gives it; on many positions
    of random games they are exactly the engine's legal moves."""
    from herna.core.rng import SeededRng
    from herna.games.onitama.bots import make_strategy
    from tests.onitama.helpers import dealt

    positions = []
    for seed in range(12):
        rng = SeededRng(seed)
        st = dealt(seed)
        bots = [make_strategy("random", seed=seed + i) for i in range(2)]
        while not st.is_terminal() and st.ply < 80:
            expected = sorted(
                [m.card, square_name(m.frm), square_name(m.to)] for m in st.legal_moves()
            )
            color = ("white", "black")[st.to_move]
            positions.append((st.board, list(st.cards()), color, expected))
            if not st.legal_actions():
                break
            action = bots[st.current_player()].choose(st)
            st = st.apply(action)
            while st.current_player() < 0 and not st.is_terminal():
                st = st.apply(rng.weighted(st.chance_outcomes()))
    assert len(positions) > 300
    async with play_hall(tmp_path, house_bots=0) as h:
        page = browser.page
        await page.goto(h.url + "/play/onitama")
        got = await page.evaluate(
            """(positions) => {
                const table = JSON.parse(document.getElementById('herna-page').textContent).cards;
                return positions.map(([board, cards, color]) =>
                    window.HernaOnitamaRules.legalMoves(table, board, cards, color)
                        .map((m) => m.join(' ')).sort());
            }""",
            [p[:3] for p in positions],
        )
    for (board, cards, color, expected), moves in zip(positions, got, strict=True):
        assert moves == sorted(" ".join(m) for m in expected), (board, cards, color)

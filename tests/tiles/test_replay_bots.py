"""Replays from records, the bots, the text renderer and the browser renderer."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from herna.core.game import CHANCE
from herna.core.rng import SeededRng
from herna.games.tiles.actions import TilesCodec
from herna.games.tiles.bots import GoalBot, make_bot
from herna.games.tiles.engine import new_game
from herna.games.tiles.render import describe_action, render_board, render_legend, tile_lines
from herna.games.tiles.replay import replay_steps
from herna.games.tiles.rules import load_rules_file, shipped_rules
from herna.hall.match import Match, Seat
from herna.hall.records import StoredMatch, utcnow
from tests.chromium import Chromium

WEB = Path(__file__).resolve().parents[2] / "herna" / "web" / "static"


def bot_match(name: str, strategies: list[str], seed: int, max_rounds: int = 60) -> Match[Any]:
    rules = load_rules_file(shipped_rules()[name])
    codec = TilesCodec(rules.n)
    match: Match[Any] = Match(
        "tiles",
        "t1",
        new_game(rules, max_rounds),
        [Seat(f"p{i}", "bot") for i in range(len(rules.players))],
        seed,
        codec,
        meta={"rules": dict(rules.data), "rules_name": name, "max_rounds": max_rounds},
    )
    bots = [
        make_bot(strategies[i % len(strategies)], rules, seed + i)
        for i in range(len(rules.players))
    ]
    while not match.state.is_terminal():
        seat = match.state.current_player()
        actions = [codec.encode(a) for a in match.state.legal_actions()]
        choice = bots[seat].choose(match.state.view(seat), actions)
        match.act(seat, codec.decode(dict(choice)))
    return match


def stored(match: Match[Any]) -> StoredMatch:
    record = match.record()
    return StoredMatch(
        1,
        record.game,
        record.table_id,
        record.seed,
        record.status,
        utcnow(),
        utcnow(),
        record.result,
        record.meta,
        tuple(record.players),
        tuple(record.events),
    )


@pytest.mark.parametrize("name", sorted(shipped_rules()))
def test_records_replay_step_by_step(name: str) -> None:
    match = bot_match(name, ["random"], seed=5)
    steps = replay_steps(stored(match))
    actions = sum(1 for kind, data in match.log if kind == "action" and data["player"] != CHANCE)
    assert len(steps) == actions + 1
    assert steps[0]["label"] == "setup"
    final = steps[-1]["view"]
    assert final["names"] == [f"p{i}" for i in range(len(match.seats))]
    final.pop("names")
    assert final == match.state.view(None)
    # the outcome is shown beside the board (tiles.js): the label does not repeat it
    assert final["outcome"] is not None and "game over" not in steps[-1]["label"]
    for step in steps[1:]:
        assert step["label"].startswith("p") or step["label"].startswith("a tile")
        json.dumps(step)


def test_a_broken_record_gives_a_readable_step() -> None:
    match = bot_match("tsuro", ["random"], seed=1)
    record = stored(match)
    broken = StoredMatch(**{**record.__dict__, "meta": {"rules": {"board": 3}}})
    (step,) = replay_steps(broken)
    assert step["label"].startswith("cannot replay")


def test_goal_bots_win_labyrinth_by_their_goals() -> None:
    match = bot_match("labyrinth", ["goal"], seed=2, max_rounds=80)
    outcome = match.state.outcome()
    assert outcome is not None and outcome.reason == "completed every goal"


def test_goal_bot_beats_random_bots_at_tsuro() -> None:
    wins = 0
    for seed in range(8):
        outcome = bot_match("tsuro", ["goal", "random", "random", "random"], seed).state.outcome()
        assert outcome is not None
        wins += 0 in outcome.winners
    assert wins >= 4  # far above the 2 of 8 that chance would give


def test_goal_bot_avoids_an_elimination_it_can_see() -> None:
    from tests.tiles.helpers import player, rules_data, start, tile

    # Player 0 moves right along a corridor; (2,0) kills, (1,1) below is safe.
    tiles = [
        tile("L0,R0", at=(0, 0)),
        tile("L0,R0,D0", at=(1, 0)),
        tile("L0,R0", at=(2, 0), effects=["eliminate"]),
        tile("U0,D0", at=(1, 1)),
        tile("L0,R0", at=(0, 1)),
        tile("L0,R0", at=(2, 1)),
    ]
    data = rules_data(
        3,
        2,
        tiles,
        [player(0, 0, "L"), player(0, 1, "L")],
        min_move_distance=1,
        max_move_distance=2,
    )
    rules = start(data).rules
    state = start(data)
    codec = TilesCodec(rules.n)
    bot = GoalBot(rules, seed=0)
    actions = [codec.encode(a) for a in state.legal_actions()]
    assert any(a["x"] == 2 for a in actions)
    for seed in range(5):
        bot.rng = SeededRng(seed)
        assert bot.choose(state.view(0), actions)["x"] != 2


def test_text_rendering() -> None:
    rules = load_rules_file(shipped_rules()["labyrinth"])
    state = new_game(rules)
    rng = SeededRng(1)
    while state.current_player() == CHANCE:
        state = state.apply(rng.weighted(state.chance_outcomes()))
    view = state.view(0)
    board = render_board(view)
    lines = board.splitlines()
    assert len(lines) == 1 + 7 * 3 and all(len(line) == len(lines[1]) for line in lines[1:])
    # columns and rows numbered from 1, as people count (the rules file counts from 0)
    assert lines[0].split() == [str(x) for x in range(1, 8)]
    assert [line.split()[0] for line in lines[1:] if line[:4].strip()] == [
        str(y) for y in range(1, 8)
    ]
    assert "1" in lines[3][4:]  # the first player's mark on its start point
    legend = render_legend(view, ["ann", "bob", "cy", "dee"])
    assert legend.startswith(">1 ann: at (1, 1) D0") and "Pile: 1 tile(s)" in legend
    assert tile_lines(None, 1)[1].strip() == "·"
    assert tile_lines({"face_down": True}, 2)[0] == "░" * 11
    assert (
        describe_action({"type": "push", "row": 3, "direction": "right", "rotation": 1})
        == "push row 4 right, tile turned 90°"
    )


@pytest.mark.browser
async def test_browser_renderer_draws_every_shipped_game(chromium: Chromium) -> None:
    views = {}
    for name in sorted(shipped_rules()):
        match = bot_match(name, ["random"], seed=3, max_rounds=3)
        views[name] = match.state.view(None)
    script = (WEB / "games" / "tiles.js").read_text()
    hall = (WEB / "hall.js").read_text()
    async with chromium.context() as browser:
        page = await browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        for view in views.values():
            html = (
                "<html><body><div id=c></div>"
                f"<script>{hall}</script><script>{script}</script><script>"
                "window.HernaGames.tiles.render(document.getElementById('c'), "
                f"{json.dumps(view)}, {{data: {{label: 'hello', "
                f"players: {json.dumps([f'p{i}' for i in range(4)])}}}}});"
                "</script></body></html>"
            )
            await page.set_content(html)
            cells = view["width"] * view["height"]
            tiles = sum(1 for row in view["board"] for c in row if c is not None)
            assert await page.locator("svg.tiles-board g.tiles-tile").count() == cells
            paths = sum(len(c.get("connections", [])) for row in view["board"] for c in row if c)
            assert await page.locator("svg.tiles-board path").count() == 2 * paths
            alive = sum(1 for p in view["players"] if not p["eliminated"])
            assert await page.locator("g.tiles-player-mark").count() == alive
            assert await page.locator(".tiles-player").count() == len(view["players"])
            assert "hello" in await page.locator(".tiles-label").inner_text()
            # words, not the view's codes: players from 1, places as columns and rows, goals
            # as the play page says them, one apart from the next
            side = await page.locator(".tiles-side").inner_text()
            assert not re.search(r"\b[URDL]\d\b|\(\d+, \d+\)|tile\(s\)|'reach|reach \d", side)
            first = await page.locator(".tiles-player").first.inner_text()
            assert first.lstrip("▶ ").startswith("1 p0"), first
            goals = [g["goal"] for p in view["players"] for g in p["goals"] if g["goal"]]
            if any(g.startswith("reach ") for g in goals):
                assert "reach the tile in column " in side
            assert tiles > 0
        assert errors == []


@pytest.mark.browser
async def test_browser_renderer_names_items_and_fits_a_phone(chromium: Chromium) -> None:
    """Issue 15 item 8: items on the board by name (not a first letter), no sideways
    scrolling at 390 px."""
    view = bot_match("labyrinth", ["random"], seed=3, max_rounds=1).state.view(None)
    on_board = sorted(
        {name for row in view["board"] for c in row if c for name in c.get("items", {})}
    )
    assert len(on_board) > 5
    script = (WEB / "games" / "tiles.js").read_text()
    hall = (WEB / "hall.js").read_text()
    async with chromium.context(viewport={"width": 390, "height": 844}) as browser:
        page = await browser.new_page()
        html = (
            "<html><head><meta name=viewport content='width=device-width'></head>"
            "<body style='margin:0'><div id=c></div>"
            f"<script>{hall}</script><script>{script}</script><script>"
            "window.HernaGames.tiles.render(document.getElementById('c'), "
            f"{json.dumps(view)}, {{data: {{}}}});"
            "</script></body></html>"
        )
        await page.set_content(html)
        shown = await page.evaluate(
            "[...document.querySelectorAll('svg.tiles-board text.tiles-item')]"
            ".map((t) => t.firstChild.nodeValue)"
        )
        assert sorted(t.split(" ×")[0] for t in shown) == on_board
        assert all(len(t) > 1 for t in shown)
        scroll = await page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= 390, scroll

"""The turn-based servers (mariáš over CGML, Onitama, tiles) under `herna serve` with house
players: the web hall forwards exactly the spectator views they publish, never a hidden
card, and the browser draws every live table."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from herna.web.plugin import WebHall
from tests.serve import serving
from tests.web.conftest import Browser, screenshot_path

GAMES = ("marias", "onitama", "tiles")
CARD = re.compile(r"^[A-Z]\d[0-9AJQKX]$")


def _cards(value: Any) -> set[str]:
    """Every card code anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(_cards(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_cards(v) for v in value)) if value else set()
    return set()


def _check_marias_view(view: dict[str, Any]) -> int:
    """A spectator of mariáš sees no hand, no talon, and no card before it is played.
    Returns how many cards the view shows."""
    assert view["seat"] is None
    assert "hand" not in view and "talon" not in view
    if view["phase"] == "done":
        return 0  # the deal has ended: its settlement may show anything
    played = {
        text.split()[1]
        for _, text in view["history"]
        if isinstance(text, str) and text.startswith("play ")
    }
    claimed = {c for _, text in view["history"] if "claim" in str(text) for c in _cards(text)}
    shown = _cards({k: v for k, v in view.items() if k != "history"})
    assert shown <= played | claimed, f"unplayed cards visible: {shown - played - claimed}"
    return len(shown)


@pytest.mark.browser
async def test_turn_based_live_views_forward_spectator_views_only(
    tmp_path: Path, browser: Browser
) -> None:
    async with serving(tmp_path, "marias,onitama,tiles,web") as hall:
        web = hall.service("web")
        assert isinstance(web, WebHall)
        page = browser.page
        await page.goto(web.url + "/live")
        seen: dict[str, int] = {}
        cards_checked = 0
        async with connect(f"ws://127.0.0.1:{web.port}/ws/live", max_size=None) as ws:
            deadline = time.monotonic() + 6
            while time.monotonic() < deadline and not (
                seen.get("marias", 0) >= 5
                and all(seen.get(g, 0) >= 2 for g in GAMES)
                and cards_checked
            ):
                try:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 1))
                except TimeoutError:
                    continue
                for table in frame["tables"]:
                    game, view, event = table["game"], table["view"], table["event"]
                    if game not in GAMES or event is None:
                        continue
                    if "view" in event["data"]:
                        # exactly what the server published, nothing added or kept back
                        assert view == event["data"]["view"]
                    for ev in table["events"]:
                        assert "view" not in ev["data"]
                    if game == "marias" and view is not None:
                        cards_checked += _check_marias_view(view)
                    seen[game] = seen.get(game, 0) + 1
        assert all(seen.get(g, 0) >= 1 for g in GAMES), seen
        assert cards_checked > 0  # some views showed played cards, and only those

        for game in GAMES:
            card = page.locator(f'section.table[data-game="{game}"] .view').first
            await card.wait_for()
            renderer = await card.get_attribute("data-renderer")
            has_renderer = (web.web.settings.static_dir / "games" / f"{game}.js").exists()
            assert renderer == (game if has_renderer else "json"), (game, renderer)
        await page.screenshot(path=screenshot_path("e2e-live-all"), full_page=True)
        assert browser.errors == []

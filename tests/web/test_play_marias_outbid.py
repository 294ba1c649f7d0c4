"""After winning the licitace at lepší hra the announcement says why a game in another suit
needs a sedma (the hearts bid), not "The licitace makes the sedma part of this game" — reached
by clicks in real Chromium at 390x844."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Browser
from tests.web.play_helpers import in_viewport

pytestmark = pytest.mark.browser


async def to_lepsi_hra_announcement(page: Any, deals: int = 25) -> dict[str, Any]:
    """Bid lepší hra (or say mám to it, nemám to anything else) until this seat wins the
    licitace at lepší hra; the state at the announcement question."""
    from tests.web.test_play_marias import MY_TURN, answer, page_state

    for _ in range(2000):
        await page.wait_for_function(MY_TURN, timeout=30_000)
        st = await page_state(page)
        d = st["decision"]
        assert st["deals"] < deals, "never won at lepší hra"
        seq = st["seq"]
        pick = None
        if d["kind"] == "gametype":
            if d["prompt"].endswith("(you won lepší hra)"):
                return st
            pick = d["options"][0]
        elif d["kind"] == "licite":
            answers = {o["label"].split()[0]: o for o in d["options"] if o["kind"] == "answer"}
            if answers:
                pick = answers["mám" if "lepší hra" in d["prompt"] else "nemám"]
            else:
                bids = {o["label"]: o for o in d["options"] if o["kind"] == "bid"}
                pick = bids.get("lepší hra") or next(
                    o for o in d["options"] if o["label"] != "lepší hra" and "pass" in o["label"]
                )
        elif d["kind"] == "discard":
            pick = next(
                (o for o in d["options"] if not any(c[1:] in ("0A", "10") for c in o["cards"])),
                d["options"][0],
            )
        if pick is None:
            await answer(page)
            continue
        await page.evaluate("(id) => window.HernaMarias.act(id)", pick["id"])
        await page.wait_for_function(
            f"() => Number(document.getElementById('play')?.dataset.seq) > {seq}"
        )
    raise AssertionError("no announcement at lepší hra")


async def test_after_lepsi_hra_the_page_says_the_game_is_in_cervene(
    tmp_path: Path, browser: Browser
) -> None:
    from tests.web.test_play_marias import marias_hall, sit

    async with marias_hall(tmp_path) as h:
        page = browser.page
        await page.set_viewport_size({"width": 390, "height": 844})
        await sit(page, h.url, level="easy")
        await to_lepsi_hra_announcement(page)
        prompt = page.locator("#mar-prompt")
        await prompt.locator('button.mar-step[data-kind="hra"]').click()
        hint = prompt.locator(".mar-outbid")
        await hint.wait_for()
        assert "Lepší hra was bid: the game is in červené (hearts)" in await hint.inner_text()
        suits = await prompt.locator("button.mar-step[data-suit]").evaluate_all(
            "bs => bs.map(b => b.dataset.suit)"
        )
        other = [s for s in suits if s != "R"]
        assert "R" in suits and other, suits
        await prompt.locator(f'button.mar-step[data-suit="{other[0]}"]').click()
        text = await prompt.inner_text()
        assert "The licitace makes the sedma" not in text, text
        assert "Lepší hra was bid: the game is in červené (hearts); in " in text, text
        assert "only sedma or higher outbids it" in text, text
        announce = prompt.locator("button.mar-choice")
        assert "sedma" in await announce.inner_text()
        assert await in_viewport(page, "#mar-prompt button.mar-choice")
        assert browser.errors == []

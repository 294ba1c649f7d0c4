"""The balance page for tile-game designers: ``/tools/balance`` and its WebSocket
``/ws/balance``.

A designer picks a rules file; the page sends its text, the number of games and the house
bots' level over the WebSocket. The hall checks the file as ``herna rules check`` does (the
same checks and limits) and plays the games, both in the worker processes of one
:class:`~herna.servers.tiles.balance.BalancePool` (niced: the game servers go first), so the
event loop only passes messages on. It answers::

    {"type": "problems", "problems": [{"path": …, "message": …, "severity": …}, …]}
    {"type": "progress", "done": 40, "total": 200}
    {"type": "report", "report": {…}}       (BalanceReport.to_json, with the words)
    {"type": "error", "message": "…"}       (busy, too many games, a bad message)

One report at a time per connection and :data:`MAX_RUNNING` in the whole hall; closing the
page cancels its games not yet begun.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket, WebSocketDisconnect

from herna.games.tiles.bots import DEFAULT_LEVEL, LEVEL_NAMES
from herna.games.tiles.rules import rules_title, shipped_rules
from herna.protocols.tiles import MAX_LINE_BYTES
from herna.servers.tiles.balance import BalanceJob, BalancePool
from herna.web.i18n import CURRENT_LOCALE
from herna.web.i18n import gettext as _
from herna.web.play_tiles import LEVEL_LABELS, LEVEL_TEXT
from herna.web.templating import render

log = logging.getLogger(__name__)

MAX_GAMES = 1000
"""Most games one report from the page plays (the command line has no limit)."""
DEFAULT_GAMES = 100
MAX_RUNNING = 2
"""Reports being played at once in the whole hall; more are refused until one is done."""
MAX_TEXT = MAX_LINE_BYTES
"""The largest rules file the page takes: a WebSocket frame of the web hall holds a little
more (``herna.web.play.MAX_FRAME_BYTES``); ``herna rules balance`` takes larger files."""
PROGRESS_EVERY = 0.1
"""Seconds between progress messages at most (batches may finish faster)."""


def page_body() -> str:
    return render(
        "balance.html",
        examples=[(name, rules_title(name, CURRENT_LOCALE.get())) for name in shipped_rules()],
        max_games=MAX_GAMES,
        default_games=DEFAULT_GAMES,
        levels=[(n, _(LEVEL_LABELS[n]), _(LEVEL_TEXT[n])) for n in LEVEL_NAMES],
        default_level=DEFAULT_LEVEL,
    )


class BalancePage:
    """``/tools/balance`` and ``/ws/balance`` (one per web hall)."""

    def __init__(
        self,
        render: Callable[[str, str, dict[str, Any]], Response],
        pool: BalancePool | None = None,
    ) -> None:
        self.render = render
        self.pool = pool or BalancePool(nice=10)
        self.running = 0

    async def page(self, request: Request) -> Response:
        data = {"kind": "balance", "max_games": MAX_GAMES, "max_bytes": MAX_TEXT}
        return self.render(_("Balance of a tile game"), page_body(), data)

    async def socket(self, ws: WebSocket) -> None:
        await ws.accept()
        task: asyncio.Task[None] | None = None
        try:
            while True:
                try:
                    text = await ws.receive_text()
                except (WebSocketDisconnect, KeyError, RuntimeError):
                    return
                if task is not None and not task.done():
                    await _send(ws, {"type": "error", "message": _("A report is being played.")})
                    continue
                task = asyncio.ensure_future(self._one(ws, text))
        finally:
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
            with contextlib.suppress(Exception):
                await ws.close()

    async def _one(self, ws: WebSocket, text: str) -> None:
        request = _parse(text)
        if isinstance(request, str):
            await _send(ws, {"type": "error", "message": request})
            return
        if self.running >= MAX_RUNNING:
            await _send(
                ws,
                {
                    "type": "error",
                    "message": _("The hall is playing other reports; try again in a minute."),
                },
            )
            return
        rules_text, name, games, level = request
        self.running += 1
        try:
            checked = await self.pool.check_async(rules_text, name)
            if checked.rules is None:
                problems = [p.to_json() for p in checked.problems]
                await _send(ws, {"type": "problems", "problems": problems})
                return
            last = 0.0
            loop = asyncio.get_running_loop()

            async def progress(done: int, total: int) -> None:
                nonlocal last
                if done < total and loop.time() - last < PROGRESS_EVERY:
                    return
                last = loop.time()
                await _send(ws, {"type": "progress", "done": done, "total": total})

            await _send(ws, {"type": "progress", "done": 0, "total": games})
            job = BalanceJob(
                json.loads(rules_text), len(checked.rules.players), games, level, name=name
            )
            report = await self.pool.report_async(job, progress)
            # the rules as people read them (an example's title in the page's language)
            words = {**report.to_json(), "rules": rules_title(name, CURRENT_LOCALE.get())}
            await _send(ws, {"type": "report", "report": words})
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a balance report failed")
            await _send(ws, {"type": "error", "message": _("The report failed; the log says why.")})
        finally:
            self.running -= 1

    def close(self) -> None:
        self.pool.close()


def _parse(text: str) -> tuple[str, str, int, str] | str:
    """(rules text, name, games, level) from a request, or what is wrong with it in words."""
    try:
        message = json.loads(text)
    except ValueError:
        return _("The page sent something that is not JSON.")
    if not isinstance(message, dict):
        return _("The page sent something that is not a request.")
    example = message.get("example")
    rules = message.get("rules")
    if isinstance(example, str) and example:
        path = shipped_rules().get(example)
        if path is None:
            return _("There is no such example.")
        rules, name = path.read_text(encoding="utf-8"), example
    else:
        name = str(message.get("name") or "your rules").removesuffix(".json")[:80]
    if not isinstance(rules, str) or not rules.strip():
        return _("Choose a rules file first.")
    if len(rules.encode("utf-8")) > MAX_TEXT:
        return _("The file is larger than %(kib)s KiB, the most this page takes.") % {
            "kib": MAX_TEXT // 1024
        }
    games = message.get("games")
    if not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= MAX_GAMES:
        return _("The number of games must be from 1 to %(most)s.") % {"most": MAX_GAMES}
    level = message.get("level", DEFAULT_LEVEL)
    if level not in LEVEL_NAMES:
        return _("Choose the house bots' level from the list.")
    return rules, name, games, level


async def _send(ws: WebSocket, message: dict[str, Any]) -> None:
    with contextlib.suppress(Exception):  # the page went away: nothing to tell
        await ws.send_text(json.dumps(message, separators=(",", ":")))

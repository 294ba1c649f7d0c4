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
from herna.games.tiles.narrate import end_words, goal_words
from herna.games.tiles.rules import rules_title, shipped_rules
from herna.protocols.tiles import MAX_LINE_BYTES
from herna.servers.tiles.balance import BalanceJob, BalancePool
from herna.web.i18n import CURRENT_LOCALE, N_, format_number
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
            words = in_words(report.to_json(), name, CURRENT_LOCALE.get())
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


ENDINGS = {
    "winner": N_("one winner"),
    "shared": N_("a shared win or no winner"),
    "stalled": N_("stalled (no progress for a full round)"),
    "limit": N_("stopped at the round limit"),
}
"""herna.games.tiles.balance.ENDING_WORDS in the page's language."""
MEASURES = {
    "AdvantageP1": (N_("First seat's win rate"), N_("%(share)s (a fair share is %(fair)s)")),
    "Balance": (
        N_("Balance between seats"),
        N_("%(share)s (100 %% when every seat wins as often)"),
    ),
    "Completion": (
        N_("Games that ended by the rules"),
        N_("%(share)s (the others stopped at the round limit)"),
    ),
    "Drawishness": (
        N_("Games with no single winner"),
        N_("%(share)s (shared wins, ties and stalls)"),
    ),
    "Duration": (N_("Average length"), N_("%(turns)s turns")),
    "Decisiveness": (N_("Games with a single winner"), "%(share)s"),
}
"""The report's headline figures (its ``measures``, by Ludii's name) in the page's language."""
UNFAIR = {
    "more": N_(
        "Seat %(seat)s wins %(share)s of the games (95 %% interval %(low)s to %(high)s), more "
        "than a fair share of %(fair)s."
    ),
    "less": N_(
        "Seat %(seat)s wins %(share)s of the games (95 %% interval %(low)s to %(high)s), less "
        "than a fair share of %(fair)s."
    ),
}
AT_LIMIT = N_(
    "%(n)s of %(games)s games stopped at the round limit: the rules may let a game go on for ever."
)


def _pct(x: float) -> str:
    return f"{100 * x:.0f} %"


def in_words(report: dict[str, Any], name: str, lang: str) -> dict[str, Any]:
    """A report (``BalanceReport.to_json``, worded in English by the engine's module) as the
    page's language says it: the rules by their title, the endings, the reasons, the goals,
    the headline figures and the warnings."""
    out = {**report, "rules": rules_title(name, lang)}
    if lang == "en":
        return out
    fair = report["fair_share"]
    out["endings"] = [{**x, "words": _(ENDINGS[x["ending"]])} for x in report["endings"]]
    out["reasons"] = [{**x, "reason": end_words(x["reason"], lang)} for x in report["reasons"]]
    out["goals"] = [{**g, "words": goal_words(g["goal"], lang)} for g in report["goals"]]
    measures = []
    for m in report["measures"]:
        label, text = MEASURES[m["ludii"]]
        values = {
            "share": _pct(m["value"]),
            "fair": _pct(fair),
            "turns": format_number(m["value"], 1),
        }
        measures.append({**m, "name": _(label), "text": _(text) % values})
    out["measures"] = measures
    warnings = [
        _(UNFAIR[x["unfair"]])
        % {
            "seat": x["seat"] + 1,
            "share": _pct(x["rate"]),
            "low": _pct(x["low"]),
            "high": _pct(x["high"]),
            "fair": _pct(fair),
        }
        for x in report["seats"]
        if x["unfair"]
    ]
    limit = sum(x["games"] for x in report["endings"] if x["ending"] == "limit")
    if limit:
        warnings.append(_(AT_LIMIT) % {"n": limit, "games": report["games"]})
    out["warnings"] = warnings
    return out


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

"""The WebSocket plumbing every browser seat's page shares (``/ws/marias``, ``/ws/mia``).

A page's frames are JSON objects; its replies wait in a queue that one sender task drains,
so a slow browser never holds up the game. A seat's whole state goes out as one
``{"type": "state"}`` marker that the sender fills in when it sends it: several changes
while a frame is queued cost one frame. States go out at most every :data:`STATE_GAP`
seconds (the newest one then): a stand-in and house bots that answer without delay change
a seat hundreds of times a second, and a page sent every one of those spends its whole time
drawing them, so its buttons and Playwright's clicks wait behind the flood. A page that
sends :data:`MAX_BAD_FRAMES` bad frames in a row is closed (after the errors queued so far).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

MAX_BAD_FRAMES = 50
STATE_GAP = 0.05
"""Seconds at least between two state frames to a page (20 a second: faster than a person
reads, slower than a page can draw)."""

Problem = tuple[str, str]
"""``(code, message)`` of a frame that changed nothing."""


@dataclass
class SeatPage:
    """One page on a seat's WebSocket."""

    ws: WebSocket
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)
    state_due: bool = False

    def push_state(self) -> None:
        """Send the seat's state soon (once, however often it changes meanwhile)."""
        if not self.state_due:
            self.state_due = True
            self.queue.put_nowait({"type": "state"})


def read_frame(text: str | None, max_frame: int) -> dict[str, Any] | Problem:
    """A frame as a JSON object, or the problem with it."""
    if text is None:
        return ("BAD_MESSAGE", "Frames are JSON text.")
    if len(text.encode("utf-8")) > max_frame:
        return ("TOO_LARGE", "That message is too long.")
    try:
        frame = json.loads(text)
    except ValueError:
        return ("BAD_MESSAGE", "Messages are JSON objects.")
    if not isinstance(frame, dict):
        return ("BAD_MESSAGE", "Messages are JSON objects with a type.")
    return frame


async def serve_page(
    page: SeatPage,
    max_frame: int,
    handle: Callable[[dict[str, Any]], Awaitable[Problem | None]],
    error: Callable[[Problem], None],
    state: Callable[[], dict[str, Any] | None],
) -> None:
    """Run an accepted page until it goes: each good frame to ``handle``, each problem to
    ``error`` (which queues its frame); ``state`` gives the seat's state for a state marker
    (``None``: no seat, nothing is sent)."""
    sender = asyncio.get_running_loop().create_task(_send_loop(page, state))
    bad = 0
    try:
        while True:
            received = await page.ws.receive()
            if received["type"] == "websocket.disconnect":
                break
            frame = read_frame(received.get("text"), max_frame)
            problem = await handle(frame) if isinstance(frame, dict) else frame
            if problem is None:
                bad = 0
                continue
            bad += 1
            error(problem)
            if bad >= MAX_BAD_FRAMES:
                # The errors queued so far go out first, then the close.
                page.queue.put_nowait(None)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(sender), 2.0)
                await page.ws.close(1008, "too many bad messages")
                break
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        page.queue.put_nowait(None)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


async def _send_loop(page: SeatPage, state: Callable[[], dict[str, Any] | None]) -> None:
    ws = page.ws
    loop = asyncio.get_running_loop()
    next_state = 0.0
    while True:
        item = await page.queue.get()
        if item is None or ws.application_state != WebSocketState.CONNECTED:
            return
        if item.get("type") == "state" and len(item) == 1:
            wait = next_state - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)  # changes meanwhile go out in this one frame
            if ws.application_state != WebSocketState.CONNECTED:
                return
            page.state_due = False
            next_state = loop.time() + STATE_GAP
            item = state()
            if item is None:
                continue
        try:
            await ws.send_text(json.dumps(item, ensure_ascii=False))
        except Exception:  # the page is gone; its receive loop cleans up
            return


__all__ = ["MAX_BAD_FRAMES", "STATE_GAP", "Problem", "SeatPage", "read_frame", "serve_page"]

"""``/play/mia`` and ``/ws/mia``: people play Mia (Mäxchen) in the browser.

One authority per table: the browser seat is one more UDP client of the hall's **people's
table** (:mod:`herna.servers.mia.people`, a person's answer window). For each seat the web
hall runs a :class:`~herna.clients.mia_seat.MiaSeat`, which registers the person's name with
the seed's ``REGISTER`` over UDP and speaks the seed's messages; the page talks JSON with the
web hall over ``/ws/mia``. The seat sends the page what this player may know (its own dice
only) and turns clicks into ``ROLL``, ``SEE`` and ``ANNOUNCE``; the table judges every one.

The seat belongs to the session: it is found by the name the signed session cookie gives
(the signed-in person's, else the guest's), so a reload, a second tab or a page that lost
its connection is back at the same seat with its score, and no other browser can reach it.
When the last page of a seat is gone, the seat waits ``grace`` seconds for one to come
back, then leaves the table (``UNREGISTER``; the points stay in the hall's records and count
again when the person sits down).

Frames (docs/web.md, "Play Mia"): page → hall ``{"type": "hello"}`` (which seat this session
has), ``{"type": "sit"}``, ``{"type": "act", "action": "roll" | "see" | "announce",
"dice"?: "6,5"}``, ``{"type": "leave"}``; hall → page ``{"type": "state", "seq", ...}`` (the
seat's whole state, :meth:`MiaSeat.state`), ``{"type": "away"}`` (this session has no seat)
and ``{"type": "error", "code", "message"}`` (nothing changed).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.websockets import WebSocket

from herna.clients.mia_seat import MiaSeat
from herna.core.lang import lang_of
from herna.games.mia.bots import LEVELS
from herna.games.mia.words import strategy_words
from herna.hall.hall import Hall
from herna.web.guests import Guests
from herna.web.i18n import CURRENT_LOCALE, N_, _, format_number
from herna.web.seat_socket import Problem, SeatPage, serve_page
from herna.web.templating import render

log = logging.getLogger(__name__)

GRACE = 15.0
"""Seconds a seat waits for a page of its person before it leaves the table: a reload is
back within a second or two, and a seat nobody watches makes the table wait for its answers
(the people's table's window each time)."""
MAX_SEATS = 200
MAX_FRAME = 512


@dataclass
class _Seat:
    name: str
    seat: MiaSeat
    pages: set[int] = field(default_factory=set)
    timer: asyncio.TimerHandle | None = None


@dataclass
class _Page(SeatPage):
    seat: _Seat | None = None


class MiaPlay:
    """The play page and the WebSocket of browser seats at the people's table."""

    def __init__(
        self,
        hall: Hall,
        guests: Guests,
        render: Callable[[str, str, dict[str, Any]], HTMLResponse],
        grace: float = GRACE,
    ) -> None:
        self.hall = hall
        self.guests = guests
        self.render = render
        self.grace = grace
        self.seats: dict[str, _Seat] = {}
        self._leaving: set[asyncio.Task[None]] = set()
        """Seats leaving after their grace (kept so the tasks are not collected midway)."""
        self._pages: dict[int, _Page] = {}
        self._next = 0

    def _people(self) -> Any:
        """The people's table of the hall's Mia server, if it runs here."""
        return getattr(self.hall.service("mia"), "people", None)

    # -- the page ---------------------------------------------------------------------------
    async def page(self, request: Request) -> Response:
        name, new = self.guests.of(request)
        people = self._people()
        data: dict[str, Any] = {"kind": "play", "game": "mia", "guest": name}
        data["running"] = people is not None
        if people is not None:
            data["window"] = people.answer_window
        response = self.render(_("Play Mia"), page_html(name, people, self.grace), data)
        if new:
            self.guests.remember(response, name, request.url.scheme == "https")
        response.headers["cache-control"] = "no-store"
        return response

    # -- the WebSocket ----------------------------------------------------------------------
    async def socket(self, ws: WebSocket) -> None:
        await ws.accept()
        pid = self._next
        self._next += 1
        page = _Page(ws)
        self._pages[pid] = page
        name, _new = self.guests.of(ws)
        # The page's language (LocaleContext reads it for the socket as for a page): this
        # page's state and errors are worded in it, whatever language other pages of the
        # same seat speak.
        lang = lang_of(CURRENT_LOCALE.get())

        async def handle(frame: dict[str, Any]) -> Problem | None:
            return await self._frame(pid, page, name, frame, lang)

        try:
            await serve_page(
                page,
                MAX_FRAME,
                handle,
                lambda p: page.queue.put_nowait({"type": "error", "code": p[0], "message": p[1]}),
                lambda: page.seat.seat.state(lang) if page.seat is not None else None,
            )
        finally:
            self._pages.pop(pid, None)
            if page.seat is not None:
                self._detach(page.seat, pid)

    async def _frame(
        self, pid: int, page: _Page, name: str, frame: dict[str, Any], lang: str
    ) -> Problem | None:
        kind = frame.get("type")
        if kind == "hello":
            found = self.seats.get(name)
            if found is not None and not found.seat.done:
                self._attach(found, pid)
            else:
                page.queue.put_nowait({"type": "away"})
            return None
        if kind == "sit":
            level = frame.get("bots") or ""
            if level and level not in LEVELS:
                return (
                    "BAD_LEVEL",
                    _("Choose the house bots' level: %(levels)s.") % {"levels": ", ".join(LEVELS)},
                )
            return self._sit(pid, page, name, str(level), lang)
        seat = page.seat
        if kind == "act":
            if seat is None:
                return ("NO_SEAT", _("Sit down at the table first."))
            return seat.seat.act(frame.get("action"), frame.get("dice"), lang)
        if kind == "leave":
            if seat is None:
                return ("NO_SEAT", _("You have no seat to leave."))
            await self._leave(seat)
            return None
        return ("BAD_MESSAGE", _("Unknown message type %(type)s.") % {"type": repr(str(kind)[:20])})

    def _sit(
        self, pid: int, page: _Page, name: str, level: str = "", lang: str = "en"
    ) -> Problem | None:
        found = self.seats.get(name)
        if found is not None and not found.seat.done:
            self._attach(found, pid)  # the session's seat: the same one, wherever it is opened
            return None
        people = self._people()
        if people is None:
            return ("NOT_RUNNING", _("The Mia people's table is not running in this hall."))
        for gone in [x for x in self.seats.values() if x.seat.done and not x.pages]:
            del self.seats[gone.name]  # refused or left: nothing to come back to
        if sum(1 for x in self.seats.values() if not x.seat.done) >= MAX_SEATS:
            return ("FULL", _("The hall has no room for another browser seat now; try later."))
        host, port = people.server.address[:2]
        if host in ("0.0.0.0", "::", ""):
            host = "127.0.0.1"
        token = self.guests.token(page.ws)  # a signed-in person's proof of the name
        # The seat's own language (what herna play mia would print) is the first page's.
        mia = MiaSeat(
            host, port, name, token=token, window=people.answer_window, level=level, lang=lang
        )
        seat = _Seat(name, mia)
        seat.seat.on_change = lambda: self._changed(seat)
        self.seats[name] = seat
        seat.seat.start()
        self._attach(seat, pid)
        return None

    async def _leave(self, seat: _Seat) -> None:
        if self.seats.get(seat.name) is seat:
            del self.seats[seat.name]
        if seat.timer is not None:
            seat.timer.cancel()
            seat.timer = None
        await seat.seat.stop()
        for pid in list(seat.pages):
            page = self._pages.get(pid)
            if page is not None:
                page.seat = None
                page.queue.put_nowait({"type": "away"})
        seat.pages.clear()

    def _attach(self, seat: _Seat, pid: int) -> None:
        seat.pages.add(pid)
        page = self._pages.get(pid)
        if page is not None:
            page.seat = seat
        if seat.timer is not None:
            seat.timer.cancel()
            seat.timer = None
        self._push(pid)

    def _detach(self, seat: _Seat, pid: int) -> None:
        seat.pages.discard(pid)
        if seat.pages or self.seats.get(seat.name) is not seat:
            return
        seat.timer = asyncio.get_running_loop().call_later(self.grace, self._grace_over, seat)

    def _grace_over(self, seat: _Seat) -> None:
        seat.timer = None
        if not seat.pages:
            log.info("mia browser seat %s: no page for %g s; it leaves", seat.name, self.grace)
            task = asyncio.get_running_loop().create_task(self._leave(seat))
            self._leaving.add(task)
            task.add_done_callback(self._leaving.discard)

    def _changed(self, seat: _Seat) -> None:
        for pid in list(seat.pages):
            self._push(pid)

    def _push(self, pid: int) -> None:
        page = self._pages.get(pid)
        if page is not None:
            page.push_state()

    async def stop(self) -> None:
        for seat in list(self.seats.values()):
            await self._leave(seat)


LEVEL_WORDS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}
"""The house bots' levels (herna.games.mia.bots.LEVELS) as the page names them."""


def page_html(name: str, people: Any, grace: float) -> str:
    """The page where a person plays Mia (templates/play_mia.html, drawn and driven by
    static/play-mia.js), in the page's language."""
    if people is None:
        return render("play_mia.html", running=False)
    return render(
        "play_mia.html",
        running=True,
        guest=name,
        window=format_number(people.answer_window, 1),
        grace=format_number(grace, 1),
        levels=level_choice(getattr(people, "levels", {})),
    )


def level_choice(levels: dict[str, list[tuple[str, str]]]) -> list[tuple[str, str, str]]:
    """The house bots' levels as ``(value, label, the bots in words)``, with the bots' names
    (the operator's bots first, as the default); none when the table has no levels."""
    if not levels:
        return []
    lang = CURRENT_LOCALE.get()

    def bots(level: str) -> str:
        return "; ".join(f"{n} {strategy_words(s, lang)}" for n, s in levels[level])

    options = [("", _("the hall's choice"), bots(""))]
    options += [(level, _(LEVEL_WORDS[level]), bots(level)) for level in LEVELS if level in levels]
    return options


__all__ = ["MiaPlay", "page_html"]

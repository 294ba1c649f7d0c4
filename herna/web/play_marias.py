"""``/play/marias`` and ``/ws/marias``: people play licitovaný mariáš in the browser.

One authority per table: the browser seat is one more CGML client of the hall's own login
server and super game server. For each seat the web hall opens a real CGML connection over TCP
to 127.0.0.1 (:class:`~herna.clients.marias_seat.SeatRelay`, built on Herna's CGML client
library and the player tracker, as ``herna play marias`` is), and the page talks JSON with the
web hall over ``/ws/marias``. The relay sends the page only what this seat may know (its hand,
the public table, the choices the server's questions allow) and turns clicks into CGML answers;
the super game server judges every answer.

The JSON frames (docs/web.md, "Play mariáš"):

* page → hall: ``{"type": "sit", "name", "token"?, "opponents"}``, ``{"type": "resume",
  "seat", "seq"}``, ``{"type": "sit", "name", "token"?, "seek"}`` (from the lobby page: the
  lobby's words, e.g. ``person,accept=s4``), ``{"type": "act", "decision", "choice"}``,
  ``{"type": "back"}`` (take the
  seat back from a stand-in), ``{"type": "leave"}``; after a table ``{"type": "rematch"}``
  (the same people and house bots at a new table, or accepting another person's rematch) and
  ``{"type": "decline_rematch"}``;
* hall → page: ``{"type": "seat", "seat"}`` (the seat secret, kept in localStorage),
  ``{"type": "state", "seq", ...}`` (the whole state of the seat, ``seq`` grows with every
  change) and ``{"type": "error", "code", "message", "seq"}`` (nothing changed: ``seq`` is
  still the state's).

A seat still waiting for its table ends ``seek_grace`` seconds after its last page is gone
(its seek leaves the lobby; a reload within that takes it back), and declines a table formed
for it while nobody is there (:attr:`SeatRelay.present`). A seat that took a waiting player's
seek whose player left first waits for people instead, and says so (``_watch_accepted``).

A seated seat outlives its page: when the last page of a seat is gone, the seat waits ``grace``
seconds for a page that resumes it with the seat secret; after that a stand-in (a house-bot
strategy) answers for the person, and the deal's record says so (``<standin>``, a Herna CGML
extension). A page that resumes later takes the seat back. Every question has a move clock
(``move_clock`` seconds, then the same ``grace``; see :class:`SeatRelay`): a person who lets
both run out gets a stand-in too, and takes the seat back with "Back to my seat".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.websockets import WebSocket

from herna.clients.marias_seat import SeatRelay
from herna.games.marias.bots import level_of
from herna.hall.hall import Hall
from herna.hall.identity import new_secret
from herna.hall.lobby import BOTS, PERSON, LobbyError, Want, parse_seek
from herna.hall.lobby import PEOPLE as ONLY_PEOPLE
from herna.protocols.cgml.messages import PlayerRef
from herna.web.guests import Guests
from herna.web.i18n import N_, _, format_number, ngettext
from herna.web.refusals import refusal_words
from herna.web.seat_socket import Problem, SeatPage, serve_page
from herna.web.templating import render

log = logging.getLogger(__name__)

GRACE = 60.0
"""Seconds a seat waits for its person's page before a stand-in plays for them; also the
grace period after a question's move clock runs out."""
MOVE_CLOCK = 90.0
"""Seconds a person has for each question (bid, talon, game, flek, card). With the grace
period that is 2.5 minutes, inside the super game server's own 300 s for people
(``--cgml-human-timeout``), so the table never waits for the server's timeout."""
ABANDON = 600.0
"""Seconds of stand-in play after which the seat leaves the table at the next deal (a table
with other people; at a table of bots only no new deal starts while the page is gone:
:data:`herna.clients.marias_seat.AWAY_HOLD`)."""
SEEK_GRACE = 15.0
"""Seconds a seat that is still waiting for its table keeps its seek after its page is gone
(a reload comes back within it); then the seat leaves the login server and the seek ends."""
REMATCH_WAIT = 60.0
"""Seconds a rematch waits for the other people of the last table to ask for it too."""
MAX_SEATS = 200
"""Browser seats one web hall keeps at once (each holds a CGML connection)."""
MAX_FRAME = 4096
"""Bytes of one frame from a page (the longest message is a ``sit`` with a token)."""

PEOPLE = "people"
PEOPLE_TITLE = N_("wait for another person who chooses people too (the third seat: a house bot)")
ANYONE = "anyone"
ANYONE_TITLE = N_(
    "people and bots from the lobby may sit down; house bots take the free seats after"
)
DEFAULT_FILL = 30
"""Seconds the page proposes to wait for people before house bots sit down."""

LEVELS = {
    "random": (N_("random"), N_("house bots playing any legal card (weakest)")),
    "easy": (N_("easy"), N_("house bots playing by rules of thumb that misjudge sto and betl")),
    "medium": (N_("medium"), N_("house bots playing by careful rules of thumb (quick)")),
    "hard": (N_("hard"), N_("house bots that search a few sample worlds of the unseen cards")),
    "strongest": (
        N_("strongest"),
        N_("house bots that deal the unseen cards into sample worlds and search them"),
    ),
}
"""Label and title of each level (strategies are shown as the level they play at), in the
catalog's source words: the page says them in its language."""


@dataclass
class MariasPlaySettings:
    grace: float = GRACE
    move_clock: float = MOVE_CLOCK
    abandon: float = ABANDON
    max_seats: int = MAX_SEATS
    seek_grace: float = SEEK_GRACE
    rematch_wait: float = REMATCH_WAIT


@dataclass
class _Viewer(SeatPage):
    """One page on ``/ws/marias``: frames wait in a queue for the connection's sender."""

    seat: _Seat | None = None
    """The seat this page shows (set by sit or resume)."""


@dataclass
class _Seat:
    secret: str
    name: str
    relay: SeatRelay
    viewers: set[int] = field(default_factory=set)
    timer: asyncio.TimerHandle | None = None
    abandon: asyncio.TimerHandle | None = None
    watch: asyncio.Task[None] | None = None
    """Follows the seek this seat accepted, until the table starts (see ``_watch_accepted``)."""
    rematch: list[str] = field(default_factory=list)
    """The people a rematch seat waits for (empty: none, or only house bots)."""
    timer_rematch: asyncio.TimerHandle | None = None


class MariasPlay:
    """The play page and the WebSocket relay of browser seats (one per web hall)."""

    def __init__(
        self,
        hall: Hall,
        guests: Guests,
        render: Callable[[str, str, dict[str, Any]], HTMLResponse],
        settings: MariasPlaySettings | None = None,
    ) -> None:
        self.hall = hall
        self.guests = guests
        self.render = render
        self.settings = settings or MariasPlaySettings()
        self.seats: dict[str, _Seat] = {}
        self._viewers: dict[int, _Viewer] = {}
        self._next_viewer = 0
        self._lobby_watch: asyncio.Task[None] | None = None

    # -- the service ------------------------------------------------------------------------
    def _service(self) -> Any:
        service = self.hall.service("marias")
        login = getattr(service, "login", None)
        if service is None or login is None or not getattr(login, "servers", None):
            return None
        return service

    def opponents(self) -> list[dict[str, str]]:
        """The tables a person can ask for: two bots of one of the hall's bot servers, in the
        words of the page's language."""
        service = self._service()
        out = []
        servers = list(getattr(service, "bots", []) if service is not None else [])
        levels = Counter(level_of(b.strategy) or b.strategy for b in servers)
        for bots in servers:
            level = level_of(bots.strategy) or bots.strategy
            label, title = LEVELS.get(level, (bots.strategy, N_("house bots")))
            label, title = _(label), _(title)
            if levels[level] > 1:  # two servers at one level: told apart by their strategy
                label = f"{label} ({bots.strategy})"
            out.append({"value": bots.name, "label": label, "title": title, "level": level})
        order = list(LEVELS)
        out.sort(key=lambda o: order.index(o["level"]) if o["level"] in order else len(order))
        for o in out:
            del o["level"]
        if out:
            out.append({"value": PEOPLE, "label": _("people"), "title": _(PEOPLE_TITLE)})
            out.append({"value": ANYONE, "label": _("anyone"), "title": _(ANYONE_TITLE)})
        return out

    # -- the page ---------------------------------------------------------------------------
    async def page(self, request: Request) -> Response:
        guest, new = self.guests.of(request)
        choices = self.opponents()
        data = {
            "kind": "play",
            "game": "marias",
            "guest": guest,
            "running": bool(choices),
            "opponents": choices,
        }
        token = self.guests.token(request)
        if token is not None:
            data["token"] = token  # a proof of the signed-in person's name, for sit
        response = self.render(_("Play mariáš"), page_html(guest, choices, self.settings), data)
        if new:
            self.guests.remember(response, guest, request.url.scheme == "https")
        response.headers["cache-control"] = "no-store"
        return response

    # -- the WebSocket ----------------------------------------------------------------------
    async def socket(self, ws: WebSocket) -> None:
        await ws.accept()
        vid = self._next_viewer
        self._next_viewer += 1
        viewer = _Viewer(ws)
        self._viewers[vid] = viewer
        seat: _Seat | None = None

        async def handle(frame: dict[str, Any]) -> Problem | None:
            nonlocal seat
            seat, problem = await self._handle(vid, viewer, seat, frame)
            return problem

        try:
            await serve_page(
                viewer,
                MAX_FRAME,
                handle,
                lambda problem: self._error(viewer, *problem),
                lambda: (
                    self.with_offers(viewer.seat, viewer.seat.relay.state())
                    if viewer.seat is not None
                    else None
                ),
            )
        finally:
            self._viewers.pop(vid, None)
            if seat is not None:
                self._detach(seat, vid)

    async def _handle(
        self, vid: int, viewer: _Viewer, seat: _Seat | None, frame: dict[str, Any]
    ) -> tuple[_Seat | None, tuple[str, str] | None]:
        kind = frame.get("type")
        if kind == "act":
            if seat is None:
                return seat, ("NO_SEAT", _("Sit down at a table first."))
            return seat, seat.relay.act(frame.get("decision"), frame.get("choice"))
        if kind == "sit":
            if seat is not None:
                return seat, ("SEATED", _("This page has a seat already."))
            earlier = await self._earlier_seat(vid, viewer, frame)
            if earlier is not None:
                return earlier, None
            return self._sit(vid, viewer, frame)
        if kind == "resume":
            if seat is not None:
                return seat, ("SEATED", _("This page has a seat already."))
            secret = frame.get("seat")
            found = self.seats.get(secret) if isinstance(secret, str) else None
            if found is None:
                return None, (
                    "UNKNOWN_SEAT",
                    _("There is no such seat here: the table ended, or the seat id is wrong."),
                )
            self._attach(found, vid)
            return found, None
        if kind == "back":
            if seat is None:
                return seat, ("NO_SEAT", _("You have no seat to take back."))
            if not seat.relay.stand_in:
                return seat, ("NOT_STANDING_IN", _("You have your seat: nobody stands in for you."))
            seat.relay.set_stand_in(False)
            return seat, None
        if kind == "leave":
            if seat is None:
                return seat, ("NO_SEAT", _("You have no seat to leave."))
            await seat.relay.stop(leave=True)
            return seat, None
        if kind == "rematch":
            return self._rematch(vid, viewer, seat)
        if kind == "decline_rematch":
            return seat, self._decline_rematch(seat)
        return seat, (
            "BAD_MESSAGE",
            _("Unknown message type %(type)s.") % {"type": repr(str(kind)[:20])},
        )

    def _proven(self, viewer: _Viewer, name: Any, token: Any) -> bool:
        """Whether this page may play as ``name``: its own guest or signed-in name, or a name
        whose token it presents (the login server checks the token again)."""
        own, _new = self.guests.of(viewer.ws)  # the signed-in person's name, else the guest's
        return isinstance(name, str) and (
            name == own or (isinstance(token, str) and self.hall.identity.proves(name, token))
        )

    async def _earlier_seat(self, vid: int, viewer: _Viewer, frame: dict[str, Any]) -> _Seat | None:
        """A person who sits down while a seat of theirs has no page (a tab closed, another
        browser, or the lobby's "Sit down" after a seek left behind): a seat at a table takes
        this page (they are back at their game, returned); a seat still waiting for its table
        ends, so that the new wish replaces the old seek (the login server would refuse the
        name as in use until its seek grace is over)."""
        name = frame.get("name")
        if not self._proven(viewer, name, frame.get("token")):
            return None
        for seat in list(self.seats.values()):
            if seat.name != name or seat.viewers or seat.relay.done:
                continue
            if not _still_waiting(seat.relay):
                viewer.queue.put_nowait(
                    {"type": "seat", "seat": seat.secret, "seq": seat.relay.seq}
                )
                self._attach(seat, vid)
                return seat
            log.info("browser seat %s: a new seek replaces the one left waiting", name)
            self.seats.pop(seat.secret, None)
            for timer in (seat.timer, seat.abandon, seat.timer_rematch):
                if timer is not None:
                    timer.cancel()
            if seat.watch is not None:
                seat.watch.cancel()
            await seat.relay.stop()
            # The login server hears the closed connection on its own turn of the loop.
            for _tick in range(40):
                if not self._queued(name):
                    break
                await asyncio.sleep(0.05)
        return None

    def _sit(
        self, vid: int, viewer: _Viewer, frame: dict[str, Any]
    ) -> tuple[_Seat | None, tuple[str, str] | None]:
        service = self._service()
        if service is None:
            return None, ("NOT_RUNNING", _("The mariáš server is not running in this hall."))
        name, token, wanted = frame.get("name"), frame.get("token"), frame.get("opponents")
        if not isinstance(name, str) or not isinstance(token, (str, type(None))):
            return None, ("BAD_MESSAGE", _("sit needs your name (and a token when you have one)."))
        if not self._proven(viewer, name, token):
            # A guest name is only this browser's own (its signed cookie); any other name
            # needs the token that proves it (the login server checks it again).
            return None, ("BAD_NAME", _("Play under your guest name, or sign in for your own."))
        opponents: tuple[PlayerRef, ...]
        fill: int | None = None
        tournament: str | None = None
        seek = frame.get("seek")
        accepted: str | None = None
        if seek is not None:
            if not isinstance(seek, str) or len(seek) > 200:
                return None, ("BAD_SEEK", _("seek is the lobby's words (at most 200 characters)."))
            try:
                opponents, fill, tournament = self._seek_opponents(service, name, seek)
                accepted = parse_seek(seek, list(LEVELS)).want.accept
            except LobbyError as exc:
                return None, (exc.code, refusal_words(exc.reason))
        elif wanted == PEOPLE:
            # Any other person who asks the same; the login server fills the third seat with
            # a bot after its fill wait.
            opponents = (PlayerRef(None, None, "human"),)
        else:
            bots = next((b for b in getattr(service, "bots", []) if b.name == wanted), None)
            if bots is None:
                return None, ("BAD_OPPONENTS", _("Choose opponents from the list."))
            opponents = (PlayerRef(bots.name), PlayerRef(bots.name))
        seat, problem = self._open_seat(vid, viewer, frame, opponents, fill, tournament)
        if seat is not None and accepted is not None:
            # Taking a waiting player's seat: should that player leave first, this person
            # waits for people rather than for somebody who is gone.
            seat.relay.again = (PlayerRef(None, None, "human"),)
            owner = opponents[0].id or _("The player")
            seat.watch = asyncio.get_running_loop().create_task(
                self._watch_accepted(seat, accepted, owner)
            )
        return seat, problem

    def _open_seat(
        self,
        vid: int,
        viewer: _Viewer,
        frame: dict[str, Any],
        opponents: tuple[PlayerRef, ...],
        fill: int | None,
        tournament: str | None,
    ) -> tuple[_Seat | None, tuple[str, str] | None]:
        """A new browser seat for ``frame``'s name (checked already), this page its first."""
        service = self._service()
        if service is None:
            return None, ("NOT_RUNNING", _("The mariáš server is not running in this hall."))
        name, token = frame["name"], frame.get("token")
        live = sum(1 for s in self.seats.values() if not s.relay.done)
        if live >= self.settings.max_seats:
            return None, (
                "FULL",
                _("The hall has no room for another browser seat now; try later."),
            )
        host, port = service.login.player_address[:2]
        if host in ("0.0.0.0", "::", ""):
            host = "127.0.0.1"
        secret = new_secret()
        relay = SeatRelay(
            host,
            port,
            PlayerRef(name, name, "human"),
            opponents,
            token=token,
            tariff=_tariff_of(service),
            move_clock=self.settings.move_clock,
            grace=self.settings.grace,
            fill=fill,
            tournament=tournament,
            # The page's language (its <html lang>): the seat tells the table in Czech or in
            # English with the Czech terms.
            lang="cs" if str(frame.get("lang") or "").lower().startswith("cs") else "en",
        )
        seat = _Seat(secret, name, relay)
        relay.on_change = lambda: self._changed(seat)
        self.seats[secret] = seat
        task = relay.start()
        task.add_done_callback(lambda _: self._relay_done(seat))
        self._watch_lobby()
        viewer.queue.put_nowait({"type": "seat", "seat": secret, "seq": relay.seq})
        self._attach(seat, vid)
        return seat, None

    # -- after a table: rematch --------------------------------------------------------------
    def _rematch(
        self, vid: int, viewer: _Viewer, seat: _Seat | None
    ) -> tuple[_Seat | None, tuple[str, str] | None]:
        """A new table with the people and house bots of this seat's last one. It goes
        through the hall's one seating mechanism: the new seat's ``<connect>`` names them
        (each person by id, each house bot by its bot server), so the login server seats it
        at once with house bots, and with people its seek is a challenge in the hall's lobby
        that waits until each of them asks for the rematch too (their pages show "X wants a
        rematch"), says no (:meth:`~herna.hall.lobby.Lobby.decline`), or
        :attr:`MariasPlaySettings.rematch_wait` runs out."""
        if seat is None or not seat.relay.done:
            return seat, ("NO_REMATCH", _("A rematch comes after a table is over."))
        others = seat.relay.last_table()
        if not others:
            return seat, ("NO_REMATCH", _("There was no table to play again."))
        people = seat.relay.last_people()
        frame = {"name": seat.name, "token": seat.relay.token}
        # The finished seat is left behind: this page shows the new one.
        self.seats.pop(seat.secret, None)
        seat.viewers.discard(vid)
        for timer in (seat.timer, seat.abandon, seat.timer_rematch):
            if timer is not None:
                timer.cancel()
        new, problem = self._open_seat(vid, viewer, frame, others, None, None)
        if new is None:
            return None, problem
        new.rematch = people
        new.relay.rematch_people = people
        if people:
            names = ", ".join(people)
            wait = self.settings.rematch_wait
            new.relay.message = ngettext(
                "Waiting for %(names)s to accept the rematch, at most %(seconds)s s…",
                "Waiting for %(names)s to accept the rematch, at most %(seconds)s s…",
                len(people),  # (Czech: one person "přijme", two "přijmou")
            ) % {"names": names, "seconds": format_number(round(wait))}
            loop = asyncio.get_running_loop()
            new.timer_rematch = loop.call_later(
                wait,
                new.relay.end_wait,
                ngettext(
                    "%(names)s did not answer the rematch in time.",
                    "%(names)s did not answer the rematch in time.",
                    len(people),
                )
                % {"names": names},
            )
        return new, None

    def _decline_rematch(self, seat: _Seat | None) -> tuple[str, str] | None:
        """Say no to the rematches offered to this seat's person (the lobby ends them)."""
        if seat is None:
            return "NO_SEAT", _("You have no table to decline a rematch of.")
        offers = self._offers(seat)
        if not offers:
            return "NO_REMATCH", _("Nobody is asking you for a rematch now.")
        for seek_id, _owner in offers:
            with contextlib.suppress(LobbyError):
                self.hall.lobby.decline(seek_id, seat.name)
        return None

    def _offers(self, seat: _Seat) -> list[tuple[str, str]]:
        """(seek id, owner) of the open rematch challenges to this seat's person from the
        people of its last table, while this seat is over (a table that ended)."""
        if not seat.relay.done:
            return []
        people = {p.casefold() for p in seat.relay.last_people()}
        me = seat.name.casefold()
        return [
            (s.id, s.owner)
            for s in self.hall.lobby.open_seeks("marias")
            if s.owner.casefold() in people
            and s.want.challenge is not None
            and s.want.challenge.casefold() == me
        ]

    def _watch_lobby(self) -> None:
        """Pages of finished tables hear of rematch offers as they come and go (the hall's
        lobby events, one subscription for the web hall)."""
        if self._lobby_watch is not None:
            return

        async def watch() -> None:
            sub = self.hall.lobby.bus.subscribe(limit=1000)
            try:
                async for event in sub:
                    if event.table != "marias":
                        continue
                    for seat in list(self.seats.values()):
                        if seat.relay.done:
                            self._changed(seat)
            finally:
                sub.close()

        self._lobby_watch = asyncio.get_running_loop().create_task(watch())

    def with_offers(self, seat: _Seat, state: dict[str, Any]) -> dict[str, Any]:
        """The relay's state with what comes after a table: who wants a rematch with this
        person, whether a rematch is possible, and who this seat waits for."""
        state["rematch_offers"] = [owner for _id, owner in self._offers(seat)]
        state["can_rematch"] = bool(seat.relay.done and seat.relay.last_table())
        state["rematch_with"] = seat.rematch
        return state

    def _seek_opponents(
        self, service: Any, name: str, words: str
    ) -> tuple[tuple[PlayerRef, ...], int | None, str | None]:
        """The CGML ``<opponent>`` preferences, fill wait and tournament for a seek (raises
        :class:`LobbyError`): taking a waiting player's seek names that player (the login
        server groups them), a challenge names its target, people only asks for a human,
        house bots of a level name the bot server of that strategy, anyone asks for
        nothing and waits its own fill wait (``<connect fill>``) before bots sit down, and
        a tournament's seek waits for the tables it books (``<connect tournament>``)."""
        spec = parse_seek(words, list(LEVELS))  # the four levels, and random
        want = spec.want
        if want.tournament is not None:
            return (), None, want.tournament
        if want.accept is not None:
            target = self.hall.lobby.seeks.get(want.accept)
            if target is None or target.game != "marias":
                raise LobbyError("NO_SUCH_SEEK", f"no waiting mariáš player {want.accept!r}")
            self.hall.lobby.check_open("marias", name, PERSON, Want(accept=want.accept, seats=3))
            return (PlayerRef(target.owner),), None, None
        if want.challenge is not None:
            if want.challenge.casefold() == name.casefold():
                raise LobbyError("OWN_SEEK", "you cannot challenge yourself")
            return (PlayerRef(want.challenge),), None, None
        if want.opponent == ONLY_PEOPLE:
            return (PlayerRef(None, None, "human"),), None, None
        if want.opponent == BOTS:
            # A bot server plays at a level by name (``strongest``) or by its strategy's level
            # (``heuristic`` is medium); no level: the hall's first bot server.
            servers = list(getattr(service, "bots", []))
            level = want.level
            bots = next(
                (
                    b
                    for b in servers
                    if level is None or level in (b.strategy, level_of(b.strategy))
                ),
                None,
            )
            if bots is None:
                raise LobbyError("BAD_SEEK", f"no house bots of level {level!r} in this hall")
            return (PlayerRef(bots.name), PlayerRef(bots.name)), None, None
        return (), round(want.fill), None

    async def _watch_accepted(self, seat: _Seat, seek_id: str, owner: str) -> None:
        """The seek this seat accepted closed without a table for it (its player left, or
        somebody else was quicker): the person is told so in words and waits for people."""
        lobby = self.hall.lobby
        sub = lobby.bus.subscribe(limit=1000)
        try:
            if seek_id in lobby.seeks:
                async for event in sub:
                    seek = event.data.get("seek") or {}
                    if event.kind == "seek_closed" and seek.get("id") == seek_id:
                        break
            # This seat's connect may still be on its way to the login server.
            await asyncio.sleep(1.0)
            if not seat.relay.group and self._queued(seat.name):
                seat.relay.rewait(
                    _(
                        "%(name)s is no longer waiting: they left, or somebody else took the "
                        "seat. You are waiting for another person."
                    )
                    % {"name": owner}
                )
        finally:
            sub.close()
            seat.watch = None

    def _queued(self, name: str) -> bool:
        """Whether ``name`` still waits in the login server's queue (not in a group)."""
        service = self._service()
        if service is None:
            return False
        waiting = service.login.lobby.snapshot()["waiting"]
        return any(w["id"] == name for w in waiting)

    # -- seats and pages ---------------------------------------------------------------------
    def _attach(self, seat: _Seat, vid: int) -> None:
        seat.viewers.add(vid)
        viewer = self._viewers.get(vid)
        if viewer is not None:
            viewer.seat = seat
        if seat.timer is not None:
            seat.timer.cancel()
            seat.timer = None
        if seat.abandon is not None:
            seat.abandon.cancel()
            seat.abandon = None
        seat.relay.abandon = False
        seat.relay.present = True
        seat.relay.set_stand_in(False)
        self._push(vid)

    def _detach(self, seat: _Seat, vid: int) -> None:
        seat.viewers.discard(vid)
        if seat.viewers or seat.secret not in self.seats:
            return
        seat.relay.present = False
        loop = asyncio.get_running_loop()
        if _still_waiting(seat.relay):
            # Nobody is at the table yet: the seek must not outlive its page for long.
            seat.timer = loop.call_later(self.settings.seek_grace, self._seek_grace_over, seat)
            return
        seat.timer = loop.call_later(self.settings.grace, self._grace_over, seat)

    def _seek_grace_over(self, seat: _Seat) -> None:
        """The page of a seat still waiting for its table did not come back: the seat leaves
        the login server (its seek in the lobby ends) and is forgotten."""
        seat.timer = None
        if seat.viewers:
            return
        if not _still_waiting(seat.relay):
            loop = asyncio.get_running_loop()
            rest = max(0.0, self.settings.grace - self.settings.seek_grace)
            seat.timer = loop.call_later(rest, self._grace_over, seat)
            return
        log.info("browser seat %s: the page left before the table started", seat.name)
        self.seats.pop(seat.secret, None)
        if seat.watch is not None:
            seat.watch.cancel()
        asyncio.get_running_loop().create_task(seat.relay.stop())

    def _grace_over(self, seat: _Seat) -> None:
        seat.timer = None
        if seat.viewers:
            return
        if seat.relay.done:
            self.seats.pop(seat.secret, None)
            return
        log.info("browser seat %s: the page is gone; a stand-in plays", seat.name)
        seat.relay.set_stand_in(True)
        loop = asyncio.get_running_loop()
        seat.abandon = loop.call_later(self.settings.abandon, self._abandon, seat)

    def _abandon(self, seat: _Seat) -> None:
        """Nobody came back for a long time: the stand-in leaves at the next deal."""
        seat.abandon = None
        if not seat.viewers:
            seat.relay.abandon = True

    def _relay_done(self, seat: _Seat) -> None:
        if not seat.viewers:
            loop = asyncio.get_running_loop()
            if seat.timer is None:
                seat.timer = loop.call_later(self.settings.grace, self._grace_over, seat)

    def _changed(self, seat: _Seat) -> None:
        for vid in list(seat.viewers):
            self._push(vid)

    def _push(self, vid: int) -> None:
        viewer = self._viewers.get(vid)
        if viewer is not None:
            viewer.push_state()

    def _error(self, viewer: _Viewer, code: str, message: str) -> None:
        # The seq of the state the error leaves unchanged (-1: no seat yet).
        seq = viewer.seat.relay.seq if viewer.seat is not None else -1
        viewer.queue.put_nowait({"type": "error", "code": code, "message": message, "seq": seq})

    async def stop(self) -> None:
        if self._lobby_watch is not None:
            self._lobby_watch.cancel()
        for seat in list(self.seats.values()):
            if seat.watch is not None:
                seat.watch.cancel()
            for timer in (seat.timer, seat.abandon, seat.timer_rematch):
                if timer is not None:
                    timer.cancel()
            await seat.relay.stop()
        self.seats.clear()


def _still_waiting(relay: SeatRelay) -> bool:
    """Whether a seat waits for its first table (not a tournament's: those wait for their
    pairings, and their boards count a person who is not there as absent)."""
    return not relay.done and relay.status in ("connecting", "waiting") and not relay.tournament


def _tariff_of(service: Any) -> str:
    """The name of the tariff the hall's super game server uses (for the vyúčtování)."""
    from herna.games.marias import TARIFFS

    games = getattr(service, "games", [])
    rules = getattr(getattr(games[0], "settings", None), "rules", None) if games else None
    tariff = getattr(rules, "tariff", None)
    return next((n for n, t in TARIFFS.items() if t == tariff), "csm")


def page_html(guest: str, choices: list[dict[str, str]], settings: MariasPlaySettings) -> str:
    """The page where a person plays mariáš (templates/play_marias.html, drawn and driven by
    static/play-marias.js), in the page's language."""
    return render(
        "play_marias.html",
        guest=guest,
        choices=choices,
        anyone=ANYONE,
        fill=DEFAULT_FILL,
        grace=format_number(settings.grace, 1),
        move_clock=format_number(settings.move_clock, 1) if settings.move_clock > 0 else None,
    )


__all__ = ["MariasPlay", "MariasPlaySettings", "page_html"]

"""``/lobby`` and ``/ws/lobby``: the hall's open seeks and challenges, live, in the browser.

The lobby itself is :class:`herna.hall.lobby.Lobby` (``hall.lobby``); the game servers open
and close seeks there for their connections. This page shows them and lets a person act:

* **new seek** and **challenge**: the lobby checks the request (a clear error otherwise) and
  answers with the play page to go to, whose connection then opens the seek in the game's own
  protocol (``LOGIN``'s lobby field for Onitama): a seek lives as long as the connection
  that plays it (a mariáš seat's for its page plus ``--web-seek-grace``, for a reload), so
  it never outlives the person waiting for it for long;
  a tile seek names its rules and players too (:func:`tile_table`), so the tile page sits
  down at once instead of asking for them;
* **accept**: an open seek that takes this person (not a challenge to somebody else, not
  one's own, not people-only for a bot) — checked here, then again by the game server when
  the play page sits down, since another person may have taken it meanwhile;
* **cancel** one's own open seek: the game server ends the connection that waited with it.

A challenge goes only to someone who can see it: a name with the lobby page open, or with a
seek of that game open (a person at a play page, a bot waiting over the network). Anybody else
is refused at once (``NOT_HERE``, "nobody called eva is in the lobby now …"), so a person
never waits on a play page for a challenge nobody will read.

Who acts is the person's guest name from the hall's signed cookie (:mod:`herna.web.guests`);
a frame that names anybody else (``"as"``) is refused. Frames are JSON objects of at most
:data:`MAX_FRAME` bytes; the protocol is in ``docs/web.md`` ("The lobby").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from herna.games.marias.bots import LEVEL_NAMES as MARIAS_LEVELS
from herna.games.onitama.bots import LEVEL_NAMES
from herna.games.tiles.bots import LEVEL_NAMES as TILES_LEVELS
from herna.games.tiles.rules import rules_title
from herna.hall.events import GameEvent
from herna.hall.hall import Hall
from herna.hall.lobby import (
    BAD_SEEK,
    PERSON,
    Lobby,
    LobbyError,
    Want,
    name_key,
    parse_seek,
)
from herna.protocols.onitama import name_problem
from herna.web.guests import Guests, session_of
from herna.web.i18n import CURRENT_LOCALE, N_
from herna.web.i18n import gettext as _
from herna.web.play_tiles import examples as tile_examples
from herna.web.refusals import refusal_words
from herna.web.templating import render

log = logging.getLogger(__name__)

MAX_FRAME = 2048
"""Longest frame a browser may send (the longest real one is ~120 bytes)."""
MAX_ERRORS = 50
"""Bad frames in a row after which the connection is closed (``1008``)."""

PLAY_PAGES = {"onitama": "/play/onitama", "tiles": "/play/tiles", "marias": "/play/marias"}
"""Games whose people play in the browser, and where. A game is listed here once its play
page sends the lobby field of its protocol (see docs/design.md, "Lobby and seats")."""
GAME_WORDS = {"onitama": "Onitama", "tiles": N_("a tile game"), "marias": "mariáš"}
LEVELS = {"onitama": LEVEL_NAMES, "tiles": TILES_LEVELS, "marias": MARIAS_LEVELS}
"""The house-bot levels a seek may ask for: the same four names in every game."""

BAD_FRAME = "BAD_FRAME"
NO_NAME = "NO_NAME"
NOT_YOU = "NOT_YOU"
NO_PLAY_PAGE = "NO_PLAY_PAGE"
NOT_HERE = "NOT_HERE"


def lobby_data(hall: Hall, guest: str) -> dict[str, Any]:
    """The lobby page's JSON data."""
    return {
        "kind": "lobby",
        "guest": guest,
        "games": sorted(g for g in PLAY_PAGES if hall.service(g) is not None),
        "levels": {g: list(levels) for g, levels in LEVELS.items()},
        "seeks": hall.lobby.snapshot(),
        "tile_rules": {x["name"]: x["players"] for x in tile_examples()},
        "tile_titles": {
            x["name"]: rules_title(x["name"], CURRENT_LOCALE.get()) for x in tile_examples()
        },
    }


def play_url(game: str, seek: str, table: str = "") -> str:
    return f"{PLAY_PAGES[game]}?seek={quote(seek, safe=',=')}{table}"


def tile_table(frame: dict[str, Any]) -> str:
    """The tile table a seek or challenge from the lobby opens, as the play page's query
    (``&rules=tsuro&players=2``): a tile seek needs its rules before the page can sit down
    with it, and the lobby page asks for them with the seek, so the person is seated at once
    (without them the play page shows its setup form)."""
    rules = frame.get("rules")
    if rules is None:
        return ""
    seats = {x["name"]: x["players"] for x in tile_examples()}
    if not isinstance(rules, str) or rules not in seats:
        raise LobbyError(BAD_SEEK, f"rules is one of Herna's examples: {', '.join(sorted(seats))}")
    players = frame.get("players", seats[rules])
    if type(players) is not int or not 2 <= players <= seats[rules]:  # bool is no number here
        raise LobbyError(BAD_SEEK, f"players is a number from 2 to {seats[rules]} for {rules}")
    return f"&rules={rules}&players={players}"


class LobbySocket:
    """The ASGI endpoint of ``/ws/lobby``."""

    def __init__(self, hall: Hall, guests: Guests) -> None:
        self.hall = hall
        self.guests = guests
        self.open = 0
        self.watching: Counter[str] = Counter()
        """The names with the lobby page open (by :func:`name_key`; a person may have it open
        in several tabs): who a challenge can reach besides the seeks' owners."""

    @property
    def lobby(self) -> Lobby:
        return self.hall.lobby

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        ws = WebSocket(scope, receive, send)
        await ws.accept()
        # The person signed in, else this browser's guest name (both from the signed session
        # cookie); None when the browser has neither yet.
        guest = session_of(ws).get("guest")
        me = Guests.person(ws) or (guest if isinstance(guest, str) else None)
        out: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        sub = self.lobby.bus.subscribe(limit=2000)
        self.open += 1
        if me is not None:
            self.watching[name_key(me)] += 1
        out.put_nowait(
            {"type": "hello", "you": me, "seeks": self.lobby.snapshot(), "games": self.games()}
        )
        tasks = [
            asyncio.ensure_future(self._write(ws, out)),
            asyncio.ensure_future(self._read(ws, me, out)),
            asyncio.ensure_future(self._pump(sub, out)),
        ]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sub.close()
            self.open -= 1
            if me is not None:
                self.watching -= Counter({name_key(me): 1})
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            with contextlib.suppress(Exception):
                await ws.close(1000 if not sub.dropped else 4001)

    def games(self) -> list[str]:
        return sorted(g for g in PLAY_PAGES if self.hall.service(g) is not None)

    async def _write(self, ws: WebSocket, out: asyncio.Queue[dict[str, Any] | None]) -> None:
        while True:
            message = await out.get()
            if message is None:
                return
            await ws.send_text(json.dumps(message, separators=(",", ":")))

    async def _pump(self, sub: Any, out: asyncio.Queue[dict[str, Any] | None]) -> None:
        async for event in sub:
            out.put_nowait(change(event))
        out.put_nowait(None)  # dropped: too slow (the page reconnects and gets a fresh list)

    async def _read(
        self, ws: WebSocket, me: str | None, out: asyncio.Queue[dict[str, Any] | None]
    ) -> None:
        errors = 0
        while True:
            try:
                message = await ws.receive()
            except WebSocketDisconnect:
                return
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"").decode("utf-8", "replace")
            try:
                reply = self.handle(me, text)
                errors = 0
            except LobbyError as exc:
                errors += 1
                # The page reads the refusal in its own language (the code stays a code).
                reply = {"type": "error", "code": exc.code, "reason": refusal_words(exc.reason)}
            out.put_nowait(reply)
            if errors >= MAX_ERRORS:
                out.put_nowait(None)
                return

    # -- one frame ------------------------------------------------------------------------------
    def handle(self, me: str | None, text: str) -> dict[str, Any]:
        """Answer one frame (raises :class:`LobbyError` for anything refused; nothing changes
        then)."""
        if len(text.encode("utf-8", "replace")) > MAX_FRAME:
            raise LobbyError(BAD_FRAME, f"a frame is at most {MAX_FRAME} bytes")
        try:
            frame = json.loads(text)
        except ValueError:
            raise LobbyError(BAD_FRAME, "a frame is one JSON object") from None
        if not isinstance(frame, dict):
            raise LobbyError(BAD_FRAME, "a frame is one JSON object")
        kind = frame.get("type")
        if me is None:
            raise LobbyError(NO_NAME, "open the lobby page first: it gives this browser a name")
        who = frame.get("as")
        if who is not None and (not isinstance(who, str) or who.casefold() != me.casefold()):
            raise LobbyError(NOT_YOU, f"you are {me} here, not {str(who)[:40]!r}")
        if kind == "cancel":
            seek = self.lobby.cancel(_text(frame, "seek"), me)
            return {"type": "cancelled", "seek": seek.id}
        if kind == "accept":
            seek_id = _text(frame, "seek")
            target = self.lobby.seeks.get(seek_id)
            game = target.game if target is not None else ""
            self.lobby.check_open(game, me, PERSON, Want(accept=seek_id))
            return self._go(game, f"person,accept={seek_id}")
        if kind == "challenge":
            game = self._game(frame)
            opponent = _text(frame, "opponent")
            if name_problem(opponent) is not None:
                raise LobbyError(BAD_SEEK, "a name is 1-32 letters, digits, _, - or .")
            if not self._here(game, opponent):
                raise LobbyError(
                    NOT_HERE,
                    _(
                        "nobody called %(name)s is in the lobby now: you can challenge a "
                        "player who has this page open or is waiting for %(game)s"
                    )
                    % {"name": opponent, "game": _(GAME_WORDS.get(game, game))},
                )
            spec = f"person,challenge={opponent}"
        elif kind == "seek":
            game = self._game(frame)
            words = ["person", f"opponent={_text(frame, 'opponent')}"]
            if frame.get("level") is not None:
                words.append(f"level={_text(frame, 'level')}")
            fill = frame.get("fill", 0)
            if isinstance(fill, bool) or not isinstance(fill, int | float):
                raise LobbyError(BAD_SEEK, "fill is a number of seconds")
            words.append(f"fill={float(fill):g}")
            spec = ",".join(words)
        else:
            raise LobbyError(BAD_FRAME, "type is one of seek, challenge, accept, cancel")
        parsed = parse_seek(spec, LEVELS.get(game, ()))
        self.lobby.check_open(game, me, PERSON, parsed.want)
        return self._go(game, spec, tile_table(frame) if game == "tiles" else "")

    def _here(self, game: str, name: str) -> bool:
        """Whether a challenge to ``name`` can be seen: ``name`` has the lobby page open or a
        seek of ``game`` open."""
        key = name_key(name)
        return self.watching[key] > 0 or any(s.key == key for s in self.lobby.open_seeks(game))

    def _game(self, frame: dict[str, Any]) -> str:
        game = _text(frame, "game")
        if game not in PLAY_PAGES or self.hall.service(game) is None:
            raise LobbyError(NO_PLAY_PAGE, f"no play page for {game[:20]!r} in this hall")
        return game

    def _go(self, game: str, spec: str, table: str = "") -> dict[str, Any]:
        if game not in PLAY_PAGES:
            raise LobbyError(NO_PLAY_PAGE, f"no play page for {game[:20]!r} in this hall")
        return {"type": "go", "game": game, "url": play_url(game, spec, table)}


def _text(frame: dict[str, Any], key: str) -> str:
    value = frame.get(key)
    if not isinstance(value, str) or not value or len(value) > 64:
        raise LobbyError(BAD_FRAME, f"{key} is a text of 1-64 characters")
    if any(c in value for c in ",=|\n\r"):
        raise LobbyError(BAD_FRAME, f"{key} may not contain , = or |")
    return value


def change(event: GameEvent) -> dict[str, Any]:
    """A lobby event as the page gets it."""
    kind = "opened" if event.kind == "seek_opened" else "closed"
    return {"type": kind, "seek": event.data.get("seek"), "why": event.data.get("why", "")}


Render = Callable[[str, str, dict[str, Any]], Response]
"""The hall's page layout (``WebApp.page(title, body, data)``)."""


class LobbyRoutes:
    """``/lobby`` and ``/ws/lobby`` for the web app (two route lines in app.py)."""

    def __init__(self, hall: Hall, guests: Guests, render: Render) -> None:
        self.hall = hall
        self.guests = guests
        self.render = render
        self.socket = LobbySocket(hall, guests)

    async def page(self, request: Request) -> Response:
        guest, new = self.guests.of(request)
        # Mia's people's table: anyone may join it at any time, without a seek.
        mia_table = getattr(self.hall.service("mia"), "people", None) is not None
        tiles = [
            (
                x["name"],
                rules_title(x["name"], CURRENT_LOCALE.get()),
                x["players"],
                x["width"],
                x["height"],
            )
            for x in tile_examples()
        ]
        body = render("lobby.html", guest=guest, mia_table=mia_table, tile_rules=tiles)
        response = self.render(_("Lobby"), body, lobby_data(self.hall, guest))
        if new:
            # The same guest name as the play pages: the lobby's actions are this name's.
            self.guests.remember(response, guest, request.url.scheme == "https")
        response.headers["cache-control"] = "no-store"
        return response

"""``/play/tiles``: a person plays a tile game in the browser.

The page is one more client of the tile server, over ``/ws/tiles`` (see
:mod:`herna.web.play`), speaking ``herna-tiles/1`` (docs/protocols/tiles.md) exactly as a TCP
bot does. This module only writes the page and its data: the shipped rules files (so the
page can offer each example and fewer players than the file seats), the guest name, whether
the tile server runs here, and its reconnect window. ``static/play-tiles.js`` does the rest;
the server stays the only authority (legal actions, the rules check of an uploaded file, the
narration of each action).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from herna.games.tiles.bots import DEFAULT_LEVEL, LEVEL_NAMES
from herna.games.tiles.rules import load_rules_file, rules_title, shipped_rules
from herna.hall.hall import Hall
from herna.web.guests import Guests
from herna.web.i18n import CURRENT_LOCALE, N_, _, format_number
from herna.web.templating import render

DESCRIPTIONS = {
    "labyrinth": N_(
        "push a row or column with the spare tile, then walk to your secret treasures and back home"
    ),
    "tsuro": N_(
        "lay a tile from your hand in front of your marker; the last marker on the board wins"
    ),
    "dungeon": N_(
        "push, roll a die, mind the pits, webs and teleporters; find a shrine, collect gold, "
        "reach the hall"
    ),
    "gold_rush": N_("push, then carry gold and gems to your bank in your corner"),
}
"""One line per shipped file for people choosing a game (docs/games/tiles.md says more), in
the catalog's source words: the page says them in its language."""

TURN_WORDS = {
    "push": N_("push a row or column"),
    "move": N_("move your pawn"),
    "moveAll": N_("every marker follows its path"),
    "add": N_("place a tile"),
    "exchange": N_("exchange a tile"),
}

LEVEL_LABELS = {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "strongest": N_("strongest"),
}
LEVEL_TEXT = {
    "easy": N_("heads for its goal, but not always"),
    "medium": N_("heads for its goal, one turn ahead"),
    "hard": N_("also weighs the others' replies and its next turn, briefly"),
    "strongest": N_("weighs the others' replies and its next turn"),
}
"""The house bots' levels (:data:`herna.games.tiles.bots.LEVEL_NAMES`) and what each does
(its ``LEVEL_WORDS``), as a page in any language says them."""


@cache
def examples() -> tuple[dict[str, Any], ...]:
    """The shipped rules files as the page offers them (loaded once; they never change)."""
    out = []
    for name, path in sorted(shipped_rules().items()):
        rules = load_rules_file(path)
        data = json.loads(path.read_text(encoding="utf-8"))
        out.append(
            {
                "name": name,
                "players": len(rules.players),
                "width": rules.width,
                "height": rules.height,
                "turn": [TURN_WORDS.get(t, t) for t in rules.turn_structure],
                "about": DESCRIPTIONS.get(name, ""),  # said in the page's language: page_data
                "data": data,
            }
        )
    return tuple(out)


def _said(example: dict[str, Any]) -> dict[str, Any]:
    """An example's words in the page's language."""
    about = example["about"]
    return {**example, "about": _(about) if about else "", "turn": [_(t) for t in example["turn"]]}


def page_data(
    guest: str, running: bool, reconnect_window: float | None, lobby_wait: float | None
) -> dict[str, Any]:
    return {
        "kind": "play",
        "game": "tiles",
        "guest": guest,
        "running": running,
        "reconnect_window": reconnect_window,
        "lobby_wait": lobby_wait,
        "levels": list(LEVEL_NAMES),
        "examples": [_said(x) for x in examples()] if running else [],
    }


def page_body(guest: str, running: bool, reconnect_window: float | None) -> str:
    """The page (templates/play_tiles.html, drawn and driven by static/play-tiles.js), in the
    page's language."""
    if not running:
        return render("play_tiles.html", running=False)
    window = reconnect_window if reconnect_window and reconnect_window > 0 else None
    return render(
        "play_tiles.html",
        running=True,
        guest=guest,
        window=format_number(window, 1) if window else None,
        examples=[{**x, "title": rules_title(x["name"], CURRENT_LOCALE.get())} for x in examples()],
        levels=[(n, _(LEVEL_LABELS[n]), _(LEVEL_TEXT[n])) for n in LEVEL_NAMES],
        default_level=DEFAULT_LEVEL,
    )


class TilesPlay:
    """The play page of ``/play/tiles`` (one per web hall; the game itself goes over
    ``/ws/tiles``)."""

    def __init__(
        self, hall: Hall, guests: Guests, render: Callable[[str, str, dict[str, Any]], Response]
    ) -> None:
        self.hall = hall
        self.guests = guests
        self.render = render

    async def page(self, request: Request) -> Response:
        guest, new = self.guests.of(request)
        hub = getattr(self.hall.service("tiles"), "hub", None)
        running = hub is not None and not getattr(hub, "closing", True)
        settings = getattr(hub, "settings", None)
        window = getattr(settings, "reconnect_window", None)
        wait = getattr(settings, "lobby_wait", None)
        data = page_data(guest, running, window, wait)
        # the game clocks a person may choose when opening a table, and the turn clock
        data["clocks"] = list(getattr(settings, "time_controls", ()))
        data["turn_timeout"] = getattr(settings, "turn_timeout", 0)
        token = self.guests.token(request)
        if token is not None:
            data["token"] = token  # a proof of the signed-in person's name, for join
        response = self.render(_("Play a tile game"), page_body(guest, running, window), data)
        if new:
            self.guests.remember(response, guest, request.url.scheme == "https")
        response.headers["cache-control"] = "no-store"
        return response

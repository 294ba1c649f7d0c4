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
from html import escape
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from herna.games.tiles.bots import DEFAULT_LEVEL, LEVEL_NAMES, LEVEL_WORDS
from herna.games.tiles.rules import load_rules_file, rules_title, shipped_rules
from herna.hall.hall import Hall
from herna.web.guests import Guests

DESCRIPTIONS = {
    "labyrinth": "push a row or column with the spare tile, then walk to your secret "
    "treasures and back home",
    "tsuro": "lay a tile from your hand in front of your marker; the last marker on the board wins",
    "dungeon": "push, roll a die, mind the pits, webs and teleporters; find a shrine, "
    "collect gold, reach the hall",
    "gold_rush": "push, then carry gold and gems to your bank in your corner",
}
"""One line per shipped file for people choosing a game (docs/games/tiles.md says more)."""

TURN_WORDS = {
    "push": "push a row or column",
    "move": "move your pawn",
    "moveAll": "every marker follows its path",
    "add": "place a tile",
    "exchange": "exchange a tile",
}


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
                "about": DESCRIPTIONS.get(name, ""),
                "data": data,
            }
        )
    return tuple(out)


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
        "examples": list(examples()) if running else [],
    }


def page_body(guest: str, running: bool, reconnect_window: float | None) -> str:
    """The page (drawn and driven by static/play-tiles.js)."""
    if not running:
        return (
            "<h1>Play a tile game</h1>"
            '<p class="error" id="play-status">The tile server is not running in this hall '
            "(start <code>herna serve</code> with it).</p>"
        )
    window = (
        f" within {reconnect_window:g} seconds" if reconnect_window and reconnect_window > 0 else ""
    )
    levels = "".join(
        f'<option value="{name}"{" selected" if name == DEFAULT_LEVEL else ""}>'
        f"{name} — {escape(LEVEL_WORDS[name])}</option>"
        for name in LEVEL_NAMES
    )
    options = "".join(
        f'<option value="{escape(x["name"])}">{escape(rules_title(x["name"]))} — '
        f"{x['players']} players, "
        f"{x['width']}×{x['height']}</option>"
        for x in examples()
    )
    return (
        '<link rel="stylesheet" href="/static/play.css">'
        '<link rel="stylesheet" href="/static/play-tiles.css">'
        "<h1>Play a tile game</h1>"
        f'<p class="lead">You play as <b id="play-name">{escape(guest)}</b>. Pick a rules file '
        "(one of Herna's examples, or your own <code>rules.json</code>), sit down and play by "
        "clicking (or with Tab, Enter and R to turn a tile). A reload, or closing the tab "
        f"and coming back{escape(window)}, returns you to your seat. "
        '<a href="/doc/games/tiles.md">The games</a> · '
        '<a href="/tools/balance">Test a rules file for balance</a>.</p>'
        '<div class="play tp" id="play" data-phase="connecting">'
        '<form class="tp-setup" id="tp-setup" hidden>'
        "<fieldset><legend>Rules</legend>"
        '<label><input type="radio" name="source" value="example" checked> An example: '
        f'<select id="tp-rules" name="rules">{options}</select></label>'
        '<p class="muted" id="tp-about"></p>'
        '<label><input type="radio" name="source" value="upload"> Your own rules file: '
        '<input type="file" id="tp-file" accept=".json,application/json"></label>'
        '<div id="tp-problems" class="tp-problems" role="alert"></div>'
        "</fieldset>"
        "<fieldset><legend>Opponents</legend>"
        '<label>Players at the table: <select id="tp-players"></select></label>'
        f'<label>House bots play: <select id="tp-level" name="level">{levels}</select></label>'
        '<label><input type="radio" name="who" value="bots" checked> '
        "house bots, start at once</label>"
        '<label><input type="radio" name="who" value="anyone"> '
        "anyone (people and bots from the lobby); house bots take the seats still free after "
        '<input type="number" id="tp-fill" name="fill" min="0" max="3600" step="any" '
        'value="30" inputmode="numeric"> s</label>'
        '<label><input type="radio" name="who" value="people"> '
        "people only (press Start now to give the free seats to house bots)</label>"
        "</fieldset>"
        '<button type="submit" id="tp-sit">Sit down</button>'
        "</form>"
        '<div class="play-main tp-main">'
        '<p class="play-status" id="play-status" role="status" aria-live="polite">'
        "Connecting…</p>"
        '<p class="play-note" id="play-note" aria-live="polite"></p>'
        '<p class="tp-clock" id="tp-clock" role="timer" hidden></p>'
        '<div id="play-board" class="tp-board"></div>'
        '<div class="play-prompt" id="play-prompt"></div>'
        "</div>"
        '<div class="play-side tp-side"><div id="tp-players-box"></div>'
        '<h2>What happened</h2><ol class="play-moves" id="play-moves"></ol></div>'
        "</div>"
        "<noscript><p>Playing needs JavaScript; any client of the tile server can also "
        "connect over TCP (see the protocol doc).</p></noscript>"
        '<script src="/static/play-page.js" defer></script>'
        '<script src="/static/play-tiles-board.js" defer></script>'
        '<script src="/static/play-tiles-setup.js" defer></script>'
        '<script src="/static/play-tiles.js" defer></script>'
        '<script src="/static/tournament-seat.js" defer></script>'
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
        response = self.render("Play a tile game", page_body(guest, running, window), data)
        if new:
            self.guests.remember(response, guest, request.url.scheme == "https")
        response.headers["cache-control"] = "no-store"
        return response

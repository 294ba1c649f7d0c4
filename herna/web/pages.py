"""Server-rendered HTML of the web hall's pages (plain strings, everything escaped).

Pages work without JavaScript for what is static (servers, history, statistics); the live
views and the replay stepper are drawn in the browser by ``static/hall.js`` and the
per-game renderers in ``static/games/``. Page-specific data travels in a
``<script type="application/json" id="herna-page">`` block.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import quote, urlencode

from herna.games.mia.text import REASONS, table_words
from herna.games.tiles.rules import rules_title, shipped_rules
from herna.hall.lobby import waited_words
from herna.hall.records import Standing, StoredMatch
from herna.hall.replays import match_summary, result_lines
from herna.hall.tournament_store import MatchPlace
from herna.web.queries import SESSION_GAP, GameStats, MiaSession
from herna.web.reviews import REVIEW_LINKS

SESSION_GAP_MINUTES = int(SESSION_GAP.total_seconds() // 60)

e = html.escape

NAV = [
    ("/", "Home"),
    ("/live", "Live"),
    ("/history", "History"),
    ("/players", "Players"),
    ("/tournaments", "Tournaments"),
    ("/bots", "Bots"),
    ("/status", "Status"),
    ("/docs", "API"),
]


GAME_TITLES = {"marias": "mariáš", "mia": "Mia", "onitama": "Onitama", "tiles": "tile games"}
KIND_WORDS = {
    "house-bot": "house bot",
    "bot": "bot",
    "person": "person",
    "human": "person",
    "unknown": "not known",
}
"""A player's kind as records keep it, in words."""


def game_title(game: str) -> str:
    """A game's name as a heading or a menu shows it: ``Mariáš``, ``Tile games``."""
    title = GAME_TITLES.get(game, game.replace("_", " "))
    return title[:1].upper() + title[1:]


"""A game's name as people read it (ids like ``marias`` stay in URLs and the API)."""

LIVE_TABLE_WORDS = {"mia": "the bots' table", "people": "the people's table"}
"""The Mia tables' live ids (``/live/mia/people``) in words, for the Live page's cards."""
GAME_TITLE_WORDS = {game: game_title(game) for game in GAME_TITLES}
"""Every game's title, for the pages' scripts (``Herna.page.titles``, static/hall.js)."""


def url(path: str, **query: Any) -> str:
    params = {k: v for k, v in query.items() if v not in (None, "")}
    return path + ("?" + urlencode(params) if params else "")


def player_url(name: str) -> str:
    return "/players/" + quote(name, safe="")


def live_url(game: str, table: str | None = None) -> str:
    out = "/live/" + quote(game, safe="")
    return out + ("/" + quote(table, safe="") if table is not None else "")


def _json_block(data: Any) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # Nothing inside may close the script element.
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="herna-page">{text}</script>'


def account_html(person: str | None, csrf: str | None) -> str:
    """The header's corner: who is signed in and a sign-out button, else a sign-in link."""
    if person and csrf:
        return (
            f'<div class="account-box">Signed in as <a id="signed-in" '
            f'href="{e(player_url(person))}">{e(person)}</a>'
            '<form class="signout" method="post" action="/signout">'
            f'<input type="hidden" name="csrf" value="{e(csrf)}">'
            '<button type="submit">Sign out</button></form></div>'
        )
    return '<div class="account-box"><a href="/signin">Sign in</a></div>'


def layout(
    title: str,
    body: str,
    renderers: Sequence[str] = (),
    page: Mapping[str, Any] | None = None,
    active: str = "",
    account: tuple[str | None, str | None] = (None, None),
) -> str:
    nav = " ".join(
        f'<a href="{href}"{" class=active" if href == active else ""}>{e(label)}</a>'
        for href, label in NAV
    )
    scripts = ['<script src="/static/hall.js" defer></script>']
    scripts += [
        f'<script src="/static/games/{quote(name)}.js" defer></script>' for name in renderers
    ]
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{e(title)} · Herna</title>"
        '<link rel="stylesheet" href="/static/hall.css">'
        '<link rel="icon" href="/favicon.svg" type="image/svg+xml">'
        + "".join(scripts)
        + "</head><body>"
        f'<header><a class="brand" href="/">Herna</a><nav>{nav}</nav>'
        f"{account_html(*account)}</header>"
        f"<main>{body}</main>"
        + (_json_block({**page, "titles": GAME_TITLE_WORDS}) if page is not None else "")
        + "</body></html>"
    )


def when(value: datetime | None) -> str:
    if value is None:
        return ""
    return (
        f'<time datetime="{e(value.isoformat())}">{e(value.strftime("%Y-%m-%d %H:%M:%S"))}</time>'
    )


def num(value: float | None, digits: int = 2) -> str:
    if value is None:
        return "–"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.{digits}f}"


SNAPSHOT_WORDS = {
    "rounds_played": "rounds played",
    "rounds_canceled": "rounds canceled",
    "people_table": "the people's table",
    "answer_window": "seconds to answer",
    "cpu_seconds": "CPU seconds",
    "numplayers": "players per table",
    "inflight": "requests unanswered",
    "fill": "empty seats",
    "STALE_TOKEN": "late or repeated answers",
    "NOT_A_JOIN": "answers to a join that were no join",
    "WRONG_PLAYER": "answers from a player whose turn it was not",
    "RATE_LIMIT": "too many messages",
}
VALUE_WORDS = {
    "licitovany_marias": "licitovaný mariáš",
    "house-bot": "house bot",
    **{name: rules_title(name) for name in shipped_rules()},  # a tile table's rules
}
"""Codes a snapshot gives as values (the CGML game name, a player's kind), as the Status page
says them, alone or in a list; the page's script gets this table too (``valueWords``)."""
KEY_WORDS = {**REASONS, **SNAPSHOT_WORDS}
"""Snapshot keys (the JSON API keeps them) as the Status page says them; the page's script
gets this table too (static/hall.js, ``keyWords``) for the snapshots it refreshes."""

_CODE = re.compile(r"[A-Za-z]+(?:_[A-Za-z]+)+")


def key_words(key: object) -> str:
    """A snapshot key in words: ``rounds_played`` -> ``rounds played``, a Mia reason as
    :func:`~herna.games.mia.text.reason_words` says it, another code spaced out."""
    text = str(key)
    if text in KEY_WORDS:
        return KEY_WORDS[text]
    if _CODE.fullmatch(text) and (text.isupper() or text.islower()):
        return text.replace("_", " ").lower()
    return text  # a player's name stays as the player wrote it


def seated_words(players: Sequence[Mapping[str, Any]]) -> str:
    """A CGML table's players (``{"name", "race", "joined"}``) in words: ``anna (bot), bob
    (person, not joined yet)``; static/hall.js ``seatedWords`` says the same."""
    out = []
    for p in players:
        kind = KIND_WORDS.get(str(p.get("race")), str(p.get("race")))
        late = ", not joined yet" if p.get("joined") is False else ""
        out.append(f"{p.get('name') or p.get('id') or '?'} ({kind}{late})")
    return ", ".join(out)


def value_html(value: Any, depth: int = 0) -> str:
    """A generic, readable rendering of a JSON-ready value (service snapshots); keys in words
    (:func:`key_words`), tables in a ``.scroll`` box so a narrow screen scrolls them."""
    if isinstance(value, Mapping):
        if not value:
            return '<span class="muted">–</span>'
        rows = "".join(
            f"<tr><th>{e(key_words(k))}</th><td>{value_html(v, depth + 1)}</td></tr>"
            for k, v in value.items()
        )
        return f'<table class="kv">{rows}</table>'
    if isinstance(value, list | tuple):
        if not value:
            return '<span class="muted">none</span>'
        if all(isinstance(v, Mapping) and "name" in v and "race" in v for v in value):
            return e(seated_words(value))
        if all(not isinstance(v, Mapping | list | tuple) for v in value):
            said = (VALUE_WORDS.get(v, v) if isinstance(v, str) else v for v in value)
            return e(", ".join(str(v) for v in said))
        if all(isinstance(v, Mapping) for v in value) and depth >= 2:
            # inside a table's cell: each item a small key-value table, one under the other
            # (a grid in a grid's cell does not fit a card)
            return "".join(f'<div class="item">{value_html(v, depth + 1)}</div>' for v in value)
        if all(isinstance(v, Mapping) for v in value):
            keys: list[str] = []
            for v in value:
                keys += [str(k) for k in v if str(k) not in keys]
            head = "".join(f"<th>{e(key_words(k))}</th>" for k in keys)
            body = "".join(
                "<tr>"
                + "".join(f"<td>{value_html(v.get(k, ''), depth + 1)}</td>" for k in keys)
                + "</tr>"
                for v in value
            )
            return f'<div class="scroll"><table class="grid"><tr>{head}</tr>{body}</table></div>'
        return f"<pre>{e(json.dumps(value, indent=1, ensure_ascii=False))}</pre>"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return '<span class="muted">–</span>'
    return e(VALUE_WORDS.get(value, value) if isinstance(value, str) else str(value))


# -- home ---------------------------------------------------------------------------------


def service_card(svc: Mapping[str, Any]) -> str:
    endpoints = "".join(f"<li><code>{e(x)}</code></li>" for x in svc.get("endpoints", []))
    doc = ""
    if svc.get("doc_url"):
        doc = f'<a href="{e(svc["doc_url"])}">protocol doc</a>'
    elif svc.get("doc"):
        doc = f'<span class="muted">{e(svc["doc"])}</span>'
    game = str(svc.get("game", ""))
    snapshot = value_html(svc.get("snapshot", {}))
    # a snapshot with a table of many columns (a CGML server's, a hub's seeks) gets the row
    heads = re.findall(r'<table class="grid"><tr>(.*?)</tr>', snapshot)
    wide = " wide" if any(head.count("<th>") > 6 for head in heads) else ""
    return (
        f'<section class="card service{wide}" data-game="{e(game)}">'
        f"<h3>{e(game_title(game))} <small>{e(str(svc.get('protocol', '')))}</small></h3>"
        f'<ul class="endpoints">{endpoints}</ul>'
        f'<p><a href="{e(live_url(game))}">watch live</a> · '
        f'<a href="{e(url("/history", game=game))}">history</a> · '
        f'<a href="{e(url("/players", game=game))}">standings</a>'
        + (f" · {doc}" if doc else "")
        + "</p>"
        f'<div class="snapshot">{snapshot}</div>'
        "</section>"
    )


def live_table_row(t: Mapping[str, Any]) -> str:
    game, table = str(t["game"]), str(t["table"])
    kind = t["event"]["kind"] if t.get("event") else ""
    return (
        f"<tr><td>{e(game_title(game))}</td>"
        f'<td><a href="{e(live_url(game, table))}">{e(table)}</a></td>'
        f"<td>{e(str(t.get('status', '')))}</td><td>{e(key_words(kind))}</td></tr>"
    )


def status(
    services: Sequence[Mapping[str, Any]],
    web: Mapping[str, Any] | None,
    tables: Sequence[Mapping[str, Any]],
    totals: Mapping[str, int],
) -> str:
    """The operators' page: every server with its protocol, endpoints (WebSocket ones too)
    and live snapshot, every live table, the records per game."""
    cards = "".join(service_card(s) for s in services) or (
        '<p class="muted">No game server is running in this hall.</p>'
    )
    rows = "".join(live_table_row(t) for t in tables[:50])
    live = (
        f'<table class="grid" id="live-tables"><tr><th>game</th><th>table</th><th>status</th>'
        f"<th>last event</th></tr>{rows}</table>"
        if rows
        else '<p class="muted" id="live-tables">No table has played since the hall started.</p>'
    )
    recorded = ", ".join(
        f'<a href="{e(url("/history", game=g))}">{e(g)}</a>: {n}' for g, n in totals.items()
    )
    web_part = ""
    if web:
        snap = web.get("snapshot", {})
        endpoints = "".join(f"<li><code>{e(x)}</code></li>" for x in web.get("endpoints", []))
        web_part = (
            '<section class="card service" data-game="web" id="web-hall">'
            f"<h3>web hall <small>{e(str(web.get('protocol', '')))}</small></h3>"
            f'<ul class="endpoints">{endpoints}</ul>'
            f'<p><a href="/doc/web.md">how it works</a> · <a href="/docs">JSON API</a> · '
            f"{int(snap.get('clients', 0))} live spectators · "
            f"{float(snap.get('cpu_seconds', 0.0)):.1f} s CPU spent on live views</p></section>"
        )
    return (
        "<h1>Status</h1>"
        '<p class="lead">For operators and bot authors: the servers of this hall, where '
        "clients connect (TCP, UDP and WebSocket endpoints) and what each is doing now.</p>"
        f'<h2>Servers</h2><div class="cards" id="services">{cards}{web_part}</div>'
        f"<h2>Live tables</h2>{live}"
        f"<h2>On record</h2><p>{recorded or 'nothing yet'}</p>"
    )


def _names_in(players: Any) -> list[str]:
    if isinstance(players, Mapping):
        players = list(players.values())
    names: list[str] = []
    if isinstance(players, list):
        for p in players:
            if isinstance(p, str):
                names.append(p)
            elif isinstance(p, Mapping) and isinstance(p.get("name") or p.get("id"), str):
                names.append(str(p.get("name") or p.get("id")))
    return names


def _player_names(data: Mapping[str, Any]) -> list[str]:
    """Who sits at a live table, from its newest event (each game says it its own way:
    Onitama ``white``/``black``, mariáš and tiles a ``players`` list, or the view's)."""
    pair = [data[k] for k in ("white", "black") if isinstance(data.get(k), str)]
    if pair:
        return pair
    names = _names_in(data.get("players"))
    view = data.get("view")
    if not names and isinstance(view, Mapping):
        names = _names_in(view.get("players"))
    return names[:8]


def watch_item(t: Mapping[str, Any]) -> str:
    game, table = str(t["game"]), str(t["table"])
    event = t.get("event") or {}
    data = event.get("data") if isinstance(event, Mapping) else None
    data = data if isinstance(data, Mapping) else {}
    names = _player_names(data)
    deal = data.get("game_no")
    what = game_title(game)
    extra = f", deal {int(deal)}" if isinstance(deal, int) else ""
    who = ", ".join(names) if names else "players arriving"
    return (
        f'<li data-game="{e(game)}" data-table="{e(table)}">'
        f'<a href="{e(live_url(game, table))}"><b>{e(what)}</b>{e(extra)}</a> '
        f'<span class="muted">{e(who)}</span></li>'
    )


def recent_item(m: StoredMatch, summary: str) -> str:
    what = game_title(m.game)
    names = ", ".join(f'<a href="{e(player_url(p.name))}">{e(p.name)}</a>' for p in m.players[:6])
    return (
        f'<li data-id="{m.id}"><a href="/matches/{m.id}"><b>{e(what)}</b></a> '
        f'{names}: {e(summary)} <span class="muted">{when(m.finished_at)} UTC</span></li>'
    )


def home(
    play: Sequence[tuple[str, str]],
    lobby: bool,
    tables: Sequence[Mapping[str, Any]],
    recent: Sequence[tuple[StoredMatch, str]],
    person: str | None,
) -> str:
    """The page for people: play, watch, the lobby, what happened lately. Servers, ports and
    protocols are on :func:`status`."""
    buttons = "".join(
        f'<a class="play-button" href="{e(path)}">{e(title)}</a> ' for path, title in play
    )
    if lobby:
        buttons += '<a class="play-button secondary" href="/lobby">Lobby</a> '
    if not buttons:
        buttons = '<span class="muted">No game in this hall can be played in the browser.</span>'
    who = (
        f'You play as <a href="{e(player_url(person))}">{e(person)}</a>.'
        if person
        else 'You play under a guest name; <a href="/signup">sign up</a> to keep a name of '
        'your own (or <a href="/signin">sign in</a>).'
    )
    live = [t for t in tables if t.get("status") == "live"]
    watch = (
        '<ul class="watch" id="live-tables">' + "".join(watch_item(t) for t in live[:20]) + "</ul>"
        if live
        else '<p class="muted" id="live-tables">No table is playing right now.</p>'
    )
    results = (
        '<ul class="recent" id="recent">' + "".join(recent_item(m, s) for m, s in recent) + "</ul>"
        if recent
        else '<p class="muted" id="recent">Nothing played yet.</p>'
    )
    return (
        '<link rel="stylesheet" href="/static/play.css">'
        "<h1>Herna</h1>"
        '<p class="lead">A game hall where bots and people play: Mia dice, licitovaný '
        "mariáš, Onitama and tile games.</p>"
        f'<section class="home-part" id="play-now"><h2>Play</h2><p class="buttons">{buttons}'
        f'</p><p class="muted">In this browser, nothing to install. {who}</p></section>'
        f'<section class="home-part" id="watch"><h2>Watch</h2>{watch}'
        '<p><a href="/live">all live tables</a></p></section>'
        f'<section class="home-part" id="results"><h2>Recent results</h2>{results}'
        '<p><a href="/history">all results</a> · <a href="/players">players and ratings</a>'
        "</p></section>"
        '<p class="muted" id="for-operators">Running bots or this hall? '
        '<a href="/status">Servers, ports and protocols</a> · <a href="/doc">docs</a></p>'
        '<p class="muted" id="for-designers">Designing a tile game? '
        '<a href="/tools/balance">Test the balance of your rules</a></p>'
    )


# -- play ---------------------------------------------------------------------------------


def play_onitama(guest: str, running: bool, reconnect_window: float | None) -> str:
    """The page where a person plays Onitama (drawn and driven by static/play-onitama.js)."""
    if not running:
        return (
            "<h1>Play Onitama</h1>"
            '<p class="error" id="play-status">The Onitama server is not running in this hall '
            "(start <code>herna serve</code> with it).</p>"
        )
    window = (
        f" within {reconnect_window:g} seconds" if reconnect_window and reconnect_window > 0 else ""
    )
    return (
        '<link rel="stylesheet" href="/static/play.css">'
        "<h1>Play Onitama</h1>"
        f'<p class="lead">You play as <b id="play-name">{e(guest)}</b>. Choose your opponent: '
        "a person (you wait for one; if nobody comes a house bot sits down), people only, or a "
        "house bot at once. Click one of your pawns, then a "
        "highlighted square (or use Tab and Enter). A reload, or closing the tab and coming "
        f"back{e(window)}, returns you to your seat. "
        '<a href="/doc/games/onitama.md">The rules</a>.</p>'
        '<div class="play" id="play" data-phase="connecting">'
        '<div class="play-main">'
        '<p class="play-status" id="play-status" role="status" aria-live="polite">'
        "Connecting…</p>"
        '<p class="play-note" id="play-note" aria-live="polite"></p>'
        '<div id="play-board"></div>'
        '<div class="play-prompt" id="play-prompt"></div>'
        "</div>"
        '<div class="play-side"><h2>Moves</h2><ol class="play-moves" id="play-moves"></ol>'
        '<p class="muted"><a href="/doc/games/onitama.md">The rules</a></p></div>'
        "</div>"
        "<noscript><p>Playing needs JavaScript; any Onitama client can also connect to the "
        "server over TCP (see the protocol doc).</p></noscript>"
        '<script src="/static/play-page.js" defer></script>'
        '<script src="/static/play-onitama-choice.js" defer></script>'
        '<script src="/static/play-onitama-rules.js" defer></script>'
        '<script src="/static/play-onitama-view.js" defer></script>'
        '<script src="/static/play-onitama.js" defer></script>'
        '<script src="/static/tournament-seat.js" defer></script>'
    )


# -- live ---------------------------------------------------------------------------------


def live(game: str | None, table: str | None, games: Iterable[str]) -> str:
    title = "Live" + (f": {game_title(game)}" if game else "") + (f" / {table}" if table else "")
    links = " ".join(f'<a href="{e(live_url(g))}">{e(game_title(g))}</a>' for g in games)
    return (
        f"<h1>{e(title)}</h1>"
        f'<p class="filters">{links}{" · " if links else ""}<a href="/live">all</a> '
        '<span id="live-status" class="status">connecting…</span></p>'
        f'<div id="live" class="tables{" single" if table else ""}">'
        '<p class="muted empty">Waiting for a table to play…</p></div>'
    )


# -- history ------------------------------------------------------------------------------

RESULT_CHOICES = (
    ("", "any result"),
    ("won", "won (by the player)"),
    ("lost", "lost (by the player)"),
    ("finished", "finished"),
    ("aborted", "aborted"),
    ("canceled", "canceled"),
)
FILTER_KEYS = ("game", "player", "since", "until", "result")


def _players_cell(m: StoredMatch) -> str:
    return ", ".join(
        f'<a href="{e(player_url(p.name))}">{e(p.name)}</a> {e(num(p.score))}'
        + (" ★" if p.winner else "")
        for p in m.players
    )


def _where_and_result(m: StoredMatch) -> str:
    """``the people's table, round 4: ann lost …`` (Mia), else the result alone."""
    where = table_name(m.game, m.table_id)
    return f"{where}: {match_summary(m)}" if where else match_summary(m)


def match_rows(matches: Sequence[StoredMatch]) -> str:
    """Rows of the generic match table (player pages): the result in words, not the table's
    id (a code nobody reads)."""
    return "".join(
        f'<tr data-id="{m.id}"><td><a href="/matches/{m.id}">#{m.id}</a></td>'
        f"<td>{e(game_title(m.game))}</td>"
        f"<td>{e(_where_and_result(m))}</td><td>{when(m.finished_at)}</td>"
        f"<td>{e(m.status)}</td><td>{_players_cell(m)}</td></tr>"
        for m in matches
    )


def results_table(matches: Sequence[StoredMatch], summaries: Mapping[int, str]) -> str:
    """One game's matches: id, when, who played, and what happened in words."""
    rows = "".join(
        f'<tr data-id="{m.id}" data-status="{e(m.status)}">'
        f'<td data-label="game"><a href="/matches/{m.id}">#{m.id}</a></td>'
        f'<td data-label="finished">{when(m.finished_at)}</td>'
        f'<td data-label="players">{_players_cell(m)}</td>'
        f'<td data-label="result">{e(summaries.get(m.id, ""))}</td></tr>'
        for m in matches
    )
    return (
        '<table class="grid results"><thead><tr><th>game</th><th>finished (UTC)</th>'
        f"<th>players</th><th>result</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def _span(a: datetime, b: datetime) -> str:
    minutes = int((b - a).total_seconds() // 60)
    return f"{minutes // 60} h {minutes % 60} min" if minutes >= 60 else f"{minutes} min"


def sessions_table(sessions: Sequence[MiaSession], flt: Mapping[str, str]) -> str:
    """Mia sessions: one row per evening, opening to its rounds."""
    rows = []
    for s in sessions:
        ranking = ", ".join(
            f'<a href="{e(player_url(p.name))}">{e(p.name)}</a> {p.points}'
            f'<span class="muted">/{p.rounds}</span>'
            for p in s.ranking()
        )
        span = f"{s.table}.{s.first_id}-{s.last_id}"
        link = url("/history", **{**flt, "game": "mia", "session": span})
        canceled = f", {s.canceled} canceled" if s.canceled else ""
        rows.append(
            f'<tr data-session="{e(span)}">'
            f'<td data-label="session"><a href="{e(link)}">{s.rounds} rounds</a>'
            f'<span class="muted">{canceled}</span></td>'
            f'<td data-label="table">{e(table_words(s.table))}</td>'
            f'<td data-label="when">{when(s.started_at)} – {when(s.ended_at)} '
            f'<span class="muted">({_span(s.started_at, s.ended_at)})</span></td>'
            f'<td data-label="points">{ranking or "–"}</td></tr>'
        )
    return (
        '<table class="grid results sessions"><thead><tr><th>session</th><th>table</th>'
        "<th>when (UTC)</th>"
        '<th title="rounds not lost / rounds played">points</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def history_form(flt: Mapping[str, str], games: Sequence[str]) -> str:
    options = '<option value="">any game</option>' + "".join(
        f'<option value="{e(g)}"{" selected" if flt.get("game") == g else ""}>'
        f"{e(game_title(g))}</option>"
        for g in games
    )
    results = "".join(
        f'<option value="{v}"{" selected" if flt.get("result", "") == v else ""}>{e(t)}</option>'
        for v, t in RESULT_CHOICES
    )
    session = (
        f'<input type="hidden" name="session" value="{e(flt["session"])}">'
        if flt.get("session")
        else ""
    )
    return (
        '<form class="filters" method="get" action="/history">'
        f'<label>game <select name="game">{options}</select></label> '
        f'<label>player <input name="player" value="{e(flt.get("player", ""))}" '
        'list="player-names" autocomplete="off" size="12"></label> '
        f'<label>from <input type="date" name="since" value="{e(flt.get("since", ""))}">'
        "</label> "
        f'<label>to <input type="date" name="until" value="{e(flt.get("until", ""))}">'
        "</label> "
        f'<label>result <select name="result">{results}</select></label>{session} '
        '<button type="submit">Filter</button> <a href="/history">clear</a></form>'
    )


@dataclass(frozen=True)
class GameSection:
    """One game's part of the history page."""

    game: str
    total: int
    matches: Sequence[StoredMatch] = ()
    summaries: Mapping[int, str] = field(default_factory=dict)
    sessions: Sequence[MiaSession] | None = None
    offset: int = 0
    limit: int = 0
    more: bool = False


def game_section(sec: GameSection, flt: Mapping[str, str], paged: bool) -> str:
    noun = "round" if sec.game == "mia" else "game"
    count = f"{sec.total} {noun}{'' if sec.total == 1 else 's'}"
    if sec.sessions is not None:
        body = (
            sessions_table(sec.sessions, flt)
            if sec.sessions
            else '<p class="muted">No session matches these filters.</p>'
        )
        count += f" in sessions (the same players, no pause over {SESSION_GAP_MINUTES} min)"
    else:
        body = (
            results_table(sec.matches, sec.summaries)
            if sec.matches
            else '<p class="muted">Nothing matches these filters.</p>'
        )
    more = ""
    if paged:
        base = {**flt, "game": sec.game}
        links = []
        if sec.offset > 0:
            back = url("/history", **base, offset=max(0, sec.offset - sec.limit) or None)
            links.append(f'<a href="{e(back)}" rel="prev">← newer</a>')
        if sec.more:
            links.append(
                f'<a href="{e(url("/history", **base, offset=sec.offset + sec.limit))}" '
                'rel="next">older →</a>'
            )
        more = f'<p class="pager">{" ".join(links)}</p>'
    elif sec.more:
        all_link = url("/history", **{**flt, "game": sec.game})
        what = GAME_TITLES.get(sec.game, sec.game)
        more = f'<p class="more"><a href="{e(all_link)}">all {e(what)} history →</a></p>'
    return (
        f'<section class="game-history" id="history-{e(sec.game)}" data-game="{e(sec.game)}">'
        f'<h2>{e(game_title(sec.game))} <small class="muted">{e(count)}</small>'
        f"</h2>{body}{more}</section>"
    )


def history(
    sections: Sequence[GameSection],
    flt: Mapping[str, str],
    games: Sequence[str],
    paged: bool,
    session: MatchFilterView | None = None,
) -> str:
    """The history page: every game in its own section (or one game, paged)."""
    head = "<h1>History</h1>" + history_form(flt, games)
    if session is not None:
        back = url("/history", **{k: v for k, v in flt.items() if k != "session"})
        at = f" at {table_words(session.table)}" if session.table else ""
        head += (
            f'<p class="session-head">Mia session{e(at)}: rounds #{session.first_id} to '
            f'#{session.last_id} · <a href="{e(back)}">all sessions</a></p>'
        )
    if not sections:
        return head + '<p class="muted" id="matches">No recorded game matches these filters.</p>'
    return head + "".join(game_section(s, flt, paged) for s in sections)


def table_name(game: str, table_id: str) -> str | None:
    """A Mia round's table and number in words (``the people's table, round 4``: each Mia
    table numbers its own rounds); None for other games, whose table ids say it."""
    table, _, number = table_id.rpartition("-")
    if game == "mia" and table and number.isdigit():
        return f"{table_words(table)}, round {number}"
    return None


def table_line(game: str, table_id: str) -> str:
    """Where a match was played: ``table g4``, ``the bots' table, round 1201``."""
    return table_name(game, table_id) or f"table {table_id}"


@dataclass(frozen=True)
class MatchFilterView:
    first_id: int
    last_id: int
    table: str | None = None


STATUS_WORDS = {
    "aborted": "stopped before the end",
    "canceled": "canceled before it began",
}
"""A record's status as the match page says it (a finished game needs no word)."""


def match_heading(m: StoredMatch) -> str:
    """What the match page's heading says: the game (a tile game by its rules) and who
    played, ``Onitama: ann against bob``; ids and seeds are left to the details."""
    names = [p.name for p in sorted(m.players, key=lambda p: p.seat)]
    title = game_title(m.game)
    rules = m.meta.get("rules_name") if m.game == "tiles" else None
    if rules:
        title = rules_title(str(rules))
    if len(names) == 2:
        who = f"{names[0]} against {names[1]}"
    elif len(names) > 2:
        who = ", ".join(names[:-1]) + " and " + names[-1]
    else:
        who = "".join(names)
    return f"{title}: {who}" if who else title


def match_when(m: StoredMatch) -> str:
    """When a game was played and for how long, in words (times as ``when`` prints them)."""
    if m.started_at is None:
        return f"finished {when(m.finished_at)}" if m.finished_at else ""
    played = f"played {when(m.started_at)}"
    if m.finished_at is not None:
        played += f", for {e(waited_words((m.finished_at - m.started_at).total_seconds()))}"
    return played


def match_page(m: StoredMatch, place: MatchPlace | None = None) -> str:
    players = "".join(
        f'<tr><td>{p.seat + 1}</td><td><a href="{e(player_url(p.name))}">{e(p.name)}</a></td>'
        f"<td>{e(KIND_WORDS.get(p.kind, p.kind))}</td><td>{e(num(p.score))}</td>"
        f"<td>{'★' if p.winner else ''}</td></tr>"
        for p in m.players
    )
    where = table_name(m.game, m.table_id)
    tiles_game = f"{game_title(m.game)} · " if m.game == "tiles" else ""
    return (
        f'<h1 id="match-heading">{e(match_heading(m))}</h1>'
        f'<p class="lead" id="match-summary">{e(tiles_game)}{e(match_summary(m))} · '
        + (f"{e(STATUS_WORDS.get(m.status, m.status))} · " if m.status != "finished" else "")
        + match_when(m)
        + (f" · {e(where)}" if where else "")
        + "</p>"
        '<details class="muted" id="match-details"><summary>Details for game designers'
        "</summary><p>"
        f"record number {m.id} · table id <code>{e(m.table_id)}</code> · random seed "
        f"<code>{e(str(m.seed))}</code> (the same seed and moves replay the same game)"
        "</p></details>"
        + (
            f'<p id="tournament-place">A game of <a href="/tournaments/{place.tournament_id}">'
            f"{e(place.tournament)}</a>: round {place.round}, board {place.board}.</p>"
            if place is not None
            else ""
        )
        + '<table class="grid" id="match-players"><tr><th>seat</th><th>player</th>'
        f"<th>kind</th><th>score</th><th>winner</th></tr>{players}</table>"
        + '<h2>Result</h2><ul id="result" class="result">'
        + "".join(f"<li>{e(line)}</li>" for line in result_lines(m))
        + "</ul>"
        f'<p class="export">Export: <a href="/api/matches/{m.id}/export">JSON</a> · '
        f'<a href="/api/matches/{m.id}/text">'
        + ("game record (notation)" if m.game == "onitama" else "text")
        + "</a></p>"
        + (
            f'<p class="export"><a id="review-link" href="/matches/{m.id}/review">'
            f"{REVIEW_LINKS[m.game][0]}</a>: {REVIEW_LINKS[m.game][1]}</p>"
            if m.game in REVIEW_LINKS
            else ""
        )
        + '<h2>Replay</h2><div id="replay" class="replay">'
        '<div class="controls">'
        '<button data-step="first" title="first step (Home)">« first</button>'
        '<button data-step="prev" title="previous step (←)">‹ prev</button>'
        '<button data-step="play" title="play / pause (space)">play</button>'
        '<button data-step="next" title="next step (→)">next ›</button>'
        '<button data-step="last" title="last step (End)">last »</button>'
        '<input type="range" min="0" max="0" value="0" id="replay-slider">'
        '<span id="replay-pos">loading…</span></div>'
        '<p id="replay-label" class="label"></p>'
        '<div id="replay-view" class="view"></div>'
        '<ol id="replay-steps" class="steps"></ol></div>'
    )


# -- players ------------------------------------------------------------------------------


def standings_table(rows: Sequence[Standing]) -> str:
    if not rows:
        return '<p class="muted">No standings yet.</p>'
    body = "".join(
        f'<tr><td>{i}</td><td><a href="{e(player_url(s.name))}">{e(s.name)}</a></td>'
        f"<td>{e(num(s.points))}</td><td>{s.games}</td><td>{s.wins}</td>"
        f"<td>{e(num(s.wins / s.games if s.games else None))}</td>"
        f"<td>{e(num(s.mu))}</td><td>{e(num(s.sigma))}</td><td>{e(num(s.ordinal))}</td></tr>"
        for i, s in enumerate(rows, 1)
    )
    return (
        '<table class="grid" id="standings"><tr><th>#</th><th>player</th><th>points</th>'
        "<th>games</th><th>wins</th><th>win rate</th>"
        + '<th title="OpenSkill: the skill estimate">skill μ</th>'
        '<th title="OpenSkill: how uncertain the estimate is">uncertainty σ</th>'
        f'<th title="μ − 3σ">rating</th></tr>{body}</table>'
    )


def players(game: str | None, games: Sequence[str], rows: Sequence[Standing]) -> str:
    links = " ".join(
        f'<a href="{e(url("/players", game=g))}"{" class=active" if g == game else ""}>{e(g)}</a>'
        for g in games
    )
    form = (
        '<form class="filters" method="get" action="/players">'
        '<label>player <input name="name" list="player-names" autocomplete="off"></label> '
        '<button type="submit">Show</button></form>'
    )
    title = f"Standings: {game}" if game else "Players"
    body = standings_table(rows) if game else '<p class="muted">Pick a game.</p>'
    return f'<h1>{e(title)}</h1><p class="filters">{links}</p>{form}{body}'


def player(name: str, stats: Sequence[GameStats], recent: Sequence[StoredMatch]) -> str:
    rows = "".join(
        f'<tr><td><a href="{e(url("/players", game=s.game))}">{e(game_title(s.game))}</a></td>'
        f"<td>{e(num(s.points))}</td><td>{s.games}</td><td>{s.rated_games}</td><td>{s.wins}</td>"
        f"<td>{e(num(s.wins / s.games if s.games else None))}</td>"
        f"<td>{e(num(s.mu))}</td><td>{e(num(s.sigma))}</td><td>{e(num(s.ordinal))}</td>"
        f"<td>{s.matches}</td><td>{s.canceled}</td><td>{e(num(s.average_score))}</td>"
        f"<td>{when(s.last_played)}</td></tr>"
        for s in stats
    )
    table = (
        '<div class="scroll"><table class="grid" id="player-stats"><tr><th>game</th>'
        "<th>points</th><th>games</th>"
        '<th title="games that moved the rating, as the chart counts them">rated games</th>'
        '<th>wins</th><th>win rate</th><th title="OpenSkill: the skill estimate">skill μ</th>'
        '<th title="OpenSkill: how uncertain the estimate is">uncertainty σ</th>'
        '<th title="μ − 3σ">rating</th><th>matches</th><th>canceled</th>'
        f"<th>avg score</th><th>last played</th></tr>{rows}</table></div>"
    )
    recent_rows = match_rows(recent)
    return (
        f"<h1>{e(name)}</h1>{table}<!-- charts -->"
        '<h2>Recent games</h2><div class="scroll"><table class="grid"><tr><th>id</th>'
        "<th>game</th><th>result</th>"
        f"<th>finished (UTC)</th><th>status</th><th>players</th></tr>{recent_rows}</table></div>"
        f'<p><a href="{e(url("/history", player=name))}">all games of {e(name)}</a> · '
        f'<a href="/api/players/{e(quote(name, safe=""))}/results.csv">results as CSV</a></p>'
    )


def error(title: str, message: str, back: str = "/") -> str:
    """The body of an error page (404, 400 ...): what happened and a way on (``back``: the
    page again without its query, for a bad filter; else home)."""
    way = "home" if back == "/" else "start again"
    return (
        f'<h1>{e(title)}</h1><p class="error">{e(message)}</p>'
        f'<p><a href="{e(quote(back))}">{way}</a></p>'
    )


def doc(title: str, rendered: str, raw_url: str) -> str:
    return (
        f'<p class="muted"><a href="{e(raw_url)}">plain text</a></p>'
        f'<article class="doc" aria-label="{e(title)}">{rendered}</article>'
    )


def names_datalist(names: Sequence[str]) -> str:
    return (
        '<datalist id="player-names">'
        + "".join(f'<option value="{e(n)}">' for n in names)
        + "</datalist>"
    )


def doc_index(files: Sequence[str]) -> str:
    items = "".join(f'<li><a href="/doc/{e(quote(f))}">{e(f)}</a></li>' for f in files)
    return "<h1>Docs</h1>" + (f"<ul>{items}</ul>" if items else "<p>No docs found.</p>")

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
from urllib.parse import quote

from markupsafe import Markup

from herna.games.mia.text import REASONS, table_words
from herna.games.tiles.rules import rules_title, shipped_rules
from herna.hall.lobby import waited_words
from herna.hall.records import Standing, StoredMatch
from herna.hall.replays import match_summary, result_lines
from herna.hall.tournament_store import MatchPlace
from herna.web.i18n import (
    CURRENT_LOCALE,
    CURRENT_TARGET,
    LANGUAGES,
    N_,
    format_number,
    format_when,
    ngettext,
    script_messages,
)
from herna.web.i18n import gettext as _
from herna.web.queries import SESSION_GAP, GameStats, MiaSession
from herna.web.templating import TEMPLATES, json_block, render, url

SESSION_GAP_MINUTES = int(SESSION_GAP.total_seconds() // 60)

e = html.escape

GAME_TITLES = {"marias": "mariáš", "mia": "Mia", "onitama": "Onitama", "tiles": "tile games"}
"""A game's name in running text, in English (the catalogs' source)."""
_GAME_HEADINGS = {
    "marias": N_("Mariáš"),
    "mia": N_("Mia"),
    "onitama": N_("Onitama"),
    "tiles": N_("Tile games"),
}
KIND_WORDS = {
    "house-bot": N_("house bot"),
    "bot": N_("bot"),
    "person": N_("person"),
    "human": N_("person"),
    "unknown": N_("not known"),
}
"""A player's kind as records keep it, in words."""


def game_title(game: str) -> str:
    """A game's name as a heading or a menu shows it, in the page's language: ``Mariáš``,
    ``Tile games`` (ids like ``marias`` stay in URLs and the API)."""
    if game in _GAME_HEADINGS:
        return _(_GAME_HEADINGS[game])
    title = game.replace("_", " ")
    return title[:1].upper() + title[1:]


def game_titles() -> dict[str, str]:
    """Every game's title, for the pages' scripts (``Herna.page.titles``, static/hall.js)."""
    return {game: game_title(game) for game in GAME_TITLES}


LIVE_TABLE_WORDS = {"mia": "the bots' table", "people": "the people's table"}
"""The Mia tables' live ids (``/live/mia/people``) in words, for the Live page's cards."""


def player_url(name: str) -> str:
    return "/players/" + quote(name, safe="")


def live_url(game: str, table: str | None = None) -> str:
    out = "/live/" + quote(game, safe="")
    return out + ("/" + quote(table, safe="") if table is not None else "")


def layout(
    title: str,
    body: str,
    renderers: Sequence[str] = (),
    page: Mapping[str, Any] | None = None,
    active: str = "",
    account: tuple[str | None, str | None] = (None, None),
) -> str:
    """A whole page: ``body`` (markup) in the hall's layout (templates/layout.html), in the
    page's language; ``page`` goes to the page's scripts with the game titles and the
    scripts' messages."""
    data = None
    if page is not None:
        data = json_block({**page, "titles": game_titles(), "messages": script_messages()})
    return TEMPLATES.get_template("layout.html").render(
        title=title,
        body=Markup(body),
        renderers=renderers,
        page_json=data,
        active=active,
        person=account[0],
        csrf=account[1],
        lang=CURRENT_LOCALE.get(),
        languages=[
            (code, name, url("/language", to=code, next=CURRENT_TARGET.get()))
            for code, name in LANGUAGES.items()
        ],
    )


def when(value: datetime | None) -> str:
    """A ``<time>`` as the page's language writes it (UTC)."""
    if value is None:
        return ""
    return f'<time datetime="{e(value.isoformat())}">{e(format_when(value))}</time>'


def num(value: float | None, digits: int = 2) -> str:
    """A number as the page's language writes it; ``–`` for none."""
    if value is None:
        return "–"
    return format_number(value, digits)


TEMPLATES.env.globals.update(game_title=game_title, number=num)
"""Every template names games and writes numbers as the pages do."""


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


def watch_item(t: Mapping[str, Any]) -> dict[str, Any]:
    """A table playing now, as the home page lists it: the game, the deal, who sits there."""
    game, table = str(t["game"]), str(t["table"])
    event = t.get("event") or {}
    data = event.get("data") if isinstance(event, Mapping) else None
    data = data if isinstance(data, Mapping) else {}
    deal = data.get("game_no")
    return {
        "game": game,
        "table": table,
        "href": live_url(game, table),
        "title": game_title(game),
        "deal": int(deal) if isinstance(deal, int) else None,
        "names": _player_names(data),
    }


def home(
    play: Sequence[tuple[str, str]],
    lobby: bool,
    tables: Sequence[Mapping[str, Any]],
    recent: Sequence[tuple[StoredMatch, str]],
    person: str | None,
) -> str:
    """The page for people: play, watch, the lobby, what happened lately. Servers, ports and
    protocols are on :func:`status`."""
    live = [watch_item(t) for t in tables if t.get("status") == "live"]
    return render(
        "home.html",
        play=play,
        lobby=lobby,
        tables=live[:20],
        recent=recent,
        person=person,
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
    ("", N_("any result")),
    ("won", N_("won (by the player)")),
    ("lost", N_("lost (by the player)")),
    ("finished", N_("finished")),
    ("aborted", N_("aborted")),
    ("canceled", N_("canceled")),
)
FILTER_KEYS = ("game", "player", "since", "until", "result")


def _where_and_result(m: StoredMatch) -> str:
    """``the people's table, round 4: ann lost …`` (Mia), else the result alone."""
    where = table_name(m.game, m.table_id)
    said = match_summary(m, CURRENT_LOCALE.get())
    return f"{where}: {said}" if where else said


def _span(a: datetime, b: datetime) -> str:
    minutes = int((b - a).total_seconds() // 60)
    if minutes >= 60:
        return _("%(h)d h %(min)d min") % {"h": minutes // 60, "min": minutes % 60}
    return _("%(min)d min") % {"min": minutes}


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


def _section(sec: GameSection, flt: Mapping[str, str], paged: bool) -> dict[str, Any]:
    """What the history template shows of one game: its count in words, its rows, its links."""
    if sec.game == "mia":
        count = ngettext("%(n)d round", "%(n)d rounds", sec.total) % {"n": sec.total}
    else:
        count = ngettext("%(n)d game", "%(n)d games", sec.total) % {"n": sec.total}
    sessions = None
    if sec.sessions is not None:
        count += " " + _("in sessions (the same players, no pause over %(n)d min)") % {
            "n": SESSION_GAP_MINUTES
        }
        sessions = []
        for s in sec.sessions:
            span = f"{s.table}.{s.first_id}-{s.last_id}"
            sessions.append(
                {
                    "span": span,
                    "link": url("/history", **{**flt, "game": "mia", "session": span}),
                    "rounds": s.rounds,
                    "canceled": s.canceled,
                    "table": table_words(s.table),
                    "started_at": s.started_at,
                    "ended_at": s.ended_at,
                    "took": _span(s.started_at, s.ended_at),
                    "ranking": s.ranking(),
                }
            )
    base = {**flt, "game": sec.game}
    newer = older = None
    if paged and sec.offset > 0:
        newer = url("/history", **base, offset=max(0, sec.offset - sec.limit) or None)
    if paged and sec.more:
        older = url("/history", **base, offset=sec.offset + sec.limit)
    return {
        "game": sec.game,
        "count": count,
        "sessions": sessions,
        "matches": sec.matches,
        "summaries": sec.summaries,
        "more": sec.more,
        "newer": newer,
        "older": older,
        "all_link": url("/history", **base),
    }


def history(
    sections: Sequence[GameSection],
    flt: Mapping[str, str],
    games: Sequence[str],
    paged: bool,
    session: MatchFilterView | None = None,
    names: Sequence[str] = (),
) -> str:
    """The history page: every game in its own section (or one game, paged)."""
    return render(
        "history.html",
        sections=[_section(s, flt, paged) for s in sections],
        flt=flt,
        games=games,
        paged=paged,
        session=session,
        session_table=table_words(session.table) if session and session.table else None,
        session_back=url("/history", **{k: v for k, v in flt.items() if k != "session"}),
        result_choices=[(value, _(words)) for value, words in RESULT_CHOICES],
        names=names,
    )


def table_name(game: str, table_id: str) -> str | None:
    """A Mia round's table and number in words (``the people's table, round 4``: each Mia
    table numbers its own rounds); None for other games, whose table ids say it."""
    table, _sep, number = table_id.rpartition("-")
    if game == "mia" and table and number.isdigit():
        return _("%(table)s, round %(n)s") % {"table": table_words(table), "n": number}
    return None


@dataclass(frozen=True)
class MatchFilterView:
    first_id: int
    last_id: int
    table: str | None = None


STATUS_WORDS = {
    "aborted": N_("stopped before the end"),
    "canceled": N_("canceled before it began"),
}
"""A record's status as the match page says it (a finished game needs no word)."""


def kind_words(kind: str) -> str:
    """A player's kind as records keep it (``house-bot``), in the page's language."""
    return _(KIND_WORDS[kind]) if kind in KIND_WORDS else kind


def match_heading(m: StoredMatch) -> str:
    """What the match page's heading says: the game (a tile game by its rules) and who
    played, ``Onitama: ann against bob``; ids and seeds are left to the details."""
    names = [p.name for p in sorted(m.players, key=lambda p: p.seat)]
    title = game_title(m.game)
    rules = m.meta.get("rules_name") if m.game == "tiles" else None
    if rules:
        title = rules_title(str(rules))
    if len(names) == 2:
        who = _("%(a)s against %(b)s") % {"a": names[0], "b": names[1]}
    elif len(names) > 2:
        who = _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}
    else:
        who = "".join(names)
    return f"{title}: {who}" if who else title


def match_when(m: StoredMatch) -> Markup:
    """When a game was played and for how long, in words (times as ``when`` prints them)."""
    if m.started_at is None:
        return (
            Markup(_("finished %(when)s")) % {"when": Markup(when(m.finished_at))}
            if m.finished_at
            else Markup()
        )
    if m.finished_at is None:
        return Markup(_("played %(when)s")) % {"when": Markup(when(m.started_at))}
    took = waited_words((m.finished_at - m.started_at).total_seconds())
    return Markup(_("played %(when)s, for %(took)s")) % {
        "when": Markup(when(m.started_at)),
        "took": took,
    }


def match_page(m: StoredMatch, place: MatchPlace | None = None) -> str:
    """One recorded game: heading, result in words, players, exports, the replay stepper."""
    return render(
        "match.html",
        m=m,
        place=place,
        heading=match_heading(m),
        summary=match_summary(m, CURRENT_LOCALE.get()),
        status=_(STATUS_WORDS.get(m.status, m.status)) if m.status != "finished" else "",
        played=match_when(m),
        where=table_name(m.game, m.table_id),
        result=result_lines(m, CURRENT_LOCALE.get()),
        kind_words=kind_words,
    )


# -- players ------------------------------------------------------------------------------


def status_words(status: str) -> str:
    """A record's status (finished, aborted, canceled) in the page's language."""
    said = dict(RESULT_CHOICES).get(status)
    return _(said) if said else status


def players(
    game: str | None, games: Sequence[str], rows: Sequence[Standing], names: Sequence[str] = ()
) -> str:
    """The standings of a game (or the choice of one) and the way to a player's page."""
    return render(
        "players.html",
        game=game,
        games=games,
        rows=rows,
        names=names,
    )


def player(
    name: str, stats: Sequence[GameStats], recent: Sequence[StoredMatch], charts: str = ""
) -> str:
    """A player's page: statistics per game, the rating charts (markup of
    :mod:`herna.web.charts`) and the recent games."""
    return render(
        "player.html",
        name=name,
        stats=stats,
        recent=recent,
        charts=Markup(charts),
        where_and_result=_where_and_result,
        status_words=status_words,
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


def doc_index(files: Sequence[str]) -> str:
    items = "".join(f'<li><a href="/doc/{e(quote(f))}">{e(f)}</a></li>' for f in files)
    return "<h1>Docs</h1>" + (f"<ul>{items}</ul>" if items else "<p>No docs found.</p>")

"""Server-rendered HTML of the web hall's pages (plain strings, everything escaped).

Pages work without JavaScript for what is static (servers, history, statistics); the live
views and the replay stepper are drawn in the browser by ``static/hall.js`` and the
per-game renderers in ``static/games/``. Page-specific data travels in a
``<script type="application/json" id="herna-page">`` block.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import quote, urlsplit

from markupsafe import Markup

from herna.games.mia.text import REASONS, TABLES, reason_words, table_words
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
from herna.web.snapshot_words import CODE_WORDS, PHASE_WORDS, SERVICE_WORDS
from herna.web.templating import TEMPLATES, json_block, render, render_macro, url

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


LIVE_TABLE_WORDS = {"mia": TABLES["round"], "people": TABLES["people-round"]}
"""The Mia tables' live ids (``/live/mia/people``) in words (messages of the catalogs, said
in the page's language by :func:`live_table_words`), for the Live page's cards."""


def live_table_words() -> dict[str, str]:
    """:data:`LIVE_TABLE_WORDS` in the page's language."""
    return {table: _(words) for table, words in LIVE_TABLE_WORDS.items()}


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
        signin_href=signin_href(),
    )


def signin_href() -> str:
    """The header's *Sign in*: back to this page after signing in (or up)."""
    target = CURRENT_TARGET.get()
    if urlsplit(target).path in ("/", "/signin", "/signup"):
        return "/signin"
    return url("/signin", next=target)


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
    "rounds_played": N_("rounds played"),
    "rounds_canceled": N_("rounds canceled"),
    "people_table": N_("the people's table"),
    "answer_window": N_("seconds to answer"),
    "cpu_seconds": N_("CPU seconds"),
    "numplayers": N_("players per table"),
    "inflight": N_("requests unanswered"),
    "fill": N_("empty seats"),
    "STALE_TOKEN": N_("late or repeated answers"),
    "NOT_A_JOIN": N_("answers to a join that were no join"),
    "WRONG_PLAYER": N_("answers from a player whose turn it was not"),
    "RATE_LIMIT": N_("too many messages"),
}
VALUE_WORDS = {
    "licitovany_marias": "licitovaný mariáš",
    "house-bot": N_("house bot"),
    "person": N_("person"),
    "bot": N_("bot"),
    "white": N_("white"),
    "black": N_("black"),
    "anyone": N_("anyone"),
    # what becomes of a seek's empty seats (herna.hall.lobby.fill_words; "after 30 s" stays)
    "house bots fill them at once": N_("house bots fill them at once"),
    "no house bots fill them": N_("no house bots fill them"),
    **{name: rules_title(name) for name in shipped_rules()},  # a tile table's rules
    **PHASE_WORDS,
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
    if text in SNAPSHOT_WORDS:
        return _(SNAPSHOT_WORDS[text])
    if text in CODE_WORDS:
        return _(CODE_WORDS[text])
    if text in REASONS:  # Mia's loss reasons, as the game says them in the page's language
        return reason_words(text, CURRENT_LOCALE.get())
    if _CODE.fullmatch(text) and (text.isupper() or text.islower()):
        return text.replace("_", " ").lower()
    return text  # a player's name stays as the player wrote it


def seated_words(players: Sequence[Mapping[str, Any]]) -> str:
    """A CGML table's players (``{"name", "race", "joined"}``) in words: ``anna (bot), bob
    (person, not joined yet)``; static/hall.js ``seatedWords`` says the same."""
    out = []
    for p in players:
        said = {"name": p.get("name") or p.get("id") or "?", "kind": kind_words(str(p.get("race")))}
        late = p.get("joined") is False
        out.append(
            (_("%(name)s (%(kind)s, not joined yet)") if late else _("%(name)s (%(kind)s)")) % said
        )
    return ", ".join(out)


def value_shape(value: Any, depth: int = 0) -> str:
    """How the Status page shows a JSON-ready value (service snapshots; ``status.html``'s
    ``value``): a key-value table, a grid of rows (in a ``.scroll`` box, so a narrow screen
    scrolls it), items one under another (a grid in a grid's cell does not fit a card), a
    list in words, or the value itself in words."""
    if value is None:
        return "none"
    if isinstance(value, Mapping):
        return "map" if value else "empty-map"
    if isinstance(value, list | tuple):
        if not value:
            return "empty-list"
        if all(isinstance(v, Mapping) and "name" in v and "race" in v for v in value):
            return "seated"
        if all(not isinstance(v, Mapping | list | tuple) for v in value):
            return "plain-list"
        if all(isinstance(v, Mapping) for v in value):
            return "items" if depth >= 2 else "rows"
        return "json"
    if isinstance(value, bool):
        return "bool"
    return "value"


def row_keys(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every key of a list of records, in the order they first appear (a grid's columns)."""
    keys: list[str] = []
    for v in rows:
        keys += [str(k) for k in v if str(k) not in keys]
    return keys


def value_words(value: Any) -> str:
    """A snapshot's value (a code such as the CGML game name, a player's kind, a colour) in
    words, in the page's language; nothing (a web page's missing dialect) as a dash."""
    if value is None:
        return "–"
    if isinstance(value, str) and value in VALUE_WORDS:
        return _(VALUE_WORDS[value])  # (a game's own name is no catalog message: it stays)
    if isinstance(value, str) and value in GAME_TITLES:  # a seek's game: its name
        return game_title(value)
    return str(value)


_NOTED = re.compile(r"(?P<address>\S+) \((?P<note>[^()]+)\)")


def service_words(text: str) -> str:
    """A server's protocol name or endpoint (``udp://…:18101 (the people's table)``) in the
    page's language: the servers write them in English for the JSON API and the logs."""
    if text in SERVICE_WORDS:
        return _(text)
    noted = _NOTED.fullmatch(text)
    if noted and noted["note"] in SERVICE_WORDS:
        return f"{noted['address']} ({_(noted['note'])})"
    return text


def status_script_words() -> dict[str, dict[str, str]]:
    """The Status page's tables for its script (static/hall.js ``keyWords``, ``seatedWords``,
    ``valueNode``), in the page's language."""
    return {
        "words": {k: key_words(k) for k in (*KEY_WORDS, *CODE_WORDS)},
        "kinds": {k: kind_words(k) for k in KIND_WORDS},
        "values": {k: value_words(k) for k in (*VALUE_WORDS, *GAME_TITLES)},
    }


def wide_snapshot(snapshot: Any) -> bool:
    """A snapshot with a table of many columns (a CGML server's, a hub's seeks) gets the
    status page's whole row."""

    def widest(v: Any) -> int:
        if isinstance(v, Mapping):
            return max((widest(x) for x in v.values()), default=0)
        if isinstance(v, list | tuple):
            here = len(row_keys(v)) if v and all(isinstance(x, Mapping) for x in v) else 0
            return max([here, *(widest(x) for x in v)])
        return 0

    return widest(snapshot) > 6


TABLE_STATUS = {"live": N_("live"), "over": N_("over"), "closed": N_("closed")}
"""A live table's status (the hub's code) in words, as static/hall.js says it."""


def table_status(status: str) -> str:
    return _(TABLE_STATUS[status]) if status in TABLE_STATUS else status


TEMPLATES.env.globals.update(
    shape=value_shape,
    row_keys=row_keys,
    key_words=lambda key: key_words(key),
    seated_words=lambda players: seated_words(players),
    wide=wide_snapshot,
    live_url=lambda game, table=None: live_url(game, table),
    table_status=table_status,
    service_words=service_words,
)
TEMPLATES.env.filters["value_words"] = value_words


def value_html(value: Any) -> str:
    """A snapshot as the Status page shows it (its ``value`` macro)."""
    return render_macro("status_parts.html", "value", value)


# -- home ---------------------------------------------------------------------------------


def status(
    services: Sequence[Mapping[str, Any]],
    web: Mapping[str, Any] | None,
    tables: Sequence[Mapping[str, Any]],
    totals: Mapping[str, int],
    trouble: str | None = None,
) -> str:
    """The operators' page: every server with its protocol, endpoints (WebSocket ones too)
    and live snapshot, every live table, the records per game."""
    snap = (web or {}).get("snapshot", {})
    return render(
        "status.html",
        services=services,
        web=web,
        web_clients=int(snap.get("clients", 0)),
        web_cpu=format_number(float(snap.get("cpu_seconds", 0.0)), 1),
        tables=tables[:50],
        totals=totals,
        trouble=trouble,
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
    """The page where a person plays Onitama (templates/play_onitama.html, drawn and driven by
    static/play-onitama.js), in the page's language."""
    window = (
        format_number(reconnect_window, 1) if reconnect_window and reconnect_window > 0 else None
    )
    return render("play_onitama.html", guest=guest, running=running, window=window)


# -- live ---------------------------------------------------------------------------------


def live_title(game: str | None, table: str | None) -> str:
    """``Live: Onitama / t3``: the live page's heading and title, in the page's language."""
    title = _("Live")
    if game:
        title += f": {game_title(game)}"
    return title + (f" / {table}" if table else "")


def live(game: str | None, table: str | None, games: Iterable[str]) -> str:
    """The live page's frame (templates/live.html); static/hall.js draws the tables."""
    links = [(live_url(g), game_title(g)) for g in games]
    return render("live.html", title=live_title(game, table), links=links, single=bool(table))


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
                    "table": table_words(s.table, CURRENT_LOCALE.get()),
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
        session_table=table_words(session.table, CURRENT_LOCALE.get())
        if session and session.table
        else None,
        session_back=url("/history", **{k: v for k, v in flt.items() if k != "session"}),
        result_choices=[(value, _(words)) for value, words in RESULT_CHOICES],
        names=names,
    )


def table_name(game: str, table_id: str) -> str | None:
    """A Mia round's table and number in words (``the people's table, round 4``: each Mia
    table numbers its own rounds); None for other games, whose table ids say it."""
    table, _sep, number = table_id.rpartition("-")
    if game == "mia" and table and number.isdigit():
        return _("%(table)s, round %(n)s") % {
            "table": table_words(table, CURRENT_LOCALE.get()),
            "n": number,
        }
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
        title = rules_title(str(rules), CURRENT_LOCALE.get())
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
    game: str | None,
    games: Sequence[str],
    rows: Sequence[Standing],
    names: Sequence[str] = (),
    leaders: Mapping[str, Sequence[Standing]] | None = None,
) -> str:
    """The standings of a game (or, with no game chosen, the ``leaders`` of each) and the way
    to a player's page."""
    return render(
        "players.html",
        game=game,
        games=games,
        rows=rows,
        names=names,
        leaders=leaders or {},
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
    return render("error.html", title=title, message=message, back=quote(back))


def doc(title: str, rendered: str, raw_url: str) -> str:
    return (
        f'<p class="muted"><a href="{e(raw_url)}">plain text</a></p>'
        f'<article class="doc" aria-label="{e(title)}">{rendered}</article>'
    )


def doc_index(files: Sequence[str]) -> str:
    items = "".join(f'<li><a href="/doc/{e(quote(f))}">{e(f)}</a></li>' for f in files)
    return "<h1>Docs</h1>" + (f"<ul>{items}</ul>" if items else "<p>No docs found.</p>")

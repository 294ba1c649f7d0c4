"""Where one entrant stands in a tournament, in words: the round, their game or their bye,
their place and points, a compact table around them, and at the end their final rank.

Computed from the stored tournament alone (its games, and the timetable a live tournament
keeps in its settings, :mod:`herna.hall.tournament_timetable`), so the web hall of any
process can answer it. The play pages show it beside the board
(``/tournaments/ID/entrant.json``, ``static/tournament-seat.js``), and so does the terminal.
Times stay out of the sentences: a sentence that names one says ``{at}`` and the view carries
the moment as ``at`` (ISO 8601), for the reader to put in its own local time.
"""

from __future__ import annotations

from typing import Any

from herna.core.lang import N_
from herna.hall.tournament import Row, fmt_points
from herna.hall.tournament_store import Tournament
from herna.hall.tournament_timetable import read_time

COMPACT_TOP = 3
"""The compact table shows the first places, then the entrant and its neighbours."""


Said = dict[str, Any]
"""A sentence for people, as data: ``{"text": template, "args": {name: value}}`` with an
English ``%(name)s`` template marked for the catalog (``N_``) and each value a string or
another :data:`Said`; a count of points is ``{"points": "1½", "n": 1}``. :func:`english`
says it as the terminal and the tests read it; the web hall says it in the page's language
(herna/web/tournaments.py, ``said_words``)."""


def said(text: str, **args: Any) -> Said:
    return {"text": text, "args": args}


def english(words: Any) -> str:
    """A :data:`Said` (or a plain value) in English."""
    if isinstance(words, dict) and "points" in words:
        shown = str(words["points"])
        return f"{shown} point" + ("" if shown == "1" else "s")
    if isinstance(words, dict):
        return str(words["text"]) % {k: english(v) for k, v in words["args"].items()}
    return str(words)


def ordinal(n: int) -> str:
    """>>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']"""
    return english(ordinal_said(n))


def ordinal_said(n: int) -> Said:
    """A place, ``1st`` (Czech: ``1.``)."""
    if 10 <= n % 100 <= 20:
        return said(N_("%(n)sth"), n=n)
    suffix = {1: N_("%(n)sst"), 2: N_("%(n)snd"), 3: N_("%(n)srd")}
    return said(suffix.get(n % 10, N_("%(n)sth")), n=n)


def _points(value: Any) -> Said:
    text = fmt_points(value)
    whole = value == int(value)
    return {"points": text, "n": int(value) if whole else 5}


def place_said(rows: list[Row], row: Row) -> Said:
    """``2nd of 5``, ``shared 2nd of 5``."""
    shared = sum(1 for r in rows if r.rank == row.rank) > 1
    text = N_("shared %(place)s of %(of)s") if shared else N_("%(place)s of %(of)s")
    return said(text, place=ordinal_said(row.rank), of=len(rows))


def place_words(rows: list[Row], row: Row) -> str:
    return english(place_said(rows, row))


def compact(rows: list[Row], name: str) -> list[dict[str, Any]]:
    """The first places, then the entrant with the ones just above and below (a row
    ``{"gap": true}`` where places are left out)."""
    key = name.casefold()
    mine = next((i for i, r in enumerate(rows) if r.name.casefold() == key), None)
    shown = set(range(min(COMPACT_TOP, len(rows))))
    if mine is not None:
        shown |= {i for i in (mine - 1, mine, mine + 1) if 0 <= i < len(rows)}
    out: list[dict[str, Any]] = []
    last = -1
    for i in sorted(shown):
        if i > last + 1:
            out.append({"gap": True})
        r = rows[i]
        out.append(
            {"rank": r.rank, "name": r.name, "points": fmt_points(r.points), "me": i == mine}
        )
        last = i
    if last < len(rows) - 1:
        out.append({"gap": True})
    return out


def _opponents_said(game: str, seats: list[str], me: int) -> tuple[Said, str | None]:
    """'robo, as White' (two seats: seat 0 is White) or 'a, b and c (you sit in seat 2)'."""
    others = [n for i, n in enumerate(seats) if i != me]
    if len(seats) == 2:
        if game != "onitama":
            return said("%(name)s", name=others[0]), None
        text = N_("%(name)s, as White") if me == 0 else N_("%(name)s, as Black")
        return said(text, name=others[0]), ("white", "black")[me]
    listed = said(N_("%(names)s and %(last)s"), names=", ".join(others[:-1]), last=others[-1])
    return said(N_("%(names)s (you sit in seat %(seat)s)"), names=listed, seat=me + 1), None


def entrant_view(tour: Tournament, name: str) -> dict[str, Any]:
    """What ``name`` sees of ``tour`` on a play page (JSON-ready): ``message`` and ``place``
    in English, and the same as :data:`Said` in ``said`` for a page to say in its language."""
    settings = tour.settings
    rows = tour.standings()
    key = name.casefold()
    row = next((r for r in rows if r.name.casefold() == key), None)
    entered = any(e.name.casefold() == key for e in tour.entrants)
    # Before the start every entrant would be "shared 1st" of however many have entered so far.
    started = tour.status != "entry"
    place = place_said(rows, row) if row is not None and entered and started else None
    view: dict[str, Any] = {
        "id": tour.id,
        "name": tour.name,
        "game": tour.game,
        "status": tour.status,
        "url": f"/tournaments/{tour.id}",
        "entrant": name if entered else None,
        "place": english(place) if place is not None else None,
        "rank": row.rank if row is not None else None,
        "of": len(rows),
        "points": fmt_points(row.points) if row is not None else None,
        "standings": compact(rows, name),
        "round": None,
        "rounds": settings.get("round_count"),
        "board": None,
        "at": None,
    }
    view["kind"], message = _now(tour, name, view, rows, row)
    view["message"] = english(message)
    view["said"] = {"message": message, "place": place}
    return view


def _now(
    tour: Tournament, name: str, view: dict[str, Any], rows: list[Row], row: Row | None
) -> tuple[str, Said]:
    """(kind, sentence) of where the entrant is now."""
    settings = tour.settings
    key = name.casefold()
    if view["entrant"] is None:
        return "outside", said(
            N_("%(name)s has not entered %(tournament)s."), name=name, tournament=tour.name
        )
    if tour.status in ("finished", "aborted"):
        place = place_said(rows, row) if row is not None else said(N_("unplaced"))
        if tour.status == "aborted":
            return "over", said(N_("The tournament was stopped; you stood %(place)s."), place=place)
        return "over", said(N_("The tournament is over — you finished %(place)s."), place=place)
    options = settings.get("options") or {}
    if tour.status == "entry":
        start = read_time(options.get("starts_at"))
        if start is not None:
            view["at"] = start.isoformat()
            return "entry", said(N_("You are entered. The tournament starts at %(at)s."), at="{at}")
        return "entry", said(
            N_("You are entered. The tournament starts when its organiser starts it.")
        )
    timetable: dict[str, Any] = settings.get("timetable") or {}
    started = sorted(int(k) for k, v in timetable.items() if "started" in v)
    if not started:
        return "playing", said(
            N_("The tournament is under way: you are paired as soon as you are free.")
        )
    number = started[-1]
    view["round"] = number
    last = view["rounds"] is not None and number >= int(view["rounds"])
    then, view["at"] = _next(settings, number, last)
    boards = timetable[str(number)].get("boards") or []
    mine = next((b for b in boards if key in (n.casefold() for n in b)), None)
    if mine is None:
        return "waiting", said(N_("Round %(round)s is under way without you."), round=number)
    if len(mine) == 1:
        bye = _points(tour.bye_points)
        return "bye", said(
            N_("You have a bye this round: %(points)s; %(next)s"), points=bye, next=then
        )
    seat = [n.casefold() for n in mine].index(key)
    done = any(
        g.board.round == number and key in (n.casefold() for n in g.seats) for g in tour.games
    )
    against, colour = _opponents_said(tour.game, mine, seat)
    view["board"] = {"seats": mine, "seat": seat, "colour": colour}
    if done:
        return "between", said(
            N_("Your game of round %(round)s is over; %(next)s"), round=number, next=then
        )
    return "game", said(N_("Round %(round)s: you play %(against)s."), round=number, against=against)


def _next(settings: dict[str, Any], number: int, last: bool) -> tuple[Said, str | None]:
    """When the entrant's next game comes, in words (and the time ``{at}`` stands for: the
    reader puts it in its own local time)."""
    if last:
        return said(N_("this is the last round: the tournament ends when its games do.")), None
    due = settings.get("next_round") or {}
    if due.get("round") == number + 1 and read_time(due.get("at")) is not None:
        text = N_("your next game starts when round %(round)s does, at %(at)s.")
        return said(text, round=number + 1, at="{at}"), str(due["at"])
    return said(N_("your next game starts when round %(round)s does."), round=number + 1), None

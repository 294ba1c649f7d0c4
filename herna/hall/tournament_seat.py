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

from herna.hall.tournament import Row, fmt_points
from herna.hall.tournament_store import Tournament
from herna.hall.tournament_timetable import read_time

COMPACT_TOP = 3
"""The compact table shows the first places, then the entrant and its neighbours."""


def ordinal(n: int) -> str:
    """>>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']"""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def _points(value: Any) -> str:
    text = fmt_points(value)
    return f"{text} point" + ("" if text == "1" else "s")


def place_words(rows: list[Row], row: Row) -> str:
    shared = sum(1 for r in rows if r.rank == row.rank) > 1
    return f"{'shared ' if shared else ''}{ordinal(row.rank)} of {len(rows)}"


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


def _opponents_words(game: str, seats: list[str], me: int) -> tuple[str, str | None]:
    """'robo, as White' (two seats: seat 0 is White) or 'a, b and c (you sit in seat 2)'."""
    others = [n for i, n in enumerate(seats) if i != me]
    if len(seats) == 2:
        colour = ("White", "Black")[me] if game == "onitama" else None
        return others[0] + (f", as {colour}" if colour else ""), (colour or "").lower() or None
    listed = ", ".join(others[:-1]) + f" and {others[-1]}"
    return f"{listed} (you sit in seat {me + 1})", None


def entrant_view(tour: Tournament, name: str) -> dict[str, Any]:
    """What ``name`` sees of ``tour`` on a play page (JSON-ready)."""
    settings = tour.settings
    rows = tour.standings()
    key = name.casefold()
    row = next((r for r in rows if r.name.casefold() == key), None)
    entered = any(e.name.casefold() == key for e in tour.entrants)
    view: dict[str, Any] = {
        "id": tour.id,
        "name": tour.name,
        "game": tour.game,
        "status": tour.status,
        "url": f"/tournaments/{tour.id}",
        "entrant": name if entered else None,
        "place": place_words(rows, row) if row is not None and entered else None,
        "rank": row.rank if row is not None else None,
        "of": len(rows),
        "points": fmt_points(row.points) if row is not None else None,
        "standings": compact(rows, name),
        "round": None,
        "rounds": settings.get("round_count"),
        "board": None,
        "at": None,
    }
    view["kind"], view["message"] = _now(tour, name, view, rows, row)
    return view


def _now(
    tour: Tournament, name: str, view: dict[str, Any], rows: list[Row], row: Row | None
) -> tuple[str, str]:
    """(kind, sentence) of where the entrant is now."""
    settings = tour.settings
    key = name.casefold()
    if view["entrant"] is None:
        return "outside", f"{name} has not entered {tour.name}."
    if tour.status in ("finished", "aborted"):
        place = place_words(rows, row) if row is not None else "unplaced"
        if tour.status == "aborted":
            return "over", f"The tournament was stopped; you stood {place}."
        return "over", f"The tournament is over — you finished {place}."
    options = settings.get("options") or {}
    if tour.status == "entry":
        start = read_time(options.get("starts_at"))
        if start is not None:
            view["at"] = start.isoformat()
            return "entry", "You are entered. The tournament starts at {at}."
        return "entry", "You are entered. The tournament starts when its organiser starts it."
    timetable: dict[str, Any] = settings.get("timetable") or {}
    started = sorted(int(k) for k, v in timetable.items() if "started" in v)
    if not started:
        return "playing", "The tournament is under way: you are paired as soon as you are free."
    number = started[-1]
    view["round"] = number
    last = view["rounds"] is not None and number >= int(view["rounds"])
    then = _next(settings, number, last)
    view["at"] = then[1]
    boards = timetable[str(number)].get("boards") or []
    mine = next((b for b in boards if key in (n.casefold() for n in b)), None)
    if mine is None:
        return "waiting", f"Round {number} is under way without you."
    if len(mine) == 1:
        bye = _points(tour.bye_points)
        return "bye", f"You have a bye this round: {bye}; {then[0]}"
    seat = [n.casefold() for n in mine].index(key)
    done = any(
        g.board.round == number and key in (n.casefold() for n in g.seats) for g in tour.games
    )
    against, colour = _opponents_words(tour.game, mine, seat)
    view["board"] = {"seats": mine, "seat": seat, "colour": colour}
    if done:
        return "between", f"Your game of round {number} is over; {then[0]}"
    return "game", f"Round {number}: you play {against}."


def _next(settings: dict[str, Any], number: int, last: bool) -> tuple[str, str | None]:
    """When the entrant's next game comes, in words (and the time ``{at}`` stands for)."""
    if last:
        return "this is the last round: the tournament ends when its games do.", None
    due = settings.get("next_round") or {}
    if due.get("round") == number + 1 and read_time(due.get("at")) is not None:
        return f"your next game starts when round {number + 1} does, at {{at}}.", str(due["at"])
    return f"your next game starts when round {number + 1} does.", None

"""The season table (the standings of several tournaments summed) and one entrant's view of
a tournament in words, checked by hand; and ``herna tournament season`` on a database file."""

from __future__ import annotations

import asyncio
import csv
import io
import re
from datetime import UTC, datetime
from fractions import Fraction as F

import httpx
import pytest

from herna.cli import main
from herna.hall.db import make_engine
from herna.hall.tournament import Board, Game, Row
from herna.hall.tournament.season import Part, season_csv, season_table
from herna.hall.tournament_seat import compact, entrant_view, ordinal
from herna.hall.tournament_store import Entrant, Tournament, TournamentStore
from tests.web.conftest import start_web, stop_web


def _row(rank: int, name: str, points: F, wins: int = 0) -> Row:
    return Row(rank, name, points, 2, wins, 0, 2 - wins, 0)


# Three tournaments, by hand:
#   #3: ada 2 (2 wins), ben 1, cleo 0      #4: ben 2, cleo 1, dan 1
#   #7: ada ½, cleo 1½ (1 win)
# Sums: ada 2½ (2 wins, best 1st), ben 3 (3 wins), cleo 2½ (1 win, best 1st in #7),
#       dan 1.  ada and cleo tie on points: ada has more wins, so ada is 2nd and cleo 3rd.
PARTS = [
    Part(3, "Autumn 1", [_row(1, "ada", F(2), 2), _row(2, "ben", F(1), 1), _row(3, "cleo", F(0))]),
    Part(4, "Autumn 2", [_row(1, "ben", F(2), 2), _row(2, "Cleo", F(1)), _row(2, "dan", F(1))]),
    Part(7, "Autumn 3", [_row(2, "ada", F(1, 2)), _row(1, "cleo", F(3, 2), 1)]),
]


def test_points_are_summed_and_ties_go_by_wins_then_the_best_place() -> None:
    rows = season_table(PARTS)
    assert [(r.rank, r.name, r.points) for r in rows] == [
        (1, "ben", F(3)),
        (2, "ada", F(5, 2)),
        (3, "cleo", F(5, 2)),
        (4, "dan", F(1)),
    ]
    ben, ada, cleo, _ = rows
    assert ben.by_part == (F(1), F(2), None) and ben.played == 2 and ben.wins == 3
    assert cleo.by_part == (F(0), F(1), F(3, 2)) and cleo.best == 1  # "Cleo" is cleo
    assert ada.places == (1, None, 2)
    # Equal in everything: a shared place.
    same = season_table([Part(1, "x", [_row(1, "a", F(1)), _row(1, "b", F(1))])])
    assert [r.rank for r in same] == [1, 1]


def test_the_season_csv_leaves_a_missed_tournament_empty() -> None:
    text = season_csv(PARTS, season_table(PARTS))
    assert text.splitlines() == [
        "rank,name,points,#3 Autumn 1,#4 Autumn 2,#7 Autumn 3,tournaments,games,wins,draws,losses",
        "1,ben,3,1,2,,2,4,3,0,1",
        "2,ada,2.5,2,,0.5,2,4,2,0,2",
        "3,cleo,2.5,0,1,1.5,3,6,1,0,5",
        "4,dan,1,,1,,1,2,0,0,2",
    ]


def _tour(status: str, settings: dict[str, object], games: tuple[Game, ...] = ()) -> Tournament:
    return Tournament(
        9,
        "Class 4B",
        "onitama",
        "round-robin",
        status,
        datetime(2026, 12, 1, 13, 0, tzinfo=UTC),
        None,
        None,
        tuple(Entrant(n, "person", "") for n in ("ada", "ben", "cleo")),
        {"table_size": 2, "live": True, **settings},
        games,
    )


def test_an_entrant_is_told_the_round_the_bye_the_next_round_and_the_final_place() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 11, 22)] == ["1st", "2nd", "3rd", "11th", "22nd"]
    boards = {"1": {"started": "2026-12-01T13:00:00+00:00", "boards": [["ada", "ben"], ["cleo"]]}}
    running = _tour("running", {"timetable": boards, "round_count": 3})
    bye = entrant_view(running, "Cleo")
    assert (bye["kind"], bye["round"], bye["rounds"]) == ("bye", 1, 3)
    assert bye["message"] == (
        "You have a bye this round: 0 points; your next game starts when round 2 does."
    )
    game = entrant_view(running, "ada")
    assert game["message"] == "Round 1: you play ben, as White."
    assert entrant_view(running, "ben")["message"] == "Round 1: you play ada, as Black."
    # ada beat ben; the next round waits out its pause, and its time is named.
    won = (Game(Board(1, 1, ("ada", "ben")), (1.0, 0.0)), Game(Board(1, 2, ("cleo",))))
    paused = _tour(
        "running",
        {
            "timetable": {"1": {**boards["1"], "ended": "2026-12-01T13:05:00+00:00"}},
            "round_count": 3,
            "next_round": {"round": 2, "at": "2026-12-01T13:07:00+00:00"},
        },
        won,
    )
    between = entrant_view(paused, "ada")
    assert between["kind"] == "between" and between["at"] == "2026-12-01T13:07:00+00:00"
    assert between["message"] == (
        "Your game of round 1 is over; your next game starts when round 2 does, at {at}."
    )
    assert between["place"] == "1st of 3" and between["points"] == "1"
    assert entrant_view(paused, "dan")["kind"] == "outside"
    over = entrant_view(_tour("finished", {}, won), "ben")
    assert over["message"] == "The tournament is over — you finished shared 2nd of 3."
    assert over["url"] == "/tournaments/9"
    entry = entrant_view(
        _tour("entry", {"options": {"starts_at": "2026-12-01T14:00:00+00:00"}}), "ada"
    )
    assert entry["message"] == "You are entered. The tournament starts at {at}."


def test_the_compact_table_shows_the_top_and_the_entrant_with_its_neighbours() -> None:
    rows = [_row(i, f"p{i}", F(10 - i)) for i in range(1, 11)]
    shown = compact(rows, "p7")
    assert [r.get("name", "…") for r in shown] == ["p1", "p2", "p3", "…", "p6", "p7", "p8", "…"]
    assert [r["name"] for r in shown if r.get("me")] == ["p7"]


def test_herna_tournament_season_prints_and_exports_the_table(
    database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    store = TournamentStore(make_engine(database_url))
    ids = []
    for name, results in (("one", ((1.0, 0.0),)), ("two", ((0.0, 1.0),))):
        tid = store.create(name, "onitama", "round-robin", [], {"table_size": 2})
        for entrant in ("ada", "ben"):
            store.add_entrant(tid, Entrant(entrant, "bot", ""))
        for ranks in results:
            store.add_game(tid, Game(Board(1, 1, ("ada", "ben")), ranks))
        store.finish(tid)
        ids.append(tid)
    assert (
        main(["tournament", "season", *map(str, ids), "--database-url", database_url, "--csv"]) == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert (
        lines[0]
        == f"rank,name,points,#{ids[0]} one,#{ids[1]} two,tournaments,games,wins,draws,losses"
    )
    assert sorted(lines[1:]) == ["1,ada,1,1,0,2,2,1,0,1", "1,ben,1,0,1,2,2,1,0,1"]
    assert (
        main(
            [
                "tournament",
                "season",
                *map(str, ids),
                "--database-url",
                database_url,
                "--name",
                "Autumn",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "Autumn" in out and "points summed" in out
    assert main(["tournament", "season", "999", "--database-url", database_url]) == 1
    assert "no tournament 999" in capsys.readouterr().out


def test_house_bots_are_rows_of_their_own_tournament() -> None:
    """A house bot called ``random`` in #3 (Onitama) and in #4 (a Mia session) are two bots,
    and a pupil's program called ``random`` in #5 is neither: three rows, each named where it
    played; a pupil's results over the tournaments are still summed."""
    parts = [
        Part(
            3, "Onitama", [_row(1, "random", F(1), 1), _row(2, "ada", F(0))], frozenset({"random"})
        ),
        Part(4, "Mia", [_row(1, "random", F(90)), _row(2, "Ada", F(40))], frozenset({"random"})),
        Part(5, "Swiss", [_row(1, "ada", F(2), 2), _row(2, "random", F(1), 1)]),
    ]
    rows = {r.name: r for r in season_table(parts)}
    assert set(rows) == {"random (house bot of #3)", "random (house bot of #4)", "random", "ada"}
    assert rows["random (house bot of #3)"].by_part == (F(1), None, None)
    assert rows["random (house bot of #4)"].by_part == (None, F(90), None)
    assert rows["random"].by_part == (None, None, F(1)) and rows["random"].played == 1
    assert rows["ada"].by_part == (F(0), F(40), F(2)) and rows["ada"].played == 3


def test_herna_tournament_season_names_the_house_bots_of_real_tournaments(
    database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two tournaments played by ``herna tournament run`` with house bots of the same
    strategies (Onitama, then a Mia session): the season table keeps each tournament's house
    bots apart and names them with it, in the CLI, its CSV and the web page's table."""
    db = ["--database-url", database_url]
    onitama = ["tournament", "run", "--game", "onitama", "--seed", "1", *db]
    assert main([*onitama, "house:random", "house:greedy"]) == 0
    mia = ["tournament", "run", "--game", "mia", "--format", "session", "--duration", "1"]
    assert main([*mia, "--seed", "1", *db, "house:random", "house:honest"]) == 0
    capsys.readouterr()
    store = TournamentStore(make_engine(database_url))
    first, second = sorted(t.id for t in store.recent())[-2:]
    assert main(["tournament", "season", str(first), str(second), *db, "--csv"]) == 0
    names = [line.split(",")[1] for line in capsys.readouterr().out.splitlines()[1:]]
    assert sorted(names) == sorted(
        [
            f"random (house bot of #{first})",
            f"greedy (house bot of #{first})",
            f"random (house bot of #{second})",
            f"honest (house bot of #{second})",
        ]
    )
    assert main(["tournament", "season", str(first), str(second), *db]) == 0
    out = capsys.readouterr().out
    # In 80 columns a house bot's name folds inside its cell, between words.
    assert out.count("random (house bot") == 2 and "A house bot is a row of its own" in out


async def test_the_season_page_names_the_house_bots_where_they_played(database_url: str) -> None:
    """The web hall's season table and CSV over tournaments that ``herna tournament run``
    played: each house bot a row of its tournament, a dash in the others."""
    db = ["--database-url", database_url]
    run = ["tournament", "run", "--game", "onitama", *db]
    for seed in ("1", "2"):
        assert (
            await asyncio.to_thread(main, [*run, "--seed", seed, "house:random", "house:greedy"])
            == 0
        )
    hall, web = await start_web(database_url)
    try:
        first, second = sorted(t.id for t in TournamentStore(hall.records.engine).recent())[-2:]
        async with httpx.AsyncClient(base_url=web.url) as http:
            page = await http.get(f"/tournaments/season?ids={first},{second}")
            assert page.status_code == 200
            cells = re.findall(r'<td class="who">([^<]*)</td>', page.text)
            assert sorted(cells) == sorted(
                f"{bot} (house bot of #{tid})"
                for bot in ("random", "greedy")
                for tid in (first, second)
            )
            assert "A house bot is a row of its own tournament." in page.text
            table = await http.get(f"/tournaments/season.csv?ids={first},{second}")
            rows = list(csv.reader(io.StringIO(table.text)))
            mine = next(r for r in rows if r[1] == f"random (house bot of #{second})")
            assert mine[3] == "" and mine[4] != ""  # not entered in the first: left empty
    finally:
        await stop_web(hall)

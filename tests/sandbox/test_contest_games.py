"""A contest of a game other than Onitama (issue 30): mariáš, from the entries through the
deadline to the final ranking, with three submitted starter kits and a house bot, in the real
sandbox over the real CGML servers and a real SQLite file. The final is the live tournament's
round-robin tables of three, each table one duplicate deal: three groups of the same cards
dealt from the same seat, the seating turned a seat on each time, so each bot holds each hand
once."""

from __future__ import annotations

import itertools
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from herna.hall.contests import ContestRefused, final_ranking, ranking
from herna.hall.records import RecordStore, StoredMatch
from herna.hall.tournament_store import Entrant, TournamentStore
from herna.servers.contest import SandboxedBots, table_seats
from herna.starters import starter
from tests.live_tournaments import finished
from tests.records import mia_round
from tests.sandbox.helpers import contest_hall

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is missing")


def kit(game: str) -> bytes:
    found = starter(game, "python")
    assert found is not None
    return found[1]


async def test_a_mariáš_contest_runs_from_its_entries_to_the_final_ranking(
    tmp_path: Path,
) -> None:
    async with contest_hall(tmp_path, "marias", cgml_house_tables=0, cgml_bot_delay=0.0) as held:
        hall, bots, contests = held.hall, held.bots, held.contests
        assert isinstance(hall.submitted, SandboxedBots)
        contest = held.open_contest("marias", kit("marias"), 1, ("easy",))
        # A bot of another game cannot enter: the refusal names the contest's game.
        bots.submit("oni", "onitama", "bot.py", kit("onitama"), person="pupil-d")
        with pytest.raises(ContestRefused, match="you have no marias bot named 'oni'"):
            contests.enter(contest.id, "oni", "pupil-d")
        await held.close_entries(contest)

        tid = await hall.submitted.start_final(contest.id)
        store = TournamentStore(hall.records.engine)
        tour = await finished(store, tid, timeout=120)
        assert tour.status == "finished", tour.status
        played = [g for g in tour.games if not g.board.bye]
        # Four players at tables of three: four rounds, each one sitting out once, so
        # every three of them share a table once.
        assert len(played) == 4
        field = [e.name for e in tour.entrants]
        assert len(field) == 4 and {"ada", "bea", "cyril"} < set(field)
        assert {frozenset(g.seats) for g in played} == {
            frozenset(t) for t in itertools.combinations(field, 3)
        }
        for game in played:
            assert game.forfeit is None, game  # every table played its three deals out
            assert sum(game.ranks) == 0  # mariáš money: what one wins the others pay

        # Duplicate deals: each table is three groups of one deal, from one seed and the
        # same dealer's seat, the seating turned a seat on each time: each bot held the
        # forhont's, the prostřední's and the zadák's cards once, each time in a new sandbox.
        hall.records.flush()
        deals = [
            m
            for m in hall.records.matches(game="marias", limit=100)
            if str(m.meta.get("tournament", "")).startswith(f"{tid}/")
        ]
        assert len(deals) == 12
        tables: dict[str, list[StoredMatch]] = {}
        for m in deals:
            tables.setdefault(str(m.meta["tournament"]), []).append(m)
        for dealt in tables.values():
            assert len({m.seed for m in dealt}) == 1, dealt
            assert len({m.meta["dealer"] for m in dealt}) == 1, dealt
            for role in range(3):  # the zadák (the dealer), the forhont, the prostřední
                holders = {
                    p.name
                    for m in dealt
                    for p in m.players
                    if p.seat == (int(m.meta["dealer"]) + role) % 3
                }
                assert len(holders) == 3, (role, dealt)
        assert len({dealt[0].seed for dealt in tables.values()}) == 4  # new cards each table

        versions = {e.name: e.version.version for e in contests.entries(contest.id) if e.version}
        final = ranking(tour.games, versions)
        assert len(final) == 4 and final[0].rank == 1
        assert all(r.games == 3 and r.low <= r.points / 3 <= r.high for r in final)
        assert abs(sum(r.points for r in final) - 6) < 1e-9  # a point a pair of seats


def test_a_tile_contest_names_a_rules_file_of_the_hall(tmp_path: Path) -> None:
    assert table_seats("marias", None) == 3 and table_seats("onitama", None) == 2
    with pytest.raises(ContestRefused, match="a tile contest names its rules file"):
        table_seats("tiles", None)
    with pytest.raises(ContestRefused, match="'nowhere' is not a rules file of this hall"):
        table_seats("tiles", "nowhere")


def test_a_mia_finals_ranking_counts_the_sessions_rounds(tmp_path: Path) -> None:
    """A Mia final is a session: its ranking counts, from the round records of the session
    alone, the rounds each entrant played and did not lose (a point each, as the table
    scores them), with the interval of that share."""
    store = RecordStore(f"sqlite:///{tmp_path / 'herna.db'}")
    try:
        when = datetime.now(UTC)
        players = ["ada", "bea", "house-honest"]
        store.submit(mia_round(1, players, 1, when))  # before the session
        session = [mia_round(n, players, n, when) for n in range(2, 12)]
        for record in session:
            store.submit(record)
        store.submit(mia_round(12, players, 12, when))  # after it
        store.flush()
        ids = sorted(m.id for m in store.matches(game="mia", limit=100))
        tours = TournamentStore(store.engine)
        entrants = [Entrant(n, "bot", "at the Mia table") for n in ("ada", "bea")]
        tid = tours.create("Class 3B: the final", "mia", "session", entrants, {})
        tours.update_settings(tid, first_match=ids[1], last_match=ids[-2])
        tour = tours.get(tid)
        assert tour is not None
        table = final_ranking(store.engine, tour, {"ada": 1, "bea": 2})
        won = {
            name: sum(p.winner for r in session for p in r.players if p.name == name)
            for name in ("ada", "bea")
        }
        assert {r.name: (r.games, r.wins, r.points) for r in table} == {
            n: (10, won[n], won[n]) for n in won
        }
        assert [r.version for r in table] == [{"ada": 1, "bea": 2}[r.name] for r in table]
        assert table[0].points >= table[1].points and table[0].rank == 1
        assert all(r.low <= r.points / r.games <= r.high for r in table)
    finally:
        store.close()

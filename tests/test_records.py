from __future__ import annotations

from herna.hall.records import MatchRecord, PlayerResult, RecordStore


def _record(i: int, winner: str, loser: str) -> MatchRecord:
    return MatchRecord(
        game="mia",
        table_id=f"round-{i}",
        players=[PlayerResult(0, winner, 1.0, True, "bot"), PlayerResult(1, loser, 0.0)],
        result={"lost": [loser], "reason": "SEE_FAILED"},
        events=[("action", {"player": -1, "action": "3,1"}), ("see", {"name": loser})],
        seed=2**62 + i,
    )


def test_records_round_trip_standings_and_ratings(database_url: str) -> None:
    store = RecordStore(database_url)
    for i in range(30):
        store.submit(_record(i, "alice", "bob") if i % 3 else _record(i, "bob", "alice"))
    store.flush()
    assert store.count("mia") == 30
    newest = store.matches(game="mia", limit=5)
    assert [m.table_id for m in newest] == [f"round-{i}" for i in range(29, 24, -1)]
    full = store.get(newest[0].id)
    assert full is not None
    assert full.events[1] == ("see", {"name": "bob"})
    assert full.seed == 2**62 + 29
    standings = {s.name: s for s in store.standings("mia")}
    assert standings["alice"].points == 20 and standings["bob"].points == 10
    assert standings["alice"].games == 30
    assert standings["alice"].mu is not None and standings["bob"].mu is not None
    assert standings["alice"].mu > standings["bob"].mu
    assert store.points("mia", ["bob"]) == {"bob": 10}
    assert len(store.matches(player="bob", limit=100)) == 30
    store.close()
    # A new store on the same database sees everything (scores survive a restart).
    again = RecordStore(database_url)
    assert again.points("mia") == {"alice": 20, "bob": 10}
    again.close()


def test_canceled_records_do_not_score(database_url: str) -> None:
    store = RecordStore(database_url)
    rec = _record(1, "alice", "bob")
    rec.status, rec.rated = "canceled", False
    store.save(rec)
    assert store.count() == 1
    assert store.standings("mia") == []
    store.close()

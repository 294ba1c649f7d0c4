"""Mia storage grows with play, not with noise: compact round records (actions packed into
the match row) and a retention setting that deletes old rounds but never a point."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from sqlalchemy import func, select

from bench.log_volume import run as measure
from herna.cli.serve import retention
from herna.hall.db import MatchEventRow, MatchPlayerRow, make_engine
from herna.hall.records import MatchRecord, PlayerResult, RecordStore, new_key
from herna.hall.writer import MIN_KEEP, PACKED_EVENTS, prune, write_records

ACTIONS = [
    ("action", {"player": 0, "action": "ROLL"}),
    ("action", {"player": -1, "action": "DICE 4,2"}),
    ("action", {"player": 0, "action": "ANNOUNCE 4,2"}),
    ("action", {"player": 1, "action": "SEE"}),
]


def _round(i: int, game: str = "mia", packed: bool = True) -> MatchRecord:
    return MatchRecord(
        game=game,
        table_id=f"round-{i}",
        players=[PlayerResult(0, "alice", 1.0, True, "bot"), PlayerResult(1, "bob", 0.0)],
        result={"round": i, "order": ["alice", "bob"], "losers": ["bob"]},
        events=list(ACTIONS),
        meta={"round": i},
        packed=packed,
    )


def _event_rows(url: str) -> int:
    engine = make_engine(url)
    with engine.connect() as conn:
        n = int(conn.scalar(select(func.count()).select_from(MatchEventRow)) or 0)
    engine.dispose()
    return n


def test_a_packed_record_reads_back_the_same_events_without_event_rows(
    database_url: str,
) -> None:
    store = RecordStore(database_url)
    packed_id = store.save(_round(1))
    plain_id = store.save(_round(2, packed=False))
    odd = _round(3)
    odd.events.append(("timeout", {"name": "bob"}))  # not a plain action: kept as rows
    odd_id = store.save(odd)
    packed, plain, kept = store.get(packed_id), store.get(plain_id), store.get(odd_id)
    assert packed is not None and plain is not None and kept is not None
    assert packed.events == plain.events == tuple(ACTIONS)
    assert kept.events == (*ACTIONS, ("timeout", {"name": "bob"}))
    assert PACKED_EVENTS not in packed.meta and packed.meta == {"round": 1}
    assert _event_rows(database_url) == len(ACTIONS) + len(ACTIONS) + 1  # none for round 1
    store.close()


def test_pruning_keeps_the_newest_rounds_and_every_point(database_url: str) -> None:
    engine = make_engine(database_url)
    rounds = MIN_KEEP + 150
    write_records(engine, [(new_key(), _round(i)) for i in range(rounds)])
    write_records(engine, [(new_key(), _round(i, game="onitama")) for i in range(3)])
    assert prune(engine, {"mia": MIN_KEEP}) == 150
    assert prune(engine, {"mia": MIN_KEEP}) == 0
    store = RecordStore(database_url)
    assert store.count("mia") == MIN_KEEP and store.count("onitama") == 3
    oldest = store.matches(game="mia", limit=MIN_KEEP + 10)[-1]
    assert oldest.table_id == f"round-{rounds - MIN_KEEP}"
    standings = {s.name: s for s in store.standings("mia")}
    assert standings["alice"].games == rounds and standings["alice"].points == rounds
    with engine.connect() as conn:  # nothing of a deleted round is left behind
        players = conn.scalar(select(func.count()).select_from(MatchPlayerRow))
    assert players == 2 * (MIN_KEEP + 3)
    store.close()
    engine.dispose()


def test_the_writer_process_applies_the_retention_setting(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'herna.db'}"
    store = RecordStore(url, keep={"mia": MIN_KEEP})
    store.recover()
    total = 2 * MIN_KEEP + 600
    for i in range(total):
        store.submit(_round(i))
    store.flush()
    # Pruned once every 1000 records written: between N and N + 1000 are kept.
    assert MIN_KEEP <= store.count("mia") <= 2 * MIN_KEEP
    assert {s.name: s.games for s in store.standings("mia")} == {"alice": total, "bob": total}
    store.close()


def test_keep_mia_rounds_below_the_minimum_is_refused() -> None:
    args = argparse.Namespace(mia_keep_rounds=10)
    with pytest.raises(SystemExit, match="at least"):
        retention(args, {})
    assert retention(argparse.Namespace(mia_keep_rounds=None), {}) == {}
    assert retention(argparse.Namespace(), {"mia": {"keep_rounds": 5000}}) == {"mia": 5000}


@pytest.mark.serial
def test_a_mia_round_costs_under_1000_bytes_in_the_database() -> None:
    """A real `herna serve --only mia` with one outside bot (full speed). Before the records
    were compacted a round cost 1286 bytes (bench/log_volume.py)."""
    report = measure(8.0, True, ["--only", "mia"])
    # Enough rounds that the database's fixed overhead does not count (a loaded CI machine
    # plays ~60 rounds a second, an idle one ~150).
    assert isinstance(report["mia_rounds"], int) and report["mia_rounds"] > 300, report
    per_round = report["db_bytes_per_mia_round"]
    assert isinstance(per_round, int) and per_round < 1000, report
    # The log stays a summary however fast Mia plays: a line per round would be hundreds.
    # About 20 lines are the start-up's (each house bot of both tables says it registered).
    assert isinstance(report["log_lines"], int) and report["log_lines"] < 45, report

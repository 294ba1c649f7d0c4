"""Numbers never handed out twice (herna/hall/counters.py): by two processes on one
database (each with its own store and journal, as on two machines), after ``after`` jumps,
and while the database cannot be reached."""

from __future__ import annotations

import itertools
import threading
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from herna.hall.counters import BLOCK, CounterBlocks
from herna.hall.db import Base, make_engine
from herna.hall.records import RecordStore


def test_two_stores_on_one_database_never_hand_out_the_same_number(
    database_url: str, tmp_path: Path
) -> None:
    stores = [RecordStore(database_url, journal_dir=tmp_path / f"j{i}") for i in range(2)]
    got: list[list[int]] = [[], []]

    def take(i: int) -> None:
        for _ in range(3 * BLOCK + 7):
            got[i].append(stores[i].allocate("onitama.table"))

    threads = [threading.Thread(target=take, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    everything = got[0] + got[1]
    assert len(set(everything)) == len(everything)
    assert all(a < b for g in got for a, b in itertools.pairwise(g))
    # A third store (a restart) starts above every number either handed out.
    third = RecordStore(database_url, journal_dir=tmp_path / "j3")
    assert third.allocate("onitama.table") > max(everything)
    assert third.allocate("onitama.table", after=10**6) == 10**6 + 1
    for s in [*stores, third]:
        s.close()


def test_numbering_goes_on_locally_while_the_database_is_unreachable(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'c.db'}")
    Base.metadata.create_all(engine)
    journaled: list[tuple[str, int]] = []
    blocks = CounterBlocks(engine, lambda c, n: journaled.append((c, n)))
    first = [blocks.next("mia.round") for _ in range(BLOCK)]
    assert first == list(range(1, BLOCK + 1)) and journaled == []
    # The database goes away (a path that cannot be opened).
    blocks.engine = create_engine(f"sqlite:///{tmp_path / 'gone' / 'c.db'}")
    block = blocks._blocks["mia.round"]
    if block.fetching is not None:
        block.fetching.join()
    block.ahead = None  # and no block fetched ahead either
    more = [blocks.next("mia.round") for _ in range(5)]
    assert more == list(range(BLOCK + 1, BLOCK + 6))
    assert journaled == [("mia.round", n) for n in more]  # each one journaled instead


def test_the_first_number_needs_the_database() -> None:
    """Nothing is known of a counter before its first block: no number is safe to give."""
    engine = create_engine("sqlite:////proc/no/such/dir/c.db")
    blocks = CounterBlocks(engine, lambda c, n: None)
    with pytest.raises(Exception, match="unable to open"):
        blocks.next("tiles.table")


def test_a_counter_used_quickly_reserves_larger_blocks(tmp_path: Path) -> None:
    """A busy server (hundreds of tables a second) makes a few reservations, not one per
    hundred tables, and its numbers still come in order, each once."""
    engine = make_engine(f"sqlite:///{tmp_path / 'c.db'}")
    Base.metadata.create_all(engine)
    blocks = CounterBlocks(engine, lambda c, n: None)
    got = []
    for _ in range(30 * BLOCK):
        got.append(blocks.next("onitama.table"))
        block = blocks._blocks["onitama.table"]
        if block.fetching is not None and block.end - got[-1] < 2:
            block.fetching.join()  # as a server's loop would, had the block run out
    assert got == list(range(1, 30 * BLOCK + 1))
    assert blocks.reservations <= 7, blocks.reservations  # 100, 200, 400, … not 30 of 100
    assert blocks._blocks["onitama.table"].size > BLOCK

"""Game events between processes on one PostgreSQL database (herna/hall/bridge.py), against
a real PostgreSQL server: two buses, as two ``herna serve`` processes would have."""

from __future__ import annotations

import asyncio
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herna.hall.bridge import PAYLOAD_LIMIT, PostgresBridge, decode, encode
from herna.hall.events import EventBus, GameEvent

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=30,
)


# Drawing nested JSON is what costs here (about 0.3 s an example), not the bridge: 30 examples.
@settings(max_examples=30, deadline=None)
@given(st.lists(st.dictionaries(st.text(max_size=8), json_values, max_size=6), max_size=40))
def test_encode_decode_round_trip_within_the_payload_limit(datas: list[dict]) -> None:  # type: ignore[type-arg]
    bus = EventBus()
    events = [GameEvent("mia", f"t{i % 3}", "move", d, ts=1000.0 + i) for i, d in enumerate(datas)]
    for e in events:
        bus.publish(e)  # numbered: as the bridge gets them from its bus
    payloads, left_out = encode("origin", events)
    assert left_out == 0
    back = []
    for p in payloads:
        assert len(p.encode()) <= PAYLOAD_LIMIT
        origin, got = decode(p)
        assert origin == "origin"
        back += got
    assert [(e.game, e.table, e.kind, e.data, e.ts, e.stream, e.version) for e in back] == [
        (e.game, e.table, e.kind, json.loads(json.dumps(e.data)), e.ts, e.stream, e.version)
        for e in events
    ]


def test_a_payload_without_event_versions_is_refused() -> None:
    bus = EventBus()
    event = bus.emit("onitama", "7", "move", n=1)
    [payload] = encode("o", [event])[0]
    message = json.loads(payload)
    message["e"][0][-1] = 0
    with pytest.raises(ValueError, match="version"):
        decode(json.dumps(message))
    message["e"][0] = message["e"][0][:5]  # the old five-field form
    with pytest.raises(ValueError):
        decode(json.dumps(message))


def test_a_big_event_is_compressed_and_one_too_big_is_left_out() -> None:
    bus = EventBus()
    big = bus.emit("tiles", "t1", "turn", board="ab" * 20_000)  # compresses well
    huge = bus.emit("tiles", "t2", "turn", noise=[str(i * 7919) for i in range(5_000)])
    payloads, left_out = encode("o", [big, huge])
    assert left_out == 1
    [(_, [event])] = [decode(p) for p in payloads]
    assert event.data == big.data


async def test_two_processes_see_each_others_events_and_never_echo(postgres_url: str) -> None:
    bus_a, bus_b = EventBus(), EventBus()
    a, b = PostgresBridge(postgres_url, bus_a), PostgresBridge(postgres_url, bus_b)
    await a.start()
    await b.start()
    try:
        await asyncio.wait_for(asyncio.gather(a.listening.wait(), b.listening.wait()), 10)
        seen_a, seen_b = bus_a.subscribe(), bus_b.subscribe()
        for i in range(50):
            bus_a.emit("onitama", "7", "move", n=i)
        bus_b.emit("marias", "g1", "result", money=[1, -2, 1])
        for _ in range(100):
            if b.received >= 50 and a.received >= 1:
                break
            await asyncio.sleep(0.05)
        got_b = seen_b.drain()
        assert [e.data["n"] for e in got_b if e.game == "onitama"] == list(range(50))
        # B has A's table by A's numbers: the same stream and versions 1-50.
        mine = [e for e in bus_a.recent if e.game == "onitama"]
        theirs = [e for e in got_b if e.game == "onitama"]
        assert [(e.stream, e.version) for e in theirs] == [(e.stream, e.version) for e in mine]
        assert [e.version for e in theirs] == list(range(1, 51))
        assert theirs[0].stream.startswith(bus_a.id)
        got_a = seen_a.drain()
        assert [e.data for e in got_a if e.game == "marias"] == [{"money": [1, -2, 1]}]
        await asyncio.sleep(0.3)
        # Nothing came back: A saw its own 50 once and B's one; B relayed nothing back.
        assert len([e for e in bus_a.recent if e.game == "onitama"]) == 50
        assert a.received == 1 and b.received == 50
    finally:
        await a.stop()
        await b.stop()


def test_own_notifications_are_dropped_before_they_are_decoded(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Every process hears its own notifications: they cost no decoding (a busy game process
    would otherwise decode all its events twice)."""
    bus = EventBus()
    bridge = PostgresBridge("postgresql://herna@127.0.0.1/none", bus)
    [mine] = encode(bridge.origin, [bus.emit("onitama", "7", "move", n=1)])[0]
    seen = bus.subscribe()
    bridge._received(mine)
    bridge._received(mine[:-5] + "not json at all")  # not even looked at
    assert seen.drain() == [] and bridge.received == 0
    assert "not Herna's" not in caplog.text
    other = PostgresBridge("postgresql://herna@127.0.0.1/none", EventBus())
    other._received(mine)
    assert other.received == 1

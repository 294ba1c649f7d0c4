"""Versioned per-table events and resuming in the live hub (no sockets: the hub's frames are
read from a client's queue).

Events are numbered by the bus they are published on (the table's host process), as in the
hall. The property test plays random event streams on a few tables with random flushes,
drops and reconnects, and checks that what a browser that resumes ends up with is exactly
the bus's sequence: every event once, in order, with its own version, none missing after
the point it started from (unless the hub itself forgot the table meanwhile); a resume when
the gap is still kept, a snapshot when it is not.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from herna.hall import events as events_module
from herna.hall.events import EventBus, GameEvent
from herna.web.live import LiveClient, LiveHub, LiveSettings, parse_resume

TABLES = ["t1", "t2", "t3"]


async def _ignore(_text: str) -> None:
    return None


def _hub(history: int = 200, max_tables: int = 200, recent: int = 30) -> LiveHub:
    return LiveHub(
        EventBus(),
        LiveSettings(
            history=history, max_tables=max_tables, recent_events=recent, frame_events=10_000
        ),
    )


def _publish(hub: LiveHub, table: str, ident: int) -> GameEvent:
    """An event published on the hub's bus (which numbers it) and folded by the hub."""
    event = GameEvent("onitama", table, "move", {"id": ident})
    hub.bus.publish(event)
    hub._apply(event)
    return event


def _frames(client: LiveClient) -> list[dict[str, Any]]:
    out = [json.loads(f) for f in client.frames]
    client.frames.clear()
    return out


@dataclass
class Browser:
    """What hall.js keeps per table: the stream, the newest version, the events shown."""

    tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    modes: list[tuple[str, str]] = field(default_factory=list)
    gaps: bool = False
    """Whether an update may skip versions (the hub forgot the table and saw it again)."""

    def take(self, frame: dict[str, Any]) -> None:
        for part in frame["tables"]:
            key = part["table"]
            mine = self.tables.get(key)
            mode = part.get("mode")
            if frame["type"] in ("snapshot", "resume"):
                self.modes.append((key, mode))
            if mode == "snapshot" or mine is None or mine["stream"] != part["stream"]:
                # (an update of a new stream: the hub forgot the table and saw it again)
                mine = {"stream": part["stream"], "version": 0, "events": []}
                self.tables[key] = mine
                if part["events"]:
                    mine["version"] = part["events"][0]["v"] - 1
            for ev in part["events"]:
                # exactly the next one: nothing twice, nothing missing
                if self.gaps and frame["type"] == "update":
                    assert ev["v"] > mine["version"], (ev["v"], mine["version"])
                else:
                    assert ev["v"] == mine["version"] + 1, (ev["v"], mine["version"], frame["type"])
                mine["events"].append((ev["v"], ev["data"]["id"]))
                mine["version"] = ev["v"]
            assert part["skipped"] == 0
            mine["version"] = part["version"]

    def resume_points(self) -> dict[tuple[str, str], tuple[str, int]]:
        return {("onitama", k): (t["stream"], t["version"]) for k, t in self.tables.items()}


def test_resume_lists_exactly_the_missed_events_then_updates_go_on() -> None:
    hub = _hub(history=5)
    publish = [0]

    def event(table: str = "t1") -> None:
        publish[0] += 1
        _publish(hub, table, publish[0])

    for _ in range(3):
        event()
    hub._flush()  # nobody watching: versions 1-3 flushed
    client = hub.connect(_ignore, "onitama", None)
    assert client is not None
    [snap] = _frames(client)
    assert snap["type"] == "snapshot"
    [part] = snap["tables"]
    assert (part["mode"], part["version"]) == ("snapshot", 3)
    assert [e["v"] for e in part["events"]] == [1, 2, 3]
    stream = part["stream"]
    hub.disconnect(client)
    event()
    event()
    hub._flush()
    event()  # version 6: not flushed yet, so the next update lists it, not the resume
    client = hub.connect(_ignore, "onitama", None, {("onitama", "t1"): (stream, 3)})
    assert client is not None
    [resumed] = _frames(client)
    assert resumed["type"] == "resume"
    [part] = resumed["tables"]
    assert part["mode"] == "resume"
    assert [(e["v"], e["data"]["id"]) for e in part["events"]] == [(4, 4), (5, 5)]
    assert part["version"] == 5
    hub._flush()
    [update] = _frames(client)
    assert [(e["v"], e["data"]["id"]) for e in update["tables"][0]["events"]] == [(6, 6)]
    hub.disconnect(client)
    # six more events: versions 7-12, history keeps 8-12, so version 6 cannot resume
    for _ in range(6):
        event()
    hub._flush()
    client = hub.connect(_ignore, "onitama", None, {("onitama", "t1"): (stream, 6)})
    assert client is not None
    [part] = _frames(client)[0]["tables"]
    assert part["mode"] == "snapshot"
    assert [e["v"] for e in part["events"]] == [8, 9, 10, 11, 12]
    # but version 7 still can; another stream cannot
    cases = [((stream, 7), "resume"), (("other.1", 7), "snapshot")]
    for point, mode in cases:
        c = hub.connect(_ignore, "onitama", None, {("onitama", "t1"): point})
        assert c is not None
        assert _frames(c)[0]["tables"][0]["mode"] == mode, point
    # A browser that comes from a live process further ahead (version 14: this hub has not
    # got it yet) resumes with no events; the next update lists 13 and 14 again, which the
    # page skips (hall.js: "had it already").
    c = hub.connect(_ignore, "onitama", None, {("onitama", "t1"): (stream, 14)})
    assert c is not None
    [part] = _frames(c)[0]["tables"]
    assert (part["mode"], part["events"], part["version"]) == ("resume", [], 14)
    assert hub.stats()["resumed_tables"] == 3


def test_a_table_the_hub_forgot_keeps_its_stream_and_versions() -> None:
    """The versions are the bus's: a table the hub forgot and sees again goes on with the
    same stream and numbers, and a browser whose gap starts where the hub saw it again
    resumes."""
    hub = _hub(max_tables=1)
    first = _publish(hub, "t1", 1)
    _publish(hub, "t2", 2)  # t1 forgotten by the hub (not by the bus)
    hub._flush()
    _publish(hub, "t1", 3)
    _publish(hub, "t1", 4)
    hub._flush()
    again = hub.tables[("onitama", "t1")]
    assert (again.stream, again.version, again.oldest) == (first.stream, 3, 2)
    client = hub.connect(_ignore, "onitama", "t1", {("onitama", "t1"): (first.stream, 1)})
    assert client is not None
    [part] = _frames(client)[0]["tables"]
    assert part["mode"] == "resume"
    assert [(e["v"], e["data"]["id"]) for e in part["events"]] == [(2, 3), (3, 4)]


def test_a_table_the_bus_forgot_starts_a_new_stream(monkeypatch: Any) -> None:
    monkeypatch.setattr(events_module, "STREAMS", 1)
    hub = _hub()
    first = _publish(hub, "t1", 1)
    _publish(hub, "t2", 2)  # t1 forgotten by the bus
    hub._flush()
    again = _publish(hub, "t1", 3)
    hub._flush()
    assert again.stream != first.stream
    assert again.version == 1
    assert hub.tables[("onitama", "t1")].stream == again.stream
    client = hub.connect(_ignore, "onitama", "t1", {("onitama", "t1"): (first.stream, 1)})
    assert client is not None
    [part] = _frames(client)[0]["tables"]
    assert part["mode"] == "snapshot"
    assert [e["v"] for e in part["events"]] == [1]


def test_a_gap_in_the_versions_is_never_resumed_across() -> None:
    """Events another process numbered arrive with a gap (one was lost on the bridge): the
    hub keeps only what follows it, and a browser from before the gap gets a snapshot."""
    hub = _hub()
    for version in (1, 2, 4, 5):
        hub._apply(
            GameEvent("onitama", "t1", "move", {"id": version}, stream="x.1", version=version)
        )
    hub._flush()
    table = hub.tables[("onitama", "t1")]
    assert (table.version, table.oldest) == (5, 4)
    for point, mode in [(("x.1", 2), "snapshot"), (("x.1", 3), "resume")]:
        client = hub.connect(_ignore, "onitama", "t1", {("onitama", "t1"): point})
        assert client is not None
        [part] = _frames(client)[0]["tables"]
        assert part["mode"] == mode, point


def test_parse_resume() -> None:
    good = json.dumps([["onitama", "g1", "ab.1", 4], ["marias", "x", "ab.2", 0]])
    assert parse_resume(good, 10) == {("onitama", "g1"): ("ab.1", 4), ("marias", "x"): ("ab.2", 0)}
    assert parse_resume(good, 1) == {("onitama", "g1"): ("ab.1", 4)}
    assert parse_resume("{", 10) is None
    assert parse_resume('{"a": 1}', 10) is None
    bad = json.dumps([["onitama", "g1", "ab.1", "4"], ["a", "b", "c", True], ["a", "b", "c"], 7])
    assert parse_resume(bad, 10) == {}


OPS = st.one_of(
    st.tuples(st.just("event"), st.sampled_from(TABLES), st.integers(1, 14)),
    st.just(("flush", "", 0)),
    st.just(("drop", "", 0)),
    st.just(("reconnect", "", 0)),
    # a drop with ``n`` events on one table before the browser is back
    st.tuples(st.just("gap"), st.sampled_from(TABLES), st.integers(0, 14)),
)


@settings(max_examples=300, deadline=None)
@given(
    ops=st.lists(OPS, max_size=40),
    history=st.integers(1, 12),
    max_tables=st.integers(2, 3),
    recent=st.integers(1, 12),
)
def test_random_streams_and_drops_the_browser_ends_with_the_hubs_sequence(
    ops: list[tuple[str, str, int]], history: int, max_tables: int, recent: int
) -> None:
    hub = _hub(history=history, max_tables=max_tables, recent=recent)
    truth: dict[str, list[int]] = {}  # stream -> event ids in the order the bus numbered them
    seen_from: dict[str, int] = {}  # table -> the version from which the hub has it
    browser = Browser(gaps=max_tables < len(TABLES))
    client: LiveClient | None = hub.connect(_ignore, "onitama", None)
    published = 0
    steps: list[tuple[str, str, int]] = []
    for op in ops:
        if op[0] == "gap":
            steps += [("drop", "", 0), ("event", op[1], op[2]), ("flush", "", 0)]
            steps += [("reconnect", "", 0)]
        else:
            steps.append(op)
    for op, table, count in [*steps, ("reconnect", "", 0), ("flush", "", 0)]:
        if op == "event":
            for _ in range(count):
                published += 1
                known = ("onitama", table) in hub.tables
                event = _publish(hub, table, published)
                truth.setdefault(event.stream, []).append(published)
                assert event.version == len(truth[event.stream])
                if not known:
                    seen_from[table] = event.version
        elif op == "flush":
            hub._flush()
        elif op == "drop" and client is not None:
            hub.disconnect(client)
            client = None
        elif op == "reconnect" and client is None:
            points = browser.resume_points()
            expected = {}
            for t in hub.tables.values():
                stream, version = points.get(("onitama", t.table), ("", -1))
                oldest_kept = max(seen_from[t.table], len(truth[t.stream]) - history + 1)
                oldest_missing_kept = version >= oldest_kept - 1
                expected[t.table] = (
                    "resume"
                    if stream == t.stream and oldest_missing_kept and version <= t.flushed
                    else "snapshot"
                )
            browser.modes.clear()
            client = hub.connect(_ignore, "onitama", None, points)
            assert client is not None
            for frame in _frames(client):
                browser.take(frame)
            assert dict(browser.modes) == expected
        if client is not None:
            for frame in _frames(client):
                browser.take(frame)
    # Every table the hub still has: the browser's events are the bus's own sequence from
    # where the browser started (its last snapshot) to the newest event, each with its
    # version; with no table forgotten by the hub, none is missing.
    for t in hub.tables.values():
        mine = browser.tables[t.table]
        assert mine["stream"] == t.stream
        assert mine["version"] == t.version == len(truth[t.stream])
        for version, ident in mine["events"]:
            assert truth[t.stream][version - 1] == ident
        if mine["events"] and not browser.gaps:
            start = mine["events"][0][0]
            expect = list(enumerate(truth[t.stream][start - 1 :], start))
            assert mine["events"] == expect

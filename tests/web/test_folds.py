"""The live views the web hall folds from bus events (no network here)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from herna.hall.events import EventBus, GameEvent
from herna.web.folds import CHART_STEP, LastViewFold, MiaFold, fold_for
from tests.web.helpers import publish_mia_round


def _fold_bus(fold: MiaFold) -> EventBus:
    bus = EventBus()
    sub = bus.subscribe()
    original = bus.publish

    def publish(event: GameEvent) -> None:
        original(event)
        for ev in sub.drain():
            fold.apply(ev)

    bus.publish = publish  # type: ignore[method-assign]
    return bus


def test_mia_fold_shows_the_round_the_previous_round_and_scores() -> None:
    fold = MiaFold()
    bus = _fold_bus(fold)
    bus.emit("mia", "mia", "player_registered", name="alice", spectator=False)
    bus.emit("mia", "mia", "player_registered", name="bob", spectator=False)
    bus.emit("mia", "mia", "player_registered", name="eve", spectator=True)
    scores: dict[str, int] = {}
    publish_mia_round(bus, 1, ["alice", "bob"], scores, see=True)
    bus.emit("mia", "mia", "game_started", round=2, players=["bob", "alice"])
    bus.emit("mia", "mia", "player_rolls", round=2, name="bob")
    view = fold.view()
    assert view is not None
    assert view["kind"] == "mia-live"
    current = view["round"]
    assert current["round"] == 2 and current["players"] == ["bob", "alice"]
    assert current["status"] == "playing"
    assert current["turns"] == [{"name": "bob", "action": "player_rolls"}]
    assert current["actual_dice"] is None
    last = view["last_round"]
    assert last["round"] == 1 and last["status"] == "over"
    assert last["losers"] == ["bob"] and last["reason"] == "SEE_FAILED"
    assert last["actual_dice"] == "4,2"
    assert [t["action"] for t in last["turns"]] == [
        "player_rolls",
        "announced",
        "wants_to_see",
    ]
    assert view["scores"] == {"alice": 1.0}
    assert {p["name"]: p["spectator"] for p in view["players"]} == {
        "alice": False,
        "bob": False,
        "eve": True,
    }
    assert view["rounds"] == 1
    json.dumps(view)  # JSON-ready
    bus.emit("mia", "mia", "player_unregistered", name="eve")
    assert [p["name"] for p in fold.view()["players"]] == ["alice", "bob"]  # type: ignore[index]


def test_mia_fold_canceled_round() -> None:
    fold = MiaFold()
    fold.apply(GameEvent("mia", "mia", "round_canceled", {"round": 7, "reason": "NO_PLAYERS"}))
    view = fold.view()
    assert view is not None
    assert view["round"]["status"] == "canceled"
    assert view["round"]["reason"] == "NO_PLAYERS"
    assert view["last_round"]["round"] == 7


def test_points_per_minute_from_score_events_over_time() -> None:
    fold = MiaFold()
    t0 = 1_000_000.0
    # alice scores 1 point every second for two minutes, bob every other second.
    for s in range(121):
        scores = {"alice": s, "bob": s // 2}
        fold.apply(GameEvent("mia", "mia", "score", {"scores": scores}, ts=t0 + s))
    view = fold.view()
    assert view is not None
    assert abs(view["rates"]["alice"] - 60.0) < 1e-6
    assert abs(view["rates"]["bob"] - 30.0) < 1.5
    series = view["chart"]["series"]
    assert set(series) == {"alice", "bob"}
    # one point per CHART_STEP seconds, the first needs an earlier sample to compare with
    assert len(series["alice"]) == int(120 / CHART_STEP)
    assert all(abs(v - 60.0) < 1e-6 for _, v in series["alice"])
    times = [t for t, _ in series["alice"]]
    assert times == sorted(times)


def test_last_view_fold_keeps_the_newest_view_only() -> None:
    fold = fold_for("onitama")
    assert isinstance(fold, LastViewFold)
    assert fold.view() is None
    fold.apply(GameEvent("onitama", "t1", "game_started", {"view": {"board": 1}}))
    fold.apply(GameEvent("onitama", "t1", "chat", {"text": "hi"}))
    assert fold.view() == {"board": 1}
    fold.apply(GameEvent("onitama", "t1", "move", {"view": {"board": 2}}))
    assert fold.view() == {"board": 2}


_names = st.sampled_from(["alice", "bob", "carol"])
_dice = st.sampled_from(["3,1", "4,2", "6,6", "2,1", "5,4"])
_mia_events = st.one_of(
    st.builds(lambda n: ("player_registered", {"name": n, "spectator": False}), _names),
    st.builds(lambda n: ("player_unregistered", {"name": n}), _names),
    st.builds(
        lambda r, p: ("game_started", {"round": r, "players": p}),
        st.integers(1, 5),
        st.lists(_names, min_size=2, max_size=3, unique=True),
    ),
    st.builds(lambda r, n: ("player_rolls", {"round": r, "name": n}), st.integers(1, 5), _names),
    st.builds(
        lambda r, n, d: ("announced", {"round": r, "name": n, "dice": d}),
        st.integers(1, 5),
        _names,
        _dice,
    ),
    st.builds(lambda r, n: ("wants_to_see", {"round": r, "name": n}), st.integers(1, 5), _names),
    st.builds(lambda r, d: ("actual_dice", {"round": r, "dice": d}), st.integers(1, 5), _dice),
    st.builds(
        lambda r, n: ("player_lost", {"round": r, "names": [n], "reason": "SEE_FAILED"}),
        st.integers(1, 5),
        _names,
    ),
    st.builds(
        lambda r: ("round_canceled", {"round": r, "reason": "NO_PLAYERS"}), st.integers(1, 5)
    ),
    st.builds(
        lambda s: ("score", {"scores": s}),
        st.dictionaries(_names, st.integers(0, 100), max_size=3),
    ),
    st.builds(
        lambda r, n: ("game_over", {"round": r, "losers": [n], "reason": "MIA", "scores": {}}),
        st.integers(1, 5),
        _names,
    ),
)


@settings(deadline=None, max_examples=150)
@given(st.lists(st.tuples(_mia_events, st.floats(0, 30)), max_size=40))
def test_mia_fold_never_invents_dice(
    events: list[tuple[tuple[str, dict[str, Any]], float]],
) -> None:
    """Whatever order events arrive in, the view is JSON-ready and every dice value in it
    was published (announced or revealed) in the events of that round: a fold adds nothing
    a spectator did not see."""
    fold = MiaFold()
    ts = 1_000.0
    published: dict[Any, set[str]] = {}
    for (kind, data), dt in events:
        ts += dt
        if "dice" in data:
            published.setdefault(data.get("round"), set()).add(data["dice"])
        fold.apply(GameEvent("mia", "mia", kind, data, ts=ts))
        view = fold.view()
        assert view is not None
        json.dumps(view)
        for rnd in (view["round"], view["last_round"]):
            if rnd is None:
                continue
            shown = {t["dice"] for t in rnd["turns"] if "dice" in t}
            if rnd["actual_dice"] is not None:
                shown.add(rnd["actual_dice"])
            assert shown <= published.get(rnd["round"], set())
        assert len(view["round"]["turns"] if view["round"] else []) <= 200

"""Invariants over random play, on the shipped rules files and on random small rules files:
tiles and items are conserved, players stand on real points, every legal action applies,
views round-trip and hide what they must, and a seed plus the log replays the game."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from herna.core.game import CHANCE
from herna.core.rng import SeededRng
from herna.games.tiles.actions import Move, TilesCodec
from herna.games.tiles.engine import TilesState, new_game
from herna.games.tiles.rules import Rules, check_rules, load_rules_file, shipped_rules
from herna.hall.match import replay

SHIPPED = {name: load_rules_file(path) for name, path in shipped_rules().items()}


def tile_ids(state: TilesState) -> list[int]:
    ids = [t for t in state.board if t >= 0] + state.pile + state.bag + state.bottom
    for p in state.players:
        ids += list(p.hand)
    return ids


def item_totals(state: TilesState) -> Counter[str]:
    total: Counter[str] = Counter()
    for t in state.tiles:
        for name, count in (*t.items, *t.store):
            total[name] += count
    for p in state.players:
        for name, count in p.items:
            total[name] += count
    return total


def check_invariants(state: TilesState, items: Counter[str]) -> None:
    rules = state.rules
    assert sorted(tile_ids(state)) == list(range(len(state.tiles))), "a tile was lost or doubled"
    assert item_totals(state) == items, "items appeared or vanished"
    for p in state.players:
        assert 0 <= p.cell < rules.width * rules.height
        assert 0 <= p.point < 4 * rules.n
    view = state.view(None)
    json.dumps(view)
    # The board of a state is made once and shared by every view of it: the same as anew.
    state._board_view = None
    assert state.view(None) == view
    for pv in view["players"]:
        assert "hand" not in pv
        for i, goal in enumerate(pv["goals"]):
            player = state.players[pv["seat"]]
            if player.hidden[i] and i >= player.done:
                assert goal["goal"] is None


def check_move_ends_on_a_path(before: TilesState, after: TilesState, action: Any) -> None:
    """A player that moved, with no effect on its new tile, stands on a point of a path."""
    if not isinstance(action, Move):
        return
    seat = before.current_player()
    p = after.players[seat]
    if (p.cell, p.point) != (action.y * after.rules.width + action.x, action.point):
        return  # an effect of the tile it arrived on sent it on
    if any(text.split()[0] in ("pushes", "adds", "exchanges") for _, text in after.happened):
        return  # a forced action after the move changed the board under it
    tid = after.board[p.cell]
    if p.eliminated or tid < 0 or after.tiles[tid].face_down:
        return
    kind = after.s.kinds[after.tiles[tid].kind]
    if kind.effects or (p.cell, p.point) == (before.players[seat].cell, before.players[seat].point):
        return
    assert after._path_at(p.cell, p.point) is not None


def play(
    rules: Rules, seed: int, steps: int, check_all_every: int = 1, max_rounds: int = 40
) -> TilesState:
    rng = SeededRng(seed)
    codec = TilesCodec(rules.n)
    initial = new_game(rules, max_rounds)
    state = initial
    items = item_totals(state)
    log: list[tuple[str, dict[str, Any]]] = []
    for i in range(steps):
        check_invariants(state, items)
        if state.is_terminal():
            break
        current = state.current_player()
        if current == CHANCE:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            action = rng.weighted(outcomes)
        else:
            legal = list(state.legal_actions())
            assert len(legal) >= 2, "single choices are applied by the engine"
            if i % check_all_every == 0:
                for option in legal:  # every legal action applies
                    state.apply(option)
                view = state.view(current)
                again = TilesState.from_view(rules, view, current)
                assert again.view(current) == view
                assert {codec.encode(a)["type"] for a in again.legal_actions()} == {
                    codec.encode(a)["type"] for a in legal
                }
            action = rng.choice(legal)
            assert codec.decode(json.loads(json.dumps(codec.encode(action)))) == action
        after = state.apply(action)
        check_move_ends_on_a_path(state, after, action)
        log.append(("action", {"player": current, "action": codec.encode(action)}))
        state = after
    replayed = replay(initial, log, codec)[-1]
    assert replayed.view(None) == state.view(None)
    return state


@pytest.mark.parametrize("name", sorted(SHIPPED))
@settings(deadline=None, max_examples=6, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_random_play_on_shipped_rules(name: str, seed: int) -> None:
    play(SHIPPED[name], seed, steps=140, check_all_every=7)


POINTS = {n: [f"{s}{i}" for s in "URDL" for i in range(n)] for n in (1, 2)}


@st.composite
def small_rules(draw: st.DrawFn) -> dict[str, Any]:
    w, h, n = draw(st.integers(2, 4)), draw(st.integers(1, 3)), draw(st.integers(1, 2))
    cells = [(x, y) for y in range(h) for x in range(w)]
    located = draw(st.lists(st.sampled_from(cells), unique=True, max_size=len(cells)))
    names = ["coin", "gem"]

    def connections() -> list[str]:
        points = draw(st.permutations(POINTS[n]))
        points = points[: draw(st.integers(0, len(points)))]
        out, i = [], 0
        while i < len(points):
            size = draw(st.integers(1, 3))
            out.append(",".join(points[i : i + size]))
            i += size
        return out

    effect = st.sampled_from(
        ["skip 1", "return", "collect", "eliminate", f"move {w - 1} 0 U 0", f"send 0 {h - 1}"]
    )
    tiles = []
    for k in range(draw(st.integers(1, 7))):
        t: dict[str, Any] = {"connections": connections()}
        if k < len(located):
            t["location"] = list(located[k])
        elif draw(st.booleans()):
            t["amount"] = draw(st.integers(1, 3))
        if draw(st.integers(0, 3)) == 0:
            t["items"] = [f"{draw(st.sampled_from(names))} {draw(st.integers(1, 3))}"]
        if draw(st.integers(0, 4)) == 0:
            t["effects"] = draw(st.lists(effect, max_size=2))
        for flag in ("face_down", "movement_ending", "can_turn_around"):
            if draw(st.integers(0, 5)) == 0:
                t[flag] = True
        tiles.append(t)
    goal = st.sampled_from(["reach 0 0", f"reach {w - 1} {h - 1}", "find coin", "collect 1 gem"])
    players = []
    for _ in range(draw(st.integers(1, 3))):
        x, y = draw(st.sampled_from(cells))
        p: dict[str, Any] = {
            "starting_x": x,
            "starting_y": y,
            "starting_side": draw(st.sampled_from("URDL")),
            "starting_path_index": draw(st.integers(0, n - 1)),
            "goals": draw(st.lists(goal, max_size=2)),
        }
        if draw(st.booleans()):
            p["end_of_game_scoring"] = ["items coin", f"items gem {w - 1} 0"]
        players.append(p)
    hand = draw(st.integers(0, 2))
    movement = draw(st.sampled_from(["free", "forced", "dice"]))
    data: dict[str, Any] = {
        "turn_structure": draw(
            st.lists(
                st.sampled_from(["move", "moveAll", "push", "add", "exchange"]),
                min_size=1,
                max_size=3,
            )
        ),
        "movement_type": movement,
        "min_move_distance": draw(st.integers(0, 1)),
        "max_move_distance": draw(st.integers(1, 3))
        if movement == "dice"
        else draw(st.integers(-1, 3)),
        "only_forward_movement": draw(st.booleans()),
        "cycle_pushed_out_tiles": draw(st.booleans()),
        "adding_from": "hand" if hand and draw(st.booleans()) else "pile",
        "adding_mode": draw(st.sampled_from(["anywhere", "connected"])),
        "exchange_with": "hand" if hand and draw(st.booleans()) else "pile",
        "exchanging_mode": draw(st.sampled_from(["anywhere", "connected"])),
        "exchange_only_flipped": draw(st.integers(0, 3)) == 0,
        "max_hand_size": hand,
        "max_player_items": draw(st.integers(-1, 3)),
        "items_picked_up": draw(st.integers(-1, 2)),
        "fill_unspecified_tiles": draw(st.booleans()),
        "end_of_game_conditions": draw(st.sampled_from([[], ["no coin"], ["no gem"]])),
        "board": {
            "width": w,
            "height": h,
            "paths_on_tile_side": n,
            "unpushable_rows": draw(st.lists(st.integers(0, h - 1), unique=True)),
            "unpushable_columns": draw(st.lists(st.integers(0, w - 1), unique=True)),
            "not_exchangeable_tiles": [
                f"{x},{y}"
                for x, y in draw(st.lists(st.sampled_from(cells), unique=True, max_size=2))
            ],
        },
        "tiles": tiles,
        "players": players,
    }
    if data["movement_type"] != "dice" and data["max_move_distance"] > 0:
        data["min_move_distance"] = min(data["min_move_distance"], data["max_move_distance"])
    elif data["max_move_distance"] < 0:  # no limit, written as the seed allows: no minimum
        data["min_move_distance"] = 0
    return data


@settings(
    deadline=None,
    max_examples=120,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(small_rules(), st.integers(0, 2**32))
def test_random_play_on_random_rules(data: dict[str, Any], seed: int) -> None:
    report = check_rules(data, "random")
    assert not report.errors, report.errors
    assume(report.rules is not None)
    assert report.rules is not None
    play(report.rules, seed, steps=60, max_rounds=15)

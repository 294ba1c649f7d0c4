"""Items, effects, goals, end conditions, scoring and the winner."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from herna.core.rng import SeededRng
from herna.games.tiles.actions import Move
from herna.games.tiles.engine import new_game
from herna.games.tiles.geometry import parse_point
from herna.games.tiles.text import summary
from herna.hall.records import PlayerResult, StoredMatch
from tests.tiles.helpers import corridor, make, player, rules_data, settle, start, step, tile, where

L0 = parse_point("L0", 1)


def line(
    length: int, special: dict[int, dict[str, Any]], players: int = 1, **top: Any
) -> dict[str, Any]:
    """A corridor with extra fields on some tiles; players start on row 0 ... at the left."""
    tiles = []
    for y in range(players):
        for x in range(length):
            fields = special.get(x, {}) if y == 0 else {}
            tiles.append(tile("L0,R0", at=(x, y), **fields))
    return rules_data(
        length,
        players,
        tiles,
        [player(0, y, "L") for y in range(players)],
        board={"unpushable_rows": list(range(players)), "unpushable_columns": list(range(length))},
        **top,
    )


def go(state: Any, x: int, y: int = 0) -> Any:
    """Move the player to act to cell (x, y), by whichever point the route arrives."""
    options = [a for a in state.legal_actions() if isinstance(a, Move) and (a.x, a.y) == (x, y)]
    assert options, f"cannot move to ({x}, {y})"
    return step(state, options[0])


def held(state: Any, seat: int = 0) -> dict[str, int]:
    return dict(state.view(None)["players"][seat]["items"])


def on_tile(state: Any, x: int, y: int = 0, what: str = "items") -> dict[str, int]:
    return dict(state.view(None)["board"][y][x][what])


# -- items ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("limit", "per_kind", "taken", "left"),
    [
        (0, -1, {}, {"coin": 3, "gem": 1}),  # players take no items
        (-1, -1, {"coin": 3, "gem": 1}, {}),  # no limit, take all
        (2, 1, {"coin": 1, "gem": 1}, {"coin": 2}),  # one of each kind, two at most
        (2, -1, {"coin": 2}, {"coin": 1, "gem": 1}),  # the limit cuts in, in listed order
        (5, 0, {}, {"coin": 3, "gem": 1}),  # zero of a kind: take nothing
    ],
)
def test_picking_up_items(
    limit: int, per_kind: int, taken: dict[str, int], left: dict[str, int]
) -> None:
    data = line(
        3, {2: {"items": ["coin 3", "gem"]}}, max_player_items=limit, items_picked_up=per_kind
    )
    state = go(start(data), 2)
    assert held(state) == taken
    assert on_tile(state, 2) == left


def test_no_pick_up_without_travelling() -> None:
    data = line(3, {0: {"items": ["coin"]}}, max_player_items=-1)
    state = go(start(data), 0)
    assert held(state) == {} and on_tile(state, 0) == {"coin": 1}


# -- effects ----------------------------------------------------------------------------------
def test_move_effect_sends_the_player_and_does_not_chain() -> None:
    data = line(4, {2: {"effects": ["move 3 0 L 0"]}, 3: {"effects": ["eliminate"]}})
    state = go(start(data), 2)
    assert where(state, 0) == (3, 0, "L0", "in")
    assert not state.view(None)["players"][0]["eliminated"]


def test_return_effect() -> None:
    state = go(start(line(4, {3: {"effects": ["return"]}})), 3)
    assert where(state, 0) == (0, 0, "L0", "in")


def test_eliminate_effect_drops_items_and_returns_the_hand() -> None:
    data = line(
        3,
        {1: {"items": ["coin 2"]}, 2: {"effects": ["eliminate"]}},
        players=2,
        max_player_items=-1,
        max_hand_size=1,
        exchange_with="hand",
        turn_structure=["move", "exchange"],
    )
    data["tiles"] += [tile("U0,D0"), tile("U0,D0")]
    state = go(start(data), 1)
    assert held(state) == {"coin": 2}
    state = step(state, state.legal_actions()[0])  # exchange something
    state = go(state, 1, 1)
    state = step(state, state.legal_actions()[0])
    state = go(state, 2)
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,)
    assert outcome.reason == "last player not eliminated"
    assert on_tile(state, 2) == {"coin": 2}
    assert state.players[0].hand == () and len(state.bottom) == 1


def test_collect_effect_stores_items_and_send_effect_moves_them() -> None:
    data = line(
        5,
        {
            1: {"items": ["coin 2"]},
            2: {"effects": ["collect"]},
            3: {"items": ["gem"]},
            4: {"effects": ["send 0 0"]},
        },
        max_player_items=-1,
    )
    state = go(go(start(data), 1), 2)
    assert held(state) == {} and on_tile(state, 2, what="store") == {"coin": 2}
    state = go(go(state, 3), 4)
    assert held(state) == {} and on_tile(state, 0) == {"gem": 1}
    state = go(state, 2)  # the stored coins are never picked up again
    assert held(state) == {} and on_tile(state, 2, what="store") == {"coin": 2}


def test_skip_effect_misses_turns() -> None:
    data = line(3, {2: {"effects": ["skip 2"]}}, players=2)
    state = go(start(data), 2)
    assert state.view(None)["players"][0]["skip"] == 2
    order = []
    for x in (1, 2, 1):
        order.append(state.current_player())
        state = go(state, x, 1)
    assert order == [1, 1, 1]
    assert state.current_player() == 0
    assert state.view(None)["players"][0]["skip"] == 0


def test_effects_need_a_real_move() -> None:
    data = line(3, {0: {"effects": ["skip 1"]}}, players=2)
    state = go(start(data), 0)
    assert state.view(None)["players"][0]["skip"] == 0


# -- goals ------------------------------------------------------------------------------------
def test_reach_goal_wins() -> None:
    data = line(3, {}, players=2)
    data["players"][1]["goals"] = ["reach 2 1"]
    state = go(start(data), 1)
    state = go(state, 2, 1)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,)
    assert outcome.reason == "completed every goal" and outcome.returns == (0.0, 1.0)


def test_goals_are_met_in_order_one_per_check() -> None:
    data = line(3, {}, players=2)
    data["players"][0]["goals"] = ["reach 2 0", "reach 2 0", "reach 0 0"]
    state = go(start(data), 0)
    assert state.players[0].done == 0  # reach 0 0 is not the first goal
    state = go(go(state, 1, 1), 2)
    assert state.players[0].done == 1  # only one goal per check
    state = go(go(state, 2, 1), 2)  # staying: checked again
    assert state.players[0].done == 2
    state = go(go(state, 1, 1), 0)
    assert state.is_terminal() and state.outcome().winners == (0,)  # type: ignore[union-attr]


def test_find_goal_counts_items_picked_up_on_arrival() -> None:
    for limit in (0, -1):
        data = line(3, {2: {"items": ["idol"]}}, max_player_items=limit)
        data["players"][0]["goals"] = ["find idol"]
        state = go(start(data), 2)
        assert state.is_terminal(), limit


def test_collect_goal() -> None:
    data = line(4, {1: {"items": ["coin"]}, 2: {"items": ["coin"]}}, max_player_items=-1)
    data["players"][0]["goals"] = ["collect 2 coin"]
    state = go(start(data), 1)
    assert not state.is_terminal()
    state = go(state, 2)
    assert state.is_terminal()


def test_random_goals_are_drawn_without_replacement_and_kept_secret() -> None:
    pool = [f"reach {x} 0" for x in range(4)]
    data = line(4, {}, players=2, random_goal_pool=pool)
    data["players"][0]["goals"] = ["random 2", "reach 0 0"]
    data["players"][1]["goals"] = ["random 2"]
    for seed in range(10):
        state = start(data, seed=seed)
        goals = [g.text for p in state.players for g in p.goals]
        assert len(goals) == 5 and goals[2] == "reach 0 0"
        drawn = goals[:2] + goals[3:]
        assert sorted(drawn) == sorted(pool)  # every pool goal once
        own = state.view(0)["players"]
        assert [g["goal"] for g in own[0]["goals"]] == goals[:3]
        assert [g["goal"] for g in own[1]["goals"]] == [None, None]
        spectator = state.view(None)["players"]
        assert [g["goal"] for g in spectator[0]["goals"]] == [None, None, "reach 0 0"]


def test_an_empty_goal_list_never_wins() -> None:
    state = go(start(line(3, {})), 2)
    assert not state.is_terminal()


# -- the end ----------------------------------------------------------------------------------
def test_end_condition_and_scoring_from_held_items_and_stores() -> None:
    data = line(
        4,
        {1: {"items": ["coin 2", "gem"]}, 3: {"effects": ["collect"]}, 2: {"items": ["coin"]}},
        players=2,
        max_player_items=-1,
        end_of_game_conditions=["no coin"],
    )
    data["players"][0]["end_of_game_scoring"] = ["items coin 3 0", "items gem"]
    data["players"][1]["end_of_game_scoring"] = ["items coin"]
    state = go(start(data), 1)  # takes 2 coins and the gem
    state = go(state, 1, 1)
    state = go(state, 3)  # stores 2 coins and the gem; one coin still lies on (2,0)
    assert not state.is_terminal()
    state = go(state, 2, 1)
    state = go(state, 2)  # picks up the last coin: none is free any more
    assert not state.is_terminal()  # player 0 holds it: not gone yet
    state = go(state, 2, 1)
    state = go(state, 3)
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "no coin left"
    assert outcome.details["scores"] == [3, 0]  # 3 coins stored; the gem was stored too
    assert outcome.winners == (0,)


def test_end_condition_without_scoring_is_a_draw() -> None:
    data = line(
        3,
        {1: {"items": ["coin"]}, 2: {"effects": ["collect"]}},
        players=2,
        max_player_items=-1,
        end_of_game_conditions=["no coin"],
    )
    state = go(go(go(start(data), 1), 1, 1), 2)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 1)
    assert outcome.returns == (0.5, 0.5)


def test_players_eliminated_together_share_a_draw() -> None:
    tiles = [tile("L0,R0", at=(x, y)) for x in range(2) for y in range(2)]
    tiles += [tile("L0,R0", at=(2, y), effects=["eliminate"]) for y in range(2)]
    data = rules_data(
        3,
        2,
        tiles,
        [player(0, 0, "L"), player(0, 1, "L")],
        turn=("moveAll",),
        movement_type="forced",
        only_forward_movement=True,
    )
    state = start(data)
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "every player was eliminated"
    assert outcome.winners == (0, 1)


def test_a_full_round_without_progress_is_a_draw() -> None:
    data = line(1, {}, players=2)
    state = start(data)  # each player can only stay: played at once
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "no progress for a full round"
    assert outcome.winners == (0, 1) and state.turn == 2


def test_the_round_limit_ends_the_game() -> None:
    data = line(3, {}, players=2)
    state = start(data, max_rounds=2)
    for seat in (0, 1, 0, 1):
        assert not state.is_terminal()
        state = go(state, 2 if state.players[seat].cell % 3 == 0 else 0, seat)
    assert state.turn == 4
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "round limit (2 rounds)"


def test_dice_games_wait_five_quiet_rounds() -> None:
    data = corridor(1, movement_type="dice", min_move_distance=1, max_move_distance=2)
    state = settle(new_game(make(data)), 0)
    outcome = state.outcome()
    assert outcome is not None and state.turn == 5
    assert outcome.reason == "no progress for 5 full rounds"


def test_same_seed_same_game() -> None:
    rules = make(line(3, {}, players=2))
    for _ in range(2):
        a, b = new_game(rules), new_game(rules)
        rng_a, rng_b = SeededRng(3), SeededRng(3)
        for _ in range(20):
            if a.is_terminal():
                break
            a = a.apply(rng_a.choice(a.legal_actions()))
            b = b.apply(rng_b.choice(b.legal_actions()))
            assert a.view(None) == b.view(None)


def test_a_stall_is_a_draw_whatever_the_points_and_the_result_says_so() -> None:
    # Hand-checked: ann walks onto the three gold (3 points), bob stays; then neither moves: a
    # full round without progress. The rules reference ("The end", rule 4) makes that a draw
    # among the players still in; points count only when an end condition ends the game.
    data = line(2, {1: {"items": ["gold"] * 3}}, players=2, max_player_items=-1)
    for spec in data["players"]:
        spec["end_of_game_scoring"] = ["items gold"]
    data["end_of_game_conditions"] = ["no gold"]
    state = go(go(go(start(data), 1, 0), 0, 1), 1, 0)
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "no progress for a full round"
    assert outcome.winners == (0, 1) and outcome.returns == (0.5, 0.5)
    assert outcome.details["scores"] == [3, 0]
    now = datetime.now(UTC)
    record = StoredMatch(
        1,
        "tiles",
        "t1",
        None,
        "finished",
        now,
        now,
        outcome.to_json(),
        {},
        players=(
            PlayerResult(0, "ann", 0.5, winner=True),
            PlayerResult(1, "bob", 0.5, winner=True),
        ),
        events=(),
    )
    assert summary(record) == (
        "ann, bob share the win (no progress for a full round: a draw among the players still"
        " in, whatever the points; points: ann 3, bob 0)"
    )
    # the Czech pages' words (no past-tense verb after a name: it would need its gender)
    assert summary(record, "cs") == (
        "o výhru se dělí ann, bob (celé kolo bez pokroku: remíza mezi hráči, kteří jsou ještě"
        " ve hře, ať jsou body jakékoli; body: ann 3, bob 0)"
    )
    stopped = replace(record, status="aborted", result={"reason": "aborted"})
    assert summary(stopped) == "stopped before the end"  # not "game aborted (aborted)"
    assert summary(stopped, "cs") == "hra přerušena před koncem"

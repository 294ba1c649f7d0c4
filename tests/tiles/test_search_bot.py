"""The tile games' search bot and the named levels (issue #19)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from herna.core.game import CHANCE
from herna.core.rng import SeededRng
from herna.games.tiles.actions import TilesCodec
from herna.games.tiles.bots import (
    LEVEL_NAMES,
    STRATEGIES,
    GoalBot,
    NoisyGoalBot,
    make_bot,
)
from herna.games.tiles.engine import TilesState, new_game
from herna.games.tiles.rules import Rules, load_rules, load_rules_file, shipped_rules
from herna.games.tiles.rules_model import Goal
from herna.games.tiles.search import SearchBot
from herna.hall.lobby import LobbyError, parse_seek
from herna.protocols import tiles as proto
from herna.servers.tiles.seating import LEVELS

FILES = sorted(shipped_rules())


def two_seats(name: str) -> Rules:
    data = json.loads(shipped_rules()[name].read_text(encoding="utf-8"))
    data["players"] = data["players"][:2]
    return load_rules(data, name)


def position(rules: Rules, seed: int, steps: int) -> TilesState:
    """The position after ``steps`` random player actions of a seeded game (chance seeded
    too), stopped at a player's decision."""
    rng = SeededRng(seed)
    state = new_game(rules, max_rounds=200)
    done = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state = state.apply(rng.weighted(state.chance_outcomes()))
            continue
        if done >= steps:
            break
        state = state.apply(rng.choice(state.legal_actions()))
        done += 1
    return state


def encoded(state: TilesState) -> list[dict[str, Any]]:
    codec = TilesCodec(state.rules.n)
    return [codec.encode(a) for a in state.legal_actions()]


class Clock:
    """A fake clock: each reading is ``step`` seconds after the last."""

    def __init__(self, step: float) -> None:
        self.t = 0.0
        self.step = step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


# -- hand-checked positions --------------------------------------------------------------------
def goal_game(rules: Rules, seed: int, actions: int) -> TilesState:
    """The position after ``actions`` player actions of a game between two goal bots (bots
    seeded ``seed`` and ``seed + 1``, chance from ``SeededRng(seed)``)."""
    codec = TilesCodec(rules.n)
    rng = SeededRng(seed)
    bots = [GoalBot(rules, seed), GoalBot(rules, seed + 1)]
    state = new_game(rules, max_rounds=200)
    done = 0
    while True:
        current = state.current_player()
        if current == CHANCE:
            state = state.apply(rng.weighted(state.chance_outcomes()))
            continue
        if done == actions:
            return state
        assert isinstance(current, int)
        picked = bots[current].choose(state.view(current), encoded(state))
        state = state.apply(codec.decode(dict(picked)))
        done += 1


def settled(state: TilesState) -> list[TilesState]:
    """Every way chance can go from ``state`` (each outcome, however unlikely)."""
    if state.is_terminal() or state.current_player() != CHANCE:
        return [state]
    return [s for a, _ in state.chance_outcomes() for s in settled(state.apply(a))]


def opponent_can_eliminate(state: TilesState, seat: int) -> bool:
    """Whether, however chance goes, the player after ``seat`` has a tile that ends ``seat``'s
    game (eliminated, or the game over without it among the winners) — it looks at that
    player's true hand, which ``seat`` cannot see."""
    for s in settled(state):
        if s.is_terminal():
            continue
        if not any(
            t.players[seat].eliminated or (t.is_terminal() and seat not in t.result.winners)  # type: ignore[union-attr]
            for a in s.legal_actions()
            for t in settled(s.apply(a))
        ):
            return False
    return True


def test_it_keeps_out_of_a_tsuro_trap_the_goal_bot_walks_into() -> None:
    """Tsuro heads-up, two goal bots, seed 4, after 4 actions: seat 0's marker faces (2, 2),
    seat 1's faces (3, 2) next to it. Whatever tile seat 0 lays, it survives this turn; the
    goal bot (seeing no further) lays one that leads its marker on to face (3, 2) too, so
    seat 1's next tile there moves both markers, and seat 1 holds a tile that sends seat 0
    into the ring of eliminating tiles however its own draw goes. The search bot, playing the
    reply on, lays a tile after which no tile of seat 1's hand eliminates it."""
    rules = two_seats("tsuro")
    state = goal_game(rules, seed=4, actions=4)
    assert state.current_player() == 0 and state.current_action() == "add"
    codec = TilesCodec(rules.n)
    actions = encoded(state)
    greedy = GoalBot(rules, 3).choose(state.view(0), actions)
    searched = SearchBot(rules, 3, seconds=60.0).choose(state.view(0), actions)
    assert greedy != searched
    after_greedy = state.apply(codec.decode(dict(greedy)))
    after_search = state.apply(codec.decode(dict(searched)))
    for after in (after_greedy, after_search):  # both survive this turn
        assert all(not s.players[0].eliminated for s in settled(after))
    assert opponent_can_eliminate(after_greedy, 0)
    assert not opponent_can_eliminate(after_search, 0)


def test_the_search_bot_takes_a_win_at_once() -> None:
    """A race down two corridors (tests.tiles.helpers.race): one step from the target, the
    search bot steps onto it rather than waiting."""
    from tests.tiles.helpers import race, start

    state = start(race())
    for _ in range(2):  # both players step twice: seat 0 is one tile from (3, 0)
        for seat in (0, 1):
            assert state.current_player() == seat
            forward = [a for a in state.legal_actions() if getattr(a, "x", 0) > 0]
            state = state.apply(max(forward, key=lambda a: a.x))
    actions = encoded(state)
    bot = SearchBot(state.rules, seed=1)
    picked = bot.choose(state.view(0), actions)
    after = state.apply(TilesCodec(state.rules.n).decode(dict(picked)))
    assert after.is_terminal() and after.outcome() is not None
    assert after.outcome().winners == (0,)  # type: ignore[union-attr]


# -- properties ----------------------------------------------------------------------------------
@settings(deadline=None, max_examples=12, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(FILES),
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 40),
    players=st.sampled_from([2, 4]),
)
def test_it_always_returns_a_legal_action_within_its_budget(
    name: str, seed: int, steps: int, players: int
) -> None:
    rules = two_seats(name) if players == 2 else load_rules_file(shipped_rules()[name])
    state = position(rules, seed, steps)
    if state.is_terminal():
        return
    seat = state.current_player()
    assert isinstance(seat, int)
    actions = encoded(state)
    bot = SearchBot(rules, seed=seed, budget=800, next_budget=100, seconds=60.0)
    picked = bot.choose(state.view(seat), actions)
    assert picked in actions
    # The positions it looked at: its budget, the goal bot's ranking of the turn and one look
    # at its next turn; each of the goal bot's budgets is soft (a look it began is finished:
    # every option of the step with every die roll), hence the factor 2.
    assert bot.looked <= 2 * (bot.budget + bot.goal.budget + bot.next_budget)


def test_a_clock_running_out_stops_the_search_and_still_gives_a_legal_action() -> None:
    rules = two_seats("labyrinth")
    state = position(rules, 3, 6)
    seat = state.current_player()
    assert isinstance(seat, int)
    actions = encoded(state)
    # Each reading of this clock is a second after the last: out of time before the first
    # candidate is played on, the goal bot's ranking alone decides.
    hurried = SearchBot(rules, seed=5, now=Clock(1.0), seconds=0.5)
    assert hurried.choose(state.view(seat), actions) in actions
    assert hurried.looked <= hurried.goal.budget + 1
    patient = SearchBot(rules, seed=5, now=Clock(1e-6), seconds=0.5)
    assert patient.choose(state.view(seat), actions) in actions
    assert patient.looked > hurried.looked


def with_other_secrets(state: TilesState) -> TilesState:
    """``state`` with what seat 0 cannot see changed: seat 1's secret goals not yet done
    (another target), seat 1's hand (another order), the pile's unknown part (another
    order)."""

    def other_secret(goal: Goal) -> Goal:
        if goal.kind == "reach":
            return replace(goal, x=(goal.x + 1) % state.rules.width)
        return replace(goal, name=goal.name + "-elsewhere")

    other = state._clone()
    other._advance()
    other.bag = list(reversed(state.bag))
    opponent = state.players[1]
    goals = tuple(
        other_secret(g) if hidden and k >= opponent.done else g
        for k, (g, hidden) in enumerate(zip(opponent.goals, opponent.hidden, strict=False))
    )
    other.players[1] = replace(opponent, goals=goals, hand=tuple(reversed(opponent.hand)))
    return other


@pytest.mark.parametrize("name", ["labyrinth", "tsuro", "dungeon"])  # gold_rush hides nothing
def test_it_never_reads_hidden_information(name: str) -> None:
    """Two states that differ only in what seat 0 cannot see give the same view, and the
    same choice."""
    rules = two_seats(name)
    state, other = next(
        (s, o)
        for seed in range(11, 80)
        for s in [position(rules, seed, 4 + seed % 8)]
        if s.current_player() == 0  # not over, and seat 0 to decide
        for o in [with_other_secrets(s)]
        if (o.players[1], o.bag) != (s.players[1], s.bag)  # something hidden to change
    )
    assert other.view(0) == state.view(0)
    actions = encoded(state)
    # No clock: the wall-clock cap is made long, so that the budget alone bounds the search.
    first = SearchBot(rules, seed=9, seconds=60.0).choose(state.view(0), actions)
    second = SearchBot(rules, seed=9, seconds=60.0).choose(other.view(0), actions)
    assert first == second


# -- levels --------------------------------------------------------------------------------------
def test_levels_are_named_as_onitama_s_and_old_names_still_work() -> None:
    from herna.games.onitama.bots import LEVEL_NAMES as ONITAMA_LEVELS

    assert LEVEL_NAMES == ONITAMA_LEVELS
    rules = two_seats("labyrinth")
    kinds = {name: type(make_bot(name, rules, 1)) for name in STRATEGIES}
    assert kinds["easy"] is NoisyGoalBot
    assert kinds["medium"] is kinds["goal"] is GoalBot
    assert kinds["hard"] is kinds["strongest"] is kinds["search"] is SearchBot
    hard = make_bot("hard", rules, 1)
    strongest = make_bot("strongest", rules, 1)
    assert isinstance(hard, SearchBot) and isinstance(strongest, SearchBot)
    assert hard.budget < strongest.budget and hard.width < strongest.width
    with pytest.raises(ValueError, match="unknown strategy"):
        make_bot("grandmaster", rules)


def test_a_join_asks_for_a_level_in_its_seek() -> None:
    line = b'{"type":"join","name":"ann","rules":"tsuro","seek":"opponent=bots,level=hard"}\n'
    (event,) = proto.ServerConnection().receive_data(line)
    assert event == proto.Join("ann", "tsuro", seek="opponent=bots,level=hard")
    assert parse_seek(event.seek or "", LEVELS).want.level == "hard"
    with pytest.raises(LobbyError) as bad:
        parse_seek("opponent=bots,level=godlike", LEVELS)
    assert bad.value.code == "BAD_SEEK"
    assert b'"seek":"level=easy"' in proto.ClientConnection().join(
        "ann", "tsuro", seek="level=easy"
    )

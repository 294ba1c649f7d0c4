"""The endgame solver of the search bot, and the bidding inference of its sampled worlds."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herna.games.marias import MariasState, Phase, Play, SearchBot, new_game, parse_cards
from herna.games.marias.bots import SERVED_TIME_BUDGET, RuleBot, make_bot
from herna.games.marias.bots.observation import Observation
from herna.games.marias.bots.sampling import auction_fits, determinize
from herna.games.marias.bots.solver import EndgameSolver, Unsolved, solve_cards
from herna.games.marias.cards import BIT
from herna.games.marias.contracts import Rules
from herna.games.marias.log import deal_actions, deal_for, play_actions
from tests.games.marias.helpers import c, deal, play, run


def mask(codes: str) -> int:
    out = 0
    for card in parse_cards(codes):
        out |= BIT[card]
    return out


# Hra with bells trumps, seat 0 the aktér (the hands of test_follow_rules).
HANDS = [
    "G07 G08 G0K B07 B10 R07 R08 R09 R0J R0Q",
    "B09 B0J A0A A08 A09 A10 A0J G09 R10 R0A",
    "B08 B0Q B0K B0A G0J G0Q G10 G0A A0Q A0K",
]


def three_tricks_left() -> MariasState:
    s = deal(HANDS, "R0K A07", rules=Rules(max_flek=1))
    s = run(s, "bid G", "no", "no", "discard R0K A07", "game G B")
    tricks = ("R10 B08 R07", "B0Q B10 B09", "R08 R0A B0K", "B0A B07 B0J", "G10 G07 G09",
              "G0J G0K A08", "R09 A09 G0Q")  # fmt: skip
    for trick in tricks:
        s = play(s, trick)
    return s


def test_solver_finds_the_hand_checked_ending() -> None:
    # Seat 0 (aktér) leads to trick 8 holding R0J R0Q G08; seat 1 holds A10 A0J A0A, seat 2
    # G0A A0Q A0K, trumps bells, nobody has a red or a trump left. The defenders have 40 in
    # cards and the trump 40, and seat 2's acorn 20 is still to come: the hra is lost, what
    # matters is by how much (tiché sto: 100 + 10 per ten over). Leading the reds wins two
    # tricks, and seat 1 must throw an ace or ten on the second: aktér 20, defenders 70 + 60
    # = 130, 8 units per defender. Leading G08 gives G0A the trick with a smeared ten, then
    # the defenders take all: 80 + 60 = 140, 10 units per defender.
    s = three_tricks_left()
    assert s.current == 0 and s.declarer == 0
    values = solve_cards(s, [c("R0J"), c("R0Q"), c("G08")])
    assert values == {c("R0J"): -16, c("R0Q"): -16, c("G08"): -20}
    # The line it promises is what the engine settles.
    end = play(s, "R0J A0J A0Q R0Q A10 A0K G08 A0A G0A")
    assert end.settlement().money[0] == -16


def _brute_force(state: MariasState) -> int:
    """The aktér's money under perfect play, by plain minimax through the engine."""
    if state.phase == Phase.DONE:
        return state.settlement().money[state.declarer]
    results = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        results.append(_brute_force(child))
    return max(results) if state.current == state.declarer else min(results)


def _positions(tricks_left: int, seeds: range) -> list[MariasState]:
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        s = play_actions(new_game(seed % 3), deal_actions(rng))
        while not s.is_terminal():
            legal = s.legal_actions()
            if s.phase == Phase.PLAY and 10 - len(s.tricks) == tricks_left and s.trick:
                out.append(s)
                break
            s = s.apply(legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize("tricks_left", [1, 2, 3])
def test_solver_agrees_with_brute_force(tricks_left: int) -> None:
    # Random deals (random bids: many contracts, fleks, betl and durch) cut mid-trick.
    positions = _positions(tricks_left, range(40 if tricks_left < 3 else 15))
    assert positions
    for s in positions:
        cards = [a.card for a in s.legal_actions() if isinstance(a, Play)]
        values = solve_cards(s, cards)
        for card in cards:
            child = s.clone()
            child.apply_action(Play(card))
            assert values[card] == _brute_force(child), (s, card)


def test_solver_gives_up_past_its_node_budget() -> None:
    s = three_tricks_left()
    with pytest.raises(Unsolved):
        solve_cards(s, [c("R0J"), c("G08")], max_nodes=3)


def test_betl_line_ends_when_the_aktér_takes_a_trick() -> None:
    # A betl whose aktér (seat 0) holds the bells ace alone: whoever leads bells catches him.
    hands = [
        "B0A R07 R08 R09 G07 G08 G09 A07 A08 A09",
        "B07 B08 B09 R10 R0J R0Q G10 G0J A10 A0J",
        "B10 B0J B0Q B0K R0K R0A G0Q G0K G0A A0Q",
    ]
    s = deal(hands, "A0K A0A", rules=Rules(max_flek=1))
    s = run(s, "bid SMALL", "no", "no", "discard A0K A0A", "game SMALL")
    assert s.phase == Phase.PLAY and s.current == 0
    values = solve_cards(s, [c("B0A"), c("R07")])
    # Leading the ace takes the first trick; a low red lets a defender lead bells later.
    assert values[c("B0A")] == values[c("R07")] < 0


def test_auction_inference_keeps_bidders_hands_plausible() -> None:
    strong = mask("R0K R0Q R0A R10 R09 R08 B0A B10 G0A A0A")
    weak = mask("R07 R0J B08 B0J G07 G0Q A08 A09 A0J B07")
    # Seat 1 offered sto: only a hand that could play it fits; a pass fits the weak hand.
    bid_sto = ((0, "7"), (1, "100"))
    assert auction_fits(strong, 1, bid_sto)
    assert not auction_fits(weak, 1, bid_sto)
    assert auction_fits(weak, 1, ((0, "7"), (1, "PASS")))
    assert not auction_fits(strong, 1, ((0, "PASS"), (1, "PASS")))


def test_sampled_worlds_follow_the_bidding() -> None:
    # Seat 0 passed and seat 2 offered sedma: in the worlds seat 1 samples for its
    # answer, seat 2 holds a hand that would offer it (and seat 0 one that would pass).
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        s = run(play_actions(new_game(0), deal_actions(rng)), "bid PASS", "bid 7")
        assert s.current == 1
        if not all(auction_fits(s.hands[p], p, s.auction_log) for p in (0, 2)):
            continue
        view = s.view(1)
        obs = Observation.from_view(view)
        for _ in range(3):
            world = determinize(view, obs, rng, bid_tries=500)
            assert world is not None
            assert auction_fits(world.hands[2], 2, s.auction_log)
            assert auction_fits(world.hands[0], 0, s.auction_log)
        checked += 1
    assert checked


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), cut=st.integers(0, 60), solve=st.booleans())
def test_search_bot_returns_a_legal_action_within_its_budget(
    seed: int, cut: int, solve: bool
) -> None:
    rng = random.Random(seed)
    s = play_actions(new_game(seed % 3), deal_actions(rng))
    steps = 0
    while not s.is_terminal() and (steps < cut or len(s.legal_actions()) < 2):
        legal = s.legal_actions()
        s = s.apply(legal[rng.randrange(len(legal))])
        steps += 1
    if s.is_terminal():
        return
    ticks = iter(range(10_000))
    calls = 0

    def clock() -> float:
        nonlocal calls
        calls += 1
        return float(next(ticks))

    bot = SearchBot(
        iterations=30,
        time_budget=2.5,
        clock=clock,
        solve_tricks=3 if solve else 0,
        solve_betl_tricks=5 if solve else 0,
    )
    seat = s.current_player()
    action = bot.choose(s.view(seat), s.legal_actions(), random.Random(seed))
    assert action in s.legal_actions()
    assert calls <= 5  # the clock stops it after about three worlds, not thirty


def test_served_search_bots_have_a_time_cap() -> None:
    strongest = make_bot("strongest", served=True)
    assert isinstance(strongest, SearchBot) and strongest.time_budget == SERVED_TIME_BUDGET
    assert strongest.clock is not None
    quick = make_bot("sampling-search", served=True, time_budget=0.1, clock=lambda: 0.0)
    assert isinstance(quick, SearchBot) and quick.time_budget == 0.1
    assert isinstance(make_bot("medium", served=True), RuleBot)
    uncapped = make_bot("strongest")  # benchmarks: results must not depend on the load
    assert isinstance(uncapped, SearchBot) and uncapped.time_budget is None


def test_bidding_inference_reads_the_view_only() -> None:
    # Seat 1 offered sedma, seat 2 declined, seat 0 answers: two deals that differ only in
    # the hands of seats 1 and 2 look the same to seat 0 and get the same answer.
    bot = SearchBot(iterations=4, solve_tricks=3, solve_betl_tricks=5)
    for seed in range(4):
        deck = list(range(32))
        random.Random(seed).shuffle(deck)
        hands = [deck[0:10], deck[10:20], deck[20:30]]
        states = [
            run(play_actions(new_game(1), deal_for(1, h, deck[30:])), "bid 7", "no")
            for h in (hands, [hands[0], hands[2], hands[1]])
        ]
        a, b = states
        assert a.current == b.current == 0 and a.view(0) == b.view(0) and a.hands != b.hands
        assert bot.choose(a.view(0), a.legal_actions(), random.Random(seed)) == bot.choose(
            b.view(0), b.legal_actions(), random.Random(seed)
        )


def test_the_memo_shared_between_positions_of_a_deal_agrees_with_brute_force() -> None:
    # The deal review solves a deal's positions from the last card back with one memo: the
    # memo (at trick starts, up to trick 8: the cards left, and in trump games the aktér's
    # aces and tens and the marriages so far; in betl/durch whether it is decided) must give
    # every position its own value. Four tricks left, mid-trick: the memo is in play.
    positions = _positions(4, range(12))
    assert len(positions) >= 8
    for s in positions:
        memo: dict[tuple[int, ...], tuple[int, int]] = {}
        cards = [a.card for a in s.legal_actions() if isinstance(a, Play)]
        for card in cards:  # later positions first, as the review does
            child = s.clone()
            child.apply_action(Play(card))
            if child.phase == Phase.PLAY:
                later = [a.card for a in child.legal_actions() if isinstance(a, Play)]
                got = EndgameSolver(child, 10**6, memo).values(later)
                for c in later:
                    grandchild = child.clone()
                    grandchild.apply_action(Play(c))
                    assert got[c] == _brute_force(grandchild), (child, c)
        values = EndgameSolver(s, 10**6, memo).values(cards)
        for card in cards:
            child = s.clone()
            child.apply_action(Play(card))
            assert values[card] == _brute_force(child), (s, card)

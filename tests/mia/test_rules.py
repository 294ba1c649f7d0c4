from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herna.core.errors import IllegalAction
from herna.core.game import CHANCE, TERMINAL
from herna.games.mia import ALL_DICE, MIA, Announce, Dice, DiceRoll, Fault, MiaRound, Roll, See
from herna.games.mia.dice import InvalidDice, probability_higher
from herna.games.mia.round import MiaActionCodec


def test_dice_order_is_the_seeds() -> None:
    expected = "3,1 3,2 4,1 4,2 4,3 5,1 5,2 5,3 5,4 6,1 6,2 6,3 6,4 6,5 1,1 2,2 3,3 4,4 5,5 6,6 2,1"
    assert " ".join(str(d) for d in ALL_DICE) == expected
    assert ALL_DICE[-1] == MIA and MIA.is_mia


def test_dice_parse_either_order_and_reject_nonsense() -> None:
    assert Dice.parse("1,3") == Dice.parse("3,1") == Dice(3, 1)
    for bad in ["7,1", "3,1x", "0,1", "3", "3,1,2", "", "a,b", " 3,1", "3;1", "33,1"]:
        with pytest.raises(InvalidDice):
            Dice.parse(bad)


def test_probabilities_sum_to_one() -> None:
    assert sum(d.probability for d in ALL_DICE) == 1
    assert probability_higher(None) == 1.0
    assert probability_higher(MIA) == 0.0
    assert probability_higher(Dice(6, 6)) == pytest.approx(2 / 36)


def play(players: tuple[str, ...], *actions: object) -> MiaRound:
    state = MiaRound(players)
    for action in actions:
        state = state.apply(action)  # type: ignore[arg-type]
    return state


AB = ("ann", "bob")
ABC = ("ann", "bob", "cy")


def test_see_before_first_roll() -> None:
    s = play(AB, See())
    assert (s.losers, s.reason) == (("ann",), "SEE_BEFORE_FIRST_ROLL")


def test_lied_about_mia_and_true_mia() -> None:
    s = play(ABC, Roll(), DiceRoll(Dice(6, 6)), Announce(MIA))
    assert (s.losers, s.reason, s.revealed) == (("ann",), "LIED_ABOUT_MIA", True)
    s = play(
        ABC,
        Roll(),
        DiceRoll(Dice(4, 1)),
        Announce(Dice(4, 2)),
        Roll(),
        DiceRoll(MIA),
        Announce(MIA),
    )
    assert (s.losers, s.reason) == (("ann", "cy"), "MIA")
    assert s.outcome().returns == (0.0, 1.0, 0.0)  # type: ignore[union-attr]


def test_announced_losing_dice_equal_is_losing() -> None:
    s = play(
        AB,
        Roll(),
        DiceRoll(Dice(5, 2)),
        Announce(Dice(5, 2)),
        Roll(),
        DiceRoll(Dice(5, 2)),
        Announce(Dice(5, 2)),
    )
    assert (s.losers, s.reason) == (("bob",), "ANNOUNCED_LOSING_DICE")


def test_see_failed_when_true_or_under_announced() -> None:
    true = play(AB, Roll(), DiceRoll(Dice(5, 2)), Announce(Dice(5, 2)), See())
    assert (true.losers, true.reason) == (("bob",), "SEE_FAILED")
    under = play(AB, Roll(), DiceRoll(Dice(6, 6)), Announce(Dice(3, 1)), See())
    assert (under.losers, under.reason) == (("bob",), "SEE_FAILED")


def test_caught_bluffing() -> None:
    s = play(ABC, Roll(), DiceRoll(Dice(3, 2)), Announce(Dice(6, 1)), See())
    assert (s.losers, s.reason) == (("ann",), "CAUGHT_BLUFFING")
    assert s.outcome().winners == (1, 2)  # type: ignore[union-attr]


@pytest.mark.parametrize("reason", ["DID_NOT_TAKE_TURN", "DID_NOT_ANNOUNCE", "INVALID_TURN"])
def test_faults_make_the_current_player_lose(reason: str) -> None:
    s = play(ABC, Roll(), DiceRoll(Dice(4, 1)), Announce(Dice(4, 1)), Fault(reason))
    assert (s.losers, s.reason) == (("bob",), reason)


def test_turn_structure_and_illegal_actions() -> None:
    s = MiaRound(AB)
    assert s.current_player() == 0
    s = s.apply(Roll())
    assert s.current_player() == CHANCE
    with pytest.raises(IllegalAction):
        s.apply(See())
    s = s.apply(DiceRoll(Dice(4, 4)))
    with pytest.raises(IllegalAction):
        s.apply(Roll())
    s = s.apply(Announce(Dice(4, 4)))
    assert s.current_player() == 1
    with pytest.raises(IllegalAction):
        s.apply(Announce(Dice(5, 5)))
    s = s.apply(See())
    assert s.current_player() == TERMINAL
    with pytest.raises(IllegalAction):
        s.apply(Roll())
    with pytest.raises(ValueError):
        MiaRound(("solo",))


def test_views_hide_the_dice_under_the_cup() -> None:
    s = play(ABC, Roll(), DiceRoll(Dice(3, 2)))
    assert s.view(0)["actual"] == "3,2"
    assert s.view(1)["actual"] is None and s.view(None)["actual"] is None
    s = s.apply(Announce(Dice(6, 1)))
    assert all(s.view(p)["actual"] is None for p in (0, 1, 2, None))
    s = s.apply(See())
    assert s.view(None)["actual"] == "3,2"


actions = st.one_of(
    st.just(Roll()),
    st.just(See()),
    st.sampled_from(ALL_DICE).map(Announce),
    st.sampled_from(ALL_DICE).map(DiceRoll),
    st.sampled_from(["DID_NOT_TAKE_TURN", "DID_NOT_ANNOUNCE", "INVALID_TURN"]).map(Fault),
)


@settings(deadline=None, max_examples=300)
@given(st.integers(2, 6), st.lists(actions, max_size=40))
def test_random_rounds_keep_invariants(n: int, sequence: list[object]) -> None:
    players = tuple(f"p{i}" for i in range(n))
    state = MiaRound(players)
    codec = MiaActionCodec()
    log = []
    for action in sequence:
        try:
            state = state.apply(action)  # type: ignore[arg-type]
        except IllegalAction:
            continue
        log.append(codec.encode(action))  # type: ignore[arg-type]
        assert codec.decode(log[-1]) == action
        if state.is_terminal():
            outcome = state.outcome()
            assert outcome is not None
            assert 1 <= len(state.losers) <= n - 1 or state.reason == "MIA"
            assert sum(outcome.returns) == n - len(state.losers)
            assert state.reason in {
                "SEE_BEFORE_FIRST_ROLL",
                "LIED_ABOUT_MIA",
                "ANNOUNCED_LOSING_DICE",
                "DID_NOT_ANNOUNCE",
                "DID_NOT_TAKE_TURN",
                "INVALID_TURN",
                "SEE_FAILED",
                "CAUGHT_BLUFFING",
                "MIA",
            }
            break
    # Replaying the log reproduces the state.
    again = MiaRound(players)
    for text in log:
        again = again.apply(codec.decode(text))
    assert again == state

"""The hall's decision clock (herna/hall/clocks.py): move time, grace, expired; never a
callback for a decision that was made."""

from __future__ import annotations

import doctest

from hypothesis import given
from hypothesis import strategies as st

import herna.hall.clocks
from herna.core.clock import FakeClock
from herna.hall.clocks import DecisionClock


def test_docstring_examples() -> None:
    result = doctest.testmod(herna.hall.clocks)
    assert result.failed == 0 and result.attempted > 0


STEP = st.one_of(
    st.just(("start", 0.0)),
    st.just(("stop", 0.0)),
    st.tuples(st.just("advance"), st.floats(0.0, 20.0, allow_nan=False)),
)


@given(
    move=st.floats(0.5, 10.0, allow_nan=False),
    grace=st.floats(0.0, 10.0, allow_nan=False),
    steps=st.lists(STEP, max_size=30),
)
def test_callbacks_follow_the_model(
    move: float, grace: float, steps: list[tuple[str, float]]
) -> None:
    """A simple model: each started decision is late once its move time has passed without a
    stop, and expired once the grace has passed after that; a stop or a new start forgets it."""
    clock = FakeClock()
    said: list[tuple[str, int]] = []
    decision = 0
    dc = DecisionClock(
        clock,
        move,
        grace,
        lambda: said.append(("late", decision)),
        lambda: said.append(("expired", decision)),
    )
    expected: list[tuple[str, int]] = []
    started_at: float | None = None
    for kind, value in steps:
        if kind == "start":
            decision += 1
            dc.start()
            started_at = clock.now()
        elif kind == "stop":
            dc.stop()
            started_at = None
        else:
            before = clock.now()
            clock.advance(value)
            if started_at is not None:
                late_at, expired_at = started_at + move, started_at + move + grace
                if before < late_at <= clock.now():
                    expected.append(("late", decision))
                if before < expired_at <= clock.now():
                    expected.append(("expired", decision))
                    started_at = None
        if started_at is not None:
            left = dc.left()
            assert left is not None and left >= 0
            assert dc.late == (clock.now() >= started_at + move)
    assert said == expected

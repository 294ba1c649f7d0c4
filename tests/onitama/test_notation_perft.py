from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herna.core.game import CHANCE
from herna.games.onitama.board import SQUARE_NAMES, board_string, parse_board, parse_square
from herna.games.onitama.cards import CARD_NAMES, WHITE
from herna.games.onitama.notation import (
    format_action,
    format_move,
    format_position,
    parse_action,
    parse_cards,
    parse_move,
    parse_position,
)
from herna.games.onitama.perft import divide, perft
from herna.games.onitama.state import Move, OnitamaState, Pass, Stalemate
from tests.onitama.helpers import blocked_state

# onitama-rules.md §8: (first mover's hand, opponent's hand, spare, perft 1..n)
PUBLISHED = [
    (
        ("Ox", "Boar"),
        ("Horse", "Elephant"),
        "Crab",
        [10, 130, 1989, 28509, 487780, 7748422, 137281607],
    ),
    (
        ("Rooster", "Tiger"),
        ("Rabbit", "Cobra"),
        "Frog",
        [9, 72, 880, 10374, 138879, 1781181, 24489752, 324013378],
    ),
    (
        ("Goose", "Dragon"),
        ("Mantis", "Eel"),
        "Crane",
        [10, 120, 1272, 16445, 211643, 2793554, 39359208],
    ),
    (
        ("Crab", "Dragon"),
        ("Monkey", "Tiger"),
        "Mantis",
        [11, 143, 1807, 23949, 325011, 4619275, 64873385],
    ),
]


# -- squares, moves, positions ------------------------------------------------------------------
def test_squares_round_trip() -> None:
    assert SQUARE_NAMES[0] == "a1" and SQUARE_NAMES[4] == "e1" and SQUARE_NAMES[24] == "e5"
    for square, name in enumerate(SQUARE_NAMES):
        assert parse_square(name) == square
        assert parse_square(name.upper()) == square
    for bad in ("f1", "a6", "a0", "", "c", "c12", "1c", "z9"):
        with pytest.raises(ValueError):
            parse_square(bad)


@pytest.mark.parametrize("text", ["Tiger c1c3", "tiger C1 c3", "TIGER|c1|c3", " Tiger  c1  c3 "])
def test_move_forms(text: str) -> None:
    assert parse_move(text) == Move("Tiger", 2, 12)


@pytest.mark.parametrize("text", ["Tiger c1", "Tiger c1c6", "Unicorn c1c3", "c1c3", ""])
def test_bad_moves(text: str) -> None:
    with pytest.raises(ValueError):
        parse_move(text)


def test_actions_round_trip() -> None:
    for action in (Move("Eel", 7, 13), Stalemate("Cobra"), Pass("Ox")):
        assert parse_action(format_action(action)) == action


@settings(deadline=None)
@given(st.sampled_from(CARD_NAMES), st.integers(0, 24), st.integers(0, 24))
def test_move_notation_round_trips(card: str, frm: int, to: int) -> None:
    move = Move(card, frm, to)
    assert parse_move(format_move(move)) == move


def test_start_position_text() -> None:
    state = OnitamaState.setup(["Ox", "Boar"], ["Horse", "Elephant"], "Crab")
    text = format_position(state)
    assert text == "bbBbb...............wwWww Ox,Boar,Horse,Elephant,Crab white"
    again = parse_position(text)
    assert again == state
    assert parse_cards("ox,boar,horse,elephant,crab") == (
        ["Ox", "Boar"],
        ["Horse", "Elephant"],
        "Crab",
    )
    for bad in (
        "bbBbb...............wwWww Ox,Boar,Horse,Elephant white",
        "bbBbb...............wwWww Ox,Ox,Horse,Elephant,Crab white",
        "bbBbb...............wwWww Ox,Boar,Horse,Elephant,Crab grey",
        "bbBbb Ox,Boar,Horse,Elephant,Crab white",
    ):
        with pytest.raises(ValueError):
            parse_position(bad)


@settings(deadline=None)
@given(st.lists(st.sampled_from("..........wwwwbbbbWB"), min_size=25, max_size=25))
def test_board_strings_round_trip(cells: list[str]) -> None:
    text = "".join(cells)
    try:
        pieces, masters = parse_board(text)
    except ValueError:
        assert (
            text.count("W") > 1 or text.count("B") > 1 or text.count("w") > 4 or text.count("b") > 4
        )
        return
    assert board_string(pieces, masters) == text


# -- perft ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("white", "black", "spare", "counts"), PUBLISHED)
def test_perft_matches_published_counts_to_depth_6(
    white: tuple[str, str], black: tuple[str, str], spare: str, counts: list[int]
) -> None:
    state = OnitamaState.setup(list(white), list(black), spare, rule="pass")
    for depth in range(1, 7):
        assert perft(state, depth) == counts[depth - 1], f"depth {depth}"


def test_perft_depth_7_of_the_smallest_row() -> None:
    white, black, spare, counts = PUBLISHED[1]
    state = OnitamaState.setup(list(white), list(black), spare, rule="pass")
    assert perft(state, 7) == counts[6]


def slow_perft(state: OnitamaState, depth: int) -> int:
    """Perft through the public GameState API only (legal_actions/apply)."""
    if depth == 0 or state.is_terminal():
        return 1
    return sum(slow_perft(state.apply(a), depth - 1) for a in state.legal_actions())


@pytest.mark.parametrize("row", range(4))
def test_fast_perft_agrees_with_the_engine_api(row: int) -> None:
    white, black, spare, counts = PUBLISHED[row]
    state = OnitamaState.setup(list(white), list(black), spare, rule="pass")
    assert slow_perft(state, 4) == counts[3]
    split = divide(state, 3)
    assert sum(split.values()) == counts[2]
    assert len(split) == counts[0]


def test_perft_counting_rules() -> None:
    # Rule 3: no legal move -> exactly the two passes.
    blocked = blocked_state()
    assert perft(blocked, 1) == 2
    assert set(divide(blocked, 1)) == {"pass Tiger", "pass Horse"}
    # Rule 2: a won position is a leaf that counts 1 whatever the depth.
    won = OnitamaState.setup(
        ["Ox", "Boar"], ["Horse", "Elephant"], "Crab", board="..W.....................B"
    )
    assert won.is_terminal()
    assert perft(won, 5) == 1
    assert perft(OnitamaState.setup(["Ox", "Boar"], ["Horse", "Elephant"], "Crab"), 0) == 1
    with pytest.raises(ValueError):
        perft(OnitamaState.new(), 1)


def test_perft_does_not_depend_on_which_colour_moves_first() -> None:
    """The board is symmetric under a 180° turn, so Black first gives the same counts."""
    white, black, spare, counts = PUBLISHED[0]
    state = OnitamaState.setup(list(black), list(white), spare, to_move=1, rule="pass")
    assert [perft(state, d) for d in range(1, 5)] == counts[:4]
    assert state.current_player() != CHANCE and state.to_move != WHITE

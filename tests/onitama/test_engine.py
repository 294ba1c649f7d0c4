from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herna.core.errors import IllegalAction
from herna.core.game import CHANCE, TERMINAL
from herna.core.rng import SeededRng
from herna.games.onitama.board import START_BOARD, board_string, parse_square
from herna.games.onitama.cards import BLACK, CARD_NAMES, CARDS, TARGETS, WHITE, card_index
from herna.games.onitama.notation import format_position, parse_position
from herna.games.onitama.state import (
    ACTION_CODEC,
    REASON_FORFEIT,
    REASON_STONE,
    REASON_STREAM,
    Deal,
    Draw,
    Move,
    OnitamaState,
    Pass,
    Stalemate,
)
from tests.onitama.helpers import blocked_state, dealt


def sq(name: str) -> int:
    return parse_square(name)


def mv(card: str, frm: str, to: str) -> Move:
    return Move(card, sq(frm), sq(to))


def board(**pieces: str) -> str:
    """A board string from squares: ``board(c1="W", d4="b")``."""
    cells = ["."] * 25
    for name, symbol in pieces.items():
        s = sq(name)
        cells[(4 - s // 5) * 5 + s % 5] = symbol
    return "".join(cells)


def start(
    white: tuple[str, str] = ("Ox", "Boar"),
    black: tuple[str, str] = ("Horse", "Elephant"),
    spare: str = "Crab",
    board: str | None = None,
    to_move: int = WHITE,
) -> OnitamaState:
    return OnitamaState.setup(list(white), list(black), spare, board=board, to_move=to_move)


# -- cards --------------------------------------------------------------------------------------
def test_sixteen_cards_eight_of_each_stamp() -> None:
    assert len(CARDS) == 16 and len(set(CARD_NAMES)) == 16
    assert sum(c.stamp == "blue" for c in CARDS) == 8
    assert sum(c.stamp == "red" for c in CARDS) == 8


def test_mirror_twins_are_left_right_mirrors() -> None:
    """Mirroring dx turns Frog<->Rabbit, Goose<->Rooster, Horse<->Ox, Eel<->Cobra and leaves
    the other eight unchanged (onitama-rules.md §3)."""
    by_offsets = {frozenset(c.offsets): c.name for c in CARDS}
    for card in CARDS:
        mirrored = frozenset((-dx, dy) for dx, dy in card.offsets)
        assert by_offsets[mirrored] == card.mirror
    twins = {c.name for c in CARDS if c.mirror != c.name}
    assert twins == {"Frog", "Rabbit", "Goose", "Rooster", "Horse", "Ox", "Eel", "Cobra"}
    # and the stamps of twins differ
    for card in CARDS:
        if card.mirror != card.name:
            assert CARDS[card_index(card.mirror)].stamp != card.stamp


def test_black_reads_cards_turned_by_180_degrees() -> None:
    for card in range(16):
        for square in range(25):
            white = TARGETS[WHITE][card][24 - square]
            rotated = sum(1 << (24 - t) for t in range(25) if white & (1 << t))
            assert TARGETS[BLACK][card][square] == rotated


def test_card_names_any_case() -> None:
    assert card_index("TIGER") == card_index("tiger") == card_index(" Tiger ") == 0
    with pytest.raises(ValueError):
        card_index("Unicorn")


# -- setup and deal -----------------------------------------------------------------------------
def test_new_game_deals_five_distinct_cards_as_chance() -> None:
    state = OnitamaState.new()
    assert state.current_player() == CHANCE and state.dealing
    for remaining in (16, 15, 14, 13, 12):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == remaining
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state = state.apply(outcomes[remaining // 2][0])
    assert state.current_player() == WHITE
    assert len(set(state.cards())) == 5
    assert len(state.unused()) == 11
    assert state.board == START_BOARD
    with pytest.raises(IllegalAction):
        state.apply(Deal("Tiger"))


def test_deal_rejects_a_card_twice() -> None:
    state = OnitamaState.new().apply(Deal("Tiger"))
    with pytest.raises(IllegalAction) as err:
        state.apply(Deal("tiger"))
    assert err.value.code == "CARD_IN_PLAY"
    with pytest.raises(IllegalAction):
        OnitamaState.new().apply(Move("Tiger", 2, 12))


def test_setup_validates() -> None:
    with pytest.raises(ValueError):
        OnitamaState.setup(["Ox", "Ox"], ["Horse", "Elephant"], "Crab")
    with pytest.raises(ValueError):
        OnitamaState.setup(["Ox"], ["Horse", "Elephant"], "Crab")
    with pytest.raises(ValueError):
        start(board="x" * 25)
    with pytest.raises(ValueError):
        start(board="WWBbb...............wwWww")


# -- moves and the card exchange ---------------------------------------------------------------
def test_start_position_moves() -> None:
    state = start()
    moves = state.legal_moves()
    assert len(moves) == 10  # perft 1 of this row
    assert len(set(moves)) == 10
    assert all(state.apply(m) for m in moves)


def test_played_card_becomes_spare_and_spare_joins_the_hand() -> None:
    state = start()
    after = state.apply(mv("Ox", "c1", "c2"))
    assert after.spare == "Ox"
    assert after.hand(WHITE) == ("Crab", "Boar")  # the spare takes the played card's slot
    assert after.hand(BLACK) == ("Horse", "Elephant")
    assert after.to_move == BLACK and after.current_player() == BLACK
    assert after.ply == 1
    assert after.last == {
        "type": "move",
        "player": "white",
        "card": "Ox",
        "from": "c1",
        "to": "c2",
        "capture": False,
    }
    # the original state is unchanged
    assert state.spare == "Crab" and state.to_move == WHITE and state.board == START_BOARD


def test_black_moves_towards_rank_one() -> None:
    state = start(to_move=BLACK)
    # Horse for Black: (0,+1) forward = towards rank 1; (-1,0) = Black's left = d-file
    # (blocked by its own student); (0,-1) backwards = off the board.
    targets = {m.to for m in state.legal_moves() if m.card == "Horse" and m.frm == sq("c5")}
    assert targets == {sq("c4")}


def test_capture_removes_the_enemy_pawn() -> None:
    position = board(c1="W", d2="w", c5="B", d4="b", a5="b")
    state = start(("Tiger", "Boar"), ("Horse", "Elephant"), "Crab", board=position)
    after = state.apply(mv("Tiger", "d2", "d4"))
    assert after.piece_at(sq("d4")) == "w" and after.piece_at(sq("d2")) == "."
    assert after.last is not None and after.last["capture"] is True
    assert after.board.count("b") == 1
    assert not after.is_terminal()


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (mv("Tiger", "c1", "c3"), "CARD_NOT_HELD"),
        (mv("Unicorn", "c1", "c3"), "UNKNOWN_CARD"),
        (mv("Ox", "c5", "c4"), "NOT_YOUR_PAWN"),  # the opponent's master
        (mv("Ox", "c3", "c4"), "NOT_YOUR_PAWN"),  # an empty square
        (mv("Boar", "b1", "a1"), "OWN_PAWN"),
        (mv("Ox", "c1", "c3"), "NOT_ON_CARD"),
        (Move("Ox", 2, 27), "OFF_BOARD"),
        (Stalemate("Ox"), "MOVE_EXISTS"),
        (Pass("Ox"), "WRONG_RULE"),
        (Draw("Tiger"), "NOT_CHANCE"),
    ],
)
def test_illegal_actions_have_codes(action: Move | Stalemate | Pass | Draw, code: str) -> None:
    state = start()
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert err.value.code == code


# -- winning ------------------------------------------------------------------------------------
def test_way_of_the_stone() -> None:
    state = start(("Tiger", "Boar"), ("Horse", "Elephant"), "Crab", board=board(c3="W", c5="B"))
    after = state.apply(mv("Tiger", "c3", "c5"))
    assert after.is_terminal() and after.current_player() == TERMINAL
    assert after.winner == WHITE and after.reason == REASON_STONE
    outcome = after.outcome()
    assert outcome is not None and outcome.winners == (WHITE,) and outcome.returns == (1.0, 0.0)
    assert after.legal_actions() == []
    with pytest.raises(IllegalAction):
        after.apply(mv("Horse", "c5", "c4"))


def test_way_of_the_stream_even_onto_a_student() -> None:
    position = board(d4="W", c5="b", e5="B")
    state = start(("Elephant", "Boar"), ("Horse", "Rooster"), "Crab", board=position)
    after = state.apply(mv("Elephant", "d4", "c5"))
    assert after.winner == WHITE and after.reason == REASON_STREAM
    assert after.last is not None and after.last["capture"] is True


def test_a_student_on_the_arch_does_not_win() -> None:
    position = board(d4="w", d1="W", e5="B")
    state = start(("Elephant", "Boar"), ("Horse", "Rooster"), "Crab", board=position)
    after = state.apply(mv("Elephant", "d4", "c5"))
    assert not after.is_terminal() and after.piece_at(sq("c5")) == "w"


def test_black_wins_by_stream_on_c1() -> None:
    position = board(c2="B", e1="W", a5="w")
    state = start(("Tiger", "Boar"), ("Ox", "Crane"), "Crab", board=position, to_move=BLACK)
    after = state.apply(mv("Ox", "c2", "c1"))  # Ox forward for Black: c2 -> c1
    assert after.winner == BLACK and after.reason == REASON_STREAM


def test_a_board_that_is_already_won_is_terminal() -> None:
    state = start(board=board(c1="W", a1="w"))  # no black master
    assert state.is_terminal() and state.winner == WHITE and state.reason == REASON_STONE
    with pytest.raises(ValueError):
        start(board=board(c5="W", c1="B"))  # both have won


def test_forfeit() -> None:
    state = start()
    over = state.forfeit(BLACK)
    assert over.winner == WHITE and over.reason == REASON_FORFEIT
    assert over.last == {"type": "forfeit", "player": "black"}
    with pytest.raises(IllegalAction):
        over.forfeit(WHITE)


# -- no legal move ------------------------------------------------------------------------------
def test_stalemate_swaps_with_a_random_unused_card() -> None:
    state = blocked_state()
    assert not state.legal_moves() and not state.has_legal_move()
    assert state.legal_actions() == [Stalemate("Tiger"), Stalemate("Horse")]
    with pytest.raises(IllegalAction) as err:
        state.apply(Stalemate("Ox"))  # Black's card
    assert err.value.code == "CARD_NOT_HELD"
    with pytest.raises(IllegalAction):
        state.apply(Pass("Tiger"))  # not this game's rule
    pending = state.apply(Stalemate("tiger"))
    assert pending.current_player() == CHANCE
    assert pending.pending_swap == "Tiger"
    outcomes = pending.chance_outcomes()
    assert len(outcomes) == 11
    assert {a.card for a, _ in outcomes} == set(state.unused())
    assert "Tiger" not in {a.card for a, _ in outcomes}
    with pytest.raises(IllegalAction):
        pending.apply(Draw("Ox"))  # in play
    with pytest.raises(IllegalAction):
        pending.apply(mv("Horse", "a1", "b1"))
    after = pending.apply(Draw("Dragon"))
    assert after.hand(WHITE) == ("Dragon", "Horse")
    assert after.spare == "Eel"  # untouched
    assert after.to_move == BLACK
    assert "Tiger" in after.unused() and "Dragon" not in after.unused()
    assert after.last == {"type": "stalemate", "player": "white", "old": "Tiger", "new": "Dragon"}
    assert after.board == state.board


def test_official_pass_gives_the_card_to_the_spare() -> None:
    state = blocked_state(rule="pass")
    assert state.legal_actions() == [Pass("Tiger"), Pass("Horse")]
    with pytest.raises(IllegalAction):
        state.apply(Stalemate("Tiger"))
    after = state.apply(Pass("Horse"))
    assert after.spare == "Horse"
    assert after.hand(WHITE) == ("Tiger", "Eel")
    assert after.to_move == BLACK
    assert sorted(after.cards()) == sorted(state.cards())


# -- views, codec, notation ---------------------------------------------------------------------
def test_view_is_json_ready_and_public() -> None:
    state = start().apply(mv("Ox", "c1", "c2"))
    view = state.view(None)
    assert json.loads(json.dumps(view)) == view
    assert view == state.view(WHITE) == state.view(BLACK)
    assert view["board"] == state.board
    assert view["cards"] == {
        "white": ["Crab", "Boar"],
        "black": ["Horse", "Elephant"],
        "spare": "Ox",
    }
    assert view["to_move"] == "black" and view["phase"] == "play"
    assert view["last"]["to"] == "c2"
    assert set(view["moves"]) == set(state.cards())
    assert view["moves"]["Ox"] == [[0, 1], [1, 0], [0, -1]]
    dealing = OnitamaState.new().view(None)
    assert dealing["cards"] is None and dealing["phase"] == "deal"


def test_action_codec_round_trip() -> None:
    for action in (
        mv("Ox", "c1", "c2"),
        Stalemate("Eel"),
        Pass("Crab"),
        Deal("Tiger"),
        Draw("Cobra"),
    ):
        data = ACTION_CODEC.encode(action)
        assert json.loads(json.dumps(data)) == data
        assert ACTION_CODEC.decode(data) == action


# -- properties over random games ---------------------------------------------------------------
@settings(deadline=None, max_examples=60)
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=60))
def test_random_playouts_keep_the_invariants(seed: int, plies: int) -> None:
    rng = SeededRng(seed)
    state = dealt(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        assert actions, "a live game always offers an action"
        before = (state.board, state.cards(), state.to_move)
        action = rng.choice(actions)
        nxt = state.apply(action)
        assert (state.board, state.cards(), state.to_move) == before  # immutable
        state = nxt
        while state.current_player() == CHANCE:
            state = state.apply(rng.weighted(state.chance_outcomes()))
        cards = state.cards()
        assert len(set(cards)) == 5
        board = state.board
        # A move draws its board from the one before: the same as drawing it afresh.
        assert board == board_string(*state.raw()[:2])
        assert board.count("W") <= 1 and board.count("B") <= 1
        assert board.count("w") <= 4 and board.count("b") <= 4
        if not state.is_terminal():
            assert board.count("W") == 1 and board.count("B") == 1
            # notation round trip of the whole position
            again = parse_position(format_position(state))
            assert (again.board, again.cards(), again.to_move) == (board, cards, state.to_move)
            assert again.legal_moves() == state.legal_moves()
        else:
            assert state.winner in (WHITE, BLACK)
        view = state.view(None)
        assert json.loads(json.dumps(view)) == view


@settings(deadline=None, max_examples=40)
@given(st.integers(min_value=0, max_value=2**32))
def test_every_legal_move_applies_and_every_other_move_is_refused(seed: int) -> None:
    rng = SeededRng(seed)
    state = dealt(seed)
    for _ in range(rng.randint(0, 12)):
        moves = state.legal_moves()
        if not moves or state.is_terminal():
            break
        state = state.apply(rng.choice(moves))
    if state.is_terminal() or state.current_player() < 0:
        return
    legal = set(state.legal_moves())
    hand = state.hand(state.to_move)
    for card in hand:
        for frm in range(25):
            for to in range(25):
                move = Move(card, frm, to)
                if move in legal:
                    state.apply(move)
                else:
                    with pytest.raises(IllegalAction):
                        state.apply(move)


def _old_chance(state: OnitamaState, rng: SeededRng) -> tuple[OnitamaState, list[Deal | Draw]]:
    """Chance resolved as every match did before ``uniform_chance``: the pairs drawn with
    ``weighted``."""
    drawn = []
    while state.current_player() == CHANCE:
        action = rng.weighted(state.chance_outcomes())
        assert isinstance(action, Deal | Draw)
        drawn.append(action)
        state = state.apply(action)
    return state, drawn


@settings(max_examples=300)
@given(st.integers(min_value=0, max_value=2**63 - 1), st.sampled_from(["stalemate", "pass"]))
def test_a_match_deals_from_its_seed_what_it_dealt_before_uniform_chance(
    seed: int, rule: str
) -> None:
    from herna.hall.match import Match, Seat

    match = Match(
        game="onitama",
        table_id="g1",
        state=OnitamaState.new(rule),  # type: ignore[arg-type]
        seats=[Seat("a"), Seat("b")],
        seed=seed,
        codec=ACTION_CODEC,
    )
    rng = SeededRng(seed)
    state, deals = _old_chance(OnitamaState.new(rule), rng)  # type: ignore[arg-type]
    assert match.state == state and match.state.cards() == state.cards()
    assert match.log == [
        ("action", {"player": CHANCE, "action": ACTION_CODEC.encode(d)}) for d in deals
    ]
    # A stalemate's draw from the unused deck comes from the same stream too.
    blocked = blocked_state()
    match.state = blocked
    stuck = Stalemate(blocked.hand(WHITE)[0])
    applied = match.act(WHITE, stuck)
    after, draws = _old_chance(blocked.apply(stuck), rng)
    assert [a for _, a in applied[1:]] == draws and match.state == after
    assert match.rng.random() == rng.random()


def test_uniform_chance_lists_the_outcomes_of_chance_outcomes() -> None:
    state = OnitamaState.new()
    assert state.uniform_chance() == [a for a, _ in state.chance_outcomes()]
    pending = blocked_state().apply(Stalemate("Tiger"))
    outcomes = pending.chance_outcomes()
    assert pending.uniform_chance() == [a for a, _ in outcomes]
    assert {p for _, p in outcomes} == {1.0 / 11}
    assert blocked_state().uniform_chance() is None and blocked_state().chance_outcomes() == []

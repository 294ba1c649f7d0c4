"""The engine review of Onitama games (herna.games.onitama.review), stored once beside the
match (herna.hall.reviews, table match_reviews) and told by ``herna replay ID --review``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import create_engine, text

from herna.cli import main
from herna.games.onitama.notation import parse_move, parse_position
from herna.games.onitama.review import CLASSES, classify, review_game, score_words, win_chance
from herna.games.onitama.state import ACTION_CODEC
from herna.hall.db import make_engine, normalise_url
from herna.hall.records import RecordStore
from herna.hall.reviews import Reviewer, ReviewStore, compute
from herna.hall.schema import alembic_config
from tests.records import onitama_game, review_written_at

# White's master on b3 is attacked by Black's pawn on a3 (Boar: one step to the side). The
# only move that keeps it is Crab b3b4, the master taking the pawn on b4: every other move
# leaves it there, and Tiger b2b4 (a pawn takes b4, which looks natural) loses it at once to
# Boar a3b3. Checked by hand: b5 is reached by b4's Ox, d3 by d4's Boar and Ox, b2 is White's
# own pawn, and nothing of Black's reaches b4 once its pawn is gone.
BLUNDER_START = "....B.b.b.bW....w........ Tiger,Crab,Boar,Ox,Eel white"
#                rank 5 | rank 4 | rank 3 | rank 2 | rank 1


def _events(moves: list[str]) -> list[tuple[str, dict[str, Any]]]:
    return [("action", {"action": ACTION_CODEC.encode(parse_move(m))}) for m in moves]


def test_a_move_that_hands_over_the_master_is_a_blunder_with_the_saving_move() -> None:
    state = parse_position(BLUNDER_START)
    assert len(state.legal_moves()) == 6
    review = review_game({"start": BLUNDER_START}, _events(["Tiger b2b4", "Boar a3b3"]))
    first, second = review["plies"]
    assert first["class"] == "blunder" and first["color"] == "white"
    assert first["best"] == "Crab b3b4"
    assert first["best_words"] == "Crab b3→b4: the master to b4, taking the pawn there"
    assert first["score_words"] == "Black wins in 1 move" and first["win_chance"] == 0
    assert second["class"] == "best" and second["score_words"] == "Black has won"
    assert review["counts"]["white"]["blunder"] == 1
    # The saving move itself is the engine's own: no cost, no class but "best".
    saved = review_game({"start": BLUNDER_START}, _events(["Crab b3b4"]))
    assert saved["plies"][0]["class"] == "best" and "best" not in saved["plies"][0]


def test_the_counts_add_up_to_the_plies() -> None:
    record = onitama_game(11)
    review = review_game(record.meta, record.events)
    plies = review["plies"]
    assert len(plies) >= 10
    assert sum(sum(c.values()) for c in review["counts"].values()) == len(plies)
    for color in ("white", "black"):
        assert sum(review["counts"][color].values()) == sum(p["color"] == color for p in plies)
    assert {p["class"] for p in plies} <= set(CLASSES)
    # random moves: the engine finds fault with some of them
    assert sum(p["class"] in ("mistake", "blunder") for p in plies) >= 1


def test_units_and_thresholds() -> None:
    assert win_chance(0) == 50.0 and win_chance(1_000_000) == 100.0
    assert 59 < win_chance(100) < 61 and win_chance(-100) < 41
    assert score_words(130) == "+1.3" and score_words(-999_997) == "Black wins in 2 moves"
    assert [classify(x) for x in (9.9, 10, 20, 30)] == ["good", "inaccuracy", "mistake", "blunder"]


def test_a_review_is_claimed_once_and_stored(database_url: str) -> None:
    store = RecordStore(database_url)
    match_id = store.save(onitama_game(5))
    reviews = ReviewStore(store.engine)
    assert reviews.get(match_id) is None
    assert reviews.claim(match_id) and not reviews.claim(match_id)
    assert compute(database_url, match_id) == "done"
    found = reviews.get(match_id)
    assert found is not None and found.status == "done" and found.data["plies"]
    assert not reviews.claim(match_id)  # done: never computed again
    # games with a person in them are found for the automatic reviews
    reviewer = Reviewer(database_url, store.engine)
    assert reviewer.scan() == 0  # the first scan notes where the records stand
    other = store.save(onitama_game(6))
    assert reviews.people_games(match_id - 1) == [other]
    store.close()


def test_migration_0003_adds_the_reviews_to_a_database_of_0002(database_url: str) -> None:
    engine = create_engine(normalise_url(database_url))
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0002")
    engine.dispose()
    engine = make_engine(database_url)  # upgrades to the newest revision
    with engine.connect() as conn:
        assert conn.scalar(text("SELECT count(*) FROM match_reviews")) == 0
    engine.dispose()
    store = RecordStore(database_url)
    match_id = store.save(onitama_game(3))
    assert ReviewStore(store.engine).claim(match_id)
    store.close()


def test_replay_review_on_a_real_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'herna.db'}"
    store = RecordStore(url)
    match_id = store.save(onitama_game(7))
    store.close()
    assert main(["replay", str(match_id), "--review", "--database-url", url]) == 0
    out = capsys.readouterr().out
    assert "Engine review" in out
    assert "blunder ≥ 30, mistake ≥ 20, inaccuracy ≥ 10" in out
    assert "alice (white):" in out and "dave (black):" in out
    stored_at = review_written_at(url, match_id)
    # The second time it is read, not computed.
    assert main(["replay", str(match_id), "--review", "--database-url", url]) == 0
    assert capsys.readouterr().out == out
    assert review_written_at(url, match_id) == stored_at
    # A game without a review says so.
    assert main(["replay", "999", "--review", "--database-url", url]) == 1

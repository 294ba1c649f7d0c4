"""The cards' names for people (herna.games.onitama.words.CARD_WORDS): a Czech reader gets the
Czech edition's names in moves, replays and reviews; English and the notation keep the
protocol's names."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from herna.games.onitama.cards import CARD_NAMES
from herna.games.onitama.replay import replay_steps
from herna.games.onitama.words import action_words, card_words, cards_words, who_words
from herna.hall.records import RecordStore
from tests.records import at, onitama_game

MOVE = {"type": "move", "card": "Boar", "from": "c1", "to": "c2", "capture": True}
SWAP = {"type": "stalemate", "old": "Tiger", "new": "Eel"}


def test_a_move_names_its_card_in_the_readers_language() -> None:
    assert (
        action_words(MOVE, who_words("ann", "white")) == "ann (white) played Boar c1→c2 (capture)"
    )
    assert (
        action_words(MOVE, who_words("ann", "white", "cs"), "cs")
        == "ann (bílý) zahrál(a) kartu Kanec c1→c2 (bere)"
    )
    assert (
        action_words(SWAP, who_words("bob", "black", "cs"), "cs")
        == "bob (černý) nemohl(a) táhnout: vyměnil(a) kartu Tygr za kartu Úhoř"
    )
    assert action_words(SWAP, "bob") == "bob could not move: swapped Tiger for Eel"


def test_every_card_has_a_czech_name_and_the_notation_keeps_its_moves() -> None:
    czech = [card_words(c, "cs") for c in CARD_NAMES]
    assert czech[:4] == ["Tygr", "Drak", "Žába", "Králík"] and "Kůň" in czech and "Vůl" in czech
    assert not set(czech) & set(CARD_NAMES)  # (Cobra/Kobra, Crab/Krab: no name left English)
    assert [card_words(c) for c in CARD_NAMES] == list(CARD_NAMES)
    assert card_words("Nothing", "cs") == "Nothing"
    assert cards_words("stalemate Crab {draws Eel}", "cs") == "stalemate Krab {draws Úhoř}"
    assert cards_words("Tiger c1c3", "en") == "Tiger c1c3"


def test_a_czech_replay_names_the_cards_in_czech(tmp_path: Path) -> None:
    store = RecordStore(f"sqlite:///{tmp_path / 'h.db'}")
    match = store.get(store.save(at(onitama_game(5), datetime.now(UTC))))
    assert match is not None
    czech = [s["label"] for s in replay_steps(match, "cs")]
    english = [s["label"] for s in replay_steps(match, "en")]
    deal = next(i for i, label in enumerate(english) if label.startswith("cards dealt: "))
    dealt = english[deal].removeprefix("cards dealt: ").split(", ")
    assert czech[deal] == "rozdané karty: " + ", ".join(card_words(c, "cs") for c in dealt)
    moved = [i for i, label in enumerate(english) if " played " in label]
    assert moved and " zahrál(a) kartu " in czech[moved[0]]
    names = re.compile(r"\b(" + "|".join(CARD_NAMES) + r")\b")
    assert not [label for label in czech if names.search(label)]
    assert names.search(english[moved[0]])


def test_a_games_summary_counts_moves_as_the_board_does() -> None:
    from herna.games.onitama.text import summary
    from herna.hall.records import PlayerResult, StoredMatch

    def won_in(plies: int) -> StoredMatch:
        return StoredMatch(
            id=1, game="onitama", table_id="t1", seed=None, status="finished",
            started_at=datetime.now(UTC), finished_at=datetime.now(UTC),
            result={"reason": "way of the stone", "details": {"plies": plies}}, meta={},
            players=(PlayerResult(0, "ann", 1.0, True), PlayerResult(1, "dave")),
            events=(),
        )  # fmt: skip

    # the board says "93 odehraných tahů" (static/games/onitama.js): the summary counts alike
    assert summary(won_in(93)).endswith(" in 93 moves")
    assert summary(won_in(93), "cs").endswith(" za 93 tahů")
    assert summary(won_in(3), "cs").endswith(" za 3 tahy")
    assert "půltah" not in summary(won_in(1), "cs")

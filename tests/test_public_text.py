"""What the public forms of a record may show: Mia dice that stayed under the cup stay hidden
in the public text, and a player's CSV cannot carry a spreadsheet formula."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from pathlib import Path

from herna.games.mia.text import match_text
from herna.hall.export import results_csv
from herna.hall.records import RecordStore
from tests.records import at, mia_round, onitama_game


def test_public_mia_text_shows_at_most_the_last_roll_and_only_if_it_was_revealed(
    tmp_path: Path,
) -> None:
    store = RecordStore(f"sqlite:///{tmp_path / 'm.db'}")
    now = datetime.now(UTC)
    ids = [store.save(mia_round(n, ["ann", "bob", "cid"], 1000 + n, now)) for n in range(60)]
    several_rolls = 0
    for match_id in ids:
        match = store.get(match_id)
        assert match is not None
        private = "\n".join(match_text(match))
        public = "\n".join(match_text(match, public=True))
        rolls = private.count(" rolls")
        assert private.count(" and gets ") == rolls  # the host sees every roll
        hidden = public.count("(the dice stay under the cup)")
        shown = public.count(" and gets ")
        assert shown + hidden == rolls
        assert shown <= 1
        if shown:  # only the last roll, and only after a SEE or a Mia announcement
            assert "wants to see" in public or "(Mia!)" in public
        several_rolls += rolls > 1
    assert several_rolls > 10  # the sample has rounds with hidden earlier rolls
    store.close()


def test_results_csv_escapes_formulas_in_names(tmp_path: Path) -> None:
    store = RecordStore(f"sqlite:///{tmp_path / 'c.db'}")
    store.save(at(onitama_game(5, white="=HYPERLINK(1)", black="+evil"), datetime.now(UTC)))
    matches = store.matches(player="=HYPERLINK(1)")
    rows = list(csv.reader(io.StringIO(results_csv(matches, "=HYPERLINK(1)"))))
    assert len(rows) == 2
    assert not any(cell[:1] in "=+-@" for cell in rows[1] if cell)
    assert "'+evil" in rows[1]
    store.close()

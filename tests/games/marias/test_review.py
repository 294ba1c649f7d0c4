"""The review of a mariáš deal (herna.games.marias.review), stored once beside the match
(herna.hall.reviews) and told by ``herna replay ID --review``.

The hand-checked deal (dealer seat 0, so seat 1 is the forhont; nobody bids, he plays betl):

* aktér (seat 1): R09, and the 7, 8 and 9 of bells, leaves and acorns; talon R0A, B0A, laid
  away again. In betl order (7 8 9 10 J Q K A) every card of his but R09 is below every
  defender's card of its suit.
* seat 0: R07 R08 R10 R0J R0Q R0K and G0J G0Q G0K G0A;
* seat 2: B10 B0J B0Q B0K, G10, A10 A0J A0Q A0K A0A (no red).

The aktér leads the first trick. **Leading R09 makes the betl**: seat 2 has no red, seat 0
must beat the nine and takes the trick; the aktér holds no red any more and only 7s-9s, so
nobody can make him take a trick. **Any other lead loses it**: seat 2 (bells, acorns) or
seat 0 (leaves, over seat 2's G10) takes the first trick, seat 2 hands the lead to seat 0
with G10 if needed, and seat 0 leads R07: the aktér must beat it with R09 (the follow rule)
and seat 2, void in red, cannot take it from him. So B07 costs the whole betl: 15 from each
defender won (+30) becomes 15 to each lost (−30), and R09 is the card that keeps it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from herna.cli import main
from herna.games.marias.actions import YES, Bid
from herna.games.marias.contracts import Contract
from herna.games.marias.review import Settings, review_deal, review_lines
from herna.hall.records import RecordStore
from herna.hall.reviews import ReviewStore, compute
from tests.records import marias_betl_deal, review_written_at

QUICK = Settings(samples=4)


PUNISHED = "B10 G0K G10 G0J G07 R07"
"""The defence that makes the aktér take trick 3 after a first lead of B07 (see above)."""


def test_the_lead_that_throws_the_betl_is_marked_with_the_card_that_keeps_it() -> None:
    record = marias_betl_deal("B07", defence=PUNISHED)
    review = review_deal(record.meta, record.events, record.players, 31, QUICK)
    assert review["contract_words"] == "betl" and review["akter"] == 1
    assert review["money"][1] == -30  # lost: 15 to each defender
    first = review["tricks"][0]["cards"][0]
    assert first["name"] == "adam" and first["side"] == "aktér"
    assert first["card_words"] == "kulová sedma"
    assert first["verdict"] == "costly" and first["cost"] == 60
    assert (first["value_before"], first["value_after"]) == (30, -30)
    assert first["better"] == ["R09"]
    assert first["better_words"] == "červená devítka"
    assert review["start_value"] == 30 and review["cut_off"] == 0
    # Nothing else is judged costly: after the lead the betl is lost whatever anybody plays.
    assert review["costly"] == 1
    later = [c for t in review["tricks"] for c in t["cards"]][1:]
    assert all(c["verdict"] in ("best", "forced") for c in later)
    text = "\n".join(review_lines(review, {}))
    assert "adam (aktér): kulová sedma" in text
    assert "COST 60: červená devítka would have kept +30" in text
    assert "B07" not in text and "SMALL" not in text  # the game's words, not codes

    # The saving lead itself costs nothing, and the betl is made.
    saved = marias_betl_deal("R09")
    good = review_deal(saved.meta, saved.events, saved.players, 31, QUICK)
    assert good["money"][1] == 30 and good["costly"] == 0
    assert good["tricks"][0]["cards"][0]["verdict"] == "best"


def test_a_stand_in_is_said() -> None:
    record = marias_betl_deal("R09")
    record.meta["stand_in"] = ["a"]
    review = review_deal(record.meta, record.events, record.players, 31, QUICK)
    assert review["stand_in"] == ["adam"]
    assert "A house bot stood in for adam" in "\n".join(review_lines(review, {}))


def test_a_durch_with_sevens_to_nines_is_called_unsound() -> None:
    # The zadák offers durch, the aktér says mám, then both others pass: he must play it.
    auction = (Bid(Contract.BIG), YES, Bid(Contract.PASS), Bid(Contract.PASS))
    record = marias_betl_deal("R09", Contract.BIG, auction)
    review = review_deal(record.meta, record.events, record.players, 31, QUICK)
    assert review["contract_words"] == "durch" and review["money"][1] < 0
    bid = review["auction"]["bid"]
    assert bid["played_words"].startswith("mám")
    assert bid["bot_words"] == "nemám (drop out)"  # the strongest house bot drops out
    assert bid["samples"] == QUICK.samples
    announce = review["auction"]["announce"]
    played = [o for o in announce["options"] if o["played"]]
    assert len(played) == 1 and "durch" in played[0]["words"]
    assert announce["expected"] == -60  # lost in every sampled deal: 30 to each defender
    assert announce["sound"].startswith("unsound")
    assert not any(o["bot"] and o["played"] for o in announce["options"])
    text = "\n".join(review_lines(review, {}))
    assert "unsound: the house bot expects it to lose 60 on average" in text
    assert "nemám (drop out)" in text
    # the same words in Czech for a Czech page (issue 29)
    assert bid["played_words_cs"].startswith("„mám“") and bid["bot_words_cs"].startswith("„nemám“")
    assert announce["sound_cs"] == "nevýhodná: bot herny čeká, že v průměru prohraje 60"
    assert any(o["words_cs"].startswith("odložit do talonu ") for o in announce["options"])
    assert review["result_words_cs"].startswith("durch: ")


def test_a_review_is_claimed_once_and_stored(database_url: str) -> None:
    store = RecordStore(database_url)
    match_id = store.save(marias_betl_deal("B07", defence=PUNISHED))
    reviews = ReviewStore(store.engine)
    assert reviews.claim(match_id) and not reviews.claim(match_id)
    assert compute(database_url, match_id) == "done"
    found = reviews.get(match_id)
    assert found is not None and found.status == "done"
    assert found.data["tricks"][0]["cards"][0]["better"] == ["R09"]
    assert found.data["auction"]["announce"]["samples"] == 24  # the default settings
    assert not reviews.claim(match_id)  # done: never computed again
    # a deal with a person in it, not reviewed yet, is found for the automatic reviews
    other = store.save(marias_betl_deal("R09"))
    assert reviews.people_games(0) == [other]
    store.close()


def test_replay_review_on_a_real_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'herna.db'}"
    store = RecordStore(url)
    match_id = store.save(marias_betl_deal("B07", defence=PUNISHED))
    store.close()
    assert main(["replay", str(match_id), "--review", "--database-url", url]) == 0
    out = capsys.readouterr().out
    assert "Deal review (where the money went):" in out
    assert "aktér (declarer): adam, betl" in out
    assert "COST 60: červená devítka would have kept +30" in out
    assert "Licitace (auction) advice for adam" in out
    assert "adam made no bid: nobody bid" in out
    stored_at = review_written_at(url, match_id)
    # The second time it is read, not computed.
    assert main(["replay", str(match_id), "--review", "--database-url", url]) == 0
    assert capsys.readouterr().out == out
    assert review_written_at(url, match_id) == stored_at

"""A reviewer that stops mid-review: its worker process ends at once (a stopping hall leaves
no search running behind it) and the claim is given back, so the next start computes the
review when a page asks (real worker process, real SQLite file)."""

from __future__ import annotations

import time
from pathlib import Path

from herna.hall.records import RecordStore
from herna.hall.reviews import Reviewer, ReviewStore
from tests.records import marias_deal


def test_a_stopped_reviewer_ends_its_worker_and_gives_the_claim_back(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'herna.db'}"
    store = RecordStore(url)
    match_id = store.save(marias_deal(3))
    reviews = ReviewStore(store.engine)
    reviewer = Reviewer(url, store.engine)
    assert reviewer.request(match_id, "marias") == "computing"
    # wait until the worker process runs the review (a mariáš deal takes seconds of search)
    deadline = time.monotonic() + 30
    while not getattr(reviewer._pool, "_processes", None):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    workers = list(reviewer._pool._processes.values())  # type: ignore[union-attr]
    time.sleep(0.5)
    claimed = reviews.get(match_id)
    assert claimed is not None and claimed.status == "computing"
    reviewer.close()
    for worker in workers:
        worker.join(5)
        assert not worker.is_alive()
    assert reviews.get(match_id) is None  # given back: not computing for the next ten minutes
    again = Reviewer(url, store.engine)
    assert again.request(match_id, "marias") == "computing"
    again.close()
    store.close()

"""Submitted bots (herna.hall.submissions, migration 0004) on SQLite and PostgreSQL, and
``herna submit``: versions, who may upload under a name, and runs kept for their author."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, inspect, text

from herna.cli import main
from herna.hall.db import make_engine, normalise_url
from herna.hall.identity import Identity, ReservedNames
from herna.hall.schema import HEAD, alembic_config, current
from herna.hall.submissions import SubmissionRefused, Submissions

BOT = b"import sys\nfor line in sys.stdin:\n    pass\n"


def test_the_previous_schema_upgrades_and_keeps_its_rows(database_url: str) -> None:
    engine = create_engine(normalise_url(database_url))
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0003")
        conn.execute(
            text(
                "INSERT INTO matches (game, table_id, status, started_at, finished_at, result,"
                " meta) VALUES ('onitama', 'g1', 'finished', :t, :t, '{}', '{}')"
            ),
            {"t": "2026-01-01 12:00:00+00:00"},
        )
    engine.dispose()

    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            assert current(conn) == HEAD
            assert {"bot_submissions", "bot_runs"} <= set(inspect(conn).get_table_names())
            assert conn.scalar(text("SELECT count(*) FROM matches")) == 1
        book = ReservedNames(engine)
        token = book.add("zora")
        bots = Submissions(engine, Identity(book))
        first, _ = bots.submit("zora", "onitama", "bot.py", BOT, token=token)
        again, _ = bots.submit("zora", "onitama", "bot.py", BOT + b"# better\n", token=token)
        assert (first.version, again.version) == (1, 2)
        assert [s.version for s in bots.versions("zora")] == [2, 1]
        assert [s.id for s in bots.latest("onitama")] == [again.id]
        started = datetime.now(UTC)
        bots.record_run(
            again,
            table_id="g7",
            opponent="house-1",
            outcome="lost",
            reason="no move within 2 s",
            log="thinking…\n",
            started_at=started,
        )
        (run,) = bots.runs("zora")
        assert (run.version, run.outcome, run.log) == (2, "lost", "thinking…\n")
    finally:
        engine.dispose()


def test_only_the_token_or_the_owner_uploads_under_a_name(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'herna.db'}")
    identity = Identity(ReservedNames(engine))
    bots = Submissions(engine, identity)
    with pytest.raises(SubmissionRefused, match="not the token"):
        bots.submit("zora", "onitama", "bot.py", BOT, token="guess")
    # A signed-in person's first upload reserves the name for them and shows its token once.
    mine, token = bots.submit("alices-bot", "onitama", "bot.py", BOT, person="Alice")
    assert mine.owner == "Alice" and token and identity.proves("alices-bot", token)
    again, none = bots.submit("alices-bot", "onitama", "bot.py", BOT, person="Alice")
    assert again.version == 2 and none is None
    with pytest.raises(SubmissionRefused, match="taken"):
        bots.submit("alices-bot", "onitama", "bot.py", BOT, person="Bob")
    with pytest.raises(SubmissionRefused, match="taken"):
        bots.submit("ALICES-BOT", "onitama", "bot.py", BOT, person="Bob")
    assert bots.bot_names("Alice") == ["alices-bot"] and bots.bot_names("Bob") == []
    for args, words in [
        (("b", "chess", "bot.py", BOT), "plays submitted bots of onitama, marias, mia, tiles"),
        (("a-long-name-for-a-mia-bot", "mia", "bot.py", BOT), "too long for Mia: its names"),
        (("b", "onitama", "bot.rb", BOT), "not a language the hall runs"),
        (("b", "onitama", "bot.py", b"  \n"), "empty"),
        (("b", "onitama", "bot.py", b"x" * 300_000), "the most the hall takes"),
        (("a b", "onitama", "bot.py", BOT), "not a bot name"),
    ]:
        with pytest.raises(SubmissionRefused, match=words):
            bots.submit(*args, person="Carol")  # type: ignore[arg-type]
    engine.dispose()


def test_herna_submit_keeps_versions_with_the_names_token(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'herna.db'}"
    source = tmp_path / "mybot.py"
    source.write_bytes(BOT)
    assert main(["bots", "add", "mybot", "--database-url", url]) == 0
    token = capsys.readouterr().out.strip()
    argv = ["submit", "onitama", str(source), "--name", "mybot", "--database-url", url]
    assert main([*argv, "--token", token]) == 0
    assert main([*argv, "--token", token]) == 0
    assert "mybot version 2 (Python 3" in capsys.readouterr().err
    assert main([*argv, "--token", "wrong"]) == 1
    assert "that is not the token of 'mybot'" in capsys.readouterr().err
    engine = make_engine(url)
    assert [s.version for s in Submissions(engine, Identity()).versions("mybot")] == [2, 1]
    engine.dispose()

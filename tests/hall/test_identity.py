"""The hall's identity rules: reserved names, house bot names and seat keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from herna.cli import main
from herna.hall.db import make_engine
from herna.hall.identity import (
    Admission,
    Identity,
    NameTaken,
    Refusal,
    ReservedNames,
    SeatKey,
    new_secret,
)


@pytest.fixture
def book(tmp_path: Path) -> ReservedNames:
    return ReservedNames(make_engine(f"sqlite:///{tmp_path / 'names.db'}"))


def test_unreserved_names_are_free_and_tokens_for_them_ignored() -> None:
    identity = Identity()
    assert identity.admit("anyone") == Admission("anyone", verified=False)
    assert identity.admit("anyone", "whatever") == Admission("anyone", verified=False)


def test_house_bot_name_needs_the_house_token() -> None:
    identity = Identity()
    token = identity.reserve_house_bot("house-1")
    assert identity.reserve_house_bot("house-1") == token
    refused = identity.admit("house-1")
    assert isinstance(refused, Refusal) and refused.code == "HOUSE_BOT_NAME"
    assert isinstance(identity.admit("house-1", "guess"), Refusal)
    assert identity.admit("house-1", token) == Admission("house-1", verified=True, house=True)


def test_reserved_name_needs_its_token(book: ReservedNames) -> None:
    token = book.add("alice", note="Alice's bot")
    identity = Identity(book)
    missing = identity.admit("alice")
    assert isinstance(missing, Refusal) and missing.code == "RESERVED_NAME"
    wrong = identity.admit("alice", new_secret())
    assert isinstance(wrong, Refusal) and wrong.code == "BAD_TOKEN"
    assert identity.admit("alice", token) == Admission("alice", verified=True)
    with pytest.raises(NameTaken):
        book.add("alice")
    # Only the digest is stored.
    assert token not in repr(book.digests())


def test_book_changes_reach_a_running_identity_after_refresh(book: ReservedNames) -> None:
    now = [0.0]
    identity = Identity(book, clock=lambda: now[0])
    assert not identity.is_reserved("late")
    book.add("late")
    assert not identity.is_reserved("late")  # cached
    now[0] += 2.0
    assert identity.is_reserved("late")
    book.remove("late")
    now[0] += 2.0
    assert identity.admit("late") == Admission("late", verified=False)


def test_seat_key_opens_with_its_secret_or_the_names_token(book: ReservedNames) -> None:
    token = book.add("bob")
    identity = Identity(book)
    key = SeatKey("bob")
    assert key.opens("bob", key.secret, identity)
    assert key.opens("bob", token, identity)
    assert not key.opens("bob", None, identity)
    assert not key.opens("bob", "nope", identity)
    assert not key.opens("mallory", key.secret, identity)
    stranger = SeatKey("carol")
    assert not stranger.opens("carol", None, identity)


def test_herna_bots_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    assert main(["bots", "add", "dave", "--note", "course bot", "--database-url", url]) == 0
    token = capsys.readouterr().out.strip()
    assert len(token) == 32
    identity = Identity(ReservedNames(make_engine(url)))
    assert identity.admit("dave", token) == Admission("dave", verified=True)
    assert main(["bots", "add", "dave", "--database-url", url]) == 1
    assert main(["bots", "add", "bad;name", "--database-url", url]) == 2
    assert main(["bots", "list", "--database-url", url]) == 0
    assert "course bot" in capsys.readouterr().out
    assert main(["bots", "remove", "dave", "--database-url", url]) == 0
    assert main(["bots", "remove", "dave", "--database-url", url]) == 1


def test_secrets_never_start_with_a_dash() -> None:
    """A token is given on command lines (``--token TOKEN``): one starting with ``-`` would
    read as an option (a live tournament's admin token once did, 1 time in 64)."""
    from herna.hall.identity import new_secret

    made = [new_secret() for _ in range(3000)]
    assert not any(s.startswith("-") for s in made)
    assert len(set(made)) == len(made) and all(len(s) >= 32 for s in made)

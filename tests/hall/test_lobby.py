"""The hall's lobby without any server: seeks, challenges, fill waits (herna/hall/lobby.py)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herna.hall.events import EventBus
from herna.hall.lobby import (
    ANYONE,
    BOT,
    BOTS,
    CLOSED,
    HALL_CLOSED,
    HOUSE_BOT,
    NO_SUCH_SEEK,
    NOT_FOR_YOU,
    NOT_YOURS,
    OWN_SEEK,
    PEOPLE,
    PERSON,
    Lobby,
    LobbyError,
    Seek,
    Want,
    _pair_ok,
)

G = "onitama"


def seat_all(lobby: Lobby, now: float) -> list[list[Seek]]:
    groups = []
    while (group := lobby.next_group(G, now)) is not None:
        lobby.seated(group)
        groups.append(group)
    return groups


def test_seed_clients_pair_in_arrival_order() -> None:
    lobby = Lobby()
    a, b, c = (lobby.open(G, n, BOT, Want(), object(), 0) for n in "abc")
    assert seat_all(lobby, 0) == [[a, b]]
    assert lobby.open_seeks(G) == [c]


def test_people_only_never_meets_a_bot_and_fill_waits_for_house_bots() -> None:
    lobby = Lobby()
    eva = lobby.open(G, "eva", PERSON, Want(PEOPLE), object(), 0)
    lobby.open(G, "tcp", BOT, Want(), object(), 0)
    lobby.open(G, "house-1", HOUSE_BOT, Want(), object(), 0)
    # the bot and the house bot pair with each other; eva stays
    assert [[s.owner for s in g] for g in seat_all(lobby, 0)] == [["tcp", "house-1"]]
    assert lobby.due(G, 1000) == []  # people only: never filled by house bots
    ota = lobby.open(G, "ota", PERSON, Want(ANYONE, fill=30), object(), 1)
    assert seat_all(lobby, 1) == [[eva, ota]]


def test_fill_wait() -> None:
    lobby = Lobby()
    eva = lobby.open(G, "eva", PERSON, Want(ANYONE, fill=30), object(), 0)
    hb = lobby.open(G, "house-1", HOUSE_BOT, Want(), object(), 0)
    assert lobby.next_group(G, 29) is None and lobby.due(G, 29) == []
    assert lobby.next_fill(G) == 30
    assert lobby.next_group(G, 30) == [eva, hb]
    assert lobby.due(G, 30) == [eva]


def test_bots_of_a_level_are_due_at_once_and_taken_by_a_summoned_house_bot_only() -> None:
    lobby = Lobby()
    eva = lobby.open(G, "eva", PERSON, Want(BOTS, level="easy", fill=99), object(), 0)
    lobby.open(G, "house-1", HOUSE_BOT, Want(), object(), 0)
    lobby.open(G, "tcp", BOT, Want(), object(), 0)
    assert [[s.owner for s in g] for g in seat_all(lobby, 0)] == [["house-1", "tcp"]]
    assert lobby.due(G, 0) == [eva]
    with pytest.raises(LobbyError) as err:
        lobby.check_open(G, "ota", PERSON, Want(accept=eva.id))
    assert err.value.code == NOT_FOR_YOU
    bot = lobby.open(G, "house-easy-1", HOUSE_BOT, Want(accept=eva.id), object(), 0)
    assert lobby.next_group(G, 0) == [eva, bot]


def test_challenge_pairs_its_target_only() -> None:
    lobby = Lobby()
    ch = lobby.open(G, "eva", PERSON, Want(challenge="Ota"), object(), 0)
    lobby.open(G, "zed", PERSON, Want(), object(), 0)
    assert lobby.next_group(G, 0) is None
    with pytest.raises(LobbyError) as err:
        lobby.open(G, "zed2", PERSON, Want(accept=ch.id), object(), 0)
    assert err.value.code == NOT_FOR_YOU
    ota = lobby.open(G, "ota", PERSON, Want(accept=ch.id), object(), 0)
    assert lobby.next_group(G, 0) == [ch, ota]


def test_forged_requests_are_refused_and_change_nothing() -> None:
    bus = EventBus()
    lobby = Lobby(bus)
    seek = lobby.open(G, "eva", PERSON, Want(), object(), 0)
    before = (lobby.snapshot(), bus.published)
    for call, code in [
        (lambda: lobby.cancel(seek.id, "ota"), NOT_YOURS),
        (lambda: lobby.cancel("s999", "eva"), NO_SUCH_SEEK),
        (lambda: lobby.open(G, "ota", PERSON, Want(accept="s999"), object(), 0), NO_SUCH_SEEK),
        (lambda: lobby.open(G, "EVA", PERSON, Want(accept=seek.id), object(), 0), OWN_SEEK),
        (lambda: lobby.open(G, "eva", PERSON, Want(challenge="Eva"), object(), 0), OWN_SEEK),
        (lambda: lobby.open(G, "x", PERSON, Want("nobody"), object(), 0), "BAD_SEEK"),
        (lambda: lobby.open(G, "x", PERSON, Want(fill=float("nan")), object(), 0), "BAD_SEEK"),
        (lambda: lobby.open(G, "x", "alien", Want(), object(), 0), "BAD_SEEK"),
    ]:
        with pytest.raises(LobbyError) as err:
            call()
        assert err.value.code == code
    assert (lobby.snapshot(), bus.published) == before


def test_events_and_listener() -> None:
    bus = EventBus()
    sub = bus.subscribe()
    lobby = Lobby(bus)
    heard: list[tuple[str, str]] = []
    lobby.listen(G, lambda s, why: heard.append((s.id, why)))
    holder = object()
    a = lobby.open(G, "eva", PERSON, Want(), holder, 0)
    b = lobby.open(G, "ota", PERSON, Want(PEOPLE), object(), 0)
    lobby.cancel(b.id, "OTA")
    lobby.drop(holder)
    kinds = [(e.game, e.table, e.kind, e.data["seek"]["id"], e.data["why"]) for e in sub.drain()]
    assert kinds == [
        ("lobby", G, "seek_opened", a.id, ""),
        ("lobby", G, "seek_opened", b.id, ""),
        ("lobby", G, "seek_closed", b.id, "cancelled"),
        ("lobby", G, "seek_closed", a.id, "gone"),
    ]
    assert heard == [(b.id, "cancelled"), (a.id, "gone")]


# -- properties ---------------------------------------------------------------------------------
NAMES = ["eva", "ota", "Eva", "zed", "house-1", "house-2", "bob"]
KIND_OF = {"house-1": HOUSE_BOT, "house-2": HOUSE_BOT, "bob": BOT}

op = st.one_of(
    st.tuples(
        st.just("open"),
        st.sampled_from(NAMES),
        st.sampled_from([ANYONE, PEOPLE, BOTS]),
        st.sampled_from([0.0, 5.0]),
        st.one_of(st.none(), st.sampled_from(NAMES)),
        st.one_of(st.none(), st.integers(0, 12)),
    ),
    st.tuples(st.just("cancel"), st.integers(0, 12), st.sampled_from(NAMES)),
    st.tuples(st.just("drop"), st.integers(0, 12)),
    st.tuples(st.just("pair"), st.sampled_from([0.0, 10.0])),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(op, max_size=40))
def test_no_seek_is_seated_twice_and_closed_seeks_never_pair(ops: list[tuple]) -> None:  # type: ignore[type-arg]
    lobby = Lobby()
    made: list[Seek] = []
    holders: list[object] = []
    seated: set[str] = set()
    dead: set[str] = set()
    now = 0.0
    for o in ops:
        if o[0] == "open":
            _, name, opponent, fill, challenge, accept = o
            target = made[accept].id if accept is not None and accept < len(made) else None
            want = Want(opponent, fill=fill, challenge=None if target else challenge, accept=target)
            holder = object()
            try:
                made.append(lobby.open(G, name, KIND_OF.get(name, PERSON), want, holder, now))
                holders.append(holder)
            except LobbyError:
                pass
        elif o[0] == "cancel" and o[1] < len(made):
            try:
                lobby.cancel(made[o[1]].id, o[2])
                dead.add(made[o[1]].id)
            except LobbyError:
                pass
        elif o[0] == "drop" and o[1] < len(holders):
            dead.update(s.id for s in lobby.drop(holders[o[1]]))
        elif o[0] == "pair":
            now += o[1]
            for group in seat_all(lobby, now):
                a, b = group
                ids = {a.id, b.id}
                assert not ids & seated and not ids & dead
                assert a.key != b.key
                for x, y in ((a, b), (b, a)):
                    if x.want.challenge:
                        assert y.key == x.want.challenge.casefold()
                    if x.want.accept:
                        assert y.id == x.want.accept
                    if x.want.opponent == PEOPLE:
                        assert y.kind == PERSON
                    if x.want.opponent == BOTS:
                        assert y.kind == HOUSE_BOT and y.want.accept == x.id
                seated |= ids
            # nothing that could pair is left waiting
            left = lobby.open_seeks(G)
            assert not any(_pair_ok(x, y, now) for x, y in itertools.combinations(left, 2))
    assert not {s.id for s in lobby.open_seeks()} & (seated | dead)


def test_a_new_seek_is_compared_with_the_waiting_ones_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seeks that wait (challenges to absent players) are not compared with each other again
    at every login: a login costs O(open seeks), not their square (bench/lobby_seeks.py)."""
    import herna.hall.lobby as lobby_module

    lobby = Lobby()
    for i in range(200):
        lobby.open(G, f"p{i}", PERSON, Want(challenge=f"absent-{i}"), object(), 0)
        assert lobby.next_group(G, 0) is None
    calls = 0
    real = lobby_module._pair_ok

    def counting(a: Seek, b: Seek, now: float) -> bool:
        nonlocal calls
        calls += 1
        return real(a, b, now)

    monkeypatch.setattr(lobby_module, "_pair_ok", counting)
    lobby.open(G, "late", PERSON, Want(challenge="absent"), object(), 0)
    assert lobby.next_group(G, 0) is None
    assert calls <= 200


def test_a_closed_hall_opens_pairs_and_fills_nothing_and_ends_the_waits() -> None:
    """``close_for_new_games`` (a deleted database): every server asks the lobby, so this is
    the one place new games stop."""
    lobby = Lobby()
    closed: list[tuple[str, str]] = []
    lobby.listen("onitama", lambda seek, why: closed.append((seek.owner, why)))
    lobby.open("onitama", "ann", PERSON, Want(fill=5), holder="a", now=0)
    lobby.close_for_new_games("the database file was deleted")
    assert closed == [("ann", HALL_CLOSED)] and not lobby.open_seeks()
    with pytest.raises(LobbyError) as refused:
        lobby.check_open("onitama", "bob", BOT, Want())
    assert (refused.value.code, refused.value.reason) == (CLOSED, "the database file was deleted")
    with pytest.raises(LobbyError):
        lobby.open("onitama", "bob", BOT, Want(), holder="b", now=1)
    assert lobby.next_group("onitama", 10) is None
    assert lobby.due("onitama", 10) == [] and lobby.next_fill("onitama") is None

"""The Mia table driven datagram by datagram on a fake clock (no sockets: the logic alone)."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from herna.core.clock import FakeClock, TimerHandle
from herna.games.mia.dice import Dice
from herna.hall.events import EventBus
from herna.hall.records import RecordStore
from herna.servers.mia.seats import Addr
from herna.servers.mia.table import TOKENS_PER_DRAW, MiaSettings, MiaTable, TokenSource

A: Addr = ("10.0.0.1", 5001)
B: Addr = ("10.0.0.2", 5002)
C: Addr = ("10.0.0.3", 5003)
S: Addr = ("10.0.0.9", 5009)


class Net:
    def __init__(self) -> None:
        self.boxes: dict[Addr, list[str]] = defaultdict(list)
        self.raw: dict[Addr, list[bytes]] = defaultdict(list)
        self.broadcasts = 0

    def send(self, data: bytes, addr: Addr) -> None:
        self.boxes[addr].append(data.decode())
        self.raw[addr].append(data)

    def send_many(self, data: bytes, addrs: Sequence[Addr]) -> None:
        """A transport's broadcast loop (as MiaUdpServer.send_many)."""
        self.broadcasts += 1
        for addr in addrs:
            self.send(data, addr)

    def take(self, addr: Addr) -> list[str]:
        out, self.boxes[addr] = self.boxes[addr], []
        return out

    def last(self, addr: Addr, prefix: str) -> str:
        return next(m for m in reversed(self.boxes[addr]) if m.startswith(prefix))


class World:
    def __init__(
        self, records: RecordStore | None = None, broadcast_loop: bool = False, **settings: object
    ) -> None:
        self.net = Net()
        self.clock = FakeClock()
        self.bus = EventBus()
        self.events = self.bus.subscribe()
        self.table = MiaTable(
            self.net.send,
            self.clock,
            MiaSettings(seed=7, **settings),  # type: ignore[arg-type]
            bus=self.bus,
            records=records,
            send_many=self.net.send_many if broadcast_loop else None,
        )
        self.table.start()

    def say(self, addr: Addr, text: str) -> None:
        self.table.receive(text.encode(), addr)

    def token(self, addr: Addr, prefix: str) -> str:
        return self.net.last(addr, prefix).split(";")[-1]

    def register(self, addr: Addr, name: str) -> None:
        self.say(addr, f"REGISTER;{name}")
        assert "REGISTERED" in self.net.boxes[addr]

    def join_all(self, *addrs: Addr) -> None:
        for addr in addrs:
            self.say(addr, f"JOIN;{self.token(addr, 'ROUND STARTING')}")

    def whose_turn(self, *addrs: Addr) -> Addr:
        for addr in addrs:
            if any(m.startswith("YOUR TURN") for m in self.net.boxes[addr]):
                return addr
        raise AssertionError("nobody got YOUR TURN")


def until(w: World, addr: Addr, prefix: str, limit: float = 3.0) -> None:
    """Advance the fake clock until ``addr`` has received a message starting with ``prefix``."""
    waited = 0.0
    while not any(m.startswith(prefix) for m in w.net.boxes[addr]):
        w.clock.advance(0.01)
        waited += 0.01
        assert waited < limit, f"{addr} never got {prefix}"


def next_round(w: World, *addrs: Addr) -> Addr:
    """Clear the inboxes, wait for the next ROUND STARTING, join with ``addrs`` and return
    the address whose turn it is."""
    for addr in addrs:
        w.net.take(addr)
    until(w, addrs[0], "ROUND STARTING")
    w.join_all(*addrs)
    return w.whose_turn(*addrs)


def two_player_round(w: World) -> tuple[Addr, Addr]:
    w.register(A, "ann")
    w.register(B, "bob")
    first = next_round(w, A, B)
    return first, (B if first == A else A)


def test_registration_rules() -> None:
    w = World()
    w.say(A, "REGISTER;ann")
    assert w.net.take(A)[0] == "REGISTERED"
    w.say(B, "REGISTER;ann")
    assert w.net.take(B) == ["REJECTED;NAME_ALREADY_TAKEN"]
    for bad in [
        "REGISTER",
        "REGISTER;",
        "REGISTER;a b",
        "REGISTER;a:b",
        "REGISTER;a,b",
        "REGISTER;a b;token",
        "REGISTER;" + "x" * 21,
    ]:
        w.say(C, bad)
        assert w.net.take(C) == ["REJECTED;INVALID_NAME"], bad
    # Same name, same IP, other port: moved, score kept.
    w.table.scores["ann"] = 5
    moved = (A[0], 6000)
    w.say(moved, "REGISTER;ann")
    assert w.net.take(moved)[0] == "REGISTERED"
    assert w.table.clients["ann"].addr == moved and w.table.scores["ann"] == 5
    # A new name from the same address and port replaces the player there.
    w.say(moved, "REGISTER;anna")
    assert w.net.take(moved)[0] == "REGISTERED"
    assert "ann" not in w.table.clients and "anna" in w.table.clients
    w.say(moved, "UNREGISTER")
    assert w.net.take(moved) == ["UNREGISTERED"]
    assert "anna" not in w.table.clients


def test_spectator_gets_scores_and_broadcasts_but_no_private_messages() -> None:
    w = World()
    w.say(S, "REGISTER_SPECTATOR;eve")
    assert w.net.take(S) == ["REGISTERED", "SCORE;"]
    first, second = two_player_round(w)
    roll = w.token(first, "YOUR TURN")
    w.say(first, f"ROLL;{roll}")
    dice = w.net.last(first, "ROLLED").split(";")[1]
    w.say(first, f"ANNOUNCE;{dice};{w.token(first, 'ROLLED')}")
    w.say(second, f"SEE;{w.token(second, 'YOUR TURN')}")
    seen = w.net.take(S)
    assert not [m for m in seen if m.startswith(("ROUND STARTING", "YOUR TURN", "ROLLED"))]
    kinds = [m.split(";")[0] for m in seen]
    for expected in [
        "SCORE",
        "ROUND STARTED",
        "PLAYER ROLLS",
        "ANNOUNCED",
        "PLAYER WANTS TO SEE",
        "ACTUAL DICE",
        "PLAYER LOST",
    ]:
        assert expected in kinds
    assert seen[-1].startswith("SCORE;")


def test_full_round_true_announcement_then_see_failed() -> None:
    w = World()
    first, second = two_player_round(w)
    started = w.net.last(first, "ROUND STARTED")
    assert started.startswith("ROUND STARTED;2;")
    w.say(first, f"ROLL;{w.token(first, 'YOUR TURN')}")
    dice = w.net.last(first, "ROLLED").split(";")[1]
    assert Dice.parse(dice)
    w.say(first, f"ANNOUNCE;{dice};{w.token(first, 'ROLLED')}")
    first_name = w.table.match.state.players[0]  # type: ignore[union-attr]
    if Dice.parse(dice).is_mia:
        pytest.skip("seed rolled Mia")  # the seed is fixed; this documents the assumption
    w.say(second, f"SEE;{w.token(second, 'YOUR TURN')}")
    msgs = w.net.take(first)
    second_name = "bob" if first_name == "ann" else "ann"
    assert f"ACTUAL DICE;{dice}" in msgs
    assert f"PLAYER LOST;{second_name};SEE_FAILED" in msgs
    assert msgs[-1] == f"SCORE;ann:{int(first_name == 'ann')},bob:{int(first_name == 'bob')}"


def test_caught_bluffing_and_points() -> None:
    w = World()
    first, second = two_player_round(w)
    w.say(first, f"ROLL;{w.token(first, 'YOUR TURN')}")
    dice = Dice.parse(w.net.last(first, "ROLLED").split(";")[1])
    bluff = "6,6" if dice < Dice(6, 6) else None
    if bluff is None:
        pytest.skip("seed rolled 6,6 or Mia")
    w.say(first, f"ANNOUNCE;{bluff};{w.token(first, 'ROLLED')}")
    w.say(second, f"SEE;{w.token(second, 'YOUR TURN')}")
    lost = w.net.last(second, "PLAYER LOST")
    assert lost.endswith(";CAUGHT_BLUFFING")


def test_see_before_first_roll() -> None:
    w = World()
    first, _ = two_player_round(w)
    w.say(first, f"SEE;{w.token(first, 'YOUR TURN')}")
    name = w.table.clients["ann" if first == A else "bob"].name
    # As in the seed and the reference servers: the wish to see, then the loss; no dice.
    *last, score = w.net.boxes[first][-3:]
    assert last == [f"PLAYER WANTS TO SEE;{name}", f"PLAYER LOST;{name};SEE_BEFORE_FIRST_ROLL"]
    assert score.startswith("SCORE;")


def test_announced_losing_dice_and_lied_about_mia() -> None:
    w = World()
    first, second = two_player_round(w)
    w.say(first, f"ROLL;{w.token(first, 'YOUR TURN')}")
    w.say(first, f"ANNOUNCE;6,6;{w.token(first, 'ROLLED')}")
    w.say(second, f"ROLL;{w.token(second, 'YOUR TURN')}")
    w.say(second, f"ANNOUNCE;5,5;{w.token(second, 'ROLLED')}")
    assert w.net.last(first, "PLAYER LOST").endswith(";ANNOUNCED_LOSING_DICE")
    # Next round: a false Mia.
    turn = next_round(w, A, B)
    w.say(turn, f"ROLL;{w.token(turn, 'YOUR TURN')}")
    rolled = Dice.parse(w.net.last(turn, "ROLLED").split(";")[1])
    w.say(turn, f"ANNOUNCE;1,2;{w.token(turn, 'ROLLED')}")
    expected = "MIA" if rolled.is_mia else "LIED_ABOUT_MIA"
    # Mia is uncovered at once: the real dice before the loss.
    tail = w.net.boxes[turn][-4:]
    assert [m.split(";")[0] for m in tail] == ["ANNOUNCED", "ACTUAL DICE", "PLAYER LOST", "SCORE"]
    assert tail[1] == f"ACTUAL DICE;{rolled}"
    assert tail[2].endswith(f";{expected}")


@pytest.mark.parametrize(
    "bad", ["ANNOUNCE;7,1", "ANNOUNCE;3,1x", "ANNOUNCE;", "DANCE", "ROLL;extra", "JOIN"]
)
def test_malformed_with_current_token_is_invalid_turn(bad: str) -> None:
    w = World()
    first, _ = two_player_round(w)
    if bad.startswith("ANNOUNCE"):
        w.say(first, f"ROLL;{w.token(first, 'YOUR TURN')}")
        token = w.token(first, "ROLLED")
    else:
        token = w.token(first, "YOUR TURN")
    w.say(first, f"{bad};{token}")
    assert w.net.last(first, "PLAYER LOST").endswith(";INVALID_TURN")
    assert w.table.stats.faults["INVALID_TURN"] == 1


def test_timeouts_and_stale_tokens() -> None:
    w = World()
    first, second = two_player_round(w)
    w.say(first, "ROLL;not-the-token")  # wrong token: ignored
    w.say(second, f"ROLL;{w.token(first, 'YOUR TURN')}")  # right token, wrong player: ignored
    w.clock.advance(0.24)
    assert not [m for m in w.net.boxes[first] if m.startswith("PLAYER LOST")]
    w.clock.advance(0.02)
    assert w.net.last(first, "PLAYER LOST").endswith(";DID_NOT_TAKE_TURN")
    turn = next_round(w, A, B)
    w.say(turn, f"ROLL;{w.token(turn, 'YOUR TURN')}")
    old = w.token(turn, "YOUR TURN")
    w.say(turn, f"ROLL;{old}")  # a duplicate of the same datagram is ignored
    w.clock.advance(0.26)
    assert w.net.last(turn, "PLAYER LOST").endswith(";DID_NOT_ANNOUNCE")
    assert w.table.stats.dropped["STALE_TOKEN"] >= 2


def test_canceled_rounds() -> None:
    w = World()
    w.register(A, "ann")
    assert w.net.take(A)[1].startswith("ROUND STARTING")
    w.clock.advance(0.26)
    assert w.net.take(A) == ["ROUND CANCELED;NO_PLAYERS", "SCORE;ann:0"]
    w.clock.advance(0.3)
    w.join_all(A)
    assert w.net.take(A)[1:] == [
        "ROUND STARTED;2;ann",
        "ROUND CANCELED;ONLY_ONE_PLAYER",
        "SCORE;ann:0",
    ]
    assert w.table.stats.rounds_canceled == 2


def test_start_early_and_inactive_players() -> None:
    w = World()
    for addr, name in ((A, "ann"), (B, "bob"), (C, "cy")):
        w.register(addr, name)
    # cy never joins: only the first round it is sent waits for it (the first round, which
    # started before cy registered, does not count); a name that never joined holds no later
    # round up (issue 27: idle registrations stopped Mia).
    for i in range(4):
        for addr in (A, B, C):
            w.net.take(addr)
        until(w, A, "ROUND STARTING")
        w.join_all(A, B)
        assert w.table.phase == ("joining" if i == 0 else "playing"), i
        until(w, A, "ROUND STARTED")
        turn = w.whose_turn(A, B)
        w.say(turn, f"SEE;{w.token(turn, 'YOUR TURN')}")
    assert w.table.clients["cy"].missed_joins == 4
    for addr in (A, B, C):
        w.net.take(addr)
    until(w, A, "ROUND STARTING")
    w.join_all(A, B)
    assert w.table.phase == "playing"  # started at once, without waiting for cy
    w.say(C, f"JOIN;{w.token(C, 'ROUND STARTING')}")  # too late for this round
    assert "cy" not in w.table.match.state.players  # type: ignore[union-attr]
    turn = w.whose_turn(A, B)
    w.net.take(C)
    w.say(turn, f"SEE;{w.token(turn, 'YOUR TURN')}")
    until(w, C, "ROUND STARTING")
    w.join_all(C)
    assert w.table.clients["cy"].active  # joining makes it active again


def test_without_start_early_the_window_runs_out() -> None:
    w = World(start_early=False)
    w.register(A, "ann")
    w.register(B, "bob")
    w.net.take(A)
    until(w, A, "ROUND STARTING")
    w.join_all(A, B)
    assert w.table.phase == "joining"
    w.clock.advance(0.25)
    assert w.table.phase == "playing"


def test_heartbeat_every_two_seconds() -> None:
    w = World(round_pause=10)
    w.register(A, "ann")
    w.say(S, "REGISTER_SPECTATOR;eve")
    w.clock.advance(4.01)
    assert w.net.boxes[A].count("HEARTBEAT") == 2
    assert w.net.boxes[S].count("HEARTBEAT") == 2


def test_garbage_is_counted_and_changes_nothing() -> None:
    w = World()
    first, _ = two_player_round(w)
    for junk in [b"\xff\xfe\xfd", b"x" * 4000, b"", b"HELLO", b"ROLL"]:
        w.table.receive(junk, C)
    assert not w.net.boxes[C]
    assert w.table.stats.dropped["NOT_UTF8"] == 1 and w.table.stats.dropped["OVERSIZED"] == 1
    w.say(first, f"ROLL;{w.token(first, 'YOUR TURN')}")
    assert w.net.last(first, "ROLLED")


def test_flood_from_one_address_is_rate_limited() -> None:
    w = World(rate_limit=100)
    w.register(A, "ann")
    for _ in range(1000):
        w.say(C, "REGISTER;x")  # same instant: only the burst gets through
    assert w.net.boxes[C].count("REGISTERED") <= 101
    assert w.table.stats.dropped["RATE_LIMIT"] >= 899
    w.say(B, "REGISTER;bob")  # others are unaffected
    assert w.net.take(B)[0] == "REGISTERED"


def test_events_carry_no_hidden_dice() -> None:
    w = World()
    first, second = two_player_round(w)
    w.say(first, f"ROLL;{w.token(first, 'YOUR TURN')}")
    rolled = w.net.last(first, "ROLLED").split(";")[1]
    events = w.events.drain()
    assert [e.kind for e in events if e.kind == "player_rolls"]
    assert rolled not in str([e.data for e in events if e.kind != "score"])
    w.say(first, f"ANNOUNCE;{rolled};{w.token(first, 'ROLLED')}")
    w.say(second, f"SEE;{w.token(second, 'YOUR TURN')}")
    kinds = [e.kind for e in w.events.drain()]
    assert kinds[-3:] == ["player_lost", "score", "game_over"]


def test_scores_survive_a_restart(database_url: str) -> None:
    store = RecordStore(database_url)
    w = World(records=store)
    first, _second = two_player_round(w)
    w.say(first, f"SEE;{w.token(first, 'YOUR TURN')}")  # first loses
    store.flush()
    winner = w.table.match  # round finished → None
    assert winner is None
    points = store.points("mia")
    assert sorted(points.values()) == [0, 1]
    w.table.stop()
    again = World(records=store)
    again.say(A, "REGISTER;ann")
    again.say(B, "REGISTER;bob")
    assert again.table.scores == points
    assert again.table.round_number >= 2  # round numbers continue
    stored = store.matches(game="mia", limit=10)
    assert {m.status for m in stored} == {"finished", "canceled"}
    store.close()


def three_players_with_records(tmp_path: Path) -> tuple[RecordStore, World]:
    """ann, bob and cy registered at a table that records to a SQLite file."""
    store = RecordStore(f"sqlite:///{tmp_path}/mia.db")
    w = World(records=store)
    for addr, name in ((A, "ann"), (B, "bob"), (C, "cy")):
        w.register(addr, name)
    return store, w


def test_only_players_who_acted_are_rated(tmp_path: Path) -> None:
    store, w = three_players_with_records(tmp_path)
    first = next_round(w, A, B, C)
    order = w.table.match.state.players  # type: ignore[union-attr]
    w.say(first, f"SEE;{w.token(first, 'YOUR TURN')}")  # the first player loses at once
    store.flush()
    standings = {s.name: s for s in store.standings("mia")}
    # Everybody's point counts, but only the one who acted has a rating: with a single
    # rated player nothing is compared, so nobody's rating moved.
    assert {n: s.points for n, s in standings.items()} == {
        order[0]: 0,
        order[1]: 1,
        order[2]: 1,
    }
    assert all(s.mu is None for s in standings.values())
    # A Mia announcement ends the round at once: if it was a lie only the announcer acted
    # (nobody rated); a true Mia makes every other player lose, so all of them are rated.
    second = next_round(w, A, B, C)
    w.say(second, f"ROLL;{w.token(second, 'YOUR TURN')}")
    w.say(second, f"ANNOUNCE;2,1;{w.token(second, 'ROLLED')}")
    reason = w.net.last(second, "PLAYER LOST").split(";")[-1]
    store.flush()
    rated = {s.name for s in store.standings("mia") if s.mu is not None}
    assert rated == (set() if reason == "LIED_ABOUT_MIA" else {"ann", "bob", "cy"})
    assert reason in ("LIED_ABOUT_MIA", "MIA")
    store.close()


def test_an_announcement_and_a_see_rate_those_two_players(tmp_path: Path) -> None:
    store, w = three_players_with_records(tmp_path)
    first = next_round(w, A, B, C)
    order = w.table.match.state.players  # type: ignore[union-attr]
    w.say(first, f"ROLL;{w.token(first, 'YOUR TURN')}")
    w.say(first, f"ANNOUNCE;3,1;{w.token(first, 'ROLLED')}")
    second = w.whose_turn(*(a for a in (A, B, C) if a != first))
    w.say(second, f"SEE;{w.token(second, 'YOUR TURN')}")
    store.flush()
    standings = {s.name: s for s in store.standings("mia")}
    assert {n for n, s in standings.items() if s.mu is not None} == {order[0], order[1]}
    assert standings[order[2]].points == 1 and standings[order[2]].games == 1
    store.close()


def test_rounds_that_only_house_bots_played_are_paced() -> None:
    w = World(house_names=frozenset({"house-a", "house-b"}), house_round_pause=1.0)
    w.register(A, "house-a")
    w.register(B, "house-b")
    turn = next_round(w, A, B)
    token = w.token(turn, "YOUR TURN")
    w.net.take(A)
    w.say(turn, f"SEE;{token}")  # the round ends at once
    w.clock.advance(0.95)
    assert not [m for m in w.net.take(A) if m.startswith("ROUND STARTING")]
    w.clock.advance(0.1)
    assert [m for m in w.net.boxes[A] if m.startswith("ROUND STARTING")]
    # someone else sits down: from the next round on, no pause
    w.register(C, "cy")
    for addr in (A, B, C):
        w.net.take(addr)
    until(w, A, "ROUND STARTING")
    w.join_all(A, B, C)
    turn = w.whose_turn(A, B, C)
    token = w.token(turn, "YOUR TURN")
    w.net.take(A)
    w.say(turn, f"SEE;{token}")
    until(w, A, "ROUND STARTING", limit=0.05)


def test_a_lone_player_gets_one_round_a_second() -> None:
    # Started early, a round with one player ends at once (ONLY_ONE_PLAYER); unpaced, one
    # registration made the server play and record hundreds of them a second.
    w = World(house_round_pause=1.0)
    w.register(A, "ann")
    for _ in range(200):
        if any(m.startswith("ROUND STARTING") for m in w.net.boxes[A]):
            w.join_all(A)
            w.net.take(A)
        w.clock.advance(0.05)
    assert w.table.stats.rounds_played == 0
    assert 9 <= w.table.stats.rounds_canceled <= 11  # ten seconds, one canceled round each


# -- the cheap paths behave as the plain ones ---------------------------------------------------
PRIVATE_WITH_TOKEN = ("ROUND STARTING;", "YOUR TURN;", "ROLLED;")


def masked(messages: list[str]) -> list[str]:
    """Messages with their tokens (random on every run) replaced."""
    return [
        m.rsplit(";", 1)[0] + ";TOKEN" if m.startswith(PRIVATE_WITH_TOKEN) else m for m in messages
    ]


def addr_of(w: World, name: str) -> Addr:
    return w.table.clients[name].addr


def play_some_rounds(w: World) -> None:
    """Three players and a spectator: rounds with a roll, an announcement and a SEE, a round
    that times out, and a player who leaves."""
    w.register(A, "ann")
    w.register(B, "bob")
    w.register(C, "cy")
    w.say(S, "REGISTER_SPECTATOR;eve")
    for _ in range(4):
        turn = next_round(w, A, B, C)
        w.say(turn, f"ROLL;{w.token(turn, 'YOUR TURN')}")
        dice = w.net.last(turn, "ROLLED").split(";")[1]
        w.say(turn, f"ANNOUNCE;{dice};{w.token(turn, 'ROLLED')}")
        if w.table.phase == "playing":
            assert w.table._expect is not None
            seer = addr_of(w, w.table._expect.name)
            w.say(seer, f"SEE;{w.token(seer, 'YOUR TURN')}")
    next_round(w, A, B, C)
    w.clock.advance(0.3)  # nobody takes the turn
    w.say(C, "UNREGISTER")
    next_round(w, A, B)
    w.clock.advance(0.3)


def test_a_broadcast_loop_sends_what_one_send_per_datagram_sent() -> None:
    plain, looped = World(), World(broadcast_loop=True)
    play_some_rounds(plain)
    play_some_rounds(looped)
    assert looped.net.broadcasts > 20
    for addr in (A, B, C, S):
        assert masked(looped.net.boxes[addr]) == masked(plain.net.boxes[addr]), addr


def test_a_broadcast_reaches_everyone_with_the_same_bytes_and_the_next_player_first() -> None:
    w = World(broadcast_loop=True)
    w.register(A, "ann")
    w.register(B, "bob")
    w.register(C, "cy")
    w.say(S, "REGISTER_SPECTATOR;eve")
    turn = next_round(w, A, B, C)
    for addr in (A, B, C, S):
        w.net.raw[addr].clear()
    w.say(turn, f"ROLL;{w.token(turn, 'YOUR TURN')}")
    name = w.table.clients["ann" if turn == A else "bob" if turn == B else "cy"].name
    expected = f"PLAYER ROLLS;{name}".encode()
    for addr in (A, B, C, S):
        got = w.net.raw[addr]
        assert got[0] == expected, addr
        # The dice go to the roller only, right after the broadcast.
        rolled = [m.startswith(b"ROLLED;") for m in got]
        assert rolled == ([False, True] if addr == turn else [False])


def test_a_step_times_out_a_whole_window_after_its_own_message() -> None:
    # One timer serves every step's deadline; a step answered late in an earlier step's
    # window still gets its own full window.
    w = World()
    first, _ = two_player_round(w)
    w.clock.advance(0.2)
    w.say(first, f"ROLL;{w.token(first, 'YOUR TURN')}")
    w.clock.advance(0.249)
    assert not [m for m in w.net.boxes[first] if m.startswith("PLAYER LOST")]
    w.clock.advance(0.002)
    assert w.net.last(first, "PLAYER LOST").endswith(";DID_NOT_ANNOUNCE")


def test_quick_answers_make_no_timer_per_step() -> None:
    w = World()
    timers = 0
    call_later = w.clock.call_later

    def counting(delay: float, callback: Callable[[], None]) -> TimerHandle:
        nonlocal timers
        timers += 1
        return call_later(delay, callback)

    w.clock.call_later = counting  # type: ignore[method-assign]
    w.register(A, "ann")
    w.register(B, "bob")
    for _ in range(20):
        turn = next_round(w, A, B)
        w.say(turn, f"ROLL;{w.token(turn, 'YOUR TURN')}")
        w.say(turn, f"ANNOUNCE;3,1;{w.token(turn, 'ROLLED')}")
        other = B if turn == A else A
        w.say(other, f"ROLL;{w.token(other, 'YOUR TURN')}")
        w.say(other, f"ANNOUNCE;6,6;{w.token(other, 'ROLLED')}")
        w.say(turn, f"SEE;{w.token(turn, 'YOUR TURN')}")
    assert w.table.stats.rounds_played == 20
    assert timers <= 2 * 20 + 2  # a step of the round (five of them) makes none


def test_info_lines_stay_and_the_round_line_is_debug(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="herna.mia")
    w = World()
    first, _ = two_player_round(w)
    w.say(first, f"SEE;{w.token(first, 'YOUR TURN')}")
    lines = [r.getMessage() for r in caplog.records if r.name == "herna.mia"]
    assert any(line.startswith("mia: ann registered from ") for line in lines)
    assert not any(line.startswith("round ") for line in lines)
    caplog.set_level(logging.DEBUG, logger="herna.mia")
    turn = next_round(w, A, B)
    w.say(turn, f"SEE;{w.token(turn, 'YOUR TURN')}")
    rounds = [r for r in caplog.records if r.getMessage().startswith("round ")]
    assert len(rounds) == 1 and rounds[0].levelno == logging.DEBUG
    assert rounds[0].getMessage().endswith("lost (SEE_BEFORE_FIRST_ROLL)")
    w.table.stop()  # the summary of the stretch is an INFO line
    assert any(
        r.levelno == logging.INFO and r.getMessage().startswith("mia rounds ")
        for r in caplog.records
    )


def test_tokens_are_twelve_hex_characters_and_never_repeat() -> None:
    source = TokenSource()
    tokens = [source.next() for _ in range(3 * TOKENS_PER_DRAW + 5)]
    assert all(len(t) == 12 and int(t, 16) >= 0 for t in tokens)
    assert len(set(tokens)) == len(tokens)

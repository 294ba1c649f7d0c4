"""The login server's matchmaking core, driven with a FakeClock (no sockets)."""

from __future__ import annotations

from herna.core.clock import FakeClock
from herna.hall.identity import Identity, new_secret
from herna.protocols.cgml import messages as m
from herna.protocols.cgml.lobby import ID_IN_USE, Lobby, LobbySettings

GAME = m.GAME_MARIAS


class Harness:
    def __init__(self, fill_wait: float = 1.0) -> None:
        self.clock = FakeClock()
        self.sent: list[tuple[int, m.Message]] = []
        self.closed: list[int] = []
        self.lobby = Lobby(
            self.clock,
            lambda k, msg: self.sent.append((k, msg)),
            self.closed.append,
            LobbySettings(fill_wait=fill_wait, ack_timeout=5.0),
        )
        self.next_key = 1

    def conn(self, role: str = "player") -> int:
        key = self.next_key
        self.next_key += 1
        self.lobby.connection_made(key, role)  # type: ignore[arg-type]
        return key

    def game_server(self, url: str = "127.0.0.1:7002") -> int:
        key = self.conn("server")
        self.lobby.received(key, m.ConnectServer(GAME, 3, url))
        return key

    def player(
        self,
        pid: str,
        status: str = "active",
        opponents: tuple[m.PlayerRef, ...] = (),
        race: str = "human",
    ) -> int:
        key = self.conn()
        self.lobby.received(
            key, m.ConnectPlayer(status, m.PlayerRef(pid, pid.upper(), race), GAME, opponents)
        )
        return key

    def bot_server(self, pid: str, load: int) -> int:
        key = self.conn()
        self.lobby.received(key, m.ConnectPlayer("passive", m.PlayerRef(pid, pid, "bot"), GAME))
        self.lobby.received(key, m.Load(load))
        return key

    def take(self, key: int | None = None) -> list[tuple[int, m.Message]]:
        out = [(k, x) for k, x in self.sent if key is None or k == key]
        self.sent = [(k, x) for k, x in self.sent if not (key is None or k == key)]
        return out

    def inits(self) -> list[tuple[int, m.NewGroupInit]]:
        return [(k, x) for k, x in self.take() if isinstance(x, m.NewGroupInit)]

    def ack(self, server: int, init: m.NewGroupInit) -> None:
        self.lobby.received(server, m.NewGroupAck(init.game, init.group, init.players))


def test_three_active_players_form_a_group_and_hear_complete() -> None:
    h = Harness()
    sgs = h.game_server("10.0.0.1:7002")
    a, b, c = h.player("a"), h.player("b"), h.player("c")
    inits = h.inits()
    assert len(inits) == 1 and inits[0][0] == sgs
    init = inits[0][1]
    assert [p.id for p in init.players] == ["a", "b", "c"]
    assert init.group is not None
    h.ack(sgs, init)
    sent = h.take()
    assert {k for k, _ in sent} == {a, b, c}
    for _, msg in sent:
        assert isinstance(msg, m.ConnectComplete)
        assert msg.url == "10.0.0.1:7002" and msg.group == init.group
        assert len(msg.players) == 2
        assert msg.playerid not in {p.id for p in msg.players}


def test_duplicate_id_is_refused() -> None:
    h = Harness()
    h.player("a")
    key = h.player("a")
    [(_, err)] = h.take(key)
    assert isinstance(err, m.Error) and err.code == ID_IN_USE
    # After the holder leaves, the id is free again.
    h.lobby.connection_lost(1)
    h.lobby.received(key, m.ConnectPlayer("active", m.PlayerRef("a"), GAME))
    assert h.take(key) == []


def test_bots_fill_after_the_wait_from_the_least_loaded_server() -> None:
    h = Harness(fill_wait=1.0)
    sgs = h.game_server()
    busy = h.bot_server("busy", 80)
    idle = h.bot_server("idle", 10)
    h.player("alice")
    assert h.inits() == []
    h.clock.advance(0.5)
    assert h.inits() == []
    h.clock.advance(0.6)
    [(_, init)] = h.inits()
    ids = [p.id for p in init.players]
    assert ids[0] == "alice"
    assert all(i is not None and i.startswith("idle.") for i in ids[1:])
    h.ack(sgs, init)
    sent = h.take()
    to_idle = [x for k, x in sent if k == idle]
    assert len(to_idle) == 2 and all(isinstance(x, m.ConnectComplete) for x in to_idle)
    assert {x.playerid for x in to_idle if isinstance(x, m.ConnectComplete)} == set(ids[1:])
    assert not [x for k, x in sent if k == busy]


def test_full_bot_servers_are_not_used_and_load_updates_count() -> None:
    h = Harness(fill_wait=0.0)
    h.game_server()
    h.bot_server("full", 100)
    h.player("alice")
    assert h.inits() == []
    late = h.bot_server("late", 50)
    [(_, init)] = h.inits()
    assert all(p.id is not None and p.id.startswith("late.") for p in init.players[1:])
    assert h.lobby.snapshot()["bot_servers"][1]["inflight"] == 2
    h.lobby.received(late, m.Load(60))
    assert h.lobby.snapshot()["bot_servers"][1]["inflight"] == 0


def test_passive_players_fill_before_bots() -> None:
    h = Harness(fill_wait=5.0)
    h.game_server()
    h.bot_server("bots", 0)
    h.player("p1", "passive")
    h.player("p2", "passive")
    assert h.inits() == []  # passive players alone do not start a game
    h.player("alice")
    [(_, init)] = h.inits()
    assert [p.id for p in init.players] == ["alice", "p1", "p2"]


def test_preferences_are_honoured() -> None:
    h = Harness(fill_wait=0.0)
    h.game_server()
    h.bot_server("bots", 0)
    h.player("x")  # would be grouped with bots at once
    h.inits()
    wants = (m.PlayerRef("bob"), m.PlayerRef(None, "CAROL"))
    h.player("alice", opponents=wants)
    assert h.inits() == []  # bob and carol are not here: alice waits, no bots
    h.player("bob")  # bob has no preferences, but alice waits for him: he is taken
    # bob alone may be grouped with bots unless alice's group forms first; alice's plan
    # needs carol, so bob is matched with bots now.
    inits = h.inits()
    assert len(inits) == 1 and inits[0][1].players[0].id == "bob"
    h.player("bob2")
    h.inits()
    h.player("carol")
    inits = h.inits()
    assert len(inits) == 1 and inits[0][1].players[0].id == "carol"


def test_preferences_wait_for_the_named_players() -> None:
    h = Harness(fill_wait=10.0)
    h.game_server()
    h.bot_server("bots", 0)
    h.player("alice", opponents=(m.PlayerRef("bob"), m.PlayerRef("carol")))
    h.player("dave")
    h.clock.advance(1.0)
    assert h.inits() == []
    h.player("carol", "passive")
    h.player("bob", "passive")
    [(_, init)] = h.inits()
    assert [p.id for p in init.players] == ["alice", "bob", "carol"]


def test_preference_for_a_bot_server_and_for_a_race() -> None:
    h = Harness(fill_wait=100.0)
    h.game_server()
    h.bot_server("cheap", 0)
    h.bot_server("smart", 90)
    h.player("alice", opponents=(m.PlayerRef("smart"), m.PlayerRef(None, None, "bot")))
    [(_, init)] = h.inits()
    ids = [p.id or "" for p in init.players]
    assert ids[1].startswith("smart.")
    assert ids[2].startswith("cheap.")  # any bot: the least loaded


def test_two_game_servers_take_turns_and_ack_timeout_requeues() -> None:
    h = Harness(fill_wait=0.0)
    s1 = h.game_server("h:1")
    s2 = h.game_server("h:2")
    for p in "abcdef":
        h.player(p)
    inits = h.inits()
    assert [k for k, _ in inits] == [s1, s2]
    h.ack(s1, inits[0][1])
    h.take()
    # s2 never acks: its players go back to the queue and get the next server.
    h.clock.advance(5.1)
    inits = h.inits()
    assert len(inits) == 1 and [p.id for p in inits[0][1].players] == ["d", "e", "f"]


def test_game_server_leaving_requeues_its_pending_groups() -> None:
    h = Harness()
    s1 = h.game_server("h:1")
    for p in "abc":
        h.player(p)
    assert len(h.inits()) == 1
    h.lobby.connection_lost(s1)
    assert h.inits() == []
    h.game_server("h:2")
    [(_, init)] = h.inits()
    assert [p.id for p in init.players] == ["a", "b", "c"]


def test_unexpected_messages_get_errors_not_crashes() -> None:
    h = Harness()
    sgs = h.game_server()
    p = h.conn()
    h.lobby.received(p, m.PlayCardAsk())
    h.lobby.received(p, m.Load(3))  # before connect
    h.lobby.received(sgs, m.NewGroupAck(GAME, "nope"))
    h.lobby.received(sgs, m.LiciteAsk())
    errors = [x for _, x in h.take()]
    assert len(errors) == 4 and all(isinstance(x, m.Error) for x in errors)
    h.lobby.received(p, m.Disconnect("bye"))
    assert h.closed == [p]


def test_many_players_match_quickly() -> None:
    h = Harness(fill_wait=1.0)
    sgs = h.game_server()
    for i in range(900):
        h.player(f"b{i}")
    inits = h.inits()
    assert len(inits) == 300
    for _, init in inits:
        h.ack(sgs, init)
    assert sum(isinstance(x, m.ConnectComplete) for _, x in h.take()) == 900


# -- identity: tickets, seated ids, reserved names ----------------------------------------


def _formed(h: Harness, tickets: bool) -> tuple[int, m.NewGroupInit, dict[str, m.ConnectComplete]]:
    sgs = h.game_server()
    keys = {pid: h.player(pid) for pid in ("a", "b", "c")}
    [(_, init)] = h.inits()
    assert init.group is not None and len(init.group) == 16  # new_public_id, not g1
    given = tuple(f"{init.group}.secret-{p.id}" for p in init.players) if tickets else ()
    h.lobby.received(sgs, m.NewGroupAck(init.game, init.group, init.players, given))
    completes = {}
    for pid, key in keys.items():
        [(_, complete)] = h.take(key)
        assert isinstance(complete, m.ConnectComplete)
        completes[pid] = complete
        h.lobby.connection_lost(key)  # Herna's client closes its login connection now
    return sgs, init, completes


def _try(h: Harness, pid: str, token: str | None = None, name: str | None = None) -> str | None:
    key = h.conn()
    player = m.PlayerRef(pid, name or pid, "human")
    h.lobby.received(key, m.ConnectPlayer("passive", player, GAME, token=token))
    answers = h.take(key)
    h.lobby.connection_lost(key)
    if not answers:
        return None
    [(_, error)] = answers
    assert isinstance(error, m.Error)
    return error.code


def test_each_member_is_told_only_its_own_ticket() -> None:
    h = Harness()
    _, init, completes = _formed(h, tickets=True)
    assert {pid: c.group for pid, c in completes.items()} == {
        pid: f"{init.group}.secret-{pid}" for pid in "abc"
    }


def test_seated_ids_stay_taken_until_their_server_reports_the_group_closed() -> None:
    h = Harness()
    sgs, init, _ = _formed(h, tickets=True)
    assert init.group is not None
    assert _try(h, "a") == ID_IN_USE
    # Another server cannot close somebody else's group.
    other = h.game_server("10.0.0.2:7002")
    h.lobby.received(other, m.NewGroupClosed(GAME, init.group))
    [(_, error)] = h.take(other)
    assert isinstance(error, m.Error) and error.code == "WRONG_PHASE"
    assert _try(h, "a") == ID_IN_USE
    h.lobby.received(sgs, m.NewGroupClosed(GAME, init.group))
    assert _try(h, "a") is None
    assert h.lobby.snapshot()["seated"] == 0


def test_a_lost_server_frees_the_ids_of_its_groups() -> None:
    h = Harness()
    sgs, _, _ = _formed(h, tickets=True)
    assert _try(h, "b") == ID_IN_USE
    h.lobby.connection_lost(sgs)
    assert _try(h, "b") is None


def test_a_plain_ack_without_tickets_frees_the_ids_at_once() -> None:
    """A seed super game server never reports a group closed: the ids cannot be held."""
    h = Harness()
    _, init, completes = _formed(h, tickets=False)
    assert all(c.group == init.group for c in completes.values())
    assert _try(h, "c") is None


def test_reserved_and_house_bot_names_need_their_token() -> None:
    identity = Identity()
    token = identity.reserve_house_bot("house-1")
    h = Harness()
    h.lobby.names = identity
    assert _try(h, "house-1") == "HOUSE_BOT_NAME"
    assert _try(h, "x", name="house-1") == "HOUSE_BOT_NAME"
    assert _try(h, "house-1", token=new_secret()) == "HOUSE_BOT_NAME"
    assert _try(h, "house-1", token=token) is None
    assert _try(h, "someone", token=token) is None  # a token for a free name is ignored
    # An assigned id never lands on a reserved name.
    identity.reserve_house_bot("p1")
    key = h.conn()
    h.lobby.received(key, m.ConnectPlayer("passive", m.PlayerRef(None, "Anon"), GAME))
    assert h.take(key) == []
    assert h.lobby.snapshot()["waiting"][0]["id"] == "p2"


def test_the_least_loaded_game_server_gets_the_next_group() -> None:
    """Balancing: a super game server with fewer live groups gets the next one, whatever
    the turn order says (a server that joins later fills up before the old one gets more)."""
    h = Harness(fill_wait=0.0)
    s1 = h.game_server("h:1")
    for p in "abcdef":
        h.player(p)
    inits = h.inits()
    assert [k for k, _ in inits] == [s1, s1]
    for _, init in inits:
        # A Herna super game server acks with tickets: its groups count as live until it
        # reports them closed.
        tickets = tuple(f"ticket-{p.id}" for p in init.players)
        h.lobby.received(s1, m.NewGroupAck(init.game, init.group, init.players, tickets))
    h.take()
    s2 = h.game_server("h:2")
    for p in "ghijkl":
        h.player(p)
    inits = h.inits()
    # s1 runs two groups, s2 none: both new groups go to s2.
    assert [k for k, _ in inits] == [s2, s2]
    snapshot = h.lobby.snapshot()["game_servers"]
    assert {s["url"]: s["load"] for s in snapshot} == {"h:1": 2, "h:2": 2}


def test_a_named_only_bot_server_never_fills_but_serves_who_names_it() -> None:
    h = Harness(fill_wait=0.0)
    h.lobby.settings = LobbySettings(
        fill_wait=0.0, ack_timeout=5.0, named_only=frozenset({"strong"})
    )
    h.game_server()
    h.bot_server("strong", 0)  # idle, and yet not used to fill a plain table
    h.bot_server("plain", 50)
    h.player("alice")
    [(_, init)] = h.inits()
    assert all(p.id is not None and p.id.startswith("plain.") for p in init.players[1:])
    h.player("bob", opponents=(m.PlayerRef("strong"), m.PlayerRef("strong")))
    [(_, init)] = h.inits()
    assert all(p.id is not None and p.id.startswith("strong.") for p in init.players[1:])

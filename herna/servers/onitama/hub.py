"""The Onitama server without I/O: players, the lobby, one game per table, reconnects.

:class:`OnitamaHub` pairs waiting players in arrival order, runs one
:class:`~herna.hall.match.Match` per game, keeps the reconnect window (timers on the injected
:class:`~herna.core.clock.Clock`), submits records and publishes spectator events. It talks to
connections through the small :class:`~herna.servers.tcp.Peer` interface: a
:class:`~herna.servers.tcp.TcpPeer` for network clients, a
:class:`~herna.servers.onitama.house_bot.HouseBot` for the server's own players.

The hub is one authority for both dialects: each connection's
:class:`~herna.protocols.onitama.ServerConnection` turns its records into the same requests
and formats the hub's answers in its own dialect (``player.tell(lambda d: d.…)``), so a line
client, a NUL client and a house bot can share a table. Who may use a name and take a seat
back is the hall's :class:`~herna.hall.identity.Identity`; every seat gets a
:class:`~herna.hall.identity.SeatKey` whose secret only its player receives.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from herna.core.clock import Clock, TimerHandle
from herna.core.errors import IllegalAction
from herna.core.game import CHANCE
from herna.core.rng import SeedSource
from herna.games.onitama.board import parse_square
from herna.games.onitama.cards import BLACK, COLOR_NAMES, WHITE, canonical_card
from herna.games.onitama.notation import format_position
from herna.games.onitama.state import (
    ACTION_CODEC,
    REASON_FORFEIT,
    REASON_STONE,
    REASON_STREAM,
    Action,
    Draw,
    Move,
    OnitamaState,
    Pass,
    Rule,
    Stalemate,
)
from herna.hall.events import EventBus
from herna.hall.identity import Identity, Refusal, SeatKey
from herna.hall.match import Match, Seat
from herna.hall.records import MatchRecord, RecordStore
from herna.protocols import onitama as proto
from herna.protocols.onitama import Close, Dialect, Login, MakeMove, Reply
from herna.servers.deadlines import DEFAULT_LOGIN_TIMEOUT, LoginDeadlines
from herna.servers.gamelog import duration, game_finished, refused
from herna.servers.tcp import Peer

log = logging.getLogger("herna.onitama")

DEFAULT_RECONNECT_WINDOW = 60.0
DEFAULT_HOUSE_BOT_STRATEGY = "engine"
DEFAULT_HOUSE_BOT_LEVEL = "hard"
DEFAULT_HOUSE_BOT_DELAY = 1.0
DEFAULT_START_PAUSE = 0.25
ILLEGAL_MOVE = "illegal_move"
OUT_OF_TIME = "out_of_time"
"""``GAME_OVER`` reasons of a lost game without a winning move (Herna extension values)."""
RULE_PREFERENCE: tuple[Rule, ...] = ("stalemate", "pass")
"""The seed's rule where every player's dialect can follow it, else the official pass."""

_WIRE_REASONS = {
    REASON_STONE: proto.WAY_OF_THE_STONE,
    REASON_STREAM: proto.WAY_OF_THE_STREAM,
    REASON_FORFEIT: proto.OPPONENT_LEFT,
}


def _hang_up(peer: Peer, code: str) -> None:
    """Close a connection for a protocol reason (already sent to it as ``ERROR|code``). A
    transport that can say why (a WebSocket's close code and reason) is told the reason; a
    TCP peer just closes."""
    close_with = getattr(peer, "close_with", None)
    if callable(close_with):
        close_with(code, proto.ERROR_TEXT.get(code, code))
    else:
        peer.close()


@dataclass
class OnitamaSettings:
    reconnect_window: float = DEFAULT_RECONNECT_WINDOW
    """Seconds a dropped player has to log in again before the opponent wins."""
    login_timeout: float = DEFAULT_LOGIN_TIMEOUT
    """Seconds a new connection has to log in before it is closed (``ERROR|LOGIN_TIMEOUT``);
    0 or less: no limit. Without it, silent connections would hold descriptors forever."""
    requeue: bool = True
    """After ``GAME_OVER`` put both players back in the lobby; otherwise close their
    connections (one game per connection)."""
    house_bot_strategy: str = DEFAULT_HOUSE_BOT_STRATEGY
    house_bot_delay: float = DEFAULT_HOUSE_BOT_DELAY
    """Seconds a house bot waits before each move (so people can follow its games)."""
    house_bot_depth: int | None = None
    """Search depth cap of house bots (None: alphabeta's 3, the engine level's own)."""
    house_bot_level: str = DEFAULT_HOUSE_BOT_LEVEL
    """Level of engine house bots: easy, medium, hard or strongest."""
    seed: int | None = None
    """Fixed seed from which every game's seed (deal and colours) is derived; None: each
    game's seed comes from :mod:`secrets` (see :class:`~herna.core.rng.SeedSource`)."""
    start_pause: float = DEFAULT_START_PAUSE
    """Seconds nothing else is sent to a NUL-dialect connection after its ``START`` or
    ``RECONNECT``: the published client hands whatever else arrived in the same read to
    nobody."""
    illegal_move_forfeits: bool = False
    """An illegal move loses the game (``GAME_OVER|winner|illegal_move``) instead of being
    answered with ``INVALID_MOVE`` and asked again: engine matches (``herna match``) count a
    bot that plays one as forfeiting."""
    game_clock: float = 0.0
    """Seconds of thinking time each side has for a whole game (the time between being told of
    the opponent's move and sending its own); a side that uses it up loses with
    ``out_of_time``. 0: no clock."""


GamePlan = tuple[str, OnitamaState]
"""What a planner (:attr:`OnitamaHub.plan`) wants the next game to be: the name of the player
who takes White and the position (cards dealt) the game starts from."""


class Client:
    """A connection: its peer, its protocol state and the player it logged in as."""

    __slots__ = ("_flush", "_held", "conn", "peer", "player")

    def __init__(self, peer: Peer) -> None:
        self.peer = peer
        self.conn = proto.ServerConnection()
        self.player: Player | None = None
        self._held: list[bytes] | None = None
        self._flush: TimerHandle | None = None

    def send(self, data: bytes) -> None:
        if self._held is not None:
            self._held.append(data)
        else:
            self.peer.send(data)

    def pause(self, clock: Clock, seconds: float) -> None:
        """Hold back what is sent for ``seconds`` (then send it in one piece)."""
        if seconds <= 0:
            return
        if self._held is None:
            self._held = []
        if self._flush is not None:
            self._flush.cancel()
        self._flush = clock.call_later(seconds, self.resume)

    def resume(self) -> None:
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        held, self._held = self._held, None
        if held:
            self.peer.send(b"".join(held))


class Player:
    __slots__ = ("client", "key", "kind", "name", "seat", "seat_key", "table", "timer")

    def __init__(self, name: str, kind: str, client: Client) -> None:
        self.name = name
        self.key = proto.name_key(name)
        self.kind = kind
        self.client: Client | None = client
        self.table: Table | None = None
        self.seat = -1
        self.seat_key: SeatKey | None = None
        self.timer: TimerHandle | None = None

    def tell(self, message: Callable[[Dialect], bytes]) -> None:
        """Send ``message`` as this player's connection speaks it (nothing when away)."""
        client = self.client
        if client is not None:
            client.send(message(client.conn.out))


@dataclass(eq=False)
class Table:
    id: str
    match: Match[Action]
    players: tuple[Player, Player]
    moves: int = 0
    over: bool = False
    started: float = 0.0
    clock_left: list[float] | None = None
    """Thinking time left per seat (with :attr:`OnitamaSettings.game_clock`)."""
    turn_started: float = 0.0
    clock_timer: TimerHandle | None = None

    @property
    def state(self) -> OnitamaState:
        state = self.match.state
        assert isinstance(state, OnitamaState)
        return state

    def tell_both(self, message: Callable[[Dialect], bytes]) -> None:
        for p in self.players:
            p.tell(message)


@dataclass
class HubStats:
    connections: int = 0
    logins: int = 0
    games_started: int = 0
    games_finished: int = 0
    games_aborted: int = 0
    moves: int = 0
    invalid_moves: int = 0
    errors: int = 0
    reconnects: int = 0
    refused_logins: int = 0


class OnitamaHub:
    """Lobby, games and reconnects for every connection, without I/O (see the module doc)."""

    def __init__(
        self,
        bus: EventBus,
        records: RecordStore | None,
        clock: Clock,
        settings: OnitamaSettings | None = None,
        initial_state: Callable[[], OnitamaState] | None = None,
        identity: Identity | None = None,
    ) -> None:
        self.bus = bus
        self.records = records
        self.clock = clock
        self.settings = settings or OnitamaSettings()
        self.initial_state = initial_state
        """Factory of the state new games start from (tests); default: a fresh deal."""
        self.identity = identity if identity is not None else Identity()
        self.seeds = SeedSource(self.settings.seed)
        """Every game's seed (deal and colours); from :mod:`secrets` unless a seed is fixed."""
        self.players: dict[str, Player] = {}
        self.lobby: deque[Player] = deque()
        self.tables: dict[str, Table] = {}
        self.stats = HubStats()
        self._table_ids = 0
        self._clients: set[Client] = set()
        self.deadlines = LoginDeadlines(clock, self.settings.login_timeout, self._login_timed_out)
        """Connections that have not logged in yet (``ERROR|LOGIN_TIMEOUT`` on expiry)."""
        self.closing = False
        self.plan: Callable[[str, str], GamePlan | None] | None = None
        """Who decides the games (``herna match``): called with the names of the two players
        at the head of the lobby, it returns the next game's :data:`GamePlan`, or ``None`` to
        keep both waiting until it calls :meth:`pair`. Unset: lobby order and a seeded deal."""

    # -- connections ------------------------------------------------------------------------
    def connect(self, peer: Peer) -> Client:
        client = Client(peer)
        self._clients.add(client)
        self.stats.connections += 1
        self.deadlines.start(client)
        return client

    def _login_timed_out(self, client: Client) -> None:
        log.info(
            "%s: no LOGIN within %g s; closing", self._who(client), self.settings.login_timeout
        )
        client.peer.send(client.conn.out.error(proto.LOGIN_TIMEOUT))
        _hang_up(client.peer, proto.LOGIN_TIMEOUT)
        self.disconnect(client)

    def receive(self, client: Client, data: bytes) -> None:
        """Bytes from ``client``: answer, act, never raise for anything the peer sent."""
        self._act(client, client.conn.receive(data))

    def receive_frame(self, client: Client, data: str | bytes) -> None:
        """One whole record from a message-framed transport (the web hall's ``/ws/onitama``,
        :mod:`herna.web.play`), always in the line dialect; answered as the same line on TCP
        would be, at the same tables."""
        self._act(client, client.conn.receive_frame(data))

    def _act(self, client: Client, outputs: list[proto.Output]) -> None:
        for out in outputs:
            if isinstance(out, Reply):
                self.stats.errors += 1
                name = client.player.name if client.player else ""
                line = out.data.decode(errors="replace").strip()
                refused(log, "onitama", name, client.peer.describe(), "ERROR", line)
                client.peer.send(out.data)
            elif isinstance(out, Close):
                log.info("%s: closing (%s)", self._who(client), out.reason)
                _hang_up(client.peer, out.reason)
                return
            elif isinstance(out, Login):
                self._login(client, out)
            elif isinstance(out, MakeMove):
                self._make_move(client, out)
            else:
                self._stalemate(client, out)

    def disconnect(self, client: Client) -> None:
        """The connection is gone (idempotent)."""
        if client not in self._clients:
            return
        self._clients.discard(client)
        client.conn.closed()
        self.deadlines.done(client)
        client.resume()
        player = client.player
        client.player = None
        if player is None or player.client is not client:
            return
        player.client = None
        table = player.table
        if table is None or table.over:
            self._forget(player)
            return
        opponent = table.players[1 - player.seat]
        log.info(
            "%s left table %s; waiting %.0f s",
            player.name,
            table.id,
            self.settings.reconnect_window,
        )
        opponent.tell(lambda d: d.opponent_left(player.name))
        table.match.note("logout", name=player.name, player=player.seat)
        self._emit(table, "logout", name=player.name, color=COLOR_NAMES[player.seat])
        if self.settings.reconnect_window <= 0:
            self._reconnect_expired(player)
        else:
            player.timer = self.clock.call_later(
                self.settings.reconnect_window, lambda: self._reconnect_expired(player)
            )

    def _who(self, client: Client) -> str:
        name = client.player.name if client.player else "-"
        return f"{client.peer.describe()} ({name})"

    # -- login and lobby --------------------------------------------------------------------
    def _login(self, client: Client, msg: Login) -> None:
        out = client.conn.out
        if msg.problem is not None:
            self._refuse(client, msg.problem, "a name is 1-32 letters, digits, _, - or .", msg.name)
            return
        # "-" (or nothing) in the third field only asks for Herna's extensions.
        proof = msg.proof if msg.proof not in (None, "", "-") else None
        existing = self.players.get(proto.name_key(msg.name))
        if existing is not None and self._seat_opens(client, existing, proof):
            return
        spelled = self.identity.reserved_spelling(msg.name)
        admission = self.identity.admit(spelled or msg.name, proof)
        if isinstance(admission, Refusal):
            self._refuse(client, admission.code, admission.reason, msg.name)
            return
        if existing is not None:
            self._name_taken(client, existing, proof, admission.verified)
            return
        player = Player(msg.name, client.peer.kind, client)
        self.players[player.key] = player
        client.player = player
        self.deadlines.done(client)
        client.conn.logged_in(msg.name)
        self.stats.logins += 1
        client.send(out.login_ok(msg.name))
        self._enqueue(player)

    def _refuse(self, client: Client, code: str, text: str, name: str = "") -> None:
        self.stats.refused_logins += 1
        refused(log, "onitama", name, client.peer.describe(), code, text)
        client.send(client.conn.out.login_failed(code, text))

    def _seat_opens(self, client: Client, existing: Player, proof: str | None) -> bool:
        """A login for the seat of ``existing``, proven with the seat secret or the name's
        token, takes the seat back (True: answered)."""
        table = existing.table
        if table is None or table.over or proof is None:
            return False
        key = existing.seat_key
        if key is None or not key.opens(existing.name, proof, self.identity):
            spelled = self.identity.reserved_spelling(existing.name)
            if spelled is None or not self.identity.proves(spelled, proof):
                return False
        if table.state.rule not in client.conn.out.rules:
            self._refuse(
                client,
                proto.WRONG_DIALECT,
                f"this game plays the {table.state.rule} rule, which your client's dialect "
                "cannot follow; come back with the client you started with",
                existing.name,
            )
            return True
        self._reconnect(client, existing, table)
        return True

    def _name_taken(
        self, client: Client, existing: Player, proof: str | None, verified: bool
    ) -> None:
        """A login with the name of a player the hub knows that did not open a seat: only the
        name's token holder may take over a connected lobby player; everyone else is told
        why not."""
        seated = existing.table is not None and not existing.table.over
        if verified and not seated and existing.client is not None:
            self._take_over(client, existing)
            client.send(client.conn.out.login_ok(existing.name))
            return
        if proof is not None and not verified:
            code = proto.BAD_TOKEN
            text = f"that is neither the seat secret nor the token of {existing.name!r}"
        elif existing.client is None:
            code = proto.NAME_IN_USE
            text = (
                f"{existing.name!r} has a game waiting for them; only their own client can "
                "take the seat back, with the seat secret it got at START (or the name's token)"
            )
        else:
            code = proto.NAME_IN_USE
            text = f"{existing.name!r} is logged in already"
        self._refuse(client, code, text, existing.name)

    def _take_over(self, client: Client, player: Player) -> None:
        """Attach ``player`` to ``client``; its old connection, if any, is told and closed."""
        old = player.client
        if old is not None and old is not client:
            old.player = None
            old.send(old.conn.out.error(proto.SEAT_TAKEN_OVER))
            old.resume()
            old.conn.closed()
            _hang_up(old.peer, proto.SEAT_TAKEN_OVER)
        player.client = client
        player.kind = client.peer.kind
        client.player = player
        self.deadlines.done(client)
        client.conn.logged_in(player.name)

    def _enqueue(self, player: Player) -> None:
        self.lobby.append(player)
        self._pair()

    def pair(self) -> None:
        """Start games for the players waiting in the lobby (a planner calls this when it has
        the next game ready)."""
        self._pair()

    def _pair(self) -> None:
        while len(self.lobby) >= 2 and not self.closing:
            planned = None
            if self.plan is not None:
                planned = self.plan(self.lobby[0].name, self.lobby[1].name)
                if planned is None:
                    return
            a = self.lobby.popleft()
            b = self.lobby.popleft()
            self._start(a, b, planned)

    def _forget(self, player: Player) -> None:
        if self.players.get(player.key) is player:
            del self.players[player.key]
        if player in self.lobby:
            self.lobby.remove(player)
        if player.timer is not None:
            player.timer.cancel()
            player.timer = None

    # -- games ------------------------------------------------------------------------------
    def _start(self, a: Player, b: Player, planned: GamePlan | None = None) -> None:
        """A game between ``a`` and ``b`` (in lobby order); colours and deal come from the
        game's seed, so its record reproduces both, unless a planner gave both."""
        seed = self.seeds.next_seed()
        white, black = (b, a) if seed & 1 else (a, b)
        if planned is not None:
            white, black = (a, b) if planned[0] == a.name else (b, a)
        # Numbered by the records' journal when there is one, so that no restart (even after
        # kill -9) reuses the id of a stored game.
        if self.records is not None:
            self._table_ids = self.records.allocate("onitama.table", self._table_ids)
        else:
            self._table_ids += 1
        table_id = f"g{self._table_ids}"
        rule = self._rule_for(white, black)
        given = planned[1] if planned is not None else None
        if given is None and self.initial_state is not None:
            given = self.initial_state()
        if given is not None:
            state = given if self._rule_ok(given.rule, white, black) else given.with_rule(rule)
        else:
            state = OnitamaState.new(rule)
        meta: dict[str, Any] = {"rule": state.rule}
        if not state.dealing and given is not None:
            meta["start"] = format_position(state)
        meta["dialects"] = [p.client.conn.out.name if p.client else None for p in (white, black)]
        match: Match[Action] = Match(
            game="onitama",
            table_id=table_id,
            state=state,
            seats=[Seat(white.name, white.kind), Seat(black.name, black.kind)],
            seed=seed,
            codec=ACTION_CODEC,
            meta=meta,
        )
        table = Table(table_id, match, (white, black), started=self.clock.now())
        if self.settings.game_clock > 0:
            table.clock_left = [self.settings.game_clock, self.settings.game_clock]
        self.tables[table_id] = table
        self.stats.games_started += 1
        state = table.state
        cards = state.cards()
        for seat, player in enumerate((white, black)):
            player.table = table
            player.seat = seat
            player.seat_key = SeatKey(player.name)
            client = player.client
            if client is not None:
                client.conn.game_started()
                secret = player.seat_key.secret
                client.send(
                    client.conn.out.start(
                        white.name, black.name, cards, secret, client.conn.extensions
                    )
                )
                self._settle(client)
        self._emit(table, "game_started", white=white.name, black=black.name, cards=list(cards))
        log.debug("table %s: %s (white) vs %s (black)", table_id, white.name, black.name)
        if state.is_terminal():
            self._finish(table)
        else:
            self._start_clock(table)

    @staticmethod
    def _rule_ok(rule: str, *players: Player) -> bool:
        return all(rule in p.client.conn.out.rules for p in players if p.client is not None)

    def _rule_for(self, white: Player, black: Player) -> Rule:
        return next(r for r in RULE_PREFERENCE if self._rule_ok(r, white, black))

    def _settle(self, client: Client) -> None:
        """After START or RECONNECT: give a client of a dialect whose clients log in again
        after each game (the NUL dialect) a moment before anything else arrives."""
        if client.conn.out.relogin_after_game:
            client.pause(self.clock, self.settings.start_pause)

    def _table_of(self, client: Client) -> tuple[Player, Table] | None:
        player = client.player
        if player is None or player.table is None or player.table.over:
            client.send(client.conn.out.error(proto.NOT_IN_GAME))
            return None
        return player, player.table

    def _make_move(self, client: Client, msg: MakeMove) -> None:
        found = self._table_of(client)
        if found is None:
            return
        player, table = found
        try:
            move = Move(canonical_card(msg.card), parse_square(msg.frm), parse_square(msg.to))
            table.match.act(player.seat, move)
        except (ValueError, IllegalAction) as exc:
            self._invalid(client, table, player, exc)
            return
        self._stop_clock(table, player.seat)
        self.stats.moves += 1
        table.moves += 1
        state = table.state
        last = state.last or {}
        card, frm, to = move.card, move.frm, move.to
        table.tell_both(lambda d: d.move_was_made(card, frm, to))
        self._emit(
            table,
            "move",
            player=player.name,
            color=COLOR_NAMES[player.seat],
            card=move.card,
            frm=last["from"],
            to=last["to"],
            capture=bool(last.get("capture")),
        )
        if state.is_terminal():
            self._finish(table)
        else:
            self._start_clock(table)

    def _invalid(self, client: Client, table: Table, player: Player, exc: Exception) -> None:
        self.stats.invalid_moves += 1
        reason = exc.reason if isinstance(exc, IllegalAction) else str(exc)
        where = f"table {table.id}: {reason}"
        refused(log, "onitama", player.name, client.peer.describe(), "INVALID_MOVE", where)
        client.send(client.conn.out.invalid_move(reason))
        if self.settings.illegal_move_forfeits:
            self.forfeit(table, player.seat, ILLEGAL_MOVE)

    def forfeit(self, table: Table, seat: int, reason: str) -> None:
        """``seat`` loses the running game at ``table`` for ``reason`` (the wire reason of
        ``GAME_OVER``); nothing happens when the game is over already."""
        if table.over:
            return
        table.match.state = table.state.forfeit(seat, reason)
        table.match.note("forfeit", name=table.players[seat].name, player=seat, reason=reason)
        self._finish(table)

    # -- the game clock (OnitamaSettings.game_clock) ----------------------------------------
    def _start_clock(self, table: Table) -> None:
        """The side to move starts thinking: it loses when its time left runs out first."""
        left = table.clock_left
        if left is None:
            return
        seat = table.state.to_move
        table.turn_started = self.clock.now()
        if table.clock_timer is not None:
            table.clock_timer.cancel()
        table.clock_timer = self.clock.call_later(
            max(left[seat], 0.0), lambda: self.forfeit(table, seat, OUT_OF_TIME)
        )

    def _stop_clock(self, table: Table, seat: int) -> None:
        if table.clock_left is None:
            return
        table.clock_left[seat] -= self.clock.now() - table.turn_started
        if table.clock_timer is not None:
            table.clock_timer.cancel()
            table.clock_timer = None

    def _stalemate(self, client: Client, msg: proto.StalemateRequest) -> None:
        """The player to move has no move and gives up a card: the seed's swap with the
        unused deck, or at a table with a NUL-dialect client the official pass."""
        found = self._table_of(client)
        if found is None:
            return
        player, table = found
        state = table.state
        try:
            old = canonical_card(msg.card)
            action = Pass(old) if state.rule == "pass" else Stalemate(old)
            applied = table.match.act(player.seat, action)
        except (ValueError, IllegalAction) as exc:
            self._invalid(client, table, player, exc)
            return
        self._stop_clock(table, player.seat)
        if isinstance(action, Pass):
            new, spare = state.spare, old
        else:
            new = next(a.card for p, a in applied if p == CHANCE and isinstance(a, Draw))
            spare = state.spare
        table.moves += 1
        table.tell_both(lambda d: d.no_move(old, new, spare))
        self._emit(
            table,
            "stalemate_card",
            player=player.name,
            color=COLOR_NAMES[player.seat],
            old=old,
            new=new,
            spare=spare,
            rule=state.rule,
        )
        self._start_clock(table)

    def _finish(self, table: Table) -> None:
        state = table.state
        table.over = True
        self._cancel_clock(table)
        winner_seat = state.winner
        assert winner_seat is not None
        winner = table.players[winner_seat]
        reason = _WIRE_REASONS.get(state.reason, state.reason)
        record = table.match.record()
        # Submitted (journaled) before the players hear the result: a game whose GAME_OVER
        # was sent must survive kill -9.
        self._submit(record)
        table.tell_both(lambda d: d.game_over(winner.name, reason))
        loser = table.players[1 - winner_seat]
        game_finished(
            log,
            "onitama",
            f"table {table.id}",
            [p.name for p in table.players],
            f"{winner.name} ({COLOR_NAMES[winner_seat]}) beat {loser.name} "
            f"({reason.replace('_', ' ')}, {table.moves} moves)",
            duration(record.started_at, record.finished_at),
            winner=winner.name,
            reason=reason,
            moves=table.moves,
        )
        self._emit(
            table,
            "game_over",
            result=record.result,
            winner=winner.name,
            color=COLOR_NAMES[winner_seat],
            reason=reason,
        )
        self.stats.games_finished += 1
        self._release(table)

    def _cancel_clock(self, table: Table) -> None:
        if table.clock_timer is not None:
            table.clock_timer.cancel()
            table.clock_timer = None

    def _abort(self, table: Table, reason: str) -> None:
        table.over = True
        self._cancel_clock(table)
        table.match.note("aborted", reason=reason)
        record = table.match.record(status="aborted", extra={"reason": reason})
        self._emit(table, "game_over", result=record.result, winner=None, color=None, reason=reason)
        self._submit(record)
        game_finished(
            log,
            "onitama",
            f"table {table.id}",
            [p.name for p in table.players],
            f"aborted: {reason} after {table.moves} moves",
            duration(record.started_at, record.finished_at),
            reason=reason,
            moves=table.moves,
        )
        self.stats.games_aborted += 1
        self._release(table, requeue=False)

    def _submit(self, record: MatchRecord) -> None:
        if self.records is None:
            return
        try:
            self.records.submit(record)
        except Exception:
            # The game is over either way; losing its record must not stop the server.
            log.exception("could not record %s", record.table_id)

    def _release(self, table: Table, requeue: bool = True) -> None:
        """After a game: players go back to the lobby (or are closed / forgotten)."""
        self.tables.pop(table.id, None)
        for player in table.players:
            player.table = None
            player.seat = -1
            if player.timer is not None:
                player.timer.cancel()
                player.timer = None
            client = player.client
            if client is None:
                self._forget(player)
                continue
            client.conn.game_ended()
            if client.conn.out.relogin_after_game:
                # Its client logs in again for the next game (and may pick another name).
                self._forget(player)
                client.player = None
                continue
            if not requeue or self.closing:
                continue
            if self.settings.requeue or player.kind == "house-bot":
                self.lobby.append(player)
            else:
                self._forget(player)
                client.player = None
                client.peer.close()
        self._pair()

    # -- reconnects -------------------------------------------------------------------------
    def _reconnect(self, client: Client, player: Player, table: Table) -> None:
        if player.timer is not None:
            player.timer.cancel()
            player.timer = None
        self._take_over(client, player)
        client.conn.game_started()
        self.stats.reconnects += 1
        state = table.state
        white, black = (p.name for p in table.players)
        seat, board, cards, to_move = player.seat, state.board, state.cards(), state.to_move
        client.send(client.conn.out.reconnected(white, black, seat, board, cards, to_move))
        self._settle(client)
        table.players[1 - seat].tell(
            lambda d: d.opponent_back(white, black, seat, board, cards, to_move)
        )
        table.match.note("reconnect", name=player.name, player=player.seat)
        self._emit(table, "reconnect", name=player.name, color=COLOR_NAMES[player.seat])
        log.info("%s is back at table %s", player.name, table.id)

    def _reconnect_expired(self, player: Player) -> None:
        player.timer = None
        table = player.table
        if player.client is not None or table is None or table.over:
            return
        opponent = table.players[1 - player.seat]
        if opponent.client is None:
            log.info("table %s: both players gone; aborted", table.id)
            self._abort(table, "both players left")
            return
        log.info("table %s: %s did not come back; %s wins", table.id, player.name, opponent.name)
        table.match.state = table.state.forfeit(player.seat)
        table.match.note("forfeit", name=player.name, player=player.seat)
        self._finish(table)

    # -- spectators and the hall ------------------------------------------------------------
    def _emit(self, table: Table, kind: str, **data: Any) -> None:
        view = table.state.view(None)
        view["players"] = {"white": table.players[WHITE].name, "black": table.players[BLACK].name}
        data["view"] = view
        data["white"] = table.players[WHITE].name
        data["black"] = table.players[BLACK].name
        data["moves"] = table.moves
        self.bus.emit("onitama", table.id, kind, **data)

    def snapshot(self) -> dict[str, Any]:
        games = []
        for table in self.tables.values():
            state = table.state
            games.append(
                {
                    "table": table.id,
                    "white": table.players[WHITE].name,
                    "black": table.players[BLACK].name,
                    "moves": table.moves,
                    "to_move": COLOR_NAMES[state.to_move],
                    "away": [p.name for p in table.players if p.client is None],
                    "kinds": [p.kind for p in table.players],
                    "dialects": [
                        p.client.conn.out.name if p.client else None for p in table.players
                    ],
                }
            )
        return {
            "games": games,
            "lobby": [p.name for p in self.lobby],
            "players": len(self.players),
            "connections": len(self._clients),
            "stats": dict(self.stats.__dict__),
            "login_timeouts": self.deadlines.expired,
        }

    def shutdown(self) -> None:
        """Abort every running game (recorded as ``aborted``) and close every connection."""
        self.closing = True
        for table in list(self.tables.values()):
            table.tell_both(lambda d: d.error(proto.SERVER_SHUTDOWN))
            self._abort(table, "server shutdown")
        self.deadlines.cancel_all()
        for client in list(self._clients):
            client.resume()
            client.peer.close()
        for player in list(self.players.values()):
            if player.timer is not None:
                player.timer.cancel()
                player.timer = None
        self.lobby.clear()

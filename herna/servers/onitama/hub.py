"""The Onitama server without I/O: players, the lobby, one game per table, reconnects.

:class:`OnitamaHub` seats waiting players through the hall's lobby
(:mod:`~herna.servers.onitama.seating`; seed clients in arrival order), runs one
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
:class:`~herna.hall.identity.SeatKey` whose secret only its player receives. The clocks and
who stands in for a late or absent player are :mod:`~herna.servers.onitama.clocks`; the
plain data (settings, connections, players, tables) is :mod:`~herna.servers.onitama.tables`;
seats and names taken back after a lost connection are :mod:`~herna.servers.onitama.returns`;
games handed to worker processes are :mod:`~herna.servers.onitama.workers`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from herna.core.clock import Clock, TimerHandle
from herna.core.errors import IllegalAction
from herna.core.game import CHANCE
from herna.core.rng import SeedSource
from herna.games.onitama.board import SQUARE_NAMES, parse_square
from herna.games.onitama.bots import LEVEL_NAMES
from herna.games.onitama.cards import BLACK, COLOR_NAMES, WHITE, canonical_card
from herna.games.onitama.notation import format_position
from herna.games.onitama.state import (
    ACTION_CODEC,
    REASON_DRAW,
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
from herna.hall.events import EventBus, GameEvent
from herna.hall.identity import Identity, Refusal, SeatKey
from herna.hall.lobby import (
    HOUSE_BOT,
    PERSON,
    Lobby,
    LobbyError,
    Seek,
    SeekSpec,
    parse_clock,
    parse_seek,
)
from herna.hall.match import Match, Seat
from herna.hall.records import MatchRecord, RecordStore
from herna.protocols import onitama as proto
from herna.protocols.onitama import ClaimWin, Close, Login, MakeMove, Reply
from herna.servers.deadlines import LoginDeadlines
from herna.servers.gamelog import duration, game_finished, refused
from herna.servers.onitama.clocks import OUT_OF_TIME, TableClocks
from herna.servers.onitama.endings import GameEndings
from herna.servers.onitama.returns import SeatReturns
from herna.servers.onitama.seating import GAME, LobbySeats
from herna.servers.onitama.tables import (
    DEFAULT_HOUSE_BOT_DELAY,
    DEFAULT_HOUSE_BOT_LEVEL,
    DEFAULT_HOUSE_BOT_STRATEGY,
    DEFAULT_MOVE_CLOCK,
    DEFAULT_RECONNECT_WINDOW,
    DEFAULT_START_PAUSE,
    Client,
    Elsewhere,
    GamePlan,
    HubStats,
    OnitamaSettings,
    Player,
    Table,
    hang_up,
    host_of,
)
from herna.servers.tcp import Peer

__all__ = [
    "DEFAULT_HOUSE_BOT_DELAY",
    "DEFAULT_HOUSE_BOT_LEVEL",
    "DEFAULT_HOUSE_BOT_STRATEGY",
    "DEFAULT_MOVE_CLOCK",
    "DEFAULT_RECONNECT_WINDOW",
    "DEFAULT_START_PAUSE",
    "ILLEGAL_MOVE",
    "OUT_OF_TIME",
    "Client",
    "GamePlan",
    "HubStats",
    "OnitamaHub",
    "OnitamaSettings",
    "Player",
    "Table",
]

log = logging.getLogger("herna.onitama")

ILLEGAL_MOVE = "illegal_move"
"""``GAME_OVER`` reason of a lost game without a winning move (Herna extension value)."""
RULE_PREFERENCE: tuple[Rule, ...] = ("stalemate", "pass")
"""The seed's rule where every player's dialect can follow it, else the official pass."""


_WIRE_REASONS = {
    REASON_STONE: proto.WAY_OF_THE_STONE,
    REASON_STREAM: proto.WAY_OF_THE_STREAM,
    REASON_FORFEIT: proto.OPPONENT_LEFT,
    REASON_DRAW: proto.DRAW_AGREED,
}


class OnitamaHub(SeatReturns, LobbySeats, GameEndings):
    """Lobby, games and reconnects for every connection, without I/O (see the module doc)."""

    def __init__(
        self,
        bus: EventBus,
        records: RecordStore | None,
        clock: Clock,
        settings: OnitamaSettings | None = None,
        initial_state: Callable[[], OnitamaState] | None = None,
        identity: Identity | None = None,
        lobby: Lobby | None = None,
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
        if lobby is None or lobby.listening(GAME):
            # A second Onitama server in one hall (``herna match`` runs one per pairing)
            # keeps its players to itself.
            lobby = Lobby()
        self.lobby = lobby
        """The hall's lobby: every waiting player has an open seek there."""
        self.lobby.listen(GAME, self._seek_closed, self._pair)
        self.waiting: dict[str, Player] = {}
        """Players waiting for a game, by the id of their open seek (oldest first)."""
        self.clocks = TableClocks(self)
        self.summon: Callable[[Seek, str], None] | None = None
        """Seats a house bot of the given level that accepts the seek (set by the service:
        house bots need the event loop); unset: seeks that want house bots wait."""
        self._fill_timer: TimerHandle | None = None
        self.bot_names: dict[str, str] = {}
        self.rematches: dict[str, set[Player]] = {}
        """Players who asked for a rematch, by the name key of the opponent they asked."""
        """The name a house bot summoned for a seek takes (a rematch: the same bot again)."""
        self.tables: dict[str, Table] = {}
        self.stats = HubStats()
        self._table_ids = 0
        self._clients: set[Client] = set()
        self.deadlines = LoginDeadlines(clock, self.settings.login_timeout, self._login_timed_out)
        """Connections that have not logged in yet (``ERROR|LOGIN_TIMEOUT`` on expiry)."""
        self.closing = False
        self.give_back: Callable[[Table], None] | None = None
        """In a game worker: hands a finished table's players back to the front."""
        self.elsewhere: Elsewhere | None = None
        """The game workers (``--workers``; :mod:`~herna.servers.onitama.workers`): they may
        take a new table's connections and run its game; unset, every game runs here."""
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
        hang_up(client.peer, proto.LOGIN_TIMEOUT)
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
            if isinstance(out, MakeMove):  # by far the most frequent
                self._make_move(client, out)
            elif isinstance(out, Reply):
                if out.refusal:
                    self.stats.errors += 1
                    name = client.player.name if client.player else ""
                    line = out.data.decode(errors="replace").strip("\0\r\n ")
                    refused(log, "onitama", name, client.peer.describe(), "ERROR", line)
                client.peer.send(out.data)
            elif isinstance(out, Close):
                log.info("%s: closing (%s)", self._who(client), out.reason)
                hang_up(client.peer, out.reason)
                return
            elif isinstance(out, Login):
                self._login(client, out)
            elif isinstance(out, ClaimWin):
                self._claim(client)
            elif isinstance(out, proto.GameRequest):
                self._game_request(client, out)
            elif isinstance(out, proto.AfterGameRequest):
                self._after_game(client, out)
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
        # The seek dies with its connection, and so does a rematch offered to it.
        self.lobby.drop(client)
        self._unseek(player)
        self._drop_rematch(player)
        self._forget_rematch(player)
        player.client = None
        player.left_from = host_of(client.peer.describe())
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

    def seeking(self, client: Client) -> bool:
        """Whether ``client``'s player waits in the lobby for a game (the web hall holds such
        a play page's connection for a reload, :mod:`herna.web.play`)."""
        player = client.player
        return player is not None and player.client is client and player.seek is not None

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
        spec: SeekSpec | None = None
        if msg.seek is not None:
            try:
                spec = parse_seek(msg.seek, LEVEL_NAMES)
            except LobbyError as exc:
                self._refuse(client, exc.code, exc.reason, msg.name)
                return
        existing = self.players.get(proto.name_key(msg.name))
        if existing is not None and self._seat_opens(client, existing, proof, msg.name):
            return
        spelled = self.identity.reserved_spelling(msg.name)
        admission = self.identity.admit(spelled or msg.name, proof)
        if isinstance(admission, Refusal):
            self._refuse(client, admission.code, admission.reason, msg.name)
            return
        if existing is not None:
            self._name_taken(client, existing, proof, admission.verified, spec)
            return
        player = Player(msg.name, client.peer.kind, client)
        player.spec = spec
        if spec is not None and spec.person:
            player.kind = PERSON
        if spec is not None and spec.want.accept is not None and client.peer.kind == HOUSE_BOT:
            player.one_game = True  # summoned for one seek
        player.verified = admission.verified
        try:
            self.lobby.check_open(
                GAME, msg.name, self._lobby_kind(player), self._want(player), player.verified
            )
        except LobbyError as exc:
            self._refuse(client, exc.code, exc.reason, msg.name)
            return
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

    def _forget(self, player: Player) -> None:
        if self.players.get(player.key) is player:
            del self.players[player.key]
        self._unseek(player)
        if player.timer is not None:
            player.timer.cancel()
            player.timer = None

    # -- games ------------------------------------------------------------------------------
    def _start(
        self, a: Player, b: Player, planned: GamePlan | None = None, tournament: str | None = None
    ) -> None:
        """A game between ``a`` and ``b`` (in lobby order); colours and deal come from the
        game's seed, so its record reproduces both, unless a planner gave them. ``tournament``
        tags a booked tournament game: its record and events carry the tag."""
        seed = self.seeds.next_seed()
        white, black = (b, a) if seed & 1 else (a, b)
        if planned is None:
            again = self.rematch_plan(a, b)
            planned = (again, None) if again is not None else None
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
        kinds = [self._lobby_kind(white), self._lobby_kind(black)]
        if tournament is not None:
            meta["tournament"] = tournament
        if not state.dealing and given is not None:
            meta["start"] = format_position(state)
        meta["dialects"] = [p.client.conn.out.name if p.client else None for p in (white, black)]
        match: Match[Action] = Match(
            game="onitama",
            table_id=table_id,
            state=state,
            # The kinds the lobby and tournaments know them by: a client over the wire that
            # is no person and no house bot is a bot (its peer says "unknown").
            seats=[Seat(white.name, kinds[0]), Seat(black.name, kinds[1])],
            seed=seed,
            codec=ACTION_CODEC,
            meta=meta,
        )
        table = Table(table_id, match, (white, black), started=self.clock.now())
        match.meta["kinds"] = kinds
        if self.settings.game_clock > 0:
            table.clock_left = [self.settings.game_clock, self.settings.game_clock]
        chosen = next((c for p in (a, b) if (c := self._want(p).clock) is not None), None)
        if chosen is not None:
            # The time control its player chose when opening the table (the lobby pairs no
            # seeks with different ones): it replaces the move clock at this table.
            base, table.increment = parse_clock(chosen)
            table.clock_left = [base, base]
            table.time_control = match.meta["time_control"] = chosen
        self.tables[table_id] = table
        self.stats.games_started += 1
        for seat, player in enumerate((white, black)):
            player.table = table
            player.seat = seat
            player.seat_key = SeatKey(player.name)
        if self.elsewhere is not None and self.elsewhere.take(table):
            return
        self.open(table)

    def open(self, table: Table) -> None:
        """Tell both players their game has started (``START``) and start its clocks."""
        state = table.state
        cards = state.cards()
        white, black = table.players
        for player in table.players:
            client = player.client
            assert player.seat_key is not None
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
        log.debug("table %s: %s (white) vs %s (black)", table.id, white.name, black.name)
        if state.is_terminal():
            self._finish(table)
        else:
            self.clocks.start(table)

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
        seat = player.seat
        try:
            card = canonical_card(msg.card)
            frm, to = parse_square(msg.frm), parse_square(msg.to)
            table.match.act(seat, Move(card, frm, to))
        except (ValueError, IllegalAction) as exc:
            self._invalid(client, table, player, exc)
            return
        self.clocks.stop(table, seat)
        self.stats.moves += 1
        table.moves += 1
        state = table.state
        last = state.last
        held: list[Client] = []
        if state.is_terminal():
            # The last move and GAME_OVER leave in one write: a client that answered the move
            # before it read GAME_OVER would be told it is not in a game any more.
            held = [p.client for p in table.players if p.client is not None and p.client.hold()]
        table.tell_both(lambda d: d.move_was_made(card, frm, to))
        self._emit(
            table,
            "move",
            player=player.name,
            color=COLOR_NAMES[seat],
            card=card,
            frm=SQUARE_NAMES[frm],
            to=SQUARE_NAMES[to],
            capture=bool(last is not None and last.get("capture")),
        )
        if state.is_terminal():
            self._finish(table)
            for client in held:
                client.resume()
        else:
            self.decline_draw(table, seat)  # moving instead of answering an offer
            self.clocks.start(table)

    def _invalid(self, client: Client, table: Table, player: Player, exc: Exception) -> None:
        self.stats.invalid_moves += 1
        reason = exc.reason if isinstance(exc, IllegalAction) else str(exc)
        where = f"table {table.id}: {reason}"
        refused(log, "onitama", player.name, client.peer.describe(), "INVALID_MOVE", where)
        client.send(client.conn.out.invalid_move(reason))
        if self.settings.illegal_move_forfeits:
            self.forfeit(table, player.seat, ILLEGAL_MOVE)

    def forfeit(
        self,
        table: Table,
        seat: int,
        reason: str | None,
        ended: str | None = None,
        claimed: bool = False,
    ) -> None:
        """``seat`` loses the running game at ``table`` for ``reason`` (the wire reason of
        ``GAME_OVER``; None: the opponent left); ``ended`` and ``claimed`` go into the record
        (see :mod:`~herna.servers.onitama.clocks`). Nothing happens when the game is over."""
        if table.over:
            return
        name = table.players[seat].name
        if reason is None:
            table.match.state = table.state.forfeit(seat)
            table.match.note("forfeit", name=name, player=seat)
        else:
            table.match.state = table.state.forfeit(seat, reason)
            table.match.note("forfeit", name=name, player=seat, reason=reason)
        extra: dict[str, Any] = {}
        if ended is not None:
            extra["ended"] = ended
            extra["claimed"] = claimed
        self._finish(table, extra)

    def _claim(self, client: Client) -> None:
        found = self._table_of(client)
        if found is None:
            return
        player, table = found
        if not self.clocks.claim(table, player):
            client.send(client.conn.out.error(proto.NOTHING_TO_CLAIM))

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
        self.clocks.stop(table, player.seat)
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
        self.decline_draw(table, player.seat)
        self.clocks.start(table)

    def _finish(self, table: Table, extra: dict[str, Any] | None = None) -> None:
        state = table.state
        table.over = True
        self.clocks.cancel(table)
        winner_seat = state.winner
        # None: an agreed draw (only clients that can offer or accept one ever see that).
        winner = table.players[winner_seat].name if winner_seat is not None else ""
        reason = _WIRE_REASONS.get(state.reason, state.reason)
        record = table.match.record(extra=extra)
        # Submitted (journaled) before the players hear the result: a game whose GAME_OVER
        # was sent must survive kill -9.
        self._submit(record)
        table.tell_both(lambda d: d.game_over(winner, reason))
        if winner_seat is None:
            said = f"{' and '.join(p.name for p in table.players)} agreed to a draw"
        else:
            said = (
                f"{winner} ({COLOR_NAMES[winner_seat]}) beat {table.players[1 - winner_seat].name}"
            )
        game_finished(
            log,
            "onitama",
            f"table {table.id}",
            [p.name for p in table.players],
            f"{said} ({reason.replace('_', ' ')}, {table.moves} moves)",
            duration(record.started_at, record.finished_at),
            winner=winner or None,
            reason=reason,
            moves=table.moves,
        )
        self._emit(
            table,
            "game_over",
            result=record.result,
            winner=winner or None,
            color=COLOR_NAMES[winner_seat] if winner_seat is not None else None,
            reason=reason,
        )
        self.stats.games_finished += 1
        self._release(table)

    def _abort(self, table: Table, reason: str) -> None:
        table.over = True
        self.clocks.cancel(table)
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
        if self.give_back is not None:  # a game worker: the front has the lobby
            self.give_back(table)
            return
        self.remember_game(table)
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
            if not requeue or self.closing or player.one_game or not self._want(player).again:
                continue  # a seat paired again only when its player asks (seek word once)
            if self.settings.requeue or player.kind == HOUSE_BOT:
                self._enqueue(player, again=True)
            else:
                self._forget(player)
                client.player = None
                client.resume()
                client.peer.close()
        self._pair()

    def logged_in(self, name: str) -> bool:
        """Whether ``name`` (or a name that looks the same: players are kept by
        :func:`~herna.protocols.onitama.name_key`) is logged in."""
        return proto.name_key(name) in self.players

    # -- spectators and the hall ------------------------------------------------------------
    def emit_table(self, table: Table, kind: str, **data: Any) -> None:
        self._emit(table, kind, **data)

    def _emit(self, table: Table, kind: str, **data: Any) -> None:
        white, black = table.players[WHITE].name, table.players[BLACK].name
        view = table.state.view(None)
        view["players"] = {"white": white, "black": black}
        data["view"] = view
        data["white"] = white
        data["black"] = black
        data["moves"] = table.moves
        tag = table.match.meta.get("tournament")
        if tag is not None:
            data["tournament"] = tag
        # ``data`` is this call's own dict: published as it is (``bus.emit`` would copy it).
        self.bus.publish(GameEvent("onitama", table.id, kind, data))

    def snapshot(self) -> dict[str, Any]:
        games = []
        for table in self.tables.values():
            state = table.state
            shown = table.shown or {}
            games.append(
                {
                    "table": table.id,
                    "white": table.players[WHITE].name,
                    "black": table.players[BLACK].name,
                    "moves": table.moves,
                    "to_move": shown.get("to_move", COLOR_NAMES[state.to_move]),
                    "away": [p.name for p in table.players if p.client is None],
                    "kinds": [self._lobby_kind(p) for p in table.players],
                    "dialects": [
                        p.client.conn.out.name if p.client else None for p in table.players
                    ],
                }
            )
        return {
            "games": games,
            "lobby": [p.name for p in self.waiting.values()],
            "seeks": self.lobby.snapshot(GAME, now=self.clock.now()),
            "players": len(self.players),
            "connections": len(self._clients),
            "stats": dict(self.stats.__dict__),
            "login_timeouts": self.deadlines.expired,
        }

    def shutdown(self) -> None:
        """Abort every running game (recorded as ``aborted``) and close every connection."""
        self.closing = True
        for table in list(self.tables.values()):
            if table.elsewhere is not None:
                continue  # its worker ends it
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
        for player in list(self.waiting.values()):
            self._unseek(player)
        if self._fill_timer is not None:
            self._fill_timer.cancel()
            self._fill_timer = None

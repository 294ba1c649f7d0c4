"""The tile-game hub: every table, game and house bot of the ``herna-tiles/1`` server, without
sockets.

* :class:`TilesHub` owns the connections' protocol state machines, the tables (one per rules
  file being played, waiting for players or playing), one :class:`~herna.hall.match.Match` per
  game, house bots (in-process seats that answer on the hub's clock), turn timeouts, records
  and spectator events on the hall's bus.
* A connection that has not joined a table within ``login_timeout`` seconds (its login: the
  first ``joined``) is told ``LOGIN_TIMEOUT`` and closed, so silent connections cannot pile up
  and exhaust the process's file descriptors (a **[Herna extension]**).
* Transports hand it what they read: :meth:`TilesHub.receive` takes the bytes of a stream
  (TCP, :mod:`herna.servers.tiles.tcp`), :meth:`TilesHub.receive_frame` one message of a
  message-framed transport (the web hall's WebSocket ``/ws/tiles``, :mod:`herna.web.play`).
  Both kinds of connection sit at the same tables. A transport gives the hub a
  :class:`~herna.servers.tcp.Peer` to send to.

The hub's parts are mix-ins: whose turn it is and who answers (:mod:`~herna.servers.tiles.turns`),
joining, rules checks and the hall's lobby
(:mod:`~herna.servers.tiles.seating`), seats taken back and stand-ins
(:mod:`~herna.servers.tiles.returns`), live tournaments' tables
(:mod:`~herna.servers.tiles.tournament`).

The protocol is documented in ``docs/protocols/tiles.md``, the game in ``docs/games/tiles.md``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from herna.core.clock import Clock, TimerHandle
from herna.core.errors import IllegalAction, ProtocolError
from herna.core.rng import SeedSource
from herna.games.tiles.actions import PlayerAction
from herna.games.tiles.bots import TilesBot, make_bot
from herna.games.tiles.engine import new_game
from herna.games.tiles.narrate import turn_words
from herna.games.tiles.replay import describe
from herna.games.tiles.rules import (
    MAX_PLAYERS,
    Rules,
    load_rules_file,
    shipped_rules,
)
from herna.hall.events import EventBus
from herna.hall.identity import Identity, Refusal, SeatKey
from herna.hall.lobby import CLOSED, Lobby
from herna.hall.match import Match, Seat
from herna.hall.records import RecordStore, utcnow
from herna.protocols import tiles as proto
from herna.servers.deadlines import LOGIN_TIMEOUT, LoginDeadlines
from herna.servers.gamelog import duration, game_finished, refused
from herna.servers.tcp import Peer
from herna.servers.tiles.checker import InlineRulesChecker, RulesChecker
from herna.servers.tiles.endings import Resigning
from herna.servers.tiles.names import NameBook
from herna.servers.tiles.rematch import LEFT, Offer, Rematches
from herna.servers.tiles.returns import SeatReturns
from herna.servers.tiles.seating import GAME, MAX_PROBLEMS_SENT, TableSeating, house_bot_name
from herna.servers.tiles.tables import (
    DEFAULT_BOT_DELAY,
    DEFAULT_HOUSE_STRATEGY,
    DEFAULT_LOBBY_WAIT,
    DEFAULT_RECONNECT_WINDOW,
    DEFAULT_SHOWCASE_PAUSE,
    DEFAULT_TURN_TIMEOUT,
    Client,
    Elsewhere,
    ExplainsClose,
    HubStats,
    SeatSlot,
    Table,
    TilesSettings,
)
from herna.servers.tiles.tournament import TournamentSeats
from herna.servers.tiles.turns import Turns

__all__ = [
    "DEFAULT_BOT_DELAY",
    "DEFAULT_HOUSE_STRATEGY",
    "DEFAULT_LOBBY_WAIT",
    "DEFAULT_RECONNECT_WINDOW",
    "DEFAULT_SHOWCASE_PAUSE",
    "DEFAULT_TURN_TIMEOUT",
    "MAX_PROBLEMS_SENT",
    "Client",
    "ExplainsClose",
    "HubStats",
    "SeatSlot",
    "Table",
    "TilesHub",
    "TilesSettings",
    "house_bot_name",
]

log = logging.getLogger("herna.tiles")

"""Problems listed in a ``BAD_RULES`` error (the reason still counts them all)."""


class TilesHub(Turns, SeatReturns, TableSeating, TournamentSeats, Resigning, Rematches):
    """Tables, games and house bots for every connection, without I/O."""

    def __init__(
        self,
        bus: EventBus,
        records: RecordStore | None,
        clock: Clock,
        settings: TilesSettings | None = None,
        rules_checker: RulesChecker | None = None,
        identity: Identity | None = None,
        lobby: Lobby | None = None,
    ) -> None:
        self.bus = bus
        self.records = records
        self.clock = clock
        self.settings = settings or TilesSettings()
        self.rules_checker = rules_checker or InlineRulesChecker()
        """Checks the rules files players send (the server checks them in another process)."""
        self.seeds = SeedSource(self.settings.seed)
        """Each game's seed (published with its record) is a fresh draw from here: from
        :mod:`secrets` unless ``settings.seed`` fixes the sequence."""
        self.rng = self.seeds.next_rng()
        """The hub's own choices (house bots' seeds, actions played on a timeout): never
        published, so one generator will do."""
        self.identity = identity if identity is not None else Identity()
        self.names: NameBook[Client] = NameBook(self.identity)
        """Which connection plays under which name (TCP and WebSocket alike)."""
        self._house_tokens = {
            name: self.identity.reserve_house_bot(name)
            for name in map(house_bot_name, range(MAX_PLAYERS))
        }
        """House bots' names are reserved from the start, so no client can ever appear under
        one; each house bot presents its token when it takes a seat."""
        self.tables: dict[str, Table] = {}
        if lobby is None or lobby.listening(GAME):
            # A second tile server in one hall (``herna match``) keeps its tables to itself.
            lobby = Lobby()
        self.lobby = lobby
        """The hall's lobby: every waiting table of 2-8 seats has an open seek there."""
        self.waits = {}
        self.offers: dict[Client, Offer] = {}
        """Finished tables that may be played again, by each player still there."""
        """Players waiting for their next tournament table (:mod:`.tournament`)."""
        self.lobby.listen(GAME, self._seek_closed, self._pair_booked)
        self.stats = HubStats()
        self.elsewhere: Elsewhere | None = None
        """The game workers (``--workers``; :mod:`~herna.servers.tiles.workers`): they may
        take a table whose game starts; unset, every game runs here."""
        self.give_back: Callable[[str | None, list[Client]], None] | None = None
        """In a game worker: hands connections back to the front (their table's game is over,
        they left it, or they could not take a seat back), with the table's id when over."""
        self._clients: set[Client] = set()
        self.deadlines = LoginDeadlines(clock, self.settings.login_timeout, self._login_expired)
        """Connections that have not joined a table yet (``LOGIN_TIMEOUT`` on expiry)."""
        self._table_ids = 0
        self._shipped: dict[str, Rules] = {}
        self._showcase_next = 0
        self._showcase_timer: TimerHandle | None = None
        self.closing = False

    # -- rules -------------------------------------------------------------------------------
    def shipped(self, name: str) -> Rules | None:
        if name not in self._shipped:
            path = shipped_rules().get(name)
            if path is None:
                return None
            self._shipped[name] = load_rules_file(path)
        return self._shipped[name]

    # -- connections -------------------------------------------------------------------------
    def connect(self, peer: Peer) -> Client:
        client = Client(peer)
        self._clients.add(client)
        self.stats.connections += 1
        client.send(
            {
                "type": "welcome",
                "server": "herna",
                "protocol": proto.PROTOCOL,
                "rules": sorted(shipped_rules()),
            }
        )
        if getattr(peer, "kind", "unknown") != "house-bot":
            self.deadlines.start(client)  # its login is its first ``joined``
        return client

    def _login_expired(self, client: Client) -> None:
        """Still no table joined: ``LOGIN_TIMEOUT``, then that connection (only) is closed."""
        reason = f"no table joined within {self.deadlines.timeout:g} s of connecting"
        log.info("%s: %s: %s; closing", client.peer.describe(), LOGIN_TIMEOUT, reason)
        # Housekeeping, not bad input: the INFO line above says it, no WARNING.
        self.stats.errors += 1
        client.peer.send(client.conn.error(LOGIN_TIMEOUT, reason, None))
        self._hang_up(client, LOGIN_TIMEOUT, reason)

    def _hang_up(self, client: Client, code: str, reason: str) -> None:
        """Close a connection for a protocol reason (the error was sent first)."""
        peer = client.peer
        try:
            if isinstance(peer, ExplainsClose):
                peer.close_with(code, reason)
            else:
                peer.close()
        finally:
            self.disconnect(client)

    def receive(self, client: Client, data: bytes) -> None:
        """Bytes of a stream (TCP) from a client: answer, act; never raises for anything the
        peer sent."""
        for message in client.conn.receive_data(data):
            if not self._dispatch(client, message):
                return

    def receive_frame(self, client: Client, data: str | bytes) -> None:
        """One whole message from a message-framed transport (a WebSocket frame: ``str`` for
        text, ``bytes`` for binary); answered as a TCP line with the same bytes would be."""
        message = client.conn.receive_frame(data)
        if message is not None:
            self._dispatch(client, message)

    def _dispatch(self, client: Client, message: proto.ClientMessage | ProtocolError) -> bool:
        """Act on one received message; False once the connection is gone."""
        if client not in self._clients:
            return False
        if isinstance(message, ProtocolError):
            self._refuse(client, message)
            if message.fatal:
                self._hang_up(client, message.code, message.reason)
                return False
            return True
        self.handle(client, message)
        return True

    def _refuse(self, client: Client, error: ProtocolError) -> None:
        self.stats.errors += 1
        refused(log, "tiles", _who(client), client.peer.describe(), error.code, error.reason)
        client.peer.send(
            client.conn.error(error.code, error.reason, getattr(error, "request_id", None))
        )

    def _error(
        self, client: Client, code: str, reason: str, request_id: Any = None, **extra: Any
    ) -> None:
        self.stats.errors += 1
        name = str(extra.pop("name", "")) or _who(client)
        refused(log, "tiles", name, client.peer.describe(), code, reason)
        client.peer.send(client.conn.error(code, reason, request_id, **extra))

    def handle(self, client: Client, message: proto.ClientMessage) -> None:
        """One well-formed message."""
        if isinstance(message, proto.Join):
            self._join(client, message)
        elif isinstance(message, proto.Start):
            self._start_request(client, message)
        elif isinstance(message, proto.Act):
            self._act(client, message)
        elif isinstance(message, proto.GetState):
            self._state_request(client, message)
        elif isinstance(message, proto.ListTables):
            reply = {
                "type": "tables",
                "rules": sorted(shipped_rules()),
                "tables": self.snapshot()["tables"],
            }
            if message.id is not None:
                reply["id"] = message.id
            client.send(reply)
        elif isinstance(message, proto.Back):
            self._back(client, message)
        elif isinstance(message, proto.Resign):
            self._resign(client, message)
        elif isinstance(message, proto.Rematch):
            self._rematch(client, message)
        elif isinstance(message, proto.DeclineRematch):
            self._decline_rematch(client, message)
        elif isinstance(message, proto.Leave):
            self._leave_wait(client)
            self._leave(client)
            reply = {"type": "left"}
            if message.id is not None:
                reply["id"] = message.id
            client.send(reply)
            if self.give_back is not None:
                self.give_back(None, [client])
        else:
            reply = {"type": "pong"}
            if message.id is not None:
                reply["id"] = message.id
            client.send(reply)

    def disconnect(self, client: Client) -> None:
        """The connection is gone (idempotent)."""
        self.deadlines.done(client)
        if client not in self._clients:
            return
        self._clients.discard(client)
        self._forget_offer(client, LEFT)
        self.names.release(client)
        self._stop_waiting(client)
        self._leave(client, gone=True)

    # -- lobby -------------------------------------------------------------------------------
    def _may_use_name(self, client: Client, msg: proto.Join) -> bool:
        """Whether ``client`` may sit down as ``msg.name`` (it is told why not)."""
        verdict = self.names.check(client, msg.name, msg.token)
        if isinstance(verdict, Refusal):
            self._error(client, verdict.code, verdict.reason, msg.id, name=msg.name)
            return False
        return True

    def _bot(self, rules: Rules, strategy: str | None = None) -> TilesBot:
        return make_bot(strategy or self.settings.house_strategy, rules, self.rng.randint(0, 2**31))

    def _leave(self, client: Client, gone: bool = False) -> None:
        """``client`` leaves its table (``gone``: its connection dropped, so it may come
        back with its seat secret within the reconnect window)."""
        table, seat = client.table, client.seat
        client.table, client.seat = None, -1
        if table is None or self.tables.get(table.id) is not table:
            return
        slot = table.seats[seat]
        if slot is None or slot.client is not client:
            return
        if table.status == "waiting":
            table.seats[seat] = None
            self._seek_after_leaving(table, slot.name)
            if not table.clients():
                table.cancel_timer()
                del self.tables[table.id]
            else:
                self._send_table(table)
            return
        slot.client = None
        if gone and self._hold_seat(table, seat, slot):
            return
        self._replace_with_bot(table, seat, slot)

    def _replace_with_bot(self, table: Table, seat: int, slot: SeatSlot) -> None:
        # In a game: a house bot takes the seat over so the game can finish and be recorded.
        slot.client = None
        slot.bot = self._bot(table.rules)
        slot.stood_in = True
        assert table.match is not None
        table.match.note("left", player=seat, name=slot.name, replaced_by="house bot")
        log.info("%s left table %s; a house bot plays seat %d", slot.name, table.id, seat)
        self._send_table(table)
        if table.state.current_player() == seat:
            table.cancel_timer()
            self._prompt(table)

    # -- games -------------------------------------------------------------------------------
    def _begin(self, table: Table) -> None:
        if self.lobby.closed is not None:
            # The hall takes no new games (the lobby says why): this one does not start.
            self.give_up(table, CLOSED, self.lobby.closed)
            return
        table.cancel_timer()
        self._seek_seated(table)
        rules = table.rules
        seats = [Seat(s.name, s.kind) for s in table.seats if s is not None]
        try:
            table.match = Match(
                game="tiles",
                table_id=table.id,
                state=new_game(rules, self.settings.max_rounds),
                seats=seats,
                seed=self.seeds.next_seed(),
                codec=table.codec,
                meta={
                    "rules": dict(rules.data),
                    "rules_name": rules.name,
                    "rules_key": table.key,
                    "max_rounds": self.settings.max_rounds,
                },
            )
            if table.tournament is not None:
                table.match.meta["tournament"] = table.tournament
        except Exception:
            log.exception("table %s could not start", table.id)
            for _, client in table.clients():
                self._error(client, "INTERNAL", "the game could not be set up")
                client.table, client.seat = None, -1
                client.conn.phase = "lobby"
            del self.tables[table.id]
            return
        table.status = "playing"
        self.start_game_clock(table)
        self.stats.games_started += 1
        for slot in table.seats:
            if slot is not None and slot.client is not None and slot.key is None:
                slot.key = SeatKey(slot.name)
        if self.elsewhere is not None and self.elsewhere.take(table):
            return
        self.open(table)

    def open(self, table: Table) -> None:
        """Tell every player the game has started and ask whoever is to act."""
        rules = table.rules
        state = table.state
        for seat, client in table.clients():
            slot = table.seats[seat]
            assert slot is not None
            client.send(self._started(table, seat, slot))
        self._emit(
            table,
            "game_started",
            rules=rules.name,
            players=table.names(),
            seats=table.seats_json(),
            label=f"{rules.name}: " + ", ".join(table.names()),
            view=state.view(None),
        )
        log.info("table %s started: %s, %s", table.id, rules.name, ", ".join(table.names()))
        self._prompt(table)

    def _guarded(self, table: Table, fn: Callable[..., None], *args: Any) -> None:
        """Run a timer callback; a bug ends that table (recorded as aborted), not the server."""
        try:
            fn(*args)
        except Exception:
            log.exception("internal error at table %s; aborting that game", table.id)
            try:
                self._finish(table, "aborted")
            except Exception:
                log.exception("table %s could not be closed cleanly", table.id)
                self.tables.pop(table.id, None)

    def _act(self, client: Client, msg: proto.Act) -> None:
        table, seat = client.table, client.seat
        if table is None or table.status != "playing":
            self._error(client, "WRONG_PHASE", "no game in progress", msg.id)
            return
        # An action from a person whose stand-in plays is a return (a seed client knows no
        # "back"); on the person's turn it is then judged like any other.
        self._back(client)
        try:
            action = table.codec.decode_player_action(msg.action)
        except ValueError as exc:
            self.stats.illegal += 1
            self._error(client, "BAD_ACTION", str(exc), msg.id)
            return
        self._play(table, seat, msg.action, action, client, msg.id)

    def _play(
        self,
        table: Table,
        seat: int,
        wire: dict[str, Any],
        action: PlayerAction | None = None,
        client: Client | None = None,
        request_id: Any = None,
    ) -> None:
        assert table.match is not None
        # The state before the action (states are immutable): each reader's view of it makes
        # the action's line in words (``said``), computed only once the action is accepted.
        old = table.state
        try:
            if action is None:
                action = table.codec.decode_player_action(wire)
            table.match.act(seat, action)
        except (IllegalAction, ValueError) as exc:
            self.stats.illegal += 1
            if client is not None:
                code = exc.code if isinstance(exc, IllegalAction) else "BAD_ACTION"
                reason = exc.reason if isinstance(exc, IllegalAction) else str(exc)
                self._error(client, code, reason, request_id)
            else:
                log.error("table %s: server-side action %s refused: %s", table.id, wire, exc)
            return
        self.stats.actions += 1
        table.cancel_timer()
        self.game_clock_acted(table, seat)
        state = table.state
        names = table.names()
        label = describe(state.happened, names)
        wire = table.codec.encode(action)
        clients = dict(table.clients())
        for other, slot in enumerate(table.seats):
            if slot is None or slot.kind == "house-bot":
                continue
            # Each player's story in its own words, kept for the seat (not only sent): a
            # player back after a lost connection gets the lines it missed (``started``).
            view = table.view_of(state, other)
            lang = slot.client.conn.lang if slot.client is not None else "en"
            line = said(wire, table.view_of(old, other), view, seat, names, lang)
            table.remember_said(other, line)
            c = clients.get(other)
            if c is not None:
                c.send(
                    {
                        "type": "state",
                        "table": table.id,
                        "view": view,
                        "last": {"player": seat, "name": names[seat], "action": wire},
                        "events": label,
                        "said": line,
                    }
                )
        self._emit(
            table,
            "action",
            player=seat,
            name=names[seat],
            players=names,
            action=wire,
            # watchers read the players' words (the play page's and herna play tiles'),
            # not the engine's log that ``events`` carries for network clients
            label=said(wire, old.view(None), state.view(None), seat, names),
            view=state.view(None),
        )
        self._prompt(table)

    def _state_request(self, client: Client, msg: proto.GetState) -> None:
        table = client.table
        reply: dict[str, Any] = {"type": "state", "table": table.id if table else None}
        if msg.id is not None:
            reply["id"] = msg.id
        if table is None:
            reply["view"] = None
        elif table.status != "playing":
            reply["seats"] = table.seats_json()
            reply["view"] = None
        else:
            reply["view"] = table.state.view(client.seat)
        client.send(reply)
        if (
            table is not None
            and table.status == "playing"
            and table.state.current_player() == client.seat
        ):
            # the turn clock keeps running: what is left of it
            token = table.match.state if table.match else None
            move = self._turn_time(table, token, keep=True)
            client.send(self._your_turn(table, client.seat, move))

    def _finish(self, table: Table, status: str = "finished") -> None:
        if table.status != "playing":
            return
        table.status = "over"
        table.cancel_timer()
        assert table.match is not None
        state = table.state
        names = table.names()
        outcome = state.outcome()
        result: dict[str, Any] = outcome.to_json() if outcome else {"reason": status}
        result["winner_names"] = [names[w] for w in (outcome.winners if outcome else ())]
        stood_in = [s.name for s in table.seats if s is not None and s.stood_in]
        if stood_in:
            table.match.meta["stand_in"] = stood_in
        if self.records is not None:
            try:
                record = table.match.record(status)
                # A game a stand-in played (in part) says nothing of that player's skill: it
                # is stored and shown, but their rating does not move (as for mariáš).
                for player in record.players:
                    if player.name in stood_in:
                        player.rated = False
                self.records.submit(record)
            except Exception:  # the game is over either way; keep serving the others
                log.exception("table %s: the record could not be submitted", table.id)
        if status == "finished":
            self.stats.games_finished += 1
        else:
            self.stats.games_aborted += 1
        players = table.clients()
        for seat, client in players:
            client.send(
                {"type": "game_over", "table": table.id, "result": result, "view": state.view(seat)}
            )
            client.table, client.seat = None, -1
        self.remember_for_rematch(table, players)
        self._emit(
            table,
            "game_over",
            result=result,
            players=names,
            status=status,
            label=f"game over: {result.get('reason', status)}",
            view=state.view(None),
        )
        winners = result["winner_names"]
        reason = result.get("reason") or status
        game_finished(
            log,
            "tiles",
            f"table {table.id} ({table.rules.name})",
            names,
            (f"{' and '.join(winners)} won" if winners else "nobody won") + f" ({reason})"
            if status == "finished"
            else f"{status}: {reason}",
            duration(table.match.started_at, utcnow()),
            status=status,
            winners=winners,
        )
        self.tables.pop(table.id, None)
        if self.give_back is not None:  # a game worker: the front has the lobby
            self.give_back(table.id, [client for _, client in players])
        if table.showcase and not self.closing:
            self._showcase_timer = self.clock.call_later(
                self.settings.showcase_pause, self.start_showcase
            )

    def _emit(self, table: Table, kind: str, **data: Any) -> None:
        if table.tournament is not None:
            data["tournament"] = table.tournament
        self.bus.emit("tiles", table.id, kind, **data)

    # -- the showcase ------------------------------------------------------------------------
    def start_showcase(self) -> None:
        """A table of house bots playing the shipped rules files in turn (for spectators)."""
        self._showcase_timer = None
        if self.closing or self.lobby.closed is not None:
            return
        names = sorted(shipped_rules())
        if not names:
            return
        name = names[self._showcase_next % len(names)]
        self._showcase_next += 1
        rules = self.shipped(name)
        assert rules is not None
        table = self._new_table(rules, showcase=True)
        self._fill_with_bots(table)
        self._begin(table)

    # -- the hall ----------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        tables = []
        for table in self.tables.values():
            entry: dict[str, Any] = {
                "table": table.id,
                "rules": table.rules.name,
                "status": table.status,
                "showcase": table.showcase,
                "seats": table.seats_json(),
            }
            if table.elsewhere is not None:
                entry["turn"] = (table.shown or {}).get("turn", table.state.turn)
            elif table.status == "playing":
                entry["turn"] = table.state.turn
            tables.append(entry)
        return {
            "tables": tables,
            "connections": len(self._clients),
            "stats": dict(vars(self.stats)),
            "login_timeouts": self.deadlines.expired,
            "seeks": self.lobby.snapshot(GAME, now=self.clock.now()),
        }

    def shutdown(self) -> None:
        """Stop: abort games in progress (recorded as aborted) and close every connection."""
        self.closing = True
        self.rules_checker.close()
        if self._showcase_timer is not None:
            self._showcase_timer.cancel()
        self._withdraw_seeks()
        for table in list(self.tables.values()):
            table.cancel_timer()
            if table.status == "playing" and table.elsewhere is None:  # else its worker ends it
                self._finish(table, "aborted")
        self.tables.clear()
        self.deadlines.cancel_all()
        for client in list(self._clients):
            client.peer.close()
        self._clients.clear()


def said(
    action: dict[str, Any],
    before: dict[str, Any],
    after: dict[str, Any],
    seat: int,
    names: list[str],
    lang: str = "en",
) -> str:
    """One action in words, as its reader saw it (``herna play tiles`` says the same words):
    ``ann pushed row 1 from the right``, ``house-2 moved to the gold and picked it up``; in
    ``lang`` (``cs``: ``ann posouvá řádek 1 zprava``)."""
    return turn_words(action, before, after, seat, names, lang)


def _who(client: Client) -> str:
    """The name a client plays under, for log lines ("" before it sits down)."""
    table = client.table
    return table.names()[client.seat] if table is not None and client.seat >= 0 else ""

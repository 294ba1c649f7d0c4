"""How the tiles hub seats players at tables, and how its waiting tables meet the hall's lobby.

The tile protocol answers a ``join`` at once with ``joined`` (a table and a seat), so a waiting
tile table, not a single player, is what the lobby shows: every waiting table of 2–8 seats
has one open seek in :class:`~herna.hall.lobby.Lobby` (``hall.lobby``), owned by the player
who opened the table, with the table's :class:`~herna.hall.lobby.Want` and
``holder=table``. Whoever sits down later *accepts* that seek, so the lobby's one set of rules
(:meth:`Lobby.check_open`: a challenge takes only its target, people-only only people, one's
own seek nobody) decides who may sit at which table, for players over TCP, over the web
hall's WebSocket and from the lobby page alike.

A ``join`` may carry the seek (``"seek": "person,opponent=bots,level=goal"``, the words of
:func:`~herna.hall.lobby.parse_seek`; a **[Herna extension]**):

* ``opponent=bots`` (and ``level``): house bots of that level take the other seats at once;
* ``opponent=anyone`` and ``fill=SECONDS``: others may sit down; house bots take the seats
  still free after the fill wait (0: at once);
* ``opponent=people``: only people (play pages) sit down; ``start`` fills the rest;
* ``challenge=NAME``: only NAME may sit down; ``accept=SEEK``: sit down at that open table.

A join without one (a seed client) sits at any waiting table of the same rules that takes it,
or opens a table that waits as the seed describes (``start``, or ``--tiles-lobby-wait``).
"""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING, Any

from herna.core.clock import Clock
from herna.games.tiles.bots import STRATEGIES, TilesBot
from herna.games.tiles.rules import Rules, RulesReport, rules_key, shipped_name, shipped_rules
from herna.hall.identity import Identity, Refusal
from herna.hall.lobby import (
    ANYONE,
    BOT,
    BOTS,
    CANCELLED,
    CLOSED,
    HALL_CLOSED,
    NO_SUCH_SEEK,
    PEOPLE,
    PERSON,
    Lobby,
    LobbyError,
    Seek,
    SeekSpec,
    Want,
    parse_seek,
)
from herna.hall.records import RecordStore
from herna.protocols import tiles as proto
from herna.servers.deadlines import LoginDeadlines
from herna.servers.tiles.checker import RulesChecker
from herna.servers.tiles.names import NameBook
from herna.servers.tiles.tables import Client, Elsewhere, SeatSlot, Table, TilesSettings

log = logging.getLogger("herna.tiles")

GAME = "tiles"

LEVELS = STRATEGIES
"""The house bots' levels a seek may name (the tile bots' strategies)."""
SEEK_CANCELLED = "SEEK_CANCELLED"
MAX_PROBLEMS_SENT = 100
"""Problems of a refused rules object sent in ``BAD_RULES`` (``herna rules check`` lists all)."""


def house_bot_name(seat: int) -> str:
    """The name of the house bot in ``seat`` (0-based): ``house-1`` … ``house-16``."""
    return f"house-{seat + 1}"


class TableSeating:
    """The hub's seating and its waiting tables' seeks (a mix-in of ``TilesHub``)."""

    if TYPE_CHECKING:
        tables: dict[str, Table]
        settings: TilesSettings
        identity: Identity
        names: NameBook[Client]
        deadlines: LoginDeadlines[Client]
        clock: Clock
        records: RecordStore | None
        lobby: Lobby
        closing: bool
        _house_tokens: dict[str, str]
        _table_ids: int

        def _error(
            self, client: Client, code: str, reason: str, request_id: Any = None, **extra: Any
        ) -> None: ...

        def _may_use_name(self, client: Client, msg: proto.Join) -> bool: ...

        def _resume(self, client: Client, msg: proto.Join) -> None: ...

        def _begin(self, table: Table) -> None: ...

        def _bot(self, rules: Rules, strategy: str | None = None) -> TilesBot: ...

        def _leave(self, client: Client, gone: bool = False) -> None: ...

        def _forget_offer(self, client: Client, reason: str) -> None: ...

        _clients: set[Client]
        rules_checker: RulesChecker
        elsewhere: Elsewhere | None

        def shipped(self, name: str) -> Rules | None: ...

        def _wait_for_tournament(
            self,
            client: Client,
            msg: proto.Join,
            rules: Rules | None,
            want: Want,
            person: bool,
            verified: bool,
        ) -> None: ...

        def _tournament_seek_closed(self, seek: Seek, why: str) -> bool: ...

    # -- sitting down ------------------------------------------------------------------------
    @staticmethod
    def seeking(client: Client) -> bool:
        """Whether ``client`` sits at a table still waiting for players (the web hall holds
        such a play page's connection for a reload, :mod:`herna.web.play`)."""
        table = client.table
        return table is not None and table.status == "waiting"

    def _join(self, client: Client, msg: proto.Join) -> None:
        self._forget_offer(client, "left")  # a rematch offer ends when its player moves on
        if msg.lang is not None:
            client.conn.lang = msg.lang  # the story (``said``) in this language from now on
        elsewhere = self.elsewhere
        if msg.secret is not None and elsewhere is not None and elsewhere.resume(client, msg):
            return  # its game runs in a worker: the connection went there
        if client.checking:
            self._error(client, "BUSY", "your last rules file is still being checked", msg.id)
            return
        if not self._may_use_name(client, msg):
            return
        if isinstance(msg.rules, dict):
            # Custom rules are checked off the event loop (see herna.servers.tiles.checker);
            # the login clock does not run meanwhile, it starts afresh if they are refused.
            client.checking = True
            waiting = self.deadlines.waiting(client)
            self.deadlines.done(client)
            if not self.rules_checker.check(
                msg.rules, lambda report: self._rules_checked(client, msg, report, waiting)
            ):
                client.checking = False
                if waiting:
                    self.deadlines.start(client)
                self._error(
                    client, "BUSY", "too many rules files are being checked; try again", msg.id
                )
            return
        rules: Rules | None = None
        if isinstance(msg.rules, str):
            rules = self.shipped(msg.rules)
            if rules is None:
                self._error(
                    client,
                    "UNKNOWN_RULES",
                    f"no rules file named {msg.rules!r}; "
                    f"known: {', '.join(sorted(shipped_rules()))}",
                    msg.id,
                )
                return
        self._seat(client, msg, rules)

    def _rules_checked(
        self, client: Client, msg: proto.Join, report: RulesReport | None, waiting: bool
    ) -> None:
        """The check of ``msg``'s rules is over (``waiting``: the client had not logged in)."""
        client.checking = False
        if client not in self._clients or self.closing or client.table is not None:
            return
        if report is None:
            self._error(client, "BUSY", "the rules could not be checked now; try again", msg.id)
        elif report.rules is None:
            self._error(
                client,
                "BAD_RULES",
                f"the rules have {len(report.errors)} error(s)",
                msg.id,
                problems=[p.to_json() for p in report.problems[:MAX_PROBLEMS_SENT]],
            )
        else:
            rules = report.rules
            named = shipped_name(msg.rules)
            if named is not None:  # a shipped file sent whole keeps its name in the record
                rules = dataclasses.replace(rules, name=named)
            self._seat(client, msg, rules)
        if waiting and client.table is None and client in self._clients:
            self.deadlines.start(client)  # not seated after all: a fresh login clock

    def _seat(self, client: Client, msg: proto.Join, rules: Rules | None) -> None:
        """Seat ``client`` at the table ``msg`` names or accepts, or at a waiting table of
        ``rules`` that takes it, or at a new one."""
        if not self._may_use_name(client, msg):
            return  # asked again: someone may have taken the name while the rules were checked
        if msg.secret is not None:
            self._resume(client, msg)
            return
        if self.lobby.closed is not None:
            # The hall takes no new games: a seat taken back (above) finishes its game, but
            # nobody sits down for a new one.
            self._error(client, CLOSED, self.lobby.closed, msg.id)
            return
        try:
            spec = parse_seek(msg.seek, LEVELS) if msg.seek else None
        except LobbyError as exc:
            self._error(client, exc.code, exc.reason, msg.id)
            return
        person = spec is not None and spec.person
        kind = PERSON if person else BOT
        want = spec.want if spec is not None else None
        if want is not None and want.tournament is not None:
            admission = self.names.check(client, msg.name, msg.token)
            verified = not isinstance(admission, Refusal) and admission.verified
            self._wait_for_tournament(client, msg, rules, want, person, verified)
            return
        table: Table | None
        if want is not None and want.accept is not None:
            table = self._accepted(client, msg, want.accept, kind, rules)
        elif msg.table is not None:
            table = self._named(client, msg, kind, rules)
        else:
            assert rules is not None
            table = self._waiting_table(msg.name, kind, rules, spec)
            if table is None:
                table = self._open_table(client, msg, kind, rules, spec)
        if table is None:
            return
        if msg.name in table.names():
            self._error(
                client, "NAME_TAKEN", f"someone at table {table.id} is called {msg.name!r}", msg.id
            )
            return
        seat = table.seats.index(None)
        table.seats[seat] = SeatSlot(msg.name, msg.kind, client, person=person)
        client.table, client.seat = table, seat
        self.names.claim(client, msg.name)
        self.deadlines.done(client)
        client.send(self._joined(table, seat, msg.id))
        log.info("%s joined table %s (%s) as seat %d", msg.name, table.id, table.rules.name, seat)
        self._send_table(table)
        if None not in table.seats:
            self._begin(table)
        else:
            self._wait_or_fill(table)

    def _joined(self, table: Table, seat: int, request_id: Any = None) -> dict[str, Any]:
        """The ``joined`` answer for the player in ``seat``."""
        slot = table.seats[seat]
        assert slot is not None
        reply: dict[str, Any] = {
            "type": "joined",
            "table": table.id,
            "seat": seat,
            "name": slot.name,
            "rules_name": table.rules.name,
            "rules": table.rules.data,
            "seats": table.seats_json(),
            "house_bots": self.settings.house_bots,
        }
        if table.seek is not None:
            reply["seek"] = table.seek.id
        if table.tournament is not None:
            reply["tournament"] = table.tournament
        if request_id is not None:
            reply["id"] = request_id
        return reply

    def _accepted(
        self, client: Client, msg: proto.Join, seek_id: str, kind: str, rules: Rules | None
    ) -> Table | None:
        """The waiting table whose seek ``msg`` accepts, if it takes this player."""
        table = next((t for t in self.tables.values() if t.seek and t.seek.id == seek_id), None)
        if table is None:
            self._error(client, NO_SUCH_SEEK, f"no open tile table with seek {seek_id!r}", msg.id)
            return None
        return self._may_sit(client, msg, table, rules, kind)

    def _named(
        self, client: Client, msg: proto.Join, kind: str, rules: Rules | None
    ) -> Table | None:
        """The table ``msg`` names by id (the seed's way), if it takes this player."""
        table = self.tables.get(msg.table or "")
        if table is None or table.showcase:
            self._error(client, "NO_SUCH_TABLE", f"no table {msg.table!r}", msg.id)
            return None
        return self._may_sit(client, msg, table, rules, kind)

    def _may_sit(
        self, client: Client, msg: proto.Join, table: Table, rules: Rules | None, kind: str
    ) -> Table | None:
        """``table`` if ``msg``'s player may sit down there: its seek takes them (the lobby's
        rules), it waits, plays the same rules and has a free seat."""
        if table.seek is not None and table.status == "waiting":
            try:
                self.lobby.check_open(GAME, msg.name, kind, Want(accept=table.seek.id))
            except LobbyError as exc:
                self._error(client, exc.code, exc.reason, msg.id)
                return None
        if table.status != "waiting":
            self._error(client, "TABLE_STARTED", f"table {table.id} has started", msg.id)
            return None
        if rules is not None and rules_key(rules.data) != table.key:
            self._error(
                client,
                "RULES_MISMATCH",
                f"table {table.id} plays other rules ({table.rules.name})",
                msg.id,
            )
            return None
        if None not in table.seats:
            self._error(client, "TABLE_FULL", f"table {table.id} is full", msg.id)
            return None
        return table

    def _waiting_table(
        self, name: str, kind: str, rules: Rules, spec: SeekSpec | None
    ) -> Table | None:
        """A waiting table of ``rules`` that takes this player and that this player's own
        seek takes: none for a seek of house bots or a challenge (they open their own)."""
        want = spec.want if spec is not None else None
        if want is not None and (want.opponent == BOTS or want.challenge is not None):
            return None
        key = rules_key(rules.data)
        for table in self.tables.values():
            if (
                table.status != "waiting"
                or table.showcase
                or table.key != key
                or None not in table.seats
                or name in table.names()
            ):
                continue
            people = all(s.person for s in table.seats if s is not None)
            if want is not None and want.opponent == PEOPLE and not people:
                continue
            if table.seek is not None:
                try:
                    self.lobby.check_open(GAME, name, kind, Want(accept=table.seek.id))
                except LobbyError:
                    continue
            return table
        return None

    def _open_table(
        self, client: Client, msg: proto.Join, kind: str, rules: Rules, spec: SeekSpec | None
    ) -> Table | None:
        """A new waiting table for ``msg``'s player, with its seek in the hall's lobby."""
        table = self._new_table(rules)
        seats = len(table.seats)
        table.want = spec.want if spec is not None else None
        if 2 <= seats <= 8 and not (table.want is not None and table.want.opponent == BOTS):
            shown = table.want or Want(fill=self.settings.lobby_wait)
            try:
                table.seek = self.lobby.open(
                    GAME,
                    msg.name,
                    kind,
                    dataclasses.replace(shown, seats=seats),
                    table,
                    self.clock.now(),
                    rules=rules.name,
                )
            except LobbyError as exc:
                del self.tables[table.id]
                self._error(client, exc.code, exc.reason, msg.id)
                return None
        return table

    def _new_table(self, rules: Rules, showcase: bool = False) -> Table:
        # Numbered by the records' journal when there is one, so that a restart (even after
        # kill -9) never hands out a table id that a stored game already has.
        if self.records is not None:
            self._table_ids = self.records.allocate("tiles.table", self._table_ids)
        else:
            self._table_ids += 1
        table = Table(f"t{self._table_ids}", rules, [None] * len(rules.players), showcase)
        self.tables[table.id] = table
        return table

    def _send_table(self, table: Table) -> None:
        message = {
            "type": "table",
            "table": table.id,
            "rules_name": table.rules.name,
            "status": table.status,
            "seats": table.seats_json(),
        }
        for _, client in table.clients():
            client.send(message)

    # -- filling and starting ----------------------------------------------------------------
    def _wait_or_fill(self, table: Table) -> None:
        """After a player sat down at a table with free seats: start it with house bots now,
        or when its fill wait ends (the seek's, else the server's lobby wait), or wait."""
        if not self.settings.house_bots or table.timer is not None:
            return
        want = table.want
        if want is None:
            wait = self.settings.lobby_wait
            if wait <= 0:
                return  # the seed's way: until every seat is taken, or ``start``
        elif want.opponent == BOTS:
            wait = 0.0
        elif want.opponent == ANYONE and want.challenge is None:
            wait = want.fill
        else:
            return  # people only, or a challenge: until they come, or ``start``
        if wait <= 0:
            self._fill_with_bots(table)
            self._begin(table)
        else:
            table.timer = self.clock.call_later(wait, lambda: self._lobby_expired(table))

    def _lobby_expired(self, table: Table) -> None:
        table.timer = None
        if table.status == "waiting" and self.tables.get(table.id) is table:
            self._fill_with_bots(table)
            self._begin(table)

    def _fill_with_bots(self, table: Table) -> None:
        level = table.want.level if table.want is not None else None
        for seat, slot in enumerate(table.seats):
            if slot is None:
                name = house_bot_name(seat)
                # The house bot proves its name like any client; nobody else can hold it.
                admitted = self.identity.admit(name, self._house_tokens.get(name))
                if isinstance(admitted, Refusal) or not admitted.house:
                    raise RuntimeError(f"house bot name {name!r} is not the house's: {admitted}")
                table.seats[seat] = SeatSlot(name, "house-bot", None, self._bot(table.rules, level))

    def _start_request(self, client: Client, msg: proto.Start) -> None:
        table = client.table
        if table is None or table.status != "waiting":
            self._error(client, "WRONG_PHASE", "no table waiting to start", msg.id)
            return
        empty = table.seats.count(None)
        if empty and not self.settings.house_bots:
            self._error(
                client,
                "NOT_ENOUGH_PLAYERS",
                f"{empty} seat(s) are empty and this "
                "server runs no house bots; wait for more players",
                msg.id,
            )
            return
        self._fill_with_bots(table)
        self._begin(table)

    # -- the table's seek ----------------------------------------------------------------------
    def _seek_seated(self, table: Table) -> None:
        """The table starts: its seek leaves the lobby."""
        seek, table.seek = table.seek, None
        if seek is not None and seek.open:
            self.lobby.seated([seek])

    def _seek_after_leaving(self, table: Table, name: str) -> None:
        """``name`` left the waiting ``table``: with nobody left the seek goes; when its owner
        left, the seek passes to the first player still seated (same want)."""
        seek = table.seek
        if seek is None or not seek.open:
            return
        if not table.clients():
            table.seek = None
            self.lobby.withdraw(seek)
            return
        if seek.key != name.casefold():
            return
        heir = next(s for s in table.seats if s is not None and s.client is not None)
        self.lobby.withdraw(seek)
        try:
            table.seek = self.lobby.open(
                GAME,
                heir.name,
                PERSON if heir.person else BOT,
                seek.want,
                table,
                self.clock.now(),
                rules=seek.rules,
            )
        except LobbyError:  # e.g. a challenge to the new owner itself: no seek then
            table.seek = None

    def _seek_closed(self, seek: Seek, why: str) -> None:
        """The lobby closed a table's seek (its owner cancelled it on the lobby page): the
        waiting table is given up; everyone at it is told and is back in the lobby phase."""
        if self._tournament_seek_closed(seek, why):
            return
        if why not in (CANCELLED, HALL_CLOSED):
            return
        table = seek.holder if isinstance(seek.holder, Table) else None
        if table is None or table.seek is not seek or table.status != "waiting":
            return
        table.seek = None
        if why == HALL_CLOSED:
            self.give_up(table, CLOSED, self.lobby.closed or "the hall takes no new games")
        else:
            self.give_up(table, SEEK_CANCELLED, f"the seek of table {table.id} was cancelled")

    def give_up(self, table: Table, code: str, reason: str) -> None:
        """A waiting table that will not start: everyone at it is told why (``code``) and is
        back in the lobby phase, and the table goes."""
        table.cancel_timer()
        for _, client in table.clients():
            self._error(client, code, reason)
            self._leave(client)
            client.send({"type": "left"})
        if self.tables.get(table.id) is table:
            del self.tables[table.id]

    def _withdraw_seeks(self) -> None:
        for table in self.tables.values():
            if table.seek is not None and table.seek.open:
                self.lobby.withdraw(table.seek)
            table.seek = None


__all__ = ["GAME", "LEVELS", "SEEK_CANCELLED", "TableSeating", "house_bot_name"]

"""Live tournaments: held inside a running hall (``herna serve``) between entrants who come
over the game's own protocol — bot programs, house bots, people at a play page — instead of
programs that ``herna tournament run`` starts itself.

The life of one:

1. **Created** (the web hall's ``/tournaments/new``, or :meth:`LiveTournaments.create`) with a
   format, who it admits (anyone, bots, people) and an **admin token** made by :mod:`secrets`
   and shown once; the hall keeps only its digest. Whoever holds the token starts or stops it.
2. **Entry** (status ``entry``): an entrant joins by waiting in the game server's lobby with
   the seek word ``tournament=ID`` (Onitama: ``LOGIN|name|token|tournament=ID``; the play page
   does it for a signed-in person). Only a **proven name** may do so — a reserved name's token
   (``herna bots add``) or the proof the web hall issues to a signed-in person — so nobody can
   play in an entrant's seat; the lobby checks that (:meth:`herna.hall.lobby.Lobby.check_open`)
   and asks this desk (:meth:`LiveTournaments.admit`), which enters the name on its first
   arrival.
3. **Running**: the entrants at the start are the field. The shared
   :class:`~herna.hall.tournament_runner.Runner` pairs them (round robin, Swiss, arena); each
   board is **booked** in the hall's lobby (:meth:`~herna.hall.lobby.Lobby.book`), which hands
   the entrants' waiting seeks to the game server as its next group in seat order. The game
   server stays the one authority: it plays the game as any other, tags its record and events
   with the board, and the director reads the result from the ``game_over`` event. An entrant
   who is not waiting when its board is due has ``--start-timeout`` seconds to come; then the
   board is decided ``no-show`` (those present win). In an arena only entrants who are waiting
   are paired.
4. **Finished** (or aborted by the admin, or by the process stopping): the entrants still
   waiting are told the tournament is over, and the standings stay in the database like every
   tournament's.

Games: Onitama, the tile games and mariáš, whose servers book tournament games, and Mia, a
session at its table (:data:`LIVE_GAMES`). A game server that can seat a house bot as an
entrant says so in :attr:`LiveTournaments.house_seats`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from herna.hall.events import EventBus, GameEvent, Subscription
from herna.hall.identity import (
    Identity,
    NameTaken,
    new_secret,
    same_secret,
    token_digest,
    valid_name,
)
from herna.hall.lobby import (
    HOUSE_BOT,
    NO_SUCH_TOURNAMENT,
    NOT_ENTERED,
    NOT_FOR_YOU,
    PERSON,
    TOURNAMENT_OVER,
    WRONG_GAME,
    Lobby,
    LobbyError,
    name_key,
)
from herna.hall.tournament import FORMATS, Board, Game, no_show
from herna.hall.tournament_results import board_over, decided, duplicate_seats, summed
from herna.hall.tournament_runner import Resume, Runner, RunOptions
from herna.hall.tournament_store import Entrant, Tournament, TournamentStore
from herna.hall.tournament_timetable import (
    MAX_PAUSE,
    Timetable,
    now,
    read_time,
    sleep_until,
)

log = logging.getLogger("herna.tournament")

LIVE_GAMES = ("onitama", "tiles", "marias", "mia")
"""Games whose server books tournament games (mariáš: a CGML group of ``deals`` games; Mia:
a session at its one table)."""
LIVE_FORMATS = FORMATS
SESSION = "session"
TICK = 1.0
"""Seconds between a Mia session's scoreboard updates."""
ANYONE, BOTS, PEOPLE = "anyone", "bots", "people"
ADMITS = (ANYONE, BOTS, PEOPLE)
ENTRY, RUNNING, FINISHED, ABORTED = "entry", "running", "finished", "aborted"
ENTRY_ORDER, BY_RATING = "entry", "rating"
SEEDINGS = (ENTRY_ORDER, BY_RATING)
MAX_ENTRANTS = 256
POLL = 0.1
START_RETRY = 5.0
"""Seconds between tries to start a tournament whose start time came with too few entrants."""
"""Seconds between tries to book a board whose entrants are not all waiting."""


HouseSeat = Callable[[str, str, str], None]
"""A game server's way to seat a house bot entrant: (name, level, seek words)."""
SessionPoints = Callable[[], dict[str, int]]
"""A Mia table's points of every player at it who proved its name."""


HOLDER = {"host": socket.gethostname(), "pid": os.getpid()}
"""The process that holds a live tournament (written with it, for :meth:`orphans`)."""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # somebody else's process: alive
    return True


class TournamentError(Exception):
    """A request the director refuses (in English, for the page or the CLI)."""


@dataclass(frozen=True)
class LiveOptions:
    name: str
    game: str
    format: str
    admits: str = ANYONE
    rounds: int | None = None
    """Swiss: rounds (default from the field's size)."""
    cycles: int = 1
    """Round robin: times each pair meets."""
    duration: float = 600.0
    """Arena: seconds during which new games start."""
    start_timeout: float = 60.0
    """Seconds an entrant has to be waiting once its board is due (then: no-show)."""
    house: tuple[str, ...] = ()
    """Levels of the house bots the hall enters (one bot per level given)."""
    rules: str | None = None
    """Tiles: the shipped rules file every table plays."""
    deals: int = 3
    """Mariáš: games a table (a CGML group) plays; 3 lets each seat deal once."""
    duplicate: bool = False
    """Mariáš: each table is a duplicate deal, played once in each seating turned a seat on
    (a group each, of ``deals`` 1), the same cards dealt from the same seat every time
    (``<newgroup deal="duplicate">``), so each entrant holds each hand once (forhont,
    prostřední, zadák)."""
    seats: int = 2
    """Seats at a table (tiles: the rules file's players)."""
    seeding: str = ENTRY_ORDER
    """The order the field is paired in from the start (a round robin's schedule, Swiss round
    1): ``entry`` (the entry list's order, then as the others entered) or ``rating`` (the
    OpenSkill ordinal in the game, best first; the unrated after, in entry order)."""
    starts_at: str | None = None
    """When it starts by itself (ISO 8601, UTC); ``None``: when the admin starts it."""
    pause: float = 0.0
    """Seconds between the end of a round and the start of the next (a timetable)."""

    def check(self) -> None:
        if self.game not in LIVE_GAMES:
            raise TournamentError(
                f"live tournaments are held for {', '.join(LIVE_GAMES)}; "
                "use 'herna tournament run' for the other games"
            )
        if self.format not in LIVE_FORMATS:
            raise TournamentError(f"the format is one of {', '.join(LIVE_FORMATS)}")
        if (self.game == "mia") != (self.format == SESSION):
            raise TournamentError("Mia is played as a session, and a session is a Mia evening")
        if self.game == "onitama" and self.seats != 2:
            raise TournamentError("Onitama is played by two")
        if self.game == "marias" and self.seats != 3:
            raise TournamentError("mariáš is played by three")
        if not 1 <= self.deals <= 20:
            raise TournamentError("a mariáš table plays 1 to 20 deals")
        if self.duplicate and (self.game != "marias" or self.deals != 1):
            raise TournamentError("a duplicate deal is a mariáš table's one deal")
        if self.game == "tiles" and not self.rules:
            raise TournamentError("a tile tournament names its rules file")
        if not 2 <= self.seats <= 8:
            raise TournamentError("a table has 2 to 8 seats")
        if self.admits not in ADMITS:
            raise TournamentError(f"a tournament admits one of {', '.join(ADMITS)}")
        if not self.name.strip() or len(self.name) > 100:
            raise TournamentError("a tournament's name is 1 to 100 characters")
        if self.rounds is not None and not 1 <= self.rounds <= 50:
            raise TournamentError("rounds are 1 to 50")
        if not 1 <= self.cycles <= 10:
            raise TournamentError("cycles are 1 to 10")
        if not 10 <= self.duration <= 86_400:
            raise TournamentError("an arena lasts 10 seconds to a day")
        if not 1 <= self.start_timeout <= 3600:
            raise TournamentError("the start timeout is 1 second to an hour")
        if len(self.house) > 16:
            raise TournamentError("at most 16 house bots")
        if self.seeding not in SEEDINGS:
            raise TournamentError(f"seeding is one of {', '.join(SEEDINGS)}")
        if self.house and self.admits == PEOPLE:
            raise TournamentError("a tournament for people only takes no house bots")
        if not 0 <= self.pause <= MAX_PAUSE:
            raise TournamentError("the pause between rounds is at most an hour")
        if self.starts_at is not None and read_time(self.starts_at) is None:
            raise TournamentError("the start time is a date and time")


@dataclass
class Held:
    """One live tournament of this process."""

    id: int
    options: LiveOptions
    admin_digest: str
    status: str = ENTRY
    entrants: dict[str, Entrant] = field(default_factory=dict)
    """By name key, in the order they entered."""
    runner: Runner | None = None
    task: asyncio.Task[None] | None = None
    elapsed: float = 0.0
    """A session taken up after a restart: seconds of it played before."""
    order: list[str] = field(default_factory=list)
    """The field in its seeding order, fixed at the start (kept, so a restart pairs alike)."""
    starter: asyncio.Task[None] | None = None
    """Waits for a scheduled start (``options.starts_at``)."""


class LiveTournaments:
    """The director of a hall's live tournaments, and the lobby's tournament desk."""

    def __init__(
        self,
        lobby: Lobby,
        bus: EventBus,
        store: TournamentStore,
        flush: Callable[[], None] = lambda: None,
        identity: Identity | None = None,
    ) -> None:
        self.lobby = lobby
        self.identity = identity
        """The hall's names: an entry list reserves the names nobody has yet."""
        self.bus = bus
        self.store = store
        self.flush = flush
        """Waits until every record submitted so far is stored (a session's first and last
        round are found by match id)."""
        self.held: dict[int, Held] = {}
        self._results: dict[str, asyncio.Future[GameEvent]] = {}
        self._sub: Subscription | None = None
        self._reader: asyncio.Task[None] | None = None
        self.house_seats: dict[str, HouseSeat] = {}
        """Per game, how its server seats a house bot entrant (set by the game server)."""
        self.sessions: dict[str, SessionPoints] = {}
        """Per game played as a session (Mia), its table's points of proven players."""
        lobby.desk = self

    def take_over_orphans(self) -> tuple[list[int], list[int]]:
        """Take up the live tournaments a stopped process of this host left taking entrants or
        running (a restart of ``herna serve``, or ``kill -9``): each goes on here from where
        its records stand, its decided games counted and the board under way played again.
        One written by a Herna that did not keep its options cannot be taken up and is marked
        aborted. Those of live processes, and of other hosts sharing a PostgreSQL database,
        are left be. Call it once the game servers run (house bots are seated again).
        Returns (taken up, aborted)."""
        taken, aborted = [], []
        for tour in self.store.recent(1000):
            holder = tour.settings.get("holder") or {}
            if not (
                tour.status in (ENTRY, RUNNING)
                and tour.settings.get("live")
                and holder.get("host") == HOLDER["host"]
                and isinstance(holder.get("pid"), int)
                and holder["pid"] != HOLDER["pid"]
                and not _alive(holder["pid"])
            ):
                continue
            try:
                whole = self.store.get(tour.id)  # with its games
                assert whole is not None
                self._take_up(whole)
                taken.append(tour.id)
            except (KeyError, TypeError, ValueError, TournamentError) as exc:
                log.warning("tournament %d cannot be taken up (%s): marked aborted", tour.id, exc)
                self.store.finish(tour.id, ABORTED)
                aborted.append(tour.id)
        if taken:
            log.warning("live tournaments %s of a stopped process go on here", taken)
        return taken, aborted

    def _take_up(self, tour: Tournament) -> None:
        options = _options_from(tour.settings["options"])
        options.check()
        held = Held(tour.id, options, str(tour.settings["admin_digest"]), tour.status)
        held.entrants = {name_key(e.name): e for e in tour.entrants}
        held.order = [str(n) for n in tour.settings.get("order") or []]
        self.store.update_settings(tour.id, holder=HOLDER)
        self.held[tour.id] = held
        seat = self.house_seats.get(options.game)
        for i, level in enumerate(options.house, 1):
            if seat is None:
                raise TournamentError(f"this hall seats no house bots for {options.game}")
            seat(f"house-{level}-t{tour.id}-{i}", level, f"tournament={tour.id}")
        if tour.status != RUNNING:
            log.info("tournament %d takes entrants again (%d entered)", tour.id, len(tour.entrants))
            self._schedule(held)
            return
        started = tour.started_at or tour.created_at
        elapsed = max(0.0, (_utcnow() - started).total_seconds())
        if options.format == SESSION:
            if options.game not in self.sessions:
                raise TournamentError(f"no {options.game} table runs in this hall")
            held.elapsed = elapsed
        else:
            self._listen()
            planned = tour.settings.get("pairings") or {}
            pairings = {
                int(n): [Board(int(n), i, tuple(seats)) for i, seats in enumerate(boards, 1)]
                for n, boards in planned.items()
            }
            resume = Resume(tour.games, pairings, elapsed)
            held.runner = self._runner(held, resume, tour.settings.get("timetable"))
        held.status = RUNNING
        held.task = asyncio.create_task(self._run(held), name=f"tournament-{held.id}")
        log.info(
            "tournament %d goes on: %d games on record, the ones under way are played again",
            tour.id,
            len([g for g in tour.games if not g.board.bye]),
        )

    # -- the desk (called by the lobby for every tournament seek) ------------------------------
    def admit(self, game: str, tournament: str, owner: str, kind: str) -> None:
        held = self._held(tournament)
        if held.options.game != game:
            raise LobbyError(WRONG_GAME, f"tournament {held.id} is played at {held.options.game}")
        if held.status not in (ENTRY, RUNNING):
            raise LobbyError(TOURNAMENT_OVER, f"tournament {held.id} is over")
        key = name_key(owner)
        listed = held.entrants.get(key)
        if listed is not None:
            if kind == PERSON and listed.kind != PERSON:
                # A pupil who claimed a listed name at sign-up comes as the person they are.
                held.entrants[key] = dataclasses.replace(listed, kind=PERSON)
                self.store.set_entrant_kind(held.id, listed.name, PERSON)
            return
        if held.status != ENTRY:
            raise LobbyError(
                NOT_ENTERED, f"tournament {held.id} has started; only its entrants play in it"
            )
        person = kind == PERSON
        if (held.options.admits == BOTS and person) or (
            held.options.admits == PEOPLE and not person
        ):
            raise LobbyError(NOT_FOR_YOU, f"tournament {held.id} admits {held.options.admits} only")
        if len(held.entrants) >= MAX_ENTRANTS:
            raise LobbyError(NOT_FOR_YOU, f"tournament {held.id} is full")
        how = "at a play page" if person else f"over the {game} protocol"
        entrant = Entrant(owner, "house-bot" if kind == HOUSE_BOT else kind, f"entered {how}")
        held.entrants[key] = entrant
        self.store.add_entrant(held.id, entrant)
        log.info("tournament %d: %s (%s) entered", held.id, owner, kind)

    def withdraw(self, tournament: str, owner: str) -> None:
        held = self.held.get(int(tournament)) if tournament.isdigit() else None
        if held is None or held.status != ENTRY:
            return
        entrant = held.entrants.pop(name_key(owner), None)
        if entrant is not None:
            self.store.remove_entrant(held.id, entrant.name)
            log.info("tournament %d: %s withdrew", held.id, entrant.name)

    # -- the organiser's entry list ------------------------------------------------------------
    def pre_enter(self, tid: int, names: list[str]) -> dict[str, str]:
        """Enter the names of an entry list now, before anyone connects (a teacher's class
        list). A name nobody has yet is reserved for its entrant, and its token is returned
        (shown only now, like every token); a name already reserved, a signed-up person's,
        is entered without one: its owner plays with what they have. Returns each name with
        its new token, or ``""``. Raises :class:`TournamentError` for a bad list."""
        held = self.held.get(tid)
        if held is None or held.status != ENTRY:
            raise TournamentError(f"tournament {tid} is not taking entrants")
        if held.options.format == SESSION:
            raise TournamentError("a Mia session has no entry list: the table is the field")
        listed = list(dict.fromkeys(n.strip() for n in names if n.strip()))
        bad = [n for n in listed if not valid_name(n)]
        if bad:
            raise TournamentError(
                f"not a name every protocol can carry: {bad[0]!r} (1-64 characters, no "
                "spaces or ; | < > & quotes)"
            )
        if len(held.entrants) + len(listed) > MAX_ENTRANTS:
            raise TournamentError(f"a tournament takes at most {MAX_ENTRANTS} entrants")
        identity = self.identity
        book = identity.book if identity is not None else None
        if identity is None or book is None:
            raise TournamentError("this hall keeps no book of names: entry lists need one")
        for name in listed:
            if identity.is_house_bot(name) or name.startswith("house-"):
                raise TournamentError(f"{name!r} is a house bot's name")
        people = self.store.people_among(listed)
        tokens: dict[str, str] = {}
        for name in listed:
            token = ""
            if identity.reserved_spelling(name) is None:
                try:
                    token = book.add(name, note=f"entrant of tournament {tid}")
                except NameTaken:
                    token = ""  # reserved meanwhile: its owner has the token
            tokens[name] = token
            if name_key(name) not in held.entrants:
                kind = PERSON if name in people else "bot"
                entrant = Entrant(name, kind, "on the entry list")
                held.entrants[name_key(name)] = entrant
                self.store.add_entrant(tid, entrant)
        identity.reload()
        log.info("tournament %d: %d entrants listed by the organiser", tid, len(listed))
        return tokens

    def remove_entrant(self, tid: int, name: str) -> None:
        """The organiser withdraws an entrant before the start."""
        held = self.held.get(tid)
        if held is None or held.status != ENTRY:
            raise TournamentError(f"tournament {tid} is not taking entrants: too late to withdraw")
        entrant = held.entrants.pop(name_key(name), None)
        if entrant is None:
            raise TournamentError(f"{name!r} has not entered tournament {tid}")
        self.store.remove_entrant(tid, entrant.name)
        log.info("tournament %d: %s withdrawn by the organiser", tid, entrant.name)

    def setting(self, tournament: str, key: str) -> Any:
        held = self.held.get(int(tournament)) if tournament.isdigit() else None
        if held is None:
            return None
        o = held.options
        return {
            "rules": o.rules,
            "seats": o.seats,
            "deals": o.deals,
            "duplicate": o.duplicate,
        }.get(key)

    def _held(self, tournament: str) -> Held:
        held = self.held.get(int(tournament)) if tournament.isdigit() else None
        if held is None:
            raise LobbyError(
                NO_SUCH_TOURNAMENT, f"no live tournament {tournament[:20]!r} in this hall"
            )
        return held

    # -- the admin's requests -----------------------------------------------------------------
    def create(self, options: LiveOptions) -> tuple[int, str]:
        """A new tournament taking entrants; returns its id and the admin token (shown once,
        kept only as a digest)."""
        options.check()
        due = read_time(options.starts_at)
        if due is not None and not 0 < (due - now()).total_seconds() < 366 * 86_400:
            raise TournamentError("the start time is in the coming year")
        seat = self.house_seats.get(options.game)
        if options.house and seat is None:
            raise TournamentError(f"this hall seats no house bots for {options.game}")
        token = new_secret()
        digest = token_digest(token)
        settings = {
            "live": True,
            "holder": HOLDER,
            "admits": options.admits,
            "rounds": options.rounds,
            "cycles": options.cycles,
            "duration": options.duration if options.format == "arena" else None,
            "start_timeout": options.start_timeout,
            "table_size": options.seats,
            "rules": options.rules,
            "admin_digest": digest,
            # Everything it was created with, so that a restarted hall can hold it again.
            "options": _options_json(options),
        }
        tid = self.store.create(
            options.name.strip(), options.game, options.format, [], settings, status=ENTRY
        )
        self.held[tid] = Held(tid, options, digest)
        log.info("tournament %d (%s, %s) takes entrants", tid, options.game, options.format)
        self._schedule(self.held[tid])
        for i, level in enumerate(options.house, 1):
            assert seat is not None
            # A house bot logs in like any entrant (with its house token) and enters itself.
            seat(f"house-{level}-t{tid}-{i}", level, f"tournament={tid}")
        return tid, token

    def authorised(self, tid: int, token: str | None) -> bool:
        held = self.held.get(tid)
        return (
            held is not None
            and token is not None
            and same_secret(token_digest(token), held.admin_digest)
        )

    def waiting(self, tid: int) -> list[str]:
        """Entrants waiting in the lobby for their next game now (a session: the players at
        the table who proved their names)."""
        held = self.held.get(tid)
        if held is None:
            return []
        if held.options.format == SESSION:
            source = self.sessions.get(held.options.game)
            return sorted(source()) if source is not None else []
        seeks = self.lobby.tournament_seeks(held.options.game, str(tid))
        return [e.name for k, e in held.entrants.items() if k in seeks]

    def begin(self, tid: int) -> None:
        """Start pairing the entrants that have entered (needs the event loop)."""
        held = self.held.get(tid)
        if held is None:
            raise TournamentError(f"no live tournament {tid} in this hall")
        if held.status != ENTRY:
            raise TournamentError(f"tournament {tid} is {held.status}")
        if held.options.format == SESSION:
            if held.options.game not in self.sessions:
                raise TournamentError(f"no {held.options.game} table runs in this hall")
            self._started(held)
            return
        size = held.options.seats
        if len(held.entrants) < size:
            raise TournamentError(f"it takes at least {size} entrants; {len(held.entrants)} came")
        self._listen()

        held.order = self._seeded(held)
        held.runner = self._runner(held, Resume())
        self.store.update_settings(
            tid, order=held.order, round_count=held.runner.planned_rounds(), start_note=None
        )
        self._started(held)

    def _schedule(self, held: Held) -> None:
        """A tournament with a start time starts by itself then (needs the event loop)."""
        due = read_time(held.options.starts_at)
        if due is not None and held.status == ENTRY and held.starter is None:
            held.starter = asyncio.get_running_loop().create_task(
                self._start_when_due(held, due), name=f"tournament-{held.id}-start"
            )

    async def _start_when_due(self, held: Held, due: datetime) -> None:
        await sleep_until(due)
        while held.status == ENTRY:
            try:
                self.begin(held.id)
            except TournamentError as exc:
                # Too few came: it starts as soon as enough have entered (or the admin aborts).
                note = f"{exc}; it starts as soon as enough have entered"
                self.store.update_settings(held.id, start_note=note)
                await asyncio.sleep(START_RETRY)
            else:
                log.info("tournament %d started at its start time", held.id)

    def _seeded(self, held: Held) -> list[str]:
        names = [e.name for e in held.entrants.values()]
        if held.options.seeding != BY_RATING:
            return names
        ordinal = self.store.ordinals(held.options.game, names)
        rated = sorted((n for n in names if n in ordinal), key=lambda n: -ordinal[n])
        return rated + [n for n in names if n not in ordinal]

    def _runner(self, held: Held, resume: Resume, timetable: Any = None) -> Runner:
        o, tid = held.options, held.id
        names = held.order or [e.name for e in held.entrants.values()]
        run_options = RunOptions(o.game, o.format, o.seats, o.rounds, o.cycles, o.duration, 10_000)
        pairings = {n: [list(b.seats) for b in boards] for n, boards in resume.pairings.items()}

        def paired(number: int, boards: list[Board]) -> None:
            pairings[number] = [list(b.seats) for b in boards]
            self.store.update_settings(tid, pairings={str(n): p for n, p in pairings.items()})

        async def play(board: Board, serial: int) -> Game:
            return await self._play(held, board)

        def ready(name: str) -> bool:
            return name_key(name) in self.lobby.tournament_seeks(o.game, str(tid))

        resume.on_paired = paired
        rounds = Timetable(self.store, tid, o.pause, timetable)
        return Runner(
            self.store, tid, names, run_options, play, ready=ready, resume=resume, rounds=rounds
        )

    def _started(self, held: Held) -> None:
        held.status = RUNNING
        self.store.set_status(held.id, RUNNING)
        held.task = asyncio.create_task(self._run(held), name=f"tournament-{held.id}")
        if held.options.format == SESSION:
            # A session has no entry list: whoever proves its name at the table takes part.
            log.info(
                "tournament %d started: a %s session of %s; every player at the table who "
                "proves its name takes part",
                held.id,
                held.options.game,
                _duration(held.options.duration),
            )
        else:
            log.info("tournament %d started with %d entrants", held.id, len(held.entrants))

    def abort(self, tid: int) -> None:
        held = self.held.get(tid)
        if held is None or held.status not in (ENTRY, RUNNING):
            raise TournamentError(f"tournament {tid} is not taking entrants or running")
        for task in (held.task, held.starter):
            if task is not None:
                task.cancel()
        self._end(held, ABORTED)

    async def stop(self) -> None:
        """The hall stops: tournaments still going are held over, as they stand in the
        database, for the next start of the hall to take up (:meth:`take_over_orphans`)."""
        for held in list(self.held.values()):
            if held.status in (ENTRY, RUNNING):
                log.info(
                    "tournament %d is held over (%s): it goes on when the hall starts again",
                    held.id,
                    held.status,
                )
            for task in (held.task, held.starter):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
            self._reader = None
        if self._sub is not None:
            self._sub.close()
            self._sub = None

    # -- playing -------------------------------------------------------------------------------
    async def _run(self, held: Held) -> None:
        try:
            if held.runner is not None:
                await held.runner.run()
            else:
                await self._session(held)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("tournament %d stopped by a bug", held.id)
            self._end(held, ABORTED)
            return
        self._end(held, FINISHED)

    async def _session(self, held: Held) -> None:
        """A Mia session: for its duration, every player at the table who proved its name is
        an entrant, scored by the points it makes meanwhile (written every second)."""
        source = self.sessions[held.options.game]
        tour = self.store.get(held.id)
        settings = tour.settings if tour is not None else {}
        # Taken up after a restart: the points made before it are kept and added to.
        carried = {str(n): int(v) for n, v in (settings.get("scores") or {}).items()}
        before = settings.get("session_from")
        if not isinstance(before, int):
            await asyncio.to_thread(self.flush)
            before = self.store.last_match_id(held.options.game)
            self.store.update_settings(held.id, session_from=before)
        start: dict[str, int] = {}
        scores = dict(carried)
        end = time.monotonic() + held.options.duration - held.elapsed
        while True:
            for name, points in source().items():
                if name not in start:
                    start[name] = points - carried.get(name, 0)
                    if name_key(name) not in held.entrants:
                        kind = "house-bot" if name.startswith("house-") else "bot"
                        entrant = Entrant(name, kind, "at the Mia table")
                        held.entrants[name_key(name)] = entrant
                        self.store.add_entrant(held.id, entrant)
                scores[name] = points - start[name]
            self.store.update_settings(held.id, scores=scores)
            left = end - time.monotonic()
            if left <= 0:
                break
            await asyncio.sleep(min(TICK, left))
        await asyncio.to_thread(self.flush)
        after = self.store.last_match_id(held.options.game)
        if after > before:
            self.store.update_settings(held.id, first_match=before + 1, last_match=after)

    def _end(self, held: Held, status: str) -> None:
        if held.status in (FINISHED, ABORTED):
            return
        held.status = status
        self.store.finish(held.id, status)
        self.lobby.close_tournament(held.options.game, str(held.id))
        log.info("tournament %d %s with %d entrants", held.id, status, len(held.entrants))

    async def _play(self, held: Held, board: Board) -> Game:
        if not held.options.duplicate:
            return await self._seated(held, board, board.seats)
        # A duplicate deal: one group a seating, each from a fresh wait in the lobby (a bot
        # remembers nothing of the cards it saw), with the same cards dealt from the same
        # seat (the server's, by the board's tag): every entrant holds every hand once.
        games = []
        for seats in duplicate_seats(board):
            game = await self._seated(held, board, seats)
            games.append(game)
            if game.forfeit is not None:
                break
        return summed(board, games)

    async def _seated(self, held: Held, board: Board, seats: tuple[str, ...]) -> Game:
        """Book ``board`` with its entrants in ``seats`` and wait for its end."""
        game = held.options.game
        tag = f"{held.id}/{board.round}.{board.number}"
        result: asyncio.Future[GameEvent] = asyncio.get_running_loop().create_future()
        self._results[tag] = result
        deadline = time.monotonic() + held.options.start_timeout
        seated = Board(board.round, board.number, seats)
        try:
            while not self.lobby.book(game, str(held.id), seats, tag):
                if time.monotonic() >= deadline:
                    here = self.lobby.tournament_seeks(game, str(held.id))
                    present = [n for n in seats if name_key(n) in here]
                    log.info("tournament %d board %s: no-show, present %s", held.id, tag, present)
                    return no_show(seated, present)
                await asyncio.sleep(POLL)
            event = await result
        finally:
            self._results.pop(tag, None)
        return decided(seated, event)

    def _listen(self) -> None:
        if self._reader is None:
            self._sub = self.bus.subscribe(board_over)
            self._reader = asyncio.create_task(self._read(self._sub), name="tournament-results")

    async def _read(self, sub: Subscription) -> None:
        async for event in sub:
            future = self._results.get(str(event.data["tournament"]))
            if future is not None and not future.done():
                future.set_result(event)


def _duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return (
        f"{minutes} min {rest} s"
        if minutes and rest
        else f"{minutes} min"
        if minutes
        else f"{rest} s"
    )


def _options_json(options: LiveOptions) -> dict[str, Any]:
    data = dataclasses.asdict(options)
    data["house"] = list(options.house)
    return data


def _options_from(data: Any) -> LiveOptions:
    """The options :func:`_options_json` kept (raises ``TypeError``/``ValueError`` when they
    are not such options)."""
    if not isinstance(data, dict):
        raise TypeError("no options kept")
    known = {f.name for f in dataclasses.fields(LiveOptions)}
    fields = {k: v for k, v in data.items() if k in known}
    fields["house"] = tuple(str(level) for level in fields.get("house") or ())
    return LiveOptions(**fields)


def _utcnow() -> datetime:
    return datetime.now(UTC)

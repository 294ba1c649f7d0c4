"""The hall's lobby: seeks and challenges for every game, paired by one set of rules.

A **seek** is one player's wish for a game, made by a connection that has been admitted by
:class:`~herna.hall.identity.Identity` already: *who* (``owner``, and the ``kind`` of player:
a person at a play page, a bot over the network, a house bot of the server), *what* (a
:class:`Want`: the opponents it takes — anyone, people only, or house bots of a level —, the
number of seats, a named opponent for a challenge, or the id of the seek it accepts) and a
**fill wait**: after that many seconds house bots may take the free seats (0: at once).

The lobby holds no connections and does no I/O. Game servers ask it:

* :meth:`Lobby.open` — a seek for a connection (``holder`` is whatever the server uses to
  recognise that connection); :meth:`Lobby.check_open` says beforehand whether it would be
  refused (the web hall's ``/ws/lobby`` asks this before sending a person to a play page);
* :meth:`Lobby.next_group` — the oldest group of seeks that want each other, or None;
  the server starts the game, then calls :meth:`Lobby.seated` with the group;
* :meth:`Lobby.due` — open seeks whose fill wait has passed and that nobody pairs with:
  the server seats house bots for them (and marks them with :meth:`Lobby.summoned`);
* :meth:`Lobby.drop` — the connection is gone: its seeks die with it;
* :meth:`Lobby.cancel` — the owner withdraws a seek; servers learn it through
  :meth:`Lobby.listen` (so a play page's seek cancelled from the lobby page ends its wait).

**Tournament seeks** (``tournament=ID``) say "I am here for my games of tournament ID". They
never pair by themselves: the tournament's director (:mod:`herna.hall.tournament.live`, the
lobby's :attr:`Lobby.desk`) decides who meets whom and :meth:`Lobby.book` hands that group, in
seat order, to the game server as its next group. Opening one needs a name proven with its
token (``verified``) and the desk's consent, so nobody can sit in an entrant's seat.

Every change is published as a ``GameEvent("lobby", <game>, "seek_opened" | "seek_closed",
{"seek": …, "why": …})`` on the lobby's own :class:`~herna.hall.events.EventBus` (the hall
makes it: ``hall.lobby.bus``), which the lobby page (``/ws/lobby``) shows live. It is a bus of
its own, not the games' one, so spectators of games (``/live``, ``herna watch``, match
runners) never see seeks as if they were tables.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from herna.hall.events import EventBus

ANYONE = "anyone"
PEOPLE = "people"
BOTS = "bots"
OPPONENTS = (ANYONE, PEOPLE, BOTS)

PERSON = "person"
BOT = "bot"
HOUSE_BOT = "house-bot"
KINDS = (PERSON, BOT, HOUSE_BOT)

LOBBY_GAME = "lobby"
"""The ``game`` of the lobby's events on the bus (their ``table`` is the seek's game)."""

MAX_FILL_WAIT = 3600.0

# Error codes (the lobby page and the game protocols show them with the English reason).
NO_SUCH_SEEK = "NO_SUCH_SEEK"
NOT_YOURS = "NOT_YOURS"
NOT_FOR_YOU = "NOT_FOR_YOU"
OWN_SEEK = "OWN_SEEK"
BAD_SEEK = "BAD_SEEK"
WRONG_GAME = "WRONG_GAME"
NO_SUCH_TOURNAMENT = "NO_SUCH_TOURNAMENT"
NOT_ENTERED = "NOT_ENTERED"
NOT_VERIFIED = "NOT_VERIFIED"
TOURNAMENT_OVER = "TOURNAMENT_OVER"
CLOSED = "CLOSED"
"""The hall takes no new games (:meth:`Lobby.close_for_new_games`); the reason says why."""

CANCELLED = "cancelled"
GONE = "gone"
SEATED = "seated"
ENDED = "ended"
DECLINED = "declined"
"""Why a challenge closed when the player it named said no (:meth:`Lobby.decline`)."""
"""Why a tournament seek closed when its tournament ended (:meth:`Lobby.close_tournament`)."""
HALL_CLOSED = "closed"
"""Why a seek closed when the hall stopped taking new games (:meth:`Lobby.close_for_new_games`)."""


class LobbyError(Exception):
    """A seek the lobby refuses, with a code and an English reason; nothing changed."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


def name_key(name: str) -> str:
    """Names are the same regardless of case, as in every Herna protocol."""
    return name.casefold()


@dataclass(frozen=True)
class Want:
    """What a seek takes as opponents."""

    opponent: str = ANYONE
    """:data:`ANYONE`, :data:`PEOPLE` (only people at play pages) or :data:`BOTS` (house
    bots of :attr:`level`, seated at once)."""
    level: str | None = None
    """The house bots' level with :data:`BOTS` (the game's own level names); None: the
    server's default."""
    seats: int = 2
    """Players in the game, the owner included."""
    fill: float = 0.0
    """Seconds after which house bots fill the free seats of an :data:`ANYONE` seek
    (0: at once, as every seed client gets)."""
    challenge: str | None = None
    """A challenge: only this player may sit down with the owner."""
    accept: str | None = None
    """The id of the open seek this one accepts (it pairs with that one only)."""
    tournament: str | None = None
    """The id of the tournament whose games the owner is here for: such a seek pairs only
    when the tournament books it (:meth:`Lobby.book`)."""
    again: bool = True
    """After its game the player waits with this seek again, paired by the server at once
    (what the seeds describe for network clients). False (the word ``once``): one game, then
    the player waits for nothing until it asks for the next one itself (a person at a play
    page or a terminal, who reads the result first)."""
    clock: str | None = None
    """A game clock with an increment chosen when the table is opened, ``MINUTES+SECONDS``
    (``5+3``: five minutes each, three seconds more after each move); None: the server's own
    clock (a clock per move for people). Seeks with different clocks are not paired."""

    def check(self) -> None:
        if self.opponent not in OPPONENTS:
            raise LobbyError(BAD_SEEK, f"opponents are one of {', '.join(OPPONENTS)}")
        if not 2 <= self.seats <= 8:
            raise LobbyError(BAD_SEEK, "a game has 2 to 8 seats")
        if not 0 <= self.fill <= MAX_FILL_WAIT:  # also refuses NaN
            raise LobbyError(BAD_SEEK, f"the fill wait is 0 to {MAX_FILL_WAIT:g} seconds")
        if self.challenge is not None and self.accept is not None:
            raise LobbyError(BAD_SEEK, "a seek either challenges a player or accepts a seek")
        if self.opponent == BOTS and (self.challenge or self.accept):
            raise LobbyError(BAD_SEEK, "a seek for house bots names no opponent")
        if self.clock is not None:
            parse_clock(self.clock)
        if self.tournament is not None and (
            self.challenge or self.accept or self.opponent != ANYONE
        ):
            raise LobbyError(BAD_SEEK, "a tournament seek names no opponents: the pairings do")


@dataclass(eq=False)
class Seek:
    id: str
    game: str
    owner: str
    kind: str
    want: Want
    holder: object = field(repr=False)
    created: float
    open: bool = True
    summoned: bool = False
    """House bots were asked to fill it (see :meth:`Lobby.summoned`)."""
    checked: bool = field(default=False, repr=False)
    """Compared with every other open seek without finding a group (see
    :meth:`Lobby.next_group`)."""
    ripe: bool = field(default=False, repr=False)
    """Its fill wait was over when it was checked."""
    booking: Booking | None = None
    """The tournament game it is booked for (:meth:`Lobby.book`)."""
    rules: str | None = None
    """The rules its table is played by, for a game of several (a tile table's rules file):
    the lobby shows them to whoever considers taking the seat."""

    @property
    def key(self) -> str:
        return name_key(self.owner)

    def to_json(self) -> dict[str, Any]:
        want = self.want
        return {
            "id": self.id,
            "game": self.game,
            "owner": self.owner,
            "kind": self.kind,
            "opponent": want.opponent,
            "level": want.level,
            "seats": want.seats,
            "fill": want.fill,
            "challenge": want.challenge,
            "accept": want.accept,
            "tournament": want.tournament,
            "rules": self.rules,
            "created": self.created,
        }


def fill_words(want: Want) -> str:
    """What becomes of a seek's empty seats, in words: ``house bots fill them after 30 s``,
    ``house bots fill them at once``, ``no house bots fill them``."""
    if want.opponent == BOTS:
        return "house bots fill them at once"
    if want.opponent != ANYONE or want.challenge or want.accept or want.tournament:
        return "no house bots fill them"
    if want.fill <= 0:
        return "house bots fill them at once"
    return f"house bots fill them after {want.fill:g} s"


def waited_words(seconds: float) -> str:
    """``12 s``, ``2 min``, ``1 h 5 min``: how long a seek has waited."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes = seconds // 60
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60} min"


@dataclass(frozen=True)
class Booking:
    """A tournament game the director asked for: ``tag`` names it (it travels into the
    game's record and events), ``seat`` is this seek's seat at it (0: White, first to act)."""

    tournament: str
    tag: str
    seat: int


class TournamentDesk(Protocol):
    """Who may open a seek for a tournament (the director of live tournaments)."""

    def admit(self, game: str, tournament: str, owner: str, kind: str) -> None:
        """Raise :class:`LobbyError` when ``owner`` (a proven name) may not play in it."""
        ...

    def setting(self, tournament: str, key: str) -> Any:
        """One of the tournament's settings (a tile tournament's ``rules``), or None."""
        ...

    def withdraw(self, tournament: str, owner: str) -> None:
        """``owner`` said it leaves before the tournament started: it is no entrant any
        more (once started, leaving changes nothing: its boards are no-shows)."""
        ...


Listener = Callable[[Seek, str], None]
"""Called with a seek that closed otherwise than by :meth:`Lobby.seated` and why."""


class Lobby:
    """Open seeks of every game; pure (the caller passes ``now``)."""

    def __init__(self, bus: EventBus | None = None) -> None:
        self.bus = bus if bus is not None else EventBus()
        self.seeks: dict[str, Seek] = {}
        """Open seeks by id, oldest first."""
        self._ids = itertools.count(1)
        self._listeners: dict[str, Listener] = {}
        self._pairers: dict[str, Callable[[], None]] = {}
        self._booked: dict[str, list[list[Seek]]] = {}
        self.paired = 0
        self.desk: TournamentDesk | None = None
        """Admits tournament seeks (set by the live tournaments' director)."""
        self.closed: str | None = None
        """Why the hall takes no new games (one English sentence), or None while it does:
        every game server asks this one place (:meth:`close_for_new_games`)."""

    # -- questions ----------------------------------------------------------------------------
    def open_seeks(self, game: str | None = None) -> list[Seek]:
        # A copy first: the web hall's pages read this from a worker thread.
        return [s for s in list(self.seeks.values()) if game is None or s.game == game]

    def snapshot(self, game: str | None = None, now: float | None = None) -> list[dict[str, Any]]:
        """The open seeks as JSON; given ``now`` (the clock the seeks were opened by), each
        says how long it has waited in words instead of its clock reading ``created``, and
        its fill wait in words (:func:`fill_words`) (the Status page shows this)."""
        open_seeks = self.open_seeks(game)
        if now is None:
            return [s.to_json() for s in open_seeks]
        return [
            {
                **{k: v for k, v in seek.to_json().items() if k != "created"},
                "fill": fill_words(seek.want),
                "waiting": waited_words(now - seek.created),
            }
            for seek in open_seeks
        ]

    def check_open(
        self, game: str, owner: str, kind: str, want: Want, verified: bool = False
    ) -> None:
        """Raise :class:`LobbyError` when :meth:`open` would refuse this seek. ``verified``:
        the owner proved the name (a reserved name's token, or a proof the hall issued to a
        signed-in person); a tournament seek needs it."""
        if self.closed is not None:
            raise LobbyError(CLOSED, self.closed)
        want.check()
        if kind not in KINDS:
            raise LobbyError(BAD_SEEK, f"a player is one of {', '.join(KINDS)}")
        if want.tournament is not None:
            if not verified:
                raise LobbyError(
                    NOT_VERIFIED,
                    "tournament games are played under a name proven with its token "
                    "(herna bots add) or by signing in, so nobody else can take the seat",
                )
            if self.desk is None:
                raise LobbyError(NO_SUCH_TOURNAMENT, f"no tournament {want.tournament!r} here")
            self.desk.admit(game, want.tournament, owner, kind)
        if want.challenge is not None and name_key(want.challenge) == name_key(owner):
            raise LobbyError(OWN_SEEK, "you cannot challenge yourself")
        if want.accept is not None:
            target = self.seeks.get(want.accept)
            if target is None:
                raise LobbyError(NO_SUCH_SEEK, f"no open seek {want.accept!r}")
            if target.game != game:
                raise LobbyError(WRONG_GAME, f"seek {target.id} is for {target.game}")
            if target.key == name_key(owner):
                raise LobbyError(OWN_SEEK, "that is your own seek")
            if not _takes(target, owner, kind, answering=True):
                whom = target.want.challenge or target.want.opponent
                raise LobbyError(NOT_FOR_YOU, f"seek {target.id} of {target.owner} is for {whom}")

    # -- changes ------------------------------------------------------------------------------
    def open(
        self,
        game: str,
        owner: str,
        kind: str,
        want: Want,
        holder: object,
        now: float,
        verified: bool = False,
        rules: str | None = None,
    ) -> Seek:
        """A new open seek (see :meth:`check_open` for what is refused); ``rules``: what its
        table is played by (:attr:`Seek.rules`)."""
        self.check_open(game, owner, kind, want, verified)
        seek = Seek(f"s{next(self._ids)}", game, owner, kind, want, holder, now, rules=rules)
        self.seeks[seek.id] = seek
        self._emit(seek, "seek_opened", "")
        return seek

    def cancel(self, seek_id: str, by: str) -> Seek:
        """The owner withdraws a seek (anybody else: :data:`NOT_YOURS`)."""
        seek = self.seeks.get(seek_id)
        if seek is None:
            raise LobbyError(NO_SUCH_SEEK, f"no open seek {seek_id!r}")
        if seek.key != name_key(by):
            raise LobbyError(NOT_YOURS, f"seek {seek.id} is {seek.owner}'s, not yours")
        self._close(seek, CANCELLED)
        return seek

    def decline(self, seek_id: str, by: str) -> Seek:
        """The player a challenge names says no (a rematch declined); anybody else:
        :data:`NOT_FOR_YOU`. The server ends the challenger's wait and tells it why."""
        seek = self.seeks.get(seek_id)
        if seek is None:
            raise LobbyError(NO_SUCH_SEEK, f"no open seek {seek_id!r}")
        target = seek.want.challenge
        if target is None or name_key(target) != name_key(by):
            raise LobbyError(NOT_FOR_YOU, f"seek {seek.id} is not a challenge to you")
        self._close(seek, DECLINED)
        return seek

    def drop(self, holder: object) -> list[Seek]:
        """The connection ``holder`` is gone: its seeks die with it."""
        dead = [s for s in self.seeks.values() if s.holder is holder]
        for seek in dead:
            self._close(seek, GONE)
        return dead

    def withdraw(self, seek: Seek) -> None:
        """The server takes a seek back without a game (its player changed its mind)."""
        if seek.open:
            self._close(seek, CANCELLED, tell=False)

    def seated(self, group: Iterable[Seek]) -> None:
        """The server started a game for ``group`` (from :meth:`next_group`)."""
        for seek in group:
            if seek.open:
                self._close(seek, SEATED, tell=False)
        self.paired += 1

    def summoned(self, seek: Seek) -> None:
        seek.summoned = True

    def listening(self, game: str) -> bool:
        """Whether a server of ``game`` uses this lobby already."""
        return game in self._listeners

    def listen(self, game: str, listener: Listener, pair: Callable[[], None] | None = None) -> None:
        """One game server hears of its seeks closed by the lobby (cancelled by the owner
        elsewhere, or dropped); ``pair`` asks it to start the groups that are ready now
        (:meth:`book` calls it)."""
        self._listeners[game] = listener
        if pair is not None:
            self._pairers[game] = pair

    def close_for_new_games(self, reason: str) -> None:
        """The hall takes no new games from now on (its database is gone, say): games in
        progress finish, but no seek is opened, paired, booked or filled with house bots, and
        the open ones close (their servers hear :data:`HALL_CLOSED` and tell their
        connections in their protocol's words, code :data:`CLOSED`). There is no reopening:
        a restart is what brings the hall back."""
        if self.closed is not None:
            return
        self.closed = reason
        self._booked.clear()
        for seek in self.open_seeks():
            self._close(seek, HALL_CLOSED)

    # -- tournaments --------------------------------------------------------------------------
    def tournament_seeks(self, game: str, tournament: str) -> dict[str, Seek]:
        """The open, unbooked seeks of a tournament's entrants, by name key."""
        return {
            s.key: s
            for s in self.open_seeks(game)
            if s.want.tournament == tournament and s.booking is None
        }

    def close_tournament(self, game: str, tournament: str) -> None:
        """The tournament is over: its seeks close, and their servers hear :data:`ENDED`."""
        for seek in self.open_seeks(game):
            if seek.want.tournament == tournament:
                self._close(seek, ENDED)

    def book(self, game: str, tournament: str, names: Sequence[str], tag: str) -> bool:
        """The tournament's next game: ``names`` in seat order. When all of them wait with a
        seek for this tournament, their group becomes the game server's next one and the
        server is asked to start it; True when it did (the seeks are seated)."""
        if self.closed is not None:
            return False
        here = self.tournament_seeks(game, tournament)
        group = [here.get(name_key(n)) for n in names]
        if any(s is None for s in group) or len({s.key for s in group if s}) != len(names):
            return False
        seeks = [s for s in group if s is not None]
        for seat, seek in enumerate(seeks):
            seek.booking = Booking(tournament, tag, seat)
        self._booked.setdefault(game, []).append(seeks)
        pair = self._pairers.get(game)
        if pair is not None:
            pair()
        if all(not s.open for s in seeks):
            return True
        # Not started (the server is closing, or a seat went meanwhile): free the others.
        self._booked[game] = [g for g in self._booked.get(game, []) if g is not seeks]
        for seek in seeks:
            seek.booking = None
        return False

    # -- pairing ------------------------------------------------------------------------------
    def next_group(self, game: str, now: float) -> list[Seek] | None:
        """The oldest seek's group: seeks of ``game`` that all take each other, as many as
        the oldest one's seats, in the order they were made; None when no seek has one."""
        booked = self.next_booked(game)
        if booked is not None:
            return booked
        # Only a new seek, or one whose fill wait ended since it was checked, can make a new
        # group: seeks checked before are skipped, so a login costs O(open seeks), not the
        # square of it (a crowd of challenges to absent players must not slow logins down).
        seeks = self.open_seeks(game)
        for first in seeks:
            ripe = now >= first.created + first.want.fill
            if first.checked and (first.ripe or not ripe):
                continue
            group = [first]
            for other in seeks:
                if other is first or other.want.seats != first.want.seats:
                    continue
                if all(_pair_ok(member, other, now) for member in group):
                    group.append(other)
                    if len(group) == first.want.seats:
                        order = {s.id: i for i, s in enumerate(seeks)}
                        return sorted(group, key=lambda s: order[s.id])
            first.checked = True
            first.ripe = ripe
        return None

    def next_booked(self, game: str) -> list[Seek] | None:
        """The next group a tournament booked (:meth:`book`), in seat order, or None."""
        if self.closed is not None:
            return None
        booked = self._booked.get(game)
        while booked:
            group = booked.pop(0)
            if all(s.open for s in group):
                return group
            for seek in group:
                seek.booking = None
        return None

    def due(self, game: str, now: float) -> list[Seek]:
        """Open seeks whose free seats house bots should take now, oldest first."""
        if self.closed is not None:
            return []
        return [
            s
            for s in self.open_seeks(game)
            if not s.summoned
            and s.kind != HOUSE_BOT
            and s.want.tournament is None
            and _fill_due(s, now)
        ]

    def next_fill(self, game: str) -> float | None:
        """When the next fill wait of ``game`` ends (for the server's timer)."""
        if self.closed is not None:
            return None
        times = [
            s.created + s.want.fill
            for s in self.open_seeks(game)
            if s.want.opponent == ANYONE
            and s.kind != HOUSE_BOT
            and s.want.tournament is None
            and s.want.challenge is None
            and s.want.accept is None
            and not s.summoned
        ]
        return min(times) if times else None

    # -- internals ----------------------------------------------------------------------------
    def _close(self, seek: Seek, why: str, tell: bool = True) -> None:
        seek.open = False
        self.seeks.pop(seek.id, None)
        self._emit(seek, "seek_closed", why)
        listener = self._listeners.get(seek.game)
        if tell and listener is not None:
            listener(seek, why)

    def _emit(self, seek: Seek, kind: str, why: str) -> None:
        self.bus.emit(LOBBY_GAME, seek.game, kind, seek=seek.to_json(), why=why)


@dataclass(frozen=True)
class SeekSpec:
    """A seek as a game protocol carries it (:func:`parse_seek`)."""

    want: Want
    person: bool = False
    """The client is a person at a play page (``people only`` seeks take only these; the
    hall gives people a clock for every decision)."""


def parse_seek(text: str, levels: Iterable[str] = ()) -> SeekSpec:
    """The seek a client sends in one protocol field: comma-separated words, each a flag or
    ``key=value`` — ``person``; ``opponent=anyone|people|bots``; ``level=NAME`` (one of
    ``levels`` when given); ``fill=SECONDS``; ``seats=N``; ``challenge=NAME``;
    ``accept=SEEK_ID``; ``tournament=ID``; ``once`` (no new game after this one until the
    player asks: :attr:`Want.again`); ``clock=MINUTES+SECONDS`` (:attr:`Want.clock`). The
    empty text is the default (anyone, at once).

    >>> parse_seek("person,opponent=bots,level=easy", ["easy"])
    SeekSpec(want=Want(opponent='bots', level='easy', seats=2, fill=0.0, challenge=None, \
accept=None, tournament=None, again=True, clock=None), person=True)
    >>> try:
    ...     parse_seek("fill=ten")
    ... except LobbyError as exc:
    ...     print(exc.reason)
    fill=ten: the fill wait is a number of seconds
    """
    values: dict[str, str] = {}
    person = False
    once = False
    for word in (w.strip() for w in text.split(",")):
        if not word:
            continue
        key, eq, value = word.partition("=")
        key = key.strip().lower()
        if key == "person" and not eq:
            person = True
        elif key == "once" and not eq:
            once = True
        elif eq and key in _SPEC_KEYS and key not in values and value.strip():
            values[key] = value.strip()
        else:
            raise LobbyError(BAD_SEEK, f"{word[:40]}: not a seek word ({', '.join(_SPEC_KEYS)})")
    try:
        fill = float(values.get("fill", "0"))
    except ValueError:
        raise LobbyError(
            BAD_SEEK, f"fill={values['fill'][:20]}: the fill wait is a number of seconds"
        ) from None
    try:
        seats = int(values.get("seats", "2"))
    except ValueError:
        raise LobbyError(BAD_SEEK, "seats is a whole number") from None
    level = values.get("level")
    allowed = list(levels)
    if level is not None and allowed and level not in allowed:
        raise LobbyError(BAD_SEEK, f"level is one of {', '.join(allowed)}")
    want = Want(
        opponent=values.get("opponent", ANYONE),
        level=level,
        seats=seats,
        fill=fill,
        challenge=values.get("challenge"),
        accept=values.get("accept"),
        tournament=values.get("tournament"),
        again=not once,
        clock=values.get("clock"),
    )
    want.check()
    return SeekSpec(want, person)


_SPEC_KEYS = (
    "person",
    "once",
    "opponent",
    "level",
    "fill",
    "seats",
    "challenge",
    "accept",
    "tournament",
    "clock",
)

MAX_CLOCK_MINUTES = 180.0
MAX_INCREMENT = 60.0


def parse_clock(text: str) -> tuple[float, float]:
    """``MINUTES+SECONDS`` as (seconds for the game, seconds added after each move).

    >>> parse_clock("5+3")
    (300.0, 3.0)
    """
    minutes, _, increment = text.partition("+")
    try:
        base, inc = float(minutes), float(increment or "0")
    except ValueError:
        raise LobbyError(
            BAD_SEEK, f"clock={text[:20]}: a clock is MINUTES+SECONDS, e.g. 5+3"
        ) from None
    if not (0 < base <= MAX_CLOCK_MINUTES and 0 <= inc <= MAX_INCREMENT):  # also refuses NaN
        raise LobbyError(
            BAD_SEEK,
            f"clock={text[:20]}: 0 to {MAX_CLOCK_MINUTES:g} minutes, "
            f"plus 0 to {MAX_INCREMENT:g} seconds a move",
        )
    return base * 60.0, inc


def _fill_due(seek: Seek, now: float) -> bool:
    want = seek.want
    if want.challenge is not None or want.accept is not None:
        return False
    if want.opponent == BOTS:
        return True
    return want.opponent == ANYONE and now >= seek.created + want.fill


def _takes(seek: Seek, name: str, kind: str, answering: bool, now: float | None = None) -> bool:
    """Whether ``seek`` takes the player ``name`` of ``kind`` as an opponent; ``answering``:
    that player's seek accepts this one by its id."""
    want = seek.want
    if want.challenge is not None and name_key(want.challenge) != name_key(name):
        return False
    if want.opponent == PEOPLE:
        return kind == PERSON
    if want.challenge is not None:
        return True  # the named player, whatever kind (people only aside)
    if want.opponent == BOTS:
        # Filled by the house bots the server seats for it, which accept it by its id.
        return answering and kind == HOUSE_BOT
    if kind == HOUSE_BOT and not answering:
        # Standing house bots wait until the fill wait is over.
        return now is not None and now >= seek.created + want.fill
    return True


def _pair_ok(a: Seek, b: Seek, now: float) -> bool:
    """Whether the seeks ``a`` and ``b`` take each other."""
    if a.key == b.key or a.game != b.game:
        return False
    if a.want.tournament is not None or b.want.tournament is not None:
        return False  # tournament games are booked (Lobby.book), never paired at random
    if a.want.clock is not None and b.want.clock is not None and a.want.clock != b.want.clock:
        return False  # each asked for its own time control
    if a.want.accept is not None and a.want.accept != b.id:
        return False
    if b.want.accept is not None and b.want.accept != a.id:
        return False
    return _takes(a, b.owner, b.kind, b.want.accept == a.id, now) and _takes(
        b, a.owner, a.kind, a.want.accept == b.id, now
    )

"""The CGML login server's waiting players, shown as seeks in the hall's lobby.

The seed's login server pairs players by itself (:class:`~herna.protocols.cgml.lobby.Lobby`:
``<connect>`` with ``<opponent>`` preferences, bots after the fill wait). :class:`HallSeeks`
keeps one open seek in the hall's :class:`~herna.hall.lobby.Lobby` for each player waiting
there, so a mariáš table in the making is listed on ``/lobby`` beside Onitama and tiles,
and is taken the seed's own way: the player who *accepts* a seek connects with an
``<opponent id="OWNER"/>`` preference (the login server groups them), after the hall's lobby
has said the seek takes that player (:meth:`~herna.hall.lobby.Lobby.check_open`: a challenge
only its target, people only only people).

What a waiting player's preferences look like in the lobby (:func:`want_of`): none — anyone,
house bots after the login server's fill wait; a ``human`` race — people only; a ``bot``
race or a bot server's name — house bots (the server's name as the level); another
player's id or name — a challenge to that player (also when bot servers are named beside it:
a rematch of people and house bots). A challenge the named player declines
(:meth:`~herna.hall.lobby.Lobby.decline`) ends the challenger's connection with
``<error code="DECLINED">``.

The mirror is synchronised after every change of the login server's queue (:meth:`sync`),
so it never keeps a seek for a player who is gone or seated. A seek cancelled on the lobby
page ends that player's connection (``SEEK_CANCELLED``), as on the other game servers.

A player who connects with ``<connect tournament="ID">`` (Herna extension) waits for a live
tournament: its seek is a tournament seek (:mod:`herna.hall.tournament_live`), admitted by
the hall's lobby at connect time (:meth:`HallSeeks.tournament_problem`: a proven id, an
entrant), and the login server groups it only when the tournament books it — the hall's
lobby then hands the booked seeks here and :attr:`HallSeeks.start` forms that group, in seat
order, telling the super game server the board's tag and how many games to play. When the
tournament ends, a waiting player gets ``TOURNAMENT_OVER`` and its connection ends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from herna.hall.lobby import (
    ANYONE,
    BOT,
    BOTS,
    CANCELLED,
    CLOSED,
    DECLINED,
    ENDED,
    HALL_CLOSED,
    NO_SUCH_TOURNAMENT,
    PEOPLE,
    PERSON,
    TOURNAMENT_OVER,
    Lobby,
    LobbyError,
    Seek,
    Want,
)
from herna.protocols.cgml.messages import PlayerRef

GAME = "marias"
SEEK_CANCELLED = "SEEK_CANCELLED"
CHALLENGE_DECLINED = "DECLINED"
"""The ``<error>`` code that ends a challenger's wait when the player it named said no."""


@dataclass(frozen=True)
class Waiting:
    """What the mirror needs of one waiting player of the login server."""

    key: object
    """The player's connection (the seek's holder)."""
    player: PlayerRef
    opponents: tuple[PlayerRef, ...]
    seats: int
    fill: float
    """Seconds before bots may fill its group (its own, or the login server's)."""
    tournament: str | None = None
    """The live tournament it waits for (``<connect tournament>``)."""


def want_of(
    opponents: Iterable[PlayerRef], seats: int, fill: float, bot_servers: Iterable[str]
) -> Want:
    """The lobby's words for a CGML player's ``<opponent>`` preferences."""
    servers = set(bot_servers)
    prefs = list(opponents)
    named = [p for p in prefs if p.id is not None or p.name is not None]
    bots = [p for p in named if (p.id or p.name or "") in servers or p.name in servers]
    people = [p for p in named if p not in bots]
    if people:
        # A player named (a challenge, or a rematch of a table of people and house bots):
        # the table waits for that player, whatever bots fill the rest.
        return Want(challenge=people[0].id or people[0].name, seats=seats)
    if bots:
        return Want(opponent=BOTS, level=bots[0].name or bots[0].id, seats=seats)
    races = {p.race for p in prefs}
    if races == {"human"}:
        return Want(opponent=PEOPLE, seats=seats)
    if races == {"bot"}:
        return Want(opponent=BOTS, seats=seats)
    return Want(opponent=ANYONE, seats=seats, fill=fill)


class HallSeeks:
    """One hall-lobby seek per waiting CGML player (see the module doc)."""

    def __init__(
        self,
        lobby: Lobby,
        cancel: Callable[[object, str, str], None],
        start: Callable[[list[object], str, int | None, bool], bool] | None = None,
    ) -> None:
        self.lobby = lobby
        self.cancel = cancel
        """Ends a connection whose seek closed (cancelled on the lobby page, its tournament
        over): ``(holder, code, reason)``."""
        self.start = start
        """Forms a group a tournament booked: ``(holders in seat order, tag, games)``."""
        self.seeks: dict[object, Seek] = {}
        lobby.listen(GAME, self._closed, self._booked)

    def sync(
        self,
        waiting: Iterable[Waiting],
        grouped: Iterable[object],
        bot_servers: Iterable[str],
        now: float,
    ) -> None:
        """Seeks for exactly the players ``waiting`` now; those of players ``grouped`` (a
        group is being formed for them) are seated, the others' withdrawn."""
        servers = list(bot_servers)
        current = {w.key: w for w in waiting}
        seated = set(grouped)
        for key, seek in list(self.seeks.items()):
            w = current.get(key)
            if w is not None and w.player.id == seek.owner:
                continue
            del self.seeks[key]
            if key in seated:
                self.lobby.seated([seek])
            else:
                self.lobby.withdraw(seek)
        for key, w in current.items():
            if key in self.seeks or not w.player.id:
                continue
            kind = PERSON if w.player.race == "human" else BOT
            try:
                if w.tournament is not None:
                    # Proven and admitted at connect (tournament_problem).
                    want = Want(tournament=w.tournament, seats=w.seats)
                    self.seeks[key] = self.lobby.open(
                        GAME, w.player.id, kind, want, key, now, verified=True
                    )
                    continue
                want = want_of(w.opponents, w.seats, w.fill, servers)
                self.seeks[key] = self.lobby.open(GAME, w.player.id, kind, want, key, now)
            except LobbyError:
                continue  # preferences the lobby cannot show (e.g. seats it does not know)

    def tournament_problem(
        self, pid: str, race: str, tournament: str, verified: bool
    ) -> tuple[str, str] | None:
        """Why ``pid`` may not wait for ``tournament`` (code, reason), or None."""
        kind = PERSON if race == "human" else BOT
        try:
            self.lobby.check_open(GAME, pid, kind, Want(tournament=tournament, seats=3), verified)
        except LobbyError as exc:
            return exc.code, exc.reason
        return None

    def _booked(self) -> None:
        """The hall's lobby has groups a tournament booked: form them."""
        while (group := self.lobby.next_booked(GAME)) is not None:
            booking = group[0].booking
            if self.start is None or booking is None:
                continue
            desk = self.lobby.desk
            games = desk.setting(booking.tournament, "deals") if desk is not None else None
            duplicate = desk is not None and bool(desk.setting(booking.tournament, "duplicate"))
            self.start([s.holder for s in group], booking.tag, games, duplicate)

    def _closed(self, seek: Seek, why: str) -> None:
        closing = (CANCELLED, ENDED, HALL_CLOSED, DECLINED)
        if why not in closing or self.seeks.get(seek.holder) is not seek:
            return
        del self.seeks[seek.holder]
        if why == HALL_CLOSED:
            self.cancel(seek.holder, CLOSED, self.lobby.closed or "the hall takes no new games")
        elif why == ENDED:
            self.cancel(seek.holder, TOURNAMENT_OVER, "the tournament you waited for is over")
        elif why == DECLINED:
            self.cancel(seek.holder, CHALLENGE_DECLINED, f"{seek.want.challenge} said no")
        else:
            self.cancel(seek.holder, SEEK_CANCELLED, "your seek was cancelled in the lobby")

    def close(self) -> None:
        for seek in self.seeks.values():
            self.lobby.withdraw(seek)
        self.seeks.clear()


__all__ = [
    "CHALLENGE_DECLINED",
    "GAME",
    "NO_SUCH_TOURNAMENT",
    "SEEK_CANCELLED",
    "HallSeeks",
    "Waiting",
    "want_of",
]

"""A rematch at a tile table (``{"type": "rematch"}``, a Herna extension): the same rules and
the same players again, each person agreeing, as Onitama's ``REMATCH``.

:class:`Rematches` is the part of :class:`~herna.servers.tiles.hub.TilesHub` that, when a game
ends, remembers its table for a rematch: its rules, its time control and its seats, and the
connection of each player still at it. After ``game_over`` a player sends ``rematch``; every
other player still connected hears ``{"type": "rematch_offered", "name", "waiting_for"}`` and
answers with its own ``rematch`` (accept) or ``decline_rematch``. When every one of them has
asked, a new table starts at once with the same rules and time control, the seats moved round
by one (so that another player begins), house bots of the same level in the other seats;
everyone gets ``joined`` and ``started`` as usual. A table with house bots only besides the
asker starts at once. The offer ends, and everyone who asked hears ``{"type":
"rematch_declined", "name", "reason"}``, when a player declines (``declined``), leaves or joins
another table (``left``), or has not answered within :data:`REMATCH_WAIT` seconds (``no
answer``). A player whose game is not remembered (a tournament board, a game run in a game
worker, a table with a bot that plays over the network or a person who left, an offer that
ended) gets the error ``NO_REMATCH``. Only people are asked (their join's seek said
``person``): a bot client never hears of a rematch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from herna.core.clock import Clock, TimerHandle
from herna.games.tiles.rules import Rules
from herna.hall.lobby import HOUSE_BOT, Want
from herna.protocols import tiles as proto
from herna.servers.tiles.tables import Client, SeatSlot, Table

REMATCH_WAIT = 60.0
"""Seconds the other players have to answer a rematch offer."""
NO_REMATCH = "NO_REMATCH"
DECLINED, LEFT, NO_ANSWER = "declined", "left", "no answer"


@dataclass(eq=False)
class Offer:
    """A finished table that may be played again."""

    table: str
    rules: Rules
    want: Want | None
    seats: list[SeatSlot]
    """The seats as they were (names, kinds; ``client`` for players still connected)."""
    players: dict[int, Client]
    """Seat → connection of each player still at the table when the game ended."""
    accepted: set[int] = field(default_factory=set)
    timer: TimerHandle | None = None


class Rematches:
    """Rematch offers and answers (a mix-in of ``TilesHub``)."""

    if TYPE_CHECKING:
        clock: Clock
        offers: dict[Client, Offer]
        give_back: Any

        def _error(
            self, client: Client, code: str, reason: str, request_id: Any = None, **extra: Any
        ) -> None: ...

        def _new_table(self, rules: Rules, showcase: bool = False) -> Table: ...

        def _joined(self, table: Table, seat: int, request_id: Any = None) -> dict[str, Any]: ...

        def _fill_with_bots(self, table: Table) -> None: ...

        def _begin(self, table: Table) -> None: ...

    def remember_for_rematch(self, table: Table, players: list[tuple[int, Client]]) -> None:
        """A game ended: its table may be played again by the players still at it."""
        if table.showcase or table.tournament is not None or self.give_back is not None:
            return  # a tournament pairs its own boards; a game worker hands players back
        if any(s is None for s in table.seats):
            return
        seats = [s for s in table.seats if s is not None]
        # Only people are asked (a play page, a terminal): a bot over the network never sent
        # this extension and is not told of it; a table with one, or with a person who left,
        # has no rematch.
        people = {seat: c for seat, c in players if seats[seat].person}
        if not people or any(s.kind != HOUSE_BOT and i not in people for i, s in enumerate(seats)):
            return
        offer = Offer(table.id, table.rules, table.want, seats, people)
        for client in people.values():
            self._forget_offer(client, LEFT)
            self.offers[client] = offer

    def _rematch(self, client: Client, msg: proto.Rematch) -> None:
        offer = self.offers.get(client)
        if offer is None:
            self._error(client, NO_REMATCH, "there is no game to play again", msg.id)
            return
        seat = next(s for s, c in offer.players.items() if c is client)
        offer.accepted.add(seat)
        waiting = [s for s in offer.players if s not in offer.accepted]
        if not waiting:
            self._play_again(offer)
            return
        message = {
            "type": "rematch_offered",
            "table": offer.table,
            "name": offer.seats[seat].name,
            "waiting_for": [offer.seats[s].name for s in waiting],
        }
        for other in offer.players.values():
            other.send(message)
        if offer.timer is None:
            offer.timer = self.clock.call_later(REMATCH_WAIT, lambda: self._no_answer(offer))

    def _decline_rematch(self, client: Client, msg: proto.DeclineRematch) -> None:
        self._forget_offer(client, DECLINED)

    def _forget_offer(self, client: Client, reason: str) -> None:
        """``client`` is out of its rematch offer (declined, left, joined elsewhere): the
        offer ends for everyone."""
        offer = self.offers.pop(client, None)
        if offer is None:
            return
        seat = next(s for s, c in offer.players.items() if c is client)
        self._end_offer(offer, [offer.seats[seat].name], reason)

    def _no_answer(self, offer: Offer) -> None:
        offer.timer = None
        if any(self.offers.get(c) is offer for c in offer.players.values()):
            late = [offer.seats[s].name for s in offer.players if s not in offer.accepted]
            self._end_offer(offer, late, NO_ANSWER)

    def _end_offer(self, offer: Offer, names: list[str], reason: str) -> None:
        if offer.timer is not None:
            offer.timer.cancel()
            offer.timer = None
        message = {
            "type": "rematch_declined",
            "table": offer.table,
            "name": " and ".join(names),
            "reason": reason,
        }
        for other in offer.players.values():
            if self.offers.get(other) is offer:
                del self.offers[other]
            if other.table is None and other.seat == -1 and other.conn.phase == "lobby":
                other.send(message)

    def _play_again(self, offer: Offer) -> None:
        """Everyone agreed: the same rules and time control at a new table, seats moved round
        by one, house bots of the same level in the other seats."""
        if offer.timer is not None:
            offer.timer.cancel()
        for player in offer.players.values():
            self.offers.pop(player, None)
        table = self._new_table(offer.rules)
        table.want = offer.want
        order = [*range(1, len(offer.seats)), 0]
        for seat, old in enumerate(order):
            was = offer.seats[old]
            client = offer.players.get(old)
            if client is not None:
                table.seats[seat] = SeatSlot(was.name, was.kind, client, person=was.person)
                client.table, client.seat = table, seat
                client.send(self._joined(table, seat))
        self._fill_with_bots(table)  # the house bots' seats, and any player's who left
        self._begin(table)


__all__ = ["NO_REMATCH", "REMATCH_WAIT", "Offer", "Rematches"]

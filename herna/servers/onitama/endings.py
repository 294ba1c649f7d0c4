"""How an Onitama game ends besides the board, and what follows it (Herna extensions).

:class:`GameEndings` is the part of :class:`~herna.servers.onitama.hub.OnitamaHub` that
answers, in a game, ``RESIGN`` (the player loses at once: ``GAME_OVER|winner|resigned``) and
the draw offer (``OFFER_DRAW``, ``ACCEPT_DRAW``, ``DECLINE_DRAW``; an agreed draw is
``GAME_OVER||draw_agreed``), and, after a game on a seat that the lobby does not pair again by
itself (seek word ``once``, :attr:`~herna.hall.lobby.Want.again`), ``REMATCH``,
``DECLINE_REMATCH`` and ``PLAY_AGAIN``. The server is the one authority: the play page and the
terminal only send these lines.

A draw needs both players: an offer goes to the opponent as ``DRAW_OFFERED|name`` only when
it reads Herna's extension lines (it sent LOGIN's fourth field, or it is a house bot);
otherwise it is declined at once (``DRAW_DECLINED|name``). An offer stands until the opponent
answers or moves (a move declines it). A player may offer once per position.

A rematch goes through the hall's lobby like every other game: ``REMATCH`` opens a challenge
seek for the last opponent (who hears ``REMATCH_OFFERED|name``); the opponent's own
``REMATCH`` opens the answering challenge and the lobby pairs the two. The colours are
swapped. Against a house bot that left after its game (one seated for one person's seek) the
seek asks for a house bot of the same level again, under the same name; a house bot still
waiting in the lobby is challenged like anyone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from herna.games.onitama.state import Action
from herna.hall.lobby import BOTS, HOUSE_BOT, Want
from herna.protocols import onitama as proto
from herna.protocols.onitama import fmt
from herna.servers.onitama.tables import Client, LastGame, OnitamaSettings, Player, Table

if TYPE_CHECKING:
    from herna.hall.match import Match


def hears_extensions(player: Player) -> bool:
    """Whether ``player`` is told Herna's extension lines (the lobby's, draws, rematches)."""
    client = player.client
    if client is None or client.conn.out.name != "line":
        return False
    return player.aware or player.kind == HOUSE_BOT


def tell(player: Player, line: bytes) -> None:
    if hears_extensions(player) and player.client is not None:
        player.client.send(line)


class GameEndings:
    """Resign, draw offers, rematch and play again (a mix-in of ``OnitamaHub``)."""

    if TYPE_CHECKING:
        players: dict[str, Player]
        rematches: dict[str, set[Player]]
        settings: OnitamaSettings
        bot_names: dict[str, str]

        def _table_of(self, client: Client) -> tuple[Player, Table] | None: ...

        def forfeit(
            self,
            table: Table,
            seat: int,
            reason: str | None,
            ended: str | None = None,
            claimed: bool = False,
        ) -> None: ...

        def _finish(self, table: Table, extra: dict[str, Any] | None = None) -> None: ...

        def _enqueue(
            self, player: Player, again: bool = False, want: Want | None = None
        ) -> None: ...

        def _unseek(self, player: Player) -> None: ...

        def emit_table(self, table: Table, kind: str, **data: Any) -> None: ...

    # -- in a game ------------------------------------------------------------------------------
    def _game_request(self, client: Client, msg: proto.GameRequest) -> None:
        found = self._table_of(client)
        if found is None:
            return
        player, table = found
        seat = player.seat
        if msg.command == "RESIGN":
            self.forfeit(table, seat, proto.RESIGNED)
        elif msg.command == "OFFER_DRAW":
            self._offer_draw(client, table, seat)
        elif table.draw_offer != 1 - seat:
            client.send(fmt.error(proto.NO_DRAW_OFFER))
        elif msg.command == "ACCEPT_DRAW":
            self._agree_draw(table)
        else:
            self.decline_draw(table, seat)

    def _offer_draw(self, client: Client, table: Table, seat: int) -> None:
        if table.draw_offer == 1 - seat:
            self._agree_draw(table)  # both offered: that is an agreement
            return
        ply = table.state.ply
        if table.draw_offer == seat or table.offered_at[seat] == ply:
            client.send(fmt.error(proto.DRAW_NOT_NOW))
            return
        table.offered_at[seat] = ply
        me, opponent = table.players[seat], table.players[1 - seat]
        table.match.note("draw_offered", name=me.name, player=seat)
        if not hears_extensions(opponent):
            # It cannot answer (a seed client, or away): as good as declined.
            tell(me, fmt.draw_declined(opponent.name))
            return
        table.draw_offer = seat
        tell(opponent, fmt.draw_offered(me.name))

    def decline_draw(self, table: Table, seat: int) -> None:
        """``seat`` declines the open offer of its opponent (by saying so, or by moving)."""
        if table.draw_offer != 1 - seat:
            return
        table.draw_offer = None
        name = table.players[seat].name
        table.match.note("draw_declined", name=name, player=seat)
        tell(table.players[1 - seat], fmt.draw_declined(name))

    def _agree_draw(self, table: Table) -> None:
        table.draw_offer = None
        match: Match[Action] = table.match
        match.state = table.state.agree_draw()
        match.note("draw_agreed")
        self._finish(table)

    # -- after a game ---------------------------------------------------------------------------
    def _after_game(self, client: Client, msg: proto.AfterGameRequest) -> None:
        player = client.player
        if player is None:
            return
        if player.seek is not None and msg.command != "DECLINE_REMATCH":
            client.send(fmt.error(proto.ALREADY_WAITING))
            return
        if msg.command == "PLAY_AGAIN":
            self._drop_rematch(player)
            self._enqueue(player, again=True)
        elif msg.command == "REMATCH":
            self._rematch(player)
        else:
            self._decline_rematch(player)

    def _opponent_of(self, player: Player) -> Player | None:
        last = player.last_game
        if last is None:
            return None
        return self.players.get(proto.name_key(last.opponent))

    def _rematch(self, player: Player) -> None:
        last = player.last_game
        client = player.client
        assert client is not None
        if last is None:
            client.send(fmt.error(proto.NO_REMATCH))
            return
        opponent = self._opponent_of(player)
        player.rematch = (proto.name_key(last.opponent), 1 - last.seat)
        self.rematches.setdefault(player.rematch[0], set()).add(player)
        if opponent is None and last.opponent_kind == HOUSE_BOT:
            # The house bot seated for this person's seek left after its game: the same
            # level again, under the same name.
            want = Want(opponent=BOTS, level=last.level, again=False, clock=last.clock)
            self._enqueue(player, want=want)
            if player.seek is not None:
                self.bot_names[player.seek.id] = last.opponent
            return
        if opponent is None or opponent.client is None or opponent.table is not None:
            self._forget_rematch(player)
            tell(player, fmt.rematch_declined(last.opponent))
            return
        self._enqueue(player, want=Want(challenge=opponent.name, again=False, clock=last.clock))
        if opponent.seek is None and opponent.rematch is None:
            tell(opponent, fmt.rematch_offered(player.name))

    def _decline_rematch(self, player: Player) -> None:
        """Withdraw this player's own rematch offer, or decline the one made to it."""
        if player.rematch is not None and player.seek is not None:
            self._unseek(player)
            self._forget_rematch(player)
            # The one it was offered to is told, or its page would offer a rematch that no
            # longer stands.
            opponent = self._opponent_of(player)
            if opponent is not None and opponent.table is None:
                tell(opponent, fmt.rematch_declined(player.name))
            return
        self._drop_rematch(player)

    def _forget_rematch(self, player: Player) -> None:
        """``player`` no longer waits for its rematch."""
        wanted = player.rematch
        if wanted is not None:
            player.rematch = None
            waiting = self.rematches.get(wanted[0])
            if waiting is not None:
                waiting.discard(player)
                if not waiting:
                    del self.rematches[wanted[0]]

    def _drop_rematch(self, player: Player) -> None:
        """Whoever waits for a rematch with ``player`` hears that it will not come."""
        for other in self.rematches.pop(player.key, ()):
            wanted = other.rematch
            if wanted is None or wanted[0] != player.key or other is player:
                continue
            other.rematch = None
            if other.seek is not None:
                self._unseek(other)
            tell(other, fmt.rematch_declined(player.name))

    def rematch_plan(self, a: Player, b: Player) -> str | None:
        """The name of White when ``a`` and ``b`` meet again after a rematch: the colours of
        their last game swapped (``a``'s wish counts; a house bot has none)."""
        for one, other in ((a, b), (b, a)):
            wanted = one.rematch
            if wanted is not None and wanted[0] == other.key:
                self._forget_rematch(a)
                self._forget_rematch(b)
                return one.name if wanted[1] == 0 else other.name
        return None

    @staticmethod
    def remember_game(table: Table) -> None:
        """Each player of a finished table remembers its opponent (for ``REMATCH``)."""
        for seat, player in enumerate(table.players):
            other = table.players[1 - seat]
            level = player.spec.want.level if player.spec is not None else None
            player.last_game = LastGame(other.name, other.kind, seat, level, table.time_control)

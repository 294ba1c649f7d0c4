"""Following an Onitama game from the client side of the line dialect (no I/O).

>>> from herna.protocols.onitama.seed import parse_server
>>> game = ClientGame("eva")
>>> game.feed(parse_server("START|eva|ota|Ox,Boar,Horse,Elephant,Crab|k3y"))
>>> game.my_turn(), game.secret
(True, 'k3y')
"""

from __future__ import annotations

from herna.core.errors import IllegalAction
from herna.games.onitama.board import parse_square
from herna.games.onitama.cards import BLACK, WHITE, canonical_card
from herna.games.onitama.notation import parse_cards
from herna.games.onitama.state import Draw, Move, OnitamaState, Pass, Stalemate
from herna.protocols.onitama.common import Garbage, name_key
from herna.protocols.onitama.seed import (
    GameOver,
    LoginOk,
    Logout,
    MoveWasMade,
    Reconnect,
    ServerMessage,
    StalemateCard,
    Start,
)


class ClientGame:
    """What a client knows of its game, rebuilt from the server's messages (no I/O).

    Feed every :class:`ServerMessage` to :meth:`feed`; :attr:`state` is then the current
    :class:`~herna.games.onitama.state.OnitamaState` (None outside a game or when the server
    sent no cards), :attr:`color` this client's colour and :meth:`my_turn` says whether the
    server waits for this client's move.
    """

    def __init__(self, name: str | None = None) -> None:
        self.name = name
        self.state: OnitamaState | None = None
        self.white: str | None = None
        self.black: str | None = None
        self.color: int | None = None
        self.over: GameOver | None = None
        self.opponent_away = False
        self.games = 0
        self.secret: str | None = None
        """The seat secret of the current game (``START``'s Herna extension field)."""

    @property
    def in_game(self) -> bool:
        return self.white is not None and self.over is None

    def my_turn(self) -> bool:
        return (
            self.in_game
            and self.state is not None
            and self.color is not None
            and self.state.current_player() == self.color
        )

    def opponent(self) -> str | None:
        if self.color is None:
            return None
        return self.black if self.color == WHITE else self.white

    def feed(self, msg: ServerMessage | Garbage) -> None:
        """Update from one server message; raises ``ValueError`` if it contradicts the
        game as this client knows it (a desynchronised or broken server)."""
        if isinstance(msg, LoginOk):
            self.name = msg.name
        elif isinstance(msg, Start):
            self.white, self.black, self.over = msg.white, msg.black, None
            self.opponent_away = False
            self.games += 1
            self.color = self._my_color(msg.white, msg.black)
            self.secret = msg.secret
            if msg.cards is not None and len(msg.cards) == 5:
                c = [canonical_card(x) for x in msg.cards]
                self.state = OnitamaState.setup(c[0:2], c[2:4], c[4])
            else:
                self.state = None
        elif isinstance(msg, MoveWasMade):
            if self.state is not None:
                move = Move(canonical_card(msg.card), parse_square(msg.frm), parse_square(msg.to))
                try:
                    self.state = self.state.apply(move)
                except IllegalAction as exc:
                    raise ValueError(f"server move {move} is illegal here: {exc}") from None
        elif isinstance(msg, StalemateCard):
            if self.state is not None:
                self.state = _no_move(self.state, msg)
        elif isinstance(msg, Reconnect):
            white, black, spare = parse_cards(",".join(msg.cards))
            to_move = BLACK if msg.to_move.lower() == "black" else WHITE
            rule = self.state.rule if self.state is not None else "stalemate"
            self.state = OnitamaState.setup(
                white, black, spare, board=msg.board, to_move=to_move, rule=rule
            )
            if self.name is not None and name_key(msg.name) == name_key(self.name):
                # Back at our seat, maybe on a new connection that never saw START: the
                # opponent's name is not in RECONNECT, so keep whatever we knew of it.
                self.color = BLACK if msg.color.lower() == "black" else WHITE
                if self.color == WHITE:
                    self.white, self.black = self.name, self.black or ""
                else:
                    self.white, self.black = self.white or "", self.name
            else:
                self.opponent_away = False
            self.over = None
        elif isinstance(msg, Logout):
            self.opponent_away = True
        elif isinstance(msg, GameOver):
            self.over = msg

    def _my_color(self, white: str, black: str) -> int | None:
        if self.name is None:
            return None
        if name_key(white) == name_key(self.name):
            return WHITE
        if name_key(black) == name_key(self.name):
            return BLACK
        return None


def _no_move(state: OnitamaState, msg: StalemateCard) -> OnitamaState:
    """Apply a ``STALEMATE_CARD``: the official pass when the spare changed (tables with a
    client of the NUL dialect play it), otherwise the seed's swap with the unused deck."""
    old, new = canonical_card(msg.old), canonical_card(msg.new)
    try:
        if msg.spare is not None and canonical_card(msg.spare) != state.spare:
            after = state.with_rule("pass").apply(Pass(old))
            if after.spare != canonical_card(msg.spare) or new not in after.hand(state.to_move):
                raise ValueError(f"the pass of {old} does not give {new} and {msg.spare}")
            return after
        return state.apply(Stalemate(old)).apply(Draw(new))
    except IllegalAction as exc:
        raise ValueError(f"the exchange of {old} is illegal here: {exc}") from None

"""The Onitama rules engine: an immutable game state in Herna's :class:`GameState` shape.

Seats: 0 is White (bottom, rank 1, moves first, as seed 003 says), 1 is Black.

A game starts at a CHANCE node: five :class:`Deal` actions deal White's two cards, Black's two
cards and the spare, in that order (each a uniform draw from the cards not dealt yet). Players
then take :class:`Move` actions. When the player to move has no legal move, what happens
depends on the ``rule``:

* ``"stalemate"`` (seed 003, the default): the player sends :class:`Stalemate` with one of
  their cards; a CHANCE node follows whose outcomes are the 11 cards not in play
  (:class:`Draw`), the drawn card replaces the given-up one in that hand (which goes back to
  the unused deck), the spare is untouched and the turn passes.
* ``"pass"`` (official rules, used by perft): the player sends :class:`Pass` with one of their
  cards; that card becomes the spare, the old spare joins their hand, the turn passes.

The game ends when a master is captured (Way of the Stone) or a master reaches the enemy
temple arch (Way of the Stream); :meth:`OnitamaState.forfeit` ends it for a player who left.

>>> s = OnitamaState.setup(["Ox", "Boar"], ["Horse", "Elephant"], "Crab")
>>> len(s.legal_actions())
10
>>> s.apply(Move("Ox", parse_square("c1"), parse_square("c2"))).board
'bbBbb............W..ww.ww'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from herna.core.errors import IllegalAction
from herna.core.game import CHANCE, TERMINAL, Outcome, PlayerId
from herna.games.onitama.board import (
    CELL_INDEX,
    SQUARE_NAMES,
    START_MASTERS,
    START_PIECES,
    TEMPLE,
    board_string,
    parse_board,
    parse_square,
)
from herna.games.onitama.cards import (
    BLACK,
    CARD_NAMES,
    CARDS,
    COLOR_NAMES,
    TARGETS,
    WHITE,
    card_index,
)

Rule = Literal["stalemate", "pass"]
RULES: tuple[Rule, ...] = ("stalemate", "pass")

REASON_STONE = "way of the stone"
REASON_STREAM = "way of the stream"
REASON_FORFEIT = "forfeit"
REASON_DRAW = "draw agreed"
_DRAWN = 2
"""``_winner`` of a game both players agreed to end as a draw (-1: still running)."""


@dataclass(frozen=True, slots=True)
class Move:
    """Move the pawn on ``frm`` to ``to`` with ``card`` (card name, squares 0..24)."""

    card: str
    frm: int
    to: int

    def __str__(self) -> str:
        return f"{self.card} {SQUARE_NAMES[self.frm]}{SQUARE_NAMES[self.to]}"


@dataclass(frozen=True, slots=True)
class Stalemate:
    """Seed 003: no move exists; swap ``card`` for a random card from the unused deck."""

    card: str

    def __str__(self) -> str:
        return f"stalemate {self.card}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Official rule: no move exists; ``card`` goes to the spare, the old spare to the hand."""

    card: str

    def __str__(self) -> str:
        return f"pass {self.card}"


@dataclass(frozen=True, slots=True)
class Deal:
    """CHANCE: the next card of the opening deal (White, White, Black, Black, spare)."""

    card: str

    def __str__(self) -> str:
        return f"deal {self.card}"


@dataclass(frozen=True, slots=True)
class Draw:
    """CHANCE: the card drawn from the unused deck after a :class:`Stalemate`."""

    card: str

    def __str__(self) -> str:
        return f"draw {self.card}"


Action = Move | Stalemate | Pass | Deal | Draw

_DEALS: tuple[Deal, ...] = tuple(Deal(name) for name in CARD_NAMES)
_DRAWS: tuple[Draw, ...] = tuple(Draw(name) for name in CARD_NAMES)
"""Every card's chance action, made once (actions are immutable values)."""

_OFFSETS_JSON: tuple[list[list[int]], ...] = tuple([list(o) for o in c.offsets] for c in CARDS)
"""Each card's offsets as JSON lists, shared by every view (read-only by convention)."""
PlayerAction = Move | Stalemate | Pass


_CARD_IDS: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}
_STUDENT = ("w", "b")
_MASTER = ("W", "B")


def _bits(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class OnitamaState:
    """One Onitama position plus whatever the game needs to go on (immutable).

    Build one with :meth:`new` (a fresh game, cards still to be dealt), :meth:`setup` (given
    cards, start position or a given board) or :func:`herna.games.onitama.notation.
    parse_position`.
    """

    __slots__ = (
        "_board",
        "_dealing",
        "_dealt",
        "_hands",
        "_last",
        "_masters",
        "_pending",
        "_pieces",
        "_ply",
        "_reason",
        "_spare",
        "_to_move",
        "_winner",
        "rule",
    )

    num_players = 2

    def __init__(
        self,
        pieces: tuple[int, int],
        masters: tuple[int, int],
        hands: tuple[tuple[int, int], tuple[int, int]],
        spare: int,
        to_move: int,
        rule: Rule = "stalemate",
        *,
        dealt: tuple[int, ...] = (),
        pending: int = -1,
        winner: int = -1,
        reason: str = "",
        ply: int = 0,
        last: Mapping[str, Any] | None = None,
    ) -> None:
        self._pieces = pieces
        self._masters = masters
        self._hands = hands
        self._spare = spare
        self._to_move = to_move
        self.rule: Rule = rule
        self._dealt = dealt
        self._pending = pending
        self._winner = winner
        self._reason = reason
        self._ply = ply
        self._last = last
        self._dealing = spare == -1
        self._board: str | None = None

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def new(cls, rule: Rule = "stalemate") -> OnitamaState:
        """A new game: start position, cards still to be dealt (CHANCE to act)."""
        if rule not in RULES:
            raise ValueError(f"unknown rule {rule!r}; one of {RULES}")
        return cls(START_PIECES, START_MASTERS, ((-1, -1), (-1, -1)), -1, WHITE, rule, dealt=())

    @classmethod
    def setup(
        cls,
        white: Sequence[str],
        black: Sequence[str],
        spare: str,
        *,
        board: str | None = None,
        to_move: int = WHITE,
        rule: Rule = "stalemate",
    ) -> OnitamaState:
        """A position with the cards dealt: hands by name, optional 25-character board.

        Raises ``ValueError`` for unknown or repeated cards and impossible boards.
        """
        if rule not in RULES:
            raise ValueError(f"unknown rule {rule!r}; one of {RULES}")
        if len(white) != 2 or len(black) != 2:
            raise ValueError("each player holds exactly two cards")
        ids = [card_index(c) for c in (*white, *black, spare)]
        if len(set(ids)) != 5:
            raise ValueError("the five cards in play must be different")
        if to_move not in (WHITE, BLACK):
            raise ValueError("to_move must be 0 (white) or 1 (black)")
        if board is None:
            pieces, masters = START_PIECES, START_MASTERS
        else:
            pieces, masters = parse_board(board)
        winner, reason = _winner_on_board(pieces, masters)
        return cls(
            pieces,
            masters,
            ((ids[0], ids[1]), (ids[2], ids[3])),
            ids[4],
            to_move,
            rule,
            winner=winner,
            reason=reason,
        )

    # -- plain accessors ------------------------------------------------------------------
    @property
    def dealing(self) -> bool:
        """True while the opening deal is not complete."""
        return self._dealing

    @property
    def to_move(self) -> int:
        """The colour whose turn it is (also while a stalemate draw is pending)."""
        return self._to_move

    @property
    def ply(self) -> int:
        """Number of player actions (moves, stalemates, passes) played so far."""
        return self._ply

    @property
    def winner(self) -> int | None:
        return None if self._winner in (-1, _DRAWN) else self._winner

    @property
    def reason(self) -> str:
        return self._reason

    @property
    def pending_swap(self) -> str | None:
        """The card given up by a :class:`Stalemate` whose draw is still pending."""
        return None if self._pending == -1 else CARD_NAMES[self._pending]

    @property
    def last(self) -> Mapping[str, Any] | None:
        """What the last action did, as in :meth:`view` (``None`` before the first move)."""
        return self._last

    def hand(self, color: int) -> tuple[str, str]:
        if self.dealing:
            raise ValueError("cards are still being dealt")
        a, b = self._hands[color]
        return CARD_NAMES[a], CARD_NAMES[b]

    @property
    def spare(self) -> str:
        if self.dealing:
            raise ValueError("cards are still being dealt")
        return CARD_NAMES[self._spare]

    def cards(self) -> tuple[str, str, str, str, str]:
        """The five cards in play: White's two, Black's two, the spare."""
        w, b = self.hand(WHITE), self.hand(BLACK)
        return (w[0], w[1], b[0], b[1], self.spare)

    def unused(self) -> list[str]:
        """The cards not in play, in table order (11 once dealt)."""
        if self.dealing:
            used = set(self._dealt)
        else:
            used = {*self._hands[0], *self._hands[1], self._spare}
        return [name for i, name in enumerate(CARD_NAMES) if i not in used]

    @property
    def board(self) -> str:
        """The 25-character board string (rank 5 first)."""
        if self._board is None:
            self._board = board_string(self._pieces, self._masters)
        return self._board

    def piece_at(self, square: int) -> str:
        """``"W"``, ``"w"``, ``"B"``, ``"b"`` or ``"."``."""
        bit = 1 << square
        for color, (master, student) in ((WHITE, ("W", "w")), (BLACK, ("B", "b"))):
            if self._pieces[color] & bit:
                return master if self._masters[color] == square else student
        return "."

    def raw(
        self,
    ) -> tuple[tuple[int, int], tuple[int, int], tuple[tuple[int, int], tuple[int, int]], int, int]:
        """``(pieces, masters, hands, spare, to_move)`` as ints, for searches and perft."""
        return self._pieces, self._masters, self._hands, self._spare, self._to_move

    def mover_view(self) -> tuple[int, int, int, int, int, int, int, int, int, int]:
        """``(own, opp, own_master, opp_master, c0, c1, o0, o1, spare, side)`` as ints, seen
        from the player to move: the position as the searches (``bots``, ``engine``,
        ``perft``) take it."""
        side = self._to_move
        opp = 1 - side
        (c0, c1), (o0, o1) = self._hands[side], self._hands[opp]
        return (
            self._pieces[side],
            self._pieces[opp],
            self._masters[side],
            self._masters[opp],
            c0,
            c1,
            o0,
            o1,
            self._spare,
            side,
        )

    # -- GameState protocol ---------------------------------------------------------------
    def current_player(self) -> PlayerId:
        if self._winner != -1:
            return TERMINAL
        if self.dealing or self._pending != -1:
            return CHANCE
        return self._to_move

    def is_terminal(self) -> bool:
        return self._winner != -1

    def legal_actions(self) -> list[Action]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        moves: list[Action] = list(self.legal_moves())
        if moves:
            return moves
        hand = self.hand(self._to_move)
        if self.rule == "pass":
            return [Pass(hand[0]), Pass(hand[1])]
        return [Stalemate(hand[0]), Stalemate(hand[1])]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        outcomes = self.uniform_chance()
        if outcomes is None:
            return []
        p = 1.0 / len(outcomes)
        return [(outcome, p) for outcome in outcomes]

    def uniform_chance(self) -> list[Action] | None:
        """The outcomes of this CHANCE node, all equally likely (see :mod:`herna.core.game`):
        the cards not dealt yet, or those a stalemate may draw; ``None`` elsewhere."""
        if self._winner != -1:
            return None
        if self._dealing:
            dealt = self._dealt
            return [deal for i, deal in enumerate(_DEALS) if i not in dealt]
        if self._pending != -1:
            used = {*self._hands[0], *self._hands[1], self._spare}
            return [draw for i, draw in enumerate(_DRAWS) if i not in used]
        return None

    def legal_moves(self) -> list[Move]:
        """Every (card, from, to) move of the player to move (empty at CHANCE/TERMINAL)."""
        if self.current_player() < 0:
            return []
        color = self._to_move
        own = self._pieces[color]
        not_own = ~own
        out: list[Move] = []
        for card in self._hands[color]:
            name = CARD_NAMES[card]
            table = TARGETS[color][card]
            bits = own
            while bits:
                low = bits & -bits
                bits ^= low
                frm = low.bit_length() - 1
                targets = table[frm] & not_own
                while targets:
                    tbit = targets & -targets
                    targets ^= tbit
                    out.append(Move(name, frm, tbit.bit_length() - 1))
        return out

    def has_legal_move(self) -> bool:
        if self.current_player() < 0:
            return False
        color = self._to_move
        own = self._pieces[color]
        for card in self._hands[color]:
            table = TARGETS[color][card]
            for frm in _bits(own):
                if table[frm] & ~own:
                    return True
        return False

    def apply(self, action: Action) -> OnitamaState:
        if self._winner != -1:
            raise IllegalAction("the game is over", "GAME_OVER")
        if isinstance(action, Move):
            return self._apply_move(action)
        if isinstance(action, Stalemate | Pass):
            return self._apply_no_move(action)
        if isinstance(action, Deal):
            return self._apply_deal(action)
        if isinstance(action, Draw):
            return self._apply_draw(action)
        raise IllegalAction(f"not an Onitama action: {action!r}", "UNKNOWN_ACTION")

    def outcome(self) -> Outcome | None:
        if self._winner == -1:
            return None
        if self._winner == _DRAWN:
            return Outcome((0.5, 0.5), (), self._reason, {"winner": None, "plies": self._ply})
        returns = (1.0, 0.0) if self._winner == WHITE else (0.0, 1.0)
        return Outcome(
            returns,
            (self._winner,),
            self._reason,
            {"winner": COLOR_NAMES[self._winner], "plies": self._ply},
        )

    def view(self, player: PlayerId | None = None) -> dict[str, Any]:
        """Everything in Onitama is public, so every player sees the spectator view.

        Keys: ``board`` (25 characters, rank 5 first), ``cards`` (``white``/``black`` lists and
        ``spare``; ``None`` while dealing), ``to_move``, ``phase`` (``deal``, ``play``,
        ``draw``, ``over``), ``last`` (the last action, see :attr:`last`), ``ply``,
        ``winner``, ``reason``, ``rule`` and ``moves`` (the offsets of each card in play, from
        its holder's view: ``[dx, dy]`` with dx to the right and dy forward).
        """
        if self._dealing:
            cards: dict[str, Any] | None = None
            moves: dict[str, Any] = {}
            phase = "deal"
        else:
            (w0, w1), (b0, b1) = self._hands
            spare = self._spare
            names, offsets = CARD_NAMES, _OFFSETS_JSON
            nw0, nw1, nb0, nb1, ns = names[w0], names[w1], names[b0], names[b1], names[spare]
            cards = {"white": [nw0, nw1], "black": [nb0, nb1], "spare": ns}
            moves = {
                nw0: offsets[w0],
                nw1: offsets[w1],
                nb0: offsets[b0],
                nb1: offsets[b1],
                ns: offsets[spare],
            }
            phase = "over" if self._winner != -1 else ("draw" if self._pending != -1 else "play")
        winner = -1 if self._winner == _DRAWN else self._winner
        return {
            "board": self.board,
            "cards": cards,
            "to_move": None if self._winner != -1 else COLOR_NAMES[self._to_move],
            "phase": phase,
            "last": dict(self._last) if self._last is not None else None,
            "ply": self._ply,
            "winner": None if winner == -1 else COLOR_NAMES[winner],
            "reason": self._reason or None,
            "rule": self.rule,
            "moves": moves,
        }

    # -- ending without a move ------------------------------------------------------------
    def forfeit(self, loser: int, reason: str = REASON_FORFEIT) -> OnitamaState:
        """The game ended because ``loser`` left (or resigned); the other colour wins."""
        if self._winner != -1:
            raise IllegalAction("the game is over", "GAME_OVER")
        if loser not in (WHITE, BLACK):
            raise ValueError("loser must be 0 (white) or 1 (black)")
        return self._copy(
            winner=1 - loser, reason=reason, last={"type": "forfeit", "player": COLOR_NAMES[loser]}
        )

    def agree_draw(self) -> OnitamaState:
        """Both players agreed to end the game as a draw (one offered, the other accepted)."""
        if self._winner != -1:
            raise IllegalAction("the game is over", "GAME_OVER")
        return self._copy(winner=_DRAWN, reason=REASON_DRAW, last={"type": "draw_agreed"})

    def with_rule(self, rule: Rule) -> OnitamaState:
        """The same position under the other no-move rule: a server that seats a client able to
        follow only one of them (the NUL dialect knows only the pass) picks it per table."""
        if rule not in RULES:
            raise ValueError(f"unknown rule {rule!r}; one of {RULES}")
        if self._pending != -1:
            raise ValueError("a stalemate draw is pending")
        return self if rule == self.rule else self._copy(rule=rule)

    # -- internals ------------------------------------------------------------------------
    def _copy(self, **changes: Any) -> OnitamaState:
        fields: dict[str, Any] = {
            "pieces": self._pieces,
            "masters": self._masters,
            "hands": self._hands,
            "spare": self._spare,
            "to_move": self._to_move,
            "rule": self.rule,
            "dealt": self._dealt,
            "pending": self._pending,
            "winner": self._winner,
            "reason": self._reason,
            "ply": self._ply,
            "last": self._last,
        }
        fields.update(changes)
        return OnitamaState(**fields)

    def _require_player(self) -> int:
        if self.dealing:
            raise IllegalAction("the cards are still being dealt", "NOT_YOUR_TURN")
        if self._pending != -1:
            raise IllegalAction("a stalemate draw is pending", "NOT_YOUR_TURN")
        return self._to_move

    def _hand_card(self, color: int, name: str) -> int:
        card = _CARD_IDS.get(name)  # a card name as written in CARD_NAMES: no casefold
        if card is None:
            try:
                card = card_index(name)
            except ValueError:
                raise IllegalAction(f"unknown card {name!r}", "UNKNOWN_CARD") from None
        if card not in self._hands[color]:
            raise IllegalAction(f"{CARD_NAMES[card]} is not in your hand", "CARD_NOT_HELD")
        return card

    def _apply_move(self, move: Move) -> OnitamaState:
        if self._dealing or self._pending != -1:
            self._require_player()  # raises why it is nobody's move
        color = self._to_move
        card = self._hand_card(color, move.card)
        frm, to = move.frm, move.to
        if not (0 <= frm < 25 and 0 <= to < 25):
            raise IllegalAction("square off the board", "OFF_BOARD")
        own = self._pieces[color]
        if not own & (1 << frm):
            raise IllegalAction(f"no pawn of yours on {SQUARE_NAMES[frm]}", "NOT_YOUR_PAWN")
        if not TARGETS[color][card][frm] & (1 << to):
            raise IllegalAction(
                f"{CARD_NAMES[card]} does not move {SQUARE_NAMES[frm]} to {SQUARE_NAMES[to]}",
                "NOT_ON_CARD",
            )
        if own & (1 << to):
            raise IllegalAction(f"your own pawn stands on {SQUARE_NAMES[to]}", "OWN_PAWN")
        opp = 1 - color
        opp_bits = self._pieces[opp]
        capture = bool(opp_bits & (1 << to))
        new_own = (own & ~(1 << frm)) | (1 << to)
        new_opp = opp_bits & ~(1 << to)
        pieces = (new_own, new_opp) if color == WHITE else (new_opp, new_own)
        masters = self._masters
        winner, reason = -1, ""
        moved = _STUDENT[color]
        if masters[color] == frm:
            moved = _MASTER[color]
            masters = (to, masters[1]) if color == WHITE else (masters[0], to)
            if to == TEMPLE[opp]:
                winner, reason = color, REASON_STREAM
        if masters[opp] == to:
            masters = (-1, masters[1]) if opp == WHITE else (masters[0], -1)
            winner, reason = color, REASON_STONE
        hand = self._hands[color]
        new_hand = (self._spare, hand[1]) if hand[0] == card else (hand[0], self._spare)
        hands = (new_hand, self._hands[1]) if color == WHITE else (self._hands[0], new_hand)
        last = {
            "type": "move",
            "player": COLOR_NAMES[color],
            "card": CARD_NAMES[card],
            "from": SQUARE_NAMES[frm],
            "to": SQUARE_NAMES[to],
            "capture": capture,
        }
        after = OnitamaState(
            pieces,
            masters,
            hands,
            card,
            opp,
            self.rule,
            winner=winner,
            reason=reason,
            ply=self._ply + 1,
            last=last,
        )
        board = self._board
        if board is not None:
            # Two cells change: cheaper than drawing the board again (servers show every
            # position to spectators).
            a, b = CELL_INDEX[frm], CELL_INDEX[to]
            if a < b:
                after._board = f"{board[:a]}.{board[a + 1 : b]}{moved}{board[b + 1 :]}"
            else:
                after._board = f"{board[:b]}{moved}{board[b + 1 : a]}.{board[a + 1 :]}"
        return after

    def _apply_no_move(self, action: Stalemate | Pass) -> OnitamaState:
        color = self._require_player()
        kind = "stalemate" if isinstance(action, Stalemate) else "pass"
        if self.rule != kind:
            raise IllegalAction(
                f"{kind} is not the rule of this game (rule {self.rule})", "WRONG_RULE"
            )
        card = self._hand_card(color, action.card)
        if self.has_legal_move():
            raise IllegalAction(f"{kind} is only allowed when no move exists", "MOVE_EXISTS")
        if isinstance(action, Stalemate):
            return self._copy(
                pending=card,
                ply=self._ply + 1,
                last={
                    "type": "stalemate",
                    "player": COLOR_NAMES[color],
                    "old": CARD_NAMES[card],
                    "new": None,
                },
            )
        hand = self._hands[color]
        new_hand = (self._spare, hand[1]) if hand[0] == card else (hand[0], self._spare)
        hands = (new_hand, self._hands[1]) if color == WHITE else (self._hands[0], new_hand)
        return self._copy(
            hands=hands,
            spare=card,
            to_move=1 - color,
            ply=self._ply + 1,
            last={"type": "pass", "player": COLOR_NAMES[color], "card": CARD_NAMES[card]},
        )

    def _apply_deal(self, action: Deal) -> OnitamaState:
        if not self._dealing:
            raise IllegalAction("the cards are already dealt", "NOT_CHANCE")
        card = _CARD_IDS.get(action.card)  # as CARD_NAMES write it: no casefold
        if card is None:
            try:
                card = card_index(action.card)
            except ValueError:
                raise IllegalAction(f"unknown card {action.card!r}", "UNKNOWN_CARD") from None
        if card in self._dealt:
            raise IllegalAction(f"{CARD_NAMES[card]} is already dealt", "CARD_IN_PLAY")
        dealt = (*self._dealt, card)
        # The constructor rather than _copy (which takes keywords): every game deals five.
        if len(dealt) < 5:
            hands, spare, to_move = self._hands, self._spare, self._to_move
        else:
            hands, spare, to_move = ((dealt[0], dealt[1]), (dealt[2], dealt[3])), dealt[4], WHITE
            dealt = ()
        return OnitamaState(
            self._pieces,
            self._masters,
            hands,
            spare,
            to_move,
            self.rule,
            dealt=dealt,
            pending=self._pending,
            winner=self._winner,
            reason=self._reason,
            ply=self._ply,
            last=self._last,
        )

    def _apply_draw(self, action: Draw) -> OnitamaState:
        if self._pending == -1 or self.dealing:
            raise IllegalAction("no stalemate draw is pending", "NOT_CHANCE")
        try:
            card = card_index(action.card)
        except ValueError:
            raise IllegalAction(f"unknown card {action.card!r}", "UNKNOWN_CARD") from None
        if CARD_NAMES[card] not in self.unused():
            raise IllegalAction(f"{CARD_NAMES[card]} is in play", "CARD_IN_PLAY")
        color = self._to_move
        old = self._pending
        hand = self._hands[color]
        new_hand = (card, hand[1]) if hand[0] == old else (hand[0], card)
        hands = (new_hand, self._hands[1]) if color == WHITE else (self._hands[0], new_hand)
        last = {
            "type": "stalemate",
            "player": COLOR_NAMES[color],
            "old": CARD_NAMES[old],
            "new": CARD_NAMES[card],
        }
        return self._copy(hands=hands, pending=-1, to_move=1 - color, last=last)

    # -- value semantics ------------------------------------------------------------------
    def _key(self) -> tuple[Any, ...]:
        return (
            self._pieces,
            self._masters,
            self._hands,
            self._spare,
            self._to_move,
            self.rule,
            self._dealt,
            self._pending,
            self._winner,
            self._reason,
            self._ply,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OnitamaState):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        if self.dealing:
            return f"OnitamaState(dealing, dealt={[CARD_NAMES[c] for c in self._dealt]})"
        return (
            f"OnitamaState({self.board!r}, {','.join(self.cards())}, "
            f"{COLOR_NAMES[self._to_move]}, ply={self._ply}"
            + (f", winner={COLOR_NAMES[self._winner]}" if self.winner is not None else "")
            + ")"
        )


def _winner_on_board(pieces: tuple[int, int], masters: tuple[int, int]) -> tuple[int, str]:
    wins = []
    for color in (WHITE, BLACK):
        opp = 1 - color
        if masters[opp] == -1:
            wins.append((color, REASON_STONE))
        elif masters[color] == TEMPLE[opp]:
            wins.append((color, REASON_STREAM))
    if len(wins) > 1:
        raise ValueError("both players have already won on this board")
    return wins[0] if wins else (-1, "")


_KINDS: dict[type, str] = {Stalemate: "stalemate", Pass: "pass", Deal: "deal", Draw: "draw"}
"""The ``type`` of each action but a move in a match log."""


class ActionCodec:
    """JSON form of actions for match logs: ``{"type": "move", "card": "Ox", "from": "c1",
    "to": "c2"}``, ``{"type": "stalemate"|"pass"|"deal"|"draw", "card": "Ox"}``."""

    def encode(self, action: Action) -> dict[str, Any]:
        if isinstance(action, Move):
            return {
                "type": "move",
                "card": action.card,
                "from": SQUARE_NAMES[action.frm],
                "to": SQUARE_NAMES[action.to],
            }
        return {"type": _KINDS[type(action)], "card": action.card}

    def decode(self, data: Any) -> Action:
        kind = data["type"]
        if kind == "move":
            return Move(data["card"], parse_square(data["from"]), parse_square(data["to"]))
        card = data["card"]
        if kind == "stalemate":
            return Stalemate(card)
        if kind == "pass":
            return Pass(card)
        if kind == "deal":
            return Deal(card)
        if kind == "draw":
            return Draw(card)
        raise ValueError(f"unknown action type {kind!r}")


ACTION_CODEC = ActionCodec()

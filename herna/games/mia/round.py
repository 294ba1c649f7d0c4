"""The rules of one Mia round as a pure state machine (the server adds tokens and clocks).

Players take turns in the round's order. On their turn a player either ROLLs (a chance action
draws the dice, only the roller sees them) and then ANNOUNCEs a throw strictly higher than the
previous announcement, or SEEs (the previous announcement is checked against the actual
dice). Announcing Mia is revealed at once. A player who times out or sends nonsense is
faulted by the server. The round ends with the first loss; everyone who does not lose scores
one point.

>>> r = MiaRound(("ann", "bob"))
>>> r = r.apply(Roll()).apply(DiceRoll(Dice(4, 2))).apply(Announce(Dice(5, 1)))
>>> r = r.apply(See())
>>> r.outcome().reason, r.losers
('CAUGHT_BLUFFING', ('ann',))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from herna.core.errors import IllegalAction
from herna.core.game import CHANCE, TERMINAL, Outcome, PlayerId
from herna.games.mia.dice import ALL_DICE, Dice

# Loss reasons, exactly as the seed names them.
SEE_BEFORE_FIRST_ROLL = "SEE_BEFORE_FIRST_ROLL"
LIED_ABOUT_MIA = "LIED_ABOUT_MIA"
ANNOUNCED_LOSING_DICE = "ANNOUNCED_LOSING_DICE"
DID_NOT_ANNOUNCE = "DID_NOT_ANNOUNCE"
DID_NOT_TAKE_TURN = "DID_NOT_TAKE_TURN"
INVALID_TURN = "INVALID_TURN"
SEE_FAILED = "SEE_FAILED"
CAUGHT_BLUFFING = "CAUGHT_BLUFFING"
MIA_REASON = "MIA"

LOSS_REASONS = (
    SEE_BEFORE_FIRST_ROLL,
    LIED_ABOUT_MIA,
    ANNOUNCED_LOSING_DICE,
    DID_NOT_ANNOUNCE,
    DID_NOT_TAKE_TURN,
    INVALID_TURN,
    SEE_FAILED,
    CAUGHT_BLUFFING,
    MIA_REASON,
)
FAULT_REASONS = (DID_NOT_ANNOUNCE, DID_NOT_TAKE_TURN, INVALID_TURN)


@dataclass(frozen=True, slots=True)
class Roll:
    def __str__(self) -> str:
        return "ROLL"


@dataclass(frozen=True, slots=True)
class See:
    def __str__(self) -> str:
        return "SEE"


@dataclass(frozen=True, slots=True)
class Announce:
    dice: Dice

    def __str__(self) -> str:
        return f"ANNOUNCE {self.dice}"


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """The chance action after a ROLL."""

    dice: Dice

    def __str__(self) -> str:
        return f"DICE {self.dice}"


@dataclass(frozen=True, slots=True)
class Fault:
    """The server's verdict on the current player: a timeout or an invalid message."""

    reason: str

    def __post_init__(self) -> None:
        if self.reason not in FAULT_REASONS:
            raise ValueError(f"not a fault reason: {self.reason}")

    def __str__(self) -> str:
        return f"FAULT {self.reason}"


MiaAction = Roll | See | Announce | DiceRoll | Fault
Phase = Literal["turn", "rolling", "announce", "over"]

_CHANCE_OUTCOMES: tuple[tuple[MiaAction, float], ...] = tuple(
    (DiceRoll(d), float(d.probability)) for d in ALL_DICE
)


@dataclass(frozen=True, slots=True)
class Announcement:
    name: str
    dice: Dice


@dataclass(frozen=True)
class MiaRound:
    """One round. ``players`` is the order of play (the server shuffles it)."""

    players: tuple[str, ...]
    turn: int = 0
    phase: Phase = "turn"
    actual: Dice | None = None
    """The dice under the cup: the latest roll, hidden until revealed."""
    announcements: tuple[Announcement, ...] = ()
    revealed: bool = False
    losers: tuple[str, ...] = ()
    reason: str = ""

    def __post_init__(self) -> None:
        if len(self.players) < 2:
            raise ValueError("a round needs at least two players")

    # -- the shared vocabulary ----------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.players)

    def current_player(self) -> PlayerId:
        if self.phase == "over":
            return TERMINAL
        if self.phase == "rolling":
            return CHANCE
        return self.turn

    @property
    def current_name(self) -> str:
        return self.players[self.turn]

    @property
    def last_announcement(self) -> Announcement | None:
        return self.announcements[-1] if self.announcements else None

    def legal_actions(self) -> Sequence[MiaAction]:
        """ROLL/SEE on a turn; after a roll every announcement (losing ones included, since a
        player may make them and lose). Faults are the server's and not listed."""
        if self.phase == "turn":
            return (Roll(), See())
        if self.phase == "announce":
            return tuple(Announce(d) for d in ALL_DICE)
        if self.phase == "rolling":
            return tuple(a for a, _ in _CHANCE_OUTCOMES)
        return ()

    def chance_outcomes(self) -> Sequence[tuple[MiaAction, float]]:
        return _CHANCE_OUTCOMES if self.phase == "rolling" else ()

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def _evolve(self, **changes: Any) -> MiaRound:
        """A copy with ``changes``: what :func:`dataclasses.replace` does, at a quarter of its
        cost (it looks up every field and runs ``__init__``). A server applies about ten
        actions a round, hundreds of rounds a second. ``players`` never changes, so the
        checks of ``__post_init__`` hold for the copy too."""
        new = object.__new__(MiaRound)
        attrs = new.__dict__  # frozen: the copy's attributes are set before anyone sees it
        attrs.update(self.__dict__)
        attrs.update(changes)
        return new

    def apply(self, action: MiaAction) -> MiaRound:
        if self.phase == "over":
            raise IllegalAction("the round is over", "ROUND_OVER")
        if isinstance(action, Fault):
            return self._lose((self.current_name,), action.reason)
        if self.phase == "rolling":
            if not isinstance(action, DiceRoll):
                raise IllegalAction("the dice are rolling", "CHANCE")
            return self._evolve(phase="announce", actual=action.dice)
        if self.phase == "turn":
            if isinstance(action, Roll):
                return self._evolve(phase="rolling", actual=None)
            if isinstance(action, See):
                return self._see()
            raise IllegalAction(f"{action} is not allowed: ROLL or SEE expected", INVALID_TURN)
        # phase == "announce"
        if not isinstance(action, Announce):
            raise IllegalAction(f"{action} is not allowed: ANNOUNCE expected", INVALID_TURN)
        return self._announce(action.dice)

    def _announce(self, dice: Dice) -> MiaRound:
        name = self.current_name
        state = self._evolve(announcements=(*self.announcements, Announcement(name, dice)))
        previous = self.last_announcement
        if dice.is_mia:
            # Mia is revealed at once: true Mia beats everyone else, a false one loses.
            assert self.actual is not None
            state = state._evolve(revealed=True)
            if self.actual.is_mia:
                return state._lose(tuple(p for p in self.players if p != name), MIA_REASON)
            return state._lose((name,), LIED_ABOUT_MIA)
        if previous is not None and not dice > previous.dice:
            return state._lose((name,), ANNOUNCED_LOSING_DICE)
        return state._evolve(phase="turn", turn=(self.turn + 1) % len(self.players))

    def _see(self) -> MiaRound:
        previous = self.last_announcement
        seer = self.current_name
        if previous is None or self.actual is None:
            return self._lose((seer,), SEE_BEFORE_FIRST_ROLL)
        revealed = self._evolve(revealed=True)
        if previous.dice > self.actual:
            return revealed._lose((previous.name,), CAUGHT_BLUFFING)
        return revealed._lose((seer,), SEE_FAILED)

    def _lose(self, names: tuple[str, ...], reason: str) -> MiaRound:
        return self._evolve(phase="over", losers=names, reason=reason)

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        lost = set(self.losers)  # a true Mia: everyone but one, so not the tuple n times
        returns = tuple(0.0 if p in lost else 1.0 for p in self.players)
        winners = tuple(i for i, p in enumerate(self.players) if p not in lost)
        return Outcome(returns, winners, self.reason, {"losers": list(self.losers)})

    def view(self, player: PlayerId | None) -> Mapping[str, Any]:
        """What ``player`` (or a spectator, ``None``) may know: the dice under the cup only
        for the player who rolled them, everyone once they are revealed."""
        sees_dice = self.revealed or (
            player is not None and player == self.turn and self.phase == "announce"
        )
        return {
            "players": list(self.players),
            "turn": self.turn if self.phase != "over" else None,
            "phase": self.phase,
            "announcements": [[a.name, str(a.dice)] for a in self.announcements],
            "actual": str(self.actual) if (sees_dice and self.actual) else None,
            "losers": list(self.losers),
            "reason": self.reason or None,
        }


class MiaActionCodec:
    """Actions as short strings for logs: ``ROLL``, ``SEE``, ``DICE 3,1``, ``ANNOUNCE 6,2``,
    ``FAULT DID_NOT_ANNOUNCE``."""

    def encode(self, action: MiaAction) -> str:
        return str(action)

    def decode(self, data: Any) -> MiaAction:
        text = str(data)
        word, _, arg = text.partition(" ")
        if word == "ROLL":
            return Roll()
        if word == "SEE":
            return See()
        if word == "DICE":
            return DiceRoll(Dice.parse(arg))
        if word == "ANNOUNCE":
            return Announce(Dice.parse(arg))
        if word == "FAULT":
            return Fault(arg)
        raise ValueError(f"not a Mia action: {text!r}")

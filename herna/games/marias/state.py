"""The state of one deal of licitovaný mariáš, from the shuffle to the settlement.

Seats are 0, 1, 2 in clockwise (playing) order. The dealer is the zadák (he bids first), his
left neighbour ``dealer + 1`` is the forhont (holds in the auction, leads in trump games) and
``dealer + 2`` is the middle player. A group of games rotates the dealer clockwise
(:func:`next_dealer`).

Phases follow the CGML flow: 32 chance ``Deal`` actions, the auction (``Bid``/``Answer``), the
talon goes to the winner, ``Discard``, ``GameType``, flek rounds (``Flek``), ten tricks
(``Play``, or a ``Claim`` of the rest), settlement.

The facts of the deal and the transitions are :class:`~herna.games.marias.core.MariasCore`;
:class:`MariasState` adds the public API on top: listing and validating actions, applying
them in place (:meth:`MariasState.apply_action`) or as values (:meth:`MariasState.apply`),
returns, views and claims.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from herna.core.errors import IllegalAction
from herna.core.game import CHANCE, TERMINAL, Outcome, PlayerId
from herna.games.marias.actions import (
    BIDS_ABOVE,
    CHANCE_BYTES,
    DEAL_BYTES,
    DISCARD_OF_PAIR,
    PLAY_BYTES,
    YES_NO,
    Action,
    Answer,
    Bid,
    Claim,
    Deal,
    Discard,
    Flek,
    GameType,
    Play,
    Renonc,
    Resign,
    chance_bytes,
    encode_action,
    flek_of,
)
from herna.games.marias.cards import BIT, Card, cards_of
from herna.games.marias.claim import complete_claim
from herna.games.marias.contracts import Contract, Rules
from herna.games.marias.core import DEFAULT_RULES, MariasCore
from herna.games.marias.evaluation import (
    PartResult,
    RenoncInfo,
    Settlement,
    Trick,
    settle_conceded,
    settle_renonc,
)
from herna.games.marias.legality import (
    Problem,
    claim_holds,
    is_listed_gametype,
    legal_gametypes,
    play_problem,
    problem,
)
from herna.games.marias.rules import (
    ALL_GAMETYPES,
    DEAL_PLACES,
    DEAL_TO,
    STRENGTH,
    Phase,
    legal_play_mask,
    trick_winner_index,
)
from herna.games.marias.view import state_view

__all__ = [
    "ALL_GAMETYPES",
    "DEAL_TO",
    "DEFAULT_RULES",
    "STRENGTH",
    "MariasState",
    "PartResult",
    "Phase",
    "RenoncInfo",
    "Settlement",
    "Trick",
    "dealer_of_game",
    "legal_play_mask",
    "new_game",
    "next_dealer",
    "trick_winner_index",
]

_DEAL, _AUCTION, _DISCARD, _GAMETYPE, _FLEK, _PLAY, _DONE = Phase
# (levels, raisable levels) -> the flek answers, interned, and their levels
_FLEK_ANSWERS: dict[
    tuple[tuple[int, ...], frozenset[int]], tuple[tuple[Flek, ...], tuple[tuple[int, ...], ...]]
] = {}


def next_dealer(dealer: int) -> int:
    """The dealer of the next game of a group: one seat on, clockwise."""
    return (dealer + 1) % 3


def dealer_of_game(first_dealer: int, index: int) -> int:
    """The dealer of game ``index`` (0-based) of a group whose first dealer is given."""
    return (first_dealer + index) % 3


def new_game(dealer: int = 0, rules: Rules | None = None) -> MariasState:
    """A fresh deal: the next 32 actions are chance ``Deal`` actions."""
    return MariasState(dealer, rules)


class MariasState(MariasCore):
    """One deal, with the OpenSpiel-style API that bots, servers and search use.

    Two ways to move on, with the same rules and the same checks:

    * :meth:`apply_action` changes the state **in place** (as OpenSpiel's
      ``State.apply_action``): for code that owns one state and moves it on — bots' search
      and rollouts, sampled worlds, benchmarks — taking a :meth:`clone` first when it needs
      the position again. It is the fast path: legal actions come from precomputed tables
      indexed by card-mask bytes, a card or a deal is checked by one bit test.
    * :meth:`apply` returns a **new** state and leaves the receiver alone (= ``clone()`` +
      ``apply_action``, about a microsecond more): the :class:`herna.core.game.GameState`
      protocol, for value-style code that keeps the state before and after a move — the
      hall's :class:`~herna.hall.match.Match` (and so the CGML server, which announces what
      changed between the two), replays, tests.

    Both raise :class:`IllegalAction` (reason, code) on an illegal action and then change
    nothing. Both record the action in :meth:`history`. ``returns()`` is the money per seat
    once :meth:`is_terminal` (zeros before), ``outcome()`` the same with the reason.
    """

    __slots__ = ()

    # -- listing actions --------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move (all deal outcomes at a chance node).

        ``Claim``, ``Renonc`` and ``Resign`` are never listed: each is accepted by
        :meth:`apply_action` when it applies (see their docs).
        """
        phase = self.phase
        out: list[Action]
        if phase is _PLAY:
            m = self._legal
            if m < 0:
                m = self._legal = self.legal_play_mask()
            out = [
                *PLAY_BYTES[0][m & 255],
                *PLAY_BYTES[1][m >> 8 & 255],
                *PLAY_BYTES[2][m >> 16 & 255],
                *PLAY_BYTES[3][m >> 24],
            ]
            return out
        if phase is _DEAL:
            u = self._undealt
            out = [
                *DEAL_BYTES[0][u & 255],
                *DEAL_BYTES[1][u >> 8 & 255],
                *DEAL_BYTES[2][u >> 16 & 255],
                *DEAL_BYTES[3][u >> 24],
            ]
            return out
        if phase is _AUCTION:
            return [*YES_NO] if self.pending else [*BIDS_ABOVE[self.bid]]
        if phase is _FLEK:
            return [*self._flek_answers()[0]]
        if phase is _DISCARD:
            allowed_cards = cards_of(self.discard_allowed_mask())
            return list(map(DISCARD_OF_PAIR.__getitem__, combinations(allowed_cards, 2)))
        if phase is _GAMETYPE:
            return [*legal_gametypes(self)]
        return []

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a deal step: every undealt card's ``Deal`` with its probability (uniform)."""
        if self.phase is not _DEAL:
            return []
        u = self._undealt
        n = 32 - self.ndealt
        t = CHANCE_BYTES[n] or chance_bytes(n)
        out: list[tuple[Action, float]] = [
            *t[u & 255],
            *t[256 | u >> 8 & 255],
            *t[512 | u >> 16 & 255],
            *t[768 | u >> 24],
        ]
        return out

    def legal_gametypes(self) -> tuple[GameType, ...]:
        """Announcements allowed after this auction and discard."""
        return legal_gametypes(self)

    def _flek_answers(self) -> tuple[tuple[Flek, ...], tuple[tuple[int, ...], ...]]:
        """The flek answers of the player to move and their levels (interned, cached)."""
        seat = self.current
        levels = self.seat_levels[seat]
        allowed = self._raise_sets[seat == self.declarer]
        answers = _FLEK_ANSWERS.get((levels, allowed))
        if answers is None:
            options = tuple(self.flek_options())
            answers = _FLEK_ANSWERS[levels, allowed] = (tuple(map(flek_of, options)), options)
        return answers

    # -- applying ---------------------------------------------------------------------------
    def apply_action(self, action: Action) -> None:
        """Apply ``action`` in place; raises :class:`IllegalAction` and changes nothing.

        The common actions are checked here by bit tests and table look-ups; anything they
        do not accept goes to :meth:`_apply_checked`, which says what is wrong (or applies a
        rare action such as a claim or a renonc).
        """
        phase = self.phase
        if phase is _PLAY:
            if type(action) is Play:
                card = action.card
                m = self._legal
                if m < 0:
                    m = self.legal_play_mask()
                if card >= 0 and m >> card & 1:
                    self._log = (self.current, action, self._log)
                    self._play(card)
                    return
        elif phase is _DEAL:
            if type(action) is Deal:
                card = action.card
                u = self._undealt
                if card >= 0 and u >> card & 1:
                    self._log = (CHANCE, action, self._log)
                    bit = BIT[card]
                    self._undealt = u ^ bit
                    n = self.ndealt
                    place = DEAL_PLACES[self.dealer][n]
                    if place == 3:
                        self.talon_mask |= bit
                    else:
                        self.hands[place] |= bit
                    self.ndealt = n + 1
                    if n == 31:
                        self.phase = _AUCTION
                        self.current = self.bidder
                    return
        elif phase is _FLEK:
            if type(action) is Flek and action.levels in self._flek_answers()[1]:
                self._log = (self.current, action, self._log)
                self._flek(action.levels)
                return
        elif phase is _AUCTION:
            if self.pending:
                if type(action) is Answer:
                    self._log = (self.current, action, self._log)
                    self._answer(action.yes)
                    return
            elif type(action) is Bid:
                c = action.contract
                if c == 0 or c > self.bid:
                    self._log = (self.current, action, self._log)
                    self._bid(c)
                    return
        elif phase is _DISCARD:
            if type(action) is Discard:
                a, b = action.cards
                allowed = self.discard_allowed_mask()
                if a != b and 0 <= a < 32 and 0 <= b < 32 and allowed >> a & allowed >> b & 1:
                    self._log = (self.current, action, self._log)
                    self._discard(BIT[a] | BIT[b])
                    return
        elif phase is _GAMETYPE and type(action) is GameType and is_listed_gametype(self, action):
            self._log = (self.current, action, self._log)
            self._gametype(action.contract, action.trumps, action.second)
            return
        self._apply_checked(action)

    def apply(self, action: Action) -> MariasState:
        """The state after ``action`` (a new one; this one is left alone); raises
        :class:`IllegalAction`."""
        n: MariasState = self.clone()
        n.apply_action(action)
        return n

    def _apply_checked(self, action: Action) -> None:
        """Every action but a legal card or deal: explain what is wrong, or apply it."""
        phase = self.phase
        if isinstance(action, Deal) and phase is _DEAL:
            raise IllegalAction(f"{action.card} cannot be dealt now", "ALREADY_DEALT")
        if isinstance(action, Play) and phase is _PLAY:
            found = play_problem(self, action.card)
            assert found is not None
            raise IllegalAction(*found)
        seat = self.current
        if isinstance(action, Renonc):
            self._apply_renonc(action)
        elif isinstance(action, Resign):
            self._apply_resign()
        else:
            found = problem(self, action)
            if found is not None:
                raise IllegalAction(*found)
            if isinstance(action, Bid):
                self._bid(action.contract)
            elif isinstance(action, Answer):
                self._answer(action.yes)
            elif isinstance(action, Discard):
                a, b = action.cards
                self._discard(BIT[a] | BIT[b])
            elif isinstance(action, GameType):
                self._gametype(action.contract, action.trumps, action.second)
            elif isinstance(action, Flek):
                self._flek(action.levels)
            elif isinstance(action, Claim):
                for card in complete_claim(self, seat):
                    self._play(card)
            else:  # pragma: no cover - problem() covers every other case
                raise IllegalAction(f"not a mariáš action: {action!r}", "NOT_AN_ACTION")
        self._log = (seat, action, self._log)

    def _apply_renonc(self, renonc: Renonc) -> None:
        inner = renonc.action
        phase = self.phase
        if phase not in (Phase.DISCARD, Phase.GAMETYPE, Phase.PLAY):
            raise IllegalAction(
                "Only a discard, a game announcement or a card can be ruled a renonc",
                "NOT_A_RENONC",
            )
        expected = {Phase.DISCARD: Discard, Phase.GAMETYPE: GameType, Phase.PLAY: (Play, Claim)}
        if not isinstance(inner, expected[phase]):  # type: ignore[arg-type]
            raise IllegalAction("That is not an action of this phase", "NOT_A_RENONC")
        found = problem(self, inner)
        if found is None:
            raise IllegalAction("That action is legal: it is not a renonc", "NOT_A_RENONC")
        seat = self.current
        contract = self.won_rung
        if (
            isinstance(inner, GameType)
            and isinstance(inner.contract, Contract)
            and inner.contract >= self.won_rung
        ):
            contract = inner.contract
        seat_levels: tuple[tuple[int, ...], ...] = ((1,) * len(contract.parts),) * 3
        if phase == Phase.PLAY:
            contract, seat_levels = self.contract, self.seat_levels
        self.renonc = RenoncInfo(seat, found[0], found[1], encode_action(inner))
        self.phase = Phase.DONE
        self.current = TERMINAL
        self._settlement = settle_renonc(
            contract=contract,
            trumps=self.trumps_or_none,
            second=self.second_or_none,
            declarer=self.declarer,
            seat_levels=seat_levels,
            tariff=self.rules.tariff,
            renonc=self.renonc,
            tricks=self.tricks,
        )

    def _apply_resign(self) -> None:
        """The aktér concedes on his turn once the game is announced (a flek or a card)."""
        if self.phase not in (Phase.FLEK, Phase.PLAY):
            raise IllegalAction(
                "The game can be conceded only once it is announced, on your turn",
                "NOT_NOW",
            )
        if self.current != self.declarer:
            raise IllegalAction(
                "Only the aktér may concede the game; a defender cannot give up alone",
                "NOT_AKTER",
            )
        self.phase = Phase.DONE
        self.current = TERMINAL
        self._settlement = settle_conceded(
            contract=self.contract,
            trumps=self.trumps_or_none,
            second=self.second_or_none,
            declarer=self.declarer,
            seat_levels=self.seat_levels,
            tariff=self.rules.tariff,
            tricks=self.tricks,
        )

    # -- results ----------------------------------------------------------------------------
    def returns(self) -> list[float]:
        """Money per seat (tariff units, summing to zero) once terminal; zeros before."""
        s = self._settlement
        if s is None:
            return [0.0, 0.0, 0.0]
        m = s.money
        return [float(m[0]), float(m[1]), float(m[2])]

    def outcome(self) -> Outcome | None:
        if self.phase is not _DONE:
            return None
        s = self.settlement()
        return Outcome(
            returns=tuple(float(m) for m in s.money),
            winners=tuple(i for i in range(3) if s.money[i] > 0),
            reason=s.reason,
            details=s.to_json(),
        )

    # -- explanations, claims, views --------------------------------------------------------
    def check(self, action: Action) -> str | None:
        """Why ``action`` is illegal now (a reason for people), or None if it is legal."""
        found = problem(self, action)
        return found[0] if found else None

    def play_problem(self, card: Card) -> Problem | None:
        """Why the player to move may not play ``card`` (reason, code), or None."""
        return play_problem(self, card)

    def claim_holds(self, seat: int) -> bool:
        """Whether ``seat`` (to move, in play) wins every remaining trick against every legal
        defence (a betl aktér: loses every remaining trick). Exhaustive search."""
        return claim_holds(self, seat)

    def view(self, player: PlayerId | None) -> Mapping[str, Any]:
        """What ``player`` may see (``None``: a spectator), JSON-ready; see
        :func:`herna.games.marias.view.state_view`."""
        return state_view(self, player)

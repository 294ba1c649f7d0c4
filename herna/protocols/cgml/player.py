"""The player's side of a CGML game, sans-I/O: what one seat knows, built from the super game
server's messages, and the answers to its questions.

:class:`PlayerTracker` follows the messages of a group (``newgame``, ``dial``, ``licite``,
``playcard``, ``gametype``, ``flek``, ``round``, ``result`` ...) and, whenever the server asks
this player something, returns a :class:`Decision`. For that decision it offers the seat's
``view()`` and ``legal_actions()`` *exactly as the rules engine would compute them*, so the
engine's bots (which decide from a view and the legal actions) and the terminal client (which
offers only legal choices) work unchanged over the network.

How: the tracker rebuilds a *shadow* engine state: its own cards are real, the cards it cannot
see are dealt to the other seats at random, but consistent with everything it saw (cards
played, a player who did not follow suit holds none of that suit, the aktér's talon holds no
ace or ten in a trump game ...). The public actions are then replayed through the engine.
Nothing this seat may not know leaks into its view; the hidden cards of the shadow are a guess.

The tracker relies on Herna's ordering of the first ``dial`` (packets in dealing order, the
forhont's first) and on ``newgame ask`` listing the players in seat order.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from herna.core.errors import IllegalAction
from herna.games.marias import (
    CARD_CODES,
    RESIGN,
    Action,
    Answer,
    Bid,
    Claim,
    Contract,
    Discard,
    GameType,
    MariasState,
    Play,
    Rules,
    discard_of,
    new_game,
    parse_trumps,
)
from herna.games.marias import Flek as EngineFlek
from herna.games.marias import Resign as EngineResign
from herna.games.marias import parse_card as engine_card
from herna.games.marias import parse_flek as engine_parse_flek
from herna.games.marias.cards import BIT, TENS_ACES_MASK
from herna.games.marias.state import DEAL_TO, legal_play_mask, trick_winner_index
from herna.protocols.cgml.cards import Card
from herna.protocols.cgml.messages import (
    Abort,
    CancelGame,
    Dial,
    Error,
    Flek,
    FlekAnswer,
    FlekAsk,
    FlekInfo,
    GameTypeAnswer,
    GameTypeAsk,
    GameTypeInfo,
    LiciteAnswer,
    LiciteAsk,
    LiciteInfo,
    LiciteResult,
    Message,
    NewGameAnswer,
    NewGameAsk,
    PlayCardAsk,
    PlayCardCards,
    PlayCardInfo,
    PlayerRef,
    Renonc,
    Result,
    Trumf,
)
from herna.protocols.cgml.resign import RESIGNED, Resign

SHADOW_ATTEMPTS = 40
RESULT_FOLLOWS = ("renonc", RESIGNED)
"""``<cancelgame>`` reasons after which the deal's ``<result>`` still comes."""
"""How many random consistent deals the tracker tries before giving up."""


class TrackerError(Exception):
    """The server's messages do not fit together (or are not Herna's ordering)."""


@dataclass(frozen=True)
class Decision:
    """The server asks this player: ``newgame``, ``licite``, ``discard``, ``gametype``,
    ``flek`` or ``play``."""

    kind: str
    asked: str | None = None
    """The game asked about (``licite ask`` with a code), the won game (``gametype ask``) or
    the offered flek level."""


def to_cgml_card(card: int) -> Card:
    code = CARD_CODES[card]
    return Card(code[0], code[1:])


def action_message(action: Action) -> Message:
    """The CGML answer that carries an engine action."""
    if isinstance(action, Bid):
        return LiciteAnswer(action.contract.code)
    if isinstance(action, Answer):
        return LiciteAnswer("YES" if action.yes else "NO")
    if isinstance(action, Discard):
        return PlayCardCards(tuple(to_cgml_card(c) for c in action.cards), "hand", "talon")
    if isinstance(action, GameType):
        trumf = None
        if action.trumps is not None:
            second = None if action.second is None else "RBGA"[action.second]
            trumf = Trumf("RBGA"[action.trumps], second)
        return GameTypeAnswer(action.contract.code, trumf)
    if isinstance(action, EngineFlek):
        levels = action.levels
        return FlekAnswer(Flek(levels[0], levels[1] if len(levels) > 1 else None))
    if isinstance(action, Play):
        return PlayCardCards((to_cgml_card(action.card),), "hand", "desk")
    if isinstance(action, Claim):
        return PlayCardCards(tuple(to_cgml_card(c) for c in action.cards), "hand", "desk")
    if isinstance(action, EngineResign):
        return Resign()
    raise TypeError(f"no CGML answer carries {action!r}")


@dataclass
class _Public:
    """A public action, in order. ``hidden`` marks another player's discard."""

    seat: int
    action: Action | None
    hidden: bool = False


@dataclass
class GameRecord:
    """What the tracker learnt about one finished game (for clients to show)."""

    result: Result | None = None
    ended: str = ""
    """``result``, ``renonc``, ``resigned`` (the aktér gave up), ``abort`` or ``cancel``."""
    message: str = ""


@dataclass
class PlayerTracker:
    me: str
    rules: Rules = field(default_factory=Rules)
    rng: random.Random = field(default_factory=random.Random)
    players: list[PlayerRef] = field(default_factory=list)
    seat: int = -1
    dealer: int = -1
    dealt: list[int] = field(default_factory=list)
    talon: list[int] = field(default_factory=list)
    """The talon cards, when this player took them."""
    discard: tuple[int, int] | None = None
    declarer: int = -1
    public: list[_Public] = field(default_factory=list)
    pending: Decision | None = None
    answered: Decision | None = None
    errors: list[Error] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """Things a person should read (renonc, pause, abort, cancel) in arrival order."""
    last_game: GameRecord | None = None
    games: int = 0
    in_game: bool = False
    _auction: MariasState | None = None
    _cancelled: str = ""
    _renonc_text: str = ""
    renonc_seat: int = -1
    """The seat a ``<renonc>`` of this game names (-1: none), for the settlement breakdown."""
    renonc_reason: str = ""
    _cache: tuple[int, MariasState] | None = None
    _an: _Analysis | None = None

    # -- seats -------------------------------------------------------------------------------
    def seat_of(self, pid: str | None) -> int:
        for i, p in enumerate(self.players):
            if p.id == pid:
                return i
        raise TrackerError(f"unknown player id {pid!r}")

    def name_of(self, seat: int) -> str:
        p = self.players[seat]
        return p.name or p.id or f"seat {seat}"

    # -- messages ----------------------------------------------------------------------------
    def feed(self, message: Message) -> Decision | None:
        """Update from one server message; returns the decision it asks for, if any.

        After an ``<error>`` that answers our last answer (see :meth:`sent`), the same
        decision is returned again: nothing changed at the server and the question stands.
        """
        if isinstance(message, Error):
            self.errors.append(message)
            again, self.answered = self.answered, None
            return again
        self.answered = None
        decision = self._feed(message)
        if decision is not None:
            self.pending = decision
        return decision

    def sent(self, decision: Decision) -> None:
        """The client sent its answer to ``decision`` (an ``<error>`` next means: again)."""
        self.answered = decision

    def _feed(self, message: Message) -> Decision | None:
        if isinstance(message, NewGameAsk):
            self.players = list(message.players)
            self.seat = self.seat_of(self.me)
            self._reset()
            return Decision("newgame")
        if isinstance(message, Dial):
            return self._dial(message)
        if isinstance(message, LiciteAsk):
            return Decision("licite", message.value)
        if isinstance(message, LiciteInfo):
            self._licite_info(message)
        elif isinstance(message, LiciteResult):
            self.declarer = self.seat_of(message.playerid)
            self._cache = None  # the shadow depends on who holds the talon
        elif isinstance(message, PlayCardInfo):
            self._playcard_info(message)
        elif isinstance(message, GameTypeAsk):
            return Decision("gametype", message.licite)
        elif isinstance(message, GameTypeInfo):
            if message.flek is None:  # "Trumfy -- informace"; with <flek> it is the summary
                trumps, second = parse_trumps(str(message.trumf) if message.trumf else None)
                contract = Contract.parse(message.licite)
                self._add(self.seat_of(message.playerid), GameType(contract, trumps, second))
        elif isinstance(message, FlekAsk):
            return Decision("flek", str(message.level))
        elif isinstance(message, FlekInfo):
            contract = self._contract()
            levels = engine_parse_flek(str(message.level), len(contract.parts))
            self._add(self.seat_of(message.playerid), EngineFlek(levels))
        elif isinstance(message, PlayCardAsk):
            return Decision("play")
        elif isinstance(message, Result):
            # After a renonc or the aktér's giving up (``<resign>``) the result follows.
            ended = self._cancelled if self._cancelled in RESULT_FOLLOWS else "result"
            self.last_game = GameRecord(message, ended, self._renonc_text)
            self._game_over()
        elif isinstance(message, Renonc):
            text = f"renonc by {message.player.name or message.player.id}: {message.message}"
            self.notes.append(text)
            self._renonc_text = text
            ids = [p.id for p in self.players]
            self.renonc_seat = ids.index(message.player.id) if message.player.id in ids else -1
            self.renonc_reason = message.message or ""
        elif isinstance(message, CancelGame):
            self.notes.append(f"game cancelled: {message.reason}")
            self._cancelled = message.reason
            if message.reason not in RESULT_FOLLOWS:
                self.last_game = GameRecord(None, "cancel", message.reason)
                self._game_over()
        elif isinstance(message, Abort):
            who = message.player.name or message.player.id
            self.notes.append(f"game aborted ({message.message}) by {who}")
            self.last_game = GameRecord(None, "abort", message.message)
            self._game_over()
        # <round> (who took a trick) needs no handling: the tracker's engine state already
        # knows the winner from the cards played.
        return None

    def _reset(self) -> None:
        self.dealer = -1
        self.dealt = []
        self.talon = []
        self.discard = None
        self.declarer = -1
        self.public = []
        self.pending = None
        self._auction = None
        self._cache = None
        self._an = None
        self.in_game = True
        self.last_game = None
        self._cancelled = ""
        self._renonc_text = ""
        self.renonc_seat = -1
        self.renonc_reason = ""

    def _game_over(self) -> None:
        self.in_game = False
        self.pending = None
        self.games += 1

    def _add(self, seat: int, action: Action | None, hidden: bool = False) -> None:
        self.public.append(_Public(seat, action, hidden))
        self._cache = None

    def _dial(self, message: Dial) -> Decision | None:
        parts = message.parts
        if parts and parts[0].from_ == "desk":
            # The deal, packet by packet: the first packet goes to the forhont.
            first = parts[0]
            forhont = self.seat if first.type == "cards" else self.seat_of(first.playerid)
            self.dealer = (forhont - 1) % 3
            self.dealt = [
                engine_card(c.code)
                for p in parts
                if p.type == "cards" and p.to == "hand"
                for c in p.cards
                if c is not None
            ]
            self._auction = new_game(self.dealer, self.rules)
            self._auction.deal_all(self._any_deal())
            self._cache = None
            return None
        for p in parts:
            if p.from_ == "talon" and p.type == "cards":
                self.talon = [engine_card(c.code) for c in p.cards if c is not None]
                self.declarer = self.seat
                # A shadow built before (a client that looked at the table between messages)
                # guessed these two cards: the real ones are known now.
                self._cache = None
                return Decision("discard")
        return None

    def _any_deal(self) -> list[int]:
        """A deal order giving this seat its real cards (others arbitrary)."""
        mine = list(self.dealt)
        rest = [c for c in range(32) if c not in set(mine)]
        order: list[int] = []
        for to in DEAL_TO:
            seat = -1 if to < 0 else (self.dealer + to) % 3
            order.append(mine.pop(0) if seat == self.seat else rest.pop(0))
        return order

    def _licite_info(self, message: LiciteInfo) -> None:
        auction = self._auction
        if auction is None:
            raise TrackerError("licite info before the deal")
        seat = self.seat_of(message.playerid)
        value = message.value
        action: Action
        if auction.pending_bid is not None:
            action = Answer(value not in ("PASS", "NO"))
        else:
            action = Bid(Contract.parse("PASS" if value == "NO" else value))
        try:
            self._auction = auction.apply(action)
        except IllegalAction as e:
            raise TrackerError(f"licite info does not fit the auction: {e.reason}") from None
        self._add(seat, action)

    def _playcard_info(self, message: PlayCardInfo) -> None:
        seat = self.seat_of(message.playerid)
        if message.to == "talon":
            cards = [engine_card(c.code) for c in message.cards if c is not None]
            if seat == self.seat and len(cards) == 2:
                self.discard = (cards[0], cards[1])
                self._add(seat, discard_of(cards[0], cards[1]))
            else:
                self._add(seat, None, hidden=True)
            return
        for c in message.cards:
            if c is not None:
                self._add(seat, Play(engine_card(c.code)))

    def _contract(self) -> Contract:
        for p in reversed(self.public):
            if isinstance(p.action, GameType):
                return p.action.contract
        raise TrackerError("flek before the game was announced")

    # -- the shadow state ----------------------------------------------------------------------
    def state(self) -> MariasState:
        """An engine state consistent with everything this seat saw (hidden cards guessed)."""
        if self._cache is not None and self._cache[0] == len(self.public):
            return self._cache[1]
        if self.dealer < 0 or len(self.dealt) != 10:
            raise TrackerError("no deal yet")
        last: Exception | None = None
        for attempt in range(SHADOW_ATTEMPTS):
            try:
                state = self._build(strict=attempt < SHADOW_ATTEMPTS - 5)
            except (IllegalAction, _NoDeal) as e:
                last = e
                continue
            self._cache = (len(self.public), state)
            return state
        raise TrackerError(f"cannot rebuild a consistent game: {last}")

    def _analysis(self) -> _Analysis:
        """What the public actions say about the hidden cards (updated incrementally)."""
        an = self._an
        if an is None or an.seen > len(self.public):
            auction = new_game(self.dealer, self.rules)
            auction.deal_all(self._any_deal())
            an = self._an = _Analysis(auction, self.dealer)
        for p in self.public[an.seen :]:
            an.step(p, self.seat)
        return an

    def _build(self, strict: bool) -> MariasState:
        me = self.seat
        others = [s for s in range(3) if s != me]
        an = self._analysis()
        played, forbidden = an.played, an.forbidden
        contract, trumps, second = an.contract, an.trumps, an.second
        auction = an.auction
        declarer = an.declarer
        if declarer < 0 and self.declarer >= 0:
            declarer = self.declarer
        known = set(self.dealt) | set(self.talon)
        for s in others:
            known |= set(played[s])
        unknown = [c for c in range(32) if c not in known]
        self.rng.shuffle(unknown)
        # Slots for the unknown cards.
        hidden_discard = any(p.hidden for p in self.public)
        sizes: dict[str, int] = {}
        # Each opponent: ten cards (the aktér's talon/discards are the "t" slot) minus those
        # played; "t": the talon (or the aktér's discards) unless this seat holds it.
        for s in others:
            sizes[f"h{s}"] = 10 - len(played[s])
        sizes["t"] = 0 if declarer == me and self.talon else 2
        if sum(sizes.values()) != len(unknown):
            raise TrackerError(
                f"card count mismatch: {sum(sizes.values())} slots, {len(unknown)} unknown"
            )
        talon_forbidden = 0
        if declarer >= 0 and declarer != me and hidden_discard:
            if contract.has_trumps or auction.won_rung > Contract.BIG:
                talon_forbidden |= TENS_ACES_MASK
            if contract.announced_sevens and trumps >= 0:
                talon_forbidden |= BIT[trumps * 8]
            if contract.announced_sevens == 2 and second >= 0:
                talon_forbidden |= BIT[second * 8]
            if auction.won_rung >= Contract.B27:
                talon_forbidden |= BIT[0]
        allowed: dict[str, int] = {f"h{s}": ~forbidden[s] for s in others}
        allowed["t"] = ~talon_forbidden
        if not strict:
            allowed = {k: -1 for k in allowed}
        assign = self._assign(unknown, sizes, allowed)
        # Deal: each seat's first ten cards and the two talon cards.
        hands: dict[int, list[int]] = {me: list(self.dealt)}
        talon: list[int]
        if declarer == me and self.talon:
            talon = list(self.talon)
        else:
            talon = assign["t"]
        for s in others:
            hands[s] = played[s] + assign[f"h{s}"]
        if declarer >= 0 and declarer != me:
            # The aktér's twelve cards = his hand + the two discards; any two were the talon.
            twelve = hands[declarer] + talon
            discard = talon
            self.rng.shuffle(twelve)
            talon = twelve[:2]
            hands[declarer] = twelve[2:]
        else:
            discard = []
        deal: list[int] = []
        taken = {s: 0 for s in range(3)}
        ti = 0
        for to in DEAL_TO:
            if to < 0:
                deal.append(talon[ti])
                ti += 1
            else:
                seat = (self.dealer + to) % 3
                deal.append(hands[seat][taken[seat]])
                taken[seat] += 1
        state = new_game(self.dealer, self.rules)
        state.deal_all(deal)
        for p in self.public:
            if p.hidden:
                state = state.apply(discard_of(discard[0], discard[1]))
            elif p.action is not None:
                state = state.apply(p.action)
        return state

    def dealer_forhont(self) -> int:
        return (self.dealer + 1) % 3

    @staticmethod
    def _cannot_hold(
        card: int,
        trick: list[int],
        trumps: int,
        second: int,
        order: int,
        is_declarer: bool,
        contract: Contract,
        ntricks: int,
    ) -> int:
        """Cards whose presence in the hand would have made playing ``card`` illegal.

        The follow rule is decided card by card (a hand makes ``card`` illegal exactly when
        one of its cards together with ``card`` does), so each candidate is tested in a
        two-card hand with the engine's own rule; the aktér's reserved sevens are applied
        the way the engine applies them.
        """
        reserved = 0
        if is_declarer and contract.announced_sevens and trumps >= 0:
            if ntricks < 9:
                reserved |= BIT[trumps * 8]
            if contract.announced_sevens == 2 and second >= 0 and ntricks < 8:
                reserved |= BIT[second * 8]
        if not trick and not reserved:
            return 0
        out = 0
        for x in range(32):
            if x == card:
                continue
            m = legal_play_mask(BIT[card] | BIT[x], tuple(trick), trumps, order)
            if m & reserved and m & ~reserved:
                m &= ~reserved
            if not m >> card & 1:
                out |= BIT[x]
        return out

    def _assign(
        self, unknown: list[int], sizes: dict[str, int], allowed: dict[str, int]
    ) -> dict[str, list[int]]:
        """Put every unknown card into a slot it is allowed in, respecting the sizes."""
        slots = list(sizes)
        options = {c: [s for s in slots if allowed[s] >> c & 1 and sizes[s]] for c in unknown}
        cards = sorted(unknown, key=lambda c: len(options[c]))
        out: dict[str, list[int]] = {s: [] for s in slots}
        free = dict(sizes)
        for c in cards:
            choices = [s for s in options[c] if free[s] > 0]
            if not choices:
                raise _NoDeal(f"no place for {CARD_CODES[c]}")
            # Random, weighted by the room left (keeps later cards placeable).
            pick = self.rng.choices(choices, weights=[free[s] for s in choices])[0]
            out[pick].append(c)
            free[pick] -= 1
        return out

    # -- for deciders ----------------------------------------------------------------------------
    def view(self) -> Mapping[str, Any]:
        """This seat's view, as ``state.view(seat)`` of the real game would show it."""
        return self.state().view(self.seat)

    def legal_actions(self) -> list[Action]:
        state = self.state()
        if state.current_player() != self.seat:
            raise TrackerError("the server asks, but the rules say it is not my turn")
        return list(state.legal_actions())

    def choices(self, decision: Decision) -> list[Action]:
        """What a person may answer ``decision`` with: the legal actions, and two answers
        the rules list nowhere, both only for the aktér. Ložená hra (all the cards at once,
        shared/marias-rules.md §11: a game that cannot be lost, which only the aktér plays)
        when he leads a trick with two cards or more; and giving up the game (``Resign``)
        once it is announced, when he is asked for a flek or a card. A defender gets
        neither: a claim is the aktér's, and a defender cannot give up alone."""
        legal = self.legal_actions()
        if decision.kind not in ("play", "flek") or self.declarer != self.seat:
            return legal
        if decision.kind == "play":
            state = self.state()
            hand = state.hand(self.seat)
            if len(hand) > 1 and not state.current_trick()[1]:
                legal.append(Claim(tuple(hand)))
        legal.append(RESIGN)
        return legal

    def answer(self, action: Action) -> Message:
        """The CGML message that answers the pending question with ``action``."""
        return action_message(action)

    def newgame_answer(self, accept: bool = True) -> Message:
        me = self.players[self.seat] if 0 <= self.seat < len(self.players) else None
        return NewGameAnswer(accept, PlayerRef(self.me, me.name if me else None))

    def hand(self) -> list[int]:
        """This seat's cards now."""
        try:
            return self.state().hand(self.seat)
        except TrackerError:
            return sorted(self.dealt)


class _NoDeal(Exception):
    pass


class _Analysis:
    """A walk over the public actions: cards each opponent played and cannot hold."""

    def __init__(self, auction: MariasState, dealer: int) -> None:
        self.auction = auction
        self.dealer = dealer
        self.seen = 0
        self.played: dict[int, list[int]] = {0: [], 1: [], 2: []}
        self.forbidden = {0: 0, 1: 0, 2: 0}
        self.contract = Contract.PASS
        self.trumps = -1
        self.second = -1
        self.order = 0
        self.declarer = -1
        self.trick: list[int] = []
        self.leader = -1
        self.ntricks = 0

    def step(self, p: _Public, me: int) -> None:
        self.seen += 1
        a = p.action
        if isinstance(a, (Bid, Answer)):
            self.auction = self.auction.apply(a)
            if self.auction.declarer >= 0:
                self.declarer = self.auction.declarer
        elif isinstance(a, GameType):
            self.contract = a.contract
            self.trumps = -1 if a.trumps is None else a.trumps
            self.second = -1 if a.second is None else a.second
            self.order = 0 if a.contract.has_trumps else 1
        elif isinstance(a, Play):
            if self.leader < 0:
                forhont = (self.dealer + 1) % 3
                self.leader = forhont if self.contract.has_trumps else self.declarer
            card = a.card
            if p.seat != me:
                self.played[p.seat].append(card)
                self.forbidden[p.seat] |= PlayerTracker._cannot_hold(
                    card,
                    self.trick,
                    self.trumps,
                    self.second,
                    self.order,
                    p.seat == self.declarer,
                    self.contract,
                    self.ntricks,
                )
            self.trick.append(card)
            if len(self.trick) == 3:
                won = trick_winner_index(self.trick, self.trumps, self.order)
                self.leader = (self.leader + won) % 3
                self.trick = []
                self.ntricks += 1

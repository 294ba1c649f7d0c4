"""Why an action is illegal, in the seed's words, and the announcements a deal allows.

The fast checks live in :meth:`MariasState.apply_action` (bit tests on precomputed masks);
when one fails, or for the rare actions (auction, talon, announcement, flek, claim), the
functions here say what is wrong as ``(reason, code)``: the reason for people ("You must
play red!"), the code for programs and the CGML ``<error>``.
"""

from __future__ import annotations

from herna.games.marias.actions import (
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
)
from herna.games.marias.cards import (
    BIT,
    CARD_CODES,
    SEVENS_MASK,
    SUIT_MASK,
    TENS_ACES_MASK,
    Card,
)
from herna.games.marias.claim import claim_strategy
from herna.games.marias.contracts import Contract
from herna.games.marias.core import MariasCore
from herna.games.marias.rules import (
    GAMETYPES_FROM,
    SUIT_WORDS,
    Phase,
    legal_play_mask,
)

Problem = tuple[str, str]
"""``(reason, code)`` of an illegal action."""


def claim_holds(state: MariasCore, seat: int) -> bool:
    """Whether ``seat`` (to move, in play) wins every remaining trick against every legal
    defence (a betl aktér: loses every remaining trick). Exhaustive search."""
    return claim_strategy(state, seat) is not None


def legal_gametypes(state: MariasCore) -> tuple[GameType, ...]:
    """Announcements allowed after this auction and discard (cached by what matters)."""
    return _gametypes(state)[0]


def is_listed_gametype(state: MariasCore, g: GameType) -> bool:
    """Whether ``g`` is one of the very objects :func:`legal_gametypes` lists (a fast
    check by identity; an equal but other object is not, and gets the full check)."""
    return id(g) in _gametypes(state)[1]


_GAMETYPES: dict[tuple[Contract, bool, int], tuple[tuple[GameType, ...], frozenset[int]]] = {}


def _gametypes(state: MariasCore) -> tuple[tuple[GameType, ...], frozenset[int]]:
    d = state.discarded
    key = (state.won_rung, bool(d & TENS_ACES_MASK), d & SEVENS_MASK)
    cached = _GAMETYPES.get(key)
    if cached is None:
        legal = tuple(
            g for g in GAMETYPES_FROM[state.won_rung] if gametype_problem(state, g) is None
        )
        cached = _GAMETYPES[key] = (legal, frozenset(map(id, legal)))
    return cached


def gametype_problem(state: MariasCore, g: GameType) -> Problem | None:
    """Why the aktér may not announce ``g`` after this auction and discard, or None."""
    c = g.contract
    if not isinstance(c, Contract) or c == Contract.PASS:
        return "PASS is not a contract", "BAD_CONTRACT"
    if c < state.won_rung:
        return (
            f"The auction was won at {state.won_rung.code}: you may keep or raise it, "
            f"not announce {c.code}",
            "CONTRACT_TOO_LOW",
        )
    if not c.has_trumps:
        if g.trumps is not None or g.second is not None:
            return f"{c.code} is played without trumps", "NO_TRUMPS_IN_BETL_DURCH"
        return None
    if g.trumps is None or g.trumps not in (0, 1, 2, 3):
        return f"{c.code} needs a trump suit", "TRUMPS_MISSING"
    if c.hearts and g.trumps != 0:
        return f"{c.code} is played with red (R) trumps", "HEARTS_REQUIRED"
    if not c.hearts and g.trumps == 0:
        return f"red trumps make {c.code} the better game B{c.code}", "HEARTS_MEANS_BETTER"
    if c.has_second_suit:
        if g.second is None or g.second not in (0, 1, 2, 3) or g.second == g.trumps:
            return (
                f"{c.code} needs a second (strkací) suit other than trumps, e.g. G:B",
                "SECOND_SUIT_MISSING",
            )
    elif g.second is not None:
        return f"{c.code} has no second suit", "NO_SECOND_SUIT"
    d = state.discarded
    if d & TENS_ACES_MASK:
        return (
            "An ace or a ten lies in the talon: only betl or durch can be played",
            "ACE_TEN_IN_TALON",
        )
    if c.announced_sevens and d & BIT[g.trumps * 8]:
        return f"The announced seven {CARD_CODES[g.trumps * 8]} lies in the talon", (
            "SEVEN_IN_TALON"
        )
    if c.announced_sevens == 2 and g.second is not None and d & BIT[g.second * 8]:
        return f"The announced seven {CARD_CODES[g.second * 8]} lies in the talon", (
            "SEVEN_IN_TALON"
        )
    return None


def problem(state: MariasCore, action: Action) -> Problem | None:
    """Why ``action`` is illegal now, or None when it is legal."""
    phase = state.phase
    seat = state.current
    if phase == Phase.DONE:
        return "The game is over", "GAME_OVER"
    if isinstance(action, Renonc):
        return "A renonc is ruled by the server, it is not a move", "NOT_A_MOVE"
    if phase == Phase.DEAL:
        if not isinstance(action, Deal):
            return "The cards are being dealt", "WRONG_PHASE"
        if not 0 <= action.card < 32:
            return f"{action.card} is not a card", "ALREADY_DEALT"
        if not state.undealt_mask() >> action.card & 1:
            return f"{CARD_CODES[action.card]} has been dealt already", "ALREADY_DEALT"
        return None
    if phase == Phase.AUCTION:
        if state.pending:
            if not isinstance(action, Answer):
                return (
                    f"Answer YES or NO: do you have {state.bid.code}?",
                    "ANSWER_YES_OR_NO",
                )
            return None
        if not isinstance(action, Bid):
            return "Offer a game or PASS", "OFFER_A_GAME"
        if action.contract != Contract.PASS and action.contract <= state.bid:
            return (
                f"Offer a game above {state.bid.code} or PASS",
                "BID_TOO_LOW",
            )
        return None
    if phase == Phase.DISCARD:
        return _discard_problem(state, action, seat)
    if phase == Phase.GAMETYPE:
        if not isinstance(action, GameType):
            return "Announce the game and trumps", "ANNOUNCE_GAME"
        return gametype_problem(state, action)
    if phase == Phase.FLEK:
        if not isinstance(action, Flek):
            return "Answer the flek", "ANSWER_FLEK"
        if action.levels not in state.flek_options():
            return (
                f"You may keep the flek at {state.flek_text(seat)} or raise a "
                "part one step (defenders 2 and 8, the aktér 4 and 16)",
                "BAD_FLEK",
            )
        return None
    # PLAY
    if isinstance(action, Claim):
        if sorted(action.cards) != state.hand(seat):
            return "A claim lays down all your remaining cards", "CLAIM_NOT_WHOLE_HAND"
        if not claim_holds(state, seat):
            return (
                "The rest is not ložená: some legal defence beats the claim",
                "CLAIM_FAILS",
            )
        return None
    if not isinstance(action, Play):
        return "Play a card", "PLAY_A_CARD"
    return play_problem(state, action.card)


def _discard_problem(state: MariasCore, action: Action, seat: int) -> Problem | None:
    if not isinstance(action, Discard):
        return "Lay two cards into the talon", "DISCARD_TWO"
    a, b = action.cards
    hand = state.hands[seat]
    if a == b or not (0 <= a < 32 and 0 <= b < 32):
        return "Lay two different cards into the talon", "DISCARD_TWO"
    for c in (a, b):
        if not hand >> c & 1:
            return f"You do not hold {CARD_CODES[c]}!", "NOT_IN_HAND"
    allowed = state.discard_allowed_mask()
    for c in (a, b):
        if not allowed >> c & 1:
            if BIT[c] & TENS_ACES_MASK:
                return (
                    f"Aces and tens may not go to the talon in {state.won_rung.code}!",
                    "ACE_TEN_TO_TALON",
                )
            return (
                f"The announced seven {CARD_CODES[c]} may not go to the talon!",
                "SEVEN_TO_TALON",
            )
    return None


def play_problem(state: MariasCore, card: Card) -> Problem | None:
    """Why the player to move may not play ``card`` (reason, code), or None."""
    seat = state.current
    hand = state.hands[seat]
    if not 0 <= card < 32 or not hand >> card & 1:
        code = CARD_CODES[card] if 0 <= card < 32 else str(card)
        return f"You do not hold {code}!", "NOT_IN_HAND"
    legal = state.legal_play_mask()
    if legal >> card & 1:
        return None
    trick = state.trick
    base = legal_play_mask(hand, trick, state.trumps, state.order)
    if base >> card & 1:  # legal by the 11 steps, so it is a reserved seven
        if card == state.trumps * 8:
            return (
                f"You must keep the announced seven {CARD_CODES[card]} for the last trick!",
                "SEVEN_RESERVED",
            )
        return (
            f"You must keep the strkací seven {CARD_CODES[card]} for the ninth trick!",
            "SEVEN_RESERVED",
        )
    led = trick[0] >> 3
    if hand & SUIT_MASK[led]:
        if card >> 3 != led:
            return f"You must play {SUIT_WORDS[led]}!", "MUST_FOLLOW_SUIT"
        return f"You must play a higher {SUIT_WORDS[led]} card!", "MUST_OVERTAKE"
    t = state.trumps
    if card >> 3 != t:
        return f"You must trump with {SUIT_WORDS[t]}!", "MUST_TRUMP"
    return f"You must play a higher {SUIT_WORDS[t]} trump!", "MUST_OVERTRUMP"


__all__ = [
    "Problem",
    "claim_holds",
    "gametype_problem",
    "is_listed_gametype",
    "legal_gametypes",
    "play_problem",
    "problem",
]

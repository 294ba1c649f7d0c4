"""Sampling hidden cards consistent with one seat's view (determinization for PIMC).

From the view we know our own cards, every card played and by whom, the public auction,
contract and fleks, and (as aktér) our own talon. The other hands and the talon are dealt at
random among the unseen cards, respecting what the play revealed: a player who did not follow
suit is void in it, one who did not trump has no trumps, one who did not overtake has nothing
higher, and a trump-game talon holds no aces, tens or announced sevens. The public history is
then replayed on the sampled deal, which also checks the sample (a failed check resamples).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from herna.games.marias.actions import Action, Discard, decode_action, discard_of
from herna.games.marias.bots.base import BotRng
from herna.games.marias.bots.observation import Observation
from herna.games.marias.bots.rule_bot import (
    betl_risk,
    comfortable,
    durch_bad_cards,
    trump_points,
)
from herna.games.marias.cards import (
    ABOVE,
    BIT,
    KING,
    OBER,
    SUIT_MASK,
    TENS_ACES_MASK,
    cards_of,
)
from herna.games.marias.contracts import Contract, Part, Rules
from herna.games.marias.log import deal_for
from herna.games.marias.rules import STRENGTH
from herna.games.marias.state import MariasState, Phase, new_game
from herna.games.marias.view import rules_of_view

TALON = 3  # slot index of the talon in the samplers


def inferred_voids(obs: Observation) -> list[int]:
    """Per seat, a mask of cards that seat cannot hold any more (from the follow rules)."""
    forbidden = [0, 0, 0]
    order = obs.order
    trumps = obs.trumps
    strength = STRENGTH[order]
    tricks = [(t.leader, t.cards) for t in obs.tricks]
    if obs.trick:
        tricks.append((obs.leader, obs.trick))
    reserved = 0
    if obs.declarer >= 0 and obs.contract.announced_sevens:
        reserved = BIT[trumps * 8] | (BIT[obs.second * 8] if obs.second >= 0 else 0)
    for leader, cards in tricks:
        led = cards[0] >> 3
        for i in range(1, len(cards)):
            seat = (leader + i) % 3
            card = cards[i]
            before = cards[:i]
            f = 0
            if card >> 3 != led:
                f |= SUIT_MASK[led]
                if trumps >= 0 and card >> 3 != trumps:
                    f |= SUIT_MASK[trumps]
                elif trumps >= 0:
                    hi = -1
                    for c in before:
                        if c >> 3 == trumps and (hi < 0 or strength[c] > strength[hi]):
                            hi = c
                    if hi >= 0 and strength[card] < strength[hi]:
                        f |= ABOVE[order][hi]
            else:
                trumped = trumps >= 0 and led != trumps and any(c >> 3 == trumps for c in before)
                if not trumped:
                    hi = cards[0]
                    for c in before:
                        if c >> 3 == led and strength[c] > strength[hi]:
                            hi = c
                    if strength[card] < strength[hi]:
                        f |= ABOVE[order][hi]
            if seat == obs.declarer:
                f &= ~reserved
            forbidden[seat] |= f
    return forbidden


def _hidden_layout(obs: Observation, hand_sizes: list[int]) -> tuple[list[int], int]:
    """Capacity of each slot (seats 0-2 and the talon) for unseen cards, and the known mask."""
    me = obs.seat
    known = obs.hand | obs.played | obs.talon
    caps = [0, 0, 0, 0]
    for s in range(3):
        if s != me:
            caps[s] = hand_sizes[s]
    if obs.declarer < 0 or (obs.declarer != me and obs.phase > Phase.DISCARD):
        caps[TALON] = 2
    return caps, known


def sample_hidden(
    obs: Observation, hand_sizes: list[int], rng: BotRng, tries: int = 50
) -> list[int] | None:
    """Masks of the unseen cards for seats 0-2 and the talon (index 3), or None."""
    caps, known = _hidden_layout(obs, hand_sizes)
    unseen = cards_of(~known & 0xFFFFFFFF)
    if sum(caps) != len(unseen):
        raise ValueError("view is inconsistent: hidden slots do not match unseen cards")
    forbidden = [*inferred_voids(obs), 0]
    if obs.declarer >= 0 and obs.phase > Phase.DISCARD and obs.contract.has_trumps:
        forbidden[TALON] |= TENS_ACES_MASK
        if obs.contract.announced_sevens:
            forbidden[TALON] |= BIT[obs.trumps * 8]
            if obs.second >= 0:
                forbidden[TALON] |= BIT[obs.second * 8]
    decl = obs.declarer
    if decl >= 0 and decl != obs.seat and obs.phase > Phase.GAMETYPE:
        # The aktér holds what he announced: his sevens, and for sto the trump marriage.
        implied = 0
        if obs.contract.announced_sevens:
            implied |= BIT[obs.trumps * 8]
            if obs.second >= 0:
                implied |= BIT[obs.second * 8]
        if Part.STO in obs.contract.parts:
            implied |= BIT[obs.trumps * 8 + KING] | BIT[obs.trumps * 8 + OBER]
        implied &= ~known
        for slot in range(4):
            if slot != decl:
                forbidden[slot] |= implied
    slots = [s for s in range(4) if caps[s]]
    for attempt in range(tries):
        relax = attempt >= tries - 5  # last resort: ignore inferences
        options = {c: [s for s in slots if relax or not forbidden[s] >> c & 1] for c in unseen}
        order = sorted(unseen, key=lambda c: (len(options[c]), rng.random()))
        left = caps[:]
        out = [0, 0, 0, 0]
        ok = True
        for c in order:
            choices = [s for s in options[c] if left[s] > 0]
            if not choices:
                ok = False
                break
            total = sum(left[s] for s in choices)
            r = rng.random() * total
            for s in choices:
                r -= left[s]
                if r < 0:
                    break
            out[s] |= BIT[c]
            left[s] -= 1
        if ok:
            return out
    return None


def _judged(hand: int) -> tuple[list[Contract], list[Contract]]:
    """The contracts the careful and the first rule judgement would play with ``hand``."""
    return comfortable(hand, True), comfortable(hand, False)


def auction_fits(hand: int, seat: int, auction: tuple[tuple[int, str], ...]) -> bool:
    """Could ``seat``, dealt ``hand`` (ten cards), have bid as the public auction says?

    A player is assumed to bid what he could play: an offer needs a hand that either rule
    judgement would play at that level or higher in the same kind of game (a trump game, or
    betl/durch), a "yes" one it would play at that level or higher, and a pass or a "no" a
    hand that at least one judgement would not raise. Lenient on purpose (people and the
    easy bot judge differently); it keeps an opponent who bid sto or betl from being dealt a
    random hand, which made the worlds overrate bids and fleks (issue #19)."""
    judged: tuple[list[Contract], list[Contract]] | None = None
    bid = Contract.PASS
    for s, text in auction:
        answer = text == "YES" or text == "NO"
        c = bid if answer else Contract.PASS if text == "PASS" else Contract.parse(text)
        if s == seat:
            judged = judged or _judged(hand)
            careful, careless = judged
            lowest_top = min(careful[-1] if careful else 0, careless[-1] if careless else 0)
            if text == "YES":
                if not any(x >= bid for x in careful + careless):
                    return False
            elif text == "NO" or text == "PASS":
                if lowest_top > bid or (text == "NO" and lowest_top == bid):
                    return False
            elif not any(x >= c and x.is_betl_durch == c.is_betl_durch for x in careful + careless):
                return False
        if not answer and c != Contract.PASS:
            bid = c
    return True


def _dealt_hands(obs: Observation, hidden: list[int]) -> list[int]:
    """Each seat's ten cards in the auction as far as the sample says (the aktér after the
    talon: the ten he kept)."""
    out = [hidden[s] for s in range(3)]
    out[obs.seat] = obs.hand
    for t in obs.tricks:
        for i, c in enumerate(t.cards):
            out[(t.leader + i) % 3] |= BIT[c]
    for i, c in enumerate(obs.trick):
        out[(obs.leader + i) % 3] |= BIT[c]
    return out


def _bids_fit(obs: Observation, hidden: list[int]) -> bool:
    hands = _dealt_hands(obs, hidden)
    return all(
        auction_fits(hands[s], s, obs.auction)
        for s in range(3)
        if s != obs.seat and any(p == s for p, _ in obs.auction)
    )


def determinize(
    view: Mapping[str, Any],
    obs: Observation,
    rng: BotRng,
    tries: int = 20,
    bid_tries: int = 0,
) -> MariasState | None:
    """A full state consistent with ``view``: sampled hidden cards + the replayed history.

    With ``bid_tries`` > 0 up to that many samples whose hands do not fit the public
    auction (:func:`auction_fits`) are thrown away first (cheap: before the replay)."""
    sizes = list(view["hand_sizes"])
    history = [(int(seat), str(text)) for seat, text in view["history"]]
    rules = rules_of_view(view)
    fallback: MariasState | None = None
    for attempt in range(tries):
        hidden = sample_hidden(obs, sizes, rng)
        if hidden is None:
            return fallback
        while bid_tries > 0 and not _bids_fit(obs, hidden):
            bid_tries -= 1
            resampled = sample_hidden(obs, sizes, rng)
            if resampled is None:
                break
            hidden = resampled
        state = _rebuild(obs, hidden, history, rules)
        if state is None:
            continue
        if attempt >= tries - 4 or plausible(state, obs):
            return state
        fallback = fallback or state
    return fallback


def _held(state: MariasState, seat: int) -> int:
    """The cards ``seat`` held after the talon: in hand, played, and (aktér) laid away."""
    cards = state.hands[seat] | (state.discarded if seat == state.declarer else 0)
    for t in state.tricks:
        cards |= BIT[t.cards[(seat - t.leader) % 3]]
    if state.trick and (seat - state.leader) % 3 < len(state.trick):
        cards |= BIT[state.trick[(seat - state.leader) % 3]]
    return cards


def plausible(state: MariasState, obs: Observation) -> bool:
    """Do the sampled hands of the others look like hands that would have done what they did
    (the aktér announce his contract and say re, a defender say flek)?"""
    decl = state.declarer
    if decl < 0 or state.phase <= Phase.GAMETYPE:
        return True
    c = state.contract
    raised = {seat for seat, text in state.flek_log if text != "1" and text != "1:1"}
    for seat in raised - {obs.seat, decl}:  # a defender who flekked a trump game holds trumps
        if c.has_trumps and (_held(state, seat) & SUIT_MASK[state.trumps]).bit_count() < 3:
            return False
    if decl == obs.seat:
        return True
    cards12 = _held(state, decl)
    if c.has_trumps:
        need = 3 if c <= Contract.BG else 5 if c >= Contract.C27 else 4
        if (cards12 & SUIT_MASK[state.trumps]).bit_count() < need:
            return False
        # An aktér who said re holds a strong hand.
        return decl not in raised or trump_points(cards12, state.trumps) >= 80
    ten = cards12 & ~state.discarded
    if c == Contract.SMALL:
        return sum(sorted(betl_risk(ten), reverse=True)) <= 2
    return durch_bad_cards(ten) <= 1


def _rebuild(obs: Observation, hidden: list[int], history: list[tuple[int, str]],
             rules: Rules) -> MariasState | None:  # fmt: skip
    me = obs.seat
    played_by = [0, 0, 0]
    for t in obs.tricks:
        for i, c in enumerate(t.cards):
            played_by[(t.leader + i) % 3] |= BIT[c]
    for i, c in enumerate(obs.trick):
        played_by[(obs.leader + i) % 3] |= BIT[c]
    now = [hidden[s] for s in range(3)]
    now[me] = obs.hand
    full = [now[s] | played_by[s] for s in range(3)]
    talon = hidden[TALON]
    if obs.declarer >= 0:
        d = obs.declarer
        laid = obs.talon if d == me else talon
        if obs.phase > Phase.DISCARD:
            full[d] |= laid
            talon_cards = cards_of(laid)
        else:  # the aktér holds 12 cards and has not discarded yet: any 2 were the talon
            talon_cards = cards_of(full[d])[:2]
        full[d] &= ~(BIT[talon_cards[0]] | BIT[talon_cards[1]])
    else:
        talon_cards = cards_of(talon)
    try:
        deal = deal_for(obs.dealer, [cards_of(m) for m in full], talon_cards)
    except ValueError:
        return None
    state = new_game(obs.dealer, rules)
    for a in deal:
        state.apply_action(a)
    try:
        for seat, text in history:
            action: Action
            if text == "discard":
                action = (
                    discard_of(*cards_of(talon))
                    if talon.bit_count() == 2
                    else Discard((talon_cards[0], talon_cards[1]))
                )
            else:
                action = decode_action(text)
            if state.current != seat:
                return None
            state.apply_action(action)
    except Exception:
        return None
    if state.hands[me] != obs.hand:
        return None
    return state

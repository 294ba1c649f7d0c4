"""A rule-based bot: bids from hand strength, discards for voids, plays standard heuristics.

It decides from its :class:`~herna.games.marias.bots.observation.Observation` only (built from
the seat's view). The same :func:`rule_policy` drives the simulated players inside the search
bot, so it is written to be quick.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from herna.games.marias.actions import (
    NO,
    YES,
    Action,
    Bid,
    Flek,
    GameType,
    Play,
    discard_of,
)
from herna.games.marias.bots.base import BotRng
from herna.games.marias.bots.judgement import (
    best_discard,
    betl_lost_suits,
    betl_safe,
    durch_lost_suits,
    side_marriages,
    sto_chance,
)
from herna.games.marias.bots.observation import Observation
from herna.games.marias.cards import (
    ABOVE,
    ACE,
    BIT,
    FULL_DECK_MASK,
    KING,
    OBER,
    POINTS,
    SEVEN,
    SUIT_MASK,
    TEN,
    TENS_ACES_MASK,
    cards_of,
)
from herna.games.marias.contracts import Contract, Part
from herna.games.marias.rules import STRENGTH, trick_winner_index
from herna.games.marias.state import Phase

# ---------------------------------------------------------------------------------------------
# Hand evaluation


def _has(hand: int, suit: int, rank: int) -> bool:
    return bool(hand >> (suit * 8 + rank) & 1)


def trump_points(hand: int, trumps: int) -> float:
    """Rough estimate of the points (cards, marriages, last trick) the aktér makes with
    ``hand`` and these trumps."""
    tmask = SUIT_MASK[trumps]
    nt = (hand & tmask).bit_count()
    est = 0.0
    if _has(hand, trumps, ACE):
        est += 10
    if _has(hand, trumps, TEN):
        est += 9 if (_has(hand, trumps, ACE) or nt >= 4) else 5
    voids = 0
    for s in range(4):
        if s == trumps:
            continue
        n = (hand & SUIT_MASK[s]).bit_count()
        if n == 0:
            voids += 1
        if _has(hand, s, ACE):
            est += 9
            if _has(hand, s, TEN):
                est += 7
        elif _has(hand, s, TEN):
            est += 2 if n >= 3 else 0
        if _has(hand, s, KING) and _has(hand, s, OBER):
            est += 20
    if _has(hand, trumps, KING) and _has(hand, trumps, OBER):
        est += 40
    est += max(0, nt - 2) * 6 + voids * 4 * min(nt, 3) / 3
    if nt >= 5:
        est += 10
    elif nt == 4:
        est += 5
    return est


def seven_chance(hand: int, trumps: int) -> float:
    """How likely the trump seven survives to take the last trick (0..1, rough)."""
    if not _has(hand, trumps, SEVEN):
        return 0.0
    nt = (hand & SUIT_MASK[trumps]).bit_count()
    top = int(_has(hand, trumps, ACE)) + int(_has(hand, trumps, TEN))
    score = nt + 0.5 * top
    return max(0.0, min(0.95, (score - 3.5) / 3.0))


def betl_risk(hand: int) -> list[int]:
    """Risk of each card in betl (higher: more likely to be forced to take a trick)."""
    risks: list[int] = []
    for s in range(4):
        cards = cards_of(hand & SUIT_MASK[s])  # ascending: betl order = natural order
        for i, c in enumerate(cards):
            r = c & 7
            risks.append(max(0, r - 2 * i))
    return risks


def durch_bad_cards(hand: int) -> int:
    """Cards of ``hand`` in suits that could lose a trick in durch (betl order, aktér leads):
    a suit is safe when the cards above the defenders' best card outnumber their cards."""
    bad = 0
    for s in range(4):
        mine = hand & SUIT_MASK[s]
        n = mine.bit_count()
        if n == 0 or n == 8:
            continue
        theirs = SUIT_MASK[s] & ~mine
        top = theirs.bit_length() - 1
        above = (mine & ~((1 << (top + 1)) - 1)).bit_count()
        if above < 8 - n:
            bad += n
    return bad


def contract_scores(hand: int, careful: bool = True) -> dict[tuple[Contract, int], float]:
    """Confidence (>= 1 means "happy to play") of each contract this hand could play.

    ``careful`` (the default) judges sto by the card points plus the trump 40 alone, as the
    evaluation counts only the aktér's first marriage, and betl/durch by
    :mod:`~herna.games.marias.bots.judgement`; ``careful=False`` is the judgement of the
    first rule bot (sto by every marriage, betl by a rank formula), kept as the easy level."""
    out: dict[tuple[Contract, int], float] = {}
    for t in range(4):
        pts = trump_points(hand, t)
        sev = seven_chance(hand, t)
        has40 = _has(hand, t, KING) and _has(hand, t, OBER)
        hra = pts / 55.0
        if careful:
            cards = pts - 40 - 20 * side_marriages(hand, t)
            sto = sto_chance(cards) / STO_HAPPY if has40 else 0.0
        else:
            sto = (pts / 110.0) if has40 else 0.0
        if t == 0:
            out[(Contract.BG, t)] = hra
            out[(Contract.B7, t)] = min(hra, sev / 0.6)
            out[(Contract.B100, t)] = sto
            out[(Contract.B107, t)] = min(sto, sev / 0.6)
        else:
            out[(Contract.G, t)] = hra
            out[(Contract.C7, t)] = min(hra, sev / 0.55)
            out[(Contract.C100, t)] = sto
            out[(Contract.C107, t)] = min(sto, sev / 0.55)
    if careful:
        out[(Contract.SMALL, -1)] = _careful_betl(hand)
        out[(Contract.BIG, -1)] = _careful_durch(hand)
        return out
    risks = sorted(betl_risk(hand), reverse=True)
    out[(Contract.SMALL, -1)] = 1.0 if sum(risks[2:]) <= 1 and risks[2] <= 1 else 0.0
    out[(Contract.BIG, -1)] = 1.0 if durch_bad_cards(hand) <= 2 else 0.0
    return out


STO_HAPPY = 0.8
"""Chance of making sto at which the careful bot is happy to play it (a lost sto costs the
missing tens and the defenders' marriages too, so it wants a clear favourite)."""


def _careful_betl(hand: int) -> float:
    """1 if the hand (10 cards: the final hand, or before the talon with two discards to come)
    has a safe betl against every other card, 0.6 if discarding two cards would make it safe
    (before the talon: the talon's two cards may then spoil it), else 0."""
    theirs = FULL_DECK_MASK & ~hand
    if betl_safe(hand, theirs):
        return 1.0
    lost, _a, _b = best_discard(hand, betl_lost_suits)
    return 0.6 if lost == 0 else 0.0


def _careful_durch(hand: int) -> float:
    theirs = FULL_DECK_MASK & ~hand
    if durch_lost_suits(hand, theirs) == 0:
        return 1.0
    lost, _a, _b = best_discard(hand, durch_lost_suits)
    return 0.6 if lost == 0 else 0.0


_COMFORT_CACHE: dict[tuple[int, bool], list[Contract]] = {}
_PLAN_CACHE: dict[tuple[int, Contract, bool], list[tuple[float, GameType, tuple[int, int]]]] = {}
_CACHE_LIMIT = 50_000


def comfortable(hand: int, careful: bool = True) -> list[Contract]:
    """Contracts the bot would bid with ``hand`` before seeing the talon, lowest first."""
    cached = _COMFORT_CACHE.get((hand, careful))
    if cached is None:
        scores = contract_scores(hand, careful)
        cached = sorted({c for (c, _), v in scores.items() if v >= 1.0})
        if len(_COMFORT_CACHE) > _CACHE_LIMIT:
            _COMFORT_CACHE.clear()
        _COMFORT_CACHE[(hand, careful)] = cached
    return cached


# ---------------------------------------------------------------------------------------------
# Discard and announcement


def _discard_for_trumps(hand: int, trumps: int, keep: int) -> tuple[int, int]:
    """Two cards to lay away in a trump game: no aces/tens, no trumps, make voids."""
    cand = [c for c in cards_of(hand & ~TENS_ACES_MASK & ~SUIT_MASK[trumps] & ~keep)]
    if len(cand) < 2:
        cand = cards_of(hand & ~TENS_ACES_MASK & ~keep)
    if len(cand) < 2:
        cand = cards_of(hand & ~keep)

    def cost(c: int) -> tuple[int, int, int]:
        s = c >> 3
        n = (hand & SUIT_MASK[s]).bit_count()
        marriage = int((c & 7) in (KING, OBER) and bool(hand >> (c ^ 3) & 1))
        protects_ten = int(bool(hand >> (s * 8 + TEN) & 1) and not hand >> (s * 8 + ACE) & 1)
        return (marriage, protects_ten * (3 - min(n, 3)), n * 8 + (c & 7))

    cand.sort(key=cost)
    return cand[0], cand[1]


def _discard_for_betl(hand: int) -> tuple[int, int]:
    cards = cards_of(hand)
    risk = {c: 0 for c in cards}
    for s in range(4):
        suit = cards_of(hand & SUIT_MASK[s])
        for i, c in enumerate(suit):
            risk[c] = max(0, (c & 7) - 2 * i) * 10 + (c & 7)
    cards.sort(key=lambda c: -risk[c])
    return cards[0], cards[1]


def _discard_for_durch(hand: int) -> tuple[int, int]:
    def unsafe(c: int) -> int:
        return durch_bad_cards(hand & SUIT_MASK[c >> 3])

    cards = sorted(cards_of(hand), key=lambda c: (-unsafe(c), c & 7))
    return cards[0], cards[1]


def plan_game(
    hand12: int, won_rung: Contract, careful: bool = True
) -> tuple[GameType, tuple[int, int]]:
    """The contract to announce and the discard for it, from the 12 cards after the talon."""
    options = plan_options(hand12, won_rung, careful)
    return options[0][1], options[0][2]


def plan_options(
    hand12: int, won_rung: Contract, careful: bool = True
) -> list[tuple[float, GameType, tuple[int, int]]]:
    """(estimated value, contract, discard) plans, best first (``hand12`` may also be the
    ten cards plus the laid talon)."""
    key = (hand12, won_rung, careful)
    cached = _PLAN_CACHE.get(key)
    if cached is None:
        cached = _plan_options(hand12, won_rung, careful)
        if len(_PLAN_CACHE) > _CACHE_LIMIT:
            _PLAN_CACHE.clear()
        _PLAN_CACHE[key] = cached
    return cached


def _plan_options(
    hand12: int, won_rung: Contract, careful: bool
) -> list[tuple[float, GameType, tuple[int, int]]]:
    options: list[tuple[float, GameType, tuple[int, int]]] = []
    allow_ace_ten = won_rung <= Contract.BIG
    for t in range(4):
        seven = BIT[t * 8]
        for contract in (Contract.G, Contract.C7, Contract.C100, Contract.C107):
            if careful:
                c = _HEARTS_VERSION[contract] if t == 0 else contract
            else:
                # The first bot's mapping (hearts sto came out as 107, hearts 107 as B100).
                c = Contract(contract + 1) if t == 0 else contract
            if c < won_rung:
                continue
            keep = seven if c.announced_sevens else 0
            d = _discard_for_trumps(hand12, t, keep)
            if (BIT[d[0]] | BIT[d[1]]) & TENS_ACES_MASK:
                continue
            rest = hand12 & ~(BIT[d[0]] | BIT[d[1]])
            hf = 2 if t == 0 else 1
            if careful and contract in (Contract.C100, Contract.C107):
                ev = _sto_ev(rest, t, 4 * hf)
                if contract == Contract.C107:
                    ev += (2 * seven_chance(rest, t) - 1) * 2 * hf
                options.append((ev, GameType(c, t), d))
                continue
            score = contract_scores(rest, careful).get((c, t), 0.0)
            value = {1: 1, 3: 3, 5: 4, 6: 6}[int(contract)] * hf
            options.append((_ev(score, value), GameType(c, t), d))
    # Betl and durch may be announced after any auction up to BIG.
    for c in (Contract.SMALL, Contract.BIG):
        if c < won_rung:
            continue
        value = 15 if c == Contract.SMALL else 30
        if careful:
            lost_suits = betl_lost_suits if c == Contract.SMALL else durch_lost_suits
            lost, a, b = best_discard(hand12, lost_suits)
            d = (a, b)
            if not allow_ace_ten and (BIT[a] | BIT[b]) & TENS_ACES_MASK:
                continue
            rest = hand12 & ~(BIT[a] | BIT[b])
            safe = lost == 0 and (c == Contract.BIG or betl_safe(rest, FULL_DECK_MASK & ~hand12))
            p = BETL_DURCH_SAFE if safe else _BETL_DURCH_AT_RISK[min(lost, 3)]
            options.append(((2 * p - 1) * value, GameType(c), d))
            continue
        d = _discard_for_betl(hand12) if c == Contract.SMALL else _discard_for_durch(hand12)
        if not allow_ace_ten and (BIT[d[0]] | BIT[d[1]]) & TENS_ACES_MASK:
            continue
        rest = hand12 & ~(BIT[d[0]] | BIT[d[1]])
        score = contract_scores(rest, careful)[(c, -1)]
        options.append((_ev(score, value) - 0.5, GameType(c), d))
    if won_rung >= Contract.C27:
        options.extend(_two_sevens_options(hand12, won_rung))
    options.sort(key=lambda o: -o[0])
    if not options:  # pragma: no cover - betl/durch or dvě sedmy are always possible
        raise ValueError("no contract to announce")
    return options


_HEARTS_VERSION = {
    Contract.G: Contract.BG,
    Contract.C7: Contract.B7,
    Contract.C100: Contract.B100,
    Contract.C107: Contract.B107,
}

BETL_DURCH_SAFE = 0.85
"""Chance the careful bot gives a betl or durch its judgement calls safe (the model pools
the defenders' cards, so a void defender can still spoil one now and then)."""
_BETL_DURCH_AT_RISK = (0.6, 0.45, 0.3, 0.15)
"""Its chance with 0 (but no safe first lead), 1, 2, 3+ suits the defenders can force; from
the first bot's betls over 3,000 deals (44 % won with one such suit, 31 % with two)."""


def _sto_ev(rest: int, trumps: int, value: int) -> float:
    """Expected money per defender of announced sto with these ten cards: won, it pays the
    tariff per ten over 100 (about 1.5 tariffs on average); lost, per ten short plus the
    defenders' marriages (about 2.5 tariffs)."""
    if not (_has(rest, trumps, KING) and _has(rest, trumps, OBER)):
        return -3.0 * value
    cards = trump_points(rest, trumps) - 40 - 20 * side_marriages(rest, trumps)
    p = sto_chance(cards)
    return p * 1.5 * value - (1 - p) * 2.5 * value


def _ev(score: float, value: int) -> float:
    p = max(0.02, min(0.97, 0.5 + (score - 1.0) * 1.2))
    return (2 * p - 1) * value


def _two_sevens_options(hand12: int, won_rung: Contract) -> list[tuple[float, GameType, tuple[
        int, int]]]:  # fmt: skip
    out: list[tuple[float, GameType, tuple[int, int]]] = []
    for c in (Contract.C27, Contract.C127, Contract.B27, Contract.B127):
        if c < won_rung:
            continue
        trump_choices = (0,) if c.hearts else (1, 2, 3)
        for t in trump_choices:
            for s in range(4):
                if s == t:
                    continue
                keep = BIT[t * 8] | BIT[s * 8]
                d = _discard_for_trumps(hand12, t, keep)
                if (BIT[d[0]] | BIT[d[1]]) & (TENS_ACES_MASK | keep):
                    continue
                score = trump_points(hand12, t) / 200.0
                out.append((score - 100.0, GameType(c, t, s), d))
    return out


# ---------------------------------------------------------------------------------------------
# Play


def _winner_if(obs: Observation, card: int) -> int:
    """Seat that would win the current trick if the trick ended with ``card`` added."""
    trick = (*obs.trick, card)
    idx = 0
    if len(trick) > 1:
        strength = STRENGTH[obs.order]
        best, bc = 0, trick[0]
        for i in range(1, len(trick)):
            c = trick[i]
            if c >> 3 == bc >> 3:
                if strength[c] > strength[bc]:
                    best, bc = i, c
            elif c >> 3 == obs.trumps:
                best, bc = i, c
        idx = best
    return (obs.leader + idx) % 3


def _partner(obs: Observation, seat: int) -> bool:
    """Same side as the bot (itself included)."""
    if obs.seat == obs.declarer:
        return seat == obs.seat
    return seat != obs.declarer


def _unplayed_above(obs: Observation, card: int) -> int:
    """Cards that beat ``card`` in its suit and are still out (not played, not mine)."""
    return ABOVE[obs.order][card] & ~obs.played & ~obs.hand & ~obs.talon


def choose_play(obs: Observation, legal: list[int], careful: bool = True) -> int:
    if len(legal) == 1:
        return legal[0]
    strength = STRENGTH[obs.order]
    betl = obs.contract == Contract.SMALL
    durch = obs.contract == Contract.BIG
    me = obs.seat
    if careful and obs.is_declarer:
        if betl:
            return _careful_betl_play(obs, legal)
        if obs.contract.has_trumps and Part.STO in obs.contract.parts:
            legal = _trump_marriage_first(obs, legal)
            if len(legal) == 1:
                return legal[0]
    if betl:
        if obs.is_declarer:
            # Play the highest card that does not take the trick; else the lowest.
            losing = [c for c in legal if _winner_if(obs, c) != me or len(obs.trick) < 2]
            if losing and not obs.trick:
                return min(losing, key=lambda c: (-_safe_lead_gap(obs, c), strength[c]))
            if losing:
                return max(losing, key=lambda c: strength[c])
            return min(legal, key=lambda c: strength[c])
        return (
            min(legal, key=lambda c: strength[c]) if obs.trick else _betl_defender_lead(obs, legal)
        )
    if durch:
        if obs.is_declarer:
            return max(legal, key=lambda c: strength[c])
        return min(legal, key=lambda c: strength[c])
    # Trump games.
    trumps = obs.trumps
    if not obs.trick:
        return _lead(obs, legal)
    last = len(obs.trick) == 2
    winning = [c for c in legal if _partner(obs, _winner_if(obs, c))]
    # Who takes the trick so far (before my card)?
    current_winner = obs.leader
    if len(obs.trick) == 2:
        current_winner = (obs.leader + trick_winner_index(obs.trick, trumps, obs.order)) % 3
    partner_winning = _partner(obs, current_winner) and current_winner != me
    if partner_winning and last:
        # Smear points on the partner's trick.
        return max(legal, key=lambda c: (POINTS[c], -(c >> 3 == trumps), -strength[c]))
    mine = [c for c in winning if _winner_if(obs, c) == me]
    if mine:
        if last:
            return max(mine, key=lambda c: (POINTS[c] if c >> 3 != trumps else 0, -strength[c]))
        # Win cheaply but safely: a card nobody still out can beat, else the cheapest winner.
        safe = [c for c in mine if not _unplayed_above(obs, c) and (
            c >> 3 == trumps or not _trumps_out(obs))]  # fmt: skip
        if safe:
            return max(safe, key=lambda c: POINTS[c] - strength[c] * 0.1)
        return min(mine, key=lambda c: (c >> 3 == trumps, POINTS[c], strength[c]))
    # Cannot win: throw the cheapest card.
    return min(legal, key=lambda c: (POINTS[c], c >> 3 == trumps, strength[c]))


def _trump_marriage_first(obs: Observation, legal: list[int]) -> list[int]:
    """In sto only the aktér's first marriage counts: while he holds the trump pair, he plays
    no card of another pair (that would announce a 20 first), and leads the trump svršek."""
    t = obs.trumps
    hand = obs.hand
    if not (_has(hand, t, KING) and _has(hand, t, OBER)):
        return legal
    if not obs.trick and BIT[t * 8 + OBER] & hand and t * 8 + OBER in legal:
        return [t * 8 + OBER]

    def announces_20(c: int) -> bool:
        return c >> 3 != t and (c & 7) in (KING, OBER) and bool(hand >> (c ^ 3) & 1)

    keep = [c for c in legal if not announces_20(c)]
    return keep or legal


def _careful_betl_play(obs: Observation, legal: list[int]) -> int:
    """Betl aktér: never take a trick when he can help it; lead a card some defender must
    overtake (a higher card of its suit is still out); when he may shed, shed the card whose
    loss leaves the fewest suits the defenders can force (then the highest)."""
    strength = STRENGTH[obs.order]
    me = obs.seat
    out = FULL_DECK_MASK & ~obs.played & ~obs.hand & ~obs.talon
    if not obs.trick:
        covered = [c for c in legal if ABOVE[1][c] & out]
        candidates = covered or legal
    else:
        candidates = [c for c in legal if _winner_if(obs, c) != me or len(obs.trick) < 2]
        if len(obs.trick) == 1 and candidates:
            # Second to play: a card the last defender can still overtake is safe too.
            candidates = [c for c in candidates if c >> 3 != obs.trick[0] >> 3
                          or strength[c] < strength[obs.trick[0]]
                          or ABOVE[1][c] & out] or candidates  # fmt: skip
        if not candidates:
            return min(legal, key=lambda c: strength[c])

    def key(c: int) -> tuple[int, int]:
        return (betl_lost_suits(obs.hand & ~BIT[c], out), -strength[c])

    return min(candidates, key=key)


def _trumps_out(obs: Observation) -> bool:
    if obs.trumps < 0:
        return False
    return bool(SUIT_MASK[obs.trumps] & ~obs.played & ~obs.hand & ~obs.talon)


def _lead(obs: Observation, legal: list[int]) -> int:
    strength = STRENGTH[obs.order]
    trumps = obs.trumps
    hand = obs.hand
    my_trumps = [c for c in legal if c >> 3 == trumps]
    if obs.is_declarer and my_trumps and _trumps_out(obs):
        top = max(my_trumps, key=lambda c: strength[c])
        if not _unplayed_above(obs, top):
            return top  # a sure trump: draw trumps
        non_seven = [c for c in my_trumps if c & 7 != SEVEN]
        if len(my_trumps) >= 4 and non_seven:
            return min(non_seven, key=lambda c: strength[c])
    # Sure winners in side suits (ace, or a ten whose ace is gone).
    sure = [c for c in legal if c >> 3 != trumps and not _unplayed_above(obs, c) and POINTS[c]]
    if sure:
        return max(sure, key=lambda c: strength[c])
    side = [c for c in legal if c >> 3 != trumps and not POINTS[c]]
    if side:
        # Lead from a short suit without a ten to protect.
        def key(c: int) -> tuple[int, int, int]:
            s = c >> 3
            n = (hand & SUIT_MASK[s]).bit_count()
            guard = int(bool(hand >> (s * 8 + TEN) & 1))
            marriage = int((c & 7) in (KING, OBER) and bool(hand >> (c ^ 3) & 1))
            return (marriage, guard, n * 8 + strength[c])

        return min(side, key=key)
    return min(legal, key=lambda c: (POINTS[c], strength[c]))


def _safe_lead_gap(obs: Observation, card: int) -> int:
    """Betl aktér leading: how many unseen cards of the suit lie below ``card``."""
    below = SUIT_MASK[card >> 3] & ((1 << card) - 1) & ~obs.played & ~obs.hand & ~obs.talon
    return below.bit_count()


def _betl_defender_lead(obs: Observation, legal: list[int]) -> int:
    # Lead the lowest card of a suit the aktér may be forced to win: the shortest suit.
    return min(legal, key=lambda c: (c & 7, (obs.hand & SUIT_MASK[c >> 3]).bit_count()))


# ---------------------------------------------------------------------------------------------
# Policy


def rule_policy(
    obs: Observation, legal: Sequence[Action], rng: BotRng, careful: bool = True
) -> Action:
    """The rule bot's decision; ``careful=False`` is the first bot's judgement (easy level)."""
    phase = obs.phase
    if phase == Phase.PLAY:
        cards = [a.card for a in legal if isinstance(a, Play)]
        card = choose_play(obs, cards, careful)
        for a in legal:
            if isinstance(a, Play) and a.card == card:
                return a
    if phase == Phase.AUCTION:
        ok = comfortable(obs.hand, careful)
        if obs.pending:
            return YES if ok and ok[-1] >= obs.bid else NO
        higher = [c for c in ok if c > obs.bid]
        if higher:
            for a in legal:
                if isinstance(a, Bid) and a.contract == higher[0]:
                    return a
        return next(a for a in legal if isinstance(a, Bid) and a.contract == Contract.PASS)
    if phase == Phase.DISCARD:
        _, d = plan_game(obs.hand, obs.won_rung, careful)
        wanted = discard_of(*d)
        if wanted in legal:
            return wanted
        return legal[0]
    if phase == Phase.GAMETYPE:
        g, _ = plan_game(obs.hand | obs.talon, obs.won_rung, careful)
        if g in legal:
            return g
        gametypes = [a for a in legal if isinstance(a, GameType)]
        # Fall back to the cheapest legal announcement.
        return min(gametypes, key=lambda a: (a.contract, -trump_points(obs.hand, a.trumps)
                                             if a.trumps is not None else 0))  # fmt: skip
    if phase == Phase.FLEK:
        return _flek(obs, legal)
    return legal[0]


def _flek(obs: Observation, legal: Sequence[Action]) -> Action:
    keep = legal[0]  # the engine lists "keep" first
    raises = [a for a in legal if isinstance(a, Flek) and a != keep]
    if not raises:
        return keep
    c = obs.contract
    if obs.is_declarer:
        strong = False
        if c.has_trumps:
            strong = trump_points(obs.hand | obs.talon, obs.trumps) >= 85
        return raises[0] if strong else keep
    # Defender: flek a trump game when strong in trumps and side aces.
    if c.has_trumps and obs.trumps >= 0:
        t = obs.trumps
        nt = (obs.hand & SUIT_MASK[t]).bit_count()
        aces = sum(1 for s in range(4) if _has(obs.hand, s, ACE))
        if nt >= 4 and (aces >= 2 or _has(obs.hand, t, ACE)):
            # Raise only the first part (hra / sto).
            for a in raises:
                if isinstance(a, Flek) and a.levels[1:] == obs.levels[1:]:
                    return a
    return keep


class RuleBot:
    """Hand-strength bidding and standard play heuristics. ``careful=False`` plays with the
    first bot's sto/betl/durch judgement (the easy level)."""

    def __init__(self, careful: bool = True) -> None:
        self.careful = careful
        self.name = "heuristic" if careful else "heuristic-first"

    def choose(
        self, view: Mapping[str, Any], legal_actions: Sequence[Action], rng: BotRng
    ) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        return rule_policy(Observation.from_view(view), legal_actions, rng, self.careful)


__all__ = [
    "RuleBot",
    "choose_play",
    "comfortable",
    "plan_game",
    "plan_options",
    "rule_policy",
]

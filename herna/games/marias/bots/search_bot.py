"""A search bot: Perfect Information Monte Carlo (PIMC) over the seat's view.

For each decision it samples ``iterations`` deals of the unseen cards consistent with its view
(:mod:`~herna.games.marias.bots.sampling`), and in every sampled world plays each candidate
action followed by a rollout in which all three players use the rule-based policy (each from
its own information in that world). The candidate with the best average money for the bot
wins; all candidates share the same worlds (common random numbers). An optional
``time_budget`` (seconds, read from an injected ``clock``) stops sampling early.

The sampled worlds follow the public auction too (``bid_tries``): an opponent who offered
sto is dealt a hand that would. ``solve_tricks`` / ``solve_betl_tricks`` > 0 solve the last
that many tricks of each world exactly (:mod:`~herna.games.marias.bots.solver`) instead of
the rollout.

Candidates: every legal card in play; PASS/NO or a bid up to some level in the auction (the
rollout then keeps bidding up to that level); the rule planner's best few
(discard, contract) plans; every flek answer.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from herna.core.errors import IllegalAction
from herna.games.marias.actions import (
    NO,
    YES,
    Action,
    Bid,
    Discard,
    Flek,
    GameType,
    Play,
    discard_of,
)
from herna.games.marias.bots.base import BotRng
from herna.games.marias.bots.judgement import best_discard, betl_lost_suits, durch_lost_suits
from herna.games.marias.bots.observation import Observation
from herna.games.marias.bots.rule_bot import comfortable, plan_options, rule_policy
from herna.games.marias.bots.sampling import determinize
from herna.games.marias.bots.solver import Unsolved, solve_cards
from herna.games.marias.contracts import Contract
from herna.games.marias.state import MariasState, Phase

# Auction levels the bot considers bidding up to (ladder order).
_LEVELS = (
    Contract.G,
    Contract.C7,
    Contract.B7,
    Contract.C100,
    Contract.C107,
    Contract.B100,
    Contract.B107,
    Contract.SMALL,
    Contract.BIG,
)

Override = Callable[[MariasState, list[Action]], Action | None]


def rollout(
    state: MariasState,
    me: int,
    rng: BotRng,
    override: Override | None = None,
    careful: bool = True,
) -> int:
    """Play ``state`` (mutated) to the end with the rule policy (``careful`` as in
    :func:`.rule_policy`); ``override`` may decide for seat ``me``. Returns ``me``'s money."""
    while state.phase != Phase.DONE:
        seat = state.current
        legal = state.legal_actions()
        action: Action | None = None
        if len(legal) == 1:
            action = legal[0]
        elif seat == me and override is not None:
            action = override(state, legal)
        if action is None:
            action = rule_policy(Observation.from_state(state, seat), legal, rng, careful)
        state.apply_action(action)
    return state.settlement().money[me]


class _AuctionOverride:
    """Bid (the lowest rung above the current bid) and hold up to ``level``."""

    def __init__(self, level: Contract) -> None:
        self.level = level

    def __call__(self, state: MariasState, legal: list[Action]) -> Action | None:
        if state.phase != Phase.AUCTION:
            return None
        if state.pending:
            return YES if state.bid <= self.level else NO
        for a in legal:
            if isinstance(a, Bid) and a.contract != Contract.PASS and a.contract <= self.level:
                return a
        return legal[0]  # PASS


def _auction_override(level: Contract) -> Override:
    return _AuctionOverride(level)


class _PlanOverride:
    """Announce ``gametype`` after the discard."""

    def __init__(self, gametype: GameType) -> None:
        self.gametype = gametype

    def __call__(self, state: MariasState, legal: list[Action]) -> Action | None:
        if state.phase == Phase.GAMETYPE and self.gametype in legal:
            return self.gametype
        return None


def _plan_override(gametype: GameType) -> Override:
    return _PlanOverride(gametype)


@dataclass(frozen=True)
class Weighing:
    """A decision as :meth:`SearchBot.weigh` saw it."""

    choice: Action
    actions: list[Action]
    """The candidates (the bot's own first, then any extra ones)."""
    levels: list[Contract | GameType | None]
    """Per candidate, what it stands for beyond the action: the auction level the bot would
    bid or hold up to, or the contract a discard is meant for (None: the action says it)."""
    means: list[float]
    """Per candidate, the bot's mean money over the sampled worlds."""
    worlds: int
    """How many worlds were sampled (0: a choice without search)."""
    own: int
    """How many of the candidates are the bot's own."""
    chosen: int = 0
    """The index of the choice among the candidates."""


def _level(override: Override | None) -> Contract | GameType | None:
    if isinstance(override, _AuctionOverride):
        return override.level
    return getattr(override, "gametype", None)


class SearchBot:
    """PIMC with rule-based rollouts. ``iterations`` sampled worlds per decision."""

    name = "sampling-search"

    def __init__(
        self,
        iterations: int = 12,
        time_budget: float | None = None,
        clock: Callable[[], float] | None = None,
        max_plans: int = 5,
        bidding_factor: int = 2,
        flek_margin: float = 2.0,
        careful: bool = True,
        prune_auction: bool = True,
        confidence: float = 1.0,
        bid_tries: int = 40,
        solve_tricks: int = 0,
        solve_betl_tricks: int = 0,
        solve_nodes: int = 4000,
    ) -> None:
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        if time_budget is not None and clock is None:
            raise ValueError("a time budget needs a clock (e.g. time.monotonic)")
        self.iterations = iterations
        self.time_budget = time_budget
        self.clock = clock
        self.max_plans = max_plans
        self.bidding_factor = bidding_factor
        self.flek_margin = flek_margin
        self.careful = bool(careful)
        self.prune_auction = bool(prune_auction)
        self.confidence = confidence
        self.bid_tries = bid_tries
        self.solve_tricks = solve_tricks
        self.solve_betl_tricks = solve_betl_tricks
        self.solve_nodes = solve_nodes

    def choose(
        self, view: Mapping[str, Any], legal_actions: Sequence[Action], rng: BotRng
    ) -> Action:
        return self.weigh(view, legal_actions, rng).choice

    def weigh(
        self,
        view: Mapping[str, Any],
        legal_actions: Sequence[Action],
        rng: BotRng,
        extra: Sequence[tuple[Action, Contract | GameType | None]] = (),
    ) -> Weighing:
        """What :meth:`choose` weighs: each candidate with the bot's mean money over the
        sampled worlds, and its choice. ``extra`` adds candidates the bot would not consider
        itself (an action, with the level a bid or answer goes up to or the contract a
        discard is meant for), weighed on the same worlds but never chosen (the deal review:
        how the move a person made would fare)."""
        legal = list(legal_actions)
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return Weighing(legal[0], [legal[0]], [None], [0.0], 0, 0)
        obs = Observation.from_view(view)
        candidates = self._candidates(obs, legal, rng)
        own = len(candidates)
        if len(candidates) == 1 and not extra:
            return Weighing(candidates[0][0], [candidates[0][0]], [_level(candidates[0][1])],
                            [0.0], 0, 1)  # fmt: skip
        for action, level in extra:
            override: Override | None = None
            if isinstance(level, GameType):
                override = _plan_override(level)
            elif isinstance(level, Contract):
                override = _auction_override(level)
            if all((a, _level(o)) != (action, level) for a, o in candidates):
                candidates.append((action, override))
        totals = [0.0] * len(candidates)
        values: list[list[float]] = [[] for _ in candidates]
        worlds = 0
        deadline = None
        if self.time_budget is not None and self.clock is not None:
            deadline = self.clock() + self.time_budget
        # Bidding, the contract and fleks decide most of the money: sample more worlds there.
        iterations = self.iterations * (1 if obs.phase == Phase.PLAY else self.bidding_factor)
        # Opt-in: solving the last tricks exactly measured no better than the rollouts
        # against the rule bots (200 deals: -0.03 [-0.08, +0.01] per deal and seat).
        solve = self.solve_betl_tricks if obs.contract.is_betl_durch else self.solve_tricks
        exact = obs.phase == Phase.PLAY and 10 - len(obs.tricks) <= solve
        for _ in range(iterations):
            world = determinize(view, obs, rng, bid_tries=self.bid_tries)
            if world is None:
                break
            seed = rng.random()
            solved = self._solved(world, obs, candidates) if exact else None
            for i, (action, override) in enumerate(candidates):
                if solved is not None:
                    totals[i] += solved[i]
                    values[i].append(solved[i])
                    continue
                s = world.clone()
                try:
                    s.apply_action(action)
                except IllegalAction:
                    totals[i] = float("-inf")
                    continue
                money = rollout(s, obs.seat, random.Random(seed), override, self.careful)
                totals[i] += money
                values[i].append(money)
            worlds += 1
            if deadline is not None and self.clock is not None and self.clock() >= deadline:
                break
        actions = [a for a, _ in candidates]
        levels = [_level(o) for _, o in candidates]
        if worlds == 0:
            return Weighing(rule_policy(obs, legal, rng, self.careful), actions, levels,
                            [0.0] * len(candidates), 0, own)  # fmt: skip
        means = [t / worlds for t in totals]
        best = max(range(own), key=lambda i: totals[i])
        if self.confidence > 0 and obs.phase in (Phase.AUCTION, Phase.DISCARD, Phase.GAMETYPE):
            best = self._hedged(obs, candidates, values, best)
        if obs.phase == Phase.FLEK and best != 0:
            # Raising a flek must be clearly better than keeping it (the sampled worlds know
            # nothing of how the bidding went, so they flatter the raise).
            keep = totals[0] / worlds
            if totals[best] / worlds < keep + self.flek_margin + 0.25 * abs(keep):
                best = 0
        return Weighing(candidates[best][0], actions, levels, means, worlds, own, best)

    def _solved(
        self,
        world: MariasState,
        obs: Observation,
        candidates: list[tuple[Action, Override | None]],
    ) -> list[float] | None:
        """Each candidate card's money for this seat in ``world`` under perfect play of the
        rest (:mod:`.solver`), or None when the node budget ran out (then: rollouts). A
        defender counts half the aktér's loss (both defenders pay alike unless their fleks
        differ)."""
        cards = [a.card for a, _ in candidates if isinstance(a, Play)]
        if len(cards) != len(candidates):
            return None
        try:
            money = solve_cards(world, cards, self.solve_nodes)
        except Unsolved:
            return None
        sign = 1.0 if obs.is_declarer else -0.5
        return [sign * money[c] for c in cards]

    def _hedged(
        self,
        obs: Observation,
        candidates: list[tuple[Action, Override | None]],
        values: list[list[float]],
        best: int,
    ) -> int:
        """Keep the rule bot's own choice unless ``best`` beats it by ``confidence`` standard
        errors of their difference over the same worlds. With a dozen worlds the highest
        mean is often just the luckiest: high-variance contracts (betl, sedma) won the
        search's choice far more often than they won the deal (issue #19 measurements)."""
        default = self._default_candidate(obs, candidates)
        if best == default or len(values[best]) != len(values[default]):
            return best
        diffs = [b - d for b, d in zip(values[best], values[default], strict=True)]
        n = len(diffs)
        if n < 2:
            return default
        mean = sum(diffs) / n
        var = sum((x - mean) ** 2 for x in diffs) / (n - 1)
        return best if mean > self.confidence * math.sqrt(var / n) else default

    def _default_candidate(
        self, obs: Observation, candidates: list[tuple[Action, Override | None]]
    ) -> int:
        """The index of the candidate the rule bot itself would choose (0: its top plan after
        the talon; in the auction the level it would hold, else pass / nemám)."""
        if obs.phase != Phase.AUCTION:
            return 0
        ok = comfortable(obs.hand, self.careful)
        top = max(ok) if ok else Contract.PASS
        if top < obs.bid or (top == obs.bid and not obs.pending):
            return 0
        for i, (_action, override) in enumerate(candidates):
            if isinstance(override, _AuctionOverride) and override.level == top:
                return i
        return 0

    def _candidates(
        self, obs: Observation, legal: list[Action], rng: BotRng
    ) -> list[tuple[Action, Override | None]]:
        phase = obs.phase
        if (
            phase == Phase.FLEK
            and not obs.is_declarer
            and (obs.contract.is_betl_durch or max(obs.levels) >= 4)
        ):
            # The aktér chose betl/durch knowing his hand, and one who answers a flek with re
            # holds a strong one: a defender raises neither (no tutti).
            return [(legal[0], None)]
        if phase == Phase.PLAY or phase == Phase.FLEK:
            return [(a, None) for a in legal if isinstance(a, Play | Flek)]
        if phase == Phase.AUCTION:
            levels = self._auction_levels(obs.hand) if self.prune_auction else _LEVELS
            if obs.pending:
                out: list[tuple[Action, Override | None]] = [(NO, _auction_override(
                    Contract.PASS))]  # fmt: skip
                for level in levels:
                    if level >= obs.bid:
                        out.append((YES, _auction_override(level)))
                return out
            out = [(legal[0], _auction_override(Contract.PASS))]
            for level in levels:
                if level > obs.bid:
                    out.append((Bid(level), _auction_override(level)))
            return [c for c in out if c[0] in legal]
        if phase == Phase.DISCARD:
            plans = plan_options(obs.hand, obs.won_rung, self.careful)
            seen: set[tuple[Discard, GameType]] = set()
            out = []
            for _, g, d in plans:
                discard = discard_of(*d)
                if (discard, g) in seen or discard not in legal:
                    continue
                seen.add((discard, g))
                out.append((discard, _plan_override(g)))
                if len(out) >= self.max_plans:
                    break
            return out or [(rule_policy(obs, legal, rng, self.careful), None)]
        if phase == Phase.GAMETYPE:
            plans = plan_options(obs.hand | obs.talon, obs.won_rung, self.careful)
            out = []
            for _, g, _d in plans:
                if g in legal and all(g != a for a, _ in out):
                    out.append((g, None))
                if len(out) >= self.max_plans:
                    break
            return out or [(rule_policy(obs, legal, rng, self.careful), None)]
        return [(a, None) for a in legal]

    def _auction_levels(self, hand: int) -> tuple[Contract, ...]:
        """The auction levels worth searching with this hand: up to two rungs above what the
        rule bot would bid, betl and durch only when discarding two cards could make them
        (nearly) safe. Every level costs a rollout per world, and the auction was the slowest
        decision (372 ms on average, 1.1 s at worst, with all nine levels)."""
        ok = comfortable(hand, self.careful)
        top = max(ok) if ok else Contract.PASS
        trump_levels = [lv for lv in _LEVELS if lv < Contract.SMALL]
        above = [lv for lv in trump_levels if lv > top][:2]
        out = [lv for lv in trump_levels if lv <= top] + above
        if best_discard(hand, betl_lost_suits)[0] <= 1 or Contract.SMALL in ok:
            out.append(Contract.SMALL)
        if best_discard(hand, durch_lost_suits)[0] <= 1 or Contract.BIG in ok:
            out.append(Contract.BIG)
        return tuple(out)


__all__ = ["SearchBot", "Weighing", "rollout"]

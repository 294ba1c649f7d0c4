#!/usr/bin/env python3
"""How long the review of a mariáš deal takes (herna.games.marias.review).

``--deals`` deals are dealt from fixed seeds and played once by the house bots (level
``medium``, the rule bot: quick, and it makes mistakes worth finding), then each is reviewed
with the review's default settings (at most ``MAX_NODES`` search nodes per position and
``MAX_SECONDS`` for the play; ``SAMPLES`` sampled deals per auction and flek decision), as
the worker process does for each deal: a fresh solver memory per deal.

Prints each deal (contract, seconds, cards judged costly, positions cut off), the median and
the range, and, as its last line, one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from herna.games.marias.actions import MariasCodec
from herna.games.marias.bots import make_bot
from herna.games.marias.log import deal_actions
from herna.games.marias.review import MAX_NODES, MAX_SECONDS, SAMPLES, Settings, review_deal
from herna.games.marias.state import Phase, new_game
from herna.games.marias.words import contract_words


def played_deal(seed: int) -> tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]]:
    """One deal as a table records it (meta and the action log), played by rule bots."""
    rng = random.Random(seed)
    codec = MariasCodec()
    dealer = seed % 3
    state = new_game(dealer)
    events: list[tuple[str, dict[str, Any]]] = []
    for action in deal_actions(rng):
        state.apply_action(action)
        events.append(("action", {"action": codec.encode(action)}))
    bot = make_bot("medium")
    while state.phase != Phase.DONE:
        action = bot.choose(state.view(state.current), state.legal_actions(), rng)
        state.apply_action(action)
        events.append(("action", {"action": codec.encode(action)}))
    return {"dealer": dealer, "tariff": "csm", "max_flek": 16}, events


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6, help="deals to review (default 6)")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed")
    parser.add_argument("--nodes", type=int, default=MAX_NODES, help="search nodes per position")
    parser.add_argument("--seconds", type=float, default=MAX_SECONDS, help="seconds for the play")
    parser.add_argument("--samples", type=int, default=SAMPLES, help="sampled deals per decision")
    args = parser.parse_args()
    settings = Settings(args.nodes, args.seconds, args.samples)
    times, cut, cards = [], 0, 0
    for seed in range(args.seed, args.seed + args.deals):
        meta, events = played_deal(seed)
        start = time.perf_counter()
        review = review_deal(meta, events, seed=seed, settings=settings)
        times.append(time.perf_counter() - start)
        cut += review["cut_off"]
        cards += sum(len(t["cards"]) for t in review["tricks"])
        print(
            f"deal {seed}: {contract_words(review.get('contract', ''))}, {times[-1]:.1f} s, "
            f"{review['costly']} costly, {review['cut_off']} of 30 positions cut off"
        )
    median = statistics.median(times)
    print(
        f"review of a mariáš deal ({args.nodes} nodes per position, {args.seconds:g} s for the "
        f"play, {args.samples} samples per decision): median {median:.1f} s, min "
        f"{min(times):.1f} s, max {max(times):.1f} s over {args.deals} deals; {cut} of "
        f"{cards} positions cut off"
    )
    print(json.dumps({
        "bench": "marias_review", "deals": args.deals, "median_s": round(median, 3),
        "min_s": round(min(times), 3), "max_s": round(max(times), 3), "cut_off": cut,
        "positions": cards, "nodes": args.nodes, "samples": args.samples,
    }))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Recorded games of every game for history and replay tests: each is played on its rules
engine through :class:`~herna.hall.match.Match` (seeded chance, logged actions), exactly as the
servers record them, by seeded random players (tiles: the shipped bots)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from herna.core.game import CHANCE
from herna.games.marias.actions import Bid, Discard, Flek, GameType, MariasCodec, Play
from herna.games.marias.cards import parse_card, parse_cards
from herna.games.marias.contracts import Contract
from herna.games.marias.log import deal_for
from herna.games.marias.state import new_game as new_deal
from herna.games.onitama.state import ACTION_CODEC, OnitamaState
from herna.games.tiles.actions import TilesCodec
from herna.games.tiles.bots import make_bot
from herna.games.tiles.engine import new_game as new_tiles
from herna.games.tiles.rules import load_rules_file, shipped_rules
from herna.hall.match import Match, Seat
from herna.hall.records import MatchRecord, RecordStore
from herna.hall.reviews import ReviewStore
from tests.web.helpers import play_mia_round


def _random_play(match: Match[Any], seed: int, limit: int = 400) -> MatchRecord:
    rnd = random.Random(seed)
    for _ in range(limit):
        if match.state.is_terminal():
            return match.record()
        seat = match.state.current_player()
        match.act(seat, rnd.choice(list(match.state.legal_actions())))
    return match.record("aborted", {"reason": "move limit"})


def marias_deal(seed: int, names: tuple[str, str, str] = ("alice", "bob", "carol")) -> MatchRecord:
    dealer = seed % 3
    match: Match[Any] = Match(
        "marias",
        f"g{seed}.1",
        new_deal(dealer),
        [Seat(n, "bot") for n in names],
        seed,
        MariasCodec(),
        meta={"dealer": dealer, "tariff": "csm", "max_flek": 16, "game_no": 1},
    )
    return _random_play(match, seed)


BETL_AKTER = parse_cards("R09 B07 B08 B09 G07 G08 G09 A07 A08 A09")
BETL_ZADAK = parse_cards("R07 R08 R10 R0J R0Q R0K G0J G0Q G0K G0A")
BETL_MIDDLE = parse_cards("B10 B0J B0Q B0K G10 A10 A0J A0Q A0K A0A")
BETL_TALON = parse_cards("R0A B0A")
BETL_NAMES = ("zoe", "adam", "mia")


def marias_betl_deal(
    lead: str,
    contract: Contract = Contract.SMALL,
    auction: tuple[Any, ...] = (),
    defence: str = "",
) -> MatchRecord:
    """The hand-checked betl deal of tests/games/marias/test_review.py (its docstring says
    why), the aktér leading ``lead``, then the cards ``defence``, then everybody playing their
    first legal card; ``auction``: the bids and answers before the talon (default: nobody
    bids)."""
    codec = MariasCodec()
    deal = deal_for(0, [BETL_ZADAK, BETL_AKTER, BETL_MIDDLE], BETL_TALON)
    state = new_deal(0)
    for action in deal:
        state = state.apply(action)
    match: Match[Any] = Match(
        "marias",
        "review.1",
        state,
        [Seat(BETL_NAMES[0], "bot"), Seat(BETL_NAMES[1], "human"), Seat(BETL_NAMES[2], "bot")],
        31,
        codec,
        meta={"dealer": 0, "tariff": "csm", "max_flek": 16, "ids": ["z", "a", "m"]},
    )
    # the fixed deal, logged as a table logs the shuffled one
    match.log[:0] = [("action", {"player": CHANCE, "action": codec.encode(a)}) for a in deal]
    for action in auction or (Bid(Contract.PASS), Bid(Contract.PASS)):
        match.act(match.state.current_player(), action)
    match.act(1, Discard((BETL_TALON[0], BETL_TALON[1])))
    match.act(1, GameType(contract, None, None))
    while any(isinstance(a, Flek) for a in match.state.legal_actions()):  # nobody fleks
        match.act(match.state.current_player(), Flek((1,)))
    match.act(1, Play(parse_card(lead)))
    for card in parse_cards(defence):
        match.act(match.state.current_player(), Play(card))
    while not match.state.is_terminal():
        seat = match.state.current_player()
        match.act(seat, match.state.legal_actions()[0])
    return match.record()


def onitama_game(seed: int, white: str = "alice", black: str = "dave") -> MatchRecord:
    match: Match[Any] = Match(
        "onitama",
        f"g{seed}",
        OnitamaState.new("stalemate"),
        [Seat(white, "bot"), Seat(black, "human")],
        seed,
        ACTION_CODEC,
        meta={"rule": "stalemate"},
    )
    return _random_play(match, seed)


def tiles_game(
    seed: int,
    rules_name: str = "tsuro",
    names: tuple[str, ...] = ("alice", "erin"),
    max_rounds: int = 60,
) -> MatchRecord:
    rules = load_rules_file(shipped_rules()[rules_name])
    codec = TilesCodec(rules.n)
    seats = [
        names[i % len(names)] + ("" if i < len(names) else str(i))
        for i in range(len(rules.players))
    ]
    match: Match[Any] = Match(
        "tiles",
        f"t{seed}",
        new_tiles(rules, max_rounds),
        [Seat(n, "bot") for n in seats],
        seed,
        codec,
        meta={"rules": dict(rules.data), "rules_name": rules_name, "max_rounds": max_rounds},
    )
    bots = [make_bot("random", rules, seed + i) for i in range(len(rules.players))]
    while not match.state.is_terminal():
        seat = match.state.current_player()
        actions = [codec.encode(a) for a in match.state.legal_actions()]
        choice = bots[seat].choose(match.state.view(seat), actions)
        match.act(seat, codec.decode(dict(choice)))
    return match.record()


def mia_round(n: int, players: list[str], seed: int, when: datetime) -> MatchRecord:
    record = play_mia_round(n, players, seed)
    record.started_at = when - timedelta(seconds=1)
    record.finished_at = when
    return record


def at(record: MatchRecord, when: datetime) -> MatchRecord:
    record.started_at = when - timedelta(minutes=5)
    record.finished_at = when
    return record


def review_written_at(url: str, match_id: int) -> datetime:
    """When the review of a match was stored (it must be done): a second ``--review`` that
    reads it leaves this unchanged."""
    store = RecordStore(url, create=False)
    try:
        found = ReviewStore(store.engine).get(match_id)
        assert found is not None and found.status == "done"
        return found.updated_at
    finally:
        store.close()

"""Views, the action codec and logs, the web replay, and the bots (which see only views)."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from typing import Any

import pytest

from herna.core.game import CHANCE, GameState
from herna.games.marias import (
    BID,
    Action,
    Bot,
    Claim,
    Contract,
    Discard,
    Flek,
    GameLog,
    GameType,
    MariasCodec,
    MariasState,
    Phase,
    Play,
    RandomBot,
    Renonc,
    RuleBot,
    Rules,
    SearchBot,
    decode_action,
    encode_action,
    licite_text,
    make_bot,
    new_game,
    parse_licite_answer,
    play_log,
)
from herna.games.marias.bots.observation import Observation
from herna.games.marias.log import deal_actions, deal_for, play_actions
from herna.hall.match import Match, replay
from herna.hall.records import PlayerResult, StoredMatch
from herna.hall.replays import replay_steps
from tests.games.marias.helpers import c, deal, run


def test_codec_round_trips() -> None:
    actions: list[Action] = [
        decode_action("deal R07"),
        BID[Contract.PASS],
        BID[Contract.B127],
        decode_action("yes"),
        decode_action("no"),
        Discard((0, 31)),
        GameType(Contract.C127, 2, 0),
        GameType(Contract.SMALL),
        Flek((2, 1)),
        Flek((16,)),
        Play(13),
        Claim((1, 2, 3)),
        Renonc(Play(5)),
    ]
    codec = MariasCodec()
    for a in actions:
        assert codec.decode(json.loads(json.dumps(codec.encode(a)))) == a
    for bad in ("", "play", "play T01", "game 8 G", "flek 3", "discard R07", "bid YES", 7):
        with pytest.raises(ValueError):
            codec.decode(bad)


def test_licite_answers() -> None:
    assert parse_licite_answer("yes") == decode_action("yes")
    assert parse_licite_answer("B107") == BID[Contract.B107]
    assert (
        licite_text(BID[Contract.PASS]) == "PASS" and licite_text(parse_licite_answer("no")) == "NO"
    )
    with pytest.raises(ValueError):
        parse_licite_answer("MAYBE")


def test_state_satisfies_the_core_protocol_and_apply_does_not_mutate() -> None:
    s = new_game(0)
    assert isinstance(s, GameState) and s.num_players == 3
    before = s.view(None)
    s.apply(s.legal_actions()[0])
    assert s.view(None) == before and s.ndealt == 0


def test_views_hide_hands_and_the_talon() -> None:
    hands = [
        "R07 R08 R09 R0J R0Q R0K R10 R0A B07 B08",
        "B09 B10 B0J B0Q B0K B0A G07 G08 G09 G10",
        "G0J G0Q G0K G0A A07 A08 A09 A10 A0J A0Q",
    ]
    s = run(deal(hands, "A0K A0A"), "bid 7", "no", "no")
    assert s.view(0)["hand"][-2:] == ["A0K", "A0A"]  # the winner holds the talon
    assert "hand" not in s.view(None) and "A0K" not in json.dumps(s.view(1))
    s = run(s, "discard A0K B08")
    assert s.view(0)["talon"] == ["B08", "A0K"]
    assert "talon" not in s.view(1) and "B08" not in json.dumps(s.view(2))
    assert s.view(1)["history"][-1] == [0, "discard"]
    assert s.view(0)["history"][-1] == [0, "discard B08 A0K"]
    s = run(s, "game SMALL")
    v = s.view(None)
    assert (v["licite"], v["trumf"], v["flek"], v["declarer"]) == ("SMALL", "", "1", 0)


def play_with(bots: list[Bot], seed: int) -> MariasState:
    rng = random.Random(seed)
    s = play_actions(new_game(seed % 3), deal_actions(rng))
    while not s.is_terminal():
        seat = s.current_player()
        # Bots get a JSON round-tripped copy of their view: nothing but the view.
        view = json.loads(json.dumps(s.view(seat)))
        action = bots[seat].choose(view, s.legal_actions(), rng)
        assert action in s.legal_actions()
        s = s.apply(action)
    return s


@pytest.mark.parametrize("names", [("random", "rule", "search"), ("rule", "rule", "random")])
def test_bots_play_whole_games(names: tuple[str, str, str]) -> None:
    bots = [make_bot(n, iterations=3) if n == "search" else make_bot(n) for n in names]
    for seed in range(3):
        assert sum(play_with(bots, seed).settlement().money) == 0


def swapped_hidden_cards(seed: int) -> tuple[MariasState, MariasState]:
    """Two deals that seat 0 cannot tell apart: seats 1 and 2 swap hands, the talon stays."""
    deck = list(range(32))
    random.Random(seed).shuffle(deck)
    hands = [deck[0:10], deck[10:20], deck[20:30]]
    talon = deck[30:]
    a = play_actions(new_game(0), deal_for(0, hands, talon))
    b = play_actions(new_game(0), deal_for(0, [hands[0], hands[2], hands[1]], talon))
    return a, b


@pytest.mark.parametrize("bot", [RandomBot(), RuleBot(), SearchBot(iterations=4)])
def test_bots_decide_from_the_view_only(bot: Bot) -> None:
    for seed in range(4):
        a, b = swapped_hidden_cards(seed)
        assert a.view(0) == b.view(0) and a.hands != b.hands
        assert bot.choose(a.view(0), a.legal_actions(), random.Random(seed)) == bot.choose(
            b.view(0), b.legal_actions(), random.Random(seed)
        )


def test_observation_from_view_equals_from_state() -> None:
    rng = random.Random(3)
    for _ in range(5):
        s = play_actions(new_game(rng.randrange(3)), deal_actions(rng))
        while not s.is_terminal():
            seat = s.current_player()
            assert Observation.from_view(json.loads(json.dumps(s.view(seat)))) == (
                Observation.from_state(s, seat)
            )
            legal = s.legal_actions()
            s = s.apply(legal[rng.randrange(len(legal))])


def test_search_bot_time_budget_uses_the_injected_clock() -> None:
    ticks = iter(range(1000))
    bot = SearchBot(iterations=50, time_budget=2.5, clock=lambda: float(next(ticks)))
    s = play_actions(new_game(0), deal_actions(random.Random(1)))
    bot.choose(s.view(0), s.legal_actions(), random.Random(1))
    assert next(ticks) <= 6  # start + a few sampled worlds, not fifty
    with pytest.raises(ValueError):
        SearchBot(time_budget=1.0)


def test_match_log_replays_and_web_replay_steps() -> None:
    rule = RuleBot()
    match: Match[Action] = Match(
        game="marias", table_id="t1", state=new_game(2), seats=[], seed=99,
        codec=MariasCodec(), meta={"dealer": 2},
    )  # fmt: skip
    rng = random.Random(4)
    while not match.state.is_terminal():
        seat = match.state.current_player()
        assert seat != CHANCE
        view = match.state.view(seat)
        match.act(seat, rule.choose(view, match.state.legal_actions(), rng))
    states = replay(new_game(2), match.log, MariasCodec())
    final: Any = states[-1]
    assert final.settlement().money == match.state.settlement().money  # type: ignore[attr-defined]
    stored = StoredMatch(
        id=1, game="marias", table_id="t1", seed=99, status="finished",
        started_at=datetime.now(UTC), finished_at=datetime.now(UTC),
        result={}, meta={"dealer": 2},
        players=tuple(PlayerResult(i, f"p{i}", 0.0, False, "bot") for i in range(3)),
        events=tuple(match.log),
    )  # fmt: skip
    steps = replay_steps(stored)
    assert steps[0]["label"] == "new deal" and steps[1]["label"] == "cards dealt"
    assert len(steps) == 2 + sum(1 for k, d in match.log if d.get("player", -1) >= 0)
    assert steps[-1]["view"]["phase"] == "done" and "money" in steps[-1]["view"]
    assert all(len(h) == 10 for h in steps[1]["view"]["hands"])
    json.dumps(steps)


def test_game_log_round_trip() -> None:
    s = play_with([RuleBot()] * 3, 7)
    log = GameLog.from_state(s, seed=7)
    assert log.actions[:2] == [encode_action(a) for _, a in s.history()[:2]]
    again = play_log(GameLog.from_json(log.to_json()))
    assert again.settlement().money == s.settlement().money
    partial = play_log(log, upto=40)
    assert partial.phase in (Phase.AUCTION, Phase.DISCARD, Phase.GAMETYPE, Phase.FLEK,
                             Phase.PLAY)  # fmt: skip


def test_sampled_worlds_respect_what_the_play_revealed() -> None:
    from herna.games.marias.bots.sampling import determinize, inferred_voids
    from tests.games.marias.test_follow_rules import HANDS, TALON

    s = deal(HANDS, TALON, rules=Rules(max_flek=1))
    s = run(s, "bid 7", "no", "no", "discard R0K A07", "game 7 G", "play A0A", "play A0K")
    s = run(s, "play G08")  # the aktér (seat 0) trumps: he has no acorns
    view = s.view(2)
    obs = Observation.from_view(view)
    voids = inferred_voids(obs)
    assert voids[0] & 0xFF << 24 == 0xFF << 24  # seat 0: no acorns (A = suit 3)
    rng = random.Random(5)
    for _ in range(20):
        world = determinize(view, obs, rng)
        assert world is not None
        assert world.hands[2] == s.hands[2]  # my own cards are mine
        assert not world.hands[0] & 0xFF << 24  # the aktér shows no acorns
        assert world.hands[0] & 1 << c("G07")  # he holds his announced seven
        # The sampled world looks the same from my seat, its action history included.
        assert dict(world.view(2)) == dict(view)

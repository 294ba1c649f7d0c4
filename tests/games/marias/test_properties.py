"""Property tests over random legal games (hypothesis picks the seeds)."""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from herna.core.errors import IllegalAction
from herna.core.game import CHANCE
from herna.games.marias import (
    BID,
    DEAL,
    NO,
    PLAY,
    YES,
    Action,
    Claim,
    Contract,
    Deal,
    Discard,
    Flek,
    GameLog,
    GameType,
    MariasState,
    Phase,
    Play,
    Renonc,
    encode_action,
    new_game,
    play_log,
)
from herna.games.marias.cards import CARD_CODES, POINTS, cards_of

TRUMP_RANK = ["07", "08", "09", "0J", "0Q", "0K", "10", "0A"]
BETL_RANK = ["07", "08", "09", "10", "0J", "0Q", "0K", "0A"]
CODE = re.compile(r"\b[RBGA](?:0[7-9]|10|0[JQKA])\b")


def random_states(seed: int) -> Iterator[MariasState]:
    """Every state of one random game: chance from the seed, then random legal actions."""
    rng = random.Random(seed)
    state = new_game(rng.randrange(3))
    yield state
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            action = outcomes[rng.randrange(len(outcomes))][0]
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        state = state.apply(action)
        yield state


# -- an independent, naive legality checker --------------------------------------------------
def naive_play_ok(state: MariasState, card: str) -> bool:
    """The seed's 11 steps read literally, on card codes, plus the reserved sevens."""
    seat = state.current_player()
    hand = [CARD_CODES[x] for x in state.hand(seat)]
    trick = [CARD_CODES[x] for x in state.trick]
    trumps = "RBGA"[state.trumps] if state.trumps >= 0 else None
    ranks = TRUMP_RANK if trumps else BETL_RANK

    def rank(x: str) -> int:
        return ranks.index(x[1:])

    def allowed(x: str) -> bool:
        if x not in hand:
            return False
        if not trick:
            return True
        led = trick[0][0]
        same = [h for h in hand if h[0] == led]
        if same:  # 1
            if x[0] != led:
                return False
            if trumps and led != trumps and any(t[0] == trumps for t in trick):  # 2, 3
                return True
            top = max(rank(t) for t in trick if t[0] == led)
            higher = [h for h in same if rank(h) > top]
            return not higher or x in higher  # 4, 5, 6
        if trumps:
            mine = [h for h in hand if h[0] == trumps]
            if mine:  # 7
                if x[0] != trumps:
                    return False
                played = [rank(t) for t in trick if t[0] == trumps]
                higher = [h for h in mine if not played or rank(h) > max(played)]
                return not higher or x in higher  # 8, 9, 10
        return True  # 11

    ok = allowed(card)
    if ok and seat == state.declarer and state.contract.announced_sevens:
        number = len(state.tricks) + 1
        reserved = set()
        if number < 10:
            reserved.add(trumps + "07")  # type: ignore[operator]
        if state.contract.announced_sevens == 2 and number < 9:
            reserved.add("RBGA"[state.second] + "07")
        if card in reserved and any(allowed(h) for h in hand if h not in reserved):
            return False
    return ok


def naive_legal(state: MariasState) -> set[str]:
    phase = state.phase
    seat = state.current_player()
    if phase == Phase.PLAY:
        return {f"play {CARD_CODES[c]}" for c in range(32) if naive_play_ok(state, CARD_CODES[c])}
    if phase == Phase.AUCTION:
        if state.pending_bid is not None:
            return {"yes", "no"}
        return {"bid PASS"} | {f"bid {c.code}" for c in Contract if c > state.bid}
    if phase == Phase.DISCARD:
        hand = [CARD_CODES[c] for c in state.hand(seat)]
        banned = set()
        if state.won_rung > Contract.BIG:
            banned |= {h for h in hand if h[1:] in ("10", "0A")}
        if state.won_rung >= Contract.B27:
            banned.add("R07")
        ok = sorted((h for h in hand if h not in banned), key=CARD_CODES.index)
        return {f"discard {a} {b}" for i, a in enumerate(ok) for b in ok[i + 1 :]}
    if phase == Phase.GAMETYPE:
        talon = [CARD_CODES[c] for c in state.talon()]
        out = set()
        for c in Contract:
            if c < max(state.won_rung, Contract.G):
                continue
            if c in (Contract.SMALL, Contract.BIG):
                out.add(f"game {c.code}")
                continue
            if any(t[1:] in ("10", "0A") for t in talon):
                continue
            for t in ("R",) if c.code.startswith("B") else ("B", "G", "A"):
                if c.code in ("7", "B7", "107", "B107", "27", "127", "B27", "B127") and (
                    t + "07" in talon
                ):
                    continue
                if c.code in ("27", "127", "B27", "B127"):
                    out |= {f"game {c.code} {t}:{s}" for s in "RBGA" if s != t and s + "07"
                            not in talon}  # fmt: skip
                else:
                    out.add(f"game {c.code} {t}")
        return out
    if phase == Phase.FLEK:
        mine = state.seat_flek_levels(seat)
        steps = (2, 8) if seat == state.declarer else (1, 4)
        out = {"flek " + ":".join(map(str, mine))}
        for i in range(len(mine)):
            if mine[i] in steps:
                out.add("flek " + ":".join(str(x * 2 if j == i else x) for j, x in
                                           enumerate(mine)))  # fmt: skip
        if len(mine) == 2 and all(x in steps for x in mine):
            out.add(f"flek {mine[0] * 2}:{mine[1] * 2}")
        return out
    return set()


def text(action: Action) -> str:
    from herna.games.marias import encode_action

    return encode_action(action)


# -- properties ----------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_cards_conserved_and_legal_moves_match_the_naive_checker(seed: int) -> None:
    for state in random_states(seed):
        locations = state.hands[0], state.hands[1], state.hands[2]
        held = [c for m in locations for c in cards_of(m)]
        played = [c for t in state.tricks for c in t.cards] + list(state.trick)
        aside = state.talon() if state.phase != Phase.DISCARD else []
        if state.phase == Phase.DEAL:
            aside += cards_of(state.undealt_mask())
        everything = held + played + aside
        assert sorted(everything) == list(range(32)), state
        if state.phase not in (Phase.DEAL, Phase.DONE):
            assert {text(a) for a in state.legal_actions()} == naive_legal(state), state


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_points_money_and_replay(seed: int) -> None:
    states = list(random_states(seed))
    end = states[-1]
    result = end.settlement()
    assert sum(result.money) == 0
    talon_points = sum(POINTS[c] for c in end.talon())
    assert result.declarer_points + result.defender_points + talon_points == 90
    if end.contract.has_trumps:
        assert talon_points == 0
    outcome = end.outcome()
    assert outcome is not None and sum(outcome.returns) == 0
    log = GameLog.from_state(end, seed=seed)
    again = play_log(GameLog.from_json(json.loads(json.dumps(log.to_json()))))
    assert again.settlement().money == result.money
    assert again.view(None) == end.view(None)
    assert [again.view(p) for p in range(3)] == [end.view(p) for p in range(3)]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_no_view_shows_a_card_its_player_may_not_see(seed: int) -> None:
    for state in random_states(seed):
        public = {c for t in state.tricks for c in t.cards} | set(state.trick)
        for viewer in (None, 0, 1, 2):
            allowed = set(public)
            if viewer is not None:
                allowed |= set(state.hand(viewer))
                if viewer == state.declarer and state.phase > Phase.DISCARD:
                    allowed |= set(state.talon())
            seen = set(CODE.findall(json.dumps(state.view(viewer))))
            assert seen <= {CARD_CODES[c] for c in allowed}, (viewer, seen, state)


def snapshot(state: MariasState) -> dict[str, object]:
    """Every fact of a state (all slots, private ones too), copied."""
    out: dict[str, object] = {}
    for cls in type(state).__mro__:
        for name in getattr(cls, "__slots__", ()):
            value = getattr(state, name)
            out[name] = list(value) if isinstance(value, list) else value
    return out


def in_place_states(seed: int) -> Iterator[tuple[MariasState, Action]]:
    """One random game driven in place like the bench (and OpenSpiel): each state (a clone)
    with the action chosen there."""
    rng = random.Random(seed)
    state = new_game(rng.randrange(3))
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = outcomes[rng.randrange(len(outcomes))][0]
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        yield state.clone(), action
        state.apply_action(action)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_apply_action_in_place_agrees_with_apply(seed: int) -> None:
    for state, action in in_place_states(seed):
        before = snapshot(state)
        after = state.apply(action)
        assert snapshot(state) == before  # apply leaves the receiver alone
        state.apply_action(action)
        assert snapshot(state) == snapshot(after)
        assert state.history() == after.history()
        assert state.returns() == after.returns()
        if state.is_terminal():
            outcome = state.outcome()
            assert outcome is not None and list(outcome.returns) == state.returns()
            assert sum(state.returns()) == 0
        else:
            assert state.returns() == [0.0, 0.0, 0.0]


def _illegal_candidates(state: MariasState) -> list[Action]:
    legal = state.legal_actions()
    others: list[Action] = [
        *(DEAL[c] for c in range(32)),
        *(PLAY[c] for c in range(32)),
        Play(-1),
        Play(40),
        Deal(-3),
        YES,
        NO,
        *BID,
        Discard((0, 0)),
        Discard((0, 31)),
        GameType(Contract.G, 0),
        GameType(Contract.G, 1),
        GameType(Contract.SMALL, 2),
        Flek((2,)),
        Flek((16, 16)),
        Claim(()),
        Renonc(Play(0)),
    ]
    return [a for a in others if a not in legal]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_an_illegal_action_leaves_the_state_unchanged(seed: int) -> None:
    for state, _ in in_place_states(seed):
        before = snapshot(state)
        for action in _illegal_candidates(state):
            try:
                state.apply_action(action)
            except IllegalAction as e:
                assert e.code and e.reason
                assert snapshot(state) == before, action
            else:  # only a renonc (or a claim) is accepted though not listed
                assert isinstance(action, Renonc | Claim), action
                break  # (``state`` is a copy: the game itself goes on)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_every_listed_legal_action_applies(seed: int) -> None:
    for state, _ in in_place_states(seed):
        legal = state.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [a for a, _ in outcomes] == legal
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        else:
            assert state.chance_outcomes() == []
        for action in legal:
            child = state.clone()
            child.apply_action(action)
            assert child.history()[-1] == (state.current_player(), action)


def test_seeded_random_games_play_as_recorded() -> None:
    """300 seeded random games through the public API, in place, give the actions and the
    money recorded (data/random_games.json) with the engine as it was before the in-place
    API: the same legal actions in the same order, the same chance outcomes, the same
    transitions and settlement."""
    recorded = json.loads((Path(__file__).parent / "data" / "random_games.json").read_text())
    assert len(recorded) == 300
    for game in recorded:
        seed = game["seed"]
        rng = random.Random(seed)
        state = new_game(seed % 3)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        log = " | ".join(f"{p} {encode_action(a)}" for p, a in state.history())
        if "log" in game:
            assert log == game["log"]
        assert hashlib.sha256(log.encode()).hexdigest()[:16] == game["log_sha256"], seed
        assert state.returns() == [float(m) for m in game["money"]], seed
        outcome = state.outcome()
        assert outcome is not None and outcome.reason == game["reason"]

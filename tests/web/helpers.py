"""Shared helpers of the web hall tests: scripted Mia spectator events and recorded games."""

from __future__ import annotations

import random
from typing import Any

from herna.games.mia.round import Announce, MiaActionCodec, MiaRound, Roll, See
from herna.hall.events import EventBus
from herna.hall.match import Match, Seat
from herna.hall.records import MatchRecord


def publish_mia_round(
    bus: EventBus,
    n: int,
    players: list[str],
    scores: dict[str, int],
    *,
    see: bool = True,
    table: str = "mia",
) -> None:
    """Publish one Mia round the way herna/servers/mia publishes it: the first player rolls
    and announces 4,2; the second sees (the first was honest: the seer loses) or rolls."""
    emit = bus.emit
    emit("mia", table, "game_started", round=n, players=players)
    emit("mia", table, "player_rolls", round=n, name=players[0])
    emit("mia", table, "announced", round=n, name=players[0], dice="4,2")
    if see:
        emit("mia", table, "wants_to_see", round=n, name=players[1])
        emit("mia", table, "actual_dice", round=n, dice="4,2")
        losers, reason = [players[1]], "SEE_FAILED"
    else:
        emit("mia", table, "player_rolls", round=n, name=players[1])
        emit("mia", table, "announced", round=n, name=players[1], dice="3,1")
        losers, reason = [players[1]], "ANNOUNCED_LOSING_DICE"
    for p in players:
        if p not in losers:
            scores[p] = scores.get(p, 0) + 1
    emit("mia", table, "player_lost", round=n, names=losers, reason=reason)
    emit("mia", table, "score", scores=dict(scores))
    emit("mia", table, "game_over", round=n, losers=losers, reason=reason, scores=dict(scores))


def play_mia_round(n: int, players: list[str], seed: int) -> MatchRecord:
    """A real Mia round played by simple random players on the rules engine, as the Mia
    server records it (seed + log, so the replayer can rebuild it)."""
    rnd = random.Random(seed)
    match: Match[Any] = Match(
        game="mia",
        table_id=f"round-{n}",
        state=MiaRound(tuple(players)),
        seats=[Seat(p, "bot") for p in players],
        seed=seed,
        codec=MiaActionCodec(),
        meta={"round": n},
    )
    while not match.state.is_terminal():
        state = match.state
        assert isinstance(state, MiaRound)
        seat = state.current_player()
        if state.phase == "turn":
            action: Any = See() if state.announcements and rnd.random() < 0.35 else Roll()
        else:
            legal = [a for a in state.legal_actions() if isinstance(a, Announce)]
            last = state.last_announcement
            higher = [a for a in legal if last is None or a.dice > last.dice]
            action = rnd.choice(higher or legal)
        match.act(seat, action)
    record = match.record()
    state = match.state
    assert isinstance(state, MiaRound)
    record.result["round"] = n
    record.result["order"] = list(state.players)
    return record

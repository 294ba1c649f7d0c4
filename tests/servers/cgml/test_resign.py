"""``<resign>`` (Herna extension) over real sockets: the aktér gives up a deal and the server
settles it as lost, records it with its reason, and goes on with the next deal; a defender's
``<resign>`` is refused and changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from herna.clients.cgml import CgmlClient
from herna.games.marias.text import match_text, summary
from herna.games.marias.words import settlement_words
from herna.hall.replays import replay_steps
from herna.protocols.cgml import messages as m
from herna.protocols.cgml.player import Decision, PlayerTracker
from herna.protocols.cgml.resign import Resign
from herna.servers.cgml.seats import GroupSettings
from tests.servers.cgml.helpers import ScriptedDecider, make_system
from tests.servers.cgml.test_game import Seen, three

pytestmark = pytest.mark.timeout(120)


async def test_the_aktér_gives_up_a_deal_a_defender_may_not(tmp_path: Path) -> None:
    system = await make_system(tmp_path, GroupSettings(max_games=40))
    done: dict[str, Any] = {"defender": 0, "aktér": 0}

    async def intercept(d: Decision, t: PlayerTracker, client: CgmlClient) -> m.Message | None:
        if d.kind == "newgame" and done["aktér"]:
            return t.newgame_answer(False)  # the deal after the resignation: enough
        if d.kind != "play" or t.declarer < 0:
            return None
        if t.declarer != t.seat and not done["defender"]:
            done["defender"] = t.games + 1
            return Resign()  # refused: the same question stands
        if t.declarer == t.seat and done["defender"] and not done["aktér"] and len(t.hand()) <= 8:
            done["aktér"] = t.games + 1
            return Resign()
        return None

    seen, others = Seen(), Seen()
    try:
        await three(system, ScriptedDecider(intercept, games=None), seen, others)
    finally:
        await system.stop()
    assert done["defender"] and done["aktér"], done
    [error] = [e for e in seen.of(m.Error)]
    assert error.code == "NOT_AKTER" and "defender cannot give up alone" in error.reason
    # everybody hears it: the game is cancelled as resigned, the result follows
    cancels = [c.reason for c in others.of(m.CancelGame)]
    assert cancels[0] == "resigned"
    index = others.messages.index(others.of(m.CancelGame)[0])
    result = next(x for x in others.messages[index:] if isinstance(x, m.Result))
    money = result.money()
    assert sum(money.values()) == 0 and money["p"] < 0 and len(result.rounds) < 10
    # the record says so, and the replay and the history say it in words
    system.records.flush()
    given_up = [
        s
        for s in system.records.matches(game="marias", limit=100)
        if s.result.get("ended") == "resigned"
    ]
    assert len(given_up) == 1
    record = system.records.get(given_up[0].id)
    assert record is not None
    assert record.status == "finished"
    assert record.result["details"]["conceded"] is True
    assert all(not p["won"] for p in record.result["details"]["parts"])
    p_seat = record.result["ids"].index("p")
    assert next(p.score for p in record.players if p.seat == p_seat) < 0
    steps = replay_steps(record)
    assert "gives up the game (vzdává)" in steps[-1]["label"]
    assert "gave up (vzdal), every part lost" in steps[-1]["label"]
    assert not any("{" in s["label"] for s in steps)
    assert "gave up (vzdal), every part lost" in summary(record)
    assert "gives up the game (vzdává)" in "\n".join(match_text(record))
    system.records.close()


def test_settlement_words_of_a_concession() -> None:
    from herna.games.marias import Contract
    from herna.games.marias.evaluation import Settlement

    s = Settlement((-6, 3, 3), 0, Contract.C7, 0, None, (1, 1), (), conceded=True)
    assert settlement_words(s, ["ann", "bob", "cyril"]) == (
        "sedma: ann gave up (vzdal), every part lost"
    )

"""``herna match marias``: duplicate deals on Herna's own CGML servers, real sockets. Both
games of a pair are the same deal with the same cards in the same seats; the lone side's
seat rotates."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from herna.cli import main
from herna.cli.match.entrants import parse_entrant
from herna.cli.match.marias import HOUSE_STRATEGIES, run_marias, seats_of
from herna.cli.match.onitama import MatchOptions
from herna.cli.match.tally import Tally
from herna.games.marias import CARD_CODES
from herna.games.marias.log import GameLog, play_log
from herna.hall.hall import Hall
from herna.hall.records import RecordStore, StoredMatch


def dealt(match: StoredMatch) -> tuple[list[set[str]], set[str]]:
    """Each seat's ten dealt cards and the talon of a recorded deal."""
    state = play_log(GameLog.from_json(match.result["log"]), upto=32)
    hands = [{CARD_CODES[c] for c in state.hand(s)} for s in range(3)]
    return hands, {CARD_CODES[c] for c in state.dealt_talon()}


async def test_each_pair_is_one_deal_twice_with_the_lone_side_rotating(tmp_path: Path) -> None:
    records = RecordStore(f"sqlite:///{tmp_path / 'match.db'}")
    hall = Hall(records=records)
    specs = {
        "A": parse_entrant("A", "house:heuristic", HOUSE_STRATEGIES),
        "B": parse_entrant("B", "house:random", HOUSE_STRATEGIES),
    }
    tally = Tally(planned_pairs=3)
    options = MatchOptions(3, 1, 11, 15.0, 0.0, 20.0, tmp_path)
    try:
        await run_marias(hall, specs, options, tally, lambda: None)
        records.flush()
        games = sorted(records.matches(game="marias"), key=lambda m: m.id)
    finally:
        await hall.stop()
        records.close()
    assert tally.games == 6 and tally.penta.pairs == 3 and len(games) == 6
    names = {"A": "engine-a", "B": "engine-b"}
    for index in range(3):
        first, second = games[2 * index], games[2 * index + 1]
        # the same deal: every seat gets the same cards, and the same talon
        assert dealt(first) == dealt(second)
        assert first.seed == second.seed
        for game, lone in ((first, "A"), (second, "B")):
            seated = [p.name for p in sorted(game.players, key=lambda p: p.seat)]
            expected = [names[s] for s in seats_of(index, lone)]
            # the copies are "<name>-2"
            assert [n.removesuffix("-2") for n in seated] == expected
            assert seated[index % 3] == names[lone]  # alone in the rotating seat
    # the pair's money is the lone A's money minus the lone B's in the same seat
    money = [
        float(next(p.score for p in g.players if p.seat == (i // 2) % 3))
        for i, g in enumerate(games)
    ]
    assert tally.pair_money == [money[0] - money[1], money[2] - money[3], money[4] - money[5]]


def test_the_command_prints_duplicate_money_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    code = main(
        [
            "match",
            "marias",
            "house:heuristic",
            "herna bot marias --passive --host {host} --port {port} --name {name} "
            "--strategy random",
            "--games",
            "2",
            "--seed",
            "5",
            "--json",
            str(out),
            "--log-dir",
            str(tmp_path),
        ]
    )
    assert code == 0
    result: dict[str, Any] = json.loads(out.read_text())
    assert result["game"] == "marias" and result["games"] == 2 and result["pairs"] == 1
    assert isinstance(result["money_per_pair"], float)
    # both copies of the program side ran as programs with their own names and logs
    assert (tmp_path / "engine-b-1.log").exists() and (tmp_path / "engine-b-2-1.log").exists()

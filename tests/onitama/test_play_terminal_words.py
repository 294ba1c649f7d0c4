"""``herna play onitama`` tells every move in the words of the play page and the replays
(``herna/games/onitama/words.py``): a real ``herna`` process on a pty against a hall's house
bot, its moves compared with the stored game's replay labels (issue 26)."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

from herna.hall.replays import replay_steps
from tests.mia.test_play_cli import Terminal
from tests.onitama.wire import real_clock, running

MOVE = re.compile(r"^(\S+ \((?:white|black)\) (?:played|could not move)[^\n]*)$", re.M)


async def test_the_terminal_tells_moves_as_the_replay_does(tmp_path: Path) -> None:
    async with running(
        tmp_path, clock=real_clock(), house_bots=1, house_bot_delay=0.0, house_bot_depth=1
    ) as server:
        argv = ["play", "onitama", "--name", "eva", "--port", str(server.port), "--games", "1"]
        term = Terminal([sys.executable, "-m", "herna.cli", *argv])
        try:
            asked = 0
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 120
            while term.proc.poll() is None and loop.time() < deadline:
                await asyncio.sleep(0.05)
                text = term.read()
                if text.count("your move> ") > asked:
                    asked = text.count("your move> ")
                    term.type("1")
            text = term.read()
            assert term.proc.wait(timeout=10) == 0, text[-3000:]
        finally:
            term.close()
        server.hall.records.flush()
        [match] = server.hall.records.matches(game="onitama")
        stored = server.hall.records.get(match.id)
        assert stored is not None
    said = MOVE.findall(text)
    assert said, text[-3000:]
    assert "Move: " not in text  # the old terminal-only notation
    labels = [str(step["label"]).split("; ")[0] for step in replay_steps(stored)]
    moves = [label for label in labels if " played " in label or " could not move" in label]
    assert said == moves
    assert re.search(r"eva \((?:white|black)\) played [A-Z][a-z]+ [a-e][1-5]→[a-e][1-5]", text)

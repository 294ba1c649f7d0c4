"""``herna bot mia`` survives a server restart: it notices that the server fell silent,
registers again with backoff (with its reserved name's token), says so, and plays on. A real
``herna`` process against ``herna serve --only mia`` on a fixed UDP port, stopped and started
again."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from herna.hall.db import make_engine
from herna.hall.identity import ReservedNames
from tests.mia.helpers import RawPeer, free_udp_port, port_of, rounds_seen
from tests.serve import serving

ROOT = Path(__file__).resolve().parents[2]


async def _plays(port: int, name: str, limit: float) -> None:
    """Wait until a spectator sees ``name`` in a complete round."""
    watcher = RawPeer(port)
    try:
        assert await watcher.ask("REGISTER_SPECTATOR;watcher") == "REGISTERED"
        async with asyncio.timeout(limit):
            while not [r for r in rounds_seen(watcher.seen) if name in r[0].split(";")[2]]:
                await watcher.recv(limit)
    finally:
        watcher.close()


async def test_the_bot_registers_again_after_a_server_restart(tmp_path: Path) -> None:
    port = free_udp_port()
    options = {"mia_port": port, "mia_round_pause": 0.05, "mia_house_round_pause": 0.05}
    # A reserved name: the bot needs its token (from the environment) every time.
    token = ReservedNames(make_engine(f"sqlite:///{tmp_path / 'herna.db'}")).add("phoenix")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HERNA_TOKEN": token}
    bot = subprocess.Popen(
        [sys.executable, "-m", "herna.cli", "bot", "mia", "--port", str(port), "--name", "phoenix"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        async with serving(tmp_path, "mia", **options) as hall:
            assert port_of(hall.service("mia")) == port
            await _plays(port, "phoenix", 20)
        # The server is gone; the bot hears nothing (no HEARTBEAT) and starts knocking.
        await asyncio.sleep(1.0)
        async with serving(tmp_path, "mia", **options) as hall:
            mia = hall.service("mia")
            # The default --lost-after is 6 s, then 1, 2, 4 s between attempts.
            await _plays(port, "phoenix", 25)
            assert "phoenix" in mia.table.clients  # type: ignore[attr-defined]
    finally:
        bot.send_signal(signal.SIGINT)
        try:
            out, _ = bot.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            bot.kill()
            out, _ = bot.communicate()
    assert "phoenix: registering phoenix at 127.0.0.1:" in out, out
    assert "phoenix: registered; playing" in out, out
    assert "no message from the server for 6 s; registering phoenix again" in out, out
    assert "phoenix: registered again (attempt" in out, out
    # Progress without a line per round: a summary every 5 s with the running score.
    assert re.search(r"phoenix: \d+ rounds: \d+ points, lost \d+ \(\d+ %\)", out), out
    assert "PLAYER LOST" not in out and "round 1:" not in out

"""Nothing blocks the event loop for long while ``herna serve`` starts and plays (issue 27):
on a first start the Onitama engine compiles for many seconds, and a loop stalled meanwhile
left the Mia port "listening" without an answer, so the reference bots gave up.

A fresh Python process (its own empty numba cache: a real first start) starts the hall as
``herna serve`` does, with a ticker on the same loop; a Mia client registers as soon as the
Mia port is open and must be answered at once; then the house bots play for a while. The
loop is watched from the moment the engine is ready, before the first port opens.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = r"""
import asyncio, json, logging, socket, sys, time
from herna.cli.serve import embedded_args, start_hall

async def main(db):
    loop = asyncio.get_running_loop()
    worst = [0.0]
    first_answer = [None]
    armed = [False]

    class Ready(logging.Handler):
        # The engine compiles before any port opens (the loop may be slow then: nobody is
        # connected); from its "ready" line on, the loop must stay responsive.
        def emit(self, record):
            if record.getMessage().startswith("Onitama engine ready"):
                armed[0] = True

    logging.getLogger("herna").addHandler(Ready())
    logging.getLogger("herna").setLevel(logging.INFO)

    async def ticker():
        last = loop.time()
        while True:
            await asyncio.sleep(0.01)
            now = loop.time()
            if armed[0]:
                worst[0] = max(worst[0], now - last - 0.01)
            last = now

    tick = asyncio.create_task(ticker())
    args = embedded_args("mia,onitama", db, onitama_house_bots=2, onitama_house_bot_delay=0.0)
    args.mia_port = int(sys.argv[2])
    watcher = asyncio.create_task(first_register(int(sys.argv[2]), first_answer))
    hall = await start_hall(args, {})
    await asyncio.sleep(3.0)  # house bots play: Mia rounds, Onitama engine games
    await hall.stop()
    hall.records.close()
    tick.cancel()
    print(json.dumps({"worst_lag": worst[0], "first_answer": first_answer[0], "armed": armed[0]}))

async def first_register(port, out):
    # As a reference bot does: register once the port is there, give up after 5 s silence.
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setblocking(False)
    loop = asyncio.get_running_loop()
    while True:
        sock.sendto(b"REGISTER;early-bird", ("127.0.0.1", port))
        sent = time.monotonic()
        try:
            data = await asyncio.wait_for(loop.sock_recv(sock, 4096), 0.2)
            out[0] = [data.decode(), time.monotonic() - sent]
            return
        except (TimeoutError, ConnectionRefusedError):
            await asyncio.sleep(0.05)

asyncio.run(main(sys.argv[1]))
"""


def _free_udp_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.serial
def test_the_loop_never_stalls_while_the_hall_starts_and_plays(tmp_path: Path) -> None:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"))
    done = subprocess.run(
        [sys.executable, "-c", PROBE, f"sqlite:///{tmp_path / 'h.db'}", str(_free_udp_port())],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    answer, seconds = result["first_answer"]
    assert answer == "REGISTERED" and result["armed"]
    assert seconds < 0.2, result
    assert result["worst_lag"] < 0.1, result

"""Round trip of one Onitama request and its answer over /ws/onitama and over TCP (same hub,
real sockets on 127.0.0.1): what the WebSocket transport adds per message.

    PYTHONPATH=$PWD .venv/bin/python bench/onitama_ws_roundtrip.py
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

from websockets.asyncio.client import connect

from tests.onitama.wire import Wire
from tests.web.play_helpers import play_hall


async def main():
    with tempfile.TemporaryDirectory() as d:
        async with play_hall(Path(d), house_bots=0) as h:
            n = 0
            ws_t = 0.0
            tcp_t = 0.0
            for i in range(20):
                async with connect(f"ws://127.0.0.1:{h.web.port}/ws/onitama") as ws:
                    await ws.send(f"LOGIN|eva{i}")
                    await ws.recv()
                    t = time.perf_counter()
                    for _ in range(90):
                        await ws.send("MAKE_MOVE|Ox|c1|c2")
                        await ws.recv()
                    ws_t += time.perf_counter() - t
                tcp = await Wire.open(h.onitama.port)
                await tcp.login(f"ota{i}")
                t = time.perf_counter()
                for _ in range(90):
                    await tcp.send("MAKE_MOVE|Ox|c1|c2")
                    await tcp.line()
                tcp_t += time.perf_counter() - t
                await tcp.close()
                n += 90
            ws_rt, tcp_rt = ws_t / n, tcp_t / n
            print(
                f"round trip, one request/answer, {n} each: "
                f"/ws/onitama {ws_rt * 1e6:.0f} us, TCP {tcp_rt * 1e6:.0f} us"
            )


if __name__ == "__main__":
    asyncio.run(main())

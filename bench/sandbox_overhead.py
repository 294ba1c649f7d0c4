#!/usr/bin/env python3
"""What the bot sandbox (herna.core.sandbox: bubblewrap + prlimit) costs, next to the same
program started directly: the time from start to its first answer (once per game), and the
round trip of one line through its standard input and output (once per move).

    .venv/bin/python bench/sandbox_overhead.py --starts 20 --lines 2000
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from herna.core.sandbox import Limits, Sandboxed, staged

ECHO = b"import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n"
ARGV = ["/usr/bin/python3", "-I", "/bot/bot.py"]


async def start(sandboxed: bool, files: dict[str, object]) -> asyncio.subprocess.Process:
    if sandboxed:
        box = await Sandboxed.start(ARGV, files, Limits())  # type: ignore[arg-type]
        return box.process
    return await asyncio.create_subprocess_exec(
        "/usr/bin/python3",
        "-I",
        str(files["bot.py"]),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )


async def round_trip(process: asyncio.subprocess.Process) -> float:
    assert process.stdin is not None and process.stdout is not None
    began = time.perf_counter()
    process.stdin.write(b"MOVE_WAS_MADE|Ox|c1|c2\n")
    await process.stdin.drain()
    await process.stdout.readline()
    return time.perf_counter() - began


async def measure(sandboxed: bool, starts: int, lines: int) -> tuple[float, float]:
    with staged({"bot.py": ECHO}) as files:
        first = []
        for _ in range(starts):
            began = time.perf_counter()
            process = await start(sandboxed, files)
            await round_trip(process)
            first.append(time.perf_counter() - began)
            process.kill()
            await process.wait()
        process = await start(sandboxed, files)
        trips = [await round_trip(process) for _ in range(lines)]
        process.kill()
        await process.wait()
    return statistics.median(first), statistics.median(trips)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--lines", type=int, default=2000)
    args = parser.parse_args()
    direct = await measure(False, args.starts, args.lines)
    boxed = await measure(True, args.starts, args.lines)
    print(
        f"start to first answer: direct {direct[0] * 1000:.1f} ms, sandboxed "
        f"{boxed[0] * 1000:.1f} ms ({(boxed[0] - direct[0]) * 1000:+.1f} ms per game)"
    )
    print(
        f"one line there and back: direct {direct[1] * 1e6:.0f} µs, sandboxed "
        f"{boxed[1] * 1e6:.0f} µs ({(boxed[1] - direct[1]) * 1e6:+.0f} µs per move)"
    )


if __name__ == "__main__":
    asyncio.run(main())

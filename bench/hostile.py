"""A hostile run against a real ``herna serve``: what a rude host on the network tries, and
whether the hall holds (issue 27).

    .venv/bin/python bench/hostile.py                      # this checkout
    .venv/bin/python bench/hostile.py --source /tmp/main   # another checkout's herna package

Starts ``herna serve`` (every server, house bots, a SQLite file in a temporary directory) on
free ports of 127.0.0.1 and sends traffic only there, bounded in count and time (about a
minute in all), and last deletes the database file under it and restarts it to count the
records. Each attack prints what was tried, what was seen and ``HELD`` or ``BROKEN``.
``--source DIR`` runs the server from the ``herna`` package in DIR (e.g. main, exported with
``git archive main | tar -x -C DIR``) for a before/after comparison; the attacks themselves
use only sockets.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serving import HOST, serving

RESULTS: list[tuple[str, bool]] = []


def report(name: str, tried: str, seen: str, held: bool) -> None:
    RESULTS.append((name, held))
    print(f"[{'HELD' if held else 'BROKEN'}] {name}\n    tried: {tried}\n    seen:  {seen}")


def rss_mb(pid: int) -> float:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


# -- small raw clients ----------------------------------------------------------------------------
class Udp:
    def __init__(self, port: int, ip: str = HOST) -> None:
        self.server = (HOST, port)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind((ip, 0))
        self.sock.setblocking(False)

    async def ask(self, line: str, timeout: float = 2.0) -> str:
        """Send ``line``; the first REGISTERED/REJECTED answer (others skipped)."""
        loop = asyncio.get_running_loop()
        self.sock.sendto(line.encode(), self.server)
        deadline = loop.time() + timeout
        while True:
            left = deadline - loop.time()
            if left <= 0:
                return "(no answer)"
            try:
                data = await asyncio.wait_for(loop.sock_recv(self.sock, 4096), left)
            except TimeoutError:
                return "(no answer)"
            text = data.decode(errors="replace")
            if text.startswith(("REGISTERED", "REJECTED")):
                return text

    async def lines(self, seconds: float) -> list[str]:
        loop = asyncio.get_running_loop()
        out: list[str] = []
        deadline = loop.time() + seconds
        while (left := deadline - loop.time()) > 0:
            with contextlib.suppress(TimeoutError):
                data = await asyncio.wait_for(loop.sock_recv(self.sock, 65536), left)
                out.append(data.decode(errors="replace"))
        return out

    def close(self) -> None:
        self.sock.close()


async def line_login(
    port: int, record: bytes, ip: str = HOST, end: bytes = b"\n", skip: bytes = b"\x00"
) -> str:
    """Send one record on a fresh TCP connection; the first record answered (records that
    start with ``skip``, such as a greeting, passed over)."""
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(HOST, port, local_addr=(ip, 0)), 5
        )
    except (OSError, TimeoutError) as exc:
        return f"(cannot connect: {exc})"
    try:
        writer.write(record)
        await writer.drain()
        while True:
            raw = await asyncio.wait_for(reader.readuntil(end), 5)
            if not raw.startswith(skip):
                return raw.decode(errors="replace").strip("\0\r\n")
    except (OSError, TimeoutError, asyncio.IncompleteReadError) as exc:
        return f"(no answer: {type(exc).__name__})"
    finally:
        writer.close()


# -- the attacks ----------------------------------------------------------------------------------
async def look_alikes(ports: dict[str, int]) -> None:
    mia = Udp(ports["mia"], "127.0.0.5")
    names = ["Аlice", "alice", "ALICE", "hоuse-honest", "House-Honest"]
    answers = [await mia.ask(f"REGISTER;{n}") for n in names]
    mia.close()
    report(
        "look-alike names on Mia (Alice reserved, house-honest a house bot)",
        ", ".join(f"REGISTER;{n}" for n in names),
        ", ".join(answers),
        all(a.startswith("REJECTED") for a in answers),
    )
    answers = [await line_login(ports["onitama"], f"LOGIN|{n}\n".encode()) for n in names[:3]]
    report(
        "look-alike names on Onitama",
        ", ".join(f"LOGIN|{n}" for n in names[:3]),
        ", ".join(a[:40] for a in answers),
        all(a.startswith("LOGIN_FAILED") for a in answers),
    )
    tiles = []
    for n in names[:2]:
        join = {"type": "join", "name": n, "rules": "tsuro"}
        record = json.dumps(join).encode() + b"\n"
        tiles.append(await line_login(ports["tiles"], record, skip=b'{"type":"welcome"'))
    codes = [json.loads(t).get("code", json.loads(t).get("type")) if t.startswith("{") else t
             for t in tiles]  # fmt: skip
    report(
        "look-alike names on tiles",
        ", ".join(f"join as {n}" for n in names[:2]),
        ", ".join(str(c) for c in codes),
        all(c == "RESERVED_NAME" for c in codes),
    )
    from herna.clients.cgml import CgmlClient
    from herna.protocols.cgml import messages as m

    answers = []
    for n in names[:2]:
        async with await CgmlClient.connect(HOST, ports["cgml"]) as client:
            await client.send(m.ConnectPlayer("passive", m.PlayerRef(n, n, "bot"), m.GAME_MARIAS))
            try:
                error = await asyncio.wait_for(client.expect(m.Error), 3)
                answers.append(getattr(error, "code", "?"))
            except TimeoutError:
                answers.append("(accepted: no error in 3 s)")
    report(
        "look-alike names on CGML (mariáš)",
        ", ".join(f"<connect> as {n}" for n in names[:2]),
        ", ".join(answers),
        all(a == "RESERVED_NAME" for a in answers),
    )


async def origins(web: int) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    seen = []
    for path in ("/ws/lobby", "/ws/onitama", "/ws/tiles", "/ws/marias"):
        try:
            async with connect(f"ws://{HOST}:{web}{path}", origin="http://evil.example"):  # type: ignore[arg-type]
                seen.append((path, 101))
        except InvalidStatus as exc:
            seen.append((path, exc.response.status_code))
        except OSError as exc:
            seen.append((path, str(exc)))  # type: ignore[arg-type]
    report(
        "WebSockets opened by another site's page",
        "Origin: http://evil.example on /ws/lobby, /ws/onitama, /ws/tiles, /ws/marias",
        ", ".join(f"{p} {s}" for p, s in seen),
        all(s == 403 for _, s in seen),
    )


async def connection_flood(ports: dict[str, int], pid: int, count: int) -> None:
    for game in ("onitama", "tiles", "web"):
        port = ports[game]
        before = rss_mb(pid)
        conns: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        failed = 0
        for _ in range(count):
            try:
                conns.append(
                    await asyncio.wait_for(
                        asyncio.open_connection(HOST, port, local_addr=("127.0.0.6", 0)), 2
                    )
                )
            except (OSError, TimeoutError):
                failed += 1
        writers = [w for _, w in conns]

        async def still_open(reader: asyncio.StreamReader) -> bool:
            try:
                return await asyncio.wait_for(reader.read(4096), 1.0) != b""
            except TimeoutError:
                return True
            except OSError:
                return False

        held_open = sum(await asyncio.gather(*(still_open(r) for r, _ in conns)))
        if game == "web":
            answer = await line_login(
                port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "127.0.0.7", end=b"\r\n"
            )
            fine = answer.startswith("HTTP/1.1 200")
        elif game == "onitama":
            answer = await line_login(port, b"LOGIN|bystander\n", "127.0.0.7")
            fine = answer.startswith(("LOGIN_OK", "WAITING"))
        else:
            join = {"type": "join", "name": "bystander", "rules": "tsuro"}
            record = json.dumps(join).encode() + b"\n"
            answer = await line_login(port, record, "127.0.0.7", skip=b'{"type":"welcome"')
            fine = '"joined"' in answer
        after = rss_mb(pid)
        for w in writers:
            w.close()
        report(
            f"connection flood on the {game} port",
            f"{count} TCP connections from 127.0.0.6 (kept open), then a client from 127.0.0.7",
            f"{len(writers)} connected, {failed} failed, {held_open} held open by the "
            f"server; server RSS {before:.0f} -> {after:.0f} MB; "
            f"the other client got {answer[:40]!r}",
            fine and held_open <= 300,
        )
        await asyncio.sleep(1.0)


async def mia_idle(port: int, count: int) -> None:
    watcher = Udp(port, "127.0.0.8")
    await watcher.ask("REGISTER_SPECTATOR;hostile-watcher")
    base = sum(1 for x in await watcher.lines(3.0) if x.startswith("ROUND STARTED"))
    peers = [Udp(port, "127.0.0.9") for _ in range(count)]
    answers = await asyncio.gather(*(p.ask(f"REGISTER;idle{i}") for i, p in enumerate(peers)))
    registered = sum(a == "REGISTERED" for a in answers)
    after = sum(1 for x in await watcher.lines(3.0) if x.startswith("ROUND STARTED"))
    for p in peers:
        p.close()
    watcher.close()
    report(
        "Mia idle registrations",
        f"{count} REGISTER;idleN from 127.0.0.9 (one UDP port each), never joining",
        f"{registered} registered; rounds started in 3 s: {base} before, {after} after",
        registered <= 64 and after >= max(1, base // 3),
    )


async def final_ping(port: int, log_path: Path) -> None:
    reader, writer = await asyncio.open_connection(HOST, port)
    answers = []
    for _ in range(3):
        writer.write(b"PING|PING\0")
        await writer.drain()
        answers.append((await asyncio.wait_for(reader.readuntil(b"\0"), 5)).decode()[:-1])
    writer.close()
    await asyncio.sleep(0.5)
    logged = sum("PING" in line for line in log_path.read_text(errors="replace").splitlines())
    report(
        "Onitama final-dialect keepalive",
        "PING|PING three times",
        f"answers {answers}; log lines naming PING: {logged}",
        answers == ["PING|PING"] * 3 and logged == 0,
    )


def rules_check_dev_zero(env: dict[str, str], cwd: Path) -> None:
    started = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "herna.cli", "rules", "check", "/dev/zero"],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
            cwd=cwd,
        )
        seen = f"exit {done.returncode} in {time.monotonic() - started:.1f} s: "
        seen += done.stdout.strip().splitlines()[0] if done.stdout.strip() else done.stderr[-80:]
        held = done.returncode == 1
    except subprocess.TimeoutExpired:
        seen, held = "still reading after 60 s (killed)", False
    report("herna rules check /dev/zero", "herna rules check /dev/zero", seen, held)


async def deleted_database(
    ports: dict[str, int], work: Path, log_path: Path, server: subprocess.Popen[bytes],
    env: dict[str, str],
) -> None:  # fmt: skip
    """Last, as it ends the hall's games: the SQLite file deleted under the running hall. Held:
    an error naming the file within a few seconds, a new Onitama game refused, ``/status``
    saying so, and after a restart every Mia round a spectator saw since in the database."""
    db = work / "herna.db"
    watcher = Udp(ports["mia"], "127.0.0.10")
    await watcher.ask("REGISTER_SPECTATOR;hostile-db-watcher")
    db.unlink()
    started = time.monotonic()
    seen: list[str] = []
    noticed = None
    while time.monotonic() - started < 10 and noticed is None:
        seen += await watcher.lines(0.25)
        text = log_path.read_text(errors="replace")
        noticed = next(
            (line for line in text.splitlines() if "ERROR" in line and str(db) in line), None
        )
    took = time.monotonic() - started
    seen += await watcher.lines(1.0)
    watcher.close()
    login = await line_login(ports["onitama"], b"LOGIN|db-newcomer\n")
    reader, writer = await asyncio.open_connection(HOST, ports["web"])
    writer.write(b"GET /status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    page = (await asyncio.wait_for(reader.read(), 10)).decode(errors="replace")
    writer.close()
    says = "no new games" in page
    rounds = {int(x.split(";")[1]) for x in seen if x.startswith("ROUND STARTED;")}
    scored = sum(x.startswith("SCORE;") for x in seen)
    server.terminate()
    with contextlib.suppress(subprocess.TimeoutExpired):
        server.wait(30)
    count = (
        "from herna.hall.records import RecordStore\n"
        f"s = RecordStore({f'sqlite:///{db}'!r}); s.recover()\n"
        "print(sorted(int(m.meta.get('round', 0)) for m in s.matches(game='mia', limit=10**6)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", count], env=env, cwd=work, capture_output=True, text=True
    )
    try:
        stored = set(json.loads(done.stdout.strip().splitlines()[-1]))
    except (ValueError, IndexError):
        stored = set()
    lost = sorted(rounds - stored)
    report(
        "a deleted database",
        "rm herna.db under the running hall; LOGIN|db-newcomer on Onitama; GET /status; "
        "restart and count the Mia rounds a spectator saw start since",
        f"error naming the file after {took:.1f} s: {'yes' if noticed else 'no'}; Onitama: "
        f"{login[:60]!r}; /status says so: {says}; {len(rounds)} rounds seen "
        f"({scored} scored), {len(lost)} missing after the restart"
        + (f" ({done.stderr.strip().splitlines()[-1][:80]})" if done.returncode else ""),
        noticed is not None and took < 5 and "CLOSED" in login and says and not lost,
    )


# -- the run --------------------------------------------------------------------------------------
async def run(args: argparse.Namespace) -> int:
    with serving(args.source, prefix="herna-hostile-", keep=args.keep,
                 before=(("bots", "add", "Alice"),)) as served:  # fmt: skip
        ports, server, work, log_path = served.ports, served.process, served.work, served.log_path
        print(f"herna serve from {served.package}; log {log_path}")
        await asyncio.sleep(2.0)  # house bots log in and start playing
        attacks: list[Callable[[], Awaitable[None]]] = [
            lambda: look_alikes(ports),
            lambda: origins(ports["web"]),
            lambda: mia_idle(ports["mia"], args.registrations),
            lambda: connection_flood(ports, server.pid, args.connections),
            lambda: final_ping(ports["onitama"], log_path),
        ]
        for attack in attacks:
            try:
                await asyncio.wait_for(attack(), 90)
            except Exception as exc:  # an attack that could not run is reported, not fatal
                report(getattr(attack, "__name__", "attack"), "-", f"error: {exc!r}", False)
        rules_check_dev_zero(served.env, work)
        alive = server.poll() is None
        report("the server process", "everything above", "still running" if alive else
               f"exited with {server.returncode}", alive)  # fmt: skip
        try:
            await asyncio.wait_for(deleted_database(ports, work, log_path, server, served.env), 90)
        except Exception as exc:
            report("a deleted database", "-", f"error: {exc!r}", False)
    held = sum(h for _, h in RESULTS)
    print(f"\n{held} of {len(RESULTS)} held")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", help="directory holding the herna package to serve")
    parser.add_argument("--connections", type=int, default=1500, help="per port (default 1500)")
    parser.add_argument(
        "--registrations", type=int, default=500, help="idle Mia names (default 500)"
    )
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())

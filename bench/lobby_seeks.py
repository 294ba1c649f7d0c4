"""The hall's lobby under a crowd of seeks that do not pair (herna/hall/lobby.py, no I/O).

A game server asks the lobby for the next group after every login. Seeks that wait —
challenges to players who are not there, people-only seeks with no other person — stay open,
so the cost of that question with many open seeks bounds how fast a crowd can log in.
Figures:

* ``open_us``: microseconds to open one more waiting seek and ask for the next group, with
  ``--waiting`` seeks open (mean over the last 200);
* ``pair_us``: microseconds for two seed clients' seeks that pair (open, ask, open, ask,
  seat), with as many seeks waiting.

    .venv/bin/python bench/lobby_seeks.py                  # 5,000 waiting seeks
    .venv/bin/python bench/lobby_seeks.py --waiting 20000

The last line of output is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import time

from herna.hall.lobby import BOT, BOTS, PEOPLE, PERSON, Lobby, Want


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--waiting", type=int, default=5000)
    args = parser.parse_args()
    lobby = Lobby()
    game = "onitama"
    times: list[float] = []
    for i in range(args.waiting):
        # people challenging absent players, bots wanting people only, people waiting for a
        # house bot of a level: none of them pairs with another
        if i % 3 == 0:
            want, kind = Want(challenge=f"absent-{i}"), PERSON
        elif i % 3 == 1:
            want, kind = Want(PEOPLE), BOT
        else:
            want, kind = Want(BOTS, level="easy"), PERSON
        t0 = time.perf_counter()
        lobby.open(game, f"p{i}", kind, want, object(), 0.0)
        group = lobby.next_group(game, 0.0)
        times.append(time.perf_counter() - t0)
        assert group is None, group
    open_us = sum(times[-200:]) / 200 * 1e6
    pair_times = []
    for i in range(200):
        t0 = time.perf_counter()
        for name in (f"a{i}", f"b{i}"):
            lobby.open(game, name, BOT, Want(), object(), 1.0)
            group = lobby.next_group(game, 1.0)
        assert group is not None and {s.owner for s in group} == {f"a{i}", f"b{i}"}
        lobby.seated(group)
        pair_times.append(time.perf_counter() - t0)
    pair_us = sum(pair_times) / len(pair_times) * 1e6
    figures = {
        "waiting": args.waiting,
        "open_us": round(open_us, 1),
        "pair_us": round(pair_us, 1),
    }
    print(
        f"{args.waiting} waiting seeks: open one more and ask {open_us:.1f} µs; "
        f"a pair of seed clients {pair_us:.1f} µs"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

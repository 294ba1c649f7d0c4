"""A deliberately faulty Onitama bot program for ``herna match`` tests (any language would do;
this one is Python with nothing but the standard library, as a bot author's would be).

It follows the match contract: HERNA_HOST, HERNA_PORT, HERNA_NAME and HERNA_TOKEN from the
environment. Its one argument says how it misbehaves once a game has started:

* ``crash``: exits (status 3) as soon as it gets START;
* ``illegal``: on its turn sends a move that is never legal (a card nobody holds);
* ``stall``: never moves;
* ``die``: exits at once, before even connecting (a broken program).
"""

from __future__ import annotations

import os
import socket
import sys


def main() -> int:
    mode = sys.argv[1]
    if mode == "die":
        print("faulty bot: giving up before connecting", flush=True)
        return 2
    name = os.environ["HERNA_NAME"]
    sock = socket.create_connection((os.environ["HERNA_HOST"], int(os.environ["HERNA_PORT"])))
    sock.sendall(f"LOGIN|{name}|{os.environ['HERNA_TOKEN']}\n".encode())
    for raw in sock.makefile("rb"):
        fields = raw.decode().strip().split("|")
        print("<", "|".join(fields), flush=True)
        kind = fields[0]
        if kind == "START" and mode == "crash":
            return 3
        my_turn = (kind == "START" and fields[1] == name) or kind == "MOVE_WAS_MADE"
        if my_turn and mode == "illegal":
            # Dragon is one of the 16 cards, but this line is sent whatever the deal: either
            # nobody holds it or no piece on a1 can reach e5 with it.
            sock.sendall(b"MAKE_MOVE|Dragon|a1|e5\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

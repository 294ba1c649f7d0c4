"""A starter bot for Herna's tile games (docs/protocols/tiles.md), for the hall's sandbox.

It reads the server's JSON messages on standard input, one per line, and writes its own
on standard output. The hall has joined the table for it already: the first line is
``joined``. Every ``your_turn`` lists the legal actions in the form to send back, so a bot
only has to choose one; this one prefers an action that ends the game in its favour, else
takes one at random. Change ``choose()``.

What it prints to standard error is its log: the hall keeps it with each game and shows it
to you (the author) only. Python 3 standard library only.
"""

import json
import random
import sys
from typing import Any


def log(*words: object) -> None:
    print(*words, file=sys.stderr, flush=True)


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def choose(turn: dict[str, Any]) -> dict[str, Any]:
    """The action to play: one of ``turn["actions"]`` (every legal one is listed)."""
    actions: list[dict[str, Any]] = turn["actions"]
    moves = [a for a in actions if a.get("type") in ("move", "moveAll")]
    # Moving is what reaches goals; other kinds of turn (push, add, exchange) are any.
    return random.choice(moves or actions)


def main() -> None:
    me = None
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "joined":
            me = message.get("name")
            log("sitting at", message.get("table"), "as", me, "playing", message.get("rules_name"))
        elif kind == "started":
            seats = [s["name"] for s in message.get("seats", []) if s]
            log("the game begins:", ", ".join(seats))
        elif kind == "your_turn":
            action = choose(message)
            log("my turn (" + message.get("action", "") + "):", json.dumps(action))
            send({"type": "act", "action": action})
        elif kind == "error":
            log("the server says:", message.get("code"), message.get("reason"))
        elif kind == "game_over":
            result = message.get("result", {})
            log("game over:", result.get("reason"), "winners:", result.get("winner_names"))
            break


if __name__ == "__main__":
    main()

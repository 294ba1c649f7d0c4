"""What the sparring drivers share: Herna's side of the pipe protocol of
``bench/onitama_strength.py --external`` and the harness processes they drive.

A driver reads one position per line (Herna's position notation and the think time in
milliseconds) and answers one action in Herna's notation. Herna's rules engine parses every
position and checks every answer, so a driver that misreads an engine fails loudly instead of
playing a different game.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from herna.games.onitama.notation import format_action, parse_position
from herna.games.onitama.state import OnitamaState, PlayerAction


class Harness:
    """A line-oriented helper program (built in /tmp, see README.md): one request line in,
    one answer line out."""

    def __init__(self, command: str) -> None:
        self.proc = subprocess.Popen(
            shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def ask(self, line: str) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            raise RuntimeError(f"harness exited (code {self.proc.wait()}) on {line!r}")
        return answer.strip()

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=5)


def serve(choose: Callable[[OnitamaState, int], PlayerAction], rule: str = "pass") -> int:
    """The driver loop: position + milliseconds in, action out, until stdin closes."""
    for line in sys.stdin:
        *position, ms = line.split()
        state = parse_position(" ".join(position), rule=rule)  # type: ignore[arg-type]
        action = choose(state, int(ms))
        if action not in state.legal_actions():
            raise RuntimeError(f"driver produced {action} not legal in {line.strip()!r}")
        sys.stdout.write(format_action(action) + "\n")
        sys.stdout.flush()
    return 0

"""A minimal Onitama bot for the hall's sandbox: it reads the server's lines on standard input
and writes its moves on standard output, one line each (docs/bots.md). It plays a legal move:
a win if it has one, else a capture, else any move. Make it yours: change ``choose``.

The hall logs in for it, so the first line it reads is ``LOGIN_OK|its-name``; then
``START|white|black|w1,w2,b1,b2,spare|secret``, the moves (``MOVE_WAS_MADE|card|from|to``)
and at last ``GAME_OVER|winner|reason``. The protocol: docs/protocols/onitama.md.
Standard error is its log: the hall keeps it for you with each game.
"""

import random
import sys

CARDS = {  # (dx, dy) from the mover's view: dx to the right, dy forward
    "Tiger": [(0, 2), (0, -1)],
    "Dragon": [(-2, 1), (2, 1), (-1, -1), (1, -1)],
    "Frog": [(-2, 0), (-1, 1), (1, -1)],
    "Rabbit": [(2, 0), (1, 1), (-1, -1)],
    "Crab": [(0, 1), (-2, 0), (2, 0)],
    "Elephant": [(-1, 1), (1, 1), (-1, 0), (1, 0)],
    "Goose": [(-1, 1), (-1, 0), (1, 0), (1, -1)],
    "Rooster": [(1, 1), (-1, 0), (1, 0), (-1, -1)],
    "Monkey": [(-1, 1), (1, 1), (-1, -1), (1, -1)],
    "Mantis": [(-1, 1), (1, 1), (0, -1)],
    "Horse": [(0, 1), (-1, 0), (0, -1)],
    "Ox": [(0, 1), (1, 0), (0, -1)],
    "Crane": [(0, 1), (-1, -1), (1, -1)],
    "Boar": [(0, 1), (-1, 0), (1, 0)],
    "Eel": [(-1, 1), (-1, -1), (1, 0)],
    "Cobra": [(1, 1), (1, -1), (-1, 0)],
}
FILES = "abcde"
Move = tuple[str, str, str]  # card, from, to: ("Ox", "c1", "c2")


class Game:
    def __init__(self, me: str, white: str, black: str, cards: list[str]) -> None:
        self.me = "w" if me.lower() == white.lower() else "b"
        self.names = {"w": white, "b": black}
        self.hands = {"w": cards[0:2], "b": cards[2:4]}
        self.spare = cards[4]
        self.to_move = "w"
        self.over = False
        self.board: dict[str, str] = {}  # "c1" -> "W" (master) / "w" (student), "B" / "b"
        for f in FILES:
            self.board[f + "1"] = "W" if f == "c" else "w"
            self.board[f + "5"] = "B" if f == "c" else "b"

    def play(self, card: str, src: str, dst: str) -> None:
        taken = self.board.get(dst, "")
        self.board[dst] = mover = self.board.pop(src)
        # A master taken, or one on the other side's temple arch, ends the game: GAME_OVER
        # is on its way, and a move now would be one too many.
        arch = "c5" if mover == "W" else "c1"
        self.over = taken in ("W", "B") or (mover.isupper() and dst == arch)
        hand = self.hands[self.to_move]
        hand[hand.index(card)] = self.spare
        self.spare = card
        self.to_move = "b" if self.to_move == "w" else "w"

    def moves(self) -> list[Move]:
        """Every legal move of the side to move: (card, from, to)."""
        side = self.to_move
        sign = 1 if side == "w" else -1  # Black reads each card turned by 180 degrees
        found: list[Move] = []
        for square, piece in self.board.items():
            if piece.lower() != side:
                continue
            f, r = FILES.index(square[0]), int(square[1])
            for card in self.hands[side]:
                for dx, dy in CARDS[card]:
                    nf, nr = f + sign * dx, r + sign * dy
                    if 0 <= nf < 5 and 1 <= nr <= 5:
                        target = FILES[nf] + str(nr)
                        if self.board.get(target, " ").lower() != side:
                            found.append((card, square, target))
        return found

    def wins(self, move: Move) -> bool:
        _card, src, dst = move
        arch = "c5" if self.me == "w" else "c1"
        theirs = self.board.get(dst, "")
        return theirs in ("B", "W") or (self.board[src].isupper() and dst == arch)


def choose(game: Game, moves: list[Move]) -> Move:
    winning = [m for m in moves if game.wins(m)]
    captures = [m for m in moves if m[2] in game.board]
    return random.choice(winning or captures or moves)


def send(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> None:
    me = ""
    game: Game | None = None
    for raw in sys.stdin:
        fields = raw.rstrip("\n").split("|")
        kind = fields[0]
        if kind == "LOGIN_OK":
            me = fields[1]
        elif kind == "START":
            game = Game(me, fields[1], fields[2], fields[3].split(","))
            print(f"playing {game.names['b' if game.me == 'w' else 'w']}", file=sys.stderr)
        elif kind == "MOVE_WAS_MADE" and game:
            game.play(fields[1], fields[2], fields[3])
        elif kind == "STALEMATE_CARD" and game:
            hand = game.hands[game.to_move]
            hand[hand.index(fields[1])] = fields[2]
            game.spare = fields[3]
            game.to_move = "b" if game.to_move == "w" else "w"
        elif kind == "GAME_OVER":
            how = fields[2].replace("_", " ")
            print(f"game over: {fields[1] or 'nobody'} won ({how})", file=sys.stderr)
            game = None
            continue
        if (
            game
            and not game.over
            and game.to_move == game.me
            and kind in ("START", "MOVE_WAS_MADE", "STALEMATE_CARD", "INVALID_MOVE")
        ):
            moves = game.moves()
            if moves:
                card, src, dst = choose(game, moves)
                send(f"MAKE_MOVE|{card}|{src}|{dst}")
            else:
                send("STALEMATE|" + game.hands[game.me][0])


if __name__ == "__main__":
    main()

"""A starter bot for licitovaný mariáš over CGML (docs/protocols/cgml.md), for the hall's
sandbox.

The hall logs in for the bot and joins its group: the bot reads CGML documents on standard
input and writes its answers on standard output, each document ``<cgml version="1.0">`` …
``</cgml>`` followed by an empty line. The first is the login's answer
(``connect status="complete"``): its ``playerid`` is the bot's id. Then comes ``newgame``
(answer accept), the deal (``dial``), the licitace (auction), the talon, the trumps, the
flek and ten tricks; the hall plays one deal.

This bot passes in the licitace (nic) and says no to every "do you have it?"; if everybody
passes and it, the forhont, wins the hra, it lays two low cards into the talon (never an
eso or desítka) and takes its longest suit as trumps (not červené: red trumps are the
lepší hra). It keeps every flek as offered, and in the tricks plays the lowest card the
rules allow: follow suit and overtake (přebít) when it can, else trump (and overtrump),
else any card. Change ``Deal.play()``, ``Deal.discard()``, ``Deal.trumps_suit()`` and
the licitace answer in ``main()``.

What it prints to standard error is its log: the hall keeps it with each game and shows it
to you (the author) only. Python 3 standard library only.
"""

import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator

SUITS = "RBGA"  # červené, kule, zelené, žaludy
TRUMP_ORDER = ["07", "08", "09", "0J", "0Q", "0K", "10", "0A"]  # 7 8 9 spodek svršek král 10 eso
PLAIN_ORDER = ["07", "08", "09", "10", "0J", "0Q", "0K", "0A"]  # betl and durch


def log(*words: object) -> None:
    print(*words, file=sys.stderr, flush=True)


def send(body: str) -> None:
    sys.stdout.write('<cgml version="1.0">\r\n' + body + "\r\n</cgml>\r\n\r\n")
    sys.stdout.flush()


def documents() -> Iterator[ET.Element]:
    """Each CGML document on standard input, parsed."""
    lines: list[str] = []
    for line in sys.stdin:
        lines.append(line)
        if "</cgml>" in line:
            yield ET.fromstring("".join(lines).strip())
            lines = []


class Deal:
    def __init__(self, me: str) -> None:
        self.me = me
        self.hand: set[str] = set()
        self.trumps: str | None = None  # a suit letter, or None: betl/durch (no trumps)
        self.order = TRUMP_ORDER
        self.trick: list[str] = []

    def strength(self, card: str) -> int:
        return self.order.index(card[1:])

    def legal(self) -> list[str]:
        """The cards of the hand the rules allow on the trick so far."""
        hand = sorted(self.hand)
        if not self.trick:
            return hand
        led = self.trick[0][0]
        follow = [c for c in hand if c[0] == led]
        if follow:
            if self.trumps and led != self.trumps and any(c[0] == self.trumps for c in self.trick):
                return follow  # trumped already: any card of the suit led
            best = max((c for c in self.trick if c[0] == led), key=self.strength)
            higher = [c for c in follow if self.strength(c) > self.strength(best)]
            return higher or follow
        if self.trumps:
            trumps = [c for c in hand if c[0] == self.trumps]
            if trumps:
                played = [c for c in self.trick if c[0] == self.trumps]
                if not played:
                    return trumps
                best = max(played, key=self.strength)
                higher = [c for c in trumps if self.strength(c) > self.strength(best)]
                return higher or trumps
        return hand

    def play(self) -> str:
        """The card to play: the lowest one allowed."""
        return min(self.legal(), key=self.strength)

    def discard(self) -> list[str]:
        """Two cards for the talon: the lowest that are neither eso nor desítka."""
        low = [c for c in self.hand if c[1:] not in ("0A", "10")]
        return sorted(low, key=lambda c: TRUMP_ORDER.index(c[1:]))[:2]

    def trumps_suit(self) -> str:
        """The trump suit for the hra: the longest of kule, zelené, žaludy."""
        return max("BGA", key=lambda s: sum(1 for c in self.hand if c[0] == s))


def cards_of(element: ET.Element) -> list[str]:
    return [c.text for c in element.iter("card") if c.text]


def main() -> None:
    me = ""
    deal = Deal(me)
    for doc in documents():
        for el in doc:
            tag, kind = el.tag, el.get("type") or el.get("status")
            if tag == "connect" and kind == "complete":
                me = el.get("playerid") or ""
                names = [p.findtext("name") or p.get("id") or "" for p in el.iter("player")]
                log("I am", me, "playing with", ", ".join(names))
            elif tag == "newgame" and kind == "ask":
                deal = Deal(me)
                send(f'<newgame status="accept"><player id="{me}"/></newgame>')
            elif tag == "dial" and kind == "cards":
                deal.hand.update(cards_of(el))
                if el.get("from") == "talon":  # I won the licitace: the talon is mine
                    two = deal.discard()
                    deal.hand.difference_update(two)
                    log("talon: keeping", " ".join(sorted(deal.hand)), "discarding", two)
                    body = "".join(f"<card>{c}</card>" for c in two)
                    send(f'<playcard type="cards" from="hand" to="talon">{body}</playcard>')
            elif tag == "licite" and kind == "ask":
                send(f'<licite type="answer">{"NO" if el.text else "PASS"}</licite>')
            elif tag == "gametype" and kind == "ask":
                game = el.findtext("licite") or "G"
                suit = deal.trumps_suit()
                log("I play", game, "with trumps", suit)
                send(
                    f'<gametype type="answer"><licite>{game}</licite>'
                    f"<trumf>{suit}</trumf></gametype>"
                )
            elif tag == "gametype" and kind == "info":
                game = el.findtext("licite") or ""
                trumf = el.findtext("trumf") or el.findtext("trumpf") or ""
                deal.trumps = trumf[:1].upper() or None
                deal.order = PLAIN_ORDER if game in ("SMALL", "BIG") else TRUMP_ORDER
            elif tag == "flek" and kind == "ask":
                send(f'<flek type="answer">{el.text or "1"}</flek>')
            elif tag == "playcard" and kind == "ask":
                card = deal.play()
                deal.hand.discard(card)
                card = f"<card>{card}</card>"
                send(f'<playcard type="cards" from="hand" to="desk">{card}</playcard>')
            elif tag == "playcard" and kind == "info" and el.get("to") == "desk":
                deal.trick.extend(cards_of(el))
            elif tag == "round":
                deal.trick = []
            elif tag == "error":
                log("the server says:", el.get("code"), el.text)
            elif tag == "result":
                for line in list(el.iter("winner")) + list(el.iter("loser")):
                    if line.get("playerid") == me:
                        log("result:", line.tag, line.findtext("money"))


if __name__ == "__main__":
    main()

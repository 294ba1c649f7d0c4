"""The player tracker when a client looks at the table after every message (as the web hall's
browser seat does): a shadow built before the talon arrived must not outlive it."""

from __future__ import annotations

import contextlib
import random
from collections import deque

from herna.core.clock import FakeClock
from herna.games.marias import Answer, Bid, Contract, Discard, make_bot
from herna.protocols.cgml import messages as m
from herna.protocols.cgml.codec import decode
from herna.protocols.cgml.player import PlayerTracker, TrackerError
from herna.servers.cgml.group import Group, GroupHooks
from herna.servers.cgml.seats import GroupSettings


class Inbox:
    """A member's connection as the group sees it: messages queue up for the test to read."""

    closed = False

    def __init__(self) -> None:
        self.messages: deque[m.Message] = deque()

    def send(self, message: m.Message) -> None:
        self.messages.append(message)

    def send_bytes(self, data: bytes) -> None:
        self.messages.append(decode(data))

    def close(self) -> None:
        self.closed = True


def test_the_auction_winner_discards_from_its_real_cards_after_looking_before_the_talon() -> None:
    ids = ["me", "b1", "b2"]
    group = Group(
        "g1",
        [m.PlayerRef(i, i, "human" if i == "me" else "bot") for i in ids],
        FakeClock(),
        GroupSettings(),
        GroupHooks(),
    )
    inboxes = [Inbox() for _ in ids]
    trackers = [PlayerTracker(i, rng=random.Random(7)) for i in ids]
    for member, inbox in zip(group.members, inboxes, strict=True):
        joined = group.join(
            inbox, m.NewGroupAnswer(True, "g1", m.GAME_MARIAS, member.ref), member.secret
        )
        assert joined is member
    bot = make_bot("heuristic")
    rng = random.Random(3)
    discards = 0
    for _ in range(5000):
        moved = False
        for seat, (inbox, tracker) in enumerate(zip(inboxes, trackers, strict=True)):
            while inbox.messages:
                message = inbox.messages.popleft()
                decision = tracker.feed(message)
                if seat == 0 and tracker.in_game:
                    with contextlib.suppress(TrackerError):  # no deal yet
                        tracker.view()  # looks at the table after every message
                if decision is None:
                    continue
                moved = True
                if decision.kind == "newgame":
                    answer = tracker.newgame_answer(tracker.games < 3)
                else:
                    legal = tracker.legal_actions()
                    if decision.kind == "licite":
                        # "me" takes every game; the others pass, so "me" gets the talon
                        bids = [
                            a for a in legal if isinstance(a, Bid) and a.contract != Contract.PASS
                        ]
                        if seat == 0:
                            action = bids[0] if bids else Answer(True)
                        else:
                            action = next(
                                (a for a in legal if a in (Bid(Contract.PASS), Answer(False))),
                                legal[0],
                            )
                    else:
                        action = bot.choose(tracker.view(), legal, rng)  # type: ignore[arg-type]
                    if isinstance(action, Discard) and seat == 0:
                        discards += 1
                        real = set(tracker.dealt) | set(tracker.talon)
                        assert set(action.cards) <= real
                        assert all(set(a.cards) <= real for a in legal if isinstance(a, Discard))
                    answer = tracker.answer(action)
                tracker.sent(decision)
                group.received(group.members[seat], answer)
                assert not any(isinstance(x, m.Error) for x in inbox.messages), inbox.messages
        if not moved and all(not i.messages for i in inboxes):
            break
    assert discards == 3  # three deals, "me" won each auction and laid two of its own away

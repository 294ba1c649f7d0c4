"""The super game server's game flow over real sockets: pause, timeout, renonc (and training
mode), ložená claims, refused moves, and a person's session through the terminal client."""

from __future__ import annotations

import argparse
import asyncio
import io
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from herna.cli.marias import play_main
from herna.clients.cgml import BotDecider, CgmlClient
from herna.games.marias import CARD_CODES, Bid, Claim, Play
from herna.protocols.cgml import messages as m
from herna.protocols.cgml.cards import parse_card
from herna.protocols.cgml.player import Decision, PlayerTracker, to_cgml_card
from herna.servers.cgml.seats import GroupSettings
from tests.servers.cgml.helpers import ScriptedDecider, System, make_system, scripted_group

pytestmark = pytest.mark.timeout(120)


class Seen:
    """Messages one player received."""

    def __init__(self) -> None:
        self.messages: list[m.Message] = []

    def __call__(self, message: m.Message, tracker: PlayerTracker) -> None:
        self.messages.append(message)

    def of(self, kind: type[m.Message]) -> list[Any]:
        return [x for x in self.messages if isinstance(x, kind)]


async def three(
    system: System,
    decider: ScriptedDecider,
    seen: Seen | None = None,
    others_seen: Seen | None = None,
) -> list[Any]:
    """The scripted player ``p`` and two rule bots ``q`` and ``r`` play one group."""
    port = system.login_port
    tasks = [
        asyncio.create_task(scripted_group(port, "p", decider, on_message=seen)),
        asyncio.create_task(
            scripted_group(port, "q", BotDecider("rule", seed=2), on_message=others_seen)
        ),
        asyncio.create_task(scripted_group(port, "r", BotDecider("rule", seed=3))),
    ]
    done = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 90)
    return list(done)


def illegal_card(tracker: PlayerTracker) -> int | None:
    legal = {a.card for a in tracker.legal_actions() if isinstance(a, Play)}
    return next((c for c in tracker.hand() if c not in legal), None)


async def test_pause_stops_the_clock_and_a_long_pause_aborts(tmp_path: Path) -> None:
    settings = GroupSettings(bot_timeout=0.5, max_pause=1.5, max_games=2)
    system = await make_system(tmp_path, settings)
    state = {"paused": 0}

    async def intercept(d: Decision, t: PlayerTracker, client: CgmlClient) -> m.Message | None:
        if d.kind != "play" or state["paused"] == 2 or state["paused"] > t.games:
            return None  # one pause in the first game, one in the second
        state["paused"] += 1
        await client.send(m.PauseStart("coffee"))
        if state["paused"] == 1:
            await asyncio.sleep(1.0)  # twice the answer time: the clock must be stopped
            await client.send(m.PauseFinish())
            return None
        await asyncio.sleep(2.5)  # longer than max_pause
        return None

    seen, others = Seen(), Seen()
    try:
        outcomes = await three(system, ScriptedDecider(intercept), seen, others)
    finally:
        await system.stop()
    relayed = others.of(m.PauseStart)
    assert len(relayed) == 2 and relayed[0].playerid == "p" and relayed[0].message == "coffee"
    assert len(others.of(m.PauseFinish)) == 1 and others.of(m.PauseFinish)[0].playerid == "p"
    assert not seen.of(m.PauseStart)  # not echoed to the one who paused
    assert len(others.of(m.Result)) == 1  # the first game was played out after the pause
    aborts = others.of(m.Abort)
    assert len(aborts) == 1 and aborts[0].player.id == "p"
    assert aborts[0].message == "pause too long"
    assert outcomes[1].games == 1
    system.records.flush()
    statuses = sorted(s.status for s in system.records.matches(game="marias"))
    assert statuses == ["aborted", "finished"]
    system.records.close()


async def test_timeout_aborts_the_game(tmp_path: Path) -> None:
    system = await make_system(tmp_path, GroupSettings(bot_timeout=0.3))

    async def intercept(d: Decision, t: PlayerTracker, client: CgmlClient) -> m.Message | None:
        if d.kind == "play":
            await asyncio.sleep(3)
        return None

    others = Seen()
    try:
        await three(system, ScriptedDecider(intercept), None, others)
    finally:
        await system.stop()
    [abort] = others.of(m.Abort)
    assert abort.player.id == "p" and abort.message == "timeout"
    system.records.flush()
    [record] = system.records.matches(game="marias")
    assert record.status == "aborted" and record.result["abort"] == "timeout"
    assert all(p.score == 0 for p in record.players)
    system.records.close()


@pytest.mark.parametrize("training", [False, True])
async def test_renonc_is_settled_or_refused_in_training(tmp_path: Path, training: bool) -> None:
    system = await make_system(tmp_path, GroupSettings(training=training, max_games=40))
    done = {"renonc": 0, "card": -1}

    async def intercept(d: Decision, t: PlayerTracker, client: CgmlClient) -> m.Message | None:
        if d.kind == "newgame" and done["renonc"]:
            return t.newgame_answer(False)  # enough: end the group
        if d.kind == "play" and not done["renonc"]:
            card = illegal_card(t)
            if card is not None:
                done["renonc"] = t.games + 1
                done["card"] = card
                return m.PlayCardCards((to_cgml_card(card),))
        return None

    seen, others = Seen(), Seen()
    try:
        await three(system, ScriptedDecider(intercept, games=None), seen, others)
    finally:
        await system.stop()
    assert done["renonc"], "no chance to renonc in 40 games"
    renoncs = seen.of(m.Renonc)
    assert len(renoncs) == 1 and renoncs[0].player.id == "p"
    assert renoncs[0].message.startswith("You must")
    if training:
        assert not others.of(m.Renonc)
        assert [c.reason for c in others.of(m.CancelGame)] == ["rejected"]
        # The game went on to its end: every game has its result with ten tricks.
        results = others.of(m.Result)
        assert len(results) == done["renonc"] and len(results[-1].rounds) == 10
    else:
        assert len(others.of(m.Renonc)) == 1
        cancel = others.of(m.CancelGame)
        assert [c.reason for c in cancel] == ["renonc", "rejected"]
        # The result right after the cancel: the offender pays, money sums to zero.
        index = others.messages.index(cancel[0])
        result = next(x for x in others.messages[index:] if isinstance(x, m.Result))
        money = result.money()
        assert sum(money.values()) == 0 and money["p"] < 0
        system.records.flush()
        renonced = [
            s
            for s in system.records.matches(game="marias", limit=100)
            if (s.result.get("details") or {}).get("renonc")
        ]
        assert len(renonced) == 1
        # which rule the card broke depends on the deal (a reserved seven is one of them)
        assert renonced[0].result["details"]["renonc"]["code"] in {
            "MUST_FOLLOW_SUIT",
            "MUST_OVERTAKE",
            "MUST_TRUMP",
            "MUST_OVERTRUMP",
            "SEVEN_RESERVED",
        }
    system.records.close()


async def test_lozena_claims_valid_and_invalid(tmp_path: Path) -> None:
    system = await make_system(tmp_path, GroupSettings(max_games=60))
    done: dict[str, Any] = {"valid": None, "invalid": None}

    def server_state() -> Any:
        [group] = system.games[0].groups.values()
        return group.state

    async def intercept(d: Decision, t: PlayerTracker, client: CgmlClient) -> m.Message | None:
        if d.kind == "newgame" and done["invalid"]:
            return t.newgame_answer(False)  # both claims made: end the group
        if d.kind != "play":
            return None
        hand = t.hand()
        state = server_state()
        holds = state.claim_holds(t.seat)
        if holds and len(hand) >= 2 and done["valid"] is None:
            done["valid"] = t.games + 1
        elif not holds and len(hand) >= 3 and done["invalid"] is None and done["valid"]:
            done["invalid"] = t.games + 1
        else:
            return None
        return t.answer(Claim(tuple(hand)))

    seen = Seen()
    try:
        await three(system, ScriptedDecider(intercept), seen)
    finally:
        await system.stop()
    assert done["valid"] and done["invalid"]
    results = seen.of(m.Result)
    valid = results[done["valid"] - 1]
    assert len(valid.rounds) == 10  # the claimed tricks were played out
    renoncs = seen.of(m.Renonc)
    assert len(renoncs) == 1 and renoncs[0].player.id == "p"
    assert "ložená" in renoncs[0].message
    invalid = results[done["invalid"] - 1]
    assert invalid.money()["p"] < 0
    system.records.close()


async def test_refused_moves_get_errors_and_change_nothing(tmp_path: Path) -> None:
    system = await make_system(tmp_path, GroupSettings(max_games=1))
    plan = ["wrong-phase", "not-in-hand", "tarok", "not-mine-to-play"]

    async def intercept(d: Decision, t: PlayerTracker, client: CgmlClient) -> m.Message | None:
        # All four at the first card to play: each <error> asks the same question again.
        if not plan or d.kind != "play":
            return None
        step = plan.pop(0)
        if step == "wrong-phase":
            return m.FlekAnswer(m.Flek(2))
        if step == "not-in-hand":
            missing = next(c for c in range(32) if c not in t.hand())
            return m.PlayCardCards((parse_card(CARD_CODES[missing]),))
        if step == "tarok":
            return m.PlayCardCards((parse_card("T18"),))
        # Two cards that are not the whole hand: not a claim.
        return m.PlayCardCards(tuple(to_cgml_card(c) for c in t.hand()[:2]))

    seen = Seen()
    try:
        outcomes = await three(system, ScriptedDecider(intercept), seen)
    finally:
        await system.stop()
    codes = [e.code for e in seen.of(m.Error)]
    assert codes == ["WRONG_PHASE", "NOT_IN_HAND", "NOT_A_MARIAS_CARD", "CLAIM_NOT_WHOLE_HAND"], (
        seen.messages[-5:],
        outcomes,
    )
    assert not seen.of(m.Renonc)
    assert [o.games for o in outcomes] == [1, 1, 1]
    system.records.close()


def terminal_output() -> tuple[io.StringIO, Console]:
    out = io.StringIO()
    return out, Console(file=out, width=120, force_terminal=False, color_system=None)


def scripted_person(
    prompts: list[str], new_game: str, yes: str, two_cards: str, refuse_every: int = 0
) -> Callable[[str], Awaitable[str | None]]:
    """A person at the terminal: one game (``yes`` to the ``new_game`` prompt, then no), the
    first two cards for the talon, the first choice of every question; every
    ``refuse_every``-th answer is not a number (the client asks again). Prompts are kept."""

    async def read_line(prompt: str) -> str | None:
        prompts.append(prompt)
        if prompt.startswith(new_game):
            return yes if prompts.count(prompt) == 1 else "n"
        if prompt.startswith(two_cards):
            return "1 2"
        if refuse_every and len(prompts) % refuse_every == 0:
            return "not a number"
        return "1"

    return read_line


async def test_a_persons_session_through_the_terminal_client(tmp_path: Path) -> None:
    system = await make_system(tmp_path, GroupSettings(), fill_wait=0.05)
    out, console = terminal_output()
    prompts: list[str] = []
    read_line = scripted_person(prompts, "Play a game", "y", "Two cards", refuse_every=5)
    args = argparse.Namespace(
        host="127.0.0.1", port=system.login_port, name="Ann", id="ann", opponent=[], token=None
    )
    try:
        summary = await asyncio.wait_for(play_main(args, console, read_line), 60)
    finally:
        await system.stop()
    text = out.getvalue()
    assert summary.games == 1 and summary.ended == "cancelgame", text
    assert "Your hand:" in text and "Result:" in text
    assert "in total" in text and "The group is over: 1 games" in text
    assert "Choose one of the numbers shown." in text
    # The game's words, one name per card, and the settlement breakdown.
    assert "card points" in text and "money (units)" in text
    assert not re.search(r"\b[RBGA](ober|unter|king|ace)\b", text), text
    assert not re.search(r"\b[RBGA]0[JQKA]\b", text), text  # no raw codes beside the names
    assert "flek 1" not in text and "you discards" not in text and "you plays" not in text
    assert re.search(CARD_EN, text), text
    assert not re.search(WRONG_CARD, text), text
    assert any(p.startswith("Your card") for p in prompts)
    # Only legal choices were offered: the server never refused a move.
    assert "Server:" not in text
    system.records.close()


CARD_EN = (
    r"\b(červen|kulov|zelen|žaludov)(á (sedma|osma|devítka|desítka)|ý (spodek|svršek|král)|é eso)\b"
)
"""A card named with the suit agreeing with the rank (issue #29)."""
WRONG_CARD = (
    r"\b(červené|zelené) (spodek|svršek|král|sedma|7|8|9|10)\b"
    r"|\b(kule|žaludy) (spodek|svršek|král|eso|sedma|7|8|9|10)\b"
)
"""The old names: a suit noun before the rank (``červené král``, ``kule svršek``; ``červené
eso`` is right: eso is neuter)."""
CARD_CS_ACC = (
    r"\b(červen|kulov|zelen|žaludov)(ou (sedmu|osmu|devítku|desítku)|ého (spodka|svrška|krále)"
    r"|é eso)\b"
)
"""A card as the object of a Czech sentence (accusative): ``hraje červenou sedmu``."""


async def test_a_persons_session_in_czech(tmp_path: Path) -> None:
    """``herna play marias --language cs`` over a real server: the table's story, the prompts
    and the vyúčtování in Czech, the cards in the case each sentence needs."""
    from herna.cli import build_parser

    system = await make_system(tmp_path, GroupSettings(), fill_wait=0.05)
    out, console = terminal_output()
    prompts: list[str] = []
    read_line = scripted_person(prompts, "Hrát hru", "a", "Dvě karty")
    args = build_parser().parse_args(
        ["play", "marias", "--port", str(system.login_port), "--name", "Ann", "--language", "cs"]
    )
    assert args.language == "cs"
    try:
        summary = await asyncio.wait_for(play_main(args, console, read_line), 60)
    finally:
        await system.stop()
    text = out.getvalue()
    assert summary.games == 1, text
    assert "Tvoje karty:" in text and "Výsledek:" in text and "Konec stolu:" in text
    assert "body za karty" in text and "peníze (jednotky)" in text
    assert re.search(r"\bty hraješ " + CARD_CS_ACC, text), text
    assert re.search(r"\b(house-\S+|rule-bot\S*) hraje " + CARD_CS_ACC, text), text
    assert re.search(r"\d+\. štych bere ", text), text
    assert "prostřední" in text and "middle" not in text
    assert not re.search(WRONG_CARD, text), text
    for english in ("you ", "plays", "announces", "Your hand", "trick", "Result"):
        assert english not in text, english
    assert any(p.startswith("Tvoje karta") for p in prompts)
    assert "Server:" not in text  # only legal choices were offered
    system.records.close()


async def test_garbage_from_a_player_aborts_only_its_game(tmp_path: Path) -> None:
    system = await make_system(tmp_path, GroupSettings(max_games=1))

    async def intercept(d: Decision, t: PlayerTracker, client: CgmlClient) -> m.Message | None:
        if d.kind == "play":
            await client.send_bytes(b"this is not XML\r\n\r\n")
            await asyncio.sleep(0.5)
        return None

    seen, others = Seen(), Seen()
    try:
        outcomes = await three(system, ScriptedDecider(intercept), seen, others)
    finally:
        await system.stop()
    [disconnect] = seen.of(m.Disconnect)
    assert disconnect.reason.startswith("not XML")
    [abort] = others.of(m.Abort)
    assert abort.player.id == "p" and abort.message == "disconnected"
    assert outcomes[1].ended == "abort" and outcomes[1].games == 0
    system.records.flush()
    [record] = system.records.matches(game="marias")
    assert record.status == "aborted" and record.result["culprit"] == "p"
    system.records.close()


@pytest.mark.parametrize("training", [False, True])
async def test_a_forbidden_discard_is_a_renonc(tmp_path: Path, training: bool) -> None:
    """The auction winner of B127 lays an ace or ten into the talon."""
    system = await make_system(tmp_path, GroupSettings(training=training, max_games=10))
    state: dict[str, Any] = {"done": False, "discards": 0}

    async def intercept(d: Decision, t: PlayerTracker, client: CgmlClient) -> m.Message | None:
        if d.kind == "newgame" and state["done"]:
            return t.newgame_answer(False)
        if state["done"] and not training:
            return None
        bids = [
            a.action
            for a in t.public
            if isinstance(a.action, Bid) and a.action.contract.code != "PASS"
        ]
        if d.kind == "licite" and d.asked is None and not bids:
            state["bid"] = t.games
            return m.LiciteAnswer("B127")  # the top of the ladder: nobody can overbid
        if d.kind == "discard" and state.get("bid") == t.games:
            # Aces, tens and the announced trump seven R07 may not go to the talon in B127.
            high = [c for c in t.hand() if c & 7 in (3, 7) or c == 0]
            low = [c for c in t.hand() if c not in high]
            if not high and not state["done"]:
                return None  # nothing forbidden to lay: try again in another game
            state["discards"] += 1
            if state["discards"] == 1:
                state["done"] = True
                return m.PlayCardCards(
                    (to_cgml_card(high[0]), to_cgml_card(low[0])), "hand", "talon"
                )
        return None

    seen, others = Seen(), Seen()
    try:
        await three(system, ScriptedDecider(intercept), seen, others)
    finally:
        await system.stop()
    assert state["done"], "p never won the auction"
    [renonc] = seen.of(m.Renonc)
    assert renonc.player.id == "p" and "talon" in renonc.message
    if training:
        assert state["discards"] == 2  # asked again, and the second discard was accepted
        assert not others.of(m.Renonc)
        assert len(others.of(m.Result)[-1].rounds) == 10
    else:
        assert others.of(m.Renonc) and others.of(m.CancelGame)[0].reason == "renonc"
        result = others.of(m.Result)[-1]
        assert result.licite == "B127" and result.rounds == ()
        money = result.money()
        assert money["p"] < 0 and sum(money.values()) == 0
    system.records.close()


def test_the_terminal_client_says_flek_trumps_and_verbs_in_words() -> None:
    from herna.cli.marias import action_text, flek_words, trumps_words
    from herna.clients.marias_text import verb
    from herna.games.marias import Play, parse_card

    assert flek_words("1") == "no flek"
    assert flek_words("2") == "flek (×2)"
    assert flek_words("4:1") == "re (×4) on the game, no flek on the sedma"
    assert trumps_words("G") == "zelené (leaves)"
    assert trumps_words("R:B") == "červené (hearts), second suit kule (bells)"
    assert verb("you", "discards") == "discard"
    assert verb("anna", "discards") == "discards"
    assert action_text(Play(parse_card("G0Q"))) == "zelený svršek"
    assert action_text(Play(parse_card("G0Q")), "cs") == "zelený svršek"
    assert flek_words("4:1", "cs") == "re (×4) na hru, bez fleku na sedmu"
    assert trumps_words("R:B", "cs") == "červené, strkací kule"

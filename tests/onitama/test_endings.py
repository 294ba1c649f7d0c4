"""How a game ends and what follows, over real TCP sockets: a seat that is paired again only
when its player asks (seek word ``once``), resigning, draw offers, rematch and play again; a
seed client is still paired again at once."""

from __future__ import annotations

import asyncio
from pathlib import Path

from herna.games.onitama.state import OnitamaState
from herna.games.onitama.text import match_text
from herna.hall.replays import replay_steps
from tests.onitama.test_lobby_seats import person, start
from tests.onitama.wire import Server, Wire, real_clock, running


async def game_of_two(server: Server, seek: str = "person,once") -> tuple[Wire, Wire, list[str]]:
    """ann and bob in a game (white wire, black wire, START fields)."""
    a, _ = await person(server, "ann", seek)
    b, _ = await person(server, "bob", seek)
    fields = await start(a)
    await start(b)
    return (a, b, fields) if fields[1] == "ann" else (b, a, fields)


def records(server: Server) -> list[dict[str, object]]:
    store = server.hall.records
    store.flush()
    return [m.result for m in store.matches(game="onitama")]


async def test_a_once_seat_gets_no_new_game_until_it_asks_and_a_seed_client_is_repaired(
    tmp_path: Path,
) -> None:
    async with running(tmp_path, move_clock=0) as server:
        white, black, fields = await game_of_two(server)
        await white.send("RESIGN")
        over = f"GAME_OVER|{fields[2]}|resigned"
        assert await white.line() == over and await black.line() == over
        server.clock.advance(30)
        assert await white.quiet(0.3) and await black.quiet(0.1)
        assert server.hall.lobby.snapshot("onitama") == [] and not server.service.hub.tables
        assert len(records(server)) == 1
        # moves after the game: not in a game
        await black.send("MAKE_MOVE|Ox|c1|c2")
        assert await black.line() == "ERROR|NOT_IN_GAME"
        # ann asks to play again: she waits in the lobby; bob does not get a game by it
        await white.send("PLAY_AGAIN") if fields[1] == "ann" else await black.send("PLAY_AGAIN")
        ann = white if fields[1] == "ann" else black
        assert (await ann.line()).startswith("SEEK|s")
        await ann.send("PLAY_AGAIN")
        assert await ann.line() == "ERROR|ALREADY_WAITING"
        await white.close()
        await black.close()
        await server.settle()
        # two seed clients (no seek) are paired again at once after GAME_OVER, as the seed says
        x, y, pair = await server.pair("xen", "yve")
        await x.send("RESIGN")  # a Herna extension a seed client may use too
        assert await x.line() == f"GAME_OVER|{pair[2]}|resigned"
        assert await y.line() == f"GAME_OVER|{pair[2]}|resigned"
        assert (await x.line()).startswith("START|") and (await y.line()).startswith("START|")


async def test_resign_is_recorded_with_its_reason_and_bad_requests_change_nothing(
    tmp_path: Path,
) -> None:
    async with running(tmp_path, move_clock=0) as server:
        w = await server.wire()
        assert await w.login("zed") == "LOGIN_OK|zed"
        await w.send("RESIGN")
        assert await w.line() == "ERROR|NOT_IN_GAME"
        await w.send("REMATCH")
        assert await w.line() == "ERROR|ALREADY_WAITING"  # a seed client waits in the lobby
        await w.send("RESIGN|now")
        assert await w.line() == "ERROR|WRONG_FIELD_COUNT"
        await w.close()
        white, black, fields = await game_of_two(server)
        await black.send("ACCEPT_DRAW")
        assert await black.line() == "ERROR|NO_DRAW_OFFER"
        await black.send("RESIGN")
        over = f"GAME_OVER|{fields[1]}|resigned"
        assert await black.line() == over and await white.line() == over
        [result] = records(server)
        assert result["reason"] == "resigned" and result["winners"] == [0]
        [listed] = server.hall.records.matches(game="onitama")
        match = server.hall.records.get(listed.id)
        assert match is not None and f"     {fields[2]} resigns" in match_text(match)


async def test_a_draw_offer_declined_then_accepted_is_recorded_as_a_draw(tmp_path: Path) -> None:
    async with running(tmp_path, move_clock=0, initial_state=fixed) as server:
        white, black, fields = await game_of_two(server)
        ann, bob = fields[1], fields[2]
        await white.send("OFFER_DRAW")
        assert await black.line() == f"DRAW_OFFERED|{ann}"
        await white.send("OFFER_DRAW")
        assert await white.line() == "ERROR|DRAW_NOT_NOW"
        await black.send("DECLINE_DRAW")
        assert await white.line() == f"DRAW_DECLINED|{bob}"
        await white.send("MAKE_MOVE|Ox|c1|c2")
        assert await white.line() == "MOVE_WAS_MADE|Ox|c1|c2"
        assert await black.line() == "MOVE_WAS_MADE|Ox|c1|c2"
        # an offer, answered by a move: declined
        await white.send("OFFER_DRAW")
        assert await black.line() == f"DRAW_OFFERED|{ann}"
        await black.send("MAKE_MOVE|Horse|c5|c4")
        assert await black.line() == "MOVE_WAS_MADE|Horse|c5|c4"
        assert await white.line() == "MOVE_WAS_MADE|Horse|c5|c4"
        assert await white.line() == f"DRAW_DECLINED|{bob}"
        await black.send("OFFER_DRAW")
        assert await white.line() == f"DRAW_OFFERED|{bob}"
        await white.send("ACCEPT_DRAW")
        assert await white.line() == "GAME_OVER||draw_agreed"
        assert await black.line() == "GAME_OVER||draw_agreed"
        [result] = records(server)
        assert result["reason"] == "draw agreed" and result["winners"] == []
        assert result["returns"] == [0.5, 0.5]
        [listed] = server.hall.records.matches(game="onitama")
        match = server.hall.records.get(listed.id)
        assert match is not None
        text = match_text(match)
        assert "     both players agree to a draw" in text
        assert text[-1] != "" and "Result: a draw, agreed by both players." in text
        steps = replay_steps(match)
        assert steps[-1]["label"] == "a draw, agreed by both players"


async def test_a_draw_offer_to_a_seed_client_is_declined_at_once(tmp_path: Path) -> None:
    async with running(tmp_path, move_clock=0, initial_state=fixed) as server:
        eva, _ = await person(server, "eva", "person,once")
        seed = await server.wire()
        assert await seed.login("tcpbot") == "LOGIN_OK|tcpbot"
        await start(eva)
        assert (await seed.line()).startswith("START|")
        await eva.send("OFFER_DRAW")
        assert await eva.line() == "DRAW_DECLINED|tcpbot"
        assert await seed.quiet()


async def test_rematch_between_two_people_swaps_colours_and_can_be_declined(
    tmp_path: Path,
) -> None:
    async with running(tmp_path, move_clock=0) as server:
        white, black, fields = await game_of_two(server)
        ann, bob = fields[1], fields[2]
        await white.send("RESIGN")
        await white.line(), await black.line()
        await white.send("REMATCH")
        assert (await white.line()).startswith("SEEK|s")
        assert await black.line() == f"REMATCH_OFFERED|{ann}"
        await black.send("DECLINE_REMATCH")
        assert await white.line() == f"REMATCH_DECLINED|{bob}"
        assert server.hall.lobby.snapshot("onitama") == []
        # asked again and withdrawn: the one it was offered to hears that it no longer stands
        await white.send("REMATCH")
        assert (await white.line()).startswith("SEEK|s")
        assert await black.line() == f"REMATCH_OFFERED|{ann}"
        await white.send("DECLINE_REMATCH")
        assert await black.line() == f"REMATCH_DECLINED|{ann}"
        assert server.hall.lobby.snapshot("onitama") == []
        # asked again, and accepted: colours swapped
        await white.send("REMATCH")
        assert (await white.line()).startswith("SEEK|s")
        assert await black.line() == f"REMATCH_OFFERED|{ann}"
        await black.send("REMATCH")
        assert (await black.line()).startswith("SEEK|s")
        again = await start(black)
        assert again[1:3] == [bob, ann]
        assert (await start(white))[1:3] == [bob, ann]


async def test_rematch_and_play_again_against_a_house_bot(tmp_path: Path) -> None:
    async with running(
        tmp_path,
        clock=real_clock(),
        house_bots=0,
        house_bot_strategy="engine",
        house_bot_delay=0.01,
        move_clock=0,
    ) as server:
        eva, _ = await person(server, "eva", "person,once,opponent=bots,level=easy")
        fields = await start(eva)
        assert "house-easy-1" in fields[1:3]
        await eva.send("RESIGN")
        assert (await eva.line()).startswith("GAME_OVER|house-easy-1|resigned")
        await asyncio.sleep(0.3)
        assert await eva.quiet(0.2)
        await eva.send("REMATCH")
        assert (await eva.line()).startswith("SEEK|s")
        again = await start(eva)
        # the same bot, the same level, colours swapped
        assert again[1:3] == [fields[2], fields[1]]
        [bot] = [b for b in server.service.summoned if not b.closed]
        assert bot.name == "house-easy-1" and bot.strategy.level == "easy"  # type: ignore[attr-defined]
        await eva.send("RESIGN")
        assert (await eva.line()).startswith("GAME_OVER|house-easy-1|resigned")
        await eva.send("PLAY_AGAIN")
        assert (await eva.line()).startswith("SEEK|s")
        third = await start(eva)
        assert any(n.startswith("house-easy-") for n in third[1:3])


async def test_a_house_bot_declines_a_draw_when_it_is_not_behind(tmp_path: Path) -> None:
    # (It accepts when it has fewer pieces: tests/web/test_play_endings.py plays to that.)
    async with running(
        tmp_path, clock=real_clock(), house_bot_strategy="greedy", house_bot_delay=5, move_clock=0
    ) as server:
        eva, _ = await person(server, "eva", "person,once,opponent=bots,level=easy")
        await start(eva)
        await eva.send("OFFER_DRAW")
        assert await eva.line() == "DRAW_DECLINED|house-easy-1"
        assert not records(server)


def fixed() -> OnitamaState:
    return OnitamaState.setup(["Ox", "Boar"], ["Horse", "Elephant"], "Crab")


async def test_a_game_clock_with_an_increment_chosen_at_the_table_and_a_loss_on_time(
    tmp_path: Path,
) -> None:
    async with running(tmp_path, move_clock=60, initial_state=fixed) as server:
        late = await server.wire()
        await late.send("LOGIN|zed|-|person,clock=5+x")
        assert (await late.line()).startswith("LOGIN_FAILED|BAD_SEEK|clock=5+x: a clock is")
        await late.send("LOGIN|zed|-|person,clock=500+3")
        assert (await late.line()).startswith("LOGIN_FAILED|BAD_SEEK|")
        # a seek with another clock is not paired with these two
        other, _ = await person(server, "zed", "person,once,opponent=people,clock=10+5")
        white, black, fields = await game_of_two(server, "person,once,opponent=people,clock=0.05+1")
        assert await other.quiet()
        # a game clock of 3 s each, +1 s a move; no move clock at this table
        assert await white.line() == "GAME_CLOCK|3.0|3.0|white"
        assert await black.line() == "GAME_CLOCK|3.0|3.0|white"
        server.clock.advance(1.0)
        await white.send("MAKE_MOVE|Ox|c1|c2")
        assert await white.line() == "MOVE_WAS_MADE|Ox|c1|c2"
        assert await white.line() == "GAME_CLOCK|3.0|3.0|black"  # 3 - 1 + 1
        assert await black.line() == "MOVE_WAS_MADE|Ox|c1|c2"
        assert await black.line() == "GAME_CLOCK|3.0|3.0|black"
        server.clock.advance(2.9)
        assert await black.quiet()
        server.clock.advance(0.2)
        over = f"GAME_OVER|{fields[1]}|out_of_time"
        assert await white.line() == over and await black.line() == over
        [result] = records(server)
        assert result["reason"] == "out_of_time"
        store = server.hall.records
        [match] = store.matches(game="onitama")
        assert match.meta["time_control"] == "0.05+1"

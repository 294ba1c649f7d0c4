"""The starter kits know the rules: the Onitama kit's card table is the game's and its legal
moves are the referee's in every position of 30 random games; both Onitama kits (the C one
compiled with gcc once) play only the referee's legal moves over their pipes in 12 games, and
none after the game's last; the mariáš kits (the Python one and the C one, told a deal over
its pipes) play only the cards the engine allows."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from herna.games.marias.cards import CARD_CODES, SUIT_CODES
from herna.games.marias.rules import legal_play_mask
from herna.games.onitama.board import parse_square, square_name
from herna.games.onitama.cards import CARDS
from herna.games.onitama.state import Move
from herna.starters import marias as marias_kit
from herna.starters import onitama as kit
from herna.starters import starter
from tests.onitama.helpers import dealt


def test_the_starter_kits_cards_are_the_games() -> None:
    assert {card.name: list(card.offsets) for card in CARDS} == kit.CARDS


@pytest.mark.parametrize("seed", range(30))
def test_the_starter_kit_sees_exactly_the_legal_moves(seed: int) -> None:
    state = dealt(seed)
    game = kit.Game("ann", "ann", "bob", list(state.cards()))
    choose = random.Random(seed)
    while not state.is_terminal():
        legal = {(m.card, square_name(m.frm), square_name(m.to)) for m in state.legal_moves()}
        assert set(game.moves()) == legal, (seed, state.board)
        if not legal:
            break  # a stalemate: the kit sends STALEMATE, the server deals
        card, src, dst = choose.choice(sorted(legal))
        game.play(card, src, dst)
        state = state.apply(Move(card, parse_square(src), parse_square(dst)))
        assert state.cards() == (*game.hands["w"], *game.hands["b"], game.spare)


@pytest.fixture(scope="module")
def c_kits(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The C kits of Onitama and mariáš, compiled as the sandbox compiles them (less the
    sandbox), and with every warning an error."""
    if shutil.which("gcc") is None:
        pytest.skip("gcc is missing")
    folder = tmp_path_factory.mktemp("c-kits")
    compiled = {}
    for game in ("onitama", "marias"):
        found = starter(game, "c")
        assert found is not None
        (folder / found[0]).write_bytes(found[1])
        command = ["gcc", "-O2", "-std=c17", "-Wall", "-Wextra", "-Werror", "-o", game, found[0]]
        subprocess.run([*command, "-lm"], cwd=folder, check=True)
        compiled[game] = folder / game
    return compiled


@pytest.mark.parametrize("language", ["c", "python"])
@pytest.mark.parametrize("seed", range(12))
def test_the_onitama_starter_kits_play_only_legal_moves(
    c_kits: dict[str, Path], seed: int, language: str
) -> None:
    """A game against random moves, told to the kit (C or Python) line by line as the server
    tells it (with lines it does not know in between): each of its moves is one the referee
    allows, and none comes after the move that ends the game."""
    state = dealt(seed)
    mine = seed % 2  # White in even games, Black in odd ones
    names = ("ann", "bob")
    cards = ",".join(state.cards())
    python = [sys.executable, str(Path(str(kit.__file__)))]
    bot = subprocess.Popen(
        [str(c_kits["onitama"])] if language == "c" else python,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    assert bot.stdin is not None and bot.stdout is not None and bot.stderr is not None
    try:
        bot.stdin.write(f"LOGIN_OK|{names[mine].upper()}\nCHAT|x|hello\n\n")
        bot.stdin.write(f"START|{names[0]}|{names[1]}|{cards}|secret\n")
        choose = random.Random(seed)
        while not state.is_terminal() and state.ply < 200:
            legal = {(m.card, square_name(m.frm), square_name(m.to)) for m in state.legal_moves()}
            if state.to_move == mine:
                bot.stdin.flush()
                said = bot.stdout.readline().rstrip("\n").split("|")
                if not legal:  # no move: it gives up a card of its hand, the server deals
                    assert said[0] == "STALEMATE" and said[1] in state.hand(mine), said
                    break
                assert said[0] == "MAKE_MOVE" and tuple(said[1:]) in legal, (seed, said)
                card, src, dst = said[1:]
            elif not legal:
                break
            else:
                card, src, dst = choose.choice(sorted(legal))
            state = state.apply(Move(card, parse_square(src), parse_square(dst)))
            bot.stdin.write(f"MOVE_WAS_MADE|{card}|{src}|{dst}\nDRAW_OFFERED|x\n")
        bot.stdin.write("GAME_OVER||draw_agreed\n")
        bot.stdin.close()
        # It owes a move only when the game was cut off at 200 plies on its turn.
        owed = int(not state.is_terminal() and state.ply >= 200 and state.to_move == mine)
        assert len(bot.stdout.read().splitlines()) == owed
        assert bot.wait(5) == 0
        log = bot.stderr.read()
        assert f"playing {names[1 - mine]}" in log and "nobody won (draw agreed)" in log, log
    finally:
        bot.kill()


@pytest.mark.parametrize("seed", range(200))
def test_the_marias_starter_kit_plays_only_what_the_rules_allow(seed: int) -> None:
    """Its cards on a trick are the engine's legal cards (no renonc), with trumps and in
    betl/durch, whatever the hand and the trick so far."""
    rng = random.Random(seed)
    cards = list(range(32))
    rng.shuffle(cards)
    hand, trick = cards[:10], cards[10 : 10 + rng.randrange(3)]
    trumps = rng.choice([-1, 0, 1, 2, 3])
    order = 1 if trumps < 0 and rng.random() < 0.9 else 0
    deal = marias_kit.Deal("me")
    deal.hand = {CARD_CODES[c] for c in hand}
    deal.trick = [CARD_CODES[c] for c in trick]
    deal.trumps = SUIT_CODES[trumps] if trumps >= 0 else None
    deal.order = marias_kit.PLAIN_ORDER if order else marias_kit.TRUMP_ORDER
    mask = legal_play_mask(sum(1 << c for c in hand), trick, trumps, order)
    assert set(deal.legal()) == {CARD_CODES[c] for c in range(32) if mask >> c & 1}
    assert deal.play() in deal.legal()


def cgml(body: str) -> str:
    return f'<cgml version="1.0">\r\n{body}\r\n</cgml>\r\n\r\n'


def cards_of(body: str) -> list[int]:
    return [CARD_CODES.index(code) for code in re.findall(r"<card>(\w{3})</card>", body)]


@pytest.mark.parametrize("seed", range(40))
def test_the_c_marias_starter_kit_plays_only_what_the_rules_allow(
    c_kits: dict[str, Path], seed: int
) -> None:
    """The C kit, told a deal, the game and a trick as the server tells them, answers each ask
    with what the engine allows: two cards of its hand for the talon (never eso or desítka) and
    a legal card on the trick (no renonc)."""
    rng = random.Random(seed)
    cards = list(range(32))
    rng.shuffle(cards)
    hand, talon, trick = cards[:10], cards[10:12], cards[12 : 12 + rng.randrange(3)]
    trumps = rng.choice([-1, 0, 1, 2, 3])
    game = rng.choice(["SMALL", "BIG"]) if trumps < 0 else "G"
    codes = [f"<card>{CARD_CODES[c]}</card>" for c in hand]
    said = [
        '<connect status="complete" id="g1" playerid="kit"><game>licitovany_marias</game>'
        '<player id="kit"><name>kit</name></player></connect>',
        '<newgame status="ask" id="g1"><player id="kit"><name>kit</name></player></newgame>',
        '<dial type="info" to="hand" from="desk" playerid="ann"><card></card></dial>'
        + "".join(f'<dial type="cards" to="hand" from="desk">{c}</dial>' for c in codes),
        '<licite type="ask"></licite>',
        '<dial type="cards" to="hand" from="talon">'
        + "".join(f"<card>{CARD_CODES[c]}</card>" for c in talon)
        + "</dial>",
        '<gametype type="ask"><licite>G</licite></gametype>',
        f'<gametype type="info" playerid="kit"><licite>{game}</licite>'
        + (f"<trumf>{SUIT_CODES[trumps]}</trumf>" if trumps >= 0 else "")
        + "</gametype>",
        '<flek type="ask">2</flek>',
        *(
            f'<playcard type="info" from="hand" to="desk" playerid="ann"><card>{CARD_CODES[c]}'
            "</card></playcard>"
            for c in trick
        ),
        '<playcard type="ask"></playcard>',
    ]
    answers = subprocess.run(
        [str(c_kits["marias"])],
        input="".join(map(cgml, said)),
        capture_output=True,
        text=True,
        timeout=10,
        check=True,
    ).stdout.split("</cgml>")[:-1]
    bodies = [a.replace('<cgml version="1.0">', "").strip() for a in answers]
    assert bodies[:2] == [
        '<newgame status="accept"><player id="kit"/></newgame>',
        '<licite type="answer">PASS</licite>',
    ]
    discarded = cards_of(bodies[2])
    kept = set(hand + talon) - set(discarded)
    assert len(set(discarded)) == 2 and len(kept) == 10, bodies[2]
    assert bodies[2].startswith('<playcard type="cards" from="hand" to="talon">')
    assert not any(CARD_CODES[c][1:] in ("0A", "10") for c in discarded), discarded
    assert bodies[3].startswith('<gametype type="answer"><licite>G</licite><trumf>')
    assert bodies[4] == '<flek type="answer">2</flek>'
    (card,) = cards_of(bodies[5])
    order = 1 if game in ("SMALL", "BIG") else 0
    mask = legal_play_mask(sum(1 << c for c in kept), trick, trumps, order)
    assert mask >> card & 1, (seed, bodies[5], [CARD_CODES[c] for c in trick])
    assert len(bodies) == 6

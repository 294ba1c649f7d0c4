"""Words a newcomer met on the mariáš play page and replay: the seat roles in Czech, the count
of units agreeing with its noun, and the replay's flek line said once, not per part."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from herna.clients.marias_text import breakdown_lines, units_words
from herna.games.marias.contracts import Contract
from herna.games.marias.evaluation import PartResult, Settlement
from herna.games.marias.words import seat_roles
from herna.protocols.cgml.breakdown import Breakdown

ROOT = Path(__file__).resolve().parents[3]


def test_seat_roles_are_forhont_prostredni_zadak() -> None:
    assert seat_roles({"forhont": 1, "middle": 2, "zadak": 0}) == {
        1: "forhont",
        2: "prostřední",
        0: "zadák",
    }
    assert seat_roles({}) == {}


def breakdown_text(part: PartResult, contract: Contract, points: int, lang: str = "en") -> str:
    """The vyúčtování lines of a deal of one part, the aktér in seat 0 with trumps 2."""
    s = Settlement(part.money, 0, contract, 2, None, (1,), (part,), declarer_points=points,
                   defender_points=120 - points)  # fmt: skip
    b = Breakdown(part.money, s, seat_levels=((1,), (1,), (1,)), points_matter=True)
    return "\n".join(t for t, _ in breakdown_lines(b, ["you", "bob", "carol"], lang))


def test_units_agree_with_their_count() -> None:
    assert [units_words(n) for n in (1, 2, 15)] == ["1 unit", "2 units", "15 units"]
    text = breakdown_text(PartResult("hra", True, 1, (2, -1, -1)), Contract.G, 60)
    assert "1 unit × no flek" in text, text
    assert "1 units" not in text


def test_the_kilo_part_is_glossed_once_in_english() -> None:
    sto = PartResult("sto", True, 4, (8, -4, -4))
    text = breakdown_text(sto, Contract.C100, 100)
    assert "kilo (100 points): won by the aktér" in text, text
    assert "kilo (kilo" not in text
    cs = breakdown_text(sto, Contract.C100, 100, "cs")
    assert "kilo: aktér vyhrál" in cs, cs


def flek_js(levels: str, licite: str) -> str:
    script = (
        "global.window = {Herna: {el: () => null, addStyle: () => null}};"
        f"require({json.dumps(str(ROOT / 'herna/web/static/games/marias.js'))});"
        f"console.log(window.HernaGames.marias.flekWords({json.dumps(levels)}, "
        f"{json.dumps(licite)}));"
    )
    out = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
    return out.stdout.strip()


@pytest.mark.parametrize(
    ("levels", "licite", "words"),
    [
        ("1:1", "7", "bez fleku"),
        ("1", "G", "bez fleku"),
        ("2:2", "B7", "flek"),
        ("2:1", "7", "hra flek, sedma bez fleku"),
        ("1:4", "107", "kilo bez fleku, sedma re"),
    ],
)
def test_replay_flek_line_says_bez_fleku_once(levels: str, licite: str, words: str) -> None:
    assert flek_js(levels, licite) == words


def test_a_table_that_ended_early_says_why_in_words() -> None:
    from herna.games.marias.words import ended_words

    left = {"reason": "aborted", "abort": "left", "culprit": "guest-x", "ids": []}
    assert ended_words(left) == "the table ended: guest-x left"
    lost = {"reason": "aborted", "abort": "disconnected", "culprit": "bob"}
    assert ended_words(lost) == "the table ended: bob lost the connection"
    shut = {"reason": "canceled", "abort": "server shutdown", "culprit": None}
    assert ended_words(shut, "canceled") == "the table ended: the server was shut down"
    assert ended_words({"reason": "aborted"}) == "the table ended (aborted)"


def test_after_lepsi_hra_the_announcement_says_why_not_the_sedma_licitace() -> None:
    """The newcomer won at lepší hra, chose hra in zelené and read "The licitace makes the sedma
    part of this game": the reason is the hearts bid, as the engine rules it."""
    from herna.clients.marias_seat_view import Pending, SeatView
    from herna.games.marias import GameType
    from herna.games.marias.legality import gametype_problem
    from herna.games.marias.words import outbid_words
    from herna.protocols.cgml.player import Decision

    leaves = outbid_words("BG", "G")
    assert leaves.startswith("Lepší hra was bid: the game is in červené (hearts)")
    assert "in zelené (leaves) only sedma or higher outbids it" in leaves
    assert "licitace makes the sedma" not in leaves
    assert (
        outbid_words("BG", "R")
        == "The licitace was lepší hra: announce lepší hra or a higher game."
    )
    # the words say what the engine rules after lepší hra: hra in zelené is too low, lepší hra
    # in červené and sedma in zelené are legal
    after: Any = SimpleNamespace(won_rung=Contract.BG, discarded=0)
    assert gametype_problem(after, GameType(Contract.G, 2, None)) is not None
    assert gametype_problem(after, GameType(Contract.BG, 0, None)) is None
    assert gametype_problem(after, GameType(Contract.C7, 2, None)) is None
    # the decision the page gets carries these words per suit
    decision = Decision("gametype", "BG")
    view = SeatView.__new__(SeatView)
    options: list[Any] = [GameType(Contract.C7, 2, None)]
    d = view._decision_json(Pending(decision, 3, options, cast(Any, None)))
    assert d["won"] == "BG" and d["outbid"]["G"] == leaves
    assert d["outbid"][""].endswith("in another suit only sedma or higher outbids it.")

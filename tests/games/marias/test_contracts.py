from __future__ import annotations

import pytest

from herna.games.marias import (
    CONTRACTS,
    Contract,
    Part,
    format_flek,
    format_trumps,
    parse_flek,
    parse_trumps,
)
from herna.games.marias.contracts import TARIFFS


def test_ladder_is_the_seed_order() -> None:
    codes = [c.code for c in Contract]
    assert codes == [
        "PASS", "G", "BG", "7", "B7", "100", "107", "B100", "B107",
        "SMALL", "BIG", "27", "127", "B27", "B127",
    ]  # fmt: skip
    assert all(Contract.parse(code) is c for code, c in zip(codes, Contract, strict=True))
    assert list(CONTRACTS) == sorted(CONTRACTS)
    assert Contract.parse("small") is Contract.SMALL
    with pytest.raises(ValueError):
        Contract.parse("8")


def test_contract_properties() -> None:
    assert {c for c in CONTRACTS if c.hearts} == {
        Contract.BG, Contract.B7, Contract.B100, Contract.B107, Contract.B27, Contract.B127
    }  # fmt: skip
    assert not Contract.SMALL.has_trumps and not Contract.BIG.has_trumps
    assert Contract.C127.parts == (Part.STO, Part.DVE_SEDMY)
    assert Contract.C7.parts == (Part.HRA, Part.SEDMA)
    assert Contract.C100.parts == (Part.STO,)
    assert Contract.B27.announced_sevens == 2 and Contract.C107.announced_sevens == 1
    assert [c.code for c in CONTRACTS if c.silent_seven_possible] == ["G", "BG", "100", "B100"]


def test_trumps_notation() -> None:
    assert format_trumps(2, 1) == "G:B" and parse_trumps("G:B") == (2, 1)
    assert format_trumps(0) == "R" and parse_trumps("r") == (0, None)
    assert format_trumps(None) == "" and parse_trumps("") == (None, None)
    with pytest.raises(ValueError):
        parse_trumps("X")


def test_flek_notation() -> None:
    assert parse_flek("1:1", 2) == (1, 1)
    assert parse_flek("2", 2) == (2, 2)
    assert parse_flek("16", 1) == (16,)
    assert format_flek((4, 2)) == "4:2" and format_flek((8,)) == "8"
    for bad, parts in (("3", 1), ("2:2", 1), ("1:2:4", 2), ("x", 1), ("32", 1)):
        with pytest.raises(ValueError):
            parse_flek(bad, parts)


def test_tariff_defaults_are_csm() -> None:
    t = TARIFFS["csm"]
    assert (t.hra, t.sedma, t.sto, t.betl, t.durch, t.dve_sedmy, t.ticha_sedma) == (
        1, 2, 4, 15, 30, 40, 1,
    )  # fmt: skip
    assert (t.limit, t.raised_limit, t.hearts_factor) == (500, 750, 2)
    assert (TARIFFS["re"].betl, TARIFFS["re"].durch, TARIFFS["re"].dve_sedmy) == (10, 20, 30)

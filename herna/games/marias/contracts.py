"""Contracts (the CGML ``<licite>`` ladder), their parts, trumps notation, flek notation and
the tariff.

>>> Contract.parse("107"), Contract.C107.code, Contract.C107.parts
(<Contract.C107: 6>, '107', (<Part.STO: 2>, <Part.SEDMA: 1>))
>>> Contract.B27.hearts, Contract.SMALL.has_trumps, Contract.C127 > Contract.BIG
(True, False, True)
>>> format_trumps(2, 1), parse_trumps("g:b"), format_flek((2, 1)), parse_flek("4", 1)
('G:B', (2, 1), '2:1', (4,))
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from herna.games.marias.cards import SUIT_CODES, CardError, Suit, parse_suit


class Part(enum.IntEnum):
    """A separately settled (and separately flekked) part of a contract."""

    HRA = 0
    SEDMA = 1
    STO = 2
    BETL = 3
    DURCH = 4
    DVE_SEDMY = 5

    @property
    def label(self) -> str:
        return _PART_LABELS[self]


_PART_LABELS = ("hra", "sedma", "sto", "betl", "durch", "dvě sedmy")


class Contract(enum.IntEnum):
    """The CGML ladder, lowest first. ``PASS`` is only a bid ("nic"), never a contract.

    ``B*`` contracts ("lepší") have hearts (``R``) as trumps and pay double. ``SMALL`` is betl
    and ``BIG`` durch (no trumps). The dvě-sedmy contracts ``C27 C127 B27 B127`` name a second
    ("strkací") suit besides trumps.
    """

    PASS = 0
    G = 1
    BG = 2
    C7 = 3
    B7 = 4
    C100 = 5
    C107 = 6
    B100 = 7
    B107 = 8
    SMALL = 9
    BIG = 10
    C27 = 11
    C127 = 12
    B27 = 13
    B127 = 14

    @property
    def code(self) -> str:
        """The CGML code (``PASS``, ``G``, ``BG``, ``7``, ``B7``, ``100`` … ``B127``)."""
        return _CODES[self]

    @classmethod
    def parse(cls, code: str) -> Contract:
        """The contract (or ``PASS``) for a CGML code, any case. Raises ``ValueError``."""
        try:
            return _BY_CODE[code.strip().upper()]
        except KeyError:
            raise ValueError(f"{code!r} is not a CGML game code ({' '.join(_CODES)})") from None

    @property
    def hearts(self) -> bool:
        """A "lepší" (better) contract: hearts are trumps and every part pays double."""
        return self in _HEARTS

    @property
    def has_trumps(self) -> bool:
        return self not in (Contract.PASS, Contract.SMALL, Contract.BIG)

    @property
    def has_second_suit(self) -> bool:
        """Dvě sedmy contracts name a strkací suit (``<trumf>G:B</trumf>``)."""
        return self in _TWO_SEVENS

    @property
    def is_betl_durch(self) -> bool:
        return self in (Contract.SMALL, Contract.BIG)

    @property
    def parts(self) -> tuple[Part, ...]:
        """Parts in flek order: ``a:b`` is ``parts[0]:parts[1]``."""
        return _PARTS[self]

    @property
    def announced_sevens(self) -> int:
        """0, 1 (sedma: the trump seven) or 2 (dvě sedmy: trump and strkací seven)."""
        return 2 if self in _TWO_SEVENS else 1 if Part.SEDMA in _PARTS[self] else 0

    @property
    def silent_seven_possible(self) -> bool:
        """Tichá sedma can arise: a trump contract with no announced seven."""
        return self.has_trumps and self.announced_sevens == 0

    @property
    def silent_hundred_possible(self) -> bool:
        """Tiché sto can arise: the contract has a hra part."""
        return Part.HRA in _PARTS[self]


_CODES = (
    "PASS", "G", "BG", "7", "B7", "100", "107", "B100", "B107",
    "SMALL", "BIG", "27", "127", "B27", "B127",
)  # fmt: skip
_BY_CODE = {code: Contract(i) for i, code in enumerate(_CODES)}
_HEARTS = frozenset(
    {Contract.BG, Contract.B7, Contract.B100, Contract.B107, Contract.B27, Contract.B127}
)
_TWO_SEVENS = frozenset({Contract.C27, Contract.C127, Contract.B27, Contract.B127})
_PARTS: dict[Contract, tuple[Part, ...]] = {
    Contract.PASS: (),
    Contract.G: (Part.HRA,),
    Contract.BG: (Part.HRA,),
    Contract.C7: (Part.HRA, Part.SEDMA),
    Contract.B7: (Part.HRA, Part.SEDMA),
    Contract.C100: (Part.STO,),
    Contract.C107: (Part.STO, Part.SEDMA),
    Contract.B100: (Part.STO,),
    Contract.B107: (Part.STO, Part.SEDMA),
    Contract.SMALL: (Part.BETL,),
    Contract.BIG: (Part.DURCH,),
    Contract.C27: (Part.DVE_SEDMY,),
    Contract.C127: (Part.STO, Part.DVE_SEDMY),
    Contract.B27: (Part.DVE_SEDMY,),
    Contract.B127: (Part.STO, Part.DVE_SEDMY),
}

CONTRACTS: tuple[Contract, ...] = tuple(Contract)[1:]
"""Every real contract, lowest first (the ladder without ``PASS``)."""


def format_trumps(trumps: Suit | None, second: Suit | None = None) -> str:
    """CGML ``<trumf>`` text: ``""`` (betl/durch), ``"G"`` or ``"G:B"`` (dvě sedmy)."""
    if trumps is None:
        return ""
    if second is None:
        return SUIT_CODES[trumps]
    return f"{SUIT_CODES[trumps]}:{SUIT_CODES[second]}"


def parse_trumps(text: str | None) -> tuple[Suit | None, Suit | None]:
    """``"G"`` → (G, None); ``"G:B"`` → (G, B); empty/None → (None, None). Raises ValueError."""
    if text is None or not text.strip():
        return None, None
    first, sep, rest = text.strip().partition(":")
    try:
        return parse_suit(first), (parse_suit(rest) if sep else None)
    except CardError as exc:
        raise ValueError(str(exc)) from None


FLEK_LEVELS = (1, 2, 4, 8, 16)
"""Flek multipliers: none, flek, re, tutti, boty (the licitovaný maximum)."""


def format_flek(levels: tuple[int, ...]) -> str:
    """CGML flek text: one level (``"4"``) or, for two-part contracts, ``"a:b"``."""
    return ":".join(str(x) for x in levels)


def parse_flek(text: str, nparts: int) -> tuple[int, ...]:
    """Flek levels from CGML text for a contract with ``nparts`` parts. Raises ValueError.

    ``"a:b"`` gives the first part (hra/sto) and the second part (sedma/dvě sedmy) separately;
    a plain ``"a"`` for a two-part contract means the same level on both parts.
    """
    pieces = text.strip().split(":")
    if len(pieces) > 2 or (len(pieces) == 2 and nparts != 2):
        raise ValueError(f"flek {text!r}: the colon notation needs a contract with two parts")
    try:
        levels = tuple(int(p) for p in pieces)
    except ValueError:
        raise ValueError(f"flek {text!r} is not a multiplier like 1, 2, 4 or 2:1") from None
    for x in levels:
        if x not in FLEK_LEVELS:
            raise ValueError(f"flek {x} is not one of {FLEK_LEVELS}")
    if len(levels) == 1 and nparts == 2:
        levels = levels * 2
    return levels


@dataclass(frozen=True)
class Tariff:
    """Units paid per defender for each part (ČSM soutěžní licitovaný by default).

    ``base`` and ``currency`` only say what one unit is worth (0.20 Kč in ČSM); the engine
    settles in whole units. Hearts (``B*``) contracts pay ``hearts_factor`` times.
    """

    hra: int = 1
    sedma: int = 2
    sto: int = 4
    betl: int = 15
    durch: int = 30
    dve_sedmy: int = 40
    ticha_sedma: int = 1
    hearts_factor: int = 2
    limit: int = 500
    """At most this many units change hands between the aktér and one defender in a deal."""
    raised_limit: int = 750
    """The limit when both defenders took part in flekking."""
    base: float = 0.20
    currency: str = "Kč"

    def part_value(self, part: Part) -> int:
        return (self.hra, self.sedma, self.sto, self.betl, self.durch, self.dve_sedmy)[part]


TARIFFS: dict[str, Tariff] = {
    "csm": Tariff(),
    "re": Tariff(betl=10, durch=20, dve_sedmy=30),
    "pub": Tariff(betl=5, durch=10),
}
"""Named tariffs: ``csm`` (default, ČSM competition rules), ``re`` (the RE! DOS game),
``pub`` (cheap betl/durch, common at pub tables)."""


@dataclass(frozen=True)
class Rules:
    """Options where clubs differ. The defaults are the rules digest's DEFAULT choices."""

    tariff: Tariff = field(default_factory=Tariff)
    max_flek: int = 16
    """Highest flek multiplier (16 = boty, the fourth flek)."""

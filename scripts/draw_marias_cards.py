"""Draw Herna's own German-suited mariáš cards as SVG files (herna/web/static/cards/).

Four suits: červené (hearts), kule (bells), zelené (leaves), žaludy (acorns); ranks 7, 8, 9,
10, spodek (Unter: the suit sign low), svršek (Ober: the sign high), král (king, with a
crown) and eso (ace: one big sign). Simple flat pictures, readable at 60 px wide. Run it again
after changing a drawing: ``python scripts/draw_marias_cards.py``.
"""

from __future__ import annotations

from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "herna" / "web" / "static" / "cards"

# Each suit sign is drawn in a 20 × 20 box centred on (10, 10).
SIGNS = {
    "R": (
        "červené",
        '<path d="M10 17.5 C3 12 1.5 9 1.5 6.2 C1.5 3.6 3.5 2 5.8 2 C7.7 2 9.2 3.2 10 4.8 '
        'C10.8 3.2 12.3 2 14.2 2 C16.5 2 18.5 3.6 18.5 6.2 C18.5 9 17 12 10 17.5 Z" '
        'fill="#d0202a" stroke="#7a0d12" stroke-width="0.8"/>',
    ),
    "B": (
        "kule",
        '<circle cx="10" cy="10.5" r="7.2" fill="#f2b705" stroke="#7a5300" stroke-width="0.8"/>'
        '<path d="M3.2 9 H16.8 M3.2 12 H16.8" stroke="#c0392b" stroke-width="1.3"/>'
        '<circle cx="10" cy="15" r="1.3" fill="#7a5300"/>'
        '<path d="M8.5 3.6 Q10 1.6 11.5 3.6" fill="none" stroke="#7a5300" stroke-width="1"/>',
    ),
    "G": (
        "zelené",
        '<path d="M10 1.5 C16.5 6 16.5 13 10 17 C3.5 13 3.5 6 10 1.5 Z" fill="#2e8b3a" '
        'stroke="#14501c" stroke-width="0.8"/>'
        '<path d="M10 3.5 V19 M10 8 L13 6 M10 11 L13.5 8.8 M10 8 L7 6 M10 11 L6.5 8.8" '
        'fill="none" stroke="#bfe5b0" stroke-width="0.7"/>',
    ),
    "A": (
        "žaludy",
        '<ellipse cx="10" cy="12.5" rx="4.6" ry="5.6" fill="#c98a3d" stroke="#6b4316" '
        'stroke-width="0.8"/>'
        '<path d="M3.8 9.2 Q10 1.5 16.2 9.2 Z" fill="#7a4e1f" stroke="#4a2d0c" '
        'stroke-width="0.8"/>'
        '<path d="M6 7 L14 7 M5 8.4 L15 8.4 M8 4.5 L12 8.6 M12 4.5 L8 8.6" stroke="#b58550" '
        'stroke-width="0.5"/>'
        '<path d="M10 3.5 V1.2" stroke="#4a2d0c" stroke-width="1.2"/>',
    ),
}

RANKS = {
    "07": ("7", 7),
    "08": ("8", 8),
    "09": ("9", 9),
    "10": ("10", 10),
    "0J": ("Sp", 0),
    "0Q": ("Sv", 0),
    "0K": ("K", 0),
    "0A": ("E", 0),
}
NAMES = {"0J": "spodek", "0Q": "svršek", "0K": "král", "0A": "eso"}

W, H = 60, 90
PIPS = {
    7: [(23, 20), (37, 20), (30, 33), (23, 46), (37, 46), (23, 70), (37, 70)],
    8: [(23, 20), (37, 20), (23, 38), (37, 38), (23, 54), (37, 54), (23, 72), (37, 72)],
    9: [(23, 20), (37, 20), (23, 38), (37, 38), (30, 46), (23, 54), (37, 54), (23, 72), (37, 72)],
    10: [
        (23, 18),
        (37, 18),
        (30, 29),
        (23, 40),
        (37, 40),
        (23, 52),
        (37, 52),
        (30, 63),
        (23, 74),
        (37, 74),
    ],
}


def sign(suit: str, x: float, y: float, size: float) -> str:
    """The suit sign centred on (x, y), ``size`` wide."""
    k = size / 20
    return (
        f'<g transform="translate({x - size / 2:.2f} {y - size / 2:.2f}) scale({k:.3f})">'
        f"{SIGNS[suit][1]}</g>"
    )


def figure(suit: str, rank: str) -> str:
    """A simple standing figure: head, body in the suit's colour, the sign high or low."""
    colour = {"R": "#d0202a", "B": "#e0a000", "G": "#2e8b3a", "A": "#8a5a24"}[suit]
    parts = [
        f'<path d="M17 80 L21 46 Q30 40 39 46 L43 80 Z" fill="{colour}" stroke="#333" '
        'stroke-width="0.8"/>',
        '<circle cx="30" cy="36" r="7" fill="#f6d7b8" stroke="#333" stroke-width="0.8"/>',
        '<path d="M27 38 Q30 40.5 33 38" fill="none" stroke="#333" stroke-width="0.7"/>',
        '<circle cx="27.6" cy="34.8" r="0.8" fill="#333"/>'
        '<circle cx="32.4" cy="34.8" r="0.8" fill="#333"/>',
    ]
    if rank == "0K":
        parts.append(
            '<path d="M22.5 29 L23.5 21 L27 25.5 L30 19.5 L33 25.5 L36.5 21 L37.5 29 Z" '
            'fill="#f2c230" stroke="#7a5300" stroke-width="0.8"/>'
        )
        parts.append(sign(suit, 30, 61, 13))
    elif rank == "0Q":
        parts.append(
            '<path d="M23 30 Q30 22 37 30 Z" fill="#444" stroke="#222" stroke-width="0.6"/>'
        )
        parts.append(sign(suit, 30, 16, 13))
        parts.append('<path d="M30 23 V29" stroke="#444" stroke-width="0.8"/>')
    else:  # spodek: the sign below
        parts.append(
            '<path d="M23 31 Q30 25 37 31 Z" fill="#555" stroke="#222" stroke-width="0.6"/>'
        )
        parts.append(sign(suit, 30, 74, 13))
    return "".join(parts)


def card(suit: str, rank: str) -> str:
    index, pips = RANKS[rank]
    cs = SIGNS[suit][0]
    title = f"{cs} {NAMES.get(rank, index)}"
    body: list[str] = [
        f'<rect x="0.75" y="0.75" width="{W - 1.5}" height="{H - 1.5}" rx="5" fill="#fffdf6" '
        'stroke="#555" stroke-width="1.5"/>',
        f'<text x="4" y="12" font-family="sans-serif" font-size="10" font-weight="bold" '
        f'fill="#222">{index}</text>',
        sign(suit, 9, 19, 8),
        f'<g transform="rotate(180 {W / 2} {H / 2})">'
        f'<text x="4" y="12" font-family="sans-serif" font-size="10" font-weight="bold" '
        f'fill="#222">{index}</text>{sign(suit, 9, 19, 8)}</g>',
    ]
    if pips:
        body += [sign(suit, x, y, 13) for x, y in PIPS[pips]]
    elif rank == "0A":
        body.append(sign(suit, 30, 43, 34))
        body.append(
            '<text x="30" y="76" text-anchor="middle" font-family="serif" font-size="10" '
            'font-style="italic" fill="#333">eso</text>'
        )
    else:
        body.append(figure(suit, rank))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" '
        f'height="{H}" role="img"><title>{title}</title>' + "".join(body) + "</svg>\n"
    )


def back() -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" '
        f'height="{H}" role="img"><title>card back</title>'
        f'<rect x="0.75" y="0.75" width="{W - 1.5}" height="{H - 1.5}" rx="5" fill="#1f6f5c" '
        'stroke="#555" stroke-width="1.5"/>'
        f'<rect x="5" y="5" width="{W - 10}" height="{H - 10}" rx="3" fill="none" '
        'stroke="#cfe8df" stroke-width="1"/>'
        + sign("R", 20, 30, 12)
        + sign("B", 40, 30, 12)
        + sign("G", 20, 60, 12)
        + sign("A", 40, 60, 12)
        + "</svg>\n"
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for suit in SIGNS:
        for rank in RANKS:
            (OUT / f"{suit}{rank}.svg").write_text(card(suit, rank), encoding="utf-8")
        body = (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20" width="20" '
            f'height="20" role="img"><title>{SIGNS[suit][0]}</title>{SIGNS[suit][1]}</svg>\n'
        )
        (OUT / f"suit-{suit}.svg").write_text(body, encoding="utf-8")
    (OUT / "back.svg").write_text(back(), encoding="utf-8")


if __name__ == "__main__":
    main()

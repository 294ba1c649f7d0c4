"""The rating charts of a player's page: per game, the player's rating (μ − 3σ) over time,
and beside it the player's other *versions*, so a bot's author sees whether a change helped.

Versions are names with the same stem: the part before the last ``.`` or ``@`` (``mybot``,
``mybot.2`` and ``mybot.3`` are versions of one bot; the wire protocols allow ``.`` in
names, ``@`` only where a protocol does). The points come from the ``rating_history`` table
(after each of a player's first 200 games, then more sparsely, written with the ratings
by :mod:`herna.hall.writer`). The chart is inline SVG drawn here: no script, no CDN.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import or_, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from herna.hall.db import RatingHistoryRow
from herna.web import pages

e = html.escape

MAX_POINTS = 400
"""Points per line (the most recent ones)."""
MAX_VERSIONS = 6
WIDTH, HEIGHT, PAD = 640, 200, 34
COLOURS = ("#1f6f5c", "#a23b2a", "#3a5da8", "#b07a12", "#7a3aa8", "#4f6b2a")


@dataclass(frozen=True)
class Point:
    at: datetime
    rating: float
    """μ − 3σ, the conservative estimate the standings rank by."""
    games: int


def stem(name: str) -> str:
    cut = max(name.rfind("."), name.rfind("@"))
    return name[:cut] if cut > 0 else name


def history(engine: Engine, name: str) -> dict[str, dict[str, list[Point]]]:
    """``{game: {name: points}}`` for ``name`` and its versions, oldest point first."""
    base = stem(name)
    like = base.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    t = RatingHistoryRow
    with Session(engine) as session:
        games = session.scalars(select(t.game).where(t.name == name).distinct()).all()
        if not games:
            return {}
        rows = session.execute(
            select(t.game, t.name, t.at, t.mu, t.sigma, t.games)
            .where(
                t.game.in_(games),
                or_(
                    t.name == base,
                    t.name == name,
                    t.name.like(like + ".%", escape="\\"),
                    t.name.like(like + "@%", escape="\\"),
                ),
            )
            .order_by(t.game, t.name, t.games)
        ).all()
    out: dict[str, dict[str, list[Point]]] = {}
    for game, who, at, mu, sigma, count in rows:
        if stem(who) != base and who != name:
            continue  # "mybot.v2.x" has the stem "mybot.v2": another bot's version
        out.setdefault(game, {}).setdefault(who, []).append(Point(_utc(at), mu - 3 * sigma, count))
    for game in out:
        lines = out[game]
        for who in lines:
            lines[who] = lines[who][-MAX_POINTS:]
        if len(lines) > MAX_VERSIONS:
            keep = sorted(lines, key=lambda w: (w != name, -lines[w][-1].at.timestamp()))
            out[game] = {w: lines[w] for w in keep[:MAX_VERSIONS]}
    return out


def _utc(at: datetime) -> datetime:
    # SQLite hands back naive datetimes; all Herna times are UTC.
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def rating_charts(engine: Engine, name: str) -> str:
    """The player page's section: one chart per game the player has a rating in."""
    return charts_html(name, history(engine, name))


def charts_html(name: str, data: dict[str, dict[str, list[Point]]]) -> str:
    if not data:
        return ""
    parts = [
        '<link rel="stylesheet" href="/static/ratings.css">',
        '<h2>Rating over time</h2><p class="muted">Rating = μ − 3σ (OpenSkill) after each '
        "game (later only every 10th, 100th …). Names with the same stem (before the last "
        "<code>.</code> or <code>@</code>) are versions of one bot and are drawn together.</p>",
    ]
    for game in sorted(data):
        parts.append(_chart(game, name, data[game]))
    return '<section id="rating-charts">' + "".join(parts) + "</section>"


def _chart(game: str, name: str, lines: dict[str, list[Point]]) -> str:
    points = [p for line in lines.values() for p in line]
    t0 = min(p.at for p in points).timestamp()
    t1 = max(p.at for p in points).timestamp()
    low = min(p.rating for p in points)
    high = max(p.rating for p in points)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    span_t = (t1 - t0) or 1.0

    def x(p: Point) -> float:
        if t1 == t0:
            return WIDTH / 2
        return PAD + (p.at.timestamp() - t0) / span_t * (WIDTH - 2 * PAD)

    def y(p: Point) -> float:
        return HEIGHT - PAD / 2 - (p.rating - low) / (high - low) * (HEIGHT - PAD)

    ordered = sorted(lines, key=lambda w: (w != name, w))
    shapes = []
    legend = []
    for i, who in enumerate(ordered):
        colour = COLOURS[i % len(COLOURS)]
        line = lines[who]
        width = 2.5 if who == name else 1.5
        coords = " ".join(f"{x(p):.1f},{y(p):.1f}" for p in line)
        last = line[-1]
        shapes.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="{width}" '
            f'points="{coords}"><title>{e(who)}</title></polyline>'
        )
        shapes.append(
            f'<circle cx="{x(last):.1f}" cy="{y(last):.1f}" r="3" fill="{colour}">'
            f"<title>{e(who)}: {last.rating:.2f} after {last.games} games</title></circle>"
        )
        link = e(who) if who == name else f'<a href="{e(pages.player_url(who))}">{e(who)}</a>'
        legend.append(
            f'<li><span class="swatch" style="background:{colour}"></span>{link}: '
            f"{last.rating:.2f} after {last.games} games</li>"
        )
    first = min(p.at for p in points)
    final = max(p.at for p in points)
    axis = (
        f'<text x="2" y="{PAD / 2 + 4:.0f}" class="axis">{high:.1f}</text>'
        f'<text x="2" y="{HEIGHT - PAD / 2:.0f}" class="axis">{low:.1f}</text>'
        f'<text x="{PAD}" y="{HEIGHT - 2}" class="axis">{first:%Y-%m-%d %H:%M}</text>'
        f'<text x="{WIDTH - PAD}" y="{HEIGHT - 2}" class="axis" text-anchor="end">'
        f"{final:%Y-%m-%d %H:%M}</text>"
    )
    title = pages.GAME_TITLES.get(game, game)
    return (
        f'<figure class="rating-chart" data-game="{e(game)}"><figcaption>{e(title)}</figcaption>'
        f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="rating of {e(name)} in {e(title)} over time">'
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" class="frame"/>'
        f"{axis}{''.join(shapes)}</svg>"
        f'<ul class="legend">{"".join(legend)}</ul></figure>'
    )

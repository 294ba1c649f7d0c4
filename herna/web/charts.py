"""Rating-over-time charts for the player pages: inline SVG drawn here, no script, no CDN.

Each rated game moves a player's OpenSkill (Plackett-Luce) rating: ``μ`` is the estimate of
their skill, ``σ`` its uncertainty. The chart shows, per game, μ as a line and the band
μ ± 2σ around it (where the skill lies with about 95 % certainty) over the rated games the
player has played, from the points the record writer keeps (table ``rating_points``, see
:func:`herna.hall.writer.keeps_rating_point`), ending at the current rating.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from herna.hall.db import RatingPointRow, RatingRow
from herna.web.i18n import format_day, format_number, format_when, ngettext
from herna.web.i18n import gettext as _

e = html.escape

MAX_POINTS = 400
"""Points drawn per chart (more are thinned evenly; the last is always kept)."""

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 58, 14, 14, 46


@dataclass(frozen=True)
class RatingPoint:
    games: int
    mu: float
    sigma: float
    at: datetime | None = None


def rating_history(engine: Engine, name: str) -> dict[str, list[RatingPoint]]:
    """Every game's rating points of ``name``, oldest first, ending with the current rating."""
    out: dict[str, list[RatingPoint]] = {}
    with Session(engine) as session:
        rows = session.execute(
            select(
                RatingPointRow.game,
                RatingPointRow.games,
                RatingPointRow.mu,
                RatingPointRow.sigma,
                RatingPointRow.at,
            )
            .where(RatingPointRow.name == name)
            .order_by(RatingPointRow.game, RatingPointRow.games, RatingPointRow.id)
        )
        for game, games, mu, sigma, at in rows:
            out.setdefault(game, []).append(RatingPoint(games, mu, sigma, at))
        for r in session.scalars(select(RatingRow).where(RatingRow.name == name)):
            points = out.setdefault(r.game, [])
            if not points or points[-1].games < r.games:
                points.append(RatingPoint(r.games, r.mu, r.sigma))
    return {g: thin(p) for g, p in sorted(out.items()) if p}


def thin(points: Sequence[RatingPoint], limit: int = MAX_POINTS) -> list[RatingPoint]:
    if len(points) <= limit:
        return list(points)
    step = (len(points) - 1) / (limit - 1)
    return [points[round(i * step)] for i in range(limit)]


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering ``low``..``high`` (1, 2 or 5 times a power of ten apart)."""
    if high <= low:
        high = low + 1
    raw = (high - low) / max(1, count)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    return ticks


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def rating_chart(game: str, title: str, points: Sequence[RatingPoint]) -> str:
    """One game's chart as an SVG figure with a caption in words."""
    if not points:
        return ""
    xs = [p.games for p in points]
    x0, x1 = (0, max(xs)) if max(xs) > 0 else (0, 1)
    low = min(p.mu - 2 * p.sigma for p in points)
    high = max(p.mu + 2 * p.sigma for p in points)
    yticks = nice_ticks(low, high)
    y0, y1 = min(yticks[0], low), max(yticks[-1], high)
    xticks = [t for t in nice_ticks(x0, x1, 6) if float(t).is_integer()]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x: float) -> float:
        return LEFT + (x - x0) / (x1 - x0) * plot_w

    def py(y: float) -> float:
        return TOP + (y1 - y) / (y1 - y0) * plot_h

    upper = [f"{px(p.games):.1f},{py(p.mu + 2 * p.sigma):.1f}" for p in points]
    lower = [f"{px(p.games):.1f},{py(p.mu - 2 * p.sigma):.1f}" for p in reversed(points)]
    line = " ".join(f"{px(p.games):.1f},{py(p.mu):.1f}" for p in points)
    grid = "".join(
        f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{py(t):.1f}" y2="{py(t):.1f}"/>'
        f'<text class="tick" x="{LEFT - 6}" y="{py(t) + 4:.1f}" text-anchor="end">{_fmt(t)}</text>'
        for t in yticks
    )
    xgrid = "".join(
        f'<line class="tickmark" x1="{px(t):.1f}" x2="{px(t):.1f}" y1="{TOP + plot_h}" '
        f'y2="{TOP + plot_h + 5}"/>'
        f'<text class="tick" x="{px(t):.1f}" y="{TOP + plot_h + 18}" text-anchor="middle">'
        f"{_fmt(t)}</text>"
        for t in xticks
    )
    last = points[-1]
    dots = (
        "".join(
            f'<circle class="dot" cx="{px(p.games):.1f}" cy="{py(p.mu):.1f}" r="2.5">'
            f"<title>{e(_point_words(p))}</title></circle>"
            for p in points
        )
        if len(points) <= 60
        else ""
    )
    caption = ngettext(
        "%(game)s: after %(n)s rated game μ = %(mu)s, σ = %(sigma)s; the band is μ ± 2σ, "
        "where the skill lies with about 95 %% certainty (the standings' rating is "
        "μ − 3σ = %(rating)s).",
        "%(game)s: after %(n)s rated games μ = %(mu)s, σ = %(sigma)s; the band is μ ± 2σ, "
        "where the skill lies with about 95 %% certainty (the standings' rating is "
        "μ − 3σ = %(rating)s).",
        last.games,
    ) % {
        "game": title,
        "n": last.games,
        "mu": format_number(last.mu),
        "sigma": format_number(last.sigma),
        "rating": format_number(last.mu - 3 * last.sigma),
    }
    first_at = next((p.at for p in points if p.at is not None), None)
    last_at = next((p.at for p in reversed(points) if p.at is not None), None)
    if first_at and last_at:
        caption += " " + _("Played %(first)s to %(last)s (UTC).") % {
            "first": format_day(first_at),
            "last": format_day(last_at),
        }
    label = _("%(game)s rating over rated games") % {"game": title}
    x_label, y_label = _("rated games played"), _("OpenSkill μ (points)")
    return (
        f'<figure class="rating-chart" data-game="{e(game)}">'
        f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{e(label)}" xmlns="http://www.w3.org/2000/svg">'
        f"{grid}{xgrid}"
        f'<polygon class="band" points="{" ".join(upper + lower)}"/>'
        f'<polyline class="mu" points="{line}"/>{dots}'
        f'<line class="axis" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{TOP + plot_h}"/>'
        f'<line class="axis" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{TOP + plot_h}" '
        f'y2="{TOP + plot_h}"/>'
        f'<text class="label x-label" x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 6}" '
        f'text-anchor="middle">{e(x_label)}</text>'
        f'<text class="label y-label" transform="translate(14 {TOP + plot_h / 2:.1f}) '
        f'rotate(-90)" text-anchor="middle">{e(y_label)}</text>'
        "</svg>"
        f"<figcaption>{e(caption)}</figcaption></figure>"
    )


def _point_words(p: RatingPoint) -> str:
    """A dot's tooltip: ``after 3 rated games: μ 25.1, σ 7.9, May 1, 2024, 6:00:00 PM``."""
    said = ngettext(
        "after %(n)s rated game: μ %(mu)s, σ %(sigma)s",
        "after %(n)s rated games: μ %(mu)s, σ %(sigma)s",
        p.games,
    ) % {"n": p.games, "mu": format_number(p.mu), "sigma": format_number(p.sigma)}
    return f"{said}, {format_when(p.at)} UTC" if p.at else said


def rating_charts(history: dict[str, list[RatingPoint]], titles: dict[str, str]) -> str:
    """Every game's chart under one heading (nothing when no game is rated)."""
    charts = "".join(rating_chart(g, titles.get(g, g), p) for g, p in history.items())
    if not charts:
        return ""
    heading = e(_("Rating over time"))
    return f'<h2>{heading}</h2><div class="rating-charts" id="rating-charts">{charts}</div>'


def version_stem(name: str) -> str | None:
    """``mybot`` for ``mybot.2`` or ``mybot@2`` (a bot's versions share the stem before the
    last ``.`` or ``@``); None for a name without one."""
    cut = max(name.rfind("."), name.rfind("@"))
    return name[:cut] if cut > 0 else None


def versions(engine: Engine, name: str) -> str:
    """The other versions of a bot, with their rating (μ − 3σ) per game beside this one's, so
    an author sees whether a change helped; nothing for a name without versions."""
    stem = version_stem(name)
    if stem is None:
        return ""
    with Session(engine) as session:
        rows = session.execute(
            select(RatingRow.name, RatingRow.game, RatingRow.mu, RatingRow.sigma).where(
                RatingRow.name.like(stem.replace("%", r"\%").replace("_", r"\_") + "%", "\\")
            )
        ).all()
    mine = [r for r in rows if version_stem(r.name) == stem]
    if len({r.name for r in mine}) < 2:
        return ""
    items = "".join(
        f'<tr><td><a href="/players/{e(r.name)}">{e(r.name)}</a></td><td>{e(r.game)}</td>'
        f"<td>{r.mu - 3 * r.sigma:.2f}</td></tr>"
        for r in sorted(mine, key=lambda r: (r.game, r.name))
    )
    heads = (_("version"), _("game"), _("rating (μ − 3σ)"))
    versions_heading = _("Versions")
    return (
        f'<h2>{e(versions_heading)}</h2><table class="grid" id="versions"><tr>'
        + "".join(f"<th>{e(h)}</th>" for h in heads)
        + f"</tr>{items}</table>"
    )

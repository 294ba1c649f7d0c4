"""The review page of a mariáš deal (``/matches/ID/review``, :mod:`herna.web.reviews` serves
it): every trick with each card's value before and after it and what it cost, the costly
cards marked with the cards that would have kept the money, and the strongest house bot's
advice on the licitace, the announcement and the fleks. Rendered from the stored review
(:func:`herna.games.marias.review.review_deal`) only, with ``review_marias.html``: the page's
sentences come from the catalogs, the game's own words (cards, contracts, choices, the
result) from the review, which stores them in English and Czech (``<key>_cs``; a review
stored before it did is shown with its English words)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from herna.games.marias.names import card_name
from herna.games.marias.review import money_words
from herna.web.i18n import CURRENT_LOCALE, format_number, ngettext
from herna.web.i18n import gettext as _
from herna.web.templating import render

STYLE = """<style>
.review-tricks td.costly { color: #c0392b; font-weight: bold; }
.review-tricks tr.trick-start td { border-top: 2px solid var(--muted); }
.review-tricks .keep { display: block; font-weight: normal; font-size: .85rem; }
.review-tricks .side { display: block; font-size: .8rem; color: var(--muted); }
.review-table-wrap { overflow-x: auto; }
.review-options td.mark { white-space: nowrap; }
.review-note { border-left: 4px solid #e67e22; padding-left: .5rem; }
@media (max-width: 600px) {
  .review-tricks th, .review-tricks td, .review-options th, .review-options td {
    padding: .2rem .25rem; font-size: .85rem; }
}
</style>"""


def _said(part: Mapping[str, Any], key: str) -> str:
    """The stored words under ``key`` in the page's language (``key_cs`` on a Czech page when
    the review has them)."""
    if CURRENT_LOCALE.get() == "cs" and f"{key}_cs" in part:
        return str(part[f"{key}_cs"])
    return str(part.get(key, ""))


def _money(units: float) -> str:
    """Tariff units as the game writes them (``+4``, ``−2.5``), with a decimal comma on a
    Czech page."""
    text = money_words(units)
    return text.replace(".", ",") if CURRENT_LOCALE.get() == "cs" else text


def _side(side: str) -> str:
    """A side as stored (the Czech term), glossed on an English page."""
    if CURRENT_LOCALE.get() == "cs":
        return side
    return {"aktér": "aktér (declarer)", "obrana": "obrana (defence)"}.get(side, side)


def _card(c: Mapping[str, Any], first: bool, number: int, winner: str) -> dict[str, Any]:
    verdict = c["verdict"]
    value = ""
    if verdict == "forced":
        said = _("the only card")
    elif verdict == "cut off":
        said = _("not solved (the search budget ran out)")
    else:
        value = f"{_money(c['value_before'])} → {_money(c['value_after'])}"
        said = _("as good as the best") if verdict == "best" else _("cost %(n)s") % {"n": c["cost"]}
    keep = ""
    if verdict == "costly":
        keep = _("%(cards)s would have kept %(value)s") % {
            "cards": _said(c, "better_words"),
            "value": _money(c["value_before"]),
        }
    cs = CURRENT_LOCALE.get() == "cs" and "card" in c
    return {
        "first": first,
        "number": number,
        "winner": winner,
        "verdict": verdict,
        "name": c["name"],
        "side": _side(c["side"]),
        "card": card_name(c["card"], "cs") if cs else c["card_words"],
        "value": value,
        "said": said,
        "keep": keep,
    }


def _options(part: Mapping[str, Any], ident: str) -> dict[str, Any]:
    marks = {"bot": _("house bot"), "played": _("played")}
    chosen = any(o["played"] for o in part["options"])
    return {
        "id": ident,
        "rows": [
            {
                "words": _said(o, "words"),
                "mean": _money(o["mean"]),
                "marks": ", ".join(marks[k] for k in ("bot", "played") if o[k]),
            }
            for o in part["options"]
        ],
        "played": None if chosen else _said(part, "played_words"),
    }


def _auction(auction: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"name": auction["name"], "no_bid": None, "bid": None}
    if "no_bid" in auction:
        out["no_bid"] = _said(auction, "no_bid")
    bid = auction.get("bid")
    if bid:
        out["bid"] = {
            "hand": _said(bid, "hand"),
            "bot": _said(bid, "bot_words"),
            "played": _said(bid, "played_words"),
            "samples": bid["samples"],
            "options": _options(bid, "review-bid"),
        }
    announce = auction.get("announce")
    out["announce"] = None
    if announce:
        out["announce"] = {
            "bot": _said(announce, "bot_words"),
            "samples": announce["samples"],
            "options": _options(announce, "review-announce"),
            "sound": _said(announce, "sound") if "sound" in announce else None,
            "expected": _money(announce["expected"]) if "sound" in announce else None,
        }
    out["defence"] = [
        {
            "name": d["name"],
            "asked": d["asked"],
            **(
                {
                    "bot": _said(d, "bot_words"),
                    "played": _said(d, "played_words"),
                    "samples": d["samples"],
                    "options": _options(d, f"review-flek-{i + 1}"),
                }
                if d["asked"]
                else {}
            ),
        }
        for i, d in enumerate(auction.get("defence", []))
    ]
    return out


def _summary(review: Mapping[str, Any]) -> str:
    names = review["names"]
    parts = []
    if "akter" in review:
        contract = review["contract_words"] + (
            f", {review['trumps_words']}" if review["trumps_words"] else ""
        )
        parts.append(f"{_side('aktér')}: {names[review['akter']]}, {contract}")
    if "result_words" in review:
        parts.append(_("result: %(words)s") % {"words": _said(review, "result_words")})
    if review.get("start_value") is not None:
        parts.append(
            _("value at the first card: %(value)s") % {"value": _money(review["start_value"])}
        )
    costly = ngettext("%(num)d card cost money", "%(num)d cards cost money", review["costly"]) % {
        "num": review["costly"]
    }
    if review["cut_off"]:
        costly += ", " + _("%(n)s not solved") % {"n": review["cut_off"]}
    parts.append(costly)
    return "; ".join(parts)


def marias_review_body(match: Any, review: Mapping[str, Any]) -> str:
    rows = []
    for trick in review["tricks"]:
        for i, c in enumerate(trick["cards"]):
            rows.append(_card(c, i == 0, trick["number"], trick.get("winner", "")))
    settings = review["settings"]
    return render(
        "review_marias.html",
        style=Markup(STYLE),
        match_id=match.id,
        stand_in=review.get("stand_in", []),
        summary=_summary(review),
        nodes=format_number(settings["max_nodes"], 0),
        seconds=format_number(settings["max_seconds"]),
        rows=rows,
        stopped=_said(review, "stopped"),
        auction=_auction(review["auction"]) if review.get("auction") else None,
        akter=_side("aktér"),
        obrana=_side("obrana"),
    )


__all__ = ["marias_review_body"]

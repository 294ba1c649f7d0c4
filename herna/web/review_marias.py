"""The review page of a mariáš deal (``/matches/ID/review``, :mod:`herna.web.reviews` serves
it): every trick with each card's value before and after it and what it cost, the costly
cards marked with the cards that would have kept the money, and the strongest house bot's
advice on the licitace, the announcement and the fleks. Rendered from the stored review
(:func:`herna.games.marias.review.review_deal`) only."""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from herna.games.marias.review import AKTER, OBRANA, money_words

e = html.escape

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


def _card_row(c: Mapping[str, Any], first: bool, number: int, winner: str) -> str:
    verdict = c["verdict"]
    if verdict == "forced":
        value, said = "", "the only card"
    elif verdict == "cut off":
        value, said = "", "not solved (the search budget ran out)"
    else:
        value = f"{money_words(c['value_before'])} → {money_words(c['value_after'])}"
        said = "as good as the best" if verdict == "best" else f"cost {c['cost']}"
    keep = (
        f'<span class="keep">{e(c["better_words"])} would have kept '
        f"{e(money_words(c['value_before']))}</span>"
        if verdict == "costly"
        else ""
    )
    trick = f"{number}" + (f'<span class="side">{e(winner)} takes it</span>' if winner else "")
    return (
        f'<tr class="{"trick-start" if first else ""}" data-verdict="{e(verdict)}">'
        f"<td>{trick if first else ''}</td>"
        f'<td>{e(c["name"])}<span class="side">{e(c["side"])}</span></td>'
        f"<td>{e(c['card_words'])}</td><td>{e(value)}</td>"
        f'<td class="{"costly" if verdict == "costly" else ""}">{e(said)}{keep}</td></tr>'
    )


def _options(part: Mapping[str, Any], ident: str) -> str:
    rows = "".join(
        f"<tr><td>{e(o['words'])}</td><td>{e(money_words(o['mean']))}</td>"
        '<td class="mark">'
        + ", ".join(m for m, on in (("house bot", o["bot"]), ("played", o["played"])) if on)
        + "</td></tr>"
        for o in part["options"]
    )
    played = (
        ""
        if any(o["played"] for o in part["options"])
        else f'<p class="muted">Played: {e(part["played_words"])}.</p>'
    )
    return (
        f'<div class="review-table-wrap"><table class="grid review-options" id="{ident}">'
        "<tr><th>choice</th><th>mean money</th><th></th></tr>"
        f"{rows}</table></div>{played}"
    )


def _auction(auction: Mapping[str, Any]) -> str:
    out = [
        '<h2 id="review-auction">Licitace (auction), talon and flek</h2>'
        f"<p>What the strongest house bot would do with {e(auction['name'])}'s cards, the "
        f"{e(AKTER)}, and its mean money for each choice over sampled deals of the cards he "
        "could not see (its own play of the deals, not perfect play).</p>"
    ]
    if "no_bid" in auction:
        out.append(f"<p>{e(auction['no_bid'])}.</p>")
    bid = auction.get("bid")
    if bid:
        out.append(
            f"<h3>Bidding, with the ten cards before the talon</h3><p>Hand: {e(bid['hand'])}. "
            f"The house bot would {e(bid['bot_words'])}; {e(auction['name'])} chose to "
            f"{e(bid['played_words'])} ({bid['samples']} sampled deals).</p>"
            + _options(bid, "review-bid")
        )
    announce = auction.get("announce")
    if announce:
        out.append(
            "<h3>Talon and announcement, with the twelve cards</h3>"
            f"<p>The house bot would {e(announce['bot_words'])} ({announce['samples']} "
            "sampled deals).</p>" + _options(announce, "review-announce")
        )
        if "sound" in announce:
            out.append(
                f'<p id="review-sound"><strong>The contract played:</strong> '
                f"{e(announce['sound'])} (expected {e(money_words(announce['expected']))}).</p>"
            )
    for i, d in enumerate(auction.get("defence", [])):
        if not d["asked"]:
            out.append(f"<p>{e(d['name'])} ({e(OBRANA)}) was not asked to flek.</p>")
            continue
        out.append(
            f"<h3>Flek: {e(d['name'])}, {e(OBRANA)}</h3><p>The house bot would say "
            f"{e(d['bot_words'])}; {e(d['name'])} said {e(d['played_words'])} "
            f"({d['samples']} sampled deals; money for {e(d['name'])}).</p>"
            + _options(d, f"review-flek-{i + 1}")
        )
    return "".join(out)


def marias_review_body(match: Any, review: Mapping[str, Any]) -> str:
    names = review["names"]
    stand_in = "".join(
        f'<p class="review-note" id="review-stand-in">A house bot stood in for {e(who)} during '
        "this deal: not every decision of that seat was theirs.</p>"
        for who in review.get("stand_in", [])
    )
    summary = []
    if "akter" in review:
        contract = review["contract_words"] + (
            f", {review['trumps_words']}" if review["trumps_words"] else ""
        )
        summary.append(f"{AKTER}: {names[review['akter']]}, {contract}")
    if "result_words" in review:
        summary.append(f"result: {review['result_words']}")
    if review.get("start_value") is not None:
        summary.append(f"value at the first card: {money_words(review['start_value'])}")
    summary.append(
        f"{review['costly']} card{'s' if review['costly'] != 1 else ''} cost money"
        + (f", {review['cut_off']} not solved" if review["cut_off"] else "")
    )
    rows = []
    for trick in review["tricks"]:
        for i, c in enumerate(trick["cards"]):
            rows.append(_card_row(c, i == 0, trick["number"], trick.get("winner", "")))
    settings = review["settings"]
    stopped = f'<p class="muted">{e(review["stopped"])}.</p>' if review.get("stopped") else ""
    return (
        STYLE + f"<h1>Deal review: mariáš #{match.id}</h1>"
        f'<p><a href="/matches/{match.id}">← the deal\'s replay</a></p>{stand_in}'
        f'<p class="lead" id="review-summary">{e("; ".join(summary))}.</p>'
        '<p class="muted" id="review-method">The value of a position is the aktér\'s money '
        "(tariff units, from both defenders together, fleks included) when everybody plays "
        "perfectly from there with all cards open. What a card cost is the value before it "
        "(the best card's) minus the value after it, for the side that played it; a card that "
        "cost money is marked with the cards that would have kept it. Solved with the house "
        f"bots' exact solver, at most {settings['max_nodes']:,} positions searched per card "
        f"and {settings['max_seconds']:g} s for the deal.</p>"
        '<h2>Tricks (štychy)</h2><div class="review-table-wrap">'
        '<table class="grid review-tricks" id="review-tricks"><tr><th>štych</th>'
        "<th>player</th><th>card</th><th>value before → after</th><th>verdict</th></tr>"
        + "".join(rows)
        + f"</table></div>{stopped}"
        + (_auction(review["auction"]) if review.get("auction") else "")
    )


__all__ = ["marias_review_body"]

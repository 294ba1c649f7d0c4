/* The Onitama play page's "which card?" (static/play-onitama.js): when both of a person's cards
 * move the chosen pawn to the clicked square, the question opens over the board beside that
 * square — where the person is looking — and stays inside the viewport at any width (issue 26).
 * Each choice shows the card's moves (copied from the hand), since the card played goes to
 * the opponent. */
"use strict";

(function () {
  function show({ boardBox, svgNode, choice, color, play, cancel }) {
    const { el, _ } = window.Herna;
    const [, from, to] = choice[0];
    const box = el("div", { class: "play-choice", id: "play-choice", role: "dialog",
      "aria-label": _("Which card moves {from} to {to}?", { from, to }) },
      el("p", { class: "play-choice-ask" },
        _("Both your cards move {from} to {to}. Play which card?", { from, to })),
      el("div", { class: "play-choice-cards" },
        choice.map((m) => {
          // The card's move grid from the hand, so the choice shows what is given away.
          const figure = [...boardBox.querySelectorAll(`.oni-hand-${color} .oni-card`)]
            .find((f) => f.getAttribute("data-card") === m[0]);
          const picture = figure ? figure.querySelector("svg.oni-card-grid") : null;
          return el("button", { type: "button", class: "play-card-choice",
            "data-card": m[0], onclick: () => play(m) },
          picture ? picture.cloneNode(true) : null,
          el("span", {}, window.HernaGames.onitama.cardWord(m[0])));
        })),
      el("button", { type: "button", class: "play-choice-cancel", onclick: cancel },
        _("Cancel")));
    box.addEventListener("keydown", (ev) => { if (ev.key === "Escape") cancel(); });
    boardBox.appendChild(box);
    const frame = boardBox.getBoundingClientRect();
    const rectOf = (sq) => {
      const node = svgNode.querySelector(`rect[data-square="${sq}"]`);
      return node ? node.getBoundingClientRect() : frame;
    };
    const spot = rectOf(to);
    const origin = rectOf(from);
    const w = box.offsetWidth;
    const h = box.offsetHeight;
    const gap = 8;
    const fits = (x, y) => x >= 0 && y >= 0 && x + w <= window.innerWidth && y + h <= window.innerHeight;
    const middle = spot.top + spot.height / 2 - h / 2;
    const centre = spot.left + spot.width / 2 - w / 2;
    const clampX = (x) => Math.max(0, Math.min(x, window.innerWidth - w));
    const clampY = (y) => Math.max(0, Math.min(y, window.innerHeight - h));
    // Beside the target square, not over the pawn that moves; on the screen at any width.
    const above = [clampX(centre), spot.top - h - gap];
    const below = [clampX(centre), spot.bottom + gap];
    const candidates = [
      [spot.right + gap, clampY(middle)],
      [spot.left - w - gap, clampY(middle)],
      ...(origin.top > spot.top ? [above, below] : [below, above]),
    ];
    const [x, y] = candidates.find(([cx, cy]) => fits(cx, cy)) || [clampX(centre), clampY(spot.bottom + gap)];
    box.style.left = `${Math.round(x - frame.left)}px`;
    box.style.top = `${Math.round(y - frame.top)}px`;
    box.scrollIntoView({ block: "nearest", inline: "nearest" });
    const first = box.querySelector("button.play-card-choice");
    if (first) first.focus({ preventScroll: true });
  }

  window.HernaOnitamaChoice = { show };
})();

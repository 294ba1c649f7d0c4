/* Mia renderer for the Herna web hall.
 *
 * Draws two kinds of spectator views:
 *  - live ("kind": "mia-live", folded by herna/web/folds.py from the Mia server's events):
 *    the current round (order, rolls, announcements, who lost and why), the previous round,
 *    the score table and a points-per-minute chart;
 *  - replay steps (herna/games/mia/replay.py, MiaRound.view): order, announcements, the
 *    dice once revealed, losers and reason.
 */
"use strict";

(function () {
  window.HernaGames = window.HernaGames || {};
  const { el, svg, colour } = window.Herna;

  const REASONS = {
    SEE_BEFORE_FIRST_ROLL: "wanted to see before anyone announced",
    LIED_ABOUT_MIA: "announced Mia without having it",
    ANNOUNCED_LOSING_DICE: "announced no more than the previous announcement",
    DID_NOT_ANNOUNCE: "did not announce in time",
    DID_NOT_TAKE_TURN: "did not take the turn in time",
    INVALID_TURN: "sent an invalid turn",
    SEE_FAILED: "wanted to see, but the announcement held",
    CAUGHT_BLUFFING: "was caught bluffing",
    MIA: "Mia! Everybody else loses",
    NO_PLAYERS: "nobody joined",
    ONLY_ONE_PLAYER: "only one player joined",
    NO_SPECTATOR: "no spectator",
  };

  function reasonText(reason) {
    if (!reason) return "";
    return REASONS[reason] ? `${reason}: ${REASONS[reason]}` : String(reason);
  }

  function dice(text) {
    return el("span", { class: "mia-dice", title: text }, String(text || "?"));
  }

  function nameTag(name, losers) {
    const lost = (losers || []).includes(name);
    return el("span", { class: "mia-name" + (lost ? " lost" : ""), style: `border-color: ${colour(name)}` }, name);
  }

  function roundBlock(rnd, title) {
    if (!rnd) return null;
    const losers = rnd.losers || [];
    const status = { playing: "playing", lost: "decided", over: "over", canceled: "canceled" }[rnd.status] || rnd.status;
    const turns = (rnd.turns || []).map((t) => {
      if (t.action === "player_rolls") return el("li", {}, nameTag(t.name, []), " rolls the dice");
      if (t.action === "announced") return el("li", {}, nameTag(t.name, []), " announces ", dice(t.dice));
      if (t.action === "wants_to_see") return el("li", {}, nameTag(t.name, []), " wants to see");
      return el("li", {}, `${t.name} ${t.action}`);
    });
    return el("div", { class: "mia-round", dataset: { round: rnd.round, status: rnd.status } },
      el("h4", {}, `${title} ${rnd.round ?? ""} `, el("span", { class: `mia-badge ${rnd.status}` }, status)),
      rnd.players && rnd.players.length
        ? el("p", { class: "mia-order" }, "order: ", rnd.players.map((p, i) => [i ? " → " : "", nameTag(p, losers)]))
        : null,
      turns.length ? el("ol", { class: "mia-turns" }, turns) : null,
      rnd.actual_dice ? el("p", {}, "actual dice: ", dice(rnd.actual_dice)) : null,
      losers.length || rnd.reason
        ? el("p", { class: "mia-result" },
            losers.length ? [losers.join(", "), " lost — "] : "",
            reasonText(rnd.reason))
        : null);
  }

  function scoreTable(view) {
    const registered = new Map((view.players || []).map((p) => [p.name, p.spectator]));
    const names = new Set([...Object.keys(view.scores || {}), ...registered.keys()]);
    const rows = [...names].map((n) => ({
      name: n,
      points: (view.scores || {})[n] ?? 0,
      rate: (view.rates || {})[n],
      spectator: registered.get(n),
      here: registered.has(n),
    }));
    rows.sort((a, b) => b.points - a.points || a.name.localeCompare(b.name));
    return el("table", { class: "grid mia-scores" },
      el("tr", {}, el("th", {}, "player"), el("th", {}, "points"), el("th", {}, "points/min"), el("th", {}, "")),
      rows.map((r) => el("tr", { dataset: { name: r.name } },
        el("td", {}, el("span", { class: "mia-swatch", style: `background: ${colour(r.name)}` }), " ", r.name),
        el("td", { class: "num" }, String(r.points)),
        el("td", { class: "num" }, r.rate === undefined ? "–" : r.rate.toFixed(1)),
        el("td", { class: "muted" }, r.spectator ? "spectator" : r.here ? "" : "away"))));
  }

  function chart(view) {
    const series = (view.chart && view.chart.series) || {};
    const names = Object.keys(series).filter((n) => series[n].length);
    const W = 520, H = 180, L = 40, R = 10, T = 10, B = 24;
    const box = svg("svg", { class: "mia-chart", viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img",
      "aria-label": "points per minute over time" });
    if (!names.length) {
      box.appendChild(svg("text", { x: W / 2, y: H / 2, "text-anchor": "middle", class: "muted" },
        "points per minute: the first point comes after 5 s of scores…"));
      return box;
    }
    let t0 = Infinity, t1 = -Infinity, ymax = 1;
    for (const n of names) for (const [t, v] of series[n]) {
      t0 = Math.min(t0, t); t1 = Math.max(t1, t); ymax = Math.max(ymax, v);
    }
    if (t1 <= t0) t1 = t0 + 1;
    ymax = Math.ceil(ymax * 1.1);
    const x = (t) => L + ((t - t0) / (t1 - t0)) * (W - L - R);
    const y = (v) => T + (1 - v / ymax) * (H - T - B);
    const grid = [];
    for (let i = 0; i <= 4; i++) {
      const v = (ymax * i) / 4;
      grid.push(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid-line" }));
      grid.push(svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end" }, v.toFixed(v < 10 ? 1 : 0)));
    }
    const span = t1 - t0;
    grid.push(svg("text", { x: L, y: H - 6 }, `−${Math.round(span)} s`));
    grid.push(svg("text", { x: W - R, y: H - 6, "text-anchor": "end" }, "now"));
    const lines = names.map((n) => svg("polyline", {
      points: series[n].map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
      fill: "none", stroke: colour(n), "stroke-width": 2, "data-name": n,
    }, svg("title", {}, n)));
    const dots = names.map((n) => {
      const [t, v] = series[n][series[n].length - 1];
      return svg("circle", { cx: x(t).toFixed(1), cy: y(v).toFixed(1), r: 3, fill: colour(n) },
        svg("title", {}, `${n}: ${v.toFixed(1)} points/min`));
    });
    box.append(...grid, ...lines, ...dots);
    return box;
  }

  function renderLive(container, view) {
    const current = view.round;
    const showLast = view.last_round && (!current || current.round !== view.last_round.round);
    container.replaceChildren(el("div", { class: "mia" },
      el("div", { class: "mia-rounds" },
        current ? roundBlock(current, "Round") : el("p", { class: "muted" }, "No round yet."),
        showLast ? roundBlock(view.last_round, "Previous round") : null),
      el("div", { class: "mia-side" },
        scoreTable(view),
        chart(view),
        el("p", { class: "muted mia-stats" },
          `${view.rounds || 0} rounds seen · ${(view.rounds_per_s || 0).toFixed(1)} rounds/s`))));
  }

  function renderReplay(container, view) {
    const losers = view.losers || [];
    const players = view.players || [];
    const turn = typeof view.turn === "number" ? players[view.turn] : null;
    const announcements = (view.announcements || []).map(([name, d]) =>
      el("li", {}, nameTag(name, []), " announces ", dice(d)));
    container.replaceChildren(el("div", { class: "mia mia-replay" },
      el("p", { class: "mia-order" }, "order: ",
        players.map((p, i) => [i ? " → " : "", nameTag(p, losers), p === turn ? " ◀" : ""])),
      el("p", {}, "phase: ", el("b", {}, view.phase || "?")),
      announcements.length ? el("ol", { class: "mia-turns" }, announcements) : el("p", { class: "muted" }, "no announcement yet"),
      view.actual ? el("p", {}, "dice under the cup: ", dice(view.actual)) : null,
      losers.length || view.reason
        ? el("p", { class: "mia-result" }, losers.length ? [losers.join(", "), " lost — "] : "", reasonText(view.reason))
        : null));
  }

  window.HernaGames.mia = {
    render(container, view, event) {
      if (view && view.kind === "mia-live") renderLive(container, view);
      else if (view && (view.phase || view.players)) renderReplay(container, view);
      else window.Herna.renderJSON(container, view);
    },
  };

  /* Styles live with the renderer so adding a game touches one file. */
  if (!document.getElementById("mia-style")) {
    const style = document.createElement("link");
    style.id = "mia-style";
    style.rel = "stylesheet";
    style.href = "/static/games/mia.css";
    document.head.appendChild(style);
  }
})();

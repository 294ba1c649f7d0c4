/* Mia renderer for the Herna web hall.
 *
 * Draws two kinds of spectator views:
 *  - live ("kind": "mia-live", folded by herna/web/folds.py from the Mia server's events):
 *    a watch page for people: the current round (order, rolls, announcements, who doubted,
 *    the dice when revealed, who lost and why) also told in one sentence, the previous
 *    round, the scoreboard (points, rounds played, losses by reason, points per minute), a
 *    points-over-rounds chart and a points-per-minute chart, both with labelled axes and a
 *    legend;
 *  - replay steps (herna/games/mia/replay.py, MiaRound.view): order, announcements, the
 *    dice once revealed, losers and reason.
 */
"use strict";

(function () {
  window.HernaGames = window.HernaGames || {};
  const { el, svg } = window.Herna;
  const _ = window.Herna._; // the page's language (static/hall.js)
  const ngettext = window.Herna.ngettext;

  /* herna/games/mia/text.py's REASONS, the same messages of the same catalogs (the one
   * formatter; tests/test_public_text.py checks these are its messages). The keywords stay
   * on the wire; a person reads the words. */
  const REASONS = {
    SEE_BEFORE_FIRST_ROLL: _("wanted to see before anyone had rolled"),
    LIED_ABOUT_MIA: _("announced Mia without having it"),
    ANNOUNCED_LOSING_DICE: _("announced dice no higher than the previous announcement"),
    DID_NOT_ANNOUNCE: _("rolled but did not announce in time"),
    DID_NOT_TAKE_TURN: _("did not take their turn in time"),
    INVALID_TURN: _("sent a move that was not allowed"),
    SEE_FAILED: _("wanted to see, but the announcement was true"),
    CAUGHT_BLUFFING: _("was caught bluffing"),
    MIA: _("Mia beats everyone"),
    NO_PLAYERS: _("nobody joined"),
    ONLY_ONE_PLAYER: _("only one player joined"),
    NO_SPECTATOR: _("no spectator"),
  };

  /* herna/games/mia/words.py's DOUBLES: a double by its face (Czech "dvě čtyřky (pasch)"). */
  const DOUBLES = {
    1: _("double 1s (pasch)"),
    2: _("double 2s (pasch)"),
    3: _("double 3s (pasch)"),
    4: _("double 4s (pasch)"),
    5: _("double 5s (pasch)"),
    6: _("double 6s (pasch)"),
  };

  /* herna/games/mia/words.py's dice_words: the wire's "6,5" as the play page writes it
   * ("Mia", "double 4s (pasch)", "6-5"; tests/test_public_text.py runs both on every throw,
   * in English and in Czech). */
  function diceWords(text) {
    const m = /^\s*([1-6])\s*,\s*([1-6])\s*$/.exec(String(text ?? ""));
    if (!m) return String(text || "?");
    const high = Math.max(+m[1], +m[2]), low = Math.min(+m[1], +m[2]);
    if (high === 2 && low === 1) return "Mia";
    if (high === low) return DOUBLES[high];
    return `${high}-${low}`;
  }

  /* A message with elements in its places: said("{name} announces {dice}", {name: tag,
   * dice: box}) -> [tag, " announces ", box], so that a language puts them where it needs. */
  function said(text, nodes) {
    return text.split(/(\{\w+\})/).filter((bit) => bit !== "")
      .map((bit) => { const key = bit.slice(1, -1); return bit[0] === "{" && key in nodes ? nodes[key] : bit; });
  }

  /* 12.5 as the page's language writes it (Czech 12,5), with one decimal. */
  function decimal(value) {
    return value.toLocaleString(document.documentElement.lang || "en",
      { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  }

  /* "ann", "ann and bob", "ann, bob and cy". */
  function namesSaid(names) {
    if (names.length <= 1) return names.join("");
    return names.slice(0, -1).join(", ") + _(" and ") + names[names.length - 1];
  }

  /* The palette of the live view and the play page (static/play-mia.js): players get colours in name order and keep
   * them on this page, so no two players at a table share one (a hash of the name may). */
  const PALETTE = ["#c0392b", "#1f6fb2", "#1f8a4c", "#b7791f", "#7d3c98", "#138d90", "#c2185b", "#5d6d7e"];
  function palette() {
    const colours = new Map();
    return (name) => {
      if (!colours.has(name)) colours.set(name, PALETTE[colours.size % PALETTE.length]);
      return colours.get(name);
    };
  }
  const colour = palette();

  /* The round in one sentence, from what spectators were shown. */
  function roundWords(rnd) {
    const bits = [];
    let last = null;
    for (const t of rnd.turns || []) {
      if (t.action === "announced") {
        bits.push(_("{name} announces {dice}", { name: t.name, dice: diceWords(t.dice) }));
        last = t;
      } else if (t.action === "wants_to_see") {
        bits.push(last ? _("{name} doubts {other} and wants to see", { name: t.name, other: last.name })
          : _("{name} doubts and wants to see", { name: t.name }));
      }
    }
    if (rnd.actual_dice) bits.push(_("under the cup: {dice}", { dice: diceWords(rnd.actual_dice) }));
    const losers = rnd.losers || [];
    const reason = reasonText(rnd.reason) || "?";
    if (losers.length) {
      bits.push(ngettext("{names} lost: {reason}", "{names} lost: {reason}", losers.length,
        { names: namesSaid(losers), reason }));
    } else if (rnd.status === "canceled") bits.push(_("the round was canceled: {reason}", { reason }));
    else if (!bits.length) return rnd.players && rnd.players.length ? _("{name} is about to roll.", { name: rnd.players[0] }) : "";
    // no capital letter: a sentence may start with a player's name, written as the player wrote it
    return bits.join("; ") + (rnd.status === "playing" ? " …" : ".");
  }

  function reasonText(reason) {
    if (!reason) return "";
    return REASONS[reason] || String(reason).replace(/_/g, " ").toLowerCase();
  }

  function dice(text) {
    return el("span", { class: "mia-dice" }, diceWords(text));
  }

  function nameTag(name, losers) {
    const lost = (losers || []).includes(name);
    return el("span", { class: "mia-name" + (lost ? " lost" : ""), style: `border-color: ${colour(name)}` }, name);
  }

  function roundBlock(rnd, title) {
    if (!rnd) return null;
    const losers = rnd.losers || [];
    const status = { playing: _("in play"), lost: _("decided"), over: _("over"), canceled: _("canceled") }[rnd.status] || rnd.status;
    const turns = (rnd.turns || []).map((t) => {
      const name = nameTag(t.name, []);
      if (t.action === "player_rolls") return el("li", {}, said(_("{name} rolls the dice"), { name }));
      if (t.action === "announced") return el("li", {}, said(_("{name} announces {dice}"), { name, dice: dice(t.dice) }));
      if (t.action === "wants_to_see") return el("li", {}, said(_("{name} doubts: wants to see"), { name }));
      return el("li", {}, `${t.name} ${t.action}`);
    });
    const heading = title === "last" ? _("Previous round {n}", { n: rnd.round ?? "" }) : _("Round {n}", { n: rnd.round ?? "" });
    return el("div", { class: "mia-round", dataset: { round: rnd.round, status: rnd.status } },
      el("h4", {}, heading, " ", el("span", { class: `mia-badge ${rnd.status}` }, status)),
      rnd.players && rnd.players.length
        ? el("p", { class: "mia-order" }, _("order:"), " ", rnd.players.map((p, i) => [i ? " → " : "", nameTag(p, losers)]))
        : null,
      el("p", { class: "mia-words" }, roundWords(rnd)),
      turns.length ? el("ol", { class: "mia-turns" }, turns) : null,
      rnd.actual_dice ? el("p", { class: "mia-actual" }, _("actual dice:"), " ", dice(rnd.actual_dice)) : null,
      resultLine(losers, rnd.reason));
  }

  /* "ann, bob lost — was caught bluffing", or the reason alone. */
  function resultLine(losers, reason) {
    if (!losers.length && !reason) return null;
    return el("p", { class: "mia-result" }, losers.length
      ? ngettext("{names} lost — {reason}", "{names} lost — {reason}", losers.length,
        { names: losers.join(", "), reason: reasonText(reason) })
      : reasonText(reason));
  }

  function scoreTable(view) {
    const registered = new Map((view.players || []).map((p) => [p.name, p.spectator]));
    const names = new Set([...Object.keys(view.scores || {}), ...registered.keys()]);
    const stats = view.stats || {};
    for (const n of Object.keys(stats)) names.add(n);
    const rows = [...names].map((n) => ({
      name: n,
      points: (view.scores || {})[n] ?? 0,
      rate: (view.rates || {})[n],
      spectator: registered.get(n),
      here: registered.has(n),
      stat: stats[n] || { rounds: 0, lost: 0, reasons: {} },
    }));
    rows.sort((a, b) => b.points - a.points || a.name.localeCompare(b.name));
    const why = (reasons) => Object.entries(reasons || {}).sort((a, b) => b[1] - a[1])
      .map(([r, c]) => el("span", { class: "mia-why" }, `${c}× ${reasonText(r)}`));
    return el("table", { class: "grid mia-scores" },
      el("caption", {}, _("Scoreboard (rounds and losses since the hall started watching)")),
      el("tr", {}, el("th", {}, _("player")), el("th", {}, _("points")), el("th", {}, _("rounds")),
        el("th", {}, _("losses")), el("th", {}, _("losses by reason")), el("th", { class: "mia-rate-col" }, _("points/min"))),
      rows.map((r) => el("tr", { dataset: { name: r.name } },
        el("td", { class: "mia-who" }, el("span", { class: "mia-swatch", style: `background: ${colour(r.name)}` }), " ", r.name,
          r.spectator ? el("span", { class: "muted" }, " ", _("(spectator)")) : r.here ? null : el("span", { class: "muted" }, " ", _("(away)"))),
        el("td", { class: "num mia-points" }, String(r.points)),
        el("td", { class: "num mia-played" }, String(r.stat.rounds)),
        el("td", { class: "num mia-lost" }, String(r.stat.lost)),
        el("td", { class: "mia-reasons" }, why(r.stat.reasons)),
        el("td", { class: "num mia-rate-col" }, r.rate === undefined ? "–" : decimal(r.rate)))));
  }

  /* Axis titles and a legend, shared by both charts. */
  function axes(W, H, L, B, xTitle, yTitle) {
    return [
      svg("text", { x: (L + W) / 2, y: H - 2, "text-anchor": "middle", class: "mia-axis-title" }, xTitle),
      svg("text", { x: 11, y: (H - B) / 2, "text-anchor": "middle", class: "mia-axis-title",
        transform: `rotate(-90 11 ${(H - B) / 2})` }, yTitle),
    ];
  }

  function legend(names, paint = colour) {
    return el("ul", { class: "mia-legend" }, names.map((n) =>
      el("li", {}, el("span", { class: "mia-swatch", style: `background: ${paint(n)}` }), " ", n)));
  }

  /* Points (rounds survived) after each of the newest rounds (`paint`: a colour per name). */
  function historyChart(view, paint = colour) {
    const history = view.history || [];
    const words = {
      label: _("points over rounds"),
      empty: _("points over rounds: the chart starts after two rounds…"),
      x: _("round (number)"),
      y: _("points"),
      caption: _("Points over the last rounds (a point per round survived)"),
    };
    const W = 520, H = 200, L = 48, R = 10, T = 10, B = 34;
    const box = svg("svg", { class: "mia-chart mia-history", viewBox: `0 0 ${W} ${H}`, width: "100%",
      role: "img", "aria-label": words.label });
    if (history.length < 2) {
      box.appendChild(svg("text", { x: W / 2, y: H / 2, "text-anchor": "middle", class: "muted" },
        words.empty));
      return el("figure", { class: "mia-figure" }, box);
    }
    const names = [...new Set(history.flatMap(([, pts]) => Object.keys(pts)))].sort();
    const r0 = history[0][0], r1 = history[history.length - 1][0];
    let ymin = Infinity, ymax = -Infinity;
    for (const [, pts] of history) for (const v of Object.values(pts)) { ymin = Math.min(ymin, v); ymax = Math.max(ymax, v); }
    if (ymax <= ymin) ymax = ymin + 1;
    const x = (r) => L + ((r - r0) / Math.max(1, r1 - r0)) * (W - L - R);
    const y = (v) => T + (1 - (v - ymin) / (ymax - ymin)) * (H - T - B);
    const grid = [];
    const step = Math.max(1, Math.ceil((ymax - ymin) / 4)); // whole points, each tick once
    for (let v = Math.ceil(ymin); v <= ymax; v += step) {
      grid.push(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid-line" }));
      grid.push(svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", class: "mia-tick" }, v));
    }
    for (const r of new Set([r0, Math.round((r0 + r1) / 2), r1])) { // each round once (2 rounds: 2 ticks)
      grid.push(svg("text", { x: x(r), y: H - B + 14, "text-anchor": "middle", class: "mia-tick" }, r));
    }
    const lines = names.map((n) => svg("polyline", {
      points: history.filter(([, pts]) => n in pts).map(([r, pts]) => `${x(r).toFixed(1)},${y(pts[n]).toFixed(1)}`).join(" "),
      fill: "none", stroke: paint(n), "stroke-width": 2, "data-name": n,
    }, svg("title", {}, n)));
    box.append(...grid, ...axes(W, H, L, B, words.x, words.y), ...lines);
    return el("figure", { class: "mia-figure" }, box,
      el("figcaption", {}, words.caption),
      legend(names, paint));
  }

  function chart(view) {
    const series = (view.chart && view.chart.series) || {};
    const names = Object.keys(series).filter((n) => series[n].length);
    const W = 520, H = 190, L = 48, R = 10, T = 10, B = 34;
    const box = svg("svg", { class: "mia-chart mia-rate", viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img",
      "aria-label": _("points per minute over time") });
    if (!names.length) {
      box.appendChild(svg("text", { x: W / 2, y: H / 2, "text-anchor": "middle", class: "muted" },
        _("points per minute: the first point comes after 5 s of scores…")));
      return el("figure", { class: "mia-figure" }, box);
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
    grid.push(svg("text", { x: L, y: H - B + 14, class: "mia-tick" }, `−${Math.round(span)} s`));
    grid.push(svg("text", { x: W - R, y: H - B + 14, "text-anchor": "end", class: "mia-tick" }, _("now")));
    const lines = names.map((n) => svg("polyline", {
      points: series[n].map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
      fill: "none", stroke: colour(n), "stroke-width": 2, "data-name": n,
    }, svg("title", {}, n)));
    const dots = names.map((n) => {
      const [t, v] = series[n][series[n].length - 1];
      return svg("circle", { cx: x(t).toFixed(1), cy: y(v).toFixed(1), r: 3, fill: colour(n) },
        svg("title", {}, _("{name}: {rate} points/min", { name: n, rate: decimal(v) })));
    });
    box.append(...grid, ...axes(W, H, L, B, _("time (seconds before now)"), _("points per minute")), ...lines, ...dots);
    return el("figure", { class: "mia-figure" }, box,
      el("figcaption", {}, _("Points per minute, each over the 60 s before")), legend(names));
  }

  function renderLive(container, view) {
    // colours in name order, kept as players come and go
    [...new Set([...(view.players || []).map((p) => p.name), ...Object.keys(view.scores || {}),
      ...Object.keys(view.stats || {})])].sort().forEach(colour);
    const current = view.round;
    const showLast = view.last_round && (!current || current.round !== view.last_round.round);
    container.replaceChildren(el("div", { class: "mia" },
      el("div", { class: "mia-rounds" },
        current ? roundBlock(current, "current") : el("p", { class: "muted" }, _("No round yet.")),
        showLast ? roundBlock(view.last_round, "last") : null),
      el("div", { class: "mia-side" },
        scoreTable(view),
        historyChart(view),
        chart(view),
        el("p", { class: "muted mia-stats" },
          ngettext("{n} round seen", "{n} rounds seen", view.rounds || 0), " · ",
          _("{rate} rounds/s", { rate: decimal(view.rounds_per_s || 0) })))));
  }

  function renderReplay(container, view) {
    const losers = view.losers || [];
    const players = view.players || [];
    const turn = typeof view.turn === "number" ? players[view.turn] : null;
    const announcements = (view.announcements || []).map(([name, d]) =>
      el("li", {}, said(_("{name} announces {dice}"), { name: nameTag(name, []), dice: dice(d) })));
    const phases = { turn: _("roll or look"), rolling: _("rolling"), announce: _("announcing"), over: _("over") };
    container.replaceChildren(el("div", { class: "mia mia-replay" },
      el("p", { class: "mia-order" }, _("order:"), " ",
        players.map((p, i) => [i ? " → " : "", nameTag(p, losers), p === turn ? " ◀" : ""])),
      el("p", {}, _("phase:"), " ", el("b", {}, phases[view.phase] || view.phase || "?")),
      announcements.length ? el("ol", { class: "mia-turns" }, announcements) : el("p", { class: "muted" }, _("no announcement yet")),
      view.actual ? el("p", { class: "mia-actual" }, _("under the cup:"), " ", dice(view.actual)) : null,
      resultLine(losers, view.reason)));
  }

  /* A live event of a Mia table (herna/servers/mia) in words, for the live page's list of
   * events; null: the page says the event's kind. */
  function eventWords(ev) {
    const d = ev.data || {};
    const scores = (s) => Object.entries(s || {}).map(([n, v]) => `${n} ${v}`).join(", ");
    switch (ev.kind) {
      case "game_started": return _("round {n}: {names}", { n: d.round, names: (d.players || []).join(", ") });
      case "player_rolls": return _("{name} rolls", { name: d.name });
      case "announced": return _("{name} announces {dice}", { name: d.name, dice: diceWords(d.dice) });
      case "wants_to_see": return _("{name} wants to see", { name: d.name });
      case "actual_dice": return _("under the cup: {dice}", { dice: diceWords(d.dice) });
      case "player_lost":
        return ngettext("{names} lost: {reason}", "{names} lost: {reason}", (d.names || []).length,
          { names: namesSaid(d.names || []), reason: reasonText(d.reason) });
      case "score": return _("points: {scores}", { scores: scores(d.scores) });
      case "game_over":
        return (d.losers || []).length
          ? ngettext("round {n} over: {names} lost ({reason})", "round {n} over: {names} lost ({reason})",
            d.losers.length, { n: d.round, names: namesSaid(d.losers), reason: reasonText(d.reason) })
          : _("round {n} over", { n: d.round });
      case "round_canceled": return _("round {n} canceled: {reason}", { n: d.round, reason: reasonText(d.reason) });
      case "player_registered":
        return d.spectator ? _("{name} joined to watch", { name: d.name }) : _("{name} joined", { name: d.name });
      default: return null;
    }
  }

  window.HernaGames.mia = {
    eventWords, // the live page's list of events
    historyChart, // the play page (static/play-mia.js) draws its points chart with it
    palette, // a colour per name for one page (the play page's own)
    diceWords, // tests/test_public_text.py compares it with herna/games/mia/words.py
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

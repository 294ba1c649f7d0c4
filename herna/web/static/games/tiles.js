/* Tile/path game renderer for the Herna web hall (no build step, no external scripts).
 *
 * Draws the spectator view of herna/games/tiles/engine.py (TilesState.view(None)), as carried by
 * the tile server's events (data.view) and by the replays (herna/games/tiles/replay.py):
 *   view.width, view.height, view.paths_on_tile_side (n)
 *   view.board[y][x]   null (empty cell) | {face_down: true} | {id, kind, rotation,
 *                      connections: ["U0,R0", ...] (already turned), items: {name: count},
 *                      store: {name: count}, effects: ["skip 1", ...], movement_ending,
 *                      can_turn_around}
 *   view.players[]     {seat, x, y, side, index, heading, eliminated, skip, items, hand_count,
 *                      goals: [{goal | null, hidden, done}], goals_done}
 *   view.pile          {count, known: [tile, ...]} (top first)
 *   view.turn          {number, player, action, to_act, roll}; view.outcome {winners, reason}
 * Path points are numbered clockwise around a tile: U0 is the leftmost point of the top side,
 * R0 the topmost of the right side, D0 the rightmost of the bottom, L0 the lowest of the left.
 */
"use strict";

(function () {
  window.HernaGames = window.HernaGames || {};
  const { el, svg } = window.Herna;
  const _ = window.Herna._; // the page's language (static/hall.js)
  const ngettext = window.Herna.ngettext;
  const SVGNS = "http://www.w3.org/2000/svg";
  const SIDES = "URDL";
  const COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
                   "#e377c2", "#8c564b", "#bcbd22", "#7f7f7f"];
  // How a goal reads on every page, in the page's language: the messages of GOAL_WORDS in
  // herna/games/tiles/narrate.py (tests/test_public_text.py checks the two match). Columns and
  // rows are counted from 1, as people count (narrate.nth); the rules file and the wire count
  // from 0.
  // The items and titles of the rules files Herna ships, in the page's language: the messages
  // of ITEM_WORDS in herna/games/tiles/narrate.py and RULES_TITLES in rules.py (a test checks
  // they match). A designer's own items and rules files keep the names they were given.
  const ITEM_WORDS = {
    gold: _("gold"),
    gem: _("gem"),
    book: _("book"),
    coins: _("coins"),
    map: _("map"),
    crown: _("crown"),
    keys: _("keys"),
    skull: _("skull"),
    ring: _("ring"),
    chest: _("chest"),
    emerald: _("emerald"),
    sword: _("sword"),
    candlestick: _("candlestick"),
    helmet: _("helmet"),
    bat: _("bat"),
    moth: _("moth"),
    owl: _("owl"),
    lizard: _("lizard"),
    spider: _("spider"),
    mouse: _("mouse"),
    dragon: _("dragon"),
    ghost: _("ghost"),
    fairy: _("fairy"),
    genie: _("genie"),
    beetle: _("beetle"),
    sorceress: _("sorceress"),
  };
  const RULES_TITLES = {
    gold_rush: _("Gold rush"),
    labyrinth: _("Labyrinth"),
    dungeon: _("Dungeon"),
    tsuro: _("Tsuro"),
  };
  /* One item's name as people read it ("gold" is "zlato" on a Czech page). */
  function itemWord(name) {
    return Object.hasOwn(ITEM_WORDS, name) ? ITEM_WORDS[name] : name;
  }
  /* A rules file's name in words ("gold_rush" reads "Gold rush", as rules.rules_title says;
   * "my_maze" reads "My maze"); "custom" (rules of the players' own) is for the caller. */
  function rulesTitle(name) {
    if (Object.hasOwn(RULES_TITLES, name)) return RULES_TITLES[name];
    const words = String(name).replace(/[_-]/g, " ").trim();
    return words.slice(0, 1).toUpperCase() + words.slice(1);
  }
  const GOAL_WORDS = {
    reach: _("reach the tile in column {x}, row {y}"),
    collect: _("collect {count} {name}"),
    find: _("find the {name}"),
    hidden: _("a secret goal"),
  };
  /* A column or row as people count it (from 1). */
  function nth(index) {
    return Number(index) + 1;
  }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (_, k) => values[k]);
  }
  function goalWords(text) {
    const words = GOAL_WORDS;
    if (!text) return words.hidden;
    let m = /^reach (\d+) (\d+)$/.exec(text);
    if (m) return fill(words.reach, { x: nth(m[1]), y: nth(m[2]) });
    m = /^collect (\d+) (.+)$/.exec(text);
    if (m) return fill(words.collect, { count: m[1], name: itemWord(m[2]) });
    m = /^find (.+)$/.exec(text);
    if (m) return fill(words.find, { name: itemWord(m[1]) });
    return text;
  }
  /* How a game ends, as the engine and the tile server word it: the messages of END_WORDS
   * in herna/games/tiles/narrate.py (tests/test_public_text.py checks the two match). */
  const END_WORDS = {
    "completed every goal": _("completed every goal"),
    "last player not eliminated": _("last player not eliminated"),
    "every player was eliminated": _("every player was eliminated"),
    "no progress for a full round": _("no progress for a full round"),
    "the other player resigned": _("the other player resigned"),
    "the other player ran out of time": _("the other player ran out of time"),
    "you resigned": _("you resigned"),
    "you ran out of time": _("you ran out of time"),
  };
  /* How the game ended, in the page's language (narrate.end_words). */
  function endWords(reason) {
    if (Object.hasOwn(END_WORDS, reason)) return END_WORDS[reason];
    let m = /^no (.+) left$/.exec(reason);
    if (m) return _("no {name} left", { name: itemWord(m[1]) });
    m = /^no progress for (\d+) full rounds$/.exec(reason);
    if (m) return _("no progress for {n} full rounds", { n: m[1] });
    m = /^round limit \((\d+) rounds\)$/.exec(reason);
    if (m) return _("round limit ({n} rounds)", { n: m[1] });
    return reason;
  }

  /* "3 gold and 1 gem" ("3× zlato a 1× drahokam"): a tile's or a bank's items in words. */
  function itemsSaid(items) {
    const and = _(" and ");
    const parts = Object.entries(items || {}).filter(([, c]) => c > 0)
      .map(([k, c]) => _("{count} {name}", { count: c, name: itemWord(k) }));
    if (parts.length <= 1) return parts.join("");
    return parts.slice(0, -1).join(", ") + and + parts[parts.length - 1];
  }

  /* What every bank (a tile with the collect effect: it keeps the items brought to it, and
   * rules with scoring count them) holds, a line each: "Bank in column 1, row 1: 3 gold". */
  function bankWords(view) {
    const out = [];
    (view.board || []).forEach((row, y) => (row || []).forEach((tile, x) => {
      if (!tile || tile.face_down) return;
      const bank = (tile.effects || []).includes("collect") || Object.keys(tile.store || {}).length;
      if (!bank) return;
      const nothing = _("nothing yet"); // (outside the next _(): extraction reads no nested one)
      out.push(_("Bank in column {x}, row {y}: {items}",
        { x: nth(x), y: nth(y), items: itemsSaid(tile.store) || nothing }));
    }));
    return out;
  }

  /* What a turn is for, in words ("pushing a row or column"). */
  function doing(action) {
    const words = { push: _("pushing a row or column"), move: _("moving"), moveAll: _("moving"),
      add: _("placing a tile"), exchange: _("exchanging a tile") };
    return Object.hasOwn(words, action) ? words[action] : _("playing");
  }

  const EFFECT_ICONS = { move: "⇥", eliminate: "☠", collect: "⌂", send: "✉", return: "↺",
                         skip: "‖" };

  function addStyles() {
    window.Herna.addStyle("herna-tiles-style", `
      .tiles { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }
      .tiles svg.tiles-board { max-width: 100%; height: auto; background: #efe6d2;
        border: 1px solid #b9a98a; border-radius: 4px; }
      .tiles-side { min-width: 14rem; flex: 1; font-size: .9rem; }
      .tiles-side h4 { margin: .2rem 0 .4rem; }
      .tiles-banks { margin: .3rem 0; padding-left: 1.2rem; }
      .tiles-player { border-left: 6px solid; padding: .15rem .4rem; margin: .2rem 0; }
      .tiles-player.out { opacity: .5; text-decoration: line-through; }
      .tiles-player.to-act { font-weight: 600; }
      .tiles-goal { display: inline-block; border: 1px solid #b9a98a; border-radius: 3px;
        padding: 0 .25rem; margin: .1rem .15rem 0 0; font-size: .8rem; }
      .tiles-goal.done { text-decoration: line-through; opacity: .6; }
      .tiles-label { font-style: italic; margin: .3rem 0; }
      .tiles-outcome { font-weight: 600; color: #a12; }
    `);
  }

  /* Position of point `p` on a unit tile. */
  function pointXY(p, n) {
    const side = Math.floor(p / n);
    const f = ((p % n) + 1) / (n + 1);
    if (side === 0) return [f, 0];
    if (side === 1) return [1, f];
    if (side === 2) return [1 - f, 1];
    return [0, 1 - f];
  }

  const INWARD = [[0, 1], [-1, 0], [0, -1], [1, 0]];

  function parsePoint(text, n) {
    return SIDES.indexOf(text[0]) * n + Number(text.slice(1));
  }

  function pathD(points, n, size, x0, y0) {
    const at = (u, v) => `${(x0 + u * size).toFixed(1)} ${(y0 + v * size).toFixed(1)}`;
    if (points.length === 1) {
      const [u, v] = pointXY(points[0], n);
      const [du, dv] = INWARD[Math.floor(points[0] / n)];
      return `M ${at(u, v)} L ${at(u + du * 0.3, v + dv * 0.3)}`;
    }
    if (points.length === 2) {
      const [a, b] = points;
      const [u1, v1] = pointXY(a, n);
      const [u2, v2] = pointXY(b, n);
      const [d1u, d1v] = INWARD[Math.floor(a / n)];
      const [d2u, d2v] = INWARD[Math.floor(b / n)];
      const k = 0.38;
      return `M ${at(u1, v1)} C ${at(u1 + d1u * k, v1 + d1v * k)} ` +
        `${at(u2 + d2u * k, v2 + d2v * k)} ${at(u2, v2)}`;
    }
    const cu = points.reduce((s, p) => s + pointXY(p, n)[0], 0) / points.length;
    const cv = points.reduce((s, p) => s + pointXY(p, n)[1], 0) / points.length;
    return points.map((p) => {
      const [u, v] = pointXY(p, n);
      const [du, dv] = INWARD[Math.floor(p / n)];
      return `M ${at(u, v)} Q ${at(u + du * 0.3, v + dv * 0.3)} ${at(cu, cv)}`;
    }).join(" ");
  }

  function tileGroup(tile, n, size, x0, y0, showBadges) {
    const g = svg("g", { class: "tiles-tile" });
    if (tile === null) {
      g.appendChild(svg("rect", { x: x0 + 2, y: y0 + 2, width: size - 4, height: size - 4,
        fill: "none", stroke: "#c9bda4", "stroke-dasharray": "4 3" }));
      return g;
    }
    if (tile.face_down) {
      g.appendChild(svg("rect", { x: x0 + 1, y: y0 + 1, width: size - 2, height: size - 2,
        rx: 3, fill: "url(#tiles-back)", stroke: "#6b5d45" },
        svg("title", {}, _("face-down tile"))));
      return g;
    }
    const ending = tile.movement_ending;
    g.appendChild(svg("rect", { x: x0 + 1, y: y0 + 1, width: size - 2, height: size - 2, rx: 3,
      fill: "#f8f1df", stroke: ending ? "#b22" : "#8a7a5c", "stroke-width": ending ? 3 : 1 }));
    for (const conn of tile.connections || []) {
      const points = conn.split(",").map((t) => parsePoint(t, n));
      const d = pathD(points, n, size, x0, y0);
      g.appendChild(svg("path", { d, fill: "none", stroke: "#6b4f2f",
        "stroke-width": Math.max(3, size * 0.16 / n), "stroke-linecap": "round" }));
      g.appendChild(svg("path", { d, fill: "none", stroke: "#d9b77e",
        "stroke-width": Math.max(1.5, size * 0.09 / n), "stroke-linecap": "round" }));
    }
    if (!showBadges) return g;
    if (showBadges !== "no-items") itemLabels(tile, size, x0, y0).forEach((t) => g.appendChild(t));
    const store = Object.entries(tile.store || {});
    if (store.length) {
      g.appendChild(svg("text", { x: x0 + size - 4, y: y0 + size - 5, "text-anchor": "end",
        "font-size": size * 0.16, fill: "#225" },
        "$" + store.reduce((s, [, c]) => s + c, 0),
        svg("title", {}, _("stored here: {items}", { items: itemsSaid(tile.store) }))));
    }
    (tile.effects || []).forEach((effect, i) => {
      const icon = EFFECT_ICONS[effect.split(" ")[0]] || "!";
      g.appendChild(svg("text", { x: x0 + 4 + i * size * 0.2, y: y0 + size - 5,
        "font-size": size * 0.2 }, icon, svg("title", {}, effect)));
    });
    if (tile.can_turn_around) {
      g.appendChild(svg("text", { x: x0 + 4, y: y0 + size * 0.22, "font-size": size * 0.18 },
        "↻", svg("title", {}, _("players may turn around here"))));
    }
    return g;
  }

  /* Items by name (not a first letter): the name is squeezed to the tile's width when long,
   * on a gold outline so it stays readable over the paths. A page that draws pawns draws
   * these after them (tileGroup with "no-items"), so a pawn never hides a label. */
  function itemLabels(tile, size, x0, y0) {
    if (!tile || tile.face_down) return [];
    return Object.entries(tile.items || {}).map(([name, count], i) => {
      const text = `${itemWord(name)}${count > 1 ? " ×" + count : ""}`;
      const fontSize = size * 0.14;
      const widest = size * 0.88;
      const attrs = { x: x0 + size / 2, y: y0 + size * (0.24 + 0.17 * i),
        "text-anchor": "middle", "font-size": fontSize, "font-weight": 700,
        class: "tiles-item", fill: "#3d2c00", stroke: "#f2c94c",
        "stroke-width": fontSize * 0.35, "paint-order": "stroke" };
      if (text.length * fontSize * 0.6 > widest) {
        attrs.textLength = widest;
        attrs.lengthAdjust = "spacingAndGlyphs";
      }
      return svg("text", attrs, text, svg("title", {}, text));
    });
  }

  function playerMark(p, n, size, names) {
    const point = SIDES.indexOf(p.side) * n + Number(p.index);
    let [u, v] = pointXY(point, n);
    const [du, dv] = INWARD[Math.floor(point / n)];
    u += du * 0.17;
    v += dv * 0.17;
    const cx = p.x * size + u * size;
    const cy = p.y * size + v * size;
    const colour = COLOURS[p.seat % COLOURS.length];
    const name = names && names[p.seat] ? names[p.seat] : _("player {n}", { n: p.seat + 1 });
    return svg("g", { class: "tiles-player-mark" },
      svg("circle", { cx, cy, r: Math.max(5, size * 0.14), fill: colour, stroke: "#fff",
        "stroke-width": 2 }),
      svg("text", { x: cx, y: cy + size * 0.06, "text-anchor": "middle",
        "font-size": Math.max(8, size * 0.16), fill: "#fff", "font-weight": 700 }, p.seat + 1),
      svg("title", {}, _("{name} on the tile in column {x}, row {y}", { name, x: nth(p.x), y: nth(p.y) })));
  }

  function pushArrows(view, size, margin) {
    const g = svg("g", { class: "tiles-arrows", fill: "#b9a98a" });
    const w = view.width, h = view.height;
    const rows = new Set(view.unpushable_rows || []);
    const cols = new Set(view.unpushable_columns || []);
    if (!(view.turn_structure || []).includes("push")) return g;
    const tri = (x, y, dx, dy) => {
      const s = margin * 0.35;
      const pts = [[x + dx * s, y + dy * s], [x - dy * s * 0.8, y + dx * s * 0.8],
                   [x + dy * s * 0.8, y - dx * s * 0.8]];
      return svg("polygon", { points: pts.map((p) => p.join(",")).join(" ") });
    };
    for (let y = 0; y < h; y++) {
      if (rows.has(y)) continue;
      const cy = margin + y * size + size / 2;
      g.appendChild(tri(margin * 0.5, cy, 1, 0));
      g.appendChild(tri(margin * 1.5 + w * size, cy, -1, 0));
    }
    for (let x = 0; x < w; x++) {
      if (cols.has(x)) continue;
      const cx = margin + x * size + size / 2;
      g.appendChild(tri(cx, margin * 0.5, 0, 1));
      g.appendChild(tri(cx, margin * 1.5 + h * size, 0, -1));
    }
    return g;
  }

  function boardSvg(view, names) {
    const n = view.paths_on_tile_side || 1;
    const w = view.width, h = view.height;
    const size = Math.max(28, Math.min(72, Math.floor(640 / Math.max(w, h))));
    const margin = Math.round(size * 0.45);
    const root = svg("svg", { class: "tiles-board", xmlns: SVGNS,
      viewBox: `0 0 ${w * size + 2 * margin} ${h * size + 2 * margin}`,
      width: w * size + 2 * margin, height: h * size + 2 * margin, role: "img",
      "aria-label": _("tile board {w} by {h}", { w, h }) });
    root.appendChild(svg("defs", {},
      svg("pattern", { id: "tiles-back", width: 8, height: 8, patternUnits: "userSpaceOnUse",
        patternTransform: "rotate(45)" },
        svg("rect", { width: 8, height: 8, fill: "#8d7b5a" }),
        svg("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#a8966f", "stroke-width": 4 }))));
    root.appendChild(pushArrows(view, size, margin));
    const board = svg("g", { transform: `translate(${margin} ${margin})` });
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        board.appendChild(tileGroup(view.board[y][x], n, size, x * size, y * size, true));
      }
    }
    for (const p of view.players || []) {
      if (!p.eliminated) board.appendChild(playerMark(p, n, size, names));
    }
    root.appendChild(board);
    return root;
  }

  function tileThumb(tile, n) {
    const size = 48;
    return svg("svg", { width: size, height: size, viewBox: `0 0 ${size} ${size}` },
      tileGroup(tile, n, size, 0, 0, true));
  }

  function namesOf(view, event) {
    const data = (event && event.data) || {};
    if (Array.isArray(data.players)) return data.players;
    if (Array.isArray(view.names)) return view.names;
    return null;
  }

  function sidePanel(view, event, names) {
    const n = view.paths_on_tile_side || 1;
    const turn = view.turn || {};
    const side = el("div", { class: "tiles-side" });
    const named = String(view.rules || "custom");
    const rules = named === "custom" ? _("Rules of the players' own") : rulesTitle(named);
    const who = (seat) => (names && names[seat]) || _("player {n}", { n: seat + 1 });
    side.appendChild(el("h4", {}, [rules, _("turn {n}", { n: turn.number || 0 })]
      .concat(turn.action ? [doing(turn.action)] : [])
      .concat(turn.roll !== null && turn.roll !== undefined ? [_("rolled {n}", { n: turn.roll })] : [])
      .join(" · ")));
    const label = event && event.data && event.data.label;
    // the outcome line below says how the game ended: the label would repeat it
    if (label && !(view.outcome && /^game over/i.test(label))) side.appendChild(el("div", { class: "tiles-label" }, label));
    if (view.outcome) {
      const winners = (view.outcome.winners || []).map(who);
      const reason = endWords(view.outcome.reason || "");
      side.appendChild(el("div", { class: "tiles-outcome" }, winners.length
        ? ngettext("Game over: {reason}. Winner: {names}", "Game over: {reason}. Winners: {names}", winners.length,
          { reason, names: winners.join(", ") })
        : _("Game over: {reason}. No winner.", { reason })));
      const scores = (view.outcome.details || {}).scores;
      if (Array.isArray(scores)) {
        side.appendChild(el("div", { class: "tiles-scores" }, _("Scores:") + " " + scores
          .map((v, i) => `${who(i)} ${v === null ? _("eliminated") : v}`)
          .join(", ")));
      }
    }
    for (const p of view.players || []) {
      const colour = COLOURS[p.seat % COLOURS.length];
      const name = who(p.seat);
      const bits = [];
      if (p.eliminated) bits.push(_("eliminated"));
      else bits.push(_("on the tile in column {x}, row {y}", { x: nth(p.x), y: nth(p.y) }));
      if (Object.keys(p.items || {}).length) bits.push(_("holds: {items}", { items: itemsSaid(p.items) }));
      if (p.skip) bits.push(ngettext("misses {n} turn", "misses {n} turns", p.skip));
      if (p.hand_count) bits.push(ngettext("{n} tile in hand", "{n} tiles in hand", p.hand_count));
      const goals = (p.goals || []).map((g) => el("span",
        { class: "tiles-goal" + (g.done ? " done" : "") }, (g.done ? "✓ " : "") + goalWords(g.hidden ? null : g.goal)));
      const cls = "tiles-player" + (p.eliminated ? " out" : "") +
        (turn.to_act === p.seat ? " to-act" : "");
      side.appendChild(el("div", { class: cls, style: `border-color: ${colour}` },
        el("div", {}, `${turn.to_act === p.seat ? "▶ " : ""}${p.seat + 1} ${name} — ${bits.join("; ")}`),
        goals.length ? el("div", {}, _("Goals:"), " ", goals.flatMap((g, i) => (i ? ["; ", g] : [g]))) : null));
    }
    const banks = bankWords(view);
    if (banks.length) side.appendChild(el("ul", { class: "tiles-banks" }, banks.map((b) => el("li", {}, b))));
    const pile = view.pile || {};
    const top = (pile.known || [])[0];
    side.appendChild(el("div", {}, ngettext("Pile: {n} tile", "Pile: {n} tiles", pile.count || 0),
      top ? el("div", {}, _("on top:"), " ", tileThumb(top, n)) : null));
    return side;
  }

  window.HernaGames.tiles = {
    /* The drawing pieces, for the play page (static/play-tiles.js). */
    parts: { goalWords, endWords, itemWord, itemsSaid, rulesTitle, doing, nth, bankWords, tileGroup, itemLabels, playerMark, pointXY, parsePoint, addStyles, COLOURS, SIDES },
    render(container, view, event) {
      addStyles();
      if (!view || !view.board) {
        window.Herna.renderJSON(container, view);
        return;
      }
      const names = namesOf(view, event);
      container.replaceChildren(el("div", { class: "tiles" },
        boardSvg(view, names), sidePanel(view, event, names)));
    },
  };
})();

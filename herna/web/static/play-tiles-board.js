/* The tile play page's board (static/play-tiles.js keeps the connection and the state): the
 * tiles, pawns and goals drawn with the spectator renderer's pieces (static/games/tiles.js),
 * the cells, arrows and tile rotations a person may click — only the actions the server
 * listed in `your_turn` — and the hand and its rotations. create() takes the page's state,
 * send() and draw(), and gives the parts the page puts on screen.
 *
 * The one rule the page computes (turned()) is here too, with the words of goals and items.
 */
"use strict";

(function () {
  const SIDES = "URDL";
  const _ = window.Herna._; // the page's language (static/hall.js, loaded first)

  // How a turn, a goal and a game's end read: the renderer's words (static/games/tiles.js,
  // loaded first), one formatter on every page.
  const { doing, goalWords, itemWord } = window.HernaGames.tiles.parts;

  /* -- the one rule the page computes: a tile turned to `rotation` ------------------------- */

  /* The connections of `tile` (a view's tile: connections drawn at tile.rotation) when it lies
   * turned `rotation` clockwise quarter turns from its written orientation. A quarter turn
   * clockwise adds n to every point (points are numbered clockwise, n per side). */
  function turned(tile, rotation, n) {
    const k = (((rotation - (tile.rotation || 0)) % 4) + 4) % 4;
    return (tile.connections || []).map((conn) => conn.split(",").map((t) => {
      const q = (SIDES.indexOf(t[0]) * n + Number(t.slice(1)) + k * n) % (4 * n);
      return SIDES[Math.floor(q / n)] + String(q % n);
    }).join(","));
  }

  /* Items in words ("3 gold, chest"; "3× zlato, truhla" on a Czech page: the shipped rules'
   * items in the page's language, a designer's own as the file names them). */
  function itemWords(items) {
    return Object.entries(items || {})
      .map(([k, c]) => (c === 1 ? itemWord(k) : _("{count} {name}", { count: c, name: itemWord(k) })))
      .join(", ");
  }

  window.HernaTilesRules = { turned, goalWords, itemWords, doing };

  function create({ S, send, draw }) {
    const { el, svg } = window.Herna;
    const parts = window.HernaGames.tiles.parts;

    /* -- choices -------------------------------------------------------------------------- */
    function actions() { return (S.turn && S.turn.actions) || []; }
    function kind() { return S.turn ? S.turn.action : null; }
    function mine() {
      return S.view ? (S.view.players || []).find((p) => p.seat === S.seat) : null;
    }
    function handTiles() { const p = mine(); return (p && p.hand) || []; }

    function withTile(list) {
      if (!list.some((a) => a.tile !== undefined)) return list;
      return list.filter((a) => a.tile === S.tile);
    }
    function rotations() {
      const list = withTile(actions().filter((a) => a.rotation !== undefined));
      return [...new Set(list.map((a) => a.rotation))].sort((a, b) => a - b);
    }
    function chooseDefaults() {
      const tiles = [...new Set(actions().filter((a) => a.tile !== undefined).map((a) => a.tile))];
      if (!tiles.includes(S.tile)) S.tile = tiles.length ? tiles[0] : null;
      const rots = rotations();
      if (!rots.includes(S.rotation)) S.rotation = rots.length ? rots[0] : 0;
    }
    function rotate(step) {
      const rots = rotations();
      if (rots.length < 2) return;
      const i = rots.indexOf(S.rotation);
      S.rotation = rots[(i + step + rots.length) % rots.length];
      draw();
    }
    function shown() {
      // actions that match the tile and rotation picked
      return withTile(actions()).filter((a) => a.rotation === undefined || a.rotation === S.rotation);
    }

    function act(action) {
      if (S.pending) return;
      S.pending = true;
      S.note = "";
      S.choice = null;
      send({ type: "act", action });
      draw();
    }

    function cellClicked(x, y) {
      const here = shown().filter((a) => a.x === x && a.y === y);
      S.focusKey = `cell-${x}-${y}`;
      if (!here.length) return;
      if (here.length === 1) act(here[0]);
      else { S.choice = { x, y }; draw(); }
    }

    /* -- drawing ---------------------------------------------------------------------------- */
    function nameOf(seat) {
      const s = S.seats[seat];
      return s ? s.name : _("player {n}", { n: seat + 1 });
    }

    function incomingTile() {
      const k = kind();
      if (k === "push") return ((S.view.pile || {}).known || [])[0] || null;
      if (k === "add" || k === "exchange") {
        if (S.tile !== null) return handTiles().find((t) => t.id === S.tile) || null;
        return ((S.view.pile || {}).known || [])[0] || null;
      }
      return null;
    }

    function tileSvg(tile, rotation, size, label) {
      const n = S.view.paths_on_tile_side || 1;
      const shownTile = Object.assign({}, tile, { connections: turned(tile, rotation, n),
                                                 rotation });
      return svg("svg", { class: "tp-tile", width: size, height: size,
        viewBox: `0 0 ${size} ${size}`, role: "img", "aria-label": label,
        "data-connections": shownTile.connections.join(" ") },
        parts.tileGroup(shownTile, n, size, 0, 0, true));
    }

    /* This seat's next goal in the required order (goals are done one after the other). */
    function nextGoal() {
      const me = (S.view.players || []).find((p) => p.seat === S.seat);
      if (!me || me.eliminated) return null;
      const g = (me.goals || [])[me.goals_done || 0];
      return g && !g.hidden && !g.done ? g.goal : null;
    }

    /* The cells that fulfil it: the tile to reach, or the tiles holding what to find. */
    function nextGoalCells() {
      const goal = nextGoal();
      if (!goal) return [];
      let m = /^reach (\d+) (\d+)$/.exec(goal);
      if (m) return [[Number(m[1]), Number(m[2])]];
      m = /^(?:find|collect \d+) (.+)$/.exec(goal);
      if (!m) return [];
      const out = [];
      S.view.board.forEach((row, y) => row.forEach((tile, x) => {
        if (tile && !tile.face_down && tile.items && tile.items[m[1]]) out.push([x, y]);
      }));
      return out;
    }

    function boardSvg() {
      const v = S.view;
      const n = v.paths_on_tile_side || 1;
      const w = v.width, h = v.height;
      const size = 64;
      const margin = 30;
      const W = w * size + 2 * margin, H = h * size + 2 * margin;
      const box = svg("svg", { class: "tp-svg tiles-board", viewBox: `0 0 ${W} ${H}`,
        role: "group", "aria-label": _("the board, {w} columns by {h} rows", { w, h }),
        style: `max-width: min(100%, ${Math.max(W, 360)}px)` });
      box.appendChild(svg("defs", {},
        svg("pattern", { id: "tiles-back", width: 8, height: 8, patternUnits: "userSpaceOnUse",
          patternTransform: "rotate(45)" },
          svg("rect", { width: 8, height: 8, fill: "#8d7b5a" }),
          svg("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#a8966f", "stroke-width": 4 }))));
      const g = svg("g", { transform: `translate(${margin} ${margin})` });
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) g.appendChild(parts.tileGroup(v.board[y][x], n, size, x * size, y * size, "no-items"));
      }
      // the next goal (goals are done in order): a gold frame on its tile(s)
      for (const [x, y] of nextGoalCells()) {
        g.appendChild(svg("rect", { x: x * size + 3, y: y * size + 3, width: size - 6, height: size - 6, rx: 5,
          class: "tp-next-goal", "data-x": x, "data-y": y }, svg("title", {}, _("your next goal: {goal}", { goal: goalWords(nextGoal()) }))));
      }
      // pawns, then the items' names over them: a pawn never hides a label
      const names = S.seats.map((s, i) => nameOf(i));
      for (const p of v.players || []) if (!p.eliminated) g.appendChild(parts.playerMark(p, n, size, names));
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) parts.itemLabels(v.board[y][x], size, x * size, y * size).forEach((t) => g.appendChild(t));
      }
      // clickable cells (highlighted when a legal target)
      const cellKinds = ["move", "add", "exchange"];
      const targets = cellKinds.includes(kind()) && !S.pending ? shown() : [];
      const at = new Set(targets.map((a) => `${a.x},${a.y}`));
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const legal = at.has(`${x},${y}`);
          const chosen = S.choice && S.choice.x === x && S.choice.y === y;
          const tile = v.board[y][x];
          const what = tile && tile.items && Object.keys(tile.items).length
            ? ` (${itemWords(tile.items)})` : "";
          const r = svg("rect", { x: x * size, y: y * size, width: size, height: size,
            class: "tp-cell" + (legal ? " tp-target" : "") + (chosen ? " tp-chosen" : ""),
            "data-x": x, "data-y": y, "data-key": `cell-${x}-${y}`,
            tabindex: legal ? 0 : null, role: legal ? "button" : null,
            "aria-label": legal ? _("{doing}: column {x}, row {y}", { doing: doing(kind()), x: x + 1, y: y + 1 }) + what : null });
          if (legal) {
            r.addEventListener("click", () => cellClicked(x, y));
            r.addEventListener("keydown", (ev) => {
              if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); cellClicked(x, y); }
            });
          }
          g.appendChild(r);
        }
      }
      box.appendChild(g);
      // push arrows: only the lines the server allows, for the rotation picked
      if (kind() === "push" && !S.pending) {
        for (const a of shown()) {
          const tri = arrow(a, w, h, size, margin);
          if (tri) box.appendChild(tri);
        }
      }
      return box;
    }

    function arrow(a, w, h, size, margin) {
      let cx, cy, dx, dy, label;
      if (a.row !== undefined) {
        cy = margin + a.row * size + size / 2;
        if (a.direction === "right") { cx = margin / 2; dx = 1; } else { cx = margin * 1.5 + w * size; dx = -1; }
        dy = 0;
        label = a.direction === "right" ? _("push row {n} from the left", { n: a.row + 1 })
          : _("push row {n} from the right", { n: a.row + 1 });
      } else {
        cx = margin + a.column * size + size / 2;
        if (a.direction === "down") { cy = margin / 2; dy = 1; } else { cy = margin * 1.5 + h * size; dy = -1; }
        dx = 0;
        label = a.direction === "down" ? _("push column {n} from the top", { n: a.column + 1 })
          : _("push column {n} from the bottom", { n: a.column + 1 });
      }
      const s = margin * 0.45;
      const pts = [[cx + dx * s, cy + dy * s], [cx - dy * s * 0.9 - dx * s, cy + dx * s * 0.9 - dy * s],
                   [cx + dy * s * 0.9 - dx * s, cy - dx * s * 0.9 - dy * s]];
      const key = `push-${a.row !== undefined ? "r" + a.row : "c" + a.column}-${a.direction}`;
      const poly = svg("polygon", { points: pts.map((p) => p.join(",")).join(" "),
        class: "tp-arrow tp-target", tabindex: 0, role: "button", "aria-label": label,
        "data-key": key }, svg("title", {}, label));
      const go = () => { S.focusKey = key; act(a); };
      // With no spare tile the one pushed out at the far end comes back in: show it.
      const aim = () => { if (S.aim !== a) { S.aim = a; refreshPicker(); } };
      poly.addEventListener("mouseenter", aim);
      poly.addEventListener("focus", aim);
      poly.addEventListener("click", go);
      poly.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); go(); }
      });
      return poly;
    }

    /* The tile a push without a spare brings back in: the one at the line's far end. */
    function farTile(a) {
      const v = S.view;
      if (!a || a.type !== "push") return null;
      let tile;
      if (a.row !== undefined) tile = v.board[a.row][a.direction === "right" ? v.width - 1 : 0];
      else tile = v.board[a.direction === "down" ? v.height - 1 : 0][a.column];
      return tile && !tile.face_down ? tile : null;
    }

    function refreshPicker() {
      const box = document.getElementById("tp-picker");
      // replaceChildren, unlike el(), writes a null as the text "null": only the nodes
      if (box) box.replaceChildren(...pickerParts().filter(Boolean));
    }

    function tilePicker() {
      if (!["push", "add", "exchange"].includes(kind())) return null;
      return el("div", { class: "tp-picker", id: "tp-picker" }, pickerParts());
    }

    function pickerParts() {
      const k = kind();
      const tile = incomingTile();
      const far = !tile && k === "push" ? farTile(S.aim) : null;
      const rots = rotations();
      const hand = handTiles();
      const handIds = new Set(actions().filter((a) => a.tile !== undefined).map((a) => a.tile));
      const rotButtons = rots.length > 1 ? [
        el("button", { type: "button", class: "tp-rotate", "aria-label": _("turn the tile left"),
          onclick: () => rotate(-1) }, "⟲"),
        el("button", { type: "button", class: "tp-rotate", "aria-label": _("turn the tile right"),
          onclick: () => rotate(1) }, "⟳"),
      ] : [];
      const handBox = handIds.size ? el("div", { class: "tp-hand" }, _("Your hand:") + " ",
        hand.filter((t) => handIds.has(t.id)).map((t) => el("button", {
          type: "button", class: "tp-hand-tile" + (t.id === S.tile ? " tp-picked" : ""),
          "aria-pressed": t.id === S.tile ? "true" : "false",
          "aria-label": _("tile {id}", { id: t.id }), onclick: () => { S.tile = t.id; chooseDefaults(); draw(); } },
          tileSvg(t, t.rotation || 0, 40, _("tile {id}", { id: t.id }))))) : null;
      const turnedText = rots.length > 1 ? el("span", { class: "muted" }, " " + _("turned {deg}°", { deg: S.rotation * 90 })) : null;
      if (!tile && k === "push") {
        return [el("div", { class: "tp-spare" },
          el("span", {}, _("No spare tile: the tile pushed out at the far end comes back in.") + " "),
          far ? tileSvg(far, S.rotation, 64, _("the tile that comes back in, turned {deg}°", { deg: S.rotation * 90 }))
            : el("span", { class: "muted" }, _("(point at an arrow to see it)") + " "),
          rotButtons, turnedText)];
      }
      return [handBox,
        tile ? el("div", { class: "tp-spare" },
          el("span", {}, (k === "push" ? _("Spare tile:") : _("Your tile:")) + " "),
          tileSvg(tile, S.rotation, 64, _("the tile to put in, turned {deg}°", { deg: S.rotation * 90 })),
          rotButtons, turnedText)
          : null];
    }

    function choicePrompt() {
      if (!S.choice) return null;
      const here = shown().filter((a) => a.x === S.choice.x && a.y === S.choice.y);
      const p = mine();
      const sides = { U: _("enter by the top side"), R: _("enter by the right side"),
        D: _("enter by the bottom side"), L: _("enter by the left side") };
      return el("div", { class: "tp-choices" }, _("Which way in?") + " ",
        here.map((a) => {
          const stay = p && p.x === a.x && p.y === a.y && p.side === a.side && p.index === a.index;
          const text = stay ? _("stay where you are")
            : sides[a.side] + (S.view.paths_on_tile_side > 1 ? ` (${a.side}${a.index})` : "");
          return el("button", { type: "button", class: "tp-choice", onclick: () => act(a) }, text);
        }),
        el("button", { type: "button", onclick: () => { S.choice = null; draw(); } }, _("cancel")));
    }

    function otherPrompt() {
      // an action kind this page has no picture for: the server's list, in its own words
      if (!S.turn || ["push", "move", "add", "exchange"].includes(kind())) return null;
      return el("div", {}, actions().map((a) => el("button", { type: "button",
        onclick: () => act(a) }, JSON.stringify(a))));
    }

    return { actions, kind, nameOf, boardSvg, tilePicker, choicePrompt, otherPrompt, rotate,
      chooseDefaults, refreshPicker };
  }

  window.HernaTilesBoard = { create };
})();

/* Play a tile game in the browser: one more client of the tile server, over /ws/tiles.
 *
 * The page speaks herna-tiles/1 (docs/protocols/tiles.md), one JSON message per WebSocket
 * frame, as a TCP bot does. The server is the only authority: `your_turn` lists every legal
 * action, and the page only highlights those (cells, push arrows, tile rotations) and sends
 * back the one clicked. The only thing computed here is how a tile looks turned by a number of
 * quarter turns (turned()); the tests compare it with the Python engine.
 *
 * The seat secret from `started` is kept in localStorage under the guest name, so a reload (or
 * a tab closed and opened again) within the server's reconnect window sends
 * {"type": "join", "name", "table", "secret"} and gets the same seat and state back.
 *
 * Tiles and pawns are drawn with the spectator renderer's pieces (static/games/tiles.js).
 */
"use strict";

(function () {
  const SIDES = "URDL";
  const SIDE_WORDS = { U: "top", R: "right", D: "bottom", L: "left" };
  const FROM = { right: "from the left", left: "from the right", down: "from the top",
                 up: "from the bottom" };
  const EXPLAIN = {
    push: "push a row or column: turn the tile that goes in (⟲ ⟳, or the R key), then click " +
      "an arrow at the edge of the board",
    move: "move your pawn: click a highlighted tile",
    moveAll: "every marker follows its path",
    add: "place a tile: pick one from your hand, turn it (⟲ ⟳, or R), then click a " +
      "highlighted cell",
    exchange: "exchange a tile: pick your tile, turn it (⟲ ⟳, or R), then click a " +
      "highlighted tile on the board",
  };
  const DOING = { push: "pushing a row or column", move: "moving", moveAll: "moving",
                  add: "placing a tile", exchange: "exchanging a tile" };

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

  // one formatter for goals on every page: the renderer's (static/games/tiles.js)
  function goalWords(text) {
    return window.HernaGames.tiles.parts.goalWords(text);
  }

  function itemWords(items) {
    return Object.entries(items || {}).map(([k, c]) => (c === 1 ? k : `${c} ${k}`)).join(", ");
  }

  window.HernaTilesRules = { turned, goalWords };

  /* -- the page ------------------------------------------------------------------------------ */

  function start(page) {
    const { el, svg } = window.Herna;
    const parts = window.HernaGames.tiles.parts;
    parts.addStyles();
    const root = document.getElementById("play");
    const form = document.getElementById("tp-setup");
    const rulesSelect = document.getElementById("tp-rules");
    const fileInput = document.getElementById("tp-file");
    const playersSelect = document.getElementById("tp-players");
    const levelSelect = document.getElementById("tp-level");
    const fillInput = document.getElementById("tp-fill");
    const levels = page.levels || [];
    const params = new URLSearchParams(location.search);
    let wish = params.get("seek"); // from the lobby page, or a tournament's page
    // A live tournament (seek tournament=ID): wait for each booked table, join again after
    // every game, until the server says the tournament is over.
    const tournament = wish && /(^|,)tournament=(\d+)/.test(wish) ? wish : null;
    const aboutNode = document.getElementById("tp-about");
    const problemsBox = document.getElementById("tp-problems");
    const statusNode = document.getElementById("play-status");
    const noteNode = document.getElementById("play-note");
    const clockNode = document.getElementById("tp-clock");
    const boardBox = document.getElementById("play-board");
    const promptBox = document.getElementById("play-prompt");
    const playersBox = document.getElementById("tp-players-box");
    const saidList = document.getElementById("play-moves");
    const me = page.guest;
    const storeKey = `herna.tiles.seat.${me}`;
    const examples = new Map((page.examples || []).map((x) => [x.name, x]));

    const S = {
      phase: "connecting", // connecting | setup | waiting | seated | game | over | gone
      table: null, seat: null, seats: [], rulesName: null, view: null,
      turn: null, pending: false, said: [], result: null, note: "",
      rotation: 0, tile: null, choice: null, aim: null, retries: 0, upload: null,
      standIn: false, deadline: null, late: false, confirming: false, lastJoin: null,
      gameClock: null, until: null, rematchFrom: null, rematching: false, noRematch: null,
    };
    const P = window.HernaPlayPage;
    let ws = null;
    let closedByUs = false;
    let focusKey = null;

    /* -- seat secret in localStorage ---------------------------------------------------- */
    function saved() {
      try {
        return JSON.parse(localStorage.getItem(storeKey) || "null");
      } catch (err) {
        return null;
      }
    }
    function save(seat) { localStorage.setItem(storeKey, JSON.stringify(seat)); }
    function forget() { localStorage.removeItem(storeKey); }

    function send(message) {
      if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
    }

    function withToken(message) {
      if (page.token) message.token = page.token;
      return message;
    }

    /* Connect (the server says welcome); or (`resume`: this tab waited at a table) take the
     * same connection back, which the server holds for a while after a reload
     * (play-page.js): it sends what the page had since it sat down. */
    function connect(resume) {
      ws = new WebSocket(P.socketUrl("tiles", resume));
      closedByUs = false;
      S.phase = "connecting";
      draw();
      ws.onmessage = (ev) => {
        let message;
        try {
          message = JSON.parse(String(ev.data));
        } catch (err) {
          return;
        }
        receive(message);
      };
      ws.onclose = (ev) => {
        ws = null;
        if (closedByUs || S.phase === "gone") return;
        if (ev.code === 4004) {
          gone("The tile server is not running in this hall.");
          return;
        }
        if (ev.code === P.NOTHING_TO_RESUME) {
          // Away longer than the server keeps a waiting seat: it was given up.
          P.waiting("tiles", null);
          S.note = "You were away too long, so your seat at the table was given up.";
          connect(false);
          return;
        }
        // A lost connection: come back (with the seat secret, when there is a game).
        const wait = Math.min(5000, 500 * 2 ** S.retries);
        S.retries += 1;
        S.note = `Connection lost; trying again in ${wait / 1000} s…`;
        draw();
        setTimeout(() => connect(Boolean(P.waiting("tiles"))), wait);
      };
    }

    function gone(text) {
      S.phase = "gone";
      S.note = text;
      draw();
    }

    /* -- what the server says ------------------------------------------------------------ */
    function receive(m) {
      switch (m.type) {
        case "welcome": {
          S.retries = 0;
          const seat = saved();
          if (seat && seat.table && seat.secret) {
            send(withToken({ type: "join", name: me, table: seat.table, secret: seat.secret,
                             id: "resume" }));
          } else if (tournament) {
            if (S.phase !== "over") S.phase = "waiting";
            send(withToken({ type: "join", name: me, kind: "human", seek: tournament, id: "sit" }));
          } else if (S.phase !== "over") {
            S.phase = "setup";
            if (wish && /(^|,)accept=/.test(wish)) {
              // from the lobby page: sit down at that open table (its rules come with it)
              send(withToken({ type: "join", name: me, kind: "human", seek: wish, id: "sit" }));
              wish = null;
            }
          }
          break;
        }
        case "joined":
          S.table = m.table;
          S.seat = m.seat;
          S.seats = m.seats || [];
          S.rulesName = m.rules_name;
          S.result = null;
          problemsBox.replaceChildren();
          if (m.resumed) {
            S.note = "Back at your seat.";
            S.said = ((saved() || {}).said || []).slice();
          } else {
            S.phase = "seated";
            S.said = [];
            S.view = null;
            S.rematching = false;
            S.rematchFrom = null;
            S.noRematch = null;
            seated(m);
          }
          break;
        case "waiting":
          if (S.phase !== "over") S.phase = "waiting";
          S.note = `Waiting for your next game of tournament ${m.tournament} (${m.rules_name}).`;
          break;
        case "table":
          S.seats = m.seats || S.seats;
          break;
        case "started":
          P.waiting("tiles", null);
          S.until = null;
          S.standIn = false;
          if (!m.said) S.gameClock = null; // a new game (not a return to the seat)
          S.table = m.table;
          S.seat = m.seat;
          S.seats = m.seats || S.seats;
          S.rulesName = m.rules_name;
          S.view = m.view;
          S.turn = null;
          S.phase = "game";
          // back at the seat: the server's story of the game so far, lines missed included
          if (Array.isArray(m.said)) S.said = m.said.slice(-200);
          if (m.secret) save({ table: m.table, secret: m.secret, said: S.said.slice(-200) });
          break;
        case "your_turn":
          S.view = m.view;
          // the turn clock (a repeated your_turn of the same turn keeps it running)
          if (!S.deadline && m.timeout > 0) {
            S.deadline = performance.now() + m.timeout * 1000;
            S.late = false;
          }
          S.turn = m;
          S.aim = null;
          S.pending = false;
          S.choice = null;
          chooseDefaults();
          break;
        case "state":
          if (m.view) S.view = m.view;
          if (m.last && m.last.player === S.seat) S.deadline = null; // this seat acted
          if (m.last) {
            S.turn = null;
            S.pending = false;
            S.choice = null;
            if (m.said) {
              S.said.push(m.said);
              const seat = saved();
              // the story so far survives a reload too
              if (seat && seat.table === S.table) save(Object.assign(seat, { said: S.said.slice(-200) }));
            }
          }
          break;
        case "clock":
          // [Herna extension] the game clock chosen for this table (seek word clock=)
          S.gameClock = { left: (m.left || []).map(Number), toAct: m.to_act, at: Date.now() };
          break;
        case "stand_in":
          // [Herna extension] the turn clock and the grace period ran out: a house bot plays
          // this seat until "back" (or any action) gives it back.
          S.standIn = Boolean(m.on);
          if (S.standIn) S.turn = null;
          S.deadline = null;
          S.note = S.standIn ? "A stand-in (house bot) plays for you." : "You are back at your seat.";
          break;
        case "rematch_offered":
          // [Herna extension] a rematch asked for by a player of the last table
          if (m.name === me) {
            S.note = `Waiting for ${(m.waiting_for || []).join(" and ")} to accept the rematch…`;
          } else {
            S.rematchFrom = m.name;
            S.note = "";
          }
          break;
        case "rematch_declined":
          S.rematchFrom = null;
          S.rematching = false;
          S.note = "";
          // said beside the buttons, where the person is looking, instead of Rematch
          S.noRematch = m.reason === "declined" ? `${m.name} does not want a rematch now.`
            : m.reason === "left" ? `${m.name} left, so there is no rematch.`
              : `${m.name} did not answer in time, so there is no rematch.`;
          break;
        case "game_over":
          S.deadline = null;
          if (S.gameClock) {
            const gc = S.gameClock; // stopped where it was
            gc.left[gc.toAct] = Math.max(0, gc.left[gc.toAct] - (Date.now() - gc.at) / 1000);
            gc.toAct = null;
          }
          S.view = m.view || S.view;
          S.result = m.result || {};
          S.turn = null;
          S.pending = false;
          S.phase = "over";
          forget();
          if (tournament) {
            send(withToken({ type: "join", name: me, kind: "human", seek: tournament, id: "sit" }));
          }
          break;
        case "error":
          onError(m);
          break;
        default:
          break;
      }
      draw();
    }

    /* Sitting at a table that waits for players: kept for a reload (this tab comes back to the
     * same connection) with when house bots fill the seats, counted down on the page. */
    function seated(m) {
      const kept = P.waiting("tiles");
      if (kept && kept.table === m.table) {
        S.until = kept.until;
        S.lastJoin = kept.lastJoin;
      } else {
        const join = S.lastJoin || {};
        S.until = join.seek ? P.fillDeadline(P.seekWords(join.seek)) : null;
      }
      P.waiting("tiles", { table: m.table, until: S.until, lastJoin: S.lastJoin });
    }

    /* Whether every other seat of the last table was a house bot's. */
    function botsOnly() {
      return S.seats.every((slot, i) => i === S.seat || (slot && slot.kind === "house-bot"));
    }

    function onError(m) {
      S.pending = false;
      if (m.id === "resume") {
        forget();
        S.phase = "setup";
        S.note = m.code === "NAME_TAKEN"
          ? "You are playing this game in another tab or window."
          : "Your last game is over; pick the next one.";
        return;
      }
      if (m.code === "BAD_RULES") {
        S.phase = "setup";
        showProblems(m.reason, m.problems || []);
        return;
      }
      if (tournament && ["TOURNAMENT_OVER", "NOT_VERIFIED", "NOT_ENTERED", "NO_SUCH_TOURNAMENT",
        "NOT_FOR_YOU", "WRONG_GAME", "RULES_MISMATCH"].includes(m.code)) {
        S.phase = S.phase === "over" ? "over" : "gone";
        S.note = m.code === "TOURNAMENT_OVER"
          ? "The tournament is over: its page has the standings."
          : `No tournament game: ${m.reason}`;
        closedByUs = true;
        return;
      }
      if (m.code === "NO_REMATCH") {
        S.rematching = false;
        if (S.lastJoin && botsOnly()) send(Object.assign({}, S.lastJoin)); // the same join again
        else S.note = "There is nobody here to play again.";
        return;
      }
      if (m.code === "SEEK_CANCELLED") {
        P.waiting("tiles", null);
        S.phase = "setup";
        S.note = "Your seek was cancelled in the lobby; the table is given up.";
        return;
      }
      if (["UNKNOWN_RULES", "BUSY", "NAME_TAKEN", "RESERVED_NAME", "BAD_TOKEN", "BAD_NAME",
           "BAD_MESSAGE", "BAD_SEEK", "NOT_FOR_YOU", "NO_SUCH_SEEK", "OWN_SEEK", "TABLE_FULL",
           "TABLE_STARTED"].includes(m.code) && S.phase === "setup") {
        showProblems(m.reason, []);
        return;
      }
      if (m.code === "TIME_UP") {
        S.deadline = performance.now() + m.grace * 1000;
        S.late = true;
        S.note = `Time is up: a stand-in plays your seat in ${m.grace} s unless you act now.`;
        return;
      }
      if (m.code === "NOT_STANDING_IN") {
        S.standIn = false;
        return;
      }
      if (m.code === "TIMEOUT") {
        S.note = "Time ran out: the server played a random legal action for you.";
        return;
      }
      S.note = `The server refused that (${m.code}): ${m.reason}`;
    }

    function showProblems(reason, problems) {
      problemsBox.replaceChildren(
        el("p", { class: "error" }, `The server refused the rules: ${reason}.`),
        problems.length
          ? el("ul", {}, problems.map((p) => el("li", { class: `tp-problem ${p.severity}` },
              el("code", {}, p.path), ": ", p.message,
              p.severity === "warning" ? " (warning)" : "")))
          : null);
    }

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
      focusKey = `cell-${x}-${y}`;
      if (!here.length) return;
      if (here.length === 1) act(here[0]);
      else { S.choice = { x, y }; draw(); }
    }

    /* -- drawing ---------------------------------------------------------------------------- */
    function nameOf(seat) {
      const s = S.seats[seat];
      return s ? s.name : `player ${seat + 1}`;
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
        role: "group", "aria-label": `the board, ${w} columns by ${h} rows`,
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
          class: "tp-next-goal", "data-x": x, "data-y": y }, svg("title", {}, `your next goal: ${goalWords(nextGoal())}`)));
      }
      // pawns, then the items' names over them: a pawn never hides a label
      const names = S.seats.map((s, i) => (s ? s.name : `player ${i + 1}`));
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
            "aria-label": legal ? `${DOING[kind()] || kind()}: column ${x}, row ${y}${what}` : null });
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
        label = `push row ${a.row} ${FROM[a.direction]}`;
      } else {
        cx = margin + a.column * size + size / 2;
        if (a.direction === "down") { cy = margin / 2; dy = 1; } else { cy = margin * 1.5 + h * size; dy = -1; }
        dx = 0;
        label = `push column ${a.column} ${FROM[a.direction]}`;
      }
      const s = margin * 0.45;
      const pts = [[cx + dx * s, cy + dy * s], [cx - dy * s * 0.9 - dx * s, cy + dx * s * 0.9 - dy * s],
                   [cx + dy * s * 0.9 - dx * s, cy - dx * s * 0.9 - dy * s]];
      const key = `push-${a.row !== undefined ? "r" + a.row : "c" + a.column}-${a.direction}`;
      const poly = svg("polygon", { points: pts.map((p) => p.join(",")).join(" "),
        class: "tp-arrow tp-target", tabindex: 0, role: "button", "aria-label": label,
        "data-key": key }, svg("title", {}, label));
      const go = () => { focusKey = key; act(a); };
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
      if (box) box.replaceChildren(...pickerParts());
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
        el("button", { type: "button", class: "tp-rotate", "aria-label": "turn the tile left",
          onclick: () => rotate(-1) }, "⟲"),
        el("button", { type: "button", class: "tp-rotate", "aria-label": "turn the tile right",
          onclick: () => rotate(1) }, "⟳"),
      ] : [];
      const handBox = handIds.size ? el("div", { class: "tp-hand" }, "Your hand: ",
        hand.filter((t) => handIds.has(t.id)).map((t) => el("button", {
          type: "button", class: "tp-hand-tile" + (t.id === S.tile ? " tp-picked" : ""),
          "aria-pressed": t.id === S.tile ? "true" : "false",
          "aria-label": `tile ${t.id}`, onclick: () => { S.tile = t.id; chooseDefaults(); draw(); } },
          tileSvg(t, t.rotation || 0, 40, `tile ${t.id}`)))) : null;
      const turnedText = rots.length > 1 ? el("span", { class: "muted" }, ` turned ${S.rotation * 90}°`) : null;
      if (!tile && k === "push") {
        return [el("div", { class: "tp-spare" },
          el("span", {}, "No spare tile: the tile pushed out at the far end comes back in. "),
          far ? tileSvg(far, S.rotation, 64, `the tile that comes back in, turned ${S.rotation} quarter turn(s)`)
            : el("span", { class: "muted" }, "(point at an arrow to see it) "),
          rotButtons, turnedText)];
      }
      return [handBox,
        tile ? el("div", { class: "tp-spare" },
          el("span", {}, k === "push" ? "Spare tile: " : "Your tile: "),
          tileSvg(tile, S.rotation, 64, `the tile to put in, turned ${S.rotation} quarter turn(s)`),
          rotButtons, turnedText)
          : null];
    }

    function choicePrompt() {
      if (!S.choice) return null;
      const here = shown().filter((a) => a.x === S.choice.x && a.y === S.choice.y);
      const p = mine();
      return el("div", { class: "tp-choices" }, "Which way in? ",
        here.map((a) => {
          const stay = p && p.x === a.x && p.y === a.y && p.side === a.side && p.index === a.index;
          const text = stay ? "stay where you are"
            : `enter by the ${SIDE_WORDS[a.side]} side` + (S.view.paths_on_tile_side > 1 ? ` (${a.side}${a.index})` : "");
          return el("button", { type: "button", class: "tp-choice", onclick: () => act(a) }, text);
        }),
        el("button", { type: "button", onclick: () => { S.choice = null; draw(); } }, "cancel"));
    }

    function otherPrompt() {
      // an action kind this page has no picture for: the server's list, in its own words
      if (!S.turn || ["push", "move", "add", "exchange"].includes(kind())) return null;
      return el("div", {}, actions().map((a) => el("button", { type: "button",
        onclick: () => act(a) }, JSON.stringify(a))));
    }

    function resultText() {
      const r = S.result || {};
      if (r.reason === "you resigned") return "You resigned. The game goes on without you.";
      if (r.reason === "you ran out of time") {
        return "You ran out of time. The game goes on without you.";
      }
      if (r.reason === "the other player ran out of time" && !(r.winners || []).includes(S.seat)) {
        return `You ran out of time. ${(r.winner_names || []).join(" and ")} won.`;
      }
      if (r.reason === "the other player resigned" && !(r.winners || []).includes(S.seat)) {
        return `You resigned. ${(r.winner_names || []).join(" and ")} won.`;
      }
      const winners = r.winners || [];
      const names = r.winner_names || winners.map(nameOf);
      const reason = r.reason ? ` (${r.reason})` : "";
      if (!winners.length) return `Game over: nobody won${reason}.`;
      if (winners.includes(S.seat)) {
        const others = names.filter((n) => n !== me);
        if (!others.length) return `You won${reason}.`;
        return `A draw: you share the win with ${others.join(", ")}${reason}.`;
      }
      return `You lost. ${names.join(" and ")} won${reason}.`;
    }

    function statusText() {
      const v = S.view;
      switch (S.phase) {
        case "connecting": return "Connecting…";
        case "setup": return "Pick a game and sit down.";
        case "waiting": return S.note || "Waiting for your tournament game…";
        case "seated": {
          const empty = S.seats.filter((s) => !s).length;
          const left = S.until ? Math.ceil((S.until - Date.now()) / 1000) : 0;
          const fill = left > 0 ? ` If nobody comes, house bots take the free seats in ${left} s.`
            : S.until ? " Nobody came: house bots are sitting down…" : "";
          return `At table ${S.table} (${S.rulesName}), waiting for ${empty} more player(s)…${fill}`;
        }
        case "over": return resultText();
        case "gone": return S.note;
        default: break;
      }
      if (!v) return "…";
      const t = v.turn || {};
      const roll = t.roll !== null && t.roll !== undefined ? ` You rolled ${t.roll}.` : "";
      if (S.turn) {
        const after = S.turn.grace !== undefined
          ? `${S.turn.grace} s more, then a stand-in plays for you` : "a random legal action is played";
        const clock = S.turn.timeout > 0 ? ` (${S.turn.timeout} s to act, then ${after})` : "";
        return `Your turn ${t.number || ""}: ${EXPLAIN[kind()] || kind()}.${kind() === "move" ? roll : ""}${clock}`;
      }
      if (S.pending) return "Sent; waiting for the server…";
      const who = t.to_act !== undefined && t.to_act !== null ? nameOf(t.to_act) : "…";
      return `${who} is ${DOING[t.action] || "playing"}…`;
    }

    function playersPanel() {
      const v = S.view;
      if (!v) {
        return S.seats.length ? el("ul", { class: "tp-seats" }, S.seats.map((s, i) =>
          el("li", {}, s ? `${s.name}${i === S.seat ? " (you)" : ""}` : "an empty seat"))) : null;
      }
      const toAct = (v.turn || {}).to_act;
      return el("div", { class: "tp-players" }, el("h2", {}, "Players"),
        (v.players || []).map((p) => {
          const slot = S.seats[p.seat] || {};
          const you = p.seat === S.seat;
          const bits = [];
          if (slot.kind === "house-bot") bits.push("house bot");
          if (slot.away) bits.push("connection lost, seat waiting");
          if (p.eliminated) bits.push("eliminated");
          if (p.skip) bits.push(`misses ${p.skip} turn(s)`);
          const held = itemWords(p.items);
          const goals = (p.goals || []).map((g, i) => {
            const next = !g.done && i === (p.goals_done || 0) && !p.eliminated;
            return el("li", { class: "tp-goal" + (g.done ? " done" : "") + (next ? " tp-goal-next" : "") },
              g.done ? "✓ " : next ? "▶ next: " : "", g.hidden ? "a secret goal" : goalWords(g.goal));
          });
          return el("div", { class: "tp-player tiles-player" + (p.seat === toAct ? " to-act" : "") + (p.eliminated ? " out" : ""),
            style: `border-color: ${parts.COLOURS[p.seat % parts.COLOURS.length]}`,
            dataset: { seat: p.seat } },
            el("div", {}, p.seat === toAct ? "▶ " : "", el("b", {}, `${p.seat + 1} ${nameOf(p.seat)}`),
              you ? " (you)" : "", bits.length ? ` — ${bits.join(", ")}` : ""),
            el("div", { class: "muted" }, `holds ${held || "nothing"}` +
              (p.hand_count ? `; ${p.hand_count} tile(s) in hand` : "") +
              ((p.goals || []).length ? `; goals done: ${p.goals_done || 0} of ${p.goals.length}` : "")),
            goals.length ? el("ul", { class: "tp-goals" }, goals) : null);
        }));
    }

    function draw() {
      root.dataset.phase = S.phase;
      root.dataset.myTurn = S.turn && !S.pending ? "1" : "0";
      root.dataset.action = S.turn ? kind() : "";
      form.hidden = S.phase !== "setup";
      statusNode.textContent = statusText();
      noteNode.textContent = S.phase === "gone" ? "" : S.note;
      let clockNode = document.getElementById("tp-game-clock");
      if (!clockNode) {
        clockNode = el("p", { class: "play-clock", id: "tp-game-clock", "aria-live": "off" });
        noteNode.after(clockNode);
      }
      clockNode.textContent = gameClockText();
      const hadFocus = document.activeElement && document.activeElement.dataset
        ? document.activeElement.dataset.key || null : null;
      if (S.view && ["game", "over"].includes(S.phase)) {
        boardBox.replaceChildren(boardSvg());
        const bits = [];
        if (S.phase === "over") {
          bits.push(el("p", { class: "play-result-text", id: "play-result" }, resultText()));
          const details = (S.result || {}).details || {};
          if (Array.isArray(details.scores)) {
            // rules with scoring: everyone's score, best first
            const rows = details.scores.map((v, i) => [i, v]).filter(([, v]) => v !== null)
              .sort((a, b) => b[1] - a[1]);
            bits.push(el("p", { id: "play-scores" }, "Scores: ",
              rows.map(([i, v]) => `${i === S.seat ? "you" : nameOf(i)} ${v}`).join(", "), "."));
          }
          if (!tournament) {
            // Rematch: the same rules and players at a new table (people must accept; house
            // bots of the same level take the other seats); Play again: the setup form.
            const after = el("p", { class: "play-after" });
            if (S.rematchFrom) {
              bits.push(el("p", { class: "play-offer", id: "play-rematch-offer" },
                `${S.rematchFrom} wants a rematch. `,
                el("button", { type: "button", id: "play-rematch-accept", onclick: askRematch },
                  "Accept the rematch"),
                el("button", { type: "button", id: "play-rematch-decline", onclick: () => {
                  S.rematchFrom = null; send({ type: "decline_rematch" }); draw();
                } }, "Decline")));
            } else if (S.noRematch) {
              bits.push(el("p", { class: "play-offer", id: "play-rematch-declined" }, S.noRematch));
            } else if (!S.rematching) {
              after.append(el("button", { type: "button", id: "play-rematch", onclick: askRematch },
                botsOnly() ? "Rematch (same rules, same house bots)"
                  : "Rematch (same rules, same players)"));
            }
            after.append(el("button", { type: "button", id: "play-next", onclick: () => {
              if (S.rematching || S.rematchFrom) send({ type: "decline_rematch" });
              S.rematching = false; S.rematchFrom = null; S.noRematch = null;
              S.phase = "setup"; S.view = null; S.result = null; S.said = []; S.note = ""; draw();
            } }, "Play again"));
            bits.push(after);
          }
        } else if (S.standIn) {
          bits.push(el("button", { type: "button", id: "tp-back", onclick: () => send({ type: "back" }) },
            "Back to my seat"));
        } else if (S.turn && !S.pending) {
          bits.push(tilePicker(), choicePrompt(), otherPrompt());
        }
        if (S.phase === "game" && !tournament) bits.push(resignNode());
        promptBox.replaceChildren(...bits.filter(Boolean));
        showResultOnce(promptBox, S.phase === "over");
      } else {
        boardBox.replaceChildren();
        promptBox.replaceChildren(S.phase === "seated" ? el("button", { type: "button", id: "tp-start",
          onclick: () => send({ type: "start" }) }, "Start now (house bots take the empty seats)") : "");
      }
      const panel = playersPanel();
      playersBox.replaceChildren(...(panel ? [panel] : []));
      saidList.replaceChildren(...S.said.map((line) => el("li", {}, line)));
      saidList.scrollTop = saidList.scrollHeight;
      const want = focusKey || hadFocus;
      if (want && S.turn && !S.pending) {
        const target = boardBox.querySelector(`[data-key="${want}"][tabindex="0"]`) ||
          boardBox.querySelector('[tabindex="0"]');
        if (target) target.focus();
      }
    }

    function askRematch() {
      S.rematching = true;
      S.rematchFrom = null;
      S.note = "Asking for a rematch…";
      send({ type: "rematch" });
      draw();
    }

    /* When a game ends, what to do next (Rematch, Play again) comes into view once: below
     * the board it sat under the fold at 1280x800. */
    let resultShown = false;
    function showResultOnce(box, over) {
      if (!over) { resultShown = false; return; }
      if (resultShown) return;
      resultShown = true;
      const next = box.querySelector(".play-after") || box.querySelector("#play-result");
      if (next) next.scrollIntoView({ block: "nearest" });
    }

    /* Resign (with a confirm): the server takes the seat out of the game. */
    function resignNode() {
      if (S.confirming) {
        return el("div", { class: "play-confirm", id: "play-resign-confirm" },
          el("span", {}, "Resign this game? You lose it. "),
          el("button", { type: "button", id: "play-resign-yes", onclick: () => {
            S.confirming = false; send({ type: "resign" }); draw();
          } }, "Yes, resign"),
          el("button", { type: "button", id: "play-resign-no", onclick: () => {
            S.confirming = false; draw();
          } }, "No, play on"));
      }
      return el("p", { class: "play-game-buttons" },
        el("button", { type: "button", id: "play-resign", onclick: () => {
          S.confirming = true; draw();
        } }, "Resign"));
    }

    /* -- setup form ------------------------------------------------------------------------ */
    function source() { return form.querySelector('input[name="source"]:checked').value; }
    function fillPlayers(count) {
      const keep = Number(playersSelect.value) || count;
      playersSelect.replaceChildren(...Array.from({ length: Math.max(0, count - 1) }, (_, i) => {
        const k = i + 2;
        return el("option", { value: k, selected: k === Math.min(keep, count) }, `${k} (you and ${k - 1} other${k > 2 ? "s" : ""})`);
      }));
      playersSelect.disabled = count < 2;
    }
    function describeChoice() {
      if (source() === "upload") {
        const data = S.upload;
        aboutNode.textContent = data && Array.isArray(data.players)
          ? `Your file: ${data.players.length} player(s).` : "";
        fillPlayers(data && Array.isArray(data.players) ? data.players.length : 0);
        return;
      }
      const x = examples.get(rulesSelect.value);
      if (!x) return;
      aboutNode.textContent = `${x.about}. Each turn: ${x.turn.join(", then ")}.`;
      fillPlayers(x.players);
    }
    rulesSelect.addEventListener("change", () => {
      form.querySelector('input[value="example"]').checked = true;
      playersSelect.value = "";
      describeChoice();
    });
    fileInput.addEventListener("change", async () => {
      form.querySelector('input[value="upload"]').checked = true;
      problemsBox.replaceChildren();
      S.upload = null;
      const file = fileInput.files && fileInput.files[0];
      if (file) {
        try {
          S.upload = JSON.parse(await file.text());
        } catch (err) {
          showProblems(`the file is not JSON (${err.message})`, []);
        }
      }
      playersSelect.value = "";
      describeChoice();
    });
    form.addEventListener("change", (ev) => { if (ev.target.name === "source") describeChoice(); });
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      problemsBox.replaceChildren();
      const wanted = Number(playersSelect.value);
      let rules;
      let full;
      if (source() === "upload") {
        if (!S.upload) {
          showProblems("choose a rules file first", []);
          return;
        }
        rules = S.upload;
        full = Array.isArray(rules.players) ? rules.players.length : 0;
      } else {
        const x = examples.get(rulesSelect.value);
        rules = x.name;
        full = x.players;
      }
      if (wanted && wanted < full) {
        // Fewer players than the file seats: the same rules with the first players only
        // (sent as a rules object, checked by the server like any other).
        const data = typeof rules === "string" ? examples.get(rules).data : rules;
        rules = Object.assign({}, data, { players: data.players.slice(0, wanted) });
      }
      S.lastJoin = withToken({ type: "join", name: me, rules, kind: "human", seek: seekWords(),
        id: "sit" });
      send(S.lastJoin);
    });

    /* The hall lobby's seek for the table this person opens (docs/protocols/tiles.md, "The
     * lobby"): house bots of a level at once, anyone with a fill wait, or people only. */
    function seekWords() {
      if (wish && /(^|,)challenge=/.test(wish)) return wish; // a challenge from the lobby page
      const who = form.querySelector('input[name="who"]:checked').value;
      const level = `level=${levelSelect.value}`; // the house bots that take free seats
      if (who === "bots") return `person,opponent=bots,${level}${clockWord()}`;
      if (who === "people") return `person,opponent=people,${level}${clockWord()}`;
      const fill = Math.max(0, Math.min(3600, Number(fillInput.value) || 0));
      return `person,opponent=anyone,fill=${fill},${level}${clockWord()}`;
    }

    /* The time control of the table this person opens: the server's turn clock, or a game
     * clock with an increment (seek word clock=MINUTES+SECONDS). */
    const clockChoice = el("select", { id: "tp-clock-choice", name: "clock" },
      el("option", { value: "" }, page.turn_timeout > 0 ? `${page.turn_timeout} s a turn`
        : "No clock"),
      (page.clocks || []).map((c) => {
        const [m, inc] = c.split("+");
        return el("option", { value: c }, `${m} min + ${inc || 0} s a turn (${c})`);
      }));
    form.querySelector("#tp-sit").before(
      el("fieldset", {}, el("legend", {}, "Clock"), el("label", {}, "Time: ", clockChoice)));
    function clockWord() { return clockChoice.value ? `,clock=${clockChoice.value}` : ""; }

    /* Every seat's game clock, the one acting counting down between "clock" messages. */
    function gameClockText() {
      const gc = S.gameClock;
      if (!gc || !["game", "over"].includes(S.phase)) return "";
      return "Clock: " + gc.left.map((t, i) => {
        const left = i === gc.toAct ? Math.max(0, t - (Date.now() - gc.at) / 1000) : t;
        const s = Math.ceil(left);
        return `${i === S.seat ? "you" : nameOf(i)} ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
      }).join(" · ");
    }
    setInterval(() => {
      const node = document.getElementById("tp-game-clock");
      if (node) node.textContent = gameClockText();
    }, 250);

    /* A seek from the lobby page presets the choices; the person still picks the rules. */
    function preset(words) {
      const spec = Object.fromEntries(words.split(",").map((w) => w.split("=")));
      const who = { bots: "bots", people: "people", anyone: "anyone" }[spec.opponent] || "anyone";
      form.querySelector(`input[name="who"][value="${who}"]`).checked = true;
      if (spec.level && levels.includes(spec.level)) levelSelect.value = spec.level;
      if (spec.fill !== undefined) fillInput.value = String(Number(spec.fill) || 0);
    }
    if (wish && !/(^|,)(accept|challenge|tournament)=/.test(wish)) preset(wish);
    const challenged = wish && /(^|,)challenge=([^,]+)/.exec(wish);
    if (challenged) S.note = `You challenge ${challenged[2]}: pick the rules and sit down.`;
    describeChoice();

    document.addEventListener("keydown", (ev) => {
      if (ev.target && ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
      if ((ev.key === "r" || ev.key === "R") && S.turn && !S.pending) {
        focusKey = document.activeElement && document.activeElement.dataset
          ? document.activeElement.dataset.key || null : null;
        rotate(ev.key === "R" ? -1 : 1);
      }
    });

    /* The clock of this seat's turn (then of the grace period), counted down on the page. */
    function tick() {
      if (S.phase === "seated" && S.until) statusNode.textContent = statusText(); // the countdown
      const left = S.deadline ? Math.max(0, Math.ceil((S.deadline - performance.now()) / 1000)) : null;
      clockNode.hidden = left === null;
      if (left === null) {
        delete clockNode.dataset.left;
        return;
      }
      clockNode.dataset.left = String(left);
      clockNode.dataset.late = S.late ? "1" : "0";
      clockNode.classList.toggle("tp-clock-late", Boolean(S.late));
      clockNode.textContent = S.late
        ? `Time is up: a stand-in plays for you in ${left} s unless you act now.`
        : `${left} s left to act.`;
    }
    setInterval(tick, 250);

    window.HernaTilesPlay = { state: S, send, turned };
    connect(Boolean(P.waiting("tiles"))); // a reload while waiting: the same seat and seek
  }

  document.addEventListener("DOMContentLoaded", () => {
    const block = document.getElementById("herna-page");
    const page = block ? JSON.parse(block.textContent) : {};
    if (page.kind === "play" && page.game === "tiles" && page.running) start(page);
  });
})();

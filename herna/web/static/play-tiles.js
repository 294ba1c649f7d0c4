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
 * The page is three scripts: this one (the connection, the protocol, the state, the status,
 * players and result panels), play-tiles-board.js (the board and the choices on it, drawn with
 * the spectator renderer's pieces, static/games/tiles.js) and play-tiles-setup.js (the setup
 * form); play-page.js is shared with the Onitama page.
 *
 * While the person waits at a table that has not started, a reload keeps the seat and the
 * seek (the tab's socket is held by the web hall for a while, play-page.js). After a game,
 * Rematch asks the server for the same rules and players again ({"type": "rematch"}): the
 * other people at the table see the offer and accept or decline it.
 */
"use strict";

(function () {
  const { turned, goalWords, itemWords, doing } = window.HernaTilesRules;

  function start(page) {
    const { el, svg } = window.Herna;
    const _ = window.Herna._; // the page's language (static/hall.js)
    const ngettext = window.Herna.ngettext;
    const EXPLAIN = {
      push: _("push a row or column: turn the tile that goes in (⟲ ⟳, or the R key), then click an arrow at the edge of the board"),
      move: _("move your pawn: click a highlighted tile"),
      moveAll: _("every marker follows its path"),
      add: _("place a tile: pick one from your hand, turn it (⟲ ⟳, or R), then click a highlighted cell"),
      exchange: _("exchange a tile: pick your tile, turn it (⟲ ⟳, or R), then click a highlighted tile on the board"),
    };
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
      focusKey: null,
    };
    const P = window.HernaPlayPage;
    // The board and the choices on it: static/play-tiles-board.js.
    const { kind, nameOf, boardSvg, tilePicker, choicePrompt, otherPrompt, rotate,
      chooseDefaults } = window.HernaTilesBoard.create({ S, send, draw });
    let ws = null;
    let closedByUs = false;
    // A join asked for while there was no open socket (the server closes one that has not
    // joined a table within its login timeout, while the person reads the form): sent on the
    // next welcome.
    let queued = null;
    let idle = false; // the server closed the socket for its login timeout: connect when needed
    // This socket took a held connection back (a reload while waiting): its welcome is a replay
    // and the lobby's join was sent already, so it is not sent again.
    let resumed = false;

    const { saved, save, forget } = P.seatStore(storeKey); // the seat secret

    function send(message) {
      if (ws && ws.readyState === WebSocket.OPEN) {
        ws.send(JSON.stringify(message));
      } else if (message.type === "join") {
        queued = message;
        if (!ws) connect(false);
      }
    }

    /* Every join: the proof of a signed-in name, and the page's language, in which the
     * server tells the story of the game ("said"; a Herna extension of the protocol). */
    function withToken(message) {
      if (page.token) message.token = page.token;
      message.lang = String(document.documentElement.lang || "en").toLowerCase().startsWith("cs") ? "cs" : "en";
      return message;
    }

    /* Connect (the server says welcome); or (`resume`: this tab waited at a table) take the
     * same connection back, which the server holds for a while after a reload
     * (play-page.js): it sends what the page had since it sat down. */
    function connect(resume) {
      const socket = new WebSocket(P.socketUrl("tiles", resume));
      ws = socket;
      resumed = Boolean(resume);
      closedByUs = false;
      idle = false;
      if (!queued) S.phase = "connecting";
      draw();
      // Only this page's current socket speaks for it: a socket left on purpose may close
      // after the next one opened, and must not end it.
      socket.onmessage = (ev) => {
        if (ws !== socket) return;
        let message;
        try {
          message = JSON.parse(String(ev.data));
        } catch (err) {
          return;
        }
        receive(message);
      };
      socket.onclose = (ev) => {
        if (ws !== socket) return;
        ws = null;
        if (closedByUs || S.phase === "gone") return;
        if (idle) {
          // Closed for sitting at no table within the server's login timeout: nothing is
          // lost; the next Sit down (or Play again) connects again.
          draw();
          return;
        }
        if (ev.code === 4004) {
          gone(_("The tile server is not running in this hall."));
          return;
        }
        if (ev.code === P.NOTHING_TO_RESUME) {
          // Away longer than the server keeps a waiting seat: it was given up.
          P.waiting("tiles", null);
          S.note = _("You were away too long, so your seat at the table was given up.");
          connect(false);
          return;
        }
        // A lost connection: come back (with the seat secret, when there is a game).
        const wait = Math.min(5000, 500 * 2 ** S.retries);
        S.retries += 1;
        S.note = _("Connection lost; trying again in {s} s…", { s: (wait / 1000).toLocaleString(document.documentElement.lang || "en") });
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
          if (S.retries) S.note = ""; // "Connection lost…" is over
          S.retries = 0;
          const seat = saved();
          if (queued) {
            const join = queued;
            queued = null;
            send(join);
            break;
          }
          if (seat && seat.table && seat.secret) {
            send(withToken({ type: "join", name: me, table: seat.table, secret: seat.secret,
                             id: "resume" }));
          } else if (tournament) {
            if (S.phase !== "over") S.phase = "waiting";
            send(withToken({ type: "join", name: me, kind: "human", seek: tournament, id: "sit" }));
          } else if (S.phase !== "over") {
            S.phase = "setup";
            if (resumed) {
              wish = null;
            } else if (wish && /(^|,)accept=/.test(wish)) {
              // from the lobby page: sit down at that open table (its rules come with it)
              send(withToken({ type: "join", name: me, kind: "human", seek: wish, id: "sit" }));
              wish = null;
            } else if (wish && setup.lobbyTable) {
              // a seek or challenge from the lobby page, with its rules: the form's join
              S.phase = "connecting";
              form.requestSubmit();
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
            S.note = _("Back at your seat.");
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
          S.note = _("Waiting for your next game of tournament {n} ({rules}).", { n: m.tournament, rules: rulesTitle(m.rules_name) });
          break;
        case "table":
          S.seats = m.seats || S.seats;
          break;
        case "started":
          P.waiting("tiles", null);
          // The lobby's seek is answered: a reload after the game must not open it again.
          if (params.has("seek") && !tournament) history.replaceState(null, "", location.pathname);
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
          S.note = S.standIn ? _("A stand-in (house bot) plays for you.") : _("You are back at your seat.");
          break;
        case "rematch_offered":
          // [Herna extension] a rematch asked for by a player of the last table
          if (m.name === me) {
            S.note = _("Waiting for {names} to accept the rematch…", { names: (m.waiting_for || []).join(", ") });
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
          S.noRematch = m.reason === "declined" ? _("{name} does not want a rematch now.", { name: m.name })
            : m.reason === "left" ? _("{name} left the table, so there is no rematch.", { name: m.name })
              : _("{name} did not answer in time, so there is no rematch.", { name: m.name });
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
      drawSoon();
    }

    const drawSoon = window.Herna.drawSoon(() => draw()); // frames arriving together: one draw

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
      if (m.id === "resume" && m.code === "NAME_TAKEN") {
        // This guest plays at that seat in another tab: the seat and its secret stay there.
        closedByUs = true;
        if (ws) ws.close(P.LEAVING);
        gone(_("This seat was taken over by another tab or window; play on there."));
        return;
      }
      if (m.code === "LOGIN_TIMEOUT") {
        idle = true;
        return;
      }
      if (m.id === "resume") {
        forget();
        S.phase = "setup";
        S.note = m.code === "NAME_TAKEN"
          ? _("You are playing this game in another tab or window.")
          : _("Your last game is over; pick the next one.");
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
          ? _("The tournament is over: its page has the standings.")
          : _("No tournament game: {why}", { why: m.reason });
        closedByUs = true;
        return;
      }
      if (m.code === "NO_REMATCH") {
        S.rematching = false;
        if (S.lastJoin && botsOnly()) send(Object.assign({}, S.lastJoin)); // the same join again
        else S.note = _("There is nobody here to play again.");
        return;
      }
      if (m.code === "SEEK_CANCELLED") {
        P.waiting("tiles", null);
        S.phase = "setup";
        S.note = _("Your seek was cancelled in the lobby; the table is given up.");
        return;
      }
      if (["UNKNOWN_RULES", "BUSY", "NAME_TAKEN", "RESERVED_NAME", "BAD_TOKEN", "BAD_NAME",
           "BAD_MESSAGE", "BAD_SEEK", "NOT_FOR_YOU", "NO_SUCH_SEEK", "OWN_SEEK", "TABLE_FULL",
           "TABLE_STARTED"].includes(m.code) && ["setup", "connecting"].includes(S.phase)) {
        S.phase = "setup";
        if (m.code === "NAME_TAKEN") {
          showProblems(null, [], _("You are playing as {name} in another tab or window; play on there, or close it and sit down here.", { name: me }));
        } else {
          showProblems(m.reason, [], _("The server refused that: {why}.", { why: m.reason }));
        }
        return;
      }
      if (m.code === "TIME_UP") {
        S.deadline = performance.now() + m.grace * 1000;
        S.late = true;
        S.note = _("Time is up: a stand-in plays your seat in {n} s unless you act now.", { n: m.grace });
        return;
      }
      if (m.code === "NOT_STANDING_IN") {
        S.standIn = false;
        return;
      }
      if (m.code === "TIMEOUT") {
        S.note = _("Time ran out: the server played a random legal action for you.");
        return;
      }
      S.note = _("The server refused that: {why}.", { why: m.reason });
    }

    function showProblems(reason, problems, words) {
      problemsBox.replaceChildren(
        el("p", { class: "error" }, words || _("The server refused the rules: {why}.", { why: reason })),
        problems.length
          ? el("ul", {}, problems.map((p) => el("li", { class: `tp-problem ${p.severity}` },
              el("code", {}, p.path), ": ", p.message,
              p.severity === "warning" ? " " + _("(warning)") : "")))
          : null);
    }

    function resultText() {
      const r = S.result || {};
      if (r.reason === "you resigned") return _("You resigned. The game goes on without you.");
      if (r.reason === "you ran out of time") {
        return _("You ran out of time. The game goes on without you.");
      }
      const won = (r.winner_names || []).join(", ");
      if (r.reason === "the other player ran out of time" && !(r.winners || []).includes(S.seat)) {
        return _("You ran out of time. {names} won.", { names: won });
      }
      if (r.reason === "the other player resigned" && !(r.winners || []).includes(S.seat)) {
        return _("You resigned. {names} won.", { names: won });
      }
      const winners = r.winners || [];
      const names = r.winner_names || winners.map(nameOf);
      const why = winners.length > 1 ? drawWhy(r.reason) : null;
      const reason = r.reason && !why ? ` (${parts.endWords(r.reason)})` : "";
      const after = why ? ` ${why}` : "";
      if (!winners.length) return _("Game over: nobody won{reason}.", { reason });
      if (winners.includes(S.seat)) {
        const others = names.filter((n) => n !== me);
        if (!others.length) return _("You won{reason}.", { reason });
        // (Czech names the others after "s", which needs "hráčem" or "hráči": a count.)
        return ngettext("A draw: you share the win with {names}{reason}.",
          "A draw: you share the win with {names}{reason}.", others.length,
          { names: others.join(", "), reason }) + after;
      }
      return _("You lost. {names} won{reason}.", { names: names.join(", "), reason }) + after;
    }

    /* Why a game that stopped without progress, or at Herna's round limit, is a draw among
     * everyone still in, even when one of them has far more points or goals (the rules
     * reference, "The end", rules 4 and 5): points count only when an end_of_game_conditions
     * entry ends the game. */
    function drawWhy(reason) {
      if (reason === "no progress for a full round") {
        return _("For a whole round nobody placed, pushed or exchanged a tile and nobody moved, so the game stopped: a stalled game is a draw among the players still in, whatever the score.");
      }
      let m = /^no progress for (\d+) full rounds$/.exec(reason || "");
      if (m) {
        return _("For {n} whole rounds nobody placed, pushed or exchanged a tile and nobody moved, so the game stopped: a stalled game is a draw among the players still in, whatever the score.", { n: m[1] });
      }
      m = /^round limit \((\d+) rounds\)$/.exec(reason || "");
      if (m) {
        return _("The game reached Herna's limit of {n} rounds: it is a draw among the players still in, whatever the score.", { n: m[1] });
      }
      return null;
    }

    /* A rules file's name as people read it ("gold_rush": "Gold rush", "Zlatá horečka" on a
     * Czech page, as rules_title says; static/games/tiles.js's RULES_TITLES). */
    function rulesTitle(name) {
      if (!name || name === "custom") return _("Your own rules");
      return window.HernaGames.tiles.parts.rulesTitle(name);
    }

    function statusText() {
      const v = S.view;
      switch (S.phase) {
        case "connecting": return _("Connecting…");
        case "setup": return _("Pick a game and sit down.");
        case "waiting": return S.note || _("Waiting for your tournament game…");
        case "seated": {
          const empty = S.seats.filter((s) => !s).length;
          const left = S.until ? Math.ceil((S.until - Date.now()) / 1000) : 0;
          const fill = left > 0 ? " " + _("If nobody comes, house bots take the free seats in {n} s.", { n: left })
            : S.until ? " " + _("Nobody came: house bots are sitting down…") : "";
          return _("{rules}: waiting for more players (empty seats: {n})…", { rules: rulesTitle(S.rulesName), n: empty }) + fill;
        }
        case "over": return resultText();
        case "gone": return S.note;
        default: break;
      }
      if (!v) return "…";
      const t = v.turn || {};
      const roll = t.roll !== null && t.roll !== undefined ? " " + _("You rolled {n}.", { n: t.roll }) : "";
      if (S.turn) {
        const secs = Math.ceil(S.turn.timeout);
        const clock = !(S.turn.timeout > 0) ? ""
          : " " + (S.turn.grace !== undefined
            ? _("({n} s to act, then {grace} s more, then a stand-in plays for you)", { n: secs, grace: S.turn.grace })
            : _("({n} s to act, then a random legal action is played)", { n: secs }));
        return _("Your turn {n}: {what}.", { n: t.number || "", what: EXPLAIN[kind()] || kind() }) +
          (kind() === "move" ? roll : "") + clock;
      }
      if (S.pending) return _("Sent; waiting for the server…");
      const who = t.to_act !== undefined && t.to_act !== null ? nameOf(t.to_act) : "…";
      return _("{name}: {doing}…", { name: who, doing: doing(t.action) });
    }

    function playersPanel() {
      const v = S.view;
      if (!v) {
        return S.seats.length ? el("ul", { class: "tp-seats" }, S.seats.map((s, i) =>
          el("li", {}, s ? (i === S.seat ? _("{name} (you)", { name: s.name }) : s.name) : _("an empty seat")))) : null;
      }
      const toAct = (v.turn || {}).to_act;
      return el("div", { class: "tp-players" }, el("h2", {}, _("Players")),
        (v.players || []).map((p) => {
          const slot = S.seats[p.seat] || {};
          const you = p.seat === S.seat;
          const bits = [];
          if (slot.kind === "house-bot") bits.push(_("house bot"));
          if (slot.away) bits.push(_("connection lost, seat waiting"));
          if (p.eliminated) bits.push(_("eliminated"));
          if (p.skip) bits.push(_("turns to miss: {n}", { n: p.skip }));
          const held = itemWords(p.items);
          const goals = (p.goals || []).map((g, i) => {
            const next = !g.done && i === (p.goals_done || 0) && !p.eliminated;
            return el("li", { class: "tp-goal" + (g.done ? " done" : "") + (next ? " tp-goal-next" : "") },
              g.done ? "✓ " : next ? "▶ " + _("next:") + " " : "", goalWords(g.hidden ? null : g.goal));
          });
          return el("div", { class: "tp-player tiles-player" + (p.seat === toAct ? " to-act" : "") + (p.eliminated ? " out" : ""),
            style: `border-color: ${parts.COLOURS[p.seat % parts.COLOURS.length]}`,
            dataset: { seat: p.seat } },
            el("div", {}, p.seat === toAct ? "▶ " : "", el("b", {}, `${p.seat + 1} ${nameOf(p.seat)}`),
              you ? " " + _("(you)") : "", bits.length ? ` — ${bits.join(", ")}` : ""),
            el("div", { class: "muted" }, (held ? _("holds: {items}", { items: held }) : _("holds nothing")) +
              (p.hand_count ? "; " + _("tiles in hand: {n}", { n: p.hand_count }) : "") +
              ((p.goals || []).length ? "; " + _("goals done: {n} of {all}", { n: p.goals_done || 0, all: p.goals.length }) : "")),
            goals.length ? el("ul", { class: "tp-goals" }, goals) : null);
        }),
        // what the banks hold (rules with scoring count it)
        ((banks) => (banks.length ? el("ul", { class: "tiles-banks", id: "tp-banks" },
          banks.map((b) => el("li", {}, b))) : null))(parts.bankWords(v)));
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
            bits.push(el("p", { id: "play-scores" }, _("Scores:") + " ",
              rows.map(([i, v]) => (i === S.seat ? _("you") : nameOf(i)) + ` ${v}`).join(", "), "."));
          }
          if (!tournament) {
            // Rematch: the same rules and players at a new table (people must accept; house
            // bots of the same level take the other seats); Play again: the same choices at
            // once; Choose other rules or players: the setup form, as it was filled.
            const after = el("p", { class: "play-after" });
            if (S.rematchFrom) {
              bits.push(el("p", { class: "play-offer", id: "play-rematch-offer" },
                _("{name} wants a rematch.", { name: S.rematchFrom }) + " ",
                el("button", { type: "button", id: "play-rematch-accept", onclick: askRematch },
                  _("Accept the rematch")),
                el("button", { type: "button", id: "play-rematch-decline", onclick: () => {
                  S.rematchFrom = null; send({ type: "decline_rematch" }); draw();
                } }, _("Decline"))));
            } else if (S.noRematch) {
              bits.push(el("p", { class: "play-offer", id: "play-rematch-declined" }, S.noRematch));
            } else if (!S.rematching) {
              after.append(el("button", { type: "button", id: "play-rematch", onclick: askRematch },
                botsOnly() ? _("Rematch (same rules, same house bots)")
                  : _("Rematch (same rules, same players)")));
            }
            const leaveGame = () => {
              if (S.rematching || S.rematchFrom) send({ type: "decline_rematch" });
              S.rematching = false; S.rematchFrom = null; S.noRematch = null;
              S.view = null; S.result = null; S.said = []; S.note = "";
            };
            after.append(el("button", { type: "button", id: "play-next", onclick: () => {
              leaveGame();
              // The same choices again, at once (as on the Onitama page); without any (a
              // table taken from the lobby page): the setup form.
              S.phase = S.lastJoin ? "connecting" : "setup";
              if (S.lastJoin) send(Object.assign({}, S.lastJoin));
              draw();
            } }, _("Play again")));
            if (S.lastJoin) {
              // The setup form keeps what was chosen (it is only hidden during a game).
              after.append(el("button", { type: "button", id: "play-other", onclick: () => {
                leaveGame();
                S.phase = "setup";
                draw();
                form.scrollIntoView({ block: "nearest" });
              } }, _("Choose other rules or players")));
            }
            bits.push(after);
          }
        } else if (S.standIn) {
          bits.push(el("button", { type: "button", id: "tp-back", onclick: () => send({ type: "back" }) },
            _("Back to my seat")));
        } else if (S.turn && !S.pending) {
          bits.push(tilePicker(), choicePrompt(), otherPrompt());
        }
        if (S.phase === "game" && !tournament) bits.push(resignNode());
        // While a stand-in plays, every one of its moves draws the page: the prompt (the
        // "Back to my seat" button) is kept as it is, so the button does not change under a
        // person's pointer between press and release.
        const shows = S.standIn && S.phase === "game" ? `stand-in ${S.confirming ? 1 : 0}` : "";
        if (!shows || promptBox.dataset.shows !== shows) promptBox.replaceChildren(...bits.filter(Boolean));
        promptBox.dataset.shows = shows;
        S.resultShown = P.showNextOnce(promptBox, S.phase === "over", S.resultShown);
      } else {
        boardBox.replaceChildren();
        promptBox.dataset.shows = "";
        promptBox.replaceChildren(S.phase === "seated" ? el("button", { type: "button", id: "tp-start",
          onclick: () => send({ type: "start" }) }, _("Start now (house bots take the empty seats)")) : "");
      }
      const panel = playersPanel();
      playersBox.replaceChildren(...(panel ? [panel] : []));
      saidList.replaceChildren(...S.said.map((line) => el("li", {}, line)));
      saidList.scrollTop = saidList.scrollHeight;
      const want = S.focusKey || hadFocus;
      if (want && S.turn && !S.pending) {
        const target = boardBox.querySelector(`[data-key="${want}"][tabindex="0"]`) ||
          boardBox.querySelector('[tabindex="0"]');
        if (target) target.focus();
      }
    }

    function askRematch() {
      S.rematching = true;
      S.rematchFrom = null;
      S.note = _("Asking for a rematch…");
      send({ type: "rematch" });
      draw();
    }

    /* Resign (with a confirm): the server takes the seat out of the game. */
    function resignNode() {
      if (S.confirming) {
        return el("div", { class: "play-confirm", id: "play-resign-confirm" },
          el("span", {}, _("Resign this game? You lose it.") + " "),
          el("button", { type: "button", id: "play-resign-yes", onclick: () => {
            S.confirming = false; send({ type: "resign" }); draw();
          } }, _("Yes, resign")),
          el("button", { type: "button", id: "play-resign-no", onclick: () => {
            S.confirming = false; draw();
          } }, _("No, play on")));
      }
      return el("p", { class: "play-game-buttons" },
        el("button", { type: "button", id: "play-resign", onclick: () => {
          S.confirming = true; draw();
        } }, _("Resign")));
    }

    /* Every seat's game clock, the one acting counting down between "clock" messages. */
    function gameClockText() {
      const gc = S.gameClock;
      if (!gc || !["game", "over"].includes(S.phase)) return "";
      return _("Clock:") + " " + gc.left.map((t, i) => {
        const left = i === gc.toAct ? Math.max(0, t - (Date.now() - gc.at) / 1000) : t;
        return (i === S.seat ? _("you") : nameOf(i)) + ` ${P.clockWords(left)}`;
      }).join(" · ");
    }
    setInterval(() => {
      const node = document.getElementById("tp-game-clock");
      if (node) node.textContent = gameClockText();
    }, 250);

    document.addEventListener("keydown", (ev) => {
      if (ev.target && ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
      if ((ev.key === "r" || ev.key === "R") && S.turn && !S.pending) {
        S.focusKey = document.activeElement && document.activeElement.dataset
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
        ? _("Time is up: a stand-in plays for you in {n} s unless you act now.", { n: left })
        : _("{n} s left to act.", { n: left });
    }
    setInterval(tick, 250);

    // The setup form: static/play-tiles-setup.js.
    const setup = window.HernaTilesSetup.create({
      S, page, me, wish: () => wish, send, withToken, showProblems, form, rulesSelect, fileInput,
      playersSelect, levelSelect, fillInput, aboutNode, problemsBox, examples, levels,
    });

    window.HernaTilesPlay = { state: S, send, turned };
    connect(Boolean(P.waiting("tiles"))); // a reload while waiting: the same seat and seek
  }

  document.addEventListener("DOMContentLoaded", () => {
    const block = document.getElementById("herna-page");
    const page = block ? JSON.parse(block.textContent) : {};
    if (page.kind === "play" && page.game === "tiles" && page.running) start(page);
  });
})();

/* Play Mia in the browser, over /ws/mia (herna/web/play_mia.py).
 *
 * The web hall keeps this person's seat at the people's table (a UDP client of the seed's
 * protocol) and sends its whole state after every change: the order of play, who acts, the
 * announcements, this player's own dice, the dice shown when the cup is lifted, each round's
 * result in words, the scores and the choices the seat may make now. The page draws it and
 * sends back the choice clicked; the Mia table judges every move.
 *
 * Frames (JSON): page -> hall {type: "hello"} | {type: "sit"} | {type: "act", action, dice?}
 * | {type: "leave"}; hall -> page {type: "state", seq, ...} | {type: "away"} (no seat) |
 * {type: "error", code, message}.
 *
 * The seat is the session's (the signed cookie's name): a reload says hello and is back.
 */
"use strict";

(function () {
  const FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

  function start(page) {
    const { el } = window.Herna;
    const _ = window.Herna._; // the page's language (static/hall.js); the seat's words come in it too
    // Players keep the colour they got first, on this page (the live view's palette).
    const colour = window.HernaGames.mia.palette();
    const root = document.getElementById("play");
    const statusNode = document.getElementById("play-status");
    const clockNode = document.getElementById("mia-clock");
    const seatBox = document.getElementById("mia-seat");
    const sitButton = document.getElementById("mia-sit");
    const tableBox = document.getElementById("mia-table");
    const orderList = document.getElementById("mia-order");
    const cupBox = document.getElementById("mia-cup");
    const saidList = document.getElementById("mia-said");
    const promptBox = document.getElementById("play-prompt");
    const resultNode = document.getElementById("mia-result");
    const leaveButton = document.getElementById("mia-leave");
    const leaveConfirm = document.getElementById("mia-leave-confirm");
    const levelSelect = document.getElementById("mia-bots");
    const scoresTable = document.getElementById("mia-scores");
    const chartBox = document.getElementById("mia-chart");
    const storyList = document.getElementById("mia-story");
    const sideBox = document.querySelector(".mia-side");
    const me = page.guest;

    const S = { phase: "connecting", state: null, seq: -1, error: null, pending: false,
      retries: 0, clockAt: 0, asked: null };
    let ws = null;

    /* A number of seconds with one decimal, as the page's language writes it (0,5 / 0.5). */
    function seconds(value) {
      return value.toLocaleString(document.documentElement.lang || "en",
        { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    }

    function send(obj) {
      if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj));
    }

    function connect() {
      const scheme = location.protocol === "https:" ? "wss:" : "ws:";
      const socket = new WebSocket(`${scheme}//${location.host}/ws/mia`);
      ws = socket;
      socket.onopen = () => send({ type: "hello" });
      socket.onmessage = (ev) => receive(JSON.parse(String(ev.data)));
      socket.onclose = () => {
        if (ws !== socket) return;
        ws = null;
        const wait = Math.min(5000, 500 * 2 ** S.retries);
        S.retries += 1;
        S.error = _("Connection lost; reconnecting in {s} s…", { s: seconds(wait / 1000) });
        draw();
        setTimeout(connect, wait);
      };
    }

    function receive(msg) {
      if (msg.type === "state") {
        S.retries = 0;
        S.phase = "seated";
        S.state = msg;
        S.seq = msg.seq;
        S.clockAt = performance.now();
        S.pending = false;
        S.error = null;
      } else if (msg.type === "away") {
        S.left = S.phase === "seated"; // the seat was left (not: a page with no seat yet)
        S.retries = 0;
        S.phase = "away";
        S.state = null;
        S.pending = false;
        S.error = null;
      } else if (msg.type === "error") {
        S.pending = false;
        S.error = msg.message;
      }
      draw();
    }

    function act(action, dice) {
      if (S.pending) return;
      S.pending = true;
      send(dice ? { type: "act", action, dice } : { type: "act", action });
      draw();
    }

    function faces(d) {
      const [a, b] = d.dice.split(",").map(Number);
      return el("span", { class: "mia-faces", "aria-hidden": "true" }, FACES[a], FACES[b]);
    }

    function who(name) {
      return el("span", { class: name === me ? "mp-name mia-me" : "mp-name" },
        el("span", { class: "mia-swatch", style: `background: ${colour(name)}` }), " ",
        name === me ? _("{name} (you)", { name }) : name);
    }

    function secondsLeft() {
      const st = S.state;
      if (!st || st.left === null || st.left === undefined) return null;
      return Math.max(0, st.left - (performance.now() - S.clockAt) / 1000);
    }

    function drawClock() {
      const st = S.state;
      const left = secondsLeft();
      if (!st || st.status !== "playing") {
        clockNode.hidden = true;
        return;
      }
      clockNode.hidden = false;
      if (left !== null) {
        const whole = Math.ceil(left);
        clockNode.textContent = _("Your turn: {n} s left of {window} s", { n: whole, window: st.window });
        clockNode.classList.toggle("play-clock-over", left <= 5);
      } else if (st.acting && st.acting !== me) {
        clockNode.textContent = _("{name} is deciding (up to {window} s)…", { name: st.acting, window: st.window });
        clockNode.classList.remove("play-clock-over");
      } else {
        clockNode.textContent = "";
      }
    }

    function status(st) {
      if (S.error) return S.error;
      if (S.phase === "connecting") return _("Connecting…");
      if (S.phase === "away") return S.left ? _("You left the table; your points stay yours. Sit down to play again.") : _("Sit down to play.");
      if (st.status === "connecting") return _("Sitting down…");
      if (st.status === "rejected") return _("The table refused your name: {why}.", { why: st.problem });
      if (st.status === "gone") return st.problem ? _("You left the table: {why}.", { why: st.problem }) : _("You left the table.");
      if (st.step === "turn") {
        // The first to act in a round has nothing to see: only the dice to roll.
        return st.announcements.length ? _("Your turn: roll the dice, or see the last announcement.")
          : _("Your turn: roll the dice.");
      }
      if (st.step === "announce") return _("Announce your throw: the truth or a bluff.");
      if (!st.round) return _("Waiting for the first round…");
      if (!st.acting) return _("The round is over; the next one starts in a moment.");
      if (!st.in_round) return _("You sit out this round; the next one deals you in.");
      // (the table still has the turn as this seat's while its answer is on the way)
      if (st.acting === st.name) return _("Your answer is on its way to the table…");
      return _("{name} is on turn.", { name: st.acting });
    }

    function drawPrompt(st) {
      const buttons = [];
      if (st.step === "turn") {
        for (const c of st.choices) {
          buttons.push(el("button", { type: "button", class: `mia-act mia-${c.action}`,
            disabled: S.pending, onclick: () => act(c.action) }, c.words));
        }
        promptBox.replaceChildren(...buttons);
        return;
      }
      if (st.step === "announce") {
        const truth = st.choices.find((c) => c.truth);
        const bluffs = st.choices.filter((c) => !c.truth);
        const parts = [];
        if (truth) {
          parts.push(el("p", {}, el("button", { type: "button", class: "mia-act mia-truth",
            disabled: S.pending, onclick: () => act("announce", truth.dice) },
          _("Announce the truth: {dice}", { dice: truth.words }))));
        } else if (st.my_dice) {
          parts.push(el("p", { class: "mia-note" },
            _("Your {dice} is not higher than the last announcement: bluff.", { dice: st.my_dice.words })));
        }
        parts.push(el("p", { class: "mia-bluff-title" }, truth ? _("Or bluff:") : _("Announce:")));
        parts.push(el("div", { class: "mia-bluffs" }, bluffs.map((c) =>
          el("button", { type: "button", class: "mia-act mia-bluff", "data-dice": c.dice,
            disabled: S.pending, onclick: () => act("announce", c.dice) }, c.words))));
        promptBox.replaceChildren(...parts);
        return;
      }
      promptBox.replaceChildren();
    }

    function drawCup(st) {
      if (st.my_dice) {
        cupBox.replaceChildren(faces(st.my_dice),
          el("span", { class: "mia-cup-words" }, _("You rolled {dice}", { dice: st.my_dice.words }),
            el("span", { class: "muted" }, " " + _("(only you see this)"))));
      } else if (st.shown) {
        cupBox.replaceChildren(faces(st.shown),
          el("span", { class: "mia-cup-words" }, _("Under the cup: {dice}", { dice: st.shown.words })));
      } else {
        cupBox.replaceChildren(el("span", { class: "mia-cup-closed", "aria-hidden": "true" }),
          el("span", { class: "mia-cup-words muted" },
            st.announcements.length ? _("The cup is closed.") : _("Nobody has rolled yet.")));
      }
    }

    /* Only who plays here: the table keeps idle house bots of other levels registered. */
    function atTable(st, scores) {
      const here = new Set(st.at_table || Object.keys(scores));
      return Object.fromEntries(Object.entries(scores).filter(([n]) => here.has(n)));
    }

    function drawScores(st) {
      const rows = Object.entries(atTable(st, st.scores))
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      scoresTable.replaceChildren(
        el("caption", { class: "muted" }, // the first child of a table; CSS shows it below
          _("Rounds you played here: {n}, lost: {lost}.", { n: st.rounds, lost: st.lost })),
        el("tr", {}, el("th", {}, _("player")), el("th", {}, _("points"))),
        ...rows.map(([n, p]) => el("tr", { class: n === me ? "mia-me-row" : null, dataset: { name: n } },
          el("td", {}, who(n)), el("td", { class: "num" }, String(p)))));
      const mia = (window.HernaGames || {}).mia;
      const history = st.history.map(([n, pts]) => [n, atTable(st, pts)]);
      if (mia && mia.historyChart) chartBox.replaceChildren(mia.historyChart({ history }, colour));
    }

    function draw() {
      const st = S.state;
      root.dataset.phase = S.phase;
      root.dataset.step = (st && st.step) || "";
      root.dataset.round = st ? String(st.round) : "0";
      root.dataset.rounds = st ? String(st.rounds) : "0";
      statusNode.textContent = status(st);
      // Sit down: no seat yet, or the table refused or lost this one.
      seatBox.hidden = !(S.phase === "away" || (st && ["rejected", "gone"].includes(st.status)));
      sitButton.disabled = S.pending;
      tableBox.hidden = !(S.phase === "seated" && st);
      // Scores and the table's story once there are some (not two empty headings to start).
      if (st) S.seen = true;
      sideBox.hidden = !S.seen;
      if (!st) {
        drawClock();
        return;
      }
      Object.keys(st.scores).sort().forEach(colour); // colours in name order, stable on reload
      orderList.replaceChildren(...st.players.map((n) => el("li", {
        class: n === st.acting ? "mia-acting" : null }, who(n), n === st.acting ? " ◀" : "")));
      drawCup(st);
      saidList.replaceChildren(...st.announcements.map((a) =>
        el("li", {}, who(a.name), " " + _("announced") + " ", el("b", {}, a.words))));
      drawPrompt(st);
      // A new question puts the focus on its first choice: Enter answers, Tab moves on.
      const ask = st.step ? `${st.round}:${st.step}:${st.announcements.length}` : null;
      if (ask && ask !== S.asked) {
        const first = promptBox.querySelector("button.mia-act");
        if (first) first.focus({ preventScroll: true });
        // The question and every choice on screen: the clock is running.
        promptBox.scrollIntoView({ block: "nearest" });
      }
      S.asked = ask;
      const r = st.result;
      resultNode.replaceChildren();
      if (r) {
        const verdict = !r.you_played ? "" : " " + (r.you_lost ? _("You lost this round.") : _("You get a point."));
        // Once another round is under way, the result is the last round's, and says so.
        const last = st.round && st.round !== r.round;
        resultNode.append((last ? _("Last round {n}: {words}.", { n: r.round, words: r.words })
          : _("Round {n}: {words}.", { n: r.round, words: r.words })),
          el("b", {}, verdict));
        resultNode.className = `mia-result-line ${r.you_lost ? "mia-lost" : "mia-won"}` +
          (last ? " mia-last" : "");
      }
      leaveButton.disabled = st.status !== "playing";
      if (st.status !== "playing") leaveConfirm.hidden = true;
      drawScores(st);
      storyList.replaceChildren(...st.story.map((line) => el("li", {}, line)));
      storyList.scrollTop = storyList.scrollHeight;
      drawClock();
    }

    sitButton.addEventListener("click", () => {
      S.pending = true;
      send(levelSelect ? { type: "sit", bots: levelSelect.value } : { type: "sit" });
      draw();
    });
    // Leaving asks first: one click must not cost a round in play.
    leaveButton.addEventListener("click", () => {
      leaveConfirm.hidden = false;
      document.getElementById("mia-leave-no").focus();
      leaveConfirm.scrollIntoView({ block: "nearest" });
    });
    document.getElementById("mia-leave-no").addEventListener("click", () => {
      leaveConfirm.hidden = true;
      leaveButton.focus();
    });
    document.getElementById("mia-leave-yes").addEventListener("click", () => {
      leaveConfirm.hidden = true;
      send({ type: "leave" });
    });
    setInterval(drawClock, 250);
    window.HernaMia = { state: S, act };
    connect();
    draw();
  }

  document.addEventListener("DOMContentLoaded", () => {
    const block = document.getElementById("herna-page");
    const page = block ? JSON.parse(block.textContent) : {};
    if (page.kind === "play" && page.game === "mia" && page.running) start(page);
  });
})();

/* The balance page for tile-game designers (herna/web/balance.py): sends a rules file over
 * /ws/balance, shows the progress while house bots play it, then draws the report with
 * charts: each seat's wins with its 95 % interval against the fair share, how games ended,
 * their length, and how often each goal was reached. All words come from the report (the
 * hall's Python words them, in the page's language); this script only lays them out.
 *
 * Frames (JSON): page -> hall {rules, name, games, level} | {example, games, level};
 * hall -> page {type: "problems", problems} | {type: "progress", done, total}
 * | {type: "report", report} | {type: "error", message}.
 */
"use strict";

(function () {
  const FAIR = "#1f6fb2", UNFAIR = "#c0392b"; // red only for a seat the report warns about
  const ENDING_COLOURS = { winner: "#1f8a4c", shared: "#b7791f", stalled: "#7d3c98", limit: "#c0392b" };
  const pct = (x) => `${Math.round(100 * x)} %`;
  /* A number as the page's language writes it (38,8 / 38.8), with ``least`` decimals. */
  const decimal = (x, least) => x.toLocaleString(document.documentElement.lang || "en",
    { minimumFractionDigits: least, maximumFractionDigits: 1 });

  function start(page) {
    const { el, svg, _ } = window.Herna;
    const form = document.getElementById("bal-form");
    const file = document.getElementById("bal-file");
    const example = document.getElementById("bal-example");
    const problems = document.getElementById("bal-problems");
    const box = document.getElementById("bal-progress-box");
    const bar = document.getElementById("bal-progress");
    const barText = document.getElementById("bal-progress-text");
    const out = document.getElementById("bal-report");
    const run = document.getElementById("bal-run");
    const S = { phase: "idle", report: null };
    window.HernaBalance = { state: S };
    let ws = null;

    function setPhase(phase) {
      S.phase = phase;
      document.body.dataset.balance = phase;
      run.disabled = phase === "playing";
    }

    function say(message) {
      problems.replaceChildren(el("p", { class: "error" }, message));
    }

    function connect() {
      const scheme = location.protocol === "https:" ? "wss:" : "ws:";
      return new Promise((resolve, reject) => {
        if (ws && ws.readyState === WebSocket.OPEN) return resolve(ws);
        const socket = new WebSocket(`${scheme}//${location.host}/ws/balance`);
        socket.onopen = () => { ws = socket; resolve(socket); };
        socket.onerror = () => reject(new Error("no connection"));
        socket.onclose = () => {
          if (ws === socket) ws = null;
          if (S.phase === "playing") { setPhase("idle"); say(_("The connection to the hall was lost; try again.")); }
        };
        socket.onmessage = (ev) => receive(JSON.parse(String(ev.data)));
      });
    }

    function receive(m) {
      if (m.type === "progress") {
        box.hidden = false;
        bar.max = m.total;
        bar.value = m.done;
        barText.textContent = _("{done} of {total} games played", { done: m.done, total: m.total });
      } else if (m.type === "problems") {
        setPhase("idle");
        box.hidden = true;
        problems.replaceChildren(
          el("p", { class: "error" }, _("The rules file has problems; nothing was played:")),
          el("ul", {}, m.problems.map((p) => el("li", {}, `${p.path}: ${p.message}`))));
      } else if (m.type === "error") {
        setPhase("idle");
        box.hidden = true;
        say(m.message);
      } else if (m.type === "report") {
        S.report = m.report;
        setPhase("done");
        barText.textContent = _("{done} of {total} games played", { done: m.report.games, total: m.report.games });
        bar.value = bar.max;
        draw(m.report);
      }
    }

    async function submit(ev) {
      ev.preventDefault();
      problems.replaceChildren();
      // The last report is not this request's: it goes at once (reading a file takes a moment).
      out.replaceChildren();
      if (S.phase === "done") setPhase("idle");
      const games = Number(document.getElementById("bal-games").value);
      const level = document.getElementById("bal-level").value;
      let request;
      if (file.files.length) {
        const f = file.files[0];
        if (f.size > page.max_bytes) {
          say(_("The file is larger than {kib} KiB, the most this page takes; use herna rules balance in a terminal.", { kib: Math.floor(page.max_bytes / 1024) }));
          return;
        }
        request = { rules: await f.text(), name: f.name, games, level };
      } else if (example.value) {
        request = { example: example.value, games, level };
      } else {
        say(_("Choose a rules file, or one of the examples."));
        return;
      }
      out.replaceChildren();
      setPhase("playing");
      box.hidden = false;
      bar.value = 0;
      barText.textContent = _("Checking the rules…");
      try {
        (await connect()).send(JSON.stringify(request));
      } catch (e) {
        setPhase("idle");
        say(_("The hall cannot be reached; try again."));
      }
    }

    // -- the report --------------------------------------------------------------------------
    function seatChart(r) {
      const rowH = 34, left = 70, right = 20, width = 480, top = 26;
      const height = top + rowH * r.seats.length + 24;
      const x = (v) => left + v * (width - left - right);
      const parts = [
        svg("text", { x: x(r.fair_share), y: 14, "text-anchor": "middle", class: "bal-axis" }, _("fair share {share}", { share: pct(r.fair_share) })),
        svg("line", { x1: x(r.fair_share), x2: x(r.fair_share), y1: 18, y2: height - 20, class: "bal-fair" }),
      ];
      for (const t of [0, 0.25, 0.5, 0.75, 1]) {
        parts.push(svg("text", { x: x(t), y: height - 4, "text-anchor": "middle", class: "bal-axis" }, pct(t)));
      }
      r.seats.forEach((s, i) => {
        const y = top + i * rowH;
        const colour = s.unfair ? UNFAIR : FAIR;
        parts.push(
          svg("text", { x: 4, y: y + 19, class: "bal-label" }, _("seat {n}", { n: s.seat + 1 })),
          svg("rect", { x: x(0), y: y + 6, width: Math.max(1, x(s.rate) - x(0)), height: 18, fill: colour, opacity: 0.8 },
            svg("title", {}, _("seat {n}: {wins} games won, {rate}", { n: s.seat + 1, wins: s.wins, rate: pct(s.rate) }))),
          svg("line", { x1: x(s.low), x2: x(s.high), y1: y + 15, y2: y + 15, class: "bal-whisker" }),
          svg("line", { x1: x(s.low), x2: x(s.low), y1: y + 9, y2: y + 21, class: "bal-whisker" }),
          svg("line", { x1: x(s.high), x2: x(s.high), y1: y + 9, y2: y + 21, class: "bal-whisker" }));
      });
      return svg("svg", { class: "bal-chart", id: "bal-seats-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": _("games won by each seat with their 95 % intervals") }, ...parts);
    }

    function endingChart(r) {
      const width = 480, height = 34;
      let at = 0;
      const parts = [];
      for (const e of r.endings) {
        if (!e.games) continue;
        const w = (width * e.games) / r.games;
        parts.push(svg("rect", { x: at, y: 4, width: w, height: 26, fill: ENDING_COLOURS[e.ending] },
          svg("title", {}, _("{ending}: {n} games", { ending: e.words, n: e.games }))));
        at += w;
      }
      const legend = el("ul", { class: "bal-legend" }, r.endings.map((e) =>
        el("li", {}, el("span", { class: "bal-swatch", style: `background:${ENDING_COLOURS[e.ending]}` }),
          `${e.words}: ${e.games} (${pct(e.games / r.games)})`)));
      return [svg("svg", { class: "bal-chart", id: "bal-endings-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": _("how the games ended") }, ...parts), legend];
    }

    function lengthChart(r) {
      const bins = r.length.histogram;
      const width = 480, height = 200, left = 40, bottom = 34, top = 10;
      const most = Math.max(1, ...bins.map((b) => b.games));
      const w = (width - left) / Math.max(1, bins.length);
      const parts = [
        svg("text", { x: 2, y: top + 8, class: "bal-axis" }, String(most)),
        svg("text", { x: 2, y: height - bottom, class: "bal-axis" }, "0"),
        svg("text", { x: left + (width - left) / 2, y: height - 2, "text-anchor": "middle", class: "bal-axis" }, _("turns per game")),
      ];
      bins.forEach((b, i) => {
        const h = ((height - bottom - top) * b.games) / most;
        const label = b.from === b.to ? `${b.from}` : `${b.from}–${b.to}`;
        parts.push(
          svg("rect", { x: left + i * w + 1, y: height - bottom - h, width: Math.max(1, w - 2), height: h, class: "bal-bar" },
            svg("title", {}, _("{turns} turns: {n} games", { turns: label, n: b.games }))),
          svg("text", { x: left + i * w + w / 2, y: height - bottom + 14, "text-anchor": "middle", class: "bal-axis" }, label));
      });
      return svg("svg", { class: "bal-chart", id: "bal-length-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": _("how many turns games lasted") }, ...parts);
    }

    function goalTable(r) {
      if (!r.goals.length) return el("p", { class: "muted" }, _("The rules give the players no goals (the game ends by scores or elimination)."));
      return el("table", { class: "bal-goals" },
        el("thead", {}, el("tr", {}, el("th", {}, _("goal")), el("th", {}, _("reached")), el("th", {}, ""))),
        el("tbody", {}, r.goals.map((g) => {
          const share = g.had ? g.reached / g.had : 0;
          return el("tr", {}, el("td", {}, g.words), el("td", { class: "num" }, _("{reached} of {had} ({share})", { reached: g.reached, had: g.had, share: pct(share) })),
            el("td", { class: "bal-goal-bar" }, el("span", { style: `width:${Math.round(100 * share)}%` })));
        })));
    }

    function draw(r) {
      const level = document.querySelector(`#bal-level option[value="${r.level}"]`);
      const warnings = r.warnings.length
        ? el("div", { class: "bal-warnings", id: "bal-warnings", role: "alert" }, r.warnings.map((w) => el("p", {}, `⚠ ${w}`)))
        : el("p", { class: "bal-fine", id: "bal-warnings" }, _("No seat wins more or less than a fair share (at 95 %)."));
      const L = r.length;
      // (each message its own call: the catalog's extraction misses one inside another)
      const exact = r.interval === "exact" ? _("exact") : "Wilson";
      const ludii = r.measures.map((m) => _("{name} is Ludii's {ludii}", { name: m.name.toLowerCase(), ludii: m.ludii })).join(", ");
      out.replaceChildren(
        el("h2", {}, _("{rules}: {n} games", { rules: r.rules, n: r.games })),
        el("p", { class: "muted" }, _("Every seat was played by the same house bot, {level}.", { level: level ? level.textContent.replace(" — ", ": ") : r.level })),
        warnings,
        el("section", { id: "bal-seats" }, el("h3", {}, _("Games won by each seat")),
          el("p", { class: "muted" }, _("Bars: the share of games each seat won alone; whiskers: its 95 % interval ({kind}). A seat whose interval lies wholly above or below the fair share is marked in red.", { kind: exact })),
          seatChart(r),
          el("table", { class: "bal-seat-table" },
            el("thead", {}, el("tr", {}, el("th", {}, _("seat")), el("th", {}, _("won")), el("th", {}, _("95 % interval")), el("th", {}, _("shared wins")))),
            el("tbody", {}, r.seats.map((s) => el("tr", { class: s.unfair ? "unfair" : "" },
              el("td", {}, _("seat {n}", { n: s.seat + 1 })), el("td", { class: "num" }, `${s.wins} (${pct(s.rate)})`),
              el("td", { class: "num" }, _("{low} to {high}", { low: pct(s.low), high: pct(s.high) })), el("td", { class: "num" }, String(s.shared))))))),
        el("section", { id: "bal-endings" }, el("h3", {}, _("How the games ended")), ...endingChart(r),
          el("p", { class: "muted" }, _("Why: {reasons}", { reasons: r.reasons.map((x) => `${x.reason} (${x.games})`).join("; ") }))),
        el("section", { id: "bal-length" }, el("h3", {}, _("Length of the games")),
          el("p", {}, _("Turns per game: shortest {min}, median {median}, average {mean}, longest {max} (a turn is one player's turn).", { min: L.min, median: decimal(L.median, 0), mean: decimal(L.mean, 1), max: L.max })),
          lengthChart(r)),
        el("section", { id: "bal-goals" }, el("h3", {}, _("Goals reached")),
          el("p", { class: "muted" }, _("How often a player with the goal reached it.")), goalTable(r)),
        el("section", { id: "bal-measures" }, el("h3", {}, _("In short")),
          el("dl", { class: "bal-measures" }, r.measures.map((m) => [el("dt", {}, m.name), el("dd", {}, m.text)])),
          el("p", { class: "muted bal-note" }, _("These measures follow Ludii's game metrics: {list}.", { list: ludii }))));
    }

    form.addEventListener("submit", submit);
    file.addEventListener("change", () => { if (file.files.length) example.value = ""; });
    example.addEventListener("change", () => { if (example.value) file.value = ""; });
    setPhase("idle");
  }

  document.addEventListener("DOMContentLoaded", () => {
    const block = document.getElementById("herna-page");
    const page = block ? JSON.parse(block.textContent) : {};
    if (page.kind === "balance") start(page);
  });
})();

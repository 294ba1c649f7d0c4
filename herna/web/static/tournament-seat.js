/* A person in a live tournament, on a play page: which tournament and round, their game or
 * their bye in words, their place and a compact table, and at the end their final rank.
 *
 * Included by every play page; it does something only when the page was opened with a
 * tournament seek (`?seek=person,tournament=ID`, the tournament page's Enter button). The
 * words come from the hall (`/tournaments/ID/entrant.json`, herna/hall/tournament_seat.py);
 * this file only draws them, puts `{at}` in the reader's local time, and, when a new game
 * of theirs starts, shows a notice and (tab in the background) changes the tab's title.
 * The game itself is the play page's: the server seats the person at each next board, and
 * the page follows them into it. A play page pokes this file (`herna:tournament` event) when
 * a game starts or ends, so the panel need not wait for its next poll.
 */
"use strict";

(function () {
  const POLL_MS = 3000;
  const ENTERING_MS = 10000; // how long the page's own entry may take to show

  function tournamentOf(search) {
    const seek = new URLSearchParams(search).get("seek") || "";
    const found = /(?:^|,)tournament=(\d+)(?:,|$)/.exec(seek);
    return found ? found[1] : null;
  }

  function localTime(iso) {
    const when = new Date(iso);
    if (isNaN(when)) return iso;
    const today = when.toDateString() === new Date().toDateString();
    return today ? when.toLocaleTimeString([], { hour12: false })
      : when.toLocaleString([], { hour12: false });
  }

  function start(page, tid) {
    const { el, _ } = window.Herna;
    window.Herna.addStyle("tournament-seat-style", `
      .tournament-seat { border: 1px solid #c9d6d1; border-radius: 6px; padding: .5rem .75rem;
        margin: .5rem 0 1rem; background: #f4f8f6; }
      .tournament-seat p { margin: .25rem 0; }
      .tournament-seat .ts-message { font-weight: 600; }
      .tournament-seat .ts-notice { background: #fff3c4; border-radius: 4px; padding: .25rem .5rem; }
      .tournament-seat table { border-collapse: collapse; font-size: .9rem; margin-top: .25rem; }
      .tournament-seat td { padding: .1rem .5rem; }
      .tournament-seat td.num { text-align: right; }
      .tournament-seat tr.me td { font-weight: 700; background: #e3efe9; }
      .tournament-seat tr.gap td { color: #777; }
    `);
    const me = page.guest;
    const box = el("section", { class: "tournament-seat", id: "tournament-seat",
      "aria-label": _("Your tournament") }, el("p", {}, _("Your tournament…")));
    const anchor = document.getElementById("play") || document.getElementById("play-status");
    if (anchor) anchor.before(box);
    else document.querySelector("main").prepend(box);

    const title = document.title;
    let lastGame = null;
    let noticeUntil = 0;
    let timer = null;
    let busy = false;
    const opened = Date.now();
    let inside = false; // entered once: "not entered" from then on is news
    const entering = () => !inside && Date.now() - opened < ENTERING_MS;

    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) document.title = title;
    });

    function draw(view) {
      const round = !view.round ? ""
        : view.rounds ? _("round {n} of {of}", { n: view.round, of: view.rounds })
          : _("round {n}", { n: view.round });
      const head = el("p", { class: "ts-head" },
        el("a", { href: view.url, id: "tournament-link" }, view.name), round ? ` · ${round}` : "");
      // Just arrived from the tournament's Enter: the entry is on its way, not refused.
      const text = view.kind === "outside" && entering()
        ? _("Entering {tournament}…", { tournament: view.name })
        : view.at ? view.message.replace("{at}", localTime(view.at)) : view.message;
      const message = el("p", { class: "ts-message", id: "tournament-message",
        "data-kind": view.kind }, text);
      if (view.kind === "over") {
        message.append(" ", el("a", { href: view.url, id: "tournament-final" },
          _("The final standings")));
      }
      const place = view.place
        ? el("p", { class: "ts-place", id: "tournament-place" },
          _("You: {place}, points: {points}.", { place: view.place, points: view.points }))
        : null;
      const rows = (view.standings || []).map((r) => r.gap
        ? el("tr", { class: "gap" }, el("td", {}, "…"), el("td", {}), el("td", {}))
        : el("tr", { class: r.me ? "me" : "" }, el("td", { class: "num" }, String(r.rank)),
          el("td", {}, r.name), el("td", { class: "num" }, r.points)));
      const table = rows.length
        ? el("table", { id: "tournament-standings", "aria-label": _("Standings") },
          el("tbody", {}, rows))
        : null;
      // A new game's notice, for a while, and only while that game is the news.
      const notice = view.kind === "game" && Date.now() < noticeUntil
        ? el("p", { class: "ts-notice", id: "tournament-notice", role: "status" },
          _("Your game of this round has started."))
        : null;
      box.replaceChildren(...[head, notice, message, place, table].filter(Boolean));
      box.dataset.kind = view.kind;
      box.dataset.round = view.round ? String(view.round) : "";
    }

    function follow(view) {
      // A new game of theirs: say so, and tell a tab in the background.
      const game = view.kind === "game" && view.board
        ? `${view.round}:${view.board.seats.join(",")}` : null;
      if (game && lastGame !== null && game !== lastGame) {
        noticeUntil = Date.now() + 15000;
        if (document.hidden) {
          document.title = "▶ " + _("Round {n}: your game", { n: view.round }) + " · " + title;
        }
      }
      if (game || lastGame === null) lastGame = game || "";
    }

    async function refresh() {
      if (busy) return;
      busy = true;
      try {
        const response = await fetch(
          `/tournaments/${tid}/entrant.json?name=${encodeURIComponent(me)}`, { cache: "no-store" });
        if (!response.ok) return;
        const view = await response.json();
        if (view.kind !== "outside") inside = true;
        // the entry is being made: look again soon rather than at the next poll
        else if (entering()) window.setTimeout(refresh, 500);
        follow(view);
        draw(view);
        if (view.kind === "over" && timer !== null) {
          window.clearInterval(timer);
          timer = null;
          // The final rank is the news now (the game's result had scrolled the page down).
          box.scrollIntoView({ block: "nearest" });
        }
      } catch (err) {
        // The hall may be restarting: the next poll tries again.
      } finally {
        busy = false;
      }
    }

    document.addEventListener("herna:tournament", () => { window.setTimeout(refresh, 300); });
    timer = window.setInterval(refresh, POLL_MS);
    refresh();
    window.HernaTournamentSeat = { refresh };
  }

  document.addEventListener("DOMContentLoaded", () => {
    const block = document.getElementById("herna-page");
    const page = block ? JSON.parse(block.textContent) : {};
    const tid = tournamentOf(location.search);
    if (page.kind === "play" && page.guest && tid) start(page, tid);
  });
})();

// Herna tournament page: while the tournament takes entrants or runs, fetch the page again every few seconds
// and swap in its body (standings, crosstable, games), so it follows the games without a
// reload. Stops once the tournament has finished or was aborted.
"use strict";
(function () {
  function pageData() {
    const block = document.getElementById("herna-page");
    try { return block ? JSON.parse(block.textContent) : {}; } catch (e) { return {}; }
  }

  function follow(data) {
    const every = Math.max(1, Number(data.poll) || 3) * 1000;
    let timer = null;
    async function refresh() {
      try {
        const response = await fetch(window.location.pathname, { cache: "no-store" });
        if (!response.ok) return;
        const doc = new DOMParser().parseFromString(await response.text(), "text/html");
        const fresh = doc.getElementById("tournament-body");
        const current = document.getElementById("tournament-body");
        if (!fresh || !current) return;
        current.replaceWith(document.importNode(fresh, true));
        if (fresh.dataset.status !== "running" && fresh.dataset.status !== "entry") {
          window.clearInterval(timer);
        }
      } catch (e) {
        // The hall may be restarting: try again at the next tick.
      }
    }
    timer = window.setInterval(refresh, every);
  }

  /* Times in the reader's own time (the page writes them in UTC), and countdowns to a
   * scheduled start or the next round, every second (the body swapped in by follow() too). */
  function inWords(seconds) {
    const s = Math.max(0, Math.round(seconds));
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const parts = [];
    if (h) parts.push(`${h} h`);
    if (h || m) parts.push(`${m} min`);
    if (!h) parts.push(`${s % 60} s`);
    return parts.join(" ");
  }

  function showTimes() {
    for (const node of document.querySelectorAll("time.local:not([data-shown])")) {
      const when = new Date(node.getAttribute("datetime"));
      if (isNaN(when)) continue;
      const today = when.toDateString() === new Date().toDateString();
      node.textContent = today ? when.toLocaleTimeString([], { hour12: false })
        : when.toLocaleString([], { hour12: false });
      node.dataset.shown = "1";
    }
    for (const node of document.querySelectorAll(".countdown[data-until]")) {
      const left = (new Date(node.dataset.until) - Date.now()) / 1000;
      node.textContent = left > 0 ? Herna._("(in {time})", { time: inWords(left) }) : Herna._("(now)");
    }
  }

  /* The admin's Withdraw asks once more, naming the entrant, before the form is sent (the
   * confirm box's own button sends it); without a script the button sends it at once. */
  function confirmWithdraw() {
    const button = document.getElementById("admin-withdraw");
    const box = document.getElementById("admin-withdraw-confirm");
    const input = document.getElementById("admin-withdraw-name");
    if (!button || !box || !input) return;
    button.addEventListener("click", (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) {
        input.focus();
        return;
      }
      document.getElementById("admin-withdraw-ask").textContent = Herna._(
        "Withdraw {name} from the tournament? They lose their place and must enter again.", { name });
      box.hidden = false;
      button.hidden = true;
      box.scrollIntoView({ block: "nearest" });
      document.getElementById("admin-withdraw-yes").focus();
    });
    const close = () => { box.hidden = true; button.hidden = false; };
    document.getElementById("admin-withdraw-no").addEventListener("click", close);
    input.addEventListener("input", close); // the question named the name typed before
    // Enter in the name box asks about withdrawing, never sends the form's first button
    // (Start now).
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        button.click();
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    confirmWithdraw();
    showTimes();
    window.setInterval(showTimes, 1000);
    // The new tournament form: a start time typed without a zone is the organiser's own.
    const offset = document.getElementById("t-tz-offset");
    if (offset) offset.value = String(new Date().getTimezoneOffset());
    const print = document.getElementById("print-sheet");
    if (print) print.addEventListener("click", () => window.print());
    const data = pageData();
    if (data.kind === "tournament" && (data.status === "running" || data.status === "entry")) {
      follow(data);
    }
  });
})();

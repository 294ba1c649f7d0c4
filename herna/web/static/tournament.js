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

  document.addEventListener("DOMContentLoaded", function () {
    const data = pageData();
    if (data.kind === "tournament" && (data.status === "running" || data.status === "entry")) {
      follow(data);
    }
  });
})();

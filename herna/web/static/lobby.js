/* The hall's lobby (/lobby): who is waiting for a game, live over /ws/lobby.
 *
 * The page shows the open seeks of every game (docs/web.md, "The lobby"): a person at a play
 * page, a bot connected over the network, a standing house bot. It can ask for a game, take a
 * free seat (accept a seek), challenge a player by name and cancel its own seek. The server
 * checks every request; for the first three it answers with the play page to go to, whose
 * connection then sits down in the game's own protocol — so a seek lives exactly as long as
 * the connection that plays it. Errors are shown as the server words them.
 */
"use strict";

(function () {
  function sentence(text) {
    const s = String(text || window.Herna._("Refused."));
    return s.charAt(0).toUpperCase() + s.slice(1) + (/[.!?]$/.test(s) ? "" : ".");
  }

  function start(page) {
    const { el, _ } = window.Herna;
    // Words in the page's language (static/hall.js _), made once the page has its messages.
    const LABELS = { person: _("person"), bot: _("bot"), "house-bot": _("house bot") };
    const GAME_NAMES = page.titles || {};
    // Refusals said better by a code than by the hall's words; the others come in the page's
    // language from the server (herna/web/refusals.py): "you cannot challenge yourself" and
    // "that is your own seek" share a code.
    const ERROR_WORDS = {
      NO_SUCH_SEEK: _("That seek is no longer open: its player left or has found a game."),
      NOT_FOR_YOU: _("That seek is not for you: it waits for someone else."),
      NO_NAME: _("Reload the page: this browser has no name in the hall yet."),
    };
    const root = document.getElementById("lobby");
    const list = document.getElementById("lobby-list");
    const statusNode = document.getElementById("lobby-status");
    const errorNode = document.getElementById("lobby-error");
    const gameSelect = document.getElementById("lobby-game");
    const opponentSelect = document.getElementById("lobby-opponent");
    const fillInput = document.getElementById("lobby-fill");
    const challengeGame = document.getElementById("lobby-challenge-game");
    const rulesSelect = document.getElementById("lobby-rules");
    const playersSelect = document.getElementById("lobby-players");
    const tileSeats = page.tile_rules || {}; // each shipped rules file's players
    const tileTitles = page.tile_titles || {}; // and its title (another rules file: its name)
    const S = { you: page.guest, seeks: new Map(), games: page.games || [], state: "connecting",
      retries: 0 };
    for (const seek of page.seeks || []) S.seeks.set(seek.id, seek);
    let ws = null;

    function same(a, b) {
      return String(a || "").toLowerCase() === String(b || "").toLowerCase();
    }

    /* What a seek asks for; a table of a game of several rules says its rules and players
     * (a tile table of two is no Onitama-like given). */
    function wants(seek) {
      const parts = [wantsOnly(seek)];
      if (seek.rules) parts.unshift(tileTitles[seek.rules] || seek.rules);
      if (seek.seats > 2 || seek.rules) parts.push(_("players at the table: {n}", { n: seek.seats }));
      return parts.join(" · ");
    }

    function wantsOnly(seek) {
      if (seek.challenge) {
        return same(seek.challenge, S.you) ? _("challenges you")
          : _("challenges {name}", { name: seek.challenge });
      }
      if (seek.accept) return _("takes seat {seat}", { seat: seek.accept });
      if (seek.opponent === "bots") return _("a house bot ({level})", { level: seek.level ? levelWords(seek.level) : _("default level") });
      if (seek.opponent === "people") return _("people only");
      return seek.fill > 0 && seek.kind !== "house-bot"
        ? _("anyone (house bots after {n} s)", { n: seek.fill }) : _("anyone");
    }

    /* What this person may do with a seek (the server decides; this only offers it). */
    function canTake(seek) {
      if (same(seek.owner, S.you) || seek.accept) return false;
      if (seek.challenge) return same(seek.challenge, S.you);
      return seek.opponent !== "bots";
    }

    function send(frame) {
      errorNode.textContent = "";
      delete errorNode.dataset.code;
      if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
      else errorNode.textContent = _("Not connected to the lobby; trying again…");
    }

    function connect() {
      const scheme = location.protocol === "https:" ? "wss:" : "ws:";
      ws = new WebSocket(`${scheme}//${location.host}/ws/lobby`);
      ws.onmessage = (ev) => receive(JSON.parse(String(ev.data)));
      ws.onclose = () => {
        ws = null;
        S.state = "connecting";
        const wait = Math.min(5000, 500 * 2 ** S.retries);
        S.retries += 1;
        draw();
        setTimeout(connect, wait);
      };
    }

    function receive(msg) {
      if (msg.type === "hello") {
        S.retries = 0;
        S.state = "live";
        S.you = msg.you || S.you;
        S.games = msg.games || S.games;
        fillGames();
        S.seeks = new Map(msg.seeks.map((s) => [s.id, s]));
      } else if (msg.type === "opened") {
        S.seeks.set(msg.seek.id, msg.seek);
      } else if (msg.type === "closed") {
        S.seeks.delete(msg.seek.id);
      } else if (msg.type === "go") {
        location.assign(msg.url);
        return;
      } else if (msg.type === "cancelled") {
        S.seeks.delete(msg.seek);
      } else if (msg.type === "error") {
        // Words for the person; the code stays on the node for scripts and tests.
        errorNode.dataset.code = msg.code;
        errorNode.textContent = ERROR_WORDS[msg.code] || sentence(msg.reason);
        if (msg.code === "NOT_HERE") {
          // A name nobody here has: the person corrects it where they typed it.
          const input = document.getElementById("lobby-challenge");
          input.focus();
          input.select();
        }
      }
      draw();
    }

    function seekRow(seek) {
      const mine = same(seek.owner, S.you);
      const actions = [];
      if (mine) {
        actions.push(el("button", { type: "button", class: "lobby-cancel", "data-seek": seek.id,
          "aria-label": _("Cancel your seek"),
          onclick: () => send({ type: "cancel", seek: seek.id }) }, _("Cancel")));
      } else if (canTake(seek)) {
        actions.push(el("button", { type: "button", class: "lobby-accept", "data-seek": seek.id,
          "aria-label": _("Play {name}", { name: seek.owner }),
          onclick: () => send({ type: "accept", seek: seek.id }) }, _("Play them")));
      }
      return el("li", { class: "lobby-seek", "data-seek": seek.id, "data-owner": seek.owner },
        el("span", { class: "lobby-owner" }, seek.owner, mine ? ` ${_("(you)")}` : ""),
        el("span", { class: "lobby-kind" }, LABELS[seek.kind] || seek.kind),
        el("span", { class: "lobby-wants" }, wants(seek)),
        el("span", { class: "lobby-actions" }, actions));
    }

    function draw() {
      root.dataset.state = S.state;
      root.dataset.count = String(S.seeks.size);
      statusNode.textContent = S.state === "live"
        ? (S.seeks.size ? _("waiting: {n} · updates live", { n: S.seeks.size }) : _("Nobody is waiting right now."))
        : _("Connecting to the lobby…");
      // Redrawing replaces the buttons: keep the keyboard focus on the same one.
      const active = document.activeElement;
      const focused = active && list.contains(active) && active.dataset.seek
        ? `button.${active.className}[data-seek="${active.dataset.seek}"]` : null;
      const byGame = new Map();
      for (const seek of S.seeks.values()) {
        if (!byGame.has(seek.game)) byGame.set(seek.game, []);
        byGame.get(seek.game).push(seek);
      }
      list.replaceChildren(...[...byGame.entries()].sort().map(([game, seeks]) =>
        el("div", { class: "lobby-game", "data-game": game },
          el("h3", {}, GAME_NAMES[game] || game),
          el("ul", { class: "lobby-seek-list" }, seeks.map(seekRow)))));
      if (focused) {
        const again = list.querySelector(focused) || list.querySelector("button");
        if (again) again.focus();
      }
    }

    /* The menus keep what the person chose: the game list is rebuilt only when the hall's
     * games change (a reconnect's hello), the opponents only when the game changes, and each
     * keeps its value when that value is still offered. (Rebuilding the game menu on its own
     * change sent every seek and challenge back to the first game.) */
    function fillGames() {
      const now = [...gameSelect.options].map((o) => o.value);
      if (now.length === S.games.length && now.every((g, i) => g === S.games[i])) return;
      const chosen = gameSelect.value;
      gameSelect.replaceChildren(...S.games.map((g) => el("option", { value: g }, GAME_NAMES[g] || g)));
      if (S.games.includes(chosen)) gameSelect.value = chosen;
      fillOpponents();
    }

    function fillOpponents() {
      const chosen = opponentSelect.value;
      const levels = (page.levels || {})[gameSelect.value] || [];
      opponentSelect.replaceChildren(
        el("option", { value: "anyone" }, _("Anyone (people first)")),
        el("option", { value: "people" }, _("People only")),
        ...levels.map((l) => el("option", { value: `bots:${l}` }, _("House bot: {level}", { level: levelWords(l) }))));
      if ([...opponentSelect.options].some((o) => o.value === chosen)) opponentSelect.value = chosen;
      // The challenge form uses the same game: say which.
      challengeGame.textContent = GAME_NAMES[gameSelect.value] || gameSelect.value;
      // A tile table needs its rules and players: asked here, so the play page sits down at once.
      for (const node of document.querySelectorAll(".lobby-tiles")) node.hidden = gameSelect.value !== "tiles";
      fillPlayers();
      syncFill();
    }

    function fillPlayers() {
      const count = tileSeats[rulesSelect.value] || 2;
      const chosen = Number(playersSelect.value) || 2;
      playersSelect.replaceChildren(...Array.from({ length: Math.max(1, count - 1) }, (unused, i) =>
        el("option", { value: String(i + 2) }, _("{n} (you and {others} more)", { n: i + 2, others: i + 1 }))));
      playersSelect.value = String(Math.min(chosen, count));
    }

    /* The tile table's rules and players, sent with a tile seek or challenge. */
    function withTable(frame) {
      if (frame.game === "tiles") {
        frame.rules = rulesSelect.value;
        frame.players = Number(playersSelect.value);
      }
      return frame;
    }

    /* A house bot's level (the protocols' names: easy, medium ...) in the page's language. */
    function levelWords(level) {
      const words = { easy: _("easy"), medium: _("medium"), hard: _("hard"), strongest: _("strongest") };
      return words[level] || level;
    }

    function syncFill() {
      fillInput.disabled = opponentSelect.value !== "anyone";
    }

    opponentSelect.addEventListener("change", syncFill);
    // Back from a play page, the browser puts the menus' last choice back after this script
    // filled them, without a change event: the challenge form and the fill wait follow it.
    window.addEventListener("pageshow", fillOpponents);
    gameSelect.addEventListener("change", fillOpponents);
    rulesSelect.addEventListener("change", fillPlayers);
    document.getElementById("lobby-seek-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const [opponent, level] = opponentSelect.value.split(":");
      const frame = { type: "seek", game: gameSelect.value, opponent };
      if (level) frame.level = level;
      frame.fill = opponent === "anyone" ? Number(fillInput.value || 0) : 0;
      send(withTable(frame));
    });
    document.getElementById("lobby-challenge-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const name = document.getElementById("lobby-challenge").value.trim();
      send(withTable({ type: "challenge", game: gameSelect.value, opponent: name }));
    });

    window.HernaLobby = { state: S, send };
    fillGames();
    draw();
    connect();
  }

  document.addEventListener("DOMContentLoaded", () => {
    const block = document.getElementById("herna-page");
    const page = block ? JSON.parse(block.textContent) : {};
    if (page.kind === "lobby") start(page);
  });
})();

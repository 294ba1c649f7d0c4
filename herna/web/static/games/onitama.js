/* Onitama renderer for the Herna web hall (no build step, no external scripts).
 *
 * Draws the spectator view published by the Onitama server (herna/servers/onitama/hub.py, every
 * event's data.view) and by the replays (herna/games/onitama/replay.py):
 *   view.board    25 characters, rank 5 first, files a-e: W/w white master/student,
 *                 B/b black master/student, "." empty
 *   view.cards    {white: [c1, c2], black: [c1, c2], spare: c} (null while dealing)
 *   view.moves    {card: [[dx, dy], ...]} offsets from the holder's view (dx right, dy forward)
 *   view.last     {type: "move", player, card, from, to, capture} | {type: "stalemate",
 *                 player, old, new} | {type: "pass", player, card} | {type: "forfeit", player}
 *   view.to_move, view.winner ("white"/"black"), view.reason, view.ply, view.players
 * White sits at the bottom (rank 1), as in the protocol's coordinates.
 */
"use strict";

(function () {
  window.HernaGames = window.HernaGames || {};
  const { el, svg, _, ngettext } = window.Herna;

  /* herna/games/onitama/words.py's WIN_WORDS (the one formatter; tests/test_public_text.py
   * checks these say the same), in the page's language (the English is the catalogs' source:
   * a Czech page says them in Czech, the game's own words in English stay words.py's). */
  const WIN_WORDS = {
    way_of_the_stone: _("by the Way of the Stone (captured the master)"),
    "way of the stone": _("by the Way of the Stone (captured the master)"),
    way_of_the_stream: _("by the Way of the Stream (reached the temple)"),
    "way of the stream": _("by the Way of the Stream (reached the temple)"),
    out_of_time: _("on time (the opponent ran out of time)"),
    opponent_left: _("because the opponent left"),
    forfeit: _("because the opponent left"),
    abandoned: _("because the opponent did not come back"),
    illegal_move: _("because the opponent made an illegal move"),
    resigned: _("because the opponent resigned"),
    resign: _("because the opponent resigned"),
  };

  /* ... and its ACTION_WORDS: a move in words, the same on the play page, in replays and in
   * `herna play onitama` ("ann (white) played Tiger c1→c3 (capture)"). */
  const ACTION_WORDS = {
    move: _("{who} played {card} {from}→{to}"),
    capture: _(" (capture)"),
    stalemate: _("{who} could not move: swapped {old} for {new}"),
    give_up: _("{who} could not move: gives up {old}"),
    pass: _("{who} could not move: passed {card} to the spare"),
    forfeit: _("{who} left the game"),
  };

  /* ... and its CARD_WORDS: a card's name for people, keyed by the protocol's name (the wire
   * and the notation keep that one); a Czech page says the Czech edition's names. */
  const CARD_WORDS = {
    Tiger: _("Tiger"),
    Dragon: _("Dragon"),
    Frog: _("Frog"),
    Rabbit: _("Rabbit"),
    Crab: _("Crab"),
    Elephant: _("Elephant"),
    Goose: _("Goose"),
    Rooster: _("Rooster"),
    Monkey: _("Monkey"),
    Mantis: _("Mantis"),
    Horse: _("Horse"),
    Ox: _("Ox"),
    Crane: _("Crane"),
    Boar: _("Boar"),
    Eel: _("Eel"),
    Cobra: _("Cobra"),
  };

  function cardWord(name) {
    return Object.hasOwn(CARD_WORDS, name) ? CARD_WORDS[name] : String(name ?? "");
  }

  /* A side in words: the protocol's "white" / "black" as the page's language says them. */
  function colorWords(color) {
    return color === "white" ? _("white") : color === "black" ? _("black") : String(color || "");
  }

  /* words.py's who_words and action_words. */
  function whoWords(name, color) {
    return name && name !== color ? `${name} (${colorWords(color)})` : colorWords(color);
  }

  function actionWords(last, who) {
    const fill = (key) => ACTION_WORDS[key].replace(/\{(\w+)\}/g,
      (_, k) => (k === "who" ? who
        : k === "card" || k === "old" || k === "new" ? cardWord(last[k]) : String(last[k] ?? "")));
    if (last.type === "move") return fill("move") + (last.capture ? ACTION_WORDS.capture : "");
    if (last.type === "stalemate") return fill(last.new ? "stalemate" : "give_up");
    if (last.type === "pass" || last.type === "forfeit") return fill(last.type);
    return String(last.type || "").replace(/_/g, " ");
  }

  const CELL = 64;
  const FILES = "abcde";

  /* Square name ("c1") -> [column from the left, row from the top] with White at the bottom. */
  function squareXY(name) {
    const file = FILES.indexOf(name[0]);
    const rank = Number(name[1]) - 1;
    return [file, 4 - rank];
  }

  function pieceNode(symbol, x, y) {
    const white = symbol === "W" || symbol === "w";
    const master = symbol === "W" || symbol === "B";
    const cx = x * CELL + CELL / 2;
    const cy = y * CELL + CELL / 2;
    const r = master ? CELL * 0.36 : CELL * 0.28;
    const g = svg("g", {
      class: `oni-piece ${white ? "oni-white" : "oni-black"} ${master ? "oni-master" : "oni-student"}`,
      "data-piece": symbol,
    });
    g.appendChild(svg("circle", { cx, cy, r }));
    if (master) {
      // a small crown for the master
      const s = r * 0.55;
      g.appendChild(svg("path", {
        class: "oni-crown",
        d: `M${cx - s},${cy + s * 0.5} L${cx - s},${cy - s * 0.4} L${cx - s * 0.5},${cy}` +
          ` L${cx},${cy - s * 0.7} L${cx + s * 0.5},${cy} L${cx + s},${cy - s * 0.4}` +
          ` L${cx + s},${cy + s * 0.5} Z`,
      }));
    }
    return g;
  }

  function boardNode(view) {
    const size = CELL * 5;
    const root = svg("svg", {
      class: "oni-board",
      viewBox: `-22 -4 ${size + 26} ${size + 26}`,
      width: size + 26,
      role: "img",
      "aria-label": _("Onitama board"),
    });
    const last = view.last && view.last.type === "move" ? view.last : null;
    const marked = new Set(last ? [last.from, last.to] : []);
    for (let y = 0; y < 5; y++) {
      for (let x = 0; x < 5; x++) {
        const name = FILES[x] + String(5 - y);
        const classes = ["oni-square", (x + y) % 2 ? "oni-dark" : "oni-light"];
        if (name === "c1" || name === "c5") classes.push("oni-arch");
        if (marked.has(name)) classes.push("oni-last");
        if (last && name === last.from) classes.push("oni-last-from");
        if (last && name === last.to) classes.push("oni-last-to");
        root.appendChild(svg("rect", {
          class: classes.join(" "), x: x * CELL, y: y * CELL, width: CELL, height: CELL,
          "data-square": name,
        }));
        if (name === "c1" || name === "c5") {
          // a small temple gate at the outer edge of the arch square
          const gx = x * CELL + CELL / 2;
          const gy = name === "c1" ? y * CELL + CELL - 14 : y * CELL + 4;
          root.appendChild(svg("path", {
            class: "oni-arch-mark",
            d: `M${gx - 9},${gy} h18 M${gx - 7},${gy + 3} h14 M${gx - 5},${gy} v10 M${gx + 5},${gy} v10`,
          }));
        }
      }
    }
    for (let i = 0; i < 5; i++) {
      root.appendChild(svg("text", { class: "oni-coord", x: -12, y: i * CELL + CELL / 2 + 5,
        "text-anchor": "middle" }, String(5 - i)));
      root.appendChild(svg("text", { class: "oni-coord", x: i * CELL + CELL / 2, y: size + 17,
        "text-anchor": "middle" }, FILES[i]));
    }
    if (last) {
      const [fx, fy] = squareXY(last.from);
      const [tx, ty] = squareXY(last.to);
      root.appendChild(svg("line", {
        class: "oni-arrow",
        x1: fx * CELL + CELL / 2, y1: fy * CELL + CELL / 2,
        x2: tx * CELL + CELL / 2, y2: ty * CELL + CELL / 2,
      }));
    }
    const board = String(view.board || "");
    for (let i = 0; i < Math.min(25, board.length); i++) {
      const symbol = board[i];
      if (symbol === ".") continue;
      root.appendChild(pieceNode(symbol, i % 5, Math.floor(i / 5)));
    }
    return root;
  }

  /* One card: its name and a 5x5 grid of its moves. `facingUp`: its holder sits at the bottom
   * (White's cards); Black's cards are drawn turned by 180 degrees, as on the table. */
  function cardNode(name, offsets, facingUp, role, highlight) {
    const size = 12;
    const grid = svg("svg", { class: "oni-card-grid", viewBox: `0 0 ${size * 5} ${size * 5}`,
      width: size * 5, height: size * 5 });
    const targets = new Set((offsets || []).map(([dx, dy]) =>
      facingUp ? `${2 + dx},${2 - dy}` : `${2 - dx},${2 + dy}`));
    for (let row = 0; row < 5; row++) {
      for (let col = 0; col < 5; col++) {
        let cls = "oni-card-cell";
        if (row === 2 && col === 2) cls += " oni-card-self";
        else if (targets.has(`${col},${row}`)) cls += " oni-card-target";
        grid.appendChild(svg("rect", { class: cls, x: col * size + 1, y: row * size + 1,
          width: size - 2, height: size - 2 }));
      }
    }
    return el("figure", {
      class: `oni-card oni-card-${role}` + (highlight ? " oni-card-played" : ""),
      "data-card": name,
      "data-role": role,
    }, grid, el("figcaption", {}, cardWord(name)));
  }

  function handNode(view, color, bottom) {
    const cards = (view.cards && view.cards[color]) || [];
    const players = view.players || {};
    const turn = view.to_move === color && !view.winner;
    return el("div", { class: `oni-hand oni-hand-${color}` + (turn ? " oni-turn" : ""),
      "data-color": color },
      el("div", { class: "oni-player" },
        el("span", { class: `oni-dot oni-${color}` }), " ",
        el("b", {}, players[color] || colorWords(color)), ` (${colorWords(color)})`,
        turn ? el("span", { class: "oni-to-move" }, " ", _("to move")) : null,
        view.winner === color ? el("span", { class: "oni-winner" }, " — ", _("winner")) : null),
      el("div", { class: "oni-cards" },
        cards.map((c) => cardNode(c, (view.moves || {})[c], bottom, color, false))));
  }

  function lastText(view) {
    const last = view.last;
    const players = view.players || {};
    if (!last) return view.phase === "deal" ? _("Dealing the cards…") : _("No move yet.");
    return actionWords(last, whoWords(players[last.player], last.player));
  }

  function render(container, view, event) {
    if (!view || typeof view.board !== "string") {
      window.Herna.renderJSON(container, view);
      return;
    }
    const players = Object.assign({}, view.players || {});
    if (event && event.data) {
      if (!players.white && event.data.white) players.white = event.data.white;
      if (!players.black && event.data.black) players.black = event.data.black;
    }
    const v = Object.assign({}, view, { players });
    const last = v.last && v.last.type === "move" ? v.last : null;
    const spare = v.cards ? v.cards.spare : null;
    // The spare goes to the player to move next: draw it facing that player.
    const spareUp = v.to_move !== "black";
    let status;
    if (v.winner) {
      const name = players[v.winner] || colorWords(v.winner);
      status = v.reason
        ? _("{name} wins {how}", { name, how: WIN_WORDS[v.reason] || v.reason.replace(/_/g, " ") })
        : _("{name} wins", { name });
    } else if (v.to_move) {
      status = _("{who} to move", { who: whoWords(players[v.to_move] || v.to_move, v.to_move) });
    } else {
      status = v.phase || "";
    }
    container.replaceChildren(el("div", { class: "onitama", "data-ply": v.ply },
      handNode(v, "black", false),
      el("div", { class: "oni-middle" },
        boardNode(v),
        el("div", { class: "oni-side" },
          el("div", { class: "oni-label" }, _("spare")),
          spare ? cardNode(spare, (v.moves || {})[spare], spareUp, "spare",
            Boolean(last && last.card === spare)) : el("p", { class: "muted" }, "—"),
          el("p", { class: "oni-ply" }, ngettext("{n} move played", "{n} moves played", v.ply || 0)))),
      handNode(v, "white", true),
      el("p", { class: "oni-status" + (v.winner ? " oni-over" : "") }, status),
      el("p", { class: "oni-last-text" }, lastText(v))));
  }

  /* A live event of a table (herna/servers/onitama) in words, for the live page's list of
   * events; null: the page says the event's kind. */
  function eventWords(ev) {
    const d = ev.data || {};
    switch (ev.kind) {
      case "game_started":
        return _("{white} against {black}; cards {cards}", { white: whoWords(d.white, "white"),
          black: whoWords(d.black, "black"), cards: (d.cards || []).map(cardWord).join(", ") });
      case "move":
        return actionWords({ type: "move", card: d.card, from: d.frm, to: d.to, capture: d.capture },
          whoWords(d.player, d.color));
      case "stalemate_card":
        return actionWords({ type: "stalemate", old: d.old, new: d.new }, whoWords(d.player, d.color));
      case "logout": return _("{who} left the table", { who: whoWords(d.name, d.color) });
      case "reconnect": return _("{who} is back", { who: whoWords(d.name, d.color) });
      case "overtime":
        return _("{who} ran out of time: {s} s to come back", { who: whoWords(d.name, d.color), s: d.grace });
      case "claimable":
        return _("{who} is away: the opponent may claim the win", { who: whoWords(d.name, d.color) });
      case "game_over":
        if (!d.winner) return _("the game ended without a winner");
        return _("{name} wins {how}", { name: whoWords(d.winner, d.color),
          how: WIN_WORDS[d.reason] || String(d.reason || "").replace(/_/g, " ") });
      default: return null;
    }
  }

  window.HernaGames.onitama = { render, actionWords, whoWords, eventWords, cardWord };

  /* Styles live with the renderer so adding the game touches one file. */
  window.Herna.addStyle("onitama-style", `
.onitama { display: inline-flex; flex-direction: column; gap: .4rem; font-size: .95rem; }
.oni-middle { display: flex; align-items: center; gap: 1rem; }
.oni-side { display: flex; flex-direction: column; align-items: center; gap: .2rem; }
.oni-label, .oni-ply { color: #777; font-size: .8rem; margin: 0; }
.oni-board { max-width: 100%; height: auto; }
.oni-square.oni-light { fill: #efe3c8; }
.oni-square.oni-dark { fill: #e2d2ad; }
.oni-square.oni-arch { fill: #d9c08a; }
.oni-square.oni-last { fill: #f5d76e; }
.oni-square.oni-last-to { fill: #f0c030; }
.oni-arch-mark { stroke: #8a4b2b; stroke-width: 2; fill: none; }
.oni-coord { font-size: 12px; fill: #777; }
.oni-arrow { stroke: rgba(160, 90, 0, .55); stroke-width: 5; stroke-linecap: round; }
.oni-piece circle { stroke: #333; stroke-width: 2; }
.oni-white circle { fill: #fdfdfd; }
.oni-black circle { fill: #2b2b2b; }
.oni-white .oni-crown { fill: #c9a227; }
.oni-black .oni-crown { fill: #e0c060; }
.oni-hand { display: flex; align-items: center; gap: .8rem; padding: .2rem .4rem; border-radius: 6px; }
.oni-hand.oni-turn { background: rgba(240, 192, 48, .18); }
.oni-player { min-width: 9rem; }
.oni-dot { display: inline-block; width: .8rem; height: .8rem; border-radius: 50%; border: 1px solid #333; vertical-align: middle; }
.oni-dot.oni-white { background: #fdfdfd; } .oni-dot.oni-black { background: #2b2b2b; }
.oni-to-move { color: #a06000; } .oni-winner { color: #2a7a2a; font-weight: bold; }
.oni-cards { display: flex; gap: .4rem; }
.oni-card { margin: 0; padding: .25rem; border: 1px solid #bbb; border-radius: 5px; background: #fffaf0; text-align: center; }
.oni-card.oni-card-played { border-color: #f0a000; box-shadow: 0 0 0 2px rgba(240, 160, 0, .35); }
.oni-card figcaption { font-size: .75rem; }
.oni-card-cell { fill: #eee; }
.oni-card-self { fill: #555; }
.oni-card-target { fill: #d9534f; }
.oni-status { font-weight: bold; margin: 0; } .oni-status.oni-over { color: #2a7a2a; }
.oni-last-text { margin: 0; color: #555; }
`);
})();

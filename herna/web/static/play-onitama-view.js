/* The Onitama play page's drawing (static/play-onitama.js keeps the connection and the
 * state): the board with its clickable squares, the status line, what the person must decide
 * (a card, a draw offer, a rematch, the choice of opponent), the moves and the clocks.
 * create() takes the page's state and actions and gives draw() and tick(). */
"use strict";

(function () {
  function create(ctx) {
    const {
      S, page, me, levels, table, root, statusNode, boardBox, promptBox, movesList, WAIT_WORDS,
      inTournament, wish, connected, playerName, moves, myTurn, activate, play, giveUp, rematch,
      cancelRematch, declineRematch, playAgain, choose, resign, offerDraw, answerDraw, sitDown, send,
    } = ctx;
    const { el } = window.Herna;
    const _ = window.Herna._; // the page's language (static/hall.js); docs/translating.md
    const P = window.HernaPlayPage;
    const { squareIndex, ownPiece, hand } = window.HernaOnitamaRules;
    const { cardWord } = window.HernaGames.onitama; // a card's name in the page's language

    function resultText() {
      const { winner, reason } = S.result;
      const won = winner === me;
      if (reason === "draw_agreed" || !winner) return _("A draw: you both agreed to end the game.");
      if (won) {
        if (reason === "way_of_the_stone") {
          return _("You won by the Way of the Stone: you captured your opponent's master.");
        }
        if (reason === "way_of_the_stream") {
          return _("You won by the Way of the Stream: your master reached your opponent's temple arch.");
        }
        if (reason === "opponent_left") return _("You won: your opponent did not come back in time.");
        if (reason === "out_of_time") return _("You won: your opponent ran out of time.");
        if (reason === "resigned") return _("You won: your opponent resigned.");
        return _("You won.");
      }
      const name = { name: winner };
      if (reason === "way_of_the_stone") {
        return _("You lost. {name} won by the Way of the Stone: they captured your master.", name);
      }
      if (reason === "way_of_the_stream") {
        return _("You lost. {name} won by the Way of the Stream: their master reached your temple arch.", name);
      }
      if (reason === "opponent_left") return _("You lost. {name} won: you did not come back in time.", name);
      if (reason === "out_of_time") return _("You lost. {name} won: you ran out of time.", name);
      if (reason === "resigned") return _("You resigned. The game is lost.");
      return _("You lost. {name} won.", name);
    }

    /* -- drawing ---------------------------------------------------------------------------- */

    function view() {
      const offsets = {};
      for (const c of S.cards) offsets[c] = table[c] || [];
      const winnerColor = S.result
        ? (S.result.winner === S.white ? "white" : S.result.winner === S.black ? "black" : null)
        : null;
      return {
        board: S.board,
        cards: { white: [S.cards[0], S.cards[1]], black: [S.cards[2], S.cards[3]], spare: S.cards[4] },
        moves: offsets,
        to_move: S.result ? null : S.toMove,
        winner: winnerColor,
        reason: null,
        players: { white: S.white, black: S.black },
        ply: S.moves.length,
        last: S.last,
        phase: "play",
      };
    }

    function statusText() {
      if (S.phase === "choosing") return _("Choose whom to play, then sit down.");
      if (S.phase === "gone") return S.note;
      if (S.phase === "connecting") return S.note || _("Connecting to the Onitama server…");
      if (S.phase === "lobby" && S.rematching) {
        return _("Waiting for {name} to accept the rematch…", { name: S.rematching });
      }
      if (S.phase === "lobby" && inTournament) return _("Waiting for your next tournament game…");
      if (S.phase === "lobby") {
        const words = S.rematching ? _("Waiting for an opponent…")
          : P.waitWords(P.seekWords(wish()), S.until, WAIT_WORDS);
        const you = S.seek ? _("(You are {name}; your seek is in the lobby.)", { name: me })
          : _("(You are {name}.)", { name: me });
        return `${words} ${you}`;
      }
      if (S.phase === "over") return _("The game is over."); // the result says how, once
      const opponent = S.color === "white" ? S.black : S.white;
      if (S.claimable) {
        return S.claimable.reason === "abandoned"
          ? _("{name} did not come back in time: you may claim the win.", { name: S.claimable.name })
          : _("{name} ran out of time: you may claim the win.", { name: S.claimable.name });
      }
      if (S.away) return _("{name} lost the connection; the game waits for them to come back.", { name: S.away });
      if (S.pending) return _("Sent; waiting for the server…");
      if (S.toMove === S.color) {
        if (!moves().length) return _("You have no legal move: give up one of your cards.");
        return S.color === "white" ? _("Your move (you play white).") : _("Your move (you play black).");
      }
      return S.toMove === "white" ? _("{name} (white) to move.", { name: opponent })
        : _("{name} (black) to move.", { name: opponent });
    }

    function decorate(svgNode, all) {
      const movable = new Set(all.map((m) => m[1]));
      const targets = new Map();
      if (S.selected) {
        for (const m of all) {
          if (m[1] === S.selected) targets.set(m[2], (targets.get(m[2]) || []).concat([m[0]]));
        }
      }
      for (const rect of svgNode.querySelectorAll("rect[data-square]")) {
        const sq = rect.getAttribute("data-square");
        const piece = S.board[squareIndex(sq)];
        const interactive = movable.has(sq) || targets.has(sq);
        if (movable.has(sq)) rect.classList.add("oni-movable");
        if (sq === S.selected) rect.classList.add("oni-selected");
        if (targets.has(sq)) {
          rect.classList.add("oni-target");
          const x = Number(rect.getAttribute("x")) + 32;
          const y = Number(rect.getAttribute("y")) + 32;
          svgNode.appendChild(window.Herna.svg("circle",
            { class: "oni-target-dot", cx: x, cy: y, r: 9 }));
        }
        let label = sq;
        if (piece !== ".") {
          const master = piece === "W" || piece === "B";
          const at = { square: sq };
          label = ownPiece(piece, S.color)
            ? (master ? _("{square}: your master", at) : _("{square}: your student", at))
            : (master ? _("{square}: opponent's master", at) : _("{square}: opponent's student", at));
        }
        if (targets.has(sq)) {
          const [a, b] = targets.get(sq).map(cardWord);
          const cards = b ? _("{a} or {b}", { a, b }) : a;
          label = _("{square}, move here with {cards}", { square: label, cards });
        }
        rect.setAttribute("aria-label", label);
        rect.setAttribute("role", "button");
        rect.setAttribute("tabindex", interactive ? "0" : "-1");
        rect.addEventListener("click", () => activate(sq));
        rect.addEventListener("keydown", (ev) => {
          if (ev.key === "Enter" || ev.key === " ") {
            ev.preventDefault();
            activate(sq);
          }
        });
      }
    }

    function choiceNode() {
      const LEVELS = { random: _("random"), easy: _("easy"), medium: _("medium"), hard: _("hard"),
        strongest: _("strongest") };
      const opponent = el("select", { id: "play-opponent", "aria-label": _("Opponent") },
        el("option", { value: "anyone" }, _("Anyone (people first)")),
        el("option", { value: "people" }, _("People only")),
        levels.map((l) => el("option", { value: `bots:${l}` },
          _("House bot: {level}", { level: LEVELS[l] || l }))));
      const fill = el("input", { id: "play-fill", type: "number", min: "0", max: "3600",
        step: "any", value: String(page.fill_wait ?? 30), inputmode: "numeric",
        "aria-label": _("Seconds to wait for a person before a house bot sits down") });
      const sync = () => { fill.disabled = opponent.value !== "anyone"; };
      opponent.addEventListener("change", sync);
      // The time control of the table: the server's clock per move, or a game clock with an
      // increment (seek word clock=MINUTES+SECONDS).
      const perMove = page.move_clock > 0 ? _("{s} s a move", { s: page.move_clock }) : _("No clock");
      const clock = el("select", { id: "play-clock-choice", "aria-label": _("Clock") },
        el("option", { value: "" }, perMove),
        (page.clocks || []).map((c) => {
          const [m, inc] = c.split("+");
          return el("option", { value: c }, _("{m} min + {s} s a move ({c})", { m, s: inc || 0, c }));
        }));
      // The last choice of this tab again (after Cancel, the menu stays at "People only").
      const last = P.lastChoice("onitama");
      const chosen = last.opponent ? `${last.opponent}${last.level ? `:${last.level}` : ""}` : "";
      if ([...opponent.options].some((o) => o.value === chosen)) opponent.value = chosen;
      if (last.fill !== undefined) fill.value = String(last.fill);
      if ([...clock.options].some((o) => o.value === (last.clock || ""))) clock.value = last.clock || "";
      sync();
      const form = el("form", { class: "play-choose", id: "play-choose" },
        el("label", {}, _("Play against"), " ", opponent),
        el("label", {}, " ", _("a house bot sits down after"), " ", fill, " ",
          _("s if no person comes"), " "),
        el("label", {}, " ", _("Clock"), " ", clock),
        el("button", { type: "submit", id: "play-sit" }, _("Sit down")),
        " ", el("a", { href: "/lobby" }, _("or pick someone in the lobby")));
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const [who, level] = opponent.value.split(":");
        const words = ["person", `opponent=${who}`];
        if (level) words.push(`level=${level}`);
        if (who === "anyone") words.push(`fill=${Math.max(0, Number(fill.value) || 0)}`);
        if (clock.value) words.push(`clock=${clock.value}`);
        P.lastChoice("onitama", words.join(","));
        sitDown(words.join(","));
      });
      return form;
    }

    function promptNode(all) {
      if (S.claimable && S.phase === "game") {
        return el("div", { class: "play-claim" },
          el("button", { type: "button", id: "play-claim", onclick: () => send("CLAIM_WIN") },
            _("Claim the win")),
          el("span", {}, " ", _("or keep waiting for them.")));
      }
      if (S.phase === "over") {
        const offer = S.rematchFrom
          ? el("p", { class: "play-offer", id: "play-rematch-offer" },
            _("{name} wants a rematch.", { name: S.rematchFrom }), " ",
            el("button", { type: "button", id: "play-rematch-accept", onclick: rematch },
              _("Accept the rematch")),
            el("button", { type: "button", id: "play-rematch-decline", onclick: declineRematch },
              _("Decline")))
          : null;
        return el("div", { class: "play-result" },
          el("p", { class: "play-result-text", id: "play-result" }, resultText()),
          offer,
          S.rematching ? el("p", { class: "play-offer", id: "play-rematch-wait", role: "status" },
            _("Waiting for {name} to accept the rematch.", { name: S.rematching }), " ",
            el("button", { type: "button", id: "play-rematch-cancel", onclick: cancelRematch },
              _("Cancel the rematch"))) :
          inTournament ? el("p", { class: "play-after", id: "play-tournament-next" },
            S.tournamentOver ? _("The tournament is over.")
              : _("Your next tournament game starts by itself when it is due.")) :
          el("p", { class: "play-after" },
            S.lastOpponent && !S.rematchFrom && connected()
              ? el("button", { type: "button", id: "play-rematch", onclick: rematch },
                _("Rematch {name}", { name: S.lastOpponent })) : null,
            el("button", { type: "button", id: "play-next", onclick: playAgain }, _("Play again")),
            el("button", { type: "button", id: "play-other", onclick: () => choose("") },
              _("Choose another opponent"))),
          // The engine's review of the game (herna/web/reviews.py finds it by this player).
          el("p", {}, el("a", { id: "play-review", target: "_blank",
            href: `/play/onitama/review?ended=${S.result.at}` }, _("Engine review of this game"))));
      }
      if (S.phase === "game" && S.drawOffered) {
        return el("div", { class: "play-offer", id: "play-draw-offer" },
          el("span", {}, _("{name} offers a draw.", { name: S.drawOffered }), " "),
          el("button", { type: "button", id: "play-draw-accept", onclick: () => answerDraw(true) },
            _("Accept the draw")),
          el("button", { type: "button", id: "play-draw-decline", onclick: () => answerDraw(false) },
            _("Decline")));
      }
      if (S.phase === "game" && S.confirming) {
        return el("div", { class: "play-confirm", id: "play-resign-confirm" },
          el("span", {}, _("Resign this game? You lose it."), " "),
          el("button", { type: "button", id: "play-resign-yes", onclick: resign }, _("Yes, resign")),
          el("button", { type: "button", id: "play-resign-no",
            onclick: () => { S.confirming = false; draw(); } }, _("No, play on")));
      }
      if (S.choice) return null; // asked over the board, where the square was clicked
      if (myTurn() && all.length === 0) {
        return el("div", { class: "play-stalemate" },
          el("span", {}, _("No legal move: give up"), " "),
          hand(S.cards, S.color).map((c) => el("button", { type: "button",
            class: "play-give-up", "data-card": c, onclick: () => giveUp(c) }, cardWord(c))));
      }
      return null;
    }

    /* Resign and offer a draw: below the board all game long. */
    function gameButtons() {
      if (S.phase !== "game" || S.confirming || S.drawOffered) return null;
      return el("p", { class: "play-game-buttons" },
        el("button", { type: "button", id: "play-draw", disabled: S.drawSent ? "" : null,
          onclick: offerDraw }, S.drawSent ? _("Draw offered") : _("Offer a draw")),
        el("button", { type: "button", id: "play-resign",
          onclick: () => { S.confirming = true; draw(); } }, _("Resign")));
    }

    /* Two cards reach the clicked square: the question opens over the board beside it
     * (static/play-onitama-choice.js). */
    function showChoice(svgNode) {
      window.HernaOnitamaChoice.show({ boardBox, svgNode, choice: S.choice, color: S.color, play,
        cancel: () => { S.choice = null; draw(); } });
    }

    function draw() {
      root.dataset.phase = S.phase;
      root.dataset.color = S.color || "";
      root.dataset.toMove = S.toMove || "";
      root.dataset.myTurn = myTurn() ? "1" : "0";
      statusNode.textContent = statusText();
      const note = document.getElementById("play-note");
      note.textContent = S.phase === "gone" || S.phase === "connecting" ? "" : S.note;
      const active = document.activeElement;
      const hadFocus = active && active.getAttribute && active.getAttribute("data-square");
      if (S.board && S.cards && S.phase !== "lobby" && S.phase !== "choosing") {
        window.HernaGames.onitama.render(boardBox, view());
        const svgNode = boardBox.querySelector("svg.oni-board");
        const all = moves();
        if (svgNode) decorate(svgNode, all);
        promptBox.replaceChildren(...[promptNode(all), gameButtons()].filter(Boolean));
        S.resultShown = P.showNextOnce(promptBox, S.phase === "over", S.resultShown);
        if (S.choice && svgNode) showChoice(svgNode);
        const want = hadFocus ? S.focusSquare || hadFocus : null;
        if (want) {
          const target = boardBox.querySelector(`rect[data-square="${want}"][tabindex="0"]`) ||
            boardBox.querySelector('rect[tabindex="0"]');
          if (target) target.focus();
        }
      } else if (S.phase === "choosing") {
        boardBox.replaceChildren();
        if (!promptBox.querySelector("#play-choose")) promptBox.replaceChildren(choiceNode());
      } else if (S.phase === "lobby") {
        boardBox.replaceChildren();
        S.confirming = false;
        promptBox.replaceChildren(el("button", { type: "button", id: "play-cancel",
          onclick: () => choose("") }, _("Cancel")));
      } else {
        boardBox.replaceChildren();
        promptBox.replaceChildren();
      }
      tick();
      movesList.replaceChildren(...S.moves.map((m) => el("li", {}, m)));
      // No "Moves" heading over nothing (before a game, while choosing an opponent).
      document.getElementById("play-moves-title").hidden = !S.moves.length;
    }

    /* The move clock of the side to move, counted down between the server's CLOCK lines. */
    function tick() {
      if (S.phase === "lobby" && S.until) statusNode.textContent = statusText(); // the countdown
      let node = document.getElementById("play-clock");
      if (!node) {
        node = el("p", { class: "play-clock", id: "play-clock", "aria-live": "off" });
        statusNode.after(node);
      }
      const gc = S.gameClock;
      if (gc && (S.phase === "game" || S.phase === "over")) {
        node.classList.remove("play-clock-over");
        const shown = (color) => {
          const left = gc.toMove === color ? Math.max(0, gc[color] - (Date.now() - gc.at) / 1000)
            : gc[color];
          return P.clockWords(left);
        };
        node.dataset.color = gc.toMove || "";
        node.textContent = _("Clock: {white} (white) {w} · {black} (black) {b}", {
          white: playerName("white"), w: shown("white"), black: playerName("black"), b: shown("black") });
        return;
      }
      const c = S.clock;
      if (!c || S.phase !== "game") {
        node.textContent = "";
        node.dataset.color = "";
        return;
      }
      const left = Math.max(0, Math.ceil((c.until - Date.now()) / 1000));
      const mine = c.color === S.color;
      const name = playerName(c.color);
      node.dataset.color = c.color;
      node.dataset.left = String(left);
      node.classList.toggle("play-clock-over", c.overtime);
      if (c.overtime) {
        node.textContent = mine ? _("Time is up: you have {left} s of grace left.", { left })
          : _("Time is up: {name} has {left} s of grace left.", { name, left });
      } else {
        node.textContent = mine ? _("You have {left} s for this move.", { left })
          : _("{name} has {left} s for this move.", { name, left });
      }
    }

    return { draw, tick, resultText };
  }

  window.HernaOnitamaView = { create };
})();

/* Play Onitama in the browser: one more client of the Onitama server, over /ws/onitama.
 *
 * The page speaks the server's line protocol (docs/protocols/onitama.md), one message per
 * WebSocket frame. The server is the only authority: the page keeps the state the protocol
 * lets every client work out (START carries the cards, MOVE_WAS_MADE the moves, RECONNECT the
 * whole state) and only uses it to draw the board and to highlight what a move may be. The
 * card table comes from the server's page data (herna/games/onitama/cards.py), so the
 * highlighted targets follow the same cards as the engine; tests compare legalMoves() with the
 * Python engine on many positions.
 *
 * The seat secret from START is kept in localStorage under the guest name, so a reload (or a
 * tab closed and opened again) within the server's reconnect window logs in with it and gets
 * the same seat back (LOGIN|name|secret, answered by RECONNECT with the whole state).
 * A lost connection is retried with backoff in the same page (no reload). RECONNECT carries
 * the position but not the moves, so the page works out the moves it missed meanwhile from
 * the position it had (kept with the moves in localStorage) and the one it gets: while the
 * person is away only the opponent can move, once, besides a move the person sent whose
 * answer was lost (see missedPlies). Each ply is listed once; should the positions not be
 * one or two such plies apart, the list says that moves are missing instead of guessing.
 *
 * Drawing reuses the spectator renderer (static/games/onitama.js); this file adds clicks and
 * keys on its squares.
 *
 * Before sitting down the person chooses (unless the lobby page sent them here with `?seek=`):
 * a house bot of a level, people only, or anyone with a wait after which house bots fill the
 * seat. The choice travels in LOGIN's fourth field, the hall lobby's seek (Herna extension,
 * docs/protocols/onitama.md): `LOGIN|name|token-or-dash|person,opponent=…`. With it the
 * server also sends the lobby's lines: `SEEK|id` (waiting in the lobby), `CLOCK|color|s` and
 * `OVERTIME|color|s` (the move clock, counted down here), `CLAIMABLE|name|reason` (the
 * opponent is gone or out of time past the grace period: a "Claim the win" button sends
 * `CLAIM_WIN`).
 *
 * The seek always carries the word `once`: after GAME_OVER the server gives this seat no new
 * game until the person asks for one (the result stays on the screen). In a game the person
 * may resign (`RESIGN`, after a confirm) and offer a draw (`OFFER_DRAW`; the opponent's offer
 * arrives as `DRAW_OFFERED|name` and is answered with `ACCEPT_DRAW` / `DECLINE_DRAW`). After
 * the game the result panel offers a rematch (`REMATCH`: the same opponent, colours swapped;
 * a person's offer arrives as `REMATCH_OFFERED|name`) and "Play again" (`PLAY_AGAIN`: the same
 * choice of opponent in the lobby again). The server decides all of it.
 */
"use strict";

(function () {
  const FILES = "abcde";
  const COLORS = ["white", "black"];
  const START_BOARD = "bbBbb...............wwWww";

  /* -- rules the page needs to highlight targets (the server decides) --------------------- */

  function squareIndex(name) {
    // board strings list rank 5 first, files a-e within a rank
    return (5 - Number(name[1])) * 5 + FILES.indexOf(name[0]);
  }

  function squareName(index) {
    return FILES[index % 5] + String(5 - Math.floor(index / 5));
  }

  function ownPiece(symbol, color) {
    return color === "white" ? symbol === "w" || symbol === "W" : symbol === "b" || symbol === "B";
  }

  function hand(cards, color) {
    return color === "white" ? [cards[0], cards[1]] : [cards[2], cards[3]];
  }

  /* -- catching up after a lost connection ------------------------------------------------ */

  const sameCards = (a, b) => a.slice().sort().join() === b.slice().sort().join();

  /* The one ply by `a.toMove` that turns position `a` into `b` ({board, cards, toMove}), or
   * null. The card used becomes the spare and the old spare takes its place in the hand
   * (the server may order a hand either way); a move shifts one own piece, a stalemate
   * (no move: a card given up) leaves the board alone. */
  function plyBetween(a, b) {
    const mover = a.toMove;
    const other = mover === "white" ? "black" : "white";
    if (b.toMove !== other || !sameCards(hand(a.cards, other), hand(b.cards, other))) return null;
    const used = b.cards[4];
    const held = hand(a.cards, mover);
    if (!held.includes(used)) return null;
    if (!sameCards(hand(b.cards, mover), held.map((c) => (c === used ? a.cards[4] : c)))) return null;
    const diff = [];
    for (let i = 0; i < 25; i += 1) if (a.board[i] !== b.board[i]) diff.push(i);
    if (!diff.length) return { type: "stalemate", color: mover, old: used, fresh: a.cards[4] };
    if (diff.length !== 2) return null;
    for (const [x, y] of [[diff[0], diff[1]], [diff[1], diff[0]]]) {
      if (ownPiece(a.board[x], mover) && b.board[x] === "." && b.board[y] === a.board[x]) {
        return { type: "move", color: mover, card: used, from: squareName(x), to: squareName(y),
                 capture: a.board[y] !== "." };
      }
    }
    return null;
  }

  /* Position `a` after `ply` (a move or stalemate the page sent). */
  function afterPly(a, ply) {
    const board = a.board.split("");
    const cards = a.cards.slice();
    const base = a.toMove === "white" ? 0 : 2;
    const k = cards[base] === ply.card ? base : base + 1;
    cards[k] = cards[4];
    cards[4] = ply.card;
    if (ply.type === "move") {
      board[squareIndex(ply.to)] = board[squareIndex(ply.from)];
      board[squareIndex(ply.from)] = ".";
    }
    return { board: board.join(""), cards, toMove: a.toMove === "white" ? "black" : "white" };
  }

  /* The plies between the position the page had (`a`) and the server's (`b`): none, the
   * opponent's one, or the page's own `sent` ply whose answer was lost and then the
   * opponent's; null when they are not that. */
  function missedPlies(a, b, sent) {
    const same = (x, y) => x.board === y.board && x.toMove === y.toMove &&
      sameCards(hand(x.cards, "white"), hand(y.cards, "white")) &&
      sameCards(hand(x.cards, "black"), hand(y.cards, "black")) && x.cards[4] === y.cards[4];
    if (!a || !a.board || !a.cards || a.cards.length !== 5) return null;
    if (same(a, b)) return [];
    const one = plyBetween(a, b);
    if (one) return [one];
    if (!sent) return null;
    const mine = afterPly(a, sent);
    const first = Object.assign({ color: a.toMove }, sent,
      sent.type === "move" ? { capture: a.board[squareIndex(sent.to)] !== "." }
        : { old: sent.card, fresh: a.cards[4] });
    if (same(mine, b)) return [first];
    const then = plyBetween(mine, b);
    return then ? [first, then] : null;
  }

  /* Every move [card, from, to] of `color` on `board` with `cards` [w1, w2, b1, b2, spare]:
   * a card's offsets are (dx right, dy forward) from its holder's view; Black's are turned. */
  function legalMoves(table, board, cards, color) {
    const out = [];
    const sign = color === "white" ? 1 : -1;
    for (const card of hand(cards, color)) {
      const offsets = table[card] || [];
      for (let i = 0; i < 25; i++) {
        if (!ownPiece(board[i], color)) continue;
        const file = i % 5;
        const rank = 5 - Math.floor(i / 5);
        for (const [dx, dy] of offsets) {
          const f = file + sign * dx;
          const r = rank + sign * dy;
          if (f < 0 || f > 4 || r < 1 || r > 5) continue;
          const to = FILES[f] + String(r);
          if (ownPiece(board[squareIndex(to)], color)) continue;
          out.push([card, squareName(i), to]);
        }
      }
    }
    return out;
  }

  window.HernaOnitamaRules = { legalMoves, squareIndex, squareName };

  /* -- the page ------------------------------------------------------------------------------ */

  function start(page) {
    const { el } = window.Herna;
    const root = document.getElementById("play");
    const statusNode = document.getElementById("play-status");
    const boardBox = document.getElementById("play-board");
    const promptBox = document.getElementById("play-prompt");
    const movesList = document.getElementById("play-moves");
    const me = page.guest;
    // A signed-in person's page carries a proof of the reserved name (page.token): it is the
    // LOGIN's third field whenever there is no seat secret to show.
    const storeKey = `herna.onitama.seat.${me}`;
    const table = page.cards;

    const levels = page.levels || ["easy", "medium", "hard", "strongest"];
    const params = new URLSearchParams(location.search);
    let wish = params.get("seek"); // from the lobby page: sit down with that at once
    const S = {
      phase: "connecting", // choosing | connecting | lobby | game | over | gone
      seek: null, clock: null, claimable: null,
      white: null, black: null, color: null,
      board: null, cards: null, toMove: null,
      moves: [], last: null, result: null,
      selected: null, choice: null, pending: false, away: null,
      retries: 0, note: "",
      confirming: false, drawOffered: null, drawSent: false, rematchFrom: null, rematching: null,
      lastOpponent: null, gameClock: null, until: null,
    };
    const P = window.HernaPlayPage;
    const WAIT_WORDS = { one: "a person", people: "another person", fill: "a house bot sits down",
      filling: "a house bot is sitting down", bots: "A house bot is sitting down" };
    let ws = null;
    let closedByUs = false;
    let focusSquare = null;

    function saved() {
      try {
        return JSON.parse(localStorage.getItem(storeKey) || "null");
      } catch (err) {
        return null;
      }
    }

    function save(extra) {
      const seat = Object.assign(saved() || {}, extra);
      localStorage.setItem(storeKey, JSON.stringify(seat));
    }

    function forget() {
      localStorage.removeItem(storeKey);
    }

    function send(line) {
      if (ws && ws.readyState === WebSocket.OPEN) ws.send(line);
    }

    /* LOGIN with the seat secret (a seat to come back to), else the page's token, and the
     * lobby seek. */
    function loginLine() {
      const seat = saved();
      const proof = (seat && seat.secret) || page.token || "-";
      const words = (wish || "person").split(",");
      // A new game only when asked for; in a tournament the tournament pairs the next one.
      const tournament = words.some((w) => w.startsWith("tournament="));
      if (!tournament && !words.includes("once")) words.push("once");
      return `LOGIN|${me}|${proof}|${words.join(",")}`;
    }

    function choose(note) {
      closedByUs = true;
      if (ws) ws.close(P.LEAVING); // on purpose: the seek ends now, not after a grace
      ws = null;
      P.waiting("onitama", null);
      S.phase = "choosing";
      S.seek = null;
      S.note = note || "";
      wish = null;
      if (params.has("seek")) history.replaceState(null, "", location.pathname);
      draw();
      const first = promptBox.querySelector("select, button");
      if (first) first.focus();
    }

    function sitDown(spec) {
      wish = spec;
      S.note = "";
      connect(false);
    }

    /* Connect and log in; or (`resume`: this tab was waiting for an opponent) take the same
     * connection back, which the server holds for a while after a reload (play-page.js). */
    function connect(resume) {
      ws = new WebSocket(P.socketUrl("onitama", resume));
      closedByUs = false;
      S.phase = "connecting";
      draw();
      ws.onopen = () => { if (!resume) send(loginLine()); };
      ws.onmessage = (ev) => receive(String(ev.data));
      ws.onclose = (ev) => {
        ws = null;
        if (closedByUs || S.phase === "gone" || S.phase === "choosing") return;
        if (ev.code === 4004) {
          gone("The Onitama server is not running in this hall.");
          return;
        }
        if (ev.code === P.NOTHING_TO_RESUME) {
          // Away longer than the server keeps a seek: it ended.
          P.waiting("onitama", null);
          const seat = saved();
          if (wish || (seat && seat.secret)) connect(false);
          else choose("You were away too long, so your seek ended: choose again.");
          return;
        }
        if (S.phase === "over") {
          S.note = "The server closed the connection after the game.";
          draw();
          return;
        }
        // A lost connection: come back with the seat secret, as a TCP bot would.
        const wait = Math.min(5000, 500 * 2 ** S.retries);
        S.retries += 1;
        S.phase = "connecting";
        S.note = `Connection lost; reconnecting in ${(wait / 1000).toFixed(1)} s…`;
        draw();
        setTimeout(() => connect(Boolean(P.waiting("onitama"))), wait);
      };
    }

    function gone(text) {
      S.phase = "gone";
      S.note = text;
      closedByUs = true;
      P.waiting("onitama", null);
      if (ws) ws.close(P.LEAVING);
      draw();
    }

    function receive(line) {
      handle(line.split("|"));
      draw();
    }

    function rememberStart(f) {
      const color = f[1] === me ? "white" : "black";
      save({ secret: f[4] || null, white: f[1], black: f[2], color, moves: [],
             board: START_BOARD, cards: (f[3] || "").split(","), toMove: "white" });
    }

    function handle(f) {
      const [command] = f;
      if (command === "LOGIN_OK") {
        S.retries = 0;
        S.phase = "lobby";
        S.note = "";
      } else if (command === "SEEK") {
        seekOpened(f[1] || null);
      } else if (command === "CLOCK" || command === "OVERTIME") {
        S.clock = { color: f[1], until: Date.now() + 1000 * Number(f[2] || 0),
          overtime: command === "OVERTIME" };
      } else if (command === "GAME_CLOCK") {
        S.gameClock = { white: Number(f[1] || 0), black: Number(f[2] || 0), toMove: f[3],
          at: Date.now() };
      } else if (command === "CLAIMABLE") {
        S.claimable = { name: f[1], reason: f[2] || "" };
        S.note = "";
      } else if (command === "LOGIN_FAILED") {
        loginFailed(f[1], f[2] || "");
      } else if (command === "START") {
        P.waiting("onitama", null);
        S.until = null;
        rememberStart(f);
        S.white = f[1];
        S.black = f[2];
        S.color = f[1] === me ? "white" : "black";
        S.cards = (f[3] || "").split(",");
        S.board = START_BOARD;
        S.toMove = "white";
        S.moves = [];
        S.last = null;
        S.result = null;
        S.away = null;
        S.gameClock = null;
        S.pending = false;
        S.selected = null;
        S.choice = null;
        S.confirming = false;
        S.drawOffered = null;
        S.drawSent = false;
        S.rematchFrom = null;
        S.rematching = null;
        S.phase = "game";
        S.note = "";
      } else if (command === "DRAW_OFFERED") {
        S.drawOffered = f[1] || "";
      } else if (command === "DRAW_DECLINED") {
        S.drawSent = false;
        S.note = `${f[1]} declined your draw offer.`;
      } else if (command === "REMATCH_OFFERED") {
        S.rematchFrom = f[1] || "";
      } else if (command === "REMATCH_DECLINED") {
        S.rematching = null;
        S.rematchFrom = null;
        S.seek = null;
        P.waiting("onitama", null);
        if (S.phase === "lobby") S.phase = "over";
        S.note = `${f[1]} does not want a rematch now.`;
      } else if (command === "MOVE_WAS_MADE") {
        applyMove(f[1], f[2], f[3]);
      } else if (command === "STALEMATE_CARD") {
        applyStalemate(f[1], f[2], f[3]);
      } else if (command === "INVALID_MOVE") {
        S.pending = false;
        S.note = "The server refused that move; nothing changed.";
      } else if (command === "LOGOUT") {
        S.away = f[1];
      } else if (command === "RECONNECT") {
        reconnect(f);
      } else if (command === "GAME_OVER") {
        gameOver(f[1], f[2] || "");
      } else if (command === "ERROR") {
        const code = f[1] || "";
        if (code === "SEEK_CANCELLED") {
          choose("You cancelled your seek in the lobby.");
        } else if (code === "NOTHING_TO_CLAIM") {
          S.claimable = null;
          S.note = "Your opponent is back: there is nothing to claim.";
        } else if (code === "SEAT_TAKEN_OVER") {
          gone("This seat was taken over by another tab or window; play on there.");
        } else if (code === "SERVER_SHUTDOWN") {
          gone("The server is shutting down; the game was aborted.");
        } else if (code === "NO_DRAW_OFFER") {
          S.drawOffered = null;
          S.note = "That draw offer is no longer open.";
        } else if (code === "DRAW_NOT_NOW") {
          S.note = "You offered a draw already; make a move before you offer again.";
        } else if (code === "NO_REMATCH") {
          S.phase = "over";
          S.note = "There is nobody here to play again.";
        } else {
          S.pending = false;
          S.note = `The server answered ERROR ${code}; nothing changed.`;
        }
      }
    }

    /* The server's SEEK|id: waiting in the lobby. Kept for a reload with what was asked for
     * and when house bots fill the seat (a reload keeps the same countdown). */
    function seekOpened(id) {
      const kept = P.waiting("onitama");
      if (kept && kept.seek === id) {
        wish = kept.wish;
        S.until = kept.until;
        S.rematching = kept.rematching || null;
      } else {
        S.until = S.rematching ? null : P.fillDeadline(P.seekWords(wish));
      }
      S.seek = id;
      if (S.phase === "connecting" || S.phase === "over") S.phase = "lobby";
      P.waiting("onitama", { seek: id, wish, until: S.until, rematching: S.rematching });
    }

    function loginFailed(code, text) {
      const seat = saved();
      if (code === "BAD_TOKEN" && seat && seat.secret) {
        forget(); // that seat is gone (the game ended meanwhile): choose a new game
        choose("Your last game is over.");
        return;
      }
      if (["NO_SUCH_SEEK", "NOT_FOR_YOU", "OWN_SEEK", "BAD_SEEK", "WRONG_GAME"].includes(code)) {
        choose(`The lobby refused that: ${text || code}`);
        return;
      }
      if (code === "NAME_IN_USE" && S.retries < 6) {
        // After a reload the old connection may not be closed yet: try again shortly.
        S.retries += 1;
        S.note = "Waiting for the previous connection to close…";
        setTimeout(() => send(loginLine()), 300 * S.retries);
        return;
      }
      gone(`The server refused the name ${me}: ${text || code}`);
    }

    function applyMove(card, from, to) {
      const board = S.board.split("");
      const fi = squareIndex(from);
      const ti = squareIndex(to);
      const capture = board[ti] !== ".";
      const color = S.toMove;
      board[ti] = board[fi];
      board[fi] = ".";
      S.board = board.join("");
      const base = color === "white" ? 0 : 2;
      const k = S.cards[base] === card ? base : base + 1;
      S.cards[k] = S.cards[4];
      S.cards[4] = card;
      S.last = { type: "move", player: color, card, from, to, capture };
      S.moves.push(moveText(color, card, from, to, capture));
      S.toMove = color === "white" ? "black" : "white";
      S.pending = false;
      S.selected = null;
      S.choice = null;
      S.note = "";
      S.clock = null;
      if (S.claimable && S.claimable.name === playerName(color)) S.claimable = null;
      S.sent = null;
      savePosition();
    }

    function applyStalemate(old, fresh, spare) {
      const color = S.toMove;
      const base = color === "white" ? 0 : 2;
      const k = S.cards[base] === old ? base : base + 1;
      S.cards[k] = fresh;
      S.cards[4] = spare;
      S.last = { type: "stalemate", player: color, old, new: fresh };
      S.moves.push(stalemateText(color, old, fresh));
      S.toMove = color === "white" ? "black" : "white";
      S.pending = false;
      S.choice = null;
      S.sent = null;
      savePosition();
    }

    /* A move in words: herna/games/onitama/words.py's, through the renderer's copy. */
    function moveText(color, card, from, to, capture) {
      const { actionWords, whoWords } = window.HernaGames.onitama;
      return actionWords({ type: "move", card, from, to, capture }, whoWords(playerName(color), color));
    }

    function stalemateText(color, old, fresh) {
      const { actionWords, whoWords } = window.HernaGames.onitama;
      return actionWords({ type: "stalemate", old, new: fresh }, whoWords(playerName(color), color));
    }

    /* The moves and the position they lead to, for a reload or a lost connection. */
    function savePosition() {
      save({ moves: S.moves, board: S.board, cards: S.cards, toMove: S.toMove });
    }

    function reconnect(f) {
      const [, name, color, board, cards, toMove] = f;
      const seat = saved() || {};
      if (name === me) {
        // The position the page had: its own (a lost connection) or the saved one (a reload).
        const had = S.white && S.board && S.cards ? { board: S.board, cards: S.cards, toMove: S.toMove }
          : { board: seat.board, cards: seat.cards, toMove: seat.toMove };
        const sent = S.white ? S.sent : null;
        S.color = color;
        S.white = seat.white || (color === "white" ? me : "opponent");
        S.black = seat.black || (color === "black" ? me : "opponent");
        S.moves = Array.isArray(seat.moves) ? seat.moves.slice() : [];
        const missed = missedPlies(had, { board, cards: cards.split(","), toMove }, sent);
        for (const ply of missed || []) {
          S.moves.push(ply.type === "move" ? moveText(ply.color, ply.card, ply.from, ply.to, ply.capture)
            : stalemateText(ply.color, ply.old, ply.fresh));
        }
        // (With no move listed yet the page only assumed the standard start, which START
        // does not confirm: a set-up position is not a sign of moves missed.)
        if (missed === null && S.moves.length) {
          S.moves.push("(moves made while you were away are not listed)");
        }
        S.sent = null;
        S.note = "Back at your seat.";
        const ply = missed && missed.length ? missed[missed.length - 1] : null;
        S.last = !ply ? null : ply.type === "move"
          ? { type: "move", player: ply.color, card: ply.card, from: ply.from, to: ply.to, capture: ply.capture }
          : { type: "stalemate", player: ply.color, old: ply.old, new: ply.fresh };
        S.result = null;
      } else {
        S.away = null;
        S.claimable = null;
        S.note = `${name} is back.`;
      }
      S.board = board;
      S.cards = cards.split(",");
      S.toMove = toMove;
      S.pending = false;
      S.selected = null;
      S.choice = null;
      S.phase = "game";
      if (name === me) savePosition();
    }

    function gameOver(winner, reason) {
      S.phase = "over";
      if (S.gameClock) {
        // the clocks as they stopped
        const gc = S.gameClock;
        gc[gc.toMove] = Math.max(0, gc[gc.toMove] - (Date.now() - gc.at) / 1000);
        gc.toMove = null;
      }
      S.lastOpponent = S.color === "white" ? S.black : S.white;
      S.note = ""; // (an offer's note is stale now: the result says it)
      S.confirming = false;
      S.drawOffered = null;
      S.drawSent = false;
      S.clock = null;
      S.claimable = null;
      S.result = { winner, reason };
      S.pending = false;
      S.selected = null;
      S.choice = null;
      S.away = null;
      forget();
    }

    function playerName(color) {
      return color === "white" ? S.white : S.black;
    }

    function resultText() {
      const { winner, reason } = S.result;
      const won = winner === me;
      const who = won ? "You won" : `${winner} won`;
      const lost = won ? "" : "You lost. ";
      if (reason === "way_of_the_stone") {
        return `${lost}${who} by the Way of the Stone: ${won ? "you" : "they"} captured ` +
          `${won ? "your opponent's" : "your"} master.`;
      }
      if (reason === "way_of_the_stream") {
        return `${lost}${who} by the Way of the Stream: ${won ? "your" : "their"} master ` +
          `reached ${won ? "your opponent's" : "your"} temple arch.`;
      }
      if (reason === "opponent_left") {
        return won ? "You won: your opponent did not come back in time."
          : `${lost}${winner} won: you did not come back in time.`;
      }
      if (reason === "out_of_time") {
        return won ? "You won: your opponent ran out of time."
          : `${lost}${winner} won: you ran out of time.`;
      }
      if (reason === "resigned") {
        return won ? "You won: your opponent resigned." : "You resigned. The game is lost.";
      }
      if (reason === "draw_agreed" || !winner) return "A draw: you both agreed to end the game.";
      return `${lost}${who}.`;
    }

    /* -- input ------------------------------------------------------------------------------ */

    function myTurn() {
      return S.phase === "game" && S.toMove === S.color && !S.pending;
    }

    function moves() {
      return myTurn() ? legalMoves(table, S.board, S.cards, S.color) : [];
    }

    function activate(square) {
      if (!myTurn()) return; // out of turn: nothing to send
      const all = moves();
      if (S.selected) {
        const options = all.filter((m) => m[1] === S.selected && m[2] === square);
        if (options.length === 1) {
          play(options[0]);
          return;
        }
        if (options.length > 1) {
          S.choice = options;
          draw();
          return;
        }
      }
      S.choice = null;
      S.selected = all.some((m) => m[1] === square) && S.selected !== square ? square : null;
      focusSquare = square;
      draw();
    }

    function play(move) {
      const [card, from, to] = move;
      S.pending = true;
      S.choice = null;
      S.sent = { type: "move", card, from, to };
      focusSquare = to;
      send(`MAKE_MOVE|${card}|${from}|${to}`);
      draw();
    }

    function giveUp(card) {
      if (!myTurn()) return;
      S.pending = true;
      S.sent = { type: "stalemate", card };
      send(`STALEMATE|${card}`);
      draw();
    }

    /* After the game: the same choice of opponent again, or the same opponent again. */
    function playAgain() {
      S.result = null;
      S.rematchFrom = null;
      S.note = "";
      S.phase = "lobby";
      if (!ws) {
        connect(false);
        return;
      }
      send("PLAY_AGAIN");
      draw();
    }

    function rematch() {
      if (!ws) return;
      S.rematching = S.lastOpponent;
      S.note = "";
      S.phase = "lobby";
      send("REMATCH");
      draw();
    }

    function declineRematch() {
      S.rematchFrom = null;
      send("DECLINE_REMATCH");
      draw();
    }

    function resign() {
      S.confirming = false;
      send("RESIGN");
      draw();
    }

    function offerDraw() {
      S.drawSent = true;
      S.note = "You offered a draw; your opponent may accept it or play on.";
      send("OFFER_DRAW");
      draw();
    }

    function answerDraw(accept) {
      S.drawOffered = null;
      send(accept ? "ACCEPT_DRAW" : "DECLINE_DRAW");
      draw();
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
      if (S.phase === "choosing") return "Choose whom to play, then sit down.";
      if (S.phase === "gone") return S.note;
      if (S.phase === "connecting") return S.note || "Connecting to the Onitama server…";
      if (S.phase === "lobby" && S.rematching) {
        return `Waiting for ${S.rematching} to accept a rematch…`;
      }
      if (S.phase === "lobby") {
        const words = S.rematching ? "Waiting for an opponent…"
          : P.waitWords(P.seekWords(wish), S.until, WAIT_WORDS);
        return `${words} (You are ${me}${S.seek ? `; your seek ${S.seek} is in the lobby` : ""}.)`;
      }
      if (S.phase === "over") return resultText();
      const opponent = S.color === "white" ? S.black : S.white;
      if (S.claimable) {
        return S.claimable.reason === "abandoned"
          ? `${S.claimable.name} did not come back in time: you may claim the win.`
          : `${S.claimable.name} ran out of time: you may claim the win.`;
      }
      if (S.away) return `${S.away} lost the connection; the game waits for them to come back.`;
      if (S.pending) return "Sent; waiting for the server…";
      if (S.toMove === S.color) {
        return moves().length ? `Your move (you play ${S.color}).`
          : "You have no legal move: give up one of your cards.";
      }
      return `${opponent} (${S.toMove}) to move.`;
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
          label += ownPiece(piece, S.color) ? ": your " : ": opponent's ";
          label += piece === "W" || piece === "B" ? "master" : "student";
        }
        if (targets.has(sq)) label += `, move here with ${targets.get(sq).join(" or ")}`;
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
      const opponent = el("select", { id: "play-opponent", "aria-label": "Opponent" },
        el("option", { value: "anyone" }, "Anyone (people first)"),
        el("option", { value: "people" }, "People only"),
        levels.map((l) => el("option", { value: `bots:${l}` }, `House bot: ${l}`)));
      const fill = el("input", { id: "play-fill", type: "number", min: "0", max: "3600",
        step: "any", value: String(page.fill_wait ?? 30), inputmode: "numeric",
        "aria-label": "Seconds to wait for a person before a house bot sits down" });
      const sync = () => { fill.disabled = opponent.value !== "anyone"; };
      opponent.addEventListener("change", sync);
      // The time control of the table: the server's clock per move, or a game clock with an
      // increment (seek word clock=MINUTES+SECONDS).
      const perMove = page.move_clock > 0 ? `${page.move_clock} s a move` : "No clock";
      const clock = el("select", { id: "play-clock-choice", "aria-label": "Clock" },
        el("option", { value: "" }, perMove),
        (page.clocks || []).map((c) => {
          const [m, inc] = c.split("+");
          return el("option", { value: c }, `${m} min + ${inc || 0} s a move (${c})`);
        }));
      const form = el("form", { class: "play-choose", id: "play-choose" },
        el("label", {}, "Play against ", opponent),
        el("label", {}, " a house bot sits down after ", fill, " s if no person comes "),
        el("label", {}, " Clock ", clock),
        el("button", { type: "submit", id: "play-sit" }, "Sit down"),
        " ", el("a", { href: "/lobby" }, "or pick someone in the lobby"));
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const [who, level] = opponent.value.split(":");
        const words = ["person", `opponent=${who}`];
        if (level) words.push(`level=${level}`);
        if (who === "anyone") words.push(`fill=${Math.max(0, Number(fill.value) || 0)}`);
        if (clock.value) words.push(`clock=${clock.value}`);
        sitDown(words.join(","));
      });
      return form;
    }

    function promptNode(all) {
      if (S.claimable && S.phase === "game") {
        return el("div", { class: "play-claim" },
          el("button", { type: "button", id: "play-claim", onclick: () => send("CLAIM_WIN") },
            "Claim the win"),
          el("span", {}, " or keep waiting for them."));
      }
      if (S.phase === "over") {
        const offer = S.rematchFrom
          ? el("p", { class: "play-offer", id: "play-rematch-offer" },
            `${S.rematchFrom} wants a rematch. `,
            el("button", { type: "button", id: "play-rematch-accept", onclick: rematch },
              "Accept the rematch"),
            el("button", { type: "button", id: "play-rematch-decline", onclick: declineRematch },
              "Decline"))
          : null;
        return el("div", { class: "play-result" },
          el("p", { class: "play-result-text", id: "play-result" }, resultText()),
          offer,
          el("p", { class: "play-after" },
            S.lastOpponent && !S.rematchFrom && ws
              ? el("button", { type: "button", id: "play-rematch", onclick: rematch },
                `Rematch ${S.lastOpponent}`) : null,
            el("button", { type: "button", id: "play-next", onclick: playAgain }, "Play again"),
            el("button", { type: "button", id: "play-other", onclick: () => choose("") },
              "Choose another opponent")));
      }
      if (S.phase === "game" && S.drawOffered) {
        return el("div", { class: "play-offer", id: "play-draw-offer" },
          el("span", {}, `${S.drawOffered} offers a draw. `),
          el("button", { type: "button", id: "play-draw-accept", onclick: () => answerDraw(true) },
            "Accept the draw"),
          el("button", { type: "button", id: "play-draw-decline", onclick: () => answerDraw(false) },
            "Decline"));
      }
      if (S.phase === "game" && S.confirming) {
        return el("div", { class: "play-confirm", id: "play-resign-confirm" },
          el("span", {}, "Resign this game? You lose it. "),
          el("button", { type: "button", id: "play-resign-yes", onclick: resign }, "Yes, resign"),
          el("button", { type: "button", id: "play-resign-no",
            onclick: () => { S.confirming = false; draw(); } }, "No, play on"));
      }
      if (S.choice) return null; // asked over the board, where the square was clicked
      if (myTurn() && all.length === 0) {
        return el("div", { class: "play-stalemate" },
          el("span", {}, "No legal move: give up "),
          hand(S.cards, S.color).map((c) => el("button", { type: "button",
            class: "play-give-up", "data-card": c, onclick: () => giveUp(c) }, c)));
      }
      return null;
    }

    /* Resign and offer a draw: below the board all game long. */
    function gameButtons() {
      if (S.phase !== "game" || S.confirming || S.drawOffered) return null;
      return el("p", { class: "play-game-buttons" },
        el("button", { type: "button", id: "play-draw", disabled: S.drawSent ? "" : null,
          onclick: offerDraw }, S.drawSent ? "Draw offered" : "Offer a draw"),
        el("button", { type: "button", id: "play-resign",
          onclick: () => { S.confirming = true; draw(); } }, "Resign"));
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
        // When a game ends, what to do next comes into view once (below the board it sat
        // under the fold at 1280x800).
        if (S.phase !== "over") S.resultShown = false;
        else if (!S.resultShown) {
          S.resultShown = true;
          const next = promptBox.querySelector(".play-after");
          if (next) next.scrollIntoView({ block: "nearest" });
        }
        if (S.choice && svgNode) showChoice(svgNode);
        const want = hadFocus ? focusSquare || hadFocus : null;
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
          onclick: () => choose("") }, "Cancel"));
      } else {
        boardBox.replaceChildren();
        promptBox.replaceChildren();
      }
      tick();
      movesList.replaceChildren(...S.moves.map((m) => el("li", {}, m)));
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
          const s = Math.ceil(left);
          return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
        };
        node.dataset.color = gc.toMove || "";
        node.textContent = `Clock: ${playerName("white")} (white) ${shown("white")} · ` +
          `${playerName("black")} (black) ${shown("black")}`;
        return;
      }
      const c = S.clock;
      if (!c || S.phase !== "game") {
        node.textContent = "";
        node.dataset.color = "";
        return;
      }
      const left = Math.max(0, Math.ceil((c.until - Date.now()) / 1000));
      const who = c.color === S.color ? "You have" : `${playerName(c.color)} has`;
      node.dataset.color = c.color;
      node.dataset.left = String(left);
      node.classList.toggle("play-clock-over", c.overtime);
      node.textContent = c.overtime
        ? `Time is up: ${who.toLowerCase()} ${left} s of grace left.`
        : `${who} ${left} s for this move.`;
    }
    setInterval(tick, 250);

    window.HernaPlay = { state: S, send };
    const seat = saved();
    if (P.waiting("onitama")) connect(true); // a reload while waiting: the same seek
    else if (wish || (seat && seat.secret)) connect(false);
    else choose("");
  }

  document.addEventListener("DOMContentLoaded", () => {
    const block = document.getElementById("herna-page");
    const page = block ? JSON.parse(block.textContent) : {};
    if (page.kind === "play" && page.game === "onitama" && page.running) start(page);
  });
})();

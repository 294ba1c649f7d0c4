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
 * The page is four scripts: this one (the connection, the protocol and the state),
 * play-onitama-rules.js (targets and catching up), play-onitama-view.js (drawing, reusing the
 * spectator renderer static/games/onitama.js, with clicks and keys on its squares) and
 * play-onitama-choice.js (which card); play-page.js is shared with the tile page.
 *
 * While the person waits for an opponent a reload keeps the seek: the tab's socket is held by
 * the web hall for a while and taken back (play-page.js); the fill wait is counted down.
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
  const { legalMoves, squareIndex, missedPlies, START_BOARD } = window.HernaOnitamaRules;


  /* -- the page ------------------------------------------------------------------------------ */

  function start(page) {
    const { el } = window.Herna;
    const _ = window.Herna._; // the page's language (static/hall.js); docs/translating.md
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
    // A live tournament's seat (static/tournament-seat.js tells where the person stands).
    const inTournament = /(^|,)tournament=\d+/.test(wish || "");
    const poke = () => document.dispatchEvent(new CustomEvent("herna:tournament"));
    const S = {
      phase: "connecting", // choosing | connecting | lobby | game | over | gone
      seek: null, clock: null, claimable: null,
      white: null, black: null, color: null,
      board: null, cards: null, toMove: null,
      moves: [], last: null, result: null,
      selected: null, choice: null, pending: false, away: null,
      retries: 0, note: "",
      confirming: false, drawOffered: null, drawSent: false, rematchFrom: null, rematching: null,
      lastOpponent: null, gameClock: null, until: null, focusSquare: null,
    };
    const P = window.HernaPlayPage;
    const WAIT_WORDS = { one: _("a person"), people: _("another person"),
      fill: _("a house bot sits down"), filling: _("a house bot is sitting down"),
      bots: _("A house bot is sitting down") };
    let ws = null;
    let closedByUs = false;

    const { saved, forget, save: keep } = P.seatStore(storeKey);

    function save(extra) {
      keep(Object.assign(saved() || {}, extra));
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
      const socket = new WebSocket(P.socketUrl("onitama", resume));
      ws = socket;
      closedByUs = false;
      S.phase = "connecting";
      draw();
      // Only this page's current socket speaks for it: after Cancel and Sit down again the
      // old socket's close may come after the new one opened, and must not end the new one.
      socket.onopen = () => { if (ws === socket && !resume) send(loginLine()); };
      socket.onmessage = (ev) => { if (ws === socket) receive(String(ev.data)); };
      socket.onclose = (ev) => {
        if (ws !== socket) return;
        ws = null;
        if (closedByUs || S.phase === "gone" || S.phase === "choosing") return;
        if (ev.code === 4004) {
          gone(_("The Onitama server is not running in this hall."));
          return;
        }
        if (ev.code === P.NOTHING_TO_RESUME) {
          // Away longer than the server keeps a seek: it ended.
          P.waiting("onitama", null);
          const seat = saved();
          if (wish || (seat && seat.secret)) connect(false);
          else choose(_("You were away too long, so your seek ended: choose again."));
          return;
        }
        if (S.phase === "over") {
          S.note = _("The server closed the connection after the game.");
          draw();
          return;
        }
        // A lost connection: come back with the seat secret, as a TCP bot would.
        const wait = Math.min(5000, 500 * 2 ** S.retries);
        S.retries += 1;
        S.phase = "connecting";
        S.note = _("Connection lost; reconnecting in {s} s…", { s: (wait / 1000).toLocaleString(document.documentElement.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
        draw();
        setTimeout(() => connect(Boolean(P.waiting("onitama"))), wait);
      };
    }

    function tournamentOver() {
      closedByUs = true;
      S.tournamentOver = true;
      S.note = _("The tournament is over.");
      if (S.phase !== "over") S.phase = "gone";
      poke();
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
        // The lobby's seek is answered: a reload now comes back by the seat secret, and one
        // after the game must not open the same seek again (a game nobody asked for).
        if (params.has("seek") && !inTournament) history.replaceState(null, "", location.pathname);
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
        poke();
      } else if (command === "DRAW_OFFERED") {
        S.drawOffered = f[1] || "";
      } else if (command === "DRAW_DECLINED") {
        S.drawSent = false;
        S.note = _("{name} declined your draw offer.", { name: f[1] });
      } else if (command === "REMATCH_OFFERED") {
        S.rematchFrom = f[1] || "";
      } else if (command === "REMATCH_DECLINED") {
        S.rematching = null;
        S.rematchFrom = null;
        S.seek = null;
        P.waiting("onitama", null);
        if (S.phase === "lobby") S.phase = "over";
        S.note = _("{name} does not want a rematch now.", { name: f[1] });
      } else if (command === "MOVE_WAS_MADE") {
        applyMove(f[1], f[2], f[3]);
      } else if (command === "STALEMATE_CARD") {
        applyStalemate(f[1], f[2], f[3]);
      } else if (command === "INVALID_MOVE") {
        S.pending = false;
        S.note = _("The server refused that move; nothing changed.");
      } else if (command === "LOGOUT") {
        S.away = f[1];
        // "… is back" from their last return would contradict the status line now.
        if (S.note === _("{name} is back.", { name: f[1] })) S.note = "";
      } else if (command === "RECONNECT") {
        reconnect(f);
      } else if (command === "GAME_OVER") {
        gameOver(f[1], f[2] || "");
      } else if (command === "ERROR") {
        const code = f[1] || "";
        if (code === "TOURNAMENT_OVER") {
          tournamentOver();
        } else if (code === "SEEK_CANCELLED") {
          choose(_("You cancelled your seek in the lobby."));
        } else if (code === "NOTHING_TO_CLAIM") {
          S.claimable = null;
          S.note = _("Your opponent is back: there is nothing to claim.");
        } else if (code === "SEAT_TAKEN_OVER") {
          gone(_("This seat was taken over by another tab or window; play on there."));
        } else if (code === "SERVER_SHUTDOWN") {
          gone(_("The server is shutting down; the game was aborted."));
        } else if (code === "NO_DRAW_OFFER") {
          S.drawOffered = null;
          S.note = _("That draw offer is no longer open.");
        } else if (code === "DRAW_NOT_NOW") {
          S.note = _("You offered a draw already; make a move before you offer again.");
        } else if (code === "NO_REMATCH") {
          S.phase = "over";
          S.note = _("There is nobody here to play again.");
        } else {
          S.pending = false;
          // A code this page does not know yet: a plain sentence, never the code itself.
          S.note = _("The server refused that; nothing changed.");
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
      // In a tournament the last result stays up while the next pairing is awaited.
      const inTournament = (wish || "").split(",").some((w) => w.startsWith("tournament="));
      // A rematch asked for after the game keeps the last board up while the answer comes.
      const stays = S.phase === "over" && (inTournament || S.rematching);
      if (S.phase === "connecting" || (S.phase === "over" && !stays)) S.phase = "lobby";
      P.waiting("onitama", { seek: id, wish, until: S.until, rematching: S.rematching });
    }

    /* A refusal of the server in the page's language (the server's own sentence, English,
     * for the rare ones without words here). */
    function refusalWords(code, text) {
      const words = {
        NO_SUCH_SEEK: _("That seek is no longer open: its player left or has found a game."),
        NOT_FOR_YOU: _("That seek is not for you: it waits for someone else."),
        OWN_SEEK: _("That is your own seek."),
        WRONG_GAME: _("That seek is for another game."),
        RESERVED_NAME: _("That name is reserved: sign in to play under it."),
        HOUSE_BOT_NAME: _("That is the name of one of the hall's house bots."),
      };
      return words[code] || text || code;
    }

    function loginFailed(code, text) {
      const seat = saved();
      if (code === "BAD_TOKEN" && seat && seat.secret) {
        forget(); // that seat is gone (the game ended meanwhile): choose a new game
        choose(_("Your last game is over."));
        return;
      }
      if (["NO_SUCH_SEEK", "NOT_FOR_YOU", "OWN_SEEK", "BAD_SEEK", "WRONG_GAME"].includes(code)) {
        choose(_("The lobby refused that: {why}", { why: refusalWords(code, text) }));
        return;
      }
      if (code === "NAME_IN_USE" && S.retries < 6) {
        // After a reload the old connection may not be closed yet: try again shortly.
        S.retries += 1;
        S.note = _("Waiting for the previous connection to close…");
        setTimeout(() => send(loginLine()), 300 * S.retries);
        return;
      }
      if (code === "TOURNAMENT_OVER") {
        // The last game's result stays on screen: the tournament simply has no next game.
        tournamentOver();
        return;
      }
      gone(_("The server refused the name {name}: {why}", { name: me, why: refusalWords(code, text) }));
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

    /* The moves, the position they lead to and the last ply (its arrow), for a reload or a
     * lost connection. */
    function savePosition() {
      save({ moves: S.moves, board: S.board, cards: S.cards, toMove: S.toMove, last: S.last });
    }

    function reconnect(f) {
      const [, name, color, board, cards, toMove] = f;
      const seat = saved() || {};
      if (name === me) {
        // The position the page had: its own (a lost connection) or the saved one (a reload).
        const had = S.white && S.board && S.cards ? { board: S.board, cards: S.cards, toMove: S.toMove }
          : { board: seat.board, cards: seat.cards, toMove: seat.toMove };
        const sent = S.white ? S.sent : null;
        const hadLast = (S.white ? S.last : seat.last) || null;
        S.color = color;
        S.white = seat.white || (color === "white" ? me : _("opponent"));
        S.black = seat.black || (color === "black" ? me : _("opponent"));
        S.moves = Array.isArray(seat.moves) ? seat.moves.slice() : [];
        const missed = missedPlies(had, { board, cards: cards.split(","), toMove }, sent);
        for (const ply of missed || []) {
          S.moves.push(ply.type === "move" ? moveText(ply.color, ply.card, ply.from, ply.to, ply.capture)
            : stalemateText(ply.color, ply.old, ply.fresh));
        }
        // (With no move listed yet the page only assumed the standard start, which START
        // does not confirm: a set-up position is not a sign of moves missed.)
        if (missed === null && S.moves.length) {
          S.moves.push(_("(moves made while you were away are not listed)"));
        }
        S.sent = null;
        S.note = _("Back at your seat.");
        // The last ply's arrow: the newest one missed, else (nothing missed) the saved one.
        const ply = missed && missed.length ? missed[missed.length - 1] : null;
        if (ply) {
          S.last = ply.type === "move"
            ? { type: "move", player: ply.color, card: ply.card, from: ply.from, to: ply.to, capture: ply.capture }
            : { type: "stalemate", player: ply.color, old: ply.old, new: ply.fresh };
        } else {
          S.last = missed && S.moves.length ? hadLast : null;
        }
        S.result = null;
      } else {
        S.away = null;
        S.claimable = null;
        S.note = _("{name} is back.", { name });
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
      S.result = { winner, reason, at: Date.now() };
      S.pending = false;
      S.selected = null;
      S.choice = null;
      S.away = null;
      forget();
      poke();
    }

    function playerName(color) {
      return color === "white" ? S.white : S.black;
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
      S.focusSquare = square;
      draw();
    }

    function play(move) {
      const [card, from, to] = move;
      S.pending = true;
      S.choice = null;
      S.sent = { type: "move", card, from, to };
      S.focusSquare = to;
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

    /* Ask for a rematch (or accept one): the board and the result stay up, with a notice,
     * until START (or REMATCH_DECLINED). */
    function rematch() {
      if (!ws) return;
      S.rematching = S.lastOpponent;
      S.rematchFrom = null;
      S.note = "";
      send("REMATCH");
      draw();
      // What is awaited, and the way to cancel it, in view (a phone's header may push it
      // below the fold; the button pressed was there)
      const wait = document.getElementById("play-rematch-wait");
      if (wait) wait.scrollIntoView({ block: "nearest" });
    }

    /* Withdraw the rematch offer (DECLINE_REMATCH withdraws one's own offer). */
    function cancelRematch() {
      S.rematching = null;
      S.seek = null;
      P.waiting("onitama", null);
      S.note = _("You withdrew your rematch offer.");
      send("DECLINE_REMATCH");
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
      S.note = _("You offered a draw; your opponent may accept it or play on.");
      send("OFFER_DRAW");
      draw();
    }

    function answerDraw(accept) {
      S.drawOffered = null;
      send(accept ? "ACCEPT_DRAW" : "DECLINE_DRAW");
      draw();
    }


    // Drawing, the prompts and the clocks: static/play-onitama-view.js.
    const { draw, tick } = window.HernaOnitamaView.create({
      S, page, me, levels, table, root, statusNode, boardBox, promptBox, movesList, WAIT_WORDS,
      inTournament, wish: () => wish, connected: () => Boolean(ws), playerName, moves, myTurn, activate, play,
      giveUp, rematch, cancelRematch, declineRematch, playAgain, choose, resign, offerDraw, answerDraw, sitDown,
      send,
    });
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

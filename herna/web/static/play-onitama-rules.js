/* The Onitama play page's rules (static/play-onitama.js): what the page works out itself to
 * highlight targets and to catch up after a lost connection. The server decides every move;
 * tests compare legalMoves() with the Python engine on many positions. */
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

  window.HernaOnitamaRules = {
    legalMoves, squareIndex, squareName, ownPiece, hand, missedPlies, START_BOARD, COLORS,
  };
})();

/* Licitovaný mariáš renderer for the Herna web hall (no build step, no external scripts).
 *
 * Draws the spectator view the CGML super game server publishes with every event
 * (herna/servers/cgml/group_core.py, GroupCore._emit: data.view = the engine's
 * state.view(None)) and the replay steps (herna/games/marias/replay.py). Fields used:
 *   view.phase          "deal" | "auction" | "discard" | "gametype" | "flek" | "play" | "done"
 *   view.dealer, forhont, middle, zadak, current_player, declarer   seats 0..2 (or null)
 *   view.hand_sizes     [n0, n1, n2]  (live views never carry anybody's cards)
 *   view.auction        [{player, licite}]   view.pending_bid, view.bid, view.auction_result
 *   view.licite, view.trumf, view.flek, view.fleks [{player, flek}]
 *   view.trick          {leader, cards}      view.tricks [{number, leader, cards, winner}]
 *   view.marriages      [{player, suit, points}]
 *   view.result         {money, licite, trumf, flek, parts, renonc, reason, ...} (at the end)
 *   view.players        replay only: seat names;  view.hands / view.talon: replay only, after
 *                       the deal is over (the live hall never shows hidden cards)
 *   event.data.players  live: [{id, name, race}];  event.data.money: the group's running money
 *   event.data.game_no  live: the deal's number within the group (one table, deal after deal)
 */
"use strict";

(function () {
  window.HernaGames = window.HernaGames || {};
  const { el } = window.Herna;

  /* The page's language, from its <html lang>: "cs" says everything in Czech, anything else
   * English with the Czech game terms (herna/games/marias/names.py). */
  const LANG = String((typeof document !== "undefined" && document.documentElement.lang) || "en")
    .toLowerCase().startsWith("cs") ? "cs" : "en";
  const say = (en, cs) => (LANG === "cs" ? cs : en);

  /* The words of herna/games/marias/words.py and names.py (the one formatter;
   * tests/test_public_text.py and tests/games/marias/test_card_names.py check that these
   * tables say the same): German suits, Czech contract names, card names with agreement. */
  const SUITS = {
    R: { name: "červené", cls: "mar-r" },
    B: { name: "kule", cls: "mar-b" },
    G: { name: "zelené", cls: "mar-g" },
    A: { name: "žaludy", cls: "mar-a" },
  };
  const RANKS = { "07": "sedma", "08": "osma", "09": "devítka", "10": "desítka", "0J": "spodek", "0Q": "svršek", "0K": "král", "0A": "eso" };
  const SHORT = { "07": "7", "08": "8", "09": "9", "10": "10", "0J": "Sp", "0Q": "Sv", "0K": "K", "0A": "E" }; // as printed on the card images
  // A card: the suit as an adjective agreeing with the rank's gender, in the sentence's case.
  const SUIT_STEM = {"R": "červen", "B": "kulov", "G": "zelen", "A": "žaludov"};
  const ADJECTIVE_ENDING = {"m": {"nom": "ý", "gen": "ého", "acc": "ého", "ins": "ým"}, "f": {"nom": "á", "gen": "é", "acc": "ou", "ins": "ou"}, "n": {"nom": "é", "gen": "ého", "acc": "é", "ins": "ým"}};
  const RANK_FORMS = {
    "07": ["f", {"nom": "sedma", "gen": "sedmy", "acc": "sedmu", "ins": "sedmou"}],
    "08": ["f", {"nom": "osma", "gen": "osmy", "acc": "osmu", "ins": "osmou"}],
    "09": ["f", {"nom": "devítka", "gen": "devítky", "acc": "devítku", "ins": "devítkou"}],
    "10": ["f", {"nom": "desítka", "gen": "desítky", "acc": "desítku", "ins": "desítkou"}],
    "0J": ["m", {"nom": "spodek", "gen": "spodka", "acc": "spodka", "ins": "spodkem"}],
    "0Q": ["m", {"nom": "svršek", "gen": "svrška", "acc": "svrška", "ins": "svrškem"}],
    "0K": ["m", {"nom": "král", "gen": "krále", "acc": "krále", "ins": "králem"}],
    "0A": ["n", {"nom": "eso", "gen": "esa", "acc": "eso", "ins": "esem"}]
  };
  const RANK_EN = { "07": "seven", "08": "eight", "09": "nine", "10": "ten", "0J": "Unter", "0Q": "Ober", "0K": "king", "0A": "ace" };
  const SUIT_EN = { R: "hearts", B: "bells", G: "leaves", A: "acorns" };
  const GAMES = {
    PASS: "nic (pass)", G: "hra", BG: "lepší hra", 7: "sedma", B7: "lepší sedma", 100: "kilo",
    107: "kilo a sedma", B100: "lepší kilo", B107: "lepší kilo a sedma", SMALL: "betl", BIG: "durch",
    27: "dvě sedmy", 127: "dvě sedmy a kilo", B27: "lepší dvě sedmy", B127: "lepší dvě sedmy a kilo",
    YES: "mám", NO: "nemám",
  };
  const PARTS = { sto: "kilo" };
  const FLEKS = { 1: "bez fleku", 2: "flek", 4: "re", 8: "tutti", 16: "boty", 32: "kalhoty" };

  /* "R0K" -> "červený král"; in Czech in the case asked ("R07", "acc" -> "červenou sedmu");
   * English sentences keep the nominative. */
  function cardName(code, grammaticalCase) {
    const stem = SUIT_STEM[code[0]];
    const forms = RANK_FORMS[code.slice(1)];
    if (!stem || !forms) return code;
    const c = LANG === "cs" && grammaticalCase ? grammaticalCase : "nom";
    return `${stem}${ADJECTIVE_ENDING[forms[0]][c]} ${forms[1][c]}`;
  }

  /* A card's tooltip: its name, in English with the gloss ("červený král (king of hearts)"). */
  function cardTitle(code) {
    const rank = RANK_EN[code.slice(1)];
    return LANG === "cs" || !rank ? cardName(code) : `${cardName(code)} (${rank} of ${SUIT_EN[code[0]]})`;
  }

  /* "hra" -> "hru", "lepší sedma" -> "lepší sedmu": a contract as an object (Czech). */
  function accusative(words) {
    return String(words).replace(/\bhra\b/g, "hru").replace(/\bsedma\b/g, "sedmu");
  }

  function suitIcon(letter) {
    return SUITS[letter] ? el("img", { class: "mar-suit-icon", src: `/static/cards/suit-${letter}.svg`, alt: "", width: 12, height: 12 }) : null;
  }

  /* The parts a two-part contract's flek "a:b" speaks of (herna/games/marias/contracts.py). */
  const FLEK_PARTS = { 7: ["hra", "sedma"], B7: ["hra", "sedma"], 107: ["kilo", "sedma"], B107: ["kilo", "sedma"],
    127: ["kilo", "dvě sedmy"], B127: ["kilo", "dvě sedmy"] };

  /* "1:1" -> "bez fleku" (once, not per part); "2:1" with licite 7 -> "hra flek, sedma bez fleku". */
  function flekWords(levels, licite) {
    const words = String(levels || "1").split(":").map((n) => FLEKS[Number(n)] || `×${n}`);
    if (words.every((w) => w === words[0])) return words[0];
    const parts = FLEK_PARTS[licite];
    if (parts && parts.length === words.length) return words.map((w, i) => `${parts[i]} ${w}`).join(", ");
    return words.join(" : ");
  }

  /* A part's note as older records wrote it ("R07 of seat 0 won the last trick"), in words. */
  function noteWords(note, who) {
    const text = String(note || "");
    // the points behind hra ("90:40") and sto ("110"), with hlášky counted
    let m = /^(\d+):(\d+)(.*)$/.exec(text);
    // "tiché sto (110)": the points of the silent hundred, not a contract's code
    const silent = (rest) => rest.replace(/tiché sto \((\d+)\)/, (_, n) => say(`tiché sto with ${n} points`, `tiché sto, ${n} bodů`));
    if (m) return `${say("points with hlášky", "body s hláškami")}: aktér ${m[1]}, obrana ${m[2]}${silent(m[3])}`;
    m = /^(\d+)$/.exec(text);
    if (m) return `${say("points with hlášky", "body s hláškami")}: aktér ${m[1]}`;
    return text
      .replace(/\b([RBGA](?:0[789JQKA]|10))\b/g, (c) => cardName(c))
      .replace(/ of seat (\d)/g, (_, n) => ` of ${who[Number(n)] || "seat " + (Number(n) + 1)}`);
  }

  /* "60 + hlášky 20 = 80", "40 (no hlášky)": the points and the hlášky they add. */
  function sideWords(points, marriages) {
    const m = marriages || [];
    if (!m.length) return `${points} (${say("no hlášky", "bez hlášek")})`;
    return `${points} + hlášky ${m.join(" + ")} = ${points + m.reduce((a, b) => a + b, 0)}`;
  }

  function partName(name) {
    return PARTS[name] || name;
  }

  /* How a part came out for the aktér. */
  function wonWord(won) {
    return won ? say("won", "aktér vyhrál") : say("lost", "aktér prohrál");
  }

  const PHASES = LANG === "cs" ? {
    deal: "rozdávání", auction: "licitace", discard: "talon", gametype: "hlášení hry",
    flek: "flek", play: "hra", done: "konec hry",
  } : {
    deal: "dealing", auction: "auction (licitace)", discard: "talon", gametype: "announcing",
    flek: "flek", play: "play", done: "game over",
  };

  function card(code, extra) {
    const suit = SUITS[code[0]] || { cls: "" };
    const rank = SHORT[code.slice(1)] || RANKS[code.slice(1)] || code.slice(1);
    return el("span", { class: `mar-card ${suit.cls}${extra ? " " + extra : ""}`, title: cardTitle(code),
      "aria-label": cardName(code), "data-card": code }, rank, suitIcon(code[0]));
  }

  function back(n) {
    const out = [];
    for (let i = 0; i < n; i++) out.push(el("span", { class: "mar-card mar-back" }, "\u00A0"));
    return out;
  }

  function gameName(code) {
    // (the English gloss of "nic" only on an English page, as herna.clients.marias_text does)
    if (code === "PASS" && LANG === "cs") return "nic";
    return code ? GAMES[code] || code : "—";
  }

  function trumfText(t) {
    if (!t) return say("bez trumfů (no trumps)", "bez trumfů");
    const [a, b] = String(t).split(":");
    const s = (x) => (SUITS[x] ? SUITS[x].name : x);
    return b ? `trumfy ${s(a)}, strkací ${s(b)}` : `trumfy ${s(a)}`;
  }

  function names(view, event) {
    const out = [1, 2, 3].map((n) => say(`seat ${n}`, `místo ${n}`)); // people count seats from 1
    if (Array.isArray(view.players)) {
      view.players.forEach((p, i) => { if (i < 3) out[i] = typeof p === "string" ? p : (p.name || p.id); });
    } else if (event && event.data && Array.isArray(event.data.players)) {
      event.data.players.forEach((p, i) => { if (i < 3) out[i] = p.name || p.id || out[i]; });
    }
    return out;
  }

  function seatNode(view, event, seat, who) {
    const roles = [];
    if (seat === view.forhont) roles.push("forhont");
    if (seat === view.middle) roles.push("prostřední");
    if (seat === view.zadak) roles.push(say("zadák (dealer)", "zadák (rozdává)"));
    const won = (view.tricks || []).filter((t) => t.winner === seat).length;
    const hands = view.hands; // replays only, after the deal
    const size = (view.hand_sizes || [])[seat] || 0;
    const money = event && event.data && Array.isArray(event.data.money) ? event.data.money[seat] : null;
    const result = view.result && Array.isArray(view.result.money) ? view.result.money[seat] : null;
    const classes = ["mar-seat"];
    if (seat === view.current_player) classes.push("mar-turn");
    if (seat === view.declarer) classes.push("mar-akter");
    return el("div", { class: classes.join(" "), "data-seat": seat },
      el("div", { class: "mar-name" }, who,
        seat === view.declarer ? el("span", { class: "mar-badge" }, "aktér") : null,
        seat === view.current_player ? el("span", { class: "mar-badge mar-badge-turn" }, say("to act", "na tahu")) : null),
      el("div", { class: "mar-role" }, roles.join(", "), ` · ${say("tricks", "štychy")} ${won}`),
      el("div", { class: "mar-hand" },
        Array.isArray(hands) && Array.isArray(hands[seat]) ? hands[seat].map((c) => card(c)) : back(size)),
      result !== null ? el("div", { class: "mar-money " + (result > 0 ? "mar-plus" : result < 0 ? "mar-minus" : "") },
        `${say("this game", "tato hra")} ${result > 0 ? "+" : ""}${result}`) : null,
      money !== null && money !== undefined ? el("div", { class: "mar-total" }, `${say("group total", "celkem u stolu")} ${money > 0 ? "+" : ""}${money}`) : null);
  }

  function trickNode(view, who) {
    const trick = view.trick || {};
    const cards = trick.cards || [];
    let shown = cards;
    let leader = trick.leader;
    let label = say("trick in play", "štych na stole");
    const tricks = view.tricks || [];
    if (!cards.length && tricks.length) {
      const last = tricks[tricks.length - 1];
      shown = last.cards;
      leader = last.leader;
      label = say(`trick ${last.number} taken by ${who[last.winner]}`, `${last.number}. štych bere ${who[last.winner]}`);
    }
    if (!shown.length) return el("div", { class: "mar-trick mar-empty" }, say("no cards on the table", "na stole nejsou karty"));
    return el("div", { class: "mar-trick" },
      el("div", { class: "mar-label" }, label),
      el("div", { class: "mar-trick-cards" },
        shown.map((c, i) => el("div", { class: "mar-played" },
          card(c), el("div", { class: "mar-by" }, leader === null || leader === undefined ? "" : who[(leader + i) % 3])))));
  }

  function auctionNode(view, who) {
    const items = (view.auction || []).map((a) =>
      el("li", {}, `${who[a.player]}: ${gameName(a.licite)}`));
    const fleks = (view.fleks || []).map((f) => el("li", {}, `${who[f.player]}: ${flekWords(f.flek, view.licite)}`));
    return el("div", { class: "mar-bidding" },
      el("div", { class: "mar-label" }, say("bidding", "licitace")),
      items.length ? el("ol", {}, items) : el("p", { class: "muted" }, "—"),
      view.pending_bid ? el("p", {}, say(`asked: do you have ${gameName(view.pending_bid)}?`,
        `otázka: máš ${accusative(gameName(view.pending_bid))}?`)) : null,
      fleks.length ? el("div", {}, el("div", { class: "mar-label" }, "flek"), el("ol", {}, fleks)) : null);
  }

  function contractNode(view, who) {
    const parts = [];
    if (view.declarer !== null && view.declarer !== undefined) {
      parts.push(el("div", {}, `aktér: ${who[view.declarer]}`,
        view.auction_result ? say(` (auction won at ${gameName(view.auction_result)})`,
          ` (vydražená hra: ${gameName(view.auction_result)})`) : ""));
    }
    if (view.licite) {
      parts.push(el("div", { class: "mar-contract" }, `${gameName(view.licite)} · ${trumfText(view.trumf)} · ${flekWords(view.flek, view.licite)}`));
    }
    const talon = Array.isArray(view.talon) && view.phase === "done" ? view.talon : null;
    parts.push(el("div", { class: "mar-talon" }, "talon: ",
      talon ? talon.map((c) => card(c)) : back(view.talon_size === 0 ? 0 : 2)));
    const marriages = (view.marriages || []).map((mm) =>
      el("li", {}, `${who[mm.player]}: ${SUITS[mm.suit] ? SUITS[mm.suit].name : mm.suit} ${mm.points}`));
    if (marriages.length) parts.push(el("div", {}, "hlášky", el("ul", {}, marriages)));
    return el("div", { class: "mar-info" }, parts);
  }

  function resultNode(view, who) {
    const r = view.result;
    if (!r) return null;
    // One column per seat (the money each part brought that seat); why a part came out so
    // stands under its name. Each row has as many cells as the head, so every number stands
    // under its heading, and at 390 px the table still fits.
    const seats = (r.money || []).map((_, i) => i);
    const signedNumber = (m) => `${m > 0 ? "+" : ""}${m}`;
    const rows = (r.parts || []).map((p) => el("tr", {},
      el("td", {}, partName(p.name),
        p.note ? el("div", { class: "muted mar-why" }, noteWords(p.note, who)) : null),
      el("td", {}, wonWord(p.won)),
      el("td", { class: "mar-num" }, String(p.units)),
      seats.map((i) => el("td", { class: "mar-num" }, signedNumber(((p.money || p.amounts || [])[i]) || 0)))));
    const money = (r.money || []).map((m, i) => `${who[i]} ${m > 0 ? "+" : ""}${m}`).join(", ");
    return el("div", { class: "mar-result" },
      el("div", { class: "mar-label" }, say("result", "výsledek")),
      r.renonc ? el("p", { class: "mar-renonc" }, `renonc${say(" by ", ": ")}${who[r.renonc.player]}: ${r.renonc.reason}`) : null,
      el("p", {}, r.renonc ? "" : `${gameName(r.licite)}: ${(r.parts || []).map((p) => `${partName(p.name)} ${wonWord(p.won)}`).join(", ")}`),
      rows.length ? el("div", { class: "scroll" }, el("table", { class: "mar-parts" },
        el("thead", {}, el("tr", {}, el("th", {}, say("part", "část")), el("th", {}, "aktér"),
          el("th", { class: "mar-num" }, say("units", "jednotky")),
          seats.map((i) => el("th", { class: "mar-num" }, who[i])))),
        el("tbody", {}, rows))) : null,
      el("p", { class: "mar-money-line" }, `${say("money", "peníze")}: ${money}`),
      r.declarer_points !== undefined && view.licite && !["SMALL", "BIG"].includes(view.licite)
        ? el("p", { class: "muted" }, `${say("body (points from tens and aces, 10 for the last trick)", "body (desítky a esa, 10 za poslední štych)")}: aktér ${sideWords(r.declarer_points, r.declarer_marriages)}; obrana ${sideWords(r.defender_points, r.defender_marriages)}`) : null);
  }

  function tricksNode(view, who) {
    const tricks = view.tricks || [];
    if (!tricks.length) return null;
    return el("details", { class: "mar-tricks" },
      el("summary", {}, say(`${tricks.length} trick${tricks.length === 1 ? "" : "s"} played`,
        `odehrané štychy: ${tricks.length}`)),
      el("ol", {}, tricks.map((t) => el("li", {},
        t.cards.map((c) => card(c)), ` → ${who[t.winner]}`))));
  }

  /* What the event at the top of the table was, in a word or two. */
  const EVENT_KINDS = LANG === "cs" ? {
    game_started: "nové rozdání", licite: "licitace", licite_result: "konec licitace", talon: "talon",
    gametype: "hra ohlášena", flek: "flek", card: "zahraná karta", round: "štych", claim: "ložená hra",
    renonc: "renonc", resigned: "hra vzdána", pause: "pauza", pause_finish: "konec pauzy",
    game_over: "konec rozdání", group_closed: "stůl zavřen",
  } : {
    game_started: "new deal", licite: "bid", licite_result: "auction won", talon: "talon",
    gametype: "game announced", flek: "flek", card: "card played", round: "trick taken", claim: "cards laid down",
    renonc: "renonc", resigned: "game given up", pause: "pause", pause_finish: "pause over",
    game_over: "deal over", group_closed: "table closed",
  };

  function render(container, view, event) {
    if (!view || view.game !== "marias") {
      window.Herna.renderJSON(container, view);
      return;
    }
    const who = names(view, event);
    const status = PHASES[view.phase] || view.phase || "";
    // A replay step's own label heads the card already: no kind (it would say "replay step").
    const kind = event && event.kind && !event.replay
      ? ` · ${(EVENT_KINDS[event.kind] || event.kind.replace(/_/g, " "))}` : "";
    // Live events carry the group's deal number: one table address shows deal after deal.
    const deal = event && event.data && Number.isInteger(event.data.game_no) ? event.data.game_no : null;
    container.replaceChildren(el("div", { class: "marias", "data-phase": view.phase, "data-deal": deal },
      el("div", { class: "mar-status" }, deal !== null ? say(`deal ${deal} · `, `rozdání ${deal} · `) : "", status, kind),
      el("div", { class: "mar-table" },
        seatNode(view, event, 1, who[1]),
        seatNode(view, event, 2, who[2]),
        el("div", { class: "mar-centre" }, trickNode(view, who), contractNode(view, who)),
        seatNode(view, event, 0, who[0])),
      el("div", { class: "mar-side" }, auctionNode(view, who), resultNode(view, who)),
      tricksNode(view, who)));
  }

  /* A live event of a table (the CGML server's, herna/servers/cgml/group_deal.py) in words,
   * for the live page's list of events; null: the page says the event's kind. */
  function eventWords(ev) {
    const d = ev.data || {};
    const who = names({}, ev);
    const p = who[d.player] || "";
    const signed = (m) => `${m > 0 ? "+" : ""}${m}`;
    const money = (list) => (list || []).map((m, i) => `${who[i]} ${signed(m)}`).join(", ");
    if (LANG === "cs") {
      // Present tense: a Czech past tense would have to agree with the player's gender.
      switch (ev.kind) {
        case "game_started": return `rozdání ${d.game_no}: rozdává ${who[d.dealer] || "rozdávající"}`;
        case "licite": return `${p}: ${gameName(d.shown || d.licite)}`;
        case "licite_result": return `${p} vyhrává licitaci (${gameName(d.licite)})`;
        case "talon": return d.action === "take" ? `${p} bere talon` : `${p} odkládá dvě karty do talonu`;
        case "gametype": return `${p} hlásí ${accusative(gameName(d.licite))}, ${trumfText(d.trumf)}`;
        case "flek": return `${p}: ${flekWords(d.flek)}`;
        case "card": return `${p} hraje ${cardName(d.card, "acc")}`;
        case "round": return `${d.number}. štych bere ${who[d.winner]}`;
        case "claim": return `${p} ukazuje zbytek karet a bere zbylé štychy (ložená hra)`;
        case "renonc": return `renonc: ${p}`;
        case "resigned": return `${p} vzdává hru`;
        case "pause": return `${p} žádá o pauzu`;
        case "pause_finish": return `${p} je zpět`;
        case "game_over":
          return d.money_game ? `konec rozdání: ${money(d.money_game)}; u stolu celkem ${money(d.money)}`
            : "rozdání bylo zastaveno";
        case "group_closed": return "stůl se zavřel";
        default: return null;
      }
    }
    switch (ev.kind) {
      case "game_started": return `deal ${d.game_no}: ${who[d.dealer] || "the dealer"} deals`;
      case "licite": return `${p}: ${gameName(d.shown || d.licite)}`;
      case "licite_result": return `${p} won the auction at ${gameName(d.licite)}`;
      case "talon": return d.action === "take" ? `${p} takes the talon` : `${p} discards two cards to the talon`;
      case "gametype": return `${p} announces ${gameName(d.licite)}, ${trumfText(d.trumf)}`;
      case "flek": return `${p}: ${flekWords(d.flek)}`;
      case "card": return `${p} plays ${cardName(d.card)}`;
      case "round": return `trick ${d.number} taken by ${who[d.winner]}`;
      case "claim": return `${p} shows the rest of the hand and claims the tricks`;
      case "renonc": return `renonc by ${p}`;
      case "resigned": return `${p} gives up the deal`;
      case "pause": return `${p} asks for a pause`;
      case "pause_finish": return `${p} is back`;
      case "game_over":
        return d.money_game ? `deal over: ${money(d.money_game)}; at the table ${money(d.money)}`
          : "the deal was stopped";
      case "group_closed": return "the table closed";
      default: return null;
    }
  }

  window.HernaGames.marias = { render, flekWords, eventWords, cardName, cardTitle };

  /* Styles live with the renderer so adding the game touches one file. */
  window.Herna.addStyle("marias-style", `
.marias { display: flex; flex-direction: column; gap: .5rem; font-size: .95rem; }
.mar-status { font-weight: 600; }
.mar-table { display: grid; grid-template-columns: 1fr 1fr; grid-template-areas:
  "s1 s2" "centre centre" "s0 s0"; gap: .5rem; }
.mar-table > .mar-seat[data-seat="1"] { grid-area: s1; }
.mar-table > .mar-seat[data-seat="2"] { grid-area: s2; }
.mar-table > .mar-seat[data-seat="0"] { grid-area: s0; }
.mar-centre { grid-area: centre; display: flex; gap: 1rem; align-items: flex-start; flex-wrap: wrap; }
.mar-seat { border: 1px solid #8884; border-radius: .4rem; padding: .4rem .5rem; }
.mar-seat.mar-turn { border-color: #c80; box-shadow: 0 0 0 2px #c806; }
.mar-seat.mar-akter .mar-name { text-decoration: underline; }
.mar-name { font-weight: 600; display: flex; gap: .4rem; align-items: center; }
.mar-role { font-size: .85em; opacity: .8; }
.mar-badge { font-size: .75em; font-weight: 500; border-radius: .3rem; padding: 0 .3rem; background: #5553; }
.mar-badge-turn { background: #c804; }
.mar-hand, .mar-trick-cards, .mar-talon { display: flex; flex-wrap: wrap; gap: .2rem; align-items: center; }
.mar-card { display: inline-block; min-width: 1.9em; padding: .15em .25em; border: 1px solid #8888;
  border-radius: .25rem; background: #fff; color: #222; text-align: center; font-weight: 600;
  font-variant-numeric: tabular-nums; }
.mar-card.mar-back { background: repeating-linear-gradient(45deg, #36a, #36a 3px, #47b 3px, #47b 6px); }
.mar-suit-icon { vertical-align: -1px; margin-left: 1px; }
.mar-r { color: #c11; } .mar-b { color: #c70; } .mar-g { color: #282; } .mar-a { color: #743; }
.mar-played { display: flex; flex-direction: column; align-items: center; gap: .1rem; }
.mar-by { font-size: .75em; opacity: .8; }
.mar-label { font-size: .8em; text-transform: uppercase; letter-spacing: .05em; opacity: .7; }
.mar-info { display: flex; flex-direction: column; gap: .2rem; }
.mar-contract { font-weight: 600; }
.mar-side { display: flex; gap: 1.5rem; flex-wrap: wrap; }
.mar-side ol, .mar-info ul { margin: .2rem 0; padding-left: 1.4rem; }
.mar-plus { color: #282; font-weight: 600; } .mar-minus { color: #c11; font-weight: 600; }
.mar-total { font-size: .85em; opacity: .8; }
.mar-parts { border-collapse: collapse; }
.mar-parts th, .mar-parts td { padding: .15rem .5rem; border-bottom: 1px solid #8884; text-align: left;
  vertical-align: top; }
.mar-parts th { white-space: nowrap; }
.mar-why { font-size: .85em; }
@media (max-width: 600px) { .mar-parts th, .mar-parts td { padding: .1rem .2rem; font-size: .85em; } }
.mar-parts .mar-num { text-align: right; font-variant-numeric: tabular-nums; }
.mar-renonc { color: #c11; font-weight: 600; }
.mar-parts td, .mar-parts th { padding: 0 .5rem; text-align: left; }
.mar-tricks ol { margin: .2rem 0; }
.mar-tricks li { display: flex; gap: .2rem; align-items: center; margin: .1rem 0; }
`);
})();

/* Play licitovaný mariáš in the browser, over /ws/marias (herna/web/play_marias.py).
 *
 * The web hall relays this page to a real CGML seat at the hall's own super game server; the
 * page shows the state the hall sends for this seat (its own hand, the public table, the
 * choices the server's question allows) and sends back which choice was clicked. It applies
 * no rules: legality comes with every state, the server judges every answer.
 *
 * Frames (JSON): page -> hall {type: "sit", name, token?, opponents | seek} | {type: "resume", seat,
 * seq} | {type: "act", decision, choice} | {type: "back"} | {type: "leave"} | {type: "rematch"} |
 * {type: "decline_rematch"}; hall -> page
 * {type: "seat", seat}
 * | {type: "state", seq, ...} | {type: "error", code, message}.
 *
 * The seat secret is kept in localStorage under the person's name, so a reload (or a tab
 * closed and opened again) resumes the same seat with the last seq seen.
 *
 * The move clock: a state with a question carries `clock` {left, late, move_clock, grace};
 * the page counts it down locally (#mar-clock). When the grace period is over too, a stand-in
 * answers for the person; "Back to my seat" sends {type: "back"}.
 */
"use strict";

(function () {
  /* The page's language (its <html lang>): the seat is asked to speak it (the sit frame's
   * lang), and the suits are glossed in English only. */
  function pageLang() {
    return String(document.documentElement.lang || "en").toLowerCase().startsWith("cs") ? "cs" : "en";
  }
  const SUIT_WORDS = pageLang() === "cs"
    ? { R: "červené", B: "kule", G: "zelené", A: "žaludy" }
    : { R: "červené (hearts)", B: "kule (bells)", G: "zelené (leaves)", A: "žaludy (acorns)" };
  /* The trump seven by name (herna/games/marias/names.py: the suit agrees with the rank). */
  const SEVENS = { R: "červená sedma", B: "kulová sedma", G: "zelená sedma", A: "žaludová sedma" };

  function start(page) {
    const { el } = window.Herna;
    const _ = window.Herna._; // the page's language (static/hall.js); the words in docs/translating.md
    const root = document.getElementById("play");
    const form = document.getElementById("mar-sit");
    const statusNode = document.getElementById("play-status");
    const tableBox = document.getElementById("mar-table");
    const playersBox = document.getElementById("mar-players");
    const contractBox = document.getElementById("mar-contract");
    const trickBox = document.getElementById("mar-trick");
    const promptBox = document.getElementById("mar-prompt");
    const clockBox = document.getElementById("mar-clock");
    const handBox = document.getElementById("mar-hand");
    const resultBox = document.getElementById("mar-result");
    const logList = document.getElementById("mar-log");
    const leaveButton = document.getElementById("mar-leave");
    const leaveConfirm = document.getElementById("mar-leave-confirm");
    const afterBox = document.getElementById("mar-after");
    const me = page.guest;
    const storeKey = `herna.marias.seat.${me}`;

    const S = {
      phase: "choose", // choose | connecting | seated | gone
      seat: null, seq: -1, state: null, error: null, picked: [], pending: false, confirmClaim: null, confirmResign: null,
      announce: {}, // the steps of the announcement so far: {kind, trumps, second, extra}
      frames: 0, retries: 0, clock: null, clockAt: 0,
    };
    let ws = null;
    let closedByUs = false;
    let wantSit = null;

    function saved() {
      try {
        return JSON.parse(localStorage.getItem(storeKey) || "null");
      } catch (err) {
        return null;
      }
    }

    function save(seat) {
      localStorage.setItem(storeKey, JSON.stringify({ seat }));
    }

    function forget() {
      localStorage.removeItem(storeKey);
    }

    function send(obj) {
      if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj));
    }

    function connect() {
      const scheme = location.protocol === "https:" ? "wss:" : "ws:";
      const socket = new WebSocket(`${scheme}//${location.host}/ws/marias`);
      ws = socket;
      closedByUs = false;
      socket.onopen = () => {
        const stored = saved();
        if (S.seat || (stored && stored.seat)) {
          S.seat = S.seat || stored.seat;
          send({ type: "resume", seat: S.seat, seq: S.seq });
        } else if (wantSit) {
          send(wantSit);
        }
      };
      socket.onmessage = (ev) => receive(JSON.parse(String(ev.data)));
      socket.onclose = () => {
        if (ws !== socket) return; // an old connection, replaced on purpose
        ws = null;
        if (closedByUs || S.phase === "gone" || S.phase === "choose") return;
        const wait = Math.min(5000, 500 * 2 ** S.retries);
        S.retries += 1;
        S.error = _("Connection lost; reconnecting in {s} s…", { s: decimal(wait / 1000) });
        draw();
        setTimeout(connect, wait);
      };
    }

    function receive(msg) {
      S.frames += 1;
      if (msg.type === "seat") {
        S.seat = msg.seat;
        save(msg.seat);
        S.phase = "seated";
        S.seq = -1; // a new seat (a rematch) counts its states from the start
      } else if (msg.type === "state") {
        if (msg.seq < S.seq) return; // an older state than the one shown
        S.retries = 0;
        S.phase = "seated";
        const before = S.state && S.state.decision ? S.state.decision.number : null;
        S.state = msg;
        S.seq = msg.seq;
        S.clock = msg.clock || null;
        S.clockAt = performance.now();
        S.pending = false;
        const now = msg.decision ? msg.decision.number : null;
        if (now !== before) {
          S.picked = [];
          S.announce = {};
        }
        if (msg.decision) S.error = null;
      } else if (msg.type === "error") {
        S.pending = false;
        S.error = msg.message;
        if (!S.seat && msg.seq === -1 && S.phase === "connecting") {
          S.phase = "choose"; // a sit refused (e.g. a lobby seek taken meanwhile): choose again
          wantSit = null;
        }
        if (msg.code === "UNKNOWN_SEAT") {
          // The table ended (or the hall restarted): offer a new one.
          forget();
          S.seat = null;
          S.seq = -1;
          S.state = null;
          S.phase = "choose";
        }
      }
      drawSoon();
    }

    const drawSoon = window.Herna.drawSoon(() => draw()); // frames arriving together: one draw

    /* The question's clock, counted down between states (the server's figure is the truth:
     * each state brings it afresh). */
    function tick() {
      const c = S.clock;
      if (!c || !S.state || !S.state.decision) {
        clockBox.hidden = true;
        clockBox.textContent = "";
        delete clockBox.dataset.left;
        return;
      }
      const left = Math.max(0, c.left - (performance.now() - S.clockAt) / 1000);
      const secs = Math.ceil(left);
      clockBox.hidden = false;
      clockBox.dataset.left = String(secs);
      clockBox.dataset.late = c.late ? "1" : "0";
      clockBox.classList.toggle("mar-clock-late", Boolean(c.late));
      clockBox.textContent = c.late
        ? _("Time is up: a stand-in answers for you in {n} s unless you answer now.", { n: secs })
        : _("{n} s left to answer.", { n: secs });
    }
    setInterval(tick, 250);

    function act(choice) {
      const d = S.state && S.state.decision;
      if (!d || S.pending) return;
      S.pending = true;
      send({ type: "act", decision: d.number, choice });
      draw();
    }

    /* -- drawing -------------------------------------------------------------------------- */

    /* "červený král (king of hearts)"; in Czech the name alone (no gloss comes). */
    function cardTip(card) {
      return card.title ? `${card.name} (${card.title})` : card.name;
    }

    function cardImage(card, cls) {
      return el("img", {
        class: `mar-card ${cls || ""}`,
        src: `/static/cards/${card.code}.svg`,
        alt: card.name,
        title: cardTip(card),
        width: 60,
        height: 90,
        dataset: { code: card.code },
      });
    }

    function drawPlayers(st) {
      playersBox.replaceChildren(
        ...st.players.map((p) =>
          el(
            "div",
            {
              class: `mar-player${p.you ? " mar-you" : ""}${p.to_move ? " mar-to-move" : ""}`,
              title: p.to_move ? _("to move") : null,
            },
            el("b", {}, p.you ? _("{name} (you)", { name: p.name }) : p.name),
            p.role ? el("span", { class: "muted", title: roleTitle(p.role) }, ` ${p.role}`) : null,
            p["aktér"] ? el("span", { class: "mar-akter", title: _("the declarer: plays alone against the other two") }, " aktér") : null,
            el("span", { class: "mar-tricks", title: _("tricks taken this deal") }, ` · štychy ${p.tricks}`),
            el("span", { class: "mar-total", title: _("money in all deals at this table (units)") }, ` · ${signed(p.total)}`),
          ),
        ),
      );
    }

    function roleTitle(role) {
      return {
        forhont: _("leads the bidding and the first trick"),
        "prostřední": _("second in turn"),
        "zadák": _("dealer, last in turn"),
      }[role] || "";
    }

    /* A number of seconds with one decimal, as the page's language writes it (0,5 / 0.5). */
    function decimal(x) {
      return x.toLocaleString(pageLang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    }

    function signed(n) {
      return n > 0 ? `+${n}` : String(n);
    }

    function drawContract(st) {
      const bits = [];
      if (st.contract) {
        const c = st.contract;
        bits.push(el("span", { title: _("contract {licite}", { licite: c.licite }) }, el("b", {}, c.words)));
        if (c.trumps) bits.push(el("span", { class: "mar-trumps", title: _("trumps") }, ` · trumfy: ${c.trumps}`));
        bits.push(el("span", { title: _("flek multiplier") }, ` · ${c.flek}`));
        if (c["aktér"]) bits.push(el("span", {}, ` · aktér ${c["aktér"]}`));
      } else if (st.auction.length) {
        bits.push(el("span", { title: _("the bidding so far") }, "Licitace: " + st.auction.map((a) => `${a.name} ${a.licite}`).join(", ")));
      }
      if (st.marriages.length) {
        bits.push(el("div", { class: "mar-marriages", title: _("marriages: svršek + král of one suit in one hand (40 in trumps, else 20)") },
          "Hlášky: " + st.marriages.map((m) => `${m.name} ${m.words} ${m.points}`).join(", ")));
      }
      if (st.points) {
        const p = st.points;
        const side = (cards, hlasky) => hlasky ? `${cards} + hlášky ${hlasky} = ${cards + hlasky}` : String(cards);
        bits.push(el("div", { class: "mar-points", id: "mar-points",
          title: _("card points taken so far: eso and 10 count 10, the last trick 10; hlášky 20, in trumps 40") },
        el("b", {}, "Body: "), `aktér ${side(p["aktér"], p["aktér_hlasky"])} · obrana ${side(p.obrana, p.obrana_hlasky)}`));
      }
      if (st.talon.length) {
        // As large as the hand's cards: the two laid away must be readable.
        bits.push(el("div", { class: "mar-talon" }, el("span", {}, _("Your talon:") + " "),
          el("div", { class: "mar-talon-cards" }, st.talon.map((c) => el("figure", { class: "mar-played" },
            cardImage(c), el("figcaption", {}, c.name))))));
      }
      contractBox.replaceChildren(...bits);
    }

    function drawTrick(st) {
      const items = st.trick.map((c) => el("figure", { class: "mar-played" }, cardImage(c), el("figcaption", {}, c.by)));
      const empty = !st.leader ? _("No cards on the table.")
        : st.leader === st.me ? _("You lead the trick.") : _("{name} leads the trick.", { name: st.leader });
      const parts = [el("div", { class: "mar-trick-cards" }, items.length ? items : el("span", { class: "muted" }, empty))];
      if (items.length && st.leader) {
        parts.unshift(el("p", { class: "mar-last" },
          st.leader === st.me ? _("You led this trick.") : _("{name} led this trick.", { name: st.leader })));
      }
      if (st.last_trick) {
        parts.push(el("p", { class: "muted mar-last" }, _("Last trick to {name}:", { name: st.last_trick.winner }) + " ",
          st.last_trick.cards.map((c) => c.name).join(", ")));
      }
      trickBox.replaceChildren(...parts);
    }

    let handKey = "";
    let promptKey = "";

    function drawHand(st) {
      const d = st.decision;
      // Redraw only when something shown changed: a button under the pointer stays put.
      const key = JSON.stringify([st.hand, d && d.number, S.picked, S.pending]);
      if (key === handKey) return;
      handKey = key;
      const playable = new Map();
      const discardable = new Set();
      if (d && d.kind === "play") for (const o of d.options) if (o.kind === "play") playable.set(o.card, o.id);
      if (d && d.kind === "discard") for (const o of d.options) for (const c of o.cards) discardable.add(c);
      const cards = st.hand.map((card) => {
        const legal = playable.has(card.code) || discardable.has(card.code);
        const picked = S.picked.includes(card.code);
        const img = cardImage(card);
        const label = d && d.kind === "discard"
          ? _("{card}: lay into the talon", { card: card.name }) : _("{card}: play", { card: card.name });
        if (!legal) return el("span", { class: "mar-slot" }, img);
        return el(
          "button",
          {
            type: "button",
            class: `mar-slot mar-legal${picked ? " mar-picked" : ""}`,
            "aria-label": label,
            "aria-pressed": d.kind === "discard" ? String(picked) : null,
            title: d.kind === "discard" ? _("{card} (choose two for the talon)", { card: cardTip(card) }) : cardTip(card),
            dataset: { code: card.code },
            onclick: () => clickCard(card.code),
          },
          img,
        );
      });
      const active = document.activeElement;
      const had = active && handBox.contains(active) ? active.dataset.code : null;
      handBox.replaceChildren(...cards);
      if (had) {
        // Redrawn under the keyboard: the focus stays on the same card.
        const again = handBox.querySelector(`button[data-code="${had}"]`);
        if (again) again.focus({ preventScroll: true });
      }
    }

    function clickCard(code) {
      const d = S.state && S.state.decision;
      if (!d || S.pending) return;
      if (d.kind === "play") {
        const o = d.options.find((x) => x.kind === "play" && x.card === code);
        if (o) act(o.id);
        return;
      }
      if (d.kind === "discard") {
        const i = S.picked.indexOf(code);
        if (i >= 0) S.picked.splice(i, 1);
        else if (S.picked.length < 2) S.picked.push(code);
        draw();
        const lay = promptBox.querySelector("button.mar-discard");
        if (S.picked.length === 2 && lay && !lay.disabled) lay.focus({ preventScroll: true });
      }
    }

    /* -- announcing the game, in steps ------------------------------------------------------
     * The server's list of legal announcements (up to ~40: every game with every choice of
     * trumps) becomes three small questions: the game, its trumps (and the second suit of
     * dvě sedmy), then the additions this choice allows. Each step offers only what some
     * legal announcement has; the last button sends that announcement. */
    const KIND_OF = { G: "hra", BG: "hra", 7: "hra", B7: "hra", 100: "kilo", 107: "kilo", B100: "kilo",
      B107: "kilo", SMALL: "betl", BIG: "durch", 27: "dvě sedmy", 127: "dvě sedmy", B27: "dvě sedmy", B127: "dvě sedmy" };
    const EXTRA_OF = { 7: "sedma", B7: "sedma", 107: "sedma", B107: "sedma", 127: "kilo", B127: "kilo" };
    const KIND_TITLE = {
      hra: _("more points than the obrana (eso and 10 count 10, the last trick 10, hlášky 20/40)"),
      kilo: _("100 points counting one hláška (stovka)"),
      betl: _("take no trick (no trumps)"),
      durch: _("take every trick (no trumps)"),
      "dvě sedmy": _("win the last trick with the trump seven and the one before with the seven of a second suit"),
    };
    const SUIT_ORDER = ["G", "B", "A", "R"];

    function suitLabel(suit) {
      return [el("img", { src: `/static/cards/suit-${suit}.svg`, alt: "", width: 18, height: 18, class: "mar-suit" }),
        SUIT_WORDS[suit]];
    }

    function step(label, title, onclick, extra) {
      return el("button", { type: "button", class: "mar-step", title, disabled: S.pending, onclick, ...extra }, label);
    }

    function announceSteps(st, d) {
      const A = S.announce;
      const hand = new Set(st.hand.map((c) => c.code));
      const opts = d.options.filter((o) => o.kind === "gametype");
      const kinds = [...new Set(opts.map((o) => KIND_OF[o.contract]))];
      const out = [];
      const again = (patch) => () => { S.announce = { ...patch }; draw(); };
      const chosen = [];
      if (A.kind) chosen.push(el("button", { type: "button", class: "mar-back-step", onclick: again({}) }, _("Game: {kind} ✕", { kind: A.kind })));
      if (A.trumps) chosen.push(el("button", { type: "button", class: "mar-back-step", onclick: again({ kind: A.kind }) },
        _("Trumfy: {suit} ✕", { suit: SUIT_WORDS[A.trumps] })));
      if (A.second) chosen.push(el("button", { type: "button", class: "mar-back-step", onclick: again({ kind: A.kind, trumps: A.trumps }) },
        _("Second suit: {suit} ✕", { suit: SUIT_WORDS[A.second] })));
      if (chosen.length) out.push(el("div", { class: "mar-chosen" }, chosen));
      if (!A.kind) {
        out.push(el("p", { class: "mar-step-ask" }, _("1. Which game?")));
        out.push(el("div", { class: "mar-steps" }, kinds.map((k) =>
          step(k, KIND_TITLE[k], () => { S.announce = { kind: k }; draw(); }, { dataset: { kind: k } }))));
        return out;
      }
      let fit = opts.filter((o) => KIND_OF[o.contract] === A.kind);
      const trumpSuits = [...new Set(fit.map((o) => o.suit).filter(Boolean))];
      if (trumpSuits.length && !A.trumps) {
        out.push(el("p", { class: "mar-step-ask" }, _("2. Which suit is trumps?")));
        out.push(el("div", { class: "mar-steps" }, SUIT_ORDER.filter((x) => trumpSuits.includes(x)).map((x) =>
          step(suitLabel(x), x === "R" ? _("červené trumps: lepší, every part pays double") : _("{suit} trumps", { suit: SUIT_WORDS[x] }),
            () => { S.announce = { kind: A.kind, trumps: x }; draw(); }, { dataset: { suit: x } }))));
        if (trumpSuits.includes("R")) out.push(el("p", { class: "mar-hint" }, _("Červené (hearts) trumps make it lepší: paid double.")));
        // After a lepší (hearts) bid: the same game in another suit does not outbid it.
        if (d.outbid && String(d.won || "").startsWith("B")) out.push(el("p", { class: "mar-hint mar-outbid" }, d.outbid[""]));
        return out;
      }
      if (A.trumps) fit = fit.filter((o) => o.suit === A.trumps);
      const seconds = [...new Set(fit.map((o) => o.second).filter(Boolean))];
      if (seconds.length && !A.second) {
        out.push(el("p", { class: "mar-step-ask" }, _("3. The second suit: its seven wins the ninth trick")));
        out.push(el("div", { class: "mar-steps" }, SUIT_ORDER.filter((x) => seconds.includes(x)).map((x) =>
          step(suitLabel(x), _("{suit} as the second (strkací) suit", { suit: SUIT_WORDS[x] }),
            () => { S.announce = { ...A, second: x }; draw(); }, { dataset: { suit: x } }))));
        return out;
      }
      if (A.second) fit = fit.filter((o) => o.second === A.second);
      // The additions: sedma on hra and kilo, kilo on dvě sedmy — only where the list has them.
      const withExtra = fit.filter((o) => EXTRA_OF[o.contract]);
      const without = fit.filter((o) => !EXTRA_OF[o.contract]);
      const extraName = withExtra.length ? EXTRA_OF[withExtra[0].contract] : null;
      const extra = extraName && (without.length === 0 || A.extra);
      const hints = [];
      const trumpSeven = A.trumps ? `${A.trumps}07` : null;
      const marriages = ["R", "B", "G", "A"].filter((x) => hand.has(`${x}0K`) && hand.has(`${x}0Q`));
      const kiloAsked = A.kind === "kilo" || (extra && extraName === "kilo");
      if (A.trumps && A.kind !== "betl" && A.kind !== "durch") {
        hints.push(marriages.length
          ? _("Your hlášky: {list}.", { list: marriages.map((x) => `${SUIT_WORDS[x].split(" ")[0]} ${x === A.trumps ? 40 : 20}`).join(", ") })
          : _("You hold no hláška (svršek + král of one suit)."));
      }
      let warning = null;
      if (extra && extraName === "sedma" && !hand.has(trumpSeven)) {
        warning = _("You do not hold the trump seven ({seven}): a sedma without it is lost and you pay it.", { seven: SEVENS[A.trumps] });
      } else if (kiloAsked && !marriages.length) {
        warning = _("Without a hláška the kilo cannot be made: the cards hold 90 points at most.");
      }
      if (extraName) {
        const can = extraName === "sedma" ? hand.has(trumpSeven) : true;
        const label = extraName === "sedma"
          ? (can ? _("+ sedma (you hold the trump seven)") : "+ sedma")
          : _("+ kilo (100 points with one hláška)");
        if (without.length) {
          out.push(el("p", { class: "mar-step-ask" }, _("{n}. Anything to add?", { n: A.second ? 4 : A.trumps ? 3 : 2 })));
          out.push(el("div", { class: "mar-steps" },
            el("button", { type: "button", class: `mar-step mar-extra${A.extra ? " mar-on" : ""}`,
              "aria-pressed": String(Boolean(A.extra)), dataset: { extra: extraName },
              onclick: () => { S.announce = { ...A, extra: !A.extra }; draw(); } }, label)));
        } else {
          // Only the game with the addition outbids the licitace: say why in its words.
          hints.push((d.outbid && d.outbid[A.trumps || ""]) || _("The licitace makes the {extra} part of this game.", { extra: extraName }));
        }
      }
      const pick = (extra ? withExtra : without)[0];
      hints.forEach((h) => out.push(el("p", { class: "mar-hint" }, h)));
      if (warning) out.push(el("p", { class: "mar-note mar-warning", role: "alert" }, warning));
      if (pick) {
        out.push(el("button", {
          type: "button", class: `mar-choice mar-gametype${warning ? " mar-risky" : ""}`, title: pick.title,
          disabled: S.pending, dataset: { choice: pick.id }, onclick: () => act(pick.id),
        }, warning ? _("Announce anyway: {game}", { game: pick.label }) : _("Announce: {game}", { game: pick.label })));
      }
      return out;
    }

    function drawPrompt(st) {
      const d = st.decision;
      const key = JSON.stringify([d, st.stand_in, st.status, S.picked, S.pending, S.confirmClaim, S.confirmResign, S.announce]);
      if (key === promptKey) return;
      promptKey = key;
      const parts = [];
      if (st.stand_in) {
        parts.push(el("p", { class: "mar-note" }, _("A stand-in plays for you.")));
        if (st.status === "playing" || st.status === "waiting") {
          parts.push(el("button", {
            type: "button", class: "mar-choice mar-back", id: "mar-back",
            title: _("answer the questions yourself again"),
            onclick: () => send({ type: "back" }),
          }, _("Back to my seat")));
        }
      }
      if (d) {
        parts.push(el("p", { class: "mar-question" }, d.prompt));
        const buttons = [];
        if (d.kind === "discard") {
          const pair = S.picked.length === 2 ? d.options.find((o) => o.cards.includes(S.picked[0]) && o.cards.includes(S.picked[1])) : null;
          buttons.push(el("button", {
            type: "button", class: "mar-choice mar-discard", disabled: !pair || S.pending,
            title: _("lay the two chosen cards into the talon"),
            onclick: () => pair && act(pair.id),
          }, S.picked.length === 2 ? (pair ? _("Lay these two away") : _("Not these two"))
            : _("Choose {n} more", { n: 2 - S.picked.length })));
          if (S.picked.some((c) => c.endsWith("0A") || c.endsWith("10"))) {
            buttons.push(el("p", { class: "mar-note" }, _("An eso or a 10 in the talon leaves you only betl or durch.")));
          }
        } else if (d.kind === "gametype") {
          buttons.push(el("div", { class: "mar-announce" }, announceSteps(st, d)));
        } else {
          for (const o of d.options) {
            if (o.kind === "play") continue; // cards are clicked in the hand
            if (o.kind === "resign") {
              // Giving up loses every part of the game: ask once more before sending it.
              if (S.confirmResign === d.number) {
                buttons.push(el("div", { class: "mar-confirm play-confirm", id: "mar-resign-confirm", role: "alertdialog",
                  "aria-label": _("Give up the game?") },
                el("span", {}, _("Give up the game? You lose every part of it, as if each were played and lost; the next deal follows.") + " "),
                el("button", { type: "button", id: "mar-resign-yes", title: o.title, onclick: () => act(o.id) }, _("Yes, give up")),
                el("button", { type: "button", id: "mar-resign-no", onclick: () => { S.confirmResign = null; draw(); } }, _("No, play on"))));
              } else {
                buttons.push(el("button", {
                  type: "button", class: "mar-resign", id: "mar-resign", title: o.title, disabled: S.pending,
                  onclick: () => { S.confirmResign = d.number; S.scrollConfirm = true; draw(); },
                }, o.label));
              }
              continue;
            }
            if (o.kind === "claim") {
              // A wrong claim is a renonc: ask once more before sending it.
              if (S.confirmClaim === d.number) {
                buttons.push(el("span", { class: "mar-confirm" }, _("Lay down all your cards and claim every trick left?") + " "));
                buttons.push(el("button", { type: "button", class: "mar-claim-yes", title: o.title, onclick: () => act(o.id) }, _("Yes, lay down")));
                buttons.push(el("button", { type: "button", class: "mar-claim-no", onclick: () => { S.confirmClaim = null; draw(); } }, _("No")));
              } else {
                buttons.push(el("button", {
                  type: "button", class: "mar-claim", title: o.title, disabled: S.pending,
                  onclick: () => { S.confirmClaim = d.number; draw(); },
                }, o.label));
              }
              continue;
            }
            buttons.push(el("button", {
              type: "button", class: `mar-choice mar-${o.kind}`, title: o.title, disabled: S.pending,
              dataset: { choice: o.id },
              onclick: () => act(o.id),
            }, o.label));
          }
        }
        parts.push(el("div", { class: "mar-buttons" }, buttons));
      }
      const had = promptBox.contains(document.activeElement);
      promptBox.replaceChildren(...parts);
      // The question "give up?" is the decision now: on a phone it must not open under the fold.
      const confirmBox = S.scrollConfirm && document.getElementById("mar-resign-confirm");
      S.scrollConfirm = false;
      if (confirmBox) confirmBox.scrollIntoView({ block: "nearest" });
      // Each step of the announcement stays on the screen as it grows.
      if (d && d.kind === "gametype" && focused === d.number) promptBox.scrollIntoView({ block: "nearest" });
      if (had && d && d.kind === "gametype") {
        // One step answered with the keyboard: the next step's first button takes the focus;
        // at the last step the announcement does (an addition such as + sedma is a toggle
        // before it: Enter on it would add what nobody asked for).
        const next = promptBox.querySelector("button.mar-gametype") || promptBox.querySelector("button.mar-step, button.mar-choice");
        if (next) next.focus({ preventScroll: true });
      }
    }

    let reviewDeal = null, reviewAt = 0; // the deal the result panel shows, and when it came
    function drawResult(st) {
      const r = st.result;
      if (!r) {
        resultBox.replaceChildren();
        return;
      }
      const head = el("tr", {}, [_("player"), _("štychy (tricks)"), _("body (card points)"), _("hlášky"), _("money"), _("in all")]
        .map((h) => el("th", {}, h)));
      const rows = r.rows.map((row) => el("tr", {},
        el("td", {}, row.name + (row.role ? ` (${row.role})` : "")),
        el("td", {}, String(row.tricks)),
        el("td", {}, String(row.points)),
        el("td", {}, row.hlasky),
        el("td", { class: row.money > 0 ? "good" : row.money < 0 ? "bad" : "" }, signed(row.money)),
        el("td", {}, signed(row.total)),
      ));
      const note = r.stand_in ? [el("p", { class: "mar-note" }, _("A stand-in played for you in this deal."))] : [];
      // The deal's review (herna/web/reviews.py finds the deal recorded after this moment).
      if (reviewDeal !== r.deal) { reviewDeal = r.deal; reviewAt = Date.now(); }
      const review = el("p", {}, el("a", { id: "mar-review", target: "_blank",
        href: `/play/marias/review?ended=${reviewAt}` }, _("Review of this deal")));
      resultBox.replaceChildren(
        el("h2", {}, _("Vyúčtování — deal {n}: {title}", { n: r.deal, title: r.title })),
        ...note,
        el("div", { class: "mar-scroll" }, el("table", { class: "mar-result-table" }, el("thead", {}, head), el("tbody", {}, rows))),
        el("ul", { class: "mar-breakdown" }, r.lines.map((l) => el("li", { class: l.style ? `mar-${l.style.replace(" ", "-")}` : "" }, l.text))),
        review,
      );
    }

    /* After a table: a rematch (the same people and house bots at a new table; people must
     * each ask for it too). A new table with any opponents is the choice form's own button
     * ("Sit at a new table", shown again under this), so it is not offered twice. The web
     * hall and the hall's lobby decide; the page only asks. */
    function drawAfter(st, ended) {
      const parts = [];
      const offers = (st && st.rematch_offers) || [];
      if (ended && offers.length) {
        parts.push(el("p", { class: "mar-offer play-offer", id: "mar-rematch-offer", role: "alert" },
          (offers.length > 1 ? _("{names} want a rematch.", { names: offers.join(", ") })
            : _("{names} wants a rematch.", { names: offers[0] })) + " ",
          el("button", { type: "button", id: "mar-rematch-accept", onclick: () => send({ type: "rematch" }) }, _("Accept the rematch")),
          el("button", { type: "button", id: "mar-rematch-decline", onclick: () => send({ type: "decline_rematch" }) }, _("Decline"))));
      }
      if (ended && st.can_rematch && !offers.length) {
        const names = st.players.filter((p) => !p.you).map((p) => p.name);
        parts.push(el("p", { class: "mar-after play-after" },
          el("button", { type: "button", id: "mar-rematch", title: names.length === 2
            ? _("a new table with {a} and {b}", { a: names[0], b: names[1] })
            : _("a new table with {names}", { names: names.join(", ") }),
          onclick: () => send({ type: "rematch" }) }, _("Rematch"))));
      }
      afterBox.replaceChildren(...parts);
      const justEnded = ended && !S.afterShown;
      S.afterShown = Boolean(ended);
      return justEnded;
    }

    /* The table just ended: what comes next is brought on screen (the page was scrolled down
     * to the cards), once the rest of the page is drawn (it moves what is above it): the
     * choice form's Sit at a new table, the status under it and the rematch under that. */
    function showAfter(justEnded) {
      if (!justEnded) return;
      if (!form.hidden) document.getElementById("mar-sit-button").scrollIntoView({ block: "nearest" });
      afterBox.scrollIntoView({ block: "nearest" });
    }

    function statusText(st) {
      if (!st) return "";
      if (st.status === "connecting") return _("Logging in at the mariáš server…");
      if (st.status === "waiting") {
        return st.message || _("Waiting for the table (with people: until another person sits down)…");
      }
      if (st.status === "over") return st.message || _("The table is closed.");
      if (st.status === "error") return _("The mariáš server refused: {message}", { message: st.message });
      const d = st.decision;
      if (d) return d.prompt;
      const mover = st.players.find((p) => p.to_move);
      if (mover && !mover.you) return _("{name} to move…", { name: mover.name });
      // Between a deal's end and the next question nobody is asked: say which of the two it is.
      if (st.result && !st.hand.length) return _("Deal {n} is over; the next deal is being dealt…", { n: st.deals });
      return st.result ? _("The next deal is under way…") : _("Waiting for the next move…");
    }

    let focused = null;

    /* A new question puts the keyboard on its first choice (a legal card or a button), so
     * Enter answers and Tab moves on, without hunting for it after every trick. */
    function focusQuestion(st) {
      const d = st.decision;
      if (!d || focused === d.number) return;
      focused = d.number;
      const first = d.kind === "play" || d.kind === "discard"
        ? handBox.querySelector("button.mar-legal")
        : promptBox.querySelector("button.mar-gametype") || promptBox.querySelector("button.mar-step, button.mar-choice, button.mar-claim");
      if (first) first.focus({ preventScroll: true });
      // The question is brought on screen with the hand under it (it fits a phone as a rule;
      // a long licitace and the talon may push the hand down), the buttons last.
      handBox.scrollIntoView({ block: "nearest" });
      if (d.kind !== "play" && d.kind !== "discard") promptBox.scrollIntoView({ block: "nearest" });
    }

    function draw() {
      root.dataset.phase = S.phase;
      const st = S.state;
      const ended = st && (st.status === "over" || st.status === "error");
      form.hidden = !(S.phase === "choose" || ended);
      document.getElementById("mar-sit-button").textContent = ended ? _("Sit at a new table") : _("Sit down");
      // A table nobody sat at (a rematch nobody answered): no empty cloth on screen.
      const bare = st && !(st.players || []).length && !(st.log || []).length;
      tableBox.hidden = !st || bare;
      root.dataset.status = st ? st.status : "";
      root.dataset.myTurn = st && st.decision ? "1" : "0";
      root.dataset.decision = st && st.decision ? st.decision.kind : "";
      root.dataset.seq = String(S.seq);
      root.dataset.deals = st ? String(st.deals) : "0";
      statusNode.textContent = S.error || statusText(st);
      statusNode.classList.toggle("error", Boolean(S.error));
      const justEnded = drawAfter(st, ended);
      if (!st) {
        showAfter(justEnded);
        return;
      }
      drawPlayers(st);
      drawContract(st);
      drawTrick(st);
      drawPrompt(st);
      tick();
      drawHand(st);
      drawResult(st);
      logList.replaceChildren(...st.log.slice(-12).map((line) => el("li", {}, line)));
      focusQuestion(st);
      leaveButton.hidden = st.status === "over" || st.status === "error";
      if (leaveButton.hidden) leaveConfirm.hidden = true;
      showAfter(justEnded);
    }

    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const choice = form.querySelector("input[name=opponents]:checked");
      const fill = document.getElementById("mar-fill"); // (only with the lobby's "anyone")
      const wait = fill ? Math.max(0, Math.min(3600, Math.round(Number(fill.value) || 0))) : 0;
      // Kept for this tab: the form shows it again after a reload (a language switch).
      if (choice) window.HernaPlayPage.lastChoice("marias", `opponent=${choice.value},fill=${wait}`);
      if (choice && choice.value === "anyone") {
        // the hall lobby's seek: people and bots may sit down, house bots after the wait
        wantSit = { type: "sit", name: me, lang: pageLang(), seek: `person,opponent=anyone,fill=${wait}` };
      } else {
        wantSit = { type: "sit", name: me, lang: pageLang(), opponents: choice ? choice.value : null };
      }
      if (page.token) wantSit.token = page.token;
      if (S.seat) {
        // The last table is over: a new seat on a new connection.
        forget();
        S.seat = null;
        S.state = null;
        S.seq = -1;
        if (ws) ws.close();
        ws = null;
      }
      S.phase = "connecting";
      S.error = null;
      draw();
      if (ws && ws.readyState === WebSocket.OPEN) send(wantSit);
      else connect();
    });

    // Leaving ends the table for everyone: ask once more, as giving up and resigning do.
    leaveButton.addEventListener("click", () => {
      leaveConfirm.hidden = false;
      document.getElementById("mar-leave-no").focus();
      leaveConfirm.scrollIntoView({ block: "nearest" });
    });
    document.getElementById("mar-leave-no").addEventListener("click", () => {
      leaveConfirm.hidden = true;
      leaveButton.focus();
    });
    document.getElementById("mar-leave-yes").addEventListener("click", () => {
      leaveConfirm.hidden = true;
      send({ type: "leave" });
      forget();
    });

    window.HernaMarias = { state: S, send, act, suits: SUIT_WORDS };
    // The tab's last choice of opponents, not the form's first, after a reload.
    const last = window.HernaPlayPage.lastChoice("marias");
    const kept = last.opponent &&
      form.querySelector(`input[name=opponents][value="${CSS.escape(String(last.opponent))}"]`);
    if (kept) kept.checked = true;
    if (last.fill !== undefined && document.getElementById("mar-fill")) {
      document.getElementById("mar-fill").value = String(last.fill);
    }
    const stored = saved();
    // From the lobby page (docs/web.md, "The lobby"): sit down at once with the lobby's seek
    // (a waiting player's table, a challenge, house bots of a level, people only, anyone).
    // The lobby's wish comes first: the hall gives this page the person's table if one is
    // playing, and ends a seat of theirs still waiting (their earlier seek), so the page
    // never resumes an old seek in place of the one just asked for.
    const wish = new URLSearchParams(location.search).get("seek");
    // Used once: a reload then takes the seat back rather than asking again.
    if (wish) history.replaceState(null, "", location.pathname);
    if (stored && stored.seat && !wish) {
      S.seat = stored.seat;
      S.phase = "connecting";
      connect();
    } else if (wish) {
      forget();
      wantSit = { type: "sit", name: me, lang: pageLang(), seek: wish };
      if (page.token) wantSit.token = page.token;
      S.phase = "connecting";
      connect();
    }
    draw();
  }

  document.addEventListener("DOMContentLoaded", () => {
    const block = document.getElementById("herna-page");
    const page = block ? JSON.parse(block.textContent) : {};
    if (page.kind === "play" && page.game === "marias" && page.running) start(page);
  });
})();

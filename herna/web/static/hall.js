/* Herna web hall: the page shell (no build step, no external scripts).
 *
 * Game renderers are plain scripts in /static/games/<game>.js, loaded after this file. Each
 * registers
 *     window.HernaGames["<game>"] = { render(container, view, event) { ... } };
 * and draws a spectator view into `container`. The shell calls it for every live update
 * and every replay step; a game without a renderer (or whose renderer throws) is shown as
 * readable JSON.
 *
 * Every page lists this file before the renderers (all `defer`, so they run in that order):
 * renderers take their helpers from `window.Herna` and keep no copies of their own:
 *     el(tag, attrs, ...children)    an HTML element (see below for the attributes)
 *     svg(tag, attrs, ...children)   an SVG element, every attribute set as given
 *     colour(name)                   a stable colour per player name
 *     addStyle(id, css)              a <style id=...> in <head>, added once
 *     renderJSON(container, value)   the readable JSON fallback
 *     _(message, values)             `message` in the page's language (below)
 *     ngettext(one, many, n, values) a count in the page's language, in its plural form
 */
"use strict";

window.HernaGames = window.HernaGames || {};

(function () {
  const Herna = {};
  window.Herna = Herna;

  /* _("Seat {n}", {n: 2}): a message in the page's language. The page hands its scripts the
   * messages of its catalog (Herna.page.messages, herna/web/i18n.py script_messages); a
   * message it has none for stays as written (English, the catalogs' source). `{name}` is
   * replaced by values.name. Scripts call it as `_("...")` with the text written out, so that
   * the catalog's extraction finds it (babel.cfg). */
  let messages = null;
  function catalog() {
    if (messages === null) {
      const block = document.getElementById("herna-page");
      messages = (block && JSON.parse(block.textContent).messages) || {};
    }
    return messages;
  }
  function fill(text, values) {
    return values ? text.replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all)) : text;
  }
  function gettext(message, values) {
    const said = catalog()[message];
    return fill(typeof said === "string" ? said : message, values);
  }
  /* ngettext("{n} round", "{n} rounds", n): a count in the page's language, in the form the
   * language gives it (Czech has three: 1 kolo, 2 kola, 5 kol). The page hands the forms by
   * plural category (i18n.py plural_forms) and the browser's Intl.PluralRules picks one;
   * `{n}` is the count. Scripts write both texts out in the call, as with `_()`. */
  let plurals = null;
  function ngettext(singular, plural, n, values) {
    const forms = catalog()[singular];
    let text = n === 1 ? singular : plural;
    if (forms && typeof forms === "object") {
      plurals = plurals || new Intl.PluralRules(document.documentElement.lang || "en");
      text = forms[plurals.select(n)] ?? forms.other ?? text;
    }
    return fill(text, { n, ...values });
  }
  Herna._ = gettext;
  Herna.ngettext = ngettext;
  const _ = gettext;

  /* Herna.drawSoon(draw): a function that asks for `draw` once for every burst of calls (a
   * play page's frames that arrive together when house bots or a stand-in answer without
   * delay): drawing for each would queue the page's rendering behind the table, and a button
   * would be replaced under the pointer as it is clicked. */
  Herna.drawSoon = function (draw) {
    let queued = false;
    return () => {
      if (queued) return;
      queued = true;
      setTimeout(() => {
        queued = false;
        draw();
      }, 0);
    };
  };

  /* el("div", {class: "x", title: "y"}, "text", childNode, ...): an HTML element. Attributes
   * that are null, undefined or false are left out, true sets an empty one; "class" sets the
   * class name, "dataset" an object of data-* values, an on<event> function becomes a listener.
   * Children are nodes or text (nested arrays are flattened; null, undefined, false skipped). */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "dataset") Object.assign(node.dataset, v);
      else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  Herna.el = el;

  /* svg("rect", {x: 0, "stroke-width": 2}, ...children): an SVG element. Every attribute but
   * null or undefined is set as String(value); children as for el, but only null and undefined
   * are skipped. */
  Herna.svg = function (tag, attrs, ...children) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined) node.setAttribute(k, String(v));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined) continue;
      node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  };

  /* A stable colour per name (players keep their colour across pages). */
  Herna.colour = function (name) {
    let h = 0;
    for (const ch of String(name)) h = (h * 31 + ch.codePointAt(0)) >>> 0;
    return `hsl(${h % 360}, 65%, 45%)`;
  };

  /* Add a <style id=`id`> with `css` to <head> unless the page has one already (renderers keep
   * their styles with them, so adding a game touches one file). */
  Herna.addStyle = function (id, css) {
    if (document.getElementById(id)) return;
    const style = document.createElement("style");
    style.id = id;
    style.textContent = css;
    document.head.appendChild(style);
  };

  Herna.time = function (ts) {
    if (!ts) return "";
    const d = new Date(ts * 1000);
    return d.toLocaleTimeString([], { hour12: false });
  };

  Herna.renderJSON = function (container, value) {
    container.replaceChildren(el("pre", { class: "json" }, JSON.stringify(value, null, 2)));
  };

  /* Draw `view` of `game` into `container` with the game's renderer, else as JSON. */
  Herna.render = function (container, game, view, event) {
    const renderer = window.HernaGames[game];
    if (renderer && typeof renderer.render === "function" && view !== null && view !== undefined) {
      try {
        renderer.render(container, view, event);
        container.dataset.renderer = game;
        return;
      } catch (err) {
        console.error(`herna: the ${game} renderer failed`, err);
        Herna.renderJSON(container, view);
        container.prepend(el("p", { class: "error" }, _("The {game} drawing failed: {error}", { game: title(game), error: err })));
        container.dataset.renderer = "json";
        return;
      }
    }
    Herna.renderJSON(container, view === undefined || view === null ? (event || {}) : view);
    container.dataset.renderer = "json";
  };

  /* A snapshot key in words, like pages.key_words (the Status page sends its KEY_WORDS). */
  function keyWords(key) {
    const words = (Herna.page && Herna.page.words) || {};
    if (Object.hasOwn(words, key)) return words[key];
    const code = /^[A-Za-z]+(?:_[A-Za-z]+)+$/.test(key) && (key === key.toUpperCase() || key === key.toLowerCase());
    return code ? key.replace(/_/g, " ").toLowerCase() : key; // a player's name stays as written
  }

  /* A generic readable rendering of JSON (service snapshots), like pages.value_html. */
  /* A CGML table's players in words, as pages.py seated_words says them. */
  function seatedWords(players) {
    const kinds = (Herna.page && Herna.page.kinds) || {};
    return players.map((p) => {
      const values = { name: p.name || p.id || "?", kind: kinds[p.race] || p.race };
      return p.joined === false ? _("{name} ({kind}, not joined yet)", values) : _("{name} ({kind})", values);
    }).join(", ");
  }

  function valueNode(value, depth) {
    depth = depth || 0;
    if (value === null || value === undefined) return el("span", { class: "muted" }, "–");
    if (Array.isArray(value)) {
      if (!value.length) return el("span", { class: "muted" }, _("none"));
      if (value.every((v) => v === null || typeof v !== "object")) {
        const values = (Herna.page && Herna.page.values) || {};
        return document.createTextNode(value.map((v) => (v === null ? "–" : (typeof v === "string" && values[v]) || v)).join(", "));
      }
      if (value.every((v) => v && typeof v === "object" && "name" in v && "race" in v)) return document.createTextNode(seatedWords(value));
      const objects = value.every((v) => v && typeof v === "object" && !Array.isArray(v));
      /* inside a table's cell: each item a small key-value table (as pages.py value_html) */
      if (objects && depth >= 2) return el("div", {}, value.map((v) => el("div", { class: "item" }, valueNode(v, depth + 1))));
      if (objects) {
        const keys = [];
        value.forEach((v) => Object.keys(v).forEach((k) => { if (!keys.includes(k)) keys.push(k); }));
        return el("div", { class: "scroll" }, el("table", { class: "grid" },
          el("tr", {}, keys.map((k) => el("th", {}, keyWords(k)))),
          value.map((v) => el("tr", {}, keys.map((k) => el("td", {}, valueNode(k in v ? v[k] : "", depth + 1)))))));
      }
      return el("pre", {}, JSON.stringify(value, null, 1));
    }
    if (typeof value === "object") {
      const keys = Object.keys(value);
      if (!keys.length) return el("span", { class: "muted" }, "–");
      return el("table", { class: "kv" },
        keys.map((k) => el("tr", {}, el("th", {}, keyWords(k)), el("td", {}, valueNode(value[k], depth + 1)))));
    }
    if (typeof value === "boolean") return document.createTextNode(value ? _("yes") : _("no"));
    const values = (Herna.page && Herna.page.values) || {};
    return document.createTextNode(typeof value === "string" && values[value] ? values[value] : String(value));
  }
  Herna.valueNode = valueNode;

  /* A live event in words: the game renderer's eventWords, else the label the server gave
   * it (the tile server does), else its kind in words; never its JSON. */
  function eventText(ev, game) {
    const renderer = window.HernaGames && window.HernaGames[game];
    let text = null;
    try {
      text = renderer && renderer.eventWords ? renderer.eventWords(ev) : null;
    } catch (err) {
      text = null; // an odd event: its kind below
    }
    if (!text) text = (ev.data && typeof ev.data.label === "string" && ev.data.label) || keyWords(ev.kind);
    return `${Herna.time(ev.ts)} ${text}`;
  }

  /* A live table's status (the hub's code: live, over, closed) in words. */
  function statusWords(status) {
    const words = { live: _("live"), over: _("over"), closed: _("closed") };
    return words[status] || status;
  }

  /* ---- live views ------------------------------------------------------------------- */
  const MAX_PANELS = 12;
  const MAX_LOG = 200; /* events listed per table (the hub keeps as many for resuming) */

  /* The /ws/live client. Every event of a table carries its version `v` (1, 2, … per table
   * and stream, see herna/web/live.py); the page keeps, per table, the stream and the newest
   * version it has. After a lost connection it reconnects with backoff and sends them
   * (`?resume=[[game, table, stream, version], …]`): the hub answers with exactly the events
   * it missed (mode "resume"), or a fresh snapshot of the table when they are no longer kept
   * (mode "snapshot", and the log says events are missing). Events at or below the version
   * the page has are never listed twice. No reload. */
  function startLive(page) {
    const root = document.getElementById("live");
    const status = document.getElementById("live-status");
    const panels = new Map();
    const tables = new Map(); /* key -> what the page holds about the table */
    const dirty = new Set();
    let frames = 0;
    let connects = 0;
    let starts = 0; /* fresh starts of a table's log (a snapshot, a new stream) */
    let scheduled = false;
    let backoff = 500;

    function setStatus(text, cls) {
      status.textContent = text;
      status.className = "status " + (cls || "");
    }

    /* A table's card in words: the game, and the Mia table by name (other tables' ids are
     * codes: the card's players and deal say which it is). */
    function cardTitle(t) {
      const names = (Herna.page && Herna.page.tables) || {};
      return names[t.table] && t.game === "mia" ? `${title(t.game)} · ${names[t.table]}` : title(t.game);
    }

    function panelFor(t) {
      const key = t.game + "\u0000" + t.table;
      let p = panels.get(key);
      if (p) return p;
      const empty = root.querySelector(".empty");
      if (empty) empty.remove();
      const href = `/live/${encodeURIComponent(t.game)}/${encodeURIComponent(t.table)}`;
      const view = el("div", { class: "view" });
      const log = el("ol", { class: "events" });
      const meta = el("span", { class: "meta" });
      const card = el("section", { class: "card table", dataset: { game: t.game, table: t.table } },
        el("h3", {}, el("a", { href }, cardTitle(t)), " ", meta),
        view,
        el("details", { class: "log" }, el("summary", {}, _("events")), log));
      root.prepend(card);
      p = { card, view, log, meta, shown: 0, start: 0, updated: 0, over: false };
      panels.set(key, p);
      return p;
    }

    function eventItem(ev, game) {
      // data-kind: the event's kind for scripts and tests (people read the words).
      return el("li", { dataset: { v: ev.v, kind: ev.kind } }, eventText(ev, game));
    }

    function draw() {
      scheduled = false;
      for (const key of dirty) {
        const t = tables.get(key);
        if (!t) continue;
        const p = panelFor(t);
        const view = t.view !== null && t.view !== undefined ? t.view
          : (t.event && t.event.data ? t.event.data.view : null);
        Herna.render(p.view, t.game, view, t.event);
        p.card.dataset.status = t.status;
        p.card.dataset.stream = t.stream;
        p.card.dataset.version = String(t.version);
        if (t.event) p.card.dataset.seq = t.event.seq;
        const missing = t.missing ? ` · ${_("events not listed: {n}", { n: t.missing })}` : "";
        p.meta.textContent = `${statusWords(t.status)} · ${Herna.time(t.updated)}${missing}`;
        // The log, newest first: only new events are added; a fresh start redraws it.
        if (p.start !== t.start) {
          p.start = t.start;
          p.log.replaceChildren(...t.events.slice().reverse().map((ev) => eventItem(ev, t.game)));
        } else {
          const fresh = t.events.filter((ev) => ev.v > p.shown);
          if (fresh.length) p.log.prepend(...fresh.reverse().map((ev) => eventItem(ev, t.game)));
          while (p.log.childElementCount > t.events.length) p.log.lastElementChild.remove();
        }
        p.shown = t.events.length ? t.events[t.events.length - 1].v : 0;
        p.updated = t.updated || 0;
        const over = t.status === "over" || t.status === "closed";
        // A table that ended goes below the ones still playing (new ones come in on top).
        if (over && !p.over && !page.table) root.append(p.card);
        p.over = over;
      }
      dirty.clear();
      // Finished tables make way for new ones: keep the page to MAX_PANELS cards.
      if (panels.size > MAX_PANELS) {
        const old = [...panels.entries()].sort((a, b) =>
          (a[1].over === b[1].over ? 0 : a[1].over ? -1 : 1) || a[1].updated - b[1].updated);
        for (const [key, p] of old.slice(0, panels.size - MAX_PANELS)) forgetPanel(key, p);
      }
      root.dataset.frames = String(frames);
      root.dataset.connects = String(connects);
    }

    function forgetPanel(key, p) {
      p.card.remove();
      panels.delete(key);
      tables.delete(key);
    }

    /* Finished tables drop out of the list of all tables (the hub forgets them after the
     * same time); the page of one table keeps showing how it ended. */
    const FINISHED_SECONDS = 120;
    if (!page.table) {
      setInterval(() => {
        const now = Date.now() / 1000;
        for (const [key, p] of [...panels.entries()]) {
          if (p.over && p.updated && now - p.updated > FINISHED_SECONDS) forgetPanel(key, p);
        }
      }, 5000);
    }

    /* One table's part of a frame into what the page holds. */
    function merge(frame, part) {
      const key = part.game + "\u0000" + part.table;
      let t = tables.get(key);
      const events = part.events || [];
      if (part.mode === "snapshot" || !t || t.stream !== part.stream) {
        // A fresh start: the first frame, a gap the hub no longer keeps, or a table the hub
        // forgot and saw again (a new stream).
        const from = events.length ? events[0].v - 1 : part.version;
        const gap = t && t.stream === part.stream ? Math.max(0, from - t.version) : 0;
        t = { stream: part.stream, events: [], missing: gap, version: from, start: ++starts };
        tables.set(key, t);
      }
      for (const ev of events) {
        if (ev.v <= t.version) continue; // had it already
        if (ev.v > t.version + 1) t.missing += ev.v - t.version - 1; // a busy table's update
        t.events.push(ev);
        t.version = ev.v;
      }
      if (t.events.length > MAX_LOG) t.events.splice(0, t.events.length - MAX_LOG);
      t.version = Math.max(t.version, part.version || 0);
      Object.assign(t, { game: part.game, table: part.table, status: part.status,
                         view: part.view, event: part.event, updated: part.updated });
      dirty.add(key);
    }

    function take(frame) {
      frames += 1;
      for (const part of frame.tables || []) merge(frame, part);
      if (!scheduled) {
        scheduled = true;
        requestAnimationFrame(draw);
      }
    }

    function connect() {
      const q = new URLSearchParams();
      if (page.game) q.set("game", page.game);
      if (page.table) q.set("table", page.table);
      if (tables.size) {
        q.set("resume", JSON.stringify([...tables.values()].map(
          (t) => [t.game, t.table, t.stream, t.version])));
      }
      const scheme = location.protocol === "https:" ? "wss://" : "ws://";
      const ws = new WebSocket(`${scheme}${location.host}/ws/live?${q}`);
      ws.onopen = () => { setStatus(_("live"), "ok"); backoff = 500; connects += 1; };
      ws.onmessage = (msg) => take(JSON.parse(msg.data));
      ws.onclose = (ev) => {
        const why = ev.code === 4001 ? _("dropped: too slow") : ev.code === 1013 ? _("hall full") : _("disconnected");
        setStatus(_("{why}; reconnecting…", { why }), "bad");
        setTimeout(connect, backoff);
        backoff = Math.min(backoff * 2, 10000);
      };
    }
    connect();
  }

  /* ---- replay stepper --------------------------------------------------------------- */
  async function startReplay(page) {
    const box = document.getElementById("replay");
    const viewEl = document.getElementById("replay-view");
    const label = document.getElementById("replay-label");
    const pos = document.getElementById("replay-pos");
    const slider = document.getElementById("replay-slider");
    const list = document.getElementById("replay-steps");
    let data;
    try {
      // The steps' labels in the page's language (the API's own default is English).
      const lang = encodeURIComponent(document.documentElement.lang || "en");
      const res = await fetch(`/api/matches/${page.match}/replay?lang=${lang}`);
      data = await res.json();
      if (!res.ok) throw new Error(data.error || res.status);
    } catch (err) {
      pos.textContent = _("replay unavailable: {error}", { error: err });
      return;
    }
    const steps = data.steps || [];
    if (data.warning) box.prepend(el("p", { class: "error" }, data.warning));
    if (data.source === "log") {
      box.prepend(el("p", { class: "muted" }, _("No replayer for this game: showing the raw log (chance outcomes hidden).")));
    }
    let index = 0;
    let timer = null;
    slider.max = String(Math.max(0, steps.length - 1));
    list.replaceChildren(...steps.map((s, i) => el("li", { dataset: { index: i }, onclick: () => show(i) }, s.label)));

    function show(i) {
      if (!steps.length) {
        pos.textContent = _("no steps recorded");
        return;
      }
      index = Math.max(0, Math.min(steps.length - 1, i));
      const step = steps[index];
      label.textContent = step.label;
      pos.textContent = _("step {n} / {of}", { n: index + 1, of: steps.length });
      slider.value = String(index);
      box.dataset.index = String(index);
      Herna.render(viewEl, page.game, step.view,
        { game: page.game, kind: "replay_step", data: { label: step.label, index }, replay: true });
      for (const li of list.children) li.classList.toggle("current", Number(li.dataset.index) === index);
      const current = list.children[index];
      if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
      history.replaceState(null, "", `#step=${index + 1}`);
    }

    function play() {
      if (timer) {
        clearInterval(timer);
        timer = null;
        return;
      }
      if (index >= steps.length - 1) show(0);
      timer = setInterval(() => {
        if (index >= steps.length - 1) { clearInterval(timer); timer = null; return; }
        show(index + 1);
      }, 700);
    }

    const actions = {
      first: () => show(0),
      prev: () => show(index - 1),
      next: () => show(index + 1),
      last: () => show(steps.length - 1),
      play,
    };
    box.querySelectorAll("button[data-step]").forEach((b) => b.addEventListener("click", () => actions[b.dataset.step]()));
    slider.addEventListener("input", () => show(Number(slider.value)));
    document.addEventListener("keydown", (ev) => {
      if (ev.target && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName) && ev.target !== slider) return;
      const key = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", " ": "play" }[ev.key];
      if (key) { ev.preventDefault(); actions[key](); }
    });
    const m = /step=(\d+)/.exec(location.hash);
    show(m ? Number(m[1]) - 1 : 0);
    box.dataset.steps = String(steps.length);
  }

  /* ---- status: refresh server snapshots and live tables ------------------------------ */
  const liveHref = (t) => `/live/${encodeURIComponent(t.game)}/${encodeURIComponent(t.table)}`;

  function startStatus() {
    async function refresh() {
      try {
        const services = await (await fetch("/api/services")).json();
        for (const svc of services) {
          const card = document.querySelector(`.service[data-game="${CSS.escape(svc.game)}"] .snapshot`);
          if (card) card.replaceChildren(valueNode(svc.snapshot));
        }
        const tables = await (await fetch("/api/live")).json();
        const holder = document.getElementById("live-tables");
        if (holder && tables.length) {
          const table = el("table", { class: "grid", id: "live-tables" },
            el("tr", {}, [_("game"), _("table"), _("status"), _("last event")].map((h) => el("th", {}, h))),
            tables.slice(0, 50).map((t) => el("tr", {},
              el("td", {}, title(t.game)),
              el("td", {}, el("a", { href: liveHref(t) }, t.table)),
              el("td", {}, statusWords(t.status)),
              el("td", {}, t.event ? keyWords(t.event.kind) : ""))));
          holder.replaceWith(table);
        }
      } catch (err) {
        /* the hall may be restarting; try again later */
      }
    }
    setInterval(refresh, 3000);
  }

  /* ---- home: the tables playing now (each once; finished ones drop out) -------------- */
  /* Game titles: pages.py GAME_TITLES, sent with every page (Herna.page.titles). */
  const title = (game) => ((Herna.page && Herna.page.titles) || {})[game] || String(game).replace(/_/g, " ");

  function namesIn(players) {
    const list = Array.isArray(players) ? players
      : players && typeof players === "object" ? Object.values(players) : [];
    const out = [];
    for (const p of list) {
      if (typeof p === "string") out.push(p);
      else if (p && (p.name || p.id)) out.push(String(p.name || p.id));
    }
    return out;
  }

  /* Who sits at a table (as pages.py _player_names says it). */
  function playersOf(data) {
    const pair = ["white", "black"].map((k) => data[k]).filter((v) => typeof v === "string");
    if (pair.length) return pair;
    let out = namesIn(data.players);
    if (!out.length && data.view) out = namesIn(data.view.players);
    return out.slice(0, 8);
  }

  function startHome() {
    async function refresh() {
      try {
        const tables = (await (await fetch("/api/live")).json()).filter((t) => t.status === "live");
        const holder = document.getElementById("live-tables");
        if (!holder) return;
        const next = tables.length
          ? el("ul", { class: "watch", id: "live-tables" }, tables.slice(0, 20).map((t) => {
            const data = (t.event && t.event.data) || {};
            const names = playersOf(data);
            const deal = Number.isInteger(data.game_no) ? _(", deal {n}", { n: data.game_no }) : "";
            return el("li", { dataset: { game: t.game, table: t.table } },
              el("a", { href: liveHref(t) }, el("b", {}, title(t.game)), deal),
              " ", el("span", { class: "muted" }, names.length ? names.join(", ") : _("players arriving")));
          }))
          : el("p", { class: "muted", id: "live-tables" }, _("No table is playing right now."));
        holder.replaceWith(next);
      } catch (err) {
        /* the hall may be restarting; try again later */
      }
    }
    setInterval(refresh, 4000);
  }

  document.addEventListener("DOMContentLoaded", () => {
    const block = document.getElementById("herna-page");
    const page = block ? JSON.parse(block.textContent) : {};
    Herna.page = page;
    if (page.kind === "live") startLive(page);
    else if (page.kind === "replay") startReplay(page);
    else if (page.kind === "home") startHome();
    else if (page.kind === "status") startStatus();
  });
})();

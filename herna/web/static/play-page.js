/* What the Onitama and tile play pages share: the tab's socket and its wait kept through a
 * reload, the fill wait counted down, the clock's words, and bringing the next step into view
 * when a game ends.
 *
 * A reload keeps the seek: each tab has an id of its own (sessionStorage, so a reload keeps it
 * and another tab does not share it) that the page names in the socket's URL
 * (`/ws/<game>?page=ID`). While the person waits for an opponent the page also keeps what it
 * waits for (`waiting`): after a reload it asks for the same connection back
 * (`/ws/<game>?resume=ID`, herna/web/play.py), and the server sends everything since the wait
 * began, so the page carries on as if it had never left. A connection the server no longer
 * holds is closed with 4010: the page starts afresh. A page that leaves on purpose (Cancel,
 * another opponent) closes with 1000, which ends the seek at once.
 */
"use strict";

(function () {
  const NOTHING_TO_RESUME = 4010;
  const LEAVING = 1000;

  function randomId() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  function tabId(game) {
    const key = `herna.${game}.tab`;
    let id = sessionStorage.getItem(key);
    if (!id) {
      id = randomId();
      sessionStorage.setItem(key, id);
    }
    return id;
  }

  /* The wait this tab is in, kept for a reload: read (no value), keep (an object) or end
   * (null). */
  function waiting(game, value) {
    const key = `herna.${game}.waiting`;
    if (value === undefined) {
      try {
        return JSON.parse(sessionStorage.getItem(key) || "null");
      } catch (err) {
        return null;
      }
    }
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify(value));
    return value;
  }

  /* What this tab last asked for when it sat down (the seek words, "person,opponent=people"):
   * read (no value) or keep (a string). The choice of opponent shows it again after a seek
   * ended (cancelled, or the page came back), not the first option. */
  function lastChoice(game, value) {
    const key = `herna.${game}.choice`;
    if (value === undefined) return seekWords(sessionStorage.getItem(key) || "");
    sessionStorage.setItem(key, value);
    return seekWords(value);
  }

  function socketUrl(game, resume) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/${game}?${resume ? "resume" : "page"}=${tabId(game)}`;
  }

  /* The lobby's seek words ("person,opponent=anyone,fill=30") as an object. */
  function seekWords(text) {
    const out = {};
    for (const word of String(text || "").split(",")) {
      const [key, ...rest] = word.split("=");
      if (key) out[key] = rest.length ? rest.join("=") : true;
    }
    return out;
  }

  /* When the house bots sit down for a wait of `fill` seconds that began now (null: none). */
  function fillDeadline(want) {
    const fill = Number(want.fill || 0);
    return want.opponent === "anyone" && !want.challenge && fill > 0 ? Date.now() + 1000 * fill
      : null;
  }

  /* What a person waiting for an opponent reads (the fill wait counted down), in the page's
   * language. `who` says it for the game, already in the page's language: {one: "a person",
   * people: "another person", fill: "a house bot sits down", filling: "a house bot is sitting
   * down", bots: "A house bot is sitting down"}. */
  function waitWords(want, until, who) {
    const _ = window.Herna._;
    if (want.challenge) return _("Waiting for {name} to accept your challenge…", { name: want.challenge });
    if (want.opponent === "people") return _("Waiting for {who} (people only)…", { who: who.people });
    if (want.opponent === "bots") return `${who.bots}…`;
    if (until) {
      const left = Math.ceil((until - Date.now()) / 1000);
      if (left > 0) {
        return _("Waiting for {who} to play you: if nobody comes, {fill} in {left} s.",
          { who: who.one, fill: who.fill, left });
      }
      return _("Nobody came: {filling}…", { filling: who.filling });
    }
    return _("Waiting for an opponent…");
  }

  /* Minutes and seconds of a clock: 4:58. */
  function clockWords(seconds) {
    const s = Math.ceil(Math.max(0, seconds));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  /* When a game ends, what to do next (Rematch, Play again) comes into view once: below the
   * board it sat under the fold at 1280x800. `over`: whether the game is over now; `shown`:
   * whether it was brought into view already; returns the new `shown`. */
  function showNextOnce(box, over, shown) {
    if (!over) return false;
    if (!shown) {
      const next = box.querySelector(".play-after") || box.querySelector("#play-result");
      if (next) next.scrollIntoView({ block: "nearest" });
    }
    return true;
  }

  /* The seat secret (and what the page needs to come back to the seat) in localStorage under
   * `key`: a reload, or the tab closed and opened again, takes the seat back with it. */
  function seatStore(key) {
    return {
      saved() {
        try {
          return JSON.parse(localStorage.getItem(key) || "null");
        } catch (err) {
          return null;
        }
      },
      save(seat) { localStorage.setItem(key, JSON.stringify(seat)); },
      forget() { localStorage.removeItem(key); },
    };
  }

  window.HernaPlayPage = {
    NOTHING_TO_RESUME, LEAVING, tabId, waiting, lastChoice, socketUrl, seekWords, fillDeadline,
    waitWords, clockWords, showNextOnce, seatStore,
  };
})();

/* The tile play page's setup form (static/play-tiles.js): the rules (a shipped example, or
 * the person's own rules.json read in the browser), how many players, the opponents and the
 * clock; Sit down sends the `join` with the hall lobby's seek. A seek from the lobby page
 * presets the choices. */
"use strict";

(function () {
  function create(ctx) {
    const {
      S, page, me, send, withToken, showProblems, form, rulesSelect, fileInput, playersSelect,
      levelSelect, fillInput, aboutNode, problemsBox, examples, levels,
    } = ctx;
    const wish = ctx.wish();
    const { el } = window.Herna;
    const _ = window.Herna._; // the page's language (static/hall.js)

    /* -- setup form ------------------------------------------------------------------------ */
    function source() { return form.querySelector('input[name="source"]:checked').value; }
    function fillPlayers(count) {
      const keep = Number(playersSelect.value) || count;
      playersSelect.replaceChildren(...Array.from({ length: Math.max(0, count - 1) }, (unused, i) => {
        const k = i + 2;
        return el("option", { value: k, selected: k === Math.min(keep, count) }, _("{n} (you and {others} more)", { n: k, others: k - 1 }));
      }));
      playersSelect.disabled = count < 2;
    }
    function describeChoice() {
      if (source() === "upload") {
        const data = S.upload;
        aboutNode.textContent = data && Array.isArray(data.players)
          ? _("Your file: players: {n}.", { n: data.players.length }) : "";
        fillPlayers(data && Array.isArray(data.players) ? data.players.length : 0);
        return;
      }
      const x = examples.get(rulesSelect.value);
      if (!x) return;
      const then = _(", then ");
      aboutNode.textContent = _("{about}. Each turn: {steps}.", { about: x.about, steps: x.turn.join(then) });
      fillPlayers(x.players);
    }
    rulesSelect.addEventListener("change", () => {
      form.querySelector('input[value="example"]').checked = true;
      playersSelect.value = "";
      describeChoice();
    });
    fileInput.addEventListener("change", async () => {
      form.querySelector('input[value="upload"]').checked = true;
      problemsBox.replaceChildren();
      S.upload = null;
      const file = fileInput.files && fileInput.files[0];
      if (file) {
        try {
          S.upload = JSON.parse(await file.text());
        } catch (err) {
          showProblems(_("the file is not JSON ({why})", { why: err.message }), []);
        }
      }
      playersSelect.value = "";
      describeChoice();
    });
    form.addEventListener("change", (ev) => { if (ev.target.name === "source") describeChoice(); });
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      problemsBox.replaceChildren();
      const wanted = Number(playersSelect.value);
      let rules;
      let full;
      if (source() === "upload") {
        if (!S.upload) {
          showProblems(_("choose a rules file first"), []);
          return;
        }
        rules = S.upload;
        full = Array.isArray(rules.players) ? rules.players.length : 0;
      } else {
        const x = examples.get(rulesSelect.value);
        rules = x.name;
        full = x.players;
      }
      if (wanted && wanted < full) {
        // Fewer players than the file seats: the same rules with the first players only
        // (sent as a rules object, checked by the server like any other).
        const data = typeof rules === "string" ? examples.get(rules).data : rules;
        rules = Object.assign({}, data, { players: data.players.slice(0, wanted) });
      }
      S.lastJoin = withToken({ type: "join", name: me, rules, kind: "human", seek: seekWords(),
        id: "sit" });
      send(S.lastJoin);
    });

    /* The hall lobby's seek for the table this person opens (docs/protocols/tiles.md, "The
     * lobby"): house bots of a level at once, anyone with a fill wait, or people only. */
    function seekWords() {
      const asked = ctx.wish();
      if (asked && /(^|,)challenge=/.test(asked)) return asked; // a challenge from the lobby page
      const who = form.querySelector('input[name="who"]:checked').value;
      const level = `level=${levelSelect.value}`; // the house bots that take free seats
      if (who === "bots") return `person,opponent=bots,${level}${clockWord()}`;
      if (who === "people") return `person,opponent=people,${level}${clockWord()}`;
      const fill = Math.max(0, Math.min(3600, Number(fillInput.value) || 0));
      return `person,opponent=anyone,fill=${fill},${level}${clockWord()}`;
    }

    /* The time control of the table this person opens: the server's turn clock, or a game
     * clock with an increment (seek word clock=MINUTES+SECONDS). */
    const clockChoice = el("select", { id: "tp-clock-choice", name: "clock" },
      el("option", { value: "" }, page.turn_timeout > 0 ? _("{n} s a turn", { n: page.turn_timeout })
        : _("No clock")),
      (page.clocks || []).map((c) => {
        const [m, inc] = c.split("+");
        return el("option", { value: c }, _("{m} min + {s} s a turn ({clock})", { m, s: inc || 0, clock: c }));
      }));
    form.querySelector("#tp-sit").before(
      el("fieldset", {}, el("legend", {}, _("Clock")), el("label", {}, _("Time:") + " ", clockChoice)));
    function clockWord() { return clockChoice.value ? `,clock=${clockChoice.value}` : ""; }


    /* A seek from the lobby page presets the choices; the person still picks the rules. */
    function preset(words) {
      const spec = Object.fromEntries(words.split(",").map((w) => w.split("=")));
      const who = { bots: "bots", people: "people", anyone: "anyone" }[spec.opponent] || "anyone";
      form.querySelector(`input[name="who"][value="${who}"]`).checked = true;
      if (spec.level && levels.includes(spec.level)) levelSelect.value = spec.level;
      if (spec.fill !== undefined) fillInput.value = String(Number(spec.fill) || 0);
    }
    if (wish && !/(^|,)(accept|challenge|tournament)=/.test(wish)) preset(wish);
    // The lobby page asked for the table's rules and players too: this page sits down with
    // them at once (lobbyTable; play-tiles.js sends it on the welcome).
    const asked = new URLSearchParams(location.search);
    const table = wish && !/(^|,)(accept|tournament)=/.test(wish) && examples.has(asked.get("rules"));
    if (table) {
      rulesSelect.value = asked.get("rules");
      describeChoice();
      const players = Number(asked.get("players"));
      if ([...playersSelect.options].some((o) => Number(o.value) === players)) playersSelect.value = String(players);
    }
    const challenged = wish && /(^|,)challenge=([^,]+)/.exec(wish);
    if (challenged && !table) S.note = _("You challenge {name}: pick the rules and sit down.", { name: challenged[2] });
    describeChoice();
    return { lobbyTable: Boolean(table) };
  }

  window.HernaTilesSetup = { create };
})();

// The phone page: table, seat and host tabs, all drawn from views the box sends (Server-Sent Events, with
// long-polling as the fallback). Any game's prompt is drawn here; a game adds its own panels in
// the script in its folder (games/<name>/static/<name>.js) by registering ARBITRO.games[name] = {table(view), seat(view, seat), choiceDetail}
// (and promptPanel(view, prompt, send) to draw its prompts its own way; expand(prompt) to show a prompt's groups
// open; promptNote(view, prompt) for a line under its title).
// No outside assets.
"use strict";
const ARBITRO = (() => {
  const T = JSON.parse(document.getElementById("texts").textContent);
  const TAB = document.body.dataset.tab;
  const main = document.getElementById("main");
  const errorLine = document.getElementById("error");
  const COLOURS = ["#c62828", "#1565c0", "#2e7d32", "#f9a825", "#6a1b9a", "#ef6c00",
                   "#00838f", "#ad1457", "#4e342e", "#37474f", "#9e9d24", "#283593"];
  const games = {};

  // The catalogs' messages (engine/words.py): by domain and context; a plural message is its list of forms, the
  // count's form looked up in the catalogs' plural table as the box does (engine/mofile.py's PluralTable: the
  // forms of the first counts, then a cycle; a count that is no whole number takes the form of 0, a negative one
  // that of its size); a label "key:7" with no message of its own is worded by "key:#".
  function pluralIndex(count) {
    const n = Number.isInteger(count) ? Math.abs(count) : 0;
    const {head, cycle} = T.plural;
    return n < head.length ? head[n] : cycle[(n - head.length) % cycle.length];
  }
  function message(domain, context, key, values) {
    const messages = (T[domain] || {})[context] || {};
    let found = messages[key];
    const numbered = found === undefined && /^(.*:)(\d+)$/.exec(key);
    if (numbered && messages[numbered[1] + "#"] !== undefined) {
      found = messages[numbered[1] + "#"];
      values = {n: Number(numbered[2]), ...values};
    }
    if (found === undefined) return undefined;
    if (Array.isArray(found)) found = found[pluralIndex(values.n)];
    // Python's format: {name}, {name!r} (a string quoted, as the rules write a value they refuse), {{ and }}.
    const repr = (v) => (typeof v === "string" ? `'${v}'` : Array.isArray(v) ? `[${v.map(repr).join(", ")}]` : String(v));
    return found.replace(/\{\{|\}\}|\{(\w+)(!r)?\}/g, (whole, name, quoted) =>
      (name === undefined ? whole[0] : quoted ? repr(values[name]) : values[name]));
  }
  // A message the rules put in a view (a move's reason not to go): its parameters may be messages too.
  function said(m) {
    const values = Object.fromEntries(Object.entries(m.params).map(([k, v]) => [k, v && v.key ? said(v) : v]));
    return message(m.domain, m.context, m.key, values) ?? message("arbitro", m.context, m.key, values) ?? m.key;
  }
  const t = (key, values = {}) => message("arbitro", "phone", key, values) ?? key;
  // A game's own words first (the phone's, then the box's: the choices' names), then the shared ones.
  const tg = (game, key, values = {}) =>
    message(game, "phone", key, values) ?? message(game, "box", key, values) ?? t(key, values);

  // A node of `tag` with its attributes, listeners and children (`made`: the same for a node made elsewhere, an SVG
  // one). A style goes through the CSSOM, which a strict Content-Security-Policy allows (a style attribute it
  // blocks).
  function el(tag, attrs = {}, ...children) {
    return made(document.createElement(tag), attrs, children);
  }
  function made(node, attrs, children) {
    for (const [name, value] of Object.entries(attrs)) {
      if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else if (name === "style") node.style.cssText = value;
      else if (value !== false && value !== null && value !== undefined) node.setAttribute(name, value);
    }
    node.append(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
    return node;
  }
  const seatName = (seat) => t("seat_n", {n: seat + 1});
  // A seat is always its number as well as its colour: never colour alone.
  // A game whose rules give each seat a colour (seatColours(view)) has its seats drawn in it.
  let seatColours = null;
  // Beside the seat's name it is decoration; where it stands alone (a pawn, a master) it is named: `named`.
  const meeple = (seat, named = false) => el("span", {class: "meeple",
    style: `--c:${(seatColours || COLOURS)[seat % (seatColours || COLOURS).length]}`,
    ...(named ? {role: "img", "aria-label": seatName(seat)} : {"aria-hidden": "true"})}, String(seat + 1));

  // A redraw keeps the reader's place: the control that had the focus is found again by its key (`data-key`, or
  // its id); if it is gone, the first control after it that is still there (its successor), else the control now
  // at its place in the page's order, else the prompt's heading or the page's main part. Never <body>: a reader
  // would start again from the top. The page is never read out again whole.
  const FOCUSABLE = "a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), summary, [tabindex]";
  const keyOf = (node) => node.dataset.key || (node.id && "#" + node.id) || null;
  const keyed = (key) => (key.startsWith("#") ? document.getElementById(key.slice(1))
                                              : main.querySelector(`[data-key="${CSS.escape(key)}"]`));
  const focusable = () => [...main.querySelectorAll(FOCUSABLE)].filter((node) => node.getClientRects().length);
  function keepingFocus(draw) {
    const active = document.activeElement;
    if (!active || active === main || !main.contains(active)) return Promise.resolve(draw());
    const order = focusable();
    const at = order.indexOf(active);
    const keys = order.slice(Math.max(at, 0)).map(keyOf).filter(Boolean);  // itself first, then its successors
    return Promise.resolve(draw()).then(() => {
      if (document.activeElement && document.activeElement !== document.body) return;  // still there, or moved on
      const now = focusable();
      const again = keys.map(keyed).find((node) => node && now.includes(node)) ||
        now[Math.min(Math.max(at, 0), now.length - 1)] || main.querySelector(".prompt h2") || main;
      again.focus();
    });
  }

  // What changed, said in sentences, once and politely, in one live line. It reads only this phone's own view and
  // what the page drew from it, so it never says what the seat may not see: this seat's new prompt, whose turn it
  // is, who has picked, a reveal, an undo, the end and who won, and the lines the update added to the page (a
  // move in the history, a draw's result): another seat's move, in the game's own words.
  const NEWS = "li,p,h3";
  const lines = () => new Set([...main.querySelectorAll(NEWS)].filter((node) => !node.closest(".prompt, button"))
    .map((node) => node.textContent.replace(/\s+/g, " ").trim()).filter(Boolean));
  let last = null;
  function announce(view, before, drawnBefore) {
    const said = [];
    const seats = (list) => new Set(list || []);
    const prompt = view.prompt ? tg(view.game, view.prompt.title) : null;
    const sameGame = before && before.game === view.game;
    const asked = (shown) => shown && shown.prompt && JSON.stringify([shown.prompt.title, shown.prompt.choices]);
    if (prompt && !(sameGame && asked(before) === asked(view))) {
      said.push(t("news_your_turn", {what: prompt}));
    }
    if (sameGame && before.version !== view.version && !view.undone) {
      const [lockedBefore, lockedNow] = [seats(before.locked), seats(view.locked)];
      for (const seat of lockedNow) if (!lockedBefore.has(seat)) said.push(t("news_picked", {n: seat + 1}));
      if ([...lockedBefore].some((seat) => !lockedNow.has(seat))) said.push(t("news_revealed"));
      const acting = [view.to_act].flat().filter((seat) => typeof seat === "number" && seat !== view.viewer);
      if (JSON.stringify(view.to_act) !== JSON.stringify(before.to_act) && acting.length) {
        said.push(t("news_turn_of", {who: acting.map(seatName).join(", ")}));
      }
      const added = [...lines()].filter((line) => !drawnBefore.has(line) && /\p{L}.*\p{L}/u.test(line)).slice(0, 2);
      said.push(...added.map((line) => (/[.!?]$/.test(line) ? line.slice(0, -1) : line)));
    }
    if (view.undone && !(before && before.version === view.version)) said.push(t("undone_seat", {n: view.undone.seat + 1}));
    if (view.over && sameGame && !before.over) {
      said.push(t("game_over"));
      if (view.result && !view.result.draw) said.push(`${t("winners")}: ${view.result.winners.map(seatName).join(", ")}`);
    }
    if (said.length) document.getElementById("announce").textContent = said.join(". ") + ".";
  }

  // The red bar under the page: why the last thing this phone asked for was refused, while the table is still as
  // it was (`refusedAt`, its version); the bottom of the page scrolls clear of it.
  let refusedAt = null;
  function showError(message) {
    errorLine.hidden = !message;
    errorLine.textContent = message || "";
    refusedAt = message ? (last ? last.version : null) : null;
    document.documentElement.style.setProperty("--below", message ? errorLine.offsetHeight + "px" : "0px");
  }

  // A refusal the box names by a code (a full disk, too many wrong codes) is said in the page's language.
  async function post(url, body = {}) {
    const response = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
                                       body: JSON.stringify(body)});
    const answer = await response.json().catch(() => ({error: response.statusText}));
    if (!response.ok) {
      throw Object.assign(new Error((answer.code && message("arbitro", "phone", answer.code, answer)) ||
                                    answer.error || response.statusText), {answer});
    }
    showError("");
    return answer;
  }
  const attempt = (promise) => promise.catch((e) => showError(e.message));

  // The box's own health, apart from the game: a display that does not answer is said on every phone.
  function showHealth(health) {
    const notice = document.getElementById("box-notice");
    const said = [health.display === "failing" ? t("display_failing") : null,
                  health.storage && health.storage !== "ok" ? t("storage_" + health.storage) : null].filter(Boolean);
    notice.hidden = !said.length;
    notice.textContent = said.join(" ");
  }

  // -- live views ---------------------------------------------------------------------------------------
  // Draws the last view again: a game's panel calls it when a tap changes only what is selected on the page.
  let redrawLast = () => {};

  function connect(view, onView) {
    const query = view === "seat" ? "view=seat" : "";
    let version = null;
    let failures = 0;
    const accept = (shown) => {
      version = shown.version;
      seatColours = (games[shown.game] && games[shown.game].seatColours && games[shown.game].seatColours(shown)) || null;
      redrawLast = () => keepingFocus(() => onView(shown));
      // A refusal is about the table as it stood: once the table moved on, it is said no more.
      if (refusedAt !== null && shown.version !== refusedAt) showError("");
      const before = last;
      const drawnBefore = lines();
      last = shown;
      // Once drawn (a host page waits for its seats' prompts), the page says which version it shows: a test, or
      // anyone looking into a phone that seems behind, compares it with the box's.
      keepingFocus(() => onView(shown)).then(() => {
        if (last !== shown) return;
        main.dataset.version = shown.version;
        announce(shown, before, drawnBefore);
      });
    };
    const live = (on) => {
      const badge = document.getElementById("live");
      badge.textContent = on ? "● " + t("live") : t("offline");
      badge.classList.toggle("off", !on);
    };
    async function poll() {  // the fallback: GET /api/table?since=VERSION waits for the next change
      for (;;) {
        try {
          const since = version === null ? "" : "since=" + version;
          const response = await fetch("/api/table?" + [query, since].filter(Boolean).join("&"), {cache: "no-store"});
          const shown = await response.json();
          // The box answers at once when it has no place for one more waiting phone: then ask again later.
          if (shown.version === version) await new Promise((resolve) => setTimeout(resolve, 2000));
          accept(shown);
          showHealth(await (await fetch("/api/box", {cache: "no-store"})).json());
          live(true);
        } catch (e) {
          live(false);
          await new Promise((resolve) => setTimeout(resolve, 2000));
        }
      }
    }
    if (!window.EventSource) return poll();
    const source = new EventSource("/api/stream" + (query ? "?" + query : ""));
    source.addEventListener("view", (event) => { failures = 0; live(true); accept(JSON.parse(event.data)); });
    source.addEventListener("box", (event) => showHealth(JSON.parse(event.data)));
    // Why this seat's pad press was refused: told to this phone alone (the OLED shows nothing of a secret one).
    source.addEventListener("refused", (event) => showError(JSON.parse(event.data).error));
    source.addEventListener("error", () => {
      live(false);
      // The browser keeps retrying; after three misses, or when the box refused the stream (all its places to
      // wait are taken: the browser gives up), poll instead.
      if (++failures >= 3 || source.readyState === EventSource.CLOSED) {
        source.close();
        poll();
      }
    });
  }

  // -- what every game shares -----------------------------------------------------------------------------
  function gameHeader(view) {
    return [el("h1", {}, T.titles[view.game] || view.game),
            el("p", {}, el("a", {class: "go", href: `/rules/${view.game}`, "data-key": "rules"}, t("rules_link"))),
            chanceLine(view),
            // every undo, from anywhere, is said on every phone (and on the OLED)
            view.undone ? el("p", {class: "panel notice", role: "status"}, t("undone_seat", {n: view.undone.seat + 1}))
                        : null];
  }

  // The draws' commitment from the start, in plain words: they were fixed before the first move and can be checked
  // once the game is over (docs/chance.md, the page /chance); its fingerprint (the first 12 hex digits in fours,
  // as the OLED shows it) and, at the end, the seed for whoever checks. Test dice say they cannot be checked.
  function chanceLine(view) {
    const chance = view.chance;
    if (!chance || !T.draws.includes(view.game)) return null;  // a game the box draws nothing for has no seal
    if (!chance.commitment) return el("p", {class: "chance"}, el("small", {}, t("chance_unverifiable")));
    return el("p", {class: "chance"}, t(view.over ? "chance_check_now" : "chance_fixed"), " ",
      el("a", {class: "go", href: "/chance", "data-key": "chance"}, t("chance_howto")), el("br"),
      el("small", {}, t("chance_commitment", {fingerprint: chance.commitment.slice(0, 12).match(/.{4}/g).join(" ")})),
      chance.seed ? [el("br"), el("small", {class: "seed"}, t("chance_seed", {seed: chance.seed}))] : null);
  }

  const names = (seats) => seats.map((s) => [meeple(s), seatName(s) + " "]);
  const winnersLine = (result) => (result.draw ? el("p", {}, t("draw")) :
    el("p", {class: "winners"}, `${t("winners")}: `, names(result.winners)));

  function resultPanel(view) {
    const result = view.result;
    if (!result) return null;
    return el("section", {class: "panel result"}, el("h2", {}, t("result")), winnersLine(result),
      !result.draw && result.losers.length ? el("p", {class: "losers"}, `${t("losers")}: `, names(result.losers)) : null,
      standingsList(view.game, result));
  }

  // A game that ranks everyone (a race's classification): each place, whose, and how far behind the first.
  function standingsList(game, result) {
    if (!result.standings) return null;
    return [el("h3", {}, t("standings")), el("ol", {class: "plain standings"}, result.standings.map((s) =>
      el("li", {}, s.place === null ? "" : t("standing_place", {place: s.place}) + " ", meeple(s.seat),
         `${seatName(s.seat)}, ${tg(game, s.what)}`, " ",
         el("small", {}, s.place === null ? t("out_of_race") : s.behind ? t("behind_turns", {n: s.behind}) : ""))))];
  }

  function pickingPanel(view) {
    if (!view.picking || !view.picking.length) return null;
    const locked = new Set(view.locked);
    return el("ul", {class: "seats"}, view.picking.map((seat) => el("li", {}, meeple(seat), el("b", {}, seatName(seat)),
      el("span", {class: locked.has(seat) ? "tag done" : "tag"},
         locked.has(seat) ? "✓ " + t("locked") : "… " + t("picking")))));
  }

  const openGroups = new Map();  // prompt's choices → the group open in it, kept across redraws

  // A prompt (what a seat may do now): one button per choice, in two steps where choices come in groups.
  // `send(action)` posts the chosen action. Labels that are the game's words (a colour, a kind) are shown in
  // the page's language; others (card names) as they are.
  function promptPanel(view, prompt, send) {
    const game = games[view.game] || {};
    const label = (key) => tg(view.game, key);
    const current = JSON.stringify(prompt.current);
    // A choice costly to slip on (`confirm`) asks first: the first tap arms it, the second sends it.
    const button = (choice) => el("button", {
      "data-key": "choice:" + JSON.stringify(choice.action),
      class: "choice" + (JSON.stringify(choice.action) === current ? " chosen" : ""),
      "aria-pressed": JSON.stringify(choice.action) === current ? "true" : "false",
      onclick: (event) => {
        const pressed = event.currentTarget;
        if (choice.confirm && pressed.dataset.armed !== "yes") {
          pressed.dataset.armed = "yes";
          pressed.append(el("small", {class: "confirm"}, t("tap_again")));
          return;
        }
        attempt(send(choice.action));
      }},
      el("span", {}, label(choice.label)), game.choiceDetail ? game.choiceDetail(choice, view) : null);
    const choices = el("div", {class: "choices"});
    // The first step shows the choices without a group and a button per group, in the order they come.
    const groupButton = (g) => el("button", {class: "choice group", "data-key": "group:" + g, onclick: () => showGroup(g)},
                                  label(g));
    const top = () => prompt.choices.filter((c, i) => !c.group ||
      prompt.choices.findIndex((d) => d.group === c.group) === i).map((c) => (c.group ? groupButton(c.group) : button(c)));
    const key = JSON.stringify(prompt.choices);
    const showGroup = (group) => {
      if (openGroups.size > 20) openGroups.clear();  // only the prompts on screen matter
      openGroups.set(key, group);
      const focused = choices.contains(document.activeElement);  // a key went into a group: it stays in the list
      choices.replaceChildren(...(group === null ? top() :
        [prompt.choices.filter((c) => c.group === group).map(button),
         el("button", {class: "choice back", "data-key": "back", "aria-label": t("back"), onclick: () => showGroup(null)},
            "←")]).flat());
      if (focused) choices.querySelector("button").focus();
    };
    // A redraw for someone else's move keeps the group this seat has open, while its choices stay the same.
    showGroup(openGroups.get(key) ?? null);
    // A game may show every group open at once (a move's fields: one tap each), with a note on the prompt.
    if (game.expand && game.expand(prompt)) {
      const groups = [...new Set(prompt.choices.map((c) => c.group).filter(Boolean))];
      choices.replaceChildren(...prompt.choices.filter((c) => !c.group).map(button), ...groups.map((g) =>
        el("div", {class: "field"}, el("span", {class: "field-name"}, label(g)),
           prompt.choices.filter((c) => c.group === g).map(button))));
    }
    return el("section", {class: "panel prompt"}, el("h2", {tabindex: "-1", "data-key": "prompt"}, tg(view.game, prompt.title)),
      game.promptNote ? game.promptNote(view, prompt) : null,
      prompt.secret ? el("p", {class: "note"}, t("secret_note")) : null,
      prompt.current ? el("p", {class: "pick"}, `${t("your_pick")}: `,
        label((prompt.choices.find((c) => JSON.stringify(c.action) === current) || {label: ""}).label)) : null,
      choices);
  }

  // A game may draw its prompt its own way (a map to tap); `send` and the refusal line are the same.
  const panelFor = (view) => (games[view.game] || {}).promptPanel || promptPanel;

  // -- tabs -----------------------------------------------------------------------------------------------
  function tableTab() {
    connect("public", (view) => {
      titled(view.game ? [t("table"), T.titles[view.game] || view.game] : [t("table")]);
      if (!view.game) return main.replaceChildren(el("p", {class: "panel"}, t("no_game")));
      const game = games[view.game] || {};
      main.replaceChildren(...[gameHeader(view), resultPanel(view),
                               game.table ? game.table(view) : pickingPanel(view)].flat(Infinity).filter(Boolean));
    });
  }

  // Pairing: someone at the table asks the box for a code (the host panel's menu shows it on the OLED, or the
  // host's phone shows it); typing it here makes this phone that seat's, or the host's. The code says which.
  function pairForm(help) {
    const input = el("input", {id: "pair-code", type: "text", inputmode: "numeric", autocomplete: "one-time-code",
                               maxlength: "7", "aria-describedby": "pair-help"});
    return el("form", {class: "panel pair", onsubmit: async (event) => {
      event.preventDefault();
      try {
        await post("/api/pair", {code: input.value});
        location.reload();
      } catch (e) { showError(e.message); }
    }}, el("label", {for: "pair-code"}, t("pair_label")), input, el("p", {id: "pair-help", class: "note"}, help),
      el("button", {class: "big", type: "submit"}, t("pair_button")));
  }

  // A pairing code's link as its QR code (the box makes the modules, as for its OLED), for the other phone's
  // camera: dark modules on white, 4 modules of quiet zone.
  function qrCanvas(rows) {
    const scale = 6;
    const size = (rows.length + 8) * scale;
    const canvas = el("canvas", {class: "qr", width: size, height: size, role: "img", "aria-label": t("pair_qr")});
    const draw = canvas.getContext("2d");
    draw.fillStyle = "#fff";
    draw.fillRect(0, 0, size, size);
    draw.fillStyle = "#000";
    rows.forEach((row, y) => [...row].forEach((dark, x) => {
      if (dark === "1") draw.fillRect((x + 4) * scale, (y + 4) * scale, scale, scale);
    }));
    return canvas;
  }

  // The host's own codes, for a seat with no pad (or to hand the host role on): shown here, not on the OLED.
  function codesPanel(seats) {
    const shown = el("p", {class: "code", "aria-live": "polite"});
    const link = el("div", {});
    const whom = el("select", {id: "pair-for"}, el("option", {value: "host"}, t("pair_for_host")),
      Array.from({length: seats}, (_, s) => el("option", {value: String(s)}, t("pair_for_seat", {n: s + 1}))));
    const ask = el("button", {class: "big", type: "button", onclick: async () => {
      try {
        const body = whom.value === "host" ? {host: true} : {seat: Number(whom.value)};
        const answer = await post("/api/host/pair", body);
        shown.textContent = t("pair_code_shown", {code: `${answer.code.slice(0, 3)} ${answer.code.slice(3)}`,
                                                   n: Math.round(answer.seconds / 60)});
        link.replaceChildren(el("p", {class: "note"}, t("pair_link_note")), answer.qr ? qrCanvas(answer.qr) : "",
                             el("p", {class: "note"}, el("small", {}, answer.link)));
      } catch (e) { showError(e.message); }
    }}, t("pair_ask"));
    return el("section", {class: "panel"}, el("h2", {}, t("phones")), el("p", {class: "note"}, t("pair_host_note")),
              el("label", {for: "pair-for"}, t("pair_for")), whom, ask, shown, link);
  }

  // What this phone held before another phone took it over: said once, where it happened.
  async function lostNotice() {
    const me = await (await fetch("/api/me", {cache: "no-store"})).json();
    if (!me.lost) return null;
    return el("p", {class: "panel lost"}, me.lost.host ? t("lost_host") : t("lost_seat", {n: me.lost.seat + 1}));
  }

  // The seat this phone held, kept on the phone: a new game of another seat count voids every seat's phone (the
  // box forgets the pairing without a word), and the pairing form then says why.
  const HELD = "arbitro.seat";
  const remember = (held) => { try { localStorage.setItem(HELD, JSON.stringify(held)); } catch (e) { /* private mode */ } };
  function seatsChanged(view) {
    let held = null;
    try { held = JSON.parse(localStorage.getItem(HELD)); } catch (e) { return null; }
    if (!held || held.seats === view.seats) return null;
    return el("p", {class: "panel lost", role: "status"},
              t("lost_seats", {n: held.seat + 1, was: held.seats, now: view.seats}));
  }

  function seatStatus(view, seat) {
    if (view.over) {
      return el("section", {class: "panel over"}, el("p", {}, t("game_over")),
                el("a", {class: "big button", href: "/"}, t("see_table")));
    }
    return view.prompt ? panelFor(view)(view, view.prompt, (action) => post(`/api/seats/${seat}/act`, {action}))
                       : el("p", {class: "panel wait"}, t("not_your_turn"));
  }

  function seatTab() {
    let hadSeat = false;
    let chooser = 0;  // the seat chooser drawn last: a newer view's chooser replaces an older one
    connect("seat", async (view) => {
      if (!view.game) {
        titled([t("seat")]);
        return main.replaceChildren(el("p", {class: "panel"}, t("no_game")));
      }
      if (typeof view.viewer === "number") {
        hadSeat = true;
        const seat = view.viewer;
        const game = games[view.game] || {};
        remember({seat, seats: view.seats});
        titled([seatName(seat), T.titles[view.game] || view.game]);
        return main.replaceChildren(...[gameHeader(view),
          el("p", {class: "status"}, meeple(seat), t("you_are", {n: seat + 1})),
          resultPanel(view), seatStatus(view, seat), game.seat ? game.seat(view, seat) : null]
          .flat(Infinity).filter(Boolean));
      }
      const drawing = ++chooser;
      const [listed, lost] = await Promise.all([
        fetch("/api/seats", {cache: "no-store"}).then((r) => r.json()), lostNotice()]);
      if (drawing !== chooser) return;
      if (hadSeat && !lost) hadSeat = false;
      titled([t("pair_phone")]);
      main.replaceChildren(lost || seatsChanged(view) || "", el("h1", {}, t("pair_phone")), pairForm(t("pair_help_seat")),
        el("ul", {class: "plain seats"}, listed.seats.map((seat) => el("li", {}, meeple(seat.seat), seatName(seat.seat),
          " ", el("small", {class: "held"}, seat.phone ? t("seat_has_phone") : seat.pad ? "" : t("seat_no_pad"))))));
    });
  }

  // A button that asks first: the first tap arms it (in a strong colour, saying to tap again: never grey, which
  // reads as disabled), the second does it.
  function twoStep(label, question, act) {
    const button = el("button", {class: "big", type: "button"}, label);
    button.addEventListener("click", async () => {
      if (button.dataset.armed !== "yes") {
        button.dataset.armed = "yes";
        button.replaceChildren(el("span", {}, question, el("small", {class: "confirm"}, t("tap_again"))));
        return;
      }
      button.dataset.armed = "";
      button.textContent = label;
      await attempt(act());
    });
    return button;
  }

  function optionField(game, option, seats) {
    const label = tg(game, option.name);
    if (option.kind === "list") return listField(game, option, seats, label);
    if (option.kind === "integer" && option.values.length > MENU) return numberField(game, option, label);
    const shown = (value) => (option.kind === "seat" ? seatName(value) :
      option.kind === "choice" ? tg(game, `${option.name}_${value}`) : String(value));
    return el("label", {}, label, el("select", {"data-option": option.name, "data-kind": option.kind},
      option.values.map((value) => el("option", {value: JSON.stringify(value),
                                                 selected: value === option.default ? "" : null}, shown(value)))));
  }

  // A whole number in a range too long for a menu (Leader 1's energy: 500 values) is typed: a number field with its
  // range, and a clear error beside it, before anything is sent.
  const MENU = 20;
  function numberField(game, option, label) {
    const [low, high] = [option.values[0], option.values[option.values.length - 1]];
    const id = `option-${option.name}`;
    const range = t("number_range", {low, high});
    const input = el("input", {id, type: "number", min: low, max: high, step: 1, inputmode: "numeric",
                               value: option.default, "aria-describedby": `${id}-range ${id}-error`});
    const error = el("p", {class: "field-error", id: `${id}-error`, hidden: ""});
    const field = el("div", {class: "number-option", "data-option": option.name}, el("label", {for: id}, label),
      input, el("p", {class: "note", id: `${id}-range`}, range), error);
    field.readValue = () => {
      const value = Number(input.value);
      if (input.value.trim() === "" || !Number.isInteger(value) || value < low || value > high) {
        Object.assign(error, {hidden: false, textContent: t("number_wrong", {low, high})});
        input.setAttribute("aria-invalid", "true");
        input.focus();
        throw Object.assign(new Error(t("number_wrong_named", {what: label, low, high})), {answer: {}});
      }
      input.removeAttribute("aria-invalid");
      return value;
    };
    return field;
  }

  // A list option as rows of widgets (its shape says which): a select, a seat, a number, ticks, or how many of
  // each value. `readValue()` gives the list the rules take; the rules check it and name what is wrong.
  function listField(game, option, seats, label) {
    const {cells, count, flat} = option.shape;
    const word = (value) => tg(game, String(value));
    const rowLabel = (n) => message(game, "phone", `${option.name}_row`, {n}) ?? `${n}.`;
    const cell = (spec, value) => {
      const named = (v) => (spec.kind === "seat" ? seatName(v) : word(v));
      if (spec.kind === "choice" || spec.kind === "seat") {
        const values = spec.kind === "seat" ? Array.from({length: seats}, (_, i) => i) : spec.values;
        const select = el("select", {}, values.map((v, i) => el("option", {value: i, selected: v === value ? "" : null},
                                                                 named(v))));
        return [select, () => values[Number(select.value)]];
      }
      if (spec.kind === "number") {  // a place people count from 1 (an island) is shown from 1, sent from 0
        const shift = spec.from_one ? 1 : 0;
        const input = el("input", {type: "number", min: spec.low + shift, max: spec.high + shift,
                                   value: (value ?? spec.low) + shift, inputmode: "numeric"});
        return [input, () => Number(input.value) - shift];
      }
      if (spec.kind === "subset") {
        const boxes = spec.values.map((v) => el("input", {type: "checkbox", checked: (value || []).includes(v) ? "" : null}));
        return [el("span", {class: "ticks"}, spec.values.map((v, i) => el("label", {}, boxes[i], named(v)))),
                () => spec.values.filter((_, i) => boxes[i].checked)];
      }
      const inputs = spec.values.map((v) => el("input", {type: "number", min: 0, max: 30, inputmode: "numeric",
                                                         value: (value || []).filter((x) => x === v).length}));
      return [el("span", {class: "ticks"}, spec.values.map((v, i) => el("label", {}, `${v}×`, inputs[i]))),
              () => spec.values.flatMap((v, i) => Array(Number(inputs[i].value)).fill(v))];
    };
    const body = el("tbody", {});
    const readers = [];
    const addRow = (value) => {
      const made = cells.map((spec, i) => cell(spec, flat ? value : (value || [])[i]));
      const reader = () => (flat ? made[0][1]() : made.map(([, read]) => read()));
      const row = el("tr", {}, el("th", {}, rowLabel(body.children.length + 1)), made.map(([node]) => el("td", {}, node)),
        count === null ? el("td", {}, el("button", {type: "button", "aria-label": t("remove_row"), onclick: () => {
          readers.splice(readers.indexOf(reader), 1);
          row.remove();
        }}, "−")) : null);
      readers.push(reader);
      body.append(row);
    };
    const initial = option.default;
    const rows = count === null ? initial.length : count;
    for (let i = 0; i < rows; i++) addRow(initial[i]);
    const field = el("fieldset", {class: "list-option", "data-option": option.name}, el("legend", {}, label),
      el("table", {}, body),
      count === null ? el("button", {type: "button", onclick: () => addRow(null)}, t("add_row")) : null,
      el("p", {class: "field-error", hidden: ""}));
    field.readValue = () => readers.map((read) => read());
    return field;
  }

  function newGameForm(games, running) {
    const form = el("form", {class: "panel"});
    const gameSelect = el("select", {id: "game", name: "game"}, games.map((g) => el("option", {value: g.name}, g.title)));
    const seatsSelect = el("select", {id: "seats", name: "seats"});
    const optionsBox = el("div", {});
    const chosen = () => games.find((g) => g.name === gameSelect.value);
    const fillOptions = () => optionsBox.replaceChildren(...chosen().options[seatsSelect.value].map(
      (option) => optionField(chosen().name, option, Number(seatsSelect.value))));
    const fillSeats = () => {
      const game = chosen();
      seatsSelect.replaceChildren(...Array.from({length: game.seats[1] - game.seats[0] + 1}, (_, i) => {
        const n = game.seats[0] + i;
        return el("option", {value: n}, n > game.wired_seats ? t("players_phones", {n, w: game.wired_seats + 1})
                                                             : t("seats_of", {n}));
      }));
      fillOptions();
    };
    gameSelect.addEventListener("change", fillSeats);
    seatsSelect.addEventListener("change", fillOptions);
    fillSeats();
    const start = () => {
      const options = {};
      form.querySelectorAll(".field-error").forEach((p) => { p.hidden = true; });
      try {
        for (const field of form.querySelectorAll("[data-option]")) {
          options[field.dataset.option] = field.readValue ? field.readValue() : JSON.parse(field.value);
        }
      } catch (e) {
        return Promise.reject(e);
      }
      // A refused option is said beside its field too.
      return post("/api/host/game", {game: gameSelect.value, seats: Number(seatsSelect.value), options})
        .then(() => showError(""), (e) => {
          const beside = e.answer && e.answer.option && form.querySelector(`[data-option="${e.answer.option}"] .field-error`);
          if (beside) Object.assign(beside, {hidden: false, textContent: e.message});
          throw e;
        });
    };
    const startButton = running() ? twoStep(t("start"), t("confirm_start"), start)
                                  : el("button", {type: "button", class: "big primary", onclick: () => attempt(start())},
                                       t("start"));
    startButton.id = "start";
    form.id = "new-game";
    form.append(el("h2", {}, t("new_game")), el("label", {}, t("game"), gameSelect),
                el("label", {}, t("players"), seatsSelect), optionsBox, startButton);
    return form;
  }

  // Every game the box refereed, newest first, each with its result and its log to download and replay.
  async function showHistory(section) {
    const {games} = await (await fetch("/api/host/games", {cache: "no-store"})).json();
    const when = (iso) => (iso ? new Date(iso).toLocaleString(document.documentElement.lang,
                                                              {dateStyle: "short", timeStyle: "short"}) : "—");
    const status = (g) => t(g.playing && !g.over ? "history_playing" : g.over ? "history_over" : "history_ended");
    section.replaceChildren(el("h2", {}, t("history")), games.length ? el("ul", {class: "plain"}, games.map((g) =>
      el("li", {"data-game": g.id}, el("b", {}, T.titles[g.game] || g.game), " ",
         el("small", {}, t("history_entry", {when: when(g.started), seats: g.seats, status: status(g)})),
         g.result ? [winnersLine(g.result), standingsList(g.game, g.result)] : null,
         el("a", {class: "go", href: `/api/host/games/${g.id}/log`, download: "", "data-key": `log:${g.id}`},
            t("history_log"))))) : el("p", {}, t("history_none")));
  }

  async function hostTab() {
    const status = await (await fetch("/api/host", {cache: "no-store"})).json();
    if (!status.host) {
      titled([t("become_host")]);
      return main.replaceChildren(await lostNotice() || "", el("h1", {}, t("become_host")),
                                  pairForm(t("pair_help_host")));
    }
    const listed = await (await fetch("/api/games")).json();
    let current = null;
    const formBox = el("div", {});
    const language = el("select", {id: "box-language", onchange: (e) =>
      attempt(post("/api/host/language", {language: e.target.value}))},
      ["it", "en"].map((l) => el("option", {value: l, selected: l === status.language ? "" : null}, l.toUpperCase())));
    // Undo and end only while a game is in play (the box refuses them after its end): then what to do next.
    const inPlay = el("div", {}, twoStep(t("undo"), t("confirm_undo"), () => post("/api/host/undo")),
      twoStep(t("end"), t("confirm_end"), () => post("/api/host/end")));
    const next = el("div", {class: "next", hidden: ""}, el("p", {}, t("host_over_next")),
      el("a", {class: "big button primary", href: "#new-game", "data-key": "to-new-game", onclick: (event) => {
        event.preventDefault();
        document.getElementById("game").focus();
      }}, t("new_game")));
    const log = el("a", {class: "big button", href: "/api/host/log", download: ""}, t("download"));
    const controls = el("section", {class: "panel"}, el("p", {}, t("host_ok")), inPlay, next, log,
      el("label", {}, t("box_language"), language));
    const summary = el("div", {});
    const unattended = el("div", {});
    const phones = el("div", {});
    const history = el("section", {class: "panel history"});
    const keeping = el("section", {class: "panel"}, el("h2", {}, t("backup")), el("p", {}, t("backup_note")),
      el("a", {class: "big button", href: "/api/host/backup", download: ""}, t("backup_download")));
    main.replaceChildren(summary, unattended, controls, phones, formBox, history, keeping);
    let running = null;
    let seatCount = null;
    connect("public", async (view) => {
      current = view;
      titled(view.game ? [t("host"), T.titles[view.game]] : [t("host")]);
      summary.replaceChildren(...(view.game ? [el("h1", {}, T.titles[view.game]), resultPanel(view),
                                               pickingPanel(view)].filter(Boolean) :
        [el("p", {class: "panel"}, t("no_game"))]));
      const playing = Boolean(view.game && !view.over);
      inPlay.hidden = !playing;
      next.hidden = !(view.game && view.over);
      log.hidden = !view.game;
      if (playing !== running) {  // a start over a running game asks first
        running = playing;
        formBox.replaceChildren(newGameForm(listed, () => current && current.game && !current.over));
      }
      await keepingFocus(() => showHistory(history));  // at once, not after the rest of this redraw
      const seatsNow = view.game ? view.seats : 0;
      if (seatsNow !== seatCount) {
        seatCount = seatsNow;
        phones.replaceChildren(codesPanel(seatsNow));
      }
      const seats = view.game ? (await (await fetch("/api/host/seats", {cache: "no-store"})).json()).seats : [];
      unattended.replaceChildren(...seats.filter((seat) => seat.prompt).map((seat) =>
        el("section", {class: "panel"}, el("h2", {}, meeple(seat.viewer), t("for_seat", {n: seat.viewer + 1})),
           panelFor(seat)(seat, seat.prompt, (action) => post(`/api/host/seats/${seat.viewer}/act`, {action})))));
    });
  }

  // The page's title says what it is (whose seat, which game, the host's page), as a tab or a reader names it.
  function titled(parts) {
    document.title = [...parts, "Arbitro"].join(" — ");
  }

  // The sticky header and the refusal bar never cover the focused control: the page scrolls clear of them.
  function clearOfHeader() {
    const header = document.querySelector("header");
    const measure = () => document.documentElement.style.setProperty("--above", header.offsetHeight + "px");
    measure();
    if (window.ResizeObserver) new ResizeObserver(measure).observe(header);
  }

  function start() {
    clearOfHeader();
    ({table: tableTab, seat: seatTab, host: hostTab})[TAB]();
  }

  return {games, el, made, t, tg, said, meeple, seatName, attempt, start, words: (game) => T.data[game] || {},
          redraw: () => redrawLast(),
          colour: (seat) => COLOURS[seat % COLOURS.length]};
})();
// Once every script of the page has run (the games' register themselves): no inline script starts it (a strict
// Content-Security-Policy forbids one).
document.addEventListener("DOMContentLoaded", ARBITRO.start);

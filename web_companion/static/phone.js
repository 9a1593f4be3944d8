// The phone page: table, seat and host tabs, all drawn from views the box sends (Server-Sent Events, with
// long-polling as the fallback). Games draw their own panels through GAMES[name]. No outside assets.
"use strict";
const T = JSON.parse(document.getElementById("texts").textContent);
const TAB = document.body.dataset.tab;
const main = document.getElementById("main");
const errorLine = document.getElementById("error");
const COLOURS = ["#c62828", "#1565c0", "#2e7d32", "#f9a825", "#6a1b9a", "#ef6c00"];

function t(key, values = {}) {
  return (T[key] || key).replace(/\{(\w+)\}/g, (_, name) => values[name]);
}
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(name, value);
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}
const cardName = (id) => T.card_names[id] || id;
const seatName = (seat) => t("seat_n", {n: seat + 1});
const meeple = (seat) => el("span", {class: "meeple", style: `--c:${COLOURS[seat % 6]}`, "aria-hidden": "true"},
                            String(seat + 1));

function showError(message) {
  errorLine.hidden = !message;
  errorLine.textContent = message || "";
}

async function post(url, body = {}) {
  const response = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
                                     body: JSON.stringify(body)});
  const answer = await response.json().catch(() => ({error: response.statusText}));
  if (!response.ok) throw new Error(answer.error || response.statusText);
  showError("");
  return answer;
}

// -- live views -----------------------------------------------------------------------------------------
function connect(view, onView) {
  const query = view === "seat" ? "view=seat" : "";
  let version = null;
  let failures = 0;
  const accept = (shown) => { version = shown.version; onView(shown); };
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
        accept(await response.json());
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
  source.addEventListener("error", () => {
    live(false);
    if (++failures >= 3) {  // the browser keeps retrying; after three misses, poll instead
      source.close();
      poll();
    }
  });
}

// -- Il ponte traballante -----------------------------------------------------------------------------
function ponteBridge(view) {
  const cells = [];
  for (let space = 1; space <= 21; space++) {
    const here = view.positions.map((p, s) => (p === space ? s : null)).filter((s) => s !== null);
    cells.push(el("li", {class: "space" + (space === 11 ? " middle" : ""),
                         "aria-label": `${t("space", {n: space})}: ${here.map(seatName).join(", ")}`},
                  el("span", {class: "stack"}, here.map(meeple)),
                  el("span", {class: "number"}, space % 5 === 1 || space === 21 ? String(space) : "")));
  }
  return el("section", {class: "panel"}, el("h2", {}, t("bridge")),
            el("div", {class: "banks"}, el("span", {}, "← " + t("west")), el("span", {}, t("east") + " →")),
            el("ol", {class: "bridge"}, cells));
}

function ponteSeats(view) {
  const picking = new Set(view.picking);
  const locked = new Set(view.locked);
  return el("section", {class: "panel"}, el("ul", {class: "seats"}, view.positions.map((space, seat) =>
    el("li", {}, meeple(seat), el("b", {}, seatName(seat)),
       el("span", {}, `${t("space", {n: space})} · ${t("cards", {n: view.hand_sizes[seat]})}`),
       picking.has(seat) ? el("span", {class: locked.has(seat) ? "tag done" : "tag"},
                              locked.has(seat) ? "✓ " + t("locked") : "… " + t("picking")) : null))));
}

function ponteMatch(match) {
  if (!match.reveal) return null;
  const parts = [el("h3", {}, t("reveal")), el("ul", {class: "plain"}, match.reveal.map((card, seat) => {
    const swap = match.replacements && match.replacements[seat];
    return el("li", {}, meeple(seat), `${seatName(seat)}: ${cardName(card)}`,
              swap ? ` → ${t("replacement")} ${cardName(swap)}` : "");
  }))];
  for (const step of match.moves) {
    const moved = step.delta.map((d, seat) => [seat, d]).filter(([, d]) => d);
    parts.push(el("h3", {}, `${t("moves")}: ${t("step_" + step.step)}`),
               el("ul", {class: "plain"}, moved.length ? moved.map(([seat, d]) => el("li", {}, meeple(seat),
                 `${seatName(seat)}: ${d < 0 ? t("move_west", {n: -d}) : t("move_east", {n: d})}`))
                 : el("li", {}, t("no_moves"))));
  }
  if (match.event) parts.push(el("h3", {}, t("event")), el("p", {class: "event"}, cardName(match.event)));
  return parts;
}

function ponteResult(view) {
  const result = view.result;
  if (!result) return null;
  return el("section", {class: "panel result"}, el("h2", {}, t("result")), result.draw ? el("p", {}, t("draw")) : [
    el("p", {}, `${t("winners")}: `, result.winners.map((s) => [meeple(s), seatName(s) + " "])),
    el("p", {}, `${t("losers")}: `, result.losers.map((s) => [meeple(s), seatName(s) + " "]))]);
}

function ponteTable(view) {
  const history = view.history.filter((m) => m.reveal).slice().reverse();
  return [
    ponteResult(view),
    el("p", {class: "status"}, t("match", {n: view.match}), " · ", t("phase_" + view.phase)),
    ponteBridge(view),
    ponteSeats(view),
    history.length ? el("section", {class: "panel"}, el("h2", {}, t("match", {n: history[0].match})),
                        ponteMatch(history[0])) : null,
    el("section", {class: "panel"}, el("h2", {}, t("event")),
       el("p", {}, t("events_left", {n: view.events_left})),
       el("p", {}, `${t("discard")}: ${view.event_discard.map(cardName).join(", ") || "—"}`)),
    history.length > 1 ? el("section", {class: "panel"}, el("h2", {}, t("history")),
      history.slice(1).map((m) => el("details", {}, el("summary", {}, t("match", {n: m.match})), ponteMatch(m))))
      : null,
  ];
}

function ponteSeat(view, seat) {
  const canPick = new Set(view.picking.includes(seat) ? view.can_pick : []);
  const numbers = (card) => T.card_numbers[card] ?
    el("small", {}, `${t("green", {n: T.card_numbers[card][0]})} · ${t("red", {n: T.card_numbers[card][1]})}`) : null;
  const hand = Object.entries(view.hand).map(([card, count]) =>
    el("button", {class: "card" + (view.my_pick === card ? " chosen" : ""), disabled: !canPick.has(card),
                  "aria-pressed": view.my_pick === card ? "true" : "false",
                  onclick: () => post(`/api/seats/${seat}/pick`, {card}).catch((e) => showError(e.message))},
       el("span", {}, cardName(card) + (count > 1 ? ` ×${count}` : "")), numbers(card)));
  if (view.special === "unknown") {  // table deal: the box learns the special only when it is played
    hand.push(...[...canPick].filter((c) => !(c in view.hand)).map((card) =>
      el("button", {class: "card special" + (view.my_pick === card ? " chosen" : ""),
                    onclick: () => post(`/api/seats/${seat}/pick`, {card}).catch((e) => showError(e.message))},
         el("span", {}, cardName(card)), el("small", {}, t("special_unknown")))));
  }
  return [
    el("p", {class: "status"}, meeple(seat), t("you_are", {n: seat + 1}), " · ", t("match", {n: view.match})),
    el("section", {class: "panel"}, el("h2", {}, t("your_pick")),
       el("p", {class: "pick"}, view.my_pick ? cardName(view.my_pick) : t("none_yet")),
       view.picking.includes(seat) ? null : el("p", {}, t("not_picking"))),
    view.special && view.special !== "unknown" ?
      el("p", {}, `${t("special")}: `, el("b", {}, cardName(view.special))) : null,
    el("section", {class: "panel"}, el("h2", {}, t("your_hand")), el("div", {class: "hand"}, hand)),
    ponteBridge(view),
  ];
}

const GAMES = {ponte: {table: ponteTable, seat: ponteSeat}};

function gameHeader(view) {
  return [el("h1", {}, T.titles[view.game] || view.game),
          el("p", {}, el("a", {href: `/rules/${view.game}`}, t("rules_link")))];
}

// -- tabs -----------------------------------------------------------------------------------------------
function tableTab() {
  connect("public", (view) => {
    main.replaceChildren(...(view.game ? [gameHeader(view), GAMES[view.game].table(view)].flat(2)
                                       : [el("p", {class: "panel"}, t("no_game"))]).filter(Boolean));
  });
}

async function waitForClaim(claim, helpText) {
  const help = el("p", {class: "panel claim"}, helpText);
  main.replaceChildren(help);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const state = await (await fetch(`/api/claims/${claim}`, {cache: "no-store"})).json();
    if (state.status === "confirmed") return location.reload();
    if (state.status !== "pending") {
      showError(t("claim_expired"));
      return location.reload();
    }
  }
}

function seatTab() {
  connect("seat", (view) => {
    if (!view.game) return main.replaceChildren(el("p", {class: "panel"}, t("no_game")));
    if (typeof view.viewer === "number") {
      return main.replaceChildren(...[gameHeader(view), GAMES[view.game].seat(view, view.viewer)].flat(2)
                                                                                              .filter(Boolean));
    }
    main.replaceChildren(el("h1", {}, t("choose_seat")), el("div", {class: "choose"},
      Array.from({length: view.seats}, (_, seat) => el("button", {class: "big", onclick: async () => {
        try {
          const claim = await post(`/api/seats/${seat}/claim`);
          waitForClaim(claim.claim, t("claim_help", {n: seat + 1, s: claim.seconds}));
        } catch (e) { showError(e.message); }
      }}, meeple(seat), seatName(seat)))));
  });
}

async function hostTab() {
  const status = await (await fetch("/api/host", {cache: "no-store"})).json();
  if (!status.host) {
    return main.replaceChildren(el("button", {class: "big", onclick: async () => {
      try {
        const claim = await post("/api/host/claim");
        waitForClaim(claim.claim, t("host_claim", {s: claim.seconds}));
      } catch (e) { showError(e.message); }
    }}, t("become_host")));
  }
  const games = await (await fetch("/api/games")).json();
  const form = el("form", {class: "panel"});
  const gameSelect = el("select", {id: "game", name: "game"}, games.map((g) => el("option", {value: g.name}, g.title)));
  const seatsSelect = el("select", {id: "seats", name: "seats"});
  const optionsBox = el("div", {});
  const fill = () => {
    const game = games.find((g) => g.name === gameSelect.value);
    seatsSelect.replaceChildren(...Array.from({length: Math.min(game.seats[1], game.wired_seats) - game.seats[0] + 1},
      (_, i) => el("option", {value: game.seats[0] + i}, t("seats_of", {n: game.seats[0] + i}))));
    optionsBox.replaceChildren(...Object.entries(game.options).map(([name, choices]) => el("label", {},
      t(name), el("select", {name, "data-option": name}, choices.map((c) =>
        el("option", {value: c, selected: c === game.defaults[name] ? "" : null}, t(`${name}_${c}`)))))));
  };
  gameSelect.addEventListener("change", fill);
  fill();
  form.append(el("h2", {}, t("new_game")), el("label", {}, t("game"), gameSelect),
              el("label", {}, t("players"), seatsSelect), optionsBox,
              el("button", {type: "submit", class: "big primary"}, t("start")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const options = {};
    form.querySelectorAll("[data-option]").forEach((s) => { options[s.dataset.option] = s.value; });
    await post("/api/host/game", {game: gameSelect.value, seats: Number(seatsSelect.value), options})
      .catch((e) => showError(e.message));
  });
  const twoStep = (label, question, url) => {
    const button = el("button", {class: "big", type: "button"}, label);
    button.addEventListener("click", async () => {
      if (button.dataset.armed !== "yes") {
        button.dataset.armed = "yes";
        button.textContent = question + " ✓";
        return;
      }
      button.dataset.armed = "";
      button.textContent = label;
      await post(url).catch((e) => showError(e.message));
    });
    return button;
  };
  const language = el("select", {id: "box-language", onchange: (e) =>
    post("/api/host/language", {language: e.target.value}).catch((err) => showError(err.message))},
    ["it", "en"].map((l) => el("option", {value: l, selected: l === status.language ? "" : null}, l.toUpperCase())));
  const controls = el("section", {class: "panel"}, el("p", {}, t("host_ok")),
    twoStep(t("undo"), t("confirm_undo"), "/api/host/undo"),
    twoStep(t("end"), t("confirm_end"), "/api/host/end"),
    el("a", {class: "big button", href: "/api/host/log", download: ""}, t("download")),
    el("label", {}, t("box_language"), language));
  const summary = el("div", {});
  main.replaceChildren(summary, controls, form);
  connect("public", (view) => {
    summary.replaceChildren(...(view.game ? [el("h1", {}, T.titles[view.game]),
      el("p", {class: "status"}, t("match", {n: view.match}), " · ", t("phase_" + view.phase))] :
      [el("p", {class: "panel"}, t("no_game"))]));
  });
}

({table: tableTab, seat: seatTab, host: hostTab})[TAB]();

// Biglietti, prego! on the phone: the carriage as a ring of seats (controller, travellers, hiders, the last help
// round's cards with the chain that counted), who acts now, who takes part in the exchange, the turn history;
// on a seat, its own control points and cards (the controller sees every traveller's).
"use strict";
(() => {
  const {el, tg, meeple, seatName} = ARBITRO;
  const t = (key, values) => tg("biglietti", key, values);
  const SVG = "http://www.w3.org/2000/svg";
  const names = (seats) => seats.map(seatName).join(", ");

  function svg(tag, attrs = {}, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
    node.append(...children.flat().filter((c) => c !== null && c !== undefined));
    return node;
  }

  // The help round to draw: this turn's, or the last turn's while the next check is chosen.
  const shownRound = (view) => {
    const round = [...view.turns].reverse().find((r) => r.cards);
    return round && round.turn >= view.turn - 1 ? round : null;
  };

  // The carriage drawn at a phone's width (312 px of a 360 px screen, at scale 1): the seats round a tall oval,
  // seat 1 at the top and on clockwise, evenly spaced along its edge so no two crowd; each a numbered disc, its
  // role or its card in the help round written beside it (never colour alone), the chain that counted drawn
  // from the checked traveller. Nothing pans: the whole wagon, the checked traveller too, is on the screen.
  const WIDTH = 312, RX = 56, DISC = 17, SPACING = 60;
  function oval(n) {
    const perimeter = (rx, ry) => Math.PI * (3 * (rx + ry) - Math.sqrt((3 * rx + ry) * (rx + 3 * ry)));
    let ry = 80;
    while (perimeter(RX, ry) < SPACING * n) ry += 2;
    const cy = ry + 42;
    // The edge in small steps from the top, clockwise; a seat every perimeter/n along it.
    const steps = 720;
    const points = Array.from({length: steps + 1}, (_, i) => -Math.PI / 2 + (2 * Math.PI * i) / steps);
    const lengths = [0];
    for (let i = 1; i <= steps; i++) {
      const [a, b] = [points[i - 1], points[i]];
      lengths.push(lengths[i - 1] + Math.hypot(RX * (Math.cos(b) - Math.cos(a)), ry * (Math.sin(b) - Math.sin(a))));
    }
    const seats = Array.from({length: n}, (_, s) => {
      const i = lengths.findIndex((length) => length >= (lengths[steps] * s) / n);
      const angle = points[i];
      const [x, y] = [WIDTH / 2 + RX * Math.cos(angle), cy + ry * Math.sin(angle)];
      const [nx, ny] = [Math.cos(angle) / RX, Math.sin(angle) / ry];  // outward, across the edge
      const side = Math.abs(nx) / Math.hypot(nx, ny) > 0.45;
      // A seat's words go outside the oval, away from its neighbours' discs.
      const label = side ? [x + Math.sign(nx) * (DISC + 5), y + 4, nx > 0 ? "start" : "end"]
                         : [x, ny < 0 ? y - DISC - 7 : y + DISC + 16, "middle"];
      return {x, y, label};
    });
    return {seats, height: 2 * ry + 84};
  }

  function ring(view) {
    const round = shownRound(view);
    const cards = new Map(round ? round.cards : []);
    const n = view.seats;
    const {seats: at, height} = oval(n);
    const links = [];
    if (round) {  // neighbours round the ring both in the chain (or the checked traveller and its first link)
      const linked = new Set([round.checked, ...round.chain]);
      const r = view.ring;
      const pairs = view.options.ring === "travellers" ? r.length : r.length - 1;
      for (let i = 0; i < pairs; i++) {
        const [a, b] = [r[i], r[(i + 1) % r.length]];
        if (linked.has(a) && linked.has(b)) links.push([a, b]);
      }
    }
    const seats = Array.from({length: n}, (_, s) => {
      const {x, y, label: [lx, ly, anchor]} = at[s];
      const classes = ["seat"];
      let note = t("held_n", {n: view.held[s]});
      if (s === view.controller) { classes.push("controller"); note = t("legend_controller"); }
      if (s === (view.checked ?? (round && round.checked))) classes.push("checked");
      if (view.hiders.includes(s)) classes.push("hid");
      if (round && round.counted.includes(s)) classes.push("counted");
      else if (round && round.chain.includes(s)) classes.push("chain");
      const card = cards.get(s);
      return svg("g", {class: classes.join(" "), "data-seat": s},
        svg("circle", {cx: x, cy: y, r: DISC}),
        svg("text", {x, y: y + 5, class: "number", "text-anchor": "middle"}, String(s + 1)),
        svg("text", {x: lx, y: ly, class: "card", "text-anchor": anchor}, card ? t(card) : note),
        s === view.controller ? svg("text", {x: x + 15, y: y - 12, class: "mark"}, "C") : null,
        round && round.counted.includes(s) ? svg("text", {x: x + 13, y: y - 12, class: "mark"}, "✓") : null);
    });
    const lines = links.map(([a, b]) =>
      svg("line", {x1: at[a].x, y1: at[a].y, x2: at[b].x, y2: at[b].y, class: "link"}));
    return el("section", {class: "panel"}, el("h2", {}, t("the_ring")),
      round ? el("p", {}, el("small", {}, t("last_round", {turn: round.turn}))) : null,
      el("div", {class: "ring-box"},
        svg("svg", {viewBox: `0 0 ${WIDTH} ${height}`, class: "ring", role: "img",
        "aria-label": t("the_ring")}, lines, seats)),
      round ? el("p", {class: "ring-count"}, t("count", {s: round.scusa, a: round.accusa})) : null,
      el("ul", {class: "legend"},
         el("li", {}, el("span", {class: "key controller"}, "C"), t("legend_controller")),
         el("li", {}, el("span", {class: "key checked"}, ""), t("legend_checked")),
         el("li", {}, el("span", {class: "key hid"}, ""), t("legend_hid")),
         el("li", {}, el("span", {class: "key counted"}, "✓"), t("legend_counted")),
         el("li", {}, el("span", {class: "key chain"}, ""), t("legend_chain"))));
  }

  function status(view) {
    return el("section", {class: "panel"},
      el("p", {class: "status"}, t("status", {phase: t(view.phase), turn: view.turn, n: view.cards_left})),
      el("p", {}, meeple(view.controller), t("who_checks", {seat: seatName(view.controller)})),
      el("p", {}, t("status_cards", {t: view.tickets, z: view.without_cards})));
  }

  function now(view) {
    if (view.over) return null;
    const record = view.turns[view.turns.length - 1];
    const c = seatName(view.controller);
    const who = view.checked === null ? "" : seatName(view.checked);
    const line = {
      check: () => t("now_check", {seat: c, seats: names(view.checkable)}),
      ticket: () => t("now_ticket", {seat: who}),
      help: () => t("now_help", {seat: who}),
      value: () => t("now_value", {seat: c, n: record.delivered + 1, of: record.delivered + view.values_due}),
      discard: () => t("now_discard", {seat: who}),
      eliminate: () => t("now_eliminate", {seat: c}),
      polfer: () => t("now_polfer", {phase: t(view.phase)}),
    }[view.step]();
    const locked = new Set(view.locked);
    return el("section", {class: "panel now"}, el("p", {class: "status"}, line),
      view.picking.length ? el("ul", {class: "seats"}, view.picking.map((s) => el("li", {}, meeple(s),
        el("b", {}, seatName(s)), el("span", {class: locked.has(s) ? "tag done" : "tag"},
          locked.has(s) ? "✓ " + t("played") : "… " + t("playing"))))) : null);
  }

  function exchange(view) {
    const record = view.turns.length ? view.turns[view.turns.length - 1] : null;
    if (!record || !record.exchange.length || view.over) return null;
    // Who takes part, not an order: the players choose it (the checked traveller first, then whom each picks).
    const taking = record.exchange.slice(0, -1);
    if (taking.length < 2) return el("section", {class: "panel"}, el("h2", {}, t("exchange")), el("p", {}, t("no_exchange")));
    return el("section", {class: "panel"}, el("h2", {}, t("exchange")),
      el("ul", {class: "exchange"}, taking.map((s) => el("li", {}, meeple(s), seatName(s)))),
      el("p", {}, el("small", {}, t("exchange_note", {seat: seatName(record.checked)}))));
  }

  function turnLines(view, r) {
    const lines = [t("h_check", {c: seatName(view.controller), t: seatName(r.checked)}) + (r.hid ? t("h_hid") : "")];
    if (r.ticket !== null) lines.push(t(r.ticket ? "h_ticket" : "h_no_ticket"));
    for (const again of r.again) {
      for (const [card, n, of] of again.over) lines.push(t("h_again", {n, card: t(card), of}));
    }
    if (r.cards) {
      lines.push(el("span", {}, r.cards.map(([s, card]) => el("span", {class: "played" +
        (r.counted.includes(s) ? " counted" : "")}, `${s + 1}: ${t(card)}`))));
      lines.push(t("count", {s: r.scusa, a: r.accusa}));
    }
    if (r.delivered) lines.push(r.delivered > 1 ? t("h_cards", {n: r.delivered}) : t("h_card"));
    else if (r.outcome === "eliminated") lines.push(t("o_eliminated"));
    if (r.discarded !== null) lines.push(t(r.discarded ? "h_gave_back" : "h_kept"));
    if (r.hiders.length) lines.push(t("h_hiders", {seats: names(r.hiders)}));
    if (r.exchange.length) {
      lines.push(r.exchange.length > 2 ? t("h_exchange", {seats: names(r.exchange.slice(0, -1))}) : t("no_exchange"));
    }
    if (r.eliminated) lines.push(t("h_eliminated", {seat: seatName(view.controller), card: t(r.eliminated)}));
    return lines;
  }

  function history(view) {
    if (!view.turns.length) return null;
    const halves = view.halves.map((h) => el("li", {}, t("half_" + h.round, {phase: t(h.half)})));
    return el("section", {class: "panel"}, el("h2", {}, t("history")),
      halves.length ? el("ul", {class: "plain"}, halves) : null,
      [...view.turns].reverse().map((r, i) => el("details", {open: i === 0 ? "" : null},
        el("summary", {}, `${t("turn_n", {n: r.turn})} · ${t(r.phase)} · ${seatName(r.checked)}`),
        el("ul", {class: "plain"}, turnLines(view, r).map((line) => el("li", {}, line))))));
  }

  function verdict(view) {
    if (!view.over) return null;
    const w = view.winner;
    const lines = [];
    if (w.how === "controller") lines.push(t("win_controller", {seat: seatName(w.traveller), n: view.points[w.traveller]}));
    else if (w.how === "polfer") {
      lines.push(t("win_polfer", {seat: seatName(w.winners[0]), without: t("without_n", {n: w.without_cards}),
                                  tickets: t("tickets_n", {n: w.tickets})}));
    }
    else {
      lines.push(t("win_fewest", {n: w.points}));
      if (view.polfer !== null) lines.push(t("win_left_out", {seat: seatName(view.polfer)}));
    }
    return el("section", {class: "panel"}, lines.map((line) => el("p", {}, line)), points(view, view.travellers));
  }

  // Points and control cards of the travellers the viewer may see (all of them once the game is over).
  function points(view, seats) {
    const shown = seats.filter((s) => view.points[s] !== null);
    if (!shown.length) return null;
    const goal = view.phase === "andata" ? 8 : 9;
    return el("table", {class: "points"}, el("thead", {}, el("tr", {}, el("th", {}, t("col_traveller")),
      el("th", {}, t("col_cards")), el("th", {}, t("col_points")))),
      el("tbody", {}, shown.map((s) => el("tr", {}, el("td", {}, meeple(s), seatName(s)),
        el("td", {}, view.hands[s].length ? view.hands[s].join(" + ") : t("no_cards")),
        el("td", {}, el("b", {}, String(view.points[s])), view.over ? null :
          el("small", {}, ` (${t("danger", {n: view.points[s], of: goal})})`))))));
  }

  function table(view) {
    return [status(view), verdict(view), now(view), ring(view), exchange(view), history(view)];
  }

  function seat(view, me) {
    if (view.over) return table(view);
    if (me === view.controller) {
      return [el("section", {class: "panel"}, el("h2", {}, t("points_table")),
                 el("p", {}, el("small", {}, t("points_secret"))), points(view, view.travellers)),
              status(view), ring(view), history(view)];
    }
    const hand = view.hands[me];
    return [el("section", {class: "panel mine"},
              el("p", {class: "status"}, t("your_points", {n: view.points[me]})),
              el("p", {}, t("your_hand", {values: hand.length ? hand.join(", ") : t("no_cards")})),
              el("p", {}, el("small", {}, t("points_secret")))),
            status(view), ring(view), exchange(view), history(view)];
  }

  // Under a traveller to check: how many control cards it holds, and whether it hid.
  function choiceDetail(choice, view) {
    const check = choice.action.choose && choice.action.choose.check;
    if (check === undefined) return null;
    return el("small", {}, t("held_n", {n: view.held[check]}),
              view.hiders.includes(check) ? ` · ${t("hider_tag")}` : "",
              view.points[check] !== null ? ` · ${t("points_n", {n: view.points[check]})}` : "");
  }

  ARBITRO.games.biglietti = {table, seat, choiceDetail};
})();

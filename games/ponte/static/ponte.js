// Il ponte traballante on the phone: the bridge, who has picked, each match's cards, moves and event; a seat's
// hand with each card's numbers.
"use strict";
(() => {
  const {el, tg, meeple, seatName} = ARBITRO;
  const t = (key, values) => tg("ponte", key, values);
  const words = ARBITRO.words("ponte");
  const cardName = (id) => words.card_names[id] || id;

  function bridge(view) {
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

  function seats(view) {
    const picking = new Set(view.picking);
    const locked = new Set(view.locked);
    return el("section", {class: "panel"}, el("ul", {class: "seats"}, view.positions.map((space, seat) =>
      el("li", {}, meeple(seat), el("b", {}, seatName(seat)),
         el("span", {}, `${t("space", {n: space})} · ${t("cards", {n: view.hand_sizes[seat]})}`),
         view.standing && view.standing[seat] ? el("span", {class: "tag"}, cardName(view.standing[seat])) : null,
         picking.has(seat) ? el("span", {class: locked.has(seat) ? "tag done" : "tag"},
                                locked.has(seat) ? "✓ " + t("locked") : "… " + t("picking")) : null))));
  }

  function cards(list) {
    return el("ul", {class: "plain"}, list.map((card, seat) => (card ?
      el("li", {}, meeple(seat), `${seatName(seat)}: ${cardName(card)}`) : null)));
  }

  function match(m) {
    const parts = m.void.map((reveal) => [el("h3", {}, t("void")), cards(reveal)]);
    if (!m.reveal) return parts;
    parts.push(el("h3", {}, t("reveal")), el("ul", {class: "plain"}, m.reveal.map((card, seat) => {
      const swap = m.replacements && m.replacements[seat];
      return el("li", {}, meeple(seat), `${seatName(seat)}: ${cardName(card)}`,
                swap ? ` → ${t("replacement")} ${cardName(swap)}` : "");
    })));
    // Each move as the rules asked it, and where the bridge's end stopped a meeple short of it.
    const said = (d, asked) => {
      const side = d < 0 ? "move_west" : "move_east";
      return d === asked ? t(side, {n: Math.abs(d)}) : t(side + "_stopped", {n: Math.abs(asked), at: d < 0 ? 1 : 21});
    };
    for (const step of m.moves) {
      const moved = step.delta.map((d, seat) => [seat, d]).filter(([, d]) => d);
      parts.push(el("h3", {}, `${t("moves")}: ${t("step_" + step.step)}`),
                 el("ul", {class: "plain"}, moved.length ? moved.map(([seat, d]) => el("li", {}, meeple(seat),
                   `${seatName(seat)}: ${said(d, step.asked[seat])}`))
                   : el("li", {}, t("no_moves"))));
    }
    if (m.event) parts.push(el("h3", {}, t("event")), el("p", {class: "event"}, cardName(m.event)));
    return parts;
  }

  function phase(view) {
    return view.standing ? t("phase_repick") : t("phase_" + view.phase);
  }

  function table(view) {
    const history = view.history.filter((m) => m.reveal || m.void.length).slice().reverse();
    return [
      el("p", {class: "status"}, t("match", {n: view.match}), " · ", phase(view)),
      bridge(view),
      seats(view),
      history.length ? el("section", {class: "panel"}, el("h2", {}, t("match", {n: history[0].match})),
                          match(history[0])) : null,
      el("section", {class: "panel"}, el("h2", {}, t("event")),
         el("p", {}, t("events_left", {n: view.events_left})),
         el("p", {}, `${t("discard")}: ${view.event_discard.map(cardName).join(", ") || "—"}`)),
      history.length > 1 ? el("section", {class: "panel"}, el("h2", {}, t("history")),
        history.slice(1).map((m) => el("details", {}, el("summary", {}, t("match", {n: m.match})), match(m))))
        : null,
    ];
  }

  function numbers(card) {
    const n = words.card_numbers[card];
    return n ? el("small", {}, `${t("green", {n: n[0]})} · ${t("red", {n: n[1]})}`) : null;
  }

  function seat(view) {
    const hand = Object.entries(view.hand).map(([card, count]) =>
      el("li", {}, `${cardName(card)}${count > 1 ? ` ×${count}` : ""} `, numbers(card)));
    return [
      el("p", {class: "status"}, t("match", {n: view.match}), " · ", phase(view)),
      view.special && view.special !== "unknown" ?
        el("p", {}, `${t("special")}: `, el("b", {}, cardName(view.special))) : null,
      el("section", {class: "panel"}, el("h2", {}, t("your_hand")), el("ul", {class: "plain hand-list"}, hand)),
      bridge(view),
    ];
  }

  // Under each card button: its numbers, or, for a special the box has not seen yet, a reminder.
  function choiceDetail(choice, view) {
    const card = choice.action.pick;
    if (view.special === "unknown" && !(card in view.hand)) return el("small", {}, t("special_unknown"));
    return numbers(card);
  }

  ARBITRO.games.ponte = {table, seat, choiceDetail};
})();

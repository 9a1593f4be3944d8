// Leader 1 on the phone: the last roll (value and colour in words), every team's energy sheet (energy, risk
// boxes, place, supply tiles, chases), the move a team is entering with its cost, and the race log. A team's
// own page adds its secret supply tiles; its move form is the prompt's buttons, grouped by field.
"use strict";
(() => {
  const {el, tg, said, meeple, seatName} = ARBITRO;
  const t = (key, values) => tg("leader1", key, values);
  const who = ([seat, kind]) => `${seatName(seat)} ${kind}`;
  const face = (view, index) => {
    const [value, colour] = view.die[index];
    return `${value}${colour === "plain" ? "" : " " + t(colour)}`;
  };

  function status(view) {
    return el("p", {class: "status"},
      view.stages > 1 ? [t("stage", {n: view.stage, of: view.stages}), " · "] : null,
      view.turn ? [t("turn", {n: view.turn}), " · "] : null,
      t("phase", {phase: t("phase_" + view.phase)}),
      view.to_act.length ? [" · ", t("to_act", {seats: view.to_act.map(seatName).join(", ")})] : null);
  }

  function lastRoll(view) {
    if (!view.roll) return el("section", {class: "panel"}, el("p", {}, t("no_roll")));
    return el("section", {class: "panel roll"}, el("h2", {}, t("last_roll")),
      el("p", {class: `die ${view.roll.colour}`}, el("b", {}, String(view.roll.value)),
         view.roll.colour === "plain" ? null : el("span", {}, t(view.roll.colour))),
      view.peloton && view.peloton.move ? el("p", {}, t("ev_peloton", {face: face(view, view.peloton.face),
                                                                      n: view.peloton.move})) : null);
  }

  // The risk boxes of the sheet: >3, >4, then the orange/blue 4; crossed ones filled.
  const riskBoxes = (n) => el("span", {class: "risks", "aria-label": `${t("col_risks")}: ${n}`},
    [">3", ">4", "4"].map((label, i) => el("span", {class: i < n ? "box crossed" : "box"}, label)),
    n > 3 ? el("small", {}, ` +${n - 3}`) : null);

  function sheet(view, seat, me) {
    const riders = view.riders.filter((r) => r.seat === seat);
    return el("section", {class: "panel sheet"},
      el("h2", {}, meeple(seat), " ", seatName(seat), el("small", {}, " · " + t("chases_left", {n: view.chases[seat]}))),
      el("table", {}, el("thead", {}, el("tr", {}, [t("col_rider"), t("col_energy"), t("col_risks"), t("col_place"), t("col_tiles")]
        .map((h) => el("th", {}, h)))),
        el("tbody", {}, riders.map((r) => el("tr", {class: r.place},
          el("td", {}, el("b", {}, r.type), r.quality ? el("small", {}, " " + r.quality) : null),
          el("td", {class: "energy"}, String(r.energy)),
          el("td", {}, riskBoxes(r.risks)),
          el("td", {}, t("place:" + r.place), r.crashed ? el("span", {class: "tag bad"}, t("crashed")) : null,
             r.punctured ? el("span", {class: "tag bad"}, t("punctured")) : null,
             view.stages > 1 ? el("small", {}, ` ${t("gc")} ${r.gc > 0 ? "+" : ""}${r.gc}`) : null),
          el("td", {}, String(r.tiles), seat === me && r.tile_values && r.tile_values.length ?
             el("small", {class: "secret"}, " (" + r.tile_values.map((v) => "+" + v).join(" ") + ")") : null))))));
  }

  function forms(view) {
    return view.forms.map((form, seat) => {
      if (!form) return null;
      const sums = form.sums;
      return el("section", {class: "panel form"}, el("h2", {}, t("form_title"), ": ", who(form.rider)),
        form.start ? el("p", {}, t("terrain", {t: form.start}),
                        form.spaces ? " · " + t("spaces_n", {n: form.spaces}) : null) : null,
        form.spaces ? el("p", {}, t("flags", {draft: t(form.draft ? "yes" : "no"), weather: form.weather.replace("_", " "),
                                            climb: form.climb ? `${form.climb} (${form.climb_spaces})` : t("no")}),
                         el("br"), t("road_marks", {d: form.damaged.join(", ") || "-", c: form.cobbles.join(", ") || "-"}))
          : null,
        sums ? el("p", {class: "sums"}, el("b", {}, t("sums", sums)),
                  sums.recovered ? " · " + t("recover", {n: sums.recovered}) : null,
                  sums.risks.length ? el("span", {class: "tag bad"},
                    t("runs", {risks: sums.risks.map((r) => t("risk_" + r)).join(", ")})) : null) : null,
        form.refused ? el("p", {class: "note"}, t("refused", {why: said(form.refused)})) : null);
    });
  }

  function eventLine(view, e) {
    switch (e.event) {
      case "peloton": return [t("ev_peloton", {face: face(view, e.face), n: e.move}),
                              ...e.dropped.map((r) => t("ev_dropped", {who: who(r)}))].join(" · ");
      case "move": return [...e.rolled.map(([kind, f, outcome]) => t("ev_roll",
                             {who: who(e.rider), kind: t("risk_" + kind), face: face(view, f), outcome: t(outcome)})),
                           t("ev_move", {who: who(e.rider), n: e.spaces, cost: e.cost, energy: e.energy})].join(" · ");
      case "puncture_roll": return t("ev_puncture_roll", {who: who(e.rider), face: face(view, e.face),
                                                          outcome: t(e.punctured ? "puncture" : "no_puncture")});
      case "chase": return t("ev_chase", {team: seatName(e.seat)});
      case "finish": return t("ev_finish", {who: who(e.rider), n: e.place});
      case "supply_used": return t("ev_supply_used", {who: who(e.rider), n: e.value});
      case "caught": return t("ev_caught", {who: who(e.rider), place: t("place:" + e.place)});
      case "passed": return t("ev_passed", {who: who(e.rider)});
      case "stage_end": return t("ev_stage_end", {n: e.stage});
      case "turn": return t("ev_turn", {n: e.n});
      default: return null;
    }
  }

  function history(view) {
    const lines = view.events.slice().reverse().map((e) => eventLine(view, e)).filter(Boolean).slice(0, 15);
    return el("section", {class: "panel"}, el("h2", {}, t("history")), el("ul", {class: "plain log"},
      lines.map((line) => el("li", {}, line))));
  }

  function order(view) {
    return el("p", {class: "status"}, t("tokens"), ": ", view.order.map((s, i) => [i ? " › " : "", meeple(s, true)]));
  }

  function table(view) {
    return [status(view), lastRoll(view), forms(view), order(view),
            view.order.map((s) => sheet(view, s, null)), history(view)];
  }

  function seat(view, me) {
    return [forms(view), sheet(view, me, me), lastRoll(view), order(view),
            view.order.filter((s) => s !== me).map((s) => sheet(view, s, me)), history(view)];
  }

  // A move's fields all in reach (one tap each), the cost as it stands right under the question.
  const expand = (prompt) => prompt.title === "choose_move";
  // Under the question: the cost as it stands; where the team's box-held tiles are offered, who sees what (the
  // choice is not secret: the box's screen shows it, and a tile used shows its value).
  function promptNote(view, prompt) {
    const form = prompt.choices.length ? view.forms[prompt.choices[0].action.seat] : null;
    const tiles = view.supply === "box" && prompt.choices.some((c) => "supply" in c.action.choose);
    return [form && form.sums ? el("p", {class: "sums"}, el("b", {}, t("sums", form.sums)),
              form.sums.risks.length ? el("span", {class: "tag bad"},
                t("runs", {risks: form.sums.risks.map((r) => t("risk_" + r)).join(", ")})) : null,
              form.refused ? el("span", {class: "note"}, " " + t("refused", {why: said(form.refused)})) : null) : null,
            tiles ? el("p", {class: "note"}, t("tiles_yours")) : null];
  }

  ARBITRO.games.leader1 = {table, seat, expand, promptNote};
})();

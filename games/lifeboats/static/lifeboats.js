// Rette sich wer kann on the phone: the sea (seven lanes, each boat with its seats, pawns by seat number and
// rank letter, leaks, progress to its island), the vote in progress, players' scores and hats, the history.
"use strict";
(() => {
  const {el, tg, meeple, seatName} = ARBITRO;
  const t = (key, values) => tg("lifeboats", key, values);
  const words = ARBITRO.words("lifeboats");
  const colourName = (colour) => t(colour);
  // A boat by its colour, agreeing with "barca" ("la barca rossa").
  const boatColour = (colour) => t("boat_of:" + colour);
  const swatch = (colour) => el("span", {class: "swatch", style: `--paint:${words.paint[colour]}`,
                                         "aria-hidden": "true"});
  const boatName = (colour) => el("b", {class: "boat-name"}, swatch(colour), colourName(colour));
  // A pawn: its seat's number and its rank letter, so colour is never the only clue.
  const free = (view, boat) => view.options.boat_seats - boat.pawns.length - boat.leaks;
  const pawn = ([seat, kind]) => el("span", {class: `pawn ${kind}`, title: `${seatName(seat)}: ${t(kind)}`, role: "img",
                                             "aria-label": `${seatName(seat)}: ${t(kind)}`},
                                    meeple(seat), t("mark_" + kind));

  function lane(view, number) {
    const entry = Object.entries(view.boats).find(([, boat]) => boat.lane === number);
    const island = view.options.lanes[number - 1];
    const points = view.options.islands[island];
    const head = el("div", {class: "lane-head"}, el("span", {class: "lane-number"}, t("lane_" + number)),
                    el("small", {}, `${t("island_n", {n: island + 1})}: ${t("island_points", {o: points[0], s: points[1]})}`));
    if (!entry) return el("li", {class: "lane empty"}, head, el("small", {}, t("not_placed")));
    const [colour, boat] = entry;
    const moves = view.options.moves_to_island;
    const steps = Array.from({length: moves}, (_, i) => el("span", {class: i < boat.progress ? "step done" : "step"}));
    const seats = boat.status === "sea" ? el("div", {class: "boat-seats"},
      boat.pawns.map(pawn), Array.from({length: boat.leaks}, () => el("span", {class: "slot leak"}, t("leak"))),
      Array.from({length: free(view, boat)}, () => el("span", {class: "slot free", role: "img", "aria-label": t("free")})))
      : el("p", {class: "fate"}, t("status_" + boat.status));
    return el("li", {class: `lane ${boat.status}`}, head,
              el("div", {class: "boat-line"}, boatName(colour),
                 el("span", {class: "progress"}, el("span", {"aria-hidden": "true"}, steps),
                    el("small", {}, ` ${t("progress", {n: boat.progress, of: moves})}`))),
              seats);
  }

  function sea(view) {
    return el("section", {class: "panel"}, el("h2", {}, t("sea")),
              el("ol", {class: "sea"}, Array.from({length: 7}, (_, i) => lane(view, i + 1))));
  }

  function status(view) {
    if (!view.turn) return el("p", {class: "status"}, t("setup"));  // no leak is placed in the setup
    return el("p", {class: "status"}, t("turn", {n: view.turn}), " · ", t("phase_" + view.phase), " · ",
              t("first", {seat: seatName(view.start)}),
              view.over ? null : [" · ", t("leaks_left", {n: view.leaks_left})]);
  }

  // Who must act now, and on what: the open decision (a tie or the Captain settles a vote everyone has cast),
  // else the vote with who has voted (never what).
  function now(view) {
    if (!view.decision && view.vote) {
      const locked = new Set(view.locked);
      const vote = view.vote;
      return el("section", {class: "panel"}, el("h2", {}, t("vote_now"), ": ",
          t("vote_kind_" + vote.kind, {boat: boatColour(vote.boat || "")})),
        el("ul", {class: "seats"}, vote.voters.map((seat, i) => el("li", {}, meeple(seat), el("b", {}, seatName(seat)),
          vote.kind === "special" ? el("small", {}, t("weight", {n: vote.weights[i]})) : null,
          el("span", {class: locked.has(seat) ? "tag done" : "tag"},
             locked.has(seat) ? "✓ " + t("voted") : "… " + t("voting"))))));
    }
    if (!view.decision) return null;
    const decision = view.decision;
    return el("section", {class: "panel"},
      view.vote ? el("h2", {}, t("vote_kind_" + view.vote.kind, {boat: boatColour(view.vote.boat || "")})) : null,
      el("p", {class: "status"}, meeple(decision.seat), t("waits_" + decision.what, {seat: seatName(decision.seat)})));
  }

  function swimmers(view) {
    if (!view.swimmers.length) return null;
    return el("section", {class: "panel"}, el("h2", {}, t("swimmers")), el("ul", {class: "plain"},
      view.swimmers.map(([seat, kind, left]) => el("li", {}, pawn([seat, kind]), t("left", {boat: boatColour(left)})))));
  }

  // The boats sunk since the last revealed vote: kept on every phone while the next vote is cast, so a quick
  // table still reads whom a sinking took down.
  function sunk(view) {
    if (!view.sinkings.length) return null;
    return el("section", {class: "panel sunk-news"}, el("h2", {}, t("sunk_title", {n: view.sinkings.length})),
      el("ul", {class: "plain"}, view.sinkings.map((e) => el("li", {}, el("small", {}, `${t("turn_n", {n: e.turn})}: `),
        eventLine(view, e)))));
  }

  function players(view) {
    return el("section", {class: "panel"}, el("h2", {}, t("players")), el("ul", {class: "seats"},
      view.scores.map((score, seat) => el("li", {}, meeple(seat), el("b", {}, seatName(seat)),
        boatName(view.colours[seat]), el("span", {}, t("score", {n: score})),
        el("span", {class: "tag"}, t("hats", {n: view.hats[seat]})),
        el("small", {class: "fates"}, t("fates", view.fates[seat]))))));
  }

  function eventLine(view, e) {
    const seat = e.seat === undefined ? "" : seatName(e.seat);
    const boat = boatColour(e.boat || "");
    const auto = e.auto ? t("auto") : "";
    switch (e.type) {
      case "vote": return el("div", {}, vote(e));
      case "captain": case "tie": return t("e_" + e.type, {seat, colour: colourName(e.outcome)});
      case "move": return t("e_move", {boat, n: e.progress, of: view.options.moves_to_island});
      case "arrive": return t("e_arrive", {boat, island: e.island + 1, points: e.points.map((n, s) =>
        (n ? `${seatName(s)} +${n}` : null)).filter(Boolean).join(", ") || t("nobody")});
      case "sink": return t("e_sink", {boat, pawns: e.pawns.map(([s, k]) => `${s + 1}${t("mark_" + k)}`).join(" ")
        || t("nobody")});
      default: return t("e_" + e.type, {seat, boat, kind: t(e.kind || "")}) + auto;
    }
  }

  function vote(e) {
    const kind = t("vote_kind_" + e.kind, {boat: boatColour(e.boat || "")});
    if (e.auto) return [el("b", {}, kind), ": ", t("only_one", {colour: colourName(e.outcome)})];
    const outcome = {majority: () => t("outcome", {colour: colourName(e.outcome)}), again: () => t("again"),
                     captain: () => t("captain_is", {seat: seatName(e.hats[0])}),
                     tie: () => t("tie_between", {seat: seatName(e.start)})}[e.how]();
    return [el("b", {}, kind), el("ul", {class: "plain votes"}, e.votes.map(([seat, pick, weight]) => el("li", {},
      meeple(seat, true), pick === "cappello" ? t("hat_vote") : [swatch(pick), colourName(pick)],
      e.kind === "special" && pick !== "cappello" ? el("small", {}, ` ×${weight}`) : null))),
      e.tally.length ? el("p", {}, `${t("tally")}: `, e.tally.map(([c, n]) => `${colourName(c)} ${n}`).join(" · ")) : null,
      el("p", {class: "event"}, outcome)];
  }

  function history(view) {
    if (!view.history.length) return null;
    // The latest turn first; within a turn, events in the order they happened (a tie, then its tie-break).
    const turns = [...new Set(view.history.map((e) => e.turn))].reverse();
    return el("section", {class: "panel"}, el("h2", {}, t("history")), turns.map((turn, i) =>
      el("details", {open: i === 0 ? "" : null}, el("summary", {}, t("turn_n", {n: turn})),
         el("ul", {class: "plain"}, view.history.filter((e) => e.turn === turn)
           .map((e) => el("li", {}, eventLine(view, e)))))));
  }

  function table(view) {
    return [status(view), sunk(view), now(view), sea(view), swimmers(view), players(view), history(view)];
  }

  function seat(view, me) {
    const mine = Object.entries(view.boats).flatMap(([colour, boat]) =>
      boat.pawns.filter(([s]) => s === me).map(([, kind]) => el("li", {}, pawn([me, kind]), t("in_boat", {boat: boatColour(colour)}))));
    const reserve = view.reserve[me];
    return [
      el("p", {class: "status"}, `${t("your_colour")}: `, boatName(view.colours[me]), " · ",
         t("score", {n: view.scores[me]}), " · ", t("hats", {n: view.hats[me]})),
      sunk(view),
      el("section", {class: "panel"}, el("h2", {}, t("your_pawns")), el("ul", {class: "plain"}, mine,
        reserve.officer + reserve.sailor ? el("li", {}, t("to_place", {o: reserve.officer, s: reserve.sailor})) : null),
        el("p", {}, el("small", {}, t("fates", view.fates[me])))),
      sea(view),
    ];
  }

  // Under each choice: the boat's state for a colour, the island for a lane, the tokens left for the hat.
  function choiceDetail(choice, view) {
    const action = choice.action;
    const chosen = action.pick || (action.choose && (action.choose.captain || action.choose.tie || action.choose.swim_to));
    if (chosen === "cappello") return el("small", {}, t("hat_tokens", {n: view.hats[action.seat]}));
    if (chosen && view.boats[chosen]) {
      const boat = view.boats[chosen];
      return el("small", {}, swatch(chosen), `${t("progress", {n: boat.progress, of: view.options.moves_to_island})}`,
                ` · ${t("leaks_n", {n: boat.leaks})} · ${t("free_n", {n: free(view, boat)})}`);
    }
    if (action.choose && action.choose.lane) {
      const island = view.options.lanes[action.choose.lane - 1];
      const points = view.options.islands[island];
      return el("small", {}, `${t("island_n", {n: island + 1})}: ${t("island_points", {o: points[0], s: points[1]})}`);
    }
    return null;
  }

  const seatColours = (view) => view.colours.map((colour) => words.paint[colour]);
  ARBITRO.games.lifeboats = {table, seat, choiceDetail, seatColours};
})();

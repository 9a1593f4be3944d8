// I ponti di Shangri-La on the phone: the board as a map the box draws (13 villages, each with its seven
// spaces; masters as their seat's number on its colour, students as a small number beside; bridges intact or
// gone; Stones). On your turn you tap a village, then a space (place a master on an empty one, pick one or two
// of your masters to recruit students) or a bridge (a journey, previewed before you confirm). Whatever the
// rules refuse comes back with the reason, and nothing changes.
"use strict";
(() => {
  const {el, made, tg, meeple, seatName, attempt, colour, redraw} = ARBITRO;
  const t = (key, values) => tg("shangrila", key, values);
  const SVG = "http://www.w3.org/2000/svg";
  const KINDS = ["guaritore", "allevatore_di_draghi", "custode_del_fuoco", "sacerdote", "portatore_di_pioggia",
                 "astrologo", "sussurratore_di_yeti"];
  const ALL_BRIDGES = [[0, 1], [0, 3], [0, 4], [0, 6], [1, 2], [1, 5], [2, 5], [2, 9], [3, 4], [3, 6], [3, 10],
                       [4, 5], [4, 7], [5, 8], [6, 10], [7, 8], [7, 10], [7, 11], [8, 9], [8, 12], [9, 12],
                       [10, 11], [11, 12]];
  // Village centres on the map, as on the board (village 3, the red one, top right).
  const AT = [[135, 99], [229, 67], [337, 85], [85, 205], [171, 191], [265, 168], [49, 113], [182, 306],
              [272, 283], [351, 214], [74, 329], [146, 421], [279, 407]];
  const CELL = 15;
  const ui = {selected: null, recruits: [], journey: null, promptKey: null, scroll: 0};

  const svg = (tag, attrs = {}, ...children) => made(document.createElementNS(SVG, tag), attrs, children);
  const vName = (v) => t("v:" + v);
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

  // One village: a card with its number and seven cells (4 over 3); a master is its seat's number on its
  // colour, its student a second number in the cell's corner; an empty cell shows the kind's code.
  function villageGlyph(view, v, onTap) {
    const village = view.villages[v];
    const [cx, cy] = AT[v];
    const cells = KINDS.map((kind, k) => {
      const row = k < 4 ? 0 : 1;
      const x = cx - (row ? 1.5 : 2) * (CELL + 1) + (k - row * 4) * (CELL + 1);
      const y = cy - 8 + row * (CELL + 3);
      const master = village.masters[kind];
      const student = village.students[kind];
      return svg("g", {class: "cell"},
        svg("rect", {x, y, width: CELL, height: CELL + 1, rx: 2,
                     class: master === undefined ? "space empty" : "space",
                     style: master === undefined ? "" : `fill:${colour(master)}`}),
        master === undefined ? svg("text", {x: x + CELL / 2, y: y + 11, class: "code", "text-anchor": "middle"},
                                   t("code_" + kind))
          : svg("text", {x: x + CELL / 2, y: y + 12, class: "master", "text-anchor": "middle"}, String(master + 1)),
        student === undefined ? null : svg("g", {},
          svg("circle", {cx: x + CELL, cy: y + CELL, r: 6.5, style: `fill:${colour(student)}`, class: "student"}),
          svg("text", {x: x + CELL, y: y + CELL + 3.5, class: "student-n", "text-anchor": "middle"}, String(student + 1))));
    });
    const classes = ["village"];
    if (village.stone) classes.push("stone");
    if (ui.selected === v) classes.push("selected");
    // The card is a button for the keyboard and a screen reader too, named with whose masters and students stand
    // there. What is drawn on it says the same to the eye alone: inside the button, its words and the spaces'
    // codes would have to be its name as well (axe: label-content-name-mismatch) and would be read as noise.
    const held = KINDS.filter((kind) => village.masters[kind] !== undefined).map((kind) =>
      `${t(kind)}: ${seatName(village.masters[kind])}` + (village.students[kind] === undefined ? ""
        : ` + ${t("student")} ${seatName(village.students[kind])}`));
    const across = view.bridges.filter(([a, b]) => a === v || b === v).map(([a, b]) => vName(a === v ? b : a));
    return svg("g", {class: classes.join(" "), "data-village": v, onclick: () => onTap(v),
                     onkeydown: (event) => {
                       if (event.key !== "Enter" && event.key !== " ") return;
                       event.preventDefault();
                       onTap(v);
                     }},
      svg("rect", {x: cx - 36, y: cy - 27, width: 72, height: 56, rx: 10, class: "card", role: "button", tabindex: 0,
                   "data-key": `village:${v}`, "aria-pressed": ui.selected === v ? "true" : "false",
                   "aria-label": [vName(v) + (village.stone ? " · " + t("stone") : ""), ...held,
                                  across.length ? t("bridges_to", {villages: across.join(", ")}) : t("no_bridge_left")]
                     .join("; ")}),
      svg("g", {"aria-hidden": "true"},
        svg("text", {x: cx - 32, y: cy - 14, class: "name"}, vName(v)),
        svg("text", {x: cx + 32, y: cy - 14, class: "strength", "text-anchor": "end"},
            village.stone ? t("stone_mark") : ""),
        cells));
  }

  function map(view, onTap) {
    const intact = new Set(view.bridges.map((b) => b.join("-")));
    const bridges = ALL_BRIDGES.map(([a, b]) => svg("line", {x1: AT[a][0], y1: AT[a][1], x2: AT[b][0], y2: AT[b][1],
      class: intact.has(`${a}-${b}`) ? "bridge" : "bridge gone"}));
    // A group, not an image: its villages are buttons. Wider than a phone, it pans, so its words stay readable.
    const box = el("div", {class: "map-box"}, svg("svg", {viewBox: "0 0 400 460", class: "map", role: "group",
      "aria-label": t("map")}, bridges, view.villages.map((_, v) => villageGlyph(view, v, onTap))));
    return pannable(box);
  }

  // A map wider than the screen says so: each edge with villages beyond it is shaded, with an arrow that scrolls
  // there, and a line under the map says it pans. A village reached by Tab scrolls into view by itself. A redraw
  // (a tap, another seat's move) keeps where the map was panned to.
  function pannable(box) {
    const edge = (side) => el("div", {class: `map-edge ${side}`, "aria-hidden": "true", onclick: () =>
      box.scrollBy({left: (side === "left" ? -0.8 : 0.8) * box.clientWidth, behavior: "smooth"})},
      el("span", {}, side === "left" ? "‹" : "›"));
    const wrap = el("div", {class: "map-wrap"}, box, edge("left"), edge("right"));
    let placed = false;
    const mark = () => {
      if (!box.isConnected) return;
      if (!placed) box.scrollLeft = ui.scroll;
      placed = true;
      ui.scroll = box.scrollLeft;
      wrap.classList.toggle("more-left", box.scrollLeft > 1);
      wrap.classList.toggle("more-right", box.scrollWidth - box.clientWidth - box.scrollLeft > 1);
    };
    queueMicrotask(mark);  // in the page: before the focus comes back to a village, and before it is painted
    new ResizeObserver(mark).observe(box);  // the phone turned
    box.addEventListener("scroll", mark, {passive: true});
    // A focused village lies wholly in view, clear of the shaded edges: the browser scrolls only a village wholly
    // out of view, and leaves one half under the edge's arrow.
    box.addEventListener("focusin", (event) => {
      const card = event.target.getBoundingClientRect();
      const view = box.getBoundingClientRect();
      const clear = 44;  // an edge's width, and a little
      if (card.left < view.left + clear) box.scrollLeft -= view.left + clear - card.left;
      else if (card.right > view.right - clear) box.scrollLeft += card.right - (view.right - clear);
      mark();
    });
    return [wrap, el("p", {class: "map-hint"}, el("small", {}, t("map_pans")))];
  }

  function legend() {
    return el("p", {class: "legend"}, el("small", {}, t("legend")));
  }

  function status(view) {
    const stones = view.villages.filter((v) => v.stone).length;
    const who = view.to_act === null ? t(view.end_rule === "R-3" ? "end_r3" : "end_r4")
      : t(view.phase === "setup" ? "setup_turn" : "turn_of", {seat: seatName(view.to_act)});
    return el("section", {class: "panel"}, el("p", {class: "status"}, who),
      el("p", {}, t("stones", {n: stones, left: view.villages_left, bridges: view.bridges.length})));
  }

  function players(view) {
    return el("section", {class: "panel"}, el("h2", {}, t("players")), el("ul", {class: "seats"},
      view.scores.map((score, s) => el("li", {}, meeple(s), el("b", {}, seatName(s)),
        el("span", {}, t("masters_n", {n: score})), el("small", {}, t("present_n", {n: view.present[s]})),
        el("small", {}, t("supply_n", {n: Object.values(view.supply[s]).reduce((a, b) => a + b, 0)}))))));
  }

  function eventLine(e) {
    const who = seatName(e.seat);
    if (e.type === "place") return t(e.setup ? "e_setup" : "e_place", {seat: who, kind: t(e.kind), v: vName(e.village)});
    if (e.type === "recruit") {
      return t("e_recruit", {seat: who, what: e.students.map(([k, v]) => `${t(k)} ${vName(v)}`).join(", ")});
    }
    if (e.type === "pass") return t("e_pass", {seat: who});
    return el("div", {}, t("e_journey", {seat: who, a: vName(e.from), b: vName(e.to)}), outcome(e));
  }

  // What a journey does (or would do): the strengths, each traveller's fate, the Stones.
  function outcome(e) {
    const [s, d] = e.strength;
    return el("ul", {class: "plain outcome"},
      el("li", {}, t("strengths", {s, d, ms: e.masters[0], md: e.masters[1]}), " → ",
         el("b", {}, t(e.stronger === "from" ? "from_stronger" : "to_stronger"))),
      e.travellers.map((tr) => el("li", {}, meeple(tr.seat, true), `${t(tr.kind)}: `, el("b", {}, t("fate_" + tr.fate)),
        tr.sent_home.length ? ` · ${t("sends_home", {seats: [...new Set(tr.sent_home)].map(seatName).join(", ")})}` : "")),
      e.stones.map((v) => el("li", {class: "stone-line"}, t("stone_on", {v: vName(v)}))));
  }

  function history(view) {
    if (!view.history.length) return null;
    return el("section", {class: "panel"}, el("h2", {}, t("history")), el("ol", {class: "plain history", reversed: ""},
      view.history.slice().reverse().slice(0, 30).map((e) => el("li", {}, eventLine(e)))));
  }

  // A village's seven spaces, read-only: for the table, and under the map when it is not your turn.
  function villageDetail(view, v, row) {
    const village = view.villages[v];
    const tiles = Object.keys(village.masters).length + Object.keys(village.students).length;
    return el("section", {class: "panel village-detail"},
      el("h2", {}, vName(v), village.stone ? ` · ${t("stone")}` : ""),
      el("p", {}, t("strength_of", {n: tiles, m: Object.keys(village.masters).length})),
      el("ul", {class: "spaces"}, KINDS.map((kind) => el("li", {}, row(kind, village)))));
  }

  const occupant = (kind, village) => el("span", {class: "who"},
    village.masters[kind] === undefined ? el("small", {}, t("free")) : [meeple(village.masters[kind], true), t("master")],
    village.students[kind] === undefined ? null : [" + ", meeple(village.students[kind], true), t("student")]);

  // The map to look at: a tap shows a village's spaces.
  function board(view) {
    const detail = ui.selected === null ? null
      : villageDetail(view, ui.selected, (kind, village) => [el("b", {}, t(kind)), " ", occupant(kind, village)]);
    return [map(view, (v) => { ui.selected = ui.selected === v ? null : v; redraw(); }), legend(), detail];
  }

  function table(view) {
    return [status(view), board(view), players(view), history(view)];
  }

  // The prompt as the map: tap a village, then a space or a bridge.
  function promptPanel(view, prompt, send) {
    const key = JSON.stringify(prompt);
    if (ui.promptKey !== key) Object.assign(ui, {selected: null, recruits: [], journey: null, promptKey: key});
    const me = view.to_act;
    const offered = (action) => prompt.choices.some((c) => same(c.action, action));
    const act = (choose) => attempt(send({seat: me, choose}));
    // A master may take a student when the rules offer it one (a master with a student already is not).
    const teachable = (kind, v) => prompt.choices.some((c) => c.action.choose.recruit &&
      c.action.choose.recruit.some(([k, w]) => k === kind && w === v));
    const box = el("section", {class: "panel prompt"},
      el("h2", {tabindex: "-1"}, t(prompt.title)),
      el("p", {}, el("small", {}, t(view.phase === "setup" ? "how_setup" : "how_play"))));
    const pass = prompt.choices.find((c) => c.action.choose.pass);
    if (pass) {
      box.append(el("p", {}, t("no_action")),
                 el("button", {class: "choice", "data-key": "pass", onclick: () => act({pass: true})}, t("pass")));
      return box;
    }
    box.append(...map(view, (v) => {
      ui.selected = ui.selected === v ? null : v;
      ui.journey = null;
      redraw();
    }));
    if (ui.recruits.length) {
      box.append(el("div", {class: "recruits"}, `${t("recruiting")}: `,
        ui.recruits.map(([k, v]) => `${t(k)} ${vName(v)}`).join(" + "),
        el("button", {class: "choice primary", "data-key": "recruit", onclick: () => act({recruit: ui.recruits})},
           t("confirm_recruit")),
        el("button", {class: "choice back", "data-key": "recruit-cancel", onclick: () => { ui.recruits = []; redraw(); }},
           t("cancel"))));
    }
    if (ui.selected === null) {
      box.append(el("p", {class: "hint"}, t("tap_village")));
      return box;
    }
    const v = ui.selected;
    // A space: empty → place a master there; your own master → add or drop it as a recruit; any other →
    // the rules say why not.
    const tapSpace = (kind, village) => {
      if (teachable(kind, v)) {
        const at = ui.recruits.findIndex(([k, w]) => k === kind && w === v);
        if (at >= 0) ui.recruits.splice(at, 1);
        else if (ui.recruits.length < 2) ui.recruits.push([kind, v]);
        else ui.recruits = [[kind, v]];
        redraw();
        return;
      }
      act({place: kind, village: v});
    };
    box.append(villageDetail(view, v, (kind, village) => {
      const chosen = ui.recruits.some(([k, w]) => k === kind && w === v);
      const placeable = offered({seat: me, choose: {place: kind, village: v}});
      return el("button", {class: "space-button" + (chosen ? " chosen" : "") + (placeable ? " can" : ""),
                           "data-kind": kind, "data-key": `space:${kind}`, "aria-pressed": chosen ? "true" : "false",
                           onclick: () => tapSpace(kind, village)},
        el("b", {}, t(kind)), " ", occupant(kind, village),
        placeable ? el("small", {class: "what"}, t("place_here")) : null,
        teachable(kind, v) ? el("small", {class: "what"}, t(chosen ? "chosen" : "recruit_here")) : null);
    }));
    if (view.phase === "play") {
      // Only the journeys the rules offer (students of this seat here, a bridge standing): none is refused after.
      const bridges = view.bridges.filter(([a, b]) => a === v || b === v).map(([a, b]) => (a === v ? b : a))
        .filter((w) => offered({seat: me, choose: {journey: [v, w]}}));
      box.append(el("div", {class: "bridges"}, el("h3", {}, t("journeys_from", {v: vName(v)})),
        bridges.length ? bridges.map((w) => el("button", {class: "choice" + (ui.journey === w ? " chosen" : ""),
          "data-to": w, "data-key": `journey:${w}`, onclick: () => {
            if (!view.previews.some((p) => p.from === v && p.to === w)) return act({journey: [v, w]});
            ui.journey = w;
            redraw();
          }}, t("journey_to", {v: vName(w)}))) : el("p", {}, el("small", {}, t("no_journeys")))));
      const preview = view.previews.find((p) => p.from === v && p.to === ui.journey);
      if (preview) {
        box.append(el("div", {class: "preview"}, el("h3", {}, t("preview", {a: vName(v), b: vName(ui.journey)})),
          outcome(preview),
          el("button", {class: "choice primary", "data-key": "journey-confirm", onclick: () => act({journey: [v, ui.journey]})},
             t("confirm_journey"))));
      }
    }
    return box;
  }

  function seat(view, me) {
    return [status(view), view.prompt ? legend() : board(view), el("section", {class: "panel"}, el("h2", {}, t("your_supply")),
      el("ul", {class: "plain supply"}, KINDS.map((kind) => el("li", {}, `${t(kind)}: ${view.supply[me][kind]}`)))),
      players(view), history(view)];
  }

  ARBITRO.games.shangrila = {table, seat, promptPanel};
})();

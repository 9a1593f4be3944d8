// The virtual box: clicks become presses on the mock pins (POST /box/press); the OLED image follows the
// table's version. Everything here is served by the box itself.
"use strict";
const oled = document.getElementById("oled");
const statusLine = document.getElementById("status");
const pads = document.getElementById("pads");

const W = JSON.parse(document.getElementById("words").textContent);
const say = (key, values = {}) => W[key].replace(/\{(\w+)\}/g, (_, name) => values[name]);
let frame = null;
let labelsKey = null;



async function press(body, element) {
  element && element.classList.add("pressed");
  try {
    const response = await fetch("/box/press", {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
    });
    const outcome = await response.json();
    statusLine.textContent = outcome.error || outcome.message || "";
    await refresh(true);
  } finally {
    element && element.classList.remove("pressed");
  }
}

function drawPads(layout) {
  const key = JSON.stringify([layout.seats, layout.labels]);
  if (key === labelsKey) return;
  labelsKey = key;
  pads.replaceChildren();
  for (let seat = 0; seat < layout.seats; seat++) {
    const pad = document.createElement("div");
    pad.className = "pad";
    pad.innerHTML = `<h2>${say("seat", {n: seat + 1})}</h2><div class="keys"></div>`;
    for (let button = 1; button <= 8; button++) {
      const key = document.createElement("button");
      key.dataset.seat = seat;
      key.dataset.button = button;
      const label = layout.labels[seat][button - 1] || "";
      key.innerHTML = `<b>${button}</b>`;
      key.append(label);
      key.setAttribute("aria-label", say(label ? "key_does" : "key", {n: seat + 1, b: button, label}));
      key.addEventListener("click", (event) => {
        if (event.detail > 0) key.blur();  // after a mouse click, Enter means the host's OK again
        press({seat, button}, key);
      });
      pad.querySelector(".keys").append(key);
    }
    pads.append(pad);
  }
}

async function refresh(force) {
  const layout = await (await fetch("/box/layout", {cache: "no-store"})).json();
  drawPads(layout);
  if (force || layout.frame !== frame) {
    frame = layout.frame;
    oled.src = "/box/oled.png?frame=" + frame + "-" + Date.now();
  }
}

document.querySelectorAll("[data-host]").forEach((button) =>
  button.addEventListener("click", (event) => {
    if (event.detail > 0) button.blur();
    press(button.dataset.hold ? {host: button.dataset.host, hold: true} : {host: button.dataset.host}, button);
  }));

const shortcuts = {Escape: "menu", ArrowLeft: "prev", ArrowRight: "next", Enter: "ok", u: "undo", U: "undo"};
document.addEventListener("keydown", (event) => {
  const host = shortcuts[event.key];
  if (!host || event.target.closest("[data-seat]")) return;
  event.preventDefault();
  press({host}, document.querySelector(`[data-host="${host}"]:not([data-hold])`));
});

// A box that stopped answering says so, as the phones do; the next answer clears it.
let answering = true;
function answered(ok) {
  if (ok === answering) return;
  answering = ok;
  statusLine.textContent = ok ? "" : say("not_answering");
  document.body.classList.toggle("stopped", !ok);
}
refresh(true);
setInterval(() => refresh(false).then(() => answered(true), () => answered(false)), 500);

// Moneta on the phone: the coin, once tossed (the shared page draws who has called and the pad's prompt).
"use strict";
(() => {
  const {el, tg} = ARBITRO;
  function table(view) {
    return view.coin ? el("p", {class: "moneta"}, tg("moneta", view.coin)) : null;
  }
  ARBITRO.games.moneta = {table};
})();

// The page of a pairing code's link (web_companion/pair_link.py): it sends the key in its address, once, and
// goes on to the seat's page or the host's; a link whose code is over says why and offers the typed code.
"use strict";
(async () => {
  const key = decodeURIComponent(location.pathname.split("/").pop());
  const status = document.getElementById("link-status");
  let answer;
  let response;
  try {
    response = await fetch("/api/pair", {method: "POST", headers: {"Content-Type": "application/json"},
                                         body: JSON.stringify({key}), cache: "no-store"});
    answer = await response.json();
  } catch {  // no answer, or none the box wrote: the network's (the browser's own words would be English)
    answer = {error: status.dataset.unanswered};
  }
  if (response && response.ok) {
    location.replace(answer.host ? "/host" : "/seat");  // replaced: going back never sends the used key again
    return;
  }
  status.textContent = answer.error || status.dataset.unanswered;
  status.classList.add("error");
  document.getElementById("link-failed").hidden = false;
})();

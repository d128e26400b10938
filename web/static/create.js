// The create form makes one game however often it is sent. A second tap while the first
// is on its way is not sent; and the form's id, by which the server knows the form again
// (`pages.form_key`, `store.create_once`), is kept in this page's history entry, so that
// Back to the filled form sends the id it was sent with, even where the browser loads
// the page again (a new id from the server, the typed fields brought back). A page that
// answers a form sent (a mistake in it: the form shown again) takes the address of the
// form's own page (data-page), which Back or a reload loads again, its entry's id kept:
// the address it was sent to, /new, loaded the home page afresh (a new id, a second game).
"use strict";
(function () {
  const form = document.getElementById("new-game");
  const id = form && form.elements.namedItem("form_id");
  if (!id) return;
  // (only on Back or Forward: a reloaded page is a form opened afresh, with its new id)
  const state = history.state || {};
  const nav = performance.getEntriesByType("navigation")[0];
  if (state.formId && nav && nav.type === "back_forward") id.value = state.formId;
  else history.replaceState({ ...state, formId: id.value }, "", form.dataset.page || location.href);
  // (a tap within a few seconds of the last is a double tap; after that, a send the
  // browser stopped, or Back to a page kept whole, may be sent again: it opens the game
  // the form made, if it made one)
  let sentAt = -Infinity;
  form.addEventListener("submit", (ev) => {
    if (performance.now() - sentAt < 3000) ev.preventDefault();
    else sentAt = performance.now();
  });
  window.addEventListener("pageshow", () => { sentAt = -Infinity; });
})();

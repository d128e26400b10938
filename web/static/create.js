// The create form makes one game however often it is sent. A second tap while the first
// is on its way is not sent; and the form's id, by which the server opens the game a form
// already made (`pages.made_by`), is kept in this page's history entry, so that Back to
// the filled form sends the id it was sent with, even where the browser loads the page
// again (a new id from the server, the typed fields brought back).
"use strict";
(function () {
  const form = document.getElementById("new-game");
  const id = form && form.elements.namedItem("form_id");
  if (!id) return;
  const state = history.state || {};
  if (state.formId) id.value = state.formId;
  else history.replaceState({ ...state, formId: id.value }, "");
  form.addEventListener("submit", (ev) => {
    if (form.dataset.sent) ev.preventDefault();
    form.dataset.sent = "1";
  });
  // (Back to a page kept whole in the back-forward cache: it may be sent again, and opens
  // the game it made)
  window.addEventListener("pageshow", () => { delete form.dataset.sent; });
})();

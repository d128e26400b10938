// Rule picker: show the chosen rules' description (with the house rules ticked, as the
// engine describes them) and the preset's default target.
"use strict";
(function () {
  const select = document.getElementById("preset");
  if (!select) return;
  let asked = 0;
  async function show() {
    const mine = ++asked;  // (answers to earlier choices are dropped, even with no tick left)
    const ticked = [...document.querySelectorAll('input[name="toggle"]:checked')].map((t) => t.value);
    const pre = document.querySelector(`pre[data-preset="${select.value}"]`);
    document.querySelectorAll("pre[data-preset]").forEach((p) => { p.hidden = p !== pre; });
    const target = document.getElementById("target");
    if (target) target.placeholder = select.selectedOptions[0].dataset.target;
    if (!pre) return;
    if (pre.dataset.plain === undefined) pre.dataset.plain = pre.textContent;
    if (!ticked.length) { pre.textContent = pre.dataset.plain; return; }
    // (not loaded: the preset's own words, said to leave the house rules out; the words
    // for the ticks before had stayed, under ticks they did not describe)
    const plain = `${pre.dataset.plain}\n\n(The words for the house rules ticked could not be loaded: these are the preset's own.)`;
    try {
      const spec = [select.value, ...ticked].join("+");
      const resp = await fetch(`/api/rules/describe?rules=${encodeURIComponent(spec)}`,
        HotNet.within(10000));
      const body = await resp.json().catch(() => ({}));  // (a proxy's HTML error page)
      if (mine === asked) pre.textContent = resp.ok ? body.description : body.error || plain;
    } catch (e) {
      if (mine === asked) pre.textContent = plain;
    }
  }
  // a house rule ticked is never hidden in the folded list: the browser may bring back a
  // form's ticks (Back, a restored tab) after the page folded them away
  function unfoldTicked() {
    const fold = document.querySelector("details.toggles-fold");
    if (fold && fold.querySelector('input[name="toggle"]:checked')) fold.open = true;
  }
  select.addEventListener("change", show);
  document.querySelectorAll('input[name="toggle"]').forEach((t) => t.addEventListener("change", show));
  // (a page brought back from the back-forward cache runs no script again; a first load's
  // pageshow would only ask for the same words twice)
  window.addEventListener("pageshow", (ev) => { if (ev.persisted) { unfoldTicked(); show(); } });
  unfoldTicked();
  show();
})();

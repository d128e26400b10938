// Rule picker: show the chosen preset's description and default target.
"use strict";
(function () {
  const select = document.getElementById("preset");
  if (!select) return;
  function show() {
    document.querySelectorAll("pre[data-preset]").forEach((pre) => {
      pre.hidden = pre.dataset.preset !== select.value;
    });
    const target = document.getElementById("target");
    if (target) target.placeholder = select.selectedOptions[0].dataset.target;
  }
  select.addEventListener("change", show);
  show();
})();

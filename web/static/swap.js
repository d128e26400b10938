// Replace a part of the page with a fresh copy of it, but keep one element of it the very
// node it is: a phone closes its keyboard when the focused field leaves the page, and
// focusing the new one from a script opens it again only in some browsers (iOS Safari not,
// outside a tap). The kept element's ancestors are updated in place around it instead.
"use strict";
(function () {
  // [el, its parent, ..., top]; null when el is not inside top
  function pathUp(el, top) {
    const path = [el];
    while (path[path.length - 1] !== top) {
      const up = path[path.length - 1].parentElement;
      if (!up) return null;
      path.push(up);
    }
    return path;
  }

  // `old` (on the page) becomes `fresh` (not on the page); `keep`, inside old, stays, in the
  // place of `twin`, its counterpart inside fresh, with twin's attributes (its value and
  // caret are the user's). Where the two paths down to them differ in shape, or there is
  // nothing to keep, old is simply replaced. Returns whether `keep` was kept.
  function replaceKeeping(old, fresh, keep, twin) {
    const mine = keep && twin ? pathUp(keep, old) : null;
    const theirs = mine ? pathUp(twin, fresh) : null;
    if (!theirs || mine.length !== theirs.length || mine.some((el, i) => el.tagName !== theirs[i].tagName)) {
      old.replaceWith(fresh);
      return false;
    }
    for (let i = mine.length - 1; i >= 0; i--) {  // (from the top down)
      const [was, now] = [mine[i], theirs[i]];
      for (const a of [...was.attributes]) if (!now.hasAttribute(a.name)) was.removeAttribute(a.name);
      for (const a of [...now.attributes]) if (was.getAttribute(a.name) !== a.value) was.setAttribute(a.name, a.value);
      if (i === 0) break;  // (the kept element's own children are its own)
      const [stay, itsTwin] = [mine[i - 1], theirs[i - 1]];
      while (was.firstChild !== stay) was.firstChild.remove();
      while (stay.nextSibling) stay.nextSibling.remove();
      const kids = [...now.childNodes];
      const at = kids.indexOf(itsTwin);
      stay.before(...kids.slice(0, at));
      stay.after(...kids.slice(at + 1));
    }
    return true;
  }

  window.HotSwap = {replaceKeeping};
})();

// Requests given up after a time: a phone changing networks can leave one unanswered for
// good, and a page waiting on it took no taps and polled no more. AbortSignal.timeout
// where the browser has it (Safari 16, Chrome 103, Firefox 100); before, an
// AbortController aborted by a timer, with the same TimeoutError where it takes a reason.
"use strict";
window.HotNet = {
  within(ms) {
    if (typeof AbortSignal !== "undefined" && typeof AbortSignal.timeout === "function") {
      return {signal: AbortSignal.timeout(ms)};
    }
    if (typeof AbortController !== "function") return {};  // (no way to give up: waits)
    const control = new AbortController();
    setTimeout(() => control.abort(new DOMException("signal timed out", "TimeoutError")), ms);
    return {signal: control.signal};
  },
  // (a timer that aborts without a reason rejects as an AbortError)
  timedOut(e) { return Boolean(e) && (e.name === "TimeoutError" || e.name === "AbortError"); },
};

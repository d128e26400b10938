// The game page: poll with ETags, swap in the fresh sheet, send version-checked actions.
"use strict";
(function () {
  const root = document.getElementById("game");
  if (!root) return;
  const gameId = root.dataset.id;
  const token = root.dataset.token;
  const pollMs = parseInt(root.dataset.poll || "1000", 10);
  const toast = document.getElementById("toast");
  // the late-join banner greets an arrival once: a reload of the same address is no arrival
  const here = new URL(location.href);
  if (here.searchParams.get("joined") === "late") {
    here.searchParams.set("joined", "1");
    history.replaceState(history.state, "", here.href);
  }
  let etag = null;
  let busy = false;
  // when this phone's action passes the turn (or undoes one), or another phone's action
  // changes the sheet, a tap meant for the old sheet's button would land on the new one's
  // (the next player's Busted, an Undo of the other phone's action): the fresh sheet's
  // buttons wait a moment (greyed) before they take taps
  const SETTLE_MS = 800;
  let settleUntil = 0;
  let refocus = null;  // (a control given the focus back while greyed: it takes it once not)
  let settles = 0;
  function settle(sheet, ms) {
    settleUntil = Math.max(settleUntil, Date.now() + ms);
    // (a kept pad's buttons are its own to enable, as its dice stand: `keepPad`; its Roll
    // waits for the settling itself. Its Bank, which records as the sheet's buttons do and
    // which the pad never enables, is greyed with them: live, a tap sent nothing)
    const held = [...sheet.querySelectorAll("button:not(:disabled)")]
      .filter((b) => !b.closest(".pad[data-kept]") || b.matches("[data-event]"));
    held.forEach((b) => { b.disabled = true; });
    const mine = ++settles;
    setTimeout(() => {
      held.forEach((b) => { b.disabled = false; });
      if (mine !== settles) return;  // (a later settle, its control still greyed, gives it)
      if (refocus && refocus.isConnected && !refocus.disabled && document.activeElement === document.body) {
        refocus.focus({preventScroll: true});
      }
      refocus = null;
    }, ms);
  }

  // the fresh sheet's counterpart of the control that had the focus (a keyboard's or a
  // screen reader's place: the swap had left it on the page): a fold or
  // a die's face, which record nothing. Never a button that acts (Busted, a keep, Roll,
  // Undo): its twin is the next player's, or takes back the other phone's action.
  function twinIn(fresh, el) {
    if (!(el instanceof Element) || el.isConnected) return null;
    if (el.tagName === "SUMMARY" && el.parentElement.id) {
      return fresh.querySelector(`#${CSS.escape(el.parentElement.id)} > summary`);
    }
    const face = el.getAttribute("data-face");
    return face === null ? null : fresh.querySelector(`.pad [data-face="${CSS.escape(face)}"]`);
  }
  // when a write's answer never came back: recorded or not, the next poll sent after tells
  // (and a write sent again after a wrong guess is refused as stale: the version is checked;
  // a join, never stale while only joins came since, is refused as a name already playing)
  let unanswered = 0;
  // when a write was last found not to have arrived: one held on its way (a write waits up
  // to 10 s) could still land, and the sheet then changed without a word under a phone
  // told to enter it again; a change soon after is "check" (CHECK_YOURS)
  let doubted = 0;
  const DOUBT_MS = 30000;
  // the version this phone's own last write made: a 409 at that version is a double tap's
  // second, not another phone's action
  let ownVersion = -1, ownAt = 0;
  const AGAIN_MS = 1500;  // (a second tap comes within this of the first's answer)
  const SENDING_MS = 1000;  // (a write slower than this says it is on its way)
  // the target question's time, and how long it is shown before Banked again answers it: a
  // double tap on Banked had recorded 12,000 for 1,200 and started the final round unasked
  let askedAt = 0;
  const READ_FIRST_MS = 500;
  const CHECK_YOURS = "The sheet has changed: check whether it shows your last action before you enter it again.";
  // a request that never answers (a phone changing networks) is given up, as a network
  // failure: a write left waiting had held every tap and poll, and one hung poll had
  // stopped polling for good
  const WITHIN_MS = 10000;
  const within = (ms = WITHIN_MS) => HotNet.within(ms);

  // the database file the sheet is from (a backup put back: versions counted again)
  function epoch() { return document.getElementById("sheet").dataset.epoch || ""; }
  // the page loaded again from the file put back, and told why once it has (the scores
  // had jumped back and an entry under way gone, without a word)
  const RESTORED = "hotdice-restored";
  function restored() {
    try { sessionStorage.setItem(RESTORED, "1"); } catch (e) { /* (private mode: unsaid) */ }
    location.reload();
  }
  function version() {
    return parseInt(document.getElementById("sheet").dataset.version, 10);
  }

  // the toast, and the same words for a screen reader: a live region shown already filled
  // is not read out, so they go to one that is always there (#announce)
  const announce = document.getElementById("announce");
  // a live region given `words` to read out (emptied first: the same words twice in a row
  // are otherwise not read out again); the timer, for a caller to cancel
  function fill(region, words) {
    region.textContent = "";
    return setTimeout(() => { region.textContent = words; }, 50);
  }
  // (`sticky`: shown until something else is said or it is hidden, not 4 s: "Sending…")
  function say(message, bad, sticky = false) {
    say.count = (say.count || 0) + 1;
    delete toast.dataset.undoes;
    toast.textContent = message;
    clearTimeout(say.spoken);
    say.spoken = fill(announce, message);
    toast.className = bad ? "toast bad" : "toast";
    toast.hidden = false;
    clearTimeout(say.timer);
    if (!sticky) say.timer = setTimeout(() => { toast.hidden = true; }, 4000);
  }
  toast.addEventListener("click", () => { toast.hidden = true; });  // (it covers buttons)

  // Another phone's action, for a screen reader (politely, unseen): the sheet changed
  // under it without a word, a blind player never told "Bob banked 650: Ann's turn". The
  // turns ended since (`turns` before) as the history says them, a round's at the most
  // (back after a while, every turn since had been read out in one breath), then the turn
  // line (or the winner); before the first turn, the players as seated (a join had been
  // said as "Ann's turn", with play not begun).
  const heard = document.getElementById("heard");
  function spoken(el) {  // (as a screen reader says it: no "▶", hidden from it)
    const said = el.cloneNode(true);
    said.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
    return said.textContent.replace(/\s+/g, " ").trim();
  }
  function hear(turns) {
    const sheet = document.getElementById("sheet");
    let words;
    if (sheet.dataset.started !== "1") {
      const seating = sheet.querySelector("#seating");
      words = seating ? [`Players: ${spoken(seating).replace(/ → /g, ", ")}`] : [];
    } else {
      const ended = [...sheet.querySelectorAll("#history ol > li")].slice(turns);
      const round = Math.max(1, parseInt(sheet.dataset.players || "1", 10));
      const now = sheet.querySelector("#winner h2, #turn-line");
      words = [...(ended.length > round ? [`${ended.length} turns since; the last ${round}`] : []),
        ...ended.slice(-round).map(spoken), now ? spoken(now) : ""];
    }
    fill(heard, words.filter(Boolean).join(". "));
  }

  // a phone that cannot reach the scoresheet says so, and since when: its sheet, left as
  // it was, had looked current while the other phones played on (20 s
  // offline, or the server stopped, without a word); two polls in a row failed: about 2 s offline
  // or with the server stopped, up to 20 s where each hangs until given up (`WITHIN_MS`)
  const offline = document.getElementById("offline");
  const outOfTouch = {since: 0, failed: 0, said: 0};
  // It lies over the page's top (fixed, as the toast is, which then goes below it): in the
  // page, it moved every button under the thumb as it came and went (an accessibility
  // review); focus is scrolled clear of it (`--offline-h`, style.css), and the header it
  // covers takes none while it shows (inert). `ok`: a poll was answered; else `unanswered`:
  // no answer at all, or an error status.
  const header = document.querySelector("header.bar");
  function barHeight() {
    if (offline.hidden || !offline.textContent) return;
    document.documentElement.style.setProperty("--offline-h", `${offline.offsetHeight}px`);
    // (the header takes no focus where the bar covers it: not a wide screen's, beside it)
    if (header) header.inert = offline.offsetWidth >= header.offsetWidth;
  }
  if (typeof ResizeObserver === "function") new ResizeObserver(barHeight).observe(offline);
  function reached(ok, {unanswered = true} = {}) {
    if (ok) {
      outOfTouch.since = outOfTouch.failed = 0;
      if (offline.hidden) return;
      offline.hidden = true;
      offline.textContent = "";
      if (header) header.inert = false;
      document.documentElement.style.removeProperty("--offline-h");
      // (not over what was said meanwhile: "Another phone was quicker" had gone so)
      if (say.count === outOfTouch.said) say("Back in touch with the scoresheet.");
      return;
    }
    outOfTouch.since = outOfTouch.since || Date.now();
    if (++outOfTouch.failed < 2 || !offline.hidden) return;  // (said once an outage)
    const at = new Date(outOfTouch.since).toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"});
    offline.hidden = false;  // (shown empty, then filled: a region shown filled is not read)
    setTimeout(() => {
      if (offline.hidden) return;
      // (a server that answers with an error is reached: not "offline")
      offline.textContent = unanswered ? `Offline since ${at}: the sheet may be out of date.`
        : `The scoresheet has not answered since ${at}: the sheet may be out of date.`;
      outOfTouch.said = say.count;
      barHeight();
    }, 50);
  }

  // a bust in words: why, when the rules make it a dispute, the turn total it cost (a
  // rolled turn's, `lost`) and the strike-out penalty
  function bustWords(h, lost = 0) {
    const why = h.reason && h.reason !== "nothing to keep" ? ` (${h.reason})` : "";
    const cost = lost ? `, losing the ${lost.toLocaleString("en")} of the turn` : "";
    const penalty = h.penalty ? `, and loses ${h.penalty.toLocaleString("en")}: the penalty for busting again and again`
      : h.strike ? ", and the penalty for busting again and again takes nothing from 0: the ✗ marks start again" : "";
    return `${h.player} busted${why}${cost}: 0 this turn${penalty}.`;
  }

  // whose turn it is now, for a message in the toast, which covers the top of the screen
  // where the sheet names the player to act (the next player's quick entry after a bust);
  // nothing before play starts (a roll for first player), after it ends, or where the
  // sheet did not come back after this phone's action (`refreshed`: it still shows the
  // player who busted)
  function nextUp(refreshed = true) {
    const sheet = document.getElementById("sheet");
    const playing = sheet.dataset.started === "1" && sheet.dataset.phase !== "over";
    if (!refreshed || !playing || !sheet.dataset.current) return "";
    // (a 5150's bonus roll is no turn: not "Ann's turn now" before it)
    return sheet.dataset.phase === "bonus" ? ` ${sheet.dataset.current}'s 5150 bonus roll now.`
      : ` ${sheet.dataset.current}'s turn now.`;
  }

  function bonusWords(h) {
    return h.bust ? `${h.player}'s 5150 bonus roll scores nothing: ${h.score.toLocaleString("en")} stays.`
      : `${h.player}'s 5150 bonus roll: +${h.points.toLocaleString("en")}.`;
  }

  // Undo asked about once (a finished game whose rematch is set up): when, on which version
  let undoAsked = {version: -1, at: 0};
  const UNDO_ASK_MS = 10000, DOUBLE_TAP_MS = 600;

  // a watching screen follows the table to its rematch (a wall nobody touches had stayed
  // on the old game's winner), once it has shown the winner a while; not one opened
  // after the rematch was set up, to look back at the old game
  const FOLLOW_MS = 10000;
  function followRematch(fresh, hadLink) {
    const link = fresh.querySelector("#rematch-open");
    if (!link && followRematch.timer) {  // (its game's end taken back meanwhile: it stays)
      clearTimeout(followRematch.timer);
      followRematch.timer = null;
    }
    if (token || hadLink || !link || followRematch.timer) return;
    say(`Rematch set up: this screen opens game ${link.dataset.game} in ${FOLLOW_MS / 1000} s.`, false, true);
    followRematch.timer = setTimeout(() => location.assign(link.href), FOLLOW_MS);
  }

  function turnKey(sheet) { return `${sheet.dataset.turns}|${sheet.dataset.current}|${sheet.dataset.phase}`; }

  // What this phone may have typed or picked and not sent, keyed by what it is for: a
  // name being added is kept whatever else changed (the table joins at once), points typed
  // for the same turn, a first-player die for the same round of the roll-off (its ties and
  // seatings recorded so far: the tie's words repeat from round to round).
  function fields(sheet) {
    const first = sheet.querySelector("#first");
    return [
      ["name", sheet.querySelector('#add-player input[name="name"]')],
      [`points|${turnKey(sheet)}`, sheet.querySelector("#quick-points")],
      ...[...sheet.querySelectorAll("#first select:not(:disabled)")]
        .map((s) => [`first|${s.name}|${first.dataset.round}`, s]),
    ].filter(([, el]) => el);
  }

  // what `field` holds, as send() takes it: [[its fields() key, its value]]
  function sent(field) {
    const entry = fields(document.getElementById("sheet")).find(([, el]) => el === field);
    return entry ? [[entry[0], field.value]] : [];
  }

  // What a roll pad was made for: the turn, its total and steps so far (a free re-roll, the
  // hard six's, changes nothing else) and the pad as the server drew it.
  // A fresh sheet's pad made for the same is the same pad (another phone's join, or its
  // action taken back), and this phone's is kept, the very node, with the dice tapped or
  // read on it and a photo still being read; any other pad is for a roll another phone
  // recorded or took back, and the dice on this one go. (The whole sheet is swapped on
  // every change: a join before the first turn had emptied the pad of the player to roll.)
  const padFor = new WeakMap();
  function padKey(sheet, pad) {
    return `${turnKey(sheet)}|${sheet.dataset.total}|${sheet.dataset.steps}|${pad.outerHTML}`;
  }
  function keepPad(oldPad, fresh, focused) {
    const pad = fresh.querySelector(".pad");
    if (!oldPad || !pad || padFor.get(oldPad) !== padKey(fresh, pad)) return false;
    pad.replaceWith(oldPad);
    oldPad.dataset.kept = "1";  // (not settled: a tap on it is meant for what it still is)
    if (oldPad.contains(focused)) focused.focus({preventScroll: true});
    return true;
  }

  // carry this phone's entries (and the field it is in) over to the fresh sheet; true if
  // one had nowhere to go (dice tapped on a pad not kept go: `keepPad`)
  function carryOver(kept, focused, padDice, fresh) {
    const there = new Map(fields(fresh));
    let lost = padDice;
    for (const [key, el] of kept) {
      const field = there.get(key);
      if (!field) { lost = lost || Boolean(el.value.trim()); continue; }
      if (field === el) continue;  // (the field typed in, kept by swapSheet)
      field.value = el.value;
      if (el === focused) {
        field.focus();
        if (field.setSelectionRange) field.setSelectionRange(el.selectionStart, el.selectionEnd);
      }
    }
    return lost;
  }

  // Put the fresh sheet (its HTML) in the old one's place, keeping the text field being
  // typed in (`typing`: its fields() key and element) where the fresh sheet has the same
  // entry. Handlers are delegated (below), so no kept node needs wiring twice.
  function swapSheet(sheet, fresh, typing) {
    const twin = typing ? new Map(fields(fresh)).get(typing.key) : null;
    HotSwap.replaceKeeping(sheet, fresh, twin ? typing.el : null, twin);
  }

  // the fresh sheet: null when it could not be fetched, else whether an entry under way
  // was `lost` (what this phone was entering is carried over, whoever's change it was:
  // an Undo or a join on this phone keeps a name half-typed, as another phone's does);
  // `hold` ("turn", or "always" after an undo or a 409) settles it after this phone's own
  // action; null (another phone's change, brought by a poll) once play has started
  async function refresh(hold) {
    const resp = await fetch(`/g/${gameId}/sheet${root.dataset.watch ? "?watch=1" : ""}`, {cache: "no-store", ...within()});
    if (!resp.ok) return null;
    const made = document.createElement("template");
    made.innerHTML = (await resp.text()).trim();
    const incoming = made.content.firstElementChild;
    if ((incoming.dataset.epoch || "") !== epoch()) {  // (a backup put back: see `poll`)
      restored();
      return null;
    }
    // a sheet fetched slowly can come after a newer one this phone shows (its own action's):
    // it would roll the screen back a version, and a tap on it be refused as another phone's
    if (parseInt(incoming.dataset.version, 10) < version()) return {lost: false};
    const sheet = document.getElementById("sheet");
    const wasOpen = sheet.querySelector("#history") && sheet.querySelector("#history").open;
    const before = turnKey(sheet);
    const phaseBefore = sheet.dataset.phase;
    const offered = Boolean(sheet.querySelector("#takeover"));
    const hadRematch = Boolean(sheet.querySelector("#rematch-open"));
    const focused = document.activeElement;  // (gone with the old sheet, unless typed in)
    const kept = fields(sheet).filter(([, el]) => el.value.trim() || el === focused);
    // (dice on the pad, or a photo of them being read: lost with a pad not kept)
    const padDice = Boolean(sheet.querySelector(".pad [data-i], .pad[data-reading]"));
    const complaint = sheet.querySelector("#quick-error:not([hidden])");  // (on points kept)
    const said = complaint ? complaint.textContent : "";
    const asked = sheet.querySelector("#quick")?.dataset.confirmed;  // (its target question)
    const typed = kept.find(([, el]) => el === focused && el.tagName === "INPUT");
    const oldPad = sheet.querySelector(".pad");
    swapSheet(sheet, incoming, typed ? {key: typed[0], el: typed[1]} : null);
    const fresh = document.getElementById("sheet");
    const samePad = keepPad(oldPad, fresh, focused);
    const lost = carryOver(kept, focused, padDice && !samePad, fresh);
    const quick = fresh.querySelector("#quick");
    if (said && quick && quick.querySelector("input[name=points]").value.trim()) {
      quickProblem(quick, said);
      if (asked) quick.dataset.confirmed = asked;  // (its question asked: the answer stands)
    }
    if (wasOpen && fresh.querySelector("#history")) fresh.querySelector("#history").open = true;
    // once play starts the invite folds away below the sheet, as a reload would place it,
    // so the player to act sees the controls, not the QR code
    const share = root.querySelector("details.share");
    if (share && fresh.dataset.started === "1" && share.compareDocumentPosition(fresh) & Node.DOCUMENT_POSITION_FOLLOWING) {
      share.open = false;
      fresh.after(share);
    }
    wire();
    followRematch(fresh, hadRematch);
    if (hold) showOwnResult(fresh, phaseBefore);
    else if (fresh.dataset.phase === "over" && phaseBefore !== "over") {
      // (the game won on another phone: the winner in view here too, not above the screen)
      fresh.querySelector("#winner")?.scrollIntoView({block: "start"});
    } else if (!offered) showOffer(fresh);
    // (another phone's change, `hold` null, or "always" when it beat this phone's own
    // action, settles it whatever it was once play has started: a tap meant for the sheet
    // as it was would score the next player or undo the other phone's action. So does this
    // phone's own action in play, "turn": a double tap on Roll had kept the die the keeps
    // put under the finger, and one on a keep banked. Before the first turn joins come and
    // go, and never clash with what this phone enters.)
    const playing = fresh.dataset.started === "1";
    if (hold === "always" || playing || (hold === "turn" && turnKey(fresh) !== before)) {
      settle(fresh, SETTLE_MS);
    } else if (Date.now() < settleUntil) settle(fresh, settleUntil - Date.now());  // (still settling)
    // (another phone's change only: after this phone's own, the twin of the button pressed
    // is the next action's, Busted for the next player)
    // (another phone's action: "Undo if that was a slip" would now take that one back)
    // (not this phone's own version come by a poll, its own sheet late: Undo is still its)
    const others = parseInt(fresh.dataset.version, 10) !== ownVersion;
    if (hold === null && others && toast.dataset.undoes && !toast.hidden) toast.hidden = true;
    const twin = hold === null && document.activeElement === document.body ? twinIn(fresh, focused) : null;
    if (twin && twin.disabled) refocus = twin;
    else if (twin) twin.focus({preventScroll: true});
    // after this phone's own action, the control pressed gone with the old sheet: focus on
    // the turn line (or the winner), which a screen reader then reads, where it had been
    // dropped to the page's top, the action's outcome unsaid (an accessibility review)
    if (hold !== null && document.activeElement === document.body && focused instanceof Element
        && !focused.isConnected) {
      const place = fresh.querySelector("#winner h2, #turn-line");
      if (place) place.focus({preventScroll: true});
    }
    return {lost};
  }

  // after this phone's own action, what it did is in view: a new phase's banner (the final
  // round, a tie-break, the winner) where the phase moved, else the controls (the roll's
  // keeps), whenever they start above the screen (a sheet grown by a roll's keeps or a
  // row had left them there); nothing moves when they are in view or below it
  function showOwnResult(fresh, phaseBefore) {
    const moved = fresh.dataset.phase !== phaseBefore;
    const headline = moved ? fresh.querySelector("#winner, .banner.final") : null;
    const target = headline || fresh.querySelector("#controls") || fresh.querySelector("#takeover");
    if (target && (headline || target.getBoundingClientRect().top < 0)) {
      target.scrollIntoView({block: "start"});
    }
  }

  // a takeover offer made by another phone's bank: in view, as it hides the pad until it
  // is answered (a phone left scrolled down to its pad saw no button, and seemed stuck)
  function showOffer(fresh) {
    const offer = fresh.querySelector("#takeover");  // (answered here: a watching screen
    if (!offer || !offer.querySelector("button")) return;  // is left where it was read)
    const box = offer.getBoundingClientRect();
    if (box.top < 0 || box.bottom > innerHeight) offer.scrollIntoView({block: "start"});
  }

  // the newest rows and the current player's column in view: with many players the table
  // scrolls sideways, and then every total is also given on one line above it
  const WALL = "(min-width: 700px) and (min-height: 500px)";  // (style.css's main.watching)
  const onWall = () => Boolean(document.querySelector("main.watching")) && matchMedia(WALL).matches;
  // (a watching screen on a tablet or a television, never scrolled: the table ends above
  // the window's foot, its newest row in view, not below it; and keeps at least its head
  // and newest row: a tall card above it, a long last turn's, had left that row half under
  // the head. The card's list of rolls gives up the room then, scrolled within itself to
  // its newest lines: the window itself is never scrolled, which had left the turn line
  // above the screen for good once the card shrank again)
  function fitWall(wrap) {
    const steps = [...document.querySelectorAll("#sheet .turn-so-far .steps")].pop();
    if (steps) steps.style.maxHeight = "";
    if (!onWall()) { wrap.style.maxHeight = ""; return; }
    const head = wrap.querySelector("thead")?.offsetHeight || 0;
    const row = wrap.querySelector("tbody tr:last-child")?.offsetHeight || 0;
    const least = Math.max(160, head + row + 4);
    let room = innerHeight - wrap.getBoundingClientRect().top - window.scrollY - 16;
    const line = steps ? steps.querySelector("li")?.offsetHeight || 0 : 0;
    const cut = steps ? Math.min(least - room, steps.offsetHeight - line - 4) : 0;  // (its last line kept)
    if (cut > 0) {
      steps.style.maxHeight = `${steps.offsetHeight - cut}px`;
      steps.scrollTop = steps.scrollHeight;
      room += cut;
    }
    wrap.style.maxHeight = `${Math.max(least, room)}px`;
  }
  // every total on one line above a table that scrolls sideways (first: shown, it makes
  // the table shorter); whether it does
  function showStandings(wrap) {
    const wide = wrap.scrollWidth > wrap.clientWidth;
    const standings = document.querySelector("#sheet #standings");
    if (standings) standings.hidden = !wide;
    return wide;
  }
  function showCurrent() {
    const wrap = document.querySelector("#sheet .sheet-wrap");
    if (!wrap) return;
    const wide = showStandings(wrap);
    fitWall(wrap);
    wrap.scrollTop = wrap.scrollHeight;
    const th = wrap.querySelector("th.current");
    if (th && wide) wrap.scrollLeft = th.offsetLeft - (wrap.clientWidth - th.offsetWidth) / 2;
  }

  async function poll() {
    if (!document.hidden && !busy) {
      try {
        const asked = Date.now();
        const had = version();  // (the server had that many rows before this was asked)
        const headers = etag ? {"If-None-Match": etag} : {};
        let resp;
        try {
          resp = await fetch(`/api/games/${gameId}`, {headers, cache: "no-store", ...within()});
        } finally {
          reached(Boolean(resp) && (resp.status === 200 || resp.status === 304), {unanswered: !resp});
        }
        let moved = false;
        if (resp.status === 404) {  // (a backup put back from before the game was made:
          restored();  // the page says it is gone, where the sheet had waited, "not answered")
          return;
        }
        if (resp.status === 200) {
          // the ETag is kept only once this phone shows that version: a 304 then means
          // that the sheet on screen is the server's
          const tag = resp.headers.get("ETag");
          const body = await resp.json();
          // a backup put back: its versions are other rows, the sheet on screen perhaps
          // newer than any of them; so is one copied over the file while the server was
          // stopped, which keeps the epoch, but a game's rows are never taken away
          if ((body.epoch || "") !== epoch() || body.version < had) {
            restored();
            return;
          }
          moved = body.version !== version();
          if (!moved) etag = tag;
          if (moved && !busy) {  // (this phone's own action refreshes itself)
            // another phone acted: say so if this one had an entry under way that the
            // fresh sheet has no place for (points typed for a turn now over, dice tapped)
            const turns = parseInt(document.getElementById("sheet").dataset.turns || "0", 10);
            const said = say.count;
            const fresh = await refresh(null);
            if (!fresh) return;  // (the finally polls again)
            // a turn taken back elsewhere: this phone's message may be about that very turn
            // (not one said while the sheet was fetched: a tap's answer meanwhile)
            const fewer = parseInt(document.getElementById("sheet").dataset.turns || "0", 10) < turns;
            if (fewer && say.count === said) toast.hidden = true;
            etag = tag;
            // (another phone's Undo is said here too: a roll gone from under the keeps
            // being chosen, with no word of why, looked like a fault)
            const undone = document.getElementById("sheet").dataset.undone;
            // (this phone's own last action, its sheet come late, is no other phone's)
            const own = body.version === ownVersion;
            const change = own ? "The sheet caught up with your last action"
              : undone ? `Another phone's Undo took back ${undone}` : "Another phone changed the sheet";
            if (unanswered || Date.now() - doubted < DOUBT_MS) {
              unanswered = doubted = 0;
              say(CHECK_YOURS, true);
            } else if (fresh.lost) {
              const now = document.getElementById("sheet").dataset;  // (a game won: no turn)
              const next = now.phase === "over" ? " The game is over."
                : now.started === "1" ? " Check whose turn it is." : "";
              say(`${change}: your entry was cleared.${next}`, true);
            } else if (undone && !own) say(`${change}.`);
            if (say.count === said && !own) hear(turns);
          }
        }
        if (unanswered && unanswered < asked && !busy && !moved && (resp.status === 304 || resp.status === 200)) {
          // still the version the lost write was sent on: it never arrived
          unanswered = 0;
          doubted = Date.now();  // (a write held on its way may still land: `DOUBT_MS`)
          const lostWords = "Your last action did not reach the scoresheet: enter it again.";
          say(lostWords, true);
          // (and the field's "may or may not be recorded", which would wait on forever; the
          // field's alert says it then, so it is not read out twice)
          const waiting = document.getElementById("quick-error");
          if (waiting && waiting.textContent.includes("may or may not")) {
            waiting.textContent = lostWords;
            clearTimeout(say.spoken);
            announce.textContent = "";
          }
        }
      } catch (e) { /* offline for a moment: try again next tick */ }
    }
  }
  async function pollLoop() {
    try { await poll(); } finally { setTimeout(pollLoop, pollMs); }
  }

  // the answer's body (its `cleared`: an entry the fresh sheet had no place for), null
  // when refused, undefined when not sent (busy, or settling); `entered`, [key, value]
  // pairs of fields() (what was sent), are emptied once it is recorded, before the fresh
  // sheet comes: never carried over, nor sent twice
  async function send(path, body, entered = []) {
    if (busy || Date.now() < settleUntil) return undefined;
    busy = true;
    // an error said about an earlier try goes once this one is recorded (it had stayed
    // over the fresh sheet: "did not reach ... enter it again", after it was)
    const staleError = !toast.hidden && toast.classList.contains("bad") ? say.count : 0;
    let sending = 0;
    const slow = setTimeout(() => { say("Sending…", false, true); sending = say.count; }, SENDING_MS);
    const answered = () => {  // ("Sending…" ends with the answer, before anything is said)
      clearTimeout(slow);
      if (sending && say.count === sending) toast.hidden = true;
      sending = 0;
    };
    try {
      let resp;
      try {
        resp = await fetch(`/api/games/${gameId}/${path}`, {
          method: "POST", cache: "no-store",
          headers: {"Content-Type": "application/json", "Authorization": "Bearer " + token},
          body: JSON.stringify({version: version(), epoch: epoch(), ...body}), ...within(),
        });
      } catch (e) {
        answered();
        // the write may have been recorded and only its answer lost: the next poll tells
        unanswered = Date.now();
        say("No answer from the scoresheet (network?): your action may or may not be recorded. Wait for the sheet to update before trying again.", true);
        return null;
      }
      // a write sent again after a lost answer: stale if it was recorded (a join is never
      // stale, but its name is then taken)
      const lost = unanswered;
      unanswered = 0;
      const out = await resp.json().catch(() => ({}));
      answered();
      if (resp.status >= 500 && resp.status !== 503) {
        // (a proxy's 502 or 504, a server's fault: recorded or not, the next poll tells;
        // a 503 is the server's own "nothing recorded, try again")
        unanswered = Date.now();
        say(`Server error (HTTP ${resp.status}): your action may or may not be recorded. Wait for the sheet to update.`, true);
        return null;
      }
      // a 409 soon after "did not reach": this phone's own write, held on its way, landed
      const held = Date.now() - doubted < DOUBT_MS;
      const quicker = resp.status === 409 && !lost && !held;  // (said once the sheet is fresh)
      // (this phone's own version: a double tap's second, just after the first's answer;
      // later, a tap on a sheet left behind when the first's fresh sheet did not come)
      const mine = quicker && out.version === ownVersion;
      const again = mine && Date.now() - ownAt < AGAIN_MS;
      if (resp.status === 409 || (lost && path === "players" && resp.status === 422)) {
        if (held) doubted = 0;
        if (!quicker) say(CHECK_YOURS, true);
      } else if (!resp.ok) say(out.error || `The scoresheet refused it (HTTP ${resp.status}).`, true);
      if (resp.ok) {
        doubted = 0;
        ownVersion = out.version;
        ownAt = Date.now();
        if (staleError && say.count === staleError) toast.hidden = true;
        // (looked up now: a poll's swap meanwhile may have replaced the field)
        const now = new Map(fields(document.getElementById("sheet")));
        entered.forEach(([key, value]) => {
          const el = now.get(key);
          if (el && el.value === value) el.value = "";  // (not what was typed since)
        });
      }
      let fresh = null;
      if (resp.ok || resp.status === 409) {
        try {
          // (an undo, or another phone's action that beat this one: 409)
          fresh = await refresh((path === "undo" && resp.ok) || resp.status === 409 ? "always" : "turn");
        } catch (e) { /* answered, but the sheet did not come: the next poll brings it */ }
      }
      if (again) {
        // (nothing more: what the first tap's answer said stays; "another phone was
        // quicker" had replaced it, and there was no other phone)
      } else if (mine) {
        say("Not recorded: this phone's sheet was behind (your last action is recorded)." + (fresh ? nextUp() : "") + " Check the sheet before you enter anything again.", true);
      } else if (quicker) {
        say("Another phone was quicker: yours was not recorded." + (fresh ? nextUp() + " Check the sheet" : " Check the sheet (whose turn it is now)") + " before you enter anything again.", true);
      } else if (resp.ok && !fresh) {
        // (recorded, but the sheet it made did not come: the old turn stayed on screen)
        say("Recorded. The sheet will show it when the connection is back.");
      }
      if (resp.ok && out) {
        out.cleared = Boolean(fresh && fresh.lost);  // (an entry it had no place for)
        out.refreshed = Boolean(fresh);  // (the sheet on screen is the one the write made)
      }
      return resp.ok ? out : null;
    } finally {
      answered();
      busy = false;
    }
  }

  async function event(ev, entered) {
    const before = parseInt(document.getElementById("sheet").dataset.turns || "0", 10);
    const total = parseInt(document.getElementById("sheet").dataset.total || "0", 10);
    const out = await send("events", {event: ev}, entered);
    const hist = out && out.state ? out.state.history : [];
    const last = hist.length > before ? hist[hist.length - 1] : null;
    if (ev.type === "roll" && last && last.kind === "bonus") {
      say(bonusWords(last));
    } else if (ev.type === "roll" && last && last.bust) {
      say("Bust! " + bustWords(last, total) + nextUp(out.refreshed), true);
    }
    return out;
  }

  // The coach: advice for this version, fetched only while the switch is on.
  const coachBox = document.getElementById("coach-on");
  const advice = {version: -1, body: null, pending: false, retry: 0};
  async function coach() {
    const panel = document.getElementById("coach");
    if (!panel) return;
    if (!coachBox.checked) { panel.hidden = true; markCoachPick(null); return; }
    const v = version();
    if (advice.version !== v || advice.pending) {
      // (asked again after any failure, a proxy's 4xx too, less often: a pending answer had
      // stayed "Working out…" for good when the next ask failed once, and a 4xx had left
      // the panel hidden until the next action) and said, where no advice of now shows
      const again = (ms, words) => {
        clearTimeout(advice.retry);
        advice.retry = setTimeout(coach, ms);
        coachNote(words);
      };
      // (a first solve of rules no game has asked about takes seconds: said after a moment,
      // not flashed over the last advice at every action)
      const slow = setTimeout(() => coachNote("Working it out…"), COACH_SLOW_MS);
      try {
        const resp = await fetch(`/api/games/${gameId}/advice`, {cache: "no-store", ...within(30000)});
        clearTimeout(slow);
        if (!resp.ok) {
          again(resp.status >= 500 ? 3000 : 10000, `The coach got no advice (error ${resp.status}): asking again…`);
          return;
        }
        const body = await resp.json();
        // (an older ask answered after a newer one: dropped, not let cancel the newer's
        // retry or put the advice back a version)
        if (body.version !== version()) return;
        advice.version = body.version;
        advice.body = body.advice;
        // (pending: shown, and asked again shortly; this version's advice is still to come)
        advice.pending = Boolean(body.advice && body.advice.situation === "pending");
        clearTimeout(advice.retry);
        if (advice.pending) advice.retry = setTimeout(coach, body.advice.retry_ms || 2000);
      } catch (e) {
        clearTimeout(slow);
        again(3000, "The coach cannot reach the scoresheet: asking again…");
        return;
      }
    }
    const fresh = document.getElementById("coach");
    if (!fresh || version() !== advice.version || !coachBox.checked) return;
    // a roll's keeps in view when the advice comes stay where they are: the panel fills
    // above them, and had pushed them down the screen (their buttons carry the coach's
    // pick, marked green; its Bank or Roll call, where it makes one, still shows in full)
    const keeps = advice.body && advice.body.situation === "keep" ? document.querySelector("#sheet .options") : null;
    const top = keeps ? keeps.getBoundingClientRect().top : null;
    fresh.innerHTML = HotCoach.render(advice.body);
    fresh.hidden = !advice.body;
    markCoachPick(advice.body);
    if (keeps && top >= 0 && top < window.innerHeight) {
      window.scrollBy(0, keeps.getBoundingClientRect().top - top);
    }
  }
  // what the coach is doing while this version's advice has not come (a slow first solve, a
  // failure), where the panel would otherwise sit hidden or show an earlier turn's advice
  const COACH_SLOW_MS = 600;
  function coachNote(words) {
    const panel = document.getElementById("coach");
    if (!panel || !coachBox.checked || (advice.version === version() && !advice.pending)) return;
    panel.innerHTML = `<h3>Coach</h3><p class="hint" id="coach-pending">${words}</p>`;
    panel.hidden = false;
  }
  // with the coach on, the green keep is the coach's best, not the one worth most points now
  function markCoachPick(body) {
    const options = [...document.querySelectorAll("#sheet .option")];
    if (!options.length) return;
    const key = (dice) => [...dice].sort().join(",");
    const pick = coachBox.checked && body && body.options && body.options.length ? key(body.options[0].keep) : null;
    options.forEach((btn, i) => {
      const mine = pick !== null && key(JSON.parse(btn.dataset.event).dice) === pick;
      btn.classList.toggle("best", pick === null ? i === 0 : mine);
      btn.classList.toggle("coach-pick", mine);
    });
  }
  coachBox.checked = HotCoach.on();
  coachBox.addEventListener("change", () => { HotCoach.set(coachBox.checked); coach(); });

  function wire() {
    const sheet = document.getElementById("sheet");
    coachBox.closest(".switch").hidden = sheet.dataset.phase === "over";  // nothing to advise
    // (no log until a player is in: `hotdice replay` reads none without; joins come live)
    document.getElementById("export-log").hidden = sheet.dataset.players === "0";
    coach();
    showCurrent();
    // (on each photo field itself: a camera that comes back after a swap took its field
    // off the page fires there, and never reaches the document; a file field is never kept)
    sheet.querySelectorAll("#first input.first-photo").forEach((input) => {
      input.addEventListener("change", () => readFirstDie(input));
    });
    const pad = sheet.querySelector(".pad");
    if (pad && !padFor.has(pad)) {  // (a pad kept by `keepPad` is wired already)
      padFor.set(pad, padKey(sheet, pad));  // (as drawn: before the tray is filled)
      const tray = HotDice.attach(pad, {
        exact: true,
        // (a photo read filling the tray while the fresh sheet settles enables Roll in
        // that moment: its tap is this player's, sent once the sheet has settled, where it
        // had been dropped without a word)
        onGo: (dice) => {
          const wait = settleUntil - Date.now();
          const tapped = version();  // (a sheet changed again meanwhile: not sent on it)
          if (wait <= 0) event({type: "roll", dice});
          else {
            setTimeout(() => {
              // (nor dice changed or cleared since the tap, a misread seen: not the player's)
              if (String(tray.values()) !== String(dice)) return;
              if (version() === tapped) event({type: "roll", dice});
              else if (document.getElementById("sheet").dataset.phase === "over") {
                say("Not sent: the game ended as you tapped Roll.", true);
              } else say("Not sent: the sheet changed as you tapped Roll. Check it, then tap Roll again.", true);
            }, wait);
          }
        },
      });
    }
  }

  // The sheet's forms, by delegation: the sheet is swapped on every change, and the
  // field being typed in (with its form) may be the node it was, so no form handler hangs
  // on a node (but the photo fields', in wire()). Each looks up what it needs when it runs.

  // a quick score; a bust (one tap beside Banked, or 0 banked) is said, Undo recalled
  async function quickScore(quick, points) {
    const out = await event({type: "score", player: quick.dataset.player, points},
      sent(quick.querySelector("input[name=points]")));
    const last = out && out.state.history[out.state.history.length - 1];
    if (last && last.kind === "bonus") say(bonusWords(last));  // (the 5150's roll, as its points)
    else if (out && points === 0) {
      say(bustWords(last) + nextUp(out.refreshed) + " Undo if that was a slip.");
      toast.dataset.undoes = "1";  // (true only until another phone acts: `refresh`)
    }
    return out;
  }
  function quickProblem(quick, message) {
    const error = quick.querySelector("#quick-error");
    error.textContent = message;
    error.hidden = !message;
  }
  async function quickSubmit(quick) {
    const field = quick.querySelector("input[name=points]");
    // 1,250 · 1 250 · 1.250: a separator only between groups of three digits (850.00
    // is no 85,000)
    const raw = field.value.trim();
    if (!/^(\d+|\d{1,3}([,.'\s]\d{3})+)$/.test(raw)) {
      quickProblem(quick, !raw ? "Type the points banked, e.g. 850, or tap Busted."
        : /^[-−]/.test(raw) ? "Points banked are never below 0: for a bust, tap Busted."
        : "Points are a whole number, e.g. 850.");
      return;
    }
    const points = parseInt(raw.replace(/[,.'\s]/g, ""), 10);
    const step = parseInt(quick.dataset.step, 10);  // (the engine's SCORE_STEP)
    const most = parseInt(quick.dataset.max, 10);  // (and its cap on a turn)
    if (points > most) {
      quickProblem(quick, `A turn scores at most ${most.toLocaleString("en")}.`);
      return;
    }
    if (points % step) {
      const down = points - (points % step);
      quickProblem(quick, `Scores go up in ${step}s: ${down.toLocaleString("en")} or ${(down + step).toLocaleString("en")}?`);
      return;
    }
    // a score that reaches the target ends the game or starts its final round: a slip
    // (12000 for 1200) is asked about once, as Busted is answered with a reminder; in a
    // final round or tie-break, one that ties or passes the lead (the mark, `data-lead`)
    const score = parseInt(quick.dataset.score, 10);
    const target = parseInt(quick.dataset.target, 10);
    const lead = quick.dataset.lead === undefined ? null : parseInt(quick.dataset.lead, 10);
    const mark = lead === null ? target : lead;
    // (the target only from below it: in a tie-break, or a final round owed again, all
    // are at it; the lead tied from below, or passed, as the first tied player's points do)
    // (nor one under the least bank, which the engine refuses with its reason: zilch's
    // 150 in a final round had been asked about as a bank past the lead first)
    const least = parseInt(quick.dataset.least || "0", 10);
    const reaches = (lead === null
      ? score < target && score + points >= target
      : score + points > lead || (score < lead && score + points === lead)) &&
      !(quick.dataset.exact && score + points > target) && points >= least;
    // (a double tap answers nothing: the question must have been on screen a moment)
    if (reaches && quick.dataset.confirmed === String(points) && Date.now() - askedAt < READ_FIRST_MS) return;
    if (reaches && quick.dataset.confirmed !== String(points)) {
      quick.dataset.confirmed = String(points);
      askedAt = Date.now();
      const total = (score + points).toLocaleString("en");
      const past = score + points > mark;
      const where = lead === null
        ? `${past ? "past" : "reaching"} the ${target.toLocaleString("en")} target`
        : `${past ? "past" : "level with"} the lead of ${lead.toLocaleString("en")}`;
      quickProblem(quick, `That takes ${quick.dataset.player} to ${total}, ${where}: press Banked again if that is right.`);
      return;
    }
    const said = say.count;
    const out = await quickScore(quick, points);
    if (out === null && field.isConnected && say.count !== said) {  // refused: the reason under
      quickProblem(quick, toast.textContent);  // the field (once: not again in a toast over
      toast.hidden = true;  // the buttons, nor read out twice: the field's error is an alert)
      clearTimeout(say.spoken);
      announce.textContent = "";
    }
  }

  async function addPlayer(add) {
    const field = add.querySelector("input[name=name]");
    if (!field.value.trim()) {  // (Enter again after an Add, the field emptied: nothing to send)
      if (field.value) say("Type the player's name: spaces alone are no name.", true);
      field.focus();
      return;
    }
    await send("players", {name: field.value}, sent(field));
  }

  const firstPhotos = new Map();  // (each player's photos sent: an older answer is dropped)
  async function readFirstDie(input) {
    const file = input.files && input.files[0];
    if (!file) return;
    const name = input.dataset.player;
    const mine = (firstPhotos.get(name) || 0) + 1;
    firstPhotos.set(name, mine);
    const round = input.closest("#first").dataset.round;  // (the die is this round's only)
    const form = new FormData();
    form.append("photo", file);
    input.value = "";
    say(`Reading ${name}'s die…`);
    try {
      const current = () => firstPhotos.get(name) === mine;  // (no newer photo of the die)
      const resp = await HotDice.readPhoto("/api/read", form, () => say(HotDice.BUSY_AGAIN, false, true), current);
      if (!resp) return;
      // (not JSON: the server's own refusal of a body far over the limit, or a proxy's page)
      const body = await resp.json().catch(() => ({}));
      if (!current()) return;
      if (!resp.ok || !Array.isArray(body.detections)) {  // (200 in HTML: a login page)
        say(body.error || HotDice.tooLargeOr(resp.status), true);
        return;
      }
      if (body.detections.length !== 1) {
        say(body.detections.length ? `Found ${body.detections.length} dice: photograph ${name}'s one die.`
          : `No die found in the photo: photograph ${name}'s die again, or choose it.`, true);
        return;
      }
      const d = body.detections[0];
      const select = document.querySelector(
        `#first[data-round="${CSS.escape(round)}"] select[name="${CSS.escape(name)}"]:not(:disabled)`);
      if (!select) {  // (a seating or a tie recorded meanwhile: another round)
        say(`${name}'s die read ${d.value}, but the roll for first player has changed meanwhile: check the sheet and choose again.`, true);
        return;
      }
      // (a die the camera is unsure of is not chosen for the player: *Decide* had sent it
      // unchecked, where a roll's pad waits for the player to confirm such a die)
      if (d.unsure) {
        select.value = "";
        select.focus();
        say(`${name}'s die looks like a ${d.value}, but the camera is unsure: choose it.`, true);
        return;
      }
      select.value = String(d.value);
      say(`${name} rolled a ${d.value}.`);
    } catch (e) {
      if (firstPhotos.get(name) === mine) say(HotDice.failedWords(e), true);
    }
  }

  // after a tie (recorded: every phone's sheet shows it) only the tied players roll,
  // and this round is sent alone: the server continues the recorded rounds
  async function decideFirst(first) {
    const rolls = Object.create(null);  // (a player named __proto__ is a key like any other)
    first.querySelectorAll("select:not(:disabled)").forEach((s) => { if (s.value) rolls[s.name] = parseInt(s.value, 10); });
    if (!Object.keys(rolls).length) { say("Choose each player's die first (or take a photo of it).", true); return; }
    const out = await send("first", {rolls});
    if (out && out.winner) say(`${out.winner} starts.`);
    else if (out) say(`Tie: ${out.roll_again.join(" and ")} roll again.`, true);
  }

  document.addEventListener("submit", (ev) => {
    const form = ev.target.closest("#sheet form");
    if (!form || !["quick", "add-player", "first"].includes(form.id)) return;
    ev.preventDefault();
    if (form.id === "quick") quickSubmit(form);
    else if (form.id === "add-player") addPlayer(form);
    else decideFirst(form);
  });
  // while the fresh sheet settles its greyed button takes no Enter: say why, not nothing
  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter" || Date.now() >= settleUntil || !ev.target.closest("#sheet form input")) return;
    say("The sheet has just changed: check it, then press Enter again.", true);
  });
  document.addEventListener("input", (ev) => {
    const quick = ev.target.closest("#sheet #quick");
    if (quick) {
      quickProblem(quick, "");
      delete quick.dataset.confirmed;
    }
  });

  // *QR for spectators* swaps the invite's QR in place (below), its caption a polite live
  // region: to a screen reader it is a button, Space pressing it too. Its name says what
  // it shows next, so it has no aria-pressed, which asks for a name that stays the same.
  // (Without this script it is the link to the spectators' QR it names.)
  const qrSwap = document.getElementById("qr-swap");
  if (qrSwap) {
    qrSwap.setAttribute("role", "button");
    qrSwap.setAttribute("aria-controls", "qr");
    // (as a button does: pressed once, when a Space that went down on it comes up; held
    // down, its repeats do nothing, where each had swapped the QR and its caption again)
    let spaceDown = false;
    qrSwap.addEventListener("keydown", (ev) => {
      if (ev.key !== " ") return;
      ev.preventDefault(); // (no scroll)
      if (!ev.repeat) spaceDown = true;
    });
    qrSwap.addEventListener("blur", () => { spaceDown = false; });
    qrSwap.addEventListener("keyup", (ev) => {
      if (ev.key !== " " || !spaceDown) return;
      ev.preventDefault();
      spaceDown = false;
      qrSwap.click();
    });
  }
  document.addEventListener("click", (ev) => {
    const swap = ev.target.closest("#qr-swap");
    // the invite's QR in place, players' or spectators' (not a bare SVG page; opened in a
    // tab of its own as asked)
    if (swap && !(ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey)) {
      ev.preventDefault();
      const qr = document.getElementById("qr"), caption = document.getElementById("qr-for");
      [qr.src, swap.href] = [swap.href, qr.src];
      qr.alt = caption.dataset.other.replace("scan this", "scan this QR code");
      [swap.textContent, swap.dataset.otherLabel] = [swap.dataset.otherLabel, swap.textContent];
      [caption.textContent, caption.dataset.other] = [caption.dataset.other, caption.textContent];
      // (the join code, which lets whoever reads it play, is not shown to a spectator
      // scanning theirs, under "Spectators scan this to watch")
      const joinLine = document.getElementById("join-line");
      joinLine.hidden = !joinLine.hidden;
      return;
    }
    const bust = ev.target.closest('#sheet #quick [data-quick="bust"]');
    if (bust) { quickScore(bust.closest("#quick"), 0); return; }
    const btn = ev.target.closest("[data-event]");
    if (btn && btn.closest("#sheet")) { event(JSON.parse(btn.dataset.event)); return; }
    const undo = ev.target.closest("[data-undo]");
    if (undo) {
      // a finished game's Undo once the table's rematch is set up asks for a second tap:
      // one tapped on a phone left on the old game took its win back, and every phone's
      // rematch link with it, while the table played on
      // (a double tap's second tap is no answer: it comes within DOUBLE_TAP_MS of the
      // first; a tap after the question is read is, however soon)
      const since = undoAsked.version === version() ? Date.now() - undoAsked.at : Infinity;
      if (undo.dataset.rematch && since < DOUBLE_TAP_MS) return;
      if (undo.dataset.rematch && since >= UNDO_ASK_MS) {
        undoAsked = {version: version(), at: Date.now()};
        say(`The table has moved on to the rematch, game ${undo.dataset.rematch}. ` +
          "Tap Undo again to take back this game's end anyway.", true, true);
        const asking = say.count;  // (shown as long as a second tap answers it)
        setTimeout(() => { if (say.count === asking) toast.hidden = true; }, UNDO_ASK_MS);
        return;
      }
      // points typed or dice tapped for the sheet the Undo takes back go with it: said, as
      // another phone's change says it
      send("undo", {}).then((out) => {
        if (!out) return;
        const what = out.undone ? `${out.undone} is taken back.` : "the last action is taken back.";
        say(`Undone: ${what}` + (out.cleared ? " What you had typed or tapped since was cleared." : ""), out.cleared);
      });
    }
  });

  wire();
  // (a wall screen turned, or its window resized: the table fitted again, its newest row
  // in view; elsewhere only its height is let go, its scrolling left as it is: a phone's
  // toolbar folding away resizes it too)
  addEventListener("resize", () => {
    const wrap = document.querySelector("#sheet .sheet-wrap");
    if (wrap && onWall()) showCurrent();
    else if (wrap) { showStandings(wrap); fitWall(wrap); }  // (a phone turned: totals too)
  });
  setTimeout(pollLoop, pollMs);
  try {
    if (sessionStorage.getItem(RESTORED)) {
      sessionStorage.removeItem(RESTORED);
      say("The scoresheet was put back from a backup: this is the game as it now stands.", true, true);
    }
  } catch (e) { /* (private mode) */ }
  document.body.dataset.ready = "game";
})();

// Rule check: score a roll under the chosen rules and show every legal keep and why.
"use strict";
(function () {
  const form = document.getElementById("check-rules");
  const result = document.getElementById("result");
  if (!form) return;
  form.addEventListener("submit", (ev) => ev.preventDefault());

  const coach = document.getElementById("coach-on");
  coach.checked = HotCoach.on();
  coach.addEventListener("change", () => HotCoach.set(coach.checked));
  // one short line a screen reader hears (the card below is read on demand, its keeps
  // and all): what is being scored, and then its answer in brief or what went wrong
  const status = document.getElementById("check-status");
  function tell(words) { status.textContent = words; }

  function spec() {
    const parts = [form.querySelector("#preset").value];
    form.querySelectorAll("input[name=toggle]:checked").forEach((t) => parts.push(t.value));
    return parts.join("+");
  }

  function esc(s) {
    return String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
  }

  // the answer in view: below the pad it was under the fold, its heading alone showing
  function reveal() { result.scrollIntoView({block: "start"}); }

  // what the answer on screen is for (the dice, the rules, the coach): once the dice change
  // it goes, and once the rules or the coach change it is asked for again (a dispute read
  // the last roll's "Best", or the last rules', under new dice or rules). Each answer is
  // shown only if it is for the question as it stands when it comes (`question`, worked
  // out when it was asked): an answer for dice or rules changed meanwhile is dropped.
  let shownFor = null;  // the question the answer on screen answers
  let waiting = null;  // the question the newest request asks
  const sorted = (dice) => [...dice].sort().join();  // (a roll in any order is the same roll)
  function question(dice, rules = spec(), coached = coach.checked) {
    return JSON.stringify([sorted(dice), rules, coached]);
  }
  // (a question, or none, asked about other dice than these, or about dice still unsure)
  const forOtherDice = (asked, dice, unsure) => asked && (unsure || JSON.parse(asked)[0] !== sorted(dice));
  // (said after a photo's "Found 6 dice": taken back with the score it points at)
  const photoSaid = document.querySelector("#check .photo-status");
  const BELOW = " The score is below ↓";
  function stale() {
    if (photoSaid.textContent.endsWith(BELOW)) photoSaid.textContent = photoSaid.textContent.slice(0, -BELOW.length);
    result.hidden = true;
    result.innerHTML = "";
    shownFor = null;
    busy(false);
    tell("");
  }
  // an answer on its way: the one on screen, for other rules or another coach, is dimmed
  // as out of date until it comes (it had stood as if current for seconds)
  function busy(on) {
    result.classList.toggle("updating", on);
    result.setAttribute("aria-busy", String(on));
  }

  // `scroll`: not for a photo's dice, whose picture and tray above are to be checked first
  // `quiet`: a ranking asked again while pending, not said again until it has come
  function show(report, asked, scroll = true, quiet = false) {
    shownFor = asked;
    result.hidden = false;
    busy(false);
    if (scroll) requestAnimationFrame(reveal);
    const roll = HotDice.diceRow(report.roll);
    if (report.bust || !report.options.length) {
      result.innerHTML = `<h2>${esc(report.rules)}</h2><p class="dice" id="result-roll">${roll}</p><p class="verdict-bust big">Bust: nothing scores.</p>`;
      tell(`${report.rules}: bust, nothing scores.`);
      return;
    }
    // (with the coach, its pick is the keep to take, which may not be the most points now:
    // 1 1 1 5 under hot-dice, 1,050 now, where the coach keeps 1 1 1; so the headline says
    // "most points now" and only the coach's list marks a keep green)
    const coached = Boolean(report.advice && report.advice.options && report.advice.options.length);
    // (the rules' turn still being solved on the server: asked again shortly, as a game's
    // coach is, where the request had held a slot of the server's heavy work for seconds)
    const pending = Boolean(report.advice && report.advice.situation === "pending");
    if (pending) {
      setTimeout(() => {
        if (shownFor === asked && !waiting && pad.settled()) score(pad.values(), false, true);
      }, report.advice.retry_ms || 2000);
    }
    const best = report.best.points.toLocaleString("en");
    // (a keep that wins the game on the spot says so: six 1s under farke had been
    // shown as "Best: 8,000" alone, where the game sheet and the CLI say it wins)
    const WINS = ` <b class="wins">· wins the game</b>`;
    const rows = report.options.map((o, i) =>
      `<li class="${i === 0 && !coached ? "best" : ""}"><span class="dice">${HotDice.diceRow(o.keep)}</span>` +
      `<span class="sr">: </span> <b>${o.points.toLocaleString("en")}</b>${o.wins_game ? WINS : ""}<br><span class="why">` +
      o.groups.map((g) => `${esc(g.name)} ${g.points.toLocaleString("en")}`).join(" + ") + `</span></li>`).join("");
    // (the coach's ranking, asked for, comes before the list of every keep: after it, it was
    // a long scroll down with nothing saying it was there)
    result.innerHTML = `<h2>${esc(report.rules)}</h2><p class="dice" id="result-roll">${roll}</p>` +
      `<p class="big">${coached ? "Most points now" : "Best"}: <b id="best-points">${best}</b>` +
      `${report.best.wins_game ? `<span id="best-wins">${WINS}</span>` : ""}</p>` +
      `<p class="hint" id="first-roll">Scored as a turn's first roll: later in a turn, some rules score a roll otherwise (held sets, combinations paid on the first roll only).</p>` +
      (report.advice ? `<section class="coach" id="coach"><h3>Coach: keeps ranked by what the turn is then worth</h3>` +
        (pending ? `<p class="hint" id="coach-pending">${esc(report.advice.reason)}</p>` :
          `<p class="hint">At a turn total of 0, for a player on the board, then playing on optimally.</p>${HotCoach.keeps(report.advice)}`) +
        `</section>` : "") +
      `<h3>Every legal keep</h3><ol class="keeps">${rows}</ol>`;
    if (quiet && pending) return;  // (said once: the status is read out at each change)
    tell(`${report.rules}: ${coached ? "most points now" : "best"} ${best}` +
      `${report.best.wins_game ? ", which wins the game" : ""}.`);
  }

  async function score(dice, scroll = true, quiet = false) {
    const asked = question(dice);
    if (asked === waiting) return;  // (its answer is on its way: a tap again had sent a third
    // request to a server reading two, whose "busy" then stood in place of both answers)
    waiting = asked;
    if (!quiet) {  // (a pending ranking asked again: the answer on screen stays as it is)
      busy(true);
      tell(`Scoring under ${spec()}…`);
    }
    let resp;
    let body;
    try {
      resp = await fetch("/api/score", {method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify({rules: spec(), dice, coach: coach.checked}),
        ...HotNet.within(30000)});  // (a coach's first solve of new rules: seconds)
      body = await resp.json().catch(() => null);
      // not the app's JSON: a proxy's error page, or a Wi-Fi login page answering 200, had
      // left "Scoring…"
      if (!body || (resp.ok ? !Array.isArray(body.roll) : typeof body.error !== "string")) {
        body = {error: resp.ok ? "The answer was not the scoresheet's (a network's login page?): press Score it again."
          : `The server had a problem (error ${resp.status}): press Score it again.`};
        resp = {ok: false};
      }
    } catch (e) {
      resp = {ok: false};
      body = {error: "No answer from the server (network?): press Score it again."};
    }
    if (asked !== waiting || asked !== question(pad.values())) return;  // (overtaken)
    waiting = null;
    if (!resp.ok) {
      shownFor = asked;
      result.hidden = false;
      busy(false);
      result.innerHTML = `<p class="error">${esc(body.error)}</p>`;
      tell(body.error);
      if (scroll) requestAnimationFrame(reveal);
      return;
    }
    show(body, asked, scroll, quiet);
  }

  const pad = HotDice.attach(document.querySelector("#check .pad"), {
    exact: false, rules: spec, onGo: (dice) => score(dice), readQuery: () => (coach.checked ? "&coach=1" : ""),
    // (the dice taken as read: scored at once, as a photo read surely is, not
    // *Looks right* leaving *Score it* still to press. A game's pad waits for Roll: a write)
    onConfirm: (dice) => { if (pad.settled()) score(dice); },
    onRead: (body) => {
      if (!body.score || body.detections.some((d) => d.unsure)) return;
      // (read under the rules and coach of the moment it was sent: asked again if they
      // changed while it was read)
      const asked = question(body.score.roll, body.rules, "advice" in body);
      if (asked === question(pad.values())) show({...body.score, advice: body.advice}, asked, false);
      else if (pad.settled()) score(pad.values(), false);
      else return;  // (more dice than the rules chosen meanwhile roll: the pad says so)
      // (the answer is below the photo and the tray, off a phone's screen: said where the
      // player is looking)
      photoSaid.textContent += BELOW;
    },
    onChange: (dice, unsure) => {
      if (forOtherDice(shownFor, dice, unsure)) stale();
      if (forOtherDice(waiting, dice, unsure)) {  // (its answer will be dropped: not "Scoring…")
        waiting = null;
        busy(false);
        tell("");
      }
    },
  });
  // other rules or the coach switched: the answer on screen, or on its way, is asked for
  // again, for the dice as they are
  function rescore() {
    const had = shownFor || waiting;
    waiting = null;
    if (had && pad.settled()) score(pad.values(), false);
    else if (had) stale();
  }
  form.addEventListener("change", rescore);
  // the rules chosen kept in the address, as a game's "Rule check" link names them: a
  // reload, or Back to this page, had put the picker back to hot-dice with nothing ticked
  function remember() {
    const query = new URLSearchParams({preset: form.querySelector("#preset").value});
    form.querySelectorAll("input[name=toggle]:checked").forEach((t) => query.append("toggle", t.value));
    for (const kept of ["game", "watch"]) {  // (the game it came from: its link back stays)
      const value = new URLSearchParams(location.search).get(kept);
      if (value) query.set(kept, value);
    }
    history.replaceState(history.state, "", `${location.pathname}?${query}`);
  }
  form.addEventListener("change", remember);
  // the pad takes as many dice as the chosen rules roll (minnesota's five)
  const preset = form.querySelector("#preset");
  const dice = () => parseInt(preset.selectedOptions[0].dataset.dice, 10);
  preset.addEventListener("change", () => pad.setCount(dice()));
  pad.setCount(dice());
  document.body.dataset.ready = "check";
})();

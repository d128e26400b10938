// The coach: render the strategy advisor's advice (every figure comes from the server).
"use strict";
(function () {
  const KEY = "hotdice.coach";
  const STEP = parseInt(document.documentElement.dataset.step || "50", 10);  // (the engine's)

  function esc(s) {
    return String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
  }
  function pct(p) {
    const v = p * 100;
    return (v > 0 && v < 1 ? v.toFixed(1) : Math.round(v)) + "%";
  }
  // (points a player far behind expects are tiny, but they are what the call rests on)
  function pts(x) { return x > 0 && x < 1 ? x.toPrecision(2) : Math.round(x).toLocaleString("en"); }
  // Expected points, or chances: of making the points needed (a final round's last player),
  // or of winning the tie-break (its first player, the race solved on the server).
  function chancy(a) { return Boolean(a.need || a.playing_to_win); }
  function val(a, x) { return chancy(a) ? pct(x) + " chance" : "expect " + pts(x); }
  function fig(a, name) { return a[(chancy(a) ? "chance_" : "expected_") + name]; }

  function goal(a) {
    // (a 5150 bonus roll still owed, whichever the goal: the figures leave it out)
    const left = a.not_counted ? ` Not counted: ${esc(a.not_counted)}.` : "";
    if (a.playing_to_win) {
      return `<p class="hint">${esc(a.still_to_play.join(", "))} plays after you, knowing your mark: ` +
        `the figures are your chances to win the tie-break (a tie starts it again).${left}</p>`;
    }
    if (a.still_to_play && a.still_to_play.length) {
      const from = a.bank_from > STEP ? `, banking only from ${pts(a.bank_from)} (${esc(a.bank_from_why)})` : "";
      // (tie-or-beat: a tie or a pass gives the others another turn)
      const again = a.if_you_tie_or_beat || [];
      const owed = a.still_to_play.filter((n) => !again.includes(n));
      const who = !owed.length
        ? `${esc(again.join(", "))} ${again.length === 1 ? "plays" : "play"} again if you tie or beat the lead`
        : `${esc(owed.join(", "))} still to play after you` +
          (again.length ? ` (and ${esc(again.join(", "))}, if you tie or beat the lead)` : "");
      return `<p class="hint">${who}: passing the lead does not win yet, so playing for points${from}.${left}</p>`;
    }
    const worth = `counted as a ${pct(a.tie_value)} chance (${esc(a.tie_value_why)})`;
    // (the rules' least bank over the need: zilch's 300 where 150 passes the lead; a bank
    // that would tie is then below it, and no tie but a bust's when level can be had)
    const least = a.least_bank && a.least_bank > a.need ? a.least_bank : 0;
    const tie = !a.tie_value ? "" : a.need === STEP
      ? ` You are level: a bust leaves the tie, and tie-break turns again, ${worth}.`
      : a.need - STEP < (a.least_bank || 0) ? ""
      : ` A bank of ${pts(a.need - STEP)} ties: tie-break turns, ${worth}.`;
    const aim = least ? `${pts(least)} this turn (the rules' least bank: ${pts(a.need)} would pass the lead)`
      : `${pts(a.need)} this turn (the lead + ${STEP})`;
    return a.need ? `<p class="hint">Playing to make ${aim}.${tie}${left}</p>` : "";
  }

  function bankOrRoll(a) {
    const rolled = fig(a, "if_roll");  // (null: past the totals solved, banking is best)
    const roll = rolled == null ? "Rolling on cannot raise your chance now"
      : `Roll on: ${pct(a.bust_probability)} bust risk, ${val(a, rolled)}`;
    const bank = a.bank_short ? ` <span class="why">(${esc(a.bank_short)})</span>`
      : a.can_bank ? ` vs bank ${chancy(a) ? pct(fig(a, "if_bank")) : pts(fig(a, "if_bank"))}`
      : ` <span class="why">(${esc(a.bank_refusal || "cannot bank")})</span>`;
    const wins = a.bank_wins ? ` <span class="why">(${esc(a.bank_wins)})</span>` : "";  // (a first-to-target win)
    return `<p class="coach-call">${a.advice === "bank" ? "Bank" : "Roll"}</p><p id="coach-line">${roll}${bank}${wins}</p>`;
  }

  function keeps(a) {
    if (a.bust || !a.options.length) return `<p class="verdict-bust">Bust: nothing to keep.</p>`;
    const rows = a.options.map((o, i) =>
      `<li class="${i === 0 ? "best" : ""}"><span class="dice">${HotDice.diceRow(o.keep)}</span> ` +
      `+${pts(o.points)} → ${o.hot_dice ? "hot dice" : o.dice_left + " left"}, then ${o.then}${o.bank_wins ? " (wins the game)" : ""}: ` +
      `<b>${val(a, chancy(a) ? o.chance : o.expected)}</b></li>`).join("");
    return `<ol class="coach-keeps">${rows}</ol>`;
  }

  function render(a) {
    if (!a) return "";
    const who = a.player ? `<h2>Coach for ${esc(a.player)}</h2>` : "<h3>Coach</h3>";
    if (a.situation === "unavailable") return who + `<p class="hint">${esc(a.error)}</p>`;
    if (a.situation === "pending") return who + `<p class="hint" id="coach-pending">${esc(a.reason)}</p>`;
    if (a.situation === "takeover") {
      const take = a.advice === "takeover";
      return who + goal(a) + `<p class="coach-call">${take ? "Take over" : "Start fresh"}</p>` +
        `<p id="coach-line">Take over: ${val(a, fig(a, "if_takeover"))} vs start fresh ${val(a, fig(a, "if_fresh"))}</p>`;
    }
    if (a.options) return who + goal(a) + `<p class="hint">Keeps ranked by what the turn is then worth:</p>` + keeps(a);
    return who + goal(a) + bankOrRoll(a);
  }

  function on() { try { return localStorage.getItem(KEY) === "1"; } catch (e) { return false; } }
  function set(v) { try { localStorage.setItem(KEY, v ? "1" : "0"); } catch (e) { /* private mode */ } }

  window.HotCoach = {render, keeps, on, set};
})();

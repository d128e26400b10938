// The game page: poll with ETags, swap in the fresh sheet, send version-checked actions.
"use strict";
(function () {
  const root = document.getElementById("game");
  if (!root) return;
  const gameId = root.dataset.id;
  const token = root.dataset.token;
  const pollMs = parseInt(root.dataset.poll || "1000", 10);
  const toast = document.getElementById("toast");
  let etag = null;
  let busy = false;
  // the roll for first player so far: everyone's round, then only the tied players'
  // (the server checks); kept across the sheet's refreshes, forgotten when it changes
  const rollOff = {version: null, rounds: [], again: null};
  function forgetRollOff() { Object.assign(rollOff, {version: null, rounds: [], again: null}); }

  function version() {
    return parseInt(document.getElementById("sheet").dataset.version, 10);
  }

  function say(message, bad) {
    toast.textContent = message;
    toast.className = bad ? "toast bad" : "toast";
    toast.hidden = false;
    clearTimeout(say.timer);
    say.timer = setTimeout(() => { toast.hidden = true; }, 4000);
  }

  // after a tie only the tied players' dice can be entered, from blank
  function showRollOff(form) {
    if (!rollOff.again) return;
    form.querySelectorAll("select").forEach((s) => {
      const again = rollOff.again.includes(s.name);
      s.disabled = !again;
      s.value = "";
      const photo = form.querySelector(`input.first-photo[data-player="${CSS.escape(s.name)}"]`);
      if (photo) photo.disabled = !again;
    });
  }

  async function refresh() {
    const resp = await fetch(`/g/${gameId}/sheet`, {cache: "no-store"});
    if (!resp.ok) return;
    const html = await resp.text();
    const sheet = document.getElementById("sheet");
    const wasOpen = sheet.querySelector("#history") && sheet.querySelector("#history").open;
    sheet.outerHTML = html;
    const fresh = document.getElementById("sheet");
    if (wasOpen && fresh.querySelector("#history")) fresh.querySelector("#history").open = true;
    wire();
  }

  async function poll() {
    if (!document.hidden && !busy) {
      try {
        const headers = etag ? {"If-None-Match": etag} : {};
        const resp = await fetch(`/api/games/${gameId}`, {headers, cache: "no-store"});
        if (resp.status === 200) {
          etag = resp.headers.get("ETag");
          const body = await resp.json();
          if (body.version !== version()) await refresh();
        }
      } catch (e) { /* offline for a moment: try again next tick */ }
    }
    setTimeout(poll, pollMs);
  }

  async function send(path, body) {
    if (busy) return null;
    busy = true;
    try {
      const resp = await fetch(`/api/games/${gameId}/${path}`, {
        method: "POST", cache: "no-store",
        headers: {"Content-Type": "application/json", "Authorization": "Bearer " + token},
        body: JSON.stringify({version: version(), ...body}),
      });
      const out = await resp.json().catch(() => ({error: `HTTP ${resp.status}`}));
      if (resp.status === 409) say("Someone else was quicker: the sheet is updated, check and try again.", true);
      else if (!resp.ok) say(out.error || `HTTP ${resp.status}`, true);
      if (resp.ok || resp.status === 409) await refresh();
      return resp.ok ? out : null;
    } catch (e) {
      say("Network problem: " + e, true);
      return null;
    } finally {
      busy = false;
    }
  }

  async function event(ev) {
    const before = parseInt(document.getElementById("sheet").dataset.turns || "0", 10);
    const out = await send("events", {event: ev});
    const hist = out && out.state ? out.state.history : [];
    if (ev.type === "roll" && hist.length > before && hist[hist.length - 1].bust) {
      say(`Bust! ${hist[hist.length - 1].player} scores nothing this turn.`, true);
    }
    return out;
  }

  // The coach: advice for this version, fetched only while the switch is on.
  const coachBox = document.getElementById("coach-on");
  const advice = {version: -1, body: null};
  async function coach() {
    const panel = document.getElementById("coach");
    if (!panel) return;
    if (!coachBox.checked) { panel.hidden = true; return; }
    const v = version();
    if (advice.version !== v) {
      try {
        const resp = await fetch(`/api/games/${gameId}/advice`, {cache: "no-store"});
        if (!resp.ok) return;
        const body = await resp.json();
        advice.version = body.version;
        advice.body = body.advice;
      } catch (e) { return; }
    }
    const fresh = document.getElementById("coach");
    if (!fresh || version() !== advice.version || !coachBox.checked) return;
    fresh.innerHTML = HotCoach.render(advice.body);
    fresh.hidden = !advice.body;
  }
  coachBox.checked = HotCoach.on();
  coachBox.addEventListener("change", () => { HotCoach.set(coachBox.checked); coach(); });

  function wire() {
    coach();
    const sheet = document.getElementById("sheet");
    const pad = sheet.querySelector(".pad");
    if (pad) {
      HotDice.attach(pad, {
        exact: true,
        rules: () => root.dataset.rules,
        onGo: (dice) => event({type: "roll", dice}),
      });
    }
    const quick = sheet.querySelector("#quick");
    if (quick) {
      quick.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const text = quick.querySelector("input[name=points]").value.trim();
        if (!/^\d+$/.test(text)) { say("Type the points banked, e.g. 850", true); return; }
        event({type: "score", player: quick.dataset.player, points: parseInt(text, 10)});
      });
      quick.querySelector('[data-quick="bust"]').addEventListener("click", () =>
        event({type: "score", player: quick.dataset.player, points: 0}));
    }
    const add = sheet.querySelector("#add-player");
    if (add) {
      add.addEventListener("submit", (ev) => {
        ev.preventDefault();
        send("players", {name: add.querySelector("input[name=name]").value});
      });
    }
    const first = sheet.querySelector("#first");
    if (first) {
      first.querySelectorAll("input.first-photo").forEach((input) => {
        input.addEventListener("change", async () => {
          const file = input.files && input.files[0];
          if (!file) return;
          const name = input.dataset.player;
          const form = new FormData();
          form.append("photo", file);
          input.value = "";
          say(`Reading ${name}'s die…`);
          try {
            const resp = await fetch("/api/read", {method: "POST", body: form});
            const body = await resp.json();
            if (!resp.ok) { say(body.error || `HTTP ${resp.status}`, true); return; }
            if (body.detections.length !== 1) {
              say(`Found ${body.detections.length} dice: photograph ${name}'s one die.`, true);
              return;
            }
            const d = body.detections[0];
            first.querySelector(`select[name="${CSS.escape(name)}"]`).value = String(d.value);
            say(`${name} rolled a ${d.value}` + (d.unsure ? " (the camera is unsure: check it)" : "."), d.unsure);
          } catch (e) {
            say("Upload failed: " + e, true);
          }
        });
      });
      if (rollOff.version !== version()) forgetRollOff();
      showRollOff(first);
      first.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const rolls = {};
        first.querySelectorAll("select:not(:disabled)").forEach((s) => { if (s.value) rolls[s.name] = parseInt(s.value, 10); });
        const out = await send("first", {rolls: [...rollOff.rounds, rolls]});
        if (out && out.winner) {
          forgetRollOff();
          say(`${out.winner} starts.`);
        } else if (out) {
          Object.assign(rollOff, {version: version(), again: out.roll_again});
          rollOff.rounds.push(rolls);
          const form = document.getElementById("first");  // the refreshed sheet's
          if (form) showRollOff(form);
          say(`Tie: ${out.roll_again.join(" and ")} roll again.`, true);
        }
      });
    }
  }

  document.addEventListener("click", (ev) => {
    const btn = ev.target.closest("[data-event]");
    if (btn && btn.closest("#sheet")) { event(JSON.parse(btn.dataset.event)); return; }
    if (ev.target.closest("[data-undo]")) send("undo", {});
  });

  wire();
  setTimeout(poll, pollMs);
  document.body.dataset.ready = "game";
})();

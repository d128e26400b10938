// Dice pad: tap faces or read a photo, correct unsure dice, hand the roll to a callback.
"use strict";
(function () {
  const PIPS = {1: [[15,15]], 2: [[8,8],[22,22]], 3: [[8,8],[15,15],[22,22]],
    4: [[8,8],[22,8],[8,22],[22,22]], 5: [[8,8],[22,8],[15,15],[8,22],[22,22]],
    6: [[8,8],[22,8],[8,15],[22,15],[8,22],[22,22]]};

  // A die's picture, hidden from screen readers: where it stands alone it is said by its
  // button's label, and a row of dice is said as its numbers (`diceRow`), not "image 5".
  function dieSvg(v) {
    const c = PIPS[v].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="3"/>`).join("");
    return `<svg class="die" viewBox="0 0 30 30" aria-hidden="true">` +
      `<rect x="1" y="1" width="28" height="28" rx="6"/>${c}</svg>`;
  }

  // A roll or a keep: its pictures, and its numbers for a screen reader ("1 5 5").
  function diceRow(values) {
    return `<span class="sr">${values.join(" ")}</span>${values.map((v) => dieSvg(v)).join("")}`;
  }

  // One pad element: pending dice [{value, unsure}], a max count, and what to do on "go".
  // Tap a face to add a die; tap a die to select it, then a face to correct it or Remove.
  function attach(pad, opts) {
    let max = parseInt(pad.dataset.count || "6", 10);
    const tray = pad.querySelector(".tray");
    const go = pad.querySelector('[data-pad="go"]');
    const confirm = pad.querySelector('[data-pad="confirm"]');
    const help = pad.querySelector(".unsure-help");
    let dice = [];
    let selected = -1;
    let full = false;  // (a face tapped with every die in: said, not ignored)
    let photoDice = false;  // (the tray holds a photo's reading: a failed photo replaces it)
    let edits = 0;  // (the player's changes to the tray: a photo read since keeps its hands off)

    function render() {
      // (the tray is drawn afresh: a die that had the focus, corrected from the keyboard,
      // hands it to the die now in its place, not to the page)
      const focusedDie = tray.contains(document.activeElement) ? document.activeElement.dataset.i : undefined;
      tray.innerHTML = dice.map((d, i) =>
        `<button type="button" class="tray-die${d.unsure ? " unsure" : ""}${i === selected ? " selected" : ""}" ` +
        `data-i="${i}" aria-pressed="${i === selected}" ` +
        `aria-label="die ${i + 1}: ${d.value}${d.unsure ? " (unsure)" : ""}">${dieSvg(d.value)}</button>`
      ).join("") || `<span class="tray-empty">no dice yet (${max} to enter)</span>`;
      if (focusedDie !== undefined && dice.length) {
        tray.querySelector(`[data-i="${Math.min(parseInt(focusedDie, 10), dice.length - 1)}"]`).focus();
      }
      const unsure = dice.some((d) => d.unsure);
      help.hidden = !unsure;
      confirm.hidden = !unsure;
      const extra = pad.querySelector(".extra-help");
      if (extra) {  // too many, or (a roll of all the dice in hand) some still to enter
        const short = opts.exact && dice.length > 0 && dice.length < max && !unsure;
        extra.hidden = dice.length <= max && !short && !full;
        extra.textContent = dice.length > max ? `${dice.length - max} too many: tap a die, then Remove (or Clear).`
          : full ? `All ${max} dice are in: tap one to change it, or Remove or Clear.`
          : `${max - dice.length} more to enter: tap their faces.`;
      }
      pad.querySelector('[data-pad="clear"]').disabled = dice.length === 0;
      pad.querySelector('[data-pad="back"]').disabled = dice.length === 0;  // (nothing to remove)
      go.disabled = dice.length === 0 || unsure || dice.length > max ||
        (opts.exact && dice.length !== max);
      if (opts.onChange) opts.onChange(dice.map((d) => d.value), unsure);
    }

    pad.addEventListener("click", (ev) => {
      const face = ev.target.closest("[data-face]");
      const die = ev.target.closest(".tray-die");
      const act = ev.target.closest("[data-pad]");
      full = false;
      if (face || (act && act.dataset.pad === "back")) photoDice = false;  // (now the player's)
      if (face || (act && ["back", "clear", "confirm"].includes(act.dataset.pad))) edits++;
      if (face) {
        const value = parseInt(face.dataset.face, 10);
        if (selected >= 0) {
          dice[selected] = {value, unsure: false};
          selected = -1;
        } else if (dice.length < max) {
          dice.push({value, unsure: false});
        } else {
          full = true;
        }
      } else if (die) {
        const i = parseInt(die.dataset.i, 10);
        selected = selected === i ? -1 : i;
      } else if (act && act.dataset.pad === "back") {
        if (selected >= 0) dice.splice(selected, 1); else dice.pop();
        selected = -1;
      } else if (act && act.dataset.pad === "clear") {
        dice = [];
        selected = -1;
        photoDice = false;
        // (the last photo goes with its dice: its boxes and values had stood above a roll
        // tapped in after, as if they were the roll scored; one being read says its own)
        if (!pad.dataset.reading) preview.hidden = true;
      } else if (act && act.dataset.pad === "confirm") {
        dice.forEach((d) => { d.unsure = false; });
        render();
        if (opts.onConfirm) opts.onConfirm(dice.map((d) => d.value));
        return;
      } else if (act && act.dataset.pad === "go") {
        opts.onGo(dice.map((d) => d.value));
        return;
      } else {
        return;
      }
      render();
    });

    const input = pad.querySelector("input.photo");
    const preview = pad.querySelector(".photo-preview");
    let photos = 0;  // (photos sent: an older one's answer coming last is dropped)
    input.addEventListener("change", async () => {
      const file = input.files && input.files[0];
      if (!file) return;
      const mine = ++photos;
      pad.dataset.reading = "1";  // (a sheet swapped meanwhile says the photo went with it)
      const editsThen = edits;
      const status = preview.querySelector(".photo-status");
      preview.hidden = false;
      status.textContent = "Reading the dice…";
      status.classList.remove("error");
      const form = new FormData();
      form.append("photo", file);
      const rules = opts.rules ? opts.rules() : "";
      try {
        const extra = opts.readQuery ? opts.readQuery() : "";
        const resp = await readPhoto(
          "/api/read" + (rules ? "?rules=" + encodeURIComponent(rules) + extra : ""), form,
          () => { status.textContent = BUSY_AGAIN; }, () => mine === photos);
        if (!resp) return;  // (a newer photo was sent while it waited)
        const body = await resp.json().catch(() => ({}));  // (a proxy's HTML error page)
        if (mine !== photos) return;  // (a newer photo was sent meanwhile: its dice count)
        const img = preview.querySelector("img");
        // nothing of this photo to show, and nothing wrong with it: the dice stay. Busy
        // reading others' photos (503); the rules refused before it was looked at (422: a
        // rule check's clashing house rules had emptied the tray of the last photo's dice);
        // or an answer that is not the app's (a Wi-Fi login page, 200 in HTML)
        const refused = resp.status === 503 ? body.error || "The server is busy"
          : resp.status === 422 ? `The photo was not read: ${body.error}`
          : resp.ok && !Array.isArray(body.detections)
            ? `The photo was not read: ${tooLargeOr(resp.status)}` : null;
        if (refused) {
          const kept = dice.length ? " The dice above are as they were." : "";
          status.textContent = `${refused.replace(/[.:;]$/, "")}.${kept}`;
          status.classList.add("error");
          return;
        }
        if (!resp.ok) {  // the last photo's picture and dice go: they are not this photo's
          img.removeAttribute("src");  // (dice tapped in by hand stay: they are the player's)
          img.hidden = true;
          if (photoDice) dice = [];
          photoDice = false;
          selected = -1;
          render();
          status.textContent = `Could not read that photo: ${body.error || tooLargeOr(resp.status)}`;
          status.classList.add("error");
          return;
        }
        img.src = body.annotated;
        img.alt = body.detections.length ? "the photo with the dice found" : "the photo: no dice found";
        img.hidden = false;
        if (edits !== editsThen) {  // dice tapped in while it was read: the player's stand
          status.textContent = "The photo's dice were not used: you changed the dice while " +
            "it was read. Send it again to use it.";
          return;
        }
        if (body.detections.length || photoDice) {  // (none found: dice tapped in stay)
          dice = body.detections.map((d) => ({value: d.value, unsure: d.unsure}));
        }
        photoDice = body.detections.length > 0;
        selected = -1;
        const n = body.detections.length;
        const found = `Found ${n} ${n === 1 ? "die" : "dice"}`;
        status.textContent = !n ? (dice.length ? "No dice found in the photo: the dice above are as they were."
          : "No dice found: tap them in.")
          : body.detections.some((d) => d.smeared)  // (a moving phone, or out of focus)
            ? `${found}, but the photo looks blurred: take it again, or check the orange dice.`
            : body.detections.some((d) => d.small)  // (a camera far off, or a tiny photo)
              ? `${found}, but ${smallWords(body.detections)} in the photo: take it closer, or check the orange dice.`
              : `${found}: check ${n === 1 ? "it" : "them"} above.`;
        render();
        if (opts.onRead) opts.onRead(body);
      } catch (e) {
        if (mine !== photos) return;
        status.textContent = failedWords(e);
        status.classList.add("error");
      } finally {
        input.value = "";
        if (mine === photos) delete pad.dataset.reading;
      }
    });
    render();
    return {
      clear() { dice = []; photoDice = false; render(); },
      values() { return dice.map((d) => d.value); },
      settled() { return dice.length > 0 && dice.length <= max && !dice.some((d) => d.unsure); },
      // another rule set's dice (the rule check's picker): the help and the limit follow
      setCount(n) {
        max = n;
        pad.dataset.count = String(n);
        pad.querySelector(".pad-help").textContent =
          `Tap the ${n} ${n === 1 ? "die" : "dice"} you rolled (any order), or take a photo. Tap a die to fix it.`;
        render();
      },
    };
  }

  // A photo's upload and reading is given up after this long (a slow network sending a
  // 20 MB photo: two minutes at 1.5 Mbit/s), as an upload failed, where it had waited on.
  const PHOTO_WITHIN_MS = 120000;

  function failedWords(e) {
    return HotNet.timedOut(e) ? "Upload failed: no answer in two minutes (network?): try again."
      : "Upload failed: the scoresheet could not be reached (network?): try again.";
  }

  // What a failed photo upload says when its answer is not the app's JSON: a body far over
  // the limit is refused by the server itself (`hotdice serve`), in plain text.
  function tooLargeOr(status) {
    return status === 413 ? "the photo is too large to send (at most 20 MB)"
      : status === 200 ? "the answer was not the scoresheet's (a network's login page?): try again"
      : `the server had a problem (error ${status}): try again`;
  }

  // Which of a photo's dice are too small to read surely, in words ("they are small").
  function smallWords(detections) {
    const small = detections.filter((d) => d.small).length;
    if (small === detections.length) return small === 1 ? "it is small" : "they are small";
    return small === 1 ? "one is small" : `${small} are small`;
  }

  // A photo sent to be read (`url`, the multipart `form`); where the server is busy reading
  // others' photos (503), sent again once, after the wait it asks for (the photo had been
  // dropped, and a phone's camera made the player take it again), `busy()` said first;
  // null where `current()` says it is no longer wanted by then.
  const BUSY_AGAIN = "The server is busy reading other photos: trying again…";
  async function readPhoto(url, form, busy, current) {
    const send = () => fetch(url, {method: "POST", body: form, ...HotNet.within(PHOTO_WITHIN_MS)});
    const resp = await send();
    if (resp.status !== 503 || !current()) return resp;
    const wait = Math.min(10, parseFloat(resp.headers.get("Retry-After")) || 2);
    busy();
    await new Promise((done) => setTimeout(done, wait * 1000));
    return current() ? send() : null;
  }

  window.HotDice = {attach, diceRow, tooLargeOr, failedWords, readPhoto, BUSY_AGAIN, PHOTO_WITHIN_MS};
})();

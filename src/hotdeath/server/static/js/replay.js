// Step through a game: a finished one with every hand face up, the events of each step,
// and a check of every deal against the commitment the server published before the hand;
// a running one as this browser's seat sees it (its seat token, kept by the table page),
// or as a spectator.

import {
  COLOR_LETTER, api, cardImg, cardName, cardSortKey, colorShape, el, loadCards, plainText, plural, sha256Hex,
} from "./common.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] || "");
// The server sends a game in pages of steps (`start`, `next`, `total_steps`): the page of a
// step is fetched when the step is first shown, and the one after it ahead of time.
const R = { data: null, index: 0, timer: null, theme: "family", steps: [], total: 0, token: null,
  pageSize: 200, loading: new Map() };
const replayPath = () => `/api/games/${encodeURIComponent(gameId)}/replay`;

function keep(page) {
  for (const step of page.steps || []) R.steps[step.index] = step;
  R.total = page.total_steps || R.steps.length;
}

/** Make sure step `index` is here (fetch its page if not). */
function ensure(index) {
  if (R.steps[index] || index < 0 || index >= R.total) return Promise.resolve();
  const start = Math.floor(index / R.pageSize) * R.pageSize;
  if (!R.loading.has(start)) {
    R.loading.set(start, api(`${replayPath()}?start=${start}&count=${R.pageSize}`, { token: R.token })
      .then(keep).finally(() => R.loading.delete(start)));
  }
  return R.loading.get(start);
}

function nameOf(seat) {
  const names = (R.data && R.data.names) || [];
  return seat === null || seat === undefined || seat < 0 ? "nobody" : names[seat] || `Seat ${seat + 1}`;
}

function render() {
  const step = R.steps[R.index];
  if (!step) return;
  const v = step.view;
  $("slider").value = String(R.index);
  $("counter").textContent = `${R.index} / ${R.total - 1}`;
  const first = (step.events || [])[0];
  $("step-title").textContent = step.action === null
    ? "The opening: the dealer deals and turns up the first card"
    : `Step ${R.index}: ${first && first.text ? plainText(first.text) : `${nameOf(step.seat)}: ${step.action}`}`
      + ((R.data.hints || []).some((h) => h[1] === R.index) ? ` (${nameOf(step.seat)} asked the coach for a hint first)` : "");
  $("step-events").replaceChildren(...(step.events || []).map((ev) => el("li", {},
    plainText(ev.text || ev.kind), ev.rule ? el("span", { class: "rule-id", title: ev.rule_text || ev.rule }, ev.rule) : null)));
  const shown = (v.discard || []).slice(-3);
  $("discard").replaceChildren(...shown.map((code, i) => {
    const img = cardImg(code, R.theme);
    img.style.transform = `rotate(${((v.discard.length - shown.length + i) * 37) % 17 - 8}deg)`;
    return img;
  }));
  $("top-name").textContent = v.top ? `On top: ${cardName(v.top, R.theme)}` : "";
  const pill = $("color-pill");
  pill.className = `color-pill ${v.color || "none"}`;
  pill.innerHTML = v.color ? `${colorShape(v.color)}<span>${v.color} (${COLOR_LETTER[v.color]})</span>` : "<span>no colour yet</span>";
  $("direction").className = `direction ${v.direction}`;
  $("direction-text").textContent = v.direction === "cw" ? "clockwise" : "counter-clockwise";
  const attack = $("attack");
  const words = step.attack_words; // from the server (hotdeath.words.pending_words)
  attack.classList.toggle("hidden", !(v.attack && words));
  if (v.attack && words) attack.textContent = `⚠ ${[words.text, ...words.details].join(" · ")}`;
  const hands = step.hands || [];
  if (!step.hands && v.seat !== null && v.seat !== undefined && v.hand) hands[v.seat] = v.hand;
  $("hands").replaceChildren(...v.seats.map((s) => {
    const known = hands[s.seat];
    const cards = (known || []).slice().sort((a, b) => cardSortKey(a).localeCompare(cardSortKey(b)));
    // a hand this view does not hold: the cards its player showed to everyone, as at the table
    const shown = !known && s.revealed && s.revealed.length
      ? el("div", { class: "hand-row shown", "aria-label": "cards shown to everyone" },
        el("span", { class: "label" }, "shown"),
        ...s.revealed.map((c) => { const img = cardImg(c, R.theme); img.title = cardName(c, R.theme); return img; }))
      : null;
    return el("div", { class: `seat-box${v.current_player === s.seat && v.phase !== "game_over" ? " turn" : ""}`, "data-seat": s.seat },
      el("strong", {}, nameOf(s.seat)), el("span", { class: "muted" }, ` · ${plural(s.hand_size, "card")} · ${plural(s.score, "point")}${s.active ? "" : " · out"}`),
      known ? el("div", { class: "hand-row" }, ...cards.map((c) => cardImg(c, R.theme))) : shown);
  }));
}

async function go(index) {
  R.index = Math.max(0, Math.min(R.total - 1, index));
  const wanted = R.index;
  try {
    await ensure(wanted);
  } catch (err) {
    const box = $("error");
    box.textContent = `${err.message} (${err.code})`;
    box.classList.remove("hidden");
    return;
  }
  if (R.index === wanted) render();
  ensure(wanted + R.pageSize).catch(() => {}); // the next page, ahead of time
}

function togglePlay() {
  if (R.timer) {
    clearInterval(R.timer);
    R.timer = null;
    $("play").textContent = "▶ Play";
    return;
  }
  $("play").textContent = "⏸ Pause";
  R.timer = setInterval(() => {
    if (R.index >= R.total - 1) togglePlay();
    else go(R.index + 1);
  }, 700);
}

async function verify() {
  const list = $("verify");
  const commitments = R.data.commitments || [];
  if (!commitments.length) return;
  $("verify-box").classList.remove("hidden");
  for (const r of commitments) {
    const digest = await sha256Hex(`${r.salt}:${r.deck.join(" ")}`);
    const ok = digest === null ? null : digest === r.digest;
    list.append(el("li", { class: `verify ${ok === null ? "" : ok ? "ok" : "bad"}` },
      `Hand ${r.hand_no}: ${ok === null ? "cannot check in this browser" : ok ? "✓ the deck matches its commitment" : "✗ the deck does not match"} (${r.digest.slice(0, 24)}…)`));
  }
}

async function main() {
  try {
    const path = replayPath();
    [R.data] = await Promise.all([api(path), loadCards()]);
    // a running game: ask again with this browser's seat token at that table, if any
    const token = R.data.status !== "finished" && R.data.table_id
      ? localStorage.getItem(`hotdeath.token.${R.data.table_id}`) : null;
    if (token) {
      try {
        R.data = await api(path, { token });
        R.token = token;
      } catch (err) {
        if (err.code !== "bad_token") throw err;
      }
    }
  } catch (err) {
    const box = $("error");
    box.textContent = `${err.message} (${err.code})`;
    box.classList.remove("hidden");
    return;
  }
  R.theme = R.data.theme || "family";
  R.pageSize = Math.max(1, (R.data.steps || []).length);
  keep(R.data);
  $("title").textContent = `${R.data.variant} · ${(R.data.names || []).join(", ")}`;
  if (R.data.hints_line) {
    const told = $("hints-line");
    told.textContent = R.data.hints_line;
    told.classList.remove("hidden");
  }
  if (R.data.status !== "finished") {
    const note = $("view-note");
    note.textContent = R.data.seat === null || R.data.seat === undefined
      ? "This game is still running: you see it as a spectator (no hand is shown)."
      : `This game is still running: you see it from your seat, ${nameOf(R.data.seat)}.`;
    note.classList.remove("hidden");
  }
  $("json-link").href = `/api/games/${encodeURIComponent(gameId)}/replay`;
  $("slider").max = String(R.total - 1);
  $("slider").addEventListener("input", () => go(Number($("slider").value)));
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(R.index - 1));
  $("next").addEventListener("click", () => go(R.index + 1));
  $("last").addEventListener("click", () => go(R.total - 1));
  $("play").addEventListener("click", togglePlay);
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input")) return;
    if (e.key === "ArrowRight") go(R.index + 1);
    else if (e.key === "ArrowLeft") go(R.index - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(R.total - 1);
    else if (e.key === " ") { e.preventDefault(); togglePlay(); }
  });
  // a finished game from its start; a running one where it stands now
  await go(R.data.status === "finished" ? 0 : R.total - 1);
  verify();
  document.body.dataset.ready = "1";
}

main();

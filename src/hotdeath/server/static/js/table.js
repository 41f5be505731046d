// The table: joins a seat (or watches), talks to the server over the WebSocket of
// docs/protocol.md and draws what this seat may know. Only legal actions are clickable.

import {
  COLOR_LETTER, TROPHY_SVG, api, cardImg, cardName, cardSortKey, colorShape, el, loadCards,
  plainText, plural, seatColor, sha256Hex, toast,
} from "./common.js";
import { cardHelpOpen, helpKey, hideCardHelp, initCardHelp, loadCardHelp } from "./cardhelp.js";
import { chatLine, chatShown, chatWelcome, initChat } from "./chat.js";
import { flyCard, rectOf, reducedMotion } from "./motion.js";
import { playSound, setSound, setSoundInBackground, soundInBackground, soundOn } from "./sound.js";
import { PHONE, buzz, clearHandLayout, layoutHand } from "./handmode.js";
import { fitScreen, initScreen, renderJoin } from "./screen.js";

const $ = (id) => document.getElementById(id);
/** The table screen (/t/{table}/screen, screen.html): a spectator's view for the room. */
const SCREEN = document.body.dataset.view === "screen";
const tableId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean)[1] || "");
const params = new URLSearchParams(window.location.search);
const TOKEN_KEY = `hotdeath.token.${tableId}`;
const HOST_KEY = `hotdeath.host.${tableId}`;

const S = {
  token: null,
  host: localStorage.getItem(HOST_KEY),
  spectate: SCREEN || params.get("spectate") === "1",
  fullTable: false,
  seat: null,
  name: null,
  table: null,
  gameId: null,
  version: -1,
  view: null,
  names: [],
  theme: "family",
  log: [],
  commitment: null,
  seedCommitment: null,
  reveals: {},
  ws: null,
  heard: 0,
  retry: 0,
  closing: false,
  pending: null,
  unoArmed: false,
  selected: [],
  chooserKey: null,
  dialogKind: null,
  lastTop: null,
  msgCounter: 0,
  handHistory: [],
  hint: null,
  hintAsked: null,
  hintsLine: "",
  autoMarks: {},
  why: null,
  whyAsked: null,
};

// ------------------------------------------------------------------ names and helpers

function nameOf(seat) {
  if (seat === null || seat === undefined || seat < 0) return "nobody";
  if (S.names && S.names[seat]) return S.names[seat];
  const info = S.table && S.table.seats && S.table.seats[seat];
  if (info && info.name) return info.name;
  return `Seat ${seat + 1}`;
}

/** A seat's name without a bot's level ("Ada" for "Ada — strong bot"), for small places. */
function firstName(seat) {
  return nameOf(seat).split(" — ")[0];
}

function youOr(seat) {
  return seat === S.seat ? "You" : nameOf(seat);
}

/** "Ann", "Ann and Bo", "Ann, Bo and Cy". */
function listWords(words) {
  if (words.length < 2) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** This seat's legal actions, in parts and words, as the server sent them. */
function legal() {
  return S.actions || [];
}

function isMyTurn() {
  return S.view && S.seat !== null && S.view.current_player === S.seat && S.view.phase !== "game_over";
}

// ------------------------------------------------------------------ connection

function setConn(text, online) {
  const c = $("conn");
  c.textContent = text;
  c.classList.toggle("online", online);
  c.classList.toggle("offline", !online);
}

// The server sends something at least every 2.5 s (a `heartbeat` when nothing else:
// docs/protocol.md): a socket silent for SILENCE_MS belongs to a server that stalled or is
// gone, and one that does not open within OPEN_MS reached such a server. Either is dropped
// at once (no closing handshake to wait for) and the page connects again.
const SILENCE_MS = 6000;
const OPEN_MS = 5000;

function connect() {
  const proto = window.location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${window.location.host}/ws/${encodeURIComponent(tableId)}`);
  S.ws = ws;
  S.heard = Date.now();
  setConn(S.retry ? "reconnecting…" : "connecting…", false);
  ws.addEventListener("open", () => {
    S.retry = 0;
    S.heard = Date.now();
    ws.send(JSON.stringify({ type: "hello", token: S.spectate ? null : S.token }));
  });
  ws.addEventListener("message", (e) => {
    S.heard = Date.now();
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    onMessage(msg);
  });
  ws.addEventListener("close", () => lost(ws));
}

/** The socket `ws` closed or fell silent: show it, and connect again after a wait. */
function lost(ws) {
  if (S.ws !== ws) return;
  S.ws = null;
  S.pending = null;
  document.body.dataset.pending = "0";
  setConn("offline — reconnecting…", false);
  document.body.dataset.connected = "0";
  if (S.closing) return;
  S.retry += 1;
  const delay = Math.min(5000, 300 * 2 ** Math.min(S.retry, 5));
  setTimeout(connect, delay);
}

setInterval(() => {
  const ws = S.ws;
  if (!ws) return;
  const quiet = Date.now() - S.heard;
  const silent = ws.readyState === WebSocket.OPEN && quiet > SILENCE_MS;
  if (silent || (ws.readyState === WebSocket.CONNECTING && quiet > OPEN_MS)) {
    lost(ws);
    try { ws.close(); } catch { /* already closing */ }
  }
}, 1000);

function send(obj) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    toast("Not connected: trying again in a moment.");
    return false;
  }
  S.ws.send(JSON.stringify(obj));
  return true;
}

function act(text) {
  if (S.pending) return;
  S.msgCounter += 1;
  const id = `c-${Date.now().toString(36)}-${S.msgCounter}`;
  if (send({ type: "action", action: text, version: S.version, id })) {
    S.pending = id;
    S.unoArmed = false;
    S.selected = [];
    closeDialog("chooser");
    document.body.dataset.pending = "1";
  }
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      S.seat = msg.seat;
      S.name = msg.name;
      S.table = msg.table;
      setConn(S.seat === null ? "watching" : "online", true);
      document.body.dataset.connected = "1";
      document.body.dataset.seat = S.seat === null ? "spectator" : String(S.seat);
      if (!SCREEN) chatWelcome(msg, S.seat);
      renderTable();
      break;
    case "chat":
      if (!SCREEN) chatLine(msg.line);
      break;
    case "breather":
      onBreather(msg);
      break;
    case "table":
      S.table = msg.table;
      renderTable();
      if (S.view) renderGame();
      break;
    case "state":
      onState(msg);
      break;
    case "hint":
      onHint(msg);
      break;
    case "check":
      onCheck(msg);
      break;
    case "error":
      onError(msg);
      break;
    default:
      break;
  }
}

function onError(msg) {
  if (msg.id && msg.id === S.hintAsked) {
    S.hintAsked = null;
    renderActions(); renderCoach();
  }
  if (msg.id && msg.id === S.pending) {
    S.pending = null;
    document.body.dataset.pending = "0";
  }
  if (msg.code === "stale") return; // the newer states reach us anyway
  if (msg.code === "removed") {
    localStorage.removeItem(TOKEN_KEY);
    S.token = null;
    S.spectate = true;
  }
  if (msg.code === "bad_token") {
    localStorage.removeItem(TOKEN_KEY);
    S.token = null;
    toast("This seat link is no longer valid: join again or watch.");
    showJoin();
    return;
  }
  toast(`${msg.message || "That did not work"} (${msg.code})`);
}

function onState(msg) {
  const newGame = msg.game_id !== S.gameId;
  if (newGame) {
    S.gameId = msg.game_id;
    S.log = [];
    S.handHistory = [];
    S.lastTop = null;
    closeDialog("score");
    closeDialog("over");
  }
  S.version = msg.version;
  const before = S.view;
  const moved = before && !newGame && !msg.log ? motionSources(before, msg) : null;
  S.view = msg.view;
  S.actions = msg.actions || [];
  S.clock = msg.clock ? { ...msg.clock, at: Date.now() } : null;
  S.results = msg.results || null;
  S.attackWords = msg.attack_words || null;
  S.hintsLine = msg.hints_line || "";
  if (S.hint && S.hint.version !== msg.version) S.hint = null; // the game moved on
  const said = (msg.events && msg.events.length ? msg.events : (msg.log || []).slice(-1))
    .slice(0, 2).map((ev) => plainText(ev.text || ev.kind));
  if (said.length) S.lastAction = said.join(" · ");
  S.names = msg.names || S.names;
  S.theme = msg.theme || (S.table && S.table.theme) || "family";
  if (newGame) S.autoMarks = {};
  noteAuto(msg);
  S.commitment = msg.commitment || S.commitment;
  S.seedCommitment = msg.seed_commitment || S.seedCommitment;
  for (const r of msg.reveals || []) S.reveals[r.hand_no] = r;
  if (msg.seed_reveal) S.seedReveal = msg.seed_reveal;
  if (msg.log) {
    S.log = msg.log.slice();
    renderLog(true);
  } else if (msg.events && msg.events.length) {
    S.log.push(...msg.events);
    renderLog(false, msg.events.length);
  }
  S.pending = null;
  document.body.dataset.pending = "0";
  document.body.dataset.version = String(S.version);
  document.body.dataset.game = S.gameId;
  document.body.dataset.legal = (S.view.legal_actions || []).join("|");
  if (S.table && S.table.status === "waiting") S.table.status = "playing";
  const key = (S.view.legal_actions || []).join("|");
  if (S.chooserKey !== null && S.chooserKey !== key) closeDialog("chooser");
  S.selected = S.selected.filter(() => key === S.lastKey);
  S.lastKey = key;
  showGame();
  renderGame();
  if (moved) playMotion(moved, before, msg);
  // a spectator (the table screen) presses no Next hand: the next deal closes the scores
  if (S.seat === null && S.scoredHand && S.view.hand_no > S.scoredHand) closeDialog("score");
  maybeShowScoring();
  autoChooser();
}

// ------------------------------------------------------------------ sound and motion

/**
 * A move a bot made for a person (the turn timer ran out, or the person is away): the
 * server's words stay on that seat until the seat moves by itself again; the person
 * whose move it was is told.
 */
function noteAuto(msg) {
  const last = msg.last_action;
  if (!last) return;
  if (msg.auto) {
    S.autoMarks[last.seat] = { reason: msg.auto_reason, text: msg.auto_text };
    if (last.seat === S.seat && msg.auto_text && !msg.log) toast(msg.auto_text, "info");
  } else {
    delete S.autoMarks[last.seat];
  }
}

/** Where the cards of this state change come from, measured before the page is redrawn. */
function motionSources(before, msg) {
  const last = msg.last_action;
  const from = last ? (last.seat === S.seat ? rectOf($("hand")) : rectOf(document.querySelector(`#opponents .seat[data-seat="${last.seat}"]`))) : null;
  return { from, pile: rectOf($("draw-pile")), handSize: before.hand ? before.hand.length : null };
}

function playMotion(moved, before, msg) {
  const v = S.view;
  const last = msg.last_action;
  const events = msg.events || [];
  const kinds = new Set(events.map((e) => e.kind));
  // sounds: the end of a hand, an Uno call, an attack on me, my turn, a card played
  if (kinds.has("hand_end")) playSound("hand");
  else if ([...kinds].some((k) => k.startsWith("uno"))) playSound("uno");
  else if (v.attack && v.attack.victim === S.seat && !(before.attack && before.attack.victim === S.seat)) {
    playSound("attack");
    buzz("attack");
  } else if (isMyTurn() && before.current_player !== S.seat) {
    playSound("turn");
    buzz("turn");
  }
  else if (v.top !== before.top) playSound("card");
  // motion: a played card travels to the pile, drawn cards fly to the hand, attacks pulse
  if (v.top && v.top !== before.top && last && moved.from) flyCard(v.top, S.theme, moved.from, $("discard"));
  if (v.hand && moved.handSize !== null && v.hand.length > moved.handSize && moved.pile) {
    flyCard("back", S.theme, moved.pile, $("hand"));
  }
  const attack = $("attack");
  if (v.attack && !reducedMotion()) {
    attack.classList.remove("pulse");
    void attack.offsetWidth; // restart the animation
    attack.classList.add("pulse");
  }
}

// ------------------------------------------------------------------ joining

function showJoin() {
  const summary = S.table;
  const open = summary ? summary.seats.filter((s) => s.kind === "open") : [];
  const wanted = params.has("seat") ? Number(params.get("seat")) : null;
  const seat = open.find((s) => s.seat === wanted) || open[0];
  const nameInput = el("input", {
    type: "text", id: "join-name", maxlength: 40, required: true, placeholder: "Your name",
    value: localStorage.getItem("hotdeath.name") || "",
  });
  const body = [];
  if (summary && summary.status === "waiting" && seat) {
    body.push(el("p", {}, `Take seat ${seat.seat + 1} at ${summary.name || "this table"}: `,
      "the others will see your name."));
    body.push(el("div", { class: "field" }, el("label", { for: "join-name" }, "Display name"), nameInput));
  } else {
    body.push(el("p", {}, summary && summary.status !== "waiting"
      ? "The game has started: you can watch it."
      : "Every seat is taken: you can watch the game."));
  }
  const join = async () => {
    const name = nameInput.value.trim();
    if (!name) { nameInput.focus(); return; }
    try {
      const res = await api(`/api/tables/${tableId}/join`, { method: "POST", body: { name, seat: seat.seat } });
      localStorage.setItem(TOKEN_KEY, res.token);
      localStorage.setItem("hotdeath.name", name);
      S.token = res.token;
      S.spectate = false;
      closeDialog("join");
      restart();
    } catch (err) {
      toast(`${err.message} (${err.code})`);
    }
  };
  const watch = () => {
    S.spectate = true;
    closeDialog("join");
    restart();
  };
  const buttons = [el("button", { class: "btn ghost", type: "button", onclick: watch, id: "watch-btn" }, "Just watch")];
  if (summary && summary.status === "waiting" && seat) {
    buttons.push(el("button", { class: "btn primary", type: "submit", id: "join-btn" }, "Take the seat"));
  }
  const form = el("form", { onsubmit: (e) => { e.preventDefault(); join(); } },
    ...body, el("div", { class: "footer" }, ...buttons));
  openDialog("join", "Join the table", [form], { closable: false });
  setConn("not seated yet", false);
  setTimeout(() => nameInput.focus(), 30);
}

function restart() {
  if (S.ws) {
    const old = S.ws;
    S.ws = null;
    old.close();
  }
  connect();
}

// ------------------------------------------------------------------ waiting room

function renderTable() {
  const t = S.table;
  if (!t) return;
  $("table-title").textContent = `${t.name || t.variant_title || t.variant}${t.preset_title ? ` · ${t.preset_title}` : ""}`;
  document.title = `Hot Death — ${t.name || t.variant}`;
  const rulesHref = `/rules/${encodeURIComponent(t.variant)}?table=${encodeURIComponent(tableId)}`;
  $("rules-link").href = rulesHref;
  if ($("screen-link")) $("screen-link").href = `/t/${encodeURIComponent(tableId)}/screen`;
  loadCardHelp(t.variant, t.theme || "family", rulesHref);
  renderSpeed();
  if (t.status === "waiting" && !S.view) showWaiting();
}

function showWaiting() {
  const t = S.table;
  $("waiting").classList.remove("hidden");
  $("game").classList.add("hidden");
  // friends talk while they wait: the chat sits in the waiting room until the game starts
  const pane = $("pane-chat");
  if (pane && pane.parentElement !== $("waiting-chat")) {
    $("waiting-chat").append(pane);
    pane.classList.remove("hidden");
    chatShown(true);
  }
  const isHost = Boolean(S.host);
  const open = t.seats.filter((s) => s.kind === "open").length;
  $("waiting-title").textContent = open ? `Waiting for ${open} more player${open > 1 ? "s" : ""}` : "Everyone is here";
  const changed = t.house_rules || [];
  $("waiting-rules").textContent = [
    `${t.variant_title || t.variant}${t.preset_title ? `, ${t.preset_title}` : ""}`,
    t.goal ? t.goal.text : null,
    changed.length ? `house rules: ${changed.map((h) => h.text).join("; ")}` : "no house rules changed",
    `${t.theme === "original" ? "original" : "family"} card names`,
    `bots wait ${Number(t.bot_delay ?? 0).toFixed(1)} s`,
    t.hints ? "hints from the coach on" : "hints from the coach off",
  ].filter(Boolean).join(" · ");
  $("waiting-hint").textContent = isHost
    ? (SCREEN ? "Put bots in the seats nobody takes, then start."
      : "Send the links below to your friends, or put bots in the open seats, then start.")
    : "The host starts the game when every seat is filled.";
  const list = $("seats-wait");
  list.replaceChildren();
  for (const s of t.seats) {
    const editable = isHost && s.kind !== "human";
    let label = s.kind === "open" ? "Open seat" : s.kind === "bot" ? s.name || "Bot" : s.name;
    if (editable) label = s.kind === "open" ? "Open" : "Bot";
    const row = el("div", { class: "seat-cfg", "data-seat": s.seat, "data-kind": s.kind },
      el("span", { class: "num" }, String(s.seat + 1)),
      el("span", { style: editable ? "" : "flex:1" }, label, s.seat === S.seat ? " (you)" : ""),
      s.kind === "human" && !s.connected ? el("span", { class: "tag away" }, "away") : null);
    if (editable) {
      const sel = el("select", { "aria-label": `Seat ${s.seat + 1}` },
        el("option", { value: "open" }, "nobody yet (share the link)"),
        ...botSpecs().map((b) => el("option", { value: b.spec, title: `advanced: ${b.spec}` }, b.label)));
      if (s.kind === "bot" && !botSpecs().some((b) => b.spec === s.bot)) sel.append(el("option", { value: s.bot }, s.bot_label || "bot"));
      sel.value = s.kind === "bot" ? s.bot : "open";
      sel.addEventListener("change", () => changeSeat(s.seat, sel.value));
      row.append(sel);
    }
    if (isHost && s.kind === "human" && s.seat !== S.seat) row.append(kickButton(s));
    list.append(row);
  }
  if (SCREEN) renderJoin(t);
  else renderShareLinks($("share-links"));
  const start = $("start-btn");
  start.classList.toggle("hidden", !isHost);
  start.disabled = open > 0;
}

let botCatalog = null;

function botSpecs() {
  if (!botCatalog) return [{ spec: "basic", label: "Casual bot" }];
  return botCatalog.map((b) => ({ spec: b.spec, label: `${b.label[0].toUpperCase()}${b.label.slice(1)}` }));
}

/** Host: give a person's seat to a bot (before or during the game). */
function kickButton(s) {
  return el("button", {
    class: "btn small ghost kick", type: "button", "data-kick": s.seat,
    onclick: async () => {
      if (!window.confirm(`Remove ${s.name} from the table? A bot takes the seat.`)) return;
      try {
        S.table = await api(`/api/tables/${tableId}/seats/${s.seat}`, { method: "DELETE", token: S.host });
        renderTable();
        if (S.view) renderGame();
      } catch (err) {
        toast(`${err.message} (${err.code})`);
      }
    },
  }, "Remove");
}

async function changeSeat(seat, value) {
  try {
    if (value === "open") {
      S.table = await api(`/api/tables/${tableId}/bots/${seat}`, { method: "DELETE", token: S.host });
    } else {
      S.table = await api(`/api/tables/${tableId}/bots`, { method: "POST", token: S.host, body: { seat, bot: value } });
    }
    renderTable();
  } catch (err) {
    toast(`${err.message} (${err.code})`);
  }
}

async function startGame() {
  try {
    S.table = await api(`/api/tables/${tableId}/start`, { method: "POST", token: S.host });
  } catch (err) {
    toast(`${err.message} (${err.code})`);
  }
}

function renderShareLinks(box) {
  const t = S.table;
  const origin = window.location.origin;
  const rows = [];
  for (const s of t.seats.filter((x) => x.kind === "open")) {
    rows.push([`Seat ${s.seat + 1}`, `${origin}/t/${tableId}?seat=${s.seat}`]);
  }
  rows.push(["Watchers", `${origin}/t/${tableId}?spectate=1`]);
  if (t.code) rows.unshift([`Code ${t.code}`, `${origin}/${t.code}`]);
  rows.push(["TV screen", `${origin}/t/${tableId}/screen`]);
  box.replaceChildren(el("h3", {}, "Links to share"), ...rows.map(([label, url]) => {
    const input = el("input", { type: "text", readonly: true, value: url, "aria-label": `${label} link` });
    const copy = el("button", {
      class: "btn small", type: "button",
      onclick: async () => {
        try { await navigator.clipboard.writeText(url); toast("Link copied", "info"); } catch {
          input.select();
          document.execCommand("copy");
          toast("Link copied", "info");
        }
      },
    }, "Copy");
    return el("div", { class: "link-box" }, el("strong", { style: "min-width:80px" }, label), input, copy);
  }));
}

// ------------------------------------------------------------------ the game

function showGame() {
  $("waiting").classList.add("hidden");
  $("game").classList.remove("hidden");
  closeDialog("join");
  // the chat goes back to its tab beside the table
  const pane = $("pane-chat");
  if (pane && pane.parentElement !== $("pane-scores").parentElement) {
    $("pane-scores").after(pane);
    pane.classList.toggle("hidden", $("tab-chat").getAttribute("aria-selected") !== "true");
    chatShown(!pane.classList.contains("hidden"));
  }
}

/** The seat after the current one in the direction of play (active seats only). */
function nextPlayer() {
  const v = S.view;
  if (!v || v.phase === "game_over" || v.current_player < 0) return null;
  const step = v.direction === "ccw" ? -1 : 1;
  for (let i = 1; i <= v.players; i += 1) {
    const seat = (((v.current_player + step * i) % v.players) + v.players) % v.players;
    if (v.seats[seat] && v.seats[seat].active) return seat;
  }
  return null;
}

/** The turn timer as a ring that empties, with the seconds left. */
function clockRing() {
  const ring = el("span", { class: "clock-ring", role: "timer", "data-clock": "1" });
  tickClock(ring);
  return ring;
}

function tickClock(ring) {
  const c = S.clock;
  if (!c) return;
  const left = Math.max(0, c.left - (Date.now() - c.at) / 1000);
  ring.style.setProperty("--p", String(Math.max(0, Math.min(1, left / c.seconds))));
  ring.textContent = `${Math.ceil(left)}`;
  ring.setAttribute("aria-label", `${Math.ceil(left)} seconds left`);
  ring.classList.toggle("low", left <= 5);
}

setInterval(() => {
  for (const ring of document.querySelectorAll("[data-clock]")) tickClock(ring);
}, 250);

function seatTags(seat, sv) {
  const tags = [];
  const info = S.table && S.table.seats ? S.table.seats[seat] : null;
  if (seat === S.seat) tags.push(el("span", { class: "tag you" }, "you"));
  if (seat === nextPlayer() && seat !== S.view.current_player) tags.push(el("span", { class: "tag next", title: "plays next" }, "next"));
  if (S.clock && S.clock.seat === seat) tags.push(clockRing());
  if (S.view.dealer === seat) tags.push(el("span", { class: "tag dealer", title: "dealer" }, "dealer"));
  if (info && info.kind === "bot") tags.push(el("span", { class: "tag bot", title: info.bot_label || "a bot" }, "bot"));
  if (info && info.kind === "human" && !info.connected) tags.push(el("span", { class: "tag away" }, "away"));
  if (info && info.played_by_bot) tags.push(el("span", { class: "tag bot" }, "bot plays"));
  const mark = S.autoMarks[seat];
  if (mark) {
    tags.push(el("span", { class: "tag auto", title: mark.text || "", "data-auto": mark.reason },
      mark.reason === "timer" ? "time ran out: bot played" : "away: bot played"));
  }
  if (S.host && !SCREEN && info && info.kind === "human" && seat !== S.seat) tags.push(kickButton(info));
  if (sv.uno_catchable) tags.push(el("span", { class: "tag uno" }, "no Uno call!"));
  else if (sv.active && sv.hand_size === 1) tags.push(el("span", { class: "tag uno" }, "Uno"));
  if (!sv.active) tags.push(el("span", { class: "tag" }, "out"));
  if (sv.infections) tags.push(el("span", { class: "tag away" }, `virus ×${sv.infections}`));
  return tags;
}

function renderSeat(sv) {
  const seat = sv.seat;
  const backs = el("div", { class: "backs", "aria-hidden": "true" });
  for (let i = 0; i < Math.min(sv.hand_size, 8); i += 1) backs.append(cardImg("back", S.theme));
  const box = el("div", {
    style: `--seat-color:${seatColor(seat)}`,
    class: `seat${S.view.current_player === seat && S.view.phase !== "game_over" ? " turn" : ""}${sv.active ? "" : " out"}${sv.active && sv.hand_size === 1 ? " uno" : ""}`,
    "data-seat": seat,
  },
  el("div", { class: "who" },
    el("span", { class: "avatar", style: `background:${seatColor(seat)}` }, nameOf(seat).slice(0, 1).toUpperCase()),
    el("span", { class: "name", title: nameOf(seat) }, nameOf(seat)),
    el("span", { class: "first", title: nameOf(seat) }, firstName(seat)),
    el("span", { class: "score", title: "total points" }, `${sv.score} pts`)),
  el("div", { class: "count" }, backs,
    el("span", { class: "n", "data-count": sv.hand_size }, String(sv.hand_size)),
    el("span", { class: "muted" }, sv.hand_size === 1 ? "card" : "cards")),
  el("div", { class: "tags" }, ...seatTags(seat, sv)));
  if (sv.revealed && sv.revealed.length) {
    box.append(el("div", { class: `revealed${sv.revealed.length > 5 ? " many" : ""}`, "aria-label": "cards shown to everyone" },
      el("span", { class: "label" }, "shown"),
      ...sv.revealed.map((c) => {
        const img = cardImg(c, S.theme);
        img.title = cardName(c, S.theme);
        img.dataset.helpCard = c;
        return img;
      })));
  }
  return box;
}

function renderGame() {
  const v = S.view;
  if (!v) return;
  document.body.dataset.phase = v.phase;
  document.body.dataset.turn = String(v.current_player);
  $("hand-info").textContent = `hand ${Math.max(1, v.hand_no)}`;
  // the others, in playing order after me
  const others = [];
  for (let i = 1; i <= v.players; i += 1) {
    const seat = S.seat === null ? (i - 1) : (S.seat + i) % v.players;
    if (seat !== S.seat) others.push(v.seats[seat]);
  }
  $("opponents").replaceChildren(...others.map(renderSeat));
  document.body.style.setProperty("--seats", String(v.players));
  document.body.dataset.players = String(v.players);
  applyHandMode();
  if (SCREEN) fitScreen(v.players);
  renderCenter();
  renderStrip();
  renderActions();
  renderCoach();
  renderMe();
  renderScores();
}

// ------------------------------------------------------------------ the phone as a hand

/** Whether this page is a phone's hand now: a narrow screen, a seat, the hand shown. */
function handMode() {
  return !SCREEN && PHONE.matches && S.seat !== null && Boolean(S.view) && !S.fullTable;
}

function applyHandMode() {
  const phoneSeat = !SCREEN && PHONE.matches && S.seat !== null && Boolean(S.view);
  document.body.classList.toggle("hand-mode", handMode());
  document.body.classList.toggle("full-table", phoneSeat && S.fullTable);
  const toggle = $("view-table");
  if (toggle) toggle.setAttribute("aria-pressed", String(S.fullTable));
}

function showFullTable(on) {
  S.fullTable = on;
  renderGame();
  window.scrollTo(0, 0);
}

/** The strip above a phone's hand: top card, colour, direction, attack, whose turn. */
function renderStrip() {
  if (!$("strip")) return;
  const v = S.view;
  const top = v.top ? cardImg(v.top, S.theme) : null;
  if (top) top.dataset.helpCard = v.top;
  $("strip-top").replaceChildren(...(top ? [top] : []));
  $("strip-top").title = v.top ? `On top: ${cardName(v.top, S.theme)}` : "";
  const color = $("strip-color");
  color.className = `strip-color ${v.color || "none"}`;
  color.innerHTML = v.color ? colorShape(v.color, 24) : "";
  color.setAttribute("aria-label", v.color ? `colour: ${v.color}` : "no colour yet");
  color.title = v.color ? `${v.color[0].toUpperCase()}${v.color.slice(1)}` : "no colour yet";
  const dir = $("strip-dir");
  dir.textContent = v.direction === "ccw" ? "↺" : "↻";
  dir.setAttribute("aria-label", v.direction === "ccw" ? "counter-clockwise" : "clockwise");
  dir.title = dir.getAttribute("aria-label");
  const attack = $("strip-attack");
  const a = S.attackWords; // words from the server (hotdeath.words.pending_words)
  if (v.attack && a) {
    const text = a.count === null ? a.text : a.lead;
    const count = a.count;
    attack.replaceChildren(`⚠ ${count ? `+${count}` : ""}`);
    attack.title = text;
    attack.setAttribute("aria-label", count ? `${text} ${count}` : text);
    attack.classList.remove("hidden");
    attack.classList.toggle("mine", v.attack.victim === S.seat);
  } else {
    attack.classList.add("hidden");
  }
  const turn = $("strip-turn");
  const mine = isMyTurn();
  // a long name is cut short with an ellipsis, never "'s turn"
  let words;
  if (v.phase === "game_over") words = [el("span", { class: "who" }, "Game over")];
  else if (mine) words = [el("span", { class: "who" }, "Your turn")];
  else words = [el("span", { class: "who" }, firstName(v.current_player)), el("span", {}, "'s turn")];
  turn.replaceChildren(...words, S.clock && S.clock.seat === v.current_player ? clockRing() : "");
  turn.title = words.map((w) => w.textContent).join("");
  turn.classList.toggle("you", mine || legal().length > 0);
}

// ------------------------------------------------------------------ the coach

/** Whether this seat may ask the coach now: hints on at the table, and its own turn. */
function canAskHint() {
  return Boolean(S.table && S.table.hints) && S.seat !== null && isMyTurn() && legal().length > 0;
}

function askHint() {
  if (!canAskHint() || S.hintAsked) return;
  S.msgCounter += 1;
  const id = `h-${Date.now().toString(36)}-${S.msgCounter}`;
  if (send({ type: "hint", id })) {
    S.hintAsked = id;
    S.hint = null;
    renderActions(); renderCoach();
  }
}

function onHint(msg) {
  if (msg.id !== S.hintAsked) return;
  S.hintAsked = null;
  S.hint = msg.version === S.version ? msg : null;
  if (!S.hint) toast("The game moved on while the coach was thinking.", "info");
  renderActions(); renderCoach();
}

/** The Hint button among the actions, on this seat's turn at a table with hints on. */
function coachButton() {
  if (!canAskHint()) return null;
  return el("button", {
    class: "btn ghost", type: "button", id: "hint-btn", disabled: Boolean(S.hintAsked),
    title: "Ask the coach what a strong player would do, from what you can see",
    onclick: askHint,
  }, S.hintAsked ? "The coach is thinking…" : "Hint", el("kbd", {}, "T"));
}

/** The coach's answer: the hint's moves with their chances and reasons (shown until the
 * game moves on). */
function renderCoach() {
  const box = $("coach");
  if (!box) return;
  const h = S.hint;
  const on = Boolean(h) && h.version === S.version && S.seat !== null;
  box.classList.toggle("hidden", !on);
  const children = [];
  if (on) {
    const still = new Set(S.view.legal_actions || []);
    const rows = h.hint.moves.map((m, i) => el("li", { class: i === 0 ? "best" : "", "data-move": m.action },
      el("span", { class: "move" }, m.words),
      m.value === null ? null : el("span", { class: "value", title: "estimated chance to win the hand" },
        ` ${Math.round(100 * m.value)}%${i === 0 ? " to win the hand" : ""}`),
      el("span", { class: "reason" }, ` — ${m.reason}`),
      still.has(m.action) && !S.pending ? el("button", {
        class: "btn small", type: "button", "data-play-hint": m.action,
        onclick: () => act(m.action),
      }, "Play it") : null));
    children.push(el("div", { class: "coach-body", id: "hint-box" },
      el("button", {
        class: "btn small ghost coach-close", type: "button", id: "hint-close", "aria-label": "Close the hint",
        onclick: () => { S.hint = null; renderCoach(); },
      }, "Close"),
      el("strong", {}, "The coach would play:"),
      el("ol", { class: "coach-moves" }, ...rows),
      h.hint.why ? el("p", { class: "coach-why", id: "hint-why" }, h.hint.why) : null,
      el("small", { class: "muted" }, `From what you can see only · ${h.used === 1 ? "1 hint" : `${h.used} hints`} used this game`)));
  }
  box.replaceChildren(...children);
}

function renderCenter() {
  const v = S.view;
  const acts = legal();
  const drawPile = $("draw-pile");
  const canDraw = acts.some((a) => a.kind === "draw");
  drawPile.disabled = !canDraw;
  drawPile.classList.toggle("legal", canDraw);
  drawPile.setAttribute("aria-label", `Draw pile, ${plural(v.draw_pile_size, "card")}${canDraw ? ": draw a card" : ""}`);
  $("draw-count").textContent = String(v.draw_pile_size);
  const discard = $("discard");
  const shown = (v.discard || []).slice(-3);
  const changed = v.top !== S.lastTop;
  discard.replaceChildren(...shown.map((code, i) => {
    const img = cardImg(code, S.theme, i === shown.length - 1 && changed ? "top" : "");
    img.dataset.helpCard = code;
    const tilt = ((v.discard.length - shown.length + i) * 37) % 17 - 8;
    img.style.transform = `rotate(${tilt}deg)`;
    return img;
  }));
  S.lastTop = v.top;
  $("top-name").textContent = v.top ? `On top: ${cardName(v.top, S.theme)}` : "Discard pile";
  const pill = $("color-pill");
  pill.className = `color-pill ${v.color || "none"}`;
  pill.innerHTML = v.color
    ? `${colorShape(v.color)}<span>${v.color[0].toUpperCase()}${v.color.slice(1)} (${COLOR_LETTER[v.color]})</span>`
    : "<span>no colour yet</span>";
  pill.setAttribute("aria-label", v.color ? `current colour: ${v.color}` : "no current colour");
  const dir = $("direction");
  dir.className = `direction ${v.direction}`;
  $("direction-text").textContent = v.direction === "cw" ? "clockwise" : "counter-clockwise";
  const attack = $("attack");
  const a = S.attackWords; // words from the server (hotdeath.words.pending_words)
  if (v.attack && a) {
    // (replaceChildren writes a null as the text "null": only the parts there are)
    attack.replaceChildren(...[el("span", {}, `⚠ ${a.count === null ? a.text : a.lead}`),
      a.count === null ? null : el("span", { class: "count" }, String(a.count)),
      a.details.length ? el("span", { class: "muted" }, ` · ${a.details.join(" · ")}`) : null,
    ].filter(Boolean));
    attack.classList.remove("hidden");
  } else {
    attack.classList.add("hidden");
  }
  renderPrompt();
  $("last-action").textContent = S.lastAction ? `Last: ${S.lastAction}` : "";
}

function renderPrompt() {
  const v = S.view;
  const p = $("prompt");
  const acts = legal();
  const mine = isMyTurn();
  let text;
  if (v.phase === "game_over") {
    text = `Game over: ${(v.winners || []).map(youOr).join(" and ")} win${v.winners.length === 1 && v.winners[0] !== S.seat ? "s" : ""}`;
  } else if (mine && v.phase === "deal") {
    text = "You deal: choose how many cards each player gets";
  } else if (mine && v.phase === "choose_color") {
    text = "Name a colour";
  } else if (mine && v.phase === "choose_victim") {
    text = "Choose a victim";
  } else if (mine && v.phase === "response") {
    text = "You are under attack: answer with a card or accept";
  } else if (mine) {
    text = v.drew ? "Play the card you drew, or pass" : "Your turn: play a card or draw";
  } else {
    const who = nameOf(v.current_player);
    const doing = { deal: "deals", response: "is answering an attack", choose_color: "is naming a colour", choose_victim: "is choosing a victim" }[v.phase] || "is playing";
    text = `${who} ${doing}…`;
    if (acts.length) text += " — you may act now";
  }
  p.textContent = text;
  p.classList.toggle("you", mine || acts.length > 0);
}

/** A button's label (the server's words) and its key, for the actions that get buttons. */
function actionLabel(a) {
  const keys = { draw: "D", pass: "P", accept: "A", uno: "U", challenge: "X", question: "Q" };
  if (a.kind === "catch") {
    const catches = legal().filter((x) => x.kind === "catch" && makesSense(x));
    return [a.button, catches.length === 1 ? "C" : ""];
  }
  return [a.button, keys[a.kind] || ""];
}

const CHOOSER_KINDS = new Set(["deal", "color", "colour", "victim", "direction"]);
const CARD_KINDS = new Set(["play", "jump"]);

/**
 * Whether a call is worth offering: a catch only of a player holding one card, an Uno call
 * only with one card left (a wrong call or catch costs cards: never offered for nothing).
 */
function makesSense(a) {
  return a.offer;
}

function renderActions() {
  const box = $("actions");
  if (!box) return;
  box.replaceChildren();
  const acts = legal();
  const unoPlays = acts.some((a) => CARD_KINDS.has(a.kind) && a.uno);
  const plainUno = acts.filter((a) => a.kind === "uno");
  if (unoPlays && !plainUno.length) {
    box.append(el("button", {
      class: `btn hot${S.unoArmed ? " uno-armed" : ""}`, type: "button", id: "uno-toggle",
      "aria-pressed": S.unoArmed ? "true" : "false",
      title: "Call Uno as you play your next-to-last card",
      onclick: () => { S.unoArmed = !S.unoArmed; renderActions(); },
    }, S.unoArmed ? "Uno! (armed)" : "Say Uno with my card", el("kbd", {}, "U")));
  }
  for (const a of acts) {
    if (CARD_KINDS.has(a.kind) || CHOOSER_KINDS.has(a.kind)) continue;
    if (!makesSense(a)) continue;
    const [label, key] = actionLabel(a);
    const cls = ["uno", "catch", "challenge", "question"].includes(a.kind) ? "btn hot" : "btn";
    const onclick = a.kind === "leave"
      ? () => { if (window.confirm("Leave the table? Your hand goes under the discard pile and you play no more.")) act(a.text); }
      : () => act(a.text);
    box.append(el("button", {
      class: cls, type: "button", "data-action": a.text, onclick,
    }, label, key ? el("kbd", {}, key) : null));
  }
  const multi = multiPlays();
  if (multi) {
    const match = selectionActions();
    const why = !match.length && S.selected.length ? selectionWhy() : null;
    box.append(el("button", {
      class: "btn primary", type: "button", id: "throw-btn", disabled: !match.length,
      title: why ? why.reason : null, "aria-describedby": why ? "throw-why" : null,
      onclick: () => playSelection(),
    }, S.selected.length > 1 ? `Throw ${S.selected.length} cards` : "Play the selected card"));
    if (why) {
      box.append(el("p", { class: "throw-why", id: "throw-why", role: "status", "data-rule": why.rule || "" },
        plainText(why.reason),
        why.rule ? el("span", { class: "rule-id", title: why.rule_title || why.rule }, why.rule) : null));
    }
  }
  const chooser = acts.find((a) => CHOOSER_KINDS.has(a.kind));
  if (chooser && !S.dialogKind) {
    box.append(el("button", { class: "btn primary", type: "button", onclick: () => autoChooser(true) }, "Choose…"));
  }
  const hintButton = coachButton();
  if (hintButton) box.append(hintButton);
}

/** The key of the selection now: its cards (in any order) at this version. */
function selectionKey() {
  return `${S.version}:${S.selected.map((x) => x.code).sort().join(" ")}`;
}

/**
 * Why the selected cards are no play, in the engine's words (a `check` message; the page
 * derives no rule): the answer for this selection, or null while it is asked.
 */
function selectionWhy() {
  const key = selectionKey();
  if (S.why && S.why.key === key) return S.why;
  if (S.whyAsked && S.whyAsked.key === key) return null;
  S.msgCounter += 1;
  const id = `k-${Date.now().toString(36)}-${S.msgCounter}`;
  if (send({ type: "check", cards: S.selected.map((x) => x.code), id })) S.whyAsked = { key, id };
  return null;
}

function onCheck(msg) {
  if (!S.whyAsked || msg.id !== S.whyAsked.id) return;
  const key = S.whyAsked.key;
  S.whyAsked = null;
  S.why = msg.legal ? null : { ...msg, key };
  if (key === selectionKey()) renderActions();
}

function multiPlays() {
  return legal().some((a) => CARD_KINDS.has(a.kind) && a.cards.length > 1);
}

function sameMultiset(a, b) {
  if (a.length !== b.length) return false;
  const x = a.slice().sort();
  const y = b.slice().sort();
  return x.every((c, i) => c === y[i]);
}

function selectionActions() {
  const codes = S.selected.map((s) => s.code);
  if (!codes.length) return [];
  const acts = legal().filter((a) => CARD_KINDS.has(a.kind) && a.uno === S.unoArmed);
  const exact = acts.filter((a) => a.cards.join(" ") === codes.join(" "));
  return exact.length ? exact : acts.filter((a) => sameMultiset(a.cards, codes));
}

function playSelection() {
  const options = selectionActions();
  if (options.length) chooseAmong(options);
}

function playableCodes() {
  const set = new Set();
  for (const a of legal()) if (CARD_KINDS.has(a.kind)) a.cards.forEach((c) => set.add(c));
  return set;
}

function renderMe() {
  const me = $("me");
  if (!me) return;
  const head = $("me-head");
  const hand = $("hand");
  const v = S.view;
  if (S.seat === null || v.hand === null) {
    head.replaceChildren(el("span", { class: "name" }, "You are watching"));
    hand.replaceChildren(el("p", { class: "spectating", id: "spectator-note" },
      "Spectators see the table but nobody's hand."));
    $("keys-hint").classList.add("hidden");
    me.dataset.spectator = "1";
    return;
  }
  const sv = v.seats[S.seat];
  head.replaceChildren(
    el("span", { class: "avatar", style: `background:${seatColor(S.seat)}` }, nameOf(S.seat).slice(0, 1).toUpperCase()),
    el("span", { class: "name" }, `${nameOf(S.seat)} (you)`),
    el("span", { class: "muted" }, `${v.hand.length} card${v.hand.length === 1 ? "" : "s"} · ${sv.score} pts`),
    ...seatTags(S.seat, sv).filter((t) => !t.classList.contains("you")));
  const playable = playableCodes();
  const multi = multiPlays();
  const cards = v.hand.map((code, i) => ({ code, i })).sort((a, b) =>
    cardSortKey(a.code).localeCompare(cardSortKey(b.code)) || a.i - b.i);
  let n = 0;
  const selectedIdx = new Set(S.selected.map((s) => s.i));
  // a redraw (a new table summary, a new state) keeps the keyboard on the card it was on
  const focused = hand.contains(document.activeElement) ? document.activeElement.dataset.code : null;
  hand.replaceChildren(...cards.map(({ code, i }) => {
    const ok = playable.has(code);
    const name = cardName(code, S.theme);
    const btn = el("button", {
      class: `card ${ok ? "legal" : "dim"}${selectedIdx.has(i) ? " selected" : ""}`,
      type: "button", disabled: !ok, "data-code": code, "data-help-card": code,
      "aria-label": ok ? `${name}, playable` : `${name}, cannot be played now`,
      title: name,
    }, cardImg(code, S.theme));
    if (ok) {
      n += 1;
      btn.dataset.index = String(n);
      if (n <= 9) btn.append(el("span", { class: "key", "aria-hidden": "true" }, String(n)));
      btn.addEventListener("click", () => (multi ? toggleSelect(code, i) : clickCard(code)));
    }
    if (v.drawn === code && v.drew && ok) btn.title = `${name} (just drawn)`;
    return btn;
  }));
  $("keys-hint").classList.remove("hidden");
  me.dataset.spectator = "0";
  fitHand();
  if (focused) {
    const again = [...hand.querySelectorAll(".card:not([disabled])")].find((b) => b.dataset.code === focused);
    if (again) again.focus();
  }
}

/** Overlap the cards of a big hand so that it stays on one row when it can. */
function fitHand() {
  const hand = $("hand");
  if (!hand) return;
  const cards = hand.querySelectorAll(".card");
  hand.classList.remove("fanned");
  if (handMode()) { layoutHand(hand); return; }
  clearHandLayout(hand);
  if (cards.length < 2) return;
  // the layout width: a card under the pointer (or focused) is drawn raised and scaled, and
  // its bounding box then made a 22-card hand wrap instead of fanning out
  const cardW = cards[0].offsetWidth;
  const width = hand.clientWidth - 16;
  const gap = 8;
  const needed = cards.length * cardW + (cards.length - 1) * gap;
  if (needed <= width) return;
  const overlap = (cards.length * cardW - width) / (cards.length - 1);
  if (overlap > cardW * 0.62) return; // too many to fan: let them wrap
  hand.style.setProperty("--overlap", `${Math.ceil(overlap)}px`);
  hand.classList.add("fanned");
}

function toggleSelect(code, i) {
  const at = S.selected.findIndex((s) => s.i === i);
  if (at >= 0) S.selected.splice(at, 1);
  else S.selected.push({ code, i });
  renderMe();
  renderActions();
}

function clickCard(code) {
  const acts = legal().filter((a) => CARD_KINDS.has(a.kind) && a.cards.length === 1 && a.cards[0] === code);
  if (!acts.length) return;
  const withUno = acts.filter((a) => a.uno === S.unoArmed);
  chooseAmong(withUno.length ? withUno : acts);
}

/** Several actions differ only in a colour or a victim: ask; one: play it. */
function chooseAmong(options) {
  if (options.length === 1) { act(options[0].text); return; }
  if (options.every((a) => a.color !== null)) {
    openColorChooser(options.map((a) => [a.color, a.text]), `Play ${cardName(options[0].cards[0], S.theme)}: name a colour`, true);
    return;
  }
  if (options.every((a) => a.target !== null)) {
    openVictimChooser(options.map((a) => [a.target, a.text]), `Play ${cardName(options[0].cards[0], S.theme)}: choose a victim`, true);
    return;
  }
  act(options[0].text);
}

// ------------------------------------------------------------------ dialogs

function openDialog(kind, title, children, { closable = true, onclose = null } = {}) {
  closeDialog(kind);
  hideCardHelp(); // a card's help never lies over a dialog
  const box = el("div", { class: "dialog", role: "dialog", "aria-modal": "true", "aria-label": title },
    el("h2", {}, title), ...children);
  const overlay = el("div", { class: "overlay", "data-dialog": kind }, box);
  overlay.dataset.closable = closable ? "1" : "0";
  overlay.onclose = onclose;
  if (closable) overlay.addEventListener("click", (e) => { if (e.target === overlay) closeDialog(kind); });
  $("dialogs").append(overlay);
  S.dialogKind = kind;
  const first = box.querySelector("button:not([disabled]), input");
  if (first) setTimeout(() => first.focus(), 20);
  return overlay;
}

function closeDialog(kind) {
  for (const node of $("dialogs").querySelectorAll(`[data-dialog="${kind}"]`)) {
    node.remove();
    if (node.onclose) node.onclose();
  }
  if (kind === "chooser") S.chooserKey = null;
  const top = $("dialogs").lastElementChild;
  S.dialogKind = top ? top.dataset.dialog : null;
}

function cancelButton() {
  return el("div", { class: "footer" },
    el("button", { class: "btn ghost", type: "button", onclick: () => closeDialog("chooser") }, "Cancel", el("kbd", {}, "Esc")));
}

function openColorChooser(pairs, title, closable) {
  const choices = el("div", { class: "choices" }, ...pairs.map(([color, text]) =>
    el("button", {
      class: `choice-color ${color}`, type: "button", "data-choice": text, "data-color": color,
      html: `${colorShape(color, 40)}<span>${color[0].toUpperCase()}${color.slice(1)}</span><kbd>${COLOR_LETTER[color]}</kbd>`,
      onclick: () => act(text),
    })));
  openDialog("chooser", title, [choices, closable ? cancelButton() : null], { closable });
  S.chooserKey = (S.view.legal_actions || []).join("|");
}

function openVictimChooser(pairs, title, closable) {
  const choices = el("div", { class: "choices" }, ...pairs.map(([seat, text]) =>
    el("button", { class: "btn big", type: "button", "data-choice": text, onclick: () => act(text) },
      `${nameOf(seat)} · ${plural(S.view.seats[seat].hand_size, "card")}`)));
  openDialog("chooser", title, [choices, closable ? cancelButton() : null], { closable });
  S.chooserKey = (S.view.legal_actions || []).join("|");
}

function autoChooser(force = false) {
  const acts = legal();
  if (!acts.length || (S.dialogKind && !force)) return;
  const kinds = new Set(acts.map((a) => a.kind));
  if (kinds.has("deal")) {
    const deals = acts.filter((a) => a.kind === "deal");
    const choices = el("div", { class: "choices nums" }, ...deals.map((a) =>
      el("button", { class: "btn big choice-num", type: "button", "data-choice": a.text, onclick: () => act(a.text) }, String(a.n))));
    openDialog("chooser", "You deal: how many cards each?", [
      el("p", { class: "muted" }, "The dealer chooses the size of the hand."), choices,
    ], { closable: false });
    S.chooserKey = (S.view.legal_actions || []).join("|");
  } else if (kinds.has("color") || kinds.has("colour")) {
    openColorChooser(acts.filter((a) => a.kind === "color" || a.kind === "colour").map((a) => [a.color, a.text]), "Name the colour", false);
  } else if (kinds.has("victim")) {
    openVictimChooser(acts.filter((a) => a.kind === "victim").map((a) => [a.target, a.text]), "Choose a victim", false);
  } else if (kinds.has("direction")) {
    const choices = el("div", { class: "choices" }, ...acts.filter((a) => a.kind === "direction").map((a) =>
      el("button", { class: "btn big", type: "button", "data-choice": a.text, onclick: () => act(a.text) },
        a.n === "cw" ? "↻ Clockwise" : "↺ Counter-clockwise")));
    openDialog("chooser", "Choose the direction of play", [choices], { closable: false });
    S.chooserKey = (S.view.legal_actions || []).join("|");
  }
}

// ------------------------------------------------------------------ scoring and game over
// Results come in one shape for every variant (view.last_hand, view.game_result) with their
// words from the server (msg.results): nothing here knows which variant is played.

/** One seat's reasons: the server's words for each score line, coloured by its sign. */
function reasonSpans(result, row, words) {
  const lines = row.lines || [];
  if (!lines.length) return ["—"];
  return lines.map((line, i) => el("span", {
    class: `step${line.points > 0 && row.seat !== result.winners[0] ? " up" : line.points < 0 ? " down" : ""}`,
    title: S.results && S.results.rule_titles && S.results.rule_titles[line.rule]
      ? `${line.rule} — ${S.results.rule_titles[line.rule]}` : line.rule,
    "data-rule": line.rule,
  }, (words && words.reasons[i]) || (S.results && S.results.rule_titles && S.results.rule_titles[line.rule]) || line.rule));
}

/** The seats' points of a scored hand: who, why, points, total. */
function scoreTable(result, words) {
  const won = new Set(result.winners || []);
  const rows = (result.seats || []).map((s, i) => el("tr", { class: won.has(s.seat) ? "winner" : "", "data-seat": s.seat },
    el("td", {}, youOr(s.seat)),
    el("td", { class: "why" }, ...reasonSpans(result, s, words && words.rows[i])),
    el("td", { class: "num" }, String(s.points)),
    el("td", { class: "num" }, String(s.total))));
  return el("table", { class: "score-table", id: "score-table" },
    el("thead", {}, el("tr", {}, el("th", {}, "Player"), el("th", {}, "Why"), el("th", { class: "num" }, "Points"), el("th", { class: "num" }, "Total"))),
    el("tbody", {}, ...rows));
}

/** A result's headline and notes (order out, loser, the variant's extras) in words. */
function resultText(words, id) {
  if (!words) return [];
  return [
    el("p", { class: "result-headline", id }, words.headline),
    words.notes.length ? el("ul", { class: "result-notes" }, ...words.notes.map((n) => el("li", {}, n))) : null,
  ];
}

/** The hand's body: its words, then the score table when the hand is scored. */
function handBody(result, words) {
  const out = resultText(words, "hand-headline");
  if (result.seats && result.seats.length) out.push(scoreTable(result, words));
  return out;
}

async function verifyReveal(handNo, box) {
  const r = S.reveals[handNo];
  if (!r) { box.textContent = ""; return; }
  const digest = await sha256Hex(`${r.salt}:${r.deck.join(" ")}`);
  if (digest === null) {
    box.textContent = `Deal commitment ${r.digest.slice(0, 16)}… (this browser cannot check it).`;
  } else if (digest === r.digest) {
    box.textContent = `✓ The deal matched the commitment published before the hand (${r.digest.slice(0, 16)}…).`;
    box.classList.add("ok");
  } else {
    box.textContent = "✗ The revealed deck does not match the commitment!";
    box.classList.add("bad");
  }
}

/** How the game is won, in the words the server gives for this variant, with its rule. */
function goalLine() {
  const goal = S.table && S.table.goal;
  if (!goal) return null;
  const title = goal.rule_title ? `${goal.rule} — ${goal.rule_title}` : goal.rule;
  return el("p", { class: "goal", id: "goal-line", "data-rule": goal.rule },
    goal.text, " ", el("span", { class: "rule-id", title: goal.rule_text || title }, goal.rule));
}

function maybeShowScoring() {
  const v = S.view;
  const last = v.last_hand;
  const words = S.results ? S.results.hand : null;
  if (last && !S.handHistory.some((h) => h.result.hand === last.hand)) S.handHistory.push({ result: last, words });
  if (v.phase === "game_over") {
    showGameOver();
    return;
  }
  if (!last) return;
  const key = `hotdeath.seen.${S.gameId}`;
  const seen = Number(sessionStorage.getItem(key) || "-1");
  if (last.hand <= seen) return;
  sessionStorage.setItem(key, String(last.hand));
  const verify = el("p", { class: "verify" });
  const handNo = last.hand;
  openDialog("score", `Hand ${handNo} is over`, [
    ...handBody(last, words),
    last.seats && last.seats.length ? el("p", { class: "muted" }, "Each line shows how a player's points were counted.") : null,
    goalLine(), verify,
    el("p", { class: "muted breather-line", id: "breather-line" }),
    el("div", { class: "footer" }, reviewButton(handNo), el("button", {
      class: "btn primary", type: "button", id: "continue-btn",
      onclick: () => { readyForNext(); closeDialog("score"); autoChooser(); },
    }, S.seat === null ? "Close" : "Next hand")),
  ], { closable: true, onclose: () => { readyForNext(); setTimeout(() => autoChooser(), 0); } });
  S.scoredHand = handNo;
  renderBreather();
  verifyReveal(handNo, verify);
}

// ------------------------------------------------------------------ the coach's review

/** "Review my hand": the coach's review of a hand that is over, for this seat. */
function reviewButton(handNo) {
  if (S.seat === null) return null;
  return el("button", {
    class: "btn ghost", type: "button", id: "review-btn", "data-hand": handNo,
    title: "What the coach would have played at each of your turns, and your costliest moves",
    onclick: () => openReview(handNo),
  }, "Review my hand");
}

async function openReview(handNo) {
  const body = el("div", { class: "review", id: "review-body" },
    el("p", { class: "muted", id: "review-wait" }, "The coach is going over your moves…"));
  openDialog("review", `Hand ${handNo}: the coach's review`, [body, el("div", { class: "footer" },
    el("button", { class: "btn", type: "button", onclick: () => closeDialog("review") }, "Close"))]);
  try {
    const data = await api(`/api/games/${encodeURIComponent(S.gameId)}/review?hand=${handNo}`, { token: S.token });
    renderReview(body, data.review);
  } catch (err) {
    body.replaceChildren(el("p", { class: "error-box" }, `${err.message} (${err.code})`));
  }
}

function renderReview(box, review) {
  const [headline, ...rest] = review.lines;
  const cut = rest.findIndex((line) => line === "Biggest mistakes:" || line === "No mistake worth naming.");
  const moves = cut < 0 ? rest : rest.slice(0, cut);
  const tail = cut < 0 ? [] : rest.slice(cut);
  const worst = new Set(review.mistakes);
  box.replaceChildren(
    el("p", { class: "result-headline", id: "review-headline" }, headline),
    el("ol", { class: "review-moves" }, ...moves.map((line, i) => {
      const d = review.decisions[i];
      return el("li", { class: d && worst.has(d.index) ? "mistake" : d && d.agreed ? "agreed" : "", "data-index": d ? d.index : "" }, line);
    })),
    ...tail.map((line, i) => (i === 0
      ? el("h4", { id: "review-mistakes" }, line)
      : el("p", { class: "review-mistake" }, line))),
  );
}

// ------------------------------------------------------------------ the breather

function readyForNext() {
  if (S.breather && !S.breather.over && S.seat !== null) send({ type: "ready" });
}

function onBreather(msg) {
  S.breather = msg.over ? null : { ...msg, at: Date.now() };
  document.body.dataset.breather = msg.over ? "0" : "1";
  renderBreather();
}

function renderBreather() {
  const line = $("breather-line");
  if (!line) return;
  const b = S.breather;
  clearTimeout(S.breatherTimer);
  if (!b) { line.textContent = ""; return; }
  const left = Math.max(0, Math.ceil(b.seconds - (Date.now() - b.at) / 1000));
  const seats = b.waiting || [];
  // "you" inside the sentence; "presses" for one other person, "press" for you or several
  const waiting = seats.map((s) => (s === S.seat ? "you" : nameOf(s)));
  const verb = seats.length === 1 && seats[0] !== S.seat ? "presses" : "press";
  line.textContent = waiting.length
    ? `The next hand starts when ${listWords(waiting)} ${verb} Next hand, or in ${left} s.`
    : `The next hand starts in ${left} s.`;
  if (left > 0) S.breatherTimer = setTimeout(renderBreather, 1000);
}

/** The final standings, best first as the variant's goal orders them, with totals where
 * points decide. */
function standingsTable(game) {
  const won = new Set(game.winners || []);
  const scored = game.lowest_wins !== null && game.lowest_wins !== undefined;
  const loser = game.loser;
  const head = [el("th", { class: "num" }, "#"), el("th", {}, "Player")];
  if (scored) head.push(el("th", { class: "num" }, "Total"));
  const rows = game.standings.map((seat, i) => {
    const tags = [];
    if (won.has(seat)) tags.push(el("span", { class: "tag win" }, "winner"));
    if (seat === loser) tags.push(el("span", { class: "tag lose" }, "loser"));
    const cells = [el("td", { class: "num" }, String(i + 1)), el("td", {}, youOr(seat), " ", ...tags)];
    if (scored) cells.push(el("td", { class: "num" }, String(game.totals[seat])));
    return el("tr", { class: won.has(seat) ? "winner" : "", "data-seat": seat }, ...cells);
  });
  return el("table", { class: "scores-table", id: "standings" },
    el("thead", {}, el("tr", {}, ...head)), el("tbody", {}, ...rows));
}

function showGameOver() {
  if (document.querySelector('[data-dialog="over"]')) return;
  const v = S.view;
  const game = v.game_result;
  if (!game) return;
  closeDialog("chooser");
  closeDialog("score");
  const words = S.results || {};
  const last = game.last_hand;
  const winners = (game.winners || []).map(youOr);
  const one = winners.length === 1 && game.winners[0] !== S.seat;
  const verify = el("p", { class: "verify" });
  const children = [
    el("div", { class: "trophy", html: TROPHY_SVG }),
    el("p", { style: "text-align:center;font-size:1.2rem;font-weight:800", id: "winner-line" },
      winners.length ? `${winners.join(" and ")} win${one ? "s" : ""} the game` : "Nobody wins the game"),
    ...resultText(words.game, "game-headline"),
    goalLine(),
  ];
  if (last) {
    children.push(el("h3", {}, `Last hand (hand ${last.hand})`), ...handBody(last, words.hand), verify);
  }
  children.push(el("h3", {}, "Final standings"), standingsTable(game));
  if (S.hintsLine) children.push(el("p", { class: "muted", id: "hints-line" }, S.hintsLine));
  const buttons = [el("a", { class: "btn ghost", href: `/replay/${S.gameId}`, id: "replay-link" }, "Watch the replay")];
  if (last) buttons.push(reviewButton(last.hand));
  if (S.seat !== null) {
    buttons.push(el("button", {
      class: "btn primary", type: "button", id: "rematch-btn",
      onclick: () => { if (send({ type: "rematch" })) toast("Asking for a rematch…", "info"); },
    }, "Rematch"));
  }
  children.push(el("div", { class: "footer" }, ...buttons));
  openDialog("over", "Game over", children, { closable: true });
  if (last) verifyReveal(last.hand, verify);
}

// ------------------------------------------------------------------ log, scores, speed

function renderLog(full, fresh = 0) {
  const list = $("log");
  const items = S.log.slice(-400);
  const make = (ev, isFresh) => {
    const li = makeEvent(ev, isFresh);
    if (!ev.auto_text) return [li];
    return [el("li", { class: `auto-mark${isFresh ? " fresh" : ""}`, "data-auto": ev.auto }, ev.auto_text), li];
  };
  const makeEvent = (ev, isFresh) => {
    const text = plainText(ev.text || ev.kind);
    const li = el("li", { class: `${isFresh ? "fresh" : ""}${ev.kind === "deal" ? " hand-start" : ""}`, "data-kind": ev.kind });
    if (ev.rule) {
      const title = ev.rule_title ? `${ev.rule} — ${ev.rule_title}` : ev.rule;
      li.append(el("details", {},
        el("summary", { title: ev.rule_text || title }, text, el("span", { class: "rule-id" }, ev.rule)),
        el("div", { class: "rule-text" }, el("strong", {}, title), el("br"), ev.rule_text || "")));
    } else {
      li.textContent = text;
    }
    const shown = ev.hidden ? [] : [...new Set(ev.cards || [])];
    if (shown.length) {
      li.append(el("span", { class: "log-cards" }, ...shown.map((code) =>
        el("button", { class: "log-card", type: "button", "data-help-card": code, "aria-label": `What ${cardName(code, S.theme)} does` },
          cardName(code, S.theme)))));
    }
    return li;
  };
  if (full) {
    list.replaceChildren(...items.flatMap((ev) => make(ev, false)));
  } else {
    const start = Math.max(0, S.log.length - fresh);
    for (const ev of S.log.slice(start)) list.append(...make(ev, true));
    while (list.children.length > 400) list.firstElementChild.remove();
  }
  const pane = $("pane-log");
  pane.scrollTop = pane.scrollHeight;
}

function renderScores() {
  const v = S.view;
  const pane = $("pane-scores");
  if (!pane) return;
  const rows = v.seats.map((s) => el("tr", {}, el("td", {}, youOr(s.seat)),
    el("td", { class: "num" }, String(s.hand_size)), el("td", { class: "num" }, String(s.score))));
  const children = [el("table", { class: "scores-table" },
    el("thead", {}, el("tr", {}, el("th", {}, "Player"), el("th", { class: "num" }, "Cards"), el("th", { class: "num" }, "Points"))),
    el("tbody", {}, ...rows))];
  for (const h of S.handHistory.slice().reverse()) {
    children.push(el("h4", {}, `Hand ${h.result.hand}`), ...handBody(h.result, h.words));
  }
  pane.replaceChildren(...children);
  pane.querySelectorAll("#score-table, #hand-headline").forEach((t) => t.removeAttribute("id"));
  const c = $("commitment");
  c.textContent = S.commitment ? `Deal commitment: ${S.commitment.digest.slice(0, 20)}…` : "";
  c.title = S.commitment ? `sha256 of the shuffled deck of hand ${S.commitment.hand_no}: ${S.commitment.digest}` : "";
}

function renderSpeed() {
  const t = S.table;
  const input = $("speed");
  if (!input) return;
  const value = Number(t.bot_delay ?? 0.6);
  if (document.activeElement !== input) input.value = String(value);
  $("speed-out").textContent = `${value.toFixed(1)} s`;
  input.disabled = !S.host;
  $("speed-hint").textContent = S.host ? "" : "The host sets the bots' speed.";
}

async function changeSpeed() {
  const value = Number($("speed").value);
  $("speed-out").textContent = `${value.toFixed(1)} s`;
  try {
    S.table = await api(`/api/tables/${tableId}`, { method: "PATCH", token: S.host, body: { bot_delay: value } });
    renderSpeed();
  } catch (err) {
    toast(`${err.message} (${err.code})`);
  }
}

// ------------------------------------------------------------------ keyboard

function onKey(e) {
  if (e.target.closest && e.target.closest("input, select, textarea")) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const key = e.key.toLowerCase();
  if (cardHelpOpen() && key === "escape") { hideCardHelp(); e.preventDefault(); return; }
  if (key === "h" || key === "?") { if (helpKey()) e.preventDefault(); return; }
  const dialog = $("dialogs").lastElementChild;
  if (dialog) {
    if (key === "escape" && dialog.dataset.closable === "1") closeDialog(dialog.dataset.dialog);
    const byColor = { r: "red", y: "yellow", g: "green", b: "blue" }[key];
    if (byColor) dialog.querySelector(`[data-color="${byColor}"]`)?.click();
    return;
  }
  const click = (selector) => {
    const node = document.querySelector(selector);
    if (node && !node.disabled) { node.click(); e.preventDefault(); }
  };
  if (/^[1-9]$/.test(key)) click(`#hand .card[data-index="${key}"]`);
  else if (key === "d") click('[data-action="draw"]');
  else if (key === "p") click('[data-action="pass"]');
  else if (key === "a") click('[data-action="accept"]');
  else if (key === "q") click('[data-action="question"]');
  else if (key === "u") {
    const uno = document.querySelector('[data-action^="uno"]');
    if (uno) click('[data-action^="uno"]'); else click("#uno-toggle");
  } else if (key === "c") {
    // only an unambiguous catch: the button says whom and why
    const catches = document.querySelectorAll('#actions [data-action^="catch"]');
    if (catches.length === 1) click('#actions [data-action^="catch"]');
  }
  else if (key === "x") click('[data-action^="challenge"]');
  else if (key === "t") click("#hint-btn");
  else if (key === "l") { $("tab-log").click(); $("tab-log").focus(); }
}

function selectTab(which) {
  for (const name of ["log", "scores", "chat"]) {
    $(`tab-${name}`).setAttribute("aria-selected", String(name === which));
    $(`pane-${name}`).classList.toggle("hidden", name !== which);
  }
  chatShown(which === "chat");
}

function openShare() {
  if (!S.table) return;
  const box = el("div");
  renderShareLinks(box);
  openDialog("share", "Invite people", [box, el("div", { class: "footer" },
    el("button", { class: "btn", type: "button", onclick: () => closeDialog("share") }, "Close"))]);
}

// ------------------------------------------------------------------ start

/** The piles and the table's state (colour, direction, attack): one markup for both pages. */
function buildCenter() {
  const box = $("center");
  if (!box || box.childElementCount) return;
  box.append(
    el("div", { class: "piles" },
      el("div", { class: "pile" },
        el("button", { class: "draw-pile", id: "draw-pile", type: "button", disabled: true, "aria-label": "Draw pile" },
          el("img", { src: "/cards/back.svg", alt: "" }),
          el("span", { class: "badge", id: "draw-count" }, "0")),
        el("span", { class: "label" }, "Draw pile")),
      el("div", { class: "pile" },
        el("div", { class: "discard-stack", id: "discard", "aria-live": "polite" }),
        el("span", { class: "label", id: "top-name" }, "Discard pile"))),
    el("div", { class: "state-box" },
      el("div", { class: "color-pill none", id: "color-pill" }, "no colour yet"),
      el("div", { class: "direction", id: "direction" },
        el("span", { class: "arrow", "aria-hidden": "true" }, "↻"),
        el("span", { id: "direction-text" }, "clockwise")),
      el("div", { class: "attack hidden", id: "attack", role: "status" })));
}

async function main() {
  buildCenter();
  if (!tableId) { toast("No table in this address."); return; }
  const fromUrl = params.get("token");
  if (fromUrl) {
    localStorage.setItem(TOKEN_KEY, fromUrl);
    params.delete("token");
    const rest = params.toString();
    history.replaceState(null, "", `${window.location.pathname}${rest ? `?${rest}` : ""}`);
  }
  S.token = SCREEN ? null : localStorage.getItem(TOKEN_KEY);
  if (!SCREEN) document.addEventListener("keydown", onKey);
  initCardHelp();
  window.addEventListener("resize", () => {
    if (!S.view) return;
    if (SCREEN) fitScreen(S.view.players); else fitHand();
  });
  // the hand's space changes with the buttons and the coach above it: lay it out again
  if (window.ResizeObserver && $("hand")) {
    new ResizeObserver(() => { if (handMode()) layoutHand($("hand")); }).observe($("hand"));
  }
  PHONE.addEventListener("change", () => { if (S.view) renderGame(); });
  const on = (id, event, fn) => { const node = $(id); if (node) node.addEventListener(event, fn); };
  on("draw-pile", "click", () => {
    const draw = legal().find((a) => a.kind === "draw");
    if (draw) act(draw.text);
  });
  on("start-btn", "click", startGame);
  on("share-btn", "click", openShare);
  on("tab-log", "click", () => selectTab("log"));
  on("tab-scores", "click", () => selectTab("scores"));
  on("tab-chat", "click", () => selectTab("chat"));
  on("view-table", "click", () => showFullTable(true));
  on("view-hand", "click", () => showFullTable(false));
  if (SCREEN) initScreen();
  else initChat(send);
  const sound = $("sound-btn");
  const showSound = () => {
    sound.textContent = soundOn() ? "Sound on" : "Sound off";
    sound.setAttribute("aria-pressed", String(soundOn()));
  };
  sound.addEventListener("click", () => { setSound(!soundOn()); showSound(); });
  showSound();
  if ($("sound-bg")) {
    $("sound-bg").checked = soundInBackground();
    on("sound-bg", "change", () => setSoundInBackground($("sound-bg").checked));
  }
  on("speed", "change", changeSpeed);
  on("speed", "input", () => { $("speed-out").textContent = `${Number($("speed").value).toFixed(1)} s`; });
  api("/api/variants").then((c) => { botCatalog = c.bot_menu; if (S.table && !S.view) renderTable(); }).catch(() => {});
  try {
    [S.table] = await Promise.all([api(`/api/tables/${tableId}`), loadCards()]);
  } catch (err) {
    $("waiting").classList.remove("hidden");
    $("waiting-title").textContent = "No such table";
    $("waiting-hint").textContent = `${err.message} — open a new one from the lobby.`;
    setConn("offline", false);
    return;
  }
  renderTable();
  if (!S.token && !S.spectate) {
    showJoin();
    return;
  }
  connect();
}

main();

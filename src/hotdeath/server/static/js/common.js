// Shared helpers of the lobby, the table and the replay: card names (from the server), card images,
// REST calls and small DOM helpers. Actions come from the server in parts and words (the page
// parses no notation).

// Colours, card names and score words come from the server (GET /api/cards, built from
// hotdeath.cards and hotdeath.events): call loadCards() once before drawing anything.
export const COLOR_LETTER = {};
export const SCORE_LABELS = {};
const CARDS = new Map();

/** Fetch the card catalog (once); the card helpers below need it. */
export async function loadCards() {
  if (CARDS.size) return;
  const data = await api("/api/cards");
  for (const c of data.colors) {
    COLOR_LETTER[c.name] = c.letter;
  }
  for (const card of data.cards) CARDS.set(card.code, card);
  Object.assign(SCORE_LABELS, data.score_labels);
}

/** The printed colour of a card code ("red" …) or null for a wild. */
export function cardColor(code) {
  const card = CARDS.get(code);
  return card ? card.color : null;
}

/** The name of a card code in a name theme ("family" or "original"). */
export function cardName(code, theme = "family") {
  const card = CARDS.get(code);
  if (!card) return code;
  return card.names[theme] || card.names.family;
}

/** A key that sorts a hand by colour, then by card (wilds last). */
export function cardSortKey(code) {
  const card = CARDS.get(code);
  return String(card ? card.order : 999).padStart(3, "0");
}

/** The URL of a card's SVG (code "back" for the card back). */
export function cardUrl(code, theme = "family") {
  return `/cards/${encodeURIComponent(code)}.svg?theme=${encodeURIComponent(theme)}`;
}

/** An <img> of a card with its name as alternative text. */
export function cardImg(code, theme = "family", cls = "") {
  const img = document.createElement("img");
  img.src = cardUrl(code, theme);
  img.alt = code === "back" ? "a card, face down" : cardName(code, theme);
  img.draggable = false;
  if (cls) img.className = cls;
  return img;
}

/** The SVG of a colour's shape (diamond, circle, triangle, square) for colour-blind play. */
export function colorShape(color, size = 26) {
  const fill = "#fffdf7";
  const stroke = "#1d1d24";
  const shapes = {
    red: '<polygon points="13,1 25,13 13,25 1,13"/>',
    yellow: '<circle cx="13" cy="13" r="11"/>',
    green: '<polygon points="13,2 25,23 1,23"/>',
    blue: '<rect x="3" y="3" width="20" height="20" rx="3"/>',
  };
  const letter = COLOR_LETTER[color] || "?";
  const dy = color === "green" ? 20 : 17.5;
  return `<svg class="shape" viewBox="0 0 26 26" width="${size}" height="${size}" aria-hidden="true">` +
    `<g fill="${fill}" stroke="${stroke}" stroke-width="1.5">${shapes[color] || ""}</g>` +
    `<text x="13" y="${dy}" font-size="${color === "green" ? 10 : 12}" font-weight="800" ` +
    `text-anchor="middle" fill="${stroke}">${letter}</text></svg>`;
}

/** Call the REST API; throws an Error with .code and .message on a 4xx/5xx answer. */
export async function api(path, { method = "GET", body = undefined, token = undefined } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Token"] = token;
  const resp = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await resp.json(); } catch { data = null; }
  if (!resp.ok) {
    const detail = data && (data.detail && typeof data.detail === "object" ? data.detail : data);
    const err = new Error((detail && detail.message) || `request failed (${resp.status})`);
    err.code = (detail && detail.code) || `http_${resp.status}`;
    throw err;
  }
  return data;
}

/** Create an element: el("div", {class: "x", onclick: f}, child, "text"). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else if (k === "html") node.innerHTML = v;
    else if (k === "style") node.style.cssText = v; // CSSOM: allowed by the pages' CSP
    else if (v === true) node.setAttribute(k, "");
    else node.setAttribute(k, String(v));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

let toastTimer = null;

/** Show a short message at the bottom of the screen. */
export function toast(message, kind = "error") {
  let box = document.getElementById("toast");
  if (!box) {
    box = el("div", { id: "toast", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  box.className = `toast ${kind}`;
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 4200);
}

/** A log line: without the "  [RULE]" of hotdeath.events.describe, capitalised. */
export function plainText(text) {
  const plain = (text || "").replace(/\s+\[[A-Za-z0-9.\-]+\]\s*$/, "");
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}

/** A colour for a seat's avatar. */
export function seatColor(seat) {
  const palette = ["#ffd23f", "#7dd3fc", "#fca5a5", "#86efac", "#c4b5fd", "#fdba74",
    "#f9a8d4", "#a5b4fc", "#fde68a", "#99f6e4"];
  return palette[seat % palette.length];
}

/** sha256 hex of a string (null where the browser offers no Web Crypto). */
export async function sha256Hex(text) {
  if (!window.crypto || !window.crypto.subtle) return null;
  const digest = await window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** An inline SVG trophy (no emoji font needed). */
export const TROPHY_SVG = '<svg viewBox="0 0 64 64" aria-hidden="true">' +
  '<path d="M18 8h28v14c0 10-6 18-14 18s-14-8-14-18z" fill="#ffd23f" stroke="#7a5800" stroke-width="2"/>' +
  '<path d="M18 12H8c0 10 5 15 11 16M46 12h10c0 10-5 15-11 16" fill="none" stroke="#ffd23f" stroke-width="4"/>' +
  '<rect x="28" y="40" width="8" height="10" fill="#d39a00"/>' +
  '<rect x="18" y="50" width="28" height="7" rx="2" fill="#ffd23f" stroke="#7a5800" stroke-width="2"/>' +
  '<path d="M32 15l2.6 5.3 5.8.8-4.2 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.2-4.1 5.8-.8z" fill="#fffdf7"/></svg>';

/** "1 card", "2 cards" (`many`: an irregular plural). */
export function plural(n, word, many = null) {
  return `${n} ${n === 1 ? word : (many || `${word}s`)}`;
}

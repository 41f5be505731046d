// The table screen (/t/{table}/screen): the table on a TV or a laptop in the middle of the
// room. table.js draws it as a spectator's view (no hand); this file adds what only the
// screen has: how to join (the table's address as text and as a QR code drawn by the
// server) while seats are open, and the full-screen switch.

import { el } from "./common.js";

let shownQr = null;

/** The address that opens the table for joining, at this page's origin. */
export function joinUrl(table) {
  return `${window.location.origin}${table.join_path || `/t/${table.table_id}`}`;
}

/** Show how to join `table`: its address, its short code and the QR code of the address. */
export function renderJoin(table) {
  const url = joinUrl(table);
  const show = url.replace(/^https?:\/\//, "");
  document.getElementById("join-url").replaceChildren(el("strong", { id: "screen-url" }, show));
  const line = document.getElementById("join-code-line");
  line.replaceChildren(...(table.code
    ? ["or type the code ", el("strong", { class: "code", id: "screen-code" }, table.code),
      " in the lobby"]
    : []));
  const qr = document.getElementById("join-qr");
  const src = `/api/tables/${encodeURIComponent(table.table_id)}/qr.svg?origin=${encodeURIComponent(window.location.origin)}`;
  if (shownQr !== src) {
    qr.src = src;
    qr.alt = `QR code of ${url}`;
    shownQr = src;
  }
  document.body.dataset.joinUrl = url;
}

/**
 * Size the table to the screen: the seats in one row up to five, else two rows; the piles
 * as big as the height left for them allows (nothing scrolls, at 1280×720 with ten seats).
 */
export function fitScreen(players) {
  const opponents = document.getElementById("opponents");
  const center = document.querySelector(".screen-page .center");
  if (!opponents || !center) return;
  opponents.style.setProperty("--seat-cols", String(players <= 5 ? players : Math.ceil(players / 2)));
  const font = parseFloat(getComputedStyle(document.body).fontSize) || 16;
  const room = center.clientHeight - 2.2 * font; // the label under a pile
  const w = Math.max(48, Math.min(room / 1.5, window.innerWidth * 0.15));
  document.body.style.setProperty("--pile-w", `${Math.floor(w)}px`);
  document.body.dataset.fitted = `${window.innerWidth}x${window.innerHeight}`; // for tests
}

/** The full-screen button (hidden where the browser cannot). */
export function initScreen() {
  const button = document.getElementById("fullscreen-btn");
  if (!button) return;
  if (!document.fullscreenEnabled) { button.classList.add("hidden"); return; }
  button.addEventListener("click", () => {
    if (document.fullscreenElement) document.exitFullscreen();
    else document.documentElement.requestFullscreen().catch(() => {});
  });
  document.addEventListener("fullscreenchange", () => {
    button.textContent = document.fullscreenElement ? "Leave full screen" : "Full screen";
  });
}

// Card help: hover, long-press or the H key on any card (hand, pile, log) shows what it does.
// The words come from the server's rulebook (GET /api/rules/{variant}?theme=…), in the
// table's name theme; this file holds no rule text of its own. An element is a card for
// help when it carries data-help-card="<code>".

import { api, el } from "./common.js";

const HELP = { key: null, data: null, loading: null, rulesHref: null };
let box = null;
let hoverTimer = null;
let pressTimer = null;
let pressed = false;
let shownFor = null;

/** Load the help of a variant in a theme (once per pair). */
export async function loadCardHelp(variant, theme, rulesHref) {
  HELP.rulesHref = rulesHref;
  const key = `${variant}/${theme}`;
  if (HELP.key === key && (HELP.data || HELP.loading)) return HELP.loading;
  HELP.key = key;
  HELP.data = null;
  HELP.loading = api(`/api/rules/${encodeURIComponent(variant)}?theme=${encodeURIComponent(theme)}`)
    .then((data) => { if (HELP.key === key) HELP.data = data; })
    .catch(() => { HELP.loading = null; });
  return HELP.loading;
}

function helpBox() {
  if (!box) {
    box = el("div", { id: "card-help", class: "card-help hidden", role: "dialog", "aria-label": "What this card does" });
    document.body.append(box);
  }
  return box;
}

/**
 * Show the help of card `code` next to `anchor` (an element), or centred. Shown by a hover
 * it is a tooltip that never takes a click meant for the table (`passive`).
 */
export function showCardHelp(code, anchor = null, passive = false) {
  const entry = HELP.data && HELP.data.cards[code];
  if (!entry) return false;
  const node = helpBox();
  const rules = HELP.rulesHref ? `${HELP.rulesHref}#${encodeURIComponent(entry.rule)}` : null;
  node.replaceChildren(
    el("div", { class: "head" }, el("strong", { class: "name" }, entry.name),
      el("span", { class: "rule-id" }, entry.rule)),
    el("div", { class: "title" }, entry.title),
    el("p", { class: "text" }, entry.text),
    el("div", { class: "foot" },
      rules ? el("a", { href: rules, target: "_blank", rel: "noopener" }, "All the rules") : null,
      el("button", { class: "btn small ghost", type: "button", onclick: hideCardHelp }, "Close", el("kbd", {}, "Esc"))),
  );
  node.dataset.code = code;
  node.classList.toggle("passive", passive);
  node.classList.remove("hidden");
  shownFor = anchor;
  place(node, anchor);
  return true;
}

function place(node, anchor) {
  const w = Math.min(340, window.innerWidth - 16);
  node.style.width = `${w}px`;
  let left = (window.innerWidth - w) / 2;
  let top = window.innerHeight / 3;
  if (anchor && anchor.getBoundingClientRect) {
    const r = anchor.getBoundingClientRect();
    const h = node.getBoundingClientRect().height;
    left = Math.min(Math.max(8, r.left + r.width / 2 - w / 2), window.innerWidth - w - 8);
    top = r.top - h - 10 >= 8 ? r.top - h - 10 : Math.min(r.bottom + 10, window.innerHeight - h - 8);
  }
  node.style.left = `${Math.round(left)}px`;
  node.style.top = `${Math.round(Math.max(8, top))}px`;
}

/** Hide the card help. */
export function hideCardHelp() {
  if (box) box.classList.add("hidden");
  shownFor = null;
}

/** Whether the help is open. */
export function cardHelpOpen() {
  return Boolean(box && !box.classList.contains("hidden"));
}

/** A hover waiting to show a card's help was settled: shown, declined or given up. */
function hoverSettled() {
  document.body.dataset.hovers = String(Number(document.body.dataset.hovers || "0") + 1);
}

function stopHover() {
  if (hoverTimer === null) return;
  clearTimeout(hoverTimer);
  hoverTimer = null;
  hoverSettled();
}

/** Whether a dialog (an overlay) is open and `card` is not inside it. */
function underDialog(card) {
  const overlays = document.querySelectorAll(".overlay");
  return overlays.length > 0 && !card.closest(".overlay");
}

function cardOf(target) {
  return target && target.closest ? target.closest("[data-help-card]") : null;
}

/** Listen for hover, long-press and keys on every card of the page. */
export function initCardHelp() {
  document.addEventListener("pointerover", (e) => {
    if (e.pointerType === "touch") return;
    const card = cardOf(e.target);
    stopHover();
    if (!card) return;
    hoverTimer = setTimeout(() => {
      hoverTimer = null;
      hoverSettled();
      // a dialog opened meanwhile lies over the card: its help would cover the dialog
      if (!card.isConnected || !card.matches(":hover") || underDialog(card)) return;
      showCardHelp(card.dataset.helpCard, card, true);
    }, 450);
  });
  document.addEventListener("pointerout", (e) => {
    const card = cardOf(e.target);
    if (!card || (e.relatedTarget && card.contains(e.relatedTarget))) return;
    stopHover();
    if (shownFor === card && e.pointerType !== "touch") hideCardHelp();
  });
  document.addEventListener("pointerdown", (e) => {
    pressed = false;
    stopHover();
    if (box && !box.contains(e.target)) hideCardHelp();
    if (e.pointerType !== "touch") return;
    const card = cardOf(e.target);
    if (!card) return;
    clearTimeout(pressTimer);
    pressTimer = setTimeout(() => { pressed = true; showCardHelp(card.dataset.helpCard, card); }, 500);
  });
  for (const kind of ["pointerup", "pointercancel", "pointermove"]) {
    document.addEventListener(kind, (e) => {
      if (kind === "pointermove" && e.pointerType !== "touch") return;
      clearTimeout(pressTimer);
    });
  }
  // a long press shows the help and plays nothing
  document.addEventListener("click", (e) => {
    if (pressed && cardOf(e.target)) { e.preventDefault(); e.stopPropagation(); pressed = false; }
  }, true);
  document.addEventListener("contextmenu", (e) => { if (cardOf(e.target)) e.preventDefault(); });
}

/** The H key: help for the focused card, else the top of the discard pile. */
export function helpKey() {
  if (cardHelpOpen()) { hideCardHelp(); return true; }
  const focused = cardOf(document.activeElement);
  const card = focused || document.querySelector("#discard [data-help-card]:last-child");
  return card ? showCardHelp(card.dataset.helpCard, card) : false;
}

// Motion: a card travels from a hand or the pile to where it goes, draws fly to the hand,
// attacks pulse. Nothing moves under prefers-reduced-motion (and the CSS stops every
// animation there too).

import { cardImg } from "./common.js";

const reduce = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

/** Whether this browser asks for less motion. */
export function reducedMotion() { return Boolean(reduce && reduce.matches); }

/** Fly a card image (`code`, or "back") from rectangle `from` to element `to`. */
export function flyCard(code, theme, from, to) {
  if (reducedMotion() || !from || !to || !document.body.animate) return false;
  // fast bots: a card already in the air is enough (no pile-up of flights)
  if (document.querySelectorAll(".flying").length >= 2) return false;
  const end = to.getBoundingClientRect();
  if (!end.width || !from.width) return false;
  const img = cardImg(code, theme, "flying");
  img.style.left = `${from.left}px`;
  img.style.top = `${from.top}px`;
  img.style.width = `${from.width}px`;
  document.body.append(img);
  const dx = end.left + end.width / 2 - (from.left + from.width / 2);
  const dy = end.top + end.height / 2 - (from.top + from.height / 2);
  const anim = img.animate(
    [{ transform: "translate(0, 0) rotate(0deg)" }, { transform: `translate(${dx}px, ${dy}px) rotate(12deg)` }],
    { duration: 380, easing: "cubic-bezier(.2,.7,.3,1)" },
  );
  anim.onfinish = () => img.remove();
  anim.oncancel = () => img.remove();
  document.body.dataset.flights = String(Number(document.body.dataset.flights || "0") + 1);
  return true;
}

/** The rectangle of an element now (before the page is redrawn). */
export function rectOf(node) {
  if (!node) return null;
  const r = node.getBoundingClientRect();
  return r.width ? r : null;
}

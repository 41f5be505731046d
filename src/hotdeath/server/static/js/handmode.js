// The phone as a hand. On a narrow screen (a media query, never the browser's name) a
// seated player's page becomes the hand: a strip with the table at a glance on top, the
// other players as chips, big buttons for every window, and the cards laid out to fill the
// rest of the screen, every one of them in view. The full table is one tap away.

/** Phones: narrow in portrait, or short in landscape. */
export const PHONE = window.matchMedia
  ? window.matchMedia("(max-width: 600px), (max-height: 500px) and (max-width: 1000px)")
  : { matches: false, addEventListener() {} };

const GAP = 6;
const RATIO = 1.5; // a card's height over its width
const MIN_W = 46; // narrower, a card's corner no longer reads: rows overlap instead

/**
 * The largest card width at which `n` cards fill a `width` × `height` area in a grid,
 * with the number of columns; with `overlap`, the part of a card that the next row covers
 * (0: none). Every card stays in the area: beyond what fits side by side the rows overlap,
 * each showing its top part (the card's corner index), like a fan.
 */
export function gridFor(n, width, height) {
  let best = { cols: Math.max(1, n), w: 0, overlap: 0 };
  for (let cols = 1; cols <= Math.max(1, n); cols += 1) {
    const rows = Math.ceil(n / cols);
    const byWidth = (width - (cols - 1) * GAP) / cols;
    const byHeight = (height - (rows - 1) * GAP) / rows / RATIO;
    const w = Math.min(byWidth, byHeight, 132);
    if (w > best.w) best = { cols, w, overlap: 0 };
  }
  if (best.w >= MIN_W) return { ...best, w: Math.floor(best.w) };
  // too many to lie side by side: cards of MIN_W (or what the width allows), rows overlapping
  const w = Math.min(MIN_W, width / 3);
  const cols = Math.max(1, Math.floor((width + GAP) / (w + GAP)));
  const rows = Math.ceil(n / cols);
  const h = w * RATIO;
  const step = rows > 1 ? Math.min(h + GAP, (height - h) / (rows - 1)) : h;
  return { cols, w: Math.floor(w), overlap: Math.max(0, Math.ceil(h - step)) };
}

/** Lay the cards of `hand` out in the space it has (in hand mode). */
export function layoutHand(hand) {
  const cards = hand.querySelectorAll(".card");
  const rect = hand.getBoundingClientRect();
  if (!cards.length || !rect.width || !rect.height) return;
  const style = getComputedStyle(hand);
  const width = rect.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const height = rect.height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  const { cols, w, overlap } = gridFor(cards.length, width, height);
  hand.style.setProperty("--cols", String(cols));
  hand.style.setProperty("--card-w", `${w}px`);
  hand.style.setProperty("--row-overlap", `${overlap}px`);
  hand.dataset.cols = String(cols);
  hand.classList.toggle("overlapped", overlap > 0);
}

/** Undo the phone layout (a wider screen, or the full table shown). */
export function clearHandLayout(hand) {
  for (const prop of ["--cols", "--card-w", "--row-overlap"]) hand.style.removeProperty(prop);
  hand.classList.remove("overlapped");
  delete hand.dataset.cols;
}

const BUZZ = { turn: [90, 60, 90], attack: [220, 80, 220], uno: [60] };

/** Vibrate for a cue (`turn`, `attack`), where the browser allows it (phones only). */
export function buzz(kind) {
  if (!PHONE.matches || !navigator.vibrate || document.hidden) return false;
  try {
    const done = navigator.vibrate(BUZZ[kind] || [80]);
    if (done) document.body.dataset.lastBuzz = kind;
    return done;
  } catch {
    return false;
  }
}

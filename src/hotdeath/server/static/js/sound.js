// Sounds made with the Web Audio API (no sound files): your turn, an attack on you, a card
// played, an Uno call, the end of a hand. One mute toggle, remembered in this browser; in a
// background tab only when "also in the background" is on.

const KEY = "hotdeath.sound";
const BG_KEY = "hotdeath.sound.background";
let ctx = null;

/** Whether sound is on (the default) in this browser. */
export function soundOn() { return localStorage.getItem(KEY) !== "off"; }

/** Whether sound plays while the tab is in the background. */
export function soundInBackground() { return localStorage.getItem(BG_KEY) === "on"; }

/** Turn sound on or off (remembered). */
export function setSound(on) { localStorage.setItem(KEY, on ? "on" : "off"); }

/** Let sound play in a background tab, or not (remembered). */
export function setSoundInBackground(on) { localStorage.setItem(BG_KEY, on ? "on" : "off"); }

const TUNES = {
  turn: [[660, 0, 0.09], [880, 0.1, 0.12]],
  attack: [[220, 0, 0.12, "sawtooth"], [196, 0.12, 0.18, "sawtooth"]],
  card: [[520, 0, 0.05, "triangle"]],
  uno: [[784, 0, 0.08], [988, 0.09, 0.08], [1175, 0.18, 0.16]],
  hand: [[523, 0, 0.12], [659, 0.13, 0.12], [784, 0.26, 0.24]],
};

/** Play one of the table's sounds (`turn`, `attack`, `card`, `uno`, `hand`). */
export function playSound(name) {
  if (!soundOn() || (document.hidden && !soundInBackground())) return false;
  const tune = TUNES[name];
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!tune || !Ctx) return false;
  try {
    ctx = ctx || new Ctx();
    if (ctx.state === "suspended") ctx.resume();
    const start = ctx.currentTime + 0.01;
    for (const [freq, at, length, type] of tune) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = type || "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.18, start + at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start + at);
      osc.stop(start + at + length + 0.02);
    }
  } catch {
    return false;
  }
  document.body.dataset.lastSound = name;
  return true;
}

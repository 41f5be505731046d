// Table chat and quick reactions over the WebSocket (docs/protocol.md: chat, react).
// Every line is shown with textContent, never as HTML. A mute per person is kept in this
// browser (localStorage); bots never chat.

import { el } from "./common.js";

const MUTE_KEY = "hotdeath.muted";
const C = { send: null, lines: [], reactions: {}, unread: 0, open: false, me: null };

function muted() {
  try { return new Set(JSON.parse(localStorage.getItem(MUTE_KEY) || "[]")); } catch { return new Set(); }
}

function personKey(line) {
  return line.seat === null || line.seat === undefined ? `watcher:${line.name}` : `seat:${line.seat}:${line.name}`;
}

function toggleMute(key) {
  const set = muted();
  if (set.has(key)) set.delete(key); else set.add(key);
  localStorage.setItem(MUTE_KEY, JSON.stringify([...set]));
  render();
}

/** Start the chat pane: `send(obj)` sends a message on the table's WebSocket. */
export function initChat(send) {
  C.send = send;
  const form = document.getElementById("chat-form");
  const input = document.getElementById("chat-input");
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (C.send({ type: "chat", text })) input.value = "";
  });
}

/** The chat lines and reactions a `welcome` carries. */
export function chatWelcome(msg, mySeat) {
  C.me = mySeat;
  C.lines = (msg.chat || []).slice();
  C.reactions = msg.reactions || {};
  const box = document.getElementById("reactions");
  box.replaceChildren(...Object.entries(C.reactions).map(([id, words]) =>
    el("button", { class: "btn small ghost", type: "button", "data-reaction": id,
      onclick: () => C.send({ type: "react", reaction: id }) }, words)));
  render();
}

/** One new line (a `chat` message). */
export function chatLine(line) {
  C.lines.push(line);
  if (C.lines.length > 200) C.lines.shift();
  if (!muted().has(personKey(line)) && !C.open) {
    C.unread += 1;
    const badge = document.getElementById("chat-unread");
    badge.textContent = String(C.unread);
    badge.classList.remove("hidden");
  }
  render();
}

/** The chat tab was opened (or closed). */
export function chatShown(open) {
  C.open = open;
  if (open) {
    C.unread = 0;
    document.getElementById("chat-unread").classList.add("hidden");
  }
}

function render() {
  const list = document.getElementById("chat-log");
  if (!list) return;
  const off = muted();
  const items = [];
  for (const line of C.lines) {
    const key = personKey(line);
    const mine = line.seat !== null && line.seat === C.me;
    const who = el("button", {
      class: "who", type: "button", title: off.has(key) ? `Unmute ${line.name}` : `Mute ${line.name}`,
      onclick: () => toggleMute(key),
    });
    who.textContent = line.name;
    const text = el("span", { class: "text" });
    text.textContent = off.has(key) ? "(muted)" : line.text;
    items.push(el("li", { class: `chat-line ${line.kind}${mine ? " mine" : ""}${off.has(key) ? " muted" : ""}`, "data-idx": line.idx },
      mine ? el("span", { class: "who me" }, "You") : who, text));
  }
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

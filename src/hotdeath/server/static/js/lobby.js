// The lobby: create a table (game, preset, house rules, seats, bots, names) and join it.

import { api, cardImg, el, loadCards } from "./common.js";

const $ = (id) => document.getElementById(id);
let catalog = null;

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.classList.toggle("hidden", !message);
  if (message) box.scrollIntoView({ behavior: "smooth", block: "center" });
}

function currentVariant() {
  return catalog.variants.find((v) => v.name === $("variant").value);
}

function presetOptions() {
  const v = currentVariant();
  const p = v.presets[$("preset").value];
  return (p && p.options) || {};
}

function botChoices() {
  // the ladder's levels in people's words, each with its measured rating in the game
  // chosen, weakest first by that rating; a level rated only in other games does not
  // play this one, and one rated nowhere (offered at another budget) comes last
  const menu = catalog.bot_menu || [];
  const variant = $("variant").value;
  const rated = (b) => (b.rating && b.rating[variant]) || null;
  const order = menu.map((b, i) => ({ b, i, r: rated(b) }))
    .filter(({ b, r }) => r || !b.rating || Object.keys(b.rating).length === 0);
  order.sort((x, y) => (x.r ? x.r.rating : Infinity) - (y.r ? y.r.rating : Infinity) || x.i - y.i);
  return order.map(({ b, r }) => {
    const name = `${b.label[0].toUpperCase()}${b.label.slice(1)}`;
    const rating = r ? ` · rated ${r.rating}` : "";
    const busy = b.busy ? ` · busy (${b.busy})` : "";
    const why = r ? ` Rated ${r.rating} (95% interval ${r.low}–${r.high}) at ${r.players} `
      + `players, from ${r.by === "points" ? "each hand's points" : "whole games"} on the same deals.` : "";
    return {
      spec: b.spec, bot: b.spec.split(":")[0], label: `${name}${rating}${busy}`,
      help: `${b.help}${why} (advanced: ${b.spec})`, isDefault: b.default, busy: Boolean(b.busy),
    };
  });
}

function renderFan() {
  const fan = $("fan");
  ["HOT", "RET", "R7", "SHIELD", "WD4"].forEach((code, i) => {
    const img = cardImg(code);
    img.style.transform = `rotate(${(i - 2) * 13}deg)`;
    fan.append(img);
  });
}

function renderVariants() {
  const sel = $("variant");
  sel.replaceChildren(...catalog.variants.map((v) => el("option", { value: v.name }, v.title)));
  const preferred = catalog.default_variant;
  sel.value = catalog.variants.some((v) => v.name === preferred) ? preferred : catalog.variants[0].name;
  onVariant();
}

function onVariant() {
  const v = currentVariant();
  $("rules-link").href = `/rules/${encodeURIComponent(v.name)}`;
  $("variant-desc").textContent = v.description || "";
  const presets = Object.entries(v.presets);
  $("preset").replaceChildren(
    ...presets.map(([name, p]) => el("option", { value: name }, p.title || name)),
  );
  $("preset").value = v.default_preset || presets[0][0];
  const seats = $("seats");
  seats.min = String(v.players.min);
  seats.max = String(Math.min(10, v.players.max));
  if (Number(seats.value) < v.players.min || Number(seats.value) > v.players.max) {
    seats.value = String(v.players.default);
  }
  onPreset();
  renderSeats();
}

/** A value of an option in words: its label, yes/no, or the number. */
function valueWords(opt, value) {
  if (opt.type === "bool") return value ? "yes" : "no";
  const label = opt.labels && opt.labels[String(value)];
  return label || String(value);
}

/**
 * The ⓘ of an option: its choices in words; its identifier in the notation (for the
 * command line and the API) only under the original card names, since some identifiers
 * carry the original names' strong language that the family names leave out.
 */
function optionInfo(opt) {
  const choices = opt.type === "int"
    ? `a number${opt.values.length ? ` from ${opt.values[0]} to ${opt.values[opt.values.length - 1]}` : ""}`
    : opt.values.map((val) => valueWords(opt, val)).join("; ");
  const original = document.querySelector("input[name=theme]:checked")?.value === "original";
  return `Rule ${opt.rule}. Choices: ${choices}.${original ? ` Notation: ${opt.name}` : ""}`;
}

function refreshOptionInfo() {
  const v = currentVariant();
  if (!v) return;
  for (const node of document.querySelectorAll("[data-option-info]")) {
    const opt = v.options.find((o) => o.name === node.dataset.optionInfo);
    if (opt) node.title = optionInfo(opt);
  }
}

function onPreset() {
  const v = currentVariant();
  const p = v.presets[$("preset").value];
  const changes = Object.entries((p && p.options) || {}).map(([name, value]) => {
    const opt = v.options.find((o) => o.name === name);
    return opt ? `${opt.title}: ${valueWords(opt, value).toLowerCase()}` : null;
  }).filter(Boolean);
  $("preset-desc").textContent = [(p && p.sentence) || "",
    changes.length ? `It changes: ${changes.join("; ")}.` : ""].filter(Boolean).join(" ");
  renderOptions();
}

function optionControl(opt, value) {
  const id = `opt-${opt.name}`;
  let input;
  if (opt.type === "bool") {
    input = el("select", { id, "data-type": "bool" },
      el("option", { value: "true" }, "yes"), el("option", { value: "false" }, "no"));
    input.value = value ? "true" : "false";
  } else if (opt.type === "int") {
    input = el("input", { id, type: "number", min: opt.values[0], max: opt.values[1], "data-type": "int" });
    input.value = String(value);
  } else {
    // the option's own values, typed (an integer choice stays an integer): by position
    input = el("select", { id, "data-type": "choice" },
      ...opt.values.map((val, i) => el("option", { value: String(i) }, valueWords(opt, val))));
    input.value = String(Math.max(0, opt.values.findIndex((val) => val === value)));
  }
  input.dataset.option = opt.name;
  return input;
}

function readControl(input, opt) {
  if (input.dataset.type === "bool") return input.value === "true";
  if (input.dataset.type === "int") return Number(input.value);
  return opt.values[Number(input.value)];
}

function renderOptions() {
  const v = currentVariant();
  const base = presetOptions();
  const list = $("options");
  list.replaceChildren();
  const groups = new Map(Object.keys(catalog.option_groups || {}).map((g) => [g, []]));
  for (const opt of v.options) {
    if (opt.type !== "int" && opt.values.length < 2) continue; // fixed by the variant
    const value = opt.name in base ? base[opt.name] : opt.default;
    const control = optionControl(opt, value);
    const box = el("div", { class: "option", "data-name": opt.name },
      el("label", { class: "name", for: control.id }, opt.title || opt.name),
      el("div", { class: "desc" }, opt.sentence || ""),
      control,
      el("div", { class: "rule" }, `rule ${opt.rule} · preset: ${valueWords(opt, value)} `,
        el("span", { class: "advanced", "data-option-info": opt.name, title: optionInfo(opt), tabindex: 0 }, "ⓘ")));
    control.addEventListener("change", () => {
      box.classList.toggle("changed", readControl(control, opt) !== value);
      countChanged();
    });
    if (!groups.has(opt.group)) groups.set(opt.group, []);
    groups.get(opt.group).push(box);
  }
  for (const [group, boxes] of groups) {
    if (!boxes.length) continue;
    list.append(el("fieldset", { class: "option-group", "data-group": group },
      el("legend", {}, (catalog.option_groups || {})[group] || "Other rules"), ...boxes));
  }
  countChanged();
}

function changedOptions() {
  const v = currentVariant();
  const base = presetOptions();
  const out = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const spec = v.options.find((o) => o.name === input.dataset.option);
    const preset = spec.name in base ? base[spec.name] : spec.default;
    const value = readControl(input, spec);
    if (value !== preset) out[spec.name] = value;
  }
  return out;
}

function countChanged() {
  $("changed-count").textContent = String(Object.keys(changedOptions()).length);
}

function renderSeats() {
  const n = Number($("seats").value);
  $("seats-out").textContent = String(n);
  const list = $("seat-list");
  const previous = Array.from(list.querySelectorAll("select"), (s) => s.value);
  const choices = botChoices();
  const wanted = (catalog.defaults && catalog.defaults.bot) || "";
  const defaultBot = choices.find((c) => c.spec === wanted)
    || choices.find((c) => c.bot === wanted.split(":")[0] && c.isDefault) || choices[0];
  list.replaceChildren(el("div", { class: "seat-cfg" },
    el("span", { class: "num" }, "1"), el("strong", {}, "You (the host)")));
  for (let seat = 1; seat < n; seat += 1) {
    const sel = el("select", { "aria-label": `Seat ${seat + 1}`, "data-seat": seat },
      el("option", { value: "open" }, "Open seat (a friend)"),
      ...choices.map((c) => el("option", { value: c.spec, title: c.help, disabled: c.busy }, c.label)));
    sel.value = previous[seat - 1] || defaultBot.spec;
    list.append(el("div", { class: "seat-cfg" }, el("span", { class: "num" }, String(seat + 1)), sel));
  }
}

async function onCreate(event) {
  event.preventDefault();
  showError("");
  const name = $("name").value.trim();
  if (!name) {
    showError("Please enter your display name: the others see it at the table.");
    $("name").focus();
    return;
  }
  const bots = {};
  for (const sel of $("seat-list").querySelectorAll("select")) {
    if (sel.value !== "open") bots[sel.dataset.seat] = sel.value;
  }
  const takeover = $("takeover").value;
  const body = {
    variant: $("variant").value,
    preset: $("preset").value,
    options: changedOptions(),
    seats: Number($("seats").value),
    bots,
    theme: document.querySelector("input[name=theme]:checked").value,
    bot_delay: Number($("bot-delay").value),
    takeover_timeout: takeover === "never" ? null : Number(takeover),
    turn_timer: $("turn-timer").value === "off" ? null : Number($("turn-timer").value),
    public: $("public").checked,
    hints: { auto: null, on: true, off: false }[$("hints").value] ?? null,
    breather: (catalog.defaults && catalog.defaults.breather) || 20,
  };
  const tableName = $("table-name").value.trim();
  if (tableName) body.name = tableName;
  const button = $("create-btn");
  button.disabled = true;
  try {
    const created = await api("/api/tables", { method: "POST", body });
    const id = created.table_id;
    localStorage.setItem(`hotdeath.host.${id}`, created.host_token);
    const joined = await api(`/api/tables/${id}/join`, { method: "POST", body: { name, seat: 0 } });
    localStorage.setItem(`hotdeath.token.${id}`, joined.token);
    localStorage.setItem("hotdeath.name", name);
    window.location.href = `/t/${id}`;
  } catch (err) {
    showError(`${err.message} (${err.code})`);
    button.disabled = false;
  }
}

/** A table link, or a short code (asked of the server: it opens the table, never a seat). */
async function onJoin(event) {
  if (event) event.preventDefault();
  const text = $("join-link").value.trim();
  const box = $("join-error");
  box.classList.add("hidden");
  if (!text) return;
  const match = text.match(/\/t\/([^/?#\s]+)/);
  if (match) {
    const query = text.includes("?") ? text.slice(text.indexOf("?")) : "";
    window.location.href = `/t/${match[1]}${query}`;
    return;
  }
  // a code, typed or in an address (http://host/K7PQ)
  const code = text.replace(/^[a-z]+:\/\/[^/]+\//i, "").replace(/[/?#].*$/, "");
  try {
    const found = await api(`/api/codes/${encodeURIComponent(code)}`);
    window.location.href = found.link;
  } catch (err) {
    box.textContent = `${err.message} (${err.code})`;
    box.dataset.code = err.code;
    box.classList.remove("hidden");
  }
}

/** The public tables waiting for players (GET /api/tables), as a list to join. */
async function renderOpenTables() {
  const box = $("open-tables");
  let data;
  try { data = await api("/api/tables"); } catch { return; }
  const rows = data.tables.map((t) => el("li", { class: "open-table", "data-table": t.table_id },
    el("a", { href: t.link, class: "name" }, t.name),
    el("span", { class: "muted" }, ` · ${t.variant_title}, ${t.preset_title} · `),
    el("strong", {}, `${t.seats_free} of ${t.players} seat${t.players === 1 ? "" : "s"} free`),
    t.turn_timer ? el("span", { class: "muted" }, ` · ${t.turn_timer} s a move`) : null,
    el("div", { class: "hint" }, t.house_rules.length ? `House rules: ${t.house_rules.join("; ")}` : "No house rules changed")));
  box.replaceChildren(rows.length ? el("ul", { class: "open-list" }, ...rows)
    : el("p", { class: "hint", id: "no-open-tables" }, "No open table right now: open one and tick “List it in the lobby”."));
}

async function main() {
  renderFan();
  $("name").value = localStorage.getItem("hotdeath.name") || "";
  $("seats").addEventListener("input", renderSeats);
  $("variant").addEventListener("change", onVariant);
  $("preset").addEventListener("change", onPreset);
  $("bot-delay").addEventListener("input", () => {
    $("bot-delay-out").textContent = `${Number($("bot-delay").value).toFixed(1)} s`;
  });
  $("create").addEventListener("submit", onCreate);
  $("join").addEventListener("submit", onJoin);
  for (const radio of document.querySelectorAll("input[name=theme]")) {
    radio.addEventListener("change", refreshOptionInfo);
  }
  try {
    [catalog] = await Promise.all([api("/api/variants"), loadCards()]);
  } catch (err) {
    showError(`Cannot reach the server: ${err.message}`);
    return;
  }
  if (catalog.defaults && catalog.defaults.bot_delay !== undefined) {
    $("bot-delay").value = String(catalog.defaults.bot_delay);
    $("bot-delay-out").textContent = `${Number(catalog.defaults.bot_delay).toFixed(1)} s`;
  }
  renderVariants();
  await renderOpenTables();
  // a wrong code in the address (/{CODE}) comes here: say why, with the code to correct
  const wrong = new URLSearchParams(window.location.search).get("code");
  if (wrong) {
    $("join-link").value = wrong;
    await onJoin(null);
    $("join-link").focus();
  }
  document.body.dataset.ready = "1";
}

main();

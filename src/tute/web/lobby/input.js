// The lobby's controls: each change is kept in L (and redrawn where the form changes); the
// buttons start a quick game, create a table or find one by its code.
import { t } from "../i18n.js";
import { api, local, variantOf } from "../util.js";
import { app, nav } from "../shell.js";
import { lengthChoices, lengthKeys, same, seatCount } from "./forms.js";
import { defaultSeats } from "./state.js";
import { render } from "./render.js";

const $ = (x) => document.getElementById(x);
const err = (where, e) => { $(where).textContent = e.message; };

function name() {
  const n = $("name").value.trim().slice(0, 24);
  local.name = n;
  return n;
}

export function bind(L) {
  $("name").addEventListener("input", name);
  $("q-variant").onchange = (e) => { L.quickVariant = e.target.value; L.quickLength = 0; render(L); };
  $("q-length").onchange = (e) => { L.quickLength = Number(e.target.value); };
  $("q-level").onchange = (e) => { L.quickLevel = e.target.value; };
  $("quick-play").onclick = () => quickPlay(L);
  $("c-variant").onchange = (e) => {
    L.variant = e.target.value; L.opts = {}; L.length = 0; L.seats = defaultSeats(L); render(L);
  };
  $("c-length").onchange = (e) => {
    L.length = Number(e.target.value);
    for (const k of lengthKeys(L.variant)) delete L.opts[k];
    Object.assign(L.opts, lengthChoices(L.variant)[L.length]?.[0] || {});
    render(L);
  };
  $("c-public").onchange = (e) => { L.public = e.target.checked; };
  $("c-chat").onchange = (e) => { L.chat = e.target.checked; };
  $("c-hints").onchange = (e) => { L.hints = e.target.checked; };
  $("c-clock").onchange = (e) => { L.clock = Number(e.target.value); };
  $("house-rules")?.addEventListener("toggle", (e) => { L.rulesOpen = e.target.open; });
  $("reset-rules")?.addEventListener("click", () => { L.opts = {}; L.length = 0; L.seats = defaultSeats(L); render(L); });
  app.querySelectorAll("[data-opt]").forEach((el) => { el.onchange = () => setOption(L, el); });
  app.querySelectorAll("select[data-seat]").forEach((sel) => {
    sel.onchange = () => {
      const i = Number(sel.dataset.seat);
      if (sel.value === "you") L.seats = L.seats.map((s) => (s === "you" ? "open" : s));
      L.seats[i] = sel.value;
      if (!L.seats.includes("you")) L.seats[0] = "you";
      render(L);
    };
  });
  $("create-btn").onclick = () => create(L);
  $("code-form").onsubmit = (ev) => byCode(L, ev);
}

async function quickPlay(L) {
  try {
    const options = lengthChoices(L.quickVariant)[L.quickLength]?.[0] || {};
    const r = await api("POST", "/api/play", { variant: L.quickVariant, level: L.quickLevel, name: name(), options });
    local.keep(r.id, r.seat, r.token, L.quickVariant);
    nav(r.url);
  } catch (e) { err("quick-error", e); }
}

async function create(L) {
  try {
    const r = await api("POST", "/api/tables", { variant: L.variant, options: L.opts, seats: L.seats, name: name(), public: L.public, chat: L.chat, hints: L.hints, clock: L.clock });
    local.keep(r.id, r.seat, r.token, L.variant);
    nav(r.url);
  } catch (e) { err("create-error", e); }
}

async function byCode(L, ev) {
  ev.preventDefault();
  const c = $("code").value.replace(/[\s-]/g, "").toUpperCase();
  if (!/^[A-Z0-9]{6}$|^[A-Z0-9]{8}$/.test(c)) { L.joinError = t("codeShort"); $("join-error").textContent = L.joinError; return; }
  try {
    const r = await api("GET", `/api/code/${encodeURIComponent(c)}`);
    L.joinError = "";
    nav(`/t/${r.id}`);
  } catch (e) {
    L.joinError = e.code === "not_found" ? t("joinError") : e.message;
    $("join-error").textContent = L.joinError;
  }
}

// A house rule changed: keep only what differs from the game's default (the server
// validates every value, as for any client).
function setOption(L, el) {
  const v = variantOf(L.variant);
  const opt = el.dataset.opt;
  const spec = v.option_specs.find((s) => s.name === opt);
  let value;
  if (spec.kind === "bool") value = el.checked;
  else if (spec.kind === "choice") value = JSON.parse(el.value);
  else if (spec.kind === "match") {
    const box = el.closest(".match-ctl");
    const mode = box.querySelector('[data-part="mode"]').value;
    const n = Number(box.querySelector('[data-part="n"]').value) || 1;
    value = mode === "race" ? { mode, games: n } : { mode, deals: n };
  } else if (el.value === "") value = spec.kind === "int_or_null" ? null : spec.default;
  else value = Number(el.value);
  if (same(value, spec.default)) delete L.opts[opt]; else L.opts[opt] = value;
  const seats = seatCount(v, L.opts);
  if (seats !== L.seats.length) { L.seats = defaultSeats(L); render(L); }
}

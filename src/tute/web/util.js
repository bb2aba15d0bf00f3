// Small helpers shared by the pages: escaping, the API, what this browser keeps.
import { errorText, getLang } from "./i18n.js";

export const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => (
  { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const CARD_RE = /^[A234567SCR][oceb]$/;
export const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

// An update carries only what changed in the state (docs/protocol.md): top-level keys replace,
// keys under "deal" replace one by one.
export function applyDelta(state, delta) {
  const out = { ...state };
  for (const [k, v] of Object.entries(delta)) out[k] = k === "deal" ? { ...state.deal, ...v } : v;
  return out;
}

export const local = {
  get name() { return localStorage.getItem("tute.name") || ""; },
  set name(v) { localStorage.setItem("tute.name", v); },
  seats() {
    try { return JSON.parse(localStorage.getItem("tute.seats") || "{}"); } catch { return {}; }
  },
  seat(id) { return this.seats()[id] || null; },
  keep(id, seat, token, variant) {
    const all = this.seats();
    all[id] = { seat, token, variant, at: Date.now() };
    localStorage.setItem("tute.seats", JSON.stringify(all));
  },
  forget(id) {
    const all = this.seats();
    delete all[id];
    localStorage.setItem("tute.seats", JSON.stringify(all));
  },
  // the seats this browser holds, newest first, as the history's X-Tute-Seats header
  seatsHeader() {
    return Object.entries(this.seats()).filter(([, s]) => s && s.token)
      .sort((a, b) => (b[1].at || 0) - (a[1].at || 0)).slice(0, 50)
      .map(([id, s]) => `${id}:${s.token}`).join(",");
  },
  get sound() { return localStorage.getItem("tute.sound") === "on"; },
  set sound(v) { localStorage.setItem("tute.sound", v ? "on" : "off"); },
};

// Errors carry the server's stable code; the message is in the page's language.
export async function api(method, path, body, headers = {}) {
  const res = await fetch(path, {
    method, headers: body ? { "Content-Type": "application/json", ...headers } : headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(errorText(data.error, data.reason || res.statusText));
    err.code = data.error;
    err.data = data;  // the whole refusal (a tutorial's carries its reason in both languages)
    throw err;
  }
  return data;
}

let variants = null;
export async function loadVariants() {
  if (!variants) variants = (await api("GET", "/api/variants")).variants;
  return variants;
}
export const variantsNow = () => variants || [];
export function variantOf(id) { return variantsNow().find((x) => x.id === id) || null; }
// A game's description and rules as the server gives them with the game (tute.games).
export function gameInfo(id) {
  const words = variantOf(id)?.words;
  const g = words && (words[getLang()] || words.es);
  return g ? { desc: g.desc, rules: g.rules } : null;
}

// The table's sounds, each a short oscillator blip (no audio files): [frequency, ms, gain].
const SOUNDS = { card: [380, 40, 0.05], trick: [560, 110, 0.06], turn: [660, 90, 0.05], refused: [200, 120, 0.05], toggle: [520, 60, 0.05] };
export function blip(kind) {
  const s = SOUNDS[kind];
  if (s) beep(...s);
}

let audio = null;
export function beep(freq = 520, ms = 60, gain = 0.05) {
  if (!local.sound) return;
  try {
    audio = audio || new AudioContext();
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = freq; g.gain.value = gain;
    o.connect(g).connect(audio.destination);
    o.start(); o.stop(audio.currentTime + ms / 1000);
  } catch { /* no audio: nothing to do */ }
}

// Set an element's HTML only when it changed: a redraw then restarts no animation and keeps
// the focus and scroll of the parts that stayed the same.
export function setHTML(el, html) {
  if (el && el._html !== html) {
    el.innerHTML = html;
    el._html = html;
    return true;
  }
  return false;
}

// What the player does at the table: play a card or a bid, the buttons and dialogs, the chat,
// taking a seat and the game after this one.
import { t } from "../i18n.js";
import { api, local, CARD_RE } from "../util.js";
import { nav } from "../shell.js";
import { explainPref } from "../learn.js";
import { seatName, sound } from "./state.js";
import { send } from "./socket.js";
import { currentAccount, w } from "../account.js";
import { render } from "./render.js";

export function play(T, action, el, rect) {
  if (!T.state || T.pending || T.seat === null) return;
  if (T.state.deal.to_move !== T.seat) { T.message = t("waitingFor", seatName(T, T.state.deal.to_move)); render(T); return; }
  if (el && CARD_RE.test(action)) T.from = { card: action, rect: rect || el.getBoundingClientRect() };
  T.pending = true;
  T.message = "";
  T.sentAt = performance.now();  // the browser tests read the latency of a play from here
  send(T, { type: "act", action, v: T.v });
}

// What was opened to look at (the score sheet, the rules) closes back to what it covered.
export function closeLook(T) {
  T.overlay = T.overlayBefore && T.overlayBefore !== "sheet" && T.overlayBefore !== "help" ? T.overlayBefore : null;
}

export async function onClick(T, ev) {
  const phrase = ev.target.closest("[data-phrase]");
  if (phrase) { send(T, { type: "chat", phrase: phrase.dataset.phrase }); return; }
  const act = ev.target.closest("[data-action]");
  if (act) { play(T, act.dataset.action); return; }
  const b = ev.target.closest("[data-do]");
  if (!b) return;
  const what = b.dataset.do;
  if (what === "chat-toggle" || what === "log-toggle") {
    // <details> toggles itself after this click: remember it for the next redraw
    setTimeout(() => {
      if (what === "chat-toggle") { T.chatOpen = b.parentElement.open; T.unread = 0; } else T.logOpen = b.parentElement.open;
      render(T);
    }, 0);
    return;
  }
  switch (what) {
    case "sound": local.sound = !local.sound; render(T); sound(T, "toggle"); break;
    case "side": T.sideOpen = !T.sideOpen; render(T); break;
    case "chat-jump":  // the phone's badge: the side panel and its chat opened, in view, its lines read
      T.chatOpen = true; T.unread = 0; T.sideOpen = true; render(T);
      document.getElementById("chat-box")?.scrollIntoView({ block: "end" });
      break;
    case "hint":
      if (T.hinting) break;
      T.hinting = true; T.message = "";
      send(T, { type: "hint", ref: `hint${++T.hintN}` });
      render(T);
      break;
    case "explain": T.explain = !T.explain; explainPref.on = T.explain; render(T); break;
    case "last": T.showLast = !T.showLast; render(T); break;
    case "sheet": T.overlayBefore = T.overlay; T.overlay = "sheet"; render(T); break;
    case "help": T.overlayBefore = T.overlay; T.overlay = "help"; render(T); break;
    case "close": closeLook(T); T.overlayBefore = null; render(T); break;
    case "continue": T.overlay = null; render(T); break;
    case "bid-more": play(T, document.getElementById("bid-more").value); break;
    case "copy":
      try { await navigator.clipboard.writeText(document.getElementById("invite-link").textContent); b.textContent = t("copied"); } catch { /* no clipboard */ }
      break;
    case "fill": send(T, { type: "fill_bots" }); break;
    case "join": await join(T); break;
    case "leave": await leave(T); break;
    case "again": await again(T); break;
    default: break;
  }
}

export function onSubmit(T, ev) {
  if (ev.target.id !== "chat-form") return;
  ev.preventDefault();
  const input = document.getElementById("chat-input");
  const text = input.value.trim();
  if (text) send(T, { type: "chat", text: text.slice(0, 200) });
  input.value = "";
}

// Logged in, the seat is taken through the account: linked to it at once, so a rated
// table's game is rated (an anonymous seat would leave it unrated).
async function join(T) {
  const name = document.getElementById("join-name").value.trim().slice(0, 24);
  const id = encodeURIComponent(T.id);
  try {
    const account = await currentAccount();
    if (!account) local.name = name;
    const r = account ? await api("POST", `/api/account/tables/${id}/join`, {})
      : await api("POST", `/api/tables/${id}/join`, { name });
    local.keep(T.id, r.seat, r.token, T.info.variant);
    T.token = r.token;
    T.ws.close();  // reconnect with the new token
  } catch (e) { T.message = e.message; render(T); }
}

// Leaving a rated game on purpose: asked first, saying what it costs; the bot plays on and
// the server closes this seat's socket (the page then says the player left).
async function leave(T) {
  if (!confirm(w("leave_confirm", { penalty: T.rated?.penalty ?? 2 }))) return;
  try {
    await api("POST", `/api/account/tables/${encodeURIComponent(T.id)}/leave`);
  } catch (e) { T.message = e.message; render(T); }
}

// A rematch keeps the players and the level; a spectator starts a game of his own.
async function again(T) {
  if (T.seat !== null) {
    if (T.rematch?.token) { nav(T.rematch.url); return; }
    T.rematchWaiting = true;
    send(T, { type: "rematch" });
    render(T);
    return;
  }
  try {
    const r = await api("POST", "/api/play", { variant: T.info.variant, level: "medio", name: local.name, options: T.info.options });
    local.keep(r.id, r.seat, r.token, T.info.variant);
    nav(r.url);
  } catch (e) { T.message = e.message; render(T); }
}
